/* test_segmented_sort.cu - segmented sort: host reference vs std::stable_sort,
   device vs host reference (exact, keys and values = original index, so
   stability is checked), an O(n) exact check of stable sortedness for sizes
   where the host sort is too slow, in place, bad arguments. */
#include "../gpuprim.cuh"
#include "internal_prim.h"
#include "prim_reference.h"
#include "testing.h"

/* ---- segment mixes ---- */
enum {
  SS_MIX_ONE,      /* one segment of n */
  SS_MIX_TINY,     /* lengths 0 .. 8 */
  SS_MIX_RANDOM,   /* lengths 0 .. 299: small and medium */
  SS_MIX_BENCH_A,  /* 1 .. 64, one in 256 of 512 (the benchmark's mix) */
  SS_MIX_EQUAL64,  /* 64 equal segments */
  SS_MIX_BOUNDARY, /* lengths at each bin / tile boundary +- 1 */
  SS_MIX_EMPTIES,  /* 40% empty, others 1 .. 1999, empty ones at both ends */
  SS_MIX_POWER,    /* 2^k .. 2^(k+1) for k in 0 .. 16: all bins */
  SS_MIX_COUNT
};
static const char *ss_mix_name(int m) {
  static const char *names[] = {"one", "tiny", "random", "bench-a", "equal64", "boundary", "empties", "power"};
  return names[m];
}

/* CSR offsets (num_segments + 1 entries, from 0 to n) of a mix */
static std::vector<size_t> ss_offsets(int mix, size_t n, test_rng &rng) {
  static const size_t boundary[] = {0,    1,    2,    31,   32,   33,   127,  128,  129,  511,  512,  513,
                                    1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193, 12287, 12289};
  std::vector<size_t> len;
  size_t left = n;
  if (mix == SS_MIX_EMPTIES) len.insert(len.end(), 3, 0);
  if (mix == SS_MIX_ONE) {
    len.push_back(n);
    left = 0;
  } else if (mix == SS_MIX_EQUAL64) {
    for (size_t i = 0; i < 64; ++i) len.push_back(n / 64 + (i < n % 64 ? 1 : 0));
    left = 0;
  }
  while (left > 0) {
    size_t l = 0;
    switch (mix) {
      case SS_MIX_TINY: l = rng.below(9); break;
      case SS_MIX_RANDOM: l = rng.below(300); break;
      case SS_MIX_BENCH_A: l = rng.below(256) == 0 ? 512 : 1 + rng.below(64); break;
      case SS_MIX_BOUNDARY: l = boundary[rng.below(sizeof boundary / sizeof boundary[0])]; break;
      case SS_MIX_EMPTIES: l = rng.below(10) < 4 ? 0 : 1 + rng.below(1999); break;
      default: { size_t b = (size_t)1 << rng.below(17); l = b + rng.below(b); } break;
    }
    l = std::min(l, left);
    len.push_back(l);
    left -= l;
  }
  if (mix == SS_MIX_EMPTIES) len.insert(len.end(), 3, 0);
  std::vector<size_t> off(1, 0);
  for (size_t i = 0; i < len.size(); ++i) off.push_back(off.back() + len[i]);
  return off;
}

/* O(n) exact check that (keys_out, vals_out) is the stable sort of each
   segment of keys_in, when the values in were the original indices: the
   values of a segment are a permutation of its indices, each key is the key
   at that index, and consecutive items are in (key, index) order. */
