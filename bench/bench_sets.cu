/* bench_sets.cu - set intersection (gpuclique.h section 7): the CUDA
   methods beside a device-to-device copy of the same bytes and beside the
   HOST backend.

   SISI (the set intersection paper's single-instance problem): two uniform
   sets of n elements each over U = 10^9 (gclq_sets_generate, fixed size),
   n = 10^7 and 10^8. Per method (merge-path, binary-search, auto, hash,
   bitmap, bitmap-dynamic, ip-obs, ip-hash), count and materialise:
     - "dev" rows: the device work alone on device-resident sets (the
       kernels; materialise: count, the tiles' scan, write), median of 15,
       baseline "copy" = cudaMemcpyAsync of the same input bytes (device to
       device) timed in the same run, so ratio = copy ms / ours ms and the %
       column is against the run's 1 GiB copy bandwidth. bytes = both sets
       read once (+ the intersection written, materialised).
     - "device api" rows (count): gclq_intersect_pairs_device on
       device-resident sets and pairs (tile tables built on the device),
       median of 15, beside the same copy.
     - "call" rows: gclq_intersect_pair as a user calls it (upload, kernels,
       answer back), one run, baseline "HOST" = the host backend's call.
   Batched pairs: every edge (u < v) of an R-MAT graph (gclq_graph_rmat,
   edge factor 16) as a pair of adjacency lists (gclq_sets_from_graph: the
   triangle workload), counts; "dev" rows beside the copy of the pairs'
   bytes (sum of |N(u)| + |N(v)| words, each pair's lists read once), "call"
   rows beside HOST; the same over the data graphs (BENCH sets_graphs, with
   each graph's triangles checked against its reference).
   Besides the table, one line per row prefixed "sets," with the answer
   (count / total), so a run checks CUDA against HOST as it goes.
   Environment:
     SETS_SISI   SISI sizes, e.g. "10000000,100000000" (the default)
     SETS_RMAT   R-MAT scales, e.g. "16,17,18" (the default; 0: none)
     SETS_TWO_PASSES  set: the "dev" write rows time a count pass and a
                 write pass even where the library runs one pass
     SETS_METHODS  the methods of these rows, e.g. "merge-path,bitmap"
                 (default: every method)
     SETS_BLOCK_CUTS  1: every block tile finds its own ends (the
                 gclq__sets_cuts_in_blocks hook, as when the budget has no
                 room for the partition kernel's cuts)
     SETS_STREAM 0: the bitmaps' count pass of large pairs runs from the
                 partition kernel's records; 1, 3, 5, 7, 11, 15: it
                 streams its windows, with 2 quads a round (+ 2), in slots
                 (+ 4), in windows of 2 tiles (+ 8, counting alone) or not
                 (the gclq__sets_stream_windows hook, GCLQ__STREAM_*;
                 unset: the rules)
     SETS_NO_MEMSET set: the timed count passes leave out the counts'
                 zeroing (how much of a pass it takes)
     GPUAMQ_DATA_DIR the data graphs of BENCH sets_graphs (default
                 ../shared/data)
     SETS_IP_OBS_WARPS 1: where AUTO picks IP_OBS, its small pairs run
                 IP_OBS's warp tables (the gclq__sets_ip_obs_warps hook),
                 not the per-pair rule's warps */
#include <chrono>
#include <string>
#include <vector>

#define GPUCLIQUE_STATIC
#define GPUCLIQUE_TESTING /* the gclq__sets_cuts_in_blocks hook (SETS_BLOCK_CUTS) */
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"
#include "bench.h"

