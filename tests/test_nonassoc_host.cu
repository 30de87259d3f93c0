/* test_nonassoc_host.cu - the non-associative scans' host side:
   the serial reference and the HOST backend's simulations of the four
   methods (through the public calls with backend HOST), which must equal it
   exactly, overflow included, with the rounds each method takes; a failed
   host allocation. A private copy of the implementation with the counting
   allocator (test_api.cu owns the shared one). */
#include "counting_alloc.h"
#define GAMQ_MALLOC(sz) counting_malloc(sz)
#define GAMQ_FREE(p) counting_free(p)
#define GAMQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "internal_amq.h"

#include "testing.h"

static const gamq_scan_method na_methods[] = {GAMQ_SCAN_ASSOCIATIVE, GAMQ_SCAN_PARALLEL_MERGING,
                                              GAMQ_SCAN_SEQUENTIAL_SHIFTING, GAMQ_SCAN_SEGMENTED_LAYOUTS};
static const char *na_method_name(gamq_scan_method m) { return gamq_scan_method_name(m); }

/* The HOST backend with method m and a bound: max_rounds 0 means none (the
   public desc's -1), else that many rounds. */
static gamq_scan_desc na_host_desc(gamq_scan_method m, int max_rounds) {
  gamq_scan_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST, d.method = m, d.max_rounds = max_rounds > 0 ? max_rounds : -1;
  return d;
}
/* ceil(log2 n): the rounds of ASSOCIATIVE and PARALLEL_MERGING on the host */
static int na_ceil_log2(size_t n) {
  int k = 0;
  while (k < 63 && ((size_t)1 << k) < n) ++k;
  return k;
}
/* SEGMENTED_LAYOUTS' segment length: max(1, floor(log2 n)) */
static size_t na_segment_length(size_t n) {
  size_t len = 0;
  while (((size_t)2 << len) <= n) ++len;
  return len < 1 ? 1 : len;
}

/* The position scan's closed form, u64: inside a segment starting at h,
       x_i = (i - h) + max( init + 1 (with an init),  max_{h<=j<=i} (v_j - (j - h)) )
   (unroll the recurrence: x_i is v_j pushed i - j slots on, for the j that
   pushes furthest, or the init pushed i - h + 1 slots). One segmented prefix
   max, which the kernel does with gprim's scan. A term v_j - (j - h) < 0
   never wins (the j = h term is v_h >= 0), so it is taken as 0 and nothing
   leaves uint64. The init term init + 1 overflows only for init =
   UINT64_MAX, and then so does x_h. */
static gamq_status na_closed_form_position_u64(size_t n, const uint64_t *v, const uint8_t *heads, const uint64_t *init,
                                               uint64_t *x) {
  size_t i, h = 0;
  uint64_t m = 0;
  if (n > 0 && (v == NULL || x == NULL)) return GAMQ_ERROR_INVALID_ARGUMENT;
  for (i = 0; i < n; ++i) {
    uint64_t offset, term;
    if (i == 0 || (heads && heads[i])) { /* segment head: restart the max */
      h = i;
      m = 0;
      if (init) {
        if (*init == UINT64_MAX) return GAMQ_ERROR_OVERFLOW;
        m = *init + 1;
      }
    }
    offset = (uint64_t)(i - h);
    term = v[i] >= offset ? v[i] - offset : 0;
    if (term > m) m = term;
    if (m > UINT64_MAX - offset) return GAMQ_ERROR_OVERFLOW;
    x[i] = m + offset;
  }
  return GAMQ_SUCCESS;
}

/* sizes from test_sizes, capped at 2^20 (host speed) */
static std::vector<size_t> na_sizes(test_rng &rng) {
  std::vector<size_t> all = test_sizes(1024, rng), out;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] <= ((size_t)1 << 20)) out.push_back(all[i]);
  return out;
}

enum { HEADS_NONE, HEADS_RANDOM, HEADS_AT_ZERO, HEADS_ALL, HEADS_MODES };
static void na_fill_heads(std::vector<uint8_t> &h, int mode, test_rng &rng) {
  for (size_t i = 0; i < h.size(); ++i) {
    switch (mode) {
      case HEADS_RANDOM: h[i] = rng.below(16) == 0; break;
      case HEADS_AT_ZERO: h[i] = i == 0; break;
      case HEADS_ALL: h[i] = 1; break;
      default: h[i] = 0; break;
    }
  }
}

/* One instance of the general recurrence. */
struct na_problem {
  size_t n;
  const int64_t *a, *b;
  const uint8_t *heads;
  const int64_t *init; /* NULL: none */
};

