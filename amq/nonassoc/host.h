/* amq/nonassoc/host.h - the non-associative scans' host part: the serial
   reference, the host simulations of the four methods (the HOST backend of
   section 5) and the call description the entry points (amq/nonassoc/api.h)
   and the CUDA driver (amq/nonassoc/cuda.cuh) share. */

/* ---------------------------------------------------------------------------
   Non-associative scans: host reference and host simulations of the parallel
   methods (private: the HOST backend of section 5, and what the tests compare
   the kernels with, rounds included). The QF paper, section IV-C, Algorithms 4-6.

   THE RECURRENCE. Everything here evaluates the max-plus recurrence

       x_i = max(x_{i-1} + a_i, b_i)                                   (1)

   on int64, with an optional initial value x_{-1} (absent: minus infinity,
   so x_0 = b_0) and optional segment heads (a head restarts (1) from the
   initial value, or from minus infinity when there is none). The two scans a
   quotient filter needs are special cases:
       saturating sum   x_i = max(x_{i-1} + a_i, 0)      (b_i = 0, init 0)
       position scan    x_i = max(x_{i-1} + 1, v_i)      (a_i = 1, b_i = v_i)
   Worked example (position scan, sorted quotients v = 2 2 3 7 7, no init):
       x = 2 3 4 7 8     (v = 3 is pushed to slot 4 by the run of 2s; 7 is a
                          "break": x_3 = v_3 does not depend on x_2).

   VALUE RANGE AND OVERFLOW. Every x_i and every x_{i-1} + a_i (init + a_i at
   a head) must lie in int64; otherwise the operation returns
   GAMQ__NA_OVERFLOW and x is unspecified. Nothing ever wraps. The serial loop
   checks each step. The parallel methods compute with the mathematical max
   (a step whose sum falls below INT64_MIN just yields b_i), detect any x_i
   above INT64_MAX, then check every step x_{i-1} + a_i in one last
   elementwise pass (gamq__na_check_steps) so they report exactly when the
   serial loop does. The u64 position scan runs on values biased by -2^63
   (the recurrence commutes with adding a constant to x and b), so its range is
   all of uint64.

   THE FOUR METHODS (each a host simulation written as rounds over "threads",
   with separate read and write buffers, so a kernel can mirror it):
     ASSOCIATIVE           maps f(x) = max(x + a, b) compose into maps of the
                           same form; an inclusive Hillis-Steele scan over the
                           maps. ceil(log2 n) rounds, always.
     PARALLEL_MERGING      Alg. 4: segments of 1, 2, 4, ... elements merged
                           pairwise; ceil(log2 n) rounds, always.
     SEQUENTIAL_SHIFTING   Alg. 5: runs shift after their left neighbour until
                           nothing moves; rounds = longest chain of runs + 1.
     SEGMENTED_LAYOUTS     Alg. 6: L = max(1, floor(log2 n)) elements per
                           segment laid out serially, the last value passed on
                           until stable; rounds = longest chain of segments + 1
                           or + 2.
   The last two extract their parallelism from breaks in the dependency chain.
   On an input without breaks they degrade: sequential shifting to about
   (number of runs) rounds (for v = 0 0 0 2 2 2 4 4 4 ..., n/3 rounds; an
   all-equal input is one run and needs 1 round), segmented layouts to about
   n / L rounds for any input whose chain spans the whole array (all v equal
   included). That is why they take an iteration bound: after max_rounds
   rounds that still changed something they finish with the associative method
   and set stats.fell_back.
   ------------------------------------------------------------------------- */

typedef enum gamq__na_result {
  GAMQ__NA_OK = 0,
  GAMQ__NA_OVERFLOW = 1, /* some x_i or x_{i-1} + a_i outside the value range */
  GAMQ__NA_BAD_ARG = 2,  /* a NULL array with n > 0, or an unknown method */
  GAMQ__NA_NO_MEMORY = 3 /* a host allocation failed */
} gamq__na_result;

typedef enum gamq__na_method {
  GAMQ__NA_SERIAL = 0, /* the reference loop */
  GAMQ__NA_ASSOCIATIVE = 1,
  GAMQ__NA_PARALLEL_MERGING = 2,
  GAMQ__NA_SEQUENTIAL_SHIFTING = 3,
  GAMQ__NA_SEGMENTED_LAYOUTS = 4
} gamq__na_method;

