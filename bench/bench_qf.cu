/* bench_qf.cu - the quotient filters (gpuamq.h section 6) against the
   figures of "Quotient Filters: Approximate Membership Queries on the GPU"
   (Geil, Farach-Colton, Owens, IPDPS 2018: Tesla K40c / GTX 1080, q = 23,
   r = 5) and, where it runs in reasonable time, our HOST backend.

   What runs (each a BENCH; --filter=qf_lookup etc.; the filter is a
   substring match, so pick names that are not prefixes of one another):
     qf_lookup   Figs. 8-9: unsorted lookups against fill, SQF and RSQF, r = 5,
                 queries half present (u32 keys, like the paper), 2^28 queries
                 (2^24 when the filter is smaller than 2^24 slots), beside the
                 blocked Bloom filter of the same keys and false-positive rate
                 (QF_BENCH_SORTED=1 adds the sorted batch lookups); Fig. 10a:
                 lookups against batch size at 70%.
     qf_build    Figs. 11-12: bulk build against fill, every position-scan
                 method (gamq_qf_desc.build_method).
     qf_dedup    Fig. 13: bulk builds with and without deduplication
                 (desc.dedup_build) against fill, every position-scan method
                 and desc.build_by_inserts, q = 28 (QF_BENCH_Q, capped at 28),
                 r = 5. Input: fill * 2^q keys of which a fraction QF_BENCH_DUP
                 (default 0.2) are repeats of earlier keys (the last 20% of the
                 array copy the first 20%; u32 keys from a hash and 33-bit
                 fingerprints, so a few % more collide at 2^28 keys: the dedup
                 rows print the distinct fingerprint count).
                 "fill" counts the input keys, repeats included. Baselines: CUB
                 (hash + radix sort of the fingerprints, + DeviceSelect::Unique
                 for the dedup rows: the steps a dedup build cannot skip) and
                 the Bloom filter (clear + insert of the same keys). Builds by
                 inserts: fills up to QF_BENCH_INSERTS_MAX_FILL (default 0.5),
                 and no higher fill of a kind once one build took longer than
                 QF_BENCH_INSERTS_MAX_MS (default 2000); with dedup_build the
                 CUDA build ignores build_by_inserts (gamq__qf_change_sync), so
                 that row is skipped with a note.
     qf_update   Fig. 10c: batch insert + delete of 2^14..2^22 keys into a
                 70%-full filter.
     qf_insdel   Fig. 10b: insert a batch of 2^20 keys (capped at 2^(q-4))
                 into a filter pre-filled to each fill, then delete it again
                 (the filter returns to its bytes), SQF and RSQF, r = 5, q = 30
                 (QF_BENCH_Q); paths QF_BENCH_INSDEL_PATHS (default
                 auto,in_place,windows,rebuild: AUTO, and the private gamq_qf::path
                 forced to IN_PLACE / REBUILD, the paper's "merge inserts");
                 the in-place rounds (gamq_qf::last_rounds) in the variant.
                 QF_BENCH_KEEP_POOL=1 (qf_update, qf_insdel): keep the
                 default memory pool's memory between calls.
     qf_trace    (best run alone) one batch per kind and in-place path,
                 timed, then once more between cudaProfilerStart / Stop for
                 ncu; batch sizes QF_BENCH_TRACE_LG (log2, default 20).
     qf_parts    (best run alone) a call's fixed costs by host wall clock:
                 launches, a read back, pool allocations, hash + sort, select.
     qf_merge    merge of two 35%-full filters.
     qf_locality the RSQF lookup's memory footprint: for each query (half
                 present, half absent) the byte ranges the device lookup loads
                 (gamq_qf_ref_contains mirrored word for word, checked against
                 it), counted in aligned 64-byte lines and 128-byte regions,
                 in the ALIGNED layout ("aligned") and with the same loads placed
                 at the packed layout's addresses ("packed-model", see its
                 LAYOUT HOOK); q = QF_BENCH_LOC_Q (default 26), r =
                 QF_BENCH_LOC_R (default 5,13), fills 0.5, 0.7, 0.9, 0.95,
                 2^22 queries. No timing.
     qf_memory   Table I: bytes per item at eps = 0.03, 1e-4, 5e-7 (fill *
                 2^-r <= eps), and at the paper's configuration (r = 5, 13, 21
                 at fill 0.95 RSQF, 0.75 SQF).
   Sizes: QF_BENCH_Q = comma list of q (default 23,30: the paper's filter and
   one of 1 GiB for r = 5, 2^30 one-byte slots; qf_dedup 28, qf_insdel 30).
   QF_BENCH_FILLS overrides the fill list of the sweeps (lookup, build,
   dedup, insdel, locality).
   Besides the table, one CSV line per row goes to stdout, prefixed "csv,":
     csv,bench,kind,q,r,fill,variant,n,ms,gitems_per_s
   (bench memory: ms = bytes per item, gitems_per_s = the paper's figure;
   bench locality: ms = the measure named by the variant, gitems_per_s 0).
   Expected run time on an H200 with the defaults: qf_dedup ~1-2 min,
   qf_insdel ~1 min, qf_locality and qf_memory seconds (estimates from the
   build and update rows of results/qf_h200.md; not yet run). */
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "bench.h"

#include <math.h>

#include <cub/cub.cuh>
#include <cuda_profiler_api.h>
#include <chrono>
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

/* an empty CUDA filter (exits on failure) */
static gamq_qf *bench_qf_create(gamq_qf_kind kind, int q, int r, gamq_scan_method method = GAMQ_SCAN_AUTO,
                                int dedup = 0, int by_inserts = 0) {
  gamq_qf_desc desc;
  memset(&desc, 0, sizeof desc);
  desc.backend = GAMQ_BACKEND_CUDA;
  desc.build_method = method;
  desc.dedup_build = dedup;
  desc.build_by_inserts = by_inserts;
  gamq_qf *f = NULL;
  gamq_status s = gamq_qf_create(&desc, kind, q, r, &f);
  if (s != GAMQ_SUCCESS) {
    fprintf(stderr, "qf create %s q%d r%d: %s\n", bench_qf_kind_name(kind), q, r, gamq_status_string(s));
    exit(2);
  }
  return f;
}

/* a CUDA filter holding `items` keys of stream 0 (from key index 0) */
static gamq_qf *bench_qf_make(gamq_qf_kind kind, int q, int r, size_t items, uint32_t *d_keys,
                              gamq_scan_method method = GAMQ_SCAN_AUTO) {
  gamq_qf *f = bench_qf_create(kind, q, r, method);
  bench_qf_keys(d_keys, items, 0, 0);
  gamq_status s = gamq_qf_build_u32_sync(f, d_keys, items, NULL);
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

/* the quotient filter paper's figures (GTX 1080, q = 23, r = 5), read off the text: RSQF
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
          memset(&bi, 0, sizeof bi);
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

static double bench_qf_env_double(const char *env, double dflt) {
  const char *s = getenv(env);
  return s && *s ? atof(s) : dflt;
}

/* the fingerprints of u32 keys as a filter of ref's q, r and seed computes
   them (gamq_qf_ref_fingerprint reads nothing else) */
__global__ void bench_qf_fps_kernel(gamq_qf_ref ref, const uint32_t *k, size_t n, uint64_t *fp) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    fp[i] = gamq_qf_ref_fingerprint(&ref, k[i]);
}
static void bench_qf_cub_row(const char *bench, int q, int r, double fill, const char *variant, size_t n, double ms,
                             double bytes) {
  char var[96];
  snprintf(var, sizeof var, "q%d a%.2f %s", q, fill, variant);
  bench_report_vs("qf CUB", var, n, ms, "-", 0, bytes);
  printf("csv,%s,CUB,%d,%d,%.3f,%s,%zu,%.4f,%.4f\n", bench, q, r, fill, variant, n, ms, n / (ms * 1e6));
  fflush(stdout);
}

