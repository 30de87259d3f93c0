/* maxclique - every maximum clique of a graph file (or one of them).

     maxclique FILE [options]              a graph file (SNAP, DIMACS, Matrix Market:
                                           --format, else by the content and the name)
     maxclique --rmat SCALE [--edge-factor F] [--seed S] [options]
     maxclique --planted N P K [--seed S] [options]   G(N, P) with a clique of K planted
     maxclique --er N P [--seed S] [options]          G(N, P)
     maxclique --help

   Prints omega, the number of maximum cliques, the first cliques (file ids)
   and the run's statistics, or with --json one JSON object on stdout (line
   by line as it is printed: stdout is line-buffered).
   Progress lines go to stderr: by default a line at once (the file read or
   the graph generated), the library's first line at once, then its newest
   about once a second (its search says where it is about once a second of
   processor time, on every backend); with --progress every line the
   library writes; none with --quiet. Numbers are parsed strictly: an
   option whose value is not a whole number (or, for --budget and P, a
   number) in its range is a usage error that names the option, and a name
   an option does not know is echoed with the names it takes.
   Exit status: 0 on success, 1 when the file or the library reports an
   error, 2 on a usage error.

   Plain C, built as a user builds: this file includes the header alone and
   links the one implementation file, examples/impl.c. Linked with impl.c
   compiled by a C compiler it has the host backend; with impl.cu (the same
   file through nvcc) it has CUDA too. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime: the progress lines' wall clock */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../gpuclique.h" /* the implementation: impl.c, linked in */

static const char usage_text[] =
    "usage: maxclique FILE|--rmat SCALE|--planted N P K|--er N P [options]\n"
    "  graph:   --format snap|dimacs|mtx|auto   --edge-factor F (R-MAT, 1..1024, default 16)\n"
    "           --seed S (generated graphs, default 1)   --max-vertices N (files: the load limit)\n"
    "  search:  --heuristic none|single-degree|single-core|multi-degree|multi-core   --seeds N\n"
    "           --orientation degree|index|degeneracy   --prune degree|core   --window N\n"
    "           --window-order index|degree-asc|degree-desc|core-asc|core-desc\n"
    "           --budget MB   --one   --backend auto|cuda|host   --search bitset|list\n"
    "  output:  --max-stored N   --show N (cliques printed, default 5)   --json\n"
    "           --progress (every progress line)   --quiet (none)   --help, -h\n"
    "exit status: 0 success, 1 file or library error, 2 usage error\n";

#define CLI_PROGRAM "maxclique"
#include "cli_args.h"

static void print_json(const char *name, const gclq_graph *g, const gclq_maxclique_result *r) {
  const gclq_maxclique_stats *s = &r->stats;
  unsigned long long c;
  uint32_t k;
  printf("{\"graph\": ");
  json_string(name);
  printf(", \"vertices\": %u, \"edges\": %llu, \"omega\": %u, \"count\": %llu, \"stored\": %llu, \"backend\": ",
         g->num_vertices, (unsigned long long)g->num_edges, r->omega, (unsigned long long)r->count,
         (unsigned long long)r->stored);
  json_string(gclq_backend_name(s->backend));
  printf(", \"cliques\": [");
  for (c = 0; c < r->stored; ++c) {
    printf("%s[", c ? ", " : "");
    for (k = 0; k < r->omega; ++k)
      printf("%s%llu", k ? ", " : "", (unsigned long long)r->h_cliques[c * r->omega + k]);
    printf("]");
  }
  printf("], \"stats\": {\"backend\": ");
  json_string(gclq_backend_name(s->backend));
  printf(", \"fell_back\": %d, \"auto_small\": %d, \"search\": ", s->fell_back, s->auto_small);
  json_string(s->backend != GCLQ_BACKEND_CUDA ? "none" : s->search == GCLQ_SEARCH_LIST ? "list" : "bitset");
  printf(", \"total_ms\": %.3f, \"upload_ms\": %.3f, \"cores_ms\": %.3f, \"heuristic_ms\": %.3f, "
         "\"setup_ms\": %.3f, \"search_ms\": %.3f, \"readout_ms\": %.3f",
         s->total_ms, s->upload_ms, s->cores_ms, s->heuristic_ms, s->setup_ms, s->search_ms, s->readout_ms);
  printf(", \"lower_bound\": %u, \"max_core\": %u, \"two_cliques\": %llu, \"windows\": %u, \"budget_splits\": %u",
         s->lower_bound, s->max_core, (unsigned long long)s->two_cliques, s->windows, s->budget_splits);
  printf(", \"peak_device_bytes\": %llu, \"budget_bytes\": %llu, \"candidates_per_level\": [",
         (unsigned long long)s->peak_device_bytes, (unsigned long long)s->budget_bytes);
  for (k = 0; k < s->num_levels; ++k)
    printf("%s%llu", k ? ", " : "", (unsigned long long)s->candidates_per_level[k]);
  printf("], \"notes\": ");
  json_string(s->notes);
  printf("}}\n");
}

