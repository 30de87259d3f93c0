/* bench_scan.cu - scan and select family (prim/scan.cuh) against CUB's
   DeviceScan, DeviceSelect, DevicePartition and DeviceRunLengthEncode.

   Each row: our default tile shape vs CUB on the same random data, same run.
   At the largest size some other tile shapes (block threads b, rows r, chunk c,
   look-back spin s ns) are timed too, to tune gprim__scan_cfg / gprim__select_cfg.
   Every timed result is checked against CUB's (a mismatch is printed loudly). */
#include <cub/cub.cuh>

#include "../gpuprim.cuh"
#include "bench.h"

struct bench_scan_lt {
  uint32_t t;
  __host__ __device__ bool operator()(const uint32_t &x) const { return x < t; }
};

static void *bench_scan_alloc(size_t bytes) {
  void *p = NULL;
  BENCH_CHECK(cudaMalloc(&p, bytes ? bytes : 1));
  return p;
}

template <typename T>
__global__ void bench_scan_diff_kernel(const T *a, const T *b, size_t n, unsigned long long *count) {
  unsigned long long c = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    c += !(a[i] == b[i]);
  if (c) atomicAdd(count, c);
}
/* number of positions where two device arrays differ */
template <typename T>
static unsigned long long bench_scan_diff(const T *a, const T *b, size_t n) {
  unsigned long long *d, h = 0;
  BENCH_CHECK(cudaMalloc(&d, sizeof h));
  BENCH_CHECK(cudaMemset(d, 0, sizeof h));
  if (n) bench_scan_diff_kernel<<<1024, 256>>>(a, b, n, d);
  BENCH_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(d);
  return h;
}
static void bench_scan_verdict(const char *what, unsigned long long bad) {
  if (bad) printf("!!! MISMATCH vs CUB: %s: %llu items differ\n", what, bad);
}
static size_t bench_scan_get(const size_t *d) {
  size_t h = 0;
  BENCH_CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

/* keys with runs: avg run length about 8/7 (log_len 0, 8 distinct values) or 2^log_len */
__global__ void bench_scan_runs_kernel(uint32_t *k, size_t n, int log_len) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t x = (i >> log_len) * 0x9e3779b97f4a7c15ull + 12345;
    x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    k[i] = log_len ? (uint32_t)x : (uint32_t)(x >> 61);
  }
}

/* flags: about half are 1, independent of the keys */
__global__ void bench_scan_flags_kernel(uint8_t *f, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t x = i * 0xd1b54a32d192ed03ull + 777;
    x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ull;
    f[i] = (uint8_t)((x >> 40) & 1);
  }
}

/* ---- scan ---- */

template <typename Cfg, typename T, typename Op, bool EXCL>
static double bench_scan_ours(const T *in, T *out, size_t n, Op op) {
  size_t tb = 0;
  BENCH_CHECK((gprim__scan_run<Cfg, T, Op, EXCL>(NULL, &tb, in, out, n, op, T(), 0)));
  void *temp = bench_scan_alloc(tb);
  double ms = bench_time_ms([&] { gprim__scan_run<Cfg, T, Op, EXCL>(temp, &tb, in, out, n, op, T(), 0); });
  BENCH_CHECK(cudaGetLastError());
  cudaFree(temp);
  return ms;
}
template <typename Cfg, typename T, typename Op, bool EXCL>
static void bench_scan_variant(const char *name, const T *in, T *out, const T *ref, size_t n, Op op, double cub_ms,
                               double bytes) {
  char v[64];
  snprintf(v, sizeof v, "%s b%d r%d c%d w%d s%d", name, (int)Cfg::BLOCK, (int)Cfg::ROWS, (int)Cfg::CHUNK,
           (int)Cfg::LB_WIDTH, (int)Cfg::SPIN_NS);
  double ms = bench_scan_ours<Cfg, T, Op, EXCL>(in, out, n, op);
  bench_scan_verdict(v, bench_scan_diff(out, ref, n));
  bench_report("scan (tuning)", v, n, ms, cub_ms, bytes);
}