/* What a method did. rounds: launches of its round kernel (for shifting and
   layouts including the final round that found nothing to change; the
   associative finish after a fallback is not counted). fell_back: 1 when the
   iteration bound was hit and the associative method finished the job. */
typedef struct gamq__na_stats {
  int rounds;
  int fell_back;
} gamq__na_stats;

/* One instance of (1). a == NULL means every a_i is a_const (and likewise b);
   heads == NULL means one segment. Index 0 always starts a segment. */
typedef struct gamq__na_problem {
  size_t n;
  const int64_t *a;
  int64_t a_const;
  const int64_t *b;
  int64_t b_const;
  const uint8_t *heads;
  int has_init;
  int64_t init;
} gamq__na_problem;

static inline int64_t gamq__na_a(const gamq__na_problem *p, size_t i) { return p->a ? p->a[i] : p->a_const; }
static inline int64_t gamq__na_b(const gamq__na_problem *p, size_t i) { return p->b ? p->b[i] : p->b_const; }
static inline int gamq__na_is_head(const gamq__na_problem *p, size_t i) { return i == 0 || (p->heads && p->heads[i]); }

/* ---- checked int64 arithmetic ---- */

/* *sum = x + y if it fits in int64; returns 0 (and leaves *sum) if not. */
static inline int gamq__add_i64(int64_t x, int64_t y, int64_t *sum) {
  if ((y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y)) return 0;
  *sum = x + y;
  return 1;
}

/* One step of (1) with the mathematical max: *x = max(prev + a, b). A sum
   below INT64_MIN loses to b (which is in range) and is no error here; a
   result above INT64_MAX is an overflow (returns 0). The parallel methods
   step on lower bounds of the true x, so a too-small sum says nothing about
   the true one; gamq__na_check_steps checks the true steps at the end. */
static inline int gamq__na_step(int64_t prev, int64_t a, int64_t b, int64_t *x) {
  int64_t t;
  if (gamq__add_i64(prev, a, &t)) {
    *x = t > b ? t : b;
    return 1;
  }
  if (a < 0) { /* prev + a < INT64_MIN <= b */
    *x = b;
    return 1;
  }
  return 0; /* prev + a > INT64_MAX */
}

/* The value of a segment head: max(init + a, b) with an init, else b. */
static inline int gamq__na_head_value(const gamq__na_problem *p, size_t i, int64_t *x) {
  if (!p->has_init) {
    *x = gamq__na_b(p, i);
    return 1;
  }
  return gamq__na_step(p->init, gamq__na_a(p, i), gamq__na_b(p, i), x);
}

/* The last pass of every parallel method: given x exact (no x_i overflowed),
   does every step x_{i-1} + a_i (init + a_i at a head with an init) fit? */
static inline gamq__na_result gamq__na_check_steps(const gamq__na_problem *p, const int64_t *x) {
  size_t i;
  int64_t t;
  for (i = 0; i < p->n; ++i) { /* one thread per element */
    if (gamq__na_is_head(p, i)) {
      if (p->has_init && !gamq__add_i64(p->init, gamq__na_a(p, i), &t)) return GAMQ__NA_OVERFLOW;
    } else if (!gamq__add_i64(x[i - 1], gamq__na_a(p, i), &t)) {
      return GAMQ__NA_OVERFLOW;
    }
  }
  return GAMQ__NA_OK;
}

static inline int gamq__na_args_ok(const gamq__na_problem *p, const int64_t *x) {
  return p != NULL && (p->n == 0 || x != NULL);
}

/* ---------------------------------------------------------------------------
   The reference: the serial loop. Checks every step; this is what the tests
   compare every other method and every kernel with.
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_maxplus_serial(const gamq__na_problem *p, int64_t *x) {
  size_t i;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  for (i = 0; i < p->n; ++i) {
    int64_t a = gamq__na_a(p, i), b = gamq__na_b(p, i), t;
    if (gamq__na_is_head(p, i)) {
      if (!p->has_init) {
        x[i] = b;
        continue;
      }
      if (!gamq__add_i64(p->init, a, &t)) return GAMQ__NA_OVERFLOW;
    } else if (!gamq__add_i64(x[i - 1], a, &t)) {
      return GAMQ__NA_OVERFLOW;
    }
    x[i] = t > b ? t : b;
  }
  return GAMQ__NA_OK;
}

/* ---------------------------------------------------------------------------
   Maps f(x) = max(x + A, B), the associative form.

   Composition: f1 = (A1, B1) then f2 = (A2, B2) is
       f2(f1(x)) = max(max(x + A1, B1) + A2, B2) = max(x + (A1 + A2), max(B1 + A2, B2)),
   again a map. A head is the constant map f(x) = B (A = minus infinity), and
   composing anything before a constant map gives that constant map.

   Range: the B of the composed map of elements l..r is the value x_r would
   have if x_{l-1} were minus infinity, so B <= x_r: if the true x fit, every
   B fits in int64, and a B above INT64_MAX is a true overflow. A, a sum of
   a_i, does not fit int64 in general (a_i may be large and of both signs
   while the x stay in range), so A is a 128-bit two's-complement number
   (hi, lo); n * 2^63 < 2^127, so A itself never overflows.
   ------------------------------------------------------------------------- */