/* Fig. 13 (see the top): builds with and without deduplication. Variants
   "<method> plain" / "<method> dedup", method = a gamq_scan_method_name or
   "by_inserts"; baseline = CUB's hash + sort (+ unique for dedup rows). */
BENCH(qf_dedup) {
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {28});
  std::vector<double> fills = bench_qf_fills({0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9});
  const double dup = std::min(0.5, std::max(0.0, bench_qf_env_double("QF_BENCH_DUP", 0.2)));
  const double ins_max_fill = bench_qf_env_double("QF_BENCH_INSERTS_MAX_FILL", 0.5);
  const double ins_max_ms = bench_qf_env_double("QF_BENCH_INSERTS_MAX_MS", 2000);
  const int r = 5;
  gamq_qf_kind kinds[2] = {GAMQ_QF_SQF, GAMQ_QF_RSQF};
  gamq_scan_method methods[4] = {GAMQ_SCAN_ASSOCIATIVE, GAMQ_SCAN_PARALLEL_MERGING, GAMQ_SCAN_SEQUENTIAL_SHIFTING,
                                 GAMQ_SCAN_SEGMENTED_LAYOUTS};
  printf("dedup: fill * 2^q input keys, the last %.0f%% of them copies of the first (more repeats come from 32-bit "
         "keys and fingerprint collisions: see the distinct counts)\n", 100 * dup);
  printf("dedup: by_inserts dedup rows skipped: with dedup_build the CUDA build ignores build_by_inserts (it is the "
         "associative dedup row)\n");
  double max_fill = 0;
  for (double x : fills) max_fill = std::max(max_fill, x);
  for (int q : qs) {
    if (q > 28) q = 28; /* the issue's figure: 2^28 slots */
    const size_t home = (size_t)1 << q;
    const size_t max_items = (size_t)(home * max_fill) + 1;
    uint32_t *d_keys = NULL;
    uint64_t *d_fp = NULL, *d_fp2 = NULL;
    int64_t *d_nsel = NULL;
    void *d_cub = NULL;
    size_t cub_bytes = 0;
    BENCH_CHECK(cudaMalloc(&d_keys, max_items * 4));
    BENCH_CHECK(cudaMalloc(&d_fp, max_items * 8));
    BENCH_CHECK(cudaMalloc(&d_fp2, max_items * 8));
    BENCH_CHECK(cudaMalloc(&d_nsel, sizeof(int64_t)));
    gamq_qf_ref ref; /* for the fingerprints: q, r, seed 0 as bench_qf_create's filters */
    memset(&ref, 0, sizeof ref);
    ref.kind = GAMQ_QF_SQF, ref.q = q, ref.r = r, ref.seed = 0;
    bool ins_stop[2] = {false, false}; /* a build by inserts took longer than ins_max_ms */
    for (double fill : fills) {
      const size_t items = (size_t)(home * fill);
      const size_t repeats = (size_t)(items * dup), distinct = items - repeats;
      bench_qf_keys(d_keys, distinct, 0, 0);
      if (repeats) BENCH_CHECK(cudaMemcpy(d_keys + distinct, d_keys, repeats * 4, cudaMemcpyDeviceToDevice));
      /* CUB: the hash, sort and unique steps alone */
      size_t t_sort = 0, t_uniq = 0;
      BENCH_CHECK(cub::DeviceRadixSort::SortKeys(NULL, t_sort, d_fp, d_fp2, (int64_t)items, 0, q + r));
      BENCH_CHECK(cub::DeviceSelect::Unique(NULL, t_uniq, d_fp2, d_fp, d_nsel, (int64_t)items));
      if (std::max(t_sort, t_uniq) > cub_bytes) {
        BENCH_CHECK(cudaFree(d_cub));
        cub_bytes = std::max(t_sort, t_uniq);
        BENCH_CHECK(cudaMalloc(&d_cub, cub_bytes));
      }
      auto hash_sort = [&] {
        size_t tb = t_sort;
        bench_qf_fps_kernel<<<2048, 256>>>(ref, d_keys, items, d_fp);
        cub::DeviceRadixSort::SortKeys(d_cub, tb, d_fp, d_fp2, (int64_t)items, 0, q + r);
      };
      const double sort_ms = bench_time_ms(hash_sort, 5, 1);
      const double uniq_ms = bench_time_ms([&] {
        size_t tb = t_uniq;
        hash_sort();
        cub::DeviceSelect::Unique(d_cub, tb, d_fp2, d_fp, d_nsel, (int64_t)items);
      }, 5, 1);
      int64_t nsel = 0;
      BENCH_CHECK(cudaMemcpy(&nsel, d_nsel, sizeof nsel, cudaMemcpyDeviceToHost));
      printf("dedup: q%d fill %.2f: %zu keys, %zu of them copies, %lld distinct fingerprints (%.1f%% removed by dedup)\n",
             q, fill, items, repeats, (long long)nsel, 100.0 * (1.0 - (double)nsel / (double)items));
      bench_qf_cub_row("dedup", q, r, fill, "hash+sort", items, sort_ms, items * 4.0);
      bench_qf_cub_row("dedup", q, r, fill, "hash+sort+unique", items, uniq_ms, items * 4.0);
      { /* the Bloom filter: repeats cost an insert each, and change nothing */
        gamq_bloom *bl = bench_qf_bloom(items, fill / 32.0, d_keys);
        const double ms = bench_time_ms([&] {
          gamq_bloom_clear(bl);
          gamq_bloom_insert_u32_sync(bl, d_keys, items, NULL);
        }, 5, 1);
        bench_qf_bloom_row("dedup", q, fill, "clear+insert", items, ms, "-", 0, items * 4.0);
        gamq_bloom_destroy(bl);
      }
      for (int ki = 0; ki < 2; ++ki) {
        const gamq_qf_kind kind = kinds[ki];
        char v[64];
        for (gamq_scan_method m : methods)
          for (int dd = 0; dd <= 1; ++dd) {
            gamq_qf *f = bench_qf_create(kind, q, r, m, dd);
            gamq_status st = GAMQ_SUCCESS;
            const double ms = bench_time_ms([&] { st = gamq_qf_build_u32_sync(f, d_keys, items, NULL); }, 3, 1);
            uint64_t cnt = 0;
            gamq_qf_count(f, &cnt);
            const uint64_t want = dd ? (uint64_t)nsel : (uint64_t)items;
            if (st != GAMQ_SUCCESS) printf("!!! dedup: %s %s build: %s\n", bench_qf_kind_name(kind),
                                           gamq_scan_method_name(m), gamq_status_string(st));
            else if (cnt != want)
              printf("!!! dedup: %s %s dedup_build %d: count %llu, expected %llu\n", bench_qf_kind_name(kind),
                     gamq_scan_method_name(m), dd, (unsigned long long)cnt, (unsigned long long)want);
            snprintf(v, sizeof v, "%s %s", gamq_scan_method_name(m), dd ? "dedup" : "plain");
            if (st == GAMQ_SUCCESS)
              bench_qf_row("dedup", kind, q, r, fill, v, items, ms, "CUB", dd ? uniq_ms : sort_ms, items * 4.0);
            gamq_qf_destroy(f);
          }
        /* build by inserts (plain only, see above): capped */
        if (fill > ins_max_fill + 1e-9 || ins_stop[ki]) {
          printf("dedup: %s by_inserts fill %.2f skipped (%s)\n", bench_qf_kind_name(kind), fill,
                 ins_stop[ki] ? "a lower fill took longer than QF_BENCH_INSERTS_MAX_MS" : "above QF_BENCH_INSERTS_MAX_FILL");
          continue;
        }
        gamq_qf *f = bench_qf_create(kind, q, r, GAMQ_SCAN_AUTO, 0, 1);
        gamq_status st = GAMQ_SUCCESS;
        auto build = [&] { st = gamq_qf_build_u32_sync(f, d_keys, items, NULL); };
        const double first = bench_time_ms(build, 1, 0);
        const int rounds = f->last_rounds;
        const bool once = st != GAMQ_SUCCESS || first >= ins_max_ms / 4; /* slow: one timed run */
        const double ms = once ? first : bench_time_ms(build, 3, 0);
        if (first > ins_max_ms) ins_stop[ki] = true;
        uint64_t cnt = 0;
        gamq_qf_count(f, &cnt);
        if (st != GAMQ_SUCCESS) printf("!!! dedup: %s by_inserts build: %s\n", bench_qf_kind_name(kind), gamq_status_string(st));
        else if (cnt != items)
          printf("!!! dedup: %s by_inserts: count %llu, expected %zu\n", bench_qf_kind_name(kind), (unsigned long long)cnt, items);
        printf("dedup: %s by_inserts fill %.2f: %d in-place rounds%s, %s\n", bench_qf_kind_name(kind), fill, rounds,
               rounds >= GAMQ__QF_BUILD_ROUNDS ? " (the cap: the rest went in by a rebuild)" : "",
               once ? "one timed run" : "median of 3");
        if (st == GAMQ_SUCCESS)
          bench_qf_row("dedup", kind, q, r, fill, "by_inserts plain", items, ms, "CUB", sort_ms, items * 4.0);
        gamq_qf_destroy(f);
      }
    }
    BENCH_CHECK(cudaFree(d_cub));
    BENCH_CHECK(cudaFree(d_keys));
    BENCH_CHECK(cudaFree(d_fp));
    BENCH_CHECK(cudaFree(d_fp2));
    BENCH_CHECK(cudaFree(d_nsel));
  }
}

