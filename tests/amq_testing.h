/* amq_testing.h - test hooks of the AMQ half: host simulations of the
   in-place kernels and the small private helpers only tests and benchmarks
   call. Include it after a private implementation of gpuamq.h
   (GPUAMQ_STATIC + GPUAMQ_IMPLEMENTATION in the same file): everything here
   calls the implementation's static functions.

     #define GPUAMQ_STATIC
     #define GPUAMQ_IMPLEMENTATION
     #include "../gpuamq.h"
     #include "amq_testing.h"

   Contents
     non-associative scans ..... gamq__host_position_closed_form_u64
     quotient filters .......... gamq__qf_layout, gamq__qf_lookup, gamq__qf_init,
                                 gamq__qf_count, gamq__sqf_shifted, gamq__rsqf_empty
     in-place batches (nvcc) ... gamq__qf_used, gamq__qf_sim_rounds (section 2b
                                 of gpuamq_kernels.cuh), gamq__qf_sim_windows (2c) */
#ifndef TESTS_AMQ_TESTING_H
#define TESTS_AMQ_TESTING_H
#if !defined(GPUAMQ_IMPLEMENTATION)
#error "amq_testing.h: include it after #define GPUAMQ_IMPLEMENTATION and gpuamq.h"
#endif

/* ---------------------------------------------------------------------------
   The position scan's closed form, u64: inside a segment starting at h,
       x_i = (i - h) + max( init + 1 (with an init),  max_{h<=j<=i} (v_j - (j - h)) )
   (unroll (1): x_i is v_j pushed i - j slots on, for the j that pushes
   furthest, or the init pushed i - h + 1 slots). One segmented prefix max,
   which the kernel does with gprim's scan. A term v_j - (j - h) < 0 never
   wins (the j = h term is v_h >= 0), so it is taken as 0 and nothing leaves
   uint64. The init term init + 1 overflows only for init = UINT64_MAX, and
   then so does x_h.
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_position_closed_form_u64(size_t n, const uint64_t *v, const uint8_t *heads,
                                                                 const uint64_t *init, uint64_t *x) {
  size_t i, h = 0;
  uint64_t m = 0;
  if (n > 0 && (v == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  for (i = 0; i < n; ++i) {
    uint64_t offset, term;
    if (i == 0 || (heads && heads[i])) { /* segment head: restart the max */
      h = i;
      m = 0;
      if (init) {
        if (*init == UINT64_MAX) return GAMQ__NA_OVERFLOW;
        m = *init + 1;
      }
    }
    offset = (uint64_t)(i - h);
    term = v[i] >= offset ? v[i] - offset : 0;
    if (term > m) m = term;
    if (m > UINT64_MAX - offset) return GAMQ__NA_OVERFLOW;
    x[i] = m + offset;
  }
  return GAMQ__NA_OK;
}

/* ---- quotient filters: shapes, slots, lookups ---- */

/* gamq__qf_layout_packed for the ALIGNED (or SQF) layout. */
static inline int gamq__qf_layout(gamq__qf_kind kind, int q, int r, uint64_t *nslots, size_t *bytes) {
  return gamq__qf_layout_packed(kind, q, r, 0, nslots, bytes);
}
/* Lookup of a fingerprint (0 for a NULL filter or one too wide): the walk
   both backends run, gamq_qf_ref_contains_fp. */
static inline int gamq__qf_lookup(const gamq__qf *f, uint64_t fp) {
  gamq_qf_ref ref;
  if (f == NULL || f->data == NULL || !gamq__qf_fp_ok(f, fp)) return 0;
  ref = gamq__qf_ref_of(f);
  return gamq_qf_ref_contains_fp(&ref, fp);
}
/* gamq__qf_init_packed for the ALIGNED (or SQF) layout. */
static inline gamq__qf_result gamq__qf_init(gamq__qf *f, gamq__qf_kind kind, int q, int r, uint64_t seed) {
  return gamq__qf_init_packed(f, kind, q, r, seed, 0);
}
static inline uint64_t gamq__qf_count(const gamq__qf *f) { return f ? f->nitems : 0; }
static inline GAMQ__HD int gamq__sqf_shifted(const gamq__qf *f, uint64_t s) { return (gamq__sqf_get(f, s) & GAMQ__SQF_SHIFTED) != 0; }
/* Slot s is in no run (the walk from the block's offset: the reference
   gamq__rsqf_unused_in is checked against). */
static inline GAMQ__HD int gamq__rsqf_empty(const gamq__qf *f, uint64_t s) { return gamq__rsqf_runs_end(f, s) <= s; }

#if defined(__CUDACC__)
/* ---- in-place batches (gpuamq_kernels.cuh 2b, 2c) ---- */

/* Slot s holds an item or lies inside a run. */
static inline GAMQ__HD int gamq__qf_used(const gamq__qf *f, uint64_t s) {
  return f->kind == GAMQ__QF_SQF ? !gamq__sqf_empty(f, s) : !gamq__rsqf_empty(f, s);
}

