/* bench_merge.cu - the merge-path family against CUB / Thrust in the same process.
   bytes = the fewest bytes each operation must move (inputs read once, outputs written once). */
#include <cub/cub.cuh>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>

#include "../gpuprim.cuh"
#include "bench.h"

/* ---- data ---- */

__device__ __forceinline__ uint32_t bm_hash(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((x ^ (x >> 31)) >> 32);
}
/* counts[s] = random in [0, 2 * avg), counts[n] = 0 (so the exclusive scan's last entry is the total) */
__global__ void bm_counts_kernel(uint32_t *counts, size_t n, uint32_t avg, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i <= n; i += (size_t)gridDim.x * blockDim.x)
    counts[i] = i < n ? bm_hash(i ^ (seed << 40)) % (2 * avg) : 0;
}

/* n random u32 keys, sorted (CUB radix sort; set-up only) */
static void bm_sorted_u32(uint32_t *d, size_t n, uint64_t seed) {
  uint32_t *tmp_keys;
  BENCH_CHECK(cudaMalloc(&tmp_keys, n * sizeof(uint32_t)));
  bench_fill_u32(tmp_keys, n, seed);
  size_t tb = 0;
  BENCH_CHECK(cub::DeviceRadixSort::SortKeys(NULL, tb, tmp_keys, d, n));
  void *t;
  BENCH_CHECK(cudaMalloc(&t, tb));
  BENCH_CHECK(cub::DeviceRadixSort::SortKeys(t, tb, tmp_keys, d, n));
  BENCH_CHECK(cudaDeviceSynchronize());
  cudaFree(t);
  cudaFree(tmp_keys);
}

/* CSR offsets (S + 1 entries) of S segments with lengths random in [0, 2 * avg); returns the total */
static size_t bm_offsets(uint32_t *d_off, size_t S, uint32_t avg, uint64_t seed) {
  uint32_t *counts;
  BENCH_CHECK(cudaMalloc(&counts, (S + 1) * sizeof(uint32_t)));
  bm_counts_kernel<<<1024, 256>>>(counts, S, avg, seed);
  BENCH_CHECK(cudaGetLastError());
  size_t tb = 0;
  BENCH_CHECK(cub::DeviceScan::ExclusiveSum(NULL, tb, counts, d_off, S + 1));
  void *t;
  BENCH_CHECK(cudaMalloc(&t, tb));
  BENCH_CHECK(cub::DeviceScan::ExclusiveSum(t, tb, counts, d_off, S + 1));
  uint32_t total = 0;
  BENCH_CHECK(cudaMemcpy(&total, d_off + S, sizeof total, cudaMemcpyDeviceToHost));
  cudaFree(t);
  cudaFree(counts);
  return total;
}

static void *bm_alloc(size_t bytes) {
  void *p = NULL;
  BENCH_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
  return p;
}

/* ---- merge ---- */

BENCH(merge_keys) {
  for (int lg : ctx.log2_sizes) {
    size_t n = (size_t)1 << lg, na = n / 2, nb = n - na;
    uint32_t *a = (uint32_t *)bm_alloc(na * 4), *b = (uint32_t *)bm_alloc(nb * 4), *out = (uint32_t *)bm_alloc(n * 4);
    bm_sorted_u32(a, na, 1);
    bm_sorted_u32(b, nb, 2);
    size_t tb = 0, ctb = 0;
    BENCH_CHECK(gprim_merge_keys((void *)NULL, &tb, a, na, b, nb, out, gprim_less(), 0));
    BENCH_CHECK(cub::DeviceMerge::MergeKeys(NULL, ctb, a, (int64_t)na, b, (int64_t)nb, out, cuda::std::less<uint32_t>()));
    void *t = bm_alloc(tb), *ct = bm_alloc(ctb);
    double ours = bench_time_ms([&] { gprim_merge_keys(t, &tb, a, na, b, nb, out, gprim_less(), 0); });
    double cub = bench_time_ms([&] {
      cub::DeviceMerge::MergeKeys(ct, ctb, a, (int64_t)na, b, (int64_t)nb, out, cuda::std::less<uint32_t>());
    });
    bench_report("merge", "keys u32 (a = b = n/2)", n, ours, cub, 2.0 * n * 4);
    cudaFree(t);
    cudaFree(ct);
    cudaFree(a);
    cudaFree(b);
    cudaFree(out);
  }
}

