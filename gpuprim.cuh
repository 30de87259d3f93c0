/* gpuprim.cuh - hand-written GPU primitives shared by gpuamq.h and gpuclique.h.

   Internal to the two libraries, but documented and tested: every primitive has
   a temp-storage query, a stream argument and a doc comment with a concrete
   input/output example; its serial host reference, which the tests compare
   the device with, is in tests/prim_reference.h. Included once even when both halves are
   built in one translation unit.

   Contents
     1. common: status type, temp-storage carving, operators, numeric limits
     2. device code (nvcc only)
        scan ............... inclusive / exclusive, any associative operator,
                             single pass, decoupled look-back, atomic tile tickets
        select ............. by flags / predicate, partition, unique, run-length
        radix sort ......... keys and pairs, u32 / u64, onesweep
        segmented sort ..... keys and pairs, binned by segment length
        merge path ......... merge keys / pairs, sorted search, load-balancing
                             search, segmented reduce

   Conventions (CUB's shape)
     - Device-wide calls take (void *d_temp, size_t *temp_bytes, ..., stream).
       With d_temp == NULL they only write the bytes needed to *temp_bytes and
       return cudaSuccess; no work is launched.
     - They return cudaError_t: cudaErrorInvalidValue for bad arguments (NULL
       pointers with n > 0, too little temp storage), or the launch error.
     - Nothing synchronises; work is ordered on the stream given.
     - Names: gprim_* for what the libraries call, gprim__* for the parts. */
#ifndef GPRIM_CUH
#define GPRIM_CUH

/* The device code needs sm_80 or newer (warp reductions such as __reduce_add_sync,
   cp.async). Stop the device pass of an older architecture here, with one clear
   message, before any device code is seen. -arch=native on a machine without a
   GPU falls back to nvcc's default (sm_75 with CUDA 13) and ends here too, so the
   message names a fixed architecture, not -arch=native. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "gpuamq/gpuclique need sm_80 or newer: compile with a fixed architecture, e.g. -arch=sm_90 (or your GPU's, sm_80 or newer; -arch=native without a GPU gives nvcc's older default); CMake: set CMAKE_CUDA_ARCHITECTURES, e.g. 90"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------------------
   1. common
   ------------------------------------------------------------------------- */

#define GPRIM_TEMP_ALIGN 256u /* every carved temp buffer starts on this boundary */

#if defined(__CUDACC__)
#define GPRIM_HD __host__ __device__ __forceinline__
#else
#define GPRIM_HD inline
#endif

static inline size_t gprim__align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }
static inline size_t gprim__div_up(size_t x, size_t d) { return (x + d - 1) / d; }

/* Backend resolution for both halves (gamq_backend and gclq_backend share the
   values: 0 AUTO, 1 CUDA, 2 HOST). Returns GPRIM__RESOLVED and writes
   *resolved, or one of the other codes and leaves it alone. */
enum { GPRIM__RESOLVED = 0, GPRIM__BAD_BACKEND, GPRIM__NO_DEVICE, GPRIM__NO_CUDA_BUILD };
#if defined(__CUDACC__)
static inline int gprim__device_present(void);
#endif
static inline int gprim__backend_resolve(int requested, int *resolved) {
  int have_cuda = 0;
  if (resolved == NULL || requested < 0 || requested > 2) return GPRIM__BAD_BACKEND;
  if (requested == 2) {
    *resolved = 2;
    return GPRIM__RESOLVED;
  }
#if defined(__CUDACC__)
  have_cuda = gprim__device_present();
#else
  if (requested == 1) return GPRIM__NO_CUDA_BUILD;
#endif
  if (requested == 1 && !have_cuda) return GPRIM__NO_DEVICE;
  *resolved = have_cuda ? 1 : 2;
  return GPRIM__RESOLVED;
}
static inline const char *gprim__backend_name(int backend) {
  return backend == 0 ? "auto" : backend == 1 ? "cuda" : backend == 2 ? "host" : "unknown";
}

/* Bits of a word, on the host and the device: the set bits of x, and the
   position of its k-th set bit (k from 0, k < gprim_popcount32(x)), by
   halving: e.g. gprim_select32(0x58, 1) = 4 (bits 3, 4, 6). */
static GPRIM_HD int gprim_popcount32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
#endif
}
static GPRIM_HD int gprim_select32(uint32_t x, int k) {
  int pos = 0, half;
  for (half = 16; half > 0; half >>= 1) {
    const int low = gprim_popcount32(x & ((1u << half) - 1u));
    if (k >= low) k -= low, x >>= half, pos += half;
  }
  return pos;
}

#if defined(__cplusplus)
#include <algorithm>

