/* demo.cu - a first look at both libraries on generated data, through their
   public API only.

   Build and run:  cmake --workflow --preset demo

   On the backend AUTO picks (CUDA when a GPU is present, else the host), it
     1. builds a rank-and-select quotient filter of a million generated keys
        and looks up those keys (all must be found) and a million others
        (the false-positive rate, beside the theory);
     2. runs the position scan, a non-associative scan, over a million sorted
        quotients and compares it with a serial loop;
     3. finds the maximum clique of a generated graph with a planted clique
        and checks it is the planted one.
   Each step prints its time and the backend it ran on; the last line says
   "every check held" when every answer is right. */
#include <stdio.h>
#include <stdlib.h>

#include "../gpuamq.h"
#include "../gpuclique.h" /* the implementation of both: impl.cu, linked in */

#include <chrono>
#include <vector>

static double demo_ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

static uint64_t demo_rand(uint64_t *s) { /* xorshift64*, fixed seed: the same data each run */
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545f4914f6cdd1dull;
}

/* 1. A quotient filter: build, look up present and absent keys. Returns 1 when
   every present key is found. */
static int demo_filter(size_t n, uint64_t *seed) {
  const int q = 21, r = 8; /* 2^21 home slots for 2^20 keys; 8-bit remainders */
  std::vector<uint64_t> keys(n), others(n);
  for (size_t i = 0; i < n; i++) keys[i] = demo_rand(seed) | 1;    /* odd keys in the filter */
  for (size_t i = 0; i < n; i++) others[i] = demo_rand(seed) & ~1ull; /* even keys not in it */
  std::vector<uint8_t> found(n);
  gamq_qf *f = NULL;
  gamq_qf_info info;
  gamq_status st = gamq_qf_create(NULL, GAMQ_QF_RSQF, q, r, &f);
  if (st != GAMQ_SUCCESS) {
    fprintf(stderr, "demo: gamq_qf_create: %s\n", gamq_status_string(st));
    return 0;
  }
  st = gamq_qf_get_info(f, &info); /* fills info, or fails and leaves it unset */
  if (st != GAMQ_SUCCESS) {
    fprintf(stderr, "demo: gamq_qf_get_info: %s\n", gamq_status_string(st));
    gamq_qf_destroy(f);
    return 0;
  }
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  st = gamq_qf_build_u64(f, keys.data(), n);
  double build_ms = demo_ms_since(t0);
  size_t present = 0, false_positives = 0;
  double lookup_ms = 0, absent_ms = 0;
  if (st == GAMQ_SUCCESS) {
    t0 = std::chrono::steady_clock::now();
    st = gamq_qf_lookup_u64(f, keys.data(), n, found.data());
    lookup_ms = demo_ms_since(t0);
    for (size_t i = 0; i < n; i++) present += found[i];
  }
  if (st == GAMQ_SUCCESS) {
    t0 = std::chrono::steady_clock::now();
    st = gamq_qf_lookup_u64(f, others.data(), n, found.data());
    absent_ms = demo_ms_since(t0);
    for (size_t i = 0; i < n; i++) false_positives += found[i];
  }
  gamq_qf_destroy(f);
  if (st != GAMQ_SUCCESS) {
    fprintf(stderr, "demo: quotient filter: %s\n", gamq_status_string(st));
    return 0;
  }
  printf("quotient filter (RSQF, q %d, r %d) on %s:\n", q, r, gamq_backend_name(info.backend));
  printf("  build          %9.2f ms: %zu keys\n", build_ms, n);
  printf("  lookup present %9.2f ms: %zu of %zu found\n", lookup_ms, present, n);
  printf("  lookup absent  %9.2f ms: %zu of %zu other keys found (false positives), rate %.5f, theory about %.5f\n",
         absent_ms, false_positives, n, (double)false_positives / (double)n, (double)n / (double)(1ull << (q + r)));
  return present == n;
}