template <typename K, typename V, typename O>
static bool ss_verify(const std::vector<K> &keys_in, const std::vector<O> &off, const std::vector<K> &keys_out,
                      const std::vector<V> &vals_out, std::string *why) {
  std::vector<uint8_t> seen(keys_in.size(), 0);
  char buf[160];
  for (size_t s = 0; s + 1 < off.size(); ++s) {
    size_t b = (size_t)off[s], e = (size_t)off[s + 1];
    for (size_t i = b; i < e; ++i) {
      size_t src = (size_t)vals_out[i];
      const char *bad = NULL;
      if (src < b || src >= e || (double)src != (double)vals_out[i]) bad = "value is not an index of the segment";
      else if (seen[src]) bad = "index appears twice";
      else if (keys_out[i] != keys_in[src]) bad = "key does not match its value's input key";
      else if (i > b && (keys_out[i] < keys_out[i - 1] ||
                         (keys_out[i] == keys_out[i - 1] && src < (size_t)vals_out[i - 1])))
        bad = "not in (key, input index) order";
      if (bad) {
        snprintf(buf, sizeof buf, "segment %zu [%zu, %zu), item %zu: %s", s, b, e, i, bad);
        *why = buf;
        return false;
      }
      seen[src] = 1;
    }
  }
  return true;
}

/* per-segment std::stable_sort: the ground truth for the host reference */
template <typename K, typename O>
static void ss_std_pairs(std::vector<K> &keys, std::vector<uint32_t> &vals, const std::vector<O> &off) {
  for (size_t s = 0; s + 1 < off.size(); ++s) {
    std::vector<std::pair<K, uint32_t> > p;
    for (size_t i = (size_t)off[s]; i < (size_t)off[s + 1]; ++i) p.push_back(std::make_pair(keys[i], vals[i]));
    std::stable_sort(p.begin(), p.end(),
                     [](const std::pair<K, uint32_t> &a, const std::pair<K, uint32_t> &b) { return a.first < b.first; });
    for (size_t i = 0; i < p.size(); ++i) {
      keys[(size_t)off[s] + i] = p[i].first;
      vals[(size_t)off[s] + i] = p[i].second;
    }
  }
}

/* ---- host tests ---- */

template <typename K, typename O>
static void ss_host_case(int mix, int dist, size_t n, test_rng &rng) {
  std::vector<size_t> o = ss_offsets(mix, n, rng);
  std::vector<O> off(o.begin(), o.end());
  size_t nseg = off.size() - 1;
  std::vector<K> keys(n);
  test_fill_keys(keys, dist, rng);
  std::vector<uint32_t> idx(n);
  for (size_t i = 0; i < n; ++i) idx[i] = (uint32_t)i;
  std::vector<K> want_k = keys, got_k(n), got_pk(n);
  std::vector<uint32_t> want_v = idx, got_v(n);
  ss_std_pairs(want_k, want_v, off);
  CHECK_EQ(gprim_host_segmented_sort_keys(keys.data(), got_k.data(), n, nseg, off.data()), 0);
  CHECK_EQ(gprim_host_segmented_sort_pairs(keys.data(), got_pk.data(), idx.data(), got_v.data(), n, nseg, off.data()), 0);
  CHECK_MSG(test_arrays_equal(want_k.data(), got_k.data(), n, "keys"), "host keys differ: mix %s, %s, n %zu",
            ss_mix_name(mix), test_dist_name(dist), n);
  CHECK_MSG(test_arrays_equal(want_k.data(), got_pk.data(), n, "pair keys"), "host pair keys differ: mix %s, n %zu",
            ss_mix_name(mix), n);
  CHECK_MSG(test_arrays_equal(want_v.data(), got_v.data(), n, "pair values"), "host values differ: mix %s, %s, n %zu",
            ss_mix_name(mix), test_dist_name(dist), n);
  std::string why;
  CHECK_MSG(ss_verify(keys, off, got_pk, got_v, &why), "verifier rejects the reference: %s", why.c_str());
  /* in place */
  std::vector<K> ip_k = keys;
  std::vector<uint32_t> ip_v = idx;
  CHECK_EQ(gprim_host_segmented_sort_pairs(ip_k.data(), ip_k.data(), ip_v.data(), ip_v.data(), n, nseg, off.data()), 0);
  CHECK_ARRAYS(want_k.data(), ip_k.data(), n, "in-place keys");
  CHECK_ARRAYS(want_v.data(), ip_v.data(), n, "in-place values");
}

