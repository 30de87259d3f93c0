/* setops - intersections of sets: one pair, all pairs, the containment join.

     setops FILE [operation] [options]          a collection: FILE ending in .bin is the
                                                binary format, any other the text format
     setops --gen uniform|normal|zipf --k K --universe U --avg A [--seed S] [operation] [options]
     setops --help

   Operations (one; the default is all):
     pair I J                  |s_I & s_J|: prints "intersection C"; --out writes its elements
     all                       every pair i < j: the last line is "pairs P, intersections total T"
                               (P pairs computed, T the sum of their counts); --out writes
                               "i j count" for every pair with a non-zero count, i < j, sorted
     containment [--threshold T] [--split N|off|auto]
                               pairs i != j with |s_i & s_j| >= T |s_i| (T in (0, 1], default 1:
                               s_i a subset of s_j): prints "containments C"; --out writes "i j".
                               --split: MMJoin's light/heavy split, elements in fewer than N
                               sets counted on the host (beside the GPU on CUDA), the others by
                               the backend; off: none; auto (the default): the library's rule
   Options: --method auto|merge-path|binary-search|serial-merge|hash|bitmap|
                     bitmap-dynamic|ip-obs|ip-hash|inverted-index|bit-matrix
                     (the last two: all and containment only)   --budget MB
            --backend auto|cuda|host   --out FILE   --json (one JSON object on stdout)
            --quiet (no line of its own on stderr)
            --max-pairs N|none         all and containment: the most pairs the answer may
                                       hold (default 2^26, GCLQ_SETS_MAX_PAIRS); past it the
                                       run stops with an error naming the option

   Numbers are parsed strictly: a value that is not a whole number (or, for
   --budget and --threshold, a number) in its range is a usage error that
   names the option; so are a name an option does not know (echoed with the
   names it takes), a pair I J past the last set and a method of all pairs
   at once (inverted-index, bit-matrix) for one pair. A line goes to stderr
   at once (the file read or the sets generated; none with --quiet), and so
   does every line the library logs (a budget too small for a batch).
   Result lines are printed as they are made (stdout is line-buffered).
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

#include "../gpuclique.h" /* the implementation: impl.c, linked in */

static const char usage_text[] =
    "usage: setops FILE|--gen uniform|normal|zipf --k K --universe U --avg A [--seed S]\n"
    "              {pair I J|all|containment [--threshold T] [--split N|off|auto]} [options]\n"
    "  FILE:    one set per line (text), or the binary format when the name ends in .bin\n"
    "  options: --method auto|merge-path|binary-search|serial-merge|hash|bitmap|\n"
    "                    bitmap-dynamic|ip-obs|ip-hash|inverted-index|bit-matrix\n"
    "                    (the last two: all and containment only)   --budget MB\n"
    "           --backend auto|cuda|host   --out FILE   --json   --quiet   --help, -h\n"
    "           --max-pairs N|none (all, containment: the most pairs kept; default 2^26)\n"
    "exit status: 0 success, 1 file or library error, 2 usage error\n";

#define CLI_PROGRAM "setops"
#include "cli_args.h"

static void log_line(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "  %s\n", line);
}

/* ---- the command line ---- */

enum { OP_ALL, OP_PAIR, OP_CONTAIN };

typedef struct cli {
  gclq_intersect_options opt;
  gclq_sets_gen gen;
  const char *path, *out;
  int generated, op, json, quiet, have_k, have_universe, have_avg, have_threshold, have_split, have_max_pairs;
  unsigned long long i, j;
} cli;

/* The operation words: pair I J, all, containment. Returns 1 when argv[*i]
   was one (consumed), 0 when not, 2 on a usage error (printed). */
