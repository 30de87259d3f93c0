/* clique/sets/choose.h - set intersection's chooser: the tuning
   constants of AUTO, its rules, the plan (gclq__sets_plan), and
   gclq__sets_choose, which turns a call's options, collection and pairs
   into the plan that the public calls (clique/sets/api.h), the HOST
   backend (clique/sets/host.h) and the CUDA driver (clique/sets/cuda.cuh)
   only read. Rules and evidence: docs/sets.md, "AUTO's rules".

   What the plan fixes, and where a rule must wait for data:
     backend        gclq__sets_backend: HOST for small work (merge steps at
                    most GCLQ_SETS_AUTO_HOST_WORK), else CUDA when a device
                    is present;
     method         given pairs on CUDA: the method asked, or AUTO's batch
                    rule (gclq__sets_pairs_rule_at): BITMAP_DYNAMIC, IP_OBS,
                    or AUTO, the per-pair rule; auto_ip_obs: AUTO's IP_OBS
                    runs its warp-sized pairs by the per-pair rule's warps
                    (gclq__sets_rule_warps);
     all pairs      gclq__sets_choose_all, on the collection the backend
                    counts (the call's, or the split's heavy part): the
                    method asked, or the cheapest of three estimates
                    (gclq__sets_all_method). Where the sampled estimate is
                    unsure, the driver counts the bit matrix's columns on
                    the device and gclq__sets_choose_columns picks again;
     split          containment: gclq__sets_split_rule; AUTO's threshold is
                    priced from the host's index (gclq__mmjoin_auto) once
                    gclq__mmjoin_plan has built it;
     per pair       the rule is fixed here and applied pair by pair where
                    the pairs are: gclq__sets_searches (warp or tiles,
                    merge path or binary search) by the batch's classifier
                    (gclq__sets_classify) and by the device call's tile
                    kernel; the device call's bitmap test
                    (gclq__sets_bitmap_dense, then gclq__sets_bitmap_spread
                    over the stretches a warp reads, in
                    gclq__sets_tiles_kernel) on the device, with the
                    constants below;
     per batch      the bitmaps' streamed count: gclq__sets_stream_balanced
                    (clique/sets/methods.cuh: it walks the batch's tiles)
                    and gclq__sets_stream_shape, applied by
                    gclq__sets_classify with the constants below.
   The budget's cuts (batches in halves, row tiles, matrix chunks) and the
   one pass (gclq__sets_one_pass_runs: whenever every pair with matches is
   in tiles of one kind) are the driver's; no answer depends on them.

   Public tuning constants (gpuclique.h section 7, definable before the
   implementation include), with the section of bench/results/sets_h200.md
   that justifies each:
     GCLQ_SETS_AUTO_HOST_WORK                 the backend (provisional: not
                                              measured yet);
     GCLQ_SETS_AUTO_RATIO                     a block pair's binary search
                                              (unswept: where a scattered
                                              search surely pays);
     GCLQ_SETS_AUTO_BITMAP_DENSITY, _WINDOWS,
     _FULL                                    the bitmap's batch test ("Fig.
                                              9: the paper's twelve pairs");
     GCLQ_SETS_AUTO_IP_OBS_BELOW              IP_OBS for many small pairs
                                              ("Every edge as a pair");
     GCLQ_SETS_AUTO_MATRIX_COST, _BUILD,
     _TILES, _INDEX_COST, _INCREMENT_SHARE    all pairs' costs ("All pairs
                                              (MISI)");
     GCLQ_SETS_AUTO_SPLIT_WORK, _HOST_COST,
     _GAIN                                    the containment split ("The
                                              containment join's light/heavy
                                              split"; provisional);
     GCLQ_SETS_BIT_MATRIX_TC                  BIT_MATRIX on tensor cores
                                              ("All pairs (MISI)").
   The private ones stand below, each with its reason. */

/* ---- tuning constants ---- */

/* Pairs with |a| + |b| at most this run a warp each, larger ones tiles of
   blocks (and the warp rule below applies): the size a warp's tables in
   shared memory are built for (clique/sets/methods.cuh,
   GCLQ__SETS_WARP_WORDS). */
#define GCLQ__SETS_WARP_WORK 1024u
/* The batch rule's unit of values: stretches of 2^18 (two bitmap windows),
   the size the bitmap thresholds (GCLQ_SETS_AUTO_BITMAP_*) were measured
   with (bench/results/sets_h200.md, "Fig. 9: the paper's twelve pairs"). */
#define GCLQ__SETS_AUTO_STRETCH ((uint64_t)1 << 18)
/* The device call's bitmap test (gclq__sets_bitmap_dense): each set's peak
   density from this many stretches of equal count (a warp reads one a
   lane); pairs below BITMAP_FROM elements never pass; dense from
   BITMAP_DENSITY, above the batch rule's, as the device call's bitmap runs
   a table a tile (bench/results/sets_h200.md, "Fig. 9: the paper's twelve
   pairs", device api rows, and "One pair (SISI)"). */
