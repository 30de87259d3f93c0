/* clique/common.h - what every module of gpuclique.h's implementation uses:
   the host allocator and assertion macros, the system headers, the status
   strings and backend resolution, growable arrays, the radix sort of 64-bit
   keys, bit tricks, the GPUCLIQUE_TESTING hooks and, compiled by nvcc, the
   CUDA error macros, the clock and the device allocator. Included by
   gpuclique.h's implementation, after gpuprim.cuh and before every module. */
#if defined(GCLQ_MALLOC) && defined(GCLQ_FREE) && defined(GCLQ_REALLOC)
/* all three given */
#elif !defined(GCLQ_MALLOC) && !defined(GCLQ_FREE) && !defined(GCLQ_REALLOC)
#include <stdlib.h>
#define GCLQ_MALLOC(sz) malloc(sz)
#define GCLQ_FREE(p) free(p)
#define GCLQ_REALLOC(p, sz) realloc(p, sz)
#else
#error "define all of GCLQ_MALLOC, GCLQ_FREE and GCLQ_REALLOC, or none of them"
#endif
#ifndef GCLQ_ASSERT
#include <assert.h>
#define GCLQ_ASSERT(x) assert(x)
#endif

#include <errno.h> /* the loaders' messages name the system's reason */
#include <stdio.h>
#include <stdlib.h> /* qsort */
#include <string.h> /* memset, memcpy */
#include <time.h>   /* clock: the host backend's times, the progress lines' throttle */
#if defined(__CUDACC__)
#include <chrono>
#include <thread> /* the containment join's light part beside the device (co-processing) */
#endif

/* Functions that are device code too under nvcc (PIVOT's tally index,
   which HOST and the CUDA kernels share), so both backends use one
   definition. */
#if defined(__CUDACC__)
#define GCLQ__HD __host__ __device__
#else
#define GCLQ__HD
#endif

/* ---- status strings, backends ---- */
GCLQ_DEF const char *gclq_status_string(gclq_status status) {
  switch (status) {
#define GCLQ__STATUS_CASE(name, value, text) \
  case name:                                 \
    return text;
    GCLQ_STATUS_LIST(GCLQ__STATUS_CASE)
#undef GCLQ__STATUS_CASE
    default:
      return "unknown status";
  }
}

GCLQ_DEF const char *gclq_backend_name(gclq_backend backend) { return gprim__backend_name((int)backend); }

GCLQ_DEF gclq_status gclq_backend_resolve(gclq_backend requested, gclq_backend *resolved) {
  int r = 0;
  switch (gprim__backend_resolve((int)requested, resolved ? &r : NULL)) {
    case GPRIM__RESOLVED: *resolved = (gclq_backend)r; return GCLQ_SUCCESS;
    case GPRIM__NO_DEVICE: return GCLQ_ERROR_NO_DEVICE;
    case GPRIM__NO_CUDA_BUILD: return GCLQ_ERROR_BACKEND_UNAVAILABLE;
    default: return GCLQ_ERROR_INVALID_ARGUMENT;
  }
}

/* ---- growable array of 64-bit words ---- */
typedef struct gclq__vec64 {
  uint64_t *a;
  size_t n, cap;
} gclq__vec64;

static void gclq__vec64_init(gclq__vec64 *v) {
  v->a = NULL;
  v->n = 0;
  v->cap = 0;
}

/* 1 on success, 0 when the allocation failed (v is unchanged). */
static int gclq__vec64_push(gclq__vec64 *v, uint64_t x) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 1024;
    uint64_t *a;
    if (cap < v->cap || cap > ((size_t)-1) / sizeof(uint64_t)) return 0;
    a = (uint64_t *)GCLQ_REALLOC(v->a, cap * sizeof(uint64_t));
    if (a == NULL) return 0;
    v->a = a;
    v->cap = cap;
  }
  v->a[v->n++] = x;
  return 1;
}

/* count elements of size bytes each, at least one byte; NULL on overflow or failure. */
static void *gclq__alloc_array(uint64_t count, size_t size) {
  if (count > (uint64_t)(((size_t)-1) / size)) return NULL;
  return GCLQ_MALLOC(count ? (size_t)count * size : 1);
}

/* ---- growable array of 32-bit words (the text reader, the results) ---- */
typedef struct gclq__vec32 {
  uint32_t *a;
  size_t n, cap;
} gclq__vec32;

/* 1 on success, 0 when the allocation failed (v is unchanged). */
static int gclq__vec32_push(gclq__vec32 *v, uint32_t x) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 1024;
    uint32_t *a;
    if (cap < v->cap || cap > ((size_t)-1) / sizeof(uint32_t)) return 0;
    a = (uint32_t *)GCLQ_REALLOC(v->a, cap * sizeof(uint32_t));
    if (a == NULL) return 0;
    v->a = a;
    v->cap = cap;
  }
  v->a[v->n++] = x;
  return 1;
}

