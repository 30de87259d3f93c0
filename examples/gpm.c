/* gpm - graph pattern mining on a graph file: subgraph matching, motif
   counts, k-cliques.

     gpm FILE [--labels FILE] COMMAND [options]
     gpm --rmat SCALE [--seed S] [--random-labels L] COMMAND [options]
     gpm FILE --random-labels L [--seed S] COMMAND [options]
     gpm --help

   Commands:
     match QUERY [--induced | --embeddings | --homomorphisms] [--list N]
         the subgraphs of the graph isomorphic to QUERY (any graph file the
         loaders read, up to 10 vertices, connected; labelled when it is a
         labelled .lg file or --query-labels names its labels), each subgraph
         once (edge-induced unless --induced); every injective map with
         --embeddings, every map with --homomorphisms. Ends with "matches N";
         --list N prints up to N of them first ("match: ID ...", file ids in
         the query's vertex order, smallest first).
     motifs -k K [--method auto|enumerate|count]
         "motif NAME COUNT" for every connected pattern of K = 3, 4 or 5
         vertices (vertex-induced occurrences), then "subgraphs N"; count
         (K = 3, 4; auto's choice there) solves for them from triangles,
         4-cliques, 4-cycles and degrees, enumerate visits every subgraph.
     kcl -k K
         "cliques N", the number of K-cliques (K >= 3).
     fpm --support S --max-edges E [--method auto|search|table]
         every connected labelled pattern of at most E edges (E <= 6) whose
         minimum-image support is at least S: "pattern CODE support N" each
         (canonical code: labels, then edges), then "patterns N". search
         matches each candidate (HOST); table grows an embedding table
         (HOST or CUDA; auto's choice with a GPU).

   Labels: --labels FILE reads "id label" lines for the graph's vertices;
   a labelled .lg graph file has its own; --random-labels L draws labels in
   0 .. L - 1 for any graph (seeded by --seed, default 1) in place of those.
   --backend auto|cuda|host (cuda, and auto with a GPU, count and list
   the matches of any query; motifs by enumeration run on HOST only: cuda
   is an error naming it),
   --budget MB (the CUDA backend's
   device memory), --prepare (kcl, motifs, match: gclq_graph_prepare first,
   "prepared: ..." with its build time, then the command from it, its time
   the query's alone). --json prints one
   JSON object instead of the lines. Progress goes to stderr (none with
   --quiet). Exit status: 0 success, 1 file or library error, 2 usage error. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime: the progress lines' wall clock */
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One file builds the host-only tool: gcc -std=c99 -I. examples/gpm.c -lm
   (the implementation compiled here). The CMake targets link impl.c's
   instead (GPM_LINKED_IMPL): gpm with the CUDA backend, gpm_host without. */
#ifndef GPM_LINKED_IMPL
#define GPUCLIQUE_IMPLEMENTATION
#endif
#include "../gpuclique.h"

static const char usage_text[] =
    "usage: gpm FILE|--rmat SCALE [graph options] COMMAND [options]\n"
    "commands:\n"
    "  match QUERY       the subgraphs isomorphic to QUERY (a graph file, <= 10 vertices)\n"
    "    --induced       vertex-induced subgraphs (default: edge-induced)\n"
    "    --embeddings    every injective map of QUERY's vertices\n"
    "    --homomorphisms every map of QUERY's vertices that keeps its edges\n"
    "    --list N        print up to N matches first\n"
    "    --query-labels FILE  QUERY's labels (\"id label\" lines)\n"
    "  motifs -k K       vertex-induced counts of every connected pattern of K = 3, 4, 5 vertices\n"
    "    --method M      auto|enumerate|count (count: K = 3, 4 without visiting the subgraphs)\n"
    "  kcl -k K          the number of K-cliques (K >= 3)\n"
    "  fpm --support S --max-edges E   labelled patterns of <= E edges (E <= 6) with support >= S\n"
    "    --method M      auto|search|table (table: an embedding table, HOST or CUDA)\n"
    "graph options:\n"
    "  --labels FILE     the graph's labels (\"id label\" lines)\n"
    "  --rmat SCALE      an R-MAT graph (edge factor 16) instead of FILE\n"
    "  --seed S          R-MAT and label seed (default 1)\n"
    "  --random-labels L labels drawn from 0 .. L - 1 (any graph; seeded by --seed)\n"
    "options:\n"
    "  --backend B       auto|cuda|host (default auto; motifs by enumeration: HOST only)\n"
    "  --budget MB       the CUDA backend's device memory (kcl, motifs, fpm, match)\n"
    "  --prepare         kcl, motifs, match: the graph prepared on the device first (its time apart)\n"
    "  --json            one JSON object on stdout\n"
    "  --quiet           no progress lines on stderr\n"
    "  --help, -h\n"
    "exit status: 0 success, 1 file or library error, 2 usage error\n";

