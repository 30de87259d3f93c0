/* gpuclique.h - cliques on the GPU: graphs, k-cores, maximum clique
   enumeration, k-clique counting and set intersection. Single-header CUDA C
   library, v0.1.0.

   Do this:
      #define GPUCLIQUE_IMPLEMENTATION
   before you include this file in *one* .cu file (nvcc: CUDA and host backends)
   or one .c file (a plain C compiler: the host backend only). Every other file,
   C or C++, includes gpuclique.h alone and links against that one.

      // gpuclique_impl.cu
      #define GPUCLIQUE_IMPLEMENTATION
      #include "gpuclique.h"

   The source form needs gpuclique_kernels.cuh and gpuprim.cuh beside this file;
   dist/gpuclique.h is the same library as one file.

   Options (define before the implementation include)
     GPUCLIQUE_STATIC              all functions static (private to that file)
     GCLQ_MALLOC(sz), GCLQ_FREE(p), GCLQ_REALLOC(p, sz)
                                host allocator; define all three or none
     GCLQ_ASSERT(x)             internal assertions (default: assert.h)

   Contents
     1. version, linkage, stream type
     2. status codes            gclq_status, gclq_status_string()
     3. backends                gclq_backend, gclq_backend_resolve()
     4. device allocator hook   gclq_device_allocator
   (graphs, cores, maximum cliques, k-clique counts and set intersection arrive
   with their issues; this header declares only what works.)

   Conventions
     - Every function returns a gclq_status; results go out through pointers.
     - Desc structs: the zero value means "defaults".
     - The stream is the last argument of anything that launches work; nothing
       synchronises unless its name ends in _sync.
     - Pointer names say where memory lives: d_keys (device), h_keys (host).

   Version history
     0.1.0  status codes, backends, allocator hook; gpuprim primitives.

   License: MIT, at the end of this file. */
#ifndef GPUCLIQUE_H
#define GPUCLIQUE_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
   1. version, linkage, stream type
   ------------------------------------------------------------------------- */
#define GCLQ_VERSION_MAJOR 0
#define GCLQ_VERSION_MINOR 1
#define GCLQ_VERSION_PATCH 0
#define GCLQ_VERSION_STRING "0.1.0"

#ifndef GCLQ_DEF
#ifdef GPUCLIQUE_STATIC
#define GCLQ_DEF static
#else
#define GCLQ_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The CUDA stream, forward-declared so this header needs no CUDA header:
   gclq_stream is cudaStream_t (pass one directly; NULL is the default stream). */
typedef struct CUstream_st *gclq_stream;

/* ---------------------------------------------------------------------------
   2. status codes: one X-macro list gives the enum and the strings
   ------------------------------------------------------------------------- */
#define GCLQ_STATUS_LIST(X)                                                                  \
  X(GCLQ_SUCCESS, 0, "success")                                                              \
  X(GCLQ_ERROR_INVALID_ARGUMENT, -1, "invalid argument (a NULL pointer or a size out of range)") \
  X(GCLQ_ERROR_OUT_OF_MEMORY, -2, "out of memory (an allocation failed)")                    \
  X(GCLQ_ERROR_NO_DEVICE, -3, "the CUDA backend was requested but no CUDA device is present") \
  X(GCLQ_ERROR_BACKEND_UNAVAILABLE, -4,                                                      \
    "the CUDA backend is not compiled in (the implementation was built without nvcc)")       \
  X(GCLQ_ERROR_CUDA, -5, "a CUDA runtime call failed")

typedef enum gclq_status {
#define GCLQ__STATUS_ENUM(name, value, text) name = value,
  GCLQ_STATUS_LIST(GCLQ__STATUS_ENUM)
#undef GCLQ__STATUS_ENUM
  GCLQ__STATUS_FORCE_INT = 0x7fffffff
} gclq_status;

/* A sentence for any status; "unknown status" for values not in the list. */
GCLQ_DEF const char *gclq_status_string(gclq_status status);

/* ---------------------------------------------------------------------------
   3. backends
   ------------------------------------------------------------------------- */
typedef enum gclq_backend {
  GCLQ_BACKEND_AUTO = 0, /* CUDA when a device is present, else HOST (the default) */
  GCLQ_BACKEND_CUDA = 1, /* kernels on the current CUDA device */
  GCLQ_BACKEND_HOST = 2  /* serial C on the host: the reference, and machines with no GPU */
} gclq_backend;

/* The backend a request runs on:
     AUTO -> CUDA if this build has it and a device is present, else HOST;
     CUDA -> CUDA, or GCLQ_ERROR_BACKEND_UNAVAILABLE (built without nvcc)
             or GCLQ_ERROR_NO_DEVICE (no device);
     HOST -> HOST.
   *resolved is written only on success. */
GCLQ_DEF gclq_status gclq_backend_resolve(gclq_backend requested, gclq_backend *resolved);
/* "auto", "cuda", "host", or "unknown". */
GCLQ_DEF const char *gclq_backend_name(gclq_backend backend);

/* ---------------------------------------------------------------------------
   4. device allocator hook
   ------------------------------------------------------------------------- */
/* How the library takes device memory. The zero value means the default,
   cudaMallocAsync / cudaFreeAsync on the call's stream. alloc returns NULL
   when it cannot serve the request; the library then returns
   GCLQ_ERROR_OUT_OF_MEMORY and leaves its objects as they were. */
typedef struct gclq_device_allocator {
  void *(*alloc)(void *user, size_t bytes, gclq_stream stream);
  void (*free)(void *user, void *ptr, gclq_stream stream);
  void *user;
} gclq_device_allocator;

#ifdef __cplusplus
}
#endif
#endif /* GPUCLIQUE_H */

/* ===========================================================================
   Implementation
   ========================================================================= */
#if defined(GPUCLIQUE_IMPLEMENTATION) && !defined(GPUCLIQUE_IMPLEMENTATION_DONE)
#define GPUCLIQUE_IMPLEMENTATION_DONE

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

#include "gpuprim.cuh"
#if defined(__CUDACC__)
#include "gpuclique_kernels.cuh"
#endif

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

#if defined(__CUDACC__)
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

#endif /* GPUCLIQUE_IMPLEMENTATION */

/* ---------------------------------------------------------------------------
   MIT License. Copyright (c) 2026 the gpuamq + gpuclique authors.
   Permission is hereby granted, free of charge, to any person obtaining a copy
   of this software and associated documentation files (the "Software"), to deal
   in the Software without restriction, including without limitation the rights
   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
   copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions: the above copyright
   notice and this permission notice shall be included in all copies or
   substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS",
   WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
   ------------------------------------------------------------------------- */
