/* Where each argument of a case lives in the data copies, the call's arguments, and fresh inputs / poisoned
   outputs in the shared copy (the candidate's) and the private copy (the reference's). */
#include <string.h>
#include "harness_internal.h"

size_t kfh_count_of(const struct harness *h, const case_desc *c, int i) {
  return h->plan.args[i].is_ptr ? (size_t)c->vals[i] : 0;
}

size_t kfh_layout(struct harness *h, const case_desc *c) {
  size_t total = 0;
  for (int i = 0; i < h->plan.nargs; i++) {
    h->offs[i] = total;
    if (h->plan.args[i].is_ptr)
      total += (kfh_count_of(h, c, i) * elem_size(h->plan.args[i].etype) + 4095) & ~(size_t)4095;
  }
  return total + 4096;
}

static void scalar_arg(const struct harness *h, kf_arg *a, int i, double v) {
  switch (h->plan.args[i].etype) {
    case ET_F32: a->f32 = (float)v; break;
    case ET_F64: a->f64 = v; break;
    case ET_I32: a->i32 = (int32_t)v; break;
    default: a->i64 = (int64_t)v;
  }
}

void kfh_args_for(const struct harness *h, const case_desc *c, char *base, kf_arg *a, int offsets) {
  for (int i = 0; i < h->plan.nargs; i++) {
    memset(&a[i], 0, sizeof a[i]);
    if (h->plan.args[i].is_ptr) {
      if (offsets) a[i].off = (int64_t)h->offs[i];
      else a[i].p = base + h->offs[i];
    } else {
      scalar_arg(h, &a[i], i, c->vals[i]);
    }
  }
}

static int is_input(const struct harness *h, int i) {
  return h->plan.args[i].is_ptr && (h->plan.args[i].role == R_IN || h->plan.args[i].role == R_INOUT);
}

int kfh_is_output(const struct harness *h, int i) {
  return h->plan.args[i].is_ptr && (h->plan.args[i].role == R_OUT || h->plan.args[i].role == R_INOUT);
}

size_t kfh_bytes_of(const struct harness *h, const case_desc *c, int i) {
  return kfh_count_of(h, c, i) * elem_size(h->plan.args[i].etype);
}

/* Fresh inputs and poisoned outputs in a worker's data: `base` is the candidate's (h->shm) or the baseline's
   (h->bshm), two memfds that no process maps both of. */
void kfh_setup_data(struct harness *h, char *base, const case_desc *c, uint64_t seed, int dist) {
  for (int i = 0; i < h->plan.nargs; i++) {
    if (!h->plan.args[i].is_ptr) continue;
    if (is_input(h, i))
      gen_input(h->plan.args[i].etype, base + h->offs[i], kfh_count_of(h, c, i), dist, seed * 131 + (uint64_t)i);
    else fill_poison(h->plan.args[i].etype, base + h->offs[i], kfh_count_of(h, c, i));
  }
}

/* Fresh inputs and poisoned outputs in the shared copy the candidate sees. */
void kfh_setup_shared(struct harness *h, const case_desc *c, uint64_t seed, int dist) {
  kfh_setup_data(h, h->shm, c, seed, dist);
}

/* The same inputs in the harness's private copy, the reference's. Generated again from the seed rather
   than copied from the shared copy, which the sandbox can write at any time. */
void kfh_setup_private(struct harness *h, const case_desc *c, uint64_t seed, int dist, int poison_outputs) {
  for (int i = 0; i < h->plan.nargs; i++) {
    if (!h->plan.args[i].is_ptr) continue;
    if (is_input(h, i))
      gen_input(h->plan.args[i].etype, h->priv + h->offs[i], kfh_count_of(h, c, i), dist, seed * 131 + (uint64_t)i);
    else if (poison_outputs) fill_poison(h->plan.args[i].etype, h->priv + h->offs[i], kfh_count_of(h, c, i));
  }
}

/* Fresh inputs in both copies, poisoned outputs in the shared one. */
void kfh_setup(struct harness *h, const case_desc *c, uint64_t seed, int dist) {
  kfh_setup_private(h, c, seed, dist, 0);
  kfh_setup_shared(h, c, seed, dist);
}