/* Every method against the serial reference: same status, same values, sane
   rounds. */
static void na_check_problem(const na_problem &p, int max_rounds, const char *what) {
  std::vector<int64_t> want(p.n + 1), got(p.n + 1);
  gamq_status ref = amqt_serial_maxplus(p.n, p.a, 0, p.b, 0, p.heads, p.init, want.data());
  CHECK(ref == GAMQ_SUCCESS || ref == GAMQ_ERROR_OVERFLOW);
  for (size_t m = 0; m < sizeof na_methods / sizeof na_methods[0]; ++m) {
    gamq_scan_stats st = {GAMQ_BACKEND_AUTO, GAMQ_SCAN_AUTO, -1, -1};
    gamq_scan_desc d = na_host_desc(na_methods[m], max_rounds);
    gamq_status r = gamq_maxplus_i64(&d, p.a, p.b, p.heads, p.init, got.data(), p.n, &st);
    CHECK_MSG(r == ref, "%s, %s, n = %zu: status %d, reference %d", what, na_method_name(na_methods[m]), p.n,
              (int)r, (int)ref);
    if (ref == GAMQ_SUCCESS) {
      CHECK_MSG(test_arrays_equal(want.data(), got.data(), p.n, na_method_name(na_methods[m])),
                "%s, %s, n = %zu differs", what, na_method_name(na_methods[m]), p.n);
      CHECK(st.backend == GAMQ_BACKEND_HOST && st.method == na_methods[m]);
      int lg = na_ceil_log2(p.n);
      if (na_methods[m] == GAMQ_SCAN_ASSOCIATIVE) CHECK_EQ(st.rounds, lg);
      if (na_methods[m] == GAMQ_SCAN_PARALLEL_MERGING) CHECK(st.rounds <= lg + 1);
      int bounded = na_methods[m] == GAMQ_SCAN_SEQUENTIAL_SHIFTING || na_methods[m] == GAMQ_SCAN_SEGMENTED_LAYOUTS;
      if (bounded && max_rounds > 0) CHECK(st.rounds <= max_rounds);
      if (st.fell_back) CHECK(max_rounds > 0 && st.rounds == max_rounds);
      CHECK(st.fell_back == 0 || st.fell_back == 1);
    }
  }
}

static na_problem na_make(const std::vector<int64_t> &a, const std::vector<int64_t> &b,
                          const std::vector<uint8_t> *heads, const int64_t *init) {
  na_problem p;
  p.n = a.size();
  p.a = a.data();
  p.b = b.data();
  p.heads = heads ? heads->data() : NULL;
  p.init = init;
  return p;
}

/* ---- the reference itself ---- */

TEST(nonassoc_host, serial_worked_examples) {
  /* position scan, v = 2 2 3 7 7 -> 2 3 4 7 8 */
  uint64_t v[5] = {2, 2, 3, 7, 7}, x[5], want[5] = {2, 3, 4, 7, 8};
  CHECK(amqt_serial_position_u64(5, v, NULL, NULL, x) == GAMQ_SUCCESS);
  CHECK(memcmp(x, want, sizeof x) == 0);
  uint64_t init = 5, want_init[5] = {6, 7, 8, 9, 10};
  CHECK(amqt_serial_position_u64(5, v, NULL, &init, x) == GAMQ_SUCCESS);
  CHECK(memcmp(x, want_init, sizeof x) == 0);
  uint8_t heads[5] = {0, 0, 0, 0, 1};
  uint64_t want_seg[5] = {6, 7, 8, 9, 7}; /* index 4 restarts from the init: max(6, 7) */
  CHECK(amqt_serial_position_u64(5, v, heads, &init, x) == GAMQ_SUCCESS);
  CHECK(memcmp(x, want_seg, sizeof x) == 0);
  /* saturating sum, a = 3 -5 2 -1 4 -> 3 0 2 1 5 */
  int64_t a[5] = {3, -5, 2, -1, 4}, s[5], want_s[5] = {3, 0, 2, 1, 5};
  CHECK(amqt_serial_satsum_i64(5, a, NULL, NULL, s) == GAMQ_SUCCESS);
  CHECK(memcmp(s, want_s, sizeof s) == 0);
}

/* Empty problems run nothing; missing arrays are refused; constants stand
   in for the arrays the special cases leave out. The serial reference
   directly, every method through the HOST backend. */