#define GCLQ__SETS_DEVICE_STRETCHES 32u
#define GCLQ__SETS_DEVICE_BITMAP_FROM ((uint64_t)1 << 17)
#define GCLQ__SETS_DEVICE_BITMAP_DENSITY 0.1
/* All pairs' estimate (gclq__sets_all_estimate): elements sampled, and the
   sets each is looked up in; 4096 binary searches on the host, enough for
   the pick on the seven collections measured (bench/results/sets_h200.md,
   "All pairs (MISI)"). */
#ifndef GCLQ__SETS_SAMPLE
#define GCLQ__SETS_SAMPLE 128u
#endif
#ifndef GCLQ__SETS_SAMPLE_SETS
#define GCLQ__SETS_SAMPLE_SETS 32u
#endif
/* How far the sampled values may be high (gclq__sets_all_method): where
   values / this would pick another method, the columns are counted on the
   device first (bench/results/sets_h200.md, "All pairs (MISI)"). */
#define GCLQ__SETS_COLUMNS_SLACK 8.0
/* The bitmaps' streamed count (gclq__sets_stream_balanced and
   gclq__sets_stream_shape; bench/results/sets_h200.md, "The bitmaps'
   streamed count: shapes and balance"): the windows a batch's pairs must
   span on average to stream; a window's weight against an element; the
   most a block's run may take against the mean; the elements a window
   holds on average from which a batch streams WIDE, and SLOTS; the tiles a
   block's run holds on average from which WIDE streams in PAIRS. */
#define GCLQ__SETS_STREAM_TILES 32u
#define GCLQ__SETS_STREAM_WINDOW_COST 1024u
#define GCLQ__SETS_STREAM_SKEW 2.0
#define GCLQ__SETS_STREAM_WIDE_FROM 1024u
#define GCLQ__SETS_STREAM_SLOTS_FROM 8192u
#define GCLQ__SETS_STREAM_PAIRS_RUN 4u

/* ---- the plan ---- */

typedef struct gclq__sets_plan {
  gclq_backend backend;             /* HOST or CUDA */
  gclq_intersect_method method;     /* HOST: SERIAL_MERGE. CUDA: the method asked; for given pairs asked AUTO,
                                       the batch rule's pick (BITMAP_DYNAMIC, IP_OBS, or AUTO: the per-pair
                                       rule) */
  int auto_ip_obs;                  /* AUTO's batch rule picked IP_OBS: its warp-sized pairs run the per-pair
                                       rule's warps (gclq__sets_dev::auto_ip_obs) */
  uint64_t work;                    /* merge steps: |s_i| + |s_j| summed over the pairs */
  uint64_t split_below;             /* containment: the split's threshold; GCLQ_SPLIT_OFF: none; 0: AUTO's,
                                       priced from the host's index (gclq__mmjoin_auto) */
  gclq_intersect_method all_method; /* all pairs on CUDA (gclq__sets_choose_all): INVERTED_INDEX or
                                       BIT_MATRIX at once, else the pairs in batches by `method` */
  int count_columns;                /* all pairs, AUTO: the estimate is unsure, the driver counts the bit
                                       matrix's columns (gclq__sets_choose_columns picks again) */
  double increments;                /* all pairs, AUTO: the estimate's pair increments, for that pick */
  int tensor;                       /* BIT_MATRIX on tensor cores (GCLQ_SETS_BIT_MATRIX_TC; tests: the hook) */
} gclq__sets_plan;

/* ---- the per-pair rule (applied by the classifier and the device call) ---- */

#if defined(__CUDACC__)
/* AUTO's choice for a pair one warp runs (na <= nb, na + nb <=
   GCLQ__SETS_WARP_WORK): binary search when a takes at most two rounds of
   32 lookups, or b is at least twice a; else merge path. A warp's lookups
   hit b in the L1 cache and share the top of its search tree, so they pay
   at a lower ratio than a grid's (GCLQ_SETS_AUTO_RATIO). On every edge of
   the data graphs and of R-MAT as pairs the rule is faster than the grid's
   ratio at warp size; the ratio of 2 alone would leave the SNAP graphs'
   balanced pairs of a few dozen to the slower merge path, and binary search
   for every pair is slower on c-fat500-10's balanced pairs of ~370
   (bench/results/sets_h200.md, "Every edge as a pair": the warp rule's
   evidence). */
static __host__ __device__ __forceinline__ bool gclq__sets_warp_searches(uint64_t na, uint64_t nb) {
  return na <= 64 || nb >= 2 * na;
}

/* Does a pair (na <= nb) run binary search? The method asked, or AUTO's
   rule: a warp's for a pair one warp runs, else the ratio. */
static __host__ __device__ __forceinline__ bool gclq__sets_searches(gclq_intersect_method m, uint64_t na, uint64_t nb) {
  if (m == GCLQ_INTERSECT_AUTO)
    return na + nb <= GCLQ__SETS_WARP_WORK ? gclq__sets_warp_searches(na, nb) : nb >= (uint64_t)GCLQ_SETS_AUTO_RATIO * na;
  return m == GCLQ_INTERSECT_BINARY_SEARCH;
}

