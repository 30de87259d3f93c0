/* gpuamq.h - approximate membership queries on the GPU: quotient filters and
   non-associative scans. Single-header CUDA C library, v0.1.0.

   Do this:
      #define GPUAMQ_IMPLEMENTATION
   before you include this file in *one* .cu file (nvcc: CUDA and host backends)
   or one .c file (a plain C compiler: the host backend only). Every other file,
   C or C++, includes gpuamq.h alone and links against that one.

      // gpuamq_impl.cu
      #define GPUAMQ_IMPLEMENTATION
      #include "gpuamq.h"

   The source form needs gpuamq_kernels.cuh and gpuprim.cuh beside this file;
   dist/gpuamq.h is the same library as one file.

   Options (define before the implementation include)
     GPUAMQ_STATIC              all functions static (private to that file)
     GAMQ_MALLOC(sz), GAMQ_FREE(p), GAMQ_REALLOC(p, sz)
                                host allocator; define all three or none
     GAMQ_ASSERT(x)             internal assertions (default: assert.h)

   Contents
     1. version, linkage, stream type
     2. status codes            gamq_status, gamq_status_string()
     3. backends                gamq_backend, gamq_backend_resolve()
     4. device allocator hook   gamq_device_allocator
   (quotient filters and non-associative scans arrive with their issues; this
   header declares only what works.)

   Conventions
     - Every function returns a gamq_status; results go out through pointers.
     - Desc structs: the zero value means "defaults".
     - The stream is the last argument of anything that launches work; nothing
       synchronises unless its name ends in _sync.
     - Pointer names say where memory lives: d_keys (device), h_keys (host).

   Version history
     0.1.0  status codes, backends, allocator hook; gpuprim primitives.

   License: MIT, at the end of this file. */
#ifndef GPUAMQ_H
#define GPUAMQ_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
   1. version, linkage, stream type
   ------------------------------------------------------------------------- */
#define GAMQ_VERSION_MAJOR 0
#define GAMQ_VERSION_MINOR 1
#define GAMQ_VERSION_PATCH 0
#define GAMQ_VERSION_STRING "0.1.0"

#ifndef GAMQ_DEF
#ifdef GPUAMQ_STATIC
#define GAMQ_DEF static
#else
#define GAMQ_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The CUDA stream, forward-declared so this header needs no CUDA header:
   gamq_stream is cudaStream_t (pass one directly; NULL is the default stream). */
typedef struct CUstream_st *gamq_stream;

/* ---------------------------------------------------------------------------
   2. status codes: one X-macro list gives the enum and the strings
   ------------------------------------------------------------------------- */
#define GAMQ_STATUS_LIST(X)                                                                  \
  X(GAMQ_SUCCESS, 0, "success")                                                              \
  X(GAMQ_ERROR_INVALID_ARGUMENT, -1, "invalid argument (a NULL pointer or a size out of range)") \
  X(GAMQ_ERROR_OUT_OF_MEMORY, -2, "out of memory (an allocation failed)")                    \
  X(GAMQ_ERROR_NO_DEVICE, -3, "the CUDA backend was requested but no CUDA device is present") \
  X(GAMQ_ERROR_BACKEND_UNAVAILABLE, -4,                                                      \
    "the CUDA backend is not compiled in (the implementation was built without nvcc)")       \
  X(GAMQ_ERROR_CUDA, -5, "a CUDA runtime call failed")

typedef enum gamq_status {
#define GAMQ__STATUS_ENUM(name, value, text) name = value,
  GAMQ_STATUS_LIST(GAMQ__STATUS_ENUM)
#undef GAMQ__STATUS_ENUM
  GAMQ__STATUS_FORCE_INT = 0x7fffffff
} gamq_status;

/* A sentence for any status; "unknown status" for values not in the list. */
GAMQ_DEF const char *gamq_status_string(gamq_status status);

/* ---------------------------------------------------------------------------
   3. backends
   ------------------------------------------------------------------------- */
typedef enum gamq_backend {
  GAMQ_BACKEND_AUTO = 0, /* CUDA when a device is present, else HOST (the default) */
  GAMQ_BACKEND_CUDA = 1, /* kernels on the current CUDA device */
  GAMQ_BACKEND_HOST = 2  /* serial C on the host: the reference, and machines with no GPU */
} gamq_backend;

/* The backend a request runs on:
     AUTO -> CUDA if this build has it and a device is present, else HOST;
     CUDA -> CUDA, or GAMQ_ERROR_BACKEND_UNAVAILABLE (built without nvcc)
             or GAMQ_ERROR_NO_DEVICE (no device);
     HOST -> HOST.
   *resolved is written only on success. */
GAMQ_DEF gamq_status gamq_backend_resolve(gamq_backend requested, gamq_backend *resolved);
/* "auto", "cuda", "host", or "unknown". */
GAMQ_DEF const char *gamq_backend_name(gamq_backend backend);

/* ---------------------------------------------------------------------------
   4. device allocator hook
   ------------------------------------------------------------------------- */
/* How the library takes device memory. The zero value means the default,
   cudaMallocAsync / cudaFreeAsync on the call's stream. alloc returns NULL
   when it cannot serve the request; the library then returns
   GAMQ_ERROR_OUT_OF_MEMORY and leaves its objects as they were. */
typedef struct gamq_device_allocator {
  void *(*alloc)(void *user, size_t bytes, gamq_stream stream);
  void (*free)(void *user, void *ptr, gamq_stream stream);
  void *user;
} gamq_device_allocator;

#ifdef __cplusplus
}
#endif
#endif /* GPUAMQ_H */

/* ===========================================================================
   Implementation
   ========================================================================= */
#if defined(GPUAMQ_IMPLEMENTATION) && !defined(GPUAMQ_IMPLEMENTATION_DONE)
#define GPUAMQ_IMPLEMENTATION_DONE

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

#include "gpuprim.cuh"
#if defined(__CUDACC__)
#include "gpuamq_kernels.cuh"
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
#endif /* __CUDACC__ */

#endif /* GPUAMQ_IMPLEMENTATION */

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