#define CLI_PROGRAM "gpm"
#include "cli_args.h"

enum { CMD_NONE, CMD_MATCH, CMD_MOTIFS, CMD_KCL, CMD_FPM };

typedef struct cli {
  int command, json, quiet, rmat, have_k, have_list, prepare;
  const char *path, *labels, *query, *query_labels;
  unsigned long long scale, seed, random_labels, k, list, support, max_edges;
  gclq_match_mode mode;
  gclq_motif_method method;
  gclq_fpm_method fpm_method;
  gclq_backend backend;
  double budget_mb;
  gclq_prepared_graph *prepared; /* --prepare: the graph on the device, made once */
} cli;

/* Parse argv into c. Returns -1 to go on, or the exit status (0 for --help). */
static int parse_args(int argc, char **argv, cli *c) {
  static const char *const backends[] = {"auto", "cuda", "host"};
  static const char *const commands[] = {"match", "motifs", "kcl", "fpm"};
  int i, v;
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--json") == 0) { c->json = 1; continue; }
    if (strcmp(a, "--quiet") == 0) { c->quiet = 1; continue; }
    if (strcmp(a, "--prepare") == 0) { c->prepare = 1; continue; }
    if (strcmp(a, "--induced") == 0 || strcmp(a, "--embeddings") == 0 || strcmp(a, "--homomorphisms") == 0) {
      if (c->command != CMD_MATCH) return usage("belongs to match", a);
      if (c->mode != GCLQ_MATCH_EDGE_INDUCED) return usage("give one of --induced, --embeddings, --homomorphisms", a);
      c->mode = a[2] == 'i' ? GCLQ_MATCH_VERTEX_INDUCED : a[2] == 'e' ? GCLQ_MATCH_EMBEDDINGS : GCLQ_MATCH_HOMOMORPHISMS;
      continue;
    }
    if (a[0] != '-') { /* FILE, the command, or match's QUERY */
      if (c->command == CMD_NONE && (c->path != NULL || c->rmat) && pick(a, commands, 4, &v)) c->command = v + 1;
      else if (c->command == CMD_NONE && c->path == NULL && !c->rmat) c->path = a;
      else if (c->command == CMD_MATCH && c->query == NULL) c->query = a;
      else if (c->command == CMD_NONE) return usage_unknown("command", a, "match, motifs, kcl or fpm");
      else return usage("unexpected argument", a);
      continue;
    }
    if (++i >= argc) return usage("needs a value", a);
    if (strcmp(a, "-k") == 0) {
      if (!parse_u64(a, argv[i], 3, 64, &c->k)) return 2;
      c->have_k = 1;
    } else if (strcmp(a, "--labels") == 0) {
      c->labels = argv[i];
    } else if (strcmp(a, "--query-labels") == 0) {
      c->query_labels = argv[i];
    } else if (strcmp(a, "--list") == 0) {
      if (!parse_u64(a, argv[i], 0, ~0ull, &c->list)) return 2;
      c->have_list = 1;
    } else if (strcmp(a, "--rmat") == 0) {
      if (c->path || c->rmat) return usage("give one FILE or --rmat", a);
      if (!parse_u64(a, argv[i], 1, 30, &c->scale)) return 2;
      c->rmat = 1;
    } else if (strcmp(a, "--seed") == 0) {
      if (!parse_u64(a, argv[i], 0, ~0ull, &c->seed)) return 2;
    } else if (strcmp(a, "--random-labels") == 0) {
      if (!parse_u64(a, argv[i], 1, 0xffffffffull, &c->random_labels)) return 2;
    } else if (strcmp(a, "--backend") == 0) {
      if (!pick(argv[i], backends, 3, &v)) return usage_unknown(a, argv[i], "auto, cuda or host");
      c->backend = (gclq_backend)v;
    } else if (strcmp(a, "--budget") == 0) {
      if (!parse_double(a, argv[i], 0.0, 1e12, &c->budget_mb)) return 2;
    } else if (strcmp(a, "--method") == 0 && c->command == CMD_FPM) {
      static const char *const methods[] = {"auto", "search", "table"};
      if (!pick(argv[i], methods, 3, &v)) return usage_unknown(a, argv[i], "auto, search or table");
      c->fpm_method = (gclq_fpm_method)v;
    } else if (strcmp(a, "--method") == 0) {
      static const char *const methods[] = {"auto", "enumerate", "count"};
      if (c->command != CMD_MOTIFS) return usage("belongs to motifs or fpm", a);
      if (!pick(argv[i], methods, 3, &v)) return usage_unknown(a, argv[i], "auto, enumerate or count");
      c->method = (gclq_motif_method)v;
    } else if (strcmp(a, "--support") == 0) {
      if (c->command != CMD_FPM) return usage("belongs to fpm", a);
      if (!parse_u64(a, argv[i], 1, ~0ull, &c->support)) return 2;
    } else if (strcmp(a, "--max-edges") == 0) {
      if (c->command != CMD_FPM) return usage("belongs to fpm", a);
      if (!parse_u64(a, argv[i], 1, GCLQ_FPM_MAX_EDGES, &c->max_edges)) return 2;
    } else {
      return usage("unknown option", a);
    }
  }
  if (!c->path && !c->rmat) return usage("give one FILE or --rmat", NULL);
  if (c->command == CMD_NONE) return usage("give a command: match, motifs, kcl or fpm", NULL);
  if (c->command == CMD_MATCH && c->query == NULL) return usage("match needs a QUERY file", NULL);
  if ((c->command == CMD_MOTIFS || c->command == CMD_KCL) && !c->have_k) return usage("needs -k K", commands[c->command - 1]);
  if (c->command == CMD_MOTIFS && c->k > 5) return usage("motifs count K = 3, 4 or 5", "-k");
  if (c->method == GCLQ_MOTIF_COUNT && c->k == 5) return usage("--method count takes K = 3 or 4", "-k");
  if (c->command == CMD_FPM && (!c->support || !c->max_edges)) return usage("needs --support S and --max-edges E", "fpm");
  if (c->have_list && c->command != CMD_MATCH) return usage("belongs to match", "--list");
  if (c->prepare && c->command == CMD_FPM) return usage("belongs to match, motifs and kcl", "--prepare");
  if (c->query_labels && c->command != CMD_MATCH) return usage("belongs to match", "--query-labels");
  return -1;
}