/* insert a batch, then delete it again (the filter returns to its bytes);
   median of the reps after the first `warm` of each (0 ms: an error,
   printed). The path is the filter's (the private gamq_qf::path); *path
   (may be NULL) gets the one the last insert took, *ins_rounds /
   *del_rounds the last insert's / delete's in-place rounds (0: rebuilt). */
static void bench_qf_insert_delete(gamq_qf *f, const uint32_t *d_batch, size_t n, double *ins_ms, double *del_ms,
                                   int reps = 7, int warm = 2, int *path = NULL, int *ins_rounds = NULL,
                                   int *del_rounds = NULL) {
  cudaEvent_t a, b, c;
  BENCH_CHECK(cudaEventCreate(&a));
  BENCH_CHECK(cudaEventCreate(&b));
  BENCH_CHECK(cudaEventCreate(&c));
  std::vector<double> ti, td;
  for (int rep = 0; rep < reps; ++rep) {
    uint64_t deleted = 0;
    BENCH_CHECK(cudaEventRecord(a, 0));
    gamq_status s1 = gamq_qf_insert_u32_sync(f, d_batch, n, NULL);
    if (path) *path = f->last_path;
    if (ins_rounds) *ins_rounds = f->last_rounds;
    BENCH_CHECK(cudaEventRecord(b, 0));
    gamq_status s2 = gamq_qf_delete_u32_sync(f, d_batch, n, &deleted, NULL);
    if (del_rounds) *del_rounds = f->last_rounds;
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
    if (rep >= warm) ti.push_back(x), td.push_back(y);
  }
  std::sort(ti.begin(), ti.end());
  std::sort(td.begin(), td.end());
  *ins_ms = ti.empty() ? 0 : ti[ti.size() / 2];
  *del_ms = td.empty() ? 0 : td[td.size() / 2];
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaEventDestroy(c);
}

/* QF_BENCH_KEEP_POOL=1: raise the default memory pool's release threshold
   first, so the temporaries of a batch call (cudaMallocAsync, the library's
   default allocator) stay mapped between calls instead of being returned at
   each synchronisation - what a caching allocator hook gives a user. */
static void bench_qf_keep_pool(void) {
  const char *e = getenv("QF_BENCH_KEEP_POOL");
  if (!e || !*e || *e == '0') return;
  cudaMemPool_t pool;
  int dev = 0;
  uint64_t keep = ~(uint64_t)0;
  if (cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetDefaultMemPool(&pool, dev) == cudaSuccess &&
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess)
    printf("memory pool: release threshold raised (QF_BENCH_KEEP_POOL)\n");
}