BENCH(merge_pairs) {
  for (int lg : ctx.log2_sizes) {
    size_t n = (size_t)1 << lg, na = n / 2, nb = n - na;
    uint32_t *a = (uint32_t *)bm_alloc(na * 4), *b = (uint32_t *)bm_alloc(nb * 4), *out = (uint32_t *)bm_alloc(n * 4);
    uint32_t *av = (uint32_t *)bm_alloc(na * 4), *bv = (uint32_t *)bm_alloc(nb * 4), *outv = (uint32_t *)bm_alloc(n * 4);
    bm_sorted_u32(a, na, 3);
    bm_sorted_u32(b, nb, 4);
    bench_fill_u32(av, na, 5);
    bench_fill_u32(bv, nb, 6);
    size_t tb = 0, ctb = 0;
    BENCH_CHECK(gprim_merge_pairs((void *)NULL, &tb, a, av, na, b, bv, nb, out, outv, gprim_less(), 0));
    BENCH_CHECK(cub::DeviceMerge::MergePairs(NULL, ctb, a, av, (int64_t)na, b, bv, (int64_t)nb, out, outv,
                                             cuda::std::less<uint32_t>()));
    void *t = bm_alloc(tb), *ct = bm_alloc(ctb);
    double ours = bench_time_ms([&] { gprim_merge_pairs(t, &tb, a, av, na, b, bv, nb, out, outv, gprim_less(), 0); });
    double cub = bench_time_ms([&] {
      cub::DeviceMerge::MergePairs(ct, ctb, a, av, (int64_t)na, b, bv, (int64_t)nb, out, outv,
                                   cuda::std::less<uint32_t>());
    });
    bench_report("merge", "pairs u32/u32", n, ours, cub, 2.0 * n * 8);
    cudaFree(t);
    cudaFree(ct);
    cudaFree(a);
    cudaFree(b);
    cudaFree(out);
    cudaFree(av);
    cudaFree(bv);
    cudaFree(outv);
  }
}

/* ---- sorted search: n/2 needles in n/2 haystack; baseline thrust::lower_bound (binary search per needle) ---- */
BENCH(merge_sorted_search) {
  for (int lg : ctx.log2_sizes) {
    size_t n = (size_t)1 << lg, nn = n / 2, nh = n - nn;
    uint32_t *nd = (uint32_t *)bm_alloc(nn * 4), *hs = (uint32_t *)bm_alloc(nh * 4), *out = (uint32_t *)bm_alloc(nn * 4);
    bm_sorted_u32(nd, nn, 7);
    bm_sorted_u32(hs, nh, 8);
    size_t tb = 0;
    BENCH_CHECK(gprim_sorted_search((void *)NULL, &tb, nd, nn, hs, nh, out, GPRIM_LOWER_BOUND, 0));
    void *t = bm_alloc(tb);
    double ours = bench_time_ms([&] { gprim_sorted_search(t, &tb, nd, nn, hs, nh, out, GPRIM_LOWER_BOUND, 0); });
    double thr = bench_time_ms([&] { thrust::lower_bound(thrust::cuda::par_nosync, hs, hs + nh, nd, nd + nn, out); });
    bench_report_vs("sorted_search", "lower u32, needles = hay = n/2", n, ours, "thrust", thr, (double)n * 4 + nn * 4);
    cudaFree(t);
    cudaFree(nd);
    cudaFree(hs);
    cudaFree(out);
  }
}

/* ---- load-balancing search: ~n items over n/16 segments of 0..31 items; no baseline (GB/s) ---- */
BENCH(merge_load_balance_search) {
  for (int lg : ctx.log2_sizes) {
    size_t n = (size_t)1 << lg, S = n / 16;
    uint32_t *off = (uint32_t *)bm_alloc((S + 1) * 4);
    size_t total = bm_offsets(off, S, 16, 9);
    uint32_t *par = (uint32_t *)bm_alloc(total * 4), *rank = (uint32_t *)bm_alloc(total * 4);
    size_t tb = 0;
    BENCH_CHECK(gprim_load_balance_search((void *)NULL, &tb, off, S, total, par, rank, 0));
    void *t = bm_alloc(tb);
    double ours = bench_time_ms([&] { gprim_load_balance_search(t, &tb, off, S, total, par, rank, 0); });
    bench_report("load_balance", "u32 avg 16/seg, parent+rank", total, ours, 0, (double)S * 4 + total * 8.0);
    double ours_p = bench_time_ms([&] { gprim_load_balance_search(t, &tb, off, S, total, par, (uint32_t *)NULL, 0); });
    bench_report("load_balance", "u32 avg 16/seg, parent only", total, ours_p, 0, (double)S * 4 + total * 4.0);
    cudaFree(t);
    cudaFree(off);
    cudaFree(par);
    cudaFree(rank);
  }
}