TEST(segmented_sort, host_reference_matches_std_stable_sort) {
  test_rng rng = test_rng_for("segmented_sort.host_reference");
  const size_t sizes[] = {0, 1, 2, 33, 1000, 20011};
  for (int mix = 0; mix < SS_MIX_COUNT; ++mix)
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si)
      for (int dist = 0; dist < DIST_COUNT; ++dist) {
        ss_host_case<uint32_t, uint32_t>(mix, dist, sizes[si], rng);
        CHECK_OK_SO_FAR();
        ss_host_case<uint64_t, uint64_t>(mix, dist, sizes[si], rng);
        CHECK_OK_SO_FAR();
      }
}

TEST(segmented_sort, host_reference_rejects_bad_offsets) {
  uint32_t k[4] = {4, 3, 2, 1}, out[4];
  const uint32_t bad_end[3] = {0, 2, 3}, bad_start[3] = {1, 2, 4}, decreasing[3] = {0, 3, 2};
  CHECK_EQ(gprim_host_segmented_sort_keys(k, out, 4, 2, bad_end), -1);
  CHECK_EQ(gprim_host_segmented_sort_keys(k, out, 4, 2, bad_start), -1);
  CHECK_EQ(gprim_host_segmented_sort_keys(k, out, 4, 2, decreasing), -1);
  const uint32_t good[3] = {0, 1, 4};
  CHECK_EQ(gprim_host_segmented_sort_keys(k, out, 4, 2, good), 0);
  CHECK(out[0] == 4 && out[1] == 1 && out[2] == 2 && out[3] == 3);
}

TEST(segmented_sort, doc_example) {
  const uint32_t off[4] = {0, 3, 3, 5}, keys[5] = {5, 1, 5, 9, 2}, vals[5] = {0, 1, 2, 3, 4};
  uint32_t k[5], v[5];
  CHECK_EQ(gprim_host_segmented_sort_pairs(keys, k, vals, v, 5, 3, off), 0);
  const uint32_t wk[5] = {1, 5, 5, 2, 9}, wv[5] = {1, 0, 2, 4, 3};
  CHECK_ARRAYS(wk, k, 5, "keys");
  CHECK_ARRAYS(wv, v, 5, "values");
}

/* the O(n) check must catch a swap of two equal keys, a wrong key, a repeat */
TEST(segmented_sort, verifier_catches_errors) {
  const std::vector<uint32_t> off = {0, 4, 6};
  const std::vector<uint32_t> keys = {7, 3, 7, 1, 9, 2};
  std::vector<uint32_t> k = {1, 3, 7, 7, 2, 9}, v = {3, 1, 0, 2, 5, 4};
  std::string why;
  CHECK(ss_verify(keys, off, k, v, &why));
  std::vector<uint32_t> v2 = v;
  std::swap(v2[2], v2[3]); /* equal keys out of input order */
  CHECK(!ss_verify(keys, off, k, v2, &why));
  std::vector<uint32_t> k2 = k;
  k2[1] = 4; /* not the input key */
  CHECK(!ss_verify(keys, off, k2, v, &why));
  std::vector<uint32_t> v3 = v;
  v3[1] = 3; /* index twice */
  CHECK(!ss_verify(keys, off, k, v3, &why));
  std::vector<uint32_t> v4 = v;
  v4[4] = 0; /* index of another segment */
  CHECK(!ss_verify(keys, off, k, v4, &why));
}

/* ---- device tests ---- */
#if defined(__CUDACC__)

static uint32_t *const ss_null = NULL; /* a typed NULL, so template arguments are deduced */

