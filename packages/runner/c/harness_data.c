/* Input generation (counter-based, so any element of any seed is reproducible), output poisoning,
   comparison against the reference, the clock and the cache flush. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

static inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* A float in [0, 1) from 24 bits of hash. */
static inline float unit(uint64_t h) { return (float)(h >> 40) * (1.0f / 16777216.0f); }

static inline double draw(int dist, uint64_t seed, size_t i) {
  uint64_t h = mix64(seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL);
  switch (dist) {
    case D_NORMAL: {
      /* Irwin-Hall with four uniforms: close to a unit normal and cheap enough to regenerate
         tens of millions of inputs before every timed sample. */
      float s = unit(h) + unit(h << 24) + unit(mix64(h)) + unit(mix64(h) << 24);
      return (s - 2.0f) * 1.7320508f;
    }
    case D_POSITIVE: return 0.01f + unit(h);
    case D_SMALL_INT: return (double)((int)(h >> 61) - 4 + (int)((h >> 32) & 1));
    default: return unit(h) * 2.0f - 1.0f;
  }
}

void gen_input(int etype, void *buf, size_t n, int dist, uint64_t seed) {
  seed = mix64(seed);
  switch (etype) {
    case ET_F32: {
      /* One loop per distribution so each vectorizes: inputs are regenerated before every timed sample. */
      float *b = buf;
      if (dist == D_UNIFORM)
        for (size_t i = 0; i < n; i++) b[i] = unit(mix64(seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL)) * 2.0f - 1.0f;
      else if (dist == D_POSITIVE)
        for (size_t i = 0; i < n; i++) b[i] = 0.01f + unit(mix64(seed + (uint64_t)i * 0x9e3779b97f4a7c15ULL));
      else
        for (size_t i = 0; i < n; i++) b[i] = (float)draw(dist, seed, i);
      break;
    }
    case ET_F64: {
      double *b = buf;
      for (size_t i = 0; i < n; i++) b[i] = draw(dist, seed, i);
      break;
    }
    case ET_I32: {
      int32_t *b = buf;
      for (size_t i = 0; i < n; i++) b[i] = (int32_t)(mix64(seed + i) % 1024);
      break;
    }
    default: {
      int64_t *b = buf;
      for (size_t i = 0; i < n; i++) b[i] = (int64_t)(mix64(seed + i) % 1024);
    }
  }
}

void fill_poison(int etype, void *buf, size_t n) {
  if (etype == ET_F32) {
    float *b = buf;
    for (size_t i = 0; i < n; i++) b[i] = NAN;
  } else if (etype == ET_F64) {
    double *b = buf;
    for (size_t i = 0; i < n; i++) b[i] = NAN;
  } else {
    memset(buf, 0x7f, n * elem_size(etype));
  }
}

static inline double at(int etype, const void *p, size_t i) {
  switch (etype) {
    case ET_F32: return ((const float *)p)[i];
    case ET_F64: return ((const double *)p)[i];
    case ET_I32: return ((const int32_t *)p)[i];
    default: return (double)((const int64_t *)p)[i];
  }
}

/* The common case during timing: every element of an f32 output within tolerance, nothing to report. */
int outputs_close_f32(const float *got, const float *want, size_t n, float atol, float rtol) {
  int bad = 0;
  for (size_t i = 0; i < n; i++) bad |= !(fabsf(got[i] - want[i]) <= atol + rtol * fabsf(want[i]));
  return !bad;
}

void compare_output(const char *name, int etype, const void *got, const void *want, size_t n, double atol,
                    double rtol, err_stats *st) {
  for (size_t i = 0; i < n; i++) {
    double g = at(etype, got, i), w = at(etype, want, i);
    int bad = 0;
    if (!isfinite(w)) {
      bad = !(isnan(w) ? isnan(g) : g == w);
    } else if (!isfinite(g)) {
      bad = 1;
    } else {
      double ae = fabs(g - w), re = ae / fmax(fabs(w), 1e-30);
      if (fabs(w) < 1e-30) re = ae == 0 ? 0 : 1;
      if (ae > st->max_abs) st->max_abs = ae;
      if (re > st->max_rel) st->max_rel = re;
      st->sum_abs += ae;
      st->sum_rel += re;
      st->count++;
      bad = ae > atol + rtol * fabs(w);
    }
    if (bad && !st->failed) {
      st->failed = 1;
      snprintf(st->message, sizeof st->message, "output %s[%zu] is %.9g (expected %.9g)", name, i, g, w);
    }
  }
}

double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Touch a buffer twice the last-level cache so neither side starts a sample with warm data. */
void flush_caches(void) {
  static char *buf;
  static size_t size;
  if (!buf) {
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    size = (size_t)(llc > 0 ? llc : 32L << 20) * 2;
    if (size < (64u << 20)) size = 64u << 20;
    buf = malloc(size);
    if (!buf) return;
  }
  static unsigned char v;
  v++;
  memset(buf, v, size);
  volatile unsigned long sink = 0;
  for (size_t i = 0; i < size; i += 64) sink += (unsigned char)buf[i];
  (void)sink;
}