typedef struct gamq__w128 {
  int64_t hi;  /* value = hi * 2^64 + lo */
  uint64_t lo;
} gamq__w128;

static inline gamq__w128 gamq__w128_from_i64(int64_t v) {
  gamq__w128 r;
  r.hi = v < 0 ? -1 : 0;
  r.lo = (uint64_t)v;
  return r;
}
static inline gamq__w128 gamq__w128_add(gamq__w128 x, gamq__w128 y) {
  gamq__w128 r;
  r.lo = x.lo + y.lo;
  r.hi = x.hi + y.hi + (r.lo < x.lo ? 1 : 0);
  return r;
}
static inline int gamq__w128_less(gamq__w128 x, gamq__w128 y) {
  return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
}
/* v fits int64: hi is the sign extension of lo's top bit. */
static inline int gamq__w128_to_i64(gamq__w128 v, int64_t *out) {
  if (v.hi == 0 && v.lo <= (uint64_t)INT64_MAX) {
    *out = (int64_t)v.lo;
    return 1;
  }
  if (v.hi == -1 && v.lo > (uint64_t)INT64_MAX) {
    *out = -(int64_t)(~v.lo) - 1; /* two's complement without an implementation-defined cast */
    return 1;
  }
  return 0;
}

typedef struct gamq__na_map {
  int constant; /* 1: f(x) = b for every x (A is minus infinity) */
  gamq__w128 a;
  int64_t b;
} gamq__na_map;

/* The map of element i: constant at a head (its value with the init folded
   in: applying the prefix map to the init is the same as starting each
   segment with the constant map of its head's value). */
static inline int gamq__na_element_map(const gamq__na_problem *p, size_t i, gamq__na_map *m) {
  m->a = gamq__w128_from_i64(gamq__na_a(p, i));
  m->constant = gamq__na_is_head(p, i);
  if (!m->constant) {
    m->b = gamq__na_b(p, i);
    return 1;
  }
  return gamq__na_head_value(p, i, &m->b);
}

/* *r = first then second. Returns 0 on a B above INT64_MAX (true overflow). */
static inline int gamq__na_compose(const gamq__na_map *first, const gamq__na_map *second, gamq__na_map *r) {
  gamq__w128 t;
  int64_t tb;
  if (second->constant) {
    *r = *second;
    return 1;
  }
  r->constant = first->constant;
  r->a = gamq__w128_add(first->a, second->a); /* meaningless (unused) when constant */
  t = gamq__w128_add(gamq__w128_from_i64(first->b), second->a); /* B1 + A2 */
  if (gamq__w128_less(t, gamq__w128_from_i64(second->b))) {
    r->b = second->b;
    return 1;
  }
  if (!gamq__w128_to_i64(t, &tb)) return 0; /* t >= B2 >= INT64_MIN, so t > INT64_MAX */
  r->b = tb;
  return 1;
}

static inline int gamq__na_ceil_log2(size_t n) {
  int k = 0;
  while (k < 63 && ((size_t)1 << k) < n) ++k;
  return k;
}

/* The setup both map-based methods share: two buffers of n maps (read and
   write), read[i] holding element i's own map. GAMQ__NA_NO_MEMORY leaves
   nothing allocated; GAMQ__NA_OVERFLOW leaves both allocated for the caller
   to free, like success. */