/* ---- text output ---- */

static void print_text(const gclq_maxclique_options *opt, const gclq_maxclique_result *res,
                       unsigned long long show) {
  unsigned long long c;
  uint32_t k;
  printf("omega %u, %llu maximum clique%s%s\n", res->omega, (unsigned long long)res->count, res->count == 1 ? "" : "s",
         opt->mode == GCLQ_MODE_ONE ? " (one asked for)" : "");
  for (c = 0; c < res->stored && c < show; ++c) {
    printf("  clique %llu:", c + 1);
    for (k = 0; k < res->omega; ++k) printf(" %llu", (unsigned long long)res->h_cliques[c * res->omega + k]);
    printf("\n");
  }
  if (res->count > show)
    printf("  ... %llu more (%llu stored)\n", (unsigned long long)(res->count - show), (unsigned long long)res->stored);
  printf("backend %s%s; %.2f ms total: upload %.2f, cores %.2f, heuristic %.2f, setup %.2f, search %.2f "
         "(readout %.2f)\n",
         gclq_backend_name(res->stats.backend), res->stats.fell_back ? " (fell back)" : "", res->stats.total_ms,
         res->stats.upload_ms, res->stats.cores_ms, res->stats.heuristic_ms, res->stats.setup_ms,
         res->stats.search_ms, res->stats.readout_ms);
  if (res->stats.backend == GCLQ_BACKEND_CUDA) {
    printf("search %s; lower bound %u, max core %u, 2-cliques %llu, windows %u, budget splits %u, peak %.1f MiB of %.1f\n",
           res->stats.search == GCLQ_SEARCH_LIST ? "list" : "bitset", res->stats.lower_bound, res->stats.max_core,
           (unsigned long long)res->stats.two_cliques, res->stats.windows, res->stats.budget_splits,
           (double)res->stats.peak_device_bytes / 1048576.0, (double)res->stats.budget_bytes / 1048576.0);
    printf("candidates per level:");
    for (k = 2; k < res->stats.num_levels; ++k)
      printf(" %u:%llu", k, (unsigned long long)res->stats.candidates_per_level[k]);
    printf("\n");
  }
  if (res->stats.notes[0]) printf("note: %s\n", res->stats.notes);
}

/* ---- the command line ---- */

enum { GRAPH_NONE, GRAPH_FILE, GRAPH_RMAT, GRAPH_PLANTED, GRAPH_ER };

typedef struct cli {
  gclq_maxclique_options opt;
  gclq_load_options load;
  const char *path;
  int graph, json, quiet, every;
  unsigned long long show, seed, rmat_scale, edge_factor, n, k;
  double p;
} cli;