static int parse_operation(int argc, char **argv, int *i, cli *c, int *seen) {
  const char *a = argv[*i];
  int op = -1;
  if (strcmp(a, "pair") == 0) op = OP_PAIR;
  if (strcmp(a, "all") == 0) op = OP_ALL;
  if (strcmp(a, "containment") == 0) op = OP_CONTAIN;
  if (op < 0) return 0;
  if (*seen) return usage("give one operation: pair I J, all or containment", a);
  *seen = 1;
  c->op = op;
  if (op != OP_PAIR) return 1;
  if (*i + 2 >= argc) return usage("takes I J", a);
  if (!parse_u64(a, argv[++*i], 0, 0xffffffffull, &c->i) || !parse_u64(a, argv[++*i], 0, 0xffffffffull, &c->j)) return 2;
  return 1;
}

/* An option with a value (argv[i] its name, v the value). Returns -1 to go on, or 2. */
static int parse_valued(const char *a, const char *v, cli *c) {
  static const char *const dists[] = {"uniform", "normal", "zipf"};
  static const char *const methods[] = {"auto",           "merge-path", "binary-search", "serial-merge",
                                        "hash",           "bitmap",     "bitmap-dynamic", "ip-obs",
                                        "ip-hash",        "inverted-index", "bit-matrix"}; /* enum order */
  static const char *const backends[] = {"auto", "cuda", "host"};
  unsigned long long x;
  double d;
  int w;
  if (strcmp(a, "--gen") == 0) {
    if (!pick(v, dists, 3, &w)) return usage_unknown(a, v, "uniform, normal or zipf");
    c->generated = 1;
    c->gen.dist = (gclq_sets_dist)w;
  } else if (strcmp(a, "--k") == 0) {
    if (!parse_u64(a, v, 0, 0xffffffffull, &x)) return 2;
    c->gen.num_sets = (uint32_t)x;
    c->have_k = 1;
  } else if (strcmp(a, "--universe") == 0) {
    if (!parse_u64(a, v, 1, 0x100000000ull, &x)) return 2;
    c->gen.universe = x;
    c->have_universe = 1;
  } else if (strcmp(a, "--avg") == 0) {
    if (!parse_u64(a, v, 0, 0x100000000ull, &x)) return 2;
    c->gen.avg_size = x;
    c->have_avg = 1;
  } else if (strcmp(a, "--seed") == 0) {
    if (!parse_u64(a, v, 0, ~0ull, &x)) return 2;
    c->gen.seed = x;
  } else if (strcmp(a, "--threshold") == 0) {
    if (!parse_double(a, v, 0.0, 1.0, &d)) return 2;
    if (d <= 0.0) return usage("must be above 0", a);
    c->opt.min_containment = d;
    c->have_threshold = 1;
  } else if (strcmp(a, "--split") == 0) {
    if (strcmp(v, "off") == 0) c->opt.split_below = GCLQ_SPLIT_OFF;
    else if (strcmp(v, "auto") == 0) c->opt.split_below = 0;
    else if (!parse_u64(a, v, 1, ~0ull - 1, &x)) return 2;
    else c->opt.split_below = x;
    c->have_split = 1;
  } else if (strcmp(a, "--max-pairs") == 0) {
    if (strcmp(v, "none") == 0) c->opt.max_pairs = GCLQ_NO_MAX_PAIRS;
    else if (!parse_u64(a, v, 1, ~0ull - 1, &x)) return 2;
    else c->opt.max_pairs = x;
    c->have_max_pairs = 1;
  } else if (strcmp(a, "--method") == 0) {
    if (!pick(v, methods, (int)(sizeof methods / sizeof methods[0]), &w))
      return usage_unknown(a, v,
                           "auto, merge-path, binary-search, serial-merge, hash, bitmap, bitmap-dynamic, ip-obs, "
                           "ip-hash, inverted-index or bit-matrix");
    c->opt.method = (gclq_intersect_method)w;
  } else if (strcmp(a, "--backend") == 0) {
    if (!pick(v, backends, 3, &w)) return usage_unknown(a, v, "auto, cuda or host");
    c->opt.backend = (gclq_backend)w;
  } else if (strcmp(a, "--budget") == 0) {
    if (!parse_double(a, v, 0.0, (double)((size_t)-1 >> 21), &d)) return 2;
    c->opt.device_budget_bytes = (size_t)(d * 1048576.0);
  } else if (strcmp(a, "--out") == 0) {
    c->out = v;
  } else {
    return usage("unknown option", a);
  }
  return -1;
}