/* ---- sorting: LSD radix sort of 64-bit keys, 8-bit digits; a digit that
   is the same in every key costs no pass ---- */
static gclq_status gclq__sort_u64(uint64_t *keys, size_t n) {
  size_t counts[8][256];
  uint64_t *src = keys, *dst, *tmp = NULL;
  size_t i;
  int d;
  if (n < 2) return GCLQ_SUCCESS;
  if (n <= 32) { /* insertion sort */
    for (i = 1; i < n; ++i) {
      uint64_t x = keys[i];
      size_t j = i;
      while (j > 0 && keys[j - 1] > x) {
        keys[j] = keys[j - 1];
        --j;
      }
      keys[j] = x;
    }
    return GCLQ_SUCCESS;
  }
  memset(counts, 0, sizeof counts);
  for (i = 0; i < n; ++i) {
    uint64_t k = keys[i];
    for (d = 0; d < 8; ++d) counts[d][(k >> (8 * d)) & 0xff]++;
  }
  for (d = 0; d < 8; ++d) {
    size_t sum = 0, b;
    if (counts[d][(keys[0] >> (8 * d)) & 0xff] == n) continue; /* one bucket: nothing moves */
    if (tmp == NULL) {
      tmp = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
      if (tmp == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    dst = src == keys ? tmp : keys;
    for (b = 0; b < 256; ++b) {
      size_t c = counts[d][b];
      counts[d][b] = sum;
      sum += c;
    }
    for (i = 0; i < n; ++i) dst[counts[d][(src[i] >> (8 * d)) & 0xff]++] = src[i];
    src = dst;
  }
  if (src != keys) memcpy(keys, src, n * sizeof(uint64_t));
  GCLQ_FREE(tmp);
  return GCLQ_SUCCESS;
}

/* The first i in [0, n) with a[i] >= x (a ascending), or n. */
static inline uint64_t gclq__lower_bound_u64(const uint64_t *a, uint64_t n, uint64_t x) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The first i in [0, n) with a[i] >= x (a ascending), or n. */
static inline uint64_t gclq__lower_bound_u32(const uint32_t *a, uint64_t n, uint32_t x) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* sort, then drop repeats; returns the new length in *n_out */
static gclq_status gclq__sort_unique_u64(uint64_t *keys, size_t n, size_t *n_out) {
  size_t i, w = 0;
  gclq_status st = gclq__sort_u64(keys, n);
  if (st != GCLQ_SUCCESS) return st;
  for (i = 0; i < n; ++i)
    if (w == 0 || keys[w - 1] != keys[i]) keys[w++] = keys[i];
  *n_out = w;
  return GCLQ_SUCCESS;
}

/* Bit tricks, portable (the builtins where the compiler has them). */
static inline uint32_t gclq__host_popcount64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
  return (uint32_t)__builtin_popcountll(x);
#else
  uint32_t c = 0;
  for (; x; x &= x - 1) ++c;
  return c;
#endif
}
static inline uint32_t gclq__host_ctz64(uint64_t x) { /* x != 0 */
#if defined(__GNUC__) || defined(__clang__)
  return (uint32_t)__builtin_ctzll(x);
#else
  uint32_t c = 0;
  for (; !(x & 1); x >>= 1) ++c;
  return c;
#endif
}

/* The largest local graph of the maximum clique search's bitset search
   (here, not in clique/maxclique/, because the hook gclq__bits_max below
   starts at it). */
#define GCLQ__BITS_MAX 4096u

/* ---- test and bench hooks ----

   Compiled only with GPUCLIQUE_TESTING (the tests, bench/bench_maxclique.cu
   and bench/bench_kcliques.cu define it; without it the library reads its
   constants: GCLQ__FIRST_WIDTH, GCLQ__STEP_ENTRIES, GCLQ__BITS_MAX,
   GCLQ__KCP_SPILL_NODES ...):
     gclq__tune_first_width, gclq__tune_step  the CUDA search's first width and
                     step (0: GCLQ__FIRST_WIDTH, GCLQ__STEP_ENTRIES)
     gclq__no_budget_split  nonzero turns the budget mechanism off in the CUDA
                     search (the 2-clique list is built whole, a step takes
                     every parent it counted, no narrow first steps), so a
                     level that does not fit the budget is out of memory, as
                     in the paper's scheme
     gclq__bits_max  the largest local graph of the bitset search (lowered
                     to see the fallback to the list search)
     gclq__peel_by_launches  nonzero: the core peeling runs as a loop of
                     launches, as on a device without cooperative launch
     gclq__sets_cuts_in_blocks  nonzero: the set intersection's block tiles
                     find their own ends (merge path's diagonals, binary
                     search's spans, the table methods' slice ends), as when
                     the budget has no room for the partition kernel's cuts
     gclq__sets_two_passes  nonzero: a materialised batch of pairs counts,
                     then writes, even where one pass would run
     gclq__sets_stream_windows  the bitmaps' count pass of large pairs: 0
                     runs the partition kernel's records; GCLQ__STREAM_ON,
                     with GCLQ__STREAM_WIDE, GCLQ__STREAM_SLOTS and
                     GCLQ__STREAM_PAIRS or not, streams its windows that way
                     (gclq__sets_bits_stream_kernel); -1 (the default)
                     follows gclq__sets_stream_balanced and
                     gclq__sets_stream_shape
     gclq__sets_ip_obs_warps  nonzero: where AUTO runs IP_OBS (its batch
                     rule's pick, the device call), the small pairs run
                     IP_OBS's warp tables too, instead of the per-pair
                     rule's warps (gclq__sets_rule_warps)
     gclq__kcp_spill_nodes, gclq__kcp_round_tasks  the CUDA PIVOT's nodes
                     before a task hands its open levels on, and tasks a
                     round takes (0: GCLQ__KCP_SPILL_NODES, and
                     GCLQ__KCP_ROUND_TASKS per warp slot; small: tasks split
                     often, the task stack runs deep)
     gclq__emb_chunk_rows  the CUDA embedding table's rows a key sort
                     takes at once (0: the budget's rule, GCLQ__EMB_CHUNK_ROWS
                     at most; small: aggregation merges many chunks) */
#ifdef GPUCLIQUE_TESTING
static uint64_t gclq__tune_first_width = 0, gclq__tune_step = 0;
static int gclq__no_budget_split = 0;
static uint32_t gclq__bits_max = GCLQ__BITS_MAX;
static int gclq__peel_by_launches = 0; /* nonzero: the core peeling loops over launches (no cooperative launch) */
static int gclq__sets_cuts_in_blocks = 0; /* nonzero: each block tile finds its own ends */
static int gclq__sets_two_passes = 0;     /* nonzero: a materialised batch never runs the one pass */
static int gclq__sets_stream_windows = -1; /* GCLQ__STREAM_* or 0: how the bitmaps' count pass runs; -1: the rules */
static int gclq__sets_ip_obs_warps = 0;    /* nonzero: AUTO's IP_OBS runs its small pairs by IP_OBS's warps */
static uint64_t gclq__kcp_spill_nodes = 0, gclq__kcp_round_tasks = 0;
static uint64_t gclq__emb_chunk_rows = 0;
#endif

#if defined(__CUDACC__)
/* Which BIT_MATRIX kernel runs (1: tensor cores): GCLQ_SETS_BIT_MATRIX_TC;
   with GPUCLIQUE_TESTING, gclq__sets_bm_tensor when it is 0 or 1 (the
   tests run both). */
#ifdef GPUCLIQUE_TESTING
static int gclq__sets_bm_tensor = -1;
#define GCLQ__SETS_BM_TENSOR (gclq__sets_bm_tensor >= 0 ? gclq__sets_bm_tensor : GCLQ_SETS_BIT_MATRIX_TC)
#else
#define GCLQ__SETS_BM_TENSOR GCLQ_SETS_BIT_MATRIX_TC
#endif
#endif

#if defined(__CUDACC__)
/* ---- the CUDA backend's common part: launch shape, error macros, clock,
   device memory ---- */

/* Threads per block of the kernels that take a thread per item. */
#define GCLQ__BLOCK 256
#define GCLQ__CUDA_TRY(call)                                   \
  do {                                                         \
    if ((call) != cudaSuccess) {                               \
      cudaGetLastError();                                      \
      return GCLQ_ERROR_CUDA;                                  \
    }                                                          \
  } while (0)
#define GCLQ__TRY(call)                                        \
  do {                                                         \
    gclq_status gclq__s = (call);                              \
    if (gclq__s != GCLQ_SUCCESS) return gclq__s;               \
  } while (0)

typedef std::chrono::steady_clock gclq__clock;
static inline double gclq__ms_since(gclq__clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(gclq__clock::now() - t0).count();
}

/* Device memory through the hook (or the default), and back. */
static inline gclq_status gclq__device_alloc(const gclq_device_allocator *a, void **d_ptr, size_t bytes, gclq_stream stream) {
  if (d_ptr == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *d_ptr = NULL;
  if (bytes == 0) return GCLQ_SUCCESS;
  if (a != NULL && a->alloc != NULL) {
    *d_ptr = a->alloc(a->user, bytes, stream);
    return *d_ptr ? GCLQ_SUCCESS : GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (cudaMallocAsync(d_ptr, bytes, (cudaStream_t)stream) != cudaSuccess) {
    cudaGetLastError(); /* an allocation failure is not sticky: clear it */
    *d_ptr = NULL;
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  return GCLQ_SUCCESS;
}
static inline void gclq__device_free(const gclq_device_allocator *a, void *d_ptr, gclq_stream stream) {
  if (d_ptr == NULL) return;
  if (a != NULL && a->alloc != NULL) {
    if (a->free) a->free(a->user, d_ptr, stream);
    return;
  }
  cudaFreeAsync(d_ptr, (cudaStream_t)stream);
}
#endif /* __CUDACC__ */
