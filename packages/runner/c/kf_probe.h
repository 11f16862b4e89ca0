/* The trusted probe's wire and its keyed checksum, shared by the harness (C, host) and the probe (c/probe_cuda.cu,
   host and device). The probe is a process of the harness's own, never linked with candidate code: it opens the cuda
   worker's device data through a CUDA IPC handle and, right after each timed reply, sums the call's outputs under a
   key the harness drew after that reply. Only finished outputs give the sum that the same key gives over the outputs
   the probe copies out afterwards (which are the ones checked against the reference), so the time from the call to
   the probe's answer holds the whole of the work, whatever the candidate did to its own process (docs/evaluation.md,
   "cuda: the trusted end of a call"). */
#ifndef KF_PROBE_H
#define KF_PROBE_H
#include <stddef.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define KF_HD __host__ __device__
#else
#define KF_HD
#endif

/* One 32-bit word of an output at word index `idx` of the data layout, under `key`: a splitmix64 finalizer over the
   key, the position and the word. The checksum is the sum of these mod 2^64, so any order of summing (the device's
   atomics, the host's loop) gives the same bits. */
static inline KF_HD uint64_t kf_probe_mix(uint64_t key, uint64_t idx, uint32_t word) {
  uint64_t z = key + idx * 0x9e3779b97f4a7c15ull;
  z ^= ((uint64_t)word << 32 | word) * 0xd6e8feb86659fd93ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The host's sum over `bytes` (a multiple of 4) at byte offset `off` of a copy of the layout at `base`. */
static inline uint64_t kf_probe_sum_host(const void *base, uint64_t off, uint64_t bytes, uint64_t key) {
  const uint32_t *w = (const uint32_t *)((const char *)base + off);
  uint64_t s = 0, first = off / 4;
  for (uint64_t i = 0; i < bytes / 4; i++) s += kf_probe_mix(key, first + i, w[i]);
  return s;
}

/* Whether a clock reading is low enough that its sample does not count (nvbench: under 75% of the SM's top clock).
   0 or unknown readings are not low. */
#define KF_LOW_CLOCK_SHARE 0.75
static inline int kf_low_clock(double sm_mhz, double max_mhz) {
  return sm_mhz > 0 && max_mhz > 0 && sm_mhz < KF_LOW_CLOCK_SHARE * max_mhz;
}

#define KF_PROBE_MAX_RANGES 16
enum { KF_PROBE_OPEN = 1, KF_PROBE_SUM = 2, KF_PROBE_COPY = 3, KF_PROBE_EXIT = 4 };

/* Commands on the probe's fd 3 (a unix socket: an OPEN of kind 2 carries the pool's fd). OPEN: map `ipc` as slot `slot` (0 the candidate, 1 the baseline). SUM: the keyed sum
   of the ranges (byte offsets into the slot's data). COPY: the ranges copied into the harness's memfd (fd 5) at the
   same offsets, then the SM clock read (nranges 0: the clock alone). */
typedef struct {
  int32_t op, slot;
  /* OPEN: 1 a legacy CUDA IPC handle in ipc; 2 a memory pool's fd (sent with the command, SCM_RIGHTS) and the
     pointer's export data in ipc. */
  int32_t kind, pad0;
  uint64_t key;
  int32_t nranges, pad;
  uint64_t off[KF_PROBE_MAX_RANGES], bytes[KF_PROBE_MAX_RANGES];
  unsigned char ipc[64];
} kf_probe_cmd;

/* Replies on fd 4. status 0: done; otherwise the cuda error (or -1). */
typedef struct {
  int32_t status, pad;
  uint64_t sum;
  double sm_mhz, max_mhz; /* NVML's SM clock now and its top (0: unknown) */
  char why[96];
} kf_probe_reply;

#endif