static inline gamq__na_result gamq__na_maps_begin(const gamq__na_problem *p, gamq__na_map **read, gamq__na_map **write) {
  size_t i;
  *read = (gamq__na_map *)GAMQ_MALLOC(p->n * sizeof(gamq__na_map));
  *write = (gamq__na_map *)GAMQ_MALLOC(p->n * sizeof(gamq__na_map));
  if (!*read || !*write) {
    GAMQ_FREE(*read);
    GAMQ_FREE(*write);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < p->n; ++i)
    if (!gamq__na_element_map(p, i, &(*read)[i])) return GAMQ__NA_OVERFLOW;
  return GAMQ__NA_OK;
}

/* ... and the finish: on success x_i is the B of prefix map i (a constant
   map), every step is checked for overflow; both buffers are freed. */
static inline gamq__na_result gamq__na_maps_end(const gamq__na_problem *p, int64_t *x, gamq__na_map *read,
                                                gamq__na_map *write, gamq__na_result res) {
  size_t i;
  if (res == GAMQ__NA_OK) {
    for (i = 0; i < p->n; ++i) x[i] = read[i].b;
    res = gamq__na_check_steps(p, x);
  }
  GAMQ_FREE(read);
  GAMQ_FREE(write);
  return res;
}

/* ---------------------------------------------------------------------------
   ASSOCIATIVE: an inclusive Hillis-Steele scan over the element maps.
   Round d (distance 1, 2, 4, ...): thread i writes read[i - d] then read[i]
   (or copies read[i] when i < d). After the round with distance d, element i
   holds the composition of elements max(0, i - 2d + 1) .. i. Element 0's map
   is constant, so every prefix map is constant and its B is x_i.
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_maxplus_associative(const gamq__na_problem *p, int64_t *x,
                                                            gamq__na_stats *stats) {
  gamq__na_map *read, *write, *swap;
  gamq__na_result res = GAMQ__NA_OK;
  size_t i, d;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  res = gamq__na_maps_begin(p, &read, &write);
  if (res == GAMQ__NA_NO_MEMORY) return res;
  for (d = 1; d < p->n && res == GAMQ__NA_OK; d *= 2) {
    for (i = 0; i < p->n; ++i) { /* one thread per element */
      if (i < d) {
        write[i] = read[i];
      } else if (!gamq__na_compose(&read[i - d], &read[i], &write[i])) {
        res = GAMQ__NA_OVERFLOW;
      }
    }
    swap = read, read = write, write = swap;
    if (stats) stats->rounds++;
  }
  return gamq__na_maps_end(p, x, read, write, res);
}

/* ---------------------------------------------------------------------------
   PARALLEL_MERGING (Alg. 4), generalised from slots-and-credits to maps.

   Round k merges segments of 2^k elements pairwise (segment of i: i >> k).
   Every element holds the map from its segment's first element to itself:
   its b is the element's value computed inside its segment alone (the
   paper's tentative slot), its a says how that value moves when a value
   arrives from the left. Thread i in an odd (right) segment composes the
   left segment's total map, held by the left segment's last element, in
   front of its own; elements of even segments keep theirs. By associativity
   of composition the invariant holds after each round, and once one segment
   covers everything, b is x_i. Exact, in ceil(log2 n) rounds on any input.

   The paper's form is this map for the position scan (a_i = 1): element i at
   offset j in its segment holds slot_i and reacts to an arriving value L by
   max(L + 1 + j, slot_i). With offset = L - slot_first + 1 (Alg. 4 line 5)
   and credit_i = slot_i - slot_first - j (the empty slots before i in its
   segment), the shift max(0, offset - credit_i) is Alg. 4's "overlap".
   The paper starts from one segment per run of equal quotients; we start
   from single elements (one more round at most, no run labelling).
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_maxplus_merging(const gamq__na_problem *p, int64_t *x,
                                                        gamq__na_stats *stats) {
  gamq__na_map *read, *write, *swap;
  gamq__na_result res = GAMQ__NA_OK;
  size_t i;
  int k;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  res = gamq__na_maps_begin(p, &read, &write);
  if (res == GAMQ__NA_NO_MEMORY) return res;
  for (k = 0; ((size_t)1 << k) < p->n && res == GAMQ__NA_OK; ++k) {
    for (i = 0; i < p->n; ++i) { /* one thread per element */
      size_t seg = i >> k;
      if (seg % 2 == 0) {
        write[i] = read[i];
      } else {
        size_t left_last = (seg << k) - 1;
        if (!gamq__na_compose(&read[left_last], &read[i], &write[i])) res = GAMQ__NA_OVERFLOW;
      }
    }
    swap = read, read = write, write = swap;
    if (stats) stats->rounds++;
  }
  return gamq__na_maps_end(p, x, read, write, res);
}

