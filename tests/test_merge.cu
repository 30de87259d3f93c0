/* test_merge.cu - the merge-path family (prim/merge.cuh): merge keys / pairs, sorted search,
   load-balancing search, segmented reduce and argmax.
   Host references against the standard library (TEST, no GPU needed); device results against
   the host references, compared exactly, outputs poisoned first (GPU_TEST). The matrix tests
   keep going after a mismatch and print the first few failing cases, then fail. */
#include <stdarg.h>

#include <numeric>
#include <string>

#include "../gpuprim.cuh"
#include "internal_prim.h"
#include "prim_reference.h"
#include "testing.h"

/* ---- reporting: the first few failures of a test, with their case ---- */
static int g_mt_reported;
static void mt_report(const char *fmt, ...) {
  if (g_mt_reported++ < 6) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "    ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
  }
  g_test.failed = 1;
}
static void mt_begin(void) { g_mt_reported = 0; }
/* Under the sanitizers (--max-log2 <= 16) the matrix tests run every 8th case. */
static unsigned g_mt_case;
static size_t mt_huge_cap(void) { return std::min(test_max_size(), (size_t)1 << 20); }
static bool mt_take(void) { return g_test.max_log2 > 16 || (g_mt_case++ % 8) == 0; }

#define MT_CUDA(call)                                                                                 \
  do {                                                                                                \
    cudaError_t mt__e = (call);                                                                       \
    if (mt__e != cudaSuccess) {                                                                       \
      mt_report("%s: %s -> %s", desc.c_str(), #call, cudaGetErrorString(mt__e));                      \
      return;                                                                                         \
    }                                                                                                 \
  } while (0)
#define MT_ALLOC(b)                                                                                   \
  do {                                                                                                \
    if (!(b).ok()) {                                                                                  \
      mt_report("%s: cudaMalloc of %s failed", desc.c_str(), #b);                                     \
      return;                                                                                         \
    }                                                                                                 \
  } while (0)

template <typename T>
static bool mt_same(const std::vector<T> &want, const std::vector<T> &got, const char *what, const std::string &desc) {
  if (want.size() != got.size()) {
    mt_report("%s: %s has %zu items, want %zu", desc.c_str(), what, got.size(), want.size());
    return false;
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (memcmp(&want[i], &got[i], sizeof(T)) != 0) {
      mt_report("%s: %s first mismatch at index %zu of %zu", desc.c_str(), what, i, want.size());
      return false;
    }
  }
  return true;
}

template <typename T> static const char *mt_name(void);
template <> const char *mt_name<uint32_t>(void) { return "u32"; }
template <> const char *mt_name<uint64_t>(void) { return "u64"; }
template <> const char *mt_name<int32_t>(void) { return "i32"; }
template <> const char *mt_name<int64_t>(void) { return "i64"; }
template <> const char *mt_name<float>(void) { return "f32"; }

static std::string mt_fmt(const char *fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

/* ---- data ---- */

/* A value tagging where a merged item came from: (source 0 = a / 1 = b, index in it). */
struct mt_tag {
  uint32_t src, idx;
};
template <typename V> static V mt_tag_val(uint32_t src, size_t idx);
template <> uint32_t mt_tag_val<uint32_t>(uint32_t src, size_t idx) { return (src << 31) | (uint32_t)idx; }
template <> uint64_t mt_tag_val<uint64_t>(uint32_t src, size_t idx) { return ((uint64_t)src << 32) | idx; }
template <> mt_tag mt_tag_val<mt_tag>(uint32_t src, size_t idx) {
  mt_tag t = {src, (uint32_t)idx};
  return t;
}
template <typename V> static const char *mt_vname(void) { return sizeof(V) == 4 ? "u32" : "tag64"; }

/* Two inputs drawn from one distribution (so all-equal and few-distinct values are shared by a
   and b, and sorted / reverse-sorted give disjoint ranges), each then sorted by less. */
template <typename K, typename Less>
static void mt_sorted_inputs(std::vector<K> &a, std::vector<K> &b, size_t na, size_t nb, int dist, test_rng &rng,
                             Less less) {
  std::vector<K> all(na + nb);
  test_fill_keys(all, dist, rng);
  a.assign(all.begin(), all.begin() + na);
  b.assign(all.begin() + na, all.end());
  std::sort(a.begin(), a.end(), less);
  std::sort(b.begin(), b.end(), less);
}

/* Sizes for two inputs: every size with 0, itself and a random partner, and 0 with it. */
static std::vector<std::pair<size_t, size_t> > mt_size_pairs(size_t tile, size_t cap, test_rng &rng) {
  std::vector<size_t> s, all = test_sizes(tile, rng);
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i] <= cap) s.push_back(all[i]);
  std::vector<std::pair<size_t, size_t> > v;
  for (size_t i = 0; i < s.size(); ++i) {
    v.push_back(std::make_pair(s[i], (size_t)0));
    v.push_back(std::make_pair((size_t)0, s[i]));
    v.push_back(std::make_pair(s[i], s[i]));
    v.push_back(std::make_pair(s[i], s[rng.below(s.size())]));
  }
  return v;
}

enum { PAT_RANDOM, PAT_EMPTY_EDGES, PAT_ONE_HUGE, PAT_TINY, PAT_MIXED, PAT_ALL_EMPTY, PAT_COUNT };
static const char *mt_pat_name(int p) {
  static const char *n[] = {"random 0..5", "empty start/middle/end", "one huge", "tiny 0/1", "mixed", "all empty"};
  return n[p];
}
/* Segment lengths by pattern; `huge` is the one big segment's length. */
static std::vector<size_t> mt_counts(size_t nseg, int pat, size_t huge, test_rng &rng) {
  std::vector<size_t> c(nseg, 0);
  for (size_t s = 0; s < nseg; ++s) {
    switch (pat) {
      case PAT_RANDOM: c[s] = rng.below(6); break;
      case PAT_EMPTY_EDGES: c[s] = 1 + rng.below(3); break;
      case PAT_TINY: c[s] = rng.below(2); break;
      case PAT_MIXED: c[s] = rng.below(64) == 0 ? rng.below(5000) : rng.below(3); break;
      default: break;
    }
  }
  if (pat == PAT_EMPTY_EDGES) {
    for (size_t k = 0; k < 3 && k < nseg; ++k) c[k] = c[nseg - 1 - k] = 0;
    for (size_t k = nseg / 2; k < nseg / 2 + 3 && k < nseg; ++k) c[k] = 0;
  }
  if (pat == PAT_ONE_HUGE && nseg) c[rng.below(nseg)] = huge;
  return c;
}
/* Exclusive scan of counts, starting at base: n + 1 entries (the last is base + total). */
template <typename O> static std::vector<O> mt_offsets(const std::vector<size_t> &c, size_t base) {
  std::vector<O> o(c.size() + 1);
  size_t run = base;
  for (size_t s = 0; s < c.size(); ++s) {
    o[s] = (O)run;
    run += c[s];
  }
  o[c.size()] = (O)run;
  return o;
}

/* ---- device runs: one call each, compared with the host reference ---- */

template <typename K, typename Less>
static void mt_check_merge_keys(const std::vector<K> &a, const std::vector<K> &b, Less less, const std::string &desc) {
  size_t na = a.size(), nb = b.size(), n = na + nb;
  dbuf<K> da(na), db(nb), dout(n);
  MT_ALLOC(da);
  MT_ALLOC(db);
  MT_ALLOC(dout);
  MT_CUDA(da.upload(a));
  MT_CUDA(db.upload(b));
  size_t tb = 0;
  MT_CUDA(gprim_merge_keys((void *)NULL, &tb, da.p, na, db.p, nb, dout.p, less, 0));
  dbuf<unsigned char> tmp(tb);
  MT_ALLOC(tmp);
  MT_CUDA(gprim_merge_keys((void *)tmp.p, &tb, da.p, na, db.p, nb, dout.p, less, 0));
  MT_CUDA(cudaDeviceSynchronize());
  std::vector<K> want(n), got;
  gprim_host_merge_keys(a.data(), na, b.data(), nb, want.data(), less);
  MT_CUDA(dout.download(got));
  mt_same(want, got, "keys", desc);
}

template <typename K, typename V, typename Less>
static void mt_check_merge_pairs(const std::vector<K> &a, const std::vector<K> &b, Less less,
                                 const std::string &desc) {
  size_t na = a.size(), nb = b.size(), n = na + nb;
  std::vector<V> av(na), bv(nb);
  for (size_t i = 0; i < na; ++i) av[i] = mt_tag_val<V>(0, i);
  for (size_t i = 0; i < nb; ++i) bv[i] = mt_tag_val<V>(1, i);
  dbuf<K> da(na), db(nb), dout(n);
  dbuf<V> dav(na), dbv(nb), doutv(n);
  MT_ALLOC(da);
  MT_ALLOC(db);
  MT_ALLOC(dout);
  MT_ALLOC(dav);
  MT_ALLOC(dbv);
  MT_ALLOC(doutv);
  MT_CUDA(da.upload(a));
  MT_CUDA(db.upload(b));
  MT_CUDA(dav.upload(av));
  MT_CUDA(dbv.upload(bv));
  size_t tb = 0;
  MT_CUDA(gprim_merge_pairs((void *)NULL, &tb, da.p, dav.p, na, db.p, dbv.p, nb, dout.p, doutv.p, less, 0));
  dbuf<unsigned char> tmp(tb);
  MT_ALLOC(tmp);
  MT_CUDA(gprim_merge_pairs((void *)tmp.p, &tb, da.p, dav.p, na, db.p, dbv.p, nb, dout.p, doutv.p, less, 0));
  MT_CUDA(cudaDeviceSynchronize());
  std::vector<K> want(n), got;
  std::vector<V> wantv(n), gotv;
  gprim_host_merge_pairs(a.data(), av.data(), na, b.data(), bv.data(), nb, want.data(), wantv.data(), less);
  MT_CUDA(dout.download(got));
  MT_CUDA(doutv.download(gotv));
  if (mt_same(want, got, "keys", desc)) mt_same(wantv, gotv, "values (stability)", desc);
}

template <typename K, typename I>
static void mt_check_search(const std::vector<K> &needles, const std::vector<K> &hay, gprim_bound bound,
                            const std::string &desc) {
  size_t n = needles.size(), m = hay.size();
  dbuf<K> dn(n), dh(m);
  dbuf<I> dout(n);
  MT_ALLOC(dn);
  MT_ALLOC(dh);
  MT_ALLOC(dout);
  MT_CUDA(dn.upload(needles));
  MT_CUDA(dh.upload(hay));
  size_t tb = 0;
  MT_CUDA(gprim_sorted_search((void *)NULL, &tb, dn.p, n, dh.p, m, dout.p, bound, 0));
  dbuf<unsigned char> tmp(tb);
  MT_ALLOC(tmp);
  MT_CUDA(gprim_sorted_search((void *)tmp.p, &tb, dn.p, n, dh.p, m, dout.p, bound, 0));
  MT_CUDA(cudaDeviceSynchronize());
  std::vector<I> want(n), got;
  gprim_host_sorted_search(needles.data(), n, hay.data(), m, want.data(), bound);
  MT_CUDA(dout.download(got));
  mt_same(want, got, bound == GPRIM_LOWER_BOUND ? "lower bounds" : "upper bounds", desc);
}

/* offsets: n_segments entries (exclusive scan, offsets[0] = 0) */
template <typename O>
static void mt_check_lbs(const std::vector<O> &offsets, size_t total, bool with_rank, const std::string &desc) {
  size_t ns = offsets.size();
  dbuf<O> doff(ns), dpar(total), drank(with_rank ? total : 0);
  MT_ALLOC(doff);
  MT_ALLOC(dpar);
  MT_ALLOC(drank);
  MT_CUDA(doff.upload(offsets));
  size_t tb = 0;
  MT_CUDA(gprim_load_balance_search((void *)NULL, &tb, doff.p, ns, total, dpar.p, drank.p, 0));
  dbuf<unsigned char> tmp(tb);
  MT_ALLOC(tmp);
  MT_CUDA(gprim_load_balance_search((void *)tmp.p, &tb, doff.p, ns, total, dpar.p, drank.p, 0));
  MT_CUDA(cudaDeviceSynchronize());
  std::vector<O> want_par(total), want_rank(total), got_par, got_rank;
  gprim_host_load_balance_search(offsets.data(), ns, total, want_par.data(), want_rank.data());
  MT_CUDA(dpar.download(got_par));
  if (!mt_same(want_par, got_par, "parent", desc)) return;
  if (with_rank) {
    MT_CUDA(drank.download(got_rank));
    mt_same(want_rank, got_rank, "rank", desc);
  }
}

/* offsets: num_segments + 1 entries; in may extend before offsets[0] and after the last one */
template <typename T, typename Op, typename O>
static void mt_check_segred(const std::vector<T> &in, const std::vector<O> &offsets, Op op, T init,
                            const std::string &desc) {
  size_t ns = offsets.size() - 1;
  dbuf<T> din(in.size()), dout(ns);
  dbuf<O> doff(offsets.size());
  MT_ALLOC(din);
  MT_ALLOC(dout);
  MT_ALLOC(doff);
  MT_CUDA(din.upload(in));
  MT_CUDA(doff.upload(offsets));
  size_t tb = 0;
  MT_CUDA(gprim_segmented_reduce((void *)NULL, &tb, din.p, dout.p, ns, doff.p, op, init, 0));
  dbuf<unsigned char> tmp(tb);
  MT_ALLOC(tmp);
  MT_CUDA(gprim_segmented_reduce((void *)tmp.p, &tb, din.p, dout.p, ns, doff.p, op, init, 0));
  MT_CUDA(cudaDeviceSynchronize());
  std::vector<T> want(ns), got;
  gprim_host_segmented_reduce(in.data(), want.data(), ns, offsets.data(), op, init);
  MT_CUDA(dout.download(got));
  mt_same(want, got, "segment results", desc);
}

template <typename T, typename O>
static void mt_check_argmax(const std::vector<T> &in, const std::vector<O> &offsets, const std::string &desc) {
  size_t ns = offsets.size() - 1;
  dbuf<T> din(in.size()), dmax(ns);
  dbuf<O> doff(offsets.size()), didx(ns);
  MT_ALLOC(din);
  MT_ALLOC(dmax);
  MT_ALLOC(doff);
  MT_ALLOC(didx);
  MT_CUDA(din.upload(in));
  MT_CUDA(doff.upload(offsets));
  size_t tb = 0;
  MT_CUDA(gprim_segmented_argmax((void *)NULL, &tb, din.p, dmax.p, didx.p, ns, doff.p, 0));
  dbuf<unsigned char> tmp(tb);
  MT_ALLOC(tmp);
  MT_CUDA(gprim_segmented_argmax((void *)tmp.p, &tb, din.p, dmax.p, didx.p, ns, doff.p, 0));
  MT_CUDA(cudaDeviceSynchronize());
  std::vector<T> want(ns), got;
  std::vector<O> want_i(ns), got_i;
  gprim_host_segmented_argmax(in.data(), want.data(), want_i.data(), ns, offsets.data());
  MT_CUDA(dmax.download(got));
  MT_CUDA(didx.download(got_i));
  if (mt_same(want_i, got_i, "argmax index", desc)) mt_same(want, got, "max", desc);
}

/* ======================= host tests (no GPU) ======================= */

TEST(merge, doc_examples_host) {
  uint32_t a[] = {1, 3, 5}, b[] = {2, 3, 4}, out[6];
  CHECK_EQ(gprim_merge_path<true>(a, (size_t)3, b, (size_t)3, (size_t)3, gprim_less()), 2);
  CHECK_EQ(gprim_merge_path<false>(a, (size_t)3, b, (size_t)3, (size_t)3, gprim_less()), 1);
  gprim_host_merge_keys(a, 3, b, 2, out, gprim_less());
  uint32_t want_m[] = {1, 2, 3, 3, 5};
  CHECK(!memcmp(out, want_m, sizeof want_m));
  uint32_t nd[] = {0, 2, 2, 9}, hs[] = {1, 2, 2, 3}, lo[4], up[4];
  gprim_host_sorted_search(nd, 4, hs, 4, lo, GPRIM_LOWER_BOUND);
  gprim_host_sorted_search(nd, 4, hs, 4, up, GPRIM_UPPER_BOUND);
  uint32_t want_lo[] = {0, 1, 1, 4}, want_up[] = {0, 3, 3, 4};
  CHECK(!memcmp(lo, want_lo, sizeof lo) && !memcmp(up, want_up, sizeof up));
  uint32_t off[] = {0, 2, 2}, par[5], rank[5];
  gprim_host_load_balance_search(off, 3, 5, par, rank);
  uint32_t want_par[] = {0, 0, 2, 2, 2}, want_rank[] = {0, 1, 0, 1, 2};
  CHECK(!memcmp(par, want_par, sizeof par) && !memcmp(rank, want_rank, sizeof rank));
  uint32_t in[] = {1, 2, 3, 4}, csr[] = {0, 3, 3, 4}, red[3];
  gprim_host_segmented_reduce(in, red, 3, csr, gprim_op_sum(), 0u);
  CHECK(red[0] == 6 && red[1] == 0 && red[2] == 4);
  int32_t am_in[] = {5, 7, 7, 1}, mx[3];
  uint32_t ix[3];
  gprim_host_segmented_argmax(am_in, mx, ix, 3, csr);
  CHECK(mx[0] == 7 && ix[0] == 1 && mx[1] == INT32_MIN && ix[1] == UINT32_MAX && mx[2] == 1 && ix[2] == 3);
}

/* merge path on every diagonal == the count of a's items in a prefix of the stable merge */
TEST(merge, host_merge_path_matches_merge) {
  test_rng rng = test_rng_for("merge.path");
  for (int rep = 0; rep < 300; ++rep) {
    size_t na = rng.below(40), nb = rng.below(40);
    uint32_t range = 1 + (uint32_t)rng.below(rep % 3 ? 6 : 1000);
    std::vector<std::pair<uint32_t, int> > a(na), b(nb), ab(na + nb), ba(na + nb);
    for (size_t i = 0; i < na; ++i) a[i] = std::make_pair((uint32_t)rng.below(range), 0);
    for (size_t i = 0; i < nb; ++i) b[i] = std::make_pair((uint32_t)rng.below(range), 1);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    struct by_key {
      bool operator()(const std::pair<uint32_t, int> &x, const std::pair<uint32_t, int> &y) const {
        return x.first < y.first;
      }
    };
    std::merge(a.begin(), a.end(), b.begin(), b.end(), ab.begin(), by_key()); /* a first on ties */
    std::merge(b.begin(), b.end(), a.begin(), a.end(), ba.begin(), by_key()); /* b first on ties */
    std::vector<uint32_t> ka(na), kb(nb);
    for (size_t i = 0; i < na; ++i) ka[i] = a[i].first;
    for (size_t i = 0; i < nb; ++i) kb[i] = b[i].first;
    size_t from_a_ab = 0, from_a_ba = 0;
    for (size_t d = 0; d <= na + nb; ++d) {
      CHECK_EQ(gprim_merge_path<true>(ka.data(), na, kb.data(), nb, d, gprim_less()), from_a_ab);
      CHECK_EQ(gprim_merge_path<false>(ka.data(), na, kb.data(), nb, d, gprim_less()), from_a_ba);
      if (d < na + nb) {
        from_a_ab += ab[d].second == 0;
        from_a_ba += ba[d].second == 0;
      }
    }
  }
}

TEST(merge, host_merge_matches_std_merge) {
  test_rng rng = test_rng_for("merge.host_merge");
  struct kv {
    int64_t k;
    uint32_t v;
  };
  struct kv_less {
    bool operator()(const kv &x, const kv &y) const { return x.k < y.k; }
  };
  struct kv_greater {
    bool operator()(const kv &x, const kv &y) const { return y.k < x.k; }
  };
  for (int rep = 0; rep < 200; ++rep) {
    size_t na = rng.below(rep % 10 ? 300 : 5000), nb = rng.below(rep % 7 ? 300 : 5000);
    bool desc_order = rep & 1;
    int64_t range = rep % 4 ? 10 : 1000000;
    std::vector<kv> a(na), b(nb), want(na + nb);
    for (size_t i = 0; i < na; ++i) a[i].k = (int64_t)rng.below(range) - range / 2, a[i].v = (uint32_t)i;
    for (size_t i = 0; i < nb; ++i) b[i].k = (int64_t)rng.below(range) - range / 2, b[i].v = 0x80000000u | (uint32_t)i;
    std::vector<int64_t> ak(na), bk(nb), gk(na + nb);
    std::vector<uint32_t> av(na), bv(nb), gv(na + nb);
    if (desc_order) {
      std::stable_sort(a.begin(), a.end(), kv_greater());
      std::stable_sort(b.begin(), b.end(), kv_greater());
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), kv_greater());
    } else {
      std::stable_sort(a.begin(), a.end(), kv_less());
      std::stable_sort(b.begin(), b.end(), kv_less());
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), kv_less());
    }
    for (size_t i = 0; i < na; ++i) ak[i] = a[i].k, av[i] = a[i].v;
    for (size_t i = 0; i < nb; ++i) bk[i] = b[i].k, bv[i] = b[i].v;
    if (desc_order) {
      gprim_host_merge_pairs(ak.data(), av.data(), na, bk.data(), bv.data(), nb, gk.data(), gv.data(),
                             gprim_greater());
    } else {
      gprim_host_merge_pairs(ak.data(), av.data(), na, bk.data(), bv.data(), nb, gk.data(), gv.data(),
                             gprim_less());
    }
    for (size_t i = 0; i < na + nb; ++i) {
      CHECK_EQ(gk[i], want[i].k);
      CHECK_EQ(gv[i], want[i].v);
    }
    std::vector<int64_t> keys_only(na + nb);
    if (desc_order) gprim_host_merge_keys(ak.data(), na, bk.data(), nb, keys_only.data(), gprim_greater());
    else gprim_host_merge_keys(ak.data(), na, bk.data(), nb, keys_only.data(), gprim_less());
    CHECK(keys_only == gk);
  }
}