/* The rounds on the host, serially (tests and round counts): the same group,
   region and point-operation functions. poison != 0: each winner (SQF) or
   region (RSQF) runs on a copy of the filter in which every byte outside its
   window is random (the SQF delete's stop slot keeps its current value), and
   the copy's bytes outside the window must come back untouched; winners run
   in an order drawn from poison, so the stop slot is seen before or after
   its own cluster's delete. Returns 0 when a window was violated or memory
   ran out, else 1; *out as gamq__cuda_qf_rounds, rest may be NULL. */
static inline int gamq__qf_sim_rounds(gamq__qf *f, int del, const uint64_t *fp, size_t n, int max_rounds, uint64_t poison,
                                      uint64_t *rest, gamq__qf_rounds_out *out) {
  const int sqf = f->kind == GAMQ__QF_SQF;
  const uint64_t nblocks = f->nslots / 64, unit = sqf ? (uint64_t)gamq__sqf_slot_bytes(f->r) : gamq__rsqf_stride(f);
  const uint64_t ob = !sqf && f->packed ? nblocks * unit : f->bytes; /* PACKED: the offset bytes, window [ob + a, ob + b) */
  size_t m = n, k, k1, nw, w, i, *win = NULL;
  uint32_t *idx = (uint32_t *)GAMQ_MALLOC((n + 1) * sizeof(uint32_t));
  uint64_t *group = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t));
  uint8_t *keep = (uint8_t *)GAMQ_MALLOC(n + 1), *copy = poison ? (uint8_t *)GAMQ_MALLOC(f->bytes) : NULL;
  uint8_t *pat = poison ? (uint8_t *)GAMQ_MALLOC(f->bytes) : NULL;
  int good = 1;
  win = (size_t *)GAMQ_MALLOC((n + 1) * sizeof(size_t));
  memset(out, 0, sizeof *out);
  if (idx == NULL || group == NULL || keep == NULL || win == NULL || (poison && (copy == NULL || pat == NULL))) good = 0;
  for (k = 0; good && k < n; ++k) idx[k] = (uint32_t)k;
  while (good && m > 0 && !out->full && out->rounds < max_rounds) {
    uint64_t s = 0, p = 0;
    if (!sqf) gamq__rsqf_schedule(nblocks, out->rounds, &s, &p);
    /* the round's winners (SQF: first of each group) or region heads */
    for (k = 0; k < m; ++k) {
      const uint64_t x = gamq__qf_quotient(f, fp[idx[k]]);
      group[k] = sqf ? gamq__sqf_group(f, del, x) : gamq__rsqf_region(nblocks, x >> 6, s, p, NULL, NULL);
    }
    for (k = 0, nw = 0; k < m; ++k) { /* groups compare without the no-run flag */
      keep[k] = 1;
      if (sqf && del && (group[k] & GAMQ__QF_NO_RUN)) keep[k] = 0;
      else if (k == 0 || (group[k - 1] & ~GAMQ__QF_NO_RUN) != (group[k] & ~GAMQ__QF_NO_RUN)) win[nw++] = k;
    }
    for (w = nw; w > 1 && poison; --w) { /* a random order of the winners */
      size_t j, t;
      poison = gamq__qf_hash64(poison, w);
      j = (size_t)(poison % w), t = win[j], win[j] = win[w - 1], win[w - 1] = t;
    }
    for (w = 0; w < nw && good; ++w) {
      uint64_t a, b, lo = 0, hi = 0, stop = ~(uint64_t)0, stop_val = 0, changed = 0; /* window [a, b) in units */
      gamq__qf g = *f;
      int full = 0, res = GAMQ__QF_STEP_OK;
      k = win[w];
      for (k1 = k + 1; k1 < m && (group[k1] & ~GAMQ__QF_NO_RUN) == (group[k] & ~GAMQ__QF_NO_RUN); ++k1) {
      }
      if (sqf) {
        if (!del && group[k] >= f->nslots) {
          out->full = 1;
          continue;
        }
        if (del) { /* [c, next group's c) and the stop slot */
          a = group[k] & ~GAMQ__QF_NO_RUN;
          b = k1 < m ? group[k1] & ~GAMQ__QF_NO_RUN : f->nslots;
          if (b < f->nslots) stop = b;
        } else {
          a = k > 0 ? group[k - 1] + 1 : 0; /* (previous group's e, e] */
          b = group[k] + 1;
        }
      } else {
        gamq__rsqf_region(nblocks, gamq__qf_quotient(f, fp[idx[k]]) >> 6, s, p, &lo, &hi);
        a = lo, b = hi;
      }
      if (poison) {
        for (i = 0; i < f->bytes; ++i) pat[i] = (uint8_t)(gamq__qf_hash64(poison, i) >> 56);
        poison = gamq__qf_hash64(poison, 1);
        memcpy(copy, pat, f->bytes);
        memcpy(copy + a * unit, f->data + a * unit, (size_t)((b - a) * unit));
        if (ob < f->bytes) memcpy(copy + ob + a, f->data + ob + a, (size_t)(b - a));
        if (stop != ~(uint64_t)0) memcpy(copy + stop * unit, f->data + stop * unit, (size_t)unit);
        if (stop != ~(uint64_t)0) stop_val = gamq__load_le(copy + stop * unit, (int)unit);
        g.data = copy;
      }
      if (sqf) {
        res = gamq__sqf_step(&g, del, fp[idx[k]]);
        changed = res == GAMQ__QF_STEP_OK;
        keep[k] = 0;
      } else {
        changed = gamq__rsqf_queue(&g, del, fp, idx, k, k1, lo, hi, keep, &full);
        if (full) out->full = 1;
      }
      out->changed += changed;
      if (poison) {
        for (i = 0; i < f->bytes && good; ++i)
          if ((i < a * unit || i >= b * unit) && (i < ob + a || i >= ob + b) &&
              !(stop != ~(uint64_t)0 && i >= stop * unit && i < (stop + 1) * unit))
            good = copy[i] == pat[i];
        if (stop != ~(uint64_t)0 && gamq__load_le(copy + stop * unit, (int)unit) != stop_val) good = 0;
        memcpy(f->data + a * unit, copy + a * unit, (size_t)((b - a) * unit));
        if (ob < f->bytes) memcpy(f->data + ob + a, copy + ob + a, (size_t)(b - a));
      }
    }
    for (k = 0, k1 = 0; k < m; ++k) /* compact the waiting ones */
      if (keep[k]) idx[k1++] = idx[k];
    m = k1;
    out->rounds++;
  }
  out->left = m;
  for (k = 0; good && rest && k < m; ++k) rest[k] = fp[idx[k]];
  GAMQ_FREE(idx);
  GAMQ_FREE(group);
  GAMQ_FREE(keep);
  GAMQ_FREE(win);
  GAMQ_FREE(copy);
  GAMQ_FREE(pat);
  return good;
}