/* Parse argv into c. Returns -1 to go on, or the exit status (0 for --help). */
static int parse_args(int argc, char **argv, cli *c) {
  int i, seen_op = 0, r;
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (strcmp(a, "--json") == 0) {
      c->json = 1;
      continue;
    }
    if (strcmp(a, "--quiet") == 0) {
      c->quiet = 1;
      continue;
    }
    r = parse_operation(argc, argv, &i, c, &seen_op);
    if (r == 2) return 2;
    if (r == 1) continue;
    if (a[0] != '-' || a[1] == '\0') {
      if (c->path != NULL) return usage("give one FILE", a);
      c->path = a;
      continue;
    }
    if (i + 1 >= argc) return usage("missing its value (or an unknown option)", a);
    r = parse_valued(a, argv[++i], c);
    if (r >= 0) return r;
  }
  if ((c->path != NULL) == (c->generated != 0)) return usage("give one FILE or --gen", NULL);
  if (c->generated && !(c->have_k && c->have_universe && c->have_avg))
    return usage("--gen needs --k, --universe and --avg", "--gen");
  if (c->generated && c->gen.avg_size > c->gen.universe) return usage("--avg is above --universe", "--avg");
  if (!c->generated && (c->have_k || c->have_universe || c->have_avg))
    return usage("--k, --universe and --avg go with --gen", NULL);
  if (c->have_threshold && c->op != OP_CONTAIN) return usage("goes with containment", "--threshold");
  if (c->have_split && c->op != OP_CONTAIN) return usage("goes with containment", "--split");
  if (c->have_max_pairs && c->op == OP_PAIR) return usage("goes with all or containment", "--max-pairs");
  if (c->op == OP_PAIR &&
      (c->opt.method == GCLQ_INTERSECT_INVERTED_INDEX || c->opt.method == GCLQ_INTERSECT_BIT_MATRIX))
    return usage("counts all pairs at once: all or containment, not pair I J", "--method");
  return -1;
}

/* The collection the command line names (a line on stderr at once, unless
   --quiet). Returns 0, or prints why not and returns 1. */
static int build_sets(const cli *c, gclq_sets *s) {
  gclq_sets_error err;
  gclq_status st;
  size_t n;
  if (!c->quiet) fprintf(stderr, "setops: %s %s\n", c->generated ? "generating" : "reading",
                         c->generated ? "the sets" : c->path);
  if (c->generated) {
    st = gclq_sets_generate(&c->gen, s);
    if (st != GCLQ_SUCCESS) fprintf(stderr, "setops: cannot generate the sets: %s\n", gclq_status_string(st));
    return st != GCLQ_SUCCESS;
  }
  n = strlen(c->path);
  if (n >= 4 && strcmp(c->path + n - 4, ".bin") == 0) {
    st = gclq_sets_load_binary(c->path, s, &err);
    if (st == GCLQ_ERROR_PARSE || st == GCLQ_ERROR_UNSORTED_SET)
      fprintf(stderr, "setops: %s: byte %llu: %s\n", c->path, (unsigned long long)err.byte_offset, err.message);
  } else {
    st = gclq_sets_load_text(c->path, s, &err);
    if (st == GCLQ_ERROR_PARSE || st == GCLQ_ERROR_UNSORTED_SET)
      fprintf(stderr, "setops: %s: line %llu: %s\n", c->path, (unsigned long long)err.line, err.message);
  }
  if (st != GCLQ_SUCCESS && st != GCLQ_ERROR_PARSE && st != GCLQ_ERROR_UNSORTED_SET)
    print_file_error(c->path, 0, err.message, st); /* cannot open or read it, too large, out of memory */
  return st != GCLQ_SUCCESS;
}

