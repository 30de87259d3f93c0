/* qf_demo - quotient filters on generated keys: build, query, delete, insert,
   merge, save and load, with throughput and the false-positive rate.

     qf_demo [--keys N] [--q Q] [--r R] [--kind rsqf|sqf|both] [--backend auto|cuda|host]
             [--seed S] [--file PATH] [--json] [--help]

   Defaults: 10 million keys, both kinds (RSQF r = 8, SQF r = 13), q the
   smallest with keys / 2^q <= 0.75 (24 for 10 million), backend auto (CUDA
   when a GPU is present), the file qf_demo.qf in the current directory
   (removed at the end). --r applies to every kind run. For each kind it
     1. builds a filter from N keys (even numbers: present),
     2. looks up the N present keys (all must be found: no false negatives),
     3. looks up N absent keys (odd numbers) and prints the measured
        false-positive rate beside the theory, 1 - (1 - 2^-(q+r))^N, about
        N / 2^(q+r),
     4. deletes N/10 of the keys, then inserts N/10 new ones,
     5. builds a second filter from N/10 more keys and merges it in,
     6. saves the filter to a file, loads it back and compares the bytes,
   and prints M keys/s for each step (wall time of the host-array calls, so
   on CUDA it includes the copies between host and device).
   --json prints one JSON object on stdout instead of the table: every
   step's name, keys, seconds, M keys/s and backend, and whether every check
   held. Before each step of a JSON run, and before each step of 2^22 keys
   or more, a progress line goes to stderr; the table's lines are printed
   as they are made (stdout is line-buffered).
   Exit status: 0 when every check held, 1 when the library reported an
   error or a check failed, 2 on a usage error (a message names the option
   and, for a number out of range, the range; a name it does not know is
   echoed with the names it takes). A file that cannot be saved or loaded
   is named with --file.

   Plain C, built as a user builds: this file includes the header alone and
   links the one implementation file, examples/impl.c. Linked with impl.c
   compiled by a C compiler it has the host backend; with impl.cu (the same
   file through nvcc) it has CUDA too. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../gpuamq.h" /* the implementation: impl.c, linked in */

/* ---- wall clock, and the keys (splitmix64 of a counter: no data files) ---- */
static double now_s(void) {
#if defined(CLOCK_MONOTONIC)
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#else
  return (double)clock() / CLOCKS_PER_SEC;
#endif
}
static uint64_t mix64(uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* keys[i] for i in [from, from + n) of stream `stream`: even (present) or odd (absent) */
static void make_keys(uint64_t *keys, size_t n, uint64_t seed, uint64_t stream, uint64_t from, int odd) {
  size_t i;
  for (i = 0; i < n; ++i) {
    uint64_t k = mix64(seed ^ mix64(stream) ^ (from + i));
    keys[i] = odd ? k | 1 : k & ~(uint64_t)1;
  }
}

/* ---- the command line ---- */
#define QF_DEMO_MIN_KEYS 10u
#define QF_DEMO_MAX_KEYS ((uint64_t)GAMQ_QF_MAX_BATCH / 2) /* the merge holds 1.1 N */
static const char qf_demo_usage[] =
    "usage: qf_demo [--keys N] [--q Q] [--r R] [--kind rsqf|sqf|both] [--backend auto|cuda|host]\n"
    "               [--seed S] [--file PATH] [--json] [--help]\n"
    "  --keys N      keys to build from, 10 to 1073741823 (default 10000000)\n"
    "  --q Q         quotient bits, 1 to 32 (default: the smallest with keys / 2^q <= 0.75)\n"
    "  --r R         remainder bits: RSQF 1 to 32 (default 8), SQF 5, 13, 21 or 29 (default 13)\n"
    "  --kind K      rsqf, sqf or both (default both)\n"
    "  --backend B   auto, cuda or host (default auto: CUDA when a GPU is present)\n"
    "  --seed S      the keys' seed, 0 to 2^64 - 1, decimal or 0x hex (default 42)\n"
    "  --file PATH   where save / load write and read (default qf_demo.qf, removed at the end)\n"
    "  --json        one JSON object on stdout instead of the table; progress on stderr\n"
    "  --help, -h    this text\n"
    "exit status: 0 every check held, 1 a library error or a failed check, 2 a usage error\n";

/* A usage error: the message, then the usage, on stderr; returns 2. */
static int usage_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "qf_demo: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%s", qf_demo_usage);
  return 2;
}