/* ---------------------------------------------------------------------------
   SEQUENTIAL_SHIFTING (Alg. 5), generalised.

   Runs. Element i (not a head) is bound to i - 1 when b_i <= b_{i-1} + a_i:
   then x_i = x_{i-1} + a_i whatever comes from the left (x_{i-1} >= b_{i-1},
   so x_{i-1} + a_i >= b_i). A run is a maximal stretch of bound elements; for
   sorted quotients (a_i = 1) it is a stretch of equal or consecutive
   quotients, the paper's runs and a little more. Preprocessing lays each run
   out from its first element's b (its head value at a head).

   Rounds. One thread per run reads the value left of its first element from
   the read buffer; if the run must move (step > its first value) it lays the
   run out again from the new first value into the write buffer, else copies
   it. Repeat until no run moved. Every value is a lower bound of the true x
   and only grows; a round with no move means every run is consistent with its
   left neighbour, which is the unique solution of (1): exact. A run moves in
   round r only if a chain of r runs leads to it, so rounds = longest chain of
   dependent runs + 1 (the final check). Without breaks that is the number of
   runs (e.g. v = 0 0 0 2 2 2 4 4 4 ...: n/3 runs, each pushed by the last).
   ------------------------------------------------------------------------- */

/* Lay out elements [first, end) serially after x[first] is set, into x
   (a head inside restarts from its head value). 0 on an x above INT64_MAX. */
static inline int gamq__na_layout(const gamq__na_problem *p, size_t first, size_t end, int64_t *x) {
  size_t i;
  for (i = first + 1; i < end; ++i) {
    int ok = gamq__na_is_head(p, i) ? gamq__na_head_value(p, i, &x[i])
                                    : gamq__na_step(x[i - 1], gamq__na_a(p, i), gamq__na_b(p, i), &x[i]);
    if (!ok) return 0;
  }
  return 1;
}

/* Preprocessing: flag run starts, compact them (a select on the GPU) into
   starts[0 .. *runs), then n. */
static inline gamq__na_result gamq__na_run_starts(const gamq__na_problem *p, size_t *starts, size_t *runs) {
  size_t i, k = 0;
  for (i = 0; i < p->n; ++i) {
    int bound = 0;
    if (!gamq__na_is_head(p, i)) {
      int64_t reach;
      if (gamq__add_i64(gamq__na_b(p, i - 1), gamq__na_a(p, i), &reach)) {
        bound = gamq__na_b(p, i) <= reach;
      } else if (gamq__na_a(p, i) > 0) { /* b_{i-1} + a_i > INT64_MAX: x_i would be too */
        return GAMQ__NA_OVERFLOW;
      }
    }
    if (!bound) starts[k++] = i;
  }
  starts[k] = p->n;
  *runs = k;
  return GAMQ__NA_OK;
}

/* The initial layout into x: each run alone (a segmented scan on the GPU). */
static inline gamq__na_result gamq__na_runs_alone(const gamq__na_problem *p, const size_t *starts, size_t runs,
                                                  int64_t *x) {
  size_t r;
  for (r = 0; r < runs; ++r) {
    size_t s = starts[r];
    if (gamq__na_is_head(p, s)) {
      if (!gamq__na_head_value(p, s, &x[s])) return GAMQ__NA_OVERFLOW;
    } else {
      x[s] = gamq__na_b(p, s);
    }
    if (!gamq__na_layout(p, s, starts[r + 1], x)) return GAMQ__NA_OVERFLOW;
  }
  return GAMQ__NA_OK;
}

/* One round from read into write; *moved = 1 when some run moved. */
static inline gamq__na_result gamq__na_shift_round(const gamq__na_problem *p, const size_t *starts, size_t runs,
                                                   const int64_t *read, int64_t *write, int *moved) {
  size_t r;
  *moved = 0;
  for (r = 0; r < runs; ++r) { /* one thread per run */
    size_t s = starts[r], end = starts[r + 1];
    int64_t first = read[s];
    if (!gamq__na_is_head(p, s) && !gamq__na_step(read[s - 1], gamq__na_a(p, s), gamq__na_b(p, s), &first))
      return GAMQ__NA_OVERFLOW;
    if (first > read[s]) { /* shift: lay the run out again from its new first value */
      write[s] = first;
      if (!gamq__na_layout(p, s, end, write)) return GAMQ__NA_OVERFLOW;
      *moved = 1;
    } else {
      memcpy(write + s, read + s, (end - s) * sizeof(int64_t));
    }
  }
  return GAMQ__NA_OK;
}