static std::vector<uint64_t> bench_sets_list(const char *env, const char *fallback) {
  const char *s = getenv(env);
  std::vector<uint64_t> v;
  for (const char *p = s && *s ? s : fallback; *p;) {
    char *end;
    v.push_back(strtoull(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
    if (end == p && *p) break;
  }
  return v;
}

/* The hooks from the environment, said once per bench. */
static void bench_sets_hooks(const char *bench) {
  gclq__sets_cuts_in_blocks = getenv("SETS_BLOCK_CUTS") != NULL && atoi(getenv("SETS_BLOCK_CUTS")) != 0;
  printf("sets config,%s,tile cuts %s\n", bench, gclq__sets_cuts_in_blocks ? "in the blocks" : "by the partition kernel");
  gclq__sets_ip_obs_warps = getenv("SETS_IP_OBS_WARPS") != NULL && atoi(getenv("SETS_IP_OBS_WARPS")) != 0;
  if (gclq__sets_ip_obs_warps) printf("sets config,%s,AUTO's IP_OBS runs IP_OBS's warps\n", bench);
  gclq__sets_stream_windows = getenv("SETS_STREAM") != NULL ? atoi(getenv("SETS_STREAM")) : -1;
  printf("sets config,%s,bitmap count pass %s\n", bench,
         gclq__sets_stream_windows < 0   ? "by the rules"
         : gclq__sets_stream_windows ? ("streamed, shape " + std::to_string(gclq__sets_stream_windows)).c_str()
                                     : "by records");
}

static const gclq_intersect_method bench_sets_methods[] = {
    GCLQ_INTERSECT_MERGE_PATH, GCLQ_INTERSECT_BINARY_SEARCH,   GCLQ_INTERSECT_AUTO,   GCLQ_INTERSECT_HASH,
    GCLQ_INTERSECT_BITMAP,     GCLQ_INTERSECT_BITMAP_DYNAMIC, GCLQ_INTERSECT_IP_OBS, GCLQ_INTERSECT_IP_HASH};

/* Whether SETS_METHODS (a comma-separated list of method names; unset:
   every method) names this one. */
static bool bench_sets_method_on(const char *name) {
  const std::vector<std::string> on = bench_env_list("SETS_METHODS", "");
  return on.empty() || std::find(on.begin(), on.end(), std::string(name)) != on.end();
}

/* The device work of one batch of pairs on device-resident sets, timed:
   the count pass (and, writing, the tiles' scan and the write pass, or the
   one pass where gclq__sets_part runs it), as in gclq__sets_part without
   the host's reads. *total gets the sum of the
   counts. */
static double bench_sets_device_ms(const gclq_sets *s, const std::vector<uint32_t> &pairs,
                                   gclq_intersect_method method, bool write, uint64_t *total) {
  gclq_intersect_options o;
  gclq_intersect_options_defaults(&o);
  o.backend = GCLQ_BACKEND_CUDA;
  const bool by_auto = method == GCLQ_INTERSECT_AUTO;
  if (by_auto) /* AUTO's batch rule, as gclq_intersect_pairs applies it */
    method = gclq__sets_pairs_rule(s, pairs.data(), pairs.size() / 2, GCLQ_SETS_AUTO_BITMAP_DENSITY,
                                   GCLQ_SETS_AUTO_BITMAP_WINDOWS, GCLQ_SETS_AUTO_IP_OBS_BELOW);
  o.method = method;
  o.materialise = write;
  gclq_intersect_stats stats;
  memset(&stats, 0, sizeof stats);
  gclq__sets_dev d;
  if (gclq__cuda_sets_open(&d, s, &o, &stats) != GCLQ_SUCCESS) {
    fprintf(stderr, "bench_sets: cannot upload the sets\n");
    exit(2);
  }
  d.auto_ip_obs = by_auto && method == GCLQ_INTERSECT_IP_OBS; /* as gclq__sets_batches sets it */
  const uint32_t n = (uint32_t)(pairs.size() / 2);
  gclq__sets_split sp;
  if (gclq__sets_classify(&d, pairs.data(), n, &sp) != GCLQ_SUCCESS) exit(2);
  double ms = 0.0;
  {
    gclq__dev *c = &d.c;
    gclq__dmem d_pairs(c), d_counts(c), d_warp(c), pp(c), pf(c), pc(c), sq(c), sf(c), sc(c), d_pos(c), d_out(c),
        path_scan(c), search_scan(c);
    gclq__sets_tiles path, search;
    bool ok = gclq__sets_put(c, &d_pairs, pairs.data(), pairs.size()) == GCLQ_SUCCESS &&
              d_counts.get((size_t)n * 4) == GCLQ_SUCCESS && gclq__sets_put(c, &d_warp, sp.warp, sp.nw) == GCLQ_SUCCESS &&
              gclq__sets_put_tiles(&d, sp.path_pair, sp.path_first, sp.npath, &pp, &pf, &pc, &path) == GCLQ_SUCCESS &&
              gclq__sets_put_tiles(&d, sp.search_pair, sp.search_first, sp.nsearch, &sq, &sf, &sc, &search) ==
                  GCLQ_SUCCESS;
    if (!ok) exit(2);
    gclq__sets_args g = {(const uint64_t *)d.d_off, (const uint32_t *)d.d_elem, d_pairs.as<uint32_t>(),
                         d_counts.as<uint32_t>(), NULL, NULL};
    bool no_memset = false; /* SETS_NO_MEMSET */
    auto count = [&] {
      if (!no_memset) cudaMemsetAsync(g.counts, 0, (size_t)n * 4, 0);
      if (gclq__sets_launch<false>(&d, g, sp, d_warp.as<uint32_t>(), path, search) != GCLQ_SUCCESS) exit(2);
    };
    count();
    no_memset = getenv("SETS_NO_MEMSET") != NULL;
    std::vector<uint32_t> counts(n);
    BENCH_CHECK(cudaMemcpy(counts.data(), g.counts, (size_t)n * 4, cudaMemcpyDeviceToHost));
    std::vector<uint64_t> pos(n + 1, 0);
    gclq__sets_offsets(counts.data(), n, pos.data());
    *total = pos[n];
    if (!write) {
      ms = bench_time_ms(count);
    } else if (gclq__sets_one_pass_runs(&d, sp) && getenv("SETS_TWO_PASSES") == NULL) {
      ok = d_out.get((size_t)sp.most * 4) == GCLQ_SUCCESS;
      if (!ok) exit(2);
      g.out = d_out.as<uint32_t>();
      gclq__dmem lb(c);
      ms = bench_time_ms([&] {
        cudaMemsetAsync(g.counts, 0, (size_t)n * 4, 0);
        if (gclq__sets_one_pass(&d, g, sp, path, search, &lb) != GCLQ_SUCCESS) exit(2);
      });
    } else {
      ok = gclq__sets_put(c, &d_pos, pos.data(), pos.size()) == GCLQ_SUCCESS &&
           d_out.get((size_t)pos[n] * 4) == GCLQ_SUCCESS;
      if (!ok) exit(2);
      g.pair_pos = d_pos.as<uint64_t>();
      g.out = d_out.as<uint32_t>();
      ms = bench_time_ms([&] {
        count();
        if (gclq__sets_scan_tiles(&d, &path, sp.path_first[sp.npath], &path_scan) != GCLQ_SUCCESS ||
            gclq__sets_scan_tiles(&d, &search, sp.search_first[sp.nsearch], &search_scan) != GCLQ_SUCCESS ||
            gclq__sets_launch<true>(&d, g, sp, d_warp.as<uint32_t>(), path, search) != GCLQ_SUCCESS)
          exit(2);
      });
    }
  }
  gclq__sets_split_free(&sp);
  gclq_status st = GCLQ_SUCCESS;
  gclq__cuda_sets_close(&d, &st);
  return ms;
}

/* gclq_intersect_pairs_device on device-resident sets and pairs, timed
   (the expert call: the tile tables built on the device, nothing comes
   back). *total gets the sum of the counts. */
static double bench_sets_api_ms(const gclq_sets *s, const std::vector<uint32_t> &pairs, gclq_intersect_method method,
                                uint64_t *total) {
  gclq_sets_device d;
  const size_t n = pairs.size() / 2;
  uint32_t *d_pairs, *d_counts;
  void *d_temp;
  size_t bytes = 0;
  if (gclq_sets_upload(s, NULL, &d, NULL) != GCLQ_SUCCESS) exit(2);
  BENCH_CHECK(cudaMalloc(&d_pairs, pairs.size() * 4));
  BENCH_CHECK(cudaMalloc(&d_counts, n * 4));
  BENCH_CHECK(cudaMemcpy(d_pairs, pairs.data(), pairs.size() * 4, cudaMemcpyHostToDevice));
  if (gclq_intersect_pairs_device(&d, d_pairs, n, d_counts, method, NULL, &bytes, NULL) != GCLQ_SUCCESS) exit(2);
  BENCH_CHECK(cudaMalloc(&d_temp, bytes));
  double ms = bench_time_ms([&] {
    if (gclq_intersect_pairs_device(&d, d_pairs, n, d_counts, method, d_temp, &bytes, NULL) != GCLQ_SUCCESS) exit(2);
  });
  std::vector<uint32_t> counts(n);
  BENCH_CHECK(cudaMemcpy(counts.data(), d_counts, n * 4, cudaMemcpyDeviceToHost));
  *total = 0;
  for (size_t p = 0; p < n; ++p) *total += counts[p];
  cudaFree(d_pairs);
  cudaFree(d_counts);
  cudaFree(d_temp);
  gclq_sets_device_free(&d, NULL, NULL);
  return ms;
}

/* A device-to-device copy of `bytes`, timed the same way. */
static double bench_sets_copy_ms(double bytes) {
  void *a, *b;
  size_t n = (size_t)bytes;
  BENCH_CHECK(cudaMalloc(&a, n));
  BENCH_CHECK(cudaMalloc(&b, n));
  BENCH_CHECK(cudaMemset(a, 1, n));
  double ms = bench_time_ms([&] { cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice, 0); });
  cudaFree(a);
  cudaFree(b);
  return ms;
}

/* One run of a public call on the wall clock, ms: call() runs it and
   returns its status (a failure, named by what, ends the bench). */
template <typename Call>
static double bench_sets_once_ms(const std::string &what, Call call) {
  auto t0 = std::chrono::steady_clock::now();
  const gclq_status st = call();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "bench_sets: %s: %s\n", what.c_str(), gclq_status_string(st));
    exit(2);
  }
  return ms;
}

