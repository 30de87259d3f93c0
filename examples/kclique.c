/* kclique - the number of k-cliques of a graph, for one k or every k.

     kclique FILE (-k K | --all) [options]        a graph file (SNAP, DIMACS, Matrix Market:
                                                  --format, else by the content and the name)
     kclique --rmat SCALE [--seed S] (-k K | --all) [options]   R-MAT, edge factor 16
     kclique --help

   Prints one line "k K: COUNT" per k (with --all, k = 3 .. omega, then
   "omega W"); a count that does not fit in 64 bits prints as
   "k K: overflow". Then the listed cliques (--list N, file ids) and the
   run's statistics; with --json one JSON object on stdout instead.
   --per-vertex FILE writes "ID COUNT" per vertex (file ids, the k-cliques
   containing each). --method names any gclq_kclique_method
   (gclq_kclique_method_name): the HOST backend counts the CUDA-only methods
   (lftj, level-join, grouped, bitset) by ordered, and the stats line says
   which method counted. --budget caps the CUDA backend's device memory
   (unused by HOST). --max-vertices N raises (or lowers) the most vertices
   a file's header may declare. Result lines are printed as they are made
   (stdout is line-buffered). Progress lines go to stderr: a line at once
   (the file read or the graph generated), the library's first line at
   once, then its newest about once a second (the counting says where it is
   about once a second of processor time); none with --quiet.
   Numbers are parsed strictly: a value that is not a whole number (for
   --budget, a number) in its range is a usage error naming the option, and
   a name an option does not know is echoed with the names it takes.
   Exit status: 0 on success, 1 when the file or the library reports an
   error, 2 on a usage error. */
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
    "usage: kclique FILE|--rmat SCALE [--seed S] (-k K | --all) [options]\n"
    "  -k K              count the K-cliques (K >= 3)\n"
    "  --all             count every k from 3 to omega\n"
    "  --method M        auto|ordered|pivot|lftj|level-join|grouped|bitset (default auto;\n"
    "                    HOST counts lftj, level-join, grouped and bitset by ordered)\n"
    "  --orientation O   degree|degeneracy (default degeneracy)\n"
    "  --per-vertex FILE write \"ID COUNT\" per vertex (one k)\n"
    "  --list N          list up to N cliques (one k)\n"
    "  --budget MB       device memory budget of the CUDA backend (default 90% of the free memory)\n"
    "  --backend B       auto|cuda|host (default auto)\n"
    "  --format F        auto|snap|dimacs|mtx: FILE's format (default auto: by the content, else\n"
    "                    the name's extension)\n"
    "  --max-vertices N  the most vertices FILE's header may declare (default: by the file's size)\n"
    "  --seed S          R-MAT seed (default 1)\n"
    "  --json            one JSON object on stdout\n"
    "  --quiet           no progress lines on stderr\n"
    "  --help, -h\n"
    "exit status: 0 success, 1 file or library error, 2 usage error\n";

#define CLI_PROGRAM "kclique"
#include "cli_args.h"

/* Megabytes: a non-negative decimal number (fraction allowed). */
static int parse_mb(const char *option, const char *s, double *out) {
  char *end;
  double x;
  errno = 0;
  x = (s[0] >= '0' && s[0] <= '9') || s[0] == '.' ? strtod(s, &end) : -1.0;
  if (x < 0.0 || *end != '\0' || errno == ERANGE || !(x <= 1e12)) {
    fprintf(stderr, "kclique: %s: \"%s\" is not a number of megabytes (0..1e12)\n", option, s);
    return 0;
  }
  *out = x;
  return 1;
}

/* The names of the enums --method and --orientation take, by value. */
static const char *method_name(int i) { return gclq_kclique_method_name((gclq_kclique_method)i); }
static const char *orientation_name(int i) { return gclq_orient_by_name((gclq_orient_by)i); }

/* The value in [lo, hi] whose name_of is s, in *out; 0 when none is. */
static int parse_named(const char *s, int lo, int hi, const char *(*name_of)(int), int *out) {
  int i;
  for (i = lo; i <= hi; ++i)
    if (strcmp(s, name_of(i)) == 0) {
      *out = i;
      return 1;
    }
  return 0;
}