template <typename K, typename V, typename O, bool PAIRS>
static cudaError_t ss_call(void *temp, size_t *bytes, const K *kin, K *kout, const V *vin, V *vout, size_t n,
                           size_t nseg, const O *off) {
  if (PAIRS) return gprim_segmented_sort_pairs<K, V, O>(temp, bytes, kin, kout, vin, vout, n, nseg, off, 0);
  return gprim_segmented_sort_keys<K, O>(temp, bytes, kin, kout, n, nseg, off, 0);
}

/* One device run: fresh keys of distribution dist, values = original index.
   with_ref: compare exactly with the host reference; pairs are also checked
   by the O(n) verifier (the only check when with_ref is false). */
template <typename K, typename V, typename O, bool PAIRS>
static void ss_device_case(const char *type, int mix, int dist, size_t n, test_rng &rng, bool in_place,
                           bool with_ref) {
  std::vector<size_t> o = ss_offsets(mix, n, rng);
  std::vector<O> off(o.begin(), o.end());
  const size_t nseg = off.size() - 1;
  std::vector<K> keys(n);
  test_fill_keys(keys, dist, rng);
  std::vector<V> vals(PAIRS ? n : 0);
  for (size_t i = 0; i < vals.size(); ++i) vals[i] = (V)i;
  char what[200];
  snprintf(what, sizeof what, "%s, mix %s, %s, n %zu, %zu segments%s", type, ss_mix_name(mix), test_dist_name(dist), n,
           nseg, in_place ? ", in place" : "");

  dbuf<K> d_kin(n), d_kout(in_place ? 0 : n);
  dbuf<V> d_vin(PAIRS ? n : 0), d_vout(PAIRS && !in_place ? n : 0);
  dbuf<O> d_off(off.size());
  CHECK_MSG(d_kin.ok() && d_kout.ok() && d_vin.ok() && d_vout.ok() && d_off.ok(), "allocation failed: %s", what);
  CUDA_CHECK(d_kin.upload(keys));
  CUDA_CHECK(d_vin.upload(vals));
  CUDA_CHECK(d_off.upload(off));
  K *kout = in_place ? d_kin.p : d_kout.p;
  V *vout = in_place ? d_vin.p : d_vout.p;
  size_t bytes = 0;
  CUDA_CHECK((ss_call<K, V, O, PAIRS>(NULL, &bytes, d_kin.p, kout, d_vin.p, vout, n, nseg, d_off.p)));
  dbuf<unsigned char> temp(bytes);
  CHECK_MSG(temp.ok(), "temp allocation of %zu bytes failed: %s", bytes, what);
  cudaError_t e = ss_call<K, V, O, PAIRS>(temp.p, &bytes, d_kin.p, kout, d_vin.p, vout, n, nseg, d_off.p);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  CHECK_MSG(e == cudaSuccess, "%s: %s", what, cudaGetErrorString(e));
  std::vector<K> got_k(n);
  std::vector<V> got_v(PAIRS ? n : 0);
  if (n) CUDA_CHECK(cudaMemcpy(got_k.data(), kout, n * sizeof(K), cudaMemcpyDeviceToHost));
  if (PAIRS && n) CUDA_CHECK(cudaMemcpy(got_v.data(), vout, n * sizeof(V), cudaMemcpyDeviceToHost));
  if (with_ref) {
    std::vector<K> want_k(n);
    std::vector<V> want_v(PAIRS ? n : 0);
    if (PAIRS) gprim_host_segmented_sort_pairs(keys.data(), want_k.data(), vals.data(), want_v.data(), n, nseg, off.data());
    else gprim_host_segmented_sort_keys(keys.data(), want_k.data(), n, nseg, off.data());
    CHECK_MSG(test_arrays_equal(want_k.data(), got_k.data(), n, "keys"), "keys differ: %s", what);
    if (PAIRS) CHECK_MSG(test_arrays_equal(want_v.data(), got_v.data(), n, "values"), "values differ: %s", what);
  }
  if (PAIRS) {
    std::string why;
    CHECK_MSG(ss_verify(keys, off, got_k, got_v, &why), "%s: %s", what, why.c_str());
  }
}