/* The median of reps runs of a public call (bench_sets_once_ms), after()
   handling each answer, untimed. */
template <typename Call, typename After>
static double bench_sets_wall_ms(int reps, const std::string &what, Call call, After after) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    times.push_back(bench_sets_once_ms(what, call));
    after();
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

/* One public call, timed on the wall clock; *total gets its answer's total. */
static double bench_sets_call_ms(const gclq_sets *s, const std::vector<uint32_t> &pairs, gclq_backend backend,
                                 gclq_intersect_method method, bool write, uint64_t *total) {
  gclq_intersect_options o;
  gclq_intersect_result r;
  gclq_intersect_options_defaults(&o);
  o.backend = backend;
  o.method = method;
  o.materialise = write;
  return bench_sets_wall_ms(
      1, std::string("pairs by ") + gclq_intersect_method_name(method),
      [&] { return gclq_intersect_pairs(s, pairs.data(), pairs.size() / 2, &o, &r); },
      [&] {
        *total = r.total;
        gclq_intersect_result_free(&r);
      });
}

/* Every edge u < v of g as a pair (u, v) of adjacency lists; returns the
   words the pairs read (|N(u)| + |N(v)| each). */
static double bench_sets_edge_pairs(const gclq_graph &g, std::vector<uint32_t> *pairs) {
  double words = 0.0;
  pairs->clear();
  for (uint32_t v = 0; v < g.num_vertices; ++v)
    for (uint64_t e = g.h_offsets[v]; e < g.h_offsets[v + 1]; ++e) {
      uint32_t u = g.h_neighbors[e];
      if (u <= v) continue;
      pairs->push_back(v);
      pairs->push_back(u);
      words += (double)(g.h_offsets[v + 1] - g.h_offsets[v]) + (double)(g.h_offsets[u + 1] - g.h_offsets[u]);
    }
  return words;
}

/* For each R-MAT scale of SETS_RMAT (default 16, 17, 18; edge factor 16,
   seed 7): fn(scale, sets, pairs, words) with the graph's adjacency as a
   collection (a view) and every edge as a pair (bench_sets_edge_pairs). */
template <typename F>
static void bench_sets_each_rmat(F fn) {
  const std::vector<uint64_t> scales = bench_sets_list("SETS_RMAT", "16,17,18");
  for (size_t i = 0; i < scales.size(); ++i) {
    gclq_graph g;
    gclq_sets s;
    if (scales[i] == 0 || gclq_graph_rmat((int)scales[i], 16, 7, &g) != GCLQ_SUCCESS) continue;
    gclq_sets_from_graph(&g, &s);
    std::vector<uint32_t> pairs;
    const double words = bench_sets_edge_pairs(g, &pairs);
    fn((unsigned long long)scales[i], &s, pairs, words);
    gclq_graph_free(&g);
  }
}

/* The rows of one workload: per method and mode, the device work beside
   the copy, and the call beside HOST. */
static void bench_sets_rows(const char *name, const gclq_sets *s, const std::vector<uint32_t> &pairs, double in_bytes,
                            size_t n, bool modes) {
  const double copy_ms = bench_sets_copy_ms(in_bytes);
  for (int write = 0; write <= (modes ? 1 : 0); ++write) {
    uint64_t host_total = 0;
    const double host_ms = bench_sets_call_ms(s, pairs, GCLQ_BACKEND_HOST, GCLQ_INTERSECT_AUTO, write, &host_total);
    for (size_t m = 0; m < sizeof bench_sets_methods / sizeof bench_sets_methods[0]; ++m) {
      const char *mname = gclq_intersect_method_name(bench_sets_methods[m]);
      if (!bench_sets_method_on(mname)) continue;
      uint64_t dev_total = 0, call_total = 0, api_total = host_total;
      double dev_ms = bench_sets_device_ms(s, pairs, bench_sets_methods[m], write, &dev_total);
      double call_ms = bench_sets_call_ms(s, pairs, GCLQ_BACKEND_CUDA, bench_sets_methods[m], write, &call_total);
      std::string v = std::string(name) + (write ? " write " : " count ") + mname;
      double bytes = in_bytes + (write ? 4.0 * (double)dev_total : 0.0);
      bench_report_vs("sets dev", v.c_str(), n, dev_ms, "copy", copy_ms, bytes);
      if (!write) {
        double api_ms = bench_sets_api_ms(s, pairs, bench_sets_methods[m], &api_total);
        bench_report_vs("sets device api", v.c_str(), n, api_ms, "copy", copy_ms, bytes);
      }
      bench_report_vs("sets call", v.c_str(), n, call_ms, "HOST", host_ms, bytes);
      printf("sets,%s,total %llu,call %llu,api %llu,host %llu,%s\n", v.c_str(), (unsigned long long)dev_total,
             (unsigned long long)call_total, (unsigned long long)api_total, (unsigned long long)host_total,
             dev_total == host_total && call_total == host_total && api_total == host_total ? "same" : "DIFFERENT");
      if (bench_sets_methods[m] == GCLQ_INTERSECT_AUTO)
        printf("sets auto,%s,picks %s\n", v.c_str(),
               gclq_intersect_method_name(gclq__sets_pairs_rule(s, pairs.data(), pairs.size() / 2,
                                                                GCLQ_SETS_AUTO_BITMAP_DENSITY,
                                                                GCLQ_SETS_AUTO_BITMAP_WINDOWS,
                                                                GCLQ_SETS_AUTO_IP_OBS_BELOW)));
    }
  }
}