BENCH(qf_update) {
  bench_qf_keep_pool();
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

static const char *bench_qf_path_name(int path) {
  return path == GAMQ__QF_BATCH_IN_PLACE  ? "in_place"
         : path == GAMQ__QF_BATCH_REBUILD ? "rebuild"
         : path == GAMQ__QF_BATCH_WINDOWS ? "windows"
                                          : "auto";
}

/* Fig. 10b (see the top): a batch inserted into and deleted from a filter
   at each fill. Variants "insert <path>[ rounds=R]", "delete <path>[
   rounds=R]"; path "auto->in_place" etc. names the path AUTO took; rounds =
   the in-place rounds of the last run (GAMQ__QF_MAX_ROUNDS = 32 means the
   cap: the rest went in by a rebuild). The paper's insert figure (2M keys at
   70%) stands beside the insert rows at fill 0.7. */
BENCH(qf_insdel) {
  bench_qf_keep_pool();
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {30});
  std::vector<double> fills = bench_qf_fills({0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9});
  const char *ps = getenv("QF_BENCH_INSDEL_PATHS");
  if (!ps || !*ps) ps = "auto,in_place,windows,rebuild";
  std::vector<gamq__qf_batch_path> paths;
  if (strstr(ps, "auto")) paths.push_back(GAMQ__QF_BATCH_AUTO);
  if (strstr(ps, "in_place")) paths.push_back(GAMQ__QF_BATCH_IN_PLACE);
  if (strstr(ps, "windows")) paths.push_back(GAMQ__QF_BATCH_WINDOWS);
  if (strstr(ps, "rebuild")) paths.push_back(GAMQ__QF_BATCH_REBUILD);
  gamq_qf_kind kinds[2] = {GAMQ_QF_SQF, GAMQ_QF_RSQF};
  double max_fill = 0;
  for (double x : fills) max_fill = std::max(max_fill, x);
  for (int q : qs) {
    const size_t home = (size_t)1 << q;
    const size_t max_items = (size_t)(home * max_fill) + 1;
    const int lg = std::min(20, q - 4); /* 2^20 keys, at most 1/16 of the home slots */
    if (lg < 1) continue;
    const size_t n = (size_t)1 << lg;
    uint32_t *d_keys = NULL, *d_batch = NULL;
    BENCH_CHECK(cudaMalloc(&d_keys, max_items * 4));
    BENCH_CHECK(cudaMalloc(&d_batch, n * 4));
    for (gamq_qf_kind kind : kinds)
      for (double fill : fills) {
        const size_t items = (size_t)(home * fill);
        gamq_qf *f = bench_qf_make(kind, q, 5, items, d_keys);
        bench_qf_keys(d_batch, n, items, 0); /* new keys: indices after the stored ones */
        for (gamq__qf_batch_path path : paths) {
          const bool rebuild = path == GAMQ__QF_BATCH_REBUILD; /* ~0.1-0.4 s a call at q 30: fewer reps */
          double ins = 0, del = 0;
          int taken = 0, ri = 0, rd = 0;
          f->path = path;
          bench_qf_insert_delete(f, d_batch, n, &ins, &del, rebuild ? 3 : 7, rebuild ? 1 : 2, &taken, &ri, &rd);
          uint64_t cnt = 0;
          gamq_qf_count(f, &cnt);
          if (cnt != items)
            printf("!!! insdel: %s fill %.2f %s: count %llu after insert + delete, built %zu\n",
                   bench_qf_kind_name(kind), fill, bench_qf_path_name(path), (unsigned long long)cnt, items);
          if (ins <= 0 || del <= 0) continue; /* an error, printed */
          char pn[32], v[64];
          if (path == GAMQ__QF_BATCH_AUTO) snprintf(pn, sizeof pn, "auto->%s", bench_qf_path_name(taken));
          else snprintf(pn, sizeof pn, "%s", bench_qf_path_name(path));
          const bool in_place = taken == GAMQ__QF_BATCH_IN_PLACE || taken == GAMQ__QF_BATCH_WINDOWS; /* windows: chain passes */
          const double base = fabs(fill - 0.7) < 1e-9 ? bench_qf_paper_ms(BENCH_QF_PAPER_INSERT_GPS, n) : 0;
          if (in_place) snprintf(v, sizeof v, "insert %s rounds=%d", pn, ri);
          else snprintf(v, sizeof v, "insert %s", pn);
          bench_qf_row("insdel", kind, q, 5, fill, v, n, ins, "paper", base, n * 4.0);
          if (in_place) snprintf(v, sizeof v, "delete %s rounds=%d", pn, rd);
          else snprintf(v, sizeof v, "delete %s", pn);
          bench_qf_row("insdel", kind, q, 5, fill, v, n, del, "-", 0, n * 4.0);
        }
        f->path = GAMQ__QF_BATCH_AUTO;
        gamq_qf_destroy(f);
      }
    BENCH_CHECK(cudaFree(d_keys));
    BENCH_CHECK(cudaFree(d_batch));
  }
}

/* qf_trace (a few seconds; --filter=qf_trace alone): one batch of 2^20
   inserted into and deleted from a 70%-full 2^30-slot filter (r 5), per kind
   and in-place path, timed as in qf_insdel, then once more between
   cudaProfilerStart / Stop so that `ncu --profile-from-start off` lists the
   kernels of exactly those calls (the gaps between them are launches and
   host synchronisations). QF_BENCH_Q, QF_BENCH_FILLS, QF_BENCH_INSDEL_PATHS
   as for qf_insdel; QF_BENCH_TRACE_LG: the batch sizes (log2, default 20). */
BENCH(qf_trace) {
  bench_qf_keep_pool();
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_Q", {30});
  std::vector<double> fills = bench_qf_fills({0.7});
  const char *ps = getenv("QF_BENCH_INSDEL_PATHS");
  if (!ps || !*ps) ps = "in_place,windows";
  for (int q : qs)
    for (double fill : fills) {
      const size_t home = (size_t)1 << q, items = (size_t)(home * fill);
      const std::vector<int> lgs = bench_qf_list_int("QF_BENCH_TRACE_LG", {std::min(20, q - 4)});
      size_t max_n = 1;
      for (int lg : lgs) max_n = std::max(max_n, (size_t)1 << lg);
      uint32_t *d_keys = NULL, *d_batch = NULL;
      BENCH_CHECK(cudaMalloc(&d_keys, items * 4));
      BENCH_CHECK(cudaMalloc(&d_batch, max_n * 4));
      for (gamq_qf_kind kind : {GAMQ_QF_SQF, GAMQ_QF_RSQF}) {
        gamq_qf *f = bench_qf_make(kind, q, 5, items, d_keys);
        for (int lg : lgs)
        for (gamq__qf_batch_path path : {GAMQ__QF_BATCH_IN_PLACE, GAMQ__QF_BATCH_WINDOWS}) {
          const size_t n = (size_t)1 << lg;
          bench_qf_keys(d_batch, n, items, 0);
          if (!strstr(ps, bench_qf_path_name(path))) continue;
          double ins = 0, del = 0;
          int ri = 0, rd = 0;
          f->path = path;
          bench_qf_insert_delete(f, d_batch, n, &ins, &del, 7, 2, NULL, &ri, &rd);
          printf("trace %s q%d fill %.2f 2^%d %s: insert %.3f ms (rounds %d), delete %.3f ms (rounds %d)\n",
                 bench_qf_kind_name(kind), q, fill, lg, bench_qf_path_name(path), ins, ri, del, rd);
          uint64_t deleted = 0;
          BENCH_CHECK(cudaDeviceSynchronize());
          cudaProfilerStart();
          gamq_status s1 = gamq_qf_insert_u32_sync(f, d_batch, n, NULL);
          gamq_status s2 = gamq_qf_delete_u32_sync(f, d_batch, n, &deleted, NULL);
          BENCH_CHECK(cudaDeviceSynchronize());
          cudaProfilerStop();
          if (s1 != GAMQ_SUCCESS || s2 != GAMQ_SUCCESS || deleted != n) printf("!!! trace: insert or delete failed\n");
        }
        f->path = GAMQ__QF_BATCH_AUTO;
        gamq_qf_destroy(f);
      }
      BENCH_CHECK(cudaFree(d_keys));
      BENCH_CHECK(cudaFree(d_batch));
    }
}

/* qf_parts (--filter=qf_parts alone): what the fixed cost of a batch call
   is made of, by host wall clock over 200 repetitions each ending in a
   stream synchronisation: an empty sync, one and ten empty launches, a
   24-byte read back, six pool allocations and frees, and the hash + sort and
   the flagged select of 2^14 and 2^20 fingerprints (QF_BENCH_TRACE_LG). */
