/* test_nonassoc.cu - the public non-associative scans: every method
   on the CUDA backend against the serial host reference, exactly (values,
   status, and for the paper's methods the round counts of the host
   simulations); the HOST backend through the public API (plain TESTs: they
   run without a GPU); overflow; bad arguments. A private copy of the
   implementation (test_api.cu owns the shared one). */
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "internal_amq.h"

#include "testing.h"

static const gamq_scan_method na_all[4] = {GAMQ_SCAN_ASSOCIATIVE, GAMQ_SCAN_PARALLEL_MERGING,
                                          GAMQ_SCAN_SEQUENTIAL_SHIFTING, GAMQ_SCAN_SEGMENTED_LAYOUTS};
static const double na_fill[5] = {0.1, 0.5, 0.7, 0.9, 0.95};

/* The five operations. */
enum { NA_OP_SATSUM_I32, NA_OP_SATSUM_I64, NA_OP_POSITION_U32, NA_OP_POSITION_U64, NA_OP_MAXPLUS_I64 };
/* element sizes of a, b and x (0: not an input of this op) */
static size_t na_a_size(int op) { return op == NA_OP_SATSUM_I32 ? 4 : op == NA_OP_SATSUM_I64 || op == NA_OP_MAXPLUS_I64 ? 8 : 0; }
static size_t na_b_size(int op) { return op == NA_OP_POSITION_U32 ? 4 : op == NA_OP_POSITION_U64 || op == NA_OP_MAXPLUS_I64 ? 8 : 0; }
static size_t na_x_size(int op) { return op == NA_OP_SATSUM_I32 || op == NA_OP_POSITION_U32 ? 4 : 8; }

/* One problem of one operation, on the host. */
struct na_case {
  int op; /* NA_OP_* */
  size_t n;
  std::vector<int32_t> a32;
  std::vector<int64_t> a64, b64;
  std::vector<uint32_t> v32;
  std::vector<uint64_t> v64;
  std::vector<uint8_t> heads; /* empty: none */
  bool has_init;
  int64_t init_i;
  uint64_t init_u;
  na_case(int o, size_t count) : op(o), n(count), has_init(false), init_i(0), init_u(0) {}
  size_t xsize() const { return na_x_size(op); }
  const void *a() const { return op == NA_OP_SATSUM_I32 ? (const void *)a32.data() : (const void *)a64.data(); }
  const void *b() const {
    return op == NA_OP_POSITION_U32 ? (const void *)v32.data()
           : op == NA_OP_POSITION_U64 ? (const void *)v64.data()
                                         : (const void *)b64.data();
  }
  const void *init() const {
    static int32_t i32;
    static uint32_t u32;
    if (!has_init) return NULL;
    switch (op) {
      case NA_OP_SATSUM_I32: i32 = (int32_t)init_i; return &i32;
      case NA_OP_POSITION_U32: u32 = (uint32_t)init_u; return &u32;
      case NA_OP_POSITION_U64: return &init_u;
      default: return &init_i;
    }
  }
  const uint8_t *h() const { return heads.empty() ? NULL : heads.data(); }
};

/* The reference: the serial loop. */
static gamq_status na_serial(const na_case &c, void *x) {
  switch (c.op) {
    case NA_OP_SATSUM_I32:
      return amqt_serial_satsum_i32(c.n, c.a32.data(), c.h(), (const int32_t *)c.init(), (int32_t *)x);
    case NA_OP_SATSUM_I64:
      return amqt_serial_satsum_i64(c.n, c.a64.data(), c.h(), (const int64_t *)c.init(), (int64_t *)x);
    case NA_OP_POSITION_U32:
      return amqt_serial_position_u32(c.n, c.v32.data(), c.h(), (const uint32_t *)c.init(), (uint32_t *)x);
    case NA_OP_POSITION_U64:
      return amqt_serial_position_u64(c.n, c.v64.data(), c.h(), (const uint64_t *)c.init(), (uint64_t *)x);
    default:
      return amqt_serial_maxplus(c.n, c.a64.data(), 0, c.b64.data(), 0, c.h(), c.has_init ? &c.init_i : NULL,
                                 (int64_t *)x);
  }
}

