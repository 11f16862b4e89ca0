// Whether hardware counters can be read for a candidate here, and if not, why (checked once per runner process).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { HardwareCounters } from '@kernelforge/sdk';

const SECCOMP =
  'the worker runs under a seccomp filter that refuses perf_event_open on purpose (a candidate must not read the ' +
  "machine's counters or other processes')";

let cached: HardwareCounters | undefined;

/** A hardware PMU the kernel exposes: `cpu` on x86, `cpu_core`/`cpu_atom` on hybrid Intel, `armv8_pmuv3*` on arm. */
export function hardwarePmu(root = '/sys/bus/event_source/devices'): string | null {
  if (!existsSync(root)) return null;
  return readdirSync(root).find((d) => /^(cpu|cpu_core|cpu_atom|armv8_pmuv3.*|armv7_cortex.*)$/.test(d)) ?? null;
}

/** The counters of a candidate on the cpu: never read inside the sandbox; this runner does not yet make the extra,
    untimed counter run from outside it, so the answer is always a reason, the most basic one first. */
export function cpuCounters(root = '/sys/bus/event_source/devices'): HardwareCounters {
  if (cached && root === '/sys/bus/event_source/devices') return cached;
  const pmu = hardwarePmu(root);
  let paranoid: number | null = null;
  try {
    paranoid = Number(readFileSync('/proc/sys/kernel/perf_event_paranoid', 'utf8').trim());
  } catch {}
  let reason: string;
  if (!pmu)
    reason =
      `not available here, because this machine exposes no hardware PMU (no cpu event source in ${root}: a virtual ` +
      `machine without counter passthrough), so not even the runner outside the sandbox can count instructions or ` +
      `cache misses; inside the sandbox, ${SECCOMP}`;
  else if (paranoid !== null && paranoid > 2)
    reason = `not available here, because kernel.perf_event_paranoid is ${paranoid} (counters are closed to unprivileged processes); inside the sandbox, ${SECCOMP}`;
  else
    reason = `not available here, because ${SECCOMP}, and this runner does not yet make the extra, untimed counter run from outside the sandbox (the machine has the ${pmu} PMU)`;
  const result: HardwareCounters = { available: false, reason };
  if (root === '/sys/bus/event_source/devices') cached = result;
  return result;
}