static __global__ void bench_qf_empty_kernel(int *p) {
  if (p && threadIdx.x == 1024) *p = 0;
}
BENCH(qf_parts) {
  bench_qf_keep_pool();
  const std::vector<int> lgs = bench_qf_list_int("QF_BENCH_TRACE_LG", {14, 20});
  size_t max_n = 1;
  for (int lg : lgs) max_n = std::max(max_n, (size_t)1 << lg);
  cudaStream_t st = 0;
  const int reps = 200;
  void *d_small = NULL;
  BENCH_CHECK(cudaMalloc(&d_small, 64));
  char h_small[64];
  auto wall_us = [&](auto &&body) {
    for (int i = 0; i < 5; ++i) {
      body();
      BENCH_CHECK(cudaStreamSynchronize(st));
    }
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) {
      body();
      BENCH_CHECK(cudaStreamSynchronize(st));
    }
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps;
  };
  printf("parts: empty sync %.1f us\n", wall_us([] {}));
  printf("parts: 1 empty launch %.1f us\n", wall_us([&] { bench_qf_empty_kernel<<<1, 32, 0, st>>>(NULL); }));
  printf("parts: 10 empty launches %.1f us\n", wall_us([&] {
           for (int i = 0; i < 10; ++i) bench_qf_empty_kernel<<<1, 32, 0, st>>>(NULL);
         }));
  printf("parts: 10 launches of 4096 blocks %.1f us\n", wall_us([&] {
           for (int i = 0; i < 10; ++i) bench_qf_empty_kernel<<<4096, 256, 0, st>>>(NULL);
         }));
  printf("parts: 24-byte read back %.1f us\n",
         wall_us([&] { BENCH_CHECK(cudaMemcpyAsync(h_small, d_small, 24, cudaMemcpyDeviceToHost, st)); }));
  printf("parts: memset 64 B %.1f us\n", wall_us([&] { BENCH_CHECK(cudaMemsetAsync(d_small, 0, 64, st)); }));
  for (int lg : lgs) {
    const size_t n = (size_t)1 << lg;
    printf("parts: 2^%d: 6 pool allocations + frees %.1f us\n", lg, wall_us([&] {
             void *p[6];
             for (int i = 0; i < 6; ++i) BENCH_CHECK(cudaMallocAsync(&p[i], n * 8 + 4096 * i, st));
             for (int i = 0; i < 6; ++i) BENCH_CHECK(cudaFreeAsync(p[i], st));
           }));
  }
  gamq_qf *f = bench_qf_create(GAMQ_QF_SQF, 30, 5, GAMQ_SCAN_AUTO);
  uint32_t *d_keys = NULL;
  uint64_t *d_fp = NULL, *d_out = NULL;
  uint8_t *d_flags = NULL;
  size_t *d_cnt = NULL;
  BENCH_CHECK(cudaMalloc(&d_keys, max_n * 4));
  BENCH_CHECK(cudaMalloc(&d_fp, max_n * 8));
  BENCH_CHECK(cudaMalloc(&d_out, max_n * 8));
  BENCH_CHECK(cudaMalloc(&d_flags, max_n));
  BENCH_CHECK(cudaMalloc(&d_cnt, sizeof(size_t)));
  BENCH_CHECK(cudaMemset(d_flags, 1, max_n));
  bench_qf_keys(d_keys, max_n, 0, 0);
  for (int lg : lgs) {
    const size_t n = (size_t)1 << lg;
    size_t t = 0, t2 = 0;
    BENCH_CHECK(gamq__cuda_qf_sort(&f->f, NULL, n, NULL, &t, st));
    BENCH_CHECK(gprim_select_flagged((void *)NULL, &t2, (const uint64_t *)d_fp, (const uint8_t *)d_flags, d_out, d_cnt, n, st));
    void *d_t = NULL;
    BENCH_CHECK(cudaMalloc(&d_t, std::max(t, t2)));
    printf("parts: 2^%d: hash %.1f us\n", lg, wall_us([&] { BENCH_CHECK(gamq__cuda_qf_hash(&f->f, d_keys, 4, n, d_fp, st)); }));
    printf("parts: 2^%d: hash + sort %.1f us\n", lg, wall_us([&] {
             size_t tt = t;
             BENCH_CHECK(gamq__cuda_qf_hash(&f->f, d_keys, 4, n, d_fp, st));
             BENCH_CHECK(gamq__cuda_qf_sort(&f->f, d_fp, n, d_t, &tt, st));
           }));
    printf("parts: 2^%d: select flagged %.1f us\n", lg, wall_us([&] {
             size_t tt = t2;
             BENCH_CHECK(gprim_select_flagged(d_t, &tt, (const uint64_t *)d_fp, (const uint8_t *)d_flags, d_out, d_cnt, n, st));
           }));
    BENCH_CHECK(cudaFree(d_t));
  }
  gamq_qf_destroy(f);
  cudaFree(d_keys), cudaFree(d_fp), cudaFree(d_out), cudaFree(d_flags), cudaFree(d_cnt), cudaFree(d_small);
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

/* ---- qf_locality: which bytes an RSQF lookup loads ----
   The issue: "lay blocks out so that a lookup touches one aligned 64- or
   128-byte region whenever the run is in the block; measure that it does".
   bench_loc_lookup is gamq__ref_rsqf_contains (gpuamq.h, the CUDA lookup
   path) step for step, with its select (gamq__ref_rsqf_select) and offset
   rebuild (gamq__ref_rsqf_offset): the same loads in the same order, each
   reported to bench_loc_touch as the byte range the device loads (8-byte
   words: occupieds, runends, the word holding the offset byte, the one or
   two words holding a remainder). The values come from the host reference's
   accessors (gamq__rsqf_occupieds, _runends, _stored_offset, _rem: the
   same bytes), and the kernel checks every answer against
   gamq_qf_ref_contains_fp. */

/* ---- LAYOUT HOOK: the one place to change for another RSQF layout ----
   Where the loads land, for layout `packed`:
   0, "aligned" (the ALIGNED layout, gpuamq.h "RSQF"): block b at
   gamq__rsqf_block(f, b), of gamq__rsqf_block_bytes(r) bytes (64 for r <= 5,
   128 for r <= 13): occupieds at byte 0, runends at 8, the offset byte at
   16 (the device loads the word 16..23), remainders from byte 24.
   1, "packed" (the PACKED layout): blocks of 16 + 8r bytes at data + b (16
   + 8r): occupieds 0, runends 8, remainders from 16; the offset bytes in a
   side array after the blocks, block b's at data + nblocks (16 + 8r) + b.
   The loads themselves (which words, in which order) do not depend on the
   layout: the filter's logical content is a function of its multiset. So
   qf_locality also reports a "packed-model" row: the same lookups on an
   ALIGNED filter, their loads placed at the packed layout's addresses
   (from the same 256-byte aligned base), assuming the packed lookup loads
   the same 8-byte words (16 + 8r is a multiple of 8, so it can).
   The filter measured is ALIGNED (the library's default); the packed row
   places the same loads at the PACKED layout's addresses (offset byte at
   data + nblocks * (16 + 8r) + b, remainder words from word 2, as
   gamq__rsqf_offset_at / gamq__rsqf_rem_byte), which is what a PACKED
   filter of the same keys loads. The values always come from the library's
   own accessors (gamq__rsqf_occupieds, ...), so only these three functions
   place bytes. */
