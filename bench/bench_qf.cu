/* bench_qf.cu - the quotient filters (gpuamq.h section 6) against the
   paper's figures (001: Tesla K40c / GTX 1080, q = 23, r = 5) and, where it
   runs in reasonable time, our HOST backend.

   What runs (each a BENCH; --filter=qf_lookup etc.):
     qf_lookup   Figs. 8-9: unsorted lookups against fill, SQF and RSQF, r = 5,
                 queries half present (u32 keys, like the paper), 2^28 queries
                 (2^24 when the filter is smaller than 2^24 slots), beside the
                 blocked Bloom filter of the same keys and false-positive rate
                 (QF_BENCH_SORTED=1 adds the sorted batch lookups); Fig. 10a:
                 lookups against batch size at 70%.
     qf_build    Figs. 11-12: bulk build against fill, every position-scan
                 method (gamq_qf_desc.build_method).
     qf_update   Fig. 10b/10c: batch insert + delete of 2^20 keys (and a batch
                 size sweep) into a 70%-full filter.
     qf_merge    merge of two 35%-full filters.
     qf_memory   Table I: bytes per item at eps = 0.03, 1e-4, 5e-7.
   Sizes: QF_BENCH_Q = comma list of q (default 23,30: the paper's filter and
   one of 1 GiB for r = 5, 2^30 one-byte slots). QF_BENCH_FILLS overrides the
   fill list of the lookup and build sweeps.
   Besides the table, one CSV line per row goes to stdout, prefixed "csv,":
     csv,bench,kind,q,r,fill,variant,n,ms,gitems_per_s */
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "bench.h"

#include <math.h>

#include <vector>

/* keys: a hash of (index, stream id): stream 0 = the stored keys, 1 = absent */
__global__ void bench_qf_keys_kernel(uint32_t *k, size_t n, uint64_t first, uint64_t stream) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t x = (first + i) ^ (stream << 44) ^ 0x5bd1e995ull;
    x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdull;
    x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ull;
    k[i] = (uint32_t)(x ^ (x >> 33));
  }
}
static void bench_qf_keys(uint32_t *d, size_t n, uint64_t first, uint64_t stream) {
  if (n) bench_qf_keys_kernel<<<2048, 256>>>(d, n, first, stream);
  BENCH_CHECK(cudaGetLastError());
}
__global__ void bench_qf_count_kernel(const uint8_t *f, size_t n, unsigned long long *c) {
  unsigned long long s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) s += f[i];
  if (s) atomicAdd(c, s);
}
static unsigned long long bench_qf_count(const uint8_t *d, size_t n) {
  unsigned long long *c, h = 0;
  BENCH_CHECK(cudaMalloc(&c, sizeof h));
  BENCH_CHECK(cudaMemset(c, 0, sizeof h));
  bench_qf_count_kernel<<<1024, 256>>>(d, n, c);
  BENCH_CHECK(cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost));
  cudaFree(c);
  return h;
}

static std::vector<int> bench_qf_list_int(const char *env, std::vector<int> dflt) {
  const char *s = getenv(env);
  if (!s || !*s) return dflt;
  std::vector<int> v;
  for (const char *p = s; *p;) {
    v.push_back(atoi(p));
    while (*p && *p != ',') ++p;
    if (*p) ++p;
  }
  return v;
}
static std::vector<double> bench_qf_fills(std::vector<double> dflt) {
  const char *s = getenv("QF_BENCH_FILLS");
  if (!s || !*s) return dflt;
  std::vector<double> v;
  for (const char *p = s; *p;) {
    v.push_back(atof(p));
    while (*p && *p != ',') ++p;
    if (*p) ++p;
  }
  return v;
}

static const char *bench_qf_kind_name(gamq_qf_kind k) { return k == GAMQ_QF_SQF ? "SQF" : "RSQF"; }

static void bench_qf_row(const char *bench, gamq_qf_kind kind, int q, int r, double fill, const char *variant,
                         size_t n, double ms, const char *base_name, double base_ms, double bytes) {
  char prim[48], var[96];
  snprintf(prim, sizeof prim, "qf %s %s", bench, bench_qf_kind_name(kind));
  snprintf(var, sizeof var, "q%d r%d a%.2f %s", q, r, fill, variant);
  bench_report_vs(prim, var, n, ms, base_name, base_ms, bytes);
  printf("csv,%s,%s,%d,%d,%.3f,%s,%zu,%.4f,%.4f\n", bench, bench_qf_kind_name(kind), q, r, fill, variant, n, ms,
         n / (ms * 1e6));
  fflush(stdout);
}