/* Do the small pairs of AUTO's IP_OBS (auto_ip_obs, and the device call's
   AUTO) run the per-pair rule's warps (gclq__sets_warp_kernel: merge path,
   or binary search, gclq__sets_warp_searches) rather than IP_OBS's warp tables?
   Yes: a warp's table costs more than it saves on a pair of a few hundred
   elements. The per-pair rule's warps were the faster on every edge of
   c-fat500-10 (46,627 pairs of ~370 elements) and of R-MAT 16 and 17 as
   pairs through the device call (bench/results/sets_h200.md, "Every edge
   as a pair": per-pair warps where AUTO runs IP_OBS). */
static inline bool gclq__sets_rule_warps(int auto_ip_obs) {
#ifdef GPUCLIQUE_TESTING
  if (gclq__sets_ip_obs_warps) return false;
#endif
  return auto_ip_obs != 0;
}
#endif

/* ---- the bitmap test (the batch rule's, and the device call's pair by pair) ---- */

/* The device call's AUTO gives a pair to BITMAP_DYNAMIC by the batch rule's
   test of a dominant pair (gclq__sets_pairs_rule_at), pair by pair, on the
   device (gclq__sets_bitmap_dense, then gclq__sets_bitmap_spread in
   gclq__sets_tiles_kernel): dense over the values both span, and spread
   over GCLQ_SETS_AUTO_BITMAP_WINDOWS busy stretches, each set's peak
   density from GCLQ__SETS_DEVICE_STRETCHES stretches, but dense from
   GCLQ__SETS_DEVICE_BITMAP_DENSITY (the device call's bitmap runs a table
   per tile, not the batch's streamed windows). Through the device call,
   BITMAP_DYNAMIC beat IP_OBS on two sets of 10^7 (uniform or normal) at
   density 0.2 (U = 10^8) and on two of 10^8 over 10^9, lost at density
   0.02 (10^7 over U = 10^9), and was level on 10^6 over 10^8
   (bench/results/sets_h200.md, "Fig. 9": device api, and "One pair").
   Pairs below GCLQ__SETS_DEVICE_BITMAP_FROM elements never pass (64
   stretches of 2^18 values at the least density hold more), so a batch of
   small pairs reads nothing more. */

/* AUTO's bitmap test, one definition for the batch rule on the host
   (gclq__sets_pairs_rule_at) and the device call's test pair by pair
   (gclq__sets_tiles_kernel). Stretch i of q of equal count of a sorted set
   x of n >= q elements: its count *c and its span of values *w (both at
   most 2^32). */
static GPRIM_HD void gclq__sets_stretch(const uint32_t *x, uint32_t n, uint32_t q, uint32_t i, uint64_t *c,
                                        uint64_t *w) {
  const uint64_t from = (uint64_t)n * i / q, to = (uint64_t)n * (i + 1) / q - 1;
  *c = to - from + 1;
  *w = (uint64_t)x[to] - x[from] + 1;
}

/* The densest of q stretches of equal count of a sorted set (n >= q >= 1),
   in elements per value. Densities c / w are compared as c w' > c' w
   (below 2^64), so one division is made, and its result is the largest of
   the stretches' own divisions. */
static GPRIM_HD double gclq__sets_peak_density_of(const uint32_t *x, uint32_t n, uint32_t q) {
  uint64_t best_c = 0, best_w = 1, c, w;
  uint32_t i;
  for (i = 0; i < q; ++i) {
    gclq__sets_stretch(x, n, q, i, &c, &w);
    if (c * best_w > best_c * w) best_c = c, best_w = w;
  }
  return (double)best_c / (double)best_w;
}

/* Is a pair of work = |a| + |b| elements, dense elements per value over the
   values both span, spread enough for the bitmap: at least `windows` full
   stretches of GCLQ__SETS_AUTO_STRETCH values (fewer above a density of
   GCLQ_SETS_AUTO_BITMAP_FULL: heavier windows)? The fullest stretch holds at
   most both sets' peak densities (peak_a, peak_b) times its values, and at
   most the work. */
static GPRIM_HD int gclq__sets_bitmap_spread(uint64_t work, double dense, double peak_a, double peak_b,
                                             double windows) {
  double fullest = (peak_a + peak_b) * (double)GCLQ__SETS_AUTO_STRETCH;
  const double scale = dense > GCLQ_SETS_AUTO_BITMAP_FULL ? GCLQ_SETS_AUTO_BITMAP_FULL / dense : 1.0;
  if (fullest > (double)work) fullest = (double)work;
  return (double)work >= windows * scale * fullest;
}

/* ---- the bitmaps' streamed count (applied per batch by gclq__sets_classify) ---- */