/* Parse argv into c. Returns -1 to go on, or the exit status (0 for --help). */
static int parse_args(int argc, char **argv, cli *c) {
  static const char *const formats[] = {"auto", "snap", "dimacs", "mtx"};
  static const char *const heuristics[] = {"default", "none", "single-degree", "single-core", "multi-degree",
                                           "multi-core"};
  static const char *const orientations[] = {"default", "degree", "index", "degeneracy"};
  static const char *const prunes[] = {"default", "degree", "core"};
  static const char *const orders[] = {"default", "index", "degree-asc", "degree-desc", "core-asc", "core-desc"};
  static const char *const backends[] = {"auto", "cuda", "host"};
  static const char *const searches[] = {"default", "bitset", "list"};
  const unsigned long long u32 = 0xffffffffull, u64 = ~0ull;
  unsigned long long x;
  double mb;
  int i, v;
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i];
    /* options without a value */
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(a, "--one") == 0) {
      c->opt.mode = GCLQ_MODE_ONE;
      continue;
    } else if (strcmp(a, "--quiet") == 0) {
      c->quiet = 1;
      continue;
    } else if (strcmp(a, "--progress") == 0) {
      c->every = 1;
      continue;
    } else if (strcmp(a, "--json") == 0) {
      c->json = 1;
      continue;
    } else if (a[0] != '-' || a[1] == '\0') {
      if (c->graph != GRAPH_NONE) return usage("give one FILE, --rmat, --planted or --er", a);
      c->graph = GRAPH_FILE;
      c->path = a;
      continue;
    }
    /* options with values */
    if (strcmp(a, "--planted") == 0 || strcmp(a, "--er") == 0) {
      int planted = a[2] == 'p';
      if (i + (planted ? 3 : 2) >= argc) return usage(planted ? "takes N P K" : "takes N P", a);
      if (c->graph != GRAPH_NONE) return usage("give one FILE, --rmat, --planted or --er", a);
      c->graph = planted ? GRAPH_PLANTED : GRAPH_ER;
      if (!parse_u64(a, argv[++i], 1, u32, &c->n) || !parse_double(a, argv[++i], 0.0, 1.0, &c->p)) return 2;
      if (planted && !parse_u64(a, argv[++i], 0, c->n, &c->k)) return 2;
      continue;
    }
    if (i + 1 >= argc) return usage("missing its value (or an unknown option)", a);
    ++i;
    if (strcmp(a, "--format") == 0) {
      if (!pick(argv[i], formats, 4, &v)) return usage_unknown(a, argv[i], "snap, dimacs, mtx or auto");
      c->load.format = (gclq_format)v;
    } else if (strcmp(a, "--heuristic") == 0) {
      if (!pick(argv[i], heuristics, 6, &v))
        return usage_unknown(a, argv[i], "none, single-degree, single-core, multi-degree or multi-core");
      c->opt.heuristic = (gclq_heuristic)v;
    } else if (strcmp(a, "--orientation") == 0) {
      if (!pick(argv[i], orientations, 4, &v)) return usage_unknown(a, argv[i], "degree, index or degeneracy");
      c->opt.orientation = (gclq_orientation)v;
    } else if (strcmp(a, "--prune") == 0) {
      if (!pick(argv[i], prunes, 3, &v)) return usage_unknown(a, argv[i], "degree or core");
      c->opt.prune = (gclq_prune)v;
    } else if (strcmp(a, "--window-order") == 0) {
      if (!pick(argv[i], orders, 6, &v))
        return usage_unknown(a, argv[i], "index, degree-asc, degree-desc, core-asc or core-desc");
      c->opt.window_order = (gclq_window_order)v;
    } else if (strcmp(a, "--backend") == 0) {
      if (!pick(argv[i], backends, 3, &v)) return usage_unknown(a, argv[i], "auto, cuda or host");
      c->opt.backend = (gclq_backend)v;
    } else if (strcmp(a, "--search") == 0) {
      if (!pick(argv[i], searches, 3, &v)) return usage_unknown(a, argv[i], "bitset or list");
      c->opt.search = (gclq_search)v;
    } else if (strcmp(a, "--seeds") == 0) {
      if (!parse_u64(a, argv[i], 0, u32, &x)) return 2;
      c->opt.seeds = (uint32_t)x;
    } else if (strcmp(a, "--window") == 0) {
      if (!parse_u64(a, argv[i], 0, u64, &x)) return 2;
      c->opt.window_size = x;
    } else if (strcmp(a, "--budget") == 0) {
      if (!parse_double(a, argv[i], 0.0, (double)((size_t)-1 >> 21), &mb)) return 2;
      c->opt.device_budget_bytes = (size_t)(mb * 1048576.0);
    } else if (strcmp(a, "--max-stored") == 0) {
      if (!parse_u64(a, argv[i], 0, u64, &x)) return 2;
      c->opt.max_stored = x;
    } else if (strcmp(a, "--max-vertices") == 0) {
      if (!parse_u64(a, argv[i], 1, u32, &x)) return 2;
      c->load.max_vertices = x;
    } else if (strcmp(a, "--show") == 0) {
      if (!parse_u64(a, argv[i], 0, u64, &c->show)) return 2;
    } else if (strcmp(a, "--seed") == 0) {
      if (!parse_u64(a, argv[i], 0, u64, &c->seed)) return 2;
    } else if (strcmp(a, "--rmat") == 0) {
      if (c->graph != GRAPH_NONE) return usage("give one FILE, --rmat, --planted or --er", a);
      c->graph = GRAPH_RMAT;
      if (!parse_u64(a, argv[i], 1, 30, &c->rmat_scale)) return 2;
    } else if (strcmp(a, "--edge-factor") == 0) {
      if (!parse_u64(a, argv[i], 1, 1024, &c->edge_factor)) return 2;
    } else {
      return usage("unknown option", a);
    }
  }
  if (c->graph == GRAPH_NONE) return usage("give one FILE, --rmat, --planted or --er", NULL);
  return -1;
}