/* Associative operators. Each has an identity() so scans and reductions can
   pad partial tiles: sum -> 0, max -> lowest value, min -> highest value. */
struct gprim_op_sum {
  template <typename T> GPRIM_HD T operator()(const T &a, const T &b) const { return a + b; }
  template <typename T> static GPRIM_HD T identity() { return T(0); }
};
struct gprim_op_max {
  template <typename T> GPRIM_HD T operator()(const T &a, const T &b) const { return a < b ? b : a; }
  template <typename T> static GPRIM_HD T identity();
};
struct gprim_op_min {
  template <typename T> GPRIM_HD T operator()(const T &a, const T &b) const { return b < a ? b : a; }
  template <typename T> static GPRIM_HD T identity();
};
/* lowest / highest values for the types the primitives support
   (std::numeric_limits is not usable in device code without libcu++). */
template <typename T> struct gprim__limits;
template <> struct gprim__limits<uint32_t> { static GPRIM_HD uint32_t lowest() { return 0u; } static GPRIM_HD uint32_t highest() { return 0xffffffffu; } };
template <> struct gprim__limits<int32_t>  { static GPRIM_HD int32_t lowest() { return (int32_t)0x80000000u; } static GPRIM_HD int32_t highest() { return 0x7fffffff; } };
template <> struct gprim__limits<uint64_t> { static GPRIM_HD uint64_t lowest() { return 0ull; } static GPRIM_HD uint64_t highest() { return ~0ull; } };
template <> struct gprim__limits<int64_t>  { static GPRIM_HD int64_t lowest() { return (int64_t)0x8000000000000000ull; } static GPRIM_HD int64_t highest() { return 0x7fffffffffffffffll; } };
template <> struct gprim__limits<float>    { static GPRIM_HD float lowest() { return -__builtin_huge_valf(); } static GPRIM_HD float highest() { return __builtin_huge_valf(); } };
template <typename T> GPRIM_HD T gprim_op_max::identity() { return gprim__limits<T>::lowest(); }
template <typename T> GPRIM_HD T gprim_op_min::identity() { return gprim__limits<T>::highest(); }
#endif /* __cplusplus */

/* ---------------------------------------------------------------------------
   2. device code: common pieces
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)
#include <cuda_runtime.h>

/* Return the error of a runtime call from the enclosing function. */
#define GPRIM_TRY(call)                                                        \
  do {                                                                         \
    cudaError_t gprim__e = (call);                                             \
    if (gprim__e != cudaSuccess) return gprim__e;                              \
  } while (0)

/* Temp-storage carving: one user buffer split into `count` sub-buffers, each
   aligned to GPRIM_TEMP_ALIGN.
     sizes = {100, 4}   ->  bytes needed = 512, ptrs = {d_temp, d_temp + 256}
   With d_temp == NULL only *temp_bytes is written. Returns
   cudaErrorInvalidValue when d_temp is given but *temp_bytes is too small. */
static inline cudaError_t gprim__temp_carve(void *d_temp, size_t *temp_bytes, int count,
                                            const size_t *sizes, void **ptrs) {
  size_t total = 0;
  int i;
  if (temp_bytes == NULL) return cudaErrorInvalidValue;
  for (i = 0; i < count; ++i) total += gprim__align_up(sizes[i], GPRIM_TEMP_ALIGN);
  if (total == 0) total = GPRIM_TEMP_ALIGN; /* never ask for zero bytes */
  if (d_temp == NULL) {
    *temp_bytes = total;
    return cudaSuccess;
  }
  if (*temp_bytes < total) return cudaErrorInvalidValue;
  total = 0;
  for (i = 0; i < count; ++i) {
    ptrs[i] = (char *)d_temp + total;
    total += gprim__align_up(sizes[i], GPRIM_TEMP_ALIGN);
  }
  return cudaSuccess;
}

/* 1 when the runtime sees at least one CUDA device (clears the error the
   runtime leaves behind when there is no driver). */
static inline int gprim__device_present(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n > 0;
}

/* Number of multiprocessors of the current device (cached per device id). */
static inline int gprim__sm_count(void) {
  static int cached[64];
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 1;
  if (dev >= 0 && dev < 64 && cached[dev] > 0) return cached[dev];
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1) sms = 1;
  if (dev >= 0 && dev < 64) cached[dev] = sms;
  return sms;
}

#endif /* __CUDACC__ */

/* The primitives, one section each (kept in prim/ while they are written;
   amalgamate.py inlines them). */
#include "prim/scan.cuh"
#include "prim/radix_sort.cuh"
#include "prim/segmented_sort.cuh"
#include "prim/merge.cuh"

#endif /* GPRIM_CUH */