/* a CUDA filter holding `items` keys of stream 0 (from key index 0) */
static gamq_qf *bench_qf_make(gamq_qf_kind kind, int q, int r, size_t items, uint32_t *d_keys,
                              gamq_scan_method method = GAMQ_SCAN_AUTO) {
  gamq_qf_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.backend = GAMQ_BACKEND_CUDA;
  desc.build_method = method;
  gamq_qf *f = NULL;
  gamq_status s = gamq_qf_create(&desc, kind, q, r, &f);
  if (s != GAMQ_SUCCESS) {
    fprintf(stderr, "qf create %s q%d r%d: %s\n", bench_qf_kind_name(kind), q, r, gamq_status_string(s));
    exit(2);
  }
  bench_qf_keys(d_keys, items, 0, 0);
  s = gamq_qf_build_u32_sync(f, d_keys, items, NULL);
  if (s != GAMQ_SUCCESS) {
    fprintf(stderr, "qf build %s q%d r%d n %zu: %s\n", bench_qf_kind_name(kind), q, r, items, gamq_status_string(s));
    exit(2);
  }
  return f;
}

/* the Bloom baseline sized like the paper's: the false-positive rate of the
   quotient filter it stands beside (fill * 2^-r), for the same keys */
static gamq_bloom *bench_qf_bloom(size_t items, double eps, const uint32_t *d_keys) {
  gamq_bloom_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.backend = GAMQ_BACKEND_CUDA;
  gamq_bloom *b = NULL;
  gamq_status s = gamq_bloom_create(&desc, items ? items : 1, eps, &b);
  if (s == GAMQ_SUCCESS) s = gamq_bloom_insert_u32_sync(b, d_keys, items, NULL);
  if (s != GAMQ_SUCCESS) {
    fprintf(stderr, "bloom %zu keys eps %g: %s\n", items, eps, gamq_status_string(s));
    exit(2);
  }
  return b;
}
static void bench_qf_bloom_row(const char *bench, int q, double fill, const char *variant, size_t n, double ms,
                               const char *base_name, double base_ms, double bytes) {
  char var[96];
  snprintf(var, sizeof var, "q%d a%.2f %s", q, fill, variant);
  bench_report_vs("qf Bloom", var, n, ms, base_name, base_ms, bytes);
  printf("csv,%s,Bloom,%d,0,%.3f,%s,%zu,%.4f,%.4f\n", bench, q, fill, variant, n, ms, n / (ms * 1e6));
  fflush(stdout);
}

/* paper 001's figures (GTX 1080, q = 23, r = 5), read off the text: RSQF
   lookups up to 1.13 G/s; build 516 M items/s at 70% (segmented layouts);
   batch inserts of 2M at 81 M/s. Where a row has none, the baseline is "-". */
#define BENCH_QF_PAPER_LOOKUP_RSQF_GPS 1.13
#define BENCH_QF_PAPER_BUILD_70_GPS 0.516
#define BENCH_QF_PAPER_INSERT_GPS 0.081

static double bench_qf_paper_ms(double gps, size_t n) { return n / (gps * 1e9) * 1e3; }