/* The graph the command line names (a line on stderr at once: reading or
   generating); name gets a label for it. Returns 0, or prints why not and
   returns 1. */
static int build_graph(const cli *c, progress_state *prog, gclq_graph *g, const char **name) {
  gclq_load_error err;
  gclq_status st;
  if (c->graph == GRAPH_FILE) {
    *name = c->path;
    progress_say(prog, "reading", c->path);
    st = gclq_graph_load_opts(c->path, &c->load, g, &err);
    if (st != GCLQ_SUCCESS) {
      print_file_error(c->path, (unsigned long long)err.line, err.message, st);
      /* the loader names its option where another format would explain the
         error: here that option is --format */
      if (strstr(err.message, "gclq_load_options.format") != NULL)
        fprintf(stderr, "maxclique: --format snap|dimacs|mtx reads %s as another format\n", c->path);
      return 1;
    }
    return 0;
  }
  progress_say(prog, "generating", c->graph == GRAPH_RMAT      ? "R-MAT"
                                   : c->graph == GRAPH_PLANTED ? "a planted clique"
                                                               : "G(n, p)");
  if (c->graph == GRAPH_RMAT) {
    *name = "R-MAT";
    st = gclq_graph_rmat((int)c->rmat_scale, (int)c->edge_factor, c->seed, g);
  } else if (c->graph == GRAPH_PLANTED) {
    *name = "planted clique";
    st = gclq_graph_planted_clique((uint32_t)c->n, c->p, (uint32_t)c->k, c->seed, g, NULL);
  } else {
    *name = "G(n, p)";
    st = gclq_graph_erdos_renyi((uint32_t)c->n, c->p, c->seed, g);
  }
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "maxclique: cannot build the graph: %s\n", gclq_status_string(st));
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  cli c;
  progress_state prog;
  gclq_maxclique_result res;
  gclq_graph g;
  gclq_status st;
  const char *name = "";
  int done;

  cli_line_buffered();
  memset(&c, 0, sizeof c);
  memset(&prog, 0, sizeof prog);
  gclq_maxclique_options_defaults(&c.opt);
  c.show = 5;
  c.seed = 1;
  c.edge_factor = 16;
  done = parse_args(argc, argv, &c);
  if (done >= 0) return done;
  prog.every = c.every;
  prog.quiet = c.quiet;
  if (!c.quiet) {
    c.opt.log = progress;
    c.opt.log_user = &prog;
  }

  if (build_graph(&c, &prog, &g, &name) != 0) return 1;
  if (!c.json) printf("%s: %u vertices, %llu edges\n", name, g.num_vertices, (unsigned long long)g.num_edges);
  st = gclq_max_cliques(&g, &c.opt, &res);
  if (st != GCLQ_SUCCESS) {
    print_status(st);
    gclq_graph_free(&g);
    return 1;
  }
  if (c.json) print_json(name, &g, &res);
  else print_text(&c.opt, &res, c.show);
  gclq_maxclique_result_free(&res);
  gclq_graph_free(&g);
  return 0;
}