/* How gclq__sets_bits_stream_kernel runs a batch (gclq__sets_split's
   stream, gclq__sets_stream_shape): the bits below. ON: it streams (else
   the partition kernel's records run). WIDE: a round reads 2 quads of each
   side a thread, not 1. SLOTS: counting alone (the write pass's count,
   which keeps each tile's own count, takes whole tiles), a tile is cut
   into 2^GCLQ__SETS_STREAM_SLOTS_LOG2 slots and block k runs slots
   [slots k / grid, slots (k + 1) / grid): its run may start and end
   inside a tile, so the blocks' runs differ by a slot, not a tile. PAIRS
   (counting alone; the rule takes it with WIDE, without SLOTS): a window
   spans 2 tiles, over a bitmap of 2 tiles' values (32 KB, 6 blocks a
   multiprocessor), and a round asks L2 for the first half of the round
   after it (prefetch.global.L2), so the fixed work of a window (its clear,
   its sums, its first rounds' waits) is paid half as often. A batch
   streams at all when its pairs span GCLQ__SETS_STREAM_TILES windows or
   more on average and its blocks' runs balance (gclq__sets_stream_balanced,
   clique/sets/methods.cuh: a window weighs GCLQ__SETS_STREAM_WINDOW_COST
   elements, a run may take GCLQ__SETS_STREAM_SKEW times the mean); its
   blocks then search once a run of windows, not once a window. */
enum { GCLQ__STREAM_ON = 1, GCLQ__STREAM_WIDE = 2, GCLQ__STREAM_SLOTS = 4, GCLQ__STREAM_PAIRS = 8 };
#define GCLQ__SETS_STREAM_SLOTS_LOG2 3u

/* The stream kernel's WIDE, SLOTS and PAIRS for a batch of `elements`
   (both sides of its pairs, summed) over `tiles` windows, `blocks` the
   resident blocks (PAIRS is taken only when counting alone:
   gclq__sets_bits_count). WIDE from GCLQ__SETS_STREAM_WIDE_FROM elements a
   window on average, SLOTS from GCLQ__SETS_STREAM_SLOTS_FROM: in slots a
   block's run has a window more, and a window's wait is what small sets
   pay for: of two uniform sets over U = 10^9, each shape measured beside
   one window a round in whole tiles, those of 10^6 (260 elements a window)
   ran slower WIDE in slots, those of 10^7 (2.6 * 10^3 a window) gained from
   WIDE but lost in slots, those of 10^8 (2.6 * 10^4 a window) gained in
   slots. PAIRS from GCLQ__SETS_STREAM_PAIRS_RUN tiles a block's run on
   average (tiles / the resident blocks of 16 KB,
   gclq__sets_resident_blocks): it gained over WIDE on two uniform sets of
   10^7 over U = 10^9 (7.2 tiles a run) and lost on two of 10^6 over
   U = 10^8 (0.7 tiles a run: fewer blocks, windows of the same length); it is never
   taken in slots: on sets of 10^8 over U = 10^9 it was no faster than
   slots alone (bench/results/sets_h200.md, "The bitmaps' streamed
   count"). */
static inline int gclq__sets_stream_shape(uint64_t elements, uint64_t tiles, uint64_t blocks) {
  const double mean = tiles ? (double)elements / (double)tiles : 0.0;
  if (mean >= GCLQ__SETS_STREAM_SLOTS_FROM) return GCLQ__STREAM_WIDE | GCLQ__STREAM_SLOTS;
  if (mean < GCLQ__SETS_STREAM_WIDE_FROM) return 0;
  return GCLQ__STREAM_WIDE | (tiles >= GCLQ__SETS_STREAM_PAIRS_RUN * blocks ? GCLQ__STREAM_PAIRS : 0);
}

/* ---- the batch rule and all pairs' rule ---- */

/* AUTO's rule for all pairs on CUDA (GCLQ_SETS_AUTO_MATRIX_COST above) for
   k sets of `total` elements whose values in two or more sets number
   `columns` (the bit matrix's) and whose index makes `increments` pair
   increments: BIT_MATRIX, INVERTED_INDEX, or AUTO (the pairwise batches);
   *cost (if not NULL) gets its estimate in merge steps (0 when no pair
   meets anything). */
static inline gclq_intersect_method gclq__sets_all_pick(uint64_t k, uint64_t total, double columns, double increments,
                                                        double matrix_cost, double index_cost, double *cost) {
  const double merge = (double)(k > 0 ? k - 1 : 0) * (double)total;
  const double blocks = (double)((k + 31) / 32), tiles = blocks * (blocks + 1.0) / 2.0;
  const double fill = tiles < GCLQ_SETS_AUTO_MATRIX_TILES ? GCLQ_SETS_AUTO_MATRIX_TILES / tiles : 1.0;
  const double words = (double)k * (double)(k > 0 ? k - 1 : 0) / 2.0 * (double)(uint64_t)((columns + 31.0) / 32.0);
  const double matrix = matrix_cost * (fill * words + GCLQ_SETS_AUTO_MATRIX_BUILD * (double)total);
  const double index = index_cost * ((double)total + GCLQ_SETS_AUTO_INCREMENT_SHARE * increments);
  gclq_intersect_method m = GCLQ_INTERSECT_AUTO;
  double best = merge;
  if (matrix_cost > 0.0 && matrix < best && (index_cost <= 0.0 || matrix <= index)) {
    m = GCLQ_INTERSECT_BIT_MATRIX;
    best = matrix;
  } else if (index_cost > 0.0 && index < best) {
    m = GCLQ_INTERSECT_INVERTED_INDEX;
    best = index;
  }
  if (cost != NULL) *cost = best;
  return merge == 0.0 ? GCLQ_INTERSECT_AUTO : m; /* no pair meets anything: nothing to choose */
}