/* The public expert call, any operation. */
static gamq_status na_sync(const na_case &c, const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                           const void *a, const void *b, const uint8_t *heads, void *x, gamq_scan_stats *st) {
  switch (c.op) {
    case NA_OP_SATSUM_I32:
      return gamq_satsum_i32_sync(desc, d_temp, temp_bytes, (const int32_t *)a, heads, (const int32_t *)c.init(),
                                  (int32_t *)x, c.n, st, NULL);
    case NA_OP_SATSUM_I64:
      return gamq_satsum_i64_sync(desc, d_temp, temp_bytes, (const int64_t *)a, heads, (const int64_t *)c.init(),
                                  (int64_t *)x, c.n, st, NULL);
    case NA_OP_POSITION_U32:
      return gamq_position_scan_u32_sync(desc, d_temp, temp_bytes, (const uint32_t *)b, heads,
                                         (const uint32_t *)c.init(), (uint32_t *)x, c.n, st, NULL);
    case NA_OP_POSITION_U64:
      return gamq_position_scan_u64_sync(desc, d_temp, temp_bytes, (const uint64_t *)b, heads,
                                         (const uint64_t *)c.init(), (uint64_t *)x, c.n, st, NULL);
    default:
      return gamq_maxplus_i64_sync(desc, d_temp, temp_bytes, (const int64_t *)a, (const int64_t *)b, heads,
                                   (const int64_t *)c.init(), (int64_t *)x, c.n, st, NULL);
  }
}
/* The public convenience call, any operation. */
static gamq_status na_arrays(const na_case &c, const gamq_scan_desc *desc, void *x, gamq_scan_stats *st) {
  switch (c.op) {
    case NA_OP_SATSUM_I32:
      return gamq_satsum_i32(desc, c.a32.data(), c.h(), (const int32_t *)c.init(), (int32_t *)x, c.n, st);
    case NA_OP_SATSUM_I64:
      return gamq_satsum_i64(desc, c.a64.data(), c.h(), (const int64_t *)c.init(), (int64_t *)x, c.n, st);
    case NA_OP_POSITION_U32:
      return gamq_position_scan_u32(desc, c.v32.data(), c.h(), (const uint32_t *)c.init(), (uint32_t *)x, c.n, st);
    case NA_OP_POSITION_U64:
      return gamq_position_scan_u64(desc, c.v64.data(), c.h(), (const uint64_t *)c.init(), (uint64_t *)x, c.n, st);
    default:
      return gamq_maxplus_i64(desc, c.a64.data(), c.b64.data(), c.h(), (const int64_t *)c.init(), (int64_t *)x, c.n,
                              st);
  }
}

/* The HOST backend through the public API: every method against the serial
   loop (values and status) and against the method's own simulation (rounds). */
static void na_check_host_backend(const na_case &c, int max_rounds, const char *what) {
  size_t xs = c.xsize();
  std::vector<uint8_t> want(c.n * xs + 1), got(c.n * xs + 1);
  gamq_status ref = na_serial(c, want.data());
  for (int m = 0; m < 4; ++m) {
    gamq_scan_desc d;
    memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_HOST, d.method = na_all[m], d.max_rounds = max_rounds;
    gamq_scan_stats st;
    gamq_status s = na_arrays(c, &d, got.data(), &st);
    CHECK_MSG(s == ref, "%s, %s, n = %zu: status %d, want %d", what, gamq_scan_method_name(na_all[m]), c.n, (int)s,
              (int)ref);
    if (ref == GAMQ_SUCCESS) {
      CHECK_MSG(memcmp(want.data(), got.data(), c.n * xs) == 0, "%s, %s, n = %zu: values differ", what,
                gamq_scan_method_name(na_all[m]), c.n);
      CHECK(st.backend == GAMQ_BACKEND_HOST && st.method == na_all[m]);
    }
  }
}

/* The CUDA backend: d_inputs uploaded once, every method into a poisoned
   output; values and status against the serial loop; rounds and fell_back
   against the host simulation when rounds_too (small n: the simulations are
   slow). */
static void na_check_cuda(const na_case &c, int max_rounds, bool rounds_too, const char *what) {
  size_t xs = c.xsize();
  std::vector<uint8_t> want(c.n * xs + 1), got(c.n * xs + 1);
  gamq_status ref = na_serial(c, want.data());
  size_t as = na_a_size(c.op), bs = na_b_size(c.op);
  dbuf<uint8_t> d_a(as * c.n), d_b(bs * c.n), d_h(c.heads.size()), d_x(c.n * xs);
  CHECK(d_a.ok() && d_b.ok() && d_h.ok() && d_x.ok());
  if (as) CUDA_CHECK(cudaMemcpy(d_a.p, c.a(), as * c.n, cudaMemcpyHostToDevice));
  if (bs) CUDA_CHECK(cudaMemcpy(d_b.p, c.b(), bs * c.n, cudaMemcpyHostToDevice));
  if (!c.heads.empty()) CUDA_CHECK(cudaMemcpy(d_h.p, c.heads.data(), c.n, cudaMemcpyHostToDevice));
  for (int m = 0; m < 4; ++m) {
    gamq_scan_desc d;
    memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_CUDA, d.method = na_all[m], d.max_rounds = max_rounds;
    const char *mn = gamq_scan_method_name(na_all[m]);
    size_t tb = 0;
    CHECK(na_sync(c, &d, NULL, &tb, NULL, NULL, NULL, NULL, NULL) == GAMQ_SUCCESS && tb > 0);
    dbuf<uint8_t> temp(tb);
    CHECK(temp.ok());
    CUDA_CHECK(test_poison(d_x.p, c.n * xs));
    gamq_scan_stats st = {GAMQ_BACKEND_AUTO, GAMQ_SCAN_AUTO, -1, -1};
    gamq_status s = na_sync(c, &d, temp.p, &tb, d_a.p, d_b.p, c.heads.empty() ? NULL : d_h.p, d_x.p, &st);
    CHECK_MSG(s == ref, "%s, %s, n = %zu: status %d (%s), want %d", what, mn, c.n, (int)s, gamq_status_string(s),
              (int)ref);
    if (ref != GAMQ_SUCCESS) continue;
    if (c.n) CUDA_CHECK(cudaMemcpy(got.data(), d_x.p, c.n * xs, cudaMemcpyDeviceToHost));
    if (memcmp(want.data(), got.data(), c.n * xs) != 0) {
      size_t i = 0;
      while (memcmp(&want[i * xs], &got[i * xs], xs) == 0) ++i;
      TEST_FAIL("%s, %s, n = %zu: first difference at %zu (rounds %d, fell back %d)", what, mn, c.n, i, st.rounds,
                st.fell_back);
    }
    CHECK(st.backend == GAMQ_BACKEND_CUDA && st.method == na_all[m]);
    if (na_all[m] == GAMQ_SCAN_ASSOCIATIVE) CHECK_EQ(st.rounds, c.n > 0 ? 1 : 0);
    if (rounds_too && na_all[m] != GAMQ_SCAN_ASSOCIATIVE) { /* the HOST backend's simulation of the method */
      gamq_scan_stats hs = {GAMQ_BACKEND_AUTO, GAMQ_SCAN_AUTO, -1, -1};
      std::vector<uint8_t> tmp(c.n * xs + 1);
      gamq_scan_desc hd = d;
      hd.backend = GAMQ_BACKEND_HOST;
      CHECK(na_arrays(c, &hd, tmp.data(), &hs) == GAMQ_SUCCESS);
      CHECK_MSG(hs.rounds == st.rounds && hs.fell_back == st.fell_back,
                "%s, %s, n = %zu: rounds %d fell back %d, host simulation %d %d", what, mn, c.n, st.rounds,
                st.fell_back, hs.rounds, hs.fell_back);
    }
  }
}

