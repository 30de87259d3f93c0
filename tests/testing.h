/* testing.h - the project's self-registering test runner (utest.h's shape).

     TEST(scan, small_sizes) { ... CHECK(x == 3); CHECK_EQ(a, b); }
     GPU_TEST(scan, matches_host) { ... }   // skipped when no CUDA device

   One binary holds every test file; tests/test_main.cu has main():
     ./gpuamq_tests [--filter=SUBSTR] [--seed=N] [--max-log2=K] [--list]
   --max-log2 caps the largest size tests draw (default 24; run_gpu.sh uses 28).
   Every run draws a fresh seed (printed) unless --seed is given.
   The last line is "N passed, N failed"; the exit code is the failure count
   (capped at 100). Skipped GPU tests count in neither number. */
#ifndef GPUAMQ_TESTING_H
#define GPUAMQ_TESTING_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#endif

struct test_case {
  const char *suite, *name;
  void (*fn)(void);
  int needs_gpu;
};

/* registry and per-test state, defined in test_main.cu */
std::vector<test_case> &test_registry(void);
struct test_state {
  int failed;          /* current test failed */
  int skipped;         /* current test skipped itself */
  uint64_t seed;       /* run seed */
  int max_log2;        /* largest size = 2^max_log2 */
  int have_gpu;
};
extern test_state g_test;

struct test_registrar {
  test_registrar(const char *s, const char *n, void (*f)(void), int gpu) {
    test_case c = {s, n, f, gpu};
    test_registry().push_back(c);
  }
};

#define TEST__DEFINE(suite, name, gpu)                                                 \
  static void test_##suite##_##name(void);                                             \
  static test_registrar test_reg_##suite##_##name(#suite, #name, test_##suite##_##name, \
                                                  gpu);                                \
  static void test_##suite##_##name(void)
#define TEST(suite, name) TEST__DEFINE(suite, name, 0)
#define GPU_TEST(suite, name) TEST__DEFINE(suite, name, 1)

/* Failure reporting: print where and what, mark the test failed, return. */
#define TEST_FAIL(...)                                                   \
  do {                                                                   \
    fprintf(stderr, "    %s:%d: ", __FILE__, __LINE__);                  \
    fprintf(stderr, __VA_ARGS__);                                        \
    fprintf(stderr, "\n");                                               \
    g_test.failed = 1;                                                   \
    return;                                                              \
  } while (0)
#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) TEST_FAIL("CHECK(%s) failed", #cond);                   \
  } while (0)
