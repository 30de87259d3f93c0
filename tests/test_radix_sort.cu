/* test_radix_sort.cu - gprim_radix_sort_keys / _pairs: the host reference
   against std::stable_sort, the device sort against the host reference
   (exactly, values = original index so stability is checked), descending,
   partial bit ranges, in place, bad arguments. */
#include "../gpuprim.cuh"
#include "internal_prim.h"
#include "prim_reference.h"
#include "testing.h"

/* ---- host: the reference against std::stable_sort ---- */

/* the sort key of k under bits [b, e), larger-first when descending */
template <typename K>
static bool radix_before(K a, K b, int begin, int end, bool desc) {
  K mask = end - begin >= (int)(8 * sizeof(K)) ? ~(K)0 : (((K)1 << (end - begin)) - 1);
  K x = begin < (int)(8 * sizeof(K)) ? (a >> begin) & mask : 0, y = begin < (int)(8 * sizeof(K)) ? (b >> begin) & mask : 0;
  return desc ? y < x : x < y;
}

template <typename K>
static void host_case(size_t n, int dist, int begin, int end, bool desc, test_rng &rng) {
  std::vector<K> keys(n), got(n), got_k(n);
  test_fill_keys(keys, dist, rng);
  std::vector<uint32_t> idx(n), got_v(n);
  for (size_t i = 0; i < n; ++i) idx[i] = (uint32_t)i;
  /* std::stable_sort of the indices by the key bits: the expected order */
  std::vector<uint32_t> want_v = idx;
  std::stable_sort(want_v.begin(), want_v.end(),
                   [&](uint32_t a, uint32_t b) { return radix_before(keys[a], keys[b], begin, end, desc); });
  std::vector<K> want_k(n);
  for (size_t i = 0; i < n; ++i) want_k[i] = keys[want_v[i]];
  CHECK_EQ(gprim_host_radix_sort_keys(keys.data(), got.data(), n, begin, end, desc), 0);
  CHECK_ARRAYS(want_k.data(), got.data(), n, "host keys");
  CHECK_EQ(gprim_host_radix_sort_pairs(keys.data(), got_k.data(), idx.data(), got_v.data(), n, begin, end, desc), 0);
  CHECK_ARRAYS(want_k.data(), got_k.data(), n, "host pair keys");
  CHECK_ARRAYS(want_v.data(), got_v.data(), n, "host pair values");
  /* in place */
  std::vector<K> inplace = keys;
  CHECK_EQ(gprim_host_radix_sort_keys(inplace.data(), inplace.data(), n, begin, end, desc), 0);
  CHECK_ARRAYS(want_k.data(), inplace.data(), n, "host keys in place");
}