/* ---- segmented reduce (sum u32) and argmax (u32) vs CUB, three segment shapes ---- */
static const char *bm_shape_name(int shape) {
  return shape == 0 ? "avg 16/seg" : shape == 1 ? "avg 4096/seg" : "one segment";
}
static size_t bm_shape(int shape, size_t n, uint32_t **off, size_t *S) {
  if (shape == 2) {
    *S = 1;
    *off = (uint32_t *)bm_alloc(2 * 4);
    uint32_t h[2] = {0, (uint32_t)n};
    BENCH_CHECK(cudaMemcpy(*off, h, sizeof h, cudaMemcpyHostToDevice));
    return n;
  }
  uint32_t avg = shape == 0 ? 16 : 4096;
  *S = n / avg;
  *off = (uint32_t *)bm_alloc((*S + 1) * 4);
  return bm_offsets(*off, *S, avg, 10 + shape);
}

BENCH(merge_segmented_reduce) {
  for (int lg : ctx.log2_sizes) {
    for (int shape = 0; shape < 3; ++shape) {
      size_t n = (size_t)1 << lg, S;
      uint32_t *off;
      size_t total = bm_shape(shape, n, &off, &S);
      uint32_t *in = (uint32_t *)bm_alloc(total * 4), *out = (uint32_t *)bm_alloc(S * 4);
      bench_fill_u32(in, total, 11);
      size_t tb = 0, ctb = 0;
      BENCH_CHECK(gprim_segmented_reduce((void *)NULL, &tb, in, out, S, off, gprim_op_sum(), 0u, 0));
      BENCH_CHECK(cub::DeviceSegmentedReduce::Sum(NULL, ctb, in, out, (int64_t)S, off, off + 1));
      void *t = bm_alloc(tb), *ct = bm_alloc(ctb);
      double ours = bench_time_ms([&] { gprim_segmented_reduce(t, &tb, in, out, S, off, gprim_op_sum(), 0u, 0); });
      double cub = bench_time_ms([&] { cub::DeviceSegmentedReduce::Sum(ct, ctb, in, out, (int64_t)S, off, off + 1); });
      std::string v = std::string("sum u32, ") + bm_shape_name(shape);
      double by = (double)total * 4 + (S + 1) * 4.0 + S * 4.0;
      bench_report("segmented_reduce", v.c_str(), total, ours, cub, by);
      cudaFree(t);
      cudaFree(ct);
      cudaFree(in);
      cudaFree(out);
      cudaFree(off);
    }
  }
}

BENCH(merge_segmented_argmax) {
  for (int lg : ctx.log2_sizes) {
    for (int shape = 0; shape < 3; ++shape) {
      size_t n = (size_t)1 << lg, S;
      uint32_t *off;
      size_t total = bm_shape(shape, n, &off, &S);
      uint32_t *in = (uint32_t *)bm_alloc(total * 4), *mx = (uint32_t *)bm_alloc(S * 4), *ix = (uint32_t *)bm_alloc(S * 4);
      cub::KeyValuePair<int, uint32_t> *kv = (cub::KeyValuePair<int, uint32_t> *)bm_alloc(S * 8);
      bench_fill_u32(in, total, 12);
      size_t tb = 0, ctb = 0;
      BENCH_CHECK(gprim_segmented_argmax((void *)NULL, &tb, in, mx, ix, S, off, 0));
      BENCH_CHECK(cub::DeviceSegmentedReduce::ArgMax(NULL, ctb, in, kv, (int64_t)S, off, off + 1));
      void *t = bm_alloc(tb), *ct = bm_alloc(ctb);
      double ours = bench_time_ms([&] { gprim_segmented_argmax(t, &tb, in, mx, ix, S, off, 0); });
      double cub = bench_time_ms([&] { cub::DeviceSegmentedReduce::ArgMax(ct, ctb, in, kv, (int64_t)S, off, off + 1); });
      std::string v = std::string("argmax u32, ") + bm_shape_name(shape);
      bench_report("segmented_argmax", v.c_str(), total, ours, cub, (double)total * 4 + (S + 1) * 4.0 + S * 8.0);
      cudaFree(t);
      cudaFree(ct);
      cudaFree(in);
      cudaFree(mx);
      cudaFree(ix);
      cudaFree(kv);
      cudaFree(off);
    }
  }
}
