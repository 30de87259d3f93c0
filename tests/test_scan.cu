/* test_scan.cu - scan and select family of gpuprim (prim/scan.cuh).

   Host tests: the host references against the standard library.
   GPU tests: device results against the host references, exactly; outputs
   poisoned before each run and the item after each output checked untouched.
   Full type x operator x distribution matrix up to 2^20 items; a few
   combinations up to 2^max_log2. float sums use small integers (exact). */
#include <iterator>
#include <numeric>
#include <string>
#include <type_traits>

#include "../gpuprim.cuh"
#include "internal_prim.h"
#include "prim_reference.h"
#include "testing.h"

/* ---- operators and predicates used by the tests ---- */

/* Associative, NOT commutative: affine maps x -> m * x + c (mod 2^32),
   a then b. Packed (m, c) in a u64; m kept odd so products never vanish.
   An out-of-order combination anywhere (warp, rows, tiles, look-back) changes
   the result. */
struct test_affine64 {
  GPRIM_HD uint64_t operator()(uint64_t a, uint64_t b) const {
    uint32_t am = (uint32_t)(a >> 32), ac = (uint32_t)a, bm = (uint32_t)(b >> 32), bc = (uint32_t)b;
    return ((uint64_t)(bm * am) << 32) | (uint32_t)(bm * ac + bc);
  }
};
/* The same on 16-bit halves of a u32 (exercises the packed 4-byte look-back). */
struct test_affine32 {
  GPRIM_HD uint32_t operator()(uint32_t a, uint32_t b) const {
    uint32_t am = a >> 16, ac = a & 0xffffu, bm = b >> 16, bc = b & 0xffffu;
    return ((bm * am & 0xffffu) << 16) | ((bm * ac + bc) & 0xffffu);
  }
};
template <typename T>
struct test_less {
  T t;
  GPRIM_HD bool operator()(const T &x) const { return x < t; }
};
struct test_odd {
  GPRIM_HD bool operator()(uint32_t x) const { return (x & 1u) != 0; }
};

/* ---- data ---- */

/* Extra distributions beyond testing.h's: runs of equal values. */
enum { DIST_RUNS = DIST_COUNT, DIST_LONG_RUNS, DIST_ALL };
static const char *dist_name(int d) {
  return d == DIST_RUNS ? "runs" : d == DIST_LONG_RUNS ? "long-runs" : test_dist_name(d);
}
template <typename T> struct test_int_of { typedef T type; };
template <> struct test_int_of<float> { typedef int32_t type; };

/* Values of distribution d. small: range safe for exact sums of up to 2^20
   items (signed ints: shifted down; float: integers in [-16, 15]; unsigned
   sums wrap, which is defined). */
template <typename T>
static void fill_values(std::vector<T> &v, int d, bool small, test_rng &rng) {
  typedef typename test_int_of<T>::type K;
  std::vector<K> k(v.size());
  if (d < DIST_COUNT) {
    test_fill_keys(k, d, rng);
  } else {
    size_t maxlen = d == DIST_RUNS ? 40 : 20000;
    for (size_t i = 0; i < k.size();) {
      K val = (K)rng.next();
      size_t len = 1 + (size_t)rng.below(maxlen);
      for (size_t j = 0; j < len && i < k.size(); ++j) k[i++] = val;
    }
  }
  const bool is_float = std::is_floating_point<T>::value;
  for (size_t i = 0; i < v.size(); ++i) {
    if (is_float) v[i] = (T)(small ? (int32_t)k[i] >> 27 : (int32_t)k[i] >> 8);
    else if (small && (K)-1 < (K)0) v[i] = (T)(k[i] >> (sizeof(K) == 4 ? 21 : 24));
    else v[i] = (T)k[i];
  }
}

/* Sizes from test_sizes() no larger than cap. */
static std::vector<size_t> sizes_upto(size_t tile, test_rng &rng, size_t cap) {
  std::vector<size_t> all = test_sizes(tile, rng), out;
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] <= cap) out.push_back(all[i]);
  return out;
}

