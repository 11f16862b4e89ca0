/* The core budget: the candidate and the baseline get the same cpus, the ones free when the evaluation begins, and
   the report states them with every figure (issue 20; docs/evaluation.md, "The core budget").

   Without it, a neighbour busy on one core of two halves a two-thread candidate while the one-thread baseline
   keeps a core of its own: the speedup then measures the neighbour. With it, both sides run on the free cores and
   a threaded kernel sizes its pool to them (OpenMP reads the affinity mask when it starts).

   How: /proc/stat's per-cpu counters are read twice, KF_BUDGET_PROBE_MS apart, while the harness sleeps (so its own
   work is not counted), before any worker starts; a cpu is free when it was busy less than half of that window
   (a busy neighbour shows 100%, an idle core 0-20%: the threshold sits far from both). The harness then confines
   itself to the free cpus (sched_setaffinity) and every worker it starts inherits that. When no cpu is free, or
   every allowed cpu is, nothing changes (the budget is every allowed cpu) and the load figures say the machine was
   busy.

   A candidate may still place its own threads (the tuner's matmul moves each thread of its team to a cpu of its
   own at the start of a call: on this VM that halves its time), so sched_setaffinity is not denied. Instead, after
   every timed call, outside its window, a narrowed budget is kept (kfh_keep_budget): a thread found with cpus
   outside the budget is set back to the part of them inside it (all of the budget when none is), and the result
   counts it (`budget_resets`) and is flagged for review, never ranked silently. A thread that widens and narrows
   again within one call is not seen (docs/evaluation.md says so). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "harness_internal.h"

#define KF_BUDGET_PROBE_MS 50
#define KF_MAX_CPUS 1024

/* The budget kfh_core_budget picked (kept by kfh_keep_budget). */
static cpu_set_t budget_set;

/* busy and total ticks of each cpu from /proc/stat; the number of cpu lines read, or -1. */
static int read_cpu_ticks(unsigned long long *busy, unsigned long long *total) {
  FILE *f = fopen("/proc/stat", "r");
  if (!f) return -1;
  char line[512];
  int n = 0;
  for (int i = 0; i < KF_MAX_CPUS; i++) busy[i] = total[i] = 0;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "cpu", 3) != 0) break;
    int cpu;
    unsigned long long v[8] = {0};
    if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &v[6], &v[7]) < 5)
      continue; /* the aggregate "cpu " line */
    if (cpu < 0 || cpu >= KF_MAX_CPUS) continue;
    /* user nice system idle iowait irq softirq steal: steal is busy too (the host took the cpu). */
    busy[cpu] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    total[cpu] = busy[cpu] + v[3] + v[4];
    n++;
  }
  fclose(f);
  return n;
}

/* "0-3,5" for a set. */
static void format_cpus(const cpu_set_t *set, char *out, size_t size) {
  size_t len = 0;
  out[0] = 0;
  for (int c = 0; c < KF_MAX_CPUS; c++) {
    if (!CPU_ISSET(c, set)) continue;
    int end = c;
    while (end + 1 < KF_MAX_CPUS && CPU_ISSET(end + 1, set)) end++;
    int w = end > c ? snprintf(out + len, size - len, "%s%d-%d", len ? "," : "", c, end)
                    : snprintf(out + len, size - len, "%s%d", len ? "," : "", c);
    if (w < 0 || (size_t)w >= size - len) break;
    len += (size_t)w;
    c = end;
  }
}

void kfh_core_budget(struct harness *h) {
  load_t *L = &h->load;
  cpu_set_t allowed, free_set;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  static unsigned long long b0[KF_MAX_CPUS], t0[KF_MAX_CPUS], b1[KF_MAX_CPUS], t1[KF_MAX_CPUS];
  int ok = read_cpu_ticks(b0, t0) > 0;
  struct timespec ts = {0, KF_BUDGET_PROBE_MS * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
  ok = ok && read_cpu_ticks(b1, t1) > 0;
  CPU_ZERO(&free_set);
  for (int c = 0; ok && c < KF_MAX_CPUS; c++) {
    if (!CPU_ISSET(c, &allowed)) continue;
    unsigned long long busy = b1[c] - b0[c], total = t1[c] - t0[c];
    /* No ticks counted (a cpu the kernel kept idle in a tickless way reads 0 of 0): free. */
    if (total == 0 || busy * 2 < total) CPU_SET(c, &free_set);
  }
  int nfree = CPU_COUNT(&free_set);
  const cpu_set_t *budget = &allowed;
  if (nfree > 0 && nfree < CPU_COUNT(&allowed) && sched_setaffinity(0, sizeof free_set, &free_set) == 0) {
    budget = &free_set;
    L->budget_narrow = 1;
  }
  budget_set = *budget;
  L->budget_cores = CPU_COUNT(budget);
  format_cpus(budget, L->budget_cpus, sizeof L->budget_cpus);
}

int kfh_keep_budget(struct harness *h, worker_t *w) {
  if (!h->load.budget_narrow) return 0;
  pid_t tids[256];
  int n = worker_tids(w, tids, 256), reset = 0;
  for (int i = 0; i < n; i++) {
    cpu_set_t mask, inside;
    if (sched_getaffinity(tids[i], sizeof mask, &mask) != 0) continue;
    CPU_AND(&inside, &mask, &budget_set);
    if (CPU_EQUAL(&inside, &mask)) continue;
    if (CPU_COUNT(&inside) == 0) inside = budget_set;
    sched_setaffinity(tids[i], sizeof inside, &inside); /* counted either way: the call ran outside the budget */
    reset++;
  }
  h->load.budget_resets += reset;
  return reset;
}
