/* qf_demo - quotient filters on generated keys: build, query, delete, insert,
   merge, save and load, with throughput and the false-positive rate.

     qf_demo [--keys N] [--q Q] [--r R] [--kind rsqf|sqf|both] [--backend auto|cuda|host]
             [--seed S] [--file PATH]

   Defaults: 10 million keys, both kinds (RSQF r = 8, SQF r = 13), q the
   smallest with keys / 2^q <= 0.75 (24 for 10 million), backend auto (CUDA
   when a GPU is present), the file qf_demo.qf in the current directory
   (removed at the end). --r applies to every kind run. For each kind it
     1. builds a filter from N keys (even numbers: present),
     2. looks up the N present keys (all must be found: no false negatives),
     3. looks up N absent keys (odd numbers) and prints the measured
        false-positive rate beside the theory, 1 - (1 - 2^-(q+r))^N, about
        N / 2^(q+r) (notes/qf_design.md),
     4. deletes N/10 of the keys, then inserts N/10 new ones,
     5. builds a second filter from N/10 more keys and merges it in,
     6. saves the filter to a file, loads it back and compares the bytes,
   and prints M keys/s for each step (wall time of the host-array calls, so
   on CUDA it includes the copies between host and device).
   Exit status: 0 when every check held, 1 on a usage error, 2 when the
   library reported an error or a check failed.

   Plain C: compiled by gcc against the header it gets the host backend;
   compiled by nvcc (qf_demo_cuda.cu) it gets CUDA too. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"

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

static int usage(const char *why) {
  fprintf(stderr, "qf_demo: %s\n", why);
  fprintf(stderr, "usage: qf_demo [--keys N] [--q Q] [--r R] [--kind rsqf|sqf|both] [--backend auto|cuda|host]\n"
                  "               [--seed S] [--file PATH]\n");
  return 1;
}

#define TRY(call)                                                                     \
  do {                                                                                \
    gamq_status s_ = (call);                                                          \
    if (s_ != GAMQ_SUCCESS) {                                                         \
      fprintf(stderr, "qf_demo: %s: %s\n", #call, gamq_status_string(s_));            \
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

static void report(const char *what, size_t n, double seconds) {
  printf("  %-34s %10lu keys %9.3f ms %9.1f M keys/s\n", what, (unsigned long)n, 1e3 * seconds,
         seconds > 0 ? (double)n / seconds / 1e6 : 0.0);
}

static size_t count_found(const uint8_t *found, size_t n) {
  size_t i, c = 0;
  for (i = 0; i < n; ++i) c += found[i];
  return c;
}

/* One kind, the whole tour. 0: every check held. */
static int run(gamq_qf_kind kind, int q, int r, size_t n, gamq_backend backend, uint64_t seed, const char *path) {
  const size_t tenth = n / 10;
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
  printf("%s q=%d r=%d on %s: %llu slots, %.1f MiB, %.2f bits per home slot\n", kind == GAMQ_QF_SQF ? "SQF" : "RSQF",
         q, r, gamq_backend_name(info.backend), (unsigned long long)info.nslots, (double)info.bytes / 1048576.0,
         8.0 * (double)info.bytes / (double)((uint64_t)1 << q));
  keys = (uint64_t *)malloc((n + 1) * sizeof *keys);
  probe = (uint64_t *)malloc((n + 1) * sizeof *probe);
  found = (uint8_t *)malloc(n + 1);
  EXPECT(keys && probe && found, "out of host memory for %lu keys", (unsigned long)n);
  make_keys(keys, n, seed, 1, 0, 0);
  make_keys(probe, n, seed, 2, 0, 1);

  /* 1-3: build, present keys, absent keys */
  t = now_s();
  TRY(gamq_qf_build_u64(f, keys, n));
  report("build", n, now_s() - t);
  TRY(gamq_qf_count(f, &count));
  t = now_s();
  TRY(gamq_qf_lookup_u64(f, keys, n, found));
  report("lookup, present keys", n, now_s() - t);
  hits = count_found(found, n);
  printf("    found %lu of %lu present keys%s\n", (unsigned long)hits, (unsigned long)n,
         hits == n ? " (all: no false negatives)" : "");
  EXPECT(hits == n, "a present key was not found");
  t = now_s();
  TRY(gamq_qf_lookup_u64(f, probe, n, found));
  report("lookup, absent keys", n, now_s() - t);
  hits = count_found(found, n);
  fp_rate = n ? (double)hits / (double)n : 0.0;
  theory = -expm1((double)count * log1p(-ldexp(1.0, -(q + r)))); /* 1 - (1 - 2^-p)^count */
  printf("    false positives %lu of %lu: rate %.3e, theory %.3e (count / 2^(q+r) = %.3e), ratio %.3f\n",
         (unsigned long)hits, (unsigned long)n, fp_rate, theory, (double)count / ldexp(1.0, q + r),
         theory > 0 ? fp_rate / theory : 0.0);

  /* 4: delete a tenth, insert a tenth of new keys */
  t = now_s();
  TRY(gamq_qf_delete_u64(f, keys, tenth, &deleted));
  report("delete", tenth, now_s() - t);
  EXPECT(deleted == tenth, "deleted %llu of %lu stored keys", (unsigned long long)deleted, (unsigned long)tenth);
  make_keys(probe, tenth, seed, 3, 0, 0);
  t = now_s();
  TRY(gamq_qf_insert_u64(f, probe, tenth));
  report("insert", tenth, now_s() - t);

  /* 5: merge with a second filter of a tenth more keys */
  make_keys(probe + tenth, tenth, seed, 4, 0, 0);
  TRY(gamq_qf_create(&desc, kind, q, r, &g));
  TRY(gamq_qf_build_u64(g, probe + tenth, tenth));
  t = now_s();
  TRY(gamq_qf_merge_sync(f, f, g, NULL));
  report("merge (items in the result)", n + tenth, now_s() - t);
  TRY(gamq_qf_count(f, &count));
  /* everything that should be there is: keys[tenth..n), both new tenths */
  TRY(gamq_qf_lookup_u64(f, keys + tenth, n - tenth, found));
  hits = count_found(found, n - tenth);
  TRY(gamq_qf_lookup_u64(f, probe, 2 * tenth, found));
  hits += count_found(found, 2 * tenth);
  printf("    count %llu, load factor %.3f; found %lu of %lu stored keys\n", (unsigned long long)count,
         (double)count / ldexp(1.0, q), (unsigned long)hits, (unsigned long)(n + tenth));
  EXPECT(hits == n + tenth, "a stored key was not found after delete / insert / merge");

  /* 6: save, load, same bytes */
  t = now_s();
  TRY(gamq_qf_save(f, path));
  report("save (items)", (size_t)count, now_s() - t);
  t = now_s();
  TRY(gamq_qf_load(&desc, path, &loaded));
  report("load (validated on the host)", (size_t)count, now_s() - t);
  remove(path);
  TRY(gamq_qf_copy_bytes(f, NULL, &n1));
  TRY(gamq_qf_copy_bytes(loaded, NULL, &n2));
  b1 = (uint8_t *)malloc(n1);
  b2 = (uint8_t *)malloc(n2);
  EXPECT(b1 && b2, "out of host memory");
  TRY(gamq_qf_copy_bytes(f, b1, &n1));
  TRY(gamq_qf_copy_bytes(loaded, b2, &n2));
  EXPECT(n1 == n2 && memcmp(b1, b2, n1) == 0, "the loaded filter differs from the saved one");
  printf("    %s: %lu + 72 bytes, loaded back byte for byte\n", path, (unsigned long)n1);
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
  return ok ? 0 : 2;
}