/* A graph file, then its labels file when one is named. Returns 0, or prints why not and returns 1. */
static int load(const char *path, const char *labels, gclq_graph *g, progress_state *prog) {
  gclq_load_error err;
  gclq_status st;
  progress_say(prog, "reading", path);
  st = gclq_graph_load(path, GCLQ_FORMAT_AUTO, g, &err);
  if (st != GCLQ_SUCCESS) {
    print_file_error(path, (unsigned long long)err.line, err.message, st);
    return 1;
  }
  if (labels != NULL && (st = gclq_graph_load_labels(labels, NULL, g, &err)) != GCLQ_SUCCESS) {
    print_file_error(labels, (unsigned long long)err.line, err.message, st);
    gclq_graph_free(g);
    return 1;
  }
  return 0;
}

static int run_match(const cli *c, const gclq_graph *g, progress_state *prog) {
  static const char *const modes[] = {"edge-induced", "vertex-induced", "embeddings", "homomorphisms"};
  gclq_graph q;
  gclq_match_options o;
  gclq_match_result r;
  gclq_status st;
  unsigned long long i, j;
  if (load(c->query, c->query_labels, &q, prog)) return 1;
  memset(&o, 0, sizeof o);
  o.backend = c->backend;
  o.device_budget_bytes = (size_t)(c->budget_mb * 1048576.0);
  o.prepared = c->prepared;
  o.mode = c->mode;
  o.max_stored = c->list;
  if (!c->quiet) o.log = progress, o.log_user = prog;
  st = gclq_match(g, &q, &o, &r);
  gclq_graph_free(&q);
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "gpm: match: %s\n", r.message[0] ? r.message : gclq_status_string(st));
    return 1;
  }
  if (c->json) {
    printf("{\"command\": \"match\", \"mode\": \"%s\", \"query_vertices\": %u, \"automorphisms\": %llu, \"matches\": %llu"
           ", \"listed\": [",
           modes[c->mode], r.query_vertices, (unsigned long long)r.automorphisms, (unsigned long long)r.count);
    for (i = 0; i < r.stored; ++i) {
      printf("%s[", i ? ", " : "");
      for (j = 0; j < r.query_vertices; ++j) printf("%s%llu", j ? ", " : "", (unsigned long long)r.h_matches[i * r.query_vertices + j]);
      printf("]");
    }
    printf("], \"backend\": \"%s\", \"total_ms\": %.3f, \"count_ms\": %.3f}\n", gclq_backend_name(r.backend),
           r.total_ms, r.count_ms);
  } else {
    for (i = 0; i < r.stored; ++i) {
      printf("match:");
      for (j = 0; j < r.query_vertices; ++j) printf(" %llu", (unsigned long long)r.h_matches[i * r.query_vertices + j]);
      printf("\n");
    }
    printf("query: %u vertices, %llu automorphisms; %s; backend %s, %.2f ms; count %.2f ms\n", r.query_vertices,
           (unsigned long long)r.automorphisms, modes[c->mode], gclq_backend_name(r.backend), r.total_ms, r.count_ms);
    printf("matches %llu\n", (unsigned long long)r.count);
  }
  gclq_match_result_free(&r);
  return 0;
}