static GAMQ__HD const uint8_t *bench_loc_block(const gamq__qf *f, uint64_t b, int packed) {
  return f->data + b * (uint64_t)gamq__rsqf_stride_of(f->r, packed);
}
/* the bytes loaded for block b's offset */
static GAMQ__HD void bench_loc_offset_at(const gamq__qf *f, uint64_t b, int packed, const uint8_t **p, size_t *len) {
  if (packed) *p = f->data + f->nslots / 64 * (uint64_t)(16 + 8 * f->r) + b, *len = 1;
  else *p = bench_loc_block(f, b, 0) + 16, *len = 8;
}
/* the bytes loaded for the remainder of slot s: the word of the block's
   remainder stream (from byte 24, packed 16) holding bit (s mod 64) * r,
   and the next word when the remainder crosses into it (as
   gamq__ref_rsqf_word_rem) */
static GAMQ__HD void bench_qf_rsqf_rem_byte_range(const gamq__qf *f, uint64_t s, int packed, const uint8_t **p,
                                                  size_t *len) {
  const uint64_t bit = (s & 63) * (uint64_t)f->r;
  *p = bench_loc_block(f, s >> 6, packed) + (packed ? 16 : 24) + 8 * (bit / 64);
  *len = (bit & 63) + (uint64_t)f->r > 64 ? 16 : 8;
}
/* ---- end of the layout hook ---- */

#define BENCH_LOC_MAX_LINES 64
struct bench_loc_trace {
  uintptr_t line[BENCH_LOC_MAX_LINES]; /* the distinct 64-byte lines read (address / 64) */
  int nlines;       /* how many (past the array: counted again, not deduplicated; see over) */
  uintptr_t region; /* the first aligned 128-byte region read */
  int regions;      /* 0: none yet, 1: every read in `region`, 2: more than one */
  uint64_t bmin, bmax; /* the blocks read (a side-array offset counts as its block's) */
  int run, sat;     /* the quotient has a run; its block's stored offset was 255 (walked back) */
  int packed;       /* the layout the addresses are placed in (the hook above) */
};
static GAMQ__HD void bench_loc_touch(bench_loc_trace *t, const uint8_t *p, size_t len, uint64_t block) {
  const uintptr_t lo = (uintptr_t)p, hi = lo + len - 1;
  for (uintptr_t l = lo / 64; l <= hi / 64; ++l) {
    const int m = t->nlines < BENCH_LOC_MAX_LINES ? t->nlines : BENCH_LOC_MAX_LINES;
    int k = 0;
    while (k < m && t->line[k] != l) ++k;
    if (k < m) continue; /* seen */
    if (t->nlines < BENCH_LOC_MAX_LINES) t->line[t->nlines] = l;
    ++t->nlines;
  }
  for (uintptr_t g = lo / 128; g <= hi / 128; ++g) {
    if (t->regions == 0) t->region = g, t->regions = 1;
    else if (g != t->region) t->regions = 2;
  }
  if (block < t->bmin) t->bmin = block;
  if (block > t->bmax) t->bmax = block;
}
/* gamq__ref_rsqf_select, traced */
static GAMQ__HD uint64_t bench_loc_select(const gamq__qf *f, uint64_t pos, uint64_t d, bench_loc_trace *t) {
  while (pos < f->nslots) {
    const uint64_t b = pos >> 6;
    bench_loc_touch(t, bench_loc_block(f, b, t->packed) + 8, 8, b);
    const uint64_t e = gamq__rsqf_runends(f, b) & (~(uint64_t)0 << (pos & 63));
    const uint64_t c = (uint64_t)gamq__popcount64(e);
    if (c >= d) return b * 64 + (uint64_t)gamq__select64(e, (int)(d - 1));
    d -= c;
    pos = (b + 1) * 64;
  }
  return f->nslots;
}
static GAMQ__HD uint64_t bench_loc_stored_offset(const gamq__qf *f, uint64_t b, bench_loc_trace *t) {
  const uint8_t *p;
  size_t len;
  bench_loc_offset_at(f, b, t->packed, &p, &len);
  bench_loc_touch(t, p, len, b);
  return gamq__rsqf_stored_offset(f, b);
}
/* gamq__ref_rsqf_offset, traced */
static GAMQ__HD uint64_t bench_loc_offset(const gamq__qf *f, uint64_t b, bench_loc_trace *t) {
  uint64_t a = b, off;
  while (a > 0 && bench_loc_stored_offset(f, a, t) == GAMQ__RSQF_OFFSET_MAX) --a;
  off = bench_loc_stored_offset(f, a, t);
  for (++a; a <= b; ++a) {
    const uint64_t lo = (a - 1) * 64;
    bench_loc_touch(t, bench_loc_block(f, a - 1, t->packed), 8, a - 1);
    const uint64_t occ = gamq__rsqf_occupieds(f, a - 1);
    const uint64_t end = occ ? bench_loc_select(f, lo + off, (uint64_t)gamq__popcount64(occ), t) + 1 : lo + off;
    off = end > a * 64 ? end - a * 64 : 0;
  }
  return off;
}
/* gamq__ref_rsqf_contains, traced: the answer, and *t (addresses in layout
   `packed`) */
static inline GAMQ__HD int bench_loc_lookup(const gamq__qf *f, uint64_t fq, uint64_t fr, int packed,
                                            bench_loc_trace *t) {
  const uint64_t b = fq >> 6, i = fq & 63;
  uint64_t off, s, v;
  t->nlines = 0, t->regions = 0, t->region = 0, t->bmin = ~(uint64_t)0, t->bmax = 0, t->run = 0, t->sat = 0;
  t->packed = packed;
  bench_loc_touch(t, bench_loc_block(f, b, packed), 8, b);
  const uint64_t occ = gamq__rsqf_occupieds(f, b);
  if (!((occ >> i) & 1)) return 0;
  t->run = 1;
  off = bench_loc_stored_offset(f, b, t);
  if (off == GAMQ__RSQF_OFFSET_MAX) t->sat = 1, off = bench_loc_offset(f, b, t);
  s = bench_loc_select(f, b * 64 + off, (uint64_t)gamq__popcount64(occ & (~(uint64_t)0 >> (63 - i))), t);
  for (;;) { /* the run ends at s; remainders ascend towards it */
    const uint8_t *p;
    size_t len;
    bench_qf_rsqf_rem_byte_range(f, s, packed, &p, &len);
    bench_loc_touch(t, p, len, s >> 6);
    v = gamq__rsqf_rem(f, s);
    if (v == fr) return 1;
    if (v < fr || s == fq) return 0;
    --s;
    bench_loc_touch(t, bench_loc_block(f, s >> 6, packed) + 8, 8, s >> 6);
    if (gamq__rsqf_runend(f, s)) return 0; /* the run before */
  }
}

