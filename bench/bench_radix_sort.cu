/* bench_radix_sort.cu - gprim_radix_sort_keys / _pairs against
   cub::DeviceRadixSort on random keys (all bits), same buffers, same process. */
#include <cub/cub.cuh>

#include "../gpuprim.cuh"
#include "bench.h"

/* one row: ours through `ours(temp, bytes)` and CUB through `cub(temp, bytes)`,
   each with its own temp storage allocated outside the timed region */
template <typename F, typename G>
static void radix_bench_row(const char *variant, size_t n, double bytes_moved, F ours, G cub_sort) {
  size_t ours_bytes = 0, cub_bytes = 0;
  BENCH_CHECK(ours((void *)NULL, ours_bytes));
  BENCH_CHECK(cub_sort((void *)NULL, cub_bytes));
  void *ours_temp = NULL, *cub_temp = NULL;
  BENCH_CHECK(cudaMalloc(&ours_temp, ours_bytes));
  BENCH_CHECK(cudaMalloc(&cub_temp, cub_bytes));
  double ours_ms = bench_time_ms([&] { BENCH_CHECK(ours(ours_temp, ours_bytes)); });
  double cub_ms = bench_time_ms([&] { BENCH_CHECK(cub_sort(cub_temp, cub_bytes)); });
  bench_report("radix_sort", variant, n, ours_ms, cub_ms, bytes_moved);
  BENCH_CHECK(cudaFree(ours_temp));
  BENCH_CHECK(cudaFree(cub_temp));
}

template <typename K> static void radix_fill(K *d, size_t n, uint64_t seed);
template <> void radix_fill<uint32_t>(uint32_t *d, size_t n, uint64_t seed) { bench_fill_u32(d, n, seed); }
template <> void radix_fill<uint64_t>(uint64_t *d, size_t n, uint64_t seed) { bench_fill_u64(d, n, seed); }

template <typename K>
static void radix_bench_keys(const char *variant, bool desc) {
  for (size_t s = 0; s < ctx.log2_sizes.size(); ++s) {
    size_t n = (size_t)1 << ctx.log2_sizes[s];
    K *in, *out;
    BENCH_CHECK(cudaMalloc(&in, n * sizeof(K)));
    BENCH_CHECK(cudaMalloc(&out, n * sizeof(K)));
    radix_fill<K>(in, n, 42);
    radix_bench_row(
        variant, n, 2.0 * n * sizeof(K),
        [&](void *t, size_t &b) { return gprim_radix_sort_keys<K>(t, &b, in, out, n, 0, 8 * sizeof(K), desc, 0); },
        [&](void *t, size_t &b) {
          return desc ? cub::DeviceRadixSort::SortKeysDescending(t, b, in, out, (int)n, 0, 8 * sizeof(K), 0)
                      : cub::DeviceRadixSort::SortKeys(t, b, in, out, (int)n, 0, 8 * sizeof(K), 0);
        });
    BENCH_CHECK(cudaFree(in));
    BENCH_CHECK(cudaFree(out));
  }
}

template <typename K, typename V>
static void radix_bench_pairs(const char *variant, bool desc) {
  for (size_t s = 0; s < ctx.log2_sizes.size(); ++s) {
    size_t n = (size_t)1 << ctx.log2_sizes[s];
    K *kin, *kout;
    V *vin, *vout;
    BENCH_CHECK(cudaMalloc(&kin, n * sizeof(K)));
    BENCH_CHECK(cudaMalloc(&kout, n * sizeof(K)));
    BENCH_CHECK(cudaMalloc(&vin, n * sizeof(V)));
    BENCH_CHECK(cudaMalloc(&vout, n * sizeof(V)));
    radix_fill<K>(kin, n, 42);
    radix_fill<V>(vin, n, 43);
    radix_bench_row(
        variant, n, 2.0 * n * (sizeof(K) + sizeof(V)),
        [&](void *t, size_t &b) {
          return gprim_radix_sort_pairs<K, V>(t, &b, kin, kout, vin, vout, n, 0, 8 * sizeof(K), desc, 0);
        },
        [&](void *t, size_t &b) {
          return desc ? cub::DeviceRadixSort::SortPairsDescending(t, b, kin, kout, vin, vout, (int)n, 0,
                                                                  8 * sizeof(K), 0)
                      : cub::DeviceRadixSort::SortPairs(t, b, kin, kout, vin, vout, (int)n, 0, 8 * sizeof(K), 0);
        });
    BENCH_CHECK(cudaFree(kin));
    BENCH_CHECK(cudaFree(kout));
    BENCH_CHECK(cudaFree(vin));
    BENCH_CHECK(cudaFree(vout));
  }
}