/* --out: the pair's elements, or one line per listed pair. */
static int write_out(const cli *c, const gclq_intersect_result *r) {
  FILE *f = fopen(c->out, "w");
  uint64_t p;
  int ok;
  if (f == NULL) {
    fprintf(stderr, "setops: --out %s: cannot open for writing: %s\n", c->out, strerror(errno));
    return 1;
  }
  if (c->op == OP_PAIR) {
    for (p = 0; p < r->total; ++p) fprintf(f, "%u\n", r->h_elements[p]);
  } else {
    for (p = 0; p < r->num_pairs; ++p) {
      if (c->op == OP_ALL) fprintf(f, "%u %u %u\n", r->h_pairs[2 * p], r->h_pairs[2 * p + 1], r->h_counts[p]);
      else fprintf(f, "%u %u\n", r->h_pairs[2 * p], r->h_pairs[2 * p + 1]);
    }
  }
  ok = !ferror(f);
  if (fclose(f) != 0) ok = 0;
  if (!ok) fprintf(stderr, "setops: --out %s: cannot write\n", c->out);
  return !ok;
}

static void print_json(const cli *c, const gclq_sets *s, const gclq_intersect_result *r, unsigned long long pairs) {
  static const char *const ops[] = {"all", "pair", "containment"};
  const gclq_intersect_stats *t = &r->stats;
  printf("{\"sets\": %u, \"elements\": %llu, \"universe\": %llu, \"operation\": \"%s\"", s->num_sets,
         (unsigned long long)s->total, (unsigned long long)s->universe, ops[c->op]);
  if (c->op == OP_PAIR) printf(", \"i\": %llu, \"j\": %llu, \"intersection\": %u", c->i, c->j, r->h_counts[0]);
  if (c->op == OP_ALL) printf(", \"pairs\": %llu, \"intersections_total\": %llu", pairs, (unsigned long long)r->total);
  if (c->op == OP_CONTAIN)
    printf(", \"threshold\": %g, \"containments\": %llu", c->opt.min_containment,
           (unsigned long long)r->num_pairs);
  printf(", \"stats\": {\"backend\": \"%s\", \"fell_back\": %d, \"auto_small\": %d, \"method\": \"%s\", "
         "\"warp_pairs\": %llu, "
         "\"block_pairs\": %llu, \"binary_search_pairs\": %llu, \"batches\": %u, \"one_pass_batches\": %u, "
         "\"total_ms\": %.3f, "
         "\"upload_ms\": %.3f, \"kernel_ms\": %.3f, \"peak_device_bytes\": %llu, \"budget_bytes\": %llu",
         gclq_backend_name(t->backend), t->fell_back, t->auto_small, gclq_intersect_method_name(t->method),
         (unsigned long long)t->warp_pairs, (unsigned long long)t->block_pairs,
         (unsigned long long)t->binary_search_pairs, t->batches, t->one_pass_batches, t->total_ms, t->upload_ms,
         t->kernel_ms,
         (unsigned long long)t->peak_device_bytes, (unsigned long long)t->budget_bytes);
  if (c->op == OP_CONTAIN)
    printf(", \"split\": {\"below\": %llu, \"light_values\": %llu, \"heavy_values\": %llu, "
           "\"light_increments\": %llu, \"light_pairs\": %llu, \"index_ms\": %.3f, \"host_ms\": %.3f, "
           "\"device_ms\": %.3f, \"overlap_ms\": %.3f, \"wait_ms\": %.3f}",
           (unsigned long long)t->split.below, (unsigned long long)t->split.light_values,
           (unsigned long long)t->split.heavy_values, (unsigned long long)t->split.light_increments,
           (unsigned long long)t->split.light_pairs, t->split.index_ms, t->split.host_ms, t->split.device_ms,
           t->split.overlap_ms, t->split.wait_ms);
  printf("}}\n");
}

