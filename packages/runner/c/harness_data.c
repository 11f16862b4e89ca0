/* Input generation (counter-based, so any element of any seed is reproducible), output poisoning,
   comparison against the reference, the clock and the cache flush. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include "harness.h"

static inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The element hash: murmur3's 32-bit finaliser of (i ^ a) * golden + b. (a, b) come from a 64-bit mix of the
   seed, so two seeds give unrelated sequences (not shifts of one another), and every element changes with
   the seed except by chance (2^-24 per element for floats). Only 32-bit multiplies, so a loop of it
   vectorises to 16 lanes: regenerating the inputs of a timed sample costs about what writing them does. */
static inline uint32_t hash32(uint32_t i, uint32_t a, uint32_t b) {
  uint32_t h = (i ^ a) * 0x9e3779b1u + b;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  return h ^ (h >> 16);
}

/* 24 bits of hash as a float in [0, 1) (exact: 24 bits fit a float's significand). */
static inline float unit24(uint32_t h) { return (float)(int32_t)(h >> 8) * (1.0f / 16777216.0f); }

/* Irwin-Hall with four 16-bit uniforms from two hashes: close to a unit normal. */
static inline float normal4(uint32_t h, uint32_t g) {
  float s = (float)(int32_t)(h & 0xffff) + (float)(int32_t)(h >> 16) + (float)(int32_t)(g & 0xffff) + (float)(int32_t)(g >> 16);
  return (s * (1.0f / 65536.0f) - 2.0f) * 1.7320508f;
}

static inline float small_int(uint32_t h) { return (float)((int32_t)(h >> 29) - 4 + (int32_t)((h >> 8) & 1)); }

/* Stores that bypass the cache. A non-temporal store also invalidates the line in every cache, so after the
   harness has written a sample's inputs and poisoned outputs this way, none of the case's data is cached when
   the timed call starts, whatever order the candidate walks it in, and the previous call's dirty outputs were
   written back during the set-up rather than inside the next timed call. dst is 64-byte aligned (every
   buffer starts on a page); the tail that is not a whole 64 bytes uses plain stores. */
static void nt_copy(void *dst, const void *src, size_t bytes) {
  size_t i = 0;
#if defined(__AVX512F__)
  for (; i + 64 <= bytes; i += 64) _mm512_stream_si512((__m512i *)((char *)dst + i), _mm512_loadu_si512((const char *)src + i));
#elif defined(__AVX__)
  for (; i + 32 <= bytes; i += 32) _mm256_stream_si256((__m256i *)((char *)dst + i), _mm256_loadu_si256((const __m256i *)((const char *)src + i)));
#elif defined(__SSE2__)
  for (; i + 16 <= bytes; i += 16) _mm_stream_si128((__m128i *)((char *)dst + i), _mm_loadu_si128((const __m128i *)((const char *)src + i)));
#endif
  memcpy((char *)dst + i, (const char *)src + i, bytes - i);
}

static void nt_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

/* Writes a cache line's worth of dirty data back and drops it from every cache (clflushopt where the cpu has
   it). The harness calls it on its private copy after the reference has run, so that neither timed call
   starts with the other's dirty data to write back. */
void evict(const void *p, size_t bytes) {
#if defined(__CLFLUSHOPT__) || defined(__SSE2__)
  const char *c = (const char *)((uintptr_t)p & ~(uintptr_t)63), *end = (const char *)p + bytes;
  for (; c < end; c += 64)
#if defined(__CLFLUSHOPT__)
    _mm_clflushopt((void *)c);
#else
    _mm_clflush(c);
#endif
  _mm_sfence();
#else
  (void)p, (void)bytes;
#endif
}

#define TILE 1024 /* elements generated at a time into a buffer that stays in L1, then streamed out */

/* Elements [start, start + m) of one block, into tile. One loop per distribution and type so each vectorises. */
static void gen_tile(int etype, void *tile, uint32_t start, uint32_t m, int dist, uint32_t a, uint32_t b, uint32_t c) {
  switch (etype) {
    case ET_F32: {
      float *o = tile;
      if (dist == D_UNIFORM)
        for (uint32_t j = 0; j < m; j++) o[j] = unit24(hash32(start + j, a, b)) * 2.0f - 1.0f;
      else if (dist == D_POSITIVE)
        for (uint32_t j = 0; j < m; j++) o[j] = 0.01f + unit24(hash32(start + j, a, b));
      else if (dist == D_NORMAL)
        for (uint32_t j = 0; j < m; j++) o[j] = normal4(hash32(start + j, a, b), hash32(start + j, c, b));
      else
        for (uint32_t j = 0; j < m; j++) o[j] = small_int(hash32(start + j, a, b));
      break;
    }
    case ET_F64: {
      double *o = tile;
      for (uint32_t j = 0; j < m; j++) {
        uint32_t h = hash32(start + j, a, b);
        o[j] = dist == D_UNIFORM    ? (double)unit24(h) * 2.0 - 1.0
               : dist == D_POSITIVE ? 0.01 + (double)unit24(h)
               : dist == D_NORMAL   ? (double)normal4(h, hash32(start + j, c, b))
                                    : (double)small_int(h);
      }
      break;
    }
    case ET_I32: {
      int32_t *o = tile;
      for (uint32_t j = 0; j < m; j++) o[j] = (int32_t)(hash32(start + j, a, b) >> 22);
      break;
    }
    default: {
      int64_t *o = tile;
      for (uint32_t j = 0; j < m; j++) o[j] = (int64_t)(hash32(start + j, a, b) >> 22);
    }
  }
}

