/* maxclique - every maximum clique of a graph file (or one of them).

     maxclique FILE [--format snap|dimacs|mtx|auto] [--heuristic H] [--seeds N]
               [--orientation degree|index] [--prune degree|core]
               [--window N] [--window-order O] [--budget MB] [--one]
               [--backend auto|cuda|host] [--search bitset|list] [--max-stored N]
               [--show N] [--quiet]
     maxclique --rmat SCALE [--edge-factor F] ...      (a generated graph instead of FILE)
     maxclique --planted N P K ...                     (G(N, P) with a clique of K planted)

   H: none, single-degree, single-core, multi-degree (default), multi-core.
   O: index, degree-asc, degree-desc (default), core-asc, core-desc.
   Prints omega, the number of maximum cliques, the first N cliques (file ids,
   default 5) and the run's statistics; a progress line per level goes to
   stderr (--quiet drops it). Exit status: 0 on success, 1 on a usage error,
   2 when the library reports an error.

   Plain C: compiled by gcc against the header it gets the host backend;
   compiled by nvcc (as a .cu, or with -x cu) it gets CUDA too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"

static void progress(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "  %s\n", line);
}

static int pick(const char *s, const char *const *names, int count, int *out) {
  int i;
  for (i = 0; i < count; ++i)
    if (strcmp(s, names[i]) == 0) {
      *out = i;
      return 1;
    }
  return 0;
}

static int usage(const char *why) {
  fprintf(stderr, "maxclique: %s\n", why);
  fprintf(stderr,
          "usage: maxclique FILE|--rmat SCALE|--planted N P K [--format snap|dimacs|mtx|auto]\n"
          "         [--heuristic none|single-degree|single-core|multi-degree|multi-core] [--seeds N]\n"
          "         [--orientation degree|index] [--prune degree|core] [--window N]\n"
          "         [--window-order index|degree-asc|degree-desc|core-asc|core-desc]\n"
          "         [--budget MB] [--one] [--backend auto|cuda|host] [--search bitset|list]\n"
          "         [--max-stored N] [--show N] [--quiet]\n");
  return 1;
}

int main(int argc, char **argv) {
  static const char *const formats[] = {"auto", "snap", "dimacs", "mtx"};
  static const char *const heuristics[] = {"default", "none", "single-degree", "single-core", "multi-degree",
                                           "multi-core"};
  static const char *const orientations[] = {"default", "degree", "index"};
  static const char *const prunes[] = {"default", "degree", "core"};
  static const char *const orders[] = {"default", "index", "degree-asc", "degree-desc", "core-asc", "core-desc"};
  static const char *const backends[] = {"auto", "cuda", "host"};
  static const char *const searches[] = {"default", "bitset", "list"};
  gclq_maxclique_options opt;
  gclq_maxclique_result res;
  gclq_graph g;
  gclq_load_error err;
  gclq_status st;
  const char *path = NULL;
  int format = 0, v, i, quiet = 0, rmat_scale = 0, edge_factor = 16, planted = 0;
  unsigned long planted_n = 0, planted_k = 0;
  double planted_p = 0.0;
  unsigned long long show = 5, c;
  uint32_t k;

  gclq_maxclique_options_defaults(&opt);
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--one") == 0) {
      opt.mode = GCLQ_MODE_ONE;
    } else if (strcmp(a, "--quiet") == 0) {
      quiet = 1;
    } else if (strncmp(a, "--", 2) == 0 && next == NULL) {
      return usage("unknown option, or an option missing its value");
    } else if (strcmp(a, "--format") == 0) {
      if (!pick(argv[++i], formats, 4, &format)) return usage("unknown format");
    } else if (strcmp(a, "--heuristic") == 0) {
      if (!pick(argv[++i], heuristics, 6, &v)) return usage("unknown heuristic");
      opt.heuristic = (gclq_heuristic)v;
    } else if (strcmp(a, "--seeds") == 0) {
      opt.seeds = (uint32_t)strtoul(argv[++i], NULL, 10);
    } else if (strcmp(a, "--orientation") == 0) {
      if (!pick(argv[++i], orientations, 3, &v)) return usage("unknown orientation");
      opt.orientation = (gclq_orientation)v;
    } else if (strcmp(a, "--prune") == 0) {
      if (!pick(argv[++i], prunes, 3, &v)) return usage("unknown pruning");
      opt.prune = (gclq_prune)v;
    } else if (strcmp(a, "--window") == 0) {
      opt.window_size = strtoull(argv[++i], NULL, 10);
    } else if (strcmp(a, "--window-order") == 0) {
      if (!pick(argv[++i], orders, 6, &v)) return usage("unknown window order");
      opt.window_order = (gclq_window_order)v;
    } else if (strcmp(a, "--budget") == 0) {
      opt.device_budget_bytes = (size_t)(strtod(argv[++i], NULL) * 1048576.0);
    } else if (strcmp(a, "--backend") == 0) {
      if (!pick(argv[++i], backends, 3, &v)) return usage("unknown backend");
      opt.backend = (gclq_backend)v;
    } else if (strcmp(a, "--search") == 0) {
      if (!pick(argv[++i], searches, 3, &v)) return usage("unknown search");
      opt.search = (gclq_search)v;
    } else if (strcmp(a, "--max-stored") == 0) {
      opt.max_stored = strtoull(argv[++i], NULL, 10);
    } else if (strcmp(a, "--show") == 0) {
      show = strtoull(argv[++i], NULL, 10);
    } else if (strcmp(a, "--rmat") == 0) {
      rmat_scale = atoi(argv[++i]);
    } else if (strcmp(a, "--edge-factor") == 0) {
      edge_factor = atoi(argv[++i]);
    } else if (strcmp(a, "--planted") == 0) {
      if (i + 3 >= argc) return usage("--planted takes N P K");
      planted = 1;
      planted_n = strtoul(argv[++i], NULL, 10);
      planted_p = strtod(argv[++i], NULL);
      planted_k = strtoul(argv[++i], NULL, 10);
    } else if (a[0] == '-' && a[1] == '-') {
      return usage("unknown option");
    } else if (path == NULL) {
      path = a;
    } else {
      return usage("more than one file");
    }
  }
  if ((path != NULL) + (rmat_scale > 0) + planted != 1) return usage("give one FILE, --rmat or --planted");
  if (!quiet) {
    opt.log = progress;
    opt.log_user = NULL;
  }

  if (rmat_scale > 0) {
    st = gclq_graph_rmat(rmat_scale, edge_factor, 1, &g);
    path = "R-MAT";
  } else if (planted) {
    st = gclq_graph_planted_clique((uint32_t)planted_n, planted_p, (uint32_t)planted_k, 1, &g, NULL);
    path = "planted clique";
  } else {
    st = gclq_graph_load(path, (gclq_format)format, &g, &err);
    if (st != GCLQ_SUCCESS) {
      fprintf(stderr, "maxclique: %s: %s (line %llu: %s)\n", path, gclq_status_string(st),
              (unsigned long long)err.line, err.message);
      return 2;
    }
  }
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "maxclique: cannot build the graph: %s\n", gclq_status_string(st));
    return 2;
  }
  printf("%s: %u vertices, %llu edges\n", path, g.num_vertices, (unsigned long long)g.num_edges);

  st = gclq_max_cliques(&g, &opt, &res);
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "maxclique: %s\n", gclq_status_string(st));
    gclq_graph_free(&g);
    return 2;
  }
  printf("omega %u, %llu maximum clique%s%s\n", res.omega, (unsigned long long)res.count, res.count == 1 ? "" : "s",
         opt.mode == GCLQ_MODE_ONE ? " (one asked for)" : "");
  for (c = 0; c < res.stored && c < show; ++c) {
    printf("  clique %llu:", c + 1);
    for (k = 0; k < res.omega; ++k) printf(" %llu", (unsigned long long)res.h_cliques[c * res.omega + k]);
    printf("\n");
  }
  if (res.count > show)
    printf("  ... %llu more (%llu stored)\n", (unsigned long long)(res.count - show), (unsigned long long)res.stored);
  printf("backend %s%s; %.2f ms total: upload %.2f, cores %.2f, heuristic %.2f, setup %.2f, search %.2f "
         "(readout %.2f)\n",
         gclq_backend_name(res.stats.backend), res.stats.fell_back ? " (fell back)" : "", res.stats.total_ms,
         res.stats.upload_ms, res.stats.cores_ms, res.stats.heuristic_ms, res.stats.setup_ms, res.stats.search_ms,
         res.stats.readout_ms);
  if (res.stats.backend == GCLQ_BACKEND_CUDA) {
    printf("search %s; lower bound %u, max core %u, 2-cliques %llu, windows %u, budget splits %u, peak %.1f MiB of %.1f\n",
           res.stats.search == GCLQ_SEARCH_LIST ? "list" : "bitset", res.stats.lower_bound, res.stats.max_core,
           (unsigned long long)res.stats.two_cliques, res.stats.windows,
           res.stats.budget_splits, (double)res.stats.peak_device_bytes / 1048576.0,
           (double)res.stats.budget_bytes / 1048576.0);
    printf("candidates per level:");
    for (k = 2; k < res.stats.num_levels; ++k)
      printf(" %u:%llu", k, (unsigned long long)res.stats.candidates_per_level[k]);
    printf("\n");
  }
  if (res.stats.notes[0]) printf("note: %s\n", res.stats.notes);
  gclq_maxclique_result_free(&res);
  gclq_graph_free(&g);
  return 0;
}