static void print_text(const cli *c, const gclq_intersect_result *r, unsigned long long pairs) {
  const gclq_intersect_stats *t = &r->stats;
  printf("backend %s%s, method %s; %.2f ms total", gclq_backend_name(t->backend), t->fell_back ? " (fell back)" : "",
         gclq_intersect_method_name(t->method), t->total_ms);
  if (t->backend == GCLQ_BACKEND_CUDA)
    printf(" (upload %.2f, device %.2f; %llu warp pairs, %llu block pairs, %u batches)", t->upload_ms, t->kernel_ms,
           (unsigned long long)t->warp_pairs, (unsigned long long)t->block_pairs, t->batches);
  printf("\n");
  if (t->notes[0]) printf("note: %s\n", t->notes);
  if (t->split.below != 0)
    printf("split: light below %llu sets: %llu light values on the host (%llu increments, %.2f ms), %llu heavy "
           "(%.2f ms), overlap %.2f ms, waited %.2f ms; index %.2f ms\n",
           (unsigned long long)t->split.below, (unsigned long long)t->split.light_values,
           (unsigned long long)t->split.light_increments, t->split.host_ms,
           (unsigned long long)t->split.heavy_values, t->split.device_ms, t->split.overlap_ms, t->split.wait_ms,
           t->split.index_ms);
  if (c->op == OP_PAIR) printf("intersection %u\n", r->h_counts[0]);
  if (c->op == OP_ALL) printf("pairs %llu, intersections total %llu\n", pairs, (unsigned long long)r->total);
  if (c->op == OP_CONTAIN) printf("containments %llu\n", (unsigned long long)r->num_pairs);
}

/* pair I J against the collection: 2 after a usage error naming the set
   past the last one, else -1. */
static int check_pair(const cli *c, const gclq_sets *s) {
  char why[160];
  const unsigned long long k = s->num_sets, bad = c->i >= k ? c->i : c->j;
  if (c->op != OP_PAIR || (c->i < k && c->j < k)) return -1;
  if (k == 0) snprintf(why, sizeof why, "set %llu: the collection has no sets", bad);
  else snprintf(why, sizeof why, "set %llu is out of range 0..%llu (%llu sets)", bad, k - 1, k);
  return usage(why, "pair");
}

/* The operation on s into r; *pairs gets the pairs computed. */
static gclq_status run(cli *c, const gclq_sets *s, gclq_intersect_result *r, unsigned long long *pairs) {
  uint64_t k = s->num_sets;
  *pairs = k * (k - (k > 0)) / 2;
  if (c->op == OP_PAIR) {
    *pairs = 1;
    c->opt.materialise = c->out != NULL;
    return gclq_intersect_pair(s, (uint32_t)c->i, (uint32_t)c->j, &c->opt, r);
  }
  if (c->op == OP_CONTAIN) return gclq_containment_join(s, &c->opt, r);
  c->opt.sparse = 1; /* the pairs with a count (memory for them only); the total is the same */
  c->opt.min_count = 1;
  return gclq_intersect_all(s, &c->opt, r);
}

int main(int argc, char **argv) {
  cli c;
  gclq_sets s;
  gclq_intersect_result r;
  gclq_status st;
  unsigned long long pairs = 0;
  int done, fail = 0;

  cli_line_buffered();
  memset(&c, 0, sizeof c);
  gclq_intersect_options_defaults(&c.opt);
  c.opt.log = log_line;
  c.gen.seed = 1;
  done = parse_args(argc, argv, &c);
  if (done >= 0) return done;
  if (build_sets(&c, &s) != 0) return 1;
  done = check_pair(&c, &s);
  if (done >= 0) {
    gclq_sets_free(&s);
    return done;
  }
  if (!c.json)
    printf("%u sets, %llu elements, universe %llu\n", s.num_sets, (unsigned long long)s.total,
           (unsigned long long)s.universe);
  st = run(&c, &s, &r, &pairs);
  if (st == GCLQ_ERROR_TOO_LARGE) {
    fprintf(stderr, CLI_PROGRAM ": the answer holds more than %llu pairs: raise --max-pairs (or none)\n",
            (unsigned long long)c.opt.max_pairs);
    gclq_sets_free(&s);
    return 1;
  } else if (st != GCLQ_SUCCESS) {
    print_status(st);
    gclq_sets_free(&s);
    return 1;
  }
  if (c.out != NULL) fail = write_out(&c, &r);
  if (c.json) print_json(&c, &s, &r, pairs);
  else print_text(&c, &r, pairs);
  gclq_intersect_result_free(&r);
  gclq_sets_free(&s);
  return fail;
}