/* 2. The position scan: where sorted quotients land under linear probing,
   pos_i = max(pos_{i-1} + 1, q_i). Returns 1 when it matches the serial loop. */
static int demo_scan(size_t n, uint64_t *seed) {
  std::vector<uint32_t> quotients(n), slots(n);
  uint32_t qv = 0;
  for (size_t i = 0; i < n; i++) { /* sorted, with runs of equal quotients and gaps */
    qv += (uint32_t)(demo_rand(seed) % 3);
    quotients[i] = qv;
  }
  gamq_scan_desc desc = {}; /* backend AUTO, method AUTO (the associative form) */
  gamq_scan_stats stats;
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  gamq_status st = gamq_position_scan_u32(&desc, quotients.data(), NULL, NULL, slots.data(), n, &stats);
  double ms = demo_ms_since(t0);
  if (st != GAMQ_SUCCESS) {
    fprintf(stderr, "demo: gamq_position_scan_u32: %s\n", gamq_status_string(st));
    return 0;
  }
  size_t wrong = 0;
  uint32_t expect = 0;
  for (size_t i = 0; i < n; i++) {
    expect = i == 0 || quotients[i] > expect + 1 ? quotients[i] : expect + 1;
    wrong += slots[i] != expect;
  }
  printf("position scan of %zu sorted quotients on %s (%s): %.2f ms, %s the serial loop\n", n,
         gamq_backend_name(stats.backend), gamq_scan_method_name(stats.method), ms,
         wrong == 0 ? "matches" : "DOES NOT match");
  return wrong == 0;
}

/* 3. The maximum clique of G(n, p) with a planted clique. Returns 1 when the
   search finds exactly the planted clique. */
static int demo_clique(uint32_t n, double p, uint32_t size, uint64_t seed) {
  std::vector<uint32_t> planted(size);
  gclq_graph g;
  gclq_maxclique_result r;
  gclq_status st = gclq_graph_planted_clique(n, p, size, seed, &g, planted.data());
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "demo: gclq_graph_planted_clique: %s\n", gclq_status_string(st));
    return 0;
  }
  std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  st = gclq_max_cliques(&g, NULL, &r); /* NULL options: defaults, backend AUTO, every maximum clique */
  double ms = demo_ms_since(t0);
  int ok = 0;
  if (st == GCLQ_SUCCESS) {
    ok = r.omega == size && r.count == 1 && r.stored == 1;
    for (uint32_t i = 0; ok && i < size; i++) ok = r.h_cliques[i] == g.h_original_ids[planted[i]];
    printf("maximum clique of G(%u, %.2f) with a planted %u-clique (%llu edges) on %s: %.2f ms, "
           "omega %u, %llu maximum clique(s), %s\n",
           n, p, size, (unsigned long long)g.num_edges, gclq_backend_name(r.stats.backend), ms, r.omega,
           (unsigned long long)r.count, ok ? "the planted one" : "NOT the planted one");
    gclq_maxclique_result_free(&r);
  } else {
    fprintf(stderr, "demo: gclq_max_cliques: %s\n", gclq_status_string(st));
  }
  gclq_graph_free(&g);
  return ok;
}

int main(void) {
  gamq_backend backend;
  gamq_status st = gamq_backend_resolve(GAMQ_BACKEND_AUTO, &backend);
  if (st != GAMQ_SUCCESS) {
    fprintf(stderr, "demo: %s\n", gamq_status_string(st));
    return 1;
  }
  printf("gpuamq %s + gpuclique %s, backend AUTO: %s\n", GAMQ_VERSION_STRING, GCLQ_VERSION_STRING,
         gamq_backend_name(backend));
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  int ok = demo_filter((size_t)1 << 20, &seed);
  ok &= demo_scan((size_t)1 << 20, &seed);
  ok &= demo_clique(2000, 0.01, 25, 7);
  printf(ok ? "every check held\n" : "a check FAILED\n");
  return ok ? 0 : 1;
}