TEST(nonassoc_host, empty_and_null_arguments) {
  int64_t x[1] = {42}, one[1] = {1};
  /* the serial loop: n = 0 runs nothing, an output NULL is refused, and with
     neither array the constants are the recurrence (a 3, b 9: x_0 = 9) */
  CHECK(amqt_serial_maxplus(0, NULL, 0, NULL, 0, NULL, NULL, NULL) == GAMQ_SUCCESS);
  CHECK(amqt_serial_maxplus(1, one, 0, one, 0, NULL, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(amqt_serial_maxplus(1, NULL, 3, NULL, 9, NULL, NULL, x) == GAMQ_SUCCESS && x[0] == 9);
  CHECK(amqt_serial_satsum_i64(0, NULL, NULL, NULL, NULL) == GAMQ_SUCCESS);
  CHECK(amqt_serial_position_u64(0, NULL, NULL, NULL, NULL) == GAMQ_SUCCESS);
  for (int m = 0; m < 4; ++m) {
    gamq_scan_desc d = na_host_desc(na_methods[m], 0);
    gamq_scan_stats st = {GAMQ_BACKEND_AUTO, GAMQ_SCAN_AUTO, 7, 7};
    CHECK(gamq_maxplus_i64(&d, NULL, NULL, NULL, NULL, NULL, 0, &st) == GAMQ_SUCCESS);
    CHECK(st.rounds == 0 && st.fell_back == 0 && st.backend == GAMQ_BACKEND_HOST && st.method == na_methods[m]);
    CHECK(gamq_maxplus_i64(&d, NULL, NULL, NULL, NULL, x, 1, &st) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_maxplus_i64(&d, one, one, NULL, NULL, NULL, 1, &st) == GAMQ_ERROR_INVALID_ARGUMENT);
    /* the constants: the position scan (a = 1) of v = 9, the satsum (b = 0) of a = 3 */
    uint64_t v9 = 9, y9 = 0;
    int64_t a3 = 3;
    CHECK(gamq_position_scan_u64(&d, &v9, NULL, NULL, &y9, 1, NULL) == GAMQ_SUCCESS && y9 == 9);
    CHECK(gamq_satsum_i64(&d, &a3, NULL, NULL, x, 1, NULL) == GAMQ_SUCCESS && x[0] == 3);
    CHECK(gamq_satsum_i64(&d, NULL, NULL, NULL, NULL, 0, NULL) == GAMQ_SUCCESS);
    CHECK(gamq_satsum_i64(&d, NULL, NULL, NULL, x, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_satsum_i32(&d, NULL, NULL, NULL, NULL, 0, NULL) == GAMQ_SUCCESS);
    CHECK(gamq_satsum_i32(&d, NULL, NULL, NULL, NULL, 2, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_position_scan_u32(&d, NULL, NULL, NULL, NULL, 0, NULL) == GAMQ_SUCCESS);
    uint32_t v32 = 1, x32 = 0;
    CHECK(gamq_position_scan_u32(&d, &v32, NULL, NULL, NULL, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_position_scan_u32(&d, &v32, NULL, NULL, &x32, 1, NULL) == GAMQ_SUCCESS && x32 == 1);
    CHECK(gamq_position_scan_u64(&d, NULL, NULL, NULL, NULL, 0, NULL) == GAMQ_SUCCESS);
    CHECK(gamq_position_scan_u64(&d, NULL, NULL, NULL, &y9, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  }
  gamq_scan_desc bad = na_host_desc(GAMQ_SCAN_AUTO, 0);
  bad.method = (gamq_scan_method)99;
  CHECK(gamq_maxplus_i64(&bad, one, one, NULL, NULL, x, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(na_closed_form_position_u64(0, NULL, NULL, NULL, NULL) == GAMQ_SUCCESS);
  CHECK(na_closed_form_position_u64(1, NULL, NULL, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  /* a host allocation that fails, each in turn: OUT_OF_MEMORY, nothing leaked */
  std::vector<int32_t> a32(100, 3), x32(100);
  std::vector<uint32_t> v32(100, 7), y32(100);
  std::vector<int64_t> a64(100, 1), b64(100, 5), x64(100);
  for (int m = 0; m < 4; ++m)
    for (int op = 0; op < 3; ++op) {
      gamq_scan_desc d = na_host_desc(na_methods[m], 0);
      long long k = 0;
      for (;; ++k) {
        const long long live = g_alloc_live;
        g_alloc_fail_at = g_alloc_calls + k;
        gamq_status s = op == 0   ? gamq_satsum_i32(&d, a32.data(), NULL, NULL, x32.data(), 100, NULL)
                        : op == 1 ? gamq_position_scan_u32(&d, v32.data(), NULL, NULL, y32.data(), 100, NULL)
                                  : gamq_maxplus_i64(&d, a64.data(), b64.data(), NULL, NULL, x64.data(), 100, NULL);
        const bool failed_one = g_alloc_fail_at < g_alloc_calls;
        g_alloc_fail_at = -1;
        CHECK_EQ(g_alloc_live, live);
        if (!failed_one) {
          CHECK(s == GAMQ_SUCCESS && (op == 0 ? x32[99] == 300 : op == 1 ? y32[99] == 106 : x64[99] == 104));
          break;
        }
        CHECK_MSG(s == GAMQ_ERROR_OUT_OF_MEMORY, "%s op %d, allocation %lld: status %d", na_method_name(na_methods[m]), op,
                  k, (int)s);
      }
      CHECK_MSG(k >= 1, "%s op %d made no allocation", na_method_name(na_methods[m]), op);
    }
}

/* ---- the general recurrence on random (a, b) pairs ---- */

TEST(nonassoc_host, maxplus_random_pairs) {
  test_rng rng = test_rng_for("nonassoc_maxplus_random");
  std::vector<size_t> sizes = na_sizes(rng);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    std::vector<int64_t> a(n), b(n);
    std::vector<uint8_t> heads(n);
    for (int kind = 0; kind < 3; ++kind) {
      for (size_t i = 0; i < n; ++i) {
        if (kind == 0) { /* small signed: frequent breaks */
          a[i] = (int64_t)rng.below(101) - 50;
          b[i] = (int64_t)rng.below(2001) - 1000;
        } else if (kind == 1) { /* positive drift, b slowly rising: long chains */
          a[i] = (int64_t)rng.below(4);
          b[i] = (int64_t)(i * 2) - (int64_t)rng.below(64);
        } else { /* huge values: overflow on some inputs, wide A sums on others */
          a[i] = (int64_t)(rng.next() >> 2) - ((int64_t)1 << 61);
          b[i] = (int64_t)(rng.next() >> 1) - INT64_MAX / 2 - 1;
        }
      }
      for (int hm = 0; hm < HEADS_MODES; ++hm) {
        na_fill_heads(heads, hm, rng);
        int64_t init = (int64_t)rng.below(1000) - 500;
        na_check_problem(na_make(a, b, &heads, NULL), 64, "random pairs");
        CHECK_OK_SO_FAR();
        na_check_problem(na_make(a, b, &heads, &init), 64, "random pairs, init");
        CHECK_OK_SO_FAR();
      }
    }
  }
}

TEST(nonassoc_host, maxplus_wide_sums_stay_exact) {
  /* x climbs from INT64_MIN to near INT64_MAX and back: the sums of a leave
     int64 while every x and every step fits. */
  test_rng rng = test_rng_for("nonassoc_wide");
  for (int trial = 0; trial < 200; ++trial) {
    size_t n = 2 + (size_t)rng.below(300);
    std::vector<int64_t> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = (i % 2) ? INT64_MAX - (int64_t)rng.below(1000) : -INT64_MAX + (int64_t)rng.below(1000);
      b[i] = INT64_MIN + (int64_t)rng.below(1u << 20);
    }
    std::vector<int64_t> x(n);
    na_problem p = na_make(a, b, NULL, NULL);
    na_check_problem(p, 0, "wide sums");
    CHECK_OK_SO_FAR();
  }
  /* a fixed one that is valid: -2^63 -> -1 -> 2^63 - 2 */
  std::vector<int64_t> a(3), b(3);
  a[0] = 0, a[1] = INT64_MAX, a[2] = INT64_MAX;
  b[0] = INT64_MIN, b[1] = INT64_MIN, b[2] = INT64_MIN;
  na_problem p = na_make(a, b, NULL, NULL);
  int64_t x[3];
  CHECK(amqt_serial_maxplus(3, p.a, 0, p.b, 0, NULL, NULL, x) == GAMQ_SUCCESS);
  CHECK(x[2] == INT64_MAX - 1);
  na_check_problem(p, 0, "wide sums, fixed");
}

/* ---- saturating sums ---- */

TEST(nonassoc_host, satsum_random_increments) {
  test_rng rng = test_rng_for("nonassoc_satsum");
  std::vector<size_t> sizes = na_sizes(rng);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    std::vector<int32_t> a32(n), x32(n), want32(n);
    std::vector<int64_t> a64(n), x64(n), want64(n);
    std::vector<uint8_t> heads(n);
    for (size_t i = 0; i < n; ++i) {
      a32[i] = (int32_t)rng.below(2001) - 1000;
      a64[i] = (int64_t)rng.below((uint64_t)1 << 40) - ((int64_t)1 << 39);
    }
    for (int hm = 0; hm < HEADS_MODES; ++hm) {
      na_fill_heads(heads, hm, rng);
      for (int with_init = 0; with_init < 2; ++with_init) {
        int32_t init32 = with_init ? 77 : 0;
        int64_t init64 = with_init ? ((int64_t)1 << 35) : 0;
        /* the obvious loop, cross-checking the wrapper's reference */
        for (size_t i = 0; i < n; ++i) {
          int64_t p32 = (i == 0 || heads[i]) ? init32 : want32[i - 1];
          int64_t p64 = (i == 0 || heads[i]) ? init64 : want64[i - 1];
          want32[i] = (int32_t)std::max<int64_t>(0, p32 + a32[i]);
          want64[i] = std::max<int64_t>(0, p64 + a64[i]);
        }
        /* the serial reference, then every method of the HOST backend */
        CHECK(amqt_serial_satsum_i32(n, a32.data(), heads.data(), with_init ? &init32 : NULL, x32.data()) ==
              GAMQ_SUCCESS);
        CHECK_ARRAYS(want32.data(), x32.data(), n, "serial");
        CHECK(amqt_serial_satsum_i64(n, a64.data(), heads.data(), with_init ? &init64 : NULL, x64.data()) ==
              GAMQ_SUCCESS);
        CHECK_ARRAYS(want64.data(), x64.data(), n, "serial");
        for (int m = 0; m < 4; ++m) {
          gamq_scan_desc d = na_host_desc(na_methods[m], 64);
          CHECK(gamq_satsum_i32(&d, a32.data(), heads.data(), with_init ? &init32 : NULL, x32.data(), n, NULL) ==
                GAMQ_SUCCESS);
          CHECK_ARRAYS(want32.data(), x32.data(), n, na_method_name(na_methods[m]));
          CHECK(gamq_satsum_i64(&d, a64.data(), heads.data(), with_init ? &init64 : NULL, x64.data(), n, NULL) ==
                GAMQ_SUCCESS);
          CHECK_ARRAYS(want64.data(), x64.data(), n, na_method_name(na_methods[m]));
        }
      }
    }
  }
}

/* ---- position scans on QF-like inputs ---- */

/* Sorted quotients of n = fill * 2^q hashed items: q_i = hash(i) >> (64 - q). */
static std::vector<uint64_t> na_qf_quotients(int q, double fill, uint64_t seed) {
  size_t n = (size_t)(fill * (double)((uint64_t)1 << q));
  std::vector<uint64_t> v(n);
  test_rng h(seed);
  for (size_t i = 0; i < n; ++i) v[i] = h.next() >> (64 - q);
  std::sort(v.begin(), v.end());
  return v;
}
static const double na_fills[] = {0.1, 0.5, 0.7, 0.9, 0.95};

static void na_check_position(const std::vector<uint64_t> &v, const uint8_t *heads, const uint64_t *init,
                              int max_rounds) {
  size_t n = v.size();
  std::vector<uint64_t> want(n), got(n), obvious(n);
  /* the obvious loop */
  for (size_t i = 0; i < n; ++i) {
    int head = i == 0 || (heads && heads[i]);
    obvious[i] = head ? (init ? std::max(*init + 1, v[i]) : v[i]) : std::max(obvious[i - 1] + 1, v[i]);
  }
  CHECK(amqt_serial_position_u64(n, v.data(), heads, init, want.data()) == GAMQ_SUCCESS);
  CHECK_ARRAYS(obvious.data(), want.data(), n, "serial vs obvious loop");
  CHECK(na_closed_form_position_u64(n, v.data(), heads, init, got.data()) == GAMQ_SUCCESS);
  CHECK_ARRAYS(want.data(), got.data(), n, "closed form");
  for (size_t m = 0; m < sizeof na_methods / sizeof na_methods[0]; ++m) {
    gamq_scan_desc d = na_host_desc(na_methods[m], max_rounds);
    CHECK(gamq_position_scan_u64(&d, v.data(), heads, init, got.data(), n, NULL) == GAMQ_SUCCESS);
    CHECK_ARRAYS(want.data(), got.data(), n, na_method_name(na_methods[m]));
  }
  /* the u32 path where the values fit */
  if (n && want[n - 1] < UINT32_MAX && (!init || *init < UINT32_MAX)) {
    std::vector<uint32_t> v32(n), w32(n), g32(n);
    for (size_t i = 0; i < n; ++i) v32[i] = (uint32_t)v[i], w32[i] = (uint32_t)want[i];
    uint32_t init32 = init ? (uint32_t)*init : 0;
    CHECK(amqt_serial_position_u32(n, v32.data(), heads, init ? &init32 : NULL, g32.data()) == GAMQ_SUCCESS);
    CHECK_ARRAYS(w32.data(), g32.data(), n, "serial u32");
    for (size_t m = 0; m < sizeof na_methods / sizeof na_methods[0]; ++m) {
      gamq_scan_desc d = na_host_desc(na_methods[m], max_rounds);
      CHECK(gamq_position_scan_u32(&d, v32.data(), heads, init ? &init32 : NULL, g32.data(), n, NULL) ==
            GAMQ_SUCCESS);
      CHECK_ARRAYS(w32.data(), g32.data(), n, na_method_name(na_methods[m]));
    }
  }
}

TEST(nonassoc_host, position_qf_like_fills) {
  test_rng rng = test_rng_for("nonassoc_qf");
  for (int q = 4; q <= 16; q += 4) {
    for (size_t f = 0; f < sizeof na_fills / sizeof na_fills[0]; ++f) {
      std::vector<uint64_t> v = na_qf_quotients(q, na_fills[f], rng.next());
      std::vector<uint8_t> heads(v.size());
      for (int hm = 0; hm < HEADS_MODES; ++hm) {
        na_fill_heads(heads, hm, rng);
        uint64_t init = rng.below(8);
        na_check_position(v, hm == HEADS_NONE ? NULL : heads.data(), NULL, 0);
        CHECK_OK_SO_FAR();
        na_check_position(v, heads.data(), &init, 0);
        CHECK_OK_SO_FAR();
      }
    }
  }
}

TEST(nonassoc_host, position_random_sizes_and_large_values) {
  test_rng rng = test_rng_for("nonassoc_pos_sizes");
  std::vector<size_t> sizes = na_sizes(rng);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    std::vector<uint64_t> v(n);
    for (int kind = 0; kind < 2; ++kind) {
      /* kind 0: hashed quotients at fill 0.9; kind 1: values near 2^63 (the bias's seam) */
      for (size_t i = 0; i < n; ++i) v[i] = rng.below(n + n / 9 + 1) + (kind ? ((uint64_t)1 << 63) - n : 0);
      std::sort(v.begin(), v.end());
      uint64_t init = kind ? ((uint64_t)1 << 63) - n - 1 : 3;
      na_check_position(v, NULL, NULL, 256);
      CHECK_OK_SO_FAR();
      na_check_position(v, NULL, &init, 256);
      CHECK_OK_SO_FAR();
    }
  }
}

/* ---- no breaks: the bound and the fallback ---- */

/* v = 0 0 0 2 2 2 4 4 4 ...: x_i = i, one chain through n/3 runs, none of them
   linked in advance (2 > 0 + 1). */
static std::vector<uint64_t> na_no_break(size_t n) {
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (i / 3) * 2;
  return v;
}

TEST(nonassoc_host, no_break_rounds_and_fallback) {
  size_t n = 3000;
  std::vector<uint64_t> v = na_no_break(n), x(n);
  gamq_scan_stats st;
  gamq_scan_desc shifting = na_host_desc(GAMQ_SCAN_SEQUENTIAL_SHIFTING, 0);
  gamq_scan_desc layouts = na_host_desc(GAMQ_SCAN_SEGMENTED_LAYOUTS, 0);
  /* unbounded: shifting needs about n/3 rounds, layouts about n / L */
  CHECK(gamq_position_scan_u64(&shifting, v.data(), NULL, NULL, x.data(), n, &st) == GAMQ_SUCCESS);
  CHECK(x[n - 1] == n - 1);
  CHECK(st.fell_back == 0 && st.rounds >= (int)(n / 3) - 1 && st.rounds <= (int)(n / 3) + 2);
  size_t len = na_segment_length(n);
  CHECK(gamq_position_scan_u64(&layouts, v.data(), NULL, NULL, x.data(), n, &st) == GAMQ_SUCCESS);
  CHECK(x[n - 1] == n - 1);
  CHECK(st.fell_back == 0 && st.rounds >= (int)(n / len) - 1 && st.rounds <= (int)(n / len) + 3);
  /* all equal: one run for shifting (1 round), n / L rounds for layouts */
  std::vector<uint64_t> eq(n, 5);
  CHECK(gamq_position_scan_u64(&shifting, eq.data(), NULL, NULL, x.data(), n, &st) == GAMQ_SUCCESS);
  CHECK(st.rounds == 1 && x[n - 1] == 5 + n - 1);
  CHECK(gamq_position_scan_u64(&layouts, eq.data(), NULL, NULL, x.data(), n, &st) == GAMQ_SUCCESS);
  CHECK(st.rounds >= (int)(n / len) - 1 && x[n - 1] == 5 + n - 1);
  /* a small bound: both hit it, fall back, and are still exact */
  for (int bound = 1; bound <= 16; bound *= 4) {
    gamq_scan_method m[2] = {GAMQ_SCAN_SEQUENTIAL_SHIFTING, GAMQ_SCAN_SEGMENTED_LAYOUTS};
    for (int k = 0; k < 2; ++k) {
      std::vector<uint64_t> *in = k == 0 ? &v : &eq;
      gamq_scan_desc d = na_host_desc(m[k], bound);
      st.rounds = -1, st.fell_back = -1;
      CHECK(gamq_position_scan_u64(&d, in->data(), NULL, NULL, x.data(), n, &st) == GAMQ_SUCCESS);
      CHECK(st.fell_back == 1 && st.rounds == bound);
      CHECK(x[n - 1] == (*in)[0] + n - 1 && x[n / 2] == (*in)[0] + n / 2);
    }
  }
  /* general recurrence without breaks: a_i > 0, b tiny */
  std::vector<int64_t> a(n), b(n, INT64_MIN);
  test_rng rng = test_rng_for("nonassoc_nobreak");
  for (size_t i = 0; i < n; ++i) a[i] = 1 + (int64_t)rng.below(1000);
  b[0] = 0;
  int64_t init = -7;
  na_check_problem(na_make(a, b, NULL, NULL), 8, "no break, bound 8");
  CHECK_OK_SO_FAR();
  na_check_problem(na_make(a, b, NULL, &init), 0, "no break, unbounded");
  CHECK_OK_SO_FAR();
  /* the paper's pattern at every size, with the fallback in play */
  rng = test_rng_for("nonassoc_nobreak_sizes");
  std::vector<size_t> sizes = na_sizes(rng);
  for (size_t s = 0; s < sizes.size(); ++s) {
    std::vector<uint64_t> w = na_no_break(sizes[s]);
    na_check_position(w, NULL, NULL, 32);
    CHECK_OK_SO_FAR();
  }
}

/* ---- overflow: detected by every method, never wrapped ---- */

TEST(nonassoc_host, overflow_detected_everywhere) {
  for (int mi = 0; mi < 5; ++mi) { /* the serial reference, then every method of the HOST backend */
    const bool serial = mi == 0;
    for (int bound = 0; bound <= 2; bound += 2) {
      const gamq_scan_desc d = na_host_desc(serial ? GAMQ_SCAN_AUTO : na_methods[mi - 1], bound);
      auto maxplus = [&](const na_problem &p, int64_t *x) {
        return serial ? amqt_serial_maxplus(p.n, p.a, 0, p.b, 0, p.heads, p.init, x)
                      : gamq_maxplus_i64(&d, p.a, p.b, p.heads, p.init, x, p.n, NULL);
      };
      auto satsum64 = [&](size_t n, const int64_t *a, int64_t *x) {
        return serial ? amqt_serial_satsum_i64(n, a, NULL, NULL, x) : gamq_satsum_i64(&d, a, NULL, NULL, x, n, NULL);
      };
      auto satsum32 = [&](size_t n, const int32_t *a, int32_t *x) {
        return serial ? amqt_serial_satsum_i32(n, a, NULL, NULL, x) : gamq_satsum_i32(&d, a, NULL, NULL, x, n, NULL);
      };
      auto pos32 = [&](size_t n, const uint32_t *v, const uint32_t *init, uint32_t *x) {
        return serial ? amqt_serial_position_u32(n, v, NULL, init, x) : gamq_position_scan_u32(&d, v, NULL, init, x, n, NULL);
      };
      auto pos64 = [&](size_t n, const uint64_t *v, const uint8_t *heads, const uint64_t *init, uint64_t *x) {
        return serial ? amqt_serial_position_u64(n, v, heads, init, x)
                      : gamq_position_scan_u64(&d, v, heads, init, x, n, NULL);
      };
      /* general: climbing past INT64_MAX */
      std::vector<int64_t> a(40, 1), b(40, INT64_MAX - 20), x(40);
      na_problem p = na_make(a, b, NULL, NULL);
      CHECK(maxplus(p, x.data()) == GAMQ_ERROR_OVERFLOW);
      b.assign(40, INT64_MAX - 39); /* ends exactly at INT64_MAX: fine */
      p = na_make(a, b, NULL, NULL);
      CHECK(maxplus(p, x.data()) == GAMQ_SUCCESS && x[39] == INT64_MAX);
      /* a step below INT64_MIN (x_{i-1} + a_i does not fit) */
      std::vector<int64_t> a2(8, -10), b2(8, INT64_MIN);
      b2[0] = INT64_MIN + 35;
      p = na_make(a2, b2, NULL, NULL);
      CHECK(maxplus(p, x.data()) == GAMQ_ERROR_OVERFLOW);
      /* the init's step */
      int64_t init = INT64_MAX;
      std::vector<int64_t> a3(5, 1), b3(5, 0);
      p = na_make(a3, b3, NULL, &init);
      CHECK(maxplus(p, x.data()) == GAMQ_ERROR_OVERFLOW);
      /* saturating sums */
      std::vector<int64_t> s64(10, INT64_MAX / 4);
      CHECK(satsum64(10, s64.data(), x.data()) == GAMQ_ERROR_OVERFLOW);
      std::vector<int32_t> s32(10, INT32_MAX / 4), x32(10);
      CHECK(satsum32(10, s32.data(), x32.data()) == GAMQ_ERROR_OVERFLOW);
      s32.assign(10, INT32_MAX / 10);
      CHECK(satsum32(10, s32.data(), x32.data()) == GAMQ_SUCCESS);
      /* u32 position scan crossing 2^32 */
      std::vector<uint32_t> v32(6, UINT32_MAX - 4), y32(6);
      CHECK(pos32(6, v32.data(), NULL, y32.data()) == GAMQ_ERROR_OVERFLOW);
      CHECK(pos32(5, v32.data(), NULL, y32.data()) == GAMQ_SUCCESS);
      CHECK(y32[4] == UINT32_MAX);
      uint32_t init32 = UINT32_MAX;
      CHECK(pos32(1, v32.data(), &init32, y32.data()) == GAMQ_ERROR_OVERFLOW);
      /* u64 position scan crossing 2^64 */
      std::vector<uint64_t> v64(6, UINT64_MAX - 4), y64(6);
      CHECK(pos64(6, v64.data(), NULL, NULL, y64.data()) == GAMQ_ERROR_OVERFLOW);
      CHECK(pos64(5, v64.data(), NULL, NULL, y64.data()) == GAMQ_SUCCESS);
      CHECK(y64[4] == UINT64_MAX);
      uint64_t init64 = UINT64_MAX;
      CHECK(pos64(1, v64.data(), NULL, &init64, y64.data()) == GAMQ_ERROR_OVERFLOW);
      /* heads keep a segment in range */
      std::vector<uint8_t> heads(6, 0);
      heads[3] = 1;
      CHECK(pos64(6, v64.data(), heads.data(), NULL, y64.data()) == GAMQ_SUCCESS);
    }
  }
  std::vector<uint64_t> v64(6, UINT64_MAX - 4), y64(6);
  uint64_t init64 = UINT64_MAX;
  CHECK(na_closed_form_position_u64(6, v64.data(), NULL, NULL, y64.data()) == GAMQ_ERROR_OVERFLOW);
  CHECK(na_closed_form_position_u64(5, v64.data(), NULL, NULL, y64.data()) == GAMQ_SUCCESS);
  CHECK(na_closed_form_position_u64(1, v64.data(), NULL, &init64, y64.data()) == GAMQ_ERROR_OVERFLOW);
}

/* ---- rounds on QF-like inputs (printed for the record) ---- */

TEST(nonassoc_host, rounds_on_qf_inputs) {
  test_rng rng = test_rng_for("nonassoc_rounds");
  int q = 20;
  fprintf(stderr, "    rounds at q = %d (n = fill * 2^q): fill  n  assoc merging shifting layouts\n", q);
  for (size_t f = 0; f < sizeof na_fills / sizeof na_fills[0]; ++f) {
    std::vector<uint64_t> v = na_qf_quotients(q, na_fills[f], rng.next()), want(v.size()), got(v.size());
    int rounds[4];
    CHECK(amqt_serial_position_u64(v.size(), v.data(), NULL, NULL, want.data()) == GAMQ_SUCCESS);
    for (size_t m = 0; m < 4; ++m) {
      gamq_scan_stats st;
      gamq_scan_desc d = na_host_desc(na_methods[m], 0);
      CHECK(gamq_position_scan_u64(&d, v.data(), NULL, NULL, got.data(), v.size(), &st) == GAMQ_SUCCESS);
      CHECK_ARRAYS(want.data(), got.data(), v.size(), na_method_name(na_methods[m]));
      CHECK(st.fell_back == 0);
      rounds[m] = st.rounds;
    }
    CHECK(rounds[1] <= na_ceil_log2(v.size()) + 1);
    fprintf(stderr, "    %.2f %zu  %d %d %d %d\n", na_fills[f], v.size(), rounds[0], rounds[1], rounds[2], rounds[3]);
  }
}
