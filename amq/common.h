/* amq/common.h - what every module of gpuamq.h's implementation shares: the
   host allocator macros, the system headers, GAMQ__HD, the status strings
   and backend resolution; under nvcc the device allocator hook's calls and
   the launch grid. Included first (after gpuprim.cuh) by gpuamq.h's
   implementation block; the map of amq/ is there. */

#if defined(GAMQ_MALLOC) && defined(GAMQ_FREE) && defined(GAMQ_REALLOC)
/* all three given */
#elif !defined(GAMQ_MALLOC) && !defined(GAMQ_FREE) && !defined(GAMQ_REALLOC)
#include <stdlib.h>
#define GAMQ_MALLOC(sz) malloc(sz)
#define GAMQ_FREE(p) free(p)
#define GAMQ_REALLOC(p, sz) realloc(p, sz)
#else
#error "define all of GAMQ_MALLOC, GAMQ_FREE and GAMQ_REALLOC, or none of them"
#endif
#ifndef GAMQ_ASSERT
#include <assert.h>
#define GAMQ_ASSERT(x) assert(x)
#endif

#include <stdlib.h> /* qsort */
#include <stdio.h>  /* the file functions of amq/qf/io.h and the save / load entry points */
/* A save writes through open(2) with O_SYNC on POSIX systems, through stdio
   elsewhere (amq/qf/io.h, gamq__write_new_file), and checks its path with
   stat(2) first (gamq__save_target). */
#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#define GAMQ__POSIX_FILES 1
#else
#define GAMQ__POSIX_FILES 0
#endif
#include <errno.h>
#include <time.h>

/* Functions that are device code too under nvcc: the QF slot reads, rank /
   select and point operations (the CUDA backend's in-place kernels call
   them on a filter whose data is device memory) and the Bloom filter's key ->
   bits functions, so both backends share one definition. */
#if defined(__CUDACC__)
#define GAMQ__HD __host__ __device__
#else
#define GAMQ__HD
#endif

GAMQ_DEF const char *gamq_status_string(gamq_status status) {
  switch (status) {
#define GAMQ__STATUS_CASE(name, value, text) \
  case name:                                 \
    return text;
    GAMQ_STATUS_LIST(GAMQ__STATUS_CASE)
#undef GAMQ__STATUS_CASE
    default:
      return "unknown status";
  }
}

GAMQ_DEF const char *gamq_backend_name(gamq_backend backend) { return gprim__backend_name((int)backend); }

GAMQ_DEF gamq_status gamq_backend_resolve(gamq_backend requested, gamq_backend *resolved) {
  int r = 0;
  switch (gprim__backend_resolve((int)requested, resolved ? &r : NULL)) {
    case GPRIM__RESOLVED: *resolved = (gamq_backend)r; return GAMQ_SUCCESS;
    case GPRIM__NO_DEVICE: return GAMQ_ERROR_NO_DEVICE;
    case GPRIM__NO_CUDA_BUILD: return GAMQ_ERROR_BACKEND_UNAVAILABLE;
    default: return GAMQ_ERROR_INVALID_ARGUMENT;
  }
}

#if defined(__CUDACC__)
/* Device memory through the hook (or the default), and back. */
static inline gamq_status gamq__device_alloc(const gamq_device_allocator *a, void **d_ptr, size_t bytes, gamq_stream stream) {
  if (d_ptr == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *d_ptr = NULL;
  if (bytes == 0) return GAMQ_SUCCESS;
  if (a != NULL && a->alloc != NULL) {
    *d_ptr = a->alloc(a->user, bytes, stream);
    return *d_ptr ? GAMQ_SUCCESS : GAMQ_ERROR_OUT_OF_MEMORY;
  }
  if (cudaMallocAsync(d_ptr, bytes, (cudaStream_t)stream) != cudaSuccess) {
    cudaGetLastError(); /* an allocation failure is not sticky: clear it */
    *d_ptr = NULL;
    return GAMQ_ERROR_OUT_OF_MEMORY;
  }
  return GAMQ_SUCCESS;
}
static inline void gamq__device_free(const gamq_device_allocator *a, void *d_ptr, gamq_stream stream) {
  if (d_ptr == NULL) return;
  if (a != NULL && a->alloc != NULL) {
    if (a->free) a->free(a->user, d_ptr, stream);
    return;
  }
  cudaFreeAsync(d_ptr, (cudaStream_t)stream);
}

/* grid for a grid-stride loop over `items` */
static inline unsigned gamq__grid(size_t items, int threads) {
  size_t blocks = gprim__div_up(items ? items : 1, (size_t)threads);
  const size_t cap = (size_t)gprim__sm_count() * 16;
  return (unsigned)(blocks < cap ? blocks : cap);
}
#endif /* __CUDACC__ */