/* ---- inputs ---- */

/* Sorted quotients of n hashed items in m = n / fill slots, as a quotient
   filter's build sees them: bucket counts, then emitted in order (no sort). */
static void na_qf(size_t n, double fill, test_rng &rng, std::vector<uint64_t> &v) {
  size_t m = (size_t)((double)n / fill) + 1;
  std::vector<uint16_t> count(m, 0);
  for (size_t i = 0; i < n; ++i) count[(size_t)(((unsigned __int128)rng.next() * m) >> 64)]++;
  v.resize(n);
  size_t k = 0;
  for (size_t s = 0; s < m; ++s)
    for (uint16_t j = 0; j < count[s]; ++j) v[k++] = s;
}

enum { NA_HEADS_NONE, NA_HEADS_RANDOM, NA_HEADS_SPARSE, NA_HEADS_MODES };
static void na_heads(na_case &c, int mode, test_rng &rng) {
  c.heads.clear();
  if (mode == NA_HEADS_NONE) return;
  c.heads.resize(c.n);
  for (size_t i = 0; i < c.n; ++i) c.heads[i] = mode == NA_HEADS_RANDOM ? rng.below(16) == 0 : rng.below(5000) == 0;
}

static na_case na_position(int op, const std::vector<uint64_t> &v) {
  na_case c(op, v.size());
  if (op == NA_OP_POSITION_U32) c.v32.assign(v.begin(), v.end());
  else c.v64 = v;
  return c;
}

/* Small runs (--max-log2 <= 12: the compute-sanitizer runs) draw a thinner
   matrix: every kernel and method still runs, on fewer fills and head modes,
   so that memcheck and racecheck finish. */
static bool na_small_run(void) { return g_test.max_log2 <= 12; }

/* sizes: the usual list; above 2^20 only 2^k +- 1 and the top one; nothing
   above the largest size asked for */
static std::vector<size_t> na_sizes(test_rng &rng, bool big) {
  std::vector<size_t> all = test_sizes(4096, rng), out;
  /* the tiles of the other kernels: 512, 1024 (maps, merging), 2048 */
  for (size_t t = 512; t <= 2048; t *= 2) all.push_back(t - 1), all.push_back(t), all.push_back(t + 1);
  for (size_t i = 0; i < all.size(); ++i) {
    size_t n = all[i];
    bool small = n <= ((size_t)1 << 20);
    bool pow = n == test_max_size() || ((n + 1) & n) == 0 || ((n - 1) & (n - 2)) == 0;
    if (n > test_max_size()) continue;
    if (small || (big && pow)) out.push_back(n);
  }
  return out;
}

/* ---- HOST backend (no GPU needed) ---- */

