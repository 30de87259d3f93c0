/* bench_main.cu - the benchmark runner: copy ceiling, registry, the table. */
#include <time.h>

#include "bench.h"

bench_ctx ctx;

std::vector<bench_case> &bench_registry(void) {
  static std::vector<bench_case> r;
  return r;
}

struct bench_row {
  std::string primitive, variant, baseline;
  size_t n;
  double ours_ms, base_ms, bytes;
};
static std::vector<bench_row> g_rows;

std::vector<std::string> bench_env_list(const char *var, const char *def) {
  const char *v = getenv(var);
  std::vector<std::string> out;
  std::string s = v ? v : def, item;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (s[i] != ' ') {
      item += s[i];
    }
  }
  return out;
}

double bench_time_ms(const std::function<void(void)> &fn, int reps, int warmup) {
  cudaEvent_t a, b;
  BENCH_CHECK(cudaEventCreate(&a));
  BENCH_CHECK(cudaEventCreate(&b));
  for (int i = 0; i < warmup; ++i) fn();
  BENCH_CHECK(cudaDeviceSynchronize());
  BENCH_CHECK(cudaGetLastError());
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    BENCH_CHECK(cudaEventRecord(a, 0));
    fn();
    BENCH_CHECK(cudaEventRecord(b, 0));
    BENCH_CHECK(cudaEventSynchronize(b));
    BENCH_CHECK(cudaGetLastError());
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

static void print_row(const bench_row &r, FILE *f) {
  double gbps = r.bytes / (r.ours_ms * 1e6);
  char ratio[32] = "-", base[48] = "-";
  if (r.base_ms > 0) {
    snprintf(ratio, sizeof ratio, "%.2f", r.base_ms / r.ours_ms);
    snprintf(base, sizeof base, "%.3f", r.base_ms);
  }
  fprintf(f, "| %-16s | %-28s | 2^%-4.1f | %9.3f | %-8s %9s | %6s | %7.0f | %5.1f%% |\n", r.primitive.c_str(),
          r.variant.c_str(), r.n ? __builtin_log2((double)r.n) : 0.0, r.ours_ms, r.baseline.c_str(), base, ratio,
          gbps, 100.0 * gbps / ctx.copy_gbps);
}

void bench_report_vs(const char *primitive, const char *variant, size_t n, double ours_ms,
                     const char *baseline_name, double baseline_ms, double bytes) {
  bench_row r;
  r.primitive = primitive;
  r.variant = variant;
  r.baseline = baseline_name;
  r.n = n;
  r.ours_ms = ours_ms;
  r.base_ms = baseline_ms;
  r.bytes = bytes;
  g_rows.push_back(r);
  print_row(r, stdout);
  fflush(stdout);
}

void bench_report(const char *primitive, const char *variant, size_t n, double ours_ms, double cub_ms,
                  double bytes) {
  bench_report_vs(primitive, variant, n, ours_ms, "CUB", cub_ms, bytes);
}

/* splitmix-style hash of the index: fast, reproducible random device data */
__device__ __forceinline__ uint64_t bench_hash(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
template <typename T>
__global__ void bench_fill_kernel(T *d, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    d[i] = (T)bench_hash(i ^ (seed << 40) ^ seed);
}
void bench_fill_u32(uint32_t *d, size_t n, uint64_t seed) {
  bench_fill_kernel<<<1024, 256>>>(d, n, seed);
  BENCH_CHECK(cudaGetLastError());
}
void bench_fill_u64(uint64_t *d, size_t n, uint64_t seed) {
  bench_fill_kernel<<<1024, 256>>>(d, n, seed);
  BENCH_CHECK(cudaGetLastError());
}

/* The ceiling: a 1 GiB device-to-device copy, counting bytes read + written. */
static double measure_copy_gbps(void) {
  size_t bytes = (size_t)1 << 30;
  void *a, *b;
  BENCH_CHECK(cudaMalloc(&a, bytes));
  BENCH_CHECK(cudaMalloc(&b, bytes));
  BENCH_CHECK(cudaMemset(a, 1, bytes));
  double ms = bench_time_ms([&] { cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0); });
  cudaFree(a);
  cudaFree(b);
  return 2.0 * (double)bytes / (ms * 1e6);
}

/* --filter=SUBSTR runs the benchmarks whose names contain SUBSTR;
   --filter=NAME$ runs the one named NAME (sets$: not sets_fig9). */
static bool bench_name_matches(const char *name, const char *filter) {
  size_t n = strlen(filter);
  if (n > 0 && filter[n - 1] == '$') return strlen(name) == n - 1 && !strncmp(name, filter, n - 1);
  return strstr(name, filter) != NULL;
}

int main(int argc, char **argv) {
  const char *filter = NULL, *out = NULL, *commit = "unknown";
  for (int i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--filter=", 9)) filter = argv[i] + 9;
    else if (!strncmp(argv[i], "--out=", 6)) out = argv[i] + 6;
    else if (!strncmp(argv[i], "--commit=", 9)) commit = argv[i] + 9;
    else if (!strncmp(argv[i], "--sizes=", 8)) {
      ctx.log2_sizes.clear();
      for (char *p = argv[i] + 8; *p;) {
        ctx.log2_sizes.push_back((int)strtol(p, &p, 10));
        if (*p == ',') ++p;
        else if (*p) break;
      }
    } else {
      fprintf(stderr, "usage: %s [--filter=SUBSTR|NAME$] [--sizes=20,24,28] [--out=FILE] [--commit=SHA]\n", argv[0]);
      return 2;
    }
  }
  if (ctx.log2_sizes.empty()) ctx.log2_sizes = {20, 24, 28};
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    printf("skipped: no CUDA device\n");
    return 0;
  }
  cudaDeviceProp prop;
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  ctx.copy_gbps = measure_copy_gbps();
  char date[32];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  printf("device: %s, %d SMs; date %s; commit %s; copy %.0f GB/s\n", prop.name, prop.multiProcessorCount, date,
         commit, ctx.copy_gbps);
  for (size_t i = 0; i < bench_registry().size(); ++i) {
    const bench_case &c = bench_registry()[i];
    if (filter && !bench_name_matches(c.name, filter)) continue;
    printf("== %s\n", c.name);
    fflush(stdout);
    c.fn();
  }
  FILE *files[2] = {stdout, out ? fopen(out, "w") : NULL};
  for (int k = 0; k < 2; ++k) {
    FILE *f = files[k];
    if (!f) continue;
    fprintf(f, "\n## %s, %s, commit %s\n\n", prop.name, date, commit);
    fprintf(f, "copy ceiling: %.0f GB/s (device-to-device, bytes read + written). ratio = baseline ms / ours ms "
               "(our throughput over the baseline's; > 1 is faster).\n\n", ctx.copy_gbps);
    fprintf(f, "| primitive        | variant                      | n      |   ours ms | baseline        ms |  ratio |    GB/s |  %%copy |\n");
    fprintf(f, "|------------------|------------------------------|--------|-----------|--------------------|--------|---------|--------|\n");
    for (size_t i = 0; i < g_rows.size(); ++i) print_row(g_rows[i], f);
    if (k == 1) fclose(f);
  }
  return 0;
}