TEST(merge, host_sorted_search_matches_std) {
  test_rng rng = test_rng_for("merge.host_search");
  for (int rep = 0; rep < 200; ++rep) {
    size_t n = rng.below(500), m = rng.below(rep % 5 ? 500 : 3);
    uint64_t range = rep % 3 ? 20 : 100000;
    std::vector<int32_t> nd(n), hs(m);
    for (size_t i = 0; i < n; ++i) nd[i] = (int32_t)rng.below(range) - (int32_t)(range / 2);
    for (size_t i = 0; i < m; ++i) hs[i] = (int32_t)rng.below(range / 2 + 1) - (int32_t)(range / 4);
    std::sort(nd.begin(), nd.end());
    std::sort(hs.begin(), hs.end());
    std::vector<uint64_t> lo(n), up(n);
    gprim_host_sorted_search(nd.data(), n, hs.data(), m, lo.data(), GPRIM_LOWER_BOUND);
    gprim_host_sorted_search(nd.data(), n, hs.data(), m, up.data(), GPRIM_UPPER_BOUND);
    for (size_t i = 0; i < n; ++i) {
      CHECK_EQ(lo[i], std::lower_bound(hs.begin(), hs.end(), nd[i]) - hs.begin());
      CHECK_EQ(up[i], std::upper_bound(hs.begin(), hs.end(), nd[i]) - hs.begin());
    }
  }
}

