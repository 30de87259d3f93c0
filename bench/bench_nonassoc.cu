/* bench_nonassoc.cu - the non-associative scans (gpuamq.h section 5): the
   position scan x_i = max(x_{i-1} + 1, v_i) by every method, on sorted hashed
   quotients (a quotient filter's bulk build at fill 0.1 .. 0.95) and on an
   input with no break (v = 0 0 0 2 2 2 4 4 4 ...), against CUB's plain
   prefix max (DeviceScan::InclusiveScan, max) of the same length, same run.

   Rows: variant = "<method> <input> r=<rounds>[ fb]" (fb: the bound was hit
   and the associative method finished). Every method's output is checked
   against ASSOCIATIVE's (a mismatch prints "!!! MISMATCH").
   Besides the table, one CSV line per row goes to stdout, prefixed "csv,":
     csv,n,input,fill,method,ms,cub_ms,ratio,rounds,fell_back
   (bench/plot_nonassoc.py reads them; NONASSOC_CSV=FILE also writes them there). */
#include <cub/cub.cuh>

#include "../gpuamq.h" /* the public API only: the implementation is examples/impl.cu, linked in */
#include "bench.h"

struct bench_na_max {
  template <typename T>
  __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};

/* uniform quotients in [0, m) from a hash of the index */
__global__ void bench_na_quotients_kernel(uint32_t *q, size_t n, uint64_t m, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t x = (i ^ (seed << 40)) + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    q[i] = (uint32_t)(((x >> 32) * m) >> 32);
  }
}
__global__ void bench_na_no_break_kernel(uint32_t *v, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    v[i] = (uint32_t)(i / 3 * 2);
}
__global__ void bench_na_diff_kernel(const uint32_t *a, const uint32_t *b, size_t n, unsigned long long *count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    c += a[i] != b[i];
  if (c) atomicAdd(count, c);
}
static unsigned long long bench_na_diff(const uint32_t *a, const uint32_t *b, size_t n) {
  unsigned long long *d, h = 0;
  BENCH_CHECK(cudaMalloc(&d, sizeof h));
  BENCH_CHECK(cudaMemset(d, 0, sizeof h));
  bench_na_diff_kernel<<<1024, 256>>>(a, b, n, d);
  BENCH_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(d);
  return h;
}

static FILE *bench_na_csv(void) {
  static FILE *f = NULL;
  static bool tried = false;
  if (!tried) {
    tried = true;
    const char *path = getenv("NONASSOC_CSV");
    if (path) f = fopen(path, "w");
    if (f) fprintf(f, "n,input,fill,method,ms,cub_ms,ratio,rounds,fell_back\n");
  }
  return f;
}
static void bench_na_row(size_t n, const char *input, double fill, gamq_scan_method m, double ms, double cub_ms,
                         const gamq_scan_stats &st, double bytes) {
  char variant[96];
  snprintf(variant, sizeof variant, "%s %s r=%d%s", gamq_scan_method_name(m), input, st.rounds,
           st.fell_back ? " fb" : "");
  bench_report("position u32", variant, n, ms, cub_ms, bytes);
  char line[256];
  snprintf(line, sizeof line, "%zu,%s,%.2f,%s,%.4f,%.4f,%.3f,%d,%d\n", n, input, fill, gamq_scan_method_name(m), ms,
           cub_ms, cub_ms / ms, st.rounds, st.fell_back);
  printf("csv,%s", line);
  if (bench_na_csv()) {
    fputs(line, bench_na_csv());
    fflush(bench_na_csv());
  }
}

/* CUB's prefix max of n u32 (the baseline), ms */
template <typename T>
static double bench_na_cub_max(const T *in, T *out, size_t n) {
  size_t tb = 0;
  BENCH_CHECK(cub::DeviceScan::InclusiveScan(NULL, tb, in, out, bench_na_max(), (int64_t)n));
  void *temp;
  BENCH_CHECK(cudaMalloc(&temp, tb));
  double ms = bench_time_ms([&] { cub::DeviceScan::InclusiveScan(temp, tb, in, out, bench_na_max(), (int64_t)n); });
  cudaFree(temp);
  return ms;
}

