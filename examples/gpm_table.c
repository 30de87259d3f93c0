/* gpm_table - frequent pattern mining written with the embedding-table
   primitives (gclq_emb_*), as GAMMA's Algorithm 2 writes it: a table of
   edges; per level, aggregate the rows by pattern with their minimum-image
   support, keep the rows of the frequent patterns, extend by one edge. The
   answer is then checked against the library's own gclq_fpm.

     gpm_table [--rmat SCALE] [--seed S] [--labels L] [--support S] [--max-edges E]
               [--block ROWS] [--backend auto|host|cuda]

   Defaults: R-MAT 8 (edge factor 8), 3 random labels, support 20, 3 edges.
   --block ROWS makes the largest level, the last, ROWS parents at a time
   (task blocks: extend a block, aggregate it, drop it), as one would when a
   whole level does not fit in memory; the patterns come out the same. Prints "pattern
   CODE support N" per frequent pattern, the wall time of the primitives and
   of gclq_fpm, then "patterns N, the same as gclq_fpm" (exit 0) or what
   differs (exit 1); 2 on a usage error.

   One file builds it: gcc -std=c99 -I. examples/gpm_table.c -lm (the
   implementation compiled here); the CMake targets link impl.c's instead. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime: the wall clock of the time line */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef GPM_LINKED_IMPL
#define GPUCLIQUE_IMPLEMENTATION
#endif
#include "../gpuclique.h"

static double wall_ms(void) {
#if defined(_WIN32)
  return (double)clock() * 1000.0 / CLOCKS_PER_SEC;
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
#endif
}

static int fail(const char *what, gclq_status st) {
  fprintf(stderr, "gpm_table: %s: %s\n", what, gclq_status_string(st));
  return 1;
}

/* The last level's patterns, aggregated (with support) block by block:
   extend ROWS parents, aggregate, drop, until every parent is done. */
static gclq_status aggregate_in_blocks(gclq_emb_table *t, uint64_t block, gclq_emb_patterns *pats) {
  const uint64_t parents = gclq_emb_rows(t, gclq_emb_levels(t) - 1);
  uint64_t at;
  gclq_status st = GCLQ_SUCCESS;
  for (at = 0; at < parents && st == GCLQ_SUCCESS; at += block) {
    st = gclq_emb_extend(t, at, block);
    if (st == GCLQ_SUCCESS) st = gclq_emb_aggregate(t, 1, pats);
    if (st == GCLQ_SUCCESS) st = gclq_emb_pop(t);
  }
  return st;
}

