/* bench.h - benchmark harness: self-registering benchmarks, event timing,
   one results table. CUB and Thrust may be used in bench/ only, as baselines.

     BENCH(scan_u32) {
       for (int lg : ctx.log2_sizes) {
         size_t n = (size_t)1 << lg;
         ... allocate, fill with random data ...
         double ours = bench_time_ms([&] { gprim_scan_exclusive(...); });
         double cub  = bench_time_ms([&] { cub::DeviceScan::ExclusiveSum(...); });
         bench_report("scan", "exclusive sum u32", n, ours, cub, 2.0 * n * 4);
       }
     }

   ./gpuamq_bench [--filter=SUBSTR|NAME$] [--sizes=20,24,28] [--out=FILE] [--commit=SHA]
   The last lines printed are the table (markdown); --out writes it to FILE with
   the device, the date, the commit and the copy bandwidth measured in the run. */
#ifndef GPUAMQ_BENCH_H
#define GPUAMQ_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

struct bench_ctx {
  std::vector<int> log2_sizes; /* sizes to run, as log2 (default 20, 24, 28) */
  double copy_gbps;            /* device-to-device copy, bytes read + written */
};
extern bench_ctx ctx;

struct bench_case {
  const char *name;
  void (*fn)(void);
};
std::vector<bench_case> &bench_registry(void);
struct bench_registrar {
  bench_registrar(const char *n, void (*f)(void)) {
    bench_case c = {n, f};
    bench_registry().push_back(c);
  }
};
#define BENCH(name)                                                  \
  static void bench_##name(void);                                    \
  static bench_registrar bench_reg_##name(#name, bench_##name);      \
  static void bench_##name(void)

/* Abort the benchmark binary on a CUDA error: figures after one are void. */
#define BENCH_CHECK(call)                                                              \
  do {                                                                                 \
    cudaError_t bench__e = (call);                                                     \
    if (bench__e != cudaSuccess) {                                                     \
      fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(bench__e)); \
      exit(2);                                                                         \
    }                                                                                  \
  } while (0)

/* The comma-separated items of an environment variable (def when it is
   unset), spaces dropped, empty items skipped. */
std::vector<std::string> bench_env_list(const char *var, const char *def);

/* Median time in ms of fn() over `reps` runs after `warmup` runs, each timed
   with events on the default stream. fn must enqueue its work on stream 0. */
double bench_time_ms(const std::function<void(void)> &fn, int reps = 15, int warmup = 3);

/* One row of the table. bytes = the fewest bytes the operation must move
   (inputs read once, outputs written once); ratio = cub_ms / ours_ms, i.e. our
   throughput over CUB's (> 1 means faster). cub_ms <= 0 means no baseline. */
void bench_report(const char *primitive, const char *variant, size_t n, double ours_ms, double cub_ms,
                  double bytes);
/* A row whose baseline is not CUB (a paper's figure, the host backend). */
void bench_report_vs(const char *primitive, const char *variant, size_t n, double ours_ms,
                     const char *baseline_name, double baseline_ms, double bytes);

/* Random device data for benchmarks: n values from a counter-based hash. */
void bench_fill_u32(uint32_t *d, size_t n, uint64_t seed);
void bench_fill_u64(uint64_t *d, size_t n, uint64_t seed);

#endif /* GPUAMQ_BENCH_H */