static inline gamq__na_result gamq__host_maxplus_shifting(const gamq__na_problem *p, int64_t *x, int max_rounds,
                                                         gamq__na_stats *stats) {
  size_t *starts = NULL; /* first element of each run, then n */
  int64_t *read = NULL, *write = NULL, *swap;
  size_t runs = 0;
  int rounds = 0, moved = 1;
  gamq__na_result res = GAMQ__NA_OK;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  starts = (size_t *)GAMQ_MALLOC((p->n + 1) * sizeof(size_t));
  read = (int64_t *)GAMQ_MALLOC(p->n * sizeof(int64_t));
  write = (int64_t *)GAMQ_MALLOC(p->n * sizeof(int64_t));
  if (!starts || !read || !write) {
    res = GAMQ__NA_NO_MEMORY;
    goto done;
  }
  res = gamq__na_run_starts(p, starts, &runs);
  if (res == GAMQ__NA_OK) res = gamq__na_runs_alone(p, starts, runs, read);
  if (res != GAMQ__NA_OK) goto done;
  while (moved && (max_rounds <= 0 || rounds < max_rounds)) {
    res = gamq__na_shift_round(p, starts, runs, read, write, &moved);
    if (res != GAMQ__NA_OK) goto done;
    swap = read, read = write, write = swap;
    rounds++;
  }
  if (stats) stats->rounds = rounds;
  if (moved) { /* bound hit: finish with the associative method */
    if (stats) stats->fell_back = 1;
    res = gamq__host_maxplus_associative(p, x, NULL);
    goto done;
  }
  memcpy(x, read, p->n * sizeof(int64_t));
  res = gamq__na_check_steps(p, x);
done:
  GAMQ_FREE(starts);
  GAMQ_FREE(read);
  GAMQ_FREE(write);
  return res;
}

/* ---------------------------------------------------------------------------
   SEGMENTED_LAYOUTS (Alg. 6), generalised.

   The array is cut into segments of L = max(1, floor(log2 n)) elements (the
   paper cuts the filter's slots into q-slot pieces; for a general recurrence
   the elements are the natural unit). Each round, one thread per segment
   takes the last value its left neighbour produced in the previous round
   (carry_read; INT64_MIN before the first round, a lower bound of any x),
   lays its L elements out serially, and publishes its own last value
   (carry_write). Values are lower bounds of the true x and only grow; when a
   round publishes exactly the carries it read, every segment agrees with its
   neighbour, which is the unique solution of (1): exact. Rounds = longest
   chain of dependent segments + 2 at most; with no break, about n / L.
   ------------------------------------------------------------------------- */
static inline size_t gamq__na_segment_length(size_t n) {
  size_t len = 0;
  while (((size_t)2 << len) <= n) ++len; /* floor(log2 n) */
  return len < 1 ? 1 : len;
}

static inline gamq__na_result gamq__host_maxplus_layouts(const gamq__na_problem *p, int64_t *x, int max_rounds,
                                                        gamq__na_stats *stats) {
  size_t len, segs, k;
  int64_t *carry_read = NULL, *carry_write = NULL, *swap;
  int rounds = 0, changed = 1;
  gamq__na_result res = GAMQ__NA_OK;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  len = gamq__na_segment_length(p->n);
  segs = (p->n + len - 1) / len;
  carry_read = (int64_t *)GAMQ_MALLOC(segs * sizeof(int64_t));
  carry_write = (int64_t *)GAMQ_MALLOC(segs * sizeof(int64_t));
  if (!carry_read || !carry_write) {
    res = GAMQ__NA_NO_MEMORY;
    goto done;
  }
  for (k = 0; k < segs; ++k) carry_read[k] = INT64_MIN;
  while (changed && (max_rounds <= 0 || rounds < max_rounds)) {
    changed = 0;
    for (k = 0; k < segs; ++k) { /* one thread per segment */
      size_t first = k * len, end = first + len < p->n ? first + len : p->n;
      int ok;
      if (gamq__na_is_head(p, first)) {
        ok = gamq__na_head_value(p, first, &x[first]);
      } else {
        ok = gamq__na_step(carry_read[k - 1], gamq__na_a(p, first), gamq__na_b(p, first), &x[first]);
      }
      if (!ok || !gamq__na_layout(p, first, end, x)) {
        res = GAMQ__NA_OVERFLOW;
        goto done;
      }
      carry_write[k] = x[end - 1];
      if (carry_write[k] != carry_read[k]) changed = 1;
    }
    swap = carry_read, carry_read = carry_write, carry_write = swap;
    rounds++;
  }
  if (stats) stats->rounds = rounds;
  if (changed) {
    if (stats) stats->fell_back = 1;
    res = gamq__host_maxplus_associative(p, x, NULL);
    goto done;
  }
  res = gamq__na_check_steps(p, x);
done:
  GAMQ_FREE(carry_read);
  GAMQ_FREE(carry_write);
  return res;
}