int main(int argc, char **argv) {
  uint32_t scale = 8, labels = 3, max_edges = 3, e;
  uint64_t seed = 1, support = 20, block = 0, found = 0, i;
  gclq_backend backend = GCLQ_BACKEND_AUTO;
  gclq_graph g;
  gclq_emb_options o;
  gclq_emb_table *t;
  gclq_fpm_options fo;
  gclq_fpm_result want;
  gclq_status st;
  double t_fpm, t_table;
  int a, same = 1;
  for (a = 1; a + 1 < argc; a += 2) { /* --option VALUE pairs */
    const char *v = argv[a + 1];
    if (strcmp(argv[a], "--rmat") == 0) scale = (uint32_t)strtoul(v, NULL, 10);
    else if (strcmp(argv[a], "--seed") == 0) seed = strtoull(v, NULL, 10);
    else if (strcmp(argv[a], "--labels") == 0) labels = (uint32_t)strtoul(v, NULL, 10);
    else if (strcmp(argv[a], "--support") == 0) support = strtoull(v, NULL, 10);
    else if (strcmp(argv[a], "--max-edges") == 0) max_edges = (uint32_t)strtoul(v, NULL, 10);
    else if (strcmp(argv[a], "--block") == 0) block = strtoull(v, NULL, 10);
    else if (strcmp(argv[a], "--backend") == 0 && strcmp(v, "auto") == 0) backend = GCLQ_BACKEND_AUTO;
    else if (strcmp(argv[a], "--backend") == 0 && strcmp(v, "host") == 0) backend = GCLQ_BACKEND_HOST;
    else if (strcmp(argv[a], "--backend") == 0 && strcmp(v, "cuda") == 0) backend = GCLQ_BACKEND_CUDA;
    else break;
  }
  if (argc == 2 && strcmp(argv[1], "--help") == 0) {
    printf("gpm_table: FPM written with the embedding-table primitives, checked against gclq_fpm\n"
           "usage: gpm_table [--rmat SCALE] [--seed S] [--labels L] [--support S] [--max-edges E] [--block ROWS]\n"
           "                 [--backend auto|host|cuda]\n");
    return 0;
  }
  if (a < argc || scale < 1 || scale > 20 || labels < 1 || support < 1 || max_edges < 1 ||
      max_edges > GCLQ_FPM_MAX_EDGES) {
    fprintf(stderr, "usage: gpm_table [--rmat SCALE <= 20] [--seed S] [--labels L >= 1] [--support S >= 1]\n"
                    "                 [--max-edges E <= %d] [--block ROWS] [--backend auto|host|cuda]\n",
            GCLQ_FPM_MAX_EDGES);
    return 2;
  }
  st = gclq_graph_rmat(scale, 8, seed, &g);
  if (st == GCLQ_SUCCESS) st = gclq_graph_random_labels(&g, labels, seed);
  if (st != GCLQ_SUCCESS) return fail("graph", st);
  printf("R-MAT %u: %u vertices, %llu edges, %u labels; support %llu, up to %u edges\n", scale, g.num_vertices,
         (unsigned long long)g.num_edges, labels, (unsigned long long)support, max_edges);

  /* level 0: every edge */
  memset(&o, 0, sizeof o);
  o.kind = GCLQ_EMB_EDGE;
  o.backend = backend;
  st = gclq_emb_create(&g, &o, &t);
  if (st != GCLQ_SUCCESS) return fail("gclq_emb_create", st);
  memset(&fo, 0, sizeof fo);
  fo.min_support = support;
  fo.max_edges = max_edges;
  fo.backend = GCLQ_BACKEND_HOST; /* the search, not a table: an independent answer */
  fo.method = GCLQ_FPM_SEARCH;
  t_fpm = wall_ms();
  st = gclq_fpm(&g, &fo, &want);
  t_fpm = wall_ms() - t_fpm;
  if (st != GCLQ_SUCCESS) return fail("gclq_fpm", st);
  t_table = wall_ms();
  for (e = 1; e <= max_edges && st == GCLQ_SUCCESS; ++e) {
    gclq_emb_patterns pats;
    gclq_emb_filter keep;
    memset(&pats, 0, sizeof pats);
    if (e == 1) st = gclq_emb_aggregate(t, 1, &pats); /* the single edges */
    else if (block > 0 && e == max_edges) st = aggregate_in_blocks(t, block, &pats); /* the largest level */
    else {
      st = gclq_emb_extend(t, 0, UINT64_MAX); /* one more edge, the whole level */
      if (st == GCLQ_SUCCESS) st = gclq_emb_aggregate(t, 1, &pats);
    }
    for (i = 0; st == GCLQ_SUCCESS && i < pats.num_patterns; ++i) {
      const gclq_emb_pattern *p = &pats.h_patterns[i];
      if (p->support < support) continue;
      printf("pattern %s support %llu\n", p->code, (unsigned long long)p->support);
      if (found >= want.num_patterns || strcmp(p->code, want.h_patterns[found].code) != 0 ||
          p->support != want.h_patterns[found].support)
        same = 0;
      ++found;
    }
    /* only the rows of frequent patterns grow on (MNI never grows with a pattern) */
    memset(&keep, 0, sizeof keep);
    keep.patterns = &pats;
    keep.min_support = support;
    if (st == GCLQ_SUCCESS && e < max_edges) st = gclq_emb_filter_rows(t, &keep);
    gclq_emb_patterns_free(&pats);
  }
  if (st != GCLQ_SUCCESS) return fail("the primitives", st);
  t_table = wall_ms() - t_table;
  printf("table levels %u, %llu bytes (%s)\n", gclq_emb_levels(t), (unsigned long long)gclq_emb_bytes(t),
         backend == GCLQ_BACKEND_CUDA ? "on the GPU" : "on the host");
  printf("time: the primitives %.1f ms, gclq_fpm (HOST) %.1f ms\n", t_table, t_fpm);
  same = same && found == want.num_patterns;
  if (same) printf("patterns %llu, the same as gclq_fpm\n", (unsigned long long)found);
  else printf("patterns %llu, gclq_fpm found %llu: they differ\n", (unsigned long long)found,
              (unsigned long long)want.num_patterns);
  gclq_fpm_result_free(&want);
  gclq_emb_free(t);
  gclq_graph_free(&g);
  return same ? 0 : 1;
}