static int run_motifs(const cli *c, const gclq_graph *g, progress_state *prog) {
  gclq_motif_options o;
  gclq_motif_result r;
  gclq_status st;
  uint32_t i;
  memset(&o, 0, sizeof o);
  o.backend = c->backend;
  o.method = c->method;
  o.prepared = c->prepared;
  o.device_budget_bytes = (size_t)(c->budget_mb * 1048576.0);
  if (!c->quiet) o.log = progress, o.log_user = prog;
  st = gclq_motifs(g, (uint32_t)c->k, &o, &r);
  if (st != GCLQ_SUCCESS) {
    if (st == GCLQ_ERROR_BACKEND_UNAVAILABLE && c->backend == GCLQ_BACKEND_CUDA &&
        (c->k == 5 || c->method == GCLQ_MOTIF_ENUMERATE))
      fprintf(stderr, "gpm: motifs: --backend cuda: enumeration (K = 5, --method enumerate) runs on HOST only\n");
    else
      print_status(st);
    return 1;
  }
  if (c->json) printf("{\"command\": \"motifs\", \"k\": %u, \"motifs\": {", r.k);
  for (i = 0; i < r.num_patterns; ++i) {
    if (c->json) printf("%s\"%s\": %llu", i ? ", " : "", gclq_motif_name(r.k, i), (unsigned long long)r.counts[i]);
    else printf("motif %s %llu\n", gclq_motif_name(r.k, i), (unsigned long long)r.counts[i]);
  }
  if (c->json)
    printf("}, \"subgraphs\": %llu, \"method\": \"%s\", \"backend\": \"%s\", \"total_ms\": %.3f, "
           "\"count_ms\": %.3f}\n",
           (unsigned long long)r.subgraphs, r.method == GCLQ_MOTIF_COUNT ? "count" : "enumerate",
           gclq_backend_name(r.backend), r.total_ms, r.count_ms);
  else
    printf("subgraphs %llu (method %s, backend %s, %.2f ms; count %.2f ms)\n", (unsigned long long)r.subgraphs,
           r.method == GCLQ_MOTIF_COUNT ? "count" : "enumerate", gclq_backend_name(r.backend), r.total_ms,
           r.count_ms);
  return 0;
}