BENCH(sets) {
  bench_sets_hooks("sets");
  const std::vector<uint64_t> sisi = bench_sets_list("SETS_SISI", "10000000,100000000");
  for (size_t i = 0; i < sisi.size(); ++i) {
    gclq_sets_gen gen = {GCLQ_SETS_UNIFORM, 2, 1000000000ull, sisi[i], 1, 42};
    gclq_sets s;
    if (gclq_sets_generate(&gen, &s) != GCLQ_SUCCESS) {
      fprintf(stderr, "bench_sets: cannot generate %llu elements\n", (unsigned long long)sisi[i]);
      continue;
    }
    std::vector<uint32_t> pair = {0, 1};
    char name[64];
    snprintf(name, sizeof name, "SISI %.0e", (double)sisi[i]);
    bench_sets_rows(name, &s, pair, 4.0 * (double)s.total, (size_t)s.total, true);
    gclq_sets_free(&s);
  }
  bench_sets_each_rmat([](unsigned long long scale, const gclq_sets *s, const std::vector<uint32_t> &pairs,
                          double words) {
    char name[64];
    snprintf(name, sizeof name, "R-MAT %llu every edge", scale);
    bench_sets_rows(name, s, pairs, 4.0 * words, pairs.size() / 2, false);
  });
}

/* ---- the triangle workload on the data graphs ----
   Every edge of each graph under GPUAMQ_DATA_DIR (default ../shared/data:
   the SNAP and DIMACS graphs) as a pair of adjacency lists, counted by
   every method (SETS_METHODS), as the R-MAT rows. The counts summed are
   three times the graph's triangles: a "sets triangles," line compares
   HOST's sum / 3 with the triangles column of the folder's REFERENCE.tsv.
   A graph that is not there is said and skipped. */
static uint64_t bench_sets_reference_triangles(const std::string &tsv, const std::string &name) {
  FILE *f = fopen(tsv.c_str(), "r");
  char line[512];
  int column = -1; /* the "triangles" column, named by the "# graph ..." header */
  uint64_t t = 0;
  while (f != NULL && fgets(line, sizeof line, f) != NULL) {
    const bool header = line[0] == '#';
    const char *first = NULL;
    int n = 0;
    for (char *tok = strtok(header ? line + 1 : line, " \t\r\n"); tok != NULL; tok = strtok(NULL, " \t\r\n"), ++n) {
      if (n == 0) first = tok;
      if (header && strcmp(tok, "triangles") == 0) column = n;
      if (!header && n == column && first != NULL && name == first) t = strtoull(tok, NULL, 10);
    }
  }
  if (f != NULL) fclose(f);
  return t;
}

BENCH(sets_graphs) {
  bench_sets_hooks("sets_graphs");
  const char *dir = getenv("GPUAMQ_DATA_DIR") ? getenv("GPUAMQ_DATA_DIR") : "../shared/data";
  const char *files[] = {"snap/ca-GrQc.txt",      "snap/ca-HepTh.txt",       "snap/facebook_combined.txt",
                         "dimacs/brock200_4.clq", "dimacs/c-fat500-10.clq",  "dimacs/p_hat300-1.clq",
                         "dimacs/sanr200_0.7.clq", "dimacs/san200_0.7_1.clq", "dimacs/MANN_a9.clq"};
  for (const char *file : files) {
    const std::string path = std::string(dir) + "/" + file, folder = path.substr(0, path.rfind('/'));
    std::string name = strrchr(file, '/') + 1;
    name = name.substr(0, name.rfind('.'));
    gclq_graph g;
    if (gclq_graph_load(path.c_str(), GCLQ_FORMAT_AUTO, &g, NULL) != GCLQ_SUCCESS) {
      printf("sets triangles,%s,not found or unreadable: %s (set GPUAMQ_DATA_DIR)\n", name.c_str(), path.c_str());
      continue;
    }
    gclq_sets s;
    gclq_sets_from_graph(&g, &s);
    std::vector<uint32_t> pairs;
    const double words = bench_sets_edge_pairs(g, &pairs);
    uint64_t host = 0;
    bench_sets_call_ms(&s, pairs, GCLQ_BACKEND_HOST, GCLQ_INTERSECT_AUTO, false, &host);
    const uint64_t want = bench_sets_reference_triangles(folder + "/REFERENCE.tsv", name);
    printf("sets triangles,%s,pairs %zu,HOST sum / 3 %llu,reference %llu,%s\n", name.c_str(), pairs.size() / 2,
           (unsigned long long)(host / 3), (unsigned long long)want,
           want == 0 ? "no reference" : host == 3 * want ? "same" : "DIFFERENT");
    bench_sets_rows((name + " every edge").c_str(), &s, pairs, 4.0 * words, pairs.size() / 2, false);
    gclq_graph_free(&g);
  }
}

/* ---- the paper's Fig. 9: SISI over its twelve datasets ----
   Two sets of avg elements each (fixed size) from one distribution over
   U: uniform, normal, zipf x U in {10^8, 10^9} x avg in {10^6, 10^7}
   (dist-U-avg), counted by every method ("dev" rows beside the copy of the
   input, "call" rows beside HOST), AUTO's pick on a "sets auto," line.
   The normal and zipf sets share a narrower range than the uniform ones
   (denser bitmaps, but crowded into fewer windows): where the bitmaps
   overtake merge path, and whether AUTO's bitmap rule (density and busy
   windows: GCLQ_SETS_AUTO_BITMAP_DENSITY, _WINDOWS) follows.
   Environment: SETS_FIG9_U, SETS_FIG9_AVG (lists, the defaults above). */