/* The value of option opt as a whole number in [lo, hi] (base 10, or 0 for
   decimal or 0x hex): digits only, nothing after them. 0 and *out set, or 2
   after a message that names the option (and the range). */
static int parse_number(const char *opt, const char *v, uint64_t lo, uint64_t hi, int base, uint64_t *out) {
  char *end = NULL;
  unsigned long long x;
  if (v[0] < '0' || v[0] > '9') return usage_error("%s: '%s' is not a whole number", opt, v);
  errno = 0;
  x = strtoull(v, &end, base);
  if (end == v || *end != '\0') return usage_error("%s: '%s' is not a whole number", opt, v);
  if (errno == ERANGE || x < lo || x > hi)
    return usage_error("%s: %s is out of range (%llu to %llu)", opt, v, (unsigned long long)lo, (unsigned long long)hi);
  *out = (uint64_t)x;
  return 0;
}

/* ---- what the run reports: the table, or one JSON object at the end ---- */
#define QF_DEMO_MAX_STEPS 32
typedef struct qf_step {
  const char *kind, *name, *backend;
  size_t keys;
  double seconds;
} qf_step;
static struct {
  int json;
  int nsteps;
  qf_step steps[QF_DEMO_MAX_STEPS];
} out;

/* Before a step: a progress line on stderr for JSON runs and long steps. */
static void progress(const char *kind, const char *what, size_t n) {
  if (out.json || n >= ((size_t)1 << 22)) {
    fprintf(stderr, "qf_demo: %s: %s, %lu keys\n", kind, what, (unsigned long)n);
    fflush(stderr);
  }
}
/* After a step: its table line, or its place in the JSON. */
static void report(const char *kind, const char *backend, const char *what, size_t n, double seconds) {
  if (out.nsteps < QF_DEMO_MAX_STEPS) {
    qf_step *s = &out.steps[out.nsteps++];
    s->kind = kind, s->name = what, s->backend = backend, s->keys = n, s->seconds = seconds;
  }
  if (!out.json) {
    printf("  %-34s %10lu keys %9.3f ms %9.1f M keys/s\n", what, (unsigned long)n, 1e3 * seconds,
           seconds > 0 ? (double)n / seconds / 1e6 : 0.0);
    fflush(stdout);
  }
}
static void print_json(const char *backend, size_t n, uint64_t seed, int held) {
  int i;
  printf("{\"program\": \"qf_demo\", \"version\": \"%s\", \"backend\": \"%s\", \"keys\": %lu, \"seed\": %llu,\n",
         GAMQ_VERSION_STRING, backend, (unsigned long)n, (unsigned long long)seed);
  printf(" \"steps\": [");
  for (i = 0; i < out.nsteps; ++i) {
    const qf_step *s = &out.steps[i];
    printf("%s\n  {\"kind\": \"%s\", \"name\": \"%s\", \"keys\": %lu, \"seconds\": %.6f, \"mkeys_per_s\": %.3f, "
           "\"backend\": \"%s\"}",
           i ? "," : "", s->kind, s->name, (unsigned long)s->keys, s->seconds,
           s->seconds > 0 ? (double)s->keys / s->seconds / 1e6 : 0.0, s->backend);
  }
  printf("],\n \"every_check_held\": %s}\n", held ? "true" : "false");
}
/* An informative line of the table (nothing in JSON runs). */
static void say(const char *fmt, ...) {
  va_list ap;
  if (out.json) return;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
}