/* Any method by name; max_rounds bounds shifting and layouts (<= 0: none). */
static inline gamq__na_result gamq__host_maxplus(const gamq__na_problem *p, gamq__na_method method, int max_rounds,
                                                int64_t *x, gamq__na_stats *stats) {
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  switch (method) {
    case GAMQ__NA_SERIAL: return gamq__host_maxplus_serial(p, x);
    case GAMQ__NA_ASSOCIATIVE: return gamq__host_maxplus_associative(p, x, stats);
    case GAMQ__NA_PARALLEL_MERGING: return gamq__host_maxplus_merging(p, x, stats);
    case GAMQ__NA_SEQUENTIAL_SHIFTING: return gamq__host_maxplus_shifting(p, x, max_rounds, stats);
    case GAMQ__NA_SEGMENTED_LAYOUTS: return gamq__host_maxplus_layouts(p, x, max_rounds, stats);
    default: return GAMQ__NA_BAD_ARG;
  }
}

/* ---------------------------------------------------------------------------
   The special cases, as thin wrappers: convert the input to int64 (a, b),
   run the chosen method, convert back and check the output type's range.
   ------------------------------------------------------------------------- */

/* Saturating sum x_i = max(x_{i-1} + a_i, 0), output in the input's type.
   init: NULL means 0 (a shift never starts negative). */
