/* internal_sets.h - the set intersection tests' one door into gpuclique.h's
   private part.

   test_sets.cu uses the public API of gpuclique.h section 7 and this
   header, nothing else of the implementation. This header is the only
   place that names private gclq__ / GCLQ__ identifiers for it; it names
   these 20, each because no public call reaches what a test must check:

   test hooks (GPUCLIQUE_TESTING, clique/common.h): a call's results never
   depend on them, so only a hook makes a call run the path a test checks
     gclq__sets_cuts_in_blocks  block tiles find their own ends, as when the
                                budget has no room for the partition kernel's
                                cuts (a budget reaches that only by chance:
                                the cuts are small beside a batch's memory)
     gclq__sets_two_passes .... a materialised batch counts, then writes,
                                where one pass would run (stats report the
                                one pass; nothing asks for the other)
     gclq__sets_stream_windows  the bitmaps' count pass by the partition
                                kernel's records or streamed, in each shape:
     GCLQ__STREAM_ON, _WIDE,    the shapes' bits (the rule picks one shape a
     GCLQ__STREAM_SLOTS,        batch from the device's blocks, so inputs
     GCLQ__STREAM_PAIRS         alone cannot run every shape on every device)
     gclq__sets_ip_obs_warps .. where AUTO runs IP_OBS, its small pairs by
                                IP_OBS's warp tables instead of the per-pair
                                rule's warps
     gclq__sets_bm_tensor ..... BIT_MATRIX by popcount or on tensor cores
                                (GCLQ_SETS_BIT_MATRIX_TC picks one at compile
                                time; the tests run both)
   AUTO's rules (clique/sets/choose.h), run on the host, where a HOST call
   never runs them (HOST ignores the method) and a CUDA call needs a device:
   with their thresholds given, each side of each threshold
     gclq__sets_pairs_rule .... the batch rule for given pairs
     gclq__sets_all_method .... the all-pairs pick of a collection (and
                                whether the estimate is unsure)
     gclq__sets_all_estimate .. the sampled values and increments it rests on
     gclq__sets_all_pick ...... the pick from k, total, columns and
                                increments, at given costs (a cost of 0, the
                                fitted ones, and the columns the device
                                counts when the estimate is unsure)
   the containment join's AUTO split on CUDA, run on the host (a HOST call
   never splits by itself):
     gclq__mmjoin_plan ........ the split a call would make (threshold and
     gclq__mmjoin               index), into a gclq__mmjoin (its below),
     gclq__mmjoin_free          released
   the batch kernels' tiles on the host (clique/sets/replay.cuh): a
   CUDA count shows that the kernels agree with HOST, not which cut, piece
   or table gave each match; the replay runs the kernels' own helpers, so
   the tests check every partition without a GPU:
     gclq__sets_replay ........ one pair by a method's warp or tiles, the
                                count pass then the write pass
     gclq__sets_replay_all .... all pairs by the inverted index's lists and
                                tiles or the bit matrix's columns, in given
                                row tiles and column chunks
   all pairs' row-order index (clique/sets/all_pairs.cuh), for k up to
   2^32, where no collection fits a test:
     gclq__sets_row_start ..... the first pair index of row i
     gclq__sets_pair_of ....... a pair index's (i, j)

   Without a gclq__ name, and only here: the field below of struct
   gclq__mmjoin.

   Everything else a test checks goes through the public calls: the CUDA
   methods against HOST on inputs built around the documented shapes (tiles
   of 3840 merge steps, chunks of 2048, bitmap windows of 2^17 values,
   stretches of 2^18, warps for |a| + |b| <= 1024 with bitmaps of at most
   2^15 values: gpuclique.h section 7), stats.warp_pairs, block_pairs,
   binary_search_pairs, method, batches and one_pass_batches, stats.notes
   for the structure all pairs at once built (the index's lists and
   increments, the bit matrix's columns), and stats.split for the
   light/heavy split's pieces. Helpers are named sett_*.

   Include it after a private implementation compiled by nvcc:
     #define GPUCLIQUE_STATIC
     #define GPUCLIQUE_TESTING
     #define GPUCLIQUE_IMPLEMENTATION
     #include "../gpuclique.h"
     #include "internal_sets.h" */
#ifndef TESTS_INTERNAL_SETS_H
#define TESTS_INTERNAL_SETS_H
#if !defined(GPUCLIQUE_IMPLEMENTATION) || !defined(GPUCLIQUE_TESTING) || !defined(__CUDACC__)
#error "internal_sets.h: include it after GPUCLIQUE_TESTING, GPUCLIQUE_IMPLEMENTATION and gpuclique.h, by nvcc"
#endif

#include <stdint.h>
#include <string.h>

/* ===========================================================================
   Test hooks
   ========================================================================= */

/* Each setter changes one hook; a sett_hooks object puts every one back
   to the library's default however the test ends. */
static inline void sett_cuts_in_blocks(int on) { gclq__sets_cuts_in_blocks = on; }
static inline void sett_two_passes(int on) { gclq__sets_two_passes = on; }
static inline void sett_ip_obs_warps(int on) { gclq__sets_ip_obs_warps = on; }
/* 0: popcount, 1: tensor cores, -1: GCLQ_SETS_BIT_MATRIX_TC */
static inline void sett_bit_matrix_tensor(int tensor) { gclq__sets_bm_tensor = tensor; }

/* The bitmaps' count pass: SETT_STREAM_RULE follows the library's rule;
   SETT_STREAM_RECORDS runs the partition kernel's records; 1 ..
   SETT_STREAM_SHAPES streams its windows in shape i - 1 of these: 1 or 2
   quads a round (WIDE), whole tiles or slots (SLOTS), windows of 1 or 2
   tiles (PAIRS, which reads WIDE). */