/* Elements are generated in blocks of 2^31, each with its own keys, so the index fits the 32-bit hash. */
void gen_input(int etype, void *buf, size_t n, int dist, uint64_t seed) {
  const size_t block_len = (size_t)1 << 31, es = elem_size(etype);
  _Alignas(64) unsigned char tile[TILE * 8];
  for (size_t base = 0, block = 0; base < n; base += block_len, block++) {
    uint64_t k = mix64(mix64(seed) + block * 0x9e3779b97f4a7c15ULL);
    uint32_t a = (uint32_t)k, b = (uint32_t)(k >> 32), c = a ^ 0x5bd1e995u;
    uint32_t m = (uint32_t)(n - base < block_len ? n - base : block_len);
    for (uint32_t start = 0; start < m; start += TILE) {
      uint32_t len = m - start < TILE ? m - start : TILE;
      gen_tile(etype, tile, start, len, dist, a, b, c);
      nt_copy((char *)buf + (base + start) * es, tile, (size_t)len * es);
    }
  }
  nt_fence();
}

void fill_poison(int etype, void *buf, size_t n) {
  _Alignas(64) unsigned char tile[TILE * 8];
  size_t es = elem_size(etype);
  if (etype == ET_F32)
    for (int j = 0; j < TILE; j++) ((float *)tile)[j] = NAN;
  else if (etype == ET_F64)
    for (int j = 0; j < TILE; j++) ((double *)tile)[j] = NAN;
  else
    memset(tile, 0x7f, sizeof tile);
  for (size_t i = 0; i < n; i += TILE) nt_copy((char *)buf + i * es, tile, (n - i < TILE ? n - i : TILE) * es);
  nt_fence();
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

/* The root mean square of an output (finite elements only): the scale its absolute tolerance is held to. */
double output_rms(int etype, const void *p, size_t n) {
  double sum = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    double v = at(etype, p, i);
    if (isfinite(v)) sum += v * v, k++;
  }
  return k ? sqrt(sum / (double)k) : 0;
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

/* The last-level cache one core sees: from the plan (the runner reads sysfs; a sandboxed harness cannot),
   else from sysfs (the highest level listed for cpu0). Not glibc's
   sysconf(_SC_LEVEL3_CACHE_SIZE): on AMD EPYC virtual machines it reports the whole package's L3 (384 MiB on
   this 2-core VM, whose cores share one 32 MiB L3), which made every flush write and read 768 MiB. */
size_t llc_override;
#define KF_LLC_FALLBACK_MAX ((size_t)128 << 20)

size_t llc_bytes(void) {
  static size_t cached;
  if (llc_override) return llc_override;
  if (cached) return cached;
  size_t best = 0;
  int best_level = 0;
  for (int i = 0; i < 8; i++) {
    char path[96], buf[64];
    int level = 0;
    size_t kib = 0;
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    FILE *f = fopen(path, "r");
    if (!f) break;
    if (fscanf(f, "%d", &level) != 1) level = 0;
    fclose(f);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    f = fopen(path, "r");
    if (!f) continue;
    if (fgets(buf, sizeof buf, f)) kib = strtoul(buf, NULL, 10) * (strchr(buf, 'M') ? 1024 : 1);
    fclose(f);
    if (level >= best_level && kib) best_level = level, best = kib << 10;
  }
  if (!best) {
    /* No sysfs cache description (seen on a Zen 5 EPYC VM): glibc's figure comes from CPUID's package-wide L3
       (508 MiB there, where a core reaches one CCX's 32 MiB), and a flush of twice that took about half a second
       per sample, so most of a timed phase's budget went on flushing. Capped at KF_LLC_FALLBACK_MAX, which is at
       least the L3 one core reaches on the x86 parts we know of (AMD's stacked-cache parts: 96 MiB); a shared
       socket-wide L3 larger than that (some Xeons) is then only partly flushed, which sysfs avoids. */
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    best = (size_t)(llc > 0 ? llc : 32L << 20);
    if (best > KF_LLC_FALLBACK_MAX) best = KF_LLC_FALLBACK_MAX;
  }
  return cached = best;
}

/* Touch a buffer twice the last-level cache so neither side starts a sample with warm data. */
void flush_caches(void) {
  static char *buf;
  static size_t size;
  if (!buf) {
    size = llc_bytes() * 2;
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