/* sums over lookups */
struct bench_loc_stats {
  unsigned long long n, found, mismatch; /* lookups; answered 1; answers unlike gamq_qf_ref_contains_fp's */
  unsigned long long run, home, sat;     /* quotient has a run; ... and every read in its home block; walked back */
  unsigned long long lines, max_lines, over; /* 64-byte lines read (sum, max), lookups past BENCH_LOC_MAX_LINES */
  unsigned long long one64, one128;      /* lookups reading one 64-byte line / one aligned 128-byte region */
  unsigned long long home_one64, home_one128; /* the same among the `home` ones */
};
static inline GAMQ__HD void bench_loc_add(bench_loc_stats *a, const bench_loc_trace *t, uint64_t home_block, int found,
                                   int ref_found) {
  const int one64 = t->nlines == 1, one128 = t->regions == 1;
  a->n += 1, a->found += found != 0, a->mismatch += (found != 0) != (ref_found != 0);
  a->lines += (unsigned long long)t->nlines, a->over += t->nlines > BENCH_LOC_MAX_LINES;
  if ((unsigned long long)t->nlines > a->max_lines) a->max_lines = (unsigned long long)t->nlines;
  a->one64 += one64, a->one128 += one128;
  if (t->run) {
    a->run += 1, a->sat += t->sat;
    if (t->bmin == home_block && t->bmax == home_block) a->home += 1, a->home_one64 += one64, a->home_one128 += one128;
  }
}
static void bench_loc_sum(bench_loc_stats *a, const bench_loc_stats *b) {
  a->n += b->n, a->found += b->found, a->mismatch += b->mismatch, a->run += b->run, a->home += b->home;
  a->sat += b->sat, a->lines += b->lines, a->max_lines = std::max(a->max_lines, b->max_lines), a->over += b->over;
  a->one64 += b->one64, a->one128 += b->one128, a->home_one64 += b->home_one64, a->home_one128 += b->home_one128;
}
__global__ void bench_qf_locality_kernel(gamq__qf f, gamq_qf_ref ref, const uint32_t *keys, size_t n, int packed,
                                         bench_loc_stats *out) {
  bench_loc_stats a = {};
  bench_loc_trace t;
  const uint64_t rmask = ((uint64_t)1 << f.r) - 1;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t fp = gamq_qf_ref_fingerprint(&ref, keys[i]);
    const int found = bench_loc_lookup(&f, fp >> f.r, fp & rmask, packed, &t);
    bench_loc_add(&a, &t, (fp >> f.r) >> 6, found, gamq_qf_ref_contains_fp(&ref, fp));
  }
  if (!a.n) return;
  atomicAdd(&out->n, a.n), atomicAdd(&out->found, a.found), atomicAdd(&out->mismatch, a.mismatch);
  atomicAdd(&out->run, a.run), atomicAdd(&out->home, a.home), atomicAdd(&out->sat, a.sat);
  atomicAdd(&out->lines, a.lines), atomicMax(&out->max_lines, a.max_lines), atomicAdd(&out->over, a.over);
  atomicAdd(&out->one64, a.one64), atomicAdd(&out->one128, a.one128);
  atomicAdd(&out->home_one64, a.home_one64), atomicAdd(&out->home_one128, a.home_one128);
}
static double bench_loc_frac(unsigned long long x, unsigned long long of) { return of ? (double)x / (double)of : 0; }
/* one printed line and the csv rows of one query set */
static void bench_loc_report(int q, int r, double fill, const char *layout, const char *set, const bench_loc_stats &a) {
  printf("locality: RSQF q%d r%-2d a%.2f %-12s %-7s %8llu lookups: run %5.1f%%, of those in the home block %5.1f%% "
         "walked back %5.2f%% | one 64B line %5.1f%% (home runs %5.1f%%), one 128B region %5.1f%% (home runs "
         "%5.1f%%) | lines mean %.3f max %llu%s\n",
         q, r, fill, layout, set, a.n, 100 * bench_loc_frac(a.run, a.n), 100 * bench_loc_frac(a.home, a.run),
         100 * bench_loc_frac(a.sat, a.run), 100 * bench_loc_frac(a.one64, a.n), 100 * bench_loc_frac(a.home_one64, a.home),
         100 * bench_loc_frac(a.one128, a.n), 100 * bench_loc_frac(a.home_one128, a.home), bench_loc_frac(a.lines, a.n),
         a.max_lines, a.over ? " (some past the line list: over-counted)" : "");
  const struct {
    const char *name;
    double v;
  } m[9] = {{"run", bench_loc_frac(a.run, a.n)},
            {"home", bench_loc_frac(a.home, a.run)},
            {"walkback", bench_loc_frac(a.sat, a.run)},
            {"one64", bench_loc_frac(a.one64, a.n)},
            {"one128", bench_loc_frac(a.one128, a.n)},
            {"home_one64", bench_loc_frac(a.home_one64, a.home)},
            {"home_one128", bench_loc_frac(a.home_one128, a.home)},
            {"lines_mean", bench_loc_frac(a.lines, a.n)},
            {"lines_max", (double)a.max_lines}};
  for (int k = 0; k < 9; ++k)
    printf("csv,locality,RSQF,%d,%d,%.3f,%s %s %s,%llu,%.4f,0\n", q, r, fill, layout, set, m[k].name, a.n, m[k].v);
  fflush(stdout);
}

/* The lookup's footprint (see the top and above). csv variants "<layout>
   <set> <measure>": layout aligned (the filter's own) or
   packed-model (see the layout hook); set present / absent / all;
   measures: run (fraction of the lookups whose quotient has a run), home
   (of those, the fraction that read nothing outside the home block: run in
   the block, offset not saturated), walkback (of those, stored offset 255),
   one64 / one128 (fraction of all lookups reading one aligned 64-byte line
   / 128-byte region), home_one64 / home_one128 (the same among the home
   ones: the issue's claim, 1.0 for r <= 5 / r <= 13 in the aligned
   layout), lines_mean, lines_max (distinct 64-byte lines a lookup reads). */
BENCH(qf_locality) {
  std::vector<int> qs = bench_qf_list_int("QF_BENCH_LOC_Q", {26});
  std::vector<int> rs = bench_qf_list_int("QF_BENCH_LOC_R", {5, 13});
  std::vector<double> fills = bench_qf_fills({0.5, 0.7, 0.9, 0.95});
  const char *layouts[2] = {"aligned", "packed-model"};
  const char *sets[3] = {"present", "absent", "all"};
  double max_fill = 0;
  for (double x : fills) max_fill = std::max(max_fill, x);
  printf("locality: 8-byte word loads as gamq_qf_ref_contains does them; aligned = the ALIGNED layout, packed-model = "
         "the same loads at the packed layout's addresses (16 + 8r bytes a block, offsets in a side array)\n");
  for (int q : qs) {
    const size_t home = (size_t)1 << q;
    const size_t nq = std::min((size_t)1 << 22, home), half = nq / 2;
    const size_t max_items = (size_t)(home * max_fill) + 1;
    uint32_t *d_keys = NULL, *d_query = NULL;
    bench_loc_stats *d_st = NULL;
    BENCH_CHECK(cudaMalloc(&d_keys, max_items * 4));
    BENCH_CHECK(cudaMalloc(&d_query, nq * 4));
    BENCH_CHECK(cudaMalloc(&d_st, 4 * sizeof(bench_loc_stats)));
    for (int r : rs)
      for (double fill : fills) {
        const size_t items = (size_t)(home * fill);
        if (items == 0) continue;
        gamq_qf *f = bench_qf_make(GAMQ_QF_RSQF, q, r, items, d_keys);
        for (size_t done = 0; done < half; done += items) bench_qf_keys(d_query + done, std::min(items, half - done), 0, 0);
        bench_qf_keys(d_query + half, nq - half, 0, 1);
        gamq_qf_ref ref;
        if (gamq_qf_get_ref(f, &ref) != GAMQ_SUCCESS) {
          fprintf(stderr, "qf_locality: gamq_qf_get_ref failed\n");
          exit(2);
        }
        BENCH_CHECK(cudaMemset(d_st, 0, 4 * sizeof(bench_loc_stats)));
        for (int packed = 0; packed < 2; ++packed) { /* stats [2 packed + 0] present, [2 packed + 1] absent */
          bench_qf_locality_kernel<<<1024, 256>>>(f->f, ref, d_query, half, packed, d_st + 2 * packed);
          BENCH_CHECK(cudaGetLastError());
          bench_qf_locality_kernel<<<1024, 256>>>(f->f, ref, d_query + half, nq - half, packed, d_st + 2 * packed + 1);
          BENCH_CHECK(cudaGetLastError());
        }
        bench_loc_stats h[4];
        BENCH_CHECK(cudaMemcpy(h, d_st, 4 * sizeof(bench_loc_stats), cudaMemcpyDeviceToHost));
        for (int packed = 0; packed < 2; ++packed) {
          bench_loc_stats st[3] = {h[2 * packed], h[2 * packed + 1], h[2 * packed]};
          bench_loc_sum(&st[2], &st[1]);
          if (st[0].found != st[0].n)
            printf("!!! locality: %llu of %llu present keys found\n", st[0].found, st[0].n);
          if (st[2].mismatch)
            printf("!!! locality: %llu traced answers differ from gamq_qf_ref_contains\n", st[2].mismatch);
          for (int k = 0; k < 3; ++k) bench_loc_report(q, r, fill, layouts[packed], sets[k], st[k]);
        }
        gamq_qf_destroy(f);
      }
    BENCH_CHECK(cudaFree(d_keys));
    BENCH_CHECK(cudaFree(d_query));
    BENCH_CHECK(cudaFree(d_st));
  }
}