/* every mix at the standard sizes up to 2^20 (distribution cycling), then
   every distribution x mix at one mid size */
template <typename K, typename V, typename O, bool PAIRS>
static void ss_matrix(const char *type) {
  test_rng rng = test_rng_for(type);
  std::vector<size_t> sizes = test_sizes(primt_segsort_tile(), rng), use;
  const size_t cap = std::min((size_t)1 << 20, test_max_size());
  for (size_t i = 0; i < sizes.size(); ++i)
    if (sizes[i] <= cap) use.push_back(sizes[i]);
  use.push_back(1 + (size_t)rng.below(cap));
  int c = 0;
  for (int mix = 0; mix < SS_MIX_COUNT; ++mix)
    for (size_t i = 0; i < use.size(); ++i) {
      ss_device_case<K, V, O, PAIRS>(type, mix, c++ % DIST_COUNT, use[i], rng, false, true);
      CHECK_OK_SO_FAR();
    }
  const size_t mid = std::min((size_t)150001, cap);
  for (int dist = 0; dist < DIST_COUNT; ++dist)
    for (int mix = 0; mix < SS_MIX_COUNT; ++mix) {
      ss_device_case<K, V, O, PAIRS>(type, mix, dist, mid, rng, false, true);
      CHECK_OK_SO_FAR();
    }
}

GPU_TEST(segmented_sort, keys_u32) { ss_matrix<uint32_t, uint32_t, uint32_t, false>("keys u32, offsets u32"); }
GPU_TEST(segmented_sort, keys_u64) { ss_matrix<uint64_t, uint32_t, uint64_t, false>("keys u64, offsets u64"); }
GPU_TEST(segmented_sort, pairs_u32_u32) { ss_matrix<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32, offsets u32"); }
GPU_TEST(segmented_sort, pairs_u64_u64) { ss_matrix<uint64_t, uint64_t, uint32_t, true>("pairs u64/u64, offsets u32"); }
GPU_TEST(segmented_sort, pairs_u32_f64) { ss_matrix<uint32_t, double, uint64_t, true>("pairs u32/double, offsets u64"); }
GPU_TEST(segmented_sort, pairs_u64_f32) { ss_matrix<uint64_t, float, uint64_t, true>("pairs u64/float, offsets u64"); }

/* one segment at every bin and tile boundary +- 1 */
GPU_TEST(segmented_sort, single_segment_boundaries) {
  test_rng rng = test_rng_for("segmented_sort.single_segment_boundaries");
  const size_t sizes[] = {0,    1,    2,    31,   32,   33,   63,   64,   65,   127,  128,   129,   255,
                          256,  257,  511,  512,  513,  1023, 1024, 1025, 2047, 2048, 2049,  4095,  4096,
                          4097, 8191, 8192, 8193, 12287, 12288, 12289, 16383, 16385, 65535, 65537, 262143, 262145};
  int c = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
    ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", SS_MIX_ONE, c++ % DIST_COUNT, sizes[i], rng,
                                                       false, true);
    CHECK_OK_SO_FAR();
    ss_device_case<uint64_t, uint32_t, uint64_t, false>("keys u64", SS_MIX_ONE, c++ % DIST_COUNT, sizes[i], rng,
                                                        false, true);
    CHECK_OK_SO_FAR();
  }
}

GPU_TEST(segmented_sort, in_place) {
  test_rng rng = test_rng_for("segmented_sort.in_place");
  const int mixes[] = {SS_MIX_BENCH_A, SS_MIX_BOUNDARY, SS_MIX_POWER, SS_MIX_ONE, SS_MIX_EMPTIES};
  for (size_t m = 0; m < sizeof mixes / sizeof mixes[0]; ++m) {
    const size_t n = 200003;
    ss_device_case<uint32_t, uint32_t, uint32_t, false>("keys u32", mixes[m], DIST_UNIFORM, n, rng, true, true);
    CHECK_OK_SO_FAR();
    ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", mixes[m], DIST_FEW_DISTINCT, n, rng, true, true);
    CHECK_OK_SO_FAR();
    ss_device_case<uint64_t, uint64_t, uint32_t, true>("pairs u64/u64", mixes[m], DIST_UNIFORM, n, rng, true, true);
    CHECK_OK_SO_FAR();
  }
}