static int run_kcl(const cli *c, const gclq_graph *g, progress_state *prog) {
  gclq_kclique_options o;
  gclq_kclique_result r;
  gclq_status st;
  gclq_kclique_options_defaults(&o);
  o.k = (uint32_t)c->k;
  o.backend = c->backend;
  o.prepared = c->prepared;
  o.device_budget_bytes = (size_t)(c->budget_mb * 1048576.0);
  if (!c->quiet) o.log = progress, o.log_user = prog;
  st = gclq_kcliques(g, &o, &r);
  if (st != GCLQ_SUCCESS) {
    print_status(st);
    return 1;
  }
  if (c->json) {
    printf("{\"command\": \"kcl\", \"k\": %u, \"cliques\": ", o.k);
    if (r.h_status[0] == GCLQ_SUCCESS) printf("%llu", (unsigned long long)r.h_counts[0]);
    else printf("\"overflow\"");
    printf(", \"backend\": \"%s\", \"total_ms\": %.3f}\n", gclq_backend_name(r.stats.backend), r.stats.total_ms);
  } else {
    if (r.h_status[0] == GCLQ_SUCCESS) printf("cliques %llu\n", (unsigned long long)r.h_counts[0]);
    else printf("cliques overflow\n");
    printf("kcl: method %s, backend %s; order %.2f ms, count %.2f ms, total %.2f ms\n",
           gclq_kclique_method_name(r.stats.method), gclq_backend_name(r.stats.backend), r.stats.order_ms,
           r.stats.count_ms, r.stats.total_ms);
  }
  gclq_kclique_result_free(&r);
  return 0;
}

static int run_fpm(const cli *c, const gclq_graph *g, progress_state *prog) {
  gclq_fpm_options o;
  gclq_fpm_result r;
  gclq_status st;
  uint64_t i;
  memset(&o, 0, sizeof o);
  o.backend = c->backend;
  o.method = c->fpm_method;
  o.device_budget_bytes = (size_t)(c->budget_mb * 1048576.0);
  o.min_support = c->support;
  o.max_edges = (uint32_t)c->max_edges;
  if (!c->quiet) o.log = progress, o.log_user = prog;
  st = gclq_fpm(g, &o, &r);
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "gpm: fpm: %s\n", r.message[0] ? r.message : gclq_status_string(st));
    return 1;
  }
  if (c->json) printf("{\"command\": \"fpm\", \"support\": %llu, \"max_edges\": %llu, \"patterns\": [", c->support, c->max_edges);
  for (i = 0; i < r.num_patterns; ++i) {
    if (c->json) printf("%s{\"code\": \"%s\", \"support\": %llu}", i ? ", " : "", r.h_patterns[i].code,
                        (unsigned long long)r.h_patterns[i].support);
    else printf("pattern %s support %llu\n", r.h_patterns[i].code, (unsigned long long)r.h_patterns[i].support);
  }
  if (c->json)
    printf("], \"candidates\": %llu, \"method\": \"%s\", \"backend\": \"%s\", \"total_ms\": %.3f}\n",
           (unsigned long long)r.candidates, r.method == GCLQ_FPM_TABLE ? "table" : "search",
           gclq_backend_name(r.backend), r.total_ms);
  else
    printf("patterns %llu (%llu candidates; method %s, backend %s, %.2f ms)\n", (unsigned long long)r.num_patterns,
           (unsigned long long)r.candidates, r.method == GCLQ_FPM_TABLE ? "table" : "search",
           gclq_backend_name(r.backend), r.total_ms);
  gclq_fpm_result_free(&r);
  return 0;
}