/* Table I: bytes per stored item.
   Strict rows: at the fill that keeps the false-positive rate at eps (FP ~=
   fill * 2^-r <= eps), the fill capped at 0.95 (RSQF) / 0.75 (SQF: the
   paper's rules); r = the cheapest per item. Paper-config rows: the paper's
   own configuration, r = 5, 13, 21 at fill 0.95 (RSQF) / 0.75 (SQF), eps ~=
   2^-r (RSQF 17 + 8r bytes per 64 slots at 0.95 and r = 5: 0.9375 B/item,
   the paper's 0.94). q = 30 (a 1 GiB filter at r = 5: the slack slots are
   negligible). The paper printed two significant digits: "<= paper"
   compares at that rounding. csv variants: "eps=E" (strict, the
   ALIGNED layout), "eps=E layout=L" (strict, other layouts),
   "config eps=E layout=L" (paper config). */
static double bench_qf_round2(double x) {
  double m = 1;
  while (x * m < 10) m *= 10;
  return floor(x * m + 0.5) / m;
}

/* ---- LAYOUT HOOK (Table I) ----
   The slots and bytes of a filter of kind, q, r in layout `layout`: 0 =
   ALIGNED (RSQF blocks rounded up to whole 64-byte lines), 1 = the PACKED
   RSQF layout (blocks of 16 + 8r bytes, one offset byte a block in a side
   array: 17 + 8r bytes per 64 slots; gamq_qf_desc.layout =
   GAMQ_QF_LAYOUT_PACKED), both from the library's own size function. 0: no such layout (SQF has one) or bad
   parameters. */
#define BENCH_QF_LAYOUTS 2
static int bench_qf_layout_bytes(gamq__qf_kind kind, int q, int r, int layout, uint64_t *nslots, size_t *bytes,
                                 const char **name) {
  if (layout == 0) {
    *name = "aligned";
    return gamq__qf_layout_packed(kind, q, r, 0, nslots, bytes);
  }
  if (layout == 1 && kind == GAMQ__QF_RSQF) {
    *name = "packed";
    return gamq__qf_layout_packed(kind, q, r, 1, nslots, bytes);
  }
  return 0;
}

BENCH(qf_memory) {
  const double eps[3] = {0.03, 1e-4, 5e-7};
  const double paper_sqf[3] = {1.3, 2.7, 4.0}, paper_rsqf[3] = {0.94, 2.0, 3.0};
  const int paper_r[3] = {5, 13, 21};
  const int q = 30;
  const double home = (double)((uint64_t)1 << q);
  for (int e = 0; e < 3; ++e)
    for (int kind = 1; kind <= 2; ++kind)
      for (int layout = 0; layout < BENCH_QF_LAYOUTS; ++layout) {
        double cap = kind == GAMQ_QF_SQF ? 0.75 : 0.95;
        int best_r = -1;
        double best = 1e30, best_fill = 0;
        const char *name = "";
        for (int r = 1; r <= 32; ++r) {
          uint64_t nslots = 0;
          size_t bytes = 0;
          if (!bench_qf_layout_bytes((gamq__qf_kind)kind, q, r, layout, &nslots, &bytes, &name)) continue;
          double fill = std::min(cap, eps[e] * (double)((uint64_t)1 << r));
          double per_item = bytes / (fill * home);
          if (per_item < best) best = per_item, best_r = r, best_fill = fill;
        }
        if (best_r < 0) continue; /* no such layout for this kind */
        double paper = kind == GAMQ_QF_SQF ? paper_sqf[e] : paper_rsqf[e];
        char lay[48] = "";
        if (layout) snprintf(lay, sizeof lay, " layout=%s", name);
        printf("table1: %-4s eps %-7.1e r %2d fill %.3f  %.3f bytes/item (paper %.2f)%s%s\n",
               bench_qf_kind_name((gamq_qf_kind)kind), eps[e], best_r, best_fill, best, paper,
               bench_qf_round2(best) <= paper + 1e-9 ? "  <= paper" : "  !!! worse than the paper", lay);
        printf("csv,memory,%s,%d,%d,%.3f,eps=%g%s,0,%.4f,%.4f\n", bench_qf_kind_name((gamq_qf_kind)kind), q, best_r,
               best_fill, eps[e], lay, best, paper);
      }
  for (int e = 0; e < 3; ++e) /* the paper's configuration */
    for (int kind = 1; kind <= 2; ++kind)
      for (int layout = 0; layout < BENCH_QF_LAYOUTS; ++layout) {
        const int r = paper_r[e];
        const double fill = kind == GAMQ_QF_SQF ? 0.75 : 0.95;
        uint64_t nslots = 0;
        size_t bytes = 0;
        const char *name = "";
        if (!bench_qf_layout_bytes((gamq__qf_kind)kind, q, r, layout, &nslots, &bytes, &name)) continue;
        const double per_item = bytes / (fill * home);
        const double paper = kind == GAMQ_QF_SQF ? paper_sqf[e] : paper_rsqf[e];
        printf("table1 paper config: %-4s r %2d fill %.2f (FP ~ fill * 2^-r = %.1e, paper eps %g) %-14s %.3f "
               "bytes/item (paper %.2f)%s\n",
               bench_qf_kind_name((gamq_qf_kind)kind), r, fill, fill / (double)((uint64_t)1 << r), eps[e], name,
               per_item, paper, bench_qf_round2(per_item) <= paper + 1e-9 ? "  <= paper" : "  !!! worse than the paper");
        printf("csv,memory,%s,%d,%d,%.3f,config eps=%g layout=%s,0,%.4f,%.4f\n", bench_qf_kind_name((gamq_qf_kind)kind),
               q, r, fill, eps[e], name, per_item, paper);
      }
}