TEST(merge, host_load_balance_search_matches_upper_bound) {
  test_rng rng = test_rng_for("merge.host_lbs");
  for (int rep = 0; rep < 120; ++rep) {
    int pat = rep % (PAT_COUNT - 1); /* all patterns but all-empty, which has no items */
    size_t ns = 1 + rng.below(300);
    std::vector<size_t> c = mt_counts(ns, pat, 1 + rng.below(2000), rng);
    std::vector<uint32_t> off = mt_offsets<uint32_t>(c, 0);
    size_t total = off[ns];
    off.pop_back();
    std::vector<uint32_t> par(total), rank(total);
    gprim_host_load_balance_search(off.data(), ns, total, par.data(), rank.data());
    for (size_t j = 0; j < total; ++j) {
      size_t s = std::upper_bound(off.begin(), off.end(), (uint32_t)j) - off.begin() - 1;
      CHECK_EQ(par[j], s);
      CHECK_EQ(rank[j], j - off[s]);
      CHECK(j - off[s] < c[s]);
    }
  }
}

TEST(merge, host_segmented_reduce_and_argmax_match_std) {
  test_rng rng = test_rng_for("merge.host_segred");
  for (int rep = 0; rep < 120; ++rep) {
    size_t ns = rng.below(300), base = rng.below(3);
    std::vector<size_t> c = mt_counts(ns, rep % PAT_COUNT, 1 + rng.below(3000), rng);
    std::vector<uint64_t> off = mt_offsets<uint64_t>(c, base);
    std::vector<int64_t> in(off[ns] + 2);
    for (size_t i = 0; i < in.size(); ++i) in[i] = (int64_t)rng.below(rep & 1 ? 4 : 1000) - 2;
    std::vector<int64_t> sum(ns), mx(ns);
    std::vector<uint64_t> ix(ns);
    gprim_host_segmented_reduce(in.data(), sum.data(), ns, off.data(), gprim_op_sum(), (int64_t)5);
    gprim_host_segmented_argmax(in.data(), mx.data(), ix.data(), ns, off.data());
    for (size_t s = 0; s < ns; ++s) {
      CHECK_EQ(sum[s], std::accumulate(in.begin() + off[s], in.begin() + off[s + 1], (int64_t)5));
      if (c[s] == 0) {
        CHECK(mx[s] == INT64_MIN && ix[s] == UINT64_MAX);
      } else {
        size_t at = std::max_element(in.begin() + off[s], in.begin() + off[s + 1]) - in.begin(); /* first max */
        CHECK_EQ(ix[s], at);
        CHECK_EQ(mx[s], in[at]);
      }
    }
  }
}