/* The windows on the host, serially (CI tests): the same functions, bounds
   and chains from the filter as the batch found it, windows written in an
   order drawn from shuffle (0: left to right). fp: n sorted fingerprints.
   Returns GAMQ__QF_OK, GAMQ__QF_FULL (nothing changed), GAMQ__QF_NO_MEMORY,
   or GAMQ__QF_BAD_ARG (a window did not fill: a bug); *changed: the items
   inserted or deleted; *chain_rounds: chain passes. */
static inline gamq__qf_result gamq__qf_sim_windows(gamq__qf *f, int del, const uint64_t *fp, size_t n, uint64_t shuffle,
                                                   uint64_t *changed, int *chain_rounds) {
  uint64_t *A = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t)), *T = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t));
  uint64_t *Z = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t));
  uint8_t *link = (uint8_t *)GAMQ_MALLOC(n + 1);
  size_t *order = (size_t *)GAMQ_MALLOC((n + 1) * sizeof(size_t)), i;
  gamq__qf_result res = GAMQ__QF_OK;
  unsigned flags = 2;
  *changed = 0, *chain_rounds = 0;
  if (A == NULL || T == NULL || Z == NULL || link == NULL || order == NULL) res = GAMQ__QF_NO_MEMORY;
  for (i = 0; res == GAMQ__QF_OK && i < n; ++i) {
    order[i] = i;
    gamq__win_bounds(f, del, gamq__qf_quotient(f, fp[i]), &A[i], &T[i]);
  }
  for (i = n; res == GAMQ__QF_OK && shuffle && i > 1; --i) { /* the threads in some order */
    size_t r, t;
    shuffle = gamq__qf_hash64(shuffle, i);
    r = (size_t)(shuffle % i), t = order[r], order[r] = order[i - 1], order[i - 1] = t;
  }
  if (res == GAMQ__QF_OK) memset(link, 0, n + 1);
  while (res == GAMQ__QF_OK && !del && flags == 2) { /* chain passes, as the device */
    flags = 0, ++*chain_rounds;
    for (i = 0; i < n; ++i) flags |= gamq__win_chain_one(f, A, T, link, n, order[i], Z);
    if (flags & 1) res = GAMQ__QF_FULL;
  }
  for (i = 0; res == GAMQ__QF_OK && i < n; ++i) /* the two write passes, as the device */
    if (!gamq__win_write_one(f, del, fp, A, T, link, Z, n, order[i], changed, GAMQ__WIN_ONE)) res = GAMQ__QF_BAD_ARG;
  for (i = 0; res == GAMQ__QF_OK && i < n; ++i)
    if (!gamq__win_write_one(f, del, fp, A, T, link, Z, n, order[i], changed, GAMQ__WIN_MANY)) res = GAMQ__QF_BAD_ARG;
  if (res == GAMQ__QF_OK) f->nitems = del ? f->nitems - *changed : f->nitems + *changed;
  GAMQ_FREE(A);
  GAMQ_FREE(T);
  GAMQ_FREE(Z);
  GAMQ_FREE(link);
  GAMQ_FREE(order);
  return res;
}
#endif /* __CUDACC__ */
#endif /* TESTS_AMQ_TESTING_H */
