/* Runs the C harness's statistics (c/harness_stats.c) on the shared vectors (test/vectors/stats.json), which
   test/stats-vectors.test.ts writes to stdin one a line: `<kind> <numbers...>`. Prints one answer a line: a number
   (%.17g), `inf`, `null`, or 0/1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness_internal.h"

static void read_series(series *s, int n) {
  for (int i = 0; i < n; i++) {
    double x;
    if (scanf("%lf", &x) != 1) exit(2);
    kfh_push(s, x);
  }
}

static void print_num(double x) {
  if (isinf(x)) printf("inf\n");
  else printf("%.17g\n", x);
}

int main(void) {
  static struct harness h;
  char kind[32];
  while (scanf("%31s", kind) == 1) {
    series s = {0};
    int n;
    memset(&h.plan, 0, sizeof h.plan);
    if (!strcmp(kind, "quantile")) {
      double q;
      if (scanf("%lf %d", &q, &n) != 2) return 2;
      read_series(&s, n);
      print_num(kfh_quantile(s.v, s.n, q));
    } else if (!strcmp(kind, "median_rse")) {
      if (scanf("%d", &n) != 1) return 2;
      read_series(&s, n);
      print_num(kfh_median_rse(&s));
    } else if (!strcmp(kind, "median_rel_half_width")) {
      if (scanf("%d", &n) != 1) return 2;
      read_series(&s, n);
      print_num(kfh_median_rel_half_width(&s));
    } else if (!strcmp(kind, "converged")) {
      if (scanf("%lf %lf %lf %d", &h.plan.min_samples, &h.plan.min_ms, &h.plan.target_rse, &n) != 4) return 2;
      read_series(&s, n);
      printf("%d\n", kfh_converged(&h, &s));
    } else if (!strcmp(kind, "speedup_converged")) {
      if (scanf("%lf %d", &h.plan.speedup_half_width, &n) != 2) return 2;
      read_series(&s, n);
      printf("%d\n", kfh_speedup_converged(&h, &s));
    } else if (!strcmp(kind, "flagged_rejects")) {
      int flagged, calls;
      if (scanf("%d %lf %d %d", &h.plan.flagged_min, &h.plan.flagged_share, &flagged, &calls) != 4) return 2;
      printf("%d\n", kfh_flagged_rejects(&h.plan, flagged, calls));
    } else if (!strcmp(kind, "waited")) {
      double share, cpu, wait;
      if (scanf("%lf %lf %lf", &share, &cpu, &wait) != 3) return 2;
      printf("%d\n", kfh_waited(share, cpu, wait));
    } else if (!strcmp(kind, "wait_share")) {
      double cpu, wait, w;
      if (scanf("%lf %lf", &cpu, &wait) != 2) return 2;
      w = kfh_wait_share(cpu, wait);
      if (w < 0) printf("null\n");
      else print_num(w);
    } else {
      return 2;
    }
    kfh_series_free(&s);
  }
  return 0;
}