BENCH(sets_fig9) {
  bench_sets_hooks("sets_fig9");
  const std::vector<uint64_t> us = bench_sets_list("SETS_FIG9_U", "100000000,1000000000");
  const std::vector<uint64_t> avgs = bench_sets_list("SETS_FIG9_AVG", "1000000,10000000");
  const gclq_sets_dist dists[] = {GCLQ_SETS_UNIFORM, GCLQ_SETS_NORMAL, GCLQ_SETS_ZIPF};
  const char *dist_names[] = {"uniform", "normal", "zipf"};
  for (int d = 0; d < 3; ++d)
    for (size_t i = 0; i < us.size(); ++i)
      for (size_t j = 0; j < avgs.size(); ++j) {
        gclq_sets_gen gen = {dists[d], 2, us[i], avgs[j], 1, 42};
        gclq_sets s;
        if (gclq_sets_generate(&gen, &s) != GCLQ_SUCCESS) {
          fprintf(stderr, "bench_sets: cannot generate %s-%.0e-%.0e\n", dist_names[d], (double)us[i], (double)avgs[j]);
          continue;
        }
        std::vector<uint32_t> pair = {0, 1};
        char name[64];
        snprintf(name, sizeof name, "%s-%.0e-%.0e", dist_names[d], (double)us[i], (double)avgs[j]);
        bench_sets_rows(name, &s, pair, 4.0 * (double)s.total, (size_t)s.total, false);
        gclq_sets_free(&s);
      }
}

/* ---- AUTO's per-pair crossover on the triangle workload ----
   Every edge of R-MAT (scales SETS_RMAT) as pairs, cut by the ratio r of
   the larger list to the smaller: pairs with |b| >= r |a| run
   BINARY_SEARCH, the rest MERGE_PATH or IP_OBS; each part's device time
   (bench_sets_device_ms, two launches where AUTO runs one) and their sum,
   for r in SETS_RATIOS (default 1,2,4,8,16,32,64,128; 1: every pair
   searched, a huge r: none). A line "sets ratio," per r: the two parts'
   pairs and times, so GCLQ_SETS_AUTO_RATIO and the batch rule can be set
   from it. */
BENCH(sets_auto_ratio) {
  bench_sets_hooks("sets_auto_ratio");
  const std::vector<uint64_t> ratios = bench_sets_list("SETS_RATIOS", "1,2,4,8,16,32,64,128,1000000");
  bench_sets_each_rmat([&](unsigned long long scale, const gclq_sets *s, const std::vector<uint32_t> &pairs,
                           double) {
    for (size_t r = 0; r < ratios.size(); ++r) {
      std::vector<uint32_t> search, rest;
      for (size_t p = 0; p < pairs.size(); p += 2) {
        uint64_t na = s->h_offsets[pairs[p] + 1] - s->h_offsets[pairs[p]];
        uint64_t nb = s->h_offsets[pairs[p + 1] + 1] - s->h_offsets[pairs[p + 1]];
        if (na > nb) std::swap(na, nb);
        std::vector<uint32_t> &to = nb >= ratios[r] * na ? search : rest;
        to.push_back(pairs[p]);
        to.push_back(pairs[p + 1]);
      }
      uint64_t t_search = 0, t_merge = 0, t_obs = 0;
      const double search_ms =
          search.empty() ? 0.0 : bench_sets_device_ms(s, search, GCLQ_INTERSECT_BINARY_SEARCH, false, &t_search);
      const double merge_ms =
          rest.empty() ? 0.0 : bench_sets_device_ms(s, rest, GCLQ_INTERSECT_MERGE_PATH, false, &t_merge);
      const double obs_ms = rest.empty() ? 0.0 : bench_sets_device_ms(s, rest, GCLQ_INTERSECT_IP_OBS, false, &t_obs);
      printf("sets ratio,R-MAT %llu,ratio %llu,searched %zu,%.3f ms,rest %zu,merge-path %.3f ms,ip-obs %.3f ms,"
             "sum merge %.3f ms,sum ip-obs %.3f ms,%s\n",
             scale, (unsigned long long)ratios[r], search.size() / 2, search_ms, rest.size() / 2, merge_ms, obs_ms,
             search_ms + merge_ms, search_ms + obs_ms, t_merge == t_obs ? "same" : "DIFFERENT");
    }
  });
}

/* ---- all pairs at once (MISI): INVERTED_INDEX and BIT_MATRIX ----
   Generated collections (gclq_sets_generate). Three uniform ones carry
   the issue's targets on an H200:
     k = 1000,  average 10^5, U = 10^8     target <= 150 ms
     k = 10^4,  average 1000, U = 8.7 10^6 target <= 100 ms
     k = 10^4,  average 35,   U = 1600     the BMS stand-in: pairs per second,
                                           tensor cores against popcount
   then zipf stand-ins of Table 1's ENRON, TWITTER and WORDS at 10K sets
   (their k, average and universe) and Fig. 12's k = 1000 zipf sets over
   U = 10^8 (average SETS_FIG12_AVG, default 10^5; the paper's is 10^6,
   which takes minutes to generate on the host).
   "all dev" rows: the device work on device-resident sets (the structure
   built, every count of the triangle on the device; not read back),
   median of SETS_ALL_REPS (3), beside the merge-path batches of every pair
   on the same device (bench_sets_device_ms; skipped when SETS_ALL_PAIRWISE
   is 0 or the merge steps, (k - 1) x total, exceed SETS_ALL_MAX_STEPS,
   default 1.2 10^11: 18 runs of those take seconds each); the tensor-core row beside the popcount row (the ratio the lead
   sets GCLQ_SETS_BIT_MATRIX_TC by). bytes = the elements read once and the
   counts written once. BIT_MATRIX is skipped where its words of AND,
   counted over U (the compacted universe is smaller), exceed
   SETS_ALL_MAX_WORDS (default 2 10^12: the first collection's 1.6 10^12
   run, the second's 1.4 10^13 do not).
   "all call" rows: gclq_intersect_all as a user calls it (upload, counts,
   answers back through the sink), the median of SETS_ALL_REPS runs (HOST:
   one), beside HOST where its merge work is at most 10^10 steps. A line
   "sets all," per row carries the total of the counts, pairs per second
   and whether the totals agree; lines "sets auto,NAME all pairs," what
   AUTO's rule picks for the collection (gclq__sets_all_method) and its
   estimate's host time, and what the auto call ran (stats.method). The
   default memory pool keeps freed memory for these rows (its release
   threshold raised), as a process that calls repeatedly would. */

/* Every count of the triangle by `method` on device-resident sets, timed:
   the structure and the counts (one row tile: the counts are allocated
   first, whole). *total gets the sum of the counts. */