BENCH(scan_exclusive_sum_u32) {
  int top = *std::max_element(ctx.log2_sizes.begin(), ctx.log2_sizes.end());
  for (int lg : ctx.log2_sizes) {
    size_t n = (size_t)1 << lg;
    uint32_t *in = (uint32_t *)bench_scan_alloc(n * 4), *out = (uint32_t *)bench_scan_alloc(n * 4),
             *ref = (uint32_t *)bench_scan_alloc(n * 4);
    bench_fill_u32(in, n, 1);
    size_t tb = 0, cb = 0;
    BENCH_CHECK(gprim_scan_exclusive((void *)NULL, &tb, in, out, n, gprim_op_sum(), 0u, 0));
    BENCH_CHECK(cub::DeviceScan::ExclusiveSum(NULL, cb, in, ref, (int)n));
    void *temp = bench_scan_alloc(tb), *ctemp = bench_scan_alloc(cb);
    double ours = bench_time_ms([&] { gprim_scan_exclusive(temp, &tb, in, out, n, gprim_op_sum(), 0u, 0); });
    double cub = bench_time_ms([&] { cub::DeviceScan::ExclusiveSum(ctemp, cb, in, ref, (int)n); });
    bench_scan_verdict("exclusive sum u32", bench_scan_diff(out, ref, n));
    bench_report("scan", "exclusive sum u32", n, ours, cub, 8.0 * n);
    if (lg == top) {
      const double b = 8.0 * n;
      bench_scan_variant<gprim__tiles<128, 6, 4>, uint32_t, gprim_op_sum, true>("excl sum u32", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__tiles<128, 10, 4>, uint32_t, gprim_op_sum, true>("excl sum u32", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__tiles<128, 12, 4>, uint32_t, gprim_op_sum, true>("excl sum u32", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__tiles<128, 8, 4, 2>, uint32_t, gprim_op_sum, true>("excl sum u32", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__tiles<128, 8, 4, 1, 100>, uint32_t, gprim_op_sum, true>("excl sum u32", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__tiles<256, 6, 4>, uint32_t, gprim_op_sum, true>("excl sum u32", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<128, 8, 4, 1>, uint32_t, gprim_op_sum, true>("staged u32 m1", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<128, 8, 4, 10>, uint32_t, gprim_op_sum, true>("staged u32 m10", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<128, 8, 4, 12>, uint32_t, gprim_op_sum, true>("staged u32 m12", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<128, 16, 4, 6>, uint32_t, gprim_op_sum, true>("staged u32 m6", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<256, 8, 4, 6>, uint32_t, gprim_op_sum, true>("staged u32 m6", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<128, 12, 4, 8>, uint32_t, gprim_op_sum, true>("staged u32 m8", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<256, 4, 4, 8>, uint32_t, gprim_op_sum, true>("staged u32 m8", in, out, ref, n, gprim_op_sum(), cub, b);
      bench_scan_variant<gprim__staged<128, 4, 4, 16>, uint32_t, gprim_op_sum, true>("staged u32 m16", in, out, ref, n, gprim_op_sum(), cub, b);
    }
    cudaFree(temp); cudaFree(ctemp); cudaFree(in); cudaFree(out); cudaFree(ref);
  }
}

BENCH(scan_inclusive_max_u64) {
  int top = *std::max_element(ctx.log2_sizes.begin(), ctx.log2_sizes.end());
  for (int lg : ctx.log2_sizes) {
    size_t n = (size_t)1 << lg;
    uint64_t *in = (uint64_t *)bench_scan_alloc(n * 8), *out = (uint64_t *)bench_scan_alloc(n * 8),
             *ref = (uint64_t *)bench_scan_alloc(n * 8);
    bench_fill_u64(in, n, 2);
    size_t tb = 0, cb = 0;
    BENCH_CHECK(gprim_scan_inclusive((void *)NULL, &tb, in, out, n, gprim_op_max(), 0));
    BENCH_CHECK(cub::DeviceScan::InclusiveScan(NULL, cb, in, ref, gprim_op_max(), (int)n));
    void *temp = bench_scan_alloc(tb), *ctemp = bench_scan_alloc(cb);
    double ours = bench_time_ms([&] { gprim_scan_inclusive(temp, &tb, in, out, n, gprim_op_max(), 0); });
    double cub = bench_time_ms([&] { cub::DeviceScan::InclusiveScan(ctemp, cb, in, ref, gprim_op_max(), (int)n); });
    bench_scan_verdict("inclusive max u64", bench_scan_diff(out, ref, n));
    bench_report("scan", "inclusive max u64", n, ours, cub, 16.0 * n);
    if (lg == top) {
      const double b = 16.0 * n;
      bench_scan_variant<gprim__tiles<128, 6, 4>, uint64_t, gprim_op_max, false>("incl max u64", in, out, ref, n, gprim_op_max(), cub, b);
      bench_scan_variant<gprim__tiles<128, 8, 4>, uint64_t, gprim_op_max, false>("incl max u64", in, out, ref, n, gprim_op_max(), cub, b);
      bench_scan_variant<gprim__tiles<128, 6, 2>, uint64_t, gprim_op_max, false>("incl max u64", in, out, ref, n, gprim_op_max(), cub, b);
      bench_scan_variant<gprim__tiles<128, 8, 2, 2>, uint64_t, gprim_op_max, false>("incl max u64", in, out, ref, n, gprim_op_max(), cub, b);
      bench_scan_variant<gprim__staged<128, 8, 2, 12>, uint64_t, gprim_op_max, false>("staged u64 m12", in, out, ref, n, gprim_op_max(), cub, b);
      bench_scan_variant<gprim__staged<128, 8, 2, 1>, uint64_t, gprim_op_max, false>("staged u64 m1", in, out, ref, n, gprim_op_max(), cub, b);
      bench_scan_variant<gprim__staged<128, 4, 4, 12>, uint64_t, gprim_op_max, false>("staged u64 m12", in, out, ref, n, gprim_op_max(), cub, b);
    }
    cudaFree(temp); cudaFree(ctemp); cudaFree(in); cudaFree(out); cudaFree(ref);
  }
}

/* ---- select family ---- */

enum { BENCH_SEL_IF, BENCH_SEL_FLAGGED, BENCH_SEL_PARTITION, BENCH_SEL_UNIQUE, BENCH_SEL_RLE };

struct bench_sel_data {
  uint32_t *in, *out, *ref, *counts, *ref_counts;
  uint8_t *flags;
  size_t *num, *ref_num;
  size_t n;
};

/* one call of ours with tile shape Cfg */
template <typename Cfg>
static cudaError_t bench_sel_call(int kind, void *temp, size_t *tb, const bench_sel_data &d) {
  bench_scan_lt pred = {0x80000000u};
  switch (kind) {
    case BENCH_SEL_IF: {
      gprim__sel_pred<bench_scan_lt> src = {NULL, false, pred};
      return gprim__select_run<Cfg, uint32_t, gprim__sel_pred<bench_scan_lt>, GPRIM__SEL_COMPACT>(temp, tb, d.in, src, d.out, d.num, d.n, 0);
    }
    case BENCH_SEL_FLAGGED: {
      gprim__sel_flags<uint8_t> src = {d.flags, gprim__chunk_aligned<uint8_t, Cfg::CHUNK>(d.flags)};
      return gprim__select_run<Cfg, uint32_t, gprim__sel_flags<uint8_t>, GPRIM__SEL_COMPACT>(temp, tb, d.in, src, d.out, d.num, d.n, 0);
    }
    case BENCH_SEL_PARTITION: {
      gprim__sel_pred<bench_scan_lt> src = {NULL, false, pred};
      return gprim__select_run<Cfg, uint32_t, gprim__sel_pred<bench_scan_lt>, GPRIM__SEL_PARTITION>(temp, tb, d.in, src, d.out, d.num, d.n, 0);
    }
    case BENCH_SEL_UNIQUE: {
      gprim__sel_unique<uint32_t> src = {NULL, false};
      return gprim__select_run<Cfg, uint32_t, gprim__sel_unique<uint32_t>, GPRIM__SEL_COMPACT>(temp, tb, d.in, src, d.out, d.num, d.n, 0);
    }
    default:
      return gprim__rle_run<Cfg, uint32_t>(temp, tb, d.in, d.out, d.counts, d.num, d.n, 0);
  }
}
static cudaError_t bench_sel_cub(int kind, void *temp, size_t &tb, const bench_sel_data &d) {
  bench_scan_lt pred = {0x80000000u};
  switch (kind) {
    case BENCH_SEL_IF: return cub::DeviceSelect::If(temp, tb, d.in, d.ref, d.ref_num, (int64_t)d.n, pred);
    case BENCH_SEL_FLAGGED: return cub::DeviceSelect::Flagged(temp, tb, d.in, d.flags, d.ref, d.ref_num, (int64_t)d.n);
    case BENCH_SEL_PARTITION: return cub::DevicePartition::If(temp, tb, d.in, d.ref, d.ref_num, (int64_t)d.n, pred);
    case BENCH_SEL_UNIQUE: return cub::DeviceSelect::Unique(temp, tb, d.in, d.ref, d.ref_num, (int64_t)d.n);
    default: return cub::DeviceRunLengthEncode::Encode(temp, tb, d.in, d.ref, d.ref_counts, d.ref_num, (int)d.n);
  }
}
/* the public calls, default tile shapes */
static cudaError_t bench_sel_public(int kind, void *temp, size_t *tb, const bench_sel_data &d) {
  bench_scan_lt pred = {0x80000000u};
  switch (kind) {
    case BENCH_SEL_IF: return gprim_select_if(temp, tb, d.in, d.out, d.num, d.n, pred, 0);
    case BENCH_SEL_FLAGGED: return gprim_select_flagged(temp, tb, d.in, d.flags, d.out, d.num, d.n, 0);
    case BENCH_SEL_PARTITION: return gprim_partition_if(temp, tb, d.in, d.out, d.num, d.n, pred, 0);
    case BENCH_SEL_UNIQUE: return gprim_unique(temp, tb, d.in, d.out, d.num, d.n, 0);
    default: return gprim_run_length_encode(temp, tb, d.in, d.out, d.counts, d.num, d.n, 0);
  }
}
/* times ours (tile shape Cfg, or the public call when PUBLIC), checks it
   against CUB's result already in d.ref*, returns ms */
template <typename Cfg, bool PUBLIC>
static double bench_sel_ours(int kind, const bench_sel_data &d, const char *what) {
  size_t tb = 0;
  BENCH_CHECK(PUBLIC ? bench_sel_public(kind, NULL, &tb, d) : bench_sel_call<Cfg>(kind, NULL, &tb, d));
  void *temp = bench_scan_alloc(tb);
  double ms = bench_time_ms([&] {
    if (PUBLIC) bench_sel_public(kind, temp, &tb, d);
    else bench_sel_call<Cfg>(kind, temp, &tb, d);
  });
  BENCH_CHECK(cudaGetLastError());
  cudaFree(temp);
  size_t k = bench_scan_get(d.num), ref_k = bench_scan_get(d.ref_num);
  if (k != ref_k) printf("!!! MISMATCH vs CUB: %s: %zu selected, CUB %zu\n", what, k, ref_k);
  bench_scan_verdict(what, bench_scan_diff(d.out, d.ref, kind == BENCH_SEL_PARTITION ? d.n : std::min(k, ref_k)));
  if (kind == BENCH_SEL_RLE) bench_scan_verdict(what, bench_scan_diff(d.counts, d.ref_counts, std::min(k, ref_k)));
  return ms;
}
template <typename Cfg>
static void bench_sel_variant(int kind, const char *name, const bench_sel_data &d, double cub_ms, double bytes) {
  char v[64];
  snprintf(v, sizeof v, "%s b%d r%d c%d w%d s%d", name, (int)Cfg::BLOCK, (int)Cfg::ROWS, (int)Cfg::CHUNK,
           (int)Cfg::LB_WIDTH, (int)Cfg::SPIN_NS);
  double ms = bench_sel_ours<Cfg, false>(kind, d, v);
  bench_report("select (tuning)", v, d.n, ms, cub_ms, bytes);
}

/* data: 0 random u32 (predicate keeps half, flags half), else runs (log_len, see bench_scan_runs_kernel) */
static void bench_sel(int kind, const char *prim, const char *variant, int runs_log_len, int runs_data) {
  int top = *std::max_element(ctx.log2_sizes.begin(), ctx.log2_sizes.end());
  for (int lg : ctx.log2_sizes) {
    bench_sel_data d;
    d.n = (size_t)1 << lg;
    const size_t n = d.n;
    d.in = (uint32_t *)bench_scan_alloc(n * 4);
    d.out = (uint32_t *)bench_scan_alloc(n * 4);
    d.ref = (uint32_t *)bench_scan_alloc(n * 4);
    d.counts = (uint32_t *)bench_scan_alloc(kind == BENCH_SEL_RLE ? n * 4 : 4);
    d.ref_counts = (uint32_t *)bench_scan_alloc(kind == BENCH_SEL_RLE ? n * 4 : 4);
    d.flags = (uint8_t *)bench_scan_alloc(n);
    d.num = (size_t *)bench_scan_alloc(8);
    d.ref_num = (size_t *)bench_scan_alloc(8);
    if (runs_data) bench_scan_runs_kernel<<<1024, 256>>>(d.in, n, runs_log_len);
    else bench_fill_u32(d.in, n, 3);
    BENCH_CHECK(cudaGetLastError());
    if (kind == BENCH_SEL_FLAGGED) bench_scan_flags_kernel<<<1024, 256>>>(d.flags, n);
    BENCH_CHECK(cudaGetLastError());
    size_t cb = 0;
    BENCH_CHECK(bench_sel_cub(kind, NULL, cb, d));
    void *ctemp = bench_scan_alloc(cb);
    double cub = bench_time_ms([&] { bench_sel_cub(kind, ctemp, cb, d); });
    double ours = bench_sel_ours<gprim__select_cfg<4>::type, true>(kind, d, variant);
    const double k = (double)bench_scan_get(d.ref_num);
    double bytes = 4.0 * n + 4.0 * k;
    if (kind == BENCH_SEL_FLAGGED) bytes += n;
    if (kind == BENCH_SEL_PARTITION) bytes = 8.0 * n;
    if (kind == BENCH_SEL_RLE) bytes += 4.0 * k;
    bench_report(prim, variant, n, ours, cub, bytes);
    if (lg == top) {
      bench_sel_variant<gprim__tiles<128, 6, 4> >(kind, variant, d, cub, bytes);
      bench_sel_variant<gprim__tiles<256, 4, 4> >(kind, variant, d, cub, bytes);
      bench_sel_variant<gprim__tiles<128, 8, 4> >(kind, variant, d, cub, bytes);
      if (kind == BENCH_SEL_IF || kind == BENCH_SEL_FLAGGED) {
        bench_sel_variant<gprim__tiles<128, 6, 4, 2> >(kind, variant, d, cub, bytes);
        bench_sel_variant<gprim__tiles<192, 6, 4> >(kind, variant, d, cub, bytes);
        bench_sel_variant<gprim__tiles<256, 2, 8> >(kind, variant, d, cub, bytes);
      }
    }
    cudaFree(ctemp); cudaFree(d.in); cudaFree(d.out); cudaFree(d.ref); cudaFree(d.counts);
    cudaFree(d.ref_counts); cudaFree(d.flags); cudaFree(d.num); cudaFree(d.ref_num);
  }
}

BENCH(scan_select_if_u32) { bench_sel(BENCH_SEL_IF, "select", "select_if u32 (half)", 0, 0); }
BENCH(scan_select_flagged_u32) { bench_sel(BENCH_SEL_FLAGGED, "select", "select_flagged u32/u8 (half)", 0, 0); }
BENCH(scan_partition_if_u32) { bench_sel(BENCH_SEL_PARTITION, "select", "partition_if u32 (half)", 0, 0); }
BENCH(scan_unique_u32) {
  bench_sel(BENCH_SEL_UNIQUE, "select", "unique u32 (runs ~1.1)", 0, 1);
  bench_sel(BENCH_SEL_UNIQUE, "select", "unique u32 (runs 16)", 4, 1);
}
BENCH(scan_rle_u32) {
  bench_sel(BENCH_SEL_RLE, "run-length", "encode u32 (runs ~1.1)", 0, 1);
  bench_sel(BENCH_SEL_RLE, "run-length", "encode u32 (runs 16)", 4, 1);
}