BENCH(qf_lookup) {
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {23, 30});
  std::vector<double> fills = bench_qf_fills({0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95});
  gamq_qf_kind kinds[2] = {GAMQ_QF_SQF, GAMQ_QF_RSQF};
  for (int q : qs) {
    size_t home = (size_t)1 << q;
    size_t nq = q >= 24 ? (size_t)1 << 28 : (size_t)1 << 24;
    size_t max_items = (size_t)(home * 0.95) + 1;
    uint32_t *d_keys = NULL, *d_query = NULL;
    uint8_t *d_found = NULL;
    BENCH_CHECK(cudaMalloc(&d_keys, max_items * 4));
    BENCH_CHECK(cudaMalloc(&d_query, nq * 4));
    BENCH_CHECK(cudaMalloc(&d_found, nq));
    for (gamq_qf_kind kind : kinds) {
      for (double fill : fills) {
        size_t items = (size_t)(home * fill);
        gamq_qf *f = bench_qf_make(kind, q, 5, items, d_keys);
        /* half present: the first half repeats stored keys, the rest absent */
        size_t half = nq / 2;
        for (size_t done = 0; done < half; done += items) bench_qf_keys(d_query + done, std::min(items, half - done), 0, 0);
        bench_qf_keys(d_query + half, nq - half, 0, 1);
        double ms = bench_time_ms([&] { gamq_qf_lookup_u32_sync(f, d_query, nq, d_found, NULL); }, 10, 2);
        unsigned long long hits = bench_qf_count(d_found, half);
        if (hits != half) printf("!!! FALSE NEGATIVES: %llu of %zu present keys found\n", hits, half);
        double base = kind == GAMQ_QF_RSQF ? bench_qf_paper_ms(BENCH_QF_PAPER_LOOKUP_RSQF_GPS, nq) : 0;
        bench_qf_row("lookup", kind, q, 5, fill, "unsorted", nq, ms, "paper", base, nq * 5.0);
        if (getenv("QF_BENCH_SORTED")) {
          ms = bench_time_ms([&] { gamq_qf_lookup_sorted_u32_sync(f, d_query, nq, d_found, NULL); }, 5, 1);
          hits = bench_qf_count(d_found, half);
          if (hits != half) printf("!!! FALSE NEGATIVES (sorted): %llu of %zu present keys found\n", hits, half);
          bench_qf_row("lookup", kind, q, 5, fill, "sorted", nq, ms, "paper", base, nq * 5.0);
        }
        gamq_qf_destroy(f);
        if (kind == GAMQ_QF_RSQF) { /* once per fill: the Bloom filter of the same keys and FP rate */
          gamq_bloom *bl = bench_qf_bloom(items, fill / 32.0, d_keys);
          ms = bench_time_ms([&] { gamq_bloom_lookup_u32_sync(bl, d_query, nq, d_found, NULL); }, 10, 2);
          hits = bench_qf_count(d_found, half);
          if (hits != half) printf("!!! BLOOM FALSE NEGATIVES: %llu of %zu\n", hits, half);
          gamq_bloom_info bi;
          gamq_bloom_get_info(bl, &bi);
          char v[64];
          snprintf(v, sizeof v, "lookup k%d %.0fMiB", bi.k, bi.bytes / 1048576.0);
          bench_qf_bloom_row("lookup", q, fill, v, nq, ms, "-", 0, nq * 5.0);
          gamq_bloom_destroy(bl);
        }
      }
    }
    /* Fig. 10a: lookups against batch size, 70% full */
    for (gamq_qf_kind kind : kinds) {
      size_t items = (size_t)(home * 0.7);
      gamq_qf *f = bench_qf_make(kind, q, 5, items, d_keys);
      for (int lg = 16; (size_t)1 << lg <= nq; lg += 4) {
        size_t nb = (size_t)1 << lg, half = nb / 2;
        for (size_t done = 0; done < half; done += items) bench_qf_keys(d_query + done, std::min(items, half - done), 0, 0);
        bench_qf_keys(d_query + half, nb - half, 0, 1);
        double ms = bench_time_ms([&] { gamq_qf_lookup_u32_sync(f, d_query, nb, d_found, NULL); }, 10, 2);
        char v[32];
        snprintf(v, sizeof v, "batch 2^%d", lg);
        bench_qf_row("lookup_batch", kind, q, 5, 0.7, v, nb, ms, "-", 0, nb * 5.0);
      }
      gamq_qf_destroy(f);
    }
    cudaFree(d_keys);
    cudaFree(d_query);
    cudaFree(d_found);
  }
}

BENCH(qf_build) {
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {23, 28});
  std::vector<double> fills = bench_qf_fills({0.1, 0.3, 0.5, 0.7, 0.9});
  gamq_qf_kind kinds[2] = {GAMQ_QF_SQF, GAMQ_QF_RSQF};
  gamq_scan_method methods[4] = {GAMQ_SCAN_ASSOCIATIVE, GAMQ_SCAN_PARALLEL_MERGING, GAMQ_SCAN_SEQUENTIAL_SHIFTING,
                                 GAMQ_SCAN_SEGMENTED_LAYOUTS};
  for (int q : qs) {
    if (q > 28) q = 28; /* the issue's figure: 2^28 slots */
    size_t home = (size_t)1 << q;
    uint32_t *d_keys = NULL;
    BENCH_CHECK(cudaMalloc(&d_keys, home * 4));
    for (gamq_qf_kind kind : kinds)
      for (double fill : fills)
        for (gamq_scan_method m : methods) {
          size_t items = (size_t)(home * fill);
          gamq_qf *f = bench_qf_make(kind, q, 5, items, d_keys, m);
          double ms = bench_time_ms([&] { gamq_qf_build_u32_sync(f, d_keys, items, NULL); }, 5, 1);
          double base = fill == 0.7 ? bench_qf_paper_ms(BENCH_QF_PAPER_BUILD_70_GPS, items) : 0;
          bench_qf_row("build", kind, q, 5, fill, gamq_scan_method_name(m), items, ms, "paper", base, items * 4.0);
          gamq_qf_destroy(f);
        }
    for (double fill : fills) { /* the Bloom baseline: clear + insert every key */
      size_t items = (size_t)(home * fill);
      gamq_bloom *bl = bench_qf_bloom(items, fill / 32.0, d_keys);
      double ms = bench_time_ms([&] {
        gamq_bloom_clear(bl);
        gamq_bloom_insert_u32_sync(bl, d_keys, items, NULL);
      }, 5, 1);
      bench_qf_bloom_row("build", q, fill, "clear+insert", items, ms, "-", 0, items * 4.0);
      gamq_bloom_destroy(bl);
    }
    cudaFree(d_keys);
  }
}