static void print_json(const char *name, const gclq_graph *g, const gclq_kclique_options *o,
                       const gclq_kclique_result *r) {
  const gclq_kclique_stats *s = &r->stats;
  unsigned long long c;
  uint32_t i, k = r->k_first;
  printf("{\"graph\": ");
  json_string(name);
  printf(", \"vertices\": %u, \"edges\": %llu, \"all\": %s, \"counts\": [", g->num_vertices,
         (unsigned long long)g->num_edges, o->all ? "true" : "false");
  for (i = 0; i < r->num_k; ++i) {
    printf("%s{\"k\": %u, ", i ? ", " : "", r->k_first + i);
    if (r->h_status[i] == GCLQ_SUCCESS) printf("\"count\": %llu, \"overflow\": false}", (unsigned long long)r->h_counts[i]);
    else printf("\"count\": null, \"overflow\": true}");
  }
  printf("], ");
  if (o->all) printf("\"omega\": %u, ", r->omega);
  else printf("\"omega\": null, ");
  printf("\"stored\": %llu, \"cliques\": [", (unsigned long long)r->stored);
  for (c = 0; c < r->stored; ++c) {
    printf("%s[", c ? ", " : "");
    for (i = 0; i < k; ++i) printf("%s%llu", i ? ", " : "", (unsigned long long)r->h_cliques[c * k + i]);
    printf("]");
  }
  printf("], \"stats\": {\"backend\": ");
  json_string(gclq_backend_name(s->backend));
  printf(", \"method\": ");
  json_string(gclq_kclique_method_name(s->method));
  printf(", \"method_asked\": ");
  json_string(gclq_kclique_method_name(o->method));
  printf(", \"orientation\": ");
  json_string(gclq_orient_by_name(s->orientation));
  printf(", \"total_ms\": %.3f, \"order_ms\": %.3f, \"count_ms\": %.3f, \"list_ms\": %.3f", s->total_ms, s->order_ms,
         s->count_ms, s->list_ms);
  printf(", \"max_core\": %u, \"max_out_degree\": %u, \"nodes\": %llu, \"peak_device_bytes\": %llu, \"notes\": ",
         s->max_core, s->max_out_degree, (unsigned long long)s->nodes, (unsigned long long)s->peak_device_bytes);
  json_string(s->notes);
  printf("}}\n");
}

static void print_text(const gclq_kclique_options *o, const gclq_kclique_result *r) {
  const gclq_kclique_stats *s = &r->stats;
  unsigned long long c;
  uint32_t i, k = r->k_first;
  for (i = 0; i < r->num_k; ++i) {
    if (r->h_status[i] == GCLQ_SUCCESS) printf("k %u: %llu\n", r->k_first + i, (unsigned long long)r->h_counts[i]);
    else printf("k %u: overflow\n", r->k_first + i);
  }
  if (o->all) printf("omega %u\n", r->omega);
  for (c = 0; c < r->stored; ++c) {
    printf("clique %llu:", c + 1);
    for (i = 0; i < k; ++i) printf(" %llu", (unsigned long long)r->h_cliques[c * k + i]);
    printf("\n");
  }
  printf("method %s", gclq_kclique_method_name(s->method));
  if (o->method != GCLQ_KCLIQUE_AUTO && o->method != s->method)
    printf(" (%s asked; %s counts it by %s)", gclq_kclique_method_name(o->method), gclq_backend_name(s->backend),
           gclq_kclique_method_name(s->method));
  printf(", orientation %s, backend %s; %.2f ms total: order %.2f, count %.2f, list %.2f\n",
         gclq_orient_by_name(s->orientation), gclq_backend_name(s->backend), s->total_ms, s->order_ms, s->count_ms,
         s->list_ms);
  printf("max core %u, max out-degree %u, %llu nodes, peak device memory %llu bytes\n", s->max_core,
         s->max_out_degree, (unsigned long long)s->nodes, (unsigned long long)s->peak_device_bytes);
  if (s->notes[0]) printf("note: %s\n", s->notes);
}