/* The same for values spread evenly: every one of `universe` values a
   column, total^2 / (2 universe) increments; *cost as above. */
static inline gclq_intersect_method gclq__sets_all_even(uint64_t k, uint64_t total, uint64_t universe,
                                                        double matrix_cost, double index_cost, double *cost) {
  const double increments = universe > 0 ? (double)total * (double)total / (2.0 * (double)universe) : 0.0;
  return gclq__sets_all_pick(k, total, (double)universe, increments, matrix_cost, index_cost, cost);
}
static inline double gclq__sets_all_cost(uint64_t k, uint64_t total, uint64_t universe, double matrix_cost,
                                         double index_cost) {
  double cost;
  gclq__sets_all_even(k, total, universe, matrix_cost, index_cost, &cost);
  return cost;
}
static inline gclq_intersect_method gclq__sets_all_rule(uint64_t k, uint64_t total, uint64_t universe,
                                                        double matrix_cost, double index_cost) {
  return gclq__sets_all_even(k, total, universe, matrix_cost, index_cost, NULL);
}

/* One pass over n given pairs: *work = the sum of |s_i| + |s_j|, *largest =
   the largest pair's, *at = that pair's index. GCLQ_ERROR_INVALID_ARGUMENT
   for a set index out of range. */
static gclq_status gclq__sets_pairs_work(const gclq_sets *s, const uint32_t *pairs, uint64_t n, uint64_t *work,
                                         uint64_t *largest, uint64_t *at) {
  uint64_t p, w;
  *work = *largest = *at = 0;
  for (p = 0; p < n; ++p) {
    if (pairs[2 * p] >= s->num_sets || pairs[2 * p + 1] >= s->num_sets) return GCLQ_ERROR_INVALID_ARGUMENT;
    w = (uint64_t)gclq__sets_size(s, pairs[2 * p]) + gclq__sets_size(s, pairs[2 * p + 1]);
    *work += w;
    if (w > *largest) *largest = w, *at = p;
  }
  return GCLQ_SUCCESS;
}

/* The densest stretch of a sorted set, in elements per value: the most of
   1024 stretches of equal count (n / 1024 elements each: their spans vary
   little unless the values crowd) over their spans. */
static double gclq__sets_peak_density(const uint32_t *x, uint32_t n) {
  return gclq__sets_peak_density_of(x, n, n < 1024 ? n : 1024);
}

/* AUTO's batch rule for n given pairs on CUDA (GCLQ_SETS_AUTO_BITMAP_DENSITY
   above): BITMAP_DYNAMIC, IP_OBS, or AUTO (the per-pair rule). work,
   largest, at: from gclq__sets_pairs_work. A dominant pair's stretches are
   read only when it is dense enough (gclq__sets_bitmap_spread). */
static inline gclq_intersect_method gclq__sets_pairs_rule_at(const gclq_sets *s, const uint32_t *pairs, uint64_t n,
                                                             uint64_t work, uint64_t largest, uint64_t at,
                                                             double density, double windows, uint64_t ip_obs_below) {
  if (work == 0) return GCLQ_INTERSECT_AUTO;
  if (2 * largest >= work) { /* one pair dominates: is it dense, and spread? */
    const uint32_t i = pairs[2 * at], j = pairs[2 * at + 1];
    const uint32_t *a = s->h_elements + s->h_offsets[i], *b = s->h_elements + s->h_offsets[j];
    const uint32_t na = gclq__sets_size(s, i), nb = gclq__sets_size(s, j);
    uint32_t lo, hi;
    double dense;
    if (na == 0 || nb == 0) return GCLQ_INTERSECT_AUTO; /* nothing to intersect */
    lo = a[0] > b[0] ? a[0] : b[0];
    hi = a[na - 1] < b[nb - 1] ? a[na - 1] : b[nb - 1];
    if (lo > hi) return GCLQ_INTERSECT_BITMAP_DYNAMIC; /* no overlap: nothing runs */
    dense = (double)largest / ((double)(hi - lo) + 1.0);
    if (dense >= density && gclq__sets_bitmap_spread(largest, dense, gclq__sets_peak_density(a, na),
                                                     gclq__sets_peak_density(b, nb), windows))
      return GCLQ_INTERSECT_BITMAP_DYNAMIC;
    /* a balanced dominant pair: IP_OBS (the per-pair rule would take merge path) */
    return (na < nb ? nb / na : na / nb) < GCLQ_SETS_AUTO_RATIO ? GCLQ_INTERSECT_IP_OBS : GCLQ_INTERSECT_AUTO;
  }
  return work < (double)ip_obs_below * (double)n ? GCLQ_INTERSECT_IP_OBS : GCLQ_INTERSECT_AUTO;
}