/* insert a batch, then delete it again (the filter returns to its bytes);
   median of reps of each */
static void bench_qf_insert_delete(gamq_qf *f, const uint32_t *d_batch, size_t n, double *ins_ms, double *del_ms) {
  cudaEvent_t a, b, c;
  BENCH_CHECK(cudaEventCreate(&a));
  BENCH_CHECK(cudaEventCreate(&b));
  BENCH_CHECK(cudaEventCreate(&c));
  std::vector<double> ti, td;
  for (int rep = 0; rep < 7; ++rep) {
    uint64_t deleted = 0;
    BENCH_CHECK(cudaEventRecord(a, 0));
    gamq_status s1 = gamq_qf_insert_u32_sync(f, d_batch, n, NULL);
    BENCH_CHECK(cudaEventRecord(b, 0));
    gamq_status s2 = gamq_qf_delete_u32_sync(f, d_batch, n, &deleted, NULL);
    BENCH_CHECK(cudaEventRecord(c, 0));
    BENCH_CHECK(cudaEventSynchronize(c));
    if (s1 != GAMQ_SUCCESS || s2 != GAMQ_SUCCESS || deleted != n) {
      printf("!!! insert/delete: %s / %s, deleted %llu of %zu\n", gamq_status_string(s1), gamq_status_string(s2),
             (unsigned long long)deleted, n);
      break;
    }
    float x, y;
    BENCH_CHECK(cudaEventElapsedTime(&x, a, b));
    BENCH_CHECK(cudaEventElapsedTime(&y, b, c));
    if (rep >= 2) ti.push_back(x), td.push_back(y);
  }
  std::sort(ti.begin(), ti.end());
  std::sort(td.begin(), td.end());
  *ins_ms = ti.empty() ? 0 : ti[ti.size() / 2];
  *del_ms = td.empty() ? 0 : td[td.size() / 2];
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaEventDestroy(c);
}

BENCH(qf_update) {
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {23, 30});
  gamq_qf_kind kinds[2] = {GAMQ_QF_SQF, GAMQ_QF_RSQF};
  for (int q : qs) {
    size_t home = (size_t)1 << q;
    size_t items = (size_t)(home * 0.7);
    size_t max_batch = (size_t)1 << 22;
    uint32_t *d_keys = NULL, *d_batch = NULL;
    BENCH_CHECK(cudaMalloc(&d_keys, items * 4));
    BENCH_CHECK(cudaMalloc(&d_batch, max_batch * 4));
    for (gamq_qf_kind kind : kinds) {
      gamq_qf *f = bench_qf_make(kind, q, 5, items, d_keys);
      for (int lg = 14; lg <= 22; lg += 2) {
        size_t n = (size_t)1 << lg;
        if (n > items / 4 && lg != 20) continue;
        bench_qf_keys(d_batch, n, items, 0); /* new keys: indices after the stored ones */
        double ins = 0, del = 0;
        bench_qf_insert_delete(f, d_batch, n, &ins, &del);
        char v[32];
        snprintf(v, sizeof v, "insert 2^%d", lg);
        bench_qf_row("update", kind, q, 5, 0.7, v, n, ins, "paper", bench_qf_paper_ms(BENCH_QF_PAPER_INSERT_GPS, n),
                     n * 4.0);
        snprintf(v, sizeof v, "delete 2^%d", lg);
        bench_qf_row("update", kind, q, 5, 0.7, v, n, del, "-", 0, n * 4.0);
      }
      gamq_qf_destroy(f);
    }
    cudaFree(d_keys);
    cudaFree(d_batch);
  }
}