/* "ID COUNT" per vertex into path. Returns 0, or prints why not and returns 1. */
static int write_per_vertex(const char *path, const gclq_graph *g, const gclq_kclique_result *r) {
  FILE *f = fopen(path, "w");
  uint32_t v;
  int bad;
  if (f == NULL) {
    fprintf(stderr, "kclique: --per-vertex: cannot write %s: %s\n", path, strerror(errno));
    return 1;
  }
  for (v = 0; v < g->num_vertices; ++v) {
    unsigned long long id = g->h_original_ids ? (unsigned long long)g->h_original_ids[v] : v;
    if (r->h_per_vertex[v] == UINT64_MAX) fprintf(f, "%llu overflow\n", id);
    else fprintf(f, "%llu %llu\n", id, (unsigned long long)r->h_per_vertex[v]);
  }
  bad = ferror(f);
  if (fclose(f) != 0 || bad) {
    fprintf(stderr, "kclique: --per-vertex: cannot write %s\n", path);
    return 1;
  }
  return 0;
}

/* Why the CUDA backend could not count, on stderr: the implementation linked
   in has no CUDA backend (built by a C compiler), or it has one and the
   method has no CUDA path. */
static void print_unavailable(const gclq_kclique_options *o) {
  gclq_backend b;
  if (gclq_backend_resolve(GCLQ_BACKEND_CUDA, &b) == GCLQ_ERROR_BACKEND_UNAVAILABLE)
    fprintf(stderr, "kclique: this build is host only (its implementation was built by a C compiler): "
            "--backend cuda needs the nvcc build\n");
  else
    fprintf(stderr, "kclique: this build's CUDA backend cannot count by method %s (try --backend host, or another "
            "--method)\n", gclq_kclique_method_name(o->method));
}

typedef struct cli {
  gclq_kclique_options opt;
  gclq_load_options load;
  const char *path, *per_vertex_path;
  int json, quiet, have_k, rmat;
  unsigned long long seed, scale;
} cli;

/* Parse argv into c. Returns -1 to go on, or the exit status (0 for --help). */
static int parse_args(int argc, char **argv, cli *c) {
  static const char *const backends[] = {"auto", "cuda", "host"};
  static const char *const formats[] = {"auto", "snap", "dimacs", "mtx"};
  unsigned long long x;
  double mb;
  int i, v;
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    } else if (strcmp(a, "--all") == 0) {
      c->opt.all = 1;
      continue;
    } else if (strcmp(a, "--json") == 0) {
      c->json = 1;
      continue;
    } else if (strcmp(a, "--quiet") == 0) {
      c->quiet = 1;
      continue;
    } else if (a[0] != '-' || a[1] == '\0') {
      if (c->path || c->rmat) return usage("give one FILE or --rmat", a);
      c->path = a;
      continue;
    }
    if (i + 1 >= argc) return usage("missing its value (or an unknown option)", a);
    ++i;
    if (strcmp(a, "-k") == 0) {
      if (!parse_u64(a, argv[i], 3, 0xffffffffull, &x)) return 2;
      c->opt.k = (uint32_t)x;
      c->have_k = 1;
    } else if (strcmp(a, "--method") == 0) {
      if (!parse_named(argv[i], GCLQ_KCLIQUE_AUTO, GCLQ_KCLIQUE_BITSET, method_name, &v))
        return usage_unknown(a, argv[i], "auto, ordered, pivot, lftj, level-join, grouped or bitset");
      c->opt.method = (gclq_kclique_method)v;
    } else if (strcmp(a, "--orientation") == 0) {
      if (!parse_named(argv[i], GCLQ_ORIENT_BY_DEGREE, GCLQ_ORIENT_BY_DEGENERACY, orientation_name, &v))
        return usage_unknown(a, argv[i], "degree or degeneracy");
      c->opt.orientation = (gclq_orient_by)v;
    } else if (strcmp(a, "--backend") == 0) {
      if (!pick(argv[i], backends, 3, &v)) return usage_unknown(a, argv[i], "auto, cuda or host");
      c->opt.backend = (gclq_backend)v;
    } else if (strcmp(a, "--format") == 0) {
      if (!pick(argv[i], formats, 4, &v)) return usage_unknown(a, argv[i], "auto, snap, dimacs or mtx");
      c->load.format = (gclq_format)v;
    } else if (strcmp(a, "--max-vertices") == 0) {
      if (!parse_u64(a, argv[i], 1, 0xffffffffull, &x)) return 2;
      c->load.max_vertices = x;
    } else if (strcmp(a, "--per-vertex") == 0) {
      c->per_vertex_path = argv[i];
      c->opt.per_vertex = 1;
    } else if (strcmp(a, "--list") == 0) {
      if (!parse_u64(a, argv[i], 0, ~0ull, &x)) return 2;
      c->opt.max_stored = x;
    } else if (strcmp(a, "--budget") == 0) {
      if (!parse_mb(a, argv[i], &mb)) return 2;
      c->opt.device_budget_bytes = (size_t)(mb * 1048576.0);
    } else if (strcmp(a, "--seed") == 0) {
      if (!parse_u64(a, argv[i], 0, ~0ull, &c->seed)) return 2;
    } else if (strcmp(a, "--rmat") == 0) {
      if (c->path || c->rmat) return usage("give one FILE or --rmat", a);
      if (!parse_u64(a, argv[i], 1, 30, &c->scale)) return 2;
      c->rmat = 1;
    } else {
      return usage("unknown option", a);
    }
  }
  if (!c->path && !c->rmat) return usage("give one FILE or --rmat", NULL);
  if (c->have_k == c->opt.all) return usage("give one of -k K and --all", NULL);
  if (c->opt.all && c->per_vertex_path) return usage("needs one k (-k), not --all", "--per-vertex");
  if (c->opt.all && c->opt.max_stored) return usage("needs one k (-k), not --all", "--list");
  return -1;
}