/* The same rule with its own pass over the pairs (valid indices). */
static inline gclq_intersect_method gclq__sets_pairs_rule(const gclq_sets *s, const uint32_t *pairs, uint64_t n,
                                                          double density, double windows, uint64_t ip_obs_below) {
  uint64_t work, largest, at;
  if (gclq__sets_pairs_work(s, pairs, n, &work, &largest, &at) != GCLQ_SUCCESS) return GCLQ_INTERSECT_AUTO;
  return gclq__sets_pairs_rule_at(s, pairs, n, work, largest, at, density, windows, ip_obs_below);
}

/* Is v in set i? (a binary search) */
static int gclq__sets_holds(const gclq_sets *s, uint32_t i, uint32_t v) {
  uint64_t lo = s->h_offsets[i], hi = s->h_offsets[i + 1];
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (s->h_elements[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < s->h_offsets[i + 1] && s->h_elements[lo] == v;
}

/* A collection's values and index increments, estimated for AUTO's
   all-pairs rule. With c(e) the number of sets holding element e's value,
   the distinct values are the sum over elements of 1 / c and the index's
   increments half the sum of c - 1. GCLQ__SETS_SAMPLE elements are drawn
   (a fixed sequence: the same collection, the same estimate), each c
   counted in GCLQ__SETS_SAMPLE_SETS other sets (all of them where there
   are no more) and scaled to the k - 1: 4096 binary searches on the host.
   The increments come out unbiased; the values come out high where c is small
   (a value in 2 of 1000 sets is rarely seen twice), which prices the bit
   matrix high, never low: the values are capped by the universe and by
   total. Skewed collections (zipf) have far more increments than values
   spread evenly would give (one to two orders of magnitude more on
   bench_sets's zipf collections), enough to make the inverted index the
   slower method there (bench/results/sets_h200.md, "All pairs (MISI)"). On
   those seven collections the estimate picks the faster method but for the
   zipf ENRON stand-in, where the tensor-core matrix runs far below its cost
   a word and the slower index is still picked. */
static void gclq__sets_all_estimate(const gclq_sets *s, double *values, double *increments) {
  const uint64_t k = s->num_sets, n = s->total;
  const uint32_t others = k - 1 < GCLQ__SETS_SAMPLE_SETS ? (uint32_t)(k > 0 ? k - 1 : 0) : GCLQ__SETS_SAMPLE_SETS;
  uint64_t x = 0x9e3779b97f4a7c15ull, e, lo, hi;
  double more = 0.0, inverse = 0.0, c;
  uint32_t t, j, a, b, v, hits;
  *values = *increments = 0.0;
  if (n == 0 || k < 2) return;
  for (t = 0; t < GCLQ__SETS_SAMPLE; ++t) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    e = (x >> 16) % n;
    lo = 0, hi = k; /* the set of element e: the last offset <= e */
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (s->h_offsets[mid] <= e) lo = mid;
      else hi = mid;
    }
    a = (uint32_t)lo;
    v = s->h_elements[e];
    hits = 0;
    for (j = 0; j < others; ++j) {
      if ((uint64_t)others == k - 1) {
        b = j < a ? j : j + 1;
      } else {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        b = (uint32_t)((a + 1 + (x >> 16) % (k - 1)) % k);
      }
      hits += (uint32_t)gclq__sets_holds(s, b, v);
    }
    c = 1.0 + (double)hits * (double)(k - 1) / (double)others;
    more += c - 1.0;
    inverse += 1.0 / c;
  }
  *increments = (double)n / 2.0 * more / GCLQ__SETS_SAMPLE;
  *values = (double)n * inverse / GCLQ__SETS_SAMPLE;
  if (s->universe > 0 && *values > (double)s->universe) *values = (double)s->universe;
}

/* The method all pairs of a collection run by on CUDA: the one asked, or
   AUTO's rule with the configured costs over the estimated values and
   increments (gclq__sets_all_estimate). *unsure (if not NULL): 1 when
   the estimate's values over GCLQ__SETS_COLUMNS_SLACK would pick another
   method (the estimate can be that high: the caller may count the columns
   exactly and pick again with *increments). */
