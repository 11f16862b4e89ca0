# Readings of processes and cpus from outside (/proc, process cpu clocks): what the harness measures a worker by,
# and the core budget. Part of the harness, never of a worker.
import os
import time


def core_budget(probe_s=0.05):
    """The core budget (c/harness_budget.c has the same rule): the cpus free now, read from /proc/stat's per-cpu
    counters twice, probe_s apart, while this process sleeps; a cpu is free when busy under half that window. The
    harness confines itself to them and every worker it starts inherits that; a candidate that moves its threads
    outside it is set back after each call (keep_budget). None free, or all: every allowed cpu."""

    def ticks():
        out = {}
        with open("/proc/stat") as f:
            for line in f:
                if not line.startswith("cpu"):
                    break
                name, *v = line.split()
                if name == "cpu" or len(v) < 4:
                    continue
                v = [int(x) for x in v[:8]] + [0] * (8 - min(8, len(v)))
                busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
                out[int(name[3:])] = (busy, busy + v[3] + v[4])
        return out

    allowed = os.sched_getaffinity(0)
    try:
        a = ticks()
        time.sleep(probe_s)
        b = ticks()
        free = set()
        for c in allowed:
            if c in a and c in b:
                busy, total = b[c][0] - a[c][0], b[c][1] - a[c][1]
                if total == 0 or busy * 2 < total:
                    free.add(c)
        if 0 < len(free) < len(allowed):
            os.sched_setaffinity(0, free)
            allowed = free
    except (OSError, ValueError):
        pass
    return sorted(allowed)


def cpu_list(cpus):
    parts, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        parts.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(parts)


def proc_cpu(pid):
    """The worker process's cpu time (ns): all its threads, ENDED ONES INCLUDED, read from outside through its
    process cpu clock (clock_gettime on CPUCLOCK_SCHED of the pid, process-wide: clockid ((~pid) << 3) | 2; Linux
    lets any process read it for a pid it can see, across the sandbox's pid namespace). Exact while none of its
    threads is on a cpu (a running thread's share lags by up to a scheduler tick). None when the process is gone.
    Before issue 31 the harness summed the cpu of the threads alive at each reading: a thread born after one
    reading and gone by the next was never counted."""
    try:
        return time.clock_gettime_ns(((~pid) << 3) | 2)
    except OSError:
        return None


def tids_of(pid):
    try:
        return set(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return set()


def thread_cpu(pid):
    """{tid: cpu ns} of the threads alive now (schedstat): only to name the busiest in a message."""
    out = {}
    for t in tids_of(pid):
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                out[t] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return out


def sched_of(pid):
    """(cpu ns, ns runnable but waiting for a cpu) summed over pid's threads (schedstat's first two fields)."""
    cpu = wait = 0
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                    fields = f.read().split()
                cpu += int(fields[0])
                wait += int(fields[1])
            except (OSError, IndexError, ValueError):
                pass
    except OSError:
        pass
    return cpu, wait


def runnable(pid):
    """How many threads of pid are running or waiting for a core, or in uninterruptible sleep (state R or D): any
    is not quiet."""
    n = 0
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{t}/stat") as f:
                    n += f.read().rsplit(")", 1)[1].split()[0] in ("R", "D")
            except (OSError, IndexError):
                pass
    except OSError:
        pass
    return n


def thread_states(pid):
    """[(tid, state)] of pid's threads (R running, S asleep, D asleep in the kernel, ...); None: the process is gone."""
    try:
        tids = sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError:
        return None
    out = []
    for t in tids:
        try:
            with open(f"/proc/{pid}/task/{t}/stat") as f:
                out.append((t, f.read().rsplit(")", 1)[1].split()[0]))
        except (OSError, IndexError):
            pass
    return out


def wait_channel(path, width):
    """The kernel function a thread sleeps in (its wchan file), at most `width` characters; "" where not shown."""
    try:
        with open(path) as f:
            w = f.read().strip()
    except OSError:
        return ""
    return w[:width] if w and w != "0" and w.isprintable() else ""


def busy_threads(pid, most=4):
    """The threads of pid that are not quiet (state R or D), for a message: `name (state[, in wchan])`, at most `most`
    of them and how many more. On an H200 the reference of 101_HardSigmoid was rejected for work still running 1 s
    after its reply, and whether a thread was spinning or asleep in the driver (D) was not known."""
    states = thread_states(pid)
    if states is None:
        return "its process is gone"
    out = []
    for t, s in states:
        if s in ("R", "D"):
            w = wait_channel(f"/proc/{pid}/task/{t}/wchan", 40)
            out.append(f"{comm(pid, t)} ({s}{f', in {w}' if w else ''})")
    if not out:
        return "none now"
    more = f" and {len(out) - most} more" if len(out) > most else ""
    return ", ".join(out[:most]) + more


def comm(pid, tid):
    try:
        with open(f"/proc/{pid}/task/{tid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "?"


def proc_stat_busy():
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal
    return (v[0] + v[1] + v[2] + v[5] + v[6] + (v[7] if len(v) > 7 else 0)) / os.sysconf("SC_CLK_TCK")


def stuck_state(pid):
    """What a worker that has not answered is doing, for the message that ends it (a fact, not a verdict): its threads
    by state, its cpu so far, and where its first thread waits (wchan, where the kernel shows it). On an H200 a
    baseline worker said nothing for 120 s at start-up and nothing more was known."""
    threads = thread_states(pid)
    if threads is None:
        return "its process is gone"
    states = {}
    for _, s in threads:
        states[s] = states.get(s, 0) + 1
    cpu = proc_cpu(pid)
    w = wait_channel(f"/proc/{pid}/wchan", 60)
    wchan = f", its first thread waiting in {w}" if w else ""
    by_state = ", ".join(f"{n} {s}" for s, n in sorted(states.items()))
    used = f"{cpu / 1e9:.1f} s of cpu" if cpu is not None else "cpu unknown"
    return f"{len(threads)} threads ({by_state}), {used}{wchan}"