enum { SETT_STREAM_RULE = -1, SETT_STREAM_RECORDS = 0, SETT_STREAM_SHAPES = 6 };
static inline void sett_stream_windows(int which) {
  static const int shapes[SETT_STREAM_SHAPES] = {
      GCLQ__STREAM_ON,
      GCLQ__STREAM_ON | GCLQ__STREAM_WIDE,
      GCLQ__STREAM_ON | GCLQ__STREAM_SLOTS,
      GCLQ__STREAM_ON | GCLQ__STREAM_WIDE | GCLQ__STREAM_SLOTS,
      GCLQ__STREAM_ON | GCLQ__STREAM_WIDE | GCLQ__STREAM_PAIRS,
      GCLQ__STREAM_ON | GCLQ__STREAM_WIDE | GCLQ__STREAM_SLOTS | GCLQ__STREAM_PAIRS};
  gclq__sets_stream_windows = which <= 0 ? which : shapes[which - 1];
}

struct sett_hooks {
  ~sett_hooks() {
    sett_cuts_in_blocks(0);
    sett_two_passes(0);
    sett_ip_obs_warps(0);
    sett_bit_matrix_tensor(-1);
    sett_stream_windows(SETT_STREAM_RULE);
  }
};

/* ===========================================================================
   AUTO's rules, on the host
   ========================================================================= */

/* The batch rule for given pairs at density d, w windows and the IP_OBS
   bound: BITMAP_DYNAMIC, IP_OBS, or AUTO (the per-pair rule). */
static inline gclq_intersect_method sett_pairs_rule(const gclq_sets *s, const uint32_t *pairs, uint64_t n, double d,
                                                    double w, uint64_t ip_obs_below) {
  return gclq__sets_pairs_rule(s, pairs, n, d, w, ip_obs_below);
}

/* All pairs' method on CUDA for `asked` (AUTO: the rule over the estimate;
   *increments and *unsure may be NULL). */
static inline gclq_intersect_method sett_all_method(const gclq_sets *s, gclq_intersect_method asked,
                                                    double *increments, int *unsure) {
  return gclq__sets_all_method(s, asked, increments, unsure);
}
static inline void sett_all_estimate(const gclq_sets *s, double *values, double *increments) {
  gclq__sets_all_estimate(s, values, increments);
}
/* The pick at costs mc, ic (0: never that method); *cost (if not NULL):
   its estimate in merge steps. */
static inline gclq_intersect_method sett_all_pick(uint64_t k, uint64_t total, double columns, double increments,
                                                  double mc, double ic, double *cost) {
  return gclq__sets_all_pick(k, total, columns, increments, mc, ic, cost);
}
/* The pick for values spread evenly over the universe (gpuclique.h: V2 =
   the universe, I = total^2 / (2 universe)). */
static inline gclq_intersect_method sett_all_even(uint64_t k, uint64_t total, uint64_t universe, double mc, double ic,
                                                  double *cost) {
  const double increments = universe > 0 ? (double)total * (double)total / (2.0 * (double)universe) : 0.0;
  return sett_all_pick(k, total, (double)universe, increments, mc, ic, cost);
}

/* The containment join's split as a call on `backend` asking split_below
   `asked` would plan it: *split 1 and the threshold, or *split 0 (and 0). */
static inline uint64_t sett_split_plan(const gclq_sets *s, uint64_t asked, gclq_backend backend, int *split) {
  gclq_intersect_options o;
  gclq__mmjoin m;
  uint64_t below = 0;
  memset(&o, 0, sizeof o);
  o.split_below = asked;
  *split = -1;
  if (gclq__mmjoin_plan(s, &o, backend, &m, split) != GCLQ_SUCCESS) return 0;
  if (*split) below = m.below;
  gclq__mmjoin_free(&m);
  return below;
}

/* ===========================================================================
   The batch kernels' tiles, replayed on the host
   ========================================================================= */

/* Pair (a, b) by method m (AUTO, MERGE_PATH, BINARY_SEARCH or a table
   method) as the CUDA batch runs it: the count, and the intersection in
   out when given; UINT32_MAX when the count and write passes disagree or
   a table would take more shared words than its kernel has. */
static inline uint32_t sett_replay(gclq_intersect_method m, const uint32_t *a, uint32_t na, const uint32_t *b,
                                   uint32_t nb, uint32_t *out) {
  return gclq__sets_replay(m, a, na, b, nb, out);
}

/* All pairs i < j of s (k >= 2) by INVERTED_INDEX or BIT_MATRIX as the
   CUDA run counts them, in row tiles of at most max_pairs pairs (at least
   a row) and the bit matrix's columns in chunks of cw words: counts, row
   order, k (k - 1) / 2 of them. */
static inline gclq_status sett_replay_all(gclq_intersect_method m, const gclq_sets *s, uint64_t max_pairs, uint32_t cw,
                                          uint32_t *counts) {
  return gclq__sets_replay_all(m, s, max_pairs, cw, counts);
}

/* ===========================================================================
   All pairs' row-order index
   ========================================================================= */

/* R(i) = i (2k - i - 1) / 2: the index of pair (i, i + 1). */
static inline uint64_t sett_row_start(uint64_t k, uint64_t i) { return gclq__sets_row_start(k, i); }
static inline void sett_pair_of(uint64_t k, uint64_t p, uint64_t *i, uint64_t *j) { gclq__sets_pair_of(k, p, i, j); }

#endif
