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
#include <stdint.h>
#include <stdlib.h>

static long long g_alloc_live = 0;     /* allocations not yet freed */
static long long g_alloc_calls = 0;    /* allocation calls so far */
static long long g_alloc_fail_at = -1; /* fail the call with this index (-1: never) */
static size_t g_alloc_largest = 0;     /* the largest single request since a test reset it */
/* The counters move atomically: the containment join's split allocates
   from a second thread while the calling one runs the device part. Read
   them once the call has returned. */
static void counting_note(size_t bytes) {
  size_t seen = __atomic_load_n(&g_alloc_largest, __ATOMIC_RELAXED);
  while (bytes > seen &&
         !__atomic_compare_exchange_n(&g_alloc_largest, &seen, bytes, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}
static void *counting_malloc(size_t bytes) {
  counting_note(bytes);
  if (__atomic_fetch_add(&g_alloc_calls, 1, __ATOMIC_SEQ_CST) == g_alloc_fail_at) return NULL;
  if (bytes > (size_t)PTRDIFF_MAX) return NULL; /* no object is that large: fail as malloc would (still noted) */
  void *p = malloc(bytes ? bytes : 1);
  if (p) __atomic_fetch_add(&g_alloc_live, 1, __ATOMIC_SEQ_CST);
  return p;
}
static void counting_free(void *p) {
  if (p) __atomic_fetch_sub(&g_alloc_live, 1, __ATOMIC_SEQ_CST);
  free(p);
}
static void *counting_realloc(void *p, size_t bytes) {
  counting_note(bytes);
  if (__atomic_fetch_add(&g_alloc_calls, 1, __ATOMIC_SEQ_CST) == g_alloc_fail_at) return NULL;
  if (bytes > (size_t)PTRDIFF_MAX) return NULL; /* likewise; p stays valid, as after a failed realloc */
  void *q = realloc(p, bytes ? bytes : 1);
  if (q && !p) __atomic_fetch_add(&g_alloc_live, 1, __ATOMIC_SEQ_CST);
  return q;
}
#endif