TEST(radix_sort, host_reference_vs_stable_sort) {
  test_rng rng = test_rng_for("radix_sort.host");
  const size_t sizes[] = {0, 1, 2, 33, 1000, 4097, 65537};
  const int ranges32[][2] = {{0, 32}, {0, 12}, {7, 32}, {31, 32}, {5, 5}, {3, 19}};
  const int ranges64[][2] = {{0, 64}, {32, 64}, {0, 40}, {13, 50}, {63, 64}, {64, 64}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (int d = 0; d < DIST_COUNT; ++d)
      for (int desc = 0; desc < 2; ++desc) {
        for (int r = 0; r < 6; ++r) {
          host_case<uint32_t>(sizes[s], d, ranges32[r][0], ranges32[r][1], desc != 0, rng);
          CHECK_OK_SO_FAR();
          host_case<uint64_t>(sizes[s], d, ranges64[r][0], ranges64[r][1], desc != 0, rng);
          CHECK_OK_SO_FAR();
        }
      }
}

TEST(radix_sort, host_reference_bad_bits) {
  uint32_t k[2] = {2, 1}, o[2] = {7, 7};
  CHECK_EQ(gprim_host_radix_sort_keys(k, o, 2, 5, 4, false), -1);
  CHECK_EQ(gprim_host_radix_sort_keys(k, o, 2, -1, 4, false), -1);
  CHECK_EQ(gprim_host_radix_sort_keys(k, o, 2, 0, 33, false), -1);
  CHECK(o[0] == 7 && o[1] == 7);
  /* the doc comment's examples */
  uint32_t a[5] = {3, 1, 4, 1, 5}, want_a[5] = {1, 1, 3, 4, 5};
  CHECK_EQ(gprim_host_radix_sort_keys(a, a, 5, 0, 32, false), 0);
  CHECK(memcmp(a, want_a, sizeof a) == 0);
  uint32_t b[3] = {0x21, 0x12, 0x31}, want_b[3] = {0x21, 0x31, 0x12};
  CHECK_EQ(gprim_host_radix_sort_keys(b, b, 3, 0, 4, false), 0);
  CHECK(memcmp(b, want_b, sizeof b) == 0);
  uint32_t c[4] = {3, 1, 4, 1}, cv[4] = {0, 1, 2, 3}, want_c[4] = {4, 3, 1, 1}, want_cv[4] = {2, 0, 1, 3};
  CHECK_EQ(gprim_host_radix_sort_pairs(c, c, cv, cv, 4, 0, 32, true), 0);
  CHECK(memcmp(c, want_c, sizeof c) == 0 && memcmp(cv, want_cv, sizeof cv) == 0);
}

/* ---- device ---- */

/* value i for input position i, in any 4- or 8-byte type */
template <typename V> static V radix_val(size_t i) { return (V)i; }

/* On a mismatch, say where and how much (the device run is all we get). */
template <typename T>
static void radix_explain(const char *what, const std::vector<T> &want, const std::vector<T> &got, size_t n, int begin,
                          int end, bool desc, bool pairs, bool in_place) {
  size_t bad = 0, first = n;
  for (size_t i = 0; i < n; ++i)
    if (memcmp(&want[i], &got[i], sizeof(T)) != 0) {
      if (first == n) first = i;
      ++bad;
    }
  if (!bad) return;
  unsigned long long w = 0, g = 0;
  memcpy(&w, &want[first], sizeof(T));
  memcpy(&g, &got[first], sizeof(T));
  fprintf(stderr, "    %s: %zu of %zu differ, first at %zu (want 0x%llx, got 0x%llx); bits [%d, %d) %s%s%s, %zu-byte keys\n",
          what, bad, n, first, w, g, begin, end, desc ? "desc" : "asc", pairs ? " pairs" : "", in_place ? " in place" : "",
          sizeof(T));
}

/* One sort on the device (pairs when `pairs`), compared exactly with the
   host reference; the input must come back unchanged unless in place. */
template <typename K, typename V>
static void device_case(size_t n, int dist, int begin, int end, bool desc, bool pairs, bool in_place, test_rng &rng) {
  std::vector<K> keys(n), want_k(n), got_k, after_k;
  test_fill_keys(keys, dist, rng);
  std::vector<V> vals(n), want_v(n), got_v, after_v;
  for (size_t i = 0; i < n; ++i) vals[i] = radix_val<V>(i);
  if (pairs) CHECK_EQ(gprim_host_radix_sort_pairs(keys.data(), want_k.data(), vals.data(), want_v.data(), n, begin, end, desc), 0);
  else CHECK_EQ(gprim_host_radix_sort_keys(keys.data(), want_k.data(), n, begin, end, desc), 0);

  dbuf<K> d_kin(n), d_kout(in_place ? 0 : n);
  dbuf<V> d_vin(pairs ? n : 0), d_vout(pairs && !in_place ? n : 0);
  CHECK(d_kin.ok() && d_kout.ok() && d_vin.ok() && d_vout.ok());
  CUDA_CHECK(d_kin.upload(keys));
  if (pairs) CUDA_CHECK(d_vin.upload(vals));
  K *kout = in_place ? d_kin.p : d_kout.p;
  V *vout = in_place ? d_vin.p : d_vout.p;
  size_t bytes = 0;
  if (pairs) CUDA_CHECK((gprim_radix_sort_pairs<K, V>(NULL, &bytes, d_kin.p, kout, d_vin.p, vout, n, begin, end, desc, 0)));
  else CUDA_CHECK(gprim_radix_sort_keys<K>(NULL, &bytes, d_kin.p, kout, n, begin, end, desc, 0));
  CHECK(bytes > 0);
  dbuf<char> temp(bytes);
  CHECK(temp.ok());
  if (pairs) CUDA_CHECK((gprim_radix_sort_pairs<K, V>(temp.p, &bytes, d_kin.p, kout, d_vin.p, vout, n, begin, end, desc, 0)));
  else CUDA_CHECK(gprim_radix_sort_keys<K>(temp.p, &bytes, d_kin.p, kout, n, begin, end, desc, 0));
  CUDA_CHECK(cudaDeviceSynchronize());

  got_k.resize(n);
  if (n) CUDA_CHECK(cudaMemcpy(got_k.data(), kout, n * sizeof(K), cudaMemcpyDeviceToHost));
  radix_explain("keys", want_k, got_k, n, begin, end, desc, pairs, in_place);
  CHECK_ARRAYS(want_k.data(), got_k.data(), n, "keys");
  if (pairs) {
    got_v.resize(n);
    if (n) CUDA_CHECK(cudaMemcpy(got_v.data(), vout, n * sizeof(V), cudaMemcpyDeviceToHost));
    radix_explain("values", want_v, got_v, n, begin, end, desc, pairs, in_place);
    CHECK_ARRAYS(want_v.data(), got_v.data(), n, "values");
  }
  if (!in_place) {
    CUDA_CHECK(d_kin.download(after_k));
    CHECK_ARRAYS(keys.data(), after_k.data(), n, "input keys after the sort");
    if (pairs) {
      CUDA_CHECK(d_vin.download(after_v));
      CHECK_ARRAYS(vals.data(), after_v.data(), n, "input values after the sort");
    }
  }
}

/* every size up to 2^20 (or the cap), every distribution, both directions */
template <typename K, typename V>
static void device_matrix(const char *salt, bool pairs) {
  test_rng rng = test_rng_for(salt);
  std::vector<size_t> sizes = test_sizes(pairs ? primt_radix_tile<K, V, true>() : primt_radix_tile<K, V, false>(), rng);
  for (size_t s = 0; s < sizes.size(); ++s) {
    if (sizes[s] > ((size_t)1 << 20)) continue;
    for (int d = 0; d < DIST_COUNT; ++d)
      for (int desc = 0; desc < 2; ++desc) {
        device_case<K, V>(sizes[s], d, 0, 8 * sizeof(K), desc != 0, pairs, false, rng);
        if (g_test.failed) {
          fprintf(stderr, "    n = %zu, %s, %s\n", sizes[s], test_dist_name(d), desc ? "descending" : "ascending");
          return;
        }
      }
  }
}

GPU_TEST(radix_sort, keys_u32) { device_matrix<uint32_t, uint32_t>("radix_sort.keys_u32", false); }
GPU_TEST(radix_sort, keys_u64) { device_matrix<uint64_t, uint32_t>("radix_sort.keys_u64", false); }
GPU_TEST(radix_sort, pairs_u32_u32) { device_matrix<uint32_t, uint32_t>("radix_sort.pairs_u32_u32", true); }
GPU_TEST(radix_sort, pairs_u64_u32) { device_matrix<uint64_t, uint32_t>("radix_sort.pairs_u64_u32", true); }
GPU_TEST(radix_sort, pairs_u32_u64) { device_matrix<uint32_t, uint64_t>("radix_sort.pairs_u32_u64", true); }

/* other value types: moved as bits, any 4- or 8-byte type */
GPU_TEST(radix_sort, pairs_value_types) {
  test_rng rng = test_rng_for("radix_sort.value_types");
  const size_t tile8 = primt_radix_tile<uint64_t, uint64_t, true>();
  const size_t sizes[] = {1, 1000, tile8 + 1, 3 * tile8 + 7, 100003};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (int d = 0; d < DIST_COUNT && sizes[s] <= test_max_size(); d += 4) { /* uniform, few distinct */
      device_case<uint64_t, uint64_t>(sizes[s], d, 0, 64, s % 2 == 0, true, false, rng);
      CHECK_OK_SO_FAR();
      device_case<uint32_t, float>(sizes[s], d, 0, 32, s % 2 == 1, true, false, rng);
      CHECK_OK_SO_FAR();
      device_case<uint64_t, int32_t>(sizes[s], d, 0, 64, s % 2 == 0, true, false, rng);
      CHECK_OK_SO_FAR();
      device_case<uint32_t, double>(sizes[s], d, 0, 32, false, true, false, rng);
      CHECK_OK_SO_FAR();
    }
}

/* partial bit ranges: many equal sort keys, so stability is exercised hard */
GPU_TEST(radix_sort, partial_bits) {
  test_rng rng = test_rng_for("radix_sort.partial_bits");
  const int r32[][2] = {{0, 12}, {7, 32}, {0, 1}, {31, 32}, {3, 19}, {5, 5}, {0, 24}, {8, 16}};
  const int r64[][2] = {{32, 64}, {0, 40}, {13, 50}, {63, 64}, {20, 20}, {0, 32}, {4, 60}, {0, 8}};
  const size_t tile = primt_radix_tile<uint32_t, uint32_t, true>();
  const size_t big = (size_t)1 << (g_test.max_log2 < 20 ? g_test.max_log2 : 20);
  const size_t sizes[] = {1, 1000, tile + 1, 3 * tile + 7, 1 + (size_t)rng.below(big)};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (int r = 0; r < 8; ++r)
      for (int desc = 0; desc < 2; ++desc) {
        int d = (r + desc) % 2 ? DIST_FEW_DISTINCT : DIST_UNIFORM;
        device_case<uint32_t, uint32_t>(sizes[s], d, r32[r][0], r32[r][1], desc != 0, true, false, rng);
        CHECK_OK_SO_FAR();
        device_case<uint32_t, uint32_t>(sizes[s], d, r32[r][0], r32[r][1], desc != 0, false, false, rng);
        CHECK_OK_SO_FAR();
        device_case<uint64_t, uint32_t>(sizes[s], d, r64[r][0], r64[r][1], desc != 0, true, false, rng);
        CHECK_OK_SO_FAR();
        device_case<uint64_t, uint64_t>(sizes[s], d, r64[r][0], r64[r][1], desc != 0, false, false, rng);
        CHECK_OK_SO_FAR();
      }
}

/* in place: even pass counts (ping-pong ends in place) and odd ones (copy first) */
GPU_TEST(radix_sort, in_place) {
  test_rng rng = test_rng_for("radix_sort.in_place");
  const size_t tile = primt_radix_tile<uint32_t, uint32_t, false>();
  const size_t sizes[] = {1, 33, tile, 2 * tile + 5, 300001};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (int desc = 0; desc < 2; ++desc) {
      device_case<uint32_t, uint32_t>(sizes[s], DIST_UNIFORM, 0, 32, desc != 0, false, true, rng); /* 4 passes */
      CHECK_OK_SO_FAR();
      device_case<uint32_t, uint32_t>(sizes[s], DIST_UNIFORM, 0, 24, desc != 0, false, true, rng); /* 3 passes */
      CHECK_OK_SO_FAR();
      device_case<uint32_t, uint32_t>(sizes[s], DIST_FEW_DISTINCT, 0, 32, desc != 0, true, true, rng);
      CHECK_OK_SO_FAR();
      device_case<uint32_t, uint32_t>(sizes[s], DIST_UNIFORM, 4, 24, desc != 0, true, true, rng); /* 3 passes */
      CHECK_OK_SO_FAR();
      device_case<uint64_t, uint32_t>(sizes[s], DIST_UNIFORM, 0, 40, desc != 0, true, true, rng); /* 5 passes */
      CHECK_OK_SO_FAR();
      device_case<uint64_t, uint64_t>(sizes[s], DIST_UNIFORM, 0, 64, desc != 0, true, true, rng);
      CHECK_OK_SO_FAR();
      device_case<uint64_t, uint64_t>(sizes[s], DIST_REVERSE, 16, 16, desc != 0, true, true, rng); /* no bits */
      CHECK_OK_SO_FAR();
    }
}

/* above 2^20: a few combinations only (the host reference is the slow part) */
GPU_TEST(radix_sort, large) {
  test_rng rng = test_rng_for("radix_sort.large");
  std::vector<size_t> sizes = test_sizes(primt_radix_tile<uint32_t, uint32_t, false>(), rng), big;
  for (size_t s = 0; s < sizes.size(); ++s)
    if (sizes[s] > ((size_t)1 << 20)) big.push_back(sizes[s]);
  if (big.empty()) big.push_back(test_max_size());
  size_t top = big.back(), some = big[(size_t)rng.below(big.size())];
  size_t mid = std::min(top, ((size_t)1 << 24) - 1);
  device_case<uint32_t, uint32_t>(top, DIST_UNIFORM, 0, 32, false, false, false, rng);
  CHECK_OK_SO_FAR();
  device_case<uint32_t, uint32_t>(some, DIST_FEW_DISTINCT, 7, 32, true, true, false, rng);
  CHECK_OK_SO_FAR();
  device_case<uint64_t, uint32_t>(mid, DIST_UNIFORM, 0, 64, true, true, false, rng);
  CHECK_OK_SO_FAR();
  device_case<uint64_t, uint64_t>(mid, DIST_SORTED, 0, 64, false, false, true, rng);
  CHECK_OK_SO_FAR();
}

/* bad arguments: cudaErrorInvalidValue, nothing written */
GPU_TEST(radix_sort, bad_arguments) {
  const size_t n = 5000;
  std::vector<uint32_t> keys(n);
  test_rng rng = test_rng_for("radix_sort.bad");
  test_fill_keys(keys, DIST_UNIFORM, rng);
  dbuf<uint32_t> kin(n), kout(n), vin(n), vout(n);
  CUDA_CHECK(kin.upload(keys));
  CUDA_CHECK(vin.upload(keys));
  size_t bytes = 0;
  CUDA_CHECK((gprim_radix_sort_pairs<uint32_t, uint32_t>(NULL, &bytes, kin.p, kout.p, vin.p, vout.p, n, 0, 32, false, 0)));
  dbuf<char> temp(bytes);
  const cudaError_t bad = cudaErrorInvalidValue;
  CHECK(gprim_radix_sort_keys<uint32_t>(NULL, NULL, kin.p, kout.p, n, 0, 32, false, 0) == bad);
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, NULL, kin.p, kout.p, n, 0, 32, false, 0) == bad);
  size_t small = bytes - 1;
  CHECK((gprim_radix_sort_pairs<uint32_t, uint32_t>(temp.p, &small, kin.p, kout.p, vin.p, vout.p, n, 0, 32, false, 0) == bad));
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, NULL, kout.p, n, 0, 32, false, 0) == bad);
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, NULL, n, 0, 32, false, 0) == bad);
  CHECK((gprim_radix_sort_pairs<uint32_t, uint32_t>(temp.p, &bytes, kin.p, kout.p, NULL, vout.p, n, 0, 32, false, 0) == bad));
  CHECK((gprim_radix_sort_pairs<uint32_t, uint32_t>(temp.p, &bytes, kin.p, kout.p, vin.p, NULL, n, 0, 32, false, 0) == bad));
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, kout.p, n, 5, 4, false, 0) == bad);
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, kout.p, n, -1, 8, false, 0) == bad);
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, kout.p, n, 0, 33, false, 0) == bad);
  CHECK(gprim_radix_sort_keys<uint64_t>(temp.p, &bytes, (const uint64_t *)kin.p, (uint64_t *)kout.p, n / 2, 0, 65, false, 0) == bad);
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, kout.p, (size_t)1 << 31, 0, 32, false, 0) == bad);
  /* n == 0: valid, nothing launched, nothing written */
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, kout.p, 0, 0, 32, false, 0) == cudaSuccess);
  CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, NULL, NULL, 0, 0, 32, false, 0) == cudaSuccess);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> out, vals_out, poison(n, 0xA5A5A5A5u);
  CUDA_CHECK(kout.download(out));
  CUDA_CHECK(vout.download(vals_out));
  CHECK_ARRAYS(poison.data(), out.data(), n, "keys_out after bad calls");
  CHECK_ARRAYS(poison.data(), vals_out.data(), n, "vals_out after bad calls");
  /* the same buffers then sort correctly (the calls above left nothing behind) */
  CUDA_CHECK(gprim_radix_sort_keys<uint32_t>(temp.p, &bytes, kin.p, kout.p, n, 0, 32, false, 0));
  CUDA_CHECK(kout.download(out));
  std::vector<uint32_t> want = keys;
  std::sort(want.begin(), want.end());
  CHECK_ARRAYS(want.data(), out.data(), n, "keys after the bad calls");
}