static inline gclq_intersect_method gclq__sets_all_method(const gclq_sets *s, gclq_intersect_method asked,
                                                          double *increments, int *unsure) {
  double values, incr;
  gclq_intersect_method m;
  if (unsure != NULL) *unsure = 0;
  if (asked != GCLQ_INTERSECT_AUTO) return asked;
  gclq__sets_all_estimate(s, &values, &incr);
  m = gclq__sets_all_pick(s->num_sets, s->total, values, incr, GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST,
                          NULL);
  if (increments != NULL) *increments = incr;
  if (unsure != NULL)
    *unsure = m != gclq__sets_all_pick(s->num_sets, s->total, values / GCLQ__SETS_COLUMNS_SLACK, incr,
                                       GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST, NULL);
  return m;
}

/* ---- the containment join's split ---- */

/* The split threshold a call asks for, by the rule (GCLQ_SETS_AUTO_SPLIT_WORK
   in gpuclique.h): GCLQ_SPLIT_OFF, also for fewer than two sets; asked 0
   (AUTO): no split on HOST or for an all-pairs estimate below
   GCLQ_SETS_AUTO_SPLIT_WORK, else 0, AUTO's threshold, priced from the
   host's index once it is built (gclq__mmjoin_auto); any other: as asked. */
static inline uint64_t gclq__sets_split_rule(const gclq_sets *s, uint64_t asked, gclq_backend backend) {
  if (asked == GCLQ_SPLIT_OFF || s->num_sets < 2) return GCLQ_SPLIT_OFF;
  if (asked == 0 && (backend != GCLQ_BACKEND_CUDA ||
                     gclq__sets_all_cost(s->num_sets, s->total, s->universe, GCLQ_SETS_AUTO_MATRIX_COST,
                                         GCLQ_SETS_AUTO_INDEX_COST) < GCLQ_SETS_AUTO_SPLIT_WORK))
    return GCLQ_SPLIT_OFF; /* AUTO: CUDA only, and only when the work is large */
  return asked;
}

/* AUTO's threshold from the index (GCLQ_SETS_AUTO_SPLIT_WORK above): the
   lists by length class, c in [2^b, 2^(b+1)), then each split_below = 2^t
   priced as the larger of its two parts; GCLQ_SPLIT_OFF when none is cheap
   enough. */
static uint64_t gclq__mmjoin_auto(const gclq_sets *s, const gclq__mmjoin *m) {
  double incr[34], elems[34], values[34], light_incr = 0.0, heavy_elems = 0.0, heavy_values = 0.0, heavy_incr = 0.0;
  double off, best;
  uint64_t r, below = GCLQ_SPLIT_OFF;
  int b, t;
  for (b = 0; b < 34; ++b) incr[b] = elems[b] = values[b] = 0.0;
  for (r = 0; r < m->runs; ++r) {
    const uint64_t c = m->start[r + 1] - m->start[r];
    b = 0;
    while (b < 33 && ((uint64_t)2 << b) <= c) ++b; /* c in [2^b, 2^(b+1)) */
    incr[b] += (double)c * (double)(c - 1) / 2.0;
    elems[b] += (double)c;
    values[b] += 1.0;
  }
  for (b = 1; b < 34; ++b) { /* the heavy part without a split: the values in two or more sets */
    heavy_elems += elems[b];
    heavy_values += values[b];
    heavy_incr += incr[b];
  }
  gclq__sets_all_pick(s->num_sets, s->total, heavy_values, heavy_incr, GCLQ_SETS_AUTO_MATRIX_COST,
                      GCLQ_SETS_AUTO_INDEX_COST, &off);
  best = GCLQ_SETS_AUTO_SPLIT_GAIN * off;
  for (t = 2; t <= 33; ++t) { /* split_below = 2^t: classes below t are light */
    double cost, host;
    light_incr += incr[t - 1];
    heavy_elems -= elems[t - 1];
    heavy_values -= values[t - 1];
    heavy_incr -= incr[t - 1];
    host = GCLQ_SETS_AUTO_SPLIT_HOST_COST * light_incr;
    gclq__sets_all_pick(s->num_sets, (uint64_t)heavy_elems, heavy_values, heavy_incr, GCLQ_SETS_AUTO_MATRIX_COST,
                        GCLQ_SETS_AUTO_INDEX_COST, &cost);
    if (host > cost) cost = host;
    if (cost < best) {
      best = cost;
      below = (uint64_t)1 << t;
    }
  }
  return below;
}

/* ---- the backend ---- */

/* The backend a call runs on, into the stats: SERIAL_MERGE asked runs
   HOST; AUTO runs HOST for work (merge steps) at most
   GCLQ_SETS_AUTO_HOST_WORK (stats.auto_small), else CUDA when a device is
   present. AUTO asks for the device either way (a count, no context or
   memory), so that a machine without one says so whichever rule applied:
   stats.fell_back and a note naming the missing device, the small work
   after it. stats.method: SERIAL_MERGE on HOST, else the method asked. */
