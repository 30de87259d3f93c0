/* bench_segmented_sort.cu - gprim_segmented_sort_keys / _pairs against
   cub::DeviceSegmentedSort (SortKeys / SortPairs, which CUB implements stably,
   as ours is) on random u32 keys, two segment mixes:
     mix A: random lengths 1 .. 64, one segment in 256 of length 512 instead
     mix B: 64 equal segments
   Same buffers, same process; after timing, our output is compared with
   CUB's on the device (both stable, so they must be identical). */
#include <cub/cub.cuh>

#include "../gpuprim.cuh"
#include "bench.h"

/* CSR offsets of a mix, from a fixed seed (splitmix64) */
static std::vector<uint32_t> segsort_bench_offsets(int mix, size_t n) {
  std::vector<uint32_t> off(1, 0);
  if (mix == 1) {
    for (size_t i = 1; i <= 64; ++i) off.push_back((uint32_t)(n * i / 64));
    return off;
  }
  uint64_t s = 12345;
  size_t at = 0;
  while (at < n) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    size_t len = (z >> 56) == 0 ? 512 : 1 + (size_t)(z % 64);
    at = std::min(n, at + len);
    off.push_back((uint32_t)at);
  }
  return off;
}

__global__ void segsort_bench_diff(const uint32_t *a, const uint32_t *b, size_t n, unsigned long long *bad) {
  unsigned long long mine = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    mine += a[i] != b[i];
  if (mine) atomicAdd(bad, mine);
}

/* number of positions where a and b differ */
static unsigned long long segsort_bench_mismatches(const uint32_t *a, const uint32_t *b, size_t n) {
  unsigned long long *d_bad, bad = 0;
  BENCH_CHECK(cudaMalloc(&d_bad, sizeof bad));
  BENCH_CHECK(cudaMemset(d_bad, 0, sizeof bad));
  segsort_bench_diff<<<1024, 256>>>(a, b, n, d_bad);
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaFree(d_bad));
  return bad;
}

static void segsort_bench(bool pairs) {
  static const char *mix_names[2] = {"A (1..64, 1/256 x 512)", "B (64 equal)"};
  for (size_t si = 0; si < ctx.log2_sizes.size(); ++si) {
    const size_t n = (size_t)1 << ctx.log2_sizes[si];
    uint32_t *kin, *kout, *kcub, *vin = NULL, *vout = NULL, *vcub = NULL, *off;
    BENCH_CHECK(cudaMalloc(&kin, n * 4));
    BENCH_CHECK(cudaMalloc(&kout, n * 4));
    BENCH_CHECK(cudaMalloc(&kcub, n * 4));
    if (pairs) {
      BENCH_CHECK(cudaMalloc(&vin, n * 4));
      BENCH_CHECK(cudaMalloc(&vout, n * 4));
      BENCH_CHECK(cudaMalloc(&vcub, n * 4));
      bench_fill_u32(vin, n, 43);
    }
    bench_fill_u32(kin, n, 42);
    for (int mix = 0; mix < 2; ++mix) {
      std::vector<uint32_t> h_off = segsort_bench_offsets(mix, n);
      const size_t nseg = h_off.size() - 1;
      BENCH_CHECK(cudaMalloc(&off, h_off.size() * 4));
      BENCH_CHECK(cudaMemcpy(off, h_off.data(), h_off.size() * 4, cudaMemcpyHostToDevice));
      size_t ours_bytes = 0, cub_bytes = 0;
      void *ours_temp = NULL, *cub_temp = NULL;
      if (pairs) {
        BENCH_CHECK(gprim_segmented_sort_pairs(NULL, &ours_bytes, kin, kout, vin, vout, n, nseg, off, 0));
        BENCH_CHECK(cub::DeviceSegmentedSort::SortPairs(NULL, cub_bytes, kin, kcub, vin, vcub, (int64_t)n,
                                                        (int64_t)nseg, off, off + 1, 0));
      } else {
        BENCH_CHECK(gprim_segmented_sort_keys(NULL, &ours_bytes, kin, kout, n, nseg, off, 0));
        BENCH_CHECK(cub::DeviceSegmentedSort::SortKeys(NULL, cub_bytes, kin, kcub, (int64_t)n, (int64_t)nseg, off,
                                                       off + 1, 0));
      }
      BENCH_CHECK(cudaMalloc(&ours_temp, ours_bytes));
      BENCH_CHECK(cudaMalloc(&cub_temp, cub_bytes));
      double ours_ms = bench_time_ms([&] {
        if (pairs)
          BENCH_CHECK(gprim_segmented_sort_pairs(ours_temp, &ours_bytes, kin, kout, vin, vout, n, nseg, off, 0));
        else
          BENCH_CHECK(gprim_segmented_sort_keys(ours_temp, &ours_bytes, kin, kout, n, nseg, off, 0));
      });
      double cub_ms = bench_time_ms([&] {
        if (pairs)
          BENCH_CHECK(cub::DeviceSegmentedSort::SortPairs(cub_temp, cub_bytes, kin, kcub, vin, vcub, (int64_t)n,
                                                          (int64_t)nseg, off, off + 1, 0));
        else
          BENCH_CHECK(cub::DeviceSegmentedSort::SortKeys(cub_temp, cub_bytes, kin, kcub, (int64_t)n, (int64_t)nseg,
                                                         off, off + 1, 0));
      });
      unsigned long long bad = segsort_bench_mismatches(kout, kcub, n);
      if (pairs) bad += segsort_bench_mismatches(vout, vcub, n);
      if (bad) fprintf(stderr, "segmented_sort: %llu positions differ from CUB (mix %s, n %zu)\n", bad,
                       mix_names[mix], n);
      char variant[64];
      snprintf(variant, sizeof variant, "%s u32 %s%s", pairs ? "pairs" : "keys", mix == 0 ? "A" : "B",
               bad ? " WRONG" : "");
      const double bytes = 2.0 * n * (pairs ? 8 : 4) + 4.0 * (nseg + 1);
      bench_report("segmented_sort", variant, n, ours_ms, cub_ms, bytes);
      printf("   (mix %s: %zu segments; temp ours %.1f MB, CUB %.1f MB)\n", mix_names[mix], nseg, ours_bytes / 1e6,
             cub_bytes / 1e6);
      BENCH_CHECK(cudaFree(ours_temp));
      BENCH_CHECK(cudaFree(cub_temp));
      BENCH_CHECK(cudaFree(off));
    }
    BENCH_CHECK(cudaFree(kin));
    BENCH_CHECK(cudaFree(kout));
    BENCH_CHECK(cudaFree(kcub));
    if (pairs) {
      BENCH_CHECK(cudaFree(vin));
      BENCH_CHECK(cudaFree(vout));
      BENCH_CHECK(cudaFree(vcub));
    }
  }
}

BENCH(segmented_sort_keys) { segsort_bench(false); }
BENCH(segmented_sort_pairs) { segsort_bench(true); }