/* --prepare: the graph on the device (gclq_graph_prepare), its build time. */
static int prepare(cli *c, const gclq_graph *g) {
  gclq_prepare_options o;
  gclq_prepared_info info;
  gclq_status st;
  memset(&o, 0, sizeof o);
  o.device_budget_bytes = (size_t)(c->budget_mb * 1048576.0);
  st = gclq_graph_prepare(g, &o, &c->prepared);
  if (st == GCLQ_SUCCESS) st = gclq_prepared_info_get(c->prepared, &info);
  if (st != GCLQ_SUCCESS) {
    fprintf(stderr, "gpm: --prepare: %s\n", gclq_status_string(st));
    return 1;
  }
  if (!c->json)
    printf("prepared: upload %.2f ms, cores and orientation %.2f ms, %.1f MB on the device\n", info.upload_ms,
           info.order_ms, (double)info.device_bytes / 1048576.0);
  return 0;
}

int main(int argc, char **argv) {
  cli c;
  progress_state prog;
  gclq_graph g;
  gclq_status st;
  int done, rc;

  cli_line_buffered();
  memset(&c, 0, sizeof c);
  memset(&prog, 0, sizeof prog);
  c.seed = 1;
  done = parse_args(argc, argv, &c);
  if (done >= 0) return done;
  prog.quiet = c.quiet;
  if (c.rmat) {
    progress_say(&prog, "generating", "R-MAT");
    st = gclq_graph_rmat((int)c.scale, 16, c.seed, &g);
    if (st != GCLQ_SUCCESS) {
      fprintf(stderr, "gpm: cannot build the graph: %s\n", gclq_status_string(st));
      return 1;
    }
    if (c.labels != NULL) {
      gclq_load_error err;
      st = gclq_graph_load_labels(c.labels, NULL, &g, &err);
      if (st != GCLQ_SUCCESS) {
        print_file_error(c.labels, (unsigned long long)err.line, err.message, st);
        gclq_graph_free(&g);
        return 1;
      }
    }
  } else if (load(c.path, c.labels, &g, &prog)) {
    return 1;
  }
  if (c.random_labels && (st = gclq_graph_random_labels(&g, (uint32_t)c.random_labels, c.seed)) != GCLQ_SUCCESS) {
    fprintf(stderr, "gpm: --random-labels: %s\n", gclq_status_string(st));
    gclq_graph_free(&g);
    return 1;
  }
  if (!c.json)
    printf("%s: %u vertices, %llu edges%s\n", c.rmat ? "R-MAT" : c.path, g.num_vertices,
           (unsigned long long)g.num_edges, g.h_labels ? ", labelled" : "");
  if (c.prepare && (rc = prepare(&c, &g)) != 0) {
    gclq_graph_free(&g);
    return rc;
  }
  rc = c.command == CMD_MATCH    ? run_match(&c, &g, &prog)
       : c.command == CMD_MOTIFS ? run_motifs(&c, &g, &prog)
       : c.command == CMD_FPM    ? run_fpm(&c, &g, &prog)
                                 : run_kcl(&c, &g, &prog);
  gclq_prepared_free(c.prepared);
  gclq_graph_free(&g);
  return rc;
}