static gclq_status gclq__sets_backend(const gclq_intersect_options *o, uint64_t work, gclq_intersect_stats *stats,
                                      gclq_backend *backend) {
  const gclq_backend asked = o->method == GCLQ_INTERSECT_SERIAL_MERGE ? GCLQ_BACKEND_HOST : o->backend;
  char small[48] = ""; /* "small work (" + 20 digits + " merge steps)": room in the notes after the rest */
  gclq_status st = gclq_backend_resolve(asked, backend);
  if (st != GCLQ_SUCCESS) return st;
  if (asked == GCLQ_BACKEND_AUTO && work <= GCLQ_SETS_AUTO_HOST_WORK) {
    stats->auto_small = 1;
    snprintf(small, sizeof small, "small work (%llu merge steps)", (unsigned long long)work);
  }
  if (asked == GCLQ_BACKEND_AUTO && *backend == GCLQ_BACKEND_HOST) {
    stats->fell_back = 1;
    snprintf(stats->notes, sizeof stats->notes,
             "AUTO: no CUDA device (or built without nvcc): ran the host backend%s%s", small[0] ? "; " : "", small);
  } else if (stats->auto_small) {
    *backend = GCLQ_BACKEND_HOST;
    snprintf(stats->notes, sizeof stats->notes, "AUTO: %s: ran the host backend", small);
  }
  stats->backend = *backend;
  stats->method = *backend == GCLQ_BACKEND_HOST ? GCLQ_INTERSECT_SERIAL_MERGE : o->method;
  return GCLQ_SUCCESS;
}

/* ---- the chooser ---- */

/* The plan of one call: o resolved (gclq__sets_resolve), the collection
   checked; pairs h_pairs (num_pairs), or all pairs i < j (all); kind the
   sink's (GCLQ__SINK_CONTAIN: the split applies). The work (merge steps),
   the backend (gclq__sets_backend), the method (AUTO's batch rule for given
   pairs on CUDA: stats.method reports its pick), the split's threshold, the
   bit matrix's kernel; all pairs' method is gclq__sets_choose_all's, once
   the collection the backend counts is known. Returns GCLQ_SUCCESS,
   GCLQ_ERROR_INVALID_ARGUMENT (a set index out of range) or the backend's
   resolution error. */
static gclq_status gclq__sets_choose(const gclq_sets *sets, const uint32_t *h_pairs, uint64_t num_pairs, int all,
                                     int kind, const gclq_intersect_options *o, gclq__sets_plan *plan,
                                     gclq_intersect_stats *stats) {
  uint64_t largest = 0, at = 0;
  gclq_status st;
  memset(plan, 0, sizeof *plan);
  if (!all) { /* the work, and the largest pair for AUTO's batch rule */
    st = gclq__sets_pairs_work(sets, h_pairs, num_pairs, &plan->work, &largest, &at);
    if (st != GCLQ_SUCCESS) return st;
  }
  if (all && sets->num_sets > 1) /* each set meets the k - 1 others */
    plan->work = sets->total > UINT64_MAX / (sets->num_sets - 1) ? UINT64_MAX : (sets->num_sets - 1) * sets->total;
  st = gclq__sets_backend(o, plan->work, stats, &plan->backend);
  if (st != GCLQ_SUCCESS) return st;
  plan->method = plan->backend == GCLQ_BACKEND_HOST ? GCLQ_INTERSECT_SERIAL_MERGE : o->method;
  if (plan->backend == GCLQ_BACKEND_CUDA && !all && o->method == GCLQ_INTERSECT_AUTO) {
    plan->method = gclq__sets_pairs_rule_at(sets, h_pairs, num_pairs, plan->work, largest, at,
                                            GCLQ_SETS_AUTO_BITMAP_DENSITY, GCLQ_SETS_AUTO_BITMAP_WINDOWS,
                                            GCLQ_SETS_AUTO_IP_OBS_BELOW);
    stats->method = plan->method;
    plan->auto_ip_obs = plan->method == GCLQ_INTERSECT_IP_OBS;
  }
  plan->split_below =
      kind == GCLQ__SINK_CONTAIN ? gclq__sets_split_rule(sets, o->split_below, plan->backend) : GCLQ_SPLIT_OFF;
  plan->all_method = plan->method;
#if defined(__CUDACC__)
  plan->tensor = GCLQ__SETS_BM_TENSOR;
#endif
  return GCLQ_SUCCESS;
}

/* All pairs on CUDA: the method over `work`, the collection the backend
   counts (the call's, or the split's heavy part): the one asked, or AUTO's
   pick over the sampled estimate (gclq__sets_all_method), with
   count_columns set where the estimate is unsure. */
static inline void gclq__sets_choose_all(gclq__sets_plan *plan, const gclq_sets *work) {
  plan->all_method = gclq__sets_all_method(work, plan->method, &plan->increments, &plan->count_columns);
}

/* AUTO's pick again, over the columns the driver counted on the device
   (the bit matrix's compacted universe) and the estimate's increments. */
static inline gclq_intersect_method gclq__sets_choose_columns(const gclq__sets_plan *plan, const gclq_sets *work,
                                                              uint64_t columns) {
  return gclq__sets_all_pick(work->num_sets, work->total, (double)columns, plan->increments,
                             GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST, NULL);
}