BENCH(nonassoc_position_u32) {
  const double fills[5] = {0.1, 0.5, 0.7, 0.9, 0.95};
  const gamq_scan_method methods[4] = {GAMQ_SCAN_ASSOCIATIVE, GAMQ_SCAN_PARALLEL_MERGING,
                                       GAMQ_SCAN_SEQUENTIAL_SHIFTING, GAMQ_SCAN_SEGMENTED_LAYOUTS};
  for (size_t li = 0; li < ctx.log2_sizes.size(); ++li) {
    const size_t n = (size_t)1 << ctx.log2_sizes[li];
    uint32_t *v, *x, *ref, *keys_tmp;
    BENCH_CHECK(cudaMalloc(&v, n * 4));
    BENCH_CHECK(cudaMalloc(&x, n * 4));
    BENCH_CHECK(cudaMalloc(&ref, n * 4));
    BENCH_CHECK(cudaMalloc(&keys_tmp, n * 4));
    const double cub_ms = bench_na_cub_max(v, x, n); /* data-independent; once per size */
    for (int input = 0; input <= 5; ++input) {
      const bool no_break = input == 5;
      const double fill = no_break ? 1.0 : fills[input];
      char name[32];
      if (no_break) {
        snprintf(name, sizeof name, "no-break");
        bench_na_no_break_kernel<<<1024, 256>>>(v, n);
      } else {
        snprintf(name, sizeof name, "qf %.2f", fill);
        bench_na_quotients_kernel<<<1024, 256>>>(keys_tmp, n, (uint64_t)((double)n / fill), 17 + input);
        size_t tb = 0;
        BENCH_CHECK(cub::DeviceRadixSort::SortKeys(NULL, tb, keys_tmp, v, (int64_t)n));
        void *t;
        BENCH_CHECK(cudaMalloc(&t, tb));
        BENCH_CHECK(cub::DeviceRadixSort::SortKeys(t, tb, keys_tmp, v, (int64_t)n));
        cudaFree(t);
      }
      BENCH_CHECK(cudaGetLastError());
      for (int mi = 0; mi < 4; ++mi) {
        gamq_scan_desc d;
        memset(&d, 0, sizeof d);
        d.backend = GAMQ_BACKEND_CUDA, d.method = methods[mi];
        size_t tb = 0;
        if (gamq_position_scan_u32_sync(&d, NULL, &tb, v, NULL, NULL, x, n, NULL, NULL) != GAMQ_SUCCESS) exit(3);
        void *temp;
        BENCH_CHECK(cudaMalloc(&temp, tb));
        gamq_scan_stats st;
        gamq_status s = gamq_position_scan_u32_sync(&d, temp, &tb, v, NULL, NULL, x, n, &st, NULL);
        if (s != GAMQ_SUCCESS) printf("!!! %s: %s\n", gamq_scan_method_name(methods[mi]), gamq_status_string(s));
        if (mi == 0) BENCH_CHECK(cudaMemcpy(ref, x, n * 4, cudaMemcpyDeviceToDevice));
        else if (unsigned long long bad = bench_na_diff(ref, x, n))
          printf("!!! MISMATCH: %s %s: %llu items differ from associative\n", gamq_scan_method_name(methods[mi]), name,
                 bad);
        const bool slow = mi > 0;
        double ms = bench_time_ms([&] { gamq_position_scan_u32_sync(&d, temp, &tb, v, NULL, NULL, x, n, NULL, NULL); },
                                  slow ? 3 : 15, slow ? 1 : 3);
        cudaFree(temp);
        bench_na_row(n, name, fill, methods[mi], ms, cub_ms, st, 8.0 * n);
      }
    }
    cudaFree(v);
    cudaFree(x);
    cudaFree(ref);
    cudaFree(keys_tmp);
  }
}

/* The associative form on the other operations, for the record (fill 0.9
   quotients as u64; saturating sum on random increments; segmented). */
BENCH(nonassoc_other_ops) {
  for (size_t li = 0; li < ctx.log2_sizes.size(); ++li) {
    const size_t n = (size_t)1 << ctx.log2_sizes[li];
    uint64_t *v64, *x64;
    uint32_t *v32, *x32;
    uint8_t *heads;
    BENCH_CHECK(cudaMalloc(&v64, n * 8));
    BENCH_CHECK(cudaMalloc(&x64, n * 8));
    BENCH_CHECK(cudaMalloc(&v32, n * 4));
    BENCH_CHECK(cudaMalloc(&x32, n * 4));
    BENCH_CHECK(cudaMalloc(&heads, n));
    BENCH_CHECK(cudaMemset(heads, 0, n));
    bench_fill_u64(v64, n, 5);
    bench_fill_u32(v32, n, 6);
    gamq_scan_desc d;
    memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_CUDA;
    gamq_scan_stats st;
    size_t tb = 0, tb2 = 0;
    void *temp;
    /* u64 position scan (random values: ASSOCIATIVE does not care) */
    gamq_position_scan_u64_sync(&d, NULL, &tb, v64, NULL, NULL, x64, n, NULL, NULL);
    gamq_satsum_i32_sync(&d, NULL, &tb2, (const int32_t *)v32, heads, NULL, (int32_t *)x32, n, NULL, NULL);
    if (tb2 > tb) tb = tb2;
    gamq_position_scan_u32_sync(&d, NULL, &tb2, v32, heads, NULL, x32, n, NULL, NULL);
    if (tb2 > tb) tb = tb2;
    BENCH_CHECK(cudaMalloc(&temp, tb));
    /* random values: the status may be an overflow; only the time counts here */
    double cub64 = bench_na_cub_max(v64, x64, n), cub32 = bench_na_cub_max(v32, x32, n);
    double ms = bench_time_ms([&] { gamq_position_scan_u64_sync(&d, temp, &tb, v64, NULL, NULL, x64, n, &st, NULL); });
    char name[64];
    snprintf(name, sizeof name, "position u64 assoc r=%d", st.rounds);
    bench_report("nonassoc other", name, n, ms, cub64, 16.0 * n);
    ms = bench_time_ms([&] { gamq_position_scan_u32_sync(&d, temp, &tb, v32, heads, NULL, x32, n, &st, NULL); });
    bench_report("nonassoc other", "position u32 heads, assoc", n, ms, cub32, 9.0 * n);
    ms = bench_time_ms(
        [&] { gamq_satsum_i32_sync(&d, temp, &tb, (const int32_t *)v32, heads, NULL, (int32_t *)x32, n, &st, NULL); });
    bench_report("nonassoc other", "satsum i32 heads, assoc", n, ms, cub32, 9.0 * n);
    cudaFree(temp);
    cudaFree(v64);
    cudaFree(x64);
    cudaFree(v32);
    cudaFree(x32);
    cudaFree(heads);
  }
}