int main(int argc, char **argv) {
  static const char *const backends[] = {"auto", "cuda", "host"};
  size_t n = 10000000;
  int q = 0, r = 0, kinds = 3, i, b, rc = 0;
  gamq_backend backend = GAMQ_BACKEND_AUTO, resolved;
  uint64_t seed = 42;
  const char *path = "qf_demo.qf";
  gamq_status s;
  for (i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v == NULL) return usage("an option needs a value");
    ++i;
    if (strcmp(a, "--keys") == 0) n = (size_t)strtoull(v, NULL, 10);
    else if (strcmp(a, "--q") == 0) q = atoi(v);
    else if (strcmp(a, "--r") == 0) r = atoi(v);
    else if (strcmp(a, "--seed") == 0) seed = strtoull(v, NULL, 0);
    else if (strcmp(a, "--file") == 0) path = v;
    else if (strcmp(a, "--kind") == 0) {
      if (strcmp(v, "rsqf") == 0) kinds = 2;
      else if (strcmp(v, "sqf") == 0) kinds = 1;
      else if (strcmp(v, "both") == 0) kinds = 3;
      else return usage("--kind is rsqf, sqf or both");
    } else if (strcmp(a, "--backend") == 0) {
      for (b = 0; b < 3 && strcmp(v, backends[b]) != 0; ++b) {
      }
      if (b == 3) return usage("--backend is auto, cuda or host");
      backend = b == 0 ? GAMQ_BACKEND_AUTO : b == 1 ? GAMQ_BACKEND_CUDA : GAMQ_BACKEND_HOST;
    } else {
      return usage("unknown option");
    }
  }
  if (n < 10 || n > GAMQ_QF_MAX_BATCH / 2) return usage("--keys must be at least 10 (and below 2^30)");
  if (q == 0) /* the smallest q with n / 2^q <= 0.75 */
    for (q = 1; q < 32 && (double)n > 0.75 * ldexp(1.0, q); ++q) {
    }
  s = gamq_backend_resolve(backend, &resolved);
  if (s != GAMQ_SUCCESS) {
    fprintf(stderr, "qf_demo: backend %s: %s\n", backends[backend], gamq_status_string(s));
    return 2;
  }
  printf("gpuamq %s quotient filters: %lu keys, backend %s\n", GAMQ_VERSION_STRING, (unsigned long)n,
         gamq_backend_name(resolved));
  if (kinds & 2) rc |= run(GAMQ_QF_RSQF, q, r ? r : 8, n, resolved, seed, path);
  if (kinds & 1) rc |= run(GAMQ_QF_SQF, q, r ? r : 13, n, resolved, seed, path);
  printf(rc ? "qf_demo: FAILED\n" : "qf_demo: every check held\n");
  return rc ? 2 : 0;
}