static double bench_sets_all_dev_ms(const gclq_sets *s, gclq_intersect_method method, int tensor, int reps,
                                    uint64_t *total) {
  gclq_intersect_options o;
  gclq_intersect_options_defaults(&o);
  o.backend = GCLQ_BACKEND_CUDA;
  o.method = method;
  gclq_intersect_stats stats;
  memset(&stats, 0, sizeof stats);
  gclq__sets_dev d;
  if (gclq__cuda_sets_open(&d, s, &o, &stats) != GCLQ_SUCCESS) {
    fprintf(stderr, "bench_sets: cannot upload the sets\n");
    exit(2);
  }
  const uint64_t k = s->num_sets, pairs = gclq__sets_row_start(k, k - 1);
  double ms = 0.0;
  {
    gclq__dmem counts(&d.c);
    if (counts.get((size_t)pairs * 4) != GCLQ_SUCCESS) exit(2);
    gclq__sets_tri t;
    t.k = k;
    t.r0 = 0;
    t.r1 = k - 1;
    t.base = 0;
    t.counts = counts.as<uint32_t>();
    ms = bench_time_ms(
        [&] {
          gclq__sets_all_state st(&d.c);
          st.method = method;
          st.tensor = tensor;
          if (gclq__sets_all_build(&d, &st) != GCLQ_SUCCESS || gclq__sets_all_tile(&d, &st, t) != GCLQ_SUCCESS) {
            fprintf(stderr, "bench_sets: %s did not run (memory?)\n", gclq_intersect_method_name(method));
            exit(2);
          }
        },
        reps, 1);
    std::vector<uint32_t> h(pairs);
    BENCH_CHECK(cudaMemcpy(h.data(), t.counts, (size_t)pairs * 4, cudaMemcpyDeviceToHost));
    *total = 0;
    for (uint64_t p = 0; p < pairs; ++p) *total += h[p];
  }
  gclq_status st = GCLQ_SUCCESS;
  gclq__cuda_sets_close(&d, &st);
  return ms;
}

/* gclq_intersect_all as a user calls it, timed on the wall clock: the
   median of reps calls (each allocates and fills its own result, as a user's
   would); *ran: the method the last one reports. */
static double bench_sets_all_call_ms(const gclq_sets *s, gclq_backend backend, gclq_intersect_method method,
                                     int reps, uint64_t *total, gclq_intersect_method *ran = NULL) {
  gclq_intersect_options o;
  gclq_intersect_result r;
  gclq_intersect_options_defaults(&o);
  o.backend = backend;
  o.method = method;
  return bench_sets_wall_ms(
      reps, std::string("all pairs by ") + gclq_intersect_method_name(method),
      [&] { return gclq_intersect_all(s, &o, &r); },
      [&] {
        *total = r.total;
        if (ran != NULL) *ran = r.stats.method;
        gclq_intersect_result_free(&r);
      });
}

/* One "sets all," line: the answer, pairs per second, agreement. */
static void bench_sets_all_line(const char *what, uint64_t total, uint64_t want, uint64_t pairs, double ms) {
  printf("sets all,%s,total %llu,%.3g pairs/s,%s\n", what, (unsigned long long)total, (double)pairs / (ms / 1000.0),
         total == want ? "same" : "DIFFERENT");
}

/* The rows of one collection. */
static void bench_sets_all_rows(const char *name, const gclq_sets *s) {
  const int reps = (int)bench_sets_list("SETS_ALL_REPS", "3")[0];
  const double max_steps = (double)bench_sets_list("SETS_ALL_MAX_STEPS", "120000000000")[0];
  const bool pairwise = bench_sets_list("SETS_ALL_PAIRWISE", "1")[0] != 0 &&
                        (double)(s->num_sets - 1) * (double)s->total <= max_steps;
  const double max_words = (double)bench_sets_list("SETS_ALL_MAX_WORDS", "2000000000000")[0];
  const uint64_t k = s->num_sets, pairs = k * (k - 1) / 2;
  const double bytes = 4.0 * (double)s->total + 4.0 * (double)pairs;
  const double words = (double)pairs * (double)((s->universe + 31) / 32); /* the compacted universe is at most U */
  std::string v;
  uint64_t want = 0, total = 0;
  const double index_ms = bench_sets_all_dev_ms(s, GCLQ_INTERSECT_INVERTED_INDEX, 0, reps, &want);
  double merge_ms = 0.0;
  if (!pairwise)
    printf("sets all,%s merge-path,skipped: %.3g merge steps (SETS_ALL_MAX_STEPS, SETS_ALL_PAIRWISE)\n", name,
           (double)(s->num_sets - 1) * (double)s->total);
  if (pairwise) { /* every pair as batches, the existing kernels */
    std::vector<uint32_t> all;
    all.reserve(2 * pairs);
    for (uint32_t i = 0; i < k; ++i)
      for (uint32_t j = i + 1; j < k; ++j) all.push_back(i), all.push_back(j);
    merge_ms = bench_sets_device_ms(s, all, GCLQ_INTERSECT_MERGE_PATH, false, &total);
    v = std::string(name) + " merge-path";
    bench_report_vs("sets all dev", v.c_str(), pairs, merge_ms, "none", 0.0, bytes);
    bench_sets_all_line(v.c_str(), total, want, pairs, merge_ms);
    const double obs_ms = bench_sets_device_ms(s, all, GCLQ_INTERSECT_BINARY_SEARCH, false, &total);
    v = std::string(name) + " binary-search";
    bench_report_vs("sets all dev", v.c_str(), pairs, obs_ms, "merge-path", merge_ms, bytes);
    bench_sets_all_line(v.c_str(), total, want, pairs, obs_ms);
  }
  v = std::string(name) + " inverted-index";
  bench_report_vs("sets all dev", v.c_str(), pairs, index_ms, "merge-path", merge_ms, bytes);
  bench_sets_all_line(v.c_str(), want, want, pairs, index_ms);
  if (words <= max_words) {
    const double popc_ms = bench_sets_all_dev_ms(s, GCLQ_INTERSECT_BIT_MATRIX, 0, reps, &total);
    v = std::string(name) + " bit-matrix popcount";
    bench_report_vs("sets all dev", v.c_str(), pairs, popc_ms, "merge-path", merge_ms, bytes);
    bench_sets_all_line(v.c_str(), total, want, pairs, popc_ms);
    const double tc_ms = bench_sets_all_dev_ms(s, GCLQ_INTERSECT_BIT_MATRIX, 1, reps, &total);
    v = std::string(name) + " bit-matrix tensor cores";
    bench_report_vs("sets all dev", v.c_str(), pairs, tc_ms, "popcount", popc_ms, bytes);
    bench_sets_all_line(v.c_str(), total, want, pairs, tc_ms);
  } else {
    printf("sets all,%s bit-matrix,skipped: %.3g words of AND (SETS_ALL_MAX_WORDS)\n", name, words);
  }
  /* what AUTO's rule picks here (gclq__sets_all_method: the sampled estimate), and its host time; when
     unsure the device counts the columns and picks again (the auto call's row) */
  const auto pick0 = std::chrono::steady_clock::now();
  int unsure = 0;
  const gclq_intersect_method pick = gclq__sets_all_method(s, GCLQ_INTERSECT_AUTO, NULL, &unsure);
  printf("sets auto,%s all pairs,picks %s%s,estimate %.3f ms\n", name, gclq_intersect_method_name(pick),
         unsure ? " unless the counted columns say otherwise" : "",
         std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pick0).count());
  const bool host = (double)(k - 1) * (double)s->total <= 1e10;
  const double host_ms = host ? bench_sets_all_call_ms(s, GCLQ_BACKEND_HOST, GCLQ_INTERSECT_AUTO, 1, &total) : 0.0;
  if (host) bench_sets_all_line((std::string(name) + " HOST call").c_str(), total, want, pairs, host_ms);
  const gclq_intersect_method calls[] = {GCLQ_INTERSECT_INVERTED_INDEX, GCLQ_INTERSECT_BIT_MATRIX, GCLQ_INTERSECT_AUTO};
  for (int c = 0; c < 3; ++c) {
    if (calls[c] == GCLQ_INTERSECT_BIT_MATRIX && words > max_words) continue;
    gclq_intersect_method ran = calls[c];
    const double ms = bench_sets_all_call_ms(s, GCLQ_BACKEND_CUDA, calls[c], reps, &total, &ran);
    v = std::string(name) + " " + gclq_intersect_method_name(calls[c]);
    bench_report_vs("sets all call", v.c_str(), pairs, ms, host ? "HOST" : "none", host_ms, bytes);
    bench_sets_all_line((v + " call").c_str(), total, want, pairs, ms);
    if (calls[c] == GCLQ_INTERSECT_AUTO) printf("sets auto,%s all pairs,ran %s\n", name, gclq_intersect_method_name(ran));
  }
}