BENCH(qf_merge) {
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {23, 28});
  gamq_qf_kind kinds[2] = {GAMQ_QF_SQF, GAMQ_QF_RSQF};
  for (int q : qs) {
    if (q > 28) q = 28;
    size_t home = (size_t)1 << q;
    size_t items = (size_t)(home * 0.35);
    uint32_t *d_keys = NULL;
    BENCH_CHECK(cudaMalloc(&d_keys, items * 4));
    for (gamq_qf_kind kind : kinds) {
      gamq_qf *a = bench_qf_make(kind, q, 5, items, d_keys);
      gamq_qf_desc desc;
      memset(&desc, 0, sizeof desc);
      desc.backend = GAMQ_BACKEND_CUDA;
      gamq_qf *b = NULL, *out = NULL;
      BENCH_CHECK(gamq_qf_create(&desc, kind, q, 5, &b) == GAMQ_SUCCESS ? cudaSuccess : cudaErrorUnknown);
      BENCH_CHECK(gamq_qf_create(&desc, kind, q, 5, &out) == GAMQ_SUCCESS ? cudaSuccess : cudaErrorUnknown);
      bench_qf_keys(d_keys, items, 0, 1);
      BENCH_CHECK(gamq_qf_build_u32_sync(b, d_keys, items, NULL) == GAMQ_SUCCESS ? cudaSuccess : cudaErrorUnknown);
      gamq_status st = GAMQ_SUCCESS;
      double ms = bench_time_ms([&] { st = gamq_qf_merge_sync(out, a, b, NULL); }, 5, 1);
      if (st != GAMQ_SUCCESS) printf("!!! merge: %s\n", gamq_status_string(st));
      bench_qf_row("merge", kind, q, 5, 0.7, "two 35% filters", 2 * items, ms, "-", 0, 2 * items * 1.0);
      gamq_qf_destroy(a);
      gamq_qf_destroy(b);
      gamq_qf_destroy(out);
    }
    cudaFree(d_keys);
  }
}

/* Table I: bytes per stored item at the fill that keeps the false-positive
   rate at eps (FP ~= fill * 2^-r), the fill capped at 0.95 (RSQF) / 0.75
   (SQF: the paper's rules); r = the cheapest per item. q = 30 (a 1 GiB
   filter at r = 5: the slack slots are negligible). The paper printed two
   significant digits: "<= paper" compares at that rounding. */
static double bench_qf_round2(double x) {
  double m = 1;
  while (x * m < 10) m *= 10;
  return floor(x * m + 0.5) / m;
}
BENCH(qf_memory) {
  const double eps[3] = {0.03, 1e-4, 5e-7};
  const double paper_sqf[3] = {1.3, 2.7, 4.0}, paper_rsqf[3] = {0.94, 2.0, 3.0};
  const int q = 30;
  for (int e = 0; e < 3; ++e)
    for (int kind = 1; kind <= 2; ++kind) {
      double cap = kind == GAMQ_QF_SQF ? 0.75 : 0.95;
      int best_r = -1;
      double best = 1e30, best_fill = 0;
      for (int r = 1; r <= 32; ++r) {
        uint64_t nslots = 0;
        size_t bytes = 0;
        if (!gamq__qf_layout((gamq__qf_kind)kind, q, r, &nslots, &bytes)) continue;
        double fill = std::min(cap, eps[e] * (double)((uint64_t)1 << r));
        double per_item = bytes / (fill * (double)((uint64_t)1 << q));
        if (per_item < best) best = per_item, best_r = r, best_fill = fill;
      }
      double paper = kind == GAMQ_QF_SQF ? paper_sqf[e] : paper_rsqf[e];
      printf("table1: %-4s eps %-7.1e r %2d fill %.3f  %.3f bytes/item (paper %.2f)%s\n",
             bench_qf_kind_name((gamq_qf_kind)kind), eps[e], best_r, best_fill, best, paper,
             bench_qf_round2(best) <= paper + 1e-9 ? "  <= paper" : "  !!! worse than the paper");
      printf("csv,memory,%s,%d,%d,%.3f,eps=%g,0,%.4f,%.4f\n", bench_qf_kind_name((gamq_qf_kind)kind), q, best_r,
             best_fill, eps[e], best, paper);
    }
}