int main(int argc, char **argv) {
  cli c;
  progress_state prog;
  gclq_kclique_result res;
  gclq_load_error err;
  gclq_graph g;
  gclq_status st;
  const char *name;
  int done, rc = 0;

  cli_line_buffered();
  memset(&c, 0, sizeof c);
  memset(&prog, 0, sizeof prog);
  gclq_kclique_options_defaults(&c.opt);
  c.seed = 1;
  done = parse_args(argc, argv, &c);
  if (done >= 0) return done;
  prog.quiet = c.quiet;
  if (!c.quiet) {
    c.opt.log = progress;
    c.opt.log_user = &prog;
  }

  if (c.rmat) {
    name = "R-MAT";
    progress_say(&prog, "generating", name);
    st = gclq_graph_rmat((int)c.scale, 16, c.seed, &g);
    if (st != GCLQ_SUCCESS) fprintf(stderr, "kclique: cannot build the graph: %s\n", gclq_status_string(st));
  } else {
    name = c.path;
    progress_say(&prog, "reading", c.path);
    st = gclq_graph_load_opts(c.path, &c.load, &g, &err);
    if (st != GCLQ_SUCCESS) print_file_error(c.path, (unsigned long long)err.line, err.message, st);
    /* the loader names its option where another format would explain the
       error: here that option is --format */
    if (st != GCLQ_SUCCESS && strstr(err.message, "gclq_load_options.format") != NULL)
      fprintf(stderr, "kclique: --format snap|dimacs|mtx reads %s as another format\n", c.path);
  }
  if (st != GCLQ_SUCCESS) return 1;
  if (!c.json) printf("%s: %u vertices, %llu edges\n", name, g.num_vertices, (unsigned long long)g.num_edges);
  st = gclq_kcliques(&g, &c.opt, &res);
  if (st != GCLQ_SUCCESS) {
    print_status(st);
    if (st == GCLQ_ERROR_BACKEND_UNAVAILABLE) print_unavailable(&c.opt);
    gclq_graph_free(&g);
    return 1;
  }
  if (c.json) print_json(name, &g, &c.opt, &res);
  else print_text(&c.opt, &res);
  if (c.per_vertex_path) rc = write_per_vertex(c.per_vertex_path, &g, &res);
  gclq_kclique_result_free(&res);
  gclq_graph_free(&g);
  return rc;
}