BENCH(sets_all) {
  bench_sets_hooks("sets_all");
  /* The device's default memory pool keeps what the calls free (the index
     and the matrix take gigabytes, allocated again each run): the timings
     are those of a process that keeps its pool. */
  cudaMemPool_t pool;
  uint64_t keep = UINT64_MAX;
  BENCH_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  BENCH_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  const uint64_t zipf_avg = bench_sets_list("SETS_FIG12_AVG", "100000")[0];
  const std::string zipf_name = "Fig. 12 zipf k 1000 avg " + std::to_string((unsigned long long)zipf_avg);
  struct {
    std::string name;
    gclq_sets_dist dist;
    uint32_t k;
    uint64_t universe, avg;
  } const rows[] = {{"MISI k 1000 avg 1e5 U 1e8", GCLQ_SETS_UNIFORM, 1000, 100000000ull, 100000},
                    {"MISI k 1e4 avg 1000 U 8.7e6", GCLQ_SETS_UNIFORM, 10000, 8700000ull, 1000},
                    {"BMS stand-in k 1e4 avg 35 U 1600", GCLQ_SETS_UNIFORM, 10000, 1600, 35},
                    /* Table 1's other 10K datasets, generated stand-ins of their k, average and universe
                       (zipf: real collections are skewed; ORKUT's is the uniform row above) */
                    {"ENRON stand-in zipf k 1e4 avg 794 U 1.1e6", GCLQ_SETS_ZIPF, 10000, 1100000ull, 794},
                    {"TWITTER stand-in zipf k 1e4 avg 150 U 3.7e4", GCLQ_SETS_ZIPF, 10000, 37000ull, 150},
                    {"WORDS stand-in zipf k 1e4 avg 3494 U 1.1e4", GCLQ_SETS_ZIPF, 10000, 11000ull, 3494},
                    /* Fig. 12: k = 1000 zipf sets over U = 10^8 (the paper's average is 10^6: SETS_FIG12_AVG) */
                    {zipf_name + " U 1e8", GCLQ_SETS_ZIPF, 1000, 100000000ull, zipf_avg}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    gclq_sets_gen gen = {rows[i].dist, rows[i].k, rows[i].universe, rows[i].avg, 0, 42};
    gclq_sets s;
    if (gclq_sets_generate(&gen, &s) != GCLQ_SUCCESS) {
      fprintf(stderr, "bench_sets: cannot generate %s\n", rows[i].name.c_str());
      continue;
    }
    bench_sets_all_rows(rows[i].name.c_str(), &s);
    gclq_sets_free(&s);
  }
}

/* ---- the containment join with and without MMJoin's split ----
   Table A.3-like collections (the paper's MISC experiments; generated
   stand-ins, k = 10^4 each): the BMS stand-in (uniform, avg 35, U = 1600),
   a TWITTER-like one (zipf, avg 100, U = 37704, the element count of the
   paper's footnote 8: few heavy values, many light ones) and a WORDS-like
   one (zipf, avg 500, U = 10^4: dense). gclq_containment_join as a user
   calls it (CUDA, method AUTO, degree of containment 0.5), the median of
   SETS_SPLIT_REPS (5) runs a row, after one untimed call a collection:
   "no split" (GCLQ_SPLIT_OFF), AUTO's choice, and split_below = 16, 64,
   256, 1024, each beside "no split". The rows are timed in turns (every
   row once a round), and a line "sets contain spread," gives each row's
   median, least and most. A line "sets contain," per row gives
   the containments, whether they agree with the row without the split,
   and the split's numbers: the threshold, light / heavy values, the host's
   light increments, the host and device halves' times, how long they
   overlapped and how long the device's counts waited for the host's, and
   the last run's stats: the whole call, the upload, the device batches
   (stats.kernel_ms: where the call rows' run-to-run spread comes from).
   Environment: SETS_SPLIT thresholds, e.g. "16,64,256,1024" (the default). */