/* Sizes for the select family: test_sizes() around both of its tile shapes. */
template <typename T>
static std::vector<size_t> select_sizes(test_rng &rng, size_t cap) {
  std::vector<size_t> v = sizes_upto(primt_select_tile<T>(), rng, cap);
  const size_t t = primt_rle_tile<T>();
  const size_t extra[4] = {t - 1, t, t + 1, 3 * t + 7};
  for (int i = 0; i < 4; ++i)
    if (extra[i] <= cap) v.push_back(extra[i]);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

template <typename T> static const char *type_name(void);
template <> const char *type_name<uint32_t>(void) { return "u32"; }
template <> const char *type_name<int32_t>(void) { return "i32"; }
template <> const char *type_name<uint64_t>(void) { return "u64"; }
template <> const char *type_name<int64_t>(void) { return "i64"; }
template <> const char *type_name<float>(void) { return "float"; }

/* True when `bytes` bytes at d_ptr still hold the poison pattern. */
static bool still_poisoned(const void *d_ptr, size_t bytes) {
  std::vector<unsigned char> h(bytes);
  if (bytes && cudaMemcpy(h.data(), d_ptr, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return false;
  for (size_t i = 0; i < bytes; ++i)
    if (h[i] != 0xA5) return false;
  return true;
}

/* ===========================================================================
   host tests: references against the standard library
   ========================================================================= */

TEST(scan, host_doc_examples) {
  int in[5] = {3, 1, 4, 1, 5}, out[5];
  gprim_host_scan_inclusive(in, out, 5, gprim_op_sum());
  CHECK(out[0] == 3 && out[1] == 4 && out[2] == 8 && out[3] == 9 && out[4] == 14);
  gprim_host_scan_inclusive(in, out, 5, gprim_op_max());
  CHECK(out[0] == 3 && out[1] == 3 && out[2] == 4 && out[3] == 4 && out[4] == 5);
  gprim_host_scan_exclusive(in, out, 5, gprim_op_sum(), 0);
  CHECK(out[0] == 0 && out[1] == 3 && out[2] == 4 && out[3] == 8 && out[4] == 9);
  uint32_t a[6] = {1, 2, 3, 4, 5, 6}, b[6];
  uint8_t fl[4] = {1, 0, 0, 1};
  CHECK_EQ(gprim_host_select_flagged(a, fl, b, 4), 2);
  CHECK(b[0] == 1 && b[1] == 4);
  CHECK_EQ(gprim_host_select_if(a, b, 4, test_odd()), 2);
  CHECK(b[0] == 1 && b[1] == 3);
  CHECK_EQ(gprim_host_partition_if(a, b, 6, test_odd()), 3);
  CHECK(b[0] == 1 && b[1] == 3 && b[2] == 5 && b[3] == 6 && b[4] == 4 && b[5] == 2);
  uint32_t r[7] = {1, 1, 2, 2, 2, 1, 3}, u[7], c[7];
  CHECK_EQ(gprim_host_unique(r, u, 7), 4);
  CHECK(u[0] == 1 && u[1] == 2 && u[2] == 1 && u[3] == 3);
  CHECK_EQ(gprim_host_run_length_encode(r, u, c, 7), 4);
  CHECK(u[0] == 1 && u[1] == 2 && u[2] == 1 && u[3] == 3);
  CHECK(c[0] == 2 && c[1] == 3 && c[2] == 1 && c[3] == 1);
}

TEST(scan, host_scans_match_std) {
  test_rng rng = test_rng_for("scan.host_scans_match_std");
  for (int rep = 0; rep < 40; ++rep) {
    size_t n = (size_t)rng.below(rep < 5 ? 3 : 5000);
    std::vector<uint64_t> in(n), want(n), got(n);
    for (size_t i = 0; i < n; ++i) in[i] = rng.next() >> (rep % 3 == 0 ? 40 : 0);
    std::partial_sum(in.begin(), in.end(), want.begin());
    gprim_host_scan_inclusive(in.data(), got.data(), n, gprim_op_sum());
    CHECK(want == got);
    std::partial_sum(in.begin(), in.end(), want.begin(), [](uint64_t a, uint64_t b) { return std::max(a, b); });
    gprim_host_scan_inclusive(in.data(), got.data(), n, gprim_op_max());
    CHECK(want == got);
    std::partial_sum(in.begin(), in.end(), want.begin(), [](uint64_t a, uint64_t b) { return std::min(a, b); });
    gprim_host_scan_inclusive(in.data(), got.data(), n, gprim_op_min());
    CHECK(want == got);
    uint64_t init = rng.next();
    std::exclusive_scan(in.begin(), in.end(), want.begin(), init);
    gprim_host_scan_exclusive(in.data(), got.data(), n, gprim_op_sum(), init);
    CHECK(want == got);
    /* a non-commutative operator: std::partial_sum applies it left to right too */
    std::partial_sum(in.begin(), in.end(), want.begin(), test_affine64());
    gprim_host_scan_inclusive(in.data(), got.data(), n, test_affine64());
    CHECK(want == got);
    /* in place */
    got = in;
    gprim_host_scan_exclusive(got.data(), got.data(), n, gprim_op_sum(), init);
    std::exclusive_scan(in.begin(), in.end(), want.begin(), init);
    CHECK(want == got);
    got = in;
    gprim_host_scan_inclusive(got.data(), got.data(), n, gprim_op_sum());
    std::partial_sum(in.begin(), in.end(), want.begin());
    CHECK(want == got);
  }
}

TEST(scan, host_affine_ops_are_associative_not_commutative) {
  /* the GPU ordering tests rely on both properties */
  test_rng rng = test_rng_for("scan.host_affine");
  int noncomm64 = 0, noncomm32 = 0;
  for (int i = 0; i < 1000; ++i) {
    uint64_t a = rng.next() | (1ull << 32), b = rng.next() | (1ull << 32), c = rng.next() | (1ull << 32);
    test_affine64 f;
    CHECK(f(f(a, b), c) == f(a, f(b, c)));
    noncomm64 += f(a, b) != f(b, a);
    uint32_t x = rng.next32() | 0x10000u, y = rng.next32() | 0x10000u, z = rng.next32() | 0x10000u;
    test_affine32 g;
    CHECK(g(g(x, y), z) == g(x, g(y, z)));
    noncomm32 += g(x, y) != g(y, x);
  }
  CHECK(noncomm64 > 900 && noncomm32 > 900);
}

TEST(scan, host_selects_match_std) {
  test_rng rng = test_rng_for("scan.host_selects_match_std");
  for (int rep = 0; rep < 40; ++rep) {
    size_t n = (size_t)rng.below(rep < 5 ? 3 : 5000);
    std::vector<uint32_t> in(n), got(n), want;
    std::vector<uint8_t> flags(n);
    for (size_t i = 0; i < n; ++i) {
      in[i] = rng.next32() >> (rep % 4 == 0 ? 30 : 0);
      flags[i] = (uint8_t)(rng.below(4) == 0);
    }
    /* flagged */
    want.clear();
    for (size_t i = 0; i < n; ++i)
      if (flags[i]) want.push_back(in[i]);
    size_t k = gprim_host_select_flagged(in.data(), flags.data(), got.data(), n);
    CHECK(k == want.size() && std::equal(want.begin(), want.end(), got.begin()));
    /* predicate */
    test_less<uint32_t> pred = {n ? in[rng.below(n)] : 0u};
    want.clear();
    std::copy_if(in.begin(), in.end(), std::back_inserter(want), pred);
    k = gprim_host_select_if(in.data(), got.data(), n, pred);
    CHECK(k == want.size() && std::equal(want.begin(), want.end(), got.begin()));
    /* partition: selected in order, then the rejected reversed */
    std::vector<uint32_t> part = in;
    std::stable_partition(part.begin(), part.end(), pred);
    k = gprim_host_partition_if(in.data(), got.data(), n, pred);
    CHECK(k == want.size());
    CHECK(std::equal(part.begin(), part.begin() + k, got.begin()));
    CHECK(std::equal(part.begin() + k, part.end(), got.rbegin()));
    /* unique */
    want.clear();
    std::unique_copy(in.begin(), in.end(), std::back_inserter(want));
    k = gprim_host_unique(in.data(), got.data(), n);
    CHECK(k == want.size() && std::equal(want.begin(), want.end(), got.begin()));
    /* run-length encoding */
    std::vector<uint32_t> counts(n);
    k = gprim_host_run_length_encode(in.data(), got.data(), counts.data(), n);
    CHECK(k == want.size() && std::equal(want.begin(), want.end(), got.begin()));
    std::vector<uint32_t>::iterator it = in.begin();
    for (size_t r = 0; r < k; ++r) {
      std::vector<uint32_t>::iterator next = std::find_if(it, in.end(), [&](uint32_t v) { return v != *it; });
      CHECK_EQ(counts[r], next - it);
      it = next;
    }
    CHECK(it == in.end());
  }
}

/* ===========================================================================
   GPU tests
   ========================================================================= */

/* How check_scan runs a scan: the public calls (Cfg = void, their default
   tile shape) or with an explicit tile shape (Cfg = primt_tiles / primt_staged). */
template <typename Cfg>
struct scan_call {
  template <typename T, typename Op>
  static cudaError_t run(bool exclusive, void *temp, size_t *bytes, const T *in, T *out, size_t n, Op op, T init) {
    return primt_scan_run<Cfg>(exclusive, temp, bytes, in, out, n, op, init, 0);
  }
};
template <>
struct scan_call<void> {
  template <typename T, typename Op>
  static cudaError_t run(bool exclusive, void *temp, size_t *bytes, const T *in, T *out, size_t n, Op op, T init) {
    return exclusive ? gprim_scan_exclusive(temp, bytes, in, out, n, op, init, 0)
                     : gprim_scan_inclusive(temp, bytes, in, out, n, op, 0);
  }
};

/* mode: 0 separate buffers, 1 in place, 2 misaligned in and out pointers */
template <typename Cfg = void, typename T, typename Op>
static void check_scan(const std::vector<T> &h, Op op, bool exclusive, T init, int mode, const char *what) {
  const size_t n = h.size(), off_in = mode == 2 ? 1 : 0, off_out = mode == 2 ? 3 : 0;
  std::vector<T> want(n), got(n);
  if (exclusive) gprim_host_scan_exclusive(h.data(), want.data(), n, op, init);
  else gprim_host_scan_inclusive(h.data(), want.data(), n, op);
  dbuf<T> din(n + off_in + 1), dout(n + off_out + 1);
  CHECK(din.ok() && dout.ok());
  T *in = din.p + off_in, *out = mode == 1 ? in : dout.p + off_out;
  if (n) CUDA_CHECK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  size_t bytes = 0;
  CUDA_CHECK(scan_call<Cfg>::run(exclusive, NULL, &bytes, in, out, n, op, init));
  dbuf<char> temp(bytes);
  CHECK(temp.ok());
  CUDA_CHECK(scan_call<Cfg>::run(exclusive, temp.p, &bytes, in, out, n, op, init));
  if (n) CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_ARRAYS(want.data(), got.data(), n, what);
  CHECK_MSG(still_poisoned(out + n, sizeof(T)), "%s: wrote past the end (n = %zu)", what, n);
}

template <typename T, typename Op>
static void scan_cases(Op op, bool is_sum, bool exclusive, const char *opname, const char *salt) {
  test_rng rng = test_rng_for((std::string(salt) + opname).c_str());
  const size_t tile = primt_scan_tile<T>();
  std::vector<size_t> sizes = sizes_upto(tile, rng, (size_t)1 << 20);
  char what[160];
  for (int d = 0; d < DIST_COUNT; ++d)
    for (size_t si = 0; si < sizes.size(); ++si) {
      std::vector<T> h(sizes[si]);
      fill_values(h, d, is_sum, rng);
      std::vector<T> one(1);
      fill_values(one, DIST_UNIFORM, is_sum, rng);
      snprintf(what, sizeof what, "%s %s %s, %s", exclusive ? "exclusive" : "inclusive", opname, type_name<T>(),
               dist_name(d));
      check_scan(h, op, exclusive, one[0], 0, what);
      CHECK_OK_SO_FAR();
    }
}
template <typename T>
static void scan_matrix(bool exclusive, const char *salt) {
  scan_cases<T>(gprim_op_sum(), true, exclusive, "sum", salt);
  CHECK_OK_SO_FAR();
  scan_cases<T>(gprim_op_max(), false, exclusive, "max", salt);
  CHECK_OK_SO_FAR();
  scan_cases<T>(gprim_op_min(), false, exclusive, "min", salt);
}

GPU_TEST(scan, inclusive_matrix_u32) { scan_matrix<uint32_t>(false, "scan.incl.u32"); }
GPU_TEST(scan, inclusive_matrix_i32) { scan_matrix<int32_t>(false, "scan.incl.i32"); }
GPU_TEST(scan, inclusive_matrix_u64) { scan_matrix<uint64_t>(false, "scan.incl.u64"); }
GPU_TEST(scan, inclusive_matrix_i64) { scan_matrix<int64_t>(false, "scan.incl.i64"); }
GPU_TEST(scan, inclusive_matrix_float) { scan_matrix<float>(false, "scan.incl.float"); }
GPU_TEST(scan, exclusive_matrix_u32) { scan_matrix<uint32_t>(true, "scan.excl.u32"); }
GPU_TEST(scan, exclusive_matrix_i32) { scan_matrix<int32_t>(true, "scan.excl.i32"); }
GPU_TEST(scan, exclusive_matrix_u64) { scan_matrix<uint64_t>(true, "scan.excl.u64"); }
GPU_TEST(scan, exclusive_matrix_i64) { scan_matrix<int64_t>(true, "scan.excl.i64"); }
GPU_TEST(scan, exclusive_matrix_float) { scan_matrix<float>(true, "scan.excl.float"); }

GPU_TEST(scan, doc_examples) {
  std::vector<int32_t> in = {3, 1, 4, 1, 5};
  check_scan(in, gprim_op_sum(), false, 0, 0, "doc inclusive sum");
  CHECK_OK_SO_FAR();
  check_scan(in, gprim_op_max(), false, 0, 0, "doc inclusive max");
  CHECK_OK_SO_FAR();
  check_scan(in, gprim_op_sum(), true, 0, 0, "doc exclusive sum");
}

/* Non-commutative operator: catches any out-of-order combination. Both
   look-back storages (packed 32-bit, separate arrays for 64-bit). */
GPU_TEST(scan, noncommutative_order) {
  test_rng rng = test_rng_for("scan.noncommutative_order");
  const size_t cap = (size_t)1 << (g_test.max_log2 < 22 ? g_test.max_log2 : 22);
  std::vector<size_t> sizes = sizes_upto(primt_scan_tile<uint32_t>(), rng, cap);
  for (size_t si = 0; si < sizes.size(); ++si) {
    size_t n = sizes[si];
    std::vector<uint64_t> h64(n);
    std::vector<uint32_t> h32(n);
    for (size_t i = 0; i < n; ++i) {
      h64[i] = rng.next() | (1ull << 32);
      h32[i] = rng.next32() | 0x10000u;
    }
    for (int excl = 0; excl < 2; ++excl) {
      check_scan(h64, test_affine64(), excl != 0, (uint64_t)1 << 32, 0, "affine u64");
      CHECK_OK_SO_FAR();
      check_scan(h32, test_affine32(), excl != 0, 1u << 16, 0, "affine u32");
      CHECK_OK_SO_FAR();
    }
  }
}

/* Both scan kernels (registers: primt_tiles; shared-memory staging with
   bulk copies: primt_staged) in several shapes, whichever is the default
   (Cfg = void: the public calls):
   non-commutative operators, in place and misaligned, sizes around the tile. */
template <typename Cfg, int WIDTH> struct scan_cfg_check; /* one size n, items of WIDTH bytes */
template <typename Cfg>
struct scan_cfg_check<Cfg, 4> {
  static void run(size_t n, int d, bool excl, int mode, const char *what, test_rng &rng) {
    std::vector<uint32_t> a(n);
    for (size_t i = 0; i < n; ++i) a[i] = rng.next32() | 0x10000u;
    check_scan<Cfg>(a, test_affine32(), excl, 1u << 16, mode, what);
    CHECK_OK_SO_FAR();
    fill_values(a, d, false, rng);
    check_scan<Cfg>(a, gprim_op_sum(), !excl, 3u, mode, what);
    CHECK_OK_SO_FAR();
    std::vector<float> f(n);
    fill_values(f, DIST_FEW_DISTINCT, true, rng);
    check_scan<Cfg>(f, gprim_op_max(), excl, -1.0f, mode, what);
  }
};
template <typename Cfg>
struct scan_cfg_check<Cfg, 8> {
  static void run(size_t n, int d, bool excl, int mode, const char *what, test_rng &rng) {
    std::vector<uint64_t> b(n);
    for (size_t i = 0; i < n; ++i) b[i] = rng.next() | (1ull << 32);
    check_scan<Cfg>(b, test_affine64(), excl, (uint64_t)1 << 32, mode, what);
    CHECK_OK_SO_FAR();
    std::vector<int64_t> c(n);
    fill_values(c, d, true, rng);
    check_scan<Cfg>(c, gprim_op_min(), !excl, (int64_t)-9, mode, what);
  }
};
template <typename Cfg, int WIDTH>
static void scan_cfg_cases(const char *shape, size_t tile, bool top, test_rng &rng) {
  const size_t cap = (size_t)1 << (g_test.max_log2 < 22 ? g_test.max_log2 : 22);
  std::vector<size_t> sizes = sizes_upto(tile, rng, cap);
  const size_t m = test_max_size();
  if (top) sizes.push_back(m > 2 * tile ? m - (size_t)rng.below(tile) : m);
  char what[96];
  for (size_t si = 0; si < sizes.size(); ++si) {
    const int mode = (int)(si % 3);
    const bool excl = (si / 3) % 2 == 0;
    snprintf(what, sizeof what, "%s %s mode %d", shape, excl ? "exclusive" : "inclusive", mode);
    scan_cfg_check<Cfg, WIDTH>::run(sizes[si], (int)(si % DIST_COUNT), excl, mode, what, rng);
    CHECK_OK_SO_FAR();
  }
}
GPU_TEST(scan, tile_shapes_and_kernels) {
  test_rng rng = test_rng_for("scan.tile_shapes_and_kernels");
  scan_cfg_cases<primt_tiles<128, 8, 4>, 4>("registers 128x8x4", primt_tiles<128, 8, 4>::TILE, true, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<primt_tiles<128, 8, 2>, 8>("registers 128x8x2", primt_tiles<128, 8, 2>::TILE, false, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<void, 4>("default 4-byte", primt_scan_tile<uint32_t>(), true, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<void, 8>("default 8-byte", primt_scan_tile<uint64_t>(), true, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<primt_staged<128, 8, 4, 12>, 4>("staged 128x8x4", primt_staged<128, 8, 4, 12>::TILE, false, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<primt_staged<128, 12, 2, 8>, 8>("staged 128x12x2", primt_staged<128, 12, 2, 8>::TILE, false, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<primt_staged<256, 4, 4, 8>, 4>("staged 256x4x4", primt_staged<256, 4, 4, 8>::TILE, false, rng);
  CHECK_OK_SO_FAR();
  scan_cfg_cases<primt_staged<64, 3, 4, 16>, 4>("staged 64x3x4", primt_staged<64, 3, 4, 16>::TILE, false, rng);
}

GPU_TEST(scan, in_place_and_misaligned) {
  test_rng rng = test_rng_for("scan.in_place_and_misaligned");
  std::vector<size_t> sizes = sizes_upto(primt_scan_tile<uint32_t>(), rng, (size_t)1 << 20);
  for (int mode = 1; mode <= 2; ++mode)
    for (size_t si = 0; si < sizes.size(); ++si) {
      const char *what = mode == 1 ? "in place" : "misaligned";
      std::vector<uint32_t> a(sizes[si]);
      fill_values(a, DIST_UNIFORM, false, rng);
      check_scan(a, gprim_op_sum(), true, 7u, mode, what);
      CHECK_OK_SO_FAR();
      check_scan(a, gprim_op_max(), false, 0u, mode, what);
      CHECK_OK_SO_FAR();
      std::vector<int64_t> b(sizes[si]);
      fill_values(b, DIST_UNIFORM, true, rng);
      check_scan(b, gprim_op_sum(), false, (int64_t)0, mode, what);
      CHECK_OK_SO_FAR();
      check_scan(b, gprim_op_min(), true, (int64_t)5, mode, what);
      CHECK_OK_SO_FAR();
      std::vector<float> c(sizes[si]);
      fill_values(c, DIST_FEW_DISTINCT, true, rng);
      check_scan(c, gprim_op_sum(), true, 0.0f, mode, what);
      CHECK_OK_SO_FAR();
    }
}

/* Large sizes: every size test_sizes() draws for exclusive sum u32 (in place
   at the top size), a few large ones for the other combinations. */
GPU_TEST(scan, large_sizes) {
  test_rng rng = test_rng_for("scan.large_sizes");
  std::vector<size_t> sizes = test_sizes(primt_scan_tile<uint32_t>(), rng);
  for (size_t si = 0; si < sizes.size(); ++si) {
    std::vector<uint32_t> a(sizes[si]);
    fill_values(a, DIST_UNIFORM, false, rng);
    check_scan(a, gprim_op_sum(), true, 0u, si + 1 == sizes.size() ? 1 : 0, "large exclusive sum u32");
    CHECK_OK_SO_FAR();
  }
  const size_t top = test_max_size();
  {
    std::vector<uint64_t> b(top - 1 - (size_t)rng.below(top / 4));
    fill_values(b, DIST_UNIFORM, false, rng);
    for (size_t i = 0; i < b.size(); ++i) b[i] |= 1ull << 32; /* odd multipliers for the affine op */
    check_scan(b, gprim_op_max(), false, (uint64_t)0, 0, "large inclusive max u64");
    CHECK_OK_SO_FAR();
    check_scan(b, test_affine64(), true, (uint64_t)1 << 32, 0, "large exclusive affine u64");
    CHECK_OK_SO_FAR();
  }
  {
    std::vector<float> c(top / 2 + 12345);
    fill_values(c, DIST_UNIFORM, false, rng);
    check_scan(c, gprim_op_min(), false, 0.0f, 2, "large inclusive min float, misaligned");
    CHECK_OK_SO_FAR();
    std::vector<int32_t> d(top / 2 + 777);
    fill_values(d, DIST_REVERSE, false, rng);
    check_scan(d, gprim_op_max(), true, (int32_t)-5, 0, "large exclusive max i32");
  }
}

GPU_TEST(scan, bad_arguments) {
  const size_t n = 10000;
  dbuf<uint32_t> din(n), dout(n);
  size_t bytes = 0;
  CHECK(gprim_scan_inclusive((void *)NULL, (size_t *)NULL, din.p, dout.p, n, gprim_op_sum(), 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_scan_exclusive((void *)NULL, &bytes, (const uint32_t *)NULL, (uint32_t *)NULL, n, gprim_op_sum(), 0u,
                             0) == cudaSuccess);
  CHECK(bytes > 0);
  dbuf<char> temp(bytes);
  size_t small = bytes - 1;
  CHECK(gprim_scan_exclusive((void *)temp.p, &small, din.p, dout.p, n, gprim_op_sum(), 0u, 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_scan_inclusive((void *)temp.p, (size_t *)NULL, din.p, dout.p, n, gprim_op_sum(), 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_scan_inclusive((void *)temp.p, &bytes, (const uint32_t *)NULL, dout.p, n, gprim_op_sum(), 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_scan_exclusive((void *)temp.p, &bytes, din.p, (uint32_t *)NULL, n, gprim_op_sum(), 0u, 0) ==
        cudaErrorInvalidValue);
  /* n == 0: valid, writes nothing */
  CHECK(gprim_scan_inclusive((void *)temp.p, &bytes, din.p, dout.p, 0, gprim_op_sum(), 0) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(still_poisoned(dout.p, n * sizeof(uint32_t)));
  /* and the call still works afterwards with the same temp storage */
  std::vector<uint32_t> h(n, 1u), got;
  CUDA_CHECK(din.upload(h));
  CUDA_CHECK(gprim_scan_exclusive((void *)temp.p, &bytes, din.p, dout.p, n, gprim_op_sum(), 0u, 0));
  CUDA_CHECK(dout.download(got));
  for (size_t i = 0; i < n; ++i) CHECK_EQ(got[i], i);
}

/* ---- select family ---- */

/* kind: 0 select_if, 1 partition_if, 2 unique */
template <typename T, typename Pred>
static void check_select(const std::vector<T> &h, int kind, Pred pred, int in_off, const char *what) {
  const size_t n = h.size();
  std::vector<T> want(n + 1), got(n + 1);
  size_t k = kind == 0 ? gprim_host_select_if(h.data(), want.data(), n, pred)
             : kind == 1 ? gprim_host_partition_if(h.data(), want.data(), n, pred)
                         : gprim_host_unique(h.data(), want.data(), n);
  dbuf<T> din(n + 1 + in_off), dout(n + 1);
  dbuf<size_t> dnum(1);
  CHECK(din.ok() && dout.ok() && dnum.ok());
  const T *in = din.p + in_off;
  if (n) CUDA_CHECK(cudaMemcpy(din.p + in_off, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  size_t bytes = 0;
  for (int pass = 0; pass < 2; ++pass) {
    dbuf<char> temp(bytes);
    void *t = pass ? (void *)temp.p : NULL;
    if (kind == 0) CUDA_CHECK(gprim_select_if(t, &bytes, in, dout.p, dnum.p, n, pred, 0));
    else if (kind == 1) CUDA_CHECK(gprim_partition_if(t, &bytes, in, dout.p, dnum.p, n, pred, 0));
    else CUDA_CHECK(gprim_unique(t, &bytes, in, dout.p, dnum.p, n, 0));
    if (pass) CUDA_CHECK(cudaDeviceSynchronize());
  }
  size_t got_k = 0;
  CUDA_CHECK(cudaMemcpy(&got_k, dnum.p, sizeof(size_t), cudaMemcpyDeviceToHost));
  CHECK_MSG(got_k == k, "%s: %zu selected, want %zu (n = %zu)", what, got_k, k, n);
  const size_t written = kind == 1 ? n : k;
  if (n) CUDA_CHECK(cudaMemcpy(got.data(), dout.p, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_ARRAYS(want.data(), got.data(), written, what);
  CHECK_MSG(still_poisoned(dout.p + written, (n + 1 - written) * sizeof(T)), "%s: wrote past the selected items",
            what);
}

template <typename T, typename F>
static void check_flagged(const std::vector<T> &h, const std::vector<F> &flags, int in_off, int flag_off,
                          const char *what) {
  const size_t n = h.size();
  std::vector<T> want(n + 1), got(n + 1);
  const size_t k = gprim_host_select_flagged(h.data(), flags.data(), want.data(), n);
  dbuf<T> din(n + 1 + in_off), dout(n + 1);
  dbuf<F> dflags(n + 1 + flag_off);
  dbuf<size_t> dnum(1);
  CHECK(din.ok() && dout.ok() && dnum.ok() && dflags.ok());
  if (n) CUDA_CHECK(cudaMemcpy(din.p + in_off, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  if (n) CUDA_CHECK(cudaMemcpy(dflags.p + flag_off, flags.data(), n * sizeof(F), cudaMemcpyHostToDevice));
  size_t bytes = 0;
  CUDA_CHECK(gprim_select_flagged((void *)NULL, &bytes, din.p + in_off, dflags.p + flag_off, dout.p, dnum.p, n, 0));
  dbuf<char> temp(bytes);
  CUDA_CHECK(gprim_select_flagged((void *)temp.p, &bytes, din.p + in_off, dflags.p + flag_off, dout.p, dnum.p, n, 0));
  size_t got_k = 0;
  CUDA_CHECK(cudaMemcpy(&got_k, dnum.p, sizeof(size_t), cudaMemcpyDeviceToHost));
  CHECK_MSG(got_k == k, "%s: %zu selected, want %zu (n = %zu)", what, got_k, k, n);
  if (n) CUDA_CHECK(cudaMemcpy(got.data(), dout.p, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK_ARRAYS(want.data(), got.data(), k, what);
  CHECK_MSG(still_poisoned(dout.p + k, (n + 1 - k) * sizeof(T)), "%s: wrote past the selected items", what);
}

template <typename T>
static void check_rle(const std::vector<T> &h, int in_off, const char *what) {
  const size_t n = h.size();
  std::vector<T> want(n + 1), got(n + 1);
  std::vector<uint32_t> want_c(n + 1), got_c(n + 1);
  const size_t k = gprim_host_run_length_encode(h.data(), want.data(), want_c.data(), n);
  dbuf<T> din(n + 1 + in_off), dout(n + 1);
  dbuf<uint32_t> dcounts(n + 1);
  dbuf<size_t> dnum(1);
  CHECK(din.ok() && dout.ok() && dnum.ok() && dcounts.ok());
  if (n) CUDA_CHECK(cudaMemcpy(din.p + in_off, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  size_t bytes = 0;
  CUDA_CHECK(gprim_run_length_encode((void *)NULL, &bytes, din.p + in_off, dout.p, dcounts.p, dnum.p, n, 0));
  dbuf<char> temp(bytes);
  CUDA_CHECK(gprim_run_length_encode((void *)temp.p, &bytes, din.p + in_off, dout.p, dcounts.p, dnum.p, n, 0));
  size_t got_k = 0;
  CUDA_CHECK(cudaMemcpy(&got_k, dnum.p, sizeof(size_t), cudaMemcpyDeviceToHost));
  CHECK_MSG(got_k == k, "%s: %zu runs, want %zu (n = %zu)", what, got_k, k, n);
  if (n) CUDA_CHECK(cudaMemcpy(got.data(), dout.p, n * sizeof(T), cudaMemcpyDeviceToHost));
  if (n) CUDA_CHECK(cudaMemcpy(got_c.data(), dcounts.p, n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  CHECK_ARRAYS(want.data(), got.data(), k, what);
  CHECK_ARRAYS(want_c.data(), got_c.data(), k, what);
  CHECK_MSG(still_poisoned(dout.p + k, (n + 1 - k) * sizeof(T)), "%s: unique written past the runs", what);
  CHECK_MSG(still_poisoned(dcounts.p + k, (n + 1 - k) * sizeof(uint32_t)), "%s: counts written past the runs", what);
}

/* select_if, partition_if, unique, run-length encode over all distributions
   (and runs of equal values) for one type, sizes up to 2^20. */
template <typename T>
static void select_matrix(const char *salt) {
  test_rng rng = test_rng_for(salt);
  std::vector<size_t> sizes = select_sizes<T>(rng, (size_t)1 << 20);
  char what[160];
  for (int d = 0; d < DIST_ALL; ++d)
    for (size_t si = 0; si < sizes.size(); ++si) {
      const size_t n = sizes[si];
      std::vector<T> h(n);
      fill_values(h, d, false, rng);
      /* threshold: an input value (any selectivity), or below / above everything */
      test_less<T> pred;
      std::vector<T> extreme(1);
      fill_values(extreme, DIST_UNIFORM, false, rng);
      const int pick = (int)rng.below(6);
      pred.t = pick == 0 ? gprim_op_max::identity<T>() : pick == 1 ? gprim_op_min::identity<T>()
               : n ? h[rng.below(n)] : extreme[0];
      snprintf(what, sizeof what, "select_if %s %s", type_name<T>(), dist_name(d));
      check_select(h, 0, pred, 0, what);
      CHECK_OK_SO_FAR();
      snprintf(what, sizeof what, "partition_if %s %s", type_name<T>(), dist_name(d));
      check_select(h, 1, pred, 0, what);
      CHECK_OK_SO_FAR();
      snprintf(what, sizeof what, "unique %s %s", type_name<T>(), dist_name(d));
      check_select(h, 2, pred, 0, what);
      CHECK_OK_SO_FAR();
      snprintf(what, sizeof what, "run_length_encode %s %s", type_name<T>(), dist_name(d));
      check_rle(h, 0, what);
      CHECK_OK_SO_FAR();
    }
}
GPU_TEST(scan_select, matrix_u32) { select_matrix<uint32_t>("select.u32"); }
GPU_TEST(scan_select, matrix_i32) { select_matrix<int32_t>("select.i32"); }
GPU_TEST(scan_select, matrix_u64) { select_matrix<uint64_t>("select.u64"); }
GPU_TEST(scan_select, matrix_i64) { select_matrix<int64_t>("select.i64"); }
GPU_TEST(scan_select, matrix_float) { select_matrix<float>("select.float"); }

GPU_TEST(scan_select, doc_examples) {
  std::vector<uint32_t> a = {1, 2, 3, 4, 5, 6};
  check_select(a, 0, test_odd(), 0, "doc select_if");
  CHECK_OK_SO_FAR();
  check_select(a, 1, test_odd(), 0, "doc partition_if");
  CHECK_OK_SO_FAR();
  std::vector<uint32_t> b = {1, 2, 3, 4};
  std::vector<uint8_t> f = {1, 0, 0, 1};
  check_flagged(b, f, 0, 0, "doc select_flagged");
  CHECK_OK_SO_FAR();
  std::vector<uint32_t> r = {1, 1, 2, 2, 2, 1, 3};
  check_select(r, 2, test_odd(), 0, "doc unique");
  CHECK_OK_SO_FAR();
  check_rle(r, 0, "doc run_length_encode");
}

/* Flags of several types and densities, aligned and misaligned pointers. */
GPU_TEST(scan_select, flagged) {
  test_rng rng = test_rng_for("select.flagged");
  std::vector<size_t> sizes = select_sizes<uint32_t>(rng, (size_t)1 << 20);
  const uint64_t density[5] = {0, 1, 50, 99, 100}; /* percent */
  char what[128];
  for (size_t si = 0; si < sizes.size(); ++si) {
    const size_t n = sizes[si];
    for (int di = 0; di < 5; ++di) {
      std::vector<uint32_t> a(n);
      std::vector<uint64_t> b(n);
      std::vector<uint8_t> f8(n);
      std::vector<int32_t> f32(n);
      for (size_t i = 0; i < n; ++i) {
        a[i] = rng.next32();
        b[i] = rng.next();
        f8[i] = rng.below(100) < density[di] ? (uint8_t)(1 + rng.below(255)) : 0;
        f32[i] = rng.below(100) < density[di] ? (int32_t)rng.next32() | 1 : 0;
      }
      const int off = (int)(si + di) % 3; /* 0: aligned; 1, 2: misaligned */
      snprintf(what, sizeof what, "select_flagged u32/u8 %d%%, offset %d", (int)density[di], off);
      check_flagged(a, f8, off, off == 2 ? 0 : off, what);
      CHECK_OK_SO_FAR();
      snprintf(what, sizeof what, "select_flagged u64/i32 %d%%, offset %d", (int)density[di], off);
      check_flagged(b, f32, off, off == 2 ? 1 : 0, what);
      CHECK_OK_SO_FAR();
    }
  }
}

GPU_TEST(scan_select, misaligned_input) {
  test_rng rng = test_rng_for("select.misaligned_input");
  std::vector<size_t> sizes = select_sizes<uint32_t>(rng, (size_t)1 << 20);
  for (size_t si = 0; si < sizes.size(); ++si) {
    std::vector<uint32_t> a(sizes[si]);
    fill_values(a, DIST_RUNS, false, rng);
    test_less<uint32_t> pred = {0x80000000u};
    check_select(a, 0, pred, 1, "select_if misaligned");
    CHECK_OK_SO_FAR();
    check_select(a, 1, pred, 3, "partition_if misaligned");
    CHECK_OK_SO_FAR();
    check_select(a, 2, pred, 2, "unique misaligned");
    CHECK_OK_SO_FAR();
    check_rle(a, 1, "run_length_encode misaligned");
    CHECK_OK_SO_FAR();
  }
}

/* Large sizes: every size test_sizes() draws for select_if u32, one large
   size for the others. */
GPU_TEST(scan_select, large_sizes) {
  test_rng rng = test_rng_for("select.large_sizes");
  std::vector<size_t> sizes = test_sizes(primt_select_tile<uint32_t>(), rng);
  for (size_t si = 0; si < sizes.size(); ++si) {
    std::vector<uint32_t> a(sizes[si]);
    fill_values(a, DIST_UNIFORM, false, rng);
    test_less<uint32_t> pred = {rng.next32()};
    check_select(a, 0, pred, 0, "large select_if u32");
    CHECK_OK_SO_FAR();
  }
  const size_t top = test_max_size();
  std::vector<uint32_t> a(top - (size_t)rng.below(top / 4));
  fill_values(a, DIST_RUNS, false, rng);
  test_less<uint32_t> pred = {rng.next32()};
  check_select(a, 1, pred, 0, "large partition_if u32");
  CHECK_OK_SO_FAR();
  check_select(a, 2, pred, 0, "large unique u32");
  CHECK_OK_SO_FAR();
  check_rle(a, 0, "large run_length_encode u32");
  CHECK_OK_SO_FAR();
  std::vector<uint8_t> f(a.size());
  for (size_t i = 0; i < f.size(); ++i) f[i] = (uint8_t)(rng.next() & 1);
  check_flagged(a, f, 0, 0, "large select_flagged u32/u8");
  CHECK_OK_SO_FAR();
  std::vector<uint64_t> b(top / 2 + 3);
  fill_values(b, DIST_LONG_RUNS, false, rng);
  check_rle(b, 0, "large run_length_encode u64");
}

GPU_TEST(scan_select, bad_arguments) {
  const size_t n = 10000;
  dbuf<uint32_t> din(n), dout(n), dcounts(n);
  dbuf<uint8_t> dflags(n);
  dbuf<size_t> dnum(1);
  test_less<uint32_t> pred = {100u};
  size_t bytes = 0;
  CHECK(gprim_select_if((void *)NULL, (size_t *)NULL, din.p, dout.p, dnum.p, n, pred, 0) == cudaErrorInvalidValue);
  CHECK(gprim_select_if((void *)NULL, &bytes, (const uint32_t *)NULL, (uint32_t *)NULL, (size_t *)NULL, n, pred, 0) ==
        cudaSuccess);
  size_t rle_bytes = 0;
  CHECK(gprim_run_length_encode((void *)NULL, &rle_bytes, din.p, dout.p, dcounts.p, dnum.p, n, 0) == cudaSuccess);
  bytes = std::max(bytes, rle_bytes);
  dbuf<char> temp(bytes);
  size_t small = 1;
  CHECK(gprim_select_if((void *)temp.p, &small, din.p, dout.p, dnum.p, n, pred, 0) == cudaErrorInvalidValue);
  CHECK(gprim_partition_if((void *)temp.p, &small, din.p, dout.p, dnum.p, n, pred, 0) == cudaErrorInvalidValue);
  CHECK(gprim_unique((void *)temp.p, &small, din.p, dout.p, dnum.p, n, 0) == cudaErrorInvalidValue);
  CHECK(gprim_select_flagged((void *)temp.p, &small, din.p, dflags.p, dout.p, dnum.p, n, 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_run_length_encode((void *)temp.p, &small, din.p, dout.p, dcounts.p, dnum.p, n, 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_select_if((void *)temp.p, &bytes, (const uint32_t *)NULL, dout.p, dnum.p, n, pred, 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_select_if((void *)temp.p, &bytes, din.p, dout.p, (size_t *)NULL, n, pred, 0) == cudaErrorInvalidValue);
  CHECK(gprim_select_flagged((void *)temp.p, &bytes, din.p, (const uint8_t *)NULL, dout.p, dnum.p, n, 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_unique((void *)temp.p, &bytes, din.p, (uint32_t *)NULL, dnum.p, n, 0) == cudaErrorInvalidValue);
  CHECK(gprim_run_length_encode((void *)temp.p, &bytes, din.p, dout.p, (uint32_t *)NULL, dnum.p, n, 0) ==
        cudaErrorInvalidValue);
  CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(still_poisoned(dout.p, n * sizeof(uint32_t)));
  CHECK(still_poisoned(dcounts.p, n * sizeof(uint32_t)));
  CHECK(still_poisoned(dnum.p, sizeof(size_t)));
  /* n == 0: the count is written (0), nothing else */
  CHECK(gprim_select_if((void *)temp.p, &bytes, din.p, dout.p, dnum.p, 0, pred, 0) == cudaSuccess);
  size_t k = 99;
  CUDA_CHECK(cudaMemcpy(&k, dnum.p, sizeof k, cudaMemcpyDeviceToHost));
  CHECK_EQ(k, 0);
  CUDA_CHECK(test_poison(dnum.p, sizeof(size_t)));
  CHECK(gprim_run_length_encode((void *)temp.p, &bytes, din.p, dout.p, dcounts.p, dnum.p, 0, 0) == cudaSuccess);
  k = 99;
  CUDA_CHECK(cudaMemcpy(&k, dnum.p, sizeof k, cudaMemcpyDeviceToHost));
  CHECK_EQ(k, 0);
  CHECK(still_poisoned(dout.p, n * sizeof(uint32_t)));
  CHECK(still_poisoned(dcounts.p, n * sizeof(uint32_t)));
}

/* Many tiles (long look-back chains, every primitive), small enough for
   compute-sanitizer: run it with --filter=many_tiles. */
GPU_TEST(scan_select, many_tiles_per_block) {
  test_rng rng = test_rng_for("scan_select.many_tiles_per_block");
  const size_t n = 3000017;
  std::vector<uint32_t> a(n);
  fill_values(a, DIST_RUNS, false, rng);
  check_scan(a, gprim_op_sum(), true, 3u, 0, "many tiles exclusive sum u32");
  CHECK_OK_SO_FAR();
  std::vector<uint64_t> b(n);
  fill_values(b, DIST_UNIFORM, false, rng);
  check_scan(b, gprim_op_max(), false, (uint64_t)0, 0, "many tiles inclusive max u64");
  CHECK_OK_SO_FAR();
  test_less<uint32_t> pred = {rng.next32()};
  check_select(a, 0, pred, 0, "many tiles select_if");
  CHECK_OK_SO_FAR();
  check_select(a, 1, pred, 0, "many tiles partition_if");
  CHECK_OK_SO_FAR();
  check_select(a, 2, pred, 0, "many tiles unique");
  CHECK_OK_SO_FAR();
  check_rle(a, 0, "many tiles run_length_encode");
  CHECK_OK_SO_FAR();
  std::vector<uint8_t> f(n);
  for (size_t i = 0; i < n; ++i) f[i] = (uint8_t)(rng.next() & 1);
  check_flagged(a, f, 0, 0, "many tiles select_flagged");
}
