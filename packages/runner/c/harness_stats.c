/* Sample series and the stopping rules of the timed phase: the median's standard error for each side's times,
   and the 95% interval of the paired speedup. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "harness_internal.h"

void kfh_push(series *s, double x) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->v = realloc(s->v, sizeof(double) * (size_t)s->cap);
  }
  s->v[s->n++] = x;
  s->sum += x;
  s->sumsq += x * x;
}

/* Drops the samples after the first n (a pair taken again). */
void kfh_truncate(series *s, int n) {
  while (s->n > n && s->n > 0) {
    double x = s->v[--s->n];
    s->sum -= x;
    s->sumsq -= x * x;
  }
}

void kfh_series_free(series *s) {
  free(s->v);
  s->v = NULL;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Linear interpolation between order statistics; p in [0, 1]. */
double kfh_quantile(const double *sorted, int n, double p) {
  double r = p * (n - 1);
  if (r <= 0) return sorted[0];
  if (r >= n - 1) return sorted[n - 1];
  int k = (int)r;
  return sorted[k] + (r - k) * (sorted[k + 1] - sorted[k]);
}

/* The reported statistic is the median, so the rule is on the median's standard error, estimated without
   assuming a distribution: the rank of the sample median varies by about sqrt(n)/2 around n/2, so half the
   distance between the order statistics at ranks n/2 -+ sqrt(n)/2 is one standard error. Outliers (a
   preempted sample on a shared machine) move it only when they make up nearly half the samples, so one slow
   sample cannot keep a stable kernel running for the whole budget. */
double kfh_median_rse(const series *s) {
  if (s->n < 2) return INFINITY;
  double *v = malloc(sizeof(double) * (size_t)s->n);
  memcpy(v, s->v, sizeof(double) * (size_t)s->n);
  qsort(v, (size_t)s->n, sizeof(double), cmp_double);
  double h = 0.5 / sqrt((double)s->n);
  double med = kfh_quantile(v, s->n, 0.5), se = (kfh_quantile(v, s->n, 0.5 + h) - kfh_quantile(v, s->n, 0.5 - h)) / 2;
  free(v);
  return med > 0 ? se / med : INFINITY;
}

int kfh_converged(const struct harness *h, const series *s) {
  if (s->n < (int)h->plan.min_samples || s->sum < h->plan.min_ms) return 0;
  return kfh_median_rse(s) <= h->plan.target_rse;
}

/* The half-width of the median's distribution-free 95% interval over the median: the order statistics at ranks
   n/2 -+ 1.96 sqrt(n)/2, as the judge's medianInterval() publishes it (src/evaluate/judge.ts). */
double kfh_median_rel_half_width(const series *s) {
  int n = s->n;
  if (n < 6) return INFINITY;
  double *v = malloc(sizeof(double) * (size_t)n);
  memcpy(v, s->v, sizeof(double) * (size_t)n);
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  double half = 1.96 * sqrt((double)n) / 2;
  int lo = (int)floor(n / 2.0 - half), hi = (int)ceil(n / 2.0 + half) - 1;
  if (lo < 0) lo = 0;
  if (hi > n - 1) hi = n - 1;
  double med = kfh_quantile(v, n, 0.5), hw = (v[hi] - v[lo]) / 2;
  free(v);
  return med > 0 ? hw / med : INFINITY;
}

/* Paired: the speedup is the median of the pairs' ratios, so sampling also goes on until its 95% interval is
   as narrow as the plan asks (or the budget is spent). */
int kfh_speedup_converged(const struct harness *h, const series *ratio) {
  if (h->plan.speedup_half_width <= 0) return 1;
  return kfh_median_rel_half_width(ratio) <= h->plan.speedup_half_width;
}

/* Whether flagged calls reject: at least the plan's flagged_min of them and over its flagged_share of the calls
   counted (judge.ts flaggedRejects). */
int kfh_flagged_rejects(const plan_t *P, int flagged, int calls) {
  return flagged >= P->flagged_min && flagged > P->flagged_share * calls;
}

/* Whether a call (its cpu and wait deltas, ns) waited for a cpu more than share of its window; a negative delta
   measures nothing (judge.ts waitedTooLong). */
int kfh_waited(double share, double cpu, double wait) {
  return share > 0 && cpu >= 0 && wait >= 0 && cpu + wait > 0 && wait > share * (cpu + wait);
}

/* A worker's share of its runnable time spent waiting for a cpu; -1: nothing measured. */
double kfh_wait_share(double cpu, double wait) { return cpu + wait > 0 ? wait / (cpu + wait) : -1; }