static gclq_intersect_options bench_sets_contain_options(uint64_t below) {
  gclq_intersect_options o;
  gclq_intersect_options_defaults(&o);
  o.backend = GCLQ_BACKEND_CUDA;
  o.min_containment = 0.5;
  o.split_below = below;
  return o;
}

/* The rows of one collection, timed in turns: each of reps rounds calls
   every row once, in order, so that a slow stretch of the machine falls
   on every row alike (rows timed one after another differed by up to
   1.3x between identical work). times[b]: row b's wall ms; r[b]: its last
   answer. */
static void bench_sets_contain_turns(const gclq_sets *s, const std::vector<uint64_t> &belows, int reps,
                                     std::vector<std::vector<double>> *times, std::vector<gclq_intersect_result> *r) {
  times->assign(belows.size(), std::vector<double>());
  r->assign(belows.size(), gclq_intersect_result());
  for (int rep = 0; rep < reps; ++rep)
    for (size_t b = 0; b < belows.size(); ++b) {
      const gclq_intersect_options o = bench_sets_contain_options(belows[b]);
      gclq_intersect_result got;
      (*times)[b].push_back(bench_sets_once_ms("containment, split_below " + std::to_string(belows[b]),
                                               [&] { return gclq_containment_join(s, &o, &got); }));
      if (rep > 0) gclq_intersect_result_free(&(*r)[b]);
      (*r)[b] = got;
    }
}

/* The median, least and most of a row's times. */
static void bench_sets_spread(std::vector<double> t, double *median, double *least, double *most) {
  std::sort(t.begin(), t.end());
  *median = t[t.size() / 2];
  *least = t.front();
  *most = t.back();
}

static void bench_sets_contain_line(const char *what, const gclq_intersect_result &r, const gclq_intersect_result &off) {
  const bool same = r.num_pairs == off.num_pairs && r.total == off.total &&
                    (r.num_pairs == 0 || (memcmp(r.h_pairs, off.h_pairs, 8 * r.num_pairs) == 0 &&
                                          memcmp(r.h_counts, off.h_counts, 4 * r.num_pairs) == 0));
  const gclq_intersect_stats &t = r.stats;
  printf("sets contain,%s,containments %llu,%s,method %s,below %llu,light %llu,heavy %llu,increments %llu,"
         "index %.2f ms,host %.2f ms,device %.2f ms,overlap %.2f ms,wait %.2f ms,"
         "call %.2f ms,upload %.2f ms,kernels %.2f ms\n",
         what, (unsigned long long)r.num_pairs, same ? "same" : "DIFFERENT", gclq_intersect_method_name(t.method),
         (unsigned long long)t.split.below, (unsigned long long)t.split.light_values,
         (unsigned long long)t.split.heavy_values, (unsigned long long)t.split.light_increments, t.split.index_ms,
         t.split.host_ms, t.split.device_ms, t.split.overlap_ms, t.split.wait_ms, t.total_ms, t.upload_ms, t.kernel_ms);
}

BENCH(sets_containment_split) {
  bench_sets_hooks("sets_containment_split");
  cudaMemPool_t pool;
  uint64_t keep = UINT64_MAX;
  BENCH_CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
  BENCH_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  const std::vector<uint64_t> splits = bench_sets_list("SETS_SPLIT", "16,64,256,1024");
  struct {
    const char *name;
    gclq_sets_dist dist;
    uint64_t universe, avg;
  } const rows[] = {{"BMS stand-in k 1e4 avg 35 U 1600", GCLQ_SETS_UNIFORM, 1600, 35},
                    {"TWITTER-like zipf k 1e4 avg 100 U 37704", GCLQ_SETS_ZIPF, 37704, 100},
                    {"WORDS-like zipf k 1e4 avg 500 U 1e4", GCLQ_SETS_ZIPF, 10000, 500}};
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; ++i) {
    gclq_sets_gen gen = {rows[i].dist, 10000, rows[i].universe, rows[i].avg, 0, 42};
    gclq_sets s;
    if (gclq_sets_generate(&gen, &s) != GCLQ_SUCCESS) {
      fprintf(stderr, "bench_sets: cannot generate %s\n", rows[i].name);
      continue;
    }
    const uint64_t k = s.num_sets, pairs = k * (k - 1) / 2;
    const double bytes = 4.0 * (double)s.total + 4.0 * (double)pairs;
    gclq_intersect_result off;
    /* one untimed call first, so that the first row does not pay what a
       collection's first call may (the device pool growing to its size):
       on the H200, the WORDS-like rows "no split" and AUTO's choice, the
       same work (no split), took 592 and 417 ms, the first row first */
    const gclq_intersect_options warm = bench_sets_contain_options(GCLQ_SPLIT_OFF);
    if (gclq_containment_join(&s, &warm, &off) == GCLQ_SUCCESS) gclq_intersect_result_free(&off);
    std::vector<uint64_t> belows(1, GCLQ_SPLIT_OFF); /* no split, AUTO, then each threshold */
    belows.push_back(0);
    belows.insert(belows.end(), splits.begin(), splits.end());
    std::vector<std::vector<double>> times;
    std::vector<gclq_intersect_result> res;
    const int reps = (int)bench_sets_list("SETS_SPLIT_REPS", "5")[0];
    bench_sets_contain_turns(&s, belows, reps > 0 ? reps : 1, &times, &res);
    off = res[0];
    double off_ms = 0.0, least, most;
    for (size_t b = 0; b < belows.size(); ++b) {
      double ms;
      bench_sets_spread(times[b], &ms, &least, &most);
      if (b == 0) off_ms = ms;
      const std::string v =
          std::string(rows[i].name) +
          (b == 0 ? std::string(" no split")
                  : belows[b] == 0 ? std::string(" split auto") : " split " + std::to_string((unsigned long long)belows[b]));
      if (b == 0) bench_report_vs("sets contain call", v.c_str(), pairs, ms, "none", 0.0, bytes);
      else bench_report_vs("sets contain call", v.c_str(), pairs, ms, "no split", off_ms, bytes);
      bench_sets_contain_line(v.c_str(), res[b], off);
      printf("sets contain spread,%s,median %.2f ms,least %.2f ms,most %.2f ms,runs %zu\n", v.c_str(), ms, least, most,
             times[b].size());
    }
    for (size_t b = 1; b < belows.size(); ++b) gclq_intersect_result_free(&res[b]);
    gclq_intersect_result_free(&off);
    gclq_sets_free(&s);
  }
}