/* the largest sizes: a few combinations, checked by the O(n) verifier or
   against the host reference where that stays fast */
GPU_TEST(segmented_sort, large_sizes) {
  test_rng rng = test_rng_for("segmented_sort.large_sizes");
  const size_t top = test_max_size(), mid = std::min(top, (size_t)1 << 24);
  if (top <= ((size_t)1 << 20)) {
    g_test.skipped = 1; /* covered by the matrix tests at this --max-log2 */
    return;
  }
  ss_device_case<uint32_t, uint32_t, uint32_t, false>("keys u32", SS_MIX_POWER, DIST_UNIFORM, mid + 3, rng, false, true);
  CHECK_OK_SO_FAR();
  ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", SS_MIX_ONE, DIST_FEW_DISTINCT, mid + 1, rng, false,
                                                     false);
  CHECK_OK_SO_FAR();
  ss_device_case<uint64_t, uint64_t, uint64_t, true>("pairs u64/u64", SS_MIX_POWER, DIST_UNIFORM, mid - 1, rng, false,
                                                     false);
  CHECK_OK_SO_FAR();
  ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", SS_MIX_EQUAL64, DIST_UNIFORM, top, rng, false,
                                                     false);
  CHECK_OK_SO_FAR();
  ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", SS_MIX_BENCH_A, DIST_UNIFORM, top, rng, true,
                                                     false);
}