/* ======================= device tests ======================= */

template <typename K> static void mt_keys_matrix(test_rng &rng) {
  const size_t tile = primt_merge_tile(sizeof(K)), cap = (size_t)1 << 20;
  std::vector<std::pair<size_t, size_t> > sz = mt_size_pairs(tile, cap, rng);
  for (int dist = 0; dist < DIST_COUNT; ++dist) {
    for (size_t i = 0; i < sz.size(); ++i) {
      if (!mt_take()) continue;
      std::vector<K> a, b;
      mt_sorted_inputs(a, b, sz[i].first, sz[i].second, dist, rng, gprim_less());
      mt_check_merge_keys(a, b, gprim_less(),
                          mt_fmt("merge_keys %s less %s na=%zu nb=%zu", mt_name<K>(), test_dist_name(dist),
                                 sz[i].first, sz[i].second));
      if (dist == DIST_UNIFORM || dist == DIST_ALL_EQUAL || (i % 4) == 3) {
        mt_sorted_inputs(a, b, sz[i].first, sz[i].second, dist, rng, gprim_greater());
        mt_check_merge_keys(a, b, gprim_greater(),
                            mt_fmt("merge_keys %s greater %s na=%zu nb=%zu", mt_name<K>(), test_dist_name(dist),
                                   sz[i].first, sz[i].second));
      }
    }
  }
}

/* One test a key type: each runs the whole matrix, and the suite's
   processes (run_gpu.sh --repeat) can run them side by side. */