TEST(nonassoc, host_backend_worked_examples) {
  gamq_scan_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  for (int m = 0; m < 5; ++m) {
    d.method = (gamq_scan_method)m;
    int32_t a[5] = {3, -5, 2, -1, 4}, x[5], want[5] = {3, 0, 2, 1, 5}, init = 10, want_seg[5] = {13, 8, 10, 9, 13};
    uint8_t heads[5] = {0, 0, 0, 1, 0};
    CHECK(gamq_satsum_i32(&d, a, NULL, NULL, x, 5, NULL) == GAMQ_SUCCESS && !memcmp(x, want, sizeof x));
    CHECK(gamq_satsum_i32(&d, a, heads, &init, x, 5, NULL) == GAMQ_SUCCESS && !memcmp(x, want_seg, sizeof x));
    int32_t big[2] = {INT32_MAX, 1};
    CHECK(gamq_satsum_i32(&d, big, NULL, NULL, x, 2, NULL) == GAMQ_ERROR_OVERFLOW);
    int64_t a64[3] = {5, -7, 4}, init64 = 2, x64[3], w64[3] = {7, 0, 4};
    CHECK(gamq_satsum_i64(&d, a64, NULL, &init64, x64, 3, NULL) == GAMQ_SUCCESS && !memcmp(x64, w64, sizeof x64));
    uint32_t v[5] = {2, 2, 3, 7, 7}, y[5], wy[5] = {2, 3, 4, 7, 8}, i5 = 5, wi[5] = {6, 7, 8, 9, 10},
             ws[5] = {6, 7, 8, 9, 7};
    uint8_t h4[5] = {0, 0, 0, 0, 1};
    CHECK(gamq_position_scan_u32(&d, v, NULL, NULL, y, 5, NULL) == GAMQ_SUCCESS && !memcmp(y, wy, sizeof y));
    CHECK(gamq_position_scan_u32(&d, v, NULL, &i5, y, 5, NULL) == GAMQ_SUCCESS && !memcmp(y, wi, sizeof y));
    CHECK(gamq_position_scan_u32(&d, v, h4, &i5, y, 5, NULL) == GAMQ_SUCCESS && !memcmp(y, ws, sizeof y));
    uint32_t vmax[2] = {UINT32_MAX, UINT32_MAX};
    CHECK(gamq_position_scan_u32(&d, vmax, NULL, NULL, y, 2, NULL) == GAMQ_ERROR_OVERFLOW);
    uint64_t v64[4] = {10, 10, 10, 11}, y64[4], wy64[4] = {10, 11, 12, 13};
    CHECK(gamq_position_scan_u64(&d, v64, NULL, NULL, y64, 4, NULL) == GAMQ_SUCCESS && !memcmp(y64, wy64, sizeof y64));
    uint64_t edge[2] = {UINT64_MAX - 1, 0};
    CHECK(gamq_position_scan_u64(&d, edge, NULL, NULL, y64, 2, NULL) == GAMQ_SUCCESS && y64[1] == UINT64_MAX);
    int64_t ma[4] = {0, 2, -3, 1}, mb[4] = {1, 0, 5, 0}, mx[4], mw[4] = {1, 3, 5, 6}, mi = 10, mwi[4] = {10, 12, 9, 10};
    CHECK(gamq_maxplus_i64(&d, ma, mb, NULL, NULL, mx, 4, NULL) == GAMQ_SUCCESS && !memcmp(mx, mw, sizeof mx));
    CHECK(gamq_maxplus_i64(&d, ma, mb, NULL, &mi, mx, 4, NULL) == GAMQ_SUCCESS && !memcmp(mx, mwi, sizeof mx));
    int64_t oa[2] = {0, -10}, ob[2] = {INT64_MIN + 5, 0};
    CHECK(gamq_maxplus_i64(&d, oa, ob, NULL, NULL, mx, 2, NULL) == GAMQ_ERROR_OVERFLOW);
  }
  const char *names[5] = {"auto", "associative", "parallel_merging", "sequential_shifting", "segmented_layouts"};
  for (int m = 0; m < 5; ++m) CHECK(strcmp(gamq_scan_method_name((gamq_scan_method)m), names[m]) == 0);
  CHECK(strcmp(gamq_scan_method_name((gamq_scan_method)9), "unknown") == 0);
  /* the _sync forms with the HOST backend: host arrays, temp storage as the query says */
  for (int m = 0; m < 5; ++m) {
    d.method = (gamq_scan_method)m;
    size_t tb = 0;
    CHECK(gamq_satsum_i32_sync(&d, NULL, &tb, NULL, NULL, NULL, NULL, 5, NULL, NULL) == GAMQ_SUCCESS && tb > 0);
    std::vector<uint8_t> temp(tb);
    gamq_scan_stats st;
    int32_t a[5] = {3, -5, 2, -1, 4}, x[5], want[5] = {3, 0, 2, 1, 5};
    CHECK(gamq_satsum_i32_sync(&d, temp.data(), &tb, a, NULL, NULL, x, 5, &st, NULL) == GAMQ_SUCCESS);
    CHECK(!memcmp(x, want, sizeof x) && st.backend == GAMQ_BACKEND_HOST);
    int64_t a64[3] = {5, -7, 4}, init64 = 2, x64[3], w64[3] = {7, 0, 4};
    CHECK(gamq_satsum_i64_sync(&d, temp.data(), &tb, a64, NULL, &init64, x64, 3, NULL, NULL) == GAMQ_SUCCESS &&
          !memcmp(x64, w64, sizeof x64));
    uint64_t v64[4] = {10, 10, 10, 11}, y64[4], wy64[4] = {10, 11, 12, 13};
    CHECK(gamq_position_scan_u64_sync(&d, temp.data(), &tb, v64, NULL, NULL, y64, 4, NULL, NULL) == GAMQ_SUCCESS &&
          !memcmp(y64, wy64, sizeof y64));
    int64_t ma[4] = {0, 2, -3, 1}, mb[4] = {1, 0, 5, 0}, mx[4], mi = 10, mwi[4] = {10, 12, 9, 10};
    CHECK(gamq_maxplus_i64_sync(&d, temp.data(), &tb, ma, mb, NULL, &mi, mx, 4, NULL, NULL) == GAMQ_SUCCESS &&
          !memcmp(mx, mwi, sizeof mx));
  }
}