BENCH(radix_sort_keys_u32) { radix_bench_keys<uint32_t>("keys u32", false); }
BENCH(radix_sort_keys_u64) { radix_bench_keys<uint64_t>("keys u64", false); }
BENCH(radix_sort_pairs_u32_u32) { radix_bench_pairs<uint32_t, uint32_t>("pairs u32/u32", false); }
BENCH(radix_sort_pairs_u64_u32) { radix_bench_pairs<uint64_t, uint32_t>("pairs u64/u32", false); }
BENCH(radix_sort_keys_u32_desc) { radix_bench_keys<uint32_t>("keys u32 descending", true); }
BENCH(radix_sort_pairs_u64_u32_desc) { radix_bench_pairs<uint64_t, uint32_t>("pairs u64/u32 descending", true); }

#if defined(GPRIM_RADIX_TUNE)
/* Tile shapes (block, items per thread, min blocks per SM, look-back window)
   at the largest size only, each checked against CUB's output; build with
   -DGPRIM_RADIX_TUNE. */
template <typename T>
__global__ void radix_diff_kernel(const T *a, const T *b, size_t n, unsigned long long *bad) {
  unsigned long long mine = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    mine += a[i] != b[i];
  if (mine) atomicAdd(bad, mine);
}
/* a == b, element by element, on the device */
template <typename T>
static bool radix_same(const T *a, const T *b, size_t n) {
  unsigned long long *d_bad, bad = 0;
  BENCH_CHECK(cudaMalloc(&d_bad, sizeof bad));
  BENCH_CHECK(cudaMemset(d_bad, 0, sizeof bad));
  radix_diff_kernel<<<1024, 256>>>(a, b, n, d_bad);
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaFree(d_bad));
  return bad == 0;
}
template <typename K, typename V, bool PAIRS>
struct radix_tune {
  size_t n;
  K *kin, *kout, *kref;
  V *vin, *vout, *vref;
  double cub_ms;
  radix_tune() : n((size_t)1 << ctx.log2_sizes.back()), vin(NULL), vout(NULL), vref(NULL) {
    BENCH_CHECK(cudaMalloc(&kin, n * sizeof(K)));
    BENCH_CHECK(cudaMalloc(&kout, n * sizeof(K)));
    BENCH_CHECK(cudaMalloc(&kref, n * sizeof(K)));
    radix_fill<K>(kin, n, 42);
    if (PAIRS) {
      BENCH_CHECK(cudaMalloc(&vin, n * sizeof(V)));
      BENCH_CHECK(cudaMalloc(&vout, n * sizeof(V)));
      BENCH_CHECK(cudaMalloc(&vref, n * sizeof(V)));
      radix_fill<V>(vin, n, 43);
    }
    size_t bytes = 0;
    void *temp = NULL;
    BENCH_CHECK(cub_sort(NULL, bytes));
    BENCH_CHECK(cudaMalloc(&temp, bytes));
    cub_ms = bench_time_ms([&] { BENCH_CHECK(cub_sort(temp, bytes)); });
    BENCH_CHECK(cudaFree(temp));
  }
  ~radix_tune() {
    cudaFree(kin); cudaFree(kout); cudaFree(kref);
    if (PAIRS) { cudaFree(vin); cudaFree(vout); cudaFree(vref); }
  }
  cudaError_t cub_sort(void *t, size_t &b) {
    return PAIRS ? cub::DeviceRadixSort::SortPairs(t, b, kin, kref, vin, vref, (int)n, 0, 8 * sizeof(K), 0)
                 : cub::DeviceRadixSort::SortKeys(t, b, kin, kref, (int)n, 0, 8 * sizeof(K), 0);
  }
  template <int B, int I, int M, int LB, int MATCH>
  void run(const char *variant) {
    size_t bytes = 0;
    void *temp = NULL;
    BENCH_CHECK((gprim__radix_sort_impl<K, V, PAIRS, B, I, M, LB, MATCH>(NULL, &bytes, kin, kout, vin, vout, n, 0,
                                                                          8 * sizeof(K), false, 0)));
    BENCH_CHECK(cudaMalloc(&temp, bytes));
    BENCH_CHECK(cudaMemset(kout, 0, n * sizeof(K)));
    double ms = bench_time_ms([&] {
      BENCH_CHECK((gprim__radix_sort_impl<K, V, PAIRS, B, I, M, LB, MATCH>(temp, &bytes, kin, kout, vin, vout, n, 0,
                                                                            8 * sizeof(K), false, 0)));
    });
    BENCH_CHECK(cudaFree(temp));
    bool same = radix_same(kout, kref, n) && (!PAIRS || radix_same(vout, vref, n));
    std::string name = std::string(variant) + (same ? "" : " MISMATCH");
    bench_report("radix_sort", name.c_str(), n, ms, cub_ms, 2.0 * n * (sizeof(K) + (PAIRS ? sizeof(V) : 0)));
  }
};
BENCH(radix_sort_tune) {
  {
    radix_tune<uint32_t, uint32_t, false> t;
    t.run<384, 16, 3, 8, 1>("t k32 384x16 m3 w8 or");
    t.run<384, 16, 3, 8, 0>("t k32 384x16 m3 w8 ballot");
    t.run<384, 16, 3, 8, 2>("t k32 384x16 m3 w8 match");
    t.run<384, 16, 3, 16, 1>("t k32 384x16 m3 w16 or");
    t.run<384, 16, 2, 8, 1>("t k32 384x16 m2 w8 or");
    t.run<384, 20, 2, 8, 1>("t k32 384x20 m2 w8 or");
    t.run<512, 12, 2, 8, 1>("t k32 512x12 m2 w8 or");
    t.run<256, 16, 4, 8, 1>("t k32 256x16 m4 w8 or");
  }
  {
    radix_tune<uint64_t, uint32_t, false> t;
    t.run<256, 16, 3, 8, 1>("t k64 256x16 m3 w8 or");
    t.run<256, 16, 3, 8, 0>("t k64 256x16 m3 w8 ballot");
    t.run<384, 12, 2, 8, 1>("t k64 384x12 m2 w8 or");
    t.run<384, 10, 3, 8, 1>("t k64 384x10 m3 w8 or");
    t.run<256, 12, 4, 8, 1>("t k64 256x12 m4 w8 or");
  }
  {
    radix_tune<uint32_t, uint32_t, true> t;
    t.run<384, 16, 2, 8, 1>("t p32 384x16 m2 w8 or");
    t.run<384, 16, 2, 8, 0>("t p32 384x16 m2 w8 ballot");
    t.run<256, 16, 3, 8, 1>("t p32 256x16 m3 w8 or");
    t.run<384, 12, 3, 8, 1>("t p32 384x12 m3 w8 or");
    t.run<512, 12, 2, 8, 1>("t p32 512x12 m2 w8 or");
  }
  {
    radix_tune<uint64_t, uint32_t, true> t;
    t.run<384, 12, 2, 8, 1>("t p64 384x12 m2 w8 or");
    t.run<384, 12, 2, 8, 0>("t p64 384x12 m2 w8 ballot");
    t.run<256, 16, 3, 8, 1>("t p64 256x16 m3 w8 or");
    t.run<512, 8, 2, 8, 1>("t p64 512x8 m2 w8 or");
  }
}
#endif
