/* counting_alloc.h - a host allocator for the libraries' GxxX_MALLOC / FREE /
   REALLOC hooks that counts live blocks and can fail one chosen call, for
   leak and allocation-failure tests. Include it before a private (STATIC)
   implementation in one test file; each file gets its own counters:

     #include "counting_alloc.h"
     #define GCLQ_MALLOC(sz) counting_malloc(sz)
     #define GCLQ_FREE(p) counting_free(p)
     #define GCLQ_REALLOC(p, sz) counting_realloc(p, sz)
     #define GPUCLIQUE_STATIC
     #define GPUCLIQUE_IMPLEMENTATION
     #include "../gpuclique.h"

     g_alloc_fail_at = g_alloc_calls + 3;   // the fourth call from now fails
     ... CHECK(g_alloc_live == live_before);
     g_alloc_largest = 0; ... CHECK(g_alloc_largest <= limit);  // nothing big asked for  */
#ifndef TESTS_COUNTING_ALLOC_H
#define TESTS_COUNTING_ALLOC_H
#include <stdlib.h>

static long long g_alloc_live = 0;     /* allocations not yet freed */
static long long g_alloc_calls = 0;    /* allocation calls so far */
static long long g_alloc_fail_at = -1; /* fail the call with this index (-1: never) */
static size_t g_alloc_largest = 0;     /* the largest single request since a test reset it */
static void *counting_malloc(size_t bytes) {
  if (bytes > g_alloc_largest) g_alloc_largest = bytes;
  if (g_alloc_calls++ == g_alloc_fail_at) return NULL;
  void *p = malloc(bytes ? bytes : 1);
  if (p) ++g_alloc_live;
  return p;
}
static void counting_free(void *p) {
  if (p) --g_alloc_live;
  free(p);
}
static void *counting_realloc(void *p, size_t bytes) {
  if (bytes > g_alloc_largest) g_alloc_largest = bytes;
  if (g_alloc_calls++ == g_alloc_fail_at) return NULL;
  void *q = realloc(p, bytes ? bytes : 1);
  if (q && !p) ++g_alloc_live;
  return q;
}
#endif