#define MT_KEYS_TEST(name, K)                         \
  GPU_TEST(merge, keys_##name##_all_distributions) {  \
    mt_begin();                                       \
    test_rng rng = test_rng_for("merge.keys_" #name); \
    mt_keys_matrix<K>(rng);                           \
  }
MT_KEYS_TEST(u32, uint32_t)
MT_KEYS_TEST(u64, uint64_t)
MT_KEYS_TEST(i32, int32_t)
MT_KEYS_TEST(i64, int64_t)
MT_KEYS_TEST(f32, float)

template <typename K, typename V> static void mt_pairs_matrix(test_rng &rng) {
  const size_t tile = primt_merge_tile(sizeof(K) + sizeof(V)), cap = (size_t)1 << 20;
  std::vector<std::pair<size_t, size_t> > sz = mt_size_pairs(tile, cap, rng);
  for (int dist = 0; dist < DIST_COUNT; ++dist) {
    for (size_t i = 0; i < sz.size(); ++i) {
      if (dist != DIST_ALL_EQUAL && dist != DIST_FEW_DISTINCT && (i % 2)) continue;
      if (!mt_take()) continue;
      bool greater = (i % 4) == 2;
      std::vector<K> a, b;
      std::string desc = mt_fmt("merge_pairs %s/%s %s %s na=%zu nb=%zu", mt_name<K>(), mt_vname<V>(),
                                greater ? "greater" : "less", test_dist_name(dist), sz[i].first, sz[i].second);
      if (greater) {
        mt_sorted_inputs(a, b, sz[i].first, sz[i].second, dist, rng, gprim_greater());
        mt_check_merge_pairs<K, V>(a, b, gprim_greater(), desc);
      } else {
        mt_sorted_inputs(a, b, sz[i].first, sz[i].second, dist, rng, gprim_less());
        mt_check_merge_pairs<K, V>(a, b, gprim_less(), desc);
      }
    }
  }
}

#define MT_PAIRS_TEST(name, K, V)                      \
  GPU_TEST(merge, pairs_stable_##name) {               \
    mt_begin();                                        \
    test_rng rng = test_rng_for("merge.pairs_" #name); \
    mt_pairs_matrix<K, V>(rng);                        \
  }
MT_PAIRS_TEST(u32_u32, uint32_t, uint32_t)
MT_PAIRS_TEST(u64_u64, uint64_t, uint64_t)
MT_PAIRS_TEST(i32_tag, int32_t, mt_tag)
MT_PAIRS_TEST(i64_u32, int64_t, uint32_t)
MT_PAIRS_TEST(f32_tag, float, mt_tag)

/* sorted data without a sort: a running sum of small random steps */
template <typename K> static std::vector<K> mt_steps(size_t n, uint64_t step, K start, test_rng &rng) {
  std::vector<K> v(n);
  K x = start;
  for (size_t i = 0; i < n; ++i) {
    x = (K)(x + (K)rng.below(step));
    v[i] = x;
  }
  return v;
}

GPU_TEST(merge, large_merges) {
  mt_begin();
  test_rng rng = test_rng_for("merge.large");
  if (g_test.max_log2 <= 20) return; /* the matrix tests cover sizes up to 2^20 */
  size_t top = (size_t)1 << g_test.max_log2;
  {
    std::vector<uint32_t> a = mt_steps<uint32_t>(top / 2, 4, 0, rng), b = mt_steps<uint32_t>(top / 2, 4, 0, rng);
    mt_check_merge_keys(a, b, gprim_less(), mt_fmt("merge_keys u32 na=nb=%zu", top / 2));
  }
  {
    /* very unbalanced, 8 distinct keys shared by both: stability at scale */
    size_t na = top - 777, nb = 777;
    std::vector<int64_t> a(na), b(nb);
    for (size_t i = 0; i < na; ++i) a[i] = (int64_t)(i * 8 / na) - 4;
    for (size_t i = 0; i < nb; ++i) b[i] = (int64_t)(i * 8 / nb) - 4;
    mt_check_merge_pairs<int64_t, uint32_t>(a, b, gprim_less(), mt_fmt("merge_pairs i64/u32 na=%zu nb=%zu", na, nb));
    mt_check_merge_pairs<int64_t, uint32_t>(b, a, gprim_less(), mt_fmt("merge_pairs i64/u32 na=%zu nb=%zu", nb, na));
  }
  {
    size_t na = top / 4 + 3, nb = top / 3 + rng.below(1000);
    std::vector<uint64_t> a = mt_steps<uint64_t>(na, 1000, 5, rng), b = mt_steps<uint64_t>(nb, 700, 0, rng);
    std::reverse(a.begin(), a.end());
    std::reverse(b.begin(), b.end());
    mt_check_merge_keys(a, b, gprim_greater(), mt_fmt("merge_keys u64 greater na=%zu nb=%zu", na, nb));
  }
}

/* needles over [0, range), haystack over [range / 4, 3 range / 4), shifted down by range / 2
   (negative for signed types): duplicates, needles outside the haystack on both sides */
template <typename K> static std::vector<K> mt_search_values(size_t n, uint64_t range, bool hay, test_rng &rng) {
  std::vector<K> v(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = hay ? (int64_t)(range / 4 + rng.below(range / 2 + 1)) : (int64_t)rng.below(range);
    v[i] = (K)(x - (int64_t)(range / 2));
  }
  std::sort(v.begin(), v.end());
  return v;
}

template <typename K> static void mt_search_matrix(test_rng &rng, size_t cap) {
  const size_t tile = primt_search_tile(sizeof(K) + 4);
  std::vector<std::pair<size_t, size_t> > sz = mt_size_pairs(tile, cap, rng);
  const uint64_t ranges[3] = {8, 5000, (uint64_t)1 << 40};
  for (int r = 0; r < 3; ++r) {
    for (size_t i = 0; i < sz.size(); ++i) {
      if (!mt_take()) continue;
      std::vector<K> nd = mt_search_values<K>(sz[i].first, ranges[r], false, rng);
      std::vector<K> hs = mt_search_values<K>(sz[i].second, ranges[r], true, rng);
      for (int bound = 0; bound < 2; ++bound) {
        gprim_bound bd = bound ? GPRIM_UPPER_BOUND : GPRIM_LOWER_BOUND;
        std::string desc = mt_fmt("sorted_search %s %s range=%llu n=%zu m=%zu", mt_name<K>(),
                                  bound ? "upper" : "lower", (unsigned long long)ranges[r], sz[i].first,
                                  sz[i].second);
        if (r == 1 && (i % 2)) mt_check_search<K, uint64_t>(nd, hs, bd, desc + " I=u64");
        else mt_check_search<K, uint32_t>(nd, hs, bd, desc);
      }
    }
  }
}

#define MT_SEARCH_TEST(name, K)                         \
  GPU_TEST(merge, sorted_search_##name) {               \
    mt_begin();                                         \
    test_rng rng = test_rng_for("merge.search_" #name); \
    mt_search_matrix<K>(rng, (size_t)1 << 20);          \
  }
MT_SEARCH_TEST(u64, uint64_t)
MT_SEARCH_TEST(i32, int32_t)
MT_SEARCH_TEST(i64, int64_t)
MT_SEARCH_TEST(f32, float)
GPU_TEST(merge, sorted_search_u32) {
  mt_begin();
  test_rng rng = test_rng_for("merge.search_u32");
  mt_search_matrix<uint32_t>(rng, (size_t)1 << 20);
  if (g_test.max_log2 > 20) {
    size_t top = (size_t)1 << g_test.max_log2;
    std::vector<uint32_t> nd = mt_steps<uint32_t>(top / 2, 8, 0, rng), hs = mt_steps<uint32_t>(top / 2 - 5, 8, 100, rng);
    mt_check_search<uint32_t, uint32_t>(nd, hs, GPRIM_LOWER_BOUND, mt_fmt("sorted_search u32 lower n=m=%zu", top / 2));
    mt_check_search<uint32_t, uint64_t>(nd, hs, GPRIM_UPPER_BOUND, mt_fmt("sorted_search u32 upper n=m=%zu", top / 2));
  }
}

template <typename O> static void mt_lbs_matrix(test_rng &rng) {
  const size_t tile = primt_lbs_tile(sizeof(O));
  std::vector<size_t> all = test_sizes(tile, rng);
  for (size_t i = 0; i < all.size(); ++i) {
    size_t ns = all[i];
    if (ns == 0 || ns > ((size_t)1 << 20)) continue;
    for (int pat = 0; pat < PAT_COUNT; ++pat) {
      if (!mt_take()) continue;
      size_t huge = 1 + rng.below(mt_huge_cap() + 1);
      std::vector<size_t> c = mt_counts(ns, pat, huge, rng);
      std::vector<O> off = mt_offsets<O>(c, 0);
      size_t total = off[ns];
      off.pop_back();
      mt_check_lbs(off, total, (i + pat) % 3 != 0,
                   mt_fmt("load_balance_search %s %s n_segments=%zu total=%zu", mt_name<O>(), mt_pat_name(pat), ns,
                          total));
    }
  }
}

GPU_TEST(merge, load_balance_search) {
  mt_begin();
  test_rng rng = test_rng_for("merge.lbs");
  mt_lbs_matrix<uint32_t>(rng);
  mt_lbs_matrix<uint64_t>(rng);
  if (g_test.max_log2 > 20) {
    size_t top = (size_t)1 << g_test.max_log2;
    { /* ~top items over top / 256 segments of 0..511 */
      std::vector<size_t> c(top >> 8);
      for (size_t s = 0; s < c.size(); ++s) c[s] = rng.below(512);
      std::vector<uint32_t> off = mt_offsets<uint32_t>(c, 0);
      size_t total = off.back();
      off.pop_back();
      mt_check_lbs(off, total, true, mt_fmt("load_balance_search u32 n_segments=%zu total=%zu", c.size(), total));
    }
    { /* many tiny segments */
      std::vector<size_t> c = mt_counts(top / 4, PAT_TINY, 0, rng);
      std::vector<uint64_t> off = mt_offsets<uint64_t>(c, 0);
      size_t total = off.back();
      off.pop_back();
      mt_check_lbs(off, total, true, mt_fmt("load_balance_search u64 tiny n_segments=%zu total=%zu", c.size(), total));
    }
    { /* one huge segment between empty ones */
      std::vector<size_t> c(5, 0);
      c[2] = top - 3;
      c[3] = 3;
      std::vector<uint32_t> off = mt_offsets<uint32_t>(c, 0);
      off.pop_back();
      mt_check_lbs(off, top, false, mt_fmt("load_balance_search u32 one huge total=%zu", top));
    }
  }
}

/* values for reductions: small for signed sums (no overflow), else full range of few values */
template <typename T> static std::vector<T> mt_values(size_t n, uint64_t range, int64_t shift, test_rng &rng) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = (T)((int64_t)rng.below(range) + shift);
  return v;
}

template <typename T, typename Op, typename O>
static void mt_segred_case(test_rng &rng, size_t ns, int pat, size_t huge, uint64_t range, int64_t shift, Op op,
                           T init, const char *opname) {
  size_t base = (pat == PAT_RANDOM || pat == PAT_MIXED) ? 1 + rng.below(40) : 0;
  std::vector<size_t> c = mt_counts(ns, pat, huge, rng);
  std::vector<O> off = mt_offsets<O>(c, base);
  std::vector<T> in = mt_values<T>((size_t)off[ns] + (base ? 7 : 1), range, shift, rng); /* d_in never NULL */
  mt_check_segred(in, off, op, init,
                  mt_fmt("segmented_reduce %s %s offsets %s %s segments=%zu items=%zu base=%zu", mt_name<T>(), opname,
                         mt_name<O>(), mt_pat_name(pat), ns, (size_t)(off[ns] - off[0]), base));
}

template <typename O> static void mt_segred_matrix(test_rng &rng) {
  std::vector<size_t> all = test_sizes(primt_segred_tile(8), rng);
  for (size_t i = 0; i < all.size(); ++i) {
    size_t ns = all[i];
    if (ns > ((size_t)1 << 20)) continue;
    for (int pat = 0; pat < PAT_COUNT; ++pat) {
      if (!mt_take()) continue;
      size_t huge = 1 + rng.below(mt_huge_cap() + 1);
      switch ((i + pat) % 4) {
        case 0:
          mt_segred_case<uint32_t, gprim_op_sum, O>(rng, ns, pat, huge, ~0ull, 0, gprim_op_sum(), 7u, "sum");
          mt_segred_case<float, gprim_op_max, O>(rng, ns, pat, huge, 1000, -500, gprim_op_max(), -1e30f, "max");
          break;
        case 1:
          mt_segred_case<int32_t, gprim_op_sum, O>(rng, ns, pat, huge, 2001, -1000, gprim_op_sum(), 0, "sum");
          mt_segred_case<uint64_t, gprim_op_min, O>(rng, ns, pat, huge, 1ull << 40, 0, gprim_op_min(), ~0ull, "min");
          break;
        case 2:
          mt_segred_case<int64_t, gprim_op_sum, O>(rng, ns, pat, huge, 1ull << 40, -(1ll << 39), gprim_op_sum(),
                                                   (int64_t)-3, "sum");
          mt_segred_case<float, gprim_op_min, O>(rng, ns, pat, huge, 1000, -500, gprim_op_min(), 3.0f, "min");
          break;
        default:
          mt_segred_case<uint64_t, gprim_op_sum, O>(rng, ns, pat, huge, ~0ull, 0, gprim_op_sum(), 0ull, "sum");
          mt_segred_case<int32_t, gprim_op_max, O>(rng, ns, pat, huge, 1ull << 32, INT32_MIN, gprim_op_max(), 5,
                                                   "max");
          break;
      }
    }
  }
}

GPU_TEST(merge, segmented_reduce) {
  mt_begin();
  test_rng rng = test_rng_for("merge.segred");
  mt_segred_matrix<uint32_t>(rng);
  mt_segred_matrix<uint64_t>(rng);
  if (g_test.max_log2 > 20) {
    size_t top = (size_t)1 << g_test.max_log2;
    mt_segred_case<uint32_t, gprim_op_sum, uint32_t>(rng, 3, PAT_ONE_HUGE, top, ~0ull, 0, gprim_op_sum(), 1u, "sum");
    mt_segred_case<int64_t, gprim_op_sum, uint64_t>(rng, top / 64, PAT_MIXED, 0, 2001, -1000, gprim_op_sum(),
                                                    (int64_t)0, "sum");
    mt_segred_case<uint32_t, gprim_op_max, uint32_t>(rng, top / 2, PAT_TINY, 0, ~0ull, 0, gprim_op_max(), 0u, "max");
  }
}

template <typename T, typename O>
static void mt_argmax_case(test_rng &rng, size_t ns, int pat, size_t huge, int values) {
  std::vector<size_t> c = mt_counts(ns, pat, huge, rng);
  size_t base = pat == PAT_MIXED ? 5 : 0;
  std::vector<O> off = mt_offsets<O>(c, base);
  std::vector<T> in((size_t)off[ns] + 3);
  for (size_t i = 0; i < in.size(); ++i) {
    if (values == 0) in[i] = (T)rng.below(4); /* ties everywhere */
    else if (values == 1) in[i] = gprim_op_max::identity<T>(); /* the maximum is the lowest value */
    else in[i] = rng.below(50) ? (T)((int64_t)rng.below(1000) - 500) : gprim_op_min::identity<T>();
  }
  mt_check_argmax(in, off,
                  mt_fmt("segmented_argmax %s offsets %s %s values=%s segments=%zu items=%zu", mt_name<T>(),
                         mt_name<O>(), mt_pat_name(pat), values == 0 ? "ties" : values == 1 ? "all lowest" : "spread",
                         ns, (size_t)(off[ns] - off[0])));
}

template <typename T, typename O> static void mt_argmax_matrix(test_rng &rng) {
  std::vector<size_t> all = test_sizes(primt_segred_tile(8), rng);
  for (size_t i = 0; i < all.size(); ++i) {
    size_t ns = all[i];
    if (ns > ((size_t)1 << 20)) continue;
    for (int pat = 0; pat < PAT_COUNT; ++pat)
      if (mt_take()) mt_argmax_case<T, O>(rng, ns, pat, 1 + rng.below(mt_huge_cap() + 1), (int)((i + pat) % 3));
  }
}

GPU_TEST(merge, segmented_argmax) {
  mt_begin();
  test_rng rng = test_rng_for("merge.argmax");
  mt_argmax_matrix<uint32_t, uint32_t>(rng);
  mt_argmax_matrix<int32_t, uint64_t>(rng);
  mt_argmax_matrix<uint64_t, uint32_t>(rng);
  mt_argmax_matrix<int64_t, uint32_t>(rng);
  mt_argmax_matrix<float, uint64_t>(rng);
  if (g_test.max_log2 > 20) {
    size_t top = (size_t)1 << g_test.max_log2;
    mt_argmax_case<float, uint32_t>(rng, 2, PAT_ONE_HUGE, top / 2, 0);
    mt_argmax_case<int32_t, uint64_t>(rng, top / 16, PAT_RANDOM, 0, 2);
  }
}

/* The examples of the doc comments, on the device. */
GPU_TEST(merge, doc_examples_on_device) {
  mt_begin();
  std::string desc = "doc examples";
  {
    std::vector<uint32_t> a = {1, 3, 5}, b = {2, 3};
    mt_check_merge_keys(a, b, gprim_less(), desc + " merge");
    mt_check_search<uint32_t, uint32_t>({0, 2, 2, 9}, {1, 2, 2, 3}, GPRIM_LOWER_BOUND, desc + " lower");
    mt_check_search<uint32_t, uint32_t>({0, 2, 2, 9}, {1, 2, 2, 3}, GPRIM_UPPER_BOUND, desc + " upper");
  }
  {
    std::vector<uint32_t> off = {0, 2, 2};
    dbuf<uint32_t> doff(3), dpar(5), drank(5);
    MT_CUDA(doff.upload(off));
    size_t tb = 0;
    MT_CUDA(gprim_load_balance_search((void *)NULL, &tb, doff.p, 3, 5, dpar.p, drank.p, 0));
    dbuf<unsigned char> tmp(tb);
    MT_CUDA(gprim_load_balance_search((void *)tmp.p, &tb, doff.p, 3, 5, dpar.p, drank.p, 0));
    std::vector<uint32_t> par, rank;
    MT_CUDA(dpar.download(par));
    MT_CUDA(drank.download(rank));
    mt_same(std::vector<uint32_t>{0, 0, 2, 2, 2}, par, "lbs parent", desc);
    mt_same(std::vector<uint32_t>{0, 1, 0, 1, 2}, rank, "lbs rank", desc);
  }
  {
    std::vector<uint32_t> in = {1, 2, 3, 4}, off = {0, 3, 3, 4};
    dbuf<uint32_t> din(4), doff(4), dout(3);
    MT_CUDA(din.upload(in));
    MT_CUDA(doff.upload(off));
    size_t tb = 0;
    MT_CUDA(gprim_segmented_reduce((void *)NULL, &tb, din.p, dout.p, 3, doff.p, gprim_op_sum(), 0u, 0));
    dbuf<unsigned char> tmp(tb);
    MT_CUDA(gprim_segmented_reduce((void *)tmp.p, &tb, din.p, dout.p, 3, doff.p, gprim_op_sum(), 0u, 0));
    std::vector<uint32_t> got;
    MT_CUDA(dout.download(got));
    mt_same(std::vector<uint32_t>{6, 0, 4}, got, "segmented sum", desc);
    std::vector<int32_t> am = {5, 7, 7, 1};
    mt_check_argmax(am, off, desc + " argmax");
  }
}

/* ---- bad arguments: cudaErrorInvalidValue, nothing launched, outputs untouched ---- */
template <typename T> static bool mt_untouched(const dbuf<T> &d) {
  std::vector<unsigned char> h(d.n * sizeof(T));
  if (d.n && cudaMemcpy(h.data(), d.p, h.size(), cudaMemcpyDeviceToHost) != cudaSuccess) return false;
  for (size_t i = 0; i < h.size(); ++i)
    if (h[i] != 0xA5) return false;
  return true;
}

GPU_TEST(merge, bad_arguments) {
  const cudaError_t BAD = cudaErrorInvalidValue;
  const size_t n = 5000;
  std::vector<uint32_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = (uint32_t)i;
  dbuf<uint32_t> da(n), db(n), dout(2 * n), dv(n), doutv(2 * n);
  CHECK(da.ok() && db.ok() && dout.ok() && dv.ok() && doutv.ok());
  CUDA_CHECK(da.upload(keys));
  CUDA_CHECK(db.upload(keys));
  size_t tb = 0, small;
  CHECK(gprim_merge_keys((void *)NULL, (size_t *)NULL, da.p, n, db.p, n, dout.p, gprim_less(), 0) == BAD);
  CUDA_CHECK(gprim_merge_keys((void *)NULL, &tb, da.p, n, db.p, n, dout.p, gprim_less(), 0));
  CHECK(tb > 0);
  dbuf<unsigned char> tmp((size_t)1 << 20);
  small = tb - 1;
  CHECK(gprim_merge_keys((void *)tmp.p, &small, da.p, n, db.p, n, dout.p, gprim_less(), 0) == BAD);
  CHECK(gprim_merge_keys((void *)tmp.p, &tb, (const uint32_t *)NULL, n, db.p, n, dout.p, gprim_less(), 0) == BAD);
  CHECK(gprim_merge_keys((void *)tmp.p, &tb, da.p, n, (const uint32_t *)NULL, n, dout.p, gprim_less(), 0) == BAD);
  CHECK(gprim_merge_keys((void *)tmp.p, &tb, da.p, n, db.p, n, (uint32_t *)NULL, gprim_less(), 0) == BAD);
  CHECK(gprim_merge_keys((void *)tmp.p, &tb, da.p, 0, db.p, 0, dout.p, gprim_less(), 0) == cudaSuccess);
  CHECK(gprim_merge_keys((void *)tmp.p, &tb, (const uint32_t *)NULL, 0, (const uint32_t *)NULL, 0,
                         (uint32_t *)NULL, gprim_less(), 0) == cudaSuccess);

  CUDA_CHECK(gprim_merge_pairs((void *)NULL, &tb, da.p, dv.p, n, db.p, dv.p, n, dout.p, doutv.p, gprim_less(), 0));
  CHECK(tb <= tmp.n);
  small = tb - 1;
  CHECK(gprim_merge_pairs((void *)tmp.p, &small, da.p, dv.p, n, db.p, dv.p, n, dout.p, doutv.p, gprim_less(), 0) == BAD);
  CHECK(gprim_merge_pairs((void *)tmp.p, &tb, da.p, (const uint32_t *)NULL, n, db.p, dv.p, n, dout.p, doutv.p,
                          gprim_less(), 0) == BAD);
  CHECK(gprim_merge_pairs((void *)tmp.p, &tb, da.p, dv.p, n, db.p, dv.p, n, dout.p, (uint32_t *)NULL,
                          gprim_less(), 0) == BAD);

  dbuf<uint32_t> dsearch(n);
  CUDA_CHECK(gprim_sorted_search((void *)NULL, &tb, da.p, n, db.p, n, dsearch.p, GPRIM_LOWER_BOUND, 0));
  small = tb - 1;
  CHECK(gprim_sorted_search((void *)tmp.p, &small, da.p, n, db.p, n, dsearch.p, GPRIM_LOWER_BOUND, 0) == BAD);
  CHECK(gprim_sorted_search((void *)tmp.p, &tb, da.p, n, (const uint32_t *)NULL, n, dsearch.p, GPRIM_LOWER_BOUND,
                            0) == BAD);
  CHECK(gprim_sorted_search((void *)tmp.p, &tb, da.p, n, db.p, n, (uint32_t *)NULL, GPRIM_UPPER_BOUND, 0) == BAD);
  CHECK(gprim_sorted_search((void *)tmp.p, &tb, da.p, n, db.p, n, dsearch.p, (gprim_bound)7, 0) == BAD);
  CHECK(gprim_sorted_search((void *)NULL, (size_t *)NULL, da.p, n, db.p, n, dsearch.p, GPRIM_LOWER_BOUND, 0) == BAD);

  dbuf<uint32_t> dpar(n), drank(n);
  CUDA_CHECK(gprim_load_balance_search((void *)NULL, &tb, da.p, n, n, dpar.p, drank.p, 0));
  small = tb - 1;
  CHECK(gprim_load_balance_search((void *)tmp.p, &small, da.p, n, n, dpar.p, drank.p, 0) == BAD);
  CHECK(gprim_load_balance_search((void *)tmp.p, &tb, (const uint32_t *)NULL, n, n, dpar.p, drank.p, 0) == BAD);
  CHECK(gprim_load_balance_search((void *)tmp.p, &tb, da.p, n, n, (uint32_t *)NULL, drank.p, 0) == BAD);
  CHECK(gprim_load_balance_search((void *)tmp.p, &tb, da.p, 0, n, dpar.p, drank.p, 0) == BAD);
  CHECK(gprim_load_balance_search((void *)NULL, (size_t *)NULL, da.p, n, n, dpar.p, drank.p, 0) == BAD);

  dbuf<uint32_t> dred(n - 1), didx(n - 1);
  CUDA_CHECK(gprim_segmented_reduce((void *)NULL, &tb, da.p, dred.p, n - 1, db.p, gprim_op_sum(), 0u, 0));
  CHECK(tb <= tmp.n);
  small = tb - 1;
  CHECK(gprim_segmented_reduce((void *)tmp.p, &small, da.p, dred.p, n - 1, db.p, gprim_op_sum(), 0u, 0) == BAD);
  CHECK(gprim_segmented_reduce((void *)tmp.p, &tb, (const uint32_t *)NULL, dred.p, n - 1, db.p, gprim_op_sum(), 0u,
                               0) == BAD);
  CHECK(gprim_segmented_reduce((void *)tmp.p, &tb, da.p, (uint32_t *)NULL, n - 1, db.p, gprim_op_sum(), 0u, 0) == BAD);
  CHECK(gprim_segmented_reduce((void *)tmp.p, &tb, da.p, dred.p, n - 1, (const uint32_t *)NULL, gprim_op_sum(), 0u,
                               0) == BAD);
  CHECK(gprim_segmented_reduce((void *)NULL, (size_t *)NULL, da.p, dred.p, n - 1, db.p, gprim_op_sum(), 0u, 0) == BAD);
  CUDA_CHECK(gprim_segmented_argmax((void *)NULL, &tb, da.p, dred.p, didx.p, n - 1, db.p, 0));
  CHECK(tb <= tmp.n);
  small = tb - 1;
  CHECK(gprim_segmented_argmax((void *)tmp.p, &small, da.p, dred.p, didx.p, n - 1, db.p, 0) == BAD);
  CHECK(gprim_segmented_argmax((void *)tmp.p, &tb, da.p, dred.p, (uint32_t *)NULL, n - 1, db.p, 0) == BAD);
  CHECK(gprim_segmented_argmax((void *)tmp.p, &tb, da.p, (uint32_t *)NULL, didx.p, n - 1, db.p, 0) == BAD);
  CHECK(gprim_segmented_argmax((void *)tmp.p, &tb, da.p, dred.p, didx.p, 0, (const uint32_t *)NULL, 0) == cudaSuccess);

  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaGetLastError());
  CHECK(mt_untouched(dout));
  CHECK(mt_untouched(doutv));
  CHECK(mt_untouched(dsearch));
  CHECK(mt_untouched(dpar));
  CHECK(mt_untouched(drank));
  CHECK(mt_untouched(dred));
  CHECK(mt_untouched(didx));
}