/* segments that are empty, all empty, none at all */
GPU_TEST(segmented_sort, empty_segments) {
  test_rng rng = test_rng_for("segmented_sort.empty_segments");
  std::vector<uint32_t> off(1001, 0); /* 1000 empty segments, n = 0 */
  dbuf<uint32_t> d_off(off.size()), d_k(1);
  CUDA_CHECK(d_off.upload(off));
  size_t bytes = 0;
  CUDA_CHECK(gprim_segmented_sort_keys(NULL, &bytes, d_k.p, d_k.p, 0, 1000, d_off.p, 0));
  dbuf<unsigned char> temp(bytes);
  CUDA_CHECK(gprim_segmented_sort_keys(temp.p, &bytes, d_k.p, d_k.p, 0, 1000, d_off.p, 0));
  CUDA_CHECK(gprim_segmented_sort_keys(temp.p, &bytes, ss_null, ss_null, 0, 1000, d_off.p, 0));
  CUDA_CHECK(gprim_segmented_sort_keys(temp.p, &bytes, ss_null, ss_null, 0, 0, (const uint32_t *)NULL, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int dist = 0; dist < DIST_COUNT; ++dist) {
    ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", SS_MIX_EMPTIES, dist, 50000, rng, false, true);
    CHECK_OK_SO_FAR();
    ss_device_case<uint32_t, uint32_t, uint32_t, true>("pairs u32/u32", SS_MIX_TINY, dist, 3000, rng, false, true);
    CHECK_OK_SO_FAR();
  }
}

/* bad arguments: cudaErrorInvalidValue, output untouched (still poisoned) */
GPU_TEST(segmented_sort, bad_arguments) {
  const size_t n = 10000, nseg = 3;
  const std::vector<uint32_t> off = {0, 100, 5000, (uint32_t)n};
  dbuf<uint32_t> d_k(n), d_out(n), d_v(n), d_vout(n), d_off(off.size());
  CUDA_CHECK(d_off.upload(off));
  std::vector<uint32_t> poison(n), now;
  CUDA_CHECK(d_out.download(poison));
  size_t bytes = 0;
  CHECK(gprim_segmented_sort_keys(NULL, NULL, d_k.p, d_out.p, n, nseg, d_off.p, 0) ==
        cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_keys(NULL, &bytes, d_k.p, d_out.p, (size_t)1 << 32, nseg, d_off.p, 0) ==
        cudaErrorInvalidValue);
  CUDA_CHECK(gprim_segmented_sort_pairs(NULL, &bytes, d_k.p, d_out.p, d_v.p, d_vout.p, n,
                                                                      nseg, d_off.p, 0));
  dbuf<unsigned char> temp(bytes);
  size_t small = bytes - 1, ok = bytes;
  CHECK(gprim_segmented_sort_pairs(temp.p, &small, d_k.p, d_out.p, d_v.p, d_vout.p, n, nseg,
                                                                 d_off.p, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_pairs(temp.p, NULL, d_k.p, d_out.p, d_v.p, d_vout.p, n, nseg,
                                                                 d_off.p, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_pairs(temp.p, &ok, ss_null, d_out.p, d_v.p, d_vout.p, n, nseg,
                                                                 d_off.p, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_pairs(temp.p, &ok, d_k.p, ss_null, d_v.p, d_vout.p, n, nseg,
                                                                 d_off.p, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_pairs(temp.p, &ok, d_k.p, d_out.p, ss_null, d_vout.p, n, nseg,
                                                                 d_off.p, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_pairs(temp.p, &ok, d_k.p, d_out.p, d_v.p, ss_null, n, nseg,
                                                                 d_off.p, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_pairs(temp.p, &ok, d_k.p, d_out.p, d_v.p, d_vout.p, n, nseg,
                                                                 (const uint32_t *)NULL, 0) == cudaErrorInvalidValue);
  CHECK(gprim_segmented_sort_keys(temp.p, &ok, d_k.p, ss_null, n, nseg, d_off.p, 0) ==
        cudaErrorInvalidValue);
  /* no segments: nothing exists, nothing written */
  CUDA_CHECK(gprim_segmented_sort_keys(temp.p, &ok, d_k.p, d_out.p, n, 0, d_off.p, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(d_out.download(now));
  CHECK_ARRAYS(poison.data(), now.data(), n, "output after rejected calls");
  CUDA_CHECK(d_vout.download(now));
  CHECK_ARRAYS(poison.data(), now.data(), n, "values after rejected calls");
}

/* offsets beyond n or decreasing: those segments are skipped, no fault
   (the remaining valid segment does not overlap them) */
GPU_TEST(segmented_sort, bad_offsets_are_skipped) {
  const size_t n = 9000;
  const std::vector<uint32_t> off = {0, 300, 250, 250, 100000}; /* [300, 250), [250, 250), [250, 100000) */
  std::vector<uint32_t> keys(n);
  test_rng rng = test_rng_for("segmented_sort.bad_offsets");
  test_fill_keys(keys, DIST_UNIFORM, rng);
  dbuf<uint32_t> d_k(n), d_out(n), d_off(off.size());
  CUDA_CHECK(d_k.upload(keys));
  CUDA_CHECK(d_off.upload(off));
  size_t bytes = 0;
  CUDA_CHECK(gprim_segmented_sort_keys(NULL, &bytes, d_k.p, d_out.p, n, 4, d_off.p, 0));
  dbuf<unsigned char> temp(bytes);
  CUDA_CHECK(gprim_segmented_sort_keys(temp.p, &bytes, d_k.p, d_out.p, n, 4, d_off.p, 0));
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint32_t> got;
  CUDA_CHECK(d_out.download(got));
  std::vector<uint32_t> want(keys.begin(), keys.begin() + 300);
  std::stable_sort(want.begin(), want.end());
  CHECK_ARRAYS(want.data(), got.data(), 300, "the valid first segment");
}

#endif /* __CUDACC__ */