#define CHECK_EQ(a, b)                                                                  \
  do {                                                                                  \
    long long test__a = (long long)(a), test__b = (long long)(b);                       \
    if (test__a != test__b) TEST_FAIL("CHECK_EQ(%s, %s): %lld != %lld", #a, #b, test__a, test__b); \
  } while (0)
#define CHECK_MSG(cond, ...)                                             \
  do {                                                                   \
    if (!(cond)) TEST_FAIL(__VA_ARGS__);                                 \
  } while (0)
/* Propagate a failure out of a helper called from a test body. */
#define CHECK_OK_SO_FAR()                                                \
  do {                                                                   \
    if (g_test.failed) return;                                           \
  } while (0)
#if defined(__CUDACC__)
#define CUDA_CHECK(call)                                                               \
  do {                                                                                 \
    cudaError_t test__e = (call);                                                      \
    if (test__e != cudaSuccess) TEST_FAIL("%s -> %s", #call, cudaGetErrorString(test__e)); \
  } while (0)
#endif

/* Compare two arrays exactly; on mismatch report the first bad index. */
template <typename T>
static inline bool test_arrays_equal(const T *want, const T *got, size_t n, const char *what) {
  for (size_t i = 0; i < n; ++i) {
    if (memcmp(&want[i], &got[i], sizeof(T)) != 0) {
      fprintf(stderr, "    %s: first mismatch at index %zu of %zu\n", what, i, n);
      return false;
    }
  }
  return true;
}
#define CHECK_ARRAYS(want, got, n, what)                                 \
  do {                                                                   \
    if (!test_arrays_equal((want), (got), (size_t)(n), (what)))          \
      TEST_FAIL("%s differs from the reference (n = %zu)", (what), (size_t)(n)); \
  } while (0)

/* ---- random numbers: splitmix64, seeded per test from the run seed ---- */
struct test_rng {
  uint64_t s;
  explicit test_rng(uint64_t seed) : s(seed) {}
  uint64_t next(void) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t next32(void) { return (uint32_t)(next() >> 32); }
  /* uniform in [0, n) (n > 0) */
  uint64_t below(uint64_t n) { return next() % n; }
};
/* A fresh generator for the calling test: run seed mixed with a salt, so two
   tests do not draw the same stream. */
static inline test_rng test_rng_for(const char *salt) {
  uint64_t h = g_test.seed ^ 0xcbf29ce484222325ull;
  for (const char *p = salt; *p; ++p) h = (h ^ (uint8_t)*p) * 0x100000001b3ull;
  return test_rng(h);
}

/* Sizes every primitive is tested at: 0, 1, 31, 32, 33, tile - 1, tile,
   tile + 1, 2^k - 1 and 2^k + 1 for k up to max_log2, a few random non-powers
   of two, and 2^max_log2 itself. Sorted, no repeats, none above 2^max_log2. */
static inline std::vector<size_t> test_sizes(size_t tile, test_rng &rng) {
  std::vector<size_t> v;
  size_t top = (size_t)1 << g_test.max_log2;
  size_t base[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1000, 4097};
  for (size_t i = 0; i < sizeof base / sizeof base[0]; ++i) v.push_back(base[i]);
  if (tile) { v.push_back(tile - 1); v.push_back(tile); v.push_back(tile + 1); v.push_back(3 * tile + 7); }
  for (int k = 6; k <= g_test.max_log2; k += 3) {
    v.push_back(((size_t)1 << k) - 1);
    v.push_back(((size_t)1 << k) + 1);
  }
  for (int i = 0; i < 4; ++i) v.push_back(1 + (size_t)rng.below(top < 3 ? 1 : top - 1));
  v.push_back(top);
  std::vector<size_t> out;
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] <= top) out.push_back(v[i]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/* Key distributions tests draw from. */
enum test_dist { DIST_UNIFORM, DIST_ALL_EQUAL, DIST_SORTED, DIST_REVERSE, DIST_FEW_DISTINCT, DIST_COUNT };
static inline const char *test_dist_name(int d) {
  static const char *names[] = {"uniform", "all-equal", "sorted", "reverse-sorted", "few-distinct"};
  return names[d];
}
/* Fill keys of type K (u32/u64/i32/i64) with distribution d. */
template <typename K>
static inline void test_fill_keys(std::vector<K> &k, int d, test_rng &rng) {
  size_t n = k.size();
  K c = (K)rng.next();
  K few[7];
  for (int i = 0; i < 7; ++i) few[i] = (K)rng.next();
  for (size_t i = 0; i < n; ++i) {
    switch (d) {
      case DIST_UNIFORM: k[i] = (K)rng.next(); break;
      case DIST_ALL_EQUAL: k[i] = c; break;
      case DIST_FEW_DISTINCT: k[i] = few[rng.below(7)]; break;
      default: k[i] = (K)rng.next(); break;
    }
  }
  if (d == DIST_SORTED) std::sort(k.begin(), k.end());
  if (d == DIST_REVERSE) std::sort(k.begin(), k.end(), std::greater<K>());
}

/* Largest size for tests whose cost grows faster than linearly. */
static inline size_t test_max_size(void) { return (size_t)1 << g_test.max_log2; }

/* The shared test data (graphs with reference values): $GPUAMQ_DATA_DIR,
   ../shared/data or ../../shared/data, the first that holds README.md; NULL
   when none does (the tests that need it then say "skipped"). */
static inline const char *test_data_dir(void) {
  static std::string dir;
  const char *env = getenv("GPUAMQ_DATA_DIR");
  const char *tries[3] = {env, "../shared/data", "../../shared/data"};
  for (int i = 0; i < 3; ++i) {
    if (tries[i] == NULL || !*tries[i]) continue;
    FILE *f = fopen((std::string(tries[i]) + "/README.md").c_str(), "rb");
    if (f) {
      fclose(f);
      dir = tries[i];
      return dir.c_str();
    }
  }
  return NULL;
}

#if defined(__CUDACC__)
/* Fill device memory with a poison byte pattern before a run, so that an
   output the kernel forgot to write cannot match the reference by luck. */
static inline cudaError_t test_poison(void *d_ptr, size_t bytes) {
  return d_ptr && bytes ? cudaMemset(d_ptr, 0xA5, bytes) : cudaSuccess;
}
/* RAII device buffer, poisoned at allocation. */
template <typename T>
struct dbuf {
  T *p;
  size_t n;
  explicit dbuf(size_t count = 0) : p(NULL), n(count) {
    if (count && cudaMalloc((void **)&p, count * sizeof(T)) == cudaSuccess) test_poison(p, count * sizeof(T));
  }
  ~dbuf() { if (p) cudaFree(p); }
  bool ok(void) const { return n == 0 || p != NULL; }
  cudaError_t upload(const std::vector<T> &h) { return h.empty() ? cudaSuccess : cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice); }
  cudaError_t download(std::vector<T> &h) const { h.resize(n); return n ? cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost) : cudaSuccess; }
  dbuf(const dbuf &);
  dbuf &operator=(const dbuf &);
};
#endif

#endif /* GPUAMQ_TESTING_H */