static inline gamq__na_result gamq__host_satsum_i64(size_t n, const int64_t *a, const uint8_t *heads,
                                                   const int64_t *init, gamq__na_method method, int max_rounds,
                                                   int64_t *x, gamq__na_stats *stats) {
  gamq__na_problem p;
  if (n > 0 && (a == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  p.n = n, p.a = a, p.a_const = 0, p.b = NULL, p.b_const = 0, p.heads = heads;
  p.has_init = 1, p.init = init ? *init : 0;
  return gamq__host_maxplus(&p, method, max_rounds, x, stats);
}

static inline gamq__na_result gamq__host_satsum_i32(size_t n, const int32_t *a, const uint8_t *heads,
                                                   const int32_t *init, gamq__na_method method, int max_rounds,
                                                   int32_t *x, gamq__na_stats *stats) {
  int64_t *a64, *x64, init64 = init ? *init : 0;
  gamq__na_result res;
  size_t i;
  if (n > 0 && (a == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  if (n == 0) return gamq__host_satsum_i64(0, NULL, heads, &init64, method, max_rounds, NULL, stats);
  a64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  x64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  if (!a64 || !x64) {
    GAMQ_FREE(a64);
    GAMQ_FREE(x64);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) a64[i] = a[i];
  res = gamq__host_satsum_i64(n, a64, heads, &init64, method, max_rounds, x64, stats);
  /* x >= 0 always; x_{i-1} + a_i above INT32_MAX makes x_i above it too */
  for (i = 0; i < n && res == GAMQ__NA_OK; ++i) {
    if (x64[i] > INT32_MAX) res = GAMQ__NA_OVERFLOW;
    else x[i] = (int32_t)x64[i];
  }
  GAMQ_FREE(a64);
  GAMQ_FREE(x64);
  return res;
}

/* uint64 <-> int64 by subtracting 2^63: order-preserving, and (1) commutes
   with it (a_i = 1 unchanged), so the u64 position scan keeps its full range. */
static inline int64_t gamq__na_bias_u64(uint64_t v) {
  const uint64_t half = (uint64_t)1 << 63;
  return v >= half ? (int64_t)(v - half) : (int64_t)v - INT64_MAX - 1;
}
static inline uint64_t gamq__na_unbias_u64(int64_t s) {
  const uint64_t half = (uint64_t)1 << 63;
  return s >= 0 ? (uint64_t)s + half : (uint64_t)(s + INT64_MAX + 1);
}

/* Position scan x_i = max(x_{i-1} + 1, v_i), u64: output u64; a result above
   UINT64_MAX is an overflow. init: NULL means none (x_0 = v_0). */
static inline gamq__na_result gamq__host_position_u64(size_t n, const uint64_t *v, const uint8_t *heads,
                                                     const uint64_t *init, gamq__na_method method, int max_rounds,
                                                     uint64_t *x, gamq__na_stats *stats) {
  gamq__na_problem p;
  int64_t *b, *x64;
  gamq__na_result res;
  size_t i;
  if (n > 0 && (v == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  p.n = n, p.a = NULL, p.a_const = 1, p.b = NULL, p.b_const = 0, p.heads = heads;
  p.has_init = init != NULL, p.init = init ? gamq__na_bias_u64(*init) : 0;
  if (n == 0) return gamq__host_maxplus(&p, method, max_rounds, NULL, stats);
  b = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  x64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  if (!b || !x64) {
    GAMQ_FREE(b);
    GAMQ_FREE(x64);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) b[i] = gamq__na_bias_u64(v[i]);
  p.b = b;
  res = gamq__host_maxplus(&p, method, max_rounds, x64, stats);
  for (i = 0; i < n && res == GAMQ__NA_OK; ++i) x[i] = gamq__na_unbias_u64(x64[i]);
  GAMQ_FREE(b);
  GAMQ_FREE(x64);
  return res;
}

/* Position scan, u32: output u32; a result above UINT32_MAX is an overflow. */
static inline gamq__na_result gamq__host_position_u32(size_t n, const uint32_t *v, const uint8_t *heads,
                                                     const uint32_t *init, gamq__na_method method, int max_rounds,
                                                     uint32_t *x, gamq__na_stats *stats) {
  gamq__na_problem p;
  int64_t *b, *x64;
  gamq__na_result res;
  size_t i;
  if (n > 0 && (v == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  p.n = n, p.a = NULL, p.a_const = 1, p.b = NULL, p.b_const = 0, p.heads = heads;
  p.has_init = init != NULL, p.init = init ? (int64_t)*init : 0;
  if (n == 0) return gamq__host_maxplus(&p, method, max_rounds, NULL, stats);
  b = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  x64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  if (!b || !x64) {
    GAMQ_FREE(b);
    GAMQ_FREE(x64);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) b[i] = v[i];
  p.b = b;
  res = gamq__host_maxplus(&p, method, max_rounds, x64, stats);
  for (i = 0; i < n && res == GAMQ__NA_OK; ++i) {
    if (x64[i] > (int64_t)UINT32_MAX) res = GAMQ__NA_OVERFLOW;
    else x[i] = (uint32_t)x64[i];
  }
  GAMQ_FREE(b);
  GAMQ_FREE(x64);
  return res;
}

/* ---------------------------------------------------------------------------
   The call description: one struct for all five public operations, read by
   the entry points (argument checks, HOST dispatch) and by the CUDA driver.
   ------------------------------------------------------------------------- */
enum {
  GAMQ__OP_SATSUM_I32 = 0,
  GAMQ__OP_SATSUM_I64 = 1,
  GAMQ__OP_POSITION_U32 = 2,
  GAMQ__OP_POSITION_U64 = 3,
  GAMQ__OP_MAXPLUS_I64 = 4
};
typedef struct gamq__scan_call {
  int op;
  const void *a, *b; /* a: satsum, maxplus; b: position (v), maxplus */
  const uint8_t *heads;
  const void *init; /* host pointer to one value of the op's type, or NULL */
  void *x;
  size_t n;
} gamq__scan_call;

/* element sizes of a, b and x (0: not an input of this op) */
static inline size_t gamq__call_a_size(int op) { return op == GAMQ__OP_SATSUM_I32 ? 4 : op == GAMQ__OP_SATSUM_I64 || op == GAMQ__OP_MAXPLUS_I64 ? 8 : 0; }
static inline size_t gamq__call_b_size(int op) { return op == GAMQ__OP_POSITION_U32 ? 4 : op == GAMQ__OP_POSITION_U64 || op == GAMQ__OP_MAXPLUS_I64 ? 8 : 0; }
static inline size_t gamq__call_x_size(int op) { return op == GAMQ__OP_SATSUM_I32 || op == GAMQ__OP_POSITION_U32 ? 4 : 8; }