#define TRY(call)                                                                     \
  do {                                                                                \
    gamq_status s_ = (call);                                                          \
    if (s_ != GAMQ_SUCCESS) {                                                         \
      fprintf(stderr, "qf_demo: %s: %s\n", #call, gamq_status_string(s_));            \
      goto fail;                                                                      \
    }                                                                                 \
  } while (0)
/* TRY for the calls on --file's path: the message names the option and the path. */
#define TRY_FILE(call)                                                                \
  do {                                                                                \
    gamq_status s_ = (call);                                                          \
    if (s_ != GAMQ_SUCCESS) {                                                         \
      fprintf(stderr, "qf_demo: --file %s: %s\n", path, gamq_status_string(s_));      \
      goto fail;                                                                      \
    }                                                                                 \
  } while (0)
#define EXPECT(cond, ...)                                                             \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "qf_demo: check failed: " __VA_ARGS__);                         \
      fprintf(stderr, "\n");                                                          \
      goto fail;                                                                      \
    }                                                                                 \
  } while (0)

static size_t count_found(const uint8_t *found, size_t n) {
  size_t i, c = 0;
  for (i = 0; i < n; ++i) c += found[i];
  return c;
}

/* One kind, the whole tour. 0: every check held; 1: an error or a failed check. */
static int run(gamq_qf_kind kind, int q, int r, size_t n, gamq_backend backend, uint64_t seed, const char *path) {
  const size_t tenth = n / 10;
  const char *kname = kind == GAMQ_QF_SQF ? "sqf" : "rsqf", *bname = gamq_backend_name(backend);
  gamq_qf_desc desc;
  gamq_qf *f = NULL, *g = NULL, *loaded = NULL;
  gamq_qf_info info;
  uint64_t *keys = NULL, *probe = NULL, count = 0, deleted = 0;
  uint8_t *found = NULL, *b1 = NULL, *b2 = NULL;
  size_t hits, n1 = 0, n2 = 0;
  double t, fp_rate, theory;
  int ok = 0;

  memset(&desc, 0, sizeof desc);
  desc.backend = backend, desc.seed = seed;
  TRY(gamq_qf_create(&desc, kind, q, r, &f));
  TRY(gamq_qf_get_info(f, &info));
  say("%s q=%d r=%d on %s: %llu slots, %.1f MiB, %.2f bits per home slot\n", kind == GAMQ_QF_SQF ? "SQF" : "RSQF", q,
      r, gamq_backend_name(info.backend), (unsigned long long)info.nslots, (double)info.bytes / 1048576.0,
      8.0 * (double)info.bytes / (double)((uint64_t)1 << q));
  keys = (uint64_t *)malloc((n + 1) * sizeof *keys);
  probe = (uint64_t *)malloc((n + 1) * sizeof *probe);
  found = (uint8_t *)malloc(n + 1);
  EXPECT(keys && probe && found, "out of host memory for %lu keys", (unsigned long)n);
  make_keys(keys, n, seed, 1, 0, 0);
  make_keys(probe, n, seed, 2, 0, 1);

  /* 1-3: build, present keys, absent keys */
  progress(kname, "build", n);
  t = now_s();
  TRY(gamq_qf_build_u64(f, keys, n));
  report(kname, bname, "build", n, now_s() - t);
  TRY(gamq_qf_count(f, &count));
  progress(kname, "lookup, present keys", n);
  t = now_s();
  TRY(gamq_qf_lookup_u64(f, keys, n, found));
  report(kname, bname, "lookup, present keys", n, now_s() - t);
  hits = count_found(found, n);
  say("    found %lu of %lu present keys%s\n", (unsigned long)hits, (unsigned long)n,
      hits == n ? " (all: no false negatives)" : "");
  EXPECT(hits == n, "a present key was not found");
  progress(kname, "lookup, absent keys", n);
  t = now_s();
  TRY(gamq_qf_lookup_u64(f, probe, n, found));
  report(kname, bname, "lookup, absent keys", n, now_s() - t);
  hits = count_found(found, n);
  fp_rate = n ? (double)hits / (double)n : 0.0;
  theory = -expm1((double)count * log1p(-ldexp(1.0, -(q + r)))); /* 1 - (1 - 2^-p)^count */
  say("    false positives %lu of %lu: rate %.3e, theory %.3e (count / 2^(q+r) = %.3e), ratio %.3f\n",
      (unsigned long)hits, (unsigned long)n, fp_rate, theory, (double)count / ldexp(1.0, q + r),
      theory > 0 ? fp_rate / theory : 0.0);

  /* 4: delete a tenth, insert a tenth of new keys */
  progress(kname, "delete", tenth);
  t = now_s();
  TRY(gamq_qf_delete_u64(f, keys, tenth, &deleted));
  report(kname, bname, "delete", tenth, now_s() - t);
  EXPECT(deleted == tenth, "deleted %llu of %lu stored keys", (unsigned long long)deleted, (unsigned long)tenth);
  make_keys(probe, tenth, seed, 3, 0, 0);
  progress(kname, "insert", tenth);
  t = now_s();
  TRY(gamq_qf_insert_u64(f, probe, tenth));
  report(kname, bname, "insert", tenth, now_s() - t);

  /* 5: merge with a second filter of a tenth more keys */
  make_keys(probe + tenth, tenth, seed, 4, 0, 0);
  TRY(gamq_qf_create(&desc, kind, q, r, &g));
  TRY(gamq_qf_build_u64(g, probe + tenth, tenth));
  progress(kname, "merge (items in the result)", n + tenth);
  t = now_s();
  TRY(gamq_qf_merge_sync(f, f, g, NULL));
  report(kname, bname, "merge (items in the result)", n + tenth, now_s() - t);
  TRY(gamq_qf_count(f, &count));
  /* everything that should be there is: keys[tenth..n), both new tenths */
  TRY(gamq_qf_lookup_u64(f, keys + tenth, n - tenth, found));
  hits = count_found(found, n - tenth);
  TRY(gamq_qf_lookup_u64(f, probe, 2 * tenth, found));
  hits += count_found(found, 2 * tenth);
  say("    count %llu, load factor %.3f; found %lu of %lu stored keys\n", (unsigned long long)count,
      (double)count / ldexp(1.0, q), (unsigned long)hits, (unsigned long)(n + tenth));
  EXPECT(hits == n + tenth, "a stored key was not found after delete / insert / merge");

  /* 6: save, load, same bytes */
  progress(kname, "save (items)", (size_t)count);
  t = now_s();
  TRY_FILE(gamq_qf_save(f, path));
  report(kname, bname, "save (items)", (size_t)count, now_s() - t);
  progress(kname, "load (validated on the host)", (size_t)count);
  t = now_s();
  TRY_FILE(gamq_qf_load(&desc, path, &loaded));
  report(kname, bname, "load (validated on the host)", (size_t)count, now_s() - t);
  remove(path);
  TRY(gamq_qf_copy_bytes(f, NULL, &n1));
  TRY(gamq_qf_copy_bytes(loaded, NULL, &n2));
  b1 = (uint8_t *)malloc(n1);
  b2 = (uint8_t *)malloc(n2);
  EXPECT(b1 && b2, "out of host memory");
  TRY(gamq_qf_copy_bytes(f, b1, &n1));
  TRY(gamq_qf_copy_bytes(loaded, b2, &n2));
  EXPECT(n1 == n2 && memcmp(b1, b2, n1) == 0, "the loaded filter differs from the saved one");
  say("    %s: %lu + 72 bytes, loaded back byte for byte\n", path, (unsigned long)n1);
  ok = 1;
fail:
  free(keys);
  free(probe);
  free(found);
  free(b1);
  free(b2);
  gamq_qf_destroy(f);
  gamq_qf_destroy(g);
  gamq_qf_destroy(loaded);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  static const char *const backends[] = {"auto", "cuda", "host"};
  uint64_t n = 10000000, q = 0, r = 0, seed = 42;
  int kinds = 3, i, b, rc = 0;
  gamq_backend backend = GAMQ_BACKEND_AUTO, resolved;
  const char *path = "qf_demo.qf";
  gamq_status s;
  setvbuf(stdout, NULL, _IOLBF, BUFSIZ); /* each line as it is printed */
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i], *v;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      fputs(qf_demo_usage, stdout);
      return 0;
    }
    if (strcmp(a, "--json") == 0) {
      out.json = 1;
      continue;
    }
    if (strcmp(a, "--keys") && strcmp(a, "--q") && strcmp(a, "--r") && strcmp(a, "--seed") && strcmp(a, "--file") &&
        strcmp(a, "--kind") && strcmp(a, "--backend"))
      return usage_error("%s: unknown option", a);
    if (i + 1 >= argc) return usage_error("%s needs a value", a);
    v = argv[++i];
    if (strcmp(a, "--keys") == 0) {
      if (parse_number(a, v, QF_DEMO_MIN_KEYS, QF_DEMO_MAX_KEYS, 10, &n)) return 2;
    } else if (strcmp(a, "--q") == 0) {
      if (parse_number(a, v, 1, 32, 10, &q)) return 2;
    } else if (strcmp(a, "--r") == 0) {
      if (parse_number(a, v, 1, 32, 10, &r)) return 2;
    } else if (strcmp(a, "--seed") == 0) {
      if (parse_number(a, v, 0, UINT64_MAX, 0, &seed)) return 2;
    } else if (strcmp(a, "--file") == 0) {
      path = v;
    } else if (strcmp(a, "--kind") == 0) {
      if (strcmp(v, "rsqf") == 0) kinds = 2;
      else if (strcmp(v, "sqf") == 0) kinds = 1;
      else if (strcmp(v, "both") == 0) kinds = 3;
      else return usage_error("unknown %s '%s': use rsqf, sqf or both", a, v);
    } else {
      for (b = 0; b < 3 && strcmp(v, backends[b]) != 0; ++b) {
      }
      if (b == 3) return usage_error("unknown %s '%s': use auto, cuda or host", a, v);
      backend = b == 0 ? GAMQ_BACKEND_AUTO : b == 1 ? GAMQ_BACKEND_CUDA : GAMQ_BACKEND_HOST;
    }
  }
  if (r != 0 && (kinds & 1) && r != 5 && r != 13 && r != 21 && r != 29)
    return usage_error("--r: an SQF takes 5, 13, 21 or 29, not %llu (--kind rsqf takes 1 to 32)", (unsigned long long)r);
  if (q == 0) /* the smallest q with n / 2^q <= 0.75 */
    for (q = 1; q < 32 && (double)n > 0.75 * ldexp(1.0, (int)q); ++q) {
    }
  s = gamq_backend_resolve(backend, &resolved);
  if (s != GAMQ_SUCCESS) {
    fprintf(stderr, "qf_demo: --backend %s: %s\n", backends[backend], gamq_status_string(s));
    return 1;
  }
  if (!out.json)
    printf("gpuamq %s quotient filters: %lu keys, backend %s\n", GAMQ_VERSION_STRING, (unsigned long)n,
           gamq_backend_name(resolved));
  if (kinds & 2) rc |= run(GAMQ_QF_RSQF, (int)q, r ? (int)r : 8, (size_t)n, resolved, seed, path);
  if (kinds & 1) rc |= run(GAMQ_QF_SQF, (int)q, r ? (int)r : 13, (size_t)n, resolved, seed, path);
  if (out.json) print_json(gamq_backend_name(resolved), (size_t)n, seed, !rc);
  else printf(rc ? "qf_demo: FAILED\n" : "qf_demo: every check held\n");
  return rc ? 1 : 0;
}