TEST(nonassoc, host_backend_random) {
  test_rng rng = test_rng_for("nonassoc_host_backend");
  size_t sizes[] = {0, 1, 2, 31, 33, 1000, 4097};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    size_t n = sizes[s];
    for (int op = 0; op < 5; ++op) {
      na_case c(op, n);
      std::vector<uint64_t> v;
      na_qf(n, 0.9, rng, v);
      c.v32.assign(v.begin(), v.end());
      c.v64 = v;
      for (size_t i = 0; i < n; ++i) {
        c.a32.push_back((int32_t)rng.below(2001) - 1000);
        c.a64.push_back((int64_t)rng.below(101) - 50);
        c.b64.push_back((int64_t)rng.below(2001) - 1000);
      }
      for (int hm = 0; hm < NA_HEADS_MODES; ++hm) {
        na_heads(c, hm, rng);
        c.has_init = hm == NA_HEADS_RANDOM, c.init_i = 7, c.init_u = 3;
        na_check_host_backend(c, 16, "host backend");
        CHECK_OK_SO_FAR();
      }
    }
  }
}

TEST(nonassoc, host_backend_bad_arguments) {
  gamq_scan_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  uint32_t v[3] = {1, 1, 1}, x[3] = {9, 9, 9};
  size_t tb = 0;
  CHECK(gamq_position_scan_u32_sync(&d, NULL, &tb, NULL, NULL, NULL, NULL, 3, NULL, NULL) == GAMQ_SUCCESS && tb > 0);
  CHECK(gamq_position_scan_u32_sync(&d, x, NULL, v, NULL, NULL, x, 3, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_position_scan_u32(&d, NULL, NULL, NULL, x, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_position_scan_u32(&d, v, NULL, NULL, NULL, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_position_scan_u32(&d, NULL, NULL, NULL, NULL, 0, NULL) == GAMQ_SUCCESS);
  CHECK(gamq_position_scan_u32(&d, v, NULL, NULL, x, GAMQ_SCAN_MAX_N + 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.method = (gamq_scan_method)7;
  CHECK(gamq_position_scan_u32(&d, v, NULL, NULL, x, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  d.method = GAMQ_SCAN_AUTO, d.backend = (gamq_backend)5;
  CHECK(gamq_position_scan_u32(&d, v, NULL, NULL, x, 3, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  int64_t a[2] = {1, 1};
  d.backend = GAMQ_BACKEND_HOST;
  CHECK(gamq_maxplus_i64(&d, a, NULL, NULL, NULL, (int64_t *)x, 2, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(x[0] == 9 && x[1] == 9 && x[2] == 9);
  /* NULL desc: the defaults */
  gamq_scan_stats st;
  CHECK(gamq_position_scan_u32(NULL, v, NULL, NULL, x, 3, &st) == GAMQ_SUCCESS && x[2] == 3);
  CHECK(st.method == GAMQ_SCAN_ASSOCIATIVE);
}

/* ---- CUDA backend ---- */

GPU_TEST(nonassoc, worked_examples_cuda) {
  gamq_scan_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_CUDA;
  for (int m = 0; m < 5; ++m) {
    d.method = (gamq_scan_method)m;
    gamq_scan_stats st;
    int32_t a[5] = {3, -5, 2, -1, 4}, x[5], want[5] = {3, 0, 2, 1, 5}, init = 10, want_seg[5] = {13, 8, 10, 9, 13};
    uint8_t heads[5] = {0, 0, 0, 1, 0};
    CHECK(gamq_satsum_i32(&d, a, NULL, NULL, x, 5, &st) == GAMQ_SUCCESS && !memcmp(x, want, sizeof x));
    CHECK(st.backend == GAMQ_BACKEND_CUDA);
    CHECK(gamq_satsum_i32(&d, a, heads, &init, x, 5, NULL) == GAMQ_SUCCESS && !memcmp(x, want_seg, sizeof x));
    int32_t big[2] = {INT32_MAX, 1};
    CHECK(gamq_satsum_i32(&d, big, NULL, NULL, x, 2, NULL) == GAMQ_ERROR_OVERFLOW);
    uint32_t v[5] = {2, 2, 3, 7, 7}, y[5], wy[5] = {2, 3, 4, 7, 8}, i5 = 5, wi[5] = {6, 7, 8, 9, 10},
             ws[5] = {6, 7, 8, 9, 7};
    uint8_t h4[5] = {0, 0, 0, 0, 1};
    CHECK(gamq_position_scan_u32(&d, v, NULL, NULL, y, 5, NULL) == GAMQ_SUCCESS && !memcmp(y, wy, sizeof y));
    CHECK(gamq_position_scan_u32(&d, v, NULL, &i5, y, 5, NULL) == GAMQ_SUCCESS && !memcmp(y, wi, sizeof y));
    CHECK(gamq_position_scan_u32(&d, v, h4, &i5, y, 5, NULL) == GAMQ_SUCCESS && !memcmp(y, ws, sizeof y));
    uint32_t vmax[2] = {UINT32_MAX, UINT32_MAX}, imax = UINT32_MAX;
    CHECK(gamq_position_scan_u32(&d, vmax, NULL, NULL, y, 2, NULL) == GAMQ_ERROR_OVERFLOW);
    CHECK(gamq_position_scan_u32(&d, v, NULL, &imax, y, 1, NULL) == GAMQ_ERROR_OVERFLOW);
    uint64_t v64[4] = {10, 10, 10, 11}, y64[4], wy64[4] = {10, 11, 12, 13}, i64max = UINT64_MAX;
    CHECK(gamq_position_scan_u64(&d, v64, NULL, NULL, y64, 4, NULL) == GAMQ_SUCCESS && !memcmp(y64, wy64, sizeof y64));
    uint64_t edge[3] = {UINT64_MAX - 1, 0, 0};
    CHECK(gamq_position_scan_u64(&d, edge, NULL, NULL, y64, 2, NULL) == GAMQ_SUCCESS && y64[1] == UINT64_MAX);
    CHECK(gamq_position_scan_u64(&d, edge, NULL, NULL, y64, 3, NULL) == GAMQ_ERROR_OVERFLOW);
    CHECK(gamq_position_scan_u64(&d, v64, NULL, &i64max, y64, 1, NULL) == GAMQ_ERROR_OVERFLOW);
    int64_t ma[4] = {0, 2, -3, 1}, mb[4] = {1, 0, 5, 0}, mx[4], mw[4] = {1, 3, 5, 6}, mi = 10, mwi[4] = {10, 12, 9, 10};
    CHECK(gamq_maxplus_i64(&d, ma, mb, NULL, NULL, mx, 4, NULL) == GAMQ_SUCCESS && !memcmp(mx, mw, sizeof mx));
    CHECK(gamq_maxplus_i64(&d, ma, mb, NULL, &mi, mx, 4, NULL) == GAMQ_SUCCESS && !memcmp(mx, mwi, sizeof mx));
    int64_t oa[2] = {0, -10}, ob[2] = {INT64_MIN + 5, 0};
    CHECK(gamq_maxplus_i64(&d, oa, ob, NULL, NULL, mx, 2, NULL) == GAMQ_ERROR_OVERFLOW);
    int64_t a64[3] = {5, -7, 4}, init64 = 2, x64[3], w64[3] = {7, 0, 4};
    CHECK(gamq_satsum_i64(&d, a64, NULL, &init64, x64, 3, NULL) == GAMQ_SUCCESS && !memcmp(x64, w64, sizeof x64));
    int64_t s64[2] = {INT64_MAX, INT64_MAX};
    CHECK(gamq_satsum_i64(&d, s64, NULL, NULL, x64, 2, NULL) == GAMQ_ERROR_OVERFLOW);
  }
}

/* hashed quotients at every fill, u32 and u64, heads and init, every size */
GPU_TEST(nonassoc, position_qf_inputs) {
  test_rng rng = test_rng_for("nonassoc_cuda_qf");
  std::vector<size_t> sizes = na_sizes(rng, true);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    bool big = n > ((size_t)1 << 20);
    for (int f = 0; f < 5; ++f) {
      if (big && f != 3) continue;                             /* above 2^20: fill 0.9 only */
      if (na_small_run() && f != 0 && f != 3) continue;       /* small runs: 0.1 and 0.9 */
      std::vector<uint64_t> v;
      na_qf(n, na_fill[f], rng, v);
      for (int op = NA_OP_POSITION_U32; op <= NA_OP_POSITION_U64; ++op) {
        if (big && op == NA_OP_POSITION_U64 && n > ((size_t)1 << 24)) continue;
        na_case c = na_position(op, v);
        for (int hm = 0; hm < NA_HEADS_MODES; ++hm) {
          if ((big || na_small_run()) && hm == NA_HEADS_RANDOM) continue;
          na_heads(c, hm, rng);
          c.has_init = hm != NA_HEADS_NONE, c.init_u = rng.below(4);
          na_check_cuda(c, 0, n <= ((size_t)1 << 14), "qf position");
          CHECK_OK_SO_FAR();
        }
      }
    }
  }
}

/* values near the top of the type: overflow at some sizes, not at others */
GPU_TEST(nonassoc, position_near_the_top) {
  test_rng rng = test_rng_for("nonassoc_cuda_top");
  size_t sizes[] = {33, 4097, 100000};
  for (size_t s = 0; s < 3; ++s) {
    size_t n = sizes[s];
    if (n > test_max_size()) n = test_max_size() - 1;
    std::vector<uint64_t> v;
    na_qf(n, 0.9, rng, v);
    uint64_t last = 0; /* x_{n-1} of v, at least n - 1 */
    for (size_t i = 0; i < n; ++i) last = i ? std::max(last + 1, v[i]) : v[i];
    for (int op = NA_OP_POSITION_U32; op <= NA_OP_POSITION_U64; ++op) {
      uint64_t top = op == NA_OP_POSITION_U32 ? UINT32_MAX : UINT64_MAX;
      for (int k = 0; k < 3; ++k) {
        /* shift so the last slot lands at top - 1, top, top + 1 (overflow) */
        uint64_t shift = top - last - 1 + (uint64_t)k;
        std::vector<uint64_t> w(n);
        for (size_t i = 0; i < n; ++i) w[i] = v[i] > top - shift ? top : v[i] + shift;
        na_case c = na_position(op, w);
        na_check_cuda(c, 0, false, "near the top");
        CHECK_OK_SO_FAR();
      }
    }
  }
}

/* saturating sums, random signed increments */
GPU_TEST(nonassoc, satsum_random_increments) {
  test_rng rng = test_rng_for("nonassoc_cuda_satsum");
  std::vector<size_t> sizes = na_sizes(rng, true);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    bool big = n > ((size_t)1 << 20);
    for (int op = NA_OP_SATSUM_I32; op <= NA_OP_SATSUM_I64; ++op) {
      if (big && (op == NA_OP_SATSUM_I64 || n > ((size_t)1 << 24))) continue;
      for (int kind = 0; kind < 2; ++kind) {
        na_case c(op, n);
        for (size_t i = 0; i < n; ++i) {
          /* kind 0: mean zero (many breaks); kind 1: drift up (long chains) */
          int64_t d = kind == 0 ? (int64_t)rng.below(2001) - 1000 : (int64_t)rng.below(2001) - 990;
          if (op == NA_OP_SATSUM_I32) c.a32.push_back((int32_t)d);
          else c.a64.push_back(d * ((int64_t)1 << 30));
        }
        for (int hm = 0; hm < NA_HEADS_MODES; ++hm) {
          if (big && hm != NA_HEADS_NONE) continue;
          na_heads(c, hm, rng);
          c.has_init = hm == NA_HEADS_RANDOM, c.init_i = 123;
          na_check_cuda(c, 0, n <= ((size_t)1 << 12), "satsum");
          CHECK_OK_SO_FAR();
        }
      }
    }
  }
}

/* the general recurrence on random pairs, huge values included (overflow on
   some inputs, sums of a beyond int64 on others) */
GPU_TEST(nonassoc, maxplus_random_pairs) {
  test_rng rng = test_rng_for("nonassoc_cuda_maxplus");
  std::vector<size_t> sizes = na_sizes(rng, false);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    for (int kind = 0; kind < 4; ++kind) {
      na_case c(NA_OP_MAXPLUS_I64, n);
      for (size_t i = 0; i < n; ++i) {
        int64_t a, b;
        if (kind == 0) a = (int64_t)rng.below(101) - 50, b = (int64_t)rng.below(2001) - 1000;
        else if (kind == 1) a = (int64_t)rng.below(4), b = (int64_t)(i * 2) - (int64_t)rng.below(64);
        else if (kind == 2) a = (int64_t)(rng.next() >> 2) - ((int64_t)1 << 61), b = (int64_t)(rng.next() >> 1) - INT64_MAX / 2 - 1;
        else a = (i % 2) ? INT64_MAX - (int64_t)rng.below(1000) : -INT64_MAX + (int64_t)rng.below(1000),
             b = INT64_MIN + (int64_t)rng.below(1u << 20);
        c.a64.push_back(a);
        c.b64.push_back(b);
      }
      for (int hm = 0; hm < NA_HEADS_MODES; ++hm) {
        na_heads(c, hm, rng);
        c.has_init = hm != NA_HEADS_SPARSE, c.init_i = (int64_t)rng.below(1000) - 500;
        na_check_cuda(c, 64, n <= ((size_t)1 << 12), "maxplus");
        CHECK_OK_SO_FAR();
      }
    }
  }
}

/* inputs with no break: the paper's methods hit the bound and fall back
   (exactly, and saying so), or with no bound run to the end */
GPU_TEST(nonassoc, no_break_chains) {
  test_rng rng = test_rng_for("nonassoc_cuda_nobreak");
  std::vector<size_t> sizes = na_sizes(rng, true);
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    bool big = n > ((size_t)1 << 20);
    std::vector<uint64_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = (i / 3) * 2; /* v = 0 0 0 2 2 2 4 4 4 ...: x_i = i */
    na_case c = na_position(NA_OP_POSITION_U32, v);
    if (big && n > ((size_t)1 << 24) && n != test_max_size()) continue;
    na_check_cuda(c, 32, n <= ((size_t)1 << 14), "no break, bound 32");
    CHECK_OK_SO_FAR();
    if (big) continue;
    std::vector<uint64_t> eq(n, 5); /* all equal: one run; layouts chain through everything */
    na_case e = na_position(NA_OP_POSITION_U64, eq);
    na_check_cuda(e, 0, n <= ((size_t)1 << 14), "all equal");
    CHECK_OK_SO_FAR();
    if (n <= (na_small_run() ? 300u : 3000u)) {
      na_check_cuda(c, -1, true, "no break, no bound");
      CHECK_OK_SO_FAR();
    }
  }
  /* the fallback says so */
  std::vector<uint64_t> v(5000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = (i / 3) * 2;
  na_case c = na_position(NA_OP_POSITION_U32, v);
  for (int m = 2; m < 4; ++m) {
    gamq_scan_desc d;
    memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_CUDA, d.method = na_all[m], d.max_rounds = 5;
    std::vector<uint32_t> x(v.size());
    gamq_scan_stats st;
    CHECK(na_arrays(c, &d, x.data(), &st) == GAMQ_SUCCESS);
    CHECK(st.fell_back == 1 && st.rounds == 5 && x[4999] == 4999);
    d.max_rounds = -1;
    CHECK(na_arrays(c, &d, x.data(), &st) == GAMQ_SUCCESS);
    CHECK(st.fell_back == 0 && st.rounds > 300 && x[4999] == 4999);
  }
}

/* overflow is a status; the inputs are left alone */
GPU_TEST(nonassoc, overflow_reported) {
  for (int bound = 0; bound <= 2; bound += 2) {
    std::vector<int64_t> a(40, 1), b(40, INT64_MAX - 20);
    na_case c(NA_OP_MAXPLUS_I64, 40);
    c.a64 = a, c.b64 = b;
    na_check_cuda(c, bound, false, "climb past INT64_MAX");
    CHECK_OK_SO_FAR();
    c.b64.assign(40, INT64_MAX - 39);
    na_check_cuda(c, bound, false, "up to INT64_MAX exactly");
    CHECK_OK_SO_FAR();
    c.a64.assign(8, -10), c.b64.assign(8, INT64_MIN), c.b64[0] = INT64_MIN + 35, c.n = 8;
    na_check_cuda(c, bound, false, "a step below INT64_MIN");
    CHECK_OK_SO_FAR();
    c.a64.assign(5, 1), c.b64.assign(5, 0), c.n = 5, c.has_init = true, c.init_i = INT64_MAX;
    na_check_cuda(c, bound, false, "the init's step");
    CHECK_OK_SO_FAR();
    na_case s(NA_OP_SATSUM_I32, 5000);
    s.a32.assign(5000, INT32_MAX / 4000);
    na_check_cuda(s, bound, false, "satsum i32 past INT32_MAX");
    CHECK_OK_SO_FAR();
    na_case s64(NA_OP_SATSUM_I64, 5000);
    s64.a64.assign(5000, INT64_MAX / 4000);
    na_check_cuda(s64, bound, false, "satsum i64 past INT64_MAX");
    CHECK_OK_SO_FAR();
  }
  /* inputs untouched by a failing call */
  std::vector<uint32_t> v(10000, UINT32_MAX - 5000), x(10000);
  std::vector<uint32_t> keep(v);
  dbuf<uint32_t> d_v(v.size()), d_x(v.size());
  CUDA_CHECK(d_v.upload(v));
  for (int m = 0; m < 4; ++m) {
    gamq_scan_desc d;
    memset(&d, 0, sizeof d);
    d.method = na_all[m];
    size_t tb = 0;
    CHECK(gamq_position_scan_u32_sync(&d, NULL, &tb, d_v.p, NULL, NULL, d_x.p, v.size(), NULL, NULL) == GAMQ_SUCCESS);
    dbuf<uint8_t> t(tb);
    CHECK(gamq_position_scan_u32_sync(&d, t.p, &tb, d_v.p, NULL, NULL, d_x.p, v.size(), NULL, NULL) ==
          GAMQ_ERROR_OVERFLOW);
    std::vector<uint32_t> back;
    CUDA_CHECK(d_v.download(back));
    CHECK(back == keep);
  }
}

/* bad arguments: a status, nothing launched, the output untouched */
GPU_TEST(nonassoc, bad_arguments_cuda) {
  size_t n = 1000;
  std::vector<uint32_t> v(n, 1);
  dbuf<uint32_t> d_v(n), d_x(n);
  CUDA_CHECK(d_v.upload(v));
  gamq_scan_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_CUDA;
  for (int m = 0; m < 4; ++m) {
    d.method = na_all[m];
    size_t tb = 0;
    CHECK(gamq_position_scan_u32_sync(&d, NULL, &tb, NULL, NULL, NULL, NULL, n, NULL, NULL) == GAMQ_SUCCESS);
    dbuf<uint8_t> t(tb);
    size_t small = tb - 1;
    CHECK(gamq_position_scan_u32_sync(&d, t.p, NULL, d_v.p, NULL, NULL, d_x.p, n, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_position_scan_u32_sync(&d, t.p, &small, d_v.p, NULL, NULL, d_x.p, n, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_position_scan_u32_sync(&d, t.p, &tb, NULL, NULL, NULL, d_x.p, n, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_position_scan_u32_sync(&d, t.p, &tb, d_v.p, NULL, NULL, NULL, n, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_position_scan_u32_sync(&d, t.p, &tb, d_v.p, NULL, NULL, d_x.p, GAMQ_SCAN_MAX_N + 1, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    gamq_scan_desc bad = d;
    bad.method = (gamq_scan_method)-1;
    CHECK(gamq_position_scan_u32_sync(&bad, t.p, &tb, d_v.p, NULL, NULL, d_x.p, n, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    int64_t *d_a64 = (int64_t *)d_v.p;
    CHECK(gamq_maxplus_i64_sync(&d, t.p, &tb, d_a64, NULL, NULL, NULL, (int64_t *)d_x.p, n / 2, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_satsum_i32_sync(&d, t.p, &tb, NULL, NULL, NULL, (int32_t *)d_x.p, n, NULL, NULL) ==
          GAMQ_ERROR_INVALID_ARGUMENT);
    /* n == 0: nothing to do, nothing written */
    CHECK(gamq_position_scan_u32_sync(&d, t.p, &tb, NULL, NULL, NULL, NULL, 0, NULL, NULL) == GAMQ_SUCCESS);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> x;
  CUDA_CHECK(d_x.download(x));
  for (size_t i = 0; i < n; ++i) CHECK_MSG(x[i] == 0xA5A5A5A5u, "output touched at %zu", i);
}
