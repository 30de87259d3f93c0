/* gpuamq.h - approximate membership queries on the GPU: quotient filters, a
   blocked Bloom filter and non-associative scans. Single-header CUDA C
   library, v0.5.0.

   Do this:
      #define GPUAMQ_IMPLEMENTATION
   before you include this file in *one* .cu file (nvcc: CUDA and host backends)
   or one .c file (a plain C compiler: the host backend only). Every other file,
   C or C++, includes gpuamq.h alone and links against that one.

      // gpuamq_impl.cu
      #define GPUAMQ_IMPLEMENTATION
      #include "gpuamq.h"

      nvcc -arch=native -c gpuamq_impl.cu      (or -arch=sm_90: sm_80 or newer)

   The device code needs sm_80 or newer; a device pass for an older
   architecture (nvcc's default with CUDA 13 is sm_75) stops with an #error that
   says so. Compiling the implementation takes tens of seconds. The source form
   needs gpuamq_kernels.cuh, gpuprim.cuh and prim/ beside this file;
   dist/gpuamq.h is the same library as one file. gpuprim.cuh holds the
   primitives both libraries are built on: internal, not part of this API.

   First use (any file, C or C++; AUTO runs CUDA when a GPU is present, else
   the host backend, with the same answers):

      gamq_qf *f = NULL;
      uint64_t keys[3] = {5, 9, 12};
      uint8_t found[3];
      if (gamq_qf_create(NULL, GAMQ_QF_RSQF, 20, 8, &f) == GAMQ_SUCCESS &&  // 2^20 slots, 8-bit remainders
          gamq_qf_build_u64(f, keys, 3) == GAMQ_SUCCESS &&
          gamq_qf_lookup_u64(f, keys, 3, found) == GAMQ_SUCCESS)
        printf("%d %d %d\n", found[0], found[1], found[2]);             // 1 1 1: no false negatives
      gamq_qf_destroy(f);

   What it does not do
     - store keys: a filter holds fingerprints; a lookup answers "maybe
       present" (false positives at about n / 2^(q+r)) or "absent", and
       extract returns fingerprints, not keys;
     - grow: q and r are fixed at create; an insert that does not fit returns
       GAMQ_ERROR_FULL and leaves the filter unchanged (rebuild a larger one);
     - hash strings or structs: keys are u32 or u64 (hash your own data first);
     - count per key, or delete from the Bloom filter;
     - lock: calls on one filter from several host threads at once must be
       ordered by the caller;
     - span GPUs: a filter lives on one device.

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
     5. non-associative scans   gamq_satsum_i32/i64, gamq_position_scan_u32/u64,
                                gamq_maxplus_i64 (each with a _sync device form)
     6. quotient filters        gamq_qf (SQF, RSQF): create / destroy, count,
                                build, lookup, insert, delete, merge, extract,
                                copy_bytes (each batch call with a _sync device form),
                                get_ref (gamq_qf_ref_contains in your own kernels),
                                save / load, sorted lookups, in-place inserts and deletes
     7. blocked Bloom filter    gamq_bloom: create (by eps or by shape) / destroy,
                                insert, lookup, clear, copy_bytes, gamq_bloom_fpr

   Conventions
     - Every function returns a gamq_status; results go out through pointers.
     - Desc structs: the zero value means "defaults".
     - The stream is the last argument of anything that launches work. Calls
       on device memory do not synchronise unless their name ends in _sync;
       the convenience calls on host arrays (no suffix) are synchronous.
     - Pointer names say where memory lives: d_keys (device), h_keys (host).

   The quotient filters and the non-associative scans follow Geil,
   Farach-Colton, Owens, "Quotient Filters: Approximate Membership Queries on
   the GPU" (IPDPS 2018).

   Version history
     0.1.0  2026-11-21  status codes, backends, allocator hook; the gpuprim
                        primitives; host references of the non-associative
                        scans (private).
     0.2.0  2026-11-21  non-associative scans: public API, four methods on CUDA
                        and HOST.
     0.3.0  2026-11-22  quotient filters (SQF, RSQF) on HOST and CUDA: builds,
                        lookups (unsorted, sorted, gamq_qf_ref in your kernels),
                        extracts, in-place inserts and deletes or rebuilds,
                        merges, save / load, deduplicated builds, an optional
                        PACKED RSQF layout (the paper's Table I memory); the
                        blocked Bloom filter (section 7).
     0.4.0  2026-11-24  a library to drop in: CMake targets gpuamq::gpuamq and
                        gpuclique::gpuclique (add_subdirectory, FetchContent,
                        find_package), an #error below sm_80, a LICENSE file;
                        gamq_qf_save replaces a file only once the new bytes
                        are written (a temporary beside it, then rename);
                        gamq_qf_load / deserialize check the header against
                        the bytes before allocating; HOST lookups run the
                        gamq_qf_ref walk the device uses.
     0.5.0  2026-11-27  no change to this library: the version follows
                        gpuclique.h's (one CMake package).

   License: MIT, at the end of this file. */
#ifndef GPUAMQ_H
#define GPUAMQ_H

#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------------------
   1. version, linkage, stream type
   ------------------------------------------------------------------------- */
#define GAMQ_VERSION_MAJOR 0
#define GAMQ_VERSION_MINOR 5
#define GAMQ_VERSION_PATCH 0
#define GAMQ_VERSION_STRING "0.5.0"

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
  X(GAMQ_ERROR_CUDA, -5, "a CUDA runtime call failed")                                     \
  X(GAMQ_ERROR_OVERFLOW, -6, "a result left the value range of the operation (the output is unspecified)") \
  X(GAMQ_ERROR_FULL, -7, "the filter has no room for the operation (it is unchanged)")                 \
  X(GAMQ_ERROR_NOT_IMPLEMENTED, -8, "this operation is not implemented on this backend yet (nothing changed)") \
  X(GAMQ_ERROR_IO, -9, "a file could not be opened, read or written")                                   \
  X(GAMQ_ERROR_BAD_FILE, -10, "not a gpuamq filter file, a newer format version, or corrupt (nothing was loaded)")

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

/* ---------------------------------------------------------------------------
   5. non-associative scans (section IV-C of Geil, Farach-Colton, Owens,
      "Quotient Filters: Approximate Membership Queries on the GPU", IPDPS
      2018: "the QF paper" below)

   THE RECURRENCE. Every operation here evaluates, for i = 0 .. n-1,

       x_i = max(x_{i-1} + a_i, b_i)                      (max-plus recurrence)

   with an optional initial value x_{-1} = init (none: x_0 = b_0) and optional
   segments: heads[i] != 0 restarts the recurrence at i from init (index 0
   always starts a segment). Three forms are offered:
     saturating sum   x_i = max(x_{i-1} + a_i, 0)     a given, b = 0, init 0 by default
     position scan    x_i = max(x_{i-1} + 1, v_i)     a = 1, b = v: the slots a
                      quotient filter's bulk build gives sorted quotients v
     max-plus         x_i = max(x_{i-1} + a_i, b_i)   both arrays given

   THE ASSOCIATIVE FORM. Each step is the map f_i(x) = max(x + a_i, b_i), and
   maps of this form compose into one of the same form:
       (a1, b1) then (a2, b2)  =  (a1 + a2, max(b1 + a2, b2)),
   so x_i = (f_0 then ... then f_i)(init) is an inclusive scan with an
   associative operator: one pass over the data (decoupled look-back). A head
   is the constant map f(x) = head value. For the position scan the scan
   collapses to a single prefix max: x_i = i + max(init + 1, max_{j<=i}(v_j - j)).

   METHODS (gamq_scan_method). All give identical results; they differ in
   speed and in how many rounds (kernel launches that depend on the last) they
   take, which gamq_scan_stats reports.
     ASSOCIATIVE (AUTO)   one fused pass. rounds = 1 on CUDA; the HOST backend
                          simulates a Hillis-Steele scan: ceil(log2 n) rounds.
     PARALLEL_MERGING     Alg. 4: segments of 1, 2, 4, ... elements merged
                          pairwise (each carrying its composed map); always
                          ceil(log2 n) rounds (on CUDA the first 10 inside one
                          launch), n log n work.
     SEQUENTIAL_SHIFTING  Alg. 5: runs (stretches where b_i <= b_{i-1} + a_i:
                          equal or consecutive quotients) are laid out alone,
                          then every run is pushed by its left neighbour, one
                          round at a time, until nothing moves. rounds = the
                          longest chain of runs pushing each other + 1.
     SEGMENTED_LAYOUTS    Alg. 6: segments of floor(log2 n) elements laid out
                          serially, each from its left neighbour's last value
                          of the previous round, until no last value changes.
                          rounds = the longest chain of segments + 1 or 2.
   The last two draw their parallelism from breaks in the chain (x_i = b_i,
   the left side did not matter). Without breaks they slow down: shifting
   needs one round per run (v = 0 0 0 2 2 2 4 4 4 ...: n/3 rounds; all v equal
   is one run: 1 round), layouts n / log2 n rounds. Rounds on sorted hashed
   quotients of 2^20 slots, no bound: fill 0.5: ~12 / 3, 0.9: ~260 / ~60,
   0.95: ~900 / ~200 (shifting / layouts). So they take an iteration bound
   (desc.max_rounds): when that many rounds still changed something they
   finish with ASSOCIATIVE and set stats.fell_back; the result is exact either way.

   VALUE RANGE AND OVERFLOW. Results are exact or an error, never wrapped:
     satsum_i32     x_i must fit int32 (x_i <= INT32_MAX);
     satsum_i64     every step x_{i-1} + a_i (init + a_i at a head) must fit int64;
     position u32   x_i <= UINT32_MAX;   position u64   x_i <= UINT64_MAX;
     maxplus_i64    every step x_{i-1} + a_i (init + a_i at a head) must fit
                    int64 (then every x_i does);
   otherwise the call returns GAMQ_ERROR_OVERFLOW; x is then unspecified
   (partly written), nothing else is touched. n is at most GAMQ_SCAN_MAX_N.

   TWO LEVELS. gamq_<op>_sync takes device arrays, temp storage and a stream;
   it synchronises that stream before it returns (it reads the overflow flag
   back, and the break-based methods read a flag per 8 rounds; the read-back
   costs about 10 us a call, which small arrays notice). d_temp == NULL:
   only *temp_bytes is written (it depends on n, the method and the backend).
   With the HOST backend its arrays are host memory. gamq_<op> takes host
   arrays and returns host results (device buffers from desc.allocator).
   Outputs must not overlap inputs. Bad arguments (NULL temp_bytes; NULL
   arrays with n > 0; n above GAMQ_SCAN_MAX_N; an unknown method or backend;
   too little temp storage) return GAMQ_ERROR_INVALID_ARGUMENT and touch
   nothing.
   ------------------------------------------------------------------------- */
typedef enum gamq_scan_method {
  GAMQ_SCAN_AUTO = 0,                /* ASSOCIATIVE (the default) */
  GAMQ_SCAN_ASSOCIATIVE = 1,         /* one scan over composed max-plus maps */
  GAMQ_SCAN_PARALLEL_MERGING = 2,    /* the QF paper, Alg. 4 */
  GAMQ_SCAN_SEQUENTIAL_SHIFTING = 3, /* the QF paper, Alg. 5 (bounded) */
  GAMQ_SCAN_SEGMENTED_LAYOUTS = 4    /* the QF paper, Alg. 6 (bounded) */
} gamq_scan_method;

#define GAMQ_SCAN_DEFAULT_MAX_ROUNDS 256
#define GAMQ_SCAN_MAX_N ((size_t)0x7fffffff) /* 2^31 - 1 elements */

/* Zero-initialise for the defaults: backend AUTO, method AUTO, bound
   GAMQ_SCAN_DEFAULT_MAX_ROUNDS, cudaMallocAsync. */
typedef struct gamq_scan_desc {
  gamq_backend backend;
  gamq_scan_method method;
  int max_rounds; /* SHIFTING / LAYOUTS: 0 the default bound, < 0 no bound */
  gamq_device_allocator allocator; /* the convenience calls' device buffers */
} gamq_scan_desc;

/* What ran: the resolved backend and method, rounds (see METHODS; for a
   fallback, the bound, the associative finish not counted), fell_back (1
   when the bound was hit). */
typedef struct gamq_scan_stats {
  gamq_backend backend;
  gamq_scan_method method;
  int rounds;
  int fell_back;
} gamq_scan_stats;

/* "auto", "associative", "parallel_merging", "sequential_shifting",
   "segmented_layouts", or "unknown". */
GAMQ_DEF const char *gamq_scan_method_name(gamq_scan_method method);

/* Saturating sum x_i = max(x_{i-1} + a_i, 0), x_{-1} = *init (NULL: 0).
     a = [3, -5, 2, -1, 4]                          ->  x = [3, 0, 2, 1, 5]
     a = [3, -5, 2, -1, 4], heads = [0,0,0,1,0], init = 10
                                                    ->  x = [13, 8, 10, 9, 13]
     a = [INT32_MAX, 1]                             ->  GAMQ_ERROR_OVERFLOW
   d_heads may be NULL (one segment); stats may be NULL. */
GAMQ_DEF gamq_status gamq_satsum_i32_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                          const int32_t *d_a, const uint8_t *d_heads, const int32_t *init,
                                          int32_t *d_x, size_t n, gamq_scan_stats *stats, gamq_stream stream);
/* The same on host arrays (synchronous). Example:
     gamq_scan_desc desc = {0};
     int32_t a[5] = {3, -5, 2, -1, 4}, x[5];
     gamq_satsum_i32(&desc, a, NULL, NULL, x, 5, NULL);       x = [3, 0, 2, 1, 5] */
GAMQ_DEF gamq_status gamq_satsum_i32(const gamq_scan_desc *desc, const int32_t *h_a, const uint8_t *h_heads,
                                     const int32_t *init, int32_t *h_x, size_t n, gamq_scan_stats *stats);

/* Saturating sum on int64: every step x_{i-1} + a_i must fit int64.
     a = [5, -7, 4], init = 2                       ->  x = [7, 0, 4]
     a = [INT64_MAX, INT64_MAX]                     ->  GAMQ_ERROR_OVERFLOW */
GAMQ_DEF gamq_status gamq_satsum_i64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                          const int64_t *d_a, const uint8_t *d_heads, const int64_t *init,
                                          int64_t *d_x, size_t n, gamq_scan_stats *stats, gamq_stream stream);
/* host arrays:  int64_t a[3] = {5, -7, 4}, init = 2, x[3];
                 gamq_satsum_i64(NULL, a, NULL, &init, x, 3, NULL);   x = [7, 0, 4] */
GAMQ_DEF gamq_status gamq_satsum_i64(const gamq_scan_desc *desc, const int64_t *h_a, const uint8_t *h_heads,
                                     const int64_t *init, int64_t *h_x, size_t n, gamq_scan_stats *stats);

/* Position scan x_i = max(x_{i-1} + 1, v_i): the slot of each of a sorted
   run of quotients under linear probing. init: the slot before the first
   (NULL: none, x_0 = v_0).
     v = [2, 2, 3, 7, 7]                            ->  x = [2, 3, 4, 7, 8]
     v = [2, 2, 3, 7, 7], init = 5                  ->  x = [6, 7, 8, 9, 10]
     v = [2, 2, 3, 7, 7], heads = [0,0,0,0,1], init = 5
                                                    ->  x = [6, 7, 8, 9, 7]
     v = [UINT32_MAX, UINT32_MAX]                   ->  GAMQ_ERROR_OVERFLOW
   Without heads ASSOCIATIVE is one fused prefix max (the bytes of a copy). */
GAMQ_DEF gamq_status gamq_position_scan_u32_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                                 const uint32_t *d_v, const uint8_t *d_heads, const uint32_t *init,
                                                 uint32_t *d_x, size_t n, gamq_scan_stats *stats,
                                                 gamq_stream stream);
/* host arrays:  uint32_t v[5] = {2, 2, 3, 7, 7}, x[5];
                 gamq_position_scan_u32(NULL, v, NULL, NULL, x, 5, NULL);   x = [2, 3, 4, 7, 8] */
GAMQ_DEF gamq_status gamq_position_scan_u32(const gamq_scan_desc *desc, const uint32_t *h_v, const uint8_t *h_heads,
                                            const uint32_t *init, uint32_t *h_x, size_t n, gamq_scan_stats *stats);

/* Position scan on uint64 (the whole uint64 range).
     v = [10, 10, 10, 11]                           ->  x = [10, 11, 12, 13]
     v = [UINT64_MAX - 1, 0]                        ->  x = [UINT64_MAX - 1, UINT64_MAX] */
GAMQ_DEF gamq_status gamq_position_scan_u64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                                 const uint64_t *d_v, const uint8_t *d_heads, const uint64_t *init,
                                                 uint64_t *d_x, size_t n, gamq_scan_stats *stats,
                                                 gamq_stream stream);
/* host arrays:  uint64_t v[4] = {10, 10, 10, 11}, x[4];
                 gamq_position_scan_u64(NULL, v, NULL, NULL, x, 4, NULL);   x = [10, 11, 12, 13] */
GAMQ_DEF gamq_status gamq_position_scan_u64(const gamq_scan_desc *desc, const uint64_t *h_v, const uint8_t *h_heads,
                                            const uint64_t *init, uint64_t *h_x, size_t n, gamq_scan_stats *stats);

/* General max-plus recurrence x_i = max(x_{i-1} + a_i, b_i) on int64; init
   NULL: none (x_0 = b_0, and each head restarts at its b).
     a = [0, 2, -3, 1], b = [1, 0, 5, 0]            ->  x = [1, 3, 5, 6]
     same, init = 10                                ->  x = [10, 12, 9, 10]
     a = [0, -10], b = [INT64_MIN + 5, 0]           ->  GAMQ_ERROR_OVERFLOW (a step below INT64_MIN) */
GAMQ_DEF gamq_status gamq_maxplus_i64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                           const int64_t *d_a, const int64_t *d_b, const uint8_t *d_heads,
                                           const int64_t *init, int64_t *d_x, size_t n, gamq_scan_stats *stats,
                                           gamq_stream stream);
/* host arrays:  int64_t a[4] = {0, 2, -3, 1}, b[4] = {1, 0, 5, 0}, x[4];
                 gamq_maxplus_i64(NULL, a, b, NULL, NULL, x, 4, NULL);   x = [1, 3, 5, 6] */
GAMQ_DEF gamq_status gamq_maxplus_i64(const gamq_scan_desc *desc, const int64_t *h_a, const int64_t *h_b,
                                      const uint8_t *h_heads, const int64_t *init, int64_t *h_x, size_t n,
                                      gamq_scan_stats *stats);

/* ---------------------------------------------------------------------------
   6. quotient filters (the QF paper, sections III-V)

   A quotient filter answers "is key k in the set?" with no false negatives
   and a small, tunable false-positive rate. This section has the standard
   (SQF) and the rank-and-select (RSQF) filter on two backends. The
   operations, on both backends unless noted: create / destroy, count, load
   factor, info, bulk build, batch lookup, batch insert, batch delete, merge,
   extract (sorted fingerprints), copy of the raw bytes, save / load, a
   device view for your kernels (gamq_qf_ref). On CUDA, a small batch insert
   or delete runs in place (SQF: supercluster bidding, the QF paper IV-B, IV-D;
   RSQF: window re-layout, each stretch of slots the batch touches rewritten
   in one pass; growing regions, V-B, are there too), a large one and every
   merge as extract + merge + rebuild on the device; the bytes and statuses
   are the same either way.

   HASH AND FINGERPRINTS. A key (32-bit keys are zero-extended, so the u32
   key 7 and the u64 key 7 are the same key) becomes the 64-bit hash
       h = mix(key ^ seed),  mix(z) = splitmix64's finaliser of z + 0x9e3779b97f4a7c15
   (z ^= z >> 30, z *= 0xbf58476d1ce4e5b9, z ^= z >> 27, z *= 0x94d049bb133111eb,
   z ^= z >> 31), and its fingerprint is the top p = q + r bits of h: the
   high q bits are the quotient (the home slot), the low r bits the remainder.
   gamq_qf_fingerprint computes it.

   KINDS AND SIZES (q from 1 to 32 for both; nslots = 2^q + 10 isqrt(2^q),
   rounded up to a multiple of 64: slack for runs pushed past the last home slot)
     SQF    r = 5, 13, 21 or 29; nslots slots of (r + 3) / 8 bytes (1, 2, 3, 4): the
            remainder and three metadata bits (the QF paper, III-A).
     RSQF   r = 1 .. 32; nslots / 64 blocks of 64 slots (occupieds, runends,
            an offset, the remainders packed; the QF paper, III-B), in one of two
            layouts (desc.layout, gamq_qf_layout below):
            ALIGNED (the default): blocks of round_up(24 + 8r, 64) bytes, the
              offset inside the block. A lookup whose run is in its block
              reads one aligned 64-byte line (r <= 5) or 128-byte region
              (r <= 13). Bytes a slot: 1 (r <= 5), 2 (r <= 13), 3, 4, 5.
            PACKED: blocks of 16 + 8r bytes, the offsets in a byte array
              after the blocks: (17 + 8r) / 64 bytes a slot, the memory of
              the QF paper, Table I (at 95% fill 0.94, 1.99, 3.04 bytes an item
              for r = 5, 13, 21), but a block may span two 64-byte lines and
              the offset is a second read.
   False-positive rate with n distinct keys stored: about n / 2^(q + r)
   (= load factor * 2^-r).

   ONE LAYOUT PER MULTISET. A filter's bytes are a function of the multiset
   of fingerprints it holds: however it got there (bulk build, inserts in any
   order, deletes, merges, either backend), the same multiset gives the same
   bytes. gamq_qf_copy_bytes exposes them, so backends compare byte for byte.

   MULTISET SEMANTICS. Inserting a key k times stores k copies; a delete
   removes one copy; a key inserted twice and deleted once is still present.
   Deleting a key never inserted may remove a colliding key's fingerprint
   (any filter does that): delete only keys you inserted.

   FULL. An operation that would need a slot at or past nslots returns
   GAMQ_ERROR_FULL and leaves the filter byte for byte as it was (build,
   insert, merge: all or nothing). There is no load-factor cap: uniform keys
   fill to 100% of the home slots and somewhat past before FULL.

   TWO LEVELS, as in section 5. gamq_qf_<op>_<key>_sync takes arrays where
   the filter lives (device memory for a CUDA filter, host memory for a HOST
   filter) and a stream, and synchronises that stream before it returns.
   gamq_qf_<op>_<key> takes host arrays for either kind of filter
   (synchronous; device buffers come from the filter's allocator). Temporary
   memory comes from the filter's allocator (CUDA) or GAMQ_MALLOC (HOST).

   ERRORS. NULL filter or array (with n > 0), n above GAMQ_QF_MAX_BATCH,
   filters of different shapes: GAMQ_ERROR_INVALID_ARGUMENT. A failed
   allocation: GAMQ_ERROR_OUT_OF_MEMORY. Both leave the filter unchanged. A
   CUDA error (GAMQ_ERROR_CUDA) may leave a CUDA filter unspecified.
   GAMQ_ERROR_NOT_IMPLEMENTED: on CUDA, a rebuild whose filter would hold more
   than GAMQ_QF_MAX_BATCH fingerprints (the device sort and scan take at most
   that many; only q >= 31 filters get there). Nothing changes then either.
   ------------------------------------------------------------------------- */
typedef enum gamq_qf_kind {
  GAMQ_QF_SQF = 1, /* standard quotient filter: r + 3 bits per slot, r = 5, 13, 21, 29 */
  GAMQ_QF_RSQF = 2 /* rank-and-select quotient filter: 64-slot blocks, r = 1 .. 32 */
} gamq_qf_kind;

/* How an RSQF lays out its blocks (KINDS AND SIZES): chosen at creation,
   kept by save / load, equal layouts required by merge. An SQF has one
   layout: ALIGNED (PACKED is GAMQ_ERROR_INVALID_ARGUMENT). */
typedef enum gamq_qf_layout {
  GAMQ_QF_LAYOUT_ALIGNED = 0, /* blocks padded to 64-byte multiples: one aligned region per lookup */
  GAMQ_QF_LAYOUT_PACKED = 1   /* no padding: (17 + 8r) / 64 bytes a slot (QF paper Table I) */
} gamq_qf_layout;

#define GAMQ_QF_MAX_BATCH ((size_t)0x7fffffff) /* 2^31 - 1 keys per call */

/* A filter (opaque): made by gamq_qf_create, freed by gamq_qf_destroy. With
   the default allocator a CUDA filter keeps the temporaries of its in-place
   inserts and deletes between calls (one block, at most a quarter of the
   filter's size + 1 MiB; larger batches allocate per call), so that a loop
   of batches does not pay the memory pool's allocations each time; it is
   freed with the filter. A user allocator is called per call instead. */
typedef struct gamq_qf gamq_qf;

/* Zero-initialise for the defaults: backend AUTO (CUDA when a device is
   present), seed 0, build method AUTO (the associative position scan),
   cudaMallocAsync, no deduplication, the ALIGNED layout. */
typedef struct gamq_qf_desc {
  gamq_backend backend;
  uint64_t seed;                   /* the hash seed; filters merge only with the same seed */
  gamq_scan_method build_method;   /* how builds and rebuilds lay out the slots (section 5) */
  gamq_device_allocator allocator; /* the filter's device memory and every call's temporaries */
  int dedup_build;                 /* nonzero: a bulk build stores each distinct fingerprint
                                      once (the QF paper, VI-b; see gamq_qf_build) */
  int build_by_inserts;            /* nonzero: builds insert the keys into an empty filter in place
                                      (the QF paper's fourth method, IV-C) instead of laying them out by
                                      build_method; same bytes, same FULL rule */
  gamq_qf_layout layout;           /* RSQF: ALIGNED (0, the default) or PACKED; SQF: ALIGNED only */
} gamq_qf_desc;

/* What a filter is: gamq_qf_get_info fills it. */
typedef struct gamq_qf_info {
  gamq_qf_kind kind;
  int q, r;
  uint64_t seed;
  gamq_backend backend; /* resolved: CUDA or HOST */
  uint64_t nslots;      /* slots, home slots 0 .. 2^q - 1 first */
  size_t bytes;         /* size of the filter's bytes (gamq_qf_copy_bytes) */
  uint64_t count;       /* fingerprints stored, copies counted */
  gamq_qf_layout layout; /* ALIGNED, or PACKED (an RSQF created so) */
} gamq_qf_info;

/* An empty filter. q in 1 .. 32; SQF r in {5, 13, 21, 29}; RSQF r in 1 .. 32.
     gamq_qf *f = NULL;
     gamq_qf_create(NULL, GAMQ_QF_RSQF, 20, 8, &f);   f: 2^20 home slots, 8-bit remainders
     gamq_qf_create(NULL, GAMQ_QF_SQF, 20, 8, &f);    GAMQ_ERROR_INVALID_ARGUMENT (SQF r), f untouched
     gamq_qf_desc d = {0};  d.layout = GAMQ_QF_LAYOUT_PACKED;
     gamq_qf_create(&d, GAMQ_QF_RSQF, 20, 5, &f);     PACKED: 16544 blocks of 56 bytes, then 16544
                                                      offset bytes: 943 008 bytes (ALIGNED: 1 058 816)
     gamq_qf_create(&d, GAMQ_QF_SQF, 20, 5, &f);      GAMQ_ERROR_INVALID_ARGUMENT (SQF is never PACKED)
   desc may be NULL (defaults). *filter is written only on success. A CUDA
   filter's memory is allocated and zeroed on the default stream, which is
   synchronised. */
GAMQ_DEF gamq_status gamq_qf_create(const gamq_qf_desc *desc, gamq_qf_kind kind, int q, int r, gamq_qf **filter);
/* Frees the filter (NULL: nothing). A CUDA filter's memory is freed on the
   default stream, which is synchronised. */
GAMQ_DEF gamq_status gamq_qf_destroy(gamq_qf *filter);

/* Fingerprints stored (copies counted); load factor = count / 2^q (may pass
   1 slightly: the slack holds items too).
     after building from keys [1, 2, 2, 3] with q = 4:   count 4, load factor 0.25 */
GAMQ_DEF gamq_status gamq_qf_count(const gamq_qf *filter, uint64_t *count);
GAMQ_DEF gamq_status gamq_qf_load_factor(const gamq_qf *filter, double *load_factor);
GAMQ_DEF gamq_status gamq_qf_get_info(const gamq_qf *filter, gamq_qf_info *info);
/* The fingerprint of one key under the filter's q, r and seed.
     q = 4, r = 5, seed 0, key 0:  h = 0xe220a8397b1dcdaf, fp = h >> 55 = 0x1c4
                                   (quotient 0xe, remainder 0x4) */
GAMQ_DEF gamq_status gamq_qf_fingerprint(const gamq_qf *filter, uint64_t key, uint64_t *fingerprint);

/* Bulk build: the filter becomes exactly the multiset of the n keys
   (replacing what it held); any order, repeats stored as copies. The QF
   paper, IV-C: hash, sort the fingerprints, position scan of the quotients
   (desc.build_method), write slots and metadata. FULL: unchanged.
     gamq_qf_create(NULL, GAMQ_QF_RSQF, 10, 8, &f);
     uint64_t keys[4] = {5, 9, 9, 12};
     gamq_qf_build_u64(f, keys, 4);            count 4 (9 stored twice)
     gamq_qf_build_u64(f, NULL, 0);            count 0: the filter is emptied
   DEDUPLICATION (desc.dedup_build != 0, off by default; the QF paper, VI-b): the
   build keeps one copy of each distinct fingerprint, so count = the number
   of distinct fingerprints (keys that collide count once), and FULL is
   judged on what is kept. Same bytes on both backends. Only the bulk build
   deduplicates: insert, delete and merge keep multiset semantics.
     same keys {5, 9, 9, 12}, dedup_build = 1:  count 3 (9 stored once) */
GAMQ_DEF gamq_status gamq_qf_build_u32_sync(gamq_qf *filter, const uint32_t *d_keys, size_t n, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_build_u64_sync(gamq_qf *filter, const uint64_t *d_keys, size_t n, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_build_u32(gamq_qf *filter, const uint32_t *h_keys, size_t n);
GAMQ_DEF gamq_status gamq_qf_build_u64(gamq_qf *filter, const uint64_t *h_keys, size_t n);

/* Batch lookup: found[i] = 1 if keys[i] may be in the filter, 0 if it
   certainly is not. Keys in any order; the filter is not changed.
     after the build above:
     uint64_t q[4] = {9, 5, 7, 12};  uint8_t found[4];
     gamq_qf_lookup_u64(f, q, 4, found);       found = [1, 1, 0, 1]
                                               (7: 0, or 1 with probability ~ 4 / 2^18) */
GAMQ_DEF gamq_status gamq_qf_lookup_u32_sync(const gamq_qf *filter, const uint32_t *d_keys, size_t n,
                                             uint8_t *d_found, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_lookup_u64_sync(const gamq_qf *filter, const uint64_t *d_keys, size_t n,
                                             uint8_t *d_found, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_lookup_u32(const gamq_qf *filter, const uint32_t *h_keys, size_t n, uint8_t *h_found);
GAMQ_DEF gamq_status gamq_qf_lookup_u64(const gamq_qf *filter, const uint64_t *h_keys, size_t n, uint8_t *h_found);
/* The same answers, looked up in fingerprint order: the batch's fingerprints
   are sorted (with their positions) first, so neighbouring threads read
   neighbouring slots, and each answer goes back to its key's position. It
   costs a sort of the batch and temporaries of 12 bytes per key; it pays
   where lookups are long walks (a full SQF). HOST: the plain lookup. */
GAMQ_DEF gamq_status gamq_qf_lookup_sorted_u32_sync(const gamq_qf *filter, const uint32_t *d_keys, size_t n,
                                                    uint8_t *d_found, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_lookup_sorted_u64_sync(const gamq_qf *filter, const uint64_t *d_keys, size_t n,
                                                    uint8_t *d_found, gamq_stream stream);

/* A filter for your own kernels: a plain struct passed by value, with
   lookups (below: __host__ __device__ under nvcc, plain C elsewhere; the
   HOST backend's lookups run the same walk). gamq_qf_get_ref fills it for a
   CUDA filter (a HOST filter:
   GAMQ_ERROR_INVALID_ARGUMENT). It points at the filter's device memory: it
   stays valid until the next call that changes or destroys the filter, and
   kernels that use it must not run concurrently with such a call.
     gamq_qf_ref ref;  gamq_qf_get_ref(f, &ref);
     __global__ void k(gamq_qf_ref ref, const uint64_t *keys, int *hits) {
       if (gamq_qf_ref_contains(&ref, keys[threadIdx.x])) atomicAdd(hits, 1);
     } */
typedef struct gamq_qf_ref {
  int kind, q, r;       /* gamq_qf_kind, quotient and remainder bits */
  int layout;           /* gamq_qf_layout (RSQF: ALIGNED or PACKED) */
  uint64_t seed;
  uint64_t nslots;
  const uint8_t *data;  /* device memory: the layouts of KINDS AND SIZES */
} gamq_qf_ref;
GAMQ_DEF gamq_status gamq_qf_get_ref(const gamq_qf *filter, gamq_qf_ref *ref);

/* The lookup walk: the CUDA backend's lookup kernels and the HOST backend's
   lookups both run gamq_qf_ref_contains_fp, so the two answer alike by
   construction. Compiled by nvcc these are __host__ __device__ (word loads
   and popcounts on the device); by a C or C++ compiler, plain static inline
   C that reads the bytes one by one. The ref's data must be memory the
   caller can read: device memory in a kernel. */
#if defined(__CUDACC__)
#define GAMQ__REF static __host__ __device__ __forceinline__
#else
#define GAMQ__REF static inline
#endif
/* splitmix64's finaliser of (key ^ seed) + 0x9e3779b97f4a7c15 (section 6's HASH) */
GAMQ__REF uint64_t gamq__qf_hash64(uint64_t key, uint64_t seed) {
  uint64_t z = (key ^ seed) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* The top q + r bits of the hash: quotient (high q) then remainder (low r). */
GAMQ__REF uint64_t gamq__qf_fingerprint_of(uint64_t key, uint64_t seed, int q, int r) {
  const int p = q + r;
  const uint64_t h = gamq__qf_hash64(key, seed);
  return p >= 64 ? h : h >> (64 - p);
}
GAMQ__REF int gamq__popcount32(uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
#endif
}
GAMQ__REF int gamq__popcount64(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#else
  return gamq__popcount32((uint32_t)x) + gamq__popcount32((uint32_t)(x >> 32));
#endif
}
/* index of the k-th (0-based) set bit of x; x has more than k set bits */
GAMQ__REF int gamq__ref_select64(uint64_t x, int k) {
  int base = 0, c;
  uint32_t v = (uint32_t)x;
  c = gamq__popcount32(v);
  if (k >= c) k -= c, v = (uint32_t)(x >> 32), base = 32;
  c = gamq__popcount32(v & 0xffffu);
  if (k >= c) k -= c, v >>= 16, base += 16;
  c = gamq__popcount32(v & 0xffu);
  if (k >= c) k -= c, v >>= 8, base += 8;
  c = gamq__popcount32(v & 0xfu);
  if (k >= c) k -= c, v >>= 4, base += 4;
  c = gamq__popcount32(v & 0x3u);
  if (k >= c) k -= c, v >>= 2, base += 2;
  return base + (k >= (int)(v & 1u));
}
/* word i of little-endian 8-byte words at w: one load on the device, byte
   by byte on the host (whatever its byte order) */
GAMQ__REF uint64_t gamq__ref_word(const uint64_t *w, uint64_t i) {
#if defined(__CUDA_ARCH__)
  return w[i];
#else
  const uint8_t *p = (const uint8_t *)(w + i);
  return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
         (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
#endif
}
/* RSQF block b as 8-byte words (both layouts keep them 8-byte aligned):
   0 occupieds, 1 runends, then ALIGNED: 2 the offset (low byte), 3.. the
   remainders; PACKED: 2.. the remainders, the offset in the byte array
   after the blocks. */
GAMQ__REF uint64_t gamq__ref_rsqf_stride(const gamq_qf_ref *f) {
  return f->layout == GAMQ_QF_LAYOUT_PACKED ? (uint64_t)(16 + 8 * f->r) : (uint64_t)((24 + 8 * f->r + 63) / 64 * 64);
}
GAMQ__REF const uint64_t *gamq__ref_rsqf_words(const gamq_qf_ref *f, uint64_t b) {
  return (const uint64_t *)(f->data + b * gamq__ref_rsqf_stride(f));
}
/* the first remainder word of block words w: w + 3 (ALIGNED), w + 2 (PACKED) */
GAMQ__REF const uint64_t *gamq__ref_rsqf_rem_words(const uint64_t *w, int packed) {
  return w + (packed ? 2 : 3);
}
/* the stored offset (0 .. 255) of block b whose words are w */
GAMQ__REF uint64_t gamq__ref_rsqf_stored_offset(const gamq_qf_ref *f, const uint64_t *w, uint64_t b) {
  if (f->layout == GAMQ_QF_LAYOUT_PACKED) return f->data[f->nslots / 64 * gamq__ref_rsqf_stride(f) + b];
  return gamq__ref_word(w, 2) & 0xff;
}
/* the remainder in slot i (0..63) of a block whose remainder words are rw
   (gamq__ref_rsqf_rem_words; the extract kernel uses it too) */
GAMQ__REF uint64_t gamq__ref_rsqf_word_rem(const uint64_t *rw, int r, uint64_t i) {
  const uint64_t bit = i * (uint64_t)r;
  const int sh = (int)(bit & 63);
  uint64_t v = gamq__ref_word(rw, bit / 64) >> sh;
  if (sh + r > 64) v |= gamq__ref_word(rw, bit / 64 + 1) << (64 - sh);
  return v & (((uint64_t)1 << r) - 1);
}
GAMQ__REF uint64_t gamq__ref_rsqf_rem(const gamq_qf_ref *f, uint64_t s) {
  return gamq__ref_rsqf_word_rem(gamq__ref_rsqf_rem_words(gamq__ref_rsqf_words(f, s >> 6),
                                                          f->layout == GAMQ_QF_LAYOUT_PACKED),
                                 f->r, s & 63);
}
GAMQ__REF uint64_t gamq__ref_rsqf_runends(const gamq_qf_ref *f, uint64_t b) {
  return gamq__ref_word(gamq__ref_rsqf_words(f, b), 1);
}
/* slot of the d-th (d >= 1) runend at or after slot pos */
GAMQ__REF uint64_t gamq__ref_rsqf_select(const gamq_qf_ref *f, uint64_t pos, uint64_t d) {
  while (pos < f->nslots) {
    const uint64_t b = pos >> 6, e = gamq__ref_rsqf_runends(f, b) & (~(uint64_t)0 << (pos & 63));
    const uint64_t c = (uint64_t)gamq__popcount64(e);
    if (c >= d) return b * 64 + (uint64_t)gamq__ref_select64(e, (int)(d - 1));
    d -= c;
    pos = (b + 1) * 64;
  }
  return f->nslots;
}
/* The true offset O_b of block b: the slots of block b that the runs of
   quotients below 64b spill into. A stored 255 means "255 or more": rebuild
   it from the last block before with a smaller one (block 0's is 0). */
#if defined(__CUDACC__)
static __host__ __device__ uint64_t gamq__ref_rsqf_offset(const gamq_qf_ref *f, uint64_t b) {
#else
static inline uint64_t gamq__ref_rsqf_offset(const gamq_qf_ref *f, uint64_t b) {
#endif
  uint64_t a = b, off;
  while (a > 0 && gamq__ref_rsqf_stored_offset(f, gamq__ref_rsqf_words(f, a), a) == 255) --a;
  off = gamq__ref_rsqf_stored_offset(f, gamq__ref_rsqf_words(f, a), a);
  for (++a; a <= b; ++a) { /* the runs of quotients below 64a end where those <= 64a - 1 do */
    const uint64_t occ = gamq__ref_word(gamq__ref_rsqf_words(f, a - 1), 0), lo = (a - 1) * 64;
    const uint64_t end = occ ? gamq__ref_rsqf_select(f, lo + off, (uint64_t)gamq__popcount64(occ)) + 1 : lo + off;
    off = end > a * 64 ? end - a * 64 : 0;
  }
  return off;
}
/* RSQF (the quotient filter paper's Alg. 2): rank the home bit, select its
   runend, scan the run backwards (remainders ascend towards the runend). */
GAMQ__REF int gamq__ref_rsqf_contains(const gamq_qf_ref *f, uint64_t fq, uint64_t fr) {
  const uint64_t b = fq >> 6, i = fq & 63;
  const uint64_t *w = gamq__ref_rsqf_words(f, b);
  const uint64_t occ = gamq__ref_word(w, 0);
  uint64_t off, s, v;
  if (!((occ >> i) & 1)) return 0;
  off = gamq__ref_rsqf_stored_offset(f, w, b);
  if (off == 255) off = gamq__ref_rsqf_offset(f, b);
  s = gamq__ref_rsqf_select(f, b * 64 + off, (uint64_t)gamq__popcount64(occ & (~(uint64_t)0 >> (63 - i))));
  for (;;) { /* the run ends at s; remainders ascend towards it */
    v = gamq__ref_rsqf_rem(f, s);
    if (v == fr) return 1;
    if (v < fr || s == fq) return 0;
    --s;
    if ((gamq__ref_rsqf_runends(f, s >> 6) >> (s & 63)) & 1) return 0; /* the run before */
  }
}
/* SQF slot s: r + 3 bits in (r + 3) / 8 little-endian bytes */
GAMQ__REF uint32_t gamq__ref_sqf_slot(const gamq_qf_ref *f, uint64_t s) {
#if defined(__CUDA_ARCH__)
  if (f->r == 21) { /* 3-byte slots */
    const uint8_t *p = f->data + 3 * s;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
  }
  return f->r == 5 ? f->data[s] : f->r == 13 ? ((const uint16_t *)f->data)[s] : ((const uint32_t *)f->data)[s];
#else
  const int sb = (f->r + 3) / 8;
  const uint8_t *p = f->data + s * (uint64_t)sb;
  uint32_t v = 0;
  int i;
  for (i = sb - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
#endif
}
/* SQF (Alg. 1): from the cluster's start, skip a run for each occupied
   quotient before fq, then scan fq's run (remainders ascend). */
GAMQ__REF int gamq__ref_sqf_contains(const gamq_qf_ref *f, uint64_t fq, uint64_t fr) {
  uint64_t b = fq, s, x;
  uint32_t v = gamq__ref_sqf_slot(f, fq);
  if (!(v & 1u)) return 0;                       /* not occupied */
  while (v & 4u) v = gamq__ref_sqf_slot(f, --b); /* shifted: walk to the cluster's start */
  s = b, x = b;
  while (x != fq) { /* skip the run of quotient x, then find the next occupied quotient */
    do ++s;
    while (s < f->nslots && (gamq__ref_sqf_slot(f, s) & 2u));
    do ++x;
    while (x < fq && !(gamq__ref_sqf_slot(f, x) & 1u));
  }
  for (;;) { /* the run of fq starts at s; remainders ascend */
    const uint64_t rem = gamq__ref_sqf_slot(f, s) >> 3;
    if (rem == fr) return 1;
    if (rem > fr || ++s >= f->nslots || !(gamq__ref_sqf_slot(f, s) & 2u)) return 0;
  }
}
/* the fingerprint of a key (a 32-bit key: pass it zero-extended) */
GAMQ__REF uint64_t gamq_qf_ref_fingerprint(const gamq_qf_ref *f, uint64_t key) {
  return gamq__qf_fingerprint_of(key, f->seed, f->q, f->r);
}
/* 1 if the fingerprint fp may be in the filter, 0 if it certainly is not */
GAMQ__REF int gamq_qf_ref_contains_fp(const gamq_qf_ref *f, uint64_t fp) {
  const uint64_t fq = fp >> f->r, fr = fp & (((uint64_t)1 << f->r) - 1);
  return f->kind == GAMQ_QF_SQF ? gamq__ref_sqf_contains(f, fq, fr) : gamq__ref_rsqf_contains(f, fq, fr);
}
/* 1 if key may be in the filter, 0 if it certainly is not */
GAMQ__REF int gamq_qf_ref_contains(const gamq_qf_ref *f, uint64_t key) {
  return gamq_qf_ref_contains_fp(f, gamq_qf_ref_fingerprint(f, key));
}

/* Batch insert, all or nothing: every key goes in (a copy per occurrence),
   or the call returns GAMQ_ERROR_FULL / OUT_OF_MEMORY and the filter is
   byte for byte as it was. Both backends insert in place when the batch is
   small (n < count / 4), else extract, merge and rebuild; same bytes either
   way. In place on CUDA the batch is hashed and sorted, then an SQF
   takes it in rounds of supercluster bidding (the QF paper, IV-B: each
   stretch of slots ending at an empty one takes one key a round; a FULL
   batch is deleted again; after a few dozen rounds the rest is merged in
   by a rebuild), an RSQF by window re-layout: each
   stretch of used slots a key lands in (with the stretches its growth
   reaches) is one window, one thread merges the window's stored
   fingerprints with its keys and writes the new layout, and FULL is known
   before anything is written.
     filter {5, 9, 9, 12};  uint64_t more[3] = {9, 40, 41};
     gamq_qf_insert_u64(f, more, 3);           count 7: {5, 9, 9, 9, 12, 40, 41} */
GAMQ_DEF gamq_status gamq_qf_insert_u32_sync(gamq_qf *filter, const uint32_t *d_keys, size_t n, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_insert_u64_sync(gamq_qf *filter, const uint64_t *d_keys, size_t n, gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_insert_u32(gamq_qf *filter, const uint32_t *h_keys, size_t n);
GAMQ_DEF gamq_status gamq_qf_insert_u64(gamq_qf *filter, const uint64_t *h_keys, size_t n);

/* Batch delete: one copy per listed key whose fingerprint is stored; keys
   not stored are skipped. *deleted (host pointer, may be NULL) gets the
   number of copies removed. Never FULL. In place for small batches (SQF:
   supercluster deletes, the QF paper IV-D; RSQF: one thread per touched
   stretch of slots rewrites it without the deleted copies),
   else by a rebuild without them; same bytes either way.
     filter {5, 9, 9, 9, 12, 40, 41};  uint64_t gone[4] = {9, 9, 12, 77};
     gamq_qf_delete_u64(f, gone, 4, &d);      d = 3, filter {5, 9, 40, 41}: 9 still present
                                               (77: skipped, unless it collides with a stored key) */
GAMQ_DEF gamq_status gamq_qf_delete_u32_sync(gamq_qf *filter, const uint32_t *d_keys, size_t n, uint64_t *deleted,
                                             gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_delete_u64_sync(gamq_qf *filter, const uint64_t *d_keys, size_t n, uint64_t *deleted,
                                             gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_delete_u32(gamq_qf *filter, const uint32_t *h_keys, size_t n, uint64_t *deleted);
GAMQ_DEF gamq_status gamq_qf_delete_u64(gamq_qf *filter, const uint64_t *h_keys, size_t n, uint64_t *deleted);

/* Merge, the QF paper IV-E: out = a + b (multiset sum) by extract, merge path,
   rebuild. All three must have the same kind, q, r, seed, layout and backend
   (else GAMQ_ERROR_INVALID_ARGUMENT); out may be a or b (or both).
   FULL: out unchanged.
     a {1, 2}, b {2, 3}:  gamq_qf_merge_sync(a, a, b, NULL);   a = {1, 2, 2, 3}, b unchanged */
GAMQ_DEF gamq_status gamq_qf_merge_sync(gamq_qf *out, const gamq_qf *a, const gamq_qf *b, gamq_stream stream);

/* Extract every stored fingerprint, ascending, copies repeated (the QF paper,
   IV-E). fps needs room for count fingerprints: capacity below the count is
   GAMQ_ERROR_INVALID_ARGUMENT (gamq_qf_count first). *written (may be NULL)
   gets the count.
     q = 4, r = 5, keys {0, 0}:   fps = [0x1c4, 0x1c4] (see gamq_qf_fingerprint) */
GAMQ_DEF gamq_status gamq_qf_extract_sync(const gamq_qf *filter, uint64_t *d_fps, size_t capacity, size_t *written,
                                          gamq_stream stream);
GAMQ_DEF gamq_status gamq_qf_extract(const gamq_qf *filter, uint64_t *h_fps, size_t capacity, size_t *written);

/* The filter's raw bytes (the layouts of KINDS AND SIZES), into host memory.
   h_out == NULL: *bytes gets the size; else *bytes must be at least the size
   and gets it. Two filters with equal bytes hold the same multiset.
     size_t n = 0;  gamq_qf_copy_bytes(f, NULL, &n);
     uint8_t *b = malloc(n);  gamq_qf_copy_bytes(f, b, &n); */
GAMQ_DEF gamq_status gamq_qf_copy_bytes(const gamq_qf *filter, void *h_out, size_t *bytes);

/* Save / load. A filter file (or buffer) is a 72-byte header, then the
   filter's bytes exactly as gamq_qf_copy_bytes gives them (the same for HOST
   and CUDA). Every integer is little-endian, written byte by byte, so files
   move between machines and backends.

   FILE FORMAT, version 1
     offset  size  field
        0     8    magic 89 47 41 4d 51 46 0d 0a ("\x89GAMQF\r\n": the high byte
                   catches 7-bit transfers, \r\n text-mode line-end changes)
        8     4    format version (1; a reader rejects newer versions)
       12     4    header size in bytes (72)
       16     4    kind (1 SQF, 2 RSQF)
       20     4    q
       24     4    r
       28     4    flags: bit 0 set = an RSQF in the PACKED layout (gamq_qf_layout);
                   the other bits 0 (reserved). Files written before layouts
                   existed have 0 here and load as ALIGNED.
       32     8    seed
       40     8    count (fingerprints stored, copies counted)
       48     8    nslots
       56     8    payload size in bytes (gamq_qf_get_info's bytes)
       64     8    checksum: 64-bit FNV-1a (offset basis 0xcbf29ce484222325,
                   prime 0x100000001b3, h = (h ^ byte) * prime) over header
                   bytes 0..63 and then the payload
       72     ...  payload
   A reader checks, in order: the magic; the version; the header size; kind,
   q and r valid, no flag but bit 0 and that only on an RSQF, nslots and
   payload size what gamq_qf_create(kind, q, r) in that layout gives, count
   <= nslots; the length (nothing missing, nothing after
   the payload); the checksum; and then the structure: the payload must be
   exactly the filter that holds its fingerprints (walked without trusting
   any of it, rebuilt on the host and compared byte for byte), and hold
   count of them. That last step takes temporary host memory of about the
   filter's size plus 24 bytes per stored fingerprint.

   Serialise into host memory: h_buf == NULL puts the size (72 + payload) in
   *bytes; else *bytes must be at least that (GAMQ_ERROR_INVALID_ARGUMENT
   otherwise) and gets the size written.
     size_t n = 0;  gamq_qf_serialize(f, NULL, &n);         n = 72 + info.bytes
     void *buf = malloc(n);  gamq_qf_serialize(f, buf, &n);
   Deserialise: a new filter from exactly `bytes` bytes at h_buf. desc
   (NULL: defaults) picks the backend, allocator, build method and
   deduplication of the new filter; kind, q, r, seed and layout come from
   the data (desc's seed and layout are ignored).
     gamq_qf *g = NULL;
     gamq_qf_deserialize(NULL, buf, n, &g);                 g: f's bytes, count, seed
     ((uint8_t *)buf)[100] ^= 1;
     gamq_qf_deserialize(NULL, buf, n, &g);                 GAMQ_ERROR_BAD_FILE, g untouched
   Errors: NULL arguments: GAMQ_ERROR_INVALID_ARGUMENT; not a filter, a newer
   version, truncated, extra bytes, corrupt: GAMQ_ERROR_BAD_FILE; an
   allocation: GAMQ_ERROR_OUT_OF_MEMORY; the backends as gamq_qf_create. On
   any error *filter is not written and nothing stays allocated. */
GAMQ_DEF gamq_status gamq_qf_serialize(const gamq_qf *filter, void *h_buf, size_t *bytes);
GAMQ_DEF gamq_status gamq_qf_deserialize(const gamq_qf_desc *desc, const void *h_buf, size_t bytes,
                                         gamq_qf **filter);
/* The same through a file.
     gamq_qf_save(f, "keys.qf");                            the file: 72 + info.bytes bytes
     gamq_qf *g = NULL;
     gamq_qf_load(NULL, "keys.qf", &g);                     g equals f byte for byte
     gamq_qf_load(NULL, "missing.qf", &g);                  GAMQ_ERROR_IO, g untouched
     gamq_qf_load(NULL, "README.md", &g);                   GAMQ_ERROR_BAD_FILE
   save never damages what is at path: it writes a new file beside it (path
   + ".tmp" + 16 hex digits, created exclusively), lets each write return
   only once its data is on the disk (POSIX: O_SYNC), then renames the new
   file over path. A file that cannot be created or fully written is
   GAMQ_ERROR_IO; then only the temporary file is removed and path is as it
   was. A symbolic link at path is replaced by the new file (the file it
   pointed to is left unchanged); the new file gets the mode of any new file
   (0666 less the umask), not the old file's. Without POSIX open(2)
   (Windows) the data goes through stdio unsynced, and rename does not
   replace an existing file there: saving over one is GAMQ_ERROR_IO and the
   old file stays.
   load: a file that cannot be opened or read is GAMQ_ERROR_IO; the checks
   and guarantees are deserialize's. Memory grows with the bytes actually
   read, so a header that claims more than the file holds costs at most
   about twice the file's length before GAMQ_ERROR_BAD_FILE. */
GAMQ_DEF gamq_status gamq_qf_save(const gamq_qf *filter, const char *path);
GAMQ_DEF gamq_status gamq_qf_load(const gamq_qf_desc *desc, const char *path, gamq_qf **filter);

/* ---------------------------------------------------------------------------
   7. blocked Bloom filter (the QF paper's BloomGPU baseline)

   A Bloom filter answers "is key k in the set?" with no false negatives,
   a false-positive rate set by its size, and no deletes. This one is
   blocked: each key lives in one 32-byte block, so an insert touches one
   DRAM sector (at most four 64-bit atomicOr) and a lookup reads one. The
   paper compares its quotient filters with BloomGPU (Costa et al.: k bytes
   per key anywhere in a byte array); this is that baseline made fast: bits
   instead of bytes, and one memory transaction per query instead of k.

   LAYOUT. num_blocks blocks of 256 bits, each eight little-endian uint32
   words (block b is bytes 32b .. 32b + 31); bit x of a block (0 .. 255) is
   bit x & 31 of word x >> 5. A key (u32 keys zero-extended: the u32 key 7
   and the u64 key 7 are the same key) is hashed as in section 6,
       h = mix(key ^ seed)
   and sets k bits of one block:
       block        = the high 64 bits of h * num_blocks   (multiply-shift:
                      the top bits of h pick the block, no modulo bias)
       positions    x_i = byte i of the 16-byte stream, i = 0 .. k-1:
                      bytes 0..3   the low 32 bits of h
                      bytes 4..11  g1 = mix(h)
                      bytes 12..15 the low 32 bits of g2 = mix(g1)
   (mix as in section 6; a stream byte is a uniform position in 0 .. 255,
   and positions may repeat). A lookup answers 1 iff all k bits are set.
   gamq_bloom_key_bits returns a key's block and its bits as eight masks.

   WORKED EXAMPLE. seed 0, num_blocks 10, k 4. Key 0: h = 0xe220a8397b1dcdaf,
   block = floor(h * 10 / 2^64) = 8, positions = bytes 0xaf 0xcd 0x1d 0x7b
   = 175 205 29 123 -> word 5 bit 15, word 6 bit 13, word 0 bit 29, word 3
   bit 27: masks (words 0..7) = 20000000 0 0 08000000 0 00008000 00002000 0.
   Keys 1 and 2 (h = 0x910a2dec89025cc1, 0x975835de1c9756ce) both land in
   block 5. After inserting {0, 1, 2}, lookups of {0, 1, 2, 3} = [1, 1, 1, 0];
   bytes 256 .. 259 of the filter are 00 00 00 20 (word 0 of block 8).

   FALSE-POSITIVE RATE. gamq_bloom_fpr(num_blocks, k, n) is the exact
   expectation, over the hash, for n distinct keys stored and a key not
   among them (taking the hash bits as independent and uniform):
       FPR = sum_j Binomial(j; n, 1/num_blocks) P_k(j),
       P_k(j) = E[(|S_j| / 256)^k],
   S_j the set of bits that j keys' j k uniform positions set in one block
   (|S_j| from the occupancy distribution of 256 bins; for large j by
   inclusion-exclusion over the query's distinct positions). Examples:
       gamq_bloom_fpr(1, 1, 1)         = 1/256 = 0.00390625
       gamq_bloom_fpr(1, 2, 1)         = (1/256)^3 + (2/256)^2 (255/256) = 6.0856e-05
       gamq_bloom_fpr(2^20, 5, 2^25)   = 0.0248    (8 bits a key)
       gamq_bloom_fpr(2^20, 8, 2^23)   = 3.44e-05  (32 bits a key)
   Measured rates stay within a few percent of it (tests/test_bloom.cu).
   Blocks add variance (some hold more keys than the mean), which costs
   memory against an unblocked Bloom filter, most at small eps.

   SIZING. gamq_bloom_create(n_expected, eps) picks, over k = 1 .. 16, the
   fewest blocks with FPR <= eps at n_expected keys (then the lowest FPR).
   Bits per key (256 num_blocks / n), for large n, against the paper's
   Table I (bytes per item x 8):
       eps      k   this filter   Bloom 1-bit (k = 5)   BloomGPU (a byte a bit)
       0.03     5     7.56          7.7                  61.6
       1e-4    11    24.9          20.8                 163
       5e-7    15    54.9          45.6                 362
   (an unblocked Bloom filter with the best k needs 7.3, 19.2, 30.3). So
   about 1.2x the 1-bit filter's memory at small eps, for one sector per
   query instead of five random words, and 6.6-8x less than BloomGPU.

   TWO LEVELS, as in section 6. gamq_bloom_<op>_<key>_sync takes arrays
   where the filter lives (device memory for a CUDA filter, host memory for a
   HOST filter) and a stream, and synchronises that stream before it
   returns. gamq_bloom_<op>_<key> takes host arrays for either kind of filter
   (synchronous; device buffers come from the filter's allocator). Inserts
   are idempotent and commute: the bytes depend only on the set of keys (and
   the shape and seed), never on order, repeats or backend, so CUDA and HOST
   filters compare byte for byte (gamq_bloom_copy_bytes). No batch limit.
   The CUDA lookup runs fastest when d_keys is 16-byte (u32) or 32-byte
   (u64) aligned and d_found 4-byte aligned (cudaMalloc memory is); other
   pointers work, a little slower.

   ERRORS. NULL filter, keys (n > 0), found (n > 0) or out pointer; eps not
   in (0, 1) (NaN included); k not in 1 .. 16; num_blocks 0 or too many for
   size_t bytes; a filter eps and n_expected would make too big for size_t;
   a device allocator that returns memory not 32-byte aligned:
   GAMQ_ERROR_INVALID_ARGUMENT. A failed allocation: GAMQ_ERROR_OUT_OF_MEMORY.
   Both leave everything as it was (nothing allocated, the filter unchanged).
   A CUDA filter asked for where there is none: section 3's statuses. A
   CUDA error (GAMQ_ERROR_CUDA) may leave a CUDA filter unspecified.
   ------------------------------------------------------------------------- */
#define GAMQ_BLOOM_BLOCK_BYTES 32 /* one block: 256 bits, eight 32-bit words, one DRAM sector */
#define GAMQ_BLOOM_MAX_K 16       /* bit positions per key: 1 .. 16 */

/* A filter (opaque): made by gamq_bloom_create or gamq_bloom_create_shape,
   freed by gamq_bloom_destroy. */
typedef struct gamq_bloom gamq_bloom;

/* Zero-initialise for the defaults: backend AUTO (CUDA when a device is
   present), seed 0, cudaMallocAsync. */
typedef struct gamq_bloom_desc {
  gamq_backend backend;
  uint64_t seed;                   /* the hash seed (section 6's hash) */
  gamq_device_allocator allocator; /* the filter's memory (32-byte aligned) and the convenience calls' buffers */
} gamq_bloom_desc;

/* What a filter is: gamq_bloom_get_info fills it. */
typedef struct gamq_bloom_info {
  gamq_backend backend;        /* resolved: CUDA or HOST */
  uint64_t seed;
  uint64_t num_blocks;         /* 32-byte blocks */
  int k;                       /* bit positions per key */
  size_t bytes;                /* num_blocks * 32 (gamq_bloom_copy_bytes) */
  double bits_per_key_planned; /* gamq_bloom_create: 256 num_blocks / n_expected; create_shape: 0 */
} gamq_bloom_info;

/* An empty filter sized for n_expected keys at false-positive rate eps
   (0 < eps < 1; see SIZING): the fewest blocks, k chosen with them;
   n_expected 0 sizes for one key (one block).
     gamq_bloom *f = NULL;
     gamq_bloom_create(NULL, 1000000, 0.03, &f);   29530 blocks (945 KB), k 5, 7.56 bits a key
     gamq_bloom_create(NULL, 1000000, 1.0, &f);    GAMQ_ERROR_INVALID_ARGUMENT, f untouched
   desc may be NULL (defaults). *out is written only on success. Planning
   takes a few milliseconds of host time. A CUDA filter's memory is
   allocated and zeroed on the default stream, which is synchronised. */
GAMQ_DEF gamq_status gamq_bloom_create(const gamq_bloom_desc *desc, uint64_t n_expected, double eps, gamq_bloom **out);
/* An empty filter of an explicit shape: num_blocks 32-byte blocks (>= 1),
   k bits a key (1 .. 16).
     gamq_bloom_create_shape(NULL, 10, 4, &f);     the WORKED EXAMPLE's filter: 320 bytes */
GAMQ_DEF gamq_status gamq_bloom_create_shape(const gamq_bloom_desc *desc, uint64_t num_blocks, int k,
                                             gamq_bloom **out);
/* Frees the filter (NULL: nothing). A CUDA filter's memory is freed on the
   default stream, which is synchronised. */
GAMQ_DEF gamq_status gamq_bloom_destroy(gamq_bloom *filter);
GAMQ_DEF gamq_status gamq_bloom_get_info(const gamq_bloom *filter, gamq_bloom_info *info);
/* The block of one key and the bits it sets there, as eight word masks
   (see LAYOUT); a host computation, either backend.
     the WORKED EXAMPLE's filter, key 0:   block 8, mask = [0x20000000, 0, 0, 0x08000000,
                                                            0, 0x00008000, 0x00002000, 0] */
GAMQ_DEF gamq_status gamq_bloom_key_bits(const gamq_bloom *filter, uint64_t key, uint64_t *block, uint32_t mask[8]);
/* Empties the filter (every bit 0). A CUDA filter is cleared on the default
   stream, which is synchronised. */
GAMQ_DEF gamq_status gamq_bloom_clear(gamq_bloom *filter);

/* Batch insert: sets each key's k bits (atomicOr on CUDA). Any order,
   repeats allowed; n = 0 does nothing. Never FULL: the FPR grows with the
   keys stored (gamq_bloom_fpr).
     uint64_t keys[3] = {0, 1, 2};
     gamq_bloom_insert_u64(f, keys, 3);         the WORKED EXAMPLE */
GAMQ_DEF gamq_status gamq_bloom_insert_u32_sync(gamq_bloom *filter, const uint32_t *d_keys, size_t n,
                                                gamq_stream stream);
GAMQ_DEF gamq_status gamq_bloom_insert_u64_sync(gamq_bloom *filter, const uint64_t *d_keys, size_t n,
                                                gamq_stream stream);
GAMQ_DEF gamq_status gamq_bloom_insert_u32(gamq_bloom *filter, const uint32_t *h_keys, size_t n);
GAMQ_DEF gamq_status gamq_bloom_insert_u64(gamq_bloom *filter, const uint64_t *h_keys, size_t n);

/* Batch lookup: found[i] = 1 if keys[i] may be in the filter, 0 if it
   certainly is not (never 0 for a key inserted). The filter is not changed.
     uint64_t q[4] = {0, 1, 2, 3};  uint8_t found[4];
     gamq_bloom_lookup_u64(f, q, 4, found);     found = [1, 1, 1, 0] */
GAMQ_DEF gamq_status gamq_bloom_lookup_u32_sync(const gamq_bloom *filter, const uint32_t *d_keys, size_t n,
                                                uint8_t *d_found, gamq_stream stream);
GAMQ_DEF gamq_status gamq_bloom_lookup_u64_sync(const gamq_bloom *filter, const uint64_t *d_keys, size_t n,
                                                uint8_t *d_found, gamq_stream stream);
GAMQ_DEF gamq_status gamq_bloom_lookup_u32(const gamq_bloom *filter, const uint32_t *h_keys, size_t n,
                                           uint8_t *h_found);
GAMQ_DEF gamq_status gamq_bloom_lookup_u64(const gamq_bloom *filter, const uint64_t *h_keys, size_t n,
                                           uint8_t *h_found);

/* The filter's raw bytes (LAYOUT), into host memory. h_out == NULL: *bytes
   gets the size; else *bytes must be at least the size and gets it.
     size_t n = 0;  gamq_bloom_copy_bytes(f, NULL, &n);      n = 320 for the example */
GAMQ_DEF gamq_status gamq_bloom_copy_bytes(const gamq_bloom *filter, void *h_out, size_t *bytes);
/* The expected false-positive rate of a filter of this shape holding n
   distinct keys (FALSE-POSITIVE RATE); 0 for n = 0; -1 for num_blocks 0 or
   k outside 1 .. 16. Host only, about a millisecond.
     gamq_bloom_fpr(29530, 5, 1000000)   = 0.0300 (the create example above) */
GAMQ_DEF double gamq_bloom_fpr(uint64_t num_blocks, int k, uint64_t n);

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
/* ---------------------------------------------------------------------------
   Non-associative scans: host reference and host simulations of the parallel
   methods (private: the HOST backend of section 5, and what the tests compare
   the kernels with, rounds included). The QF paper, section IV-C, Algorithms 4-6.

   THE RECURRENCE. Everything here evaluates the max-plus recurrence

       x_i = max(x_{i-1} + a_i, b_i)                                   (1)

   on int64, with an optional initial value x_{-1} (absent: minus infinity,
   so x_0 = b_0) and optional segment heads (a head restarts (1) from the
   initial value, or from minus infinity when there is none). The two scans a
   quotient filter needs are special cases:
       saturating sum   x_i = max(x_{i-1} + a_i, 0)      (b_i = 0, init 0)
       position scan    x_i = max(x_{i-1} + 1, v_i)      (a_i = 1, b_i = v_i)
   Worked example (position scan, sorted quotients v = 2 2 3 7 7, no init):
       x = 2 3 4 7 8     (v = 3 is pushed to slot 4 by the run of 2s; 7 is a
                          "break": x_3 = v_3 does not depend on x_2).

   VALUE RANGE AND OVERFLOW. Every x_i and every x_{i-1} + a_i (init + a_i at
   a head) must lie in int64; otherwise the operation returns
   GAMQ__NA_OVERFLOW and x is unspecified. Nothing ever wraps. The serial loop
   checks each step. The parallel methods compute with the mathematical max
   (a step whose sum falls below INT64_MIN just yields b_i), detect any x_i
   above INT64_MAX, then check every step x_{i-1} + a_i in one last
   elementwise pass (gamq__na_check_steps) so they report exactly when the
   serial loop does. The u64 position scan runs on values biased by -2^63
   (the recurrence commutes with adding a constant to x and b), so its range is
   all of uint64.

   THE FOUR METHODS (each a host simulation written as rounds over "threads",
   with separate read and write buffers, so a kernel can mirror it):
     ASSOCIATIVE           maps f(x) = max(x + a, b) compose into maps of the
                           same form; an inclusive Hillis-Steele scan over the
                           maps. ceil(log2 n) rounds, always.
     PARALLEL_MERGING      Alg. 4: segments of 1, 2, 4, ... elements merged
                           pairwise; ceil(log2 n) rounds, always.
     SEQUENTIAL_SHIFTING   Alg. 5: runs shift after their left neighbour until
                           nothing moves; rounds = longest chain of runs + 1.
     SEGMENTED_LAYOUTS     Alg. 6: L = max(1, floor(log2 n)) elements per
                           segment laid out serially, the last value passed on
                           until stable; rounds = longest chain of segments + 1
                           or + 2.
   The last two extract their parallelism from breaks in the dependency chain.
   On an input without breaks they degrade: sequential shifting to about
   (number of runs) rounds (for v = 0 0 0 2 2 2 4 4 4 ..., n/3 rounds; an
   all-equal input is one run and needs 1 round), segmented layouts to about
   n / L rounds for any input whose chain spans the whole array (all v equal
   included). That is why they take an iteration bound: after max_rounds
   rounds that still changed something they finish with the associative method
   and set stats.fell_back.
   ------------------------------------------------------------------------- */

typedef enum gamq__na_result {
  GAMQ__NA_OK = 0,
  GAMQ__NA_OVERFLOW = 1, /* some x_i or x_{i-1} + a_i outside the value range */
  GAMQ__NA_BAD_ARG = 2,  /* a NULL array with n > 0, or an unknown method */
  GAMQ__NA_NO_MEMORY = 3 /* a host allocation failed */
} gamq__na_result;

typedef enum gamq__na_method {
  GAMQ__NA_SERIAL = 0, /* the reference loop */
  GAMQ__NA_ASSOCIATIVE = 1,
  GAMQ__NA_PARALLEL_MERGING = 2,
  GAMQ__NA_SEQUENTIAL_SHIFTING = 3,
  GAMQ__NA_SEGMENTED_LAYOUTS = 4
} gamq__na_method;

/* What a method did. rounds: launches of its round kernel (for shifting and
   layouts including the final round that found nothing to change; the
   associative finish after a fallback is not counted). fell_back: 1 when the
   iteration bound was hit and the associative method finished the job. */
typedef struct gamq__na_stats {
  int rounds;
  int fell_back;
} gamq__na_stats;

/* One instance of (1). a == NULL means every a_i is a_const (and likewise b);
   heads == NULL means one segment. Index 0 always starts a segment. */
typedef struct gamq__na_problem {
  size_t n;
  const int64_t *a;
  int64_t a_const;
  const int64_t *b;
  int64_t b_const;
  const uint8_t *heads;
  int has_init;
  int64_t init;
} gamq__na_problem;

static inline int64_t gamq__na_a(const gamq__na_problem *p, size_t i) { return p->a ? p->a[i] : p->a_const; }
static inline int64_t gamq__na_b(const gamq__na_problem *p, size_t i) { return p->b ? p->b[i] : p->b_const; }
static inline int gamq__na_is_head(const gamq__na_problem *p, size_t i) { return i == 0 || (p->heads && p->heads[i]); }

/* ---- checked int64 arithmetic ---- */

/* *sum = x + y if it fits in int64; returns 0 (and leaves *sum) if not. */
static inline int gamq__add_i64(int64_t x, int64_t y, int64_t *sum) {
  if ((y > 0 && x > INT64_MAX - y) || (y < 0 && x < INT64_MIN - y)) return 0;
  *sum = x + y;
  return 1;
}

/* One step of (1) with the mathematical max: *x = max(prev + a, b). A sum
   below INT64_MIN loses to b (which is in range) and is no error here; a
   result above INT64_MAX is an overflow (returns 0). The parallel methods
   step on lower bounds of the true x, so a too-small sum says nothing about
   the true one; gamq__na_check_steps checks the true steps at the end. */
static inline int gamq__na_step(int64_t prev, int64_t a, int64_t b, int64_t *x) {
  int64_t t;
  if (gamq__add_i64(prev, a, &t)) {
    *x = t > b ? t : b;
    return 1;
  }
  if (a < 0) { /* prev + a < INT64_MIN <= b */
    *x = b;
    return 1;
  }
  return 0; /* prev + a > INT64_MAX */
}

/* The value of a segment head: max(init + a, b) with an init, else b. */
static inline int gamq__na_head_value(const gamq__na_problem *p, size_t i, int64_t *x) {
  if (!p->has_init) {
    *x = gamq__na_b(p, i);
    return 1;
  }
  return gamq__na_step(p->init, gamq__na_a(p, i), gamq__na_b(p, i), x);
}

/* The last pass of every parallel method: given x exact (no x_i overflowed),
   does every step x_{i-1} + a_i (init + a_i at a head with an init) fit? */
static inline gamq__na_result gamq__na_check_steps(const gamq__na_problem *p, const int64_t *x) {
  size_t i;
  int64_t t;
  for (i = 0; i < p->n; ++i) { /* one thread per element */
    if (gamq__na_is_head(p, i)) {
      if (p->has_init && !gamq__add_i64(p->init, gamq__na_a(p, i), &t)) return GAMQ__NA_OVERFLOW;
    } else if (!gamq__add_i64(x[i - 1], gamq__na_a(p, i), &t)) {
      return GAMQ__NA_OVERFLOW;
    }
  }
  return GAMQ__NA_OK;
}

static inline int gamq__na_args_ok(const gamq__na_problem *p, const int64_t *x) {
  return p != NULL && (p->n == 0 || x != NULL);
}

/* ---------------------------------------------------------------------------
   The reference: the serial loop. Checks every step; this is what the tests
   compare every other method and every kernel against.
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_maxplus_serial(const gamq__na_problem *p, int64_t *x) {
  size_t i;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  for (i = 0; i < p->n; ++i) {
    int64_t a = gamq__na_a(p, i), b = gamq__na_b(p, i), t;
    if (gamq__na_is_head(p, i)) {
      if (!p->has_init) {
        x[i] = b;
        continue;
      }
      if (!gamq__add_i64(p->init, a, &t)) return GAMQ__NA_OVERFLOW;
    } else if (!gamq__add_i64(x[i - 1], a, &t)) {
      return GAMQ__NA_OVERFLOW;
    }
    x[i] = t > b ? t : b;
  }
  return GAMQ__NA_OK;
}

/* ---------------------------------------------------------------------------
   Maps f(x) = max(x + A, B), the associative form.

   Composition: f1 = (A1, B1) then f2 = (A2, B2) is
       f2(f1(x)) = max(max(x + A1, B1) + A2, B2) = max(x + (A1 + A2), max(B1 + A2, B2)),
   again a map. A head is the constant map f(x) = B (A = minus infinity), and
   composing anything before a constant map gives that constant map.

   Range: the B of the composed map of elements l..r is the value x_r would
   have if x_{l-1} were minus infinity, so B <= x_r: if the true x fit, every
   B fits in int64, and a B above INT64_MAX is a true overflow. A, a sum of
   a_i, does not fit int64 in general (a_i may be large and of both signs
   while the x stay in range), so A is a 128-bit two's-complement number
   (hi, lo); n * 2^63 < 2^127, so A itself never overflows.
   ------------------------------------------------------------------------- */
typedef struct gamq__w128 {
  int64_t hi;  /* value = hi * 2^64 + lo */
  uint64_t lo;
} gamq__w128;

static inline gamq__w128 gamq__w128_from_i64(int64_t v) {
  gamq__w128 r;
  r.hi = v < 0 ? -1 : 0;
  r.lo = (uint64_t)v;
  return r;
}
static inline gamq__w128 gamq__w128_add(gamq__w128 x, gamq__w128 y) {
  gamq__w128 r;
  r.lo = x.lo + y.lo;
  r.hi = x.hi + y.hi + (r.lo < x.lo ? 1 : 0);
  return r;
}
static inline int gamq__w128_less(gamq__w128 x, gamq__w128 y) {
  return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo);
}
/* v fits int64: hi is the sign extension of lo's top bit. */
static inline int gamq__w128_to_i64(gamq__w128 v, int64_t *out) {
  if (v.hi == 0 && v.lo <= (uint64_t)INT64_MAX) {
    *out = (int64_t)v.lo;
    return 1;
  }
  if (v.hi == -1 && v.lo > (uint64_t)INT64_MAX) {
    *out = -(int64_t)(~v.lo) - 1; /* two's complement without an implementation-defined cast */
    return 1;
  }
  return 0;
}

typedef struct gamq__na_map {
  int constant; /* 1: f(x) = b for every x (A is minus infinity) */
  gamq__w128 a;
  int64_t b;
} gamq__na_map;

/* The map of element i: constant at a head (its value with the init folded
   in: applying the prefix map to the init is the same as starting each
   segment with the constant map of its head's value). */
static inline int gamq__na_element_map(const gamq__na_problem *p, size_t i, gamq__na_map *m) {
  m->a = gamq__w128_from_i64(gamq__na_a(p, i));
  m->constant = gamq__na_is_head(p, i);
  if (!m->constant) {
    m->b = gamq__na_b(p, i);
    return 1;
  }
  return gamq__na_head_value(p, i, &m->b);
}

/* *r = first then second. Returns 0 on a B above INT64_MAX (true overflow). */
static inline int gamq__na_compose(const gamq__na_map *first, const gamq__na_map *second, gamq__na_map *r) {
  gamq__w128 t;
  int64_t tb;
  if (second->constant) {
    *r = *second;
    return 1;
  }
  r->constant = first->constant;
  r->a = gamq__w128_add(first->a, second->a); /* meaningless (unused) when constant */
  t = gamq__w128_add(gamq__w128_from_i64(first->b), second->a); /* B1 + A2 */
  if (gamq__w128_less(t, gamq__w128_from_i64(second->b))) {
    r->b = second->b;
    return 1;
  }
  if (!gamq__w128_to_i64(t, &tb)) return 0; /* t >= B2 >= INT64_MIN, so t > INT64_MAX */
  r->b = tb;
  return 1;
}

static inline int gamq__na_ceil_log2(size_t n) {
  int k = 0;
  while (k < 63 && ((size_t)1 << k) < n) ++k;
  return k;
}

/* The setup both map-based methods share: two buffers of n maps (read and
   write), read[i] holding element i's own map. GAMQ__NA_NO_MEMORY leaves
   nothing allocated; GAMQ__NA_OVERFLOW leaves both allocated for the caller
   to free, like success. */
static inline gamq__na_result gamq__na_maps_begin(const gamq__na_problem *p, gamq__na_map **read, gamq__na_map **write) {
  size_t i;
  *read = (gamq__na_map *)GAMQ_MALLOC(p->n * sizeof(gamq__na_map));
  *write = (gamq__na_map *)GAMQ_MALLOC(p->n * sizeof(gamq__na_map));
  if (!*read || !*write) {
    GAMQ_FREE(*read);
    GAMQ_FREE(*write);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < p->n; ++i)
    if (!gamq__na_element_map(p, i, &(*read)[i])) return GAMQ__NA_OVERFLOW;
  return GAMQ__NA_OK;
}

/* ... and the finish: on success x_i is the B of prefix map i (a constant
   map), every step is checked for overflow; both buffers are freed. */
static inline gamq__na_result gamq__na_maps_end(const gamq__na_problem *p, int64_t *x, gamq__na_map *read,
                                                gamq__na_map *write, gamq__na_result res) {
  size_t i;
  if (res == GAMQ__NA_OK) {
    for (i = 0; i < p->n; ++i) x[i] = read[i].b;
    res = gamq__na_check_steps(p, x);
  }
  GAMQ_FREE(read);
  GAMQ_FREE(write);
  return res;
}

/* ---------------------------------------------------------------------------
   ASSOCIATIVE: an inclusive Hillis-Steele scan over the element maps.
   Round d (distance 1, 2, 4, ...): thread i writes read[i - d] then read[i]
   (or copies read[i] when i < d). After the round with distance d, element i
   holds the composition of elements max(0, i - 2d + 1) .. i. Element 0's map
   is constant, so every prefix map is constant and its B is x_i.
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_maxplus_associative(const gamq__na_problem *p, int64_t *x,
                                                            gamq__na_stats *stats) {
  gamq__na_map *read, *write, *swap;
  gamq__na_result res = GAMQ__NA_OK;
  size_t i, d;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  res = gamq__na_maps_begin(p, &read, &write);
  if (res == GAMQ__NA_NO_MEMORY) return res;
  for (d = 1; d < p->n && res == GAMQ__NA_OK; d *= 2) {
    for (i = 0; i < p->n; ++i) { /* one thread per element */
      if (i < d) {
        write[i] = read[i];
      } else if (!gamq__na_compose(&read[i - d], &read[i], &write[i])) {
        res = GAMQ__NA_OVERFLOW;
      }
    }
    swap = read, read = write, write = swap;
    if (stats) stats->rounds++;
  }
  return gamq__na_maps_end(p, x, read, write, res);
}

/* ---------------------------------------------------------------------------
   PARALLEL_MERGING (Alg. 4), generalised from slots-and-credits to maps.

   Round k merges segments of 2^k elements pairwise (segment of i: i >> k).
   Every element holds the map from its segment's first element to itself:
   its b is the element's value computed inside its segment alone (the
   paper's tentative slot), its a says how that value moves when a value
   arrives from the left. Thread i in an odd (right) segment composes the
   left segment's total map, held by the left segment's last element, in
   front of its own; elements of even segments keep theirs. By associativity
   of composition the invariant holds after each round, and once one segment
   covers everything, b is x_i. Exact, in ceil(log2 n) rounds on any input.

   The paper's form is this map for the position scan (a_i = 1): element i at
   offset j in its segment holds slot_i and reacts to an arriving value L by
   max(L + 1 + j, slot_i). With offset = L - slot_first + 1 (Alg. 4 line 5)
   and credit_i = slot_i - slot_first - j (the empty slots before i in its
   segment), the shift max(0, offset - credit_i) is Alg. 4's "overlap".
   The paper starts from one segment per run of equal quotients; we start
   from single elements (one more round at most, no run labelling).
   ------------------------------------------------------------------------- */
static inline gamq__na_result gamq__host_maxplus_merging(const gamq__na_problem *p, int64_t *x,
                                                        gamq__na_stats *stats) {
  gamq__na_map *read, *write, *swap;
  gamq__na_result res = GAMQ__NA_OK;
  size_t i;
  int k;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  res = gamq__na_maps_begin(p, &read, &write);
  if (res == GAMQ__NA_NO_MEMORY) return res;
  for (k = 0; ((size_t)1 << k) < p->n && res == GAMQ__NA_OK; ++k) {
    for (i = 0; i < p->n; ++i) { /* one thread per element */
      size_t seg = i >> k;
      if (seg % 2 == 0) {
        write[i] = read[i];
      } else {
        size_t left_last = (seg << k) - 1;
        if (!gamq__na_compose(&read[left_last], &read[i], &write[i])) res = GAMQ__NA_OVERFLOW;
      }
    }
    swap = read, read = write, write = swap;
    if (stats) stats->rounds++;
  }
  return gamq__na_maps_end(p, x, read, write, res);
}

/* ---------------------------------------------------------------------------
   SEQUENTIAL_SHIFTING (Alg. 5), generalised.

   Runs. Element i (not a head) is bound to i - 1 when b_i <= b_{i-1} + a_i:
   then x_i = x_{i-1} + a_i whatever comes from the left (x_{i-1} >= b_{i-1},
   so x_{i-1} + a_i >= b_i). A run is a maximal stretch of bound elements; for
   sorted quotients (a_i = 1) it is a stretch of equal or consecutive
   quotients, the paper's runs and a little more. Preprocessing lays each run
   out from its first element's b (its head value at a head).

   Rounds. One thread per run reads the value left of its first element from
   the read buffer; if the run must move (step > its first value) it lays the
   run out again from the new first value into the write buffer, else copies
   it. Repeat until no run moved. Every value is a lower bound of the true x
   and only grows; a round with no move means every run is consistent with its
   left neighbour, which is the unique solution of (1): exact. A run moves in
   round r only if a chain of r runs leads to it, so rounds = longest chain of
   dependent runs + 1 (the final check). Without breaks that is the number of
   runs (e.g. v = 0 0 0 2 2 2 4 4 4 ...: n/3 runs, each pushed by the last).
   ------------------------------------------------------------------------- */

/* Lay out elements [first, end) serially after x[first] is set, into x
   (a head inside restarts from its head value). 0 on an x above INT64_MAX. */
static inline int gamq__na_layout(const gamq__na_problem *p, size_t first, size_t end, int64_t *x) {
  size_t i;
  for (i = first + 1; i < end; ++i) {
    int ok = gamq__na_is_head(p, i) ? gamq__na_head_value(p, i, &x[i])
                                    : gamq__na_step(x[i - 1], gamq__na_a(p, i), gamq__na_b(p, i), &x[i]);
    if (!ok) return 0;
  }
  return 1;
}

static inline gamq__na_result gamq__host_maxplus_shifting(const gamq__na_problem *p, int64_t *x, int max_rounds,
                                                         gamq__na_stats *stats) {
  size_t *starts = NULL; /* first element of each run, then n */
  int64_t *read = NULL, *write = NULL, *swap;
  size_t i, r, runs = 0;
  int rounds = 0, moved = 1;
  gamq__na_result res = GAMQ__NA_OK;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  starts = (size_t *)GAMQ_MALLOC((p->n + 1) * sizeof(size_t));
  read = (int64_t *)GAMQ_MALLOC(p->n * sizeof(int64_t));
  write = (int64_t *)GAMQ_MALLOC(p->n * sizeof(int64_t));
  if (!starts || !read || !write) {
    res = GAMQ__NA_NO_MEMORY;
    goto done;
  }
  /* preprocessing: flag run starts, compact them (a select on the GPU) */
  for (i = 0; i < p->n; ++i) {
    int bound = 0;
    if (!gamq__na_is_head(p, i)) {
      int64_t reach;
      if (gamq__add_i64(gamq__na_b(p, i - 1), gamq__na_a(p, i), &reach)) {
        bound = gamq__na_b(p, i) <= reach;
      } else if (gamq__na_a(p, i) > 0) { /* b_{i-1} + a_i > INT64_MAX: x_i would be too */
        res = GAMQ__NA_OVERFLOW;
        goto done;
      }
    }
    if (!bound) starts[runs++] = i;
  }
  starts[runs] = p->n;
  /* initial layout: each run alone (a segmented scan on the GPU) */
  for (r = 0; r < runs; ++r) {
    size_t s = starts[r];
    if (gamq__na_is_head(p, s)) {
      if (!gamq__na_head_value(p, s, &read[s])) res = GAMQ__NA_OVERFLOW;
    } else {
      read[s] = gamq__na_b(p, s);
    }
    if (res != GAMQ__NA_OK || !gamq__na_layout(p, s, starts[r + 1], read)) {
      res = GAMQ__NA_OVERFLOW;
      goto done;
    }
  }
  while (moved && (max_rounds <= 0 || rounds < max_rounds)) {
    moved = 0;
    for (r = 0; r < runs; ++r) { /* one thread per run */
      size_t s = starts[r], end = starts[r + 1];
      int64_t first = read[s];
      if (!gamq__na_is_head(p, s) &&
          !gamq__na_step(read[s - 1], gamq__na_a(p, s), gamq__na_b(p, s), &first)) {
        res = GAMQ__NA_OVERFLOW;
        goto done;
      }
      if (first > read[s]) { /* shift: lay the run out again from its new first value */
        write[s] = first;
        if (!gamq__na_layout(p, s, end, write)) {
          res = GAMQ__NA_OVERFLOW;
          goto done;
        }
        moved = 1;
      } else {
        memcpy(write + s, read + s, (end - s) * sizeof(int64_t));
      }
    }
    swap = read, read = write, write = swap;
    rounds++;
  }
  if (stats) stats->rounds = rounds;
  if (moved) { /* bound hit: finish with the associative method */
    if (stats) stats->fell_back = 1;
    res = gamq__host_maxplus_associative(p, x, NULL);
    goto done;
  }
  memcpy(x, read, p->n * sizeof(int64_t));
  res = gamq__na_check_steps(p, x);
done:
  GAMQ_FREE(starts);
  GAMQ_FREE(read);
  GAMQ_FREE(write);
  return res;
}

/* ---------------------------------------------------------------------------
   SEGMENTED_LAYOUTS (Alg. 6), generalised.

   The array is cut into segments of L = max(1, floor(log2 n)) elements (the
   paper cuts the filter's slots into q-slot pieces; for a general recurrence
   the elements are the natural unit). Each round, one thread per segment
   takes the last value its left neighbour produced in the previous round
   (carry_read; INT64_MIN before the first round, a lower bound of any x),
   lays its L elements out serially, and publishes its own last value
   (carry_write). Values are lower bounds of the true x and only grow; when a
   round publishes exactly the carries it read, every segment agrees with its
   neighbour, which is the unique solution of (1): exact. Rounds = longest
   chain of dependent segments + 2 at most; with no break, about n / L.
   ------------------------------------------------------------------------- */
static inline size_t gamq__na_segment_length(size_t n) {
  size_t len = 0;
  while (((size_t)2 << len) <= n) ++len; /* floor(log2 n) */
  return len < 1 ? 1 : len;
}

static inline gamq__na_result gamq__host_maxplus_layouts(const gamq__na_problem *p, int64_t *x, int max_rounds,
                                                        gamq__na_stats *stats) {
  size_t len, segs, k;
  int64_t *carry_read = NULL, *carry_write = NULL, *swap;
  int rounds = 0, changed = 1;
  gamq__na_result res = GAMQ__NA_OK;
  if (!gamq__na_args_ok(p, x)) return GAMQ__NA_BAD_ARG;
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  if (p->n == 0) return GAMQ__NA_OK;
  len = gamq__na_segment_length(p->n);
  segs = (p->n + len - 1) / len;
  carry_read = (int64_t *)GAMQ_MALLOC(segs * sizeof(int64_t));
  carry_write = (int64_t *)GAMQ_MALLOC(segs * sizeof(int64_t));
  if (!carry_read || !carry_write) {
    res = GAMQ__NA_NO_MEMORY;
    goto done;
  }
  for (k = 0; k < segs; ++k) carry_read[k] = INT64_MIN;
  while (changed && (max_rounds <= 0 || rounds < max_rounds)) {
    changed = 0;
    for (k = 0; k < segs; ++k) { /* one thread per segment */
      size_t first = k * len, end = first + len < p->n ? first + len : p->n;
      int ok;
      if (gamq__na_is_head(p, first)) {
        ok = gamq__na_head_value(p, first, &x[first]);
      } else {
        ok = gamq__na_step(carry_read[k - 1], gamq__na_a(p, first), gamq__na_b(p, first), &x[first]);
      }
      if (!ok || !gamq__na_layout(p, first, end, x)) {
        res = GAMQ__NA_OVERFLOW;
        goto done;
      }
      carry_write[k] = x[end - 1];
      if (carry_write[k] != carry_read[k]) changed = 1;
    }
    swap = carry_read, carry_read = carry_write, carry_write = swap;
    rounds++;
  }
  if (stats) stats->rounds = rounds;
  if (changed) {
    if (stats) stats->fell_back = 1;
    res = gamq__host_maxplus_associative(p, x, NULL);
    goto done;
  }
  res = gamq__na_check_steps(p, x);
done:
  GAMQ_FREE(carry_read);
  GAMQ_FREE(carry_write);
  return res;
}

/* Any method by name; max_rounds bounds shifting and layouts (<= 0: none). */
static inline gamq__na_result gamq__host_maxplus(const gamq__na_problem *p, gamq__na_method method, int max_rounds,
                                                int64_t *x, gamq__na_stats *stats) {
  if (stats) stats->rounds = 0, stats->fell_back = 0;
  switch (method) {
    case GAMQ__NA_SERIAL: return gamq__host_maxplus_serial(p, x);
    case GAMQ__NA_ASSOCIATIVE: return gamq__host_maxplus_associative(p, x, stats);
    case GAMQ__NA_PARALLEL_MERGING: return gamq__host_maxplus_merging(p, x, stats);
    case GAMQ__NA_SEQUENTIAL_SHIFTING: return gamq__host_maxplus_shifting(p, x, max_rounds, stats);
    case GAMQ__NA_SEGMENTED_LAYOUTS: return gamq__host_maxplus_layouts(p, x, max_rounds, stats);
    default: return GAMQ__NA_BAD_ARG;
  }
}

/* ---------------------------------------------------------------------------
   The special cases, as thin wrappers: convert the input to int64 (a, b),
   run the chosen method, convert back and check the output type's range.
   ------------------------------------------------------------------------- */

/* Saturating sum x_i = max(x_{i-1} + a_i, 0), output in the input's type.
   init: NULL means 0 (a shift never starts negative). */
static inline gamq__na_result gamq__host_satsum_i64(size_t n, const int64_t *a, const uint8_t *heads,
                                                   const int64_t *init, gamq__na_method method, int max_rounds,
                                                   int64_t *x, gamq__na_stats *stats) {
  gamq__na_problem p;
  if (n > 0 && (a == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  p.n = n, p.a = a, p.a_const = 0, p.b = NULL, p.b_const = 0, p.heads = heads;
  p.has_init = 1, p.init = init ? *init : 0;
  return gamq__host_maxplus(&p, method, max_rounds, x, stats);
}

static inline gamq__na_result gamq__host_satsum_i32(size_t n, const int32_t *a, const uint8_t *heads,
                                                   const int32_t *init, gamq__na_method method, int max_rounds,
                                                   int32_t *x, gamq__na_stats *stats) {
  int64_t *a64, *x64, init64 = init ? *init : 0;
  gamq__na_result res;
  size_t i;
  if (n > 0 && (a == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  if (n == 0) return gamq__host_satsum_i64(0, NULL, heads, &init64, method, max_rounds, NULL, stats);
  a64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  x64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  if (!a64 || !x64) {
    GAMQ_FREE(a64);
    GAMQ_FREE(x64);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) a64[i] = a[i];
  res = gamq__host_satsum_i64(n, a64, heads, &init64, method, max_rounds, x64, stats);
  /* x >= 0 always; x_{i-1} + a_i above INT32_MAX makes x_i above it too */
  for (i = 0; i < n && res == GAMQ__NA_OK; ++i) {
    if (x64[i] > INT32_MAX) res = GAMQ__NA_OVERFLOW;
    else x[i] = (int32_t)x64[i];
  }
  GAMQ_FREE(a64);
  GAMQ_FREE(x64);
  return res;
}

/* uint64 <-> int64 by subtracting 2^63: order-preserving, and (1) commutes
   with it (a_i = 1 unchanged), so the u64 position scan keeps its full range. */
static inline int64_t gamq__na_bias_u64(uint64_t v) {
  const uint64_t half = (uint64_t)1 << 63;
  return v >= half ? (int64_t)(v - half) : (int64_t)v - INT64_MAX - 1;
}
static inline uint64_t gamq__na_unbias_u64(int64_t s) {
  const uint64_t half = (uint64_t)1 << 63;
  return s >= 0 ? (uint64_t)s + half : (uint64_t)(s + INT64_MAX + 1);
}

/* Position scan x_i = max(x_{i-1} + 1, v_i), u64: output u64; a result above
   UINT64_MAX is an overflow. init: NULL means none (x_0 = v_0). */
static inline gamq__na_result gamq__host_position_u64(size_t n, const uint64_t *v, const uint8_t *heads,
                                                     const uint64_t *init, gamq__na_method method, int max_rounds,
                                                     uint64_t *x, gamq__na_stats *stats) {
  gamq__na_problem p;
  int64_t *b, *x64;
  gamq__na_result res;
  size_t i;
  if (n > 0 && (v == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  p.n = n, p.a = NULL, p.a_const = 1, p.b = NULL, p.b_const = 0, p.heads = heads;
  p.has_init = init != NULL, p.init = init ? gamq__na_bias_u64(*init) : 0;
  if (n == 0) return gamq__host_maxplus(&p, method, max_rounds, NULL, stats);
  b = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  x64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  if (!b || !x64) {
    GAMQ_FREE(b);
    GAMQ_FREE(x64);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) b[i] = gamq__na_bias_u64(v[i]);
  p.b = b;
  res = gamq__host_maxplus(&p, method, max_rounds, x64, stats);
  for (i = 0; i < n && res == GAMQ__NA_OK; ++i) x[i] = gamq__na_unbias_u64(x64[i]);
  GAMQ_FREE(b);
  GAMQ_FREE(x64);
  return res;
}

/* Position scan, u32: output u32; a result above UINT32_MAX is an overflow. */
static inline gamq__na_result gamq__host_position_u32(size_t n, const uint32_t *v, const uint8_t *heads,
                                                     const uint32_t *init, gamq__na_method method, int max_rounds,
                                                     uint32_t *x, gamq__na_stats *stats) {
  gamq__na_problem p;
  int64_t *b, *x64;
  gamq__na_result res;
  size_t i;
  if (n > 0 && (v == NULL || x == NULL)) return GAMQ__NA_BAD_ARG;
  p.n = n, p.a = NULL, p.a_const = 1, p.b = NULL, p.b_const = 0, p.heads = heads;
  p.has_init = init != NULL, p.init = init ? (int64_t)*init : 0;
  if (n == 0) return gamq__host_maxplus(&p, method, max_rounds, NULL, stats);
  b = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  x64 = (int64_t *)GAMQ_MALLOC(n * sizeof(int64_t));
  if (!b || !x64) {
    GAMQ_FREE(b);
    GAMQ_FREE(x64);
    return GAMQ__NA_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) b[i] = v[i];
  p.b = b;
  res = gamq__host_maxplus(&p, method, max_rounds, x64, stats);
  for (i = 0; i < n && res == GAMQ__NA_OK; ++i) {
    if (x64[i] > (int64_t)UINT32_MAX) res = GAMQ__NA_OVERFLOW;
    else x[i] = (uint32_t)x64[i];
  }
  GAMQ_FREE(b);
  GAMQ_FREE(x64);
  return res;
}

/* ---------------------------------------------------------------------------
   Quotient filters: the host reference (private). The QF paper, sections
   III-V; pseudocode in chapter 3 (Algs. 5-14) of Geil, "Tackling GPU
   Memory Size Limitations" (dissertation), "the dissertation" below.

   What this backs: the HOST backend of the public filter API (section 6:
   SQF and RSQF, build, lookup, insert, delete, merge, extract, count), and
   the reference every kernel is compared with, byte for byte. Plain serial
   C, readable first.

   Section 6 documents the hash, the kinds and sizes (nslots and its slack),
   FULL and the multiset semantics; what the reference adds:

   HASH. mix is a bijection of 64-bit words, so for one seed distinct keys
   never collide in h: every collision comes from cutting h to p bits.

   ONE LAYOUT PER MULTISET. Both filters store the remainders of the sorted
   fingerprints at the slots of the position scan of their quotients,
       pos_0 = q_0,   pos_i = max(pos_{i-1} + 1, q_i)
   (the linear-probing layout: runs of equal quotients in order, no wrap
   around), with the metadata derived from that layout, and every unused bit
   zero. So a filter's bytes are a function of its multiset of fingerprints:
   inserting then deleting restores it byte for byte, and every way of
   building it (this reference, the scan methods, the kernels) must produce
   the same bytes. The tests check exactly that after every operation.
   ------------------------------------------------------------------------- */
#include <stdlib.h> /* qsort */

/* The slot reads, rank / select and point operations are also device code:
   the CUDA backend's in-place kernels call these very functions on a filter
   whose data is device memory, so both backends share one definition. */
#if defined(__CUDACC__)
#define GAMQ__HD __host__ __device__
#else
#define GAMQ__HD
#endif

typedef enum gamq__qf_result {
  GAMQ__QF_OK = 0,
  GAMQ__QF_FULL = 1,      /* no room: the filter is unchanged */
  GAMQ__QF_NOT_FOUND = 2, /* delete of a fingerprint that is not stored */
  GAMQ__QF_BAD_ARG = 3,   /* NULL pointer, q or r out of range, unsorted build input ... */
  GAMQ__QF_NO_MEMORY = 4  /* a host allocation failed: the filter is unchanged */
} gamq__qf_result;

typedef enum gamq__qf_kind {
  GAMQ__QF_SQF = 1, /* standard quotient filter, r + 3 bits per slot, r = 5, 13, 21, 29 */
  GAMQ__QF_RSQF = 2 /* rank-and-select quotient filter, 64-slot blocks, r = 1 .. 32 */
} gamq__qf_kind;

typedef struct gamq__qf {
  gamq__qf_kind kind;
  int q, r;       /* quotient and remainder bits; 1 <= q <= 32 */
  int packed;     /* RSQF only: 1 = the PACKED layout, 0 = ALIGNED (see RSQF below); SQF: 0 */
  uint64_t seed;  /* the hash seed */
  uint64_t nslots; /* slots, home slots 0 .. 2^q - 1 first; a multiple of 64 */
  uint64_t nitems; /* fingerprints stored, copies counted */
  size_t bytes;    /* size of data */
  uint8_t *data;   /* the filter's bytes (layouts below) */
} gamq__qf;

/* ---- little helpers: little-endian words, bit counts ---- */

static inline GAMQ__HD uint64_t gamq__load_le(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  int i;
#if defined(__CUDA_ARCH__) /* the device is little-endian: an aligned word is one load */
  if (bytes == 8 && ((uintptr_t)p & 7) == 0) return *(const uint64_t *)p;
#endif
  for (i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
static inline GAMQ__HD void gamq__store_le(uint8_t *p, uint64_t v, int bytes) {
  int i;
  for (i = 0; i < bytes; ++i, v >>= 8) p[i] = (uint8_t)v;
}
/* Index of the k-th set bit of x (k = 0 is the lowest); 64 if x has fewer.
   (gamq__popcount64 and the select are the lookup walk's, beside the ref.) */
static inline GAMQ__HD int gamq__select64(uint64_t x, int k) {
  if (k < 0 || k >= gamq__popcount64(x)) return 64;
  return gamq__ref_select64(x, k);
}
static inline uint64_t gamq__isqrt_u64(uint64_t v) {
  uint64_t s = 0, bit;
  for (bit = (uint64_t)1 << 31; bit; bit >>= 1)
    if ((s + bit) * (s + bit) <= v) s += bit;
  return s;
}

/* ---- fingerprints (gamq__qf_hash64 and gamq__qf_fingerprint_of are the
   lookup walk's, beside the ref) ---- */

static inline GAMQ__HD uint64_t gamq__qf_fingerprint(const gamq__qf *f, uint64_t key) {
  return gamq__qf_fingerprint_of(key, f->seed, f->q, f->r);
}
static inline GAMQ__HD uint64_t gamq__qf_quotient(const gamq__qf *f, uint64_t fp) { return fp >> f->r; }
static inline GAMQ__HD uint64_t gamq__qf_remainder(const gamq__qf *f, uint64_t fp) {
  return fp & (((uint64_t)1 << f->r) - 1); /* r <= 32 */
}
static inline GAMQ__HD int gamq__qf_fp_ok(const gamq__qf *f, uint64_t fp) {
  return f->q + f->r >= 64 || (fp >> (f->q + f->r)) == 0;
}

/* ---------------------------------------------------------------------------
   Sizes. SQF: nslots slots of (r + 3) / 8 bytes (1, 2 or 4), little-endian.
   RSQF, two layouts (picked at creation, see RSQF below):
     ALIGNED  nslots / 64 blocks of round_up(24 + 8r, 64) bytes (64 for r <= 5,
              128 for r <= 13, 192, 256, 320), each 64-byte aligned.
     PACKED   nslots / 64 blocks of 16 + 8r bytes (8-byte aligned), then one
              offset byte per block; the total rounded up to a multiple of 8
              (the tail is zero): (17 + 8r) / 64 bytes a slot, QF paper Table I.
   ------------------------------------------------------------------------- */
static inline int gamq__qf_params_ok(gamq__qf_kind kind, int q, int r) {
  if (q < 1 || q > 32) return 0;
  if (kind == GAMQ__QF_SQF) return r == 5 || r == 13 || r == 21 || r == 29;
  if (kind == GAMQ__QF_RSQF) return r >= 1 && r <= 32;
  return 0;
}
static inline uint64_t gamq__qf_nslots(int q) {
  uint64_t home = (uint64_t)1 << q;
  return (home + 10 * gamq__isqrt_u64(home) + 63) / 64 * 64;
}
static inline GAMQ__HD int gamq__sqf_slot_bytes(int r) { return (r + 3) / 8; }
/* bytes of an ALIGNED RSQF block */
static inline GAMQ__HD size_t gamq__rsqf_block_bytes(int r) { return (size_t)(24 + 8 * r + 63) / 64 * 64; }
/* bytes from one RSQF block to the next, in either layout */
static inline GAMQ__HD size_t gamq__rsqf_stride_of(int r, int packed) {
  return packed ? (size_t)(16 + 8 * r) : gamq__rsqf_block_bytes(r);
}

/* The layout of a filter without making one: slots and bytes; 0 on bad
   parameters (packed for an SQF among them) or a size that does not fit
   size_t. */
static inline int gamq__qf_layout_packed(gamq__qf_kind kind, int q, int r, int packed, uint64_t *nslots,
                                         size_t *bytes) {
  uint64_t n, b;
  if (!gamq__qf_params_ok(kind, q, r) || (packed && kind != GAMQ__QF_RSQF)) return 0;
  n = gamq__qf_nslots(q);
  if (kind == GAMQ__QF_SQF) b = n * (uint64_t)gamq__sqf_slot_bytes(r);
  else if (!packed) b = n / 64 * (uint64_t)gamq__rsqf_block_bytes(r);
  else b = (n / 64 * (uint64_t)(17 + 8 * r) + 7) / 8 * 8; /* blocks, offset bytes, zero tail */
  if (b > (uint64_t)(size_t)-1) return 0;
  if (nslots) *nslots = n;
  if (bytes) *bytes = (size_t)b;
  return 1;
}

/* An empty filter (packed: the PACKED RSQF layout). *f is written only on
   success. */
static inline gamq__qf_result gamq__qf_init_packed(gamq__qf *f, gamq__qf_kind kind, int q, int r, uint64_t seed,
                                                   int packed) {
  gamq__qf g;
  if (f == NULL || !gamq__qf_layout_packed(kind, q, r, packed, &g.nslots, &g.bytes)) return GAMQ__QF_BAD_ARG;
  g.kind = kind, g.q = q, g.r = r, g.packed = packed != 0, g.seed = seed, g.nitems = 0;
  g.data = (uint8_t *)GAMQ_MALLOC(g.bytes);
  if (g.data == NULL) return GAMQ__QF_NO_MEMORY;
  memset(g.data, 0, g.bytes);
  *f = g;
  return GAMQ__QF_OK;
}
/* An empty filter of f's shape (kind, q, r, seed, layout). */
static inline gamq__qf_result gamq__qf_init_like(gamq__qf *g, const gamq__qf *f) {
  return gamq__qf_init_packed(g, f->kind, f->q, f->r, f->seed, f->packed);
}
static inline void gamq__qf_free(gamq__qf *f) {
  if (f == NULL) return;
  GAMQ_FREE(f->data);
  memset(f, 0, sizeof *f);
}
/* Items per home slot (may pass 1 slightly: the slack holds items too). */
static inline double gamq__qf_load_factor(const gamq__qf *f) {
  return f ? (double)f->nitems / (double)((uint64_t)1 << f->q) : 0.0;
}

/* ---------------------------------------------------------------------------
   SQF (the QF paper, III-A, IV). Slot s holds, little-endian in (r + 3) / 8 bytes,
       bit 0   is_occupied      some fingerprint has quotient s (a property of
                                the home slot, not of what the slot holds)
       bit 1   is_continuation  the slot's remainder is not the first of its run
       bit 2   is_shifted       the slot's remainder is not in its home slot
       bits 3..3+r-1  the remainder
   An empty slot is all zero (an occupied slot is never empty: its run starts
   there or a run before it covers it).
   ------------------------------------------------------------------------- */
#define GAMQ__SQF_OCCUPIED 1u
#define GAMQ__SQF_CONTINUATION 2u
#define GAMQ__SQF_SHIFTED 4u

static inline GAMQ__HD uint64_t gamq__sqf_get(const gamq__qf *f, uint64_t s) {
  int sb = gamq__sqf_slot_bytes(f->r);
  return gamq__load_le(f->data + s * (uint64_t)sb, sb);
}
static inline GAMQ__HD void gamq__sqf_put(gamq__qf *f, uint64_t s, uint64_t v) {
  int sb = gamq__sqf_slot_bytes(f->r);
  gamq__store_le(f->data + s * (uint64_t)sb, v, sb);
}
static inline GAMQ__HD int gamq__sqf_occupied(const gamq__qf *f, uint64_t s) { return (gamq__sqf_get(f, s) & GAMQ__SQF_OCCUPIED) != 0; }
static inline GAMQ__HD int gamq__sqf_continuation(const gamq__qf *f, uint64_t s) { return (gamq__sqf_get(f, s) & GAMQ__SQF_CONTINUATION) != 0; }
static inline GAMQ__HD int gamq__sqf_empty(const gamq__qf *f, uint64_t s) { return (gamq__sqf_get(f, s) & 7u) == 0; }
static inline GAMQ__HD uint64_t gamq__sqf_rem(const gamq__qf *f, uint64_t s) { return gamq__sqf_get(f, s) >> 3; }
/* Write what slot s holds (remainder, continuation, shifted); keep its occupied bit. */
static inline GAMQ__HD void gamq__sqf_set_item(gamq__qf *f, uint64_t s, uint64_t rem, int cont, int shifted) {
  uint64_t v = (gamq__sqf_get(f, s) & GAMQ__SQF_OCCUPIED) | (rem << 3);
  if (cont) v |= GAMQ__SQF_CONTINUATION;
  if (shifted) v |= GAMQ__SQF_SHIFTED;
  gamq__sqf_put(f, s, v);
}
static inline GAMQ__HD void gamq__sqf_set_occupied(gamq__qf *f, uint64_t s, int on) {
  uint64_t v = gamq__sqf_get(f, s) & ~(uint64_t)GAMQ__SQF_OCCUPIED;
  gamq__sqf_put(f, s, on ? v | GAMQ__SQF_OCCUPIED : v);
}

/* The walks below read slots eight at a time: the GROUP g is slots 8g ..
   8g + 7, sb = (r + 3) / 8 aligned 64-bit words at byte 8g * sb (nslots is
   a multiple of 64 and the data 8-byte aligned), one load each on a GPU.
   Reading a slot at a time costs one load instruction per slot, and a
   warp's loads at 32 random places cost 32 L1 passes each: at 2^20 keys
   into a 70%-full 2^30-slot SQF that count bounds the bidding round (H200).
   Slots read past where a walk stops are ignored; writes stay
   per slot (a group may hold another window's slots). */
#if defined(__CUDA_ARCH__)
#define GAMQ__UNROLL _Pragma("unroll")
#else
#define GAMQ__UNROLL
#endif

/* v[k] = slot 8g + k (all 0, empty slots, past the end). */
static inline GAMQ__HD void gamq__sqf_load8(const gamq__qf *f, uint64_t g, uint64_t *v) {
  const int sb = gamq__sqf_slot_bytes(f->r);
  const uint8_t *p = f->data + g * 8 * (uint64_t)sb;
  uint64_t w[4];
  int k;
  if (g >= f->nslots / 8) {
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) v[k] = 0;
    return;
  }
  w[0] = gamq__load_le(p, 8);
  w[1] = sb > 1 ? gamq__load_le(p + 8, 8) : 0;
  w[2] = sb > 2 ? gamq__load_le(p + 16, 8) : 0;
  w[3] = sb > 3 ? gamq__load_le(p + 24, 8) : 0;
  if (sb == 1) {
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) v[k] = (w[0] >> (8 * k)) & 0xff;
  } else if (sb == 2) {
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) v[k] = (w[k >> 2] >> (16 * (k & 3))) & 0xffff;
  } else if (sb == 4) {
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) v[k] = (w[k >> 1] >> (32 * (k & 1))) & 0xffffffffu;
  } else { /* 3 bytes: slot k at bits 24k .. 24k + 23 of the 192 */
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) {
      const int bit = 24 * k, i = bit >> 6, sh = bit & 63;
      v[k] = ((w[i] >> sh) | (sh > 40 ? w[i + 1] << (64 - sh) : 0)) & 0xffffff;
    }
  }
}

/* The first empty slot at or after s; nslots when there is none. */
static inline GAMQ__HD uint64_t gamq__sqf_next_empty(const gamq__qf *f, uint64_t s) {
  uint64_t v[8], g;
  int k;
  for (g = s >> 3; g < f->nslots / 8; ++g) {
    gamq__sqf_load8(f, g, v);
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k)
      if (8 * g + k >= s && (v[k] & 7u) == 0) return 8 * g + k;
  }
  return f->nslots;
}

/* The last slot at or below s whose value v has (v & mask) == want;
   ~0 when there is none. */
static inline GAMQ__HD uint64_t gamq__sqf_prev_with(const gamq__qf *f, uint64_t s, uint64_t mask, uint64_t want) {
  uint64_t v[8], g;
  int k;
  for (g = s >> 3;; --g) {
    gamq__sqf_load8(f, g, v);
    GAMQ__UNROLL
    for (k = 7; k >= 0; --k)
      if (8 * g + k <= s && (v[k] & mask) == want) return 8 * g + k;
    if (g == 0) return ~(uint64_t)0;
  }
}

/* The first slot of the cluster that slot s is in: s itself when its
   remainder is not shifted, else the nearest slot below it that is not
   shifted (slot 0 never is). */
static inline GAMQ__HD uint64_t gamq__sqf_cluster_start(const gamq__qf *f, uint64_t s) {
  const uint64_t b = gamq__sqf_prev_with(f, s, GAMQ__SQF_SHIFTED, 0);
  return b == ~(uint64_t)0 ? 0 : b;
}

/* FINDRUNSTART (the dissertation's Alg. 5): the slot where the run of quotient fq
   starts, or would start if fq is not occupied. Slot fq must not be empty.
   From the cluster's first slot b (its remainder sits in its home slot, so
   it heads the run of quotient b) the runs lie in quotient order: fq's run
   starts at the K-th run head after b, K = the occupied quotients in
   [b, fq). That head is at or after fq (a run starts at or after its
   quotient), so one pass right from b counts both and stops there. */
static inline GAMQ__HD uint64_t gamq__sqf_run_start(const gamq__qf *f, uint64_t fq) {
  const uint64_t b = gamq__sqf_cluster_start(f, fq);
  uint64_t v[8], g, occ = 0, heads = 0;
  int k;
  if (b == fq) return fq;
  for (g = b >> 3;; ++g) {
    if (g >= f->nslots / 8) return f->nslots;
    gamq__sqf_load8(f, g, v);
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) {
      const uint64_t u = 8 * g + k;
      if (u < b) continue;
      if (u < fq) occ += v[k] & GAMQ__SQF_OCCUPIED;
      if (u > b && !(v[k] & GAMQ__SQF_CONTINUATION) && ++heads == occ && u >= fq) return u;
    }
  }
}

/* Shift slots p .. e-1 one to the right (slot e is empty): each moved
   remainder keeps its continuation bit and is shifted now; occupied bits
   stay with their slots. Group by group from the top; the group below is
   read before this one is written, so no slot is read after it changed. */
static inline GAMQ__HD void gamq__sqf_shift_right(gamq__qf *f, uint64_t p, uint64_t e) {
  uint64_t cur[8], below[8], g;
  int k;
  if (e <= p) return;
  gamq__sqf_load8(f, e >> 3, cur);
  for (g = e >> 3;; --g) {
    const int low = 8 * g > p; /* slot 8g is written: it takes slot 8g - 1 */
    if (low) gamq__sqf_load8(f, g - 1, below);
    GAMQ__UNROLL
    for (k = 7; k >= 0; --k) {
      const uint64_t s = 8 * g + k;
      if (s > p && s <= e) {
        const uint64_t from = k > 0 ? cur[k - 1] : below[7];
        gamq__sqf_put(f, s, (cur[k] & GAMQ__SQF_OCCUPIED) |
                                (from & ~(uint64_t)(GAMQ__SQF_OCCUPIED | GAMQ__SQF_SHIFTED)) | GAMQ__SQF_SHIFTED);
      }
    }
    if (!low) return;
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) cur[k] = below[k];
  }
}

/* Insert one copy (the dissertation's Alg. 7 without its deduplication): find the first
   empty slot e at or after the home slot (none: FULL), find the place p in
   the run (after equal remainders), shift slots p .. e-1 one to the right,
   write the remainder at p. */
static inline GAMQ__HD gamq__qf_result gamq__sqf_insert(gamq__qf *f, uint64_t fq, uint64_t fr) {
  uint64_t e, s, p, v;
  int had_run = gamq__sqf_occupied(f, fq);
  e = gamq__sqf_next_empty(f, fq);
  if (e == f->nslots) return GAMQ__QF_FULL;
  if (e == fq) { /* the home slot is free */
    gamq__sqf_set_item(f, fq, fr, 0, 0);
    gamq__sqf_set_occupied(f, fq, 1);
    return GAMQ__QF_OK;
  }
  s = p = gamq__sqf_run_start(f, fq);
  if (had_run) { /* step over remainders <= fr */
    while (gamq__sqf_rem(f, p) <= fr) {
      ++p;
      if (p == f->nslots || !gamq__sqf_continuation(f, p)) break;
    }
  }
  gamq__sqf_shift_right(f, p, e);
  gamq__sqf_set_item(f, p, fr, had_run && p != s, p != fq);
  if (had_run && p == s) { /* the new remainder heads the run: the old head continues it */
    v = gamq__sqf_get(f, p + 1);
    gamq__sqf_set_item(f, p + 1, v >> 3, 1, 1);
  }
  gamq__sqf_set_occupied(f, fq, 1);
  return GAMQ__QF_OK;
}

/* Close the gap a delete left at slot i (a slot of quotient fq's run, or
   the one after it): move left every following remainder that is not in
   its home slot, up to an empty slot or a run head in its home slot. A
   remainder moved into slot i is home there when it belongs to quotient i:
   the h-th run moved (h counted from 1; before any, the run is fq's) is
   the run of the h-th occupied quotient after fq, so slot i is its home
   when i is occupied and the occupied quotients in (fq, i] number h.
   Groups are read ahead of the writes, which stay behind them. */
static inline GAMQ__HD void gamq__sqf_shift_left(gamq__qf *f, uint64_t fq, uint64_t i) {
  uint64_t v[8], cur = gamq__sqf_get(f, i), occ = 0, heads = 0, g;
  int k;
  for (g = (fq + 1) >> 3; 8 * g <= i; ++g) { /* occ = occupied quotients in (fq, i] */
    gamq__sqf_load8(f, g, v);
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k)
      if (8 * g + k > fq && 8 * g + k <= i) occ += v[k] & GAMQ__SQF_OCCUPIED;
  }
  for (g = (i + 1) >> 3;; ++g) {
    gamq__sqf_load8(f, g, v); /* 0 past the end: an empty slot stops the walk */
    GAMQ__UNROLL
    for (k = 0; k < 8; ++k) { /* slot 8g + k = i + 1 moves into slot i */
      const uint64_t w = v[k];
      int home;
      if (8 * g + k <= i) continue;
      if ((w & 7u) == 0 || !(w & GAMQ__SQF_SHIFTED)) {
        gamq__sqf_put(f, i, cur & GAMQ__SQF_OCCUPIED);
        return;
      }
      if (!(w & GAMQ__SQF_CONTINUATION)) ++heads;
      home = heads == 0 ? i == fq : (cur & GAMQ__SQF_OCCUPIED) && occ == heads;
      gamq__sqf_put(f, i, (cur & GAMQ__SQF_OCCUPIED) | (w & ~(uint64_t)(GAMQ__SQF_OCCUPIED | GAMQ__SQF_SHIFTED)) |
                              (home ? 0 : GAMQ__SQF_SHIFTED));
      cur = w, i = 8 * g + k;
      occ += w & GAMQ__SQF_OCCUPIED;
    }
  }
}

/* Delete one copy (the dissertation's Alg. 11): find it, then close the gap
   (gamq__sqf_shift_left). */
static inline GAMQ__HD gamq__qf_result gamq__sqf_delete(gamq__qf *f, uint64_t fq, uint64_t fr) {
  uint64_t s, p, v;
  if (!gamq__sqf_occupied(f, fq)) return GAMQ__QF_NOT_FOUND;
  s = p = gamq__sqf_run_start(f, fq);
  for (;;) {
    v = gamq__sqf_rem(f, p);
    if (v == fr) break;
    ++p;
    if (v > fr || p == f->nslots || !gamq__sqf_continuation(f, p)) return GAMQ__QF_NOT_FOUND;
  }
  if (p == s) {
    if (p + 1 < f->nslots && gamq__sqf_continuation(f, p + 1)) {
      /* the head goes and the run goes on: move the second remainder into
         the head slot and delete the second slot instead */
      gamq__sqf_set_item(f, p, gamq__sqf_rem(f, p + 1), 0, p != fq);
      ++p;
    } else {
      gamq__sqf_set_occupied(f, fq, 0); /* the run's only remainder */
    }
  }
  gamq__sqf_shift_left(f, fq, p);
  return GAMQ__QF_OK;
}

/* ---------------------------------------------------------------------------
   RSQF (the QF paper, III-B, V). Block b covers slots 64b .. 64b + 63:
       bytes  0..7    occupieds   bit i: quotient 64b + i has a run
       bytes  8..15   runends     bit i: slot 64b + i ends a run
       byte  16       offset      min(255, O_b)  (below)
       bytes 17..23   zero
       bytes 24..     64 remainders of r bits, a little-endian bit stream
                      (remainder i at bits 24*8 + i*r ..), then zero padding
   up to round_up(24 + 8r, 64) bytes: a block of r <= 5 is one 64-byte line,
   of r <= 13 one 128-byte region. That is the ALIGNED layout. The PACKED
   layout (f->packed) drops the padding: blocks of 16 + 8r bytes (bytes 0..7
   occupieds, 8..15 runends, 16.. the remainders, remainder i at bits
   16*8 + i*r ..; a multiple of 8, so the words stay 8-byte aligned), and
   the offset of block b is byte nblocks * (16 + 8r) + b, after all blocks.
   Everything below reads and writes through the accessors that follow.

   OFFSET. O_b = max(0, E - 64b) where E is the first slot after the runs of
   all quotients below 64b: the slots of block b that earlier runs spill into.
   The runs of block b's quotients lie in order from slot 64b + O_b on, so the
   run of an occupied quotient x = 64b + i ends at the d-th runend at or after
   64b + O_b, d = rank(occupieds, i) (bits 0..i). 255 means "255 or more":
   the true value is rebuilt from the block before (gamq__rsqf_offset), which
   only blocks behind a spill that long pay for.
   ------------------------------------------------------------------------- */
#define GAMQ__RSQF_OFFSET_MAX 255u

static inline GAMQ__HD uint64_t gamq__rsqf_stride(const gamq__qf *f) { return gamq__rsqf_stride_of(f->r, f->packed); }
/* the byte of a block where its remainders start: 24 ALIGNED, 16 PACKED */
static inline GAMQ__HD int gamq__rsqf_rem_byte(const gamq__qf *f) { return f->packed ? 16 : 24; }
static inline GAMQ__HD uint8_t *gamq__rsqf_block(const gamq__qf *f, uint64_t b) {
  return f->data + b * gamq__rsqf_stride(f);
}
/* where the stored offset of block b is: byte 16 of the block (ALIGNED) or
   byte b of the array after the blocks (PACKED) */
static inline GAMQ__HD uint8_t *gamq__rsqf_offset_at(const gamq__qf *f, uint64_t b) {
  return f->packed ? f->data + f->nslots / 64 * gamq__rsqf_stride(f) + b : gamq__rsqf_block(f, b) + 16;
}
static inline GAMQ__HD uint64_t gamq__rsqf_occupieds(const gamq__qf *f, uint64_t b) { return gamq__load_le(gamq__rsqf_block(f, b), 8); }
static inline GAMQ__HD uint64_t gamq__rsqf_runends(const gamq__qf *f, uint64_t b) { return gamq__load_le(gamq__rsqf_block(f, b) + 8, 8); }
static inline GAMQ__HD int gamq__rsqf_occupied(const gamq__qf *f, uint64_t x) { return (int)((gamq__rsqf_occupieds(f, x >> 6) >> (x & 63)) & 1); }
static inline GAMQ__HD int gamq__rsqf_runend(const gamq__qf *f, uint64_t s) { return (int)((gamq__rsqf_runends(f, s >> 6) >> (s & 63)) & 1); }
static inline GAMQ__HD void gamq__rsqf_set_bit(gamq__qf *f, uint64_t s, int word, int on) {
  uint8_t *p = gamq__rsqf_block(f, s >> 6) + 8 * word;
  uint64_t w = gamq__load_le(p, 8), m = (uint64_t)1 << (s & 63);
  gamq__store_le(p, on ? w | m : w & ~m, 8);
}
static inline GAMQ__HD void gamq__rsqf_set_occupied(gamq__qf *f, uint64_t x, int on) { gamq__rsqf_set_bit(f, x, 0, on); }
static inline GAMQ__HD void gamq__rsqf_set_runend(gamq__qf *f, uint64_t s, int on) { gamq__rsqf_set_bit(f, s, 1, on); }
static inline GAMQ__HD uint64_t gamq__rsqf_rem(const gamq__qf *f, uint64_t s) {
  uint64_t bit = (s & 63) * (uint64_t)f->r;
#if defined(__CUDA_ARCH__) /* the remainders start 8-byte aligned in both layouts: one or two word loads */
  const uint64_t *w = (const uint64_t *)(gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f)) + (bit >> 6);
  const int sh = (int)(bit & 63);
  uint64_t v = w[0] >> sh;
  if (sh + f->r > 64) v |= w[1] << (64 - sh);
  return v & (((uint64_t)1 << f->r) - 1);
#else
  const uint8_t *p = gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f) + bit / 8;
  int shift = (int)(bit % 8), nbytes = (shift + f->r + 7) / 8;
  return (gamq__load_le(p, nbytes) >> shift) & (((uint64_t)1 << f->r) - 1);
#endif
}
static inline GAMQ__HD void gamq__rsqf_set_rem(gamq__qf *f, uint64_t s, uint64_t rem) {
  uint64_t bit = (s & 63) * (uint64_t)f->r, mask = ((uint64_t)1 << f->r) - 1, w;
  uint8_t *p = gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f) + bit / 8;
  int shift = (int)(bit % 8), nbytes = (shift + f->r + 7) / 8;
  w = gamq__load_le(p, nbytes);
  w = (w & ~(mask << shift)) | ((rem & mask) << shift);
  gamq__store_le(p, w, nbytes);
}
static inline GAMQ__HD uint64_t gamq__rsqf_stored_offset(const gamq__qf *f, uint64_t b) { return *gamq__rsqf_offset_at(f, b); }

/* select: the slot of the d-th (d >= 1) runend at or after slot pos, across
   blocks; nslots if there are fewer (never, in a valid filter). */
static inline GAMQ__HD uint64_t gamq__rsqf_select_runend(const gamq__qf *f, uint64_t pos, uint64_t d) {
  while (pos < f->nslots) {
    uint64_t b = pos >> 6, w = gamq__rsqf_runends(f, b) & (~(uint64_t)0 << (pos & 63));
    uint64_t c = (uint64_t)gamq__popcount64(w);
    if (c >= d) return b * 64 + (uint64_t)gamq__select64(w, (int)(d - 1));
    d -= c;
    pos = (b + 1) * 64;
  }
  return f->nslots;
}

/* The first slot after the runs of all quotients <= x, or the first slot of
   x's block if that is further right; off is the true offset of x's block.
   Slot x is empty exactly when this is <= x. */
static inline GAMQ__HD uint64_t gamq__rsqf_runs_end_with(const gamq__qf *f, uint64_t x, uint64_t off) {
  uint64_t b = x >> 6, i = x & 63;
  uint64_t mask = i == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (i + 1)) - 1;
  int d = gamq__popcount64(gamq__rsqf_occupieds(f, b) & mask); /* rank */
  if (d == 0) return b * 64 + off;
  return gamq__rsqf_select_runend(f, b * 64 + off, (uint64_t)d) + 1;
}
/* O_b from O_{b-1}: the runs of quotients below 64b end where those of
   quotients <= 64b - 1 do. */
static inline GAMQ__HD uint64_t gamq__rsqf_next_offset(const gamq__qf *f, uint64_t b, uint64_t prev_off) {
  uint64_t end = gamq__rsqf_runs_end_with(f, b * 64 - 1, prev_off);
  return end > b * 64 ? end - b * 64 : 0;
}
/* The true offset of block b: the stored one, or rebuilt from the last block
   before it whose stored offset is not saturated (block 0's is always 0). */
static inline GAMQ__HD uint64_t gamq__rsqf_offset(const gamq__qf *f, uint64_t b) {
  uint64_t a = b, off;
  while (a > 0 && gamq__rsqf_stored_offset(f, a) == GAMQ__RSQF_OFFSET_MAX) --a;
  off = gamq__rsqf_stored_offset(f, a);
  for (++a; a <= b; ++a) off = gamq__rsqf_next_offset(f, a, off);
  return off;
}
static inline GAMQ__HD void gamq__rsqf_store_offset(gamq__qf *f, uint64_t b, uint64_t off) {
  *gamq__rsqf_offset_at(f, b) = (uint8_t)(off < GAMQ__RSQF_OFFSET_MAX ? off : GAMQ__RSQF_OFFSET_MAX);
}
/* Recompute the offsets of the blocks that start in (from, to] after the
   runs there changed (offsets of earlier blocks did not). */
static inline GAMQ__HD void gamq__rsqf_fix_offsets(gamq__qf *f, uint64_t from, uint64_t to) {
  uint64_t b = from / 64 + 1, off;
  if (b * 64 > to || b >= f->nslots / 64) return;
  off = gamq__rsqf_offset(f, b - 1);
  for (; b * 64 <= to && b < f->nslots / 64; ++b) {
    off = gamq__rsqf_next_offset(f, b, off);
    gamq__rsqf_store_offset(f, b, off);
  }
}
static inline GAMQ__HD uint64_t gamq__rsqf_runs_end(const gamq__qf *f, uint64_t x) {
  return gamq__rsqf_runs_end_with(f, x, gamq__rsqf_offset(f, x >> 6));
}
/* Where the run of quotient x starts (or would start). */
static inline GAMQ__HD uint64_t gamq__rsqf_run_start(const gamq__qf *f, uint64_t x) {
  uint64_t e;
  if (x == 0) return 0;
  e = gamq__rsqf_runs_end(f, x - 1);
  return e > x ? e : x;
}

/* Insert one copy (the dissertation's Algs. 13-14, serially): the first unused slot e at or
   after the home slot (jump over runs: FINDFIRSTUNUSEDSLOT), the place p in
   the run, shift remainders and runend bits of p .. e-1 right, fix offsets. */
static inline GAMQ__HD gamq__qf_result gamq__rsqf_insert(gamq__qf *f, uint64_t fq, uint64_t fr) {
  uint64_t e = fq, t, p, end = 0, i;
  int had_run = gamq__rsqf_occupied(f, fq);
  for (;;) {
    if (e >= f->nslots) return GAMQ__QF_FULL;
    t = gamq__rsqf_runs_end(f, e);
    if (t <= e) break;
    e = t;
  }
  p = gamq__rsqf_run_start(f, fq);
  if (had_run) {
    end = gamq__rsqf_runs_end(f, fq) - 1;
    while (p <= end && gamq__rsqf_rem(f, p) <= fr) ++p;
  }
  for (i = e; i > p; --i) {
    gamq__rsqf_set_rem(f, i, gamq__rsqf_rem(f, i - 1));
    gamq__rsqf_set_runend(f, i, gamq__rsqf_runend(f, i - 1));
  }
  gamq__rsqf_set_rem(f, p, fr);
  if (!had_run) {
    gamq__rsqf_set_runend(f, p, 1);
    gamq__rsqf_set_occupied(f, fq, 1);
  } else if (p == end + 1) { /* appended: the run now ends here */
    gamq__rsqf_set_runend(f, end, 0);
    gamq__rsqf_set_runend(f, p, 1);
  } else {
    gamq__rsqf_set_runend(f, p, 0);
  }
  gamq__rsqf_fix_offsets(f, fq, e);
  return GAMQ__QF_OK;
}

/* Delete one copy: find it in its run, shift left the remainders after it
   up to an empty slot or a run head in its home slot (which stays), fix the
   offsets of the blocks that start in the moved stretch. */
static inline GAMQ__HD gamq__qf_result gamq__rsqf_delete(gamq__qf *f, uint64_t fq, uint64_t fr) {
  uint64_t start, end, p, i, j, quot, x;
  int ended;
  if (!gamq__rsqf_occupied(f, fq)) return GAMQ__QF_NOT_FOUND;
  start = gamq__rsqf_run_start(f, fq);
  end = gamq__rsqf_runs_end(f, fq) - 1;
  for (p = start; p <= end && gamq__rsqf_rem(f, p) < fr; ++p) {
  }
  if (p > end || gamq__rsqf_rem(f, p) != fr) return GAMQ__QF_NOT_FOUND;
  ended = gamq__rsqf_runend(f, p); /* did the deleted remainder end its run? */
  if (start == end) gamq__rsqf_set_occupied(f, fq, 0);  /* the run's only remainder */
  else if (p == end) gamq__rsqf_set_runend(f, p - 1, 1); /* the run now ends one earlier */
  i = p, quot = fq;
  for (;;) {
    j = i + 1;
    if (j >= f->nslots) break;
    if (ended) { /* slot j would start the next run: move it only if it is not home */
      for (x = quot + 1; x < j && !gamq__rsqf_occupied(f, x); ++x) {
      }
      if (x >= j) break;
      quot = x;
    }
    ended = gamq__rsqf_runend(f, j);
    gamq__rsqf_set_rem(f, i, gamq__rsqf_rem(f, j));
    gamq__rsqf_set_runend(f, i, ended);
    i = j;
  }
  gamq__rsqf_set_rem(f, i, 0);
  gamq__rsqf_set_runend(f, i, 0);
  gamq__rsqf_fix_offsets(f, fq, i);
  return GAMQ__QF_OK;
}

/* ---------------------------------------------------------------------------
   Both filters: point operations on fingerprints, bulk build, extract, merge,
   batches.
   ------------------------------------------------------------------------- */
/* The view of filter f that the lookup walk (gamq_qf_ref_contains_fp) reads. */
static inline gamq_qf_ref gamq__qf_ref_of(const gamq__qf *f) {
  gamq_qf_ref ref;
  ref.kind = f->kind == GAMQ__QF_SQF ? GAMQ_QF_SQF : GAMQ_QF_RSQF;
  ref.q = f->q, ref.r = f->r, ref.seed = f->seed, ref.nslots = f->nslots, ref.data = f->data;
  ref.layout = f->packed ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  return ref;
}
static inline gamq__qf_result gamq__qf_insert(gamq__qf *f, uint64_t fp) {
  gamq__qf_result res;
  if (f == NULL || f->data == NULL || !gamq__qf_fp_ok(f, fp)) return GAMQ__QF_BAD_ARG;
  res = f->kind == GAMQ__QF_SQF ? gamq__sqf_insert(f, gamq__qf_quotient(f, fp), gamq__qf_remainder(f, fp))
                                : gamq__rsqf_insert(f, gamq__qf_quotient(f, fp), gamq__qf_remainder(f, fp));
  if (res == GAMQ__QF_OK) f->nitems++;
  return res;
}
static inline gamq__qf_result gamq__qf_delete(gamq__qf *f, uint64_t fp) {
  gamq__qf_result res;
  if (f == NULL || f->data == NULL || !gamq__qf_fp_ok(f, fp)) return GAMQ__QF_BAD_ARG;
  res = f->kind == GAMQ__QF_SQF ? gamq__sqf_delete(f, gamq__qf_quotient(f, fp), gamq__qf_remainder(f, fp))
                                : gamq__rsqf_delete(f, gamq__qf_quotient(f, fp), gamq__qf_remainder(f, fp));
  if (res == GAMQ__QF_OK) f->nitems--;
  return res;
}

/* Extract every stored fingerprint, ascending (copies repeated), into out
   (room for cap). The QF paper IV-E / the dissertation's Alg. 12, serially:
   the runs lie in quotient order, the run of quotient x from max(x, end of
   the run before) on; SQF runs go on while is_continuation, RSQF runs stop
   at a runend. Safe on bytes nobody vouches for (a file's): every read stays
   inside the filter and at most cap fingerprints are written (out NULL:
   none, the walk only counts). 1 when the walk went through and found
   exactly cap; 0 when the runs leave the filter or hold another number of
   fingerprints. (What the walk does not look at, such as stray bits,
   gamq__qf_check_payload's rebuild-and-compare catches.) */
static inline int gamq__qf_extract_checked(const gamq__qf *f, uint64_t *out, uint64_t cap) {
  uint64_t x, s, next = 0, k = 0, home = (uint64_t)1 << f->q;
  for (x = 0; x < home; ++x) {
    int occ = f->kind == GAMQ__QF_SQF ? gamq__sqf_occupied(f, x) : gamq__rsqf_occupied(f, x);
    if (!occ) continue;
    s = next > x ? next : x;
    if (f->kind == GAMQ__QF_SQF) {
      do {
        if (s >= f->nslots || k == cap) return 0;
        if (out) out[k] = (x << f->r) | gamq__sqf_rem(f, s);
        ++k, ++s;
      } while (s < f->nslots && gamq__sqf_continuation(f, s));
    } else {
      for (;;) {
        if (s >= f->nslots || k == cap) return 0;
        if (out) out[k] = (x << f->r) | gamq__rsqf_rem(f, s);
        ++k;
        if (gamq__rsqf_runend(f, s++)) break;
      }
    }
    next = s;
  }
  return k == cap;
}
/* The same for a filter of this library: out has room for f->nitems;
   returns the count written. */
static inline uint64_t gamq__qf_extract(const gamq__qf *f, uint64_t *out) {
  int ok;
  if (f == NULL || f->data == NULL || (out == NULL && f->nitems > 0)) return 0;
  ok = gamq__qf_extract_checked(f, out, f->nitems);
  GAMQ_ASSERT(ok);
  return ok ? f->nitems : 0;
}

/* Bulk build (the QF paper, IV-C): the filter becomes exactly the n sorted
   fingerprints fp (replacing what it held). Slots come from the position
   scan of the quotients by the given method (gamq__host_position_u64); then
   each remainder is written to its slot and the metadata derived from the
   layout. Unsorted input or a fingerprint wider than q + r bits: BAD_ARG;
   a last slot at or past nslots: FULL. On any error the filter is unchanged. */
static inline gamq__qf_result gamq__qf_build(gamq__qf *f, const uint64_t *fp, uint64_t n, gamq__na_method method) {
  uint64_t *quot, *pos, i, b, j;
  gamq__na_result sr;
  if (f == NULL || f->data == NULL || (fp == NULL && n > 0)) return GAMQ__QF_BAD_ARG;
  for (i = 0; i < n; ++i)
    if (!gamq__qf_fp_ok(f, fp[i]) || (i > 0 && fp[i] < fp[i - 1])) return GAMQ__QF_BAD_ARG;
  if (n > f->nslots) return GAMQ__QF_FULL;
  if (n == 0) {
    memset(f->data, 0, f->bytes);
    f->nitems = 0;
    return GAMQ__QF_OK;
  }
  quot = (uint64_t *)GAMQ_MALLOC(n * sizeof(uint64_t));
  pos = (uint64_t *)GAMQ_MALLOC(n * sizeof(uint64_t));
  if (quot == NULL || pos == NULL) {
    GAMQ_FREE(quot);
    GAMQ_FREE(pos);
    return GAMQ__QF_NO_MEMORY;
  }
  for (i = 0; i < n; ++i) quot[i] = gamq__qf_quotient(f, fp[i]);
  sr = gamq__host_position_u64((size_t)n, quot, NULL, NULL, method, 0, pos, NULL);
  if (sr != GAMQ__NA_OK || pos[n - 1] >= f->nslots) {
    GAMQ_FREE(quot);
    GAMQ_FREE(pos);
    return sr == GAMQ__NA_NO_MEMORY ? GAMQ__QF_NO_MEMORY : sr == GAMQ__NA_OK ? GAMQ__QF_FULL : GAMQ__QF_BAD_ARG;
  }
  memset(f->data, 0, f->bytes);
  for (i = 0; i < n; ++i) {
    uint64_t rem = gamq__qf_remainder(f, fp[i]);
    int first = i == 0 || quot[i] != quot[i - 1], last = i == n - 1 || quot[i + 1] != quot[i];
    if (f->kind == GAMQ__QF_SQF) {
      gamq__sqf_set_item(f, pos[i], rem, !first, pos[i] != quot[i]);
    } else {
      gamq__rsqf_set_rem(f, pos[i], rem);
      if (last) gamq__rsqf_set_runend(f, pos[i], 1);
    }
  }
  for (i = 0; i < n; ++i) { /* occupied bits after the items: SQF set_item keeps them */
    if (f->kind == GAMQ__QF_SQF) gamq__sqf_set_occupied(f, quot[i], 1);
    else gamq__rsqf_set_occupied(f, quot[i], 1);
  }
  if (f->kind == GAMQ__QF_RSQF) {
    /* O_b: past the last item whose quotient is below 64b (positions ascend) */
    for (b = 0, j = 0; b < f->nslots / 64; ++b) {
      while (j < n && quot[j] < b * 64) ++j;
      gamq__rsqf_store_offset(f, b, j > 0 && pos[j - 1] + 1 > b * 64 ? pos[j - 1] + 1 - b * 64 : 0);
    }
  }
  f->nitems = n;
  GAMQ_FREE(quot);
  GAMQ_FREE(pos);
  return GAMQ__QF_OK;
}

static inline int gamq__qf_same_shape(const gamq__qf *a, const gamq__qf *b) {
  return a->kind == b->kind && a->q == b->q && a->r == b->r && a->seed == b->seed && a->packed == b->packed;
}

/* Merge sorted a[0..na) and b[0..nb) into out (the serial merge path). */
static inline void gamq__qf_merge_sorted(const uint64_t *a, uint64_t na, const uint64_t *b, uint64_t nb, uint64_t *out) {
  uint64_t i = 0, j = 0, k = 0;
  while (i < na && j < nb) out[k++] = b[j] < a[i] ? b[j++] : a[i++];
  while (i < na) out[k++] = a[i++];
  while (j < nb) out[k++] = b[j++];
}

/* out = a + b (multiset sum), the QF paper IV-E: extract both, merge, rebuild.
   All three must have the same kind, q, r, seed and layout; out may be a or b.
   FULL / NO_MEMORY leave out unchanged. */
static inline gamq__qf_result gamq__qf_merge(gamq__qf *out, const gamq__qf *a, const gamq__qf *b,
                                            gamq__na_method method) {
  uint64_t *fa, *fb, *fm, n;
  gamq__qf_result res;
  if (out == NULL || a == NULL || b == NULL || out->data == NULL || a->data == NULL || b->data == NULL ||
      !gamq__qf_same_shape(out, a) || !gamq__qf_same_shape(out, b))
    return GAMQ__QF_BAD_ARG;
  n = a->nitems + b->nitems;
  if (n > out->nslots) return GAMQ__QF_FULL;
  fa = (uint64_t *)GAMQ_MALLOC((a->nitems + 1) * sizeof(uint64_t));
  fb = (uint64_t *)GAMQ_MALLOC((b->nitems + 1) * sizeof(uint64_t));
  fm = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t));
  if (fa == NULL || fb == NULL || fm == NULL) {
    res = GAMQ__QF_NO_MEMORY;
  } else {
    gamq__qf_extract(a, fa);
    gamq__qf_extract(b, fb);
    gamq__qf_merge_sorted(fa, a->nitems, fb, b->nitems, fm);
    res = gamq__qf_build(out, fm, n, method);
  }
  GAMQ_FREE(fa);
  GAMQ_FREE(fb);
  GAMQ_FREE(fm);
  return res;
}

static inline int gamq__qf_cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* How a batch insert runs: in place one by one, or merge-and-rebuild. */
typedef enum gamq__qf_batch_path {
  GAMQ__QF_BATCH_AUTO = 0,     /* REBUILD when n >= nitems / 4, else in place (CUDA: see gamq__qf_change_sync) */
  GAMQ__QF_BATCH_IN_PLACE = 1, /* point inserts; on FULL the ones made are deleted again */
  GAMQ__QF_BATCH_REBUILD = 2,  /* sort the batch, extract, merge, bulk build */
  GAMQ__QF_BATCH_WINDOWS = 3   /* CUDA: in place by window re-layout (kernels 2c); HOST: as IN_PLACE */
} gamq__qf_batch_path;

/* Insert a batch of n fingerprints (any order, repeats allowed): all or
   nothing. FULL: none went in and the filter is byte for byte as it was (an
   in-place batch deletes what it inserted, which restores the layout because
   the layout is a function of the multiset). NO_MEMORY (rebuild only) too. */
static inline gamq__qf_result gamq__qf_insert_batch(gamq__qf *f, const uint64_t *fp, uint64_t n,
                                                   gamq__qf_batch_path path, gamq__na_method method) {
  uint64_t i, *sorted, *old, *merged;
  gamq__qf_result res = GAMQ__QF_OK;
  if (f == NULL || f->data == NULL || (fp == NULL && n > 0)) return GAMQ__QF_BAD_ARG;
  for (i = 0; i < n; ++i)
    if (!gamq__qf_fp_ok(f, fp[i])) return GAMQ__QF_BAD_ARG;
  if (n == 0) return GAMQ__QF_OK;
  if (n > f->nslots - f->nitems) return GAMQ__QF_FULL;
  if (path == GAMQ__QF_BATCH_AUTO) path = n >= f->nitems / 4 ? GAMQ__QF_BATCH_REBUILD : GAMQ__QF_BATCH_IN_PLACE;
  if (path == GAMQ__QF_BATCH_IN_PLACE || path == GAMQ__QF_BATCH_WINDOWS) {
    for (i = 0; i < n && res == GAMQ__QF_OK; ++i) res = gamq__qf_insert(f, fp[i]);
    if (res != GAMQ__QF_OK)
      for (i -= 1; i-- > 0;) gamq__qf_delete(f, fp[i]); /* undo the ones that went in */
    return res;
  }
  sorted = (uint64_t *)GAMQ_MALLOC(n * sizeof(uint64_t));
  old = (uint64_t *)GAMQ_MALLOC((f->nitems + 1) * sizeof(uint64_t));
  merged = (uint64_t *)GAMQ_MALLOC((f->nitems + n) * sizeof(uint64_t));
  if (sorted == NULL || old == NULL || merged == NULL) {
    res = GAMQ__QF_NO_MEMORY;
  } else {
    memcpy(sorted, fp, n * sizeof(uint64_t));
    qsort(sorted, (size_t)n, sizeof(uint64_t), gamq__qf_cmp_u64);
    gamq__qf_extract(f, old);
    gamq__qf_merge_sorted(old, f->nitems, sorted, n, merged);
    res = gamq__qf_build(f, merged, f->nitems + n, method);
  }
  GAMQ_FREE(sorted);
  GAMQ_FREE(old);
  GAMQ_FREE(merged);
  return res;
}

/* Delete one copy of each of n fingerprints; those not stored are skipped.
   *deleted (may be NULL) gets the number removed. Never fails after the
   argument checks (no allocation). */
static inline gamq__qf_result gamq__qf_delete_batch(gamq__qf *f, const uint64_t *fp, uint64_t n, uint64_t *deleted) {
  uint64_t i, k = 0;
  if (f == NULL || f->data == NULL || (fp == NULL && n > 0)) return GAMQ__QF_BAD_ARG;
  for (i = 0; i < n; ++i)
    if (!gamq__qf_fp_ok(f, fp[i])) return GAMQ__QF_BAD_ARG;
  for (i = 0; i < n; ++i) k += gamq__qf_delete(f, fp[i]) == GAMQ__QF_OK;
  if (deleted) *deleted = k;
  return GAMQ__QF_OK;
}

/* Fingerprints of a batch of keys (the host backend's first step). */
static inline void gamq__qf_fingerprints_u64(const gamq__qf *f, const uint64_t *keys, uint64_t n, uint64_t *fp) {
  uint64_t i;
  for (i = 0; i < n; ++i) fp[i] = gamq__qf_fingerprint(f, keys[i]);
}
static inline void gamq__qf_fingerprints_u32(const gamq__qf *f, const uint32_t *keys, uint64_t n, uint64_t *fp) {
  uint64_t i;
  for (i = 0; i < n; ++i) fp[i] = gamq__qf_fingerprint(f, keys[i]);
}

/* ---------------------------------------------------------------------------
   The public scans: one call description for all five operations, the
   argument checks, and the dispatch to HOST (the simulations above) or CUDA
   (gpuamq_kernels.cuh).
   ------------------------------------------------------------------------- */
enum {
  GAMQ__OP_SATSUM_I32 = 0,
  GAMQ__OP_SATSUM_I64 = 1,
  GAMQ__OP_POSITION_U32 = 2,
  GAMQ__OP_POSITION_U64 = 3,
  GAMQ__OP_MAXPLUS_I64 = 4
};
typedef struct gamq__scan_call {
  int op;
  const void *a, *b; /* a: satsum, maxplus; b: position (v), maxplus */
  const uint8_t *heads;
  const void *init; /* host pointer to one value of the op's type, or NULL */
  void *x;
  size_t n;
} gamq__scan_call;

/* element sizes of a, b and x (0: not an input of this op) */
static inline size_t gamq__call_a_size(int op) { return op == GAMQ__OP_SATSUM_I32 ? 4 : op == GAMQ__OP_SATSUM_I64 || op == GAMQ__OP_MAXPLUS_I64 ? 8 : 0; }
static inline size_t gamq__call_b_size(int op) { return op == GAMQ__OP_POSITION_U32 ? 4 : op == GAMQ__OP_POSITION_U64 || op == GAMQ__OP_MAXPLUS_I64 ? 8 : 0; }
static inline size_t gamq__call_x_size(int op) { return op == GAMQ__OP_SATSUM_I32 || op == GAMQ__OP_POSITION_U32 ? 4 : 8; }

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


/* ---- the public scans ---- */

GAMQ_DEF const char *gamq_scan_method_name(gamq_scan_method method) {
  switch (method) {
    case GAMQ_SCAN_AUTO: return "auto";
    case GAMQ_SCAN_ASSOCIATIVE: return "associative";
    case GAMQ_SCAN_PARALLEL_MERGING: return "parallel_merging";
    case GAMQ_SCAN_SEQUENTIAL_SHIFTING: return "sequential_shifting";
    case GAMQ_SCAN_SEGMENTED_LAYOUTS: return "segmented_layouts";
    default: return "unknown";
  }
}

/* The settings a call runs with; GAMQ_SUCCESS or the status to return. */
static gamq_status gamq__scan_setup(const gamq_scan_desc *desc, gamq_backend *backend, gamq__na_method *method,
                                    int *max_rounds) {
  gamq_scan_desc d;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  if ((int)d.method < 0 || (int)d.method > 4) return GAMQ_ERROR_INVALID_ARGUMENT;
  *method = d.method == GAMQ_SCAN_AUTO ? GAMQ__NA_ASSOCIATIVE : (gamq__na_method)d.method;
  *max_rounds = d.max_rounds == 0 ? GAMQ_SCAN_DEFAULT_MAX_ROUNDS : d.max_rounds < 0 ? 0 : d.max_rounds;
  return gamq_backend_resolve(d.backend, backend);
}

static gamq_status gamq__scan_status(gamq__na_result r) {
  switch (r) {
    case GAMQ__NA_OK: return GAMQ_SUCCESS;
    case GAMQ__NA_OVERFLOW: return GAMQ_ERROR_OVERFLOW;
    case GAMQ__NA_NO_MEMORY: return GAMQ_ERROR_OUT_OF_MEMORY;
    default: return GAMQ_ERROR_INVALID_ARGUMENT;
  }
}

/* HOST backend: the host simulations on host memory. */
static gamq_status gamq__scan_host(const gamq__scan_call *c, gamq__na_method m, int max_rounds, gamq__na_stats *st) {
  gamq__na_problem p;
  switch (c->op) {
    case GAMQ__OP_SATSUM_I32:
      return gamq__scan_status(gamq__host_satsum_i32(c->n, (const int32_t *)c->a, c->heads, (const int32_t *)c->init,
                                                     m, max_rounds, (int32_t *)c->x, st));
    case GAMQ__OP_SATSUM_I64:
      return gamq__scan_status(gamq__host_satsum_i64(c->n, (const int64_t *)c->a, c->heads, (const int64_t *)c->init,
                                                     m, max_rounds, (int64_t *)c->x, st));
    case GAMQ__OP_POSITION_U32:
      return gamq__scan_status(gamq__host_position_u32(c->n, (const uint32_t *)c->b, c->heads,
                                                       (const uint32_t *)c->init, m, max_rounds, (uint32_t *)c->x, st));
    case GAMQ__OP_POSITION_U64:
      return gamq__scan_status(gamq__host_position_u64(c->n, (const uint64_t *)c->b, c->heads,
                                                       (const uint64_t *)c->init, m, max_rounds, (uint64_t *)c->x, st));
    default:
      memset(&p, 0, sizeof p);
      p.n = c->n, p.a = (const int64_t *)c->a, p.b = (const int64_t *)c->b, p.heads = c->heads;
      p.has_init = c->init != NULL, p.init = c->init ? *(const int64_t *)c->init : 0;
      return gamq__scan_status(gamq__host_maxplus(&p, m, max_rounds, (int64_t *)c->x, st));
  }
}

/* The expert form of every operation. */
static gamq_status gamq__scan_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                   const gamq__scan_call *c, gamq_scan_stats *stats, gamq_stream stream) {
  gamq_backend backend = GAMQ_BACKEND_HOST;
  gamq__na_method method = GAMQ__NA_ASSOCIATIVE;
  gamq__na_stats st;
  gamq_status s;
  int max_rounds = 0;
  size_t need = 1;
  if (temp_bytes == NULL || c->n > GAMQ_SCAN_MAX_N) return GAMQ_ERROR_INVALID_ARGUMENT;
  s = gamq__scan_setup(desc, &backend, &method, &max_rounds);
  if (s != GAMQ_SUCCESS) return s;
#if defined(__CUDACC__)
  if (backend == GAMQ_BACKEND_CUDA) {
    int overflow = 0;
    if (gamq__cuda_scan(c, (int)method, max_rounds, NULL, &need, &overflow, NULL, (cudaStream_t)stream) != cudaSuccess)
      return GAMQ_ERROR_CUDA;
  }
#endif
  if (d_temp == NULL) {
    *temp_bytes = need;
    return GAMQ_SUCCESS;
  }
  if (*temp_bytes < need) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (c->n > 0 && (c->x == NULL || (gamq__call_a_size(c->op) && c->a == NULL) ||
                   (gamq__call_b_size(c->op) && c->b == NULL)))
    return GAMQ_ERROR_INVALID_ARGUMENT;
  st.rounds = 0, st.fell_back = 0;
  if (c->n == 0) {
    s = GAMQ_SUCCESS;
  } else if (backend == GAMQ_BACKEND_HOST) {
    s = gamq__scan_host(c, method, max_rounds, &st);
  } else {
#if defined(__CUDACC__)
    int overflow = 0;
    if (gamq__cuda_scan(c, (int)method, max_rounds, d_temp, temp_bytes, &overflow, &st, (cudaStream_t)stream) !=
        cudaSuccess)
      return GAMQ_ERROR_CUDA;
    s = overflow ? GAMQ_ERROR_OVERFLOW : GAMQ_SUCCESS;
#else
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (stats) {
    stats->backend = backend;
    stats->method = (gamq_scan_method)method;
    stats->rounds = st.rounds;
    stats->fell_back = st.fell_back;
  }
  return s;
}

/* The convenience form: host arrays in, host results out. */
static gamq_status gamq__scan_arrays(const gamq_scan_desc *desc, const gamq__scan_call *h, gamq_scan_stats *stats) {
  gamq_backend backend = GAMQ_BACKEND_HOST;
  gamq__na_method method = GAMQ__NA_ASSOCIATIVE;
  gamq_status s;
  int max_rounds = 0;
  char one = 0;
  size_t bytes = 1;
  if (h->n > GAMQ_SCAN_MAX_N) return GAMQ_ERROR_INVALID_ARGUMENT;
  s = gamq__scan_setup(desc, &backend, &method, &max_rounds);
  if (s != GAMQ_SUCCESS) return s;
  if (h->n > 0 && (h->x == NULL || (gamq__call_a_size(h->op) && h->a == NULL) ||
                   (gamq__call_b_size(h->op) && h->b == NULL)))
    return GAMQ_ERROR_INVALID_ARGUMENT;
  if (h->n == 0) {
    if (stats) stats->backend = backend, stats->method = (gamq_scan_method)method, stats->rounds = 0, stats->fell_back = 0;
    return GAMQ_SUCCESS;
  }
  if (backend == GAMQ_BACKEND_HOST) {
    gamq_scan_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    d.backend = backend;
    return gamq__scan_sync(&d, &one, &bytes, h, stats, NULL);
  }
#if defined(__CUDACC__)
  {
    const gamq_device_allocator *al = desc ? &desc->allocator : NULL;
    gamq__scan_call c = *h;
    void *d_a = NULL, *d_b = NULL, *d_heads = NULL, *d_x = NULL, *d_temp = NULL;
    size_t n = h->n, sa = gamq__call_a_size(h->op) * n, sb = gamq__call_b_size(h->op) * n;
    size_t sx = gamq__call_x_size(h->op) * n, temp = 0;
    gamq_scan_desc d;
    if (desc) d = *desc;
    else memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_CUDA;
    s = gamq__scan_sync(&d, NULL, &temp, h, NULL, NULL);
    if (s == GAMQ_SUCCESS && sa) s = gamq__device_alloc(al, &d_a, sa, NULL);
    if (s == GAMQ_SUCCESS && sb) s = gamq__device_alloc(al, &d_b, sb, NULL);
    if (s == GAMQ_SUCCESS && h->heads) s = gamq__device_alloc(al, &d_heads, n, NULL);
    if (s == GAMQ_SUCCESS) s = gamq__device_alloc(al, &d_x, sx, NULL);
    if (s == GAMQ_SUCCESS) s = gamq__device_alloc(al, &d_temp, temp, NULL);
    if (s == GAMQ_SUCCESS &&
        ((sa && cudaMemcpyAsync(d_a, h->a, sa, cudaMemcpyHostToDevice, 0) != cudaSuccess) ||
         (sb && cudaMemcpyAsync(d_b, h->b, sb, cudaMemcpyHostToDevice, 0) != cudaSuccess) ||
         (h->heads && cudaMemcpyAsync(d_heads, h->heads, n, cudaMemcpyHostToDevice, 0) != cudaSuccess)))
      s = GAMQ_ERROR_CUDA;
    if (s == GAMQ_SUCCESS) {
      c.a = d_a, c.b = d_b, c.heads = (const uint8_t *)d_heads, c.x = d_x;
      s = gamq__scan_sync(&d, d_temp, &temp, &c, stats, NULL);
      if (s == GAMQ_SUCCESS && cudaMemcpy(h->x, d_x, sx, cudaMemcpyDeviceToHost) != cudaSuccess) s = GAMQ_ERROR_CUDA;
    }
    gamq__device_free(al, d_a, NULL);
    gamq__device_free(al, d_b, NULL);
    gamq__device_free(al, d_heads, NULL);
    gamq__device_free(al, d_x, NULL);
    gamq__device_free(al, d_temp, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

static gamq__scan_call gamq__call(int op, const void *a, const void *b, const uint8_t *heads, const void *init,
                                  void *x, size_t n) {
  gamq__scan_call c;
  c.op = op, c.a = a, c.b = b, c.heads = heads, c.init = init, c.x = x, c.n = n;
  return c;
}

GAMQ_DEF gamq_status gamq_satsum_i32_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                          const int32_t *d_a, const uint8_t *d_heads, const int32_t *init,
                                          int32_t *d_x, size_t n, gamq_scan_stats *stats, gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I32, d_a, NULL, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_satsum_i32(const gamq_scan_desc *desc, const int32_t *h_a, const uint8_t *h_heads,
                                     const int32_t *init, int32_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I32, h_a, NULL, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_satsum_i64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                          const int64_t *d_a, const uint8_t *d_heads, const int64_t *init,
                                          int64_t *d_x, size_t n, gamq_scan_stats *stats, gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I64, d_a, NULL, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_satsum_i64(const gamq_scan_desc *desc, const int64_t *h_a, const uint8_t *h_heads,
                                     const int64_t *init, int64_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_SATSUM_I64, h_a, NULL, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_position_scan_u32_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                                 const uint32_t *d_v, const uint8_t *d_heads, const uint32_t *init,
                                                 uint32_t *d_x, size_t n, gamq_scan_stats *stats,
                                                 gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U32, NULL, d_v, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_position_scan_u32(const gamq_scan_desc *desc, const uint32_t *h_v, const uint8_t *h_heads,
                                            const uint32_t *init, uint32_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U32, NULL, h_v, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_position_scan_u64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                                 const uint64_t *d_v, const uint8_t *d_heads, const uint64_t *init,
                                                 uint64_t *d_x, size_t n, gamq_scan_stats *stats,
                                                 gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U64, NULL, d_v, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_position_scan_u64(const gamq_scan_desc *desc, const uint64_t *h_v, const uint8_t *h_heads,
                                            const uint64_t *init, uint64_t *h_x, size_t n, gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_POSITION_U64, NULL, h_v, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}
GAMQ_DEF gamq_status gamq_maxplus_i64_sync(const gamq_scan_desc *desc, void *d_temp, size_t *temp_bytes,
                                           const int64_t *d_a, const int64_t *d_b, const uint8_t *d_heads,
                                           const int64_t *init, int64_t *d_x, size_t n, gamq_scan_stats *stats,
                                           gamq_stream stream) {
  gamq__scan_call c = gamq__call(GAMQ__OP_MAXPLUS_I64, d_a, d_b, d_heads, init, d_x, n);
  return gamq__scan_sync(desc, d_temp, temp_bytes, &c, stats, stream);
}
GAMQ_DEF gamq_status gamq_maxplus_i64(const gamq_scan_desc *desc, const int64_t *h_a, const int64_t *h_b,
                                      const uint8_t *h_heads, const int64_t *init, int64_t *h_x, size_t n,
                                      gamq_scan_stats *stats) {
  gamq__scan_call c = gamq__call(GAMQ__OP_MAXPLUS_I64, h_a, h_b, h_heads, init, h_x, n);
  return gamq__scan_arrays(desc, &c, stats);
}

/* ---------------------------------------------------------------------------
   The public quotient filters (section 6): the HOST backend wraps the host
   reference above; the CUDA backend runs the kernels of gpuamq_kernels.cuh
   section 2 on a gamq__qf whose data is device memory.
   ------------------------------------------------------------------------- */
struct gamq_qf {
  gamq__qf f;                      /* shape, count, bytes; f.data is device memory on CUDA */
  gamq_backend backend;            /* resolved: CUDA or HOST */
  gamq__na_method method;          /* build method of builds and rebuilds */
  gamq_device_allocator allocator; /* CUDA: the filter's memory and the temporaries */
  int dedup_build;                 /* builds keep one copy of each fingerprint */
  int build_inserts;               /* desc.build_by_inserts */
  gamq__qf_batch_path path;        /* private: AUTO, or force IN_PLACE / REBUILD / WINDOWS (tests, benchmarks) */
  int max_rounds;                  /* private: CUDA in-place rounds before a rebuild (0: default) */
  int last_path, last_rounds;      /* private: how the last CUDA insert / delete ran */
  void *scratch;                   /* private: CUDA in-place batches' temporaries, kept between calls */
  size_t scratch_bytes;            /* (default allocator only; gamq__qf_bufs_keep) */
};

static gamq_status gamq__qf_status(gamq__qf_result r) {
  switch (r) {
    case GAMQ__QF_OK: return GAMQ_SUCCESS;
    case GAMQ__QF_FULL: return GAMQ_ERROR_FULL;
    case GAMQ__QF_NO_MEMORY: return GAMQ_ERROR_OUT_OF_MEMORY;
    default: return GAMQ_ERROR_INVALID_ARGUMENT;
  }
}

/* The checks every batch call starts with. */
static gamq_status gamq__qf_args(const gamq_qf *F, const void *keys, size_t n) {
  if (F == NULL || (keys == NULL && n > 0) || n > GAMQ_QF_MAX_BATCH) return GAMQ_ERROR_INVALID_ARGUMENT;
  return GAMQ_SUCCESS;
}

/* HOST: fingerprints of a batch of 4- or 8-byte keys, in GAMQ_MALLOC memory
   (NULL on failure; one spare element so n = 0 allocates something). */
static uint64_t *gamq__qf_host_fps(const gamq__qf *f, const void *keys, int key_bytes, size_t n, int sorted) {
  uint64_t *fp = (uint64_t *)GAMQ_MALLOC((n + 1) * sizeof(uint64_t));
  if (fp == NULL) return NULL;
  if (key_bytes == 4) gamq__qf_fingerprints_u32(f, (const uint32_t *)keys, n, fp);
  else gamq__qf_fingerprints_u64(f, (const uint64_t *)keys, n, fp);
  if (sorted && n > 1) qsort(fp, n, sizeof(uint64_t), gamq__qf_cmp_u64);
  return fp;
}

GAMQ_DEF gamq_status gamq_qf_create(const gamq_qf_desc *desc, gamq_qf_kind kind, int q, int r, gamq_qf **filter) {
  gamq_qf_desc d;
  gamq_qf *F;
  gamq_backend backend = GAMQ_BACKEND_HOST;
  gamq_status s;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  if (filter == NULL || (kind != GAMQ_QF_SQF && kind != GAMQ_QF_RSQF) || (int)d.build_method < 0 ||
      (int)d.build_method > 4 || (d.layout != GAMQ_QF_LAYOUT_ALIGNED && d.layout != GAMQ_QF_LAYOUT_PACKED) ||
      !gamq__qf_layout_packed((gamq__qf_kind)kind, q, r, d.layout == GAMQ_QF_LAYOUT_PACKED, NULL, NULL))
    return GAMQ_ERROR_INVALID_ARGUMENT; /* PACKED SQF among them */
  s = gamq_backend_resolve(d.backend, &backend);
  if (s != GAMQ_SUCCESS) return s;
  F = (gamq_qf *)GAMQ_MALLOC(sizeof *F);
  if (F == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  memset(F, 0, sizeof *F);
  F->backend = backend;
  F->method = d.build_method == GAMQ_SCAN_AUTO ? GAMQ__NA_ASSOCIATIVE : (gamq__na_method)d.build_method;
  F->allocator = d.allocator;
  F->dedup_build = d.dedup_build != 0;
  F->build_inserts = d.build_by_inserts != 0;
  if (backend == GAMQ_BACKEND_HOST) {
    s = gamq__qf_status(gamq__qf_init_packed(&F->f, (gamq__qf_kind)kind, q, r, d.seed, d.layout == GAMQ_QF_LAYOUT_PACKED));
  } else {
#if defined(__CUDACC__)
    void *p = NULL;
    F->f.kind = (gamq__qf_kind)kind, F->f.q = q, F->f.r = r, F->f.seed = d.seed, F->f.nitems = 0;
    F->f.packed = d.layout == GAMQ_QF_LAYOUT_PACKED;
    gamq__qf_layout_packed(F->f.kind, q, r, F->f.packed, &F->f.nslots, &F->f.bytes);
    s = gamq__device_alloc(&F->allocator, &p, F->f.bytes, NULL);
    if (s == GAMQ_SUCCESS) {
      F->f.data = (uint8_t *)p;
      if (cudaMemsetAsync(p, 0, F->f.bytes, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess) {
        gamq__device_free(&F->allocator, p, NULL);
        s = GAMQ_ERROR_CUDA;
      }
    }
#else
    s = GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (s != GAMQ_SUCCESS) {
    GAMQ_FREE(F);
    return s;
  }
  *filter = F;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_destroy(gamq_qf *F) {
  gamq_status s = GAMQ_SUCCESS;
  if (F == NULL) return GAMQ_SUCCESS;
  if (F->backend == GAMQ_BACKEND_HOST) {
    gamq__qf_free(&F->f);
  } else {
#if defined(__CUDACC__)
    gamq__device_free(&F->allocator, F->f.data, NULL);
    gamq__device_free(&F->allocator, F->scratch, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess) s = GAMQ_ERROR_CUDA;
#endif
  }
  GAMQ_FREE(F);
  return s;
}

GAMQ_DEF gamq_status gamq_qf_count(const gamq_qf *F, uint64_t *count) {
  if (F == NULL || count == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *count = F->f.nitems;
  return GAMQ_SUCCESS;
}
GAMQ_DEF gamq_status gamq_qf_load_factor(const gamq_qf *F, double *load_factor) {
  if (F == NULL || load_factor == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *load_factor = gamq__qf_load_factor(&F->f);
  return GAMQ_SUCCESS;
}
GAMQ_DEF gamq_status gamq_qf_get_info(const gamq_qf *F, gamq_qf_info *info) {
  if (F == NULL || info == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  info->kind = (gamq_qf_kind)F->f.kind;
  info->q = F->f.q, info->r = F->f.r, info->seed = F->f.seed;
  info->backend = F->backend;
  info->nslots = F->f.nslots, info->bytes = F->f.bytes, info->count = F->f.nitems;
  info->layout = F->f.packed ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  return GAMQ_SUCCESS;
}
GAMQ_DEF gamq_status gamq_qf_fingerprint(const gamq_qf *F, uint64_t key, uint64_t *fingerprint) {
  if (F == NULL || fingerprint == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  *fingerprint = gamq__qf_fingerprint(&F->f, key);
  return GAMQ_SUCCESS;
}

/* ---- CUDA: every change is a rebuild (extract, merge / difference, build) ---- */
#if defined(__CUDACC__)
enum { GAMQ__QF_OP_BUILD = 0, GAMQ__QF_OP_INSERT = 1, GAMQ__QF_OP_DELETE = 2, GAMQ__QF_OP_MERGE = 3 };

/* Device buffers of one call, through the filter's allocator: all or none. */
enum { GAMQ__QF_BUFS = 6 };
typedef struct gamq__qf_bufs {
  void *p[GAMQ__QF_BUFS];
  int kept; /* the pointers are into F->scratch (gamq__qf_bufs_keep): nothing to free */
} gamq__qf_bufs;
static void gamq__qf_bufs_free(const gamq_qf *F, gamq__qf_bufs *b, cudaStream_t stream) {
  int i;
  for (i = 0; i < GAMQ__QF_BUFS && !b->kept; ++i) gamq__device_free(&F->allocator, b->p[i], (gamq_stream)stream);
  memset(b, 0, sizeof *b);
}
static gamq_status gamq__qf_bufs_alloc(const gamq_qf *F, gamq__qf_bufs *b, const size_t *bytes, cudaStream_t stream) {
  int i;
  gamq_status s = GAMQ_SUCCESS;
  memset(b, 0, sizeof *b);
  for (i = 0; i < GAMQ__QF_BUFS && s == GAMQ_SUCCESS; ++i)
    s = gamq__device_alloc(&F->allocator, &b->p[i], bytes[i], (gamq_stream)stream);
  if (s != GAMQ_SUCCESS) gamq__qf_bufs_free(F, b, stream);
  return s;
}
/* The same buffers for the in-place batch calls, carved from one block the
   filter keeps between calls (grown to the largest batch; freed by
   gamq_qf_destroy) when the filter uses the default allocator and the
   block stays under a quarter of the filter's bytes (+ 1 MiB). The default
   memory pool returns freed memory at every synchronisation, so fresh
   allocations cost ~0.1 ms a call (2^20 keys, H200). A user's allocator
   is called for every buffer: caching is its own business then. Calls
   that change a filter never run concurrently, and each synchronises
   before it returns, so one block serves them all. */
static gamq_status gamq__qf_bufs_keep(gamq_qf *F, gamq__qf_bufs *b, const size_t *bytes, cudaStream_t stream) {
  size_t off[GAMQ__QF_BUFS], total = 0;
  int i;
  for (i = 0; i < GAMQ__QF_BUFS; ++i) off[i] = total, total += (bytes[i] + 255) / 256 * 256;
  if (F->allocator.alloc != NULL || total > F->f.bytes / 4 + ((size_t)1 << 20)) return gamq__qf_bufs_alloc(F, b, bytes, stream);
  if (F->scratch_bytes < total) {
    void *p = NULL;
    gamq_status s = gamq__device_alloc(&F->allocator, &p, total, (gamq_stream)stream);
    if (s != GAMQ_SUCCESS) return s;
    gamq__device_free(&F->allocator, F->scratch, (gamq_stream)stream);
    F->scratch = p, F->scratch_bytes = total;
  }
  memset(b, 0, sizeof *b);
  b->kept = 1;
  for (i = 0; i < GAMQ__QF_BUFS; ++i) b->p[i] = bytes[i] ? (uint8_t *)F->scratch + off[i] : NULL;
  return GAMQ_SUCCESS;
}

/* One rebuild: op BUILD (keys -> F), INSERT (F + keys), DELETE (F - keys) or
   MERGE (a + b -> F). The new multiset is made in temporaries, FULL is
   checked by the build before F is touched. */
static gamq_status gamq__qf_cuda_rebuild(gamq_qf *F, int op, const void *d_keys, int key_bytes, size_t n,
                                         const gamq_qf *A, const gamq_qf *B, uint64_t *deleted, cudaStream_t st) {
  gamq__qf_bufs bufs;
  size_t bytes[GAMQ__QF_BUFS], t, scratch = 0, kept = 0;
  uint64_t *fp, *ea, *eb, *m;
  size_t *d_kept;
  size_t n_old = op == GAMQ__QF_OP_INSERT || op == GAMQ__QF_OP_DELETE ? (size_t)F->f.nitems : 0;
  size_t na = op == GAMQ__QF_OP_MERGE ? (size_t)A->f.nitems : n_old;
  size_t nb = op == GAMQ__QF_OP_MERGE ? (size_t)B->f.nitems : 0;
  uint64_t total = op == GAMQ__QF_OP_BUILD ? n : op == GAMQ__QF_OP_DELETE ? n_old : (uint64_t)na + n + nb;
  int dedup = op == GAMQ__QF_OP_BUILD && F->dedup_build && n > 0; /* keep the first of each run */
  int full = 0;
  gamq_status s;
  cudaError_t e = cudaSuccess;
  if (op == GAMQ__QF_OP_MERGE) n = 0;
  if (total > F->f.nslots && !dedup) return GAMQ_ERROR_FULL; /* as the host: no layout fits */
  if (total > GAMQ_QF_MAX_BATCH) return GAMQ_ERROR_NOT_IMPLEMENTED;
  /* buffers: 0 batch fingerprints, 1 extract of F or A, 2 extract of B,
     3 the new multiset, 4 the kept count, 5 scratch for every step in turn */
  bytes[0] = key_bytes ? n * sizeof(uint64_t) : 0; /* key_bytes 0: d_keys are sorted fingerprints */
  bytes[1] = na * sizeof(uint64_t);
  bytes[2] = nb * sizeof(uint64_t);
  bytes[3] = op == GAMQ__QF_OP_BUILD && !dedup ? 0 : (size_t)total * sizeof(uint64_t);
  bytes[4] = op == GAMQ__QF_OP_DELETE || dedup ? sizeof(size_t) : 0;
#define GAMQ__SCRATCH(call) \
  do {                       \
    t = 0;                   \
    e = (call);              \
    if (e != cudaSuccess) return GAMQ_ERROR_CUDA; \
    if (t > scratch) scratch = t; \
  } while (0)
  if (n > 0 && key_bytes) GAMQ__SCRATCH(gamq__cuda_qf_sort(&F->f, NULL, n, NULL, &t, st));
  if (dedup) GAMQ__SCRATCH(gprim_unique((void *)NULL, &t, (const uint64_t *)NULL, (uint64_t *)NULL, (size_t *)NULL, n, st));
  if (na > 0) GAMQ__SCRATCH(gamq__cuda_qf_extract(op == GAMQ__QF_OP_MERGE ? &A->f : &F->f, NULL, NULL, &t, st));
  if (nb > 0) GAMQ__SCRATCH(gamq__cuda_qf_extract(&B->f, NULL, NULL, &t, st));
  if (op == GAMQ__QF_OP_INSERT || op == GAMQ__QF_OP_MERGE)
    GAMQ__SCRATCH(gprim_merge_keys((void *)NULL, &t, (const uint64_t *)NULL, na, (const uint64_t *)NULL,
                                   op == GAMQ__QF_OP_MERGE ? nb : n, (uint64_t *)NULL, gprim_less(), st));
  if (op == GAMQ__QF_OP_DELETE)
    GAMQ__SCRATCH(gamq__cuda_qf_difference(NULL, na, NULL, n, NULL, NULL, NULL, &t, st));
  GAMQ__SCRATCH(gamq__cuda_qf_build(&F->f, NULL, (size_t)total, (int)F->method, NULL, &t, &full, st));
#undef GAMQ__SCRATCH
  bytes[5] = scratch;
  s = gamq__qf_bufs_alloc(F, &bufs, bytes, st);
  if (s != GAMQ_SUCCESS) return s;
  fp = (uint64_t *)bufs.p[0], ea = (uint64_t *)bufs.p[1], eb = (uint64_t *)bufs.p[2], m = (uint64_t *)bufs.p[3];
  d_kept = (size_t *)bufs.p[4];
  t = scratch;
  if (!key_bytes) fp = (uint64_t *)d_keys;
  if (n > 0 && key_bytes) {
    e = gamq__cuda_qf_hash(&F->f, d_keys, key_bytes, n, fp, st);
    if (e == cudaSuccess) e = gamq__cuda_qf_sort(&F->f, fp, n, bufs.p[5], &t, st);
  }
  if (e == cudaSuccess && na > 0)
    e = gamq__cuda_qf_extract(op == GAMQ__QF_OP_MERGE ? &A->f : &F->f, ea, bufs.p[5], &t, st);
  if (e == cudaSuccess && nb > 0) e = gamq__cuda_qf_extract(&B->f, eb, bufs.p[5], &t, st);
  if (e == cudaSuccess && op == GAMQ__QF_OP_BUILD && !dedup) m = fp;
  if (e == cudaSuccess && dedup) {
    e = gprim_unique(bufs.p[5], &t, (const uint64_t *)fp, m, d_kept, n, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(&kept, d_kept, sizeof kept, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    total = kept;
  }
  if (e == cudaSuccess && op == GAMQ__QF_OP_INSERT)
    e = gprim_merge_keys(bufs.p[5], &t, (const uint64_t *)ea, na, (const uint64_t *)fp, n, m, gprim_less(), st);
  if (e == cudaSuccess && op == GAMQ__QF_OP_MERGE)
    e = gprim_merge_keys(bufs.p[5], &t, (const uint64_t *)ea, na, (const uint64_t *)eb, nb, m, gprim_less(), st);
  if (e == cudaSuccess && op == GAMQ__QF_OP_DELETE) {
    e = gamq__cuda_qf_difference(ea, na, fp, n, m, d_kept, bufs.p[5], &t, st);
    if (e == cudaSuccess) e = cudaMemcpyAsync(&kept, d_kept, sizeof kept, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    total = kept;
  }
  if (e == cudaSuccess) e = gamq__cuda_qf_build(&F->f, m, (size_t)total, (int)F->method, bufs.p[5], &t, &full, st);
  gamq__qf_bufs_free(F, &bufs, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  if (e != cudaSuccess) return GAMQ_ERROR_CUDA;
  if (full) return GAMQ_ERROR_FULL;
  if (op == GAMQ__QF_OP_DELETE && deleted) *deleted = (uint64_t)(n_old - kept);
  F->f.nitems = total;
  return GAMQ_SUCCESS;
}
/* AUTO picks in place for a batch of n keys into a filter of nitems when
   this holds (a rule of thumb, not measured per GPU), else a rebuild. */
#define GAMQ__QF_IN_PLACE(n, nitems) ((n) < (nitems) / 4)
#define GAMQ__QF_MAX_ROUNDS 32     /* in-place rounds of a batch; what is left then goes in by a rebuild */
#define GAMQ__QF_BUILD_ROUNDS 1024 /* the same for a build by inserts */

/* In place (gpuamq_kernels.cuh 2b): op INSERT, DELETE, or BUILD (inserts
   into a zeroed buffer that replaces F's data on success). Rounds past the
   cap hand the rest to gamq__qf_cuda_rebuild (or, when it cannot allocate,
   go on in place). FULL deletes in place what went in: the bytes are back.
   The phases below share one gamq__qf_inplace. */
typedef struct gamq__qf_inplace {
  gamq__qf_bufs bufs;
  gamq__qf g;                  /* what the rounds change: F's filter, or a build's new buffer */
  uint64_t *fp, *pend, *spare; /* the sorted batch; the items left, and a buffer to swap them with */
  size_t n, left, t;           /* the batch; items left; the scratch bytes */
  uint64_t changed;            /* items inserted or deleted */
  int del, build, cap, full, rounds;
} gamq__qf_inplace;

/* Size every step's scratch and take the buffers: 0 the sorted batch, 1 and
   2 the items left (in turn), 3 the new filter of a build, 4 a count, 5
   scratch. */
static gamq_status gamq__qf_inplace_alloc(gamq_qf *F, gamq__qf_inplace *c, cudaStream_t st) {
  size_t bytes[GAMQ__QF_BUFS], t, scratch = 0;
  gamq__qf_rounds_out o;
  gamq_status s;
  const size_t n = c->n;
#define GAMQ__SCRATCH(call) \
  do {                       \
    t = 0;                   \
    if ((call) != cudaSuccess) return GAMQ_ERROR_CUDA; \
    if (t > scratch) scratch = t; \
  } while (0)
  GAMQ__SCRATCH(gamq__cuda_qf_sort(&F->f, NULL, n, NULL, &t, st));
  GAMQ__SCRATCH(gamq__cuda_qf_rounds(&F->f, c->del, NULL, n, c->cap, NULL, NULL, &t, &o, st));
  if (!c->del && !c->build) GAMQ__SCRATCH(gamq__cuda_qf_difference(NULL, n, NULL, n, NULL, NULL, NULL, &t, st));
#undef GAMQ__SCRATCH
  bytes[0] = bytes[1] = bytes[2] = n * sizeof(uint64_t);
  bytes[3] = c->build ? F->f.bytes : 0;
  bytes[4] = sizeof(size_t);
  bytes[5] = scratch;
  s = c->build ? gamq__qf_bufs_alloc(F, &c->bufs, bytes, st) : gamq__qf_bufs_keep(F, &c->bufs, bytes, st);
  if (s != GAMQ_SUCCESS) return s;
  c->fp = (uint64_t *)c->bufs.p[0], c->pend = (uint64_t *)c->bufs.p[1], c->spare = (uint64_t *)c->bufs.p[2];
  c->t = scratch;
  return GAMQ_SUCCESS;
}

/* Hash and sort the batch (a build: zero its new filter), then the rounds
   up to the cap. */
static cudaError_t gamq__qf_inplace_rounds(const gamq_qf *F, gamq__qf_inplace *c, const void *d_keys, int key_bytes,
                                           cudaStream_t st) {
  gamq__qf_rounds_out o;
  cudaError_t e = gamq__cuda_qf_hash(&F->f, d_keys, key_bytes, c->n, c->fp, st);
  if (e == cudaSuccess) e = gamq__cuda_qf_sort(&F->f, c->fp, c->n, c->bufs.p[5], &c->t, st);
  if (e == cudaSuccess && c->build) {
    c->g.data = (uint8_t *)c->bufs.p[3], c->g.nitems = 0;
    e = cudaMemsetAsync(c->g.data, 0, c->g.bytes, st);
  }
  if (e == cudaSuccess) e = gamq__cuda_qf_rounds(&c->g, c->del, c->fp, c->n, c->cap, c->pend, c->bufs.p[5], &c->t, &o, st);
  if (e == cudaSuccess) c->rounds = o.rounds, c->changed = o.changed, c->full = o.full, c->left = o.left;
  return e;
}

/* The items left at the cap: a rebuild of the filter as the rounds left it
   with them, or, when the rebuild finds no memory, rounds with no cap. */
static cudaError_t gamq__qf_inplace_rest(gamq_qf *F, gamq__qf_inplace *c, cudaStream_t st) {
  gamq__qf saved = F->f;
  gamq__qf_rounds_out o;
  uint64_t d2 = 0, *x;
  gamq_status s;
  cudaError_t e = cudaSuccess;
  F->f = c->g;
  F->f.nitems = c->del ? c->g.nitems - c->changed : c->g.nitems + c->changed;
  s = gamq__qf_cuda_rebuild(F, c->del ? GAMQ__QF_OP_DELETE : GAMQ__QF_OP_INSERT, c->pend, 0, c->left, NULL, NULL, &d2,
                            st);
  F->f = saved;
  if (s == GAMQ_SUCCESS) {
    c->changed += c->del ? d2 : c->left, c->left = 0;
  } else if (s == GAMQ_ERROR_FULL) {
    c->full = 1;
  } else if (s == GAMQ_ERROR_CUDA) {
    e = cudaErrorUnknown;
  } else { /* no memory for the rebuild: go on in place */
    e = gamq__cuda_qf_rounds(&c->g, c->del, c->pend, c->left, 0x7fffffff, c->spare, c->bufs.p[5], &c->t, &o, st);
    x = c->pend, c->pend = c->spare, c->spare = x;
    if (e == cudaSuccess) c->rounds += o.rounds, c->changed += o.changed, c->full = o.full, c->left = o.left;
  }
  return e;
}

/* FULL: delete in place what went in (the batch minus the items left),
   which restores the filter's bytes. */
static cudaError_t gamq__qf_inplace_roll_back(gamq__qf_inplace *c, cudaStream_t st) {
  gamq__qf_rounds_out o;
  size_t kept = 0;
  cudaError_t e = gamq__cuda_qf_difference(c->fp, c->n, c->pend, c->left, c->spare, (size_t *)c->bufs.p[4],
                                           c->bufs.p[5], &c->t, st);
  if (e == cudaSuccess) e = cudaMemcpyAsync(&kept, c->bufs.p[4], sizeof kept, cudaMemcpyDeviceToHost, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  if (e == cudaSuccess) e = gamq__cuda_qf_rounds(&c->g, 1, c->spare, kept, 0x7fffffff, c->pend, c->bufs.p[5], &c->t, &o, st);
  if (e == cudaSuccess && (o.left != 0 || o.changed != kept)) e = cudaErrorUnknown; /* cannot happen */
  return e;
}

/* Success: the count (and *deleted); a build's new buffer becomes the
   filter's and the old one goes with the buffers. */
static gamq_status gamq__qf_inplace_commit(gamq_qf *F, gamq__qf_inplace *c, uint64_t *deleted, cudaStream_t st) {
  if (c->build) {
    void *old = F->f.data;
    F->f.data = c->g.data;
    c->bufs.p[3] = old;
    F->f.nitems = c->n;
  } else {
    F->f.nitems = c->del ? F->f.nitems - c->changed : F->f.nitems + c->n;
  }
  if (c->del && deleted) *deleted = c->changed;
  gamq__qf_bufs_free(F, &c->bufs, st);
  return cudaStreamSynchronize(st) == cudaSuccess ? GAMQ_SUCCESS : GAMQ_ERROR_CUDA;
}

static gamq_status gamq__qf_cuda_inplace(gamq_qf *F, int op, const void *d_keys, int key_bytes, size_t n,
                                         uint64_t *deleted, cudaStream_t st) {
  gamq__qf_inplace c;
  gamq_status s;
  cudaError_t e;
  memset(&c, 0, sizeof c);
  c.g = F->f, c.n = n;
  c.del = op == GAMQ__QF_OP_DELETE, c.build = op == GAMQ__QF_OP_BUILD;
  c.cap = F->max_rounds > 0 ? F->max_rounds : c.build ? GAMQ__QF_BUILD_ROUNDS : GAMQ__QF_MAX_ROUNDS;
  if (!c.del && (uint64_t)n > F->f.nslots - (c.build ? 0 : F->f.nitems)) return GAMQ_ERROR_FULL; /* as the host */
  s = gamq__qf_inplace_alloc(F, &c, st);
  if (s != GAMQ_SUCCESS) return s;
  e = gamq__qf_inplace_rounds(F, &c, d_keys, key_bytes, st);
  if (e == cudaSuccess && !c.full && c.left > 0) e = gamq__qf_inplace_rest(F, &c, st);
  if (e == cudaSuccess && c.full && !c.build) e = gamq__qf_inplace_roll_back(&c, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  F->last_rounds = c.rounds;
  if (e != cudaSuccess || c.full) {
    gamq__qf_bufs_free(F, &c.bufs, st); /* a build's new buffer goes with them */
    return e != cudaSuccess ? GAMQ_ERROR_CUDA : GAMQ_ERROR_FULL;
  }
  return gamq__qf_inplace_commit(F, &c, deleted, st);
}
#endif /* __CUDACC__ */

#if defined(__CUDACC__)
/* In place by window re-layout (gpuamq_kernels.cuh 2c): op INSERT or
   DELETE. Hash, sort, bounds, chain passes until no link is added (inserts;
   FULL there leaves the filter untouched), one write launch; a few host
   syncs whatever the batch. F->last_rounds = the chain passes. */
static gamq_status gamq__qf_cuda_windows(gamq_qf *F, int op, const void *d_keys, int key_bytes, size_t n,
                                         uint64_t *deleted, cudaStream_t st) {
  gamq__qf_bufs bufs;
  size_t bytes[GAMQ__QF_BUFS], t = 0;
  const int del = op == GAMQ__QF_OP_DELETE;
  const size_t head = 64; /* the round status and the chain flags, then the links */
  gamq__qf_round_status h;
  unsigned int flags = 0;
  int passes = 0;
  cudaError_t e;
  if (!del && (uint64_t)n > F->f.nslots - F->f.nitems) return GAMQ_ERROR_FULL; /* as the host */
  if (gamq__cuda_qf_sort(&F->f, NULL, n, NULL, &t, st) != cudaSuccess) return GAMQ_ERROR_CUDA;
  /* buffers: 0 the sorted batch, 1 and 2 the BOUNDS (inserts: the first
     unused slot twice; deletes: stretch start, non-empty flag), 3 window
     ends, 4 status + flags + links, 5 the sort's scratch */
  bytes[0] = bytes[1] = bytes[2] = n * sizeof(uint64_t);
  bytes[3] = del ? 0 : n * sizeof(uint64_t);
  bytes[4] = head + n;
  bytes[5] = t;
  gamq_status s = gamq__qf_bufs_keep(F, &bufs, bytes, st);
  if (s != GAMQ_SUCCESS) return s;
  uint64_t *fp = (uint64_t *)bufs.p[0], *A = (uint64_t *)bufs.p[1], *T = (uint64_t *)bufs.p[2], *Z = (uint64_t *)bufs.p[3];
  gamq__qf_round_status *d_st = (gamq__qf_round_status *)bufs.p[4];
  unsigned int *d_flags = (unsigned int *)((uint8_t *)bufs.p[4] + 48);
  uint8_t *link = (uint8_t *)bufs.p[4] + head;
  const unsigned grid = gamq__grid(n, 256);
  memset(&h, 0, sizeof h);
  e = gamq__cuda_qf_hash(&F->f, d_keys, key_bytes, n, fp, st);
  if (e == cudaSuccess) e = gamq__cuda_qf_sort(&F->f, fp, n, bufs.p[5], &t, st);
  if (e == cudaSuccess) e = cudaMemsetAsync(bufs.p[4], 0, head + n, st);
  if (e == cudaSuccess) {
    gamq__win_bounds_kernel<<<grid, 256, 0, st>>>(F->f, del, fp, n, A, T);
    e = cudaGetLastError();
  }
  for (flags = 2; e == cudaSuccess && !del && flags == 2;) { /* chain passes: until no link is added */
    e = cudaMemsetAsync(d_flags, 0, sizeof(unsigned int), st);
    if (e == cudaSuccess) {
      gamq__win_chain_kernel<<<grid, 256, 0, st>>>(F->f, A, T, link, n, Z, d_flags);
      e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(&flags, d_flags, sizeof flags, cudaMemcpyDeviceToHost, st);
    if (e == cudaSuccess) e = cudaStreamSynchronize(st);
    ++passes;
    if (flags & 1) flags = 1; /* FULL: stop, nothing was written */
  }
  if (e == cudaSuccess && flags != 1) {
    gamq__win_write_kernel<GAMQ__WIN_ONE><<<grid, 256, 0, st>>>(F->f, del, fp, A, T, link, Z, n, d_st);
    gamq__win_write_kernel<GAMQ__WIN_MANY><<<grid, 256, 0, st>>>(F->f, del, fp, A, T, link, Z, n, d_st);
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaMemcpyAsync(&h, d_st, sizeof h, cudaMemcpyDeviceToHost, st);
  }
  gamq__qf_bufs_free(F, &bufs, st);
  if (e == cudaSuccess) e = cudaStreamSynchronize(st);
  F->last_rounds = passes;
  if (e != cudaSuccess || h.full) return GAMQ_ERROR_CUDA; /* h.full: a window did not fill (a bug) */
  if (flags == 1) return GAMQ_ERROR_FULL;
  if (del) {
    F->f.nitems -= h.changed;
    if (deleted) *deleted = h.changed;
  } else {
    F->f.nitems += n;
  }
  return GAMQ_SUCCESS;
}
#endif /* __CUDACC__ */

/* ---- the batch calls on the filter's own memory ---- */

/* HOST build by inserts (the QF paper's fourth method, IV-C): point inserts into
   an empty filter that replaces f's bytes on success. */
static gamq__qf_result gamq__qf_build_by_inserts(gamq__qf *f, const uint64_t *fp, uint64_t n, gamq__na_method method) {
  gamq__qf g;
  gamq__qf_result res = gamq__qf_init_like(&g, f);
  if (res != GAMQ__QF_OK) return res;
  res = gamq__qf_insert_batch(&g, fp, n, GAMQ__QF_BATCH_IN_PLACE, method);
  if (res == GAMQ__QF_OK) {
    uint8_t *t = f->data;
    f->data = g.data, f->nitems = g.nitems;
    g.data = t;
  }
  gamq__qf_free(&g);
  return res;
}

static gamq_status gamq__qf_change_sync(gamq_qf *F, int op, const void *keys, int key_bytes, size_t n,
                                        uint64_t *deleted, gamq_stream stream) {
  gamq_status s = gamq__qf_args(F, keys, n);
  uint64_t *fp;
  gamq__qf_result res;
  if (s != GAMQ_SUCCESS) return s;
  if (F->backend == GAMQ_BACKEND_CUDA) {
#if defined(__CUDACC__)
    gamq__qf_batch_path path = F->path;
    if (op != 0 && n == 0) { /* an empty insert or delete changes nothing */
      if (deleted) *deleted = 0;
      return GAMQ_SUCCESS;
    }
    if (op == 0) path = F->build_inserts && !F->dedup_build && n > 0 ? GAMQ__QF_BATCH_IN_PLACE : GAMQ__QF_BATCH_REBUILD;
    else if (path == GAMQ__QF_BATCH_AUTO)
      /* in place (H200, 2^20 into 2^30, r 5): the RSQF by windows (1.8x the growing regions at 70%,
         2.6x at 90%), the SQF by bidding (its walks read slots by the eight: 1.7-2.4x the windows at
         every fill from 70% to 90%) */
      path = !GAMQ__QF_IN_PLACE((uint64_t)n, F->f.nitems) ? GAMQ__QF_BATCH_REBUILD
             : F->f.kind == GAMQ__QF_RSQF                  ? GAMQ__QF_BATCH_WINDOWS
                                                           : GAMQ__QF_BATCH_IN_PLACE;
    F->last_path = (int)path, F->last_rounds = 0;
    if (path == GAMQ__QF_BATCH_WINDOWS)
      return gamq__qf_cuda_windows(F, op, keys, key_bytes, n, deleted, (cudaStream_t)stream);
    if (path == GAMQ__QF_BATCH_IN_PLACE)
      return gamq__qf_cuda_inplace(F, op, keys, key_bytes, n, deleted, (cudaStream_t)stream);
    return gamq__qf_cuda_rebuild(F, op, keys, key_bytes, n, NULL, NULL, deleted, (cudaStream_t)stream);
#else
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  fp = gamq__qf_host_fps(&F->f, keys, key_bytes, n, op == 0);
  if (fp == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  if (op == 0 && F->dedup_build && n > 1) { /* keep the first of each run of equal fingerprints */
    size_t i, k = 1;
    for (i = 1; i < n; ++i)
      if (fp[i] != fp[k - 1]) fp[k++] = fp[i];
    n = k;
  }
  if (op == 0 && F->build_inserts) res = gamq__qf_build_by_inserts(&F->f, fp, n, F->method);
  else if (op == 0) res = gamq__qf_build(&F->f, fp, n, F->method);
  else if (op == 1) res = gamq__qf_insert_batch(&F->f, fp, n, F->path, F->method);
  else res = gamq__qf_delete_batch(&F->f, fp, n, deleted);
  GAMQ_FREE(fp);
  return gamq__qf_status(res);
}

static gamq_status gamq__qf_lookup_sync(const gamq_qf *F, const void *keys, int key_bytes, size_t n, uint8_t *found,
                                        int sorted, gamq_stream stream) {
  size_t i;
  if (gamq__qf_args(F, keys, n) != GAMQ_SUCCESS || (found == NULL && n > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_CUDA) {
#if defined(__CUDACC__)
    const cudaStream_t st = (cudaStream_t)stream;
    if (sorted && n > 0) {
      void *temp = NULL;
      size_t bytes = 0;
      gamq_status s;
      cudaError_t e = gamq__cuda_qf_lookup_sorted(&F->f, keys, key_bytes, n, found, NULL, &bytes, st);
      if (e != cudaSuccess) return GAMQ_ERROR_CUDA;
      s = gamq__device_alloc(&F->allocator, &temp, bytes, stream);
      if (s != GAMQ_SUCCESS) return s;
      e = gamq__cuda_qf_lookup_sorted(&F->f, keys, key_bytes, n, found, temp, &bytes, st);
      if (e == cudaSuccess) e = cudaStreamSynchronize(st);
      gamq__device_free(&F->allocator, temp, stream);
      return e == cudaSuccess ? GAMQ_SUCCESS : GAMQ_ERROR_CUDA;
    }
    if (gamq__cuda_qf_lookup(&F->f, keys, key_bytes, n, found, st) != cudaSuccess ||
        cudaStreamSynchronize(st) != cudaSuccess)
      return GAMQ_ERROR_CUDA;
    return GAMQ_SUCCESS;
#else
    (void)sorted;
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  {
    const gamq_qf_ref ref = gamq__qf_ref_of(&F->f);
    for (i = 0; i < n; ++i) {
      const uint64_t key = key_bytes == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
      found[i] = (uint8_t)gamq_qf_ref_contains(&ref, key);
    }
  }
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_get_ref(const gamq_qf *F, gamq_qf_ref *ref) {
  if (F == NULL || ref == NULL || F->backend != GAMQ_BACKEND_CUDA) return GAMQ_ERROR_INVALID_ARGUMENT;
#if defined(__CUDACC__)
  *ref = gamq__qf_ref_of(&F->f);
  return GAMQ_SUCCESS;
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE; /* not reached: no CUDA filter exists without nvcc */
#endif
}

/* ---- the convenience forms: host arrays for either backend ---- */

/* kind: 0 change (op in `op`), 1 lookup. */
static gamq_status gamq__qf_arrays(gamq_qf *F, int lookup, int op, const void *h_keys, int key_bytes, size_t n,
                                   uint8_t *h_found, uint64_t *deleted) {
  gamq_status s = gamq__qf_args(F, h_keys, n);
  if (s != GAMQ_SUCCESS || (lookup && h_found == NULL && n > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST || n == 0)
    return lookup ? gamq__qf_lookup_sync(F, h_keys, key_bytes, n, h_found, 0, NULL)
                  : gamq__qf_change_sync(F, op, h_keys, key_bytes, n, deleted, NULL);
#if defined(__CUDACC__)
  {
    void *d_keys = NULL, *d_found = NULL;
    s = gamq__device_alloc(&F->allocator, &d_keys, n * (size_t)key_bytes, NULL);
    if (s == GAMQ_SUCCESS && lookup) s = gamq__device_alloc(&F->allocator, &d_found, n, NULL);
    if (s == GAMQ_SUCCESS && cudaMemcpyAsync(d_keys, h_keys, n * (size_t)key_bytes, cudaMemcpyHostToDevice, 0) !=
                                 cudaSuccess)
      s = GAMQ_ERROR_CUDA;
    if (s == GAMQ_SUCCESS && lookup) {
      s = gamq__qf_lookup_sync(F, d_keys, key_bytes, n, (uint8_t *)d_found, 0, NULL);
      if (s == GAMQ_SUCCESS && cudaMemcpy(h_found, d_found, n, cudaMemcpyDeviceToHost) != cudaSuccess)
        s = GAMQ_ERROR_CUDA;
    } else if (s == GAMQ_SUCCESS) {
      s = gamq__qf_change_sync(F, op, d_keys, key_bytes, n, deleted, NULL);
    }
    gamq__device_free(&F->allocator, d_keys, NULL);
    gamq__device_free(&F->allocator, d_found, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_qf_build_u32_sync(gamq_qf *F, const uint32_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, 0, d_keys, 4, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_build_u64_sync(gamq_qf *F, const uint64_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, 0, d_keys, 8, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_build_u32(gamq_qf *F, const uint32_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, 0, h_keys, 4, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_build_u64(gamq_qf *F, const uint64_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, 0, h_keys, 8, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_lookup_u32_sync(const gamq_qf *F, const uint32_t *d_keys, size_t n, uint8_t *d_found,
                                             gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 4, n, d_found, 0, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_u64_sync(const gamq_qf *F, const uint64_t *d_keys, size_t n, uint8_t *d_found,
                                             gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 8, n, d_found, 0, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_sorted_u32_sync(const gamq_qf *F, const uint32_t *d_keys, size_t n,
                                                    uint8_t *d_found, gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 4, n, d_found, 1, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_sorted_u64_sync(const gamq_qf *F, const uint64_t *d_keys, size_t n,
                                                    uint8_t *d_found, gamq_stream stream) {
  return gamq__qf_lookup_sync(F, d_keys, 8, n, d_found, 1, stream);
}
GAMQ_DEF gamq_status gamq_qf_lookup_u32(const gamq_qf *F, const uint32_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__qf_arrays((gamq_qf *)F, 1, 0, h_keys, 4, n, h_found, NULL); /* a lookup changes nothing */
}
GAMQ_DEF gamq_status gamq_qf_lookup_u64(const gamq_qf *F, const uint64_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__qf_arrays((gamq_qf *)F, 1, 0, h_keys, 8, n, h_found, NULL);
}
GAMQ_DEF gamq_status gamq_qf_insert_u32_sync(gamq_qf *F, const uint32_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, 1, d_keys, 4, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_insert_u64_sync(gamq_qf *F, const uint64_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__qf_change_sync(F, 1, d_keys, 8, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_qf_insert_u32(gamq_qf *F, const uint32_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, 1, h_keys, 4, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_insert_u64(gamq_qf *F, const uint64_t *h_keys, size_t n) {
  return gamq__qf_arrays(F, 0, 1, h_keys, 8, n, NULL, NULL);
}
GAMQ_DEF gamq_status gamq_qf_delete_u32_sync(gamq_qf *F, const uint32_t *d_keys, size_t n, uint64_t *deleted,
                                             gamq_stream stream) {
  return gamq__qf_change_sync(F, 2, d_keys, 4, n, deleted, stream);
}
GAMQ_DEF gamq_status gamq_qf_delete_u64_sync(gamq_qf *F, const uint64_t *d_keys, size_t n, uint64_t *deleted,
                                             gamq_stream stream) {
  return gamq__qf_change_sync(F, 2, d_keys, 8, n, deleted, stream);
}
GAMQ_DEF gamq_status gamq_qf_delete_u32(gamq_qf *F, const uint32_t *h_keys, size_t n, uint64_t *deleted) {
  return gamq__qf_arrays(F, 0, 2, h_keys, 4, n, NULL, deleted);
}
GAMQ_DEF gamq_status gamq_qf_delete_u64(gamq_qf *F, const uint64_t *h_keys, size_t n, uint64_t *deleted) {
  return gamq__qf_arrays(F, 0, 2, h_keys, 8, n, NULL, deleted);
}

GAMQ_DEF gamq_status gamq_qf_merge_sync(gamq_qf *out, const gamq_qf *a, const gamq_qf *b, gamq_stream stream) {
  if (out == NULL || a == NULL || b == NULL || !gamq__qf_same_shape(&out->f, &a->f) ||
      !gamq__qf_same_shape(&out->f, &b->f) || a->backend != out->backend || b->backend != out->backend)
    return GAMQ_ERROR_INVALID_ARGUMENT;
  if (out->backend == GAMQ_BACKEND_HOST) return gamq__qf_status(gamq__qf_merge(&out->f, &a->f, &b->f, out->method));
#if defined(__CUDACC__)
  return gamq__qf_cuda_rebuild(out, GAMQ__QF_OP_MERGE, NULL, 8, 0, a, b, NULL, (cudaStream_t)stream);
#else
  (void)stream;
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_qf_extract_sync(const gamq_qf *F, uint64_t *d_fps, size_t capacity, size_t *written,
                                          gamq_stream stream) {
  if (F == NULL || capacity < F->f.nitems || (d_fps == NULL && F->f.nitems > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST) {
    if (F->f.nitems > 0) gamq__qf_extract(&F->f, d_fps);
  } else {
#if defined(__CUDACC__)
    gamq__qf_bufs bufs;
    size_t bytes[GAMQ__QF_BUFS] = {0, 0, 0, 0, 0, 0};
    cudaError_t e;
    gamq_status s;
    if (F->f.nitems > 0) {
      if (gamq__cuda_qf_extract(&F->f, NULL, NULL, &bytes[0], (cudaStream_t)stream) != cudaSuccess)
        return GAMQ_ERROR_CUDA;
      s = gamq__qf_bufs_alloc(F, &bufs, bytes, (cudaStream_t)stream);
      if (s != GAMQ_SUCCESS) return s;
      e = gamq__cuda_qf_extract(&F->f, d_fps, bufs.p[0], &bytes[0], (cudaStream_t)stream);
      gamq__qf_bufs_free(F, &bufs, (cudaStream_t)stream);
      if (e != cudaSuccess || cudaStreamSynchronize((cudaStream_t)stream) != cudaSuccess) return GAMQ_ERROR_CUDA;
    }
#else
    (void)stream;
    return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (written) *written = (size_t)F->f.nitems;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_extract(const gamq_qf *F, uint64_t *h_fps, size_t capacity, size_t *written) {
  if (F == NULL || capacity < F->f.nitems || (h_fps == NULL && F->f.nitems > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST || F->f.nitems == 0) return gamq_qf_extract_sync(F, h_fps, capacity, written, NULL);
#if defined(__CUDACC__)
  {
    void *d = NULL;
    size_t bytes = (size_t)F->f.nitems * sizeof(uint64_t);
    gamq_status s = gamq__device_alloc(&F->allocator, &d, bytes, NULL);
    if (s == GAMQ_SUCCESS) s = gamq_qf_extract_sync(F, (uint64_t *)d, (size_t)F->f.nitems, written, NULL);
    if (s == GAMQ_SUCCESS && cudaMemcpy(h_fps, d, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) s = GAMQ_ERROR_CUDA;
    gamq__device_free(&F->allocator, d, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_qf_copy_bytes(const gamq_qf *F, void *h_out, size_t *bytes) {
  if (F == NULL || bytes == NULL || (h_out != NULL && *bytes < F->f.bytes)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (h_out != NULL) {
    if (F->backend == GAMQ_BACKEND_HOST) {
      memcpy(h_out, F->f.data, F->f.bytes);
    } else {
#if defined(__CUDACC__)
      if (cudaMemcpy(h_out, F->f.data, F->f.bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return GAMQ_ERROR_CUDA;
#else
      return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
    }
  }
  *bytes = F->f.bytes;
  return GAMQ_SUCCESS;
}

/* ---- save / load (the FILE FORMAT of section 6) ---- */
#include <stdio.h>

#define GAMQ__QF_FILE_VERSION 1u
#define GAMQ__QF_HEADER_BYTES 72u
#define GAMQ__QF_FLAG_PACKED 1u /* header flags bit 0: an RSQF in the PACKED layout */
static const uint8_t gamq__qf_file_magic[8] = {0x89, 'G', 'A', 'M', 'Q', 'F', '\r', '\n'};

typedef struct gamq__qf_header {
  gamq__qf_kind kind;
  int q, r, packed;
  uint64_t seed, count, nslots, payload, checksum;
} gamq__qf_header;

/* 64-bit FNV-1a, continued from h (start with 0xcbf29ce484222325). */
static uint64_t gamq__fnv1a64(uint64_t h, const uint8_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* The 72 header bytes of filter f whose payload (f's bytes, in host memory) is at payload. */
static void gamq__qf_header_write(const gamq__qf *f, const uint8_t *payload, uint8_t *out) {
  memcpy(out, gamq__qf_file_magic, 8);
  gamq__store_le(out + 8, GAMQ__QF_FILE_VERSION, 4);
  gamq__store_le(out + 12, GAMQ__QF_HEADER_BYTES, 4);
  gamq__store_le(out + 16, (uint64_t)f->kind, 4);
  gamq__store_le(out + 20, (uint64_t)f->q, 4);
  gamq__store_le(out + 24, (uint64_t)f->r, 4);
  gamq__store_le(out + 28, f->packed ? GAMQ__QF_FLAG_PACKED : 0, 4);
  gamq__store_le(out + 32, f->seed, 8);
  gamq__store_le(out + 40, f->nitems, 8);
  gamq__store_le(out + 48, f->nslots, 8);
  gamq__store_le(out + 56, (uint64_t)f->bytes, 8);
  gamq__store_le(out + 64, gamq__fnv1a64(gamq__fnv1a64(0xcbf29ce484222325ull, out, 64), payload, f->bytes), 8);
}

/* Check the header in the first `avail` bytes of buf (all of it, or fewer:
   a short buffer is a truncated file). 1 and *h filled when it is a valid
   version-1 header; 0 otherwise. Nothing after the header is read. */
static int gamq__qf_header_read(const uint8_t *buf, size_t avail, gamq__qf_header *h) {
  uint64_t version, hbytes, kind, q, r, flags, nslots = 0;
  size_t bytes = 0;
  if (avail < 8 || memcmp(buf, gamq__qf_file_magic, 8) != 0) return 0;
  if (avail < 12) return 0;
  version = gamq__load_le(buf + 8, 4);
  if (version != GAMQ__QF_FILE_VERSION) return 0; /* 0, or newer than this reader */
  if (avail < GAMQ__QF_HEADER_BYTES) return 0;
  hbytes = gamq__load_le(buf + 12, 4);
  kind = gamq__load_le(buf + 16, 4), q = gamq__load_le(buf + 20, 4), r = gamq__load_le(buf + 24, 4);
  flags = gamq__load_le(buf + 28, 4);
  if (hbytes != GAMQ__QF_HEADER_BYTES || (kind != GAMQ__QF_SQF && kind != GAMQ__QF_RSQF) || q > 64 || r > 64 ||
      (flags & ~(uint64_t)GAMQ__QF_FLAG_PACKED) != 0 || /* PACKED on an SQF: the layout check fails */
      !gamq__qf_layout_packed((gamq__qf_kind)kind, (int)q, (int)r, (flags & GAMQ__QF_FLAG_PACKED) != 0, &nslots, &bytes))
    return 0;
  h->kind = (gamq__qf_kind)kind, h->q = (int)q, h->r = (int)r, h->packed = (flags & GAMQ__QF_FLAG_PACKED) != 0;
  h->seed = gamq__load_le(buf + 32, 8);
  h->count = gamq__load_le(buf + 40, 8);
  h->nslots = gamq__load_le(buf + 48, 8);
  h->payload = gamq__load_le(buf + 56, 8);
  h->checksum = gamq__load_le(buf + 64, 8);
  return h->nslots == nslots && h->payload == (uint64_t)bytes && h->count <= nslots;
}

/* Is payload exactly the filter of header h? Count what it holds (a checked
   walk that writes nothing: a header's count the payload does not hold
   costs no allocation), extract it, rebuild that multiset on the host,
   compare the bytes. GAMQ_SUCCESS, GAMQ_ERROR_BAD_FILE or
   GAMQ_ERROR_OUT_OF_MEMORY; frees what it takes. */
static gamq_status gamq__qf_check_payload(const gamq__qf_header *h, const uint8_t *payload) {
  gamq__qf view, t;
  uint64_t *fps;
  gamq_status s = GAMQ_ERROR_BAD_FILE;
  view.kind = h->kind, view.q = h->q, view.r = h->r, view.packed = h->packed, view.seed = h->seed, view.nitems = h->count;
  view.nslots = h->nslots, view.bytes = (size_t)h->payload; /* as gamq__qf_layout_packed (checked) */
  view.data = (uint8_t *)payload; /* read only */
  if (!gamq__qf_extract_checked(&view, NULL, h->count)) return GAMQ_ERROR_BAD_FILE;
  fps = (uint64_t *)GAMQ_MALLOC(((size_t)h->count + 1) * sizeof(uint64_t));
  if (fps == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  if (gamq__qf_extract_checked(&view, fps, h->count)) {
    gamq__qf_result res = gamq__qf_init_like(&t, &view);
    if (res == GAMQ__QF_OK) {
      res = gamq__qf_build(&t, fps, h->count, GAMQ__NA_SERIAL); /* unsorted (corrupt runs): BAD_ARG */
      if (res == GAMQ__QF_OK && memcmp(t.data, payload, t.bytes) == 0) s = GAMQ_SUCCESS;
      gamq__qf_free(&t);
    }
    if (res == GAMQ__QF_NO_MEMORY) s = GAMQ_ERROR_OUT_OF_MEMORY;
  }
  GAMQ_FREE(fps);
  return s;
}

GAMQ_DEF gamq_status gamq_qf_serialize(const gamq_qf *F, void *h_buf, size_t *bytes) {
  size_t need, pb;
  gamq_status s;
  if (F == NULL || bytes == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  need = GAMQ__QF_HEADER_BYTES + F->f.bytes;
  if (h_buf != NULL) {
    if (*bytes < need) return GAMQ_ERROR_INVALID_ARGUMENT;
    pb = F->f.bytes;
    s = gamq_qf_copy_bytes(F, (uint8_t *)h_buf + GAMQ__QF_HEADER_BYTES, &pb);
    if (s != GAMQ_SUCCESS) return s;
    gamq__qf_header_write(&F->f, (const uint8_t *)h_buf + GAMQ__QF_HEADER_BYTES, (uint8_t *)h_buf);
  }
  *bytes = need;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_qf_deserialize(const gamq_qf_desc *desc, const void *h_buf, size_t bytes, gamq_qf **filter) {
  const uint8_t *buf = (const uint8_t *)h_buf;
  gamq__qf_header h;
  gamq_qf_desc d;
  gamq_qf *F = NULL;
  gamq_status s;
  if (h_buf == NULL || filter == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (!gamq__qf_header_read(buf, bytes, &h) || bytes - GAMQ__QF_HEADER_BYTES != h.payload ||
      gamq__fnv1a64(gamq__fnv1a64(0xcbf29ce484222325ull, buf, 64), buf + GAMQ__QF_HEADER_BYTES, (size_t)h.payload) !=
          h.checksum)
    return GAMQ_ERROR_BAD_FILE;
  s = gamq__qf_check_payload(&h, buf + GAMQ__QF_HEADER_BYTES);
  if (s != GAMQ_SUCCESS) return s;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  d.seed = h.seed;
  d.layout = h.packed ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  s = gamq_qf_create(&d, (gamq_qf_kind)h.kind, h.q, h.r, &F);
  if (s != GAMQ_SUCCESS) return s;
  if (F->backend == GAMQ_BACKEND_HOST) {
    memcpy(F->f.data, buf + GAMQ__QF_HEADER_BYTES, F->f.bytes);
  } else {
#if defined(__CUDACC__)
    if (cudaMemcpy(F->f.data, buf + GAMQ__QF_HEADER_BYTES, F->f.bytes, cudaMemcpyHostToDevice) != cudaSuccess) {
      gamq_qf_destroy(F);
      return GAMQ_ERROR_CUDA;
    }
#endif
  }
  F->f.nitems = h.count;
  *filter = F;
  return GAMQ_SUCCESS;
}

/* Saving without losing what is at the path: the bytes go to a new file
   beside it, reach the disk, and only then replace the old one by rename.
   POSIX systems write through open(2) with O_SYNC (each write returns once
   its data is on the disk: fsync, hidden from strict C99 compiles, is not
   needed); elsewhere through stdio, which has no way to sync. */
#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <unistd.h>
#define GAMQ__POSIX_FILES 1
#else
#define GAMQ__POSIX_FILES 0
#endif
#include <errno.h>
#include <time.h>

/* Write buf to a new file tmp. 1: written and on the disk; 0: an error (no
   file left); -1: tmp exists already (try another name). */
static int gamq__write_new_file(const char *tmp, const uint8_t *buf, size_t n) {
  size_t done = 0;
  int ok = 1;
#if GAMQ__POSIX_FILES
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_SYNC, 0666);
  if (fd < 0) return errno == EEXIST ? -1 : 0;
  while (ok && done < n) {
    const size_t want = n - done < ((size_t)1 << 30) ? n - done : ((size_t)1 << 30);
    const ssize_t w = write(fd, buf + done, want);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ok = 0;
    else done += (size_t)w;
  }
  if (close(fd) != 0) ok = 0;
#else
  FILE *fp = fopen(tmp, "rb");
  if (fp != NULL) { /* C99 has no exclusive create: look first */
    fclose(fp);
    return -1;
  }
  fp = fopen(tmp, "wb");
  if (fp == NULL) return 0;
  done = fwrite(buf, 1, n, fp);
  ok = done == n && fflush(fp) == 0;
  if (fclose(fp) != 0) ok = 0;
#endif
  if (!ok) remove(tmp);
  return ok;
}

/* The temporary name for a save to path: path + ".tmp" + 16 hex digits
   drawn from the time, a stack address, the attempt (and the process id on
   POSIX), in GAMQ_MALLOC memory; NULL when out of memory. A name in use
   makes the caller try the next attempt. */
static char *gamq__temp_name(const char *path, unsigned attempt) {
  const size_t len = strlen(path);
  char *tmp = (char *)GAMQ_MALLOC(len + 4 + 16 + 1);
  uint64_t h = gamq__qf_hash64((uint64_t)time(NULL), (uint64_t)(uintptr_t)&attempt);
  int i;
  if (tmp == NULL) return NULL;
#if GAMQ__POSIX_FILES
  h = gamq__qf_hash64(h, (uint64_t)getpid());
#endif
  h = gamq__qf_hash64(h, attempt);
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".tmp", 4);
  for (i = 0; i < 16; ++i) tmp[len + 4 + i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 15];
  tmp[len + 20] = '\0';
  return tmp;
}

GAMQ_DEF gamq_status gamq_qf_save(const gamq_qf *F, const char *path) {
  size_t n = 0;
  uint8_t *buf;
  char *tmp = NULL;
  unsigned attempt;
  int w = -1;
  gamq_status s;
  if (F == NULL || path == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  gamq_qf_serialize(F, NULL, &n);
  buf = (uint8_t *)GAMQ_MALLOC(n);
  if (buf == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  s = gamq_qf_serialize(F, buf, &n);
  for (attempt = 0; s == GAMQ_SUCCESS && w == -1 && attempt < 16; ++attempt) { /* a fresh name, created exclusively */
    GAMQ_FREE(tmp);
    tmp = gamq__temp_name(path, attempt);
    if (tmp == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
    else w = gamq__write_new_file(tmp, buf, n);
  }
  if (s == GAMQ_SUCCESS && w != 1) s = GAMQ_ERROR_IO;
  if (s == GAMQ_SUCCESS && rename(tmp, path) != 0) { /* path is as it was */
    remove(tmp);
    s = GAMQ_ERROR_IO;
  }
  GAMQ_FREE(tmp);
  GAMQ_FREE(buf);
  return s;
}

GAMQ_DEF gamq_status gamq_qf_load(const gamq_qf_desc *desc, const char *path, gamq_qf **filter) {
  const size_t first = (size_t)1 << 20; /* the first piece of the payload read */
  uint8_t head[GAMQ__QF_HEADER_BYTES], *buf = NULL;
  gamq__qf_header h;
  size_t got, n = 0, have = 0, cap = 0;
  gamq_status s = GAMQ_SUCCESS;
  FILE *fp;
  if (path == NULL || filter == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  fp = fopen(path, "rb");
  if (fp == NULL) return GAMQ_ERROR_IO;
  /* the header says how long the file must be */
  got = fread(head, 1, sizeof head, fp);
  if (ferror(fp)) s = GAMQ_ERROR_IO;
  else if (!gamq__qf_header_read(head, got, &h) || h.payload > (uint64_t)((size_t)-1 - sizeof head)) s = GAMQ_ERROR_BAD_FILE;
  if (s == GAMQ_SUCCESS) {
    n = sizeof head + (size_t)h.payload;
    cap = n - sizeof head < first ? n : sizeof head + first;
    buf = (uint8_t *)GAMQ_MALLOC(cap);
    if (buf == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
    else memcpy(buf, head, sizeof head), have = sizeof head;
  }
  /* read it in pieces, the buffer doubling only while the file still has
     bytes: a header that claims more than the file holds costs no more
     than about twice the bytes that are there */
  while (s == GAMQ_SUCCESS && have < n) {
    if (have == cap) {
      const size_t grown = cap > n - cap ? n : 2 * cap;
      uint8_t *more = (uint8_t *)GAMQ_REALLOC(buf, grown);
      if (more == NULL) {
        s = GAMQ_ERROR_OUT_OF_MEMORY;
        break;
      }
      buf = more, cap = grown;
    }
    got = fread(buf + have, 1, cap - have, fp);
    have += got;
    if (ferror(fp)) s = GAMQ_ERROR_IO;
    else if (have < cap) break; /* the end of the file */
  }
  if (s == GAMQ_SUCCESS && (have != n || fgetc(fp) != EOF)) s = GAMQ_ERROR_BAD_FILE; /* truncated, or more after it */
  if (s == GAMQ_SUCCESS && ferror(fp)) s = GAMQ_ERROR_IO;
  fclose(fp);
  if (s == GAMQ_SUCCESS) s = gamq_qf_deserialize(desc, buf, n, filter);
  GAMQ_FREE(buf);
  return s;
}

/* ---------------------------------------------------------------------------
   The blocked Bloom filter (section 7). The key -> (block, bit positions)
   functions are GAMQ__HD: the HOST backend calls them here, the kernels of
   gpuamq_kernels.cuh section 3 (which declare them ahead) on the device, so
   both backends set and test the same bits by construction.
   ------------------------------------------------------------------------- */

/* high 64 bits of the 128-bit product a * b (the multiply-shift range
   reduction: a uniform in [0, 2^64) -> a * b / 2^64 uniform in [0, b)) */
static inline GAMQ__HD uint64_t gamq__mulhi64(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  const uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  const uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi; /* < 2^64 */
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* The 64-bit hash of a key (section 6's, with the filter's seed). */
static inline GAMQ__HD uint64_t gamq__bloom_hash(uint64_t key, uint64_t seed) { return gamq__qf_hash64(key, seed); }

/* The block of hash h among num_blocks: the high 64 bits of h * num_blocks. */
static inline GAMQ__HD uint64_t gamq__bloom_block(uint64_t h, uint64_t num_blocks) {
  return gamq__mulhi64(h, num_blocks);
}

/* The position stream of hash h: 16 bytes, position i (0 .. k-1) is byte i,
   little-endian: bytes 0..3 the low 32 bits of h, bytes 4..11 g1 = mix(h),
   bytes 12..15 the low 32 bits of g2 = mix(g1). *lo holds bytes 0..7, *hi
   bytes 8..15; the mixes only run when k needs their bytes. */
static inline GAMQ__HD void gamq__bloom_stream(uint64_t h, int k, uint64_t *lo, uint64_t *hi) {
  uint64_t g1 = 0, g2 = 0;
  if (k > 4) g1 = gamq__qf_hash64(h, 0);
  if (k > 12) g2 = gamq__qf_hash64(g1, 0);
  *lo = (h & 0xffffffffull) | (g1 << 32);
  *hi = (g1 >> 32) | (g2 << 32);
}

/* The bits key sets in its block, as one mask per 32-bit word (position x:
   word x >> 5, bit x & 31); returns the block. */
static inline GAMQ__HD uint64_t gamq__bloom_masks(uint64_t key, uint64_t seed, uint64_t num_blocks, int k,
                                                  uint32_t mask[8]) {
  const uint64_t h = gamq__bloom_hash(key, seed);
  uint64_t lo, hi;
  int i, w;
  gamq__bloom_stream(h, k, &lo, &hi);
  for (w = 0; w < 8; ++w) mask[w] = 0;
  for (i = 0; i < k; ++i) {
    const uint32_t x = (uint32_t)((i < 8 ? lo >> (8 * i) : hi >> (8 * (i - 8))) & 0xff);
    for (w = 0; w < 8; ++w) /* mask[x >> 5] |= bit, without a dynamic index (registers on the device) */
      mask[w] |= (x >> 5) == (uint32_t)w ? (uint32_t)1 << (x & 31) : 0u;
  }
  return gamq__bloom_block(h, num_blocks);
}

/* ---- the false-positive rate of the layout (section 7's FPR) ---- */

/* x^e by repeated squaring (no libm: the host part links without it) */
static double gamq__powi(double x, uint64_t e) {
  double r = 1.0;
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return r;
}

enum { GAMQ__BLOOM_BITS = 256, GAMQ__BLOOM_DP_BALLS = 1024 };

/* P(j) = the probability that all k positions of a query are set in a block
   that holds j keys: E[(|S| / 256)^k], S the bits set by the j k positions
   of those keys (uniform, independent). Exact two ways:
     small j (j k <= 1024 balls): dp[j], from the occupancy distribution of
       256 bins, grown one ball at a time (positive terms only);
     larger j: by inclusion-exclusion over the t distinct positions of the
       query, P(j) = sum_i a_i r_i^j with r_i = (1 - i/256)^k and
       a_i = (-1)^i sum_{t >= i} P(t distinct) C(t, i), P(t distinct) =
       S2(k, t) 256 (256 - 1) .. (256 - t + 1) / 256^k. There the block is
       at least 98% set, so the alternating sum loses no precision. */
typedef struct gamq__bloom_model {
  int k, dp_j;
  double dp[GAMQ__BLOOM_DP_BALLS + 1];
  double a[GAMQ_BLOOM_MAX_K + 1], r[GAMQ_BLOOM_MAX_K + 1];
} gamq__bloom_model;

static void gamq__bloom_model_init(gamq__bloom_model *m, int k) {
  double dist[GAMQ__BLOOM_BITS + 1], pk[GAMQ__BLOOM_BITS + 1];
  double s2[GAMQ_BLOOM_MAX_K + 1][GAMQ_BLOOM_MAX_K + 1], pt[GAMQ_BLOOM_MAX_K + 1];
  const double W = GAMQ__BLOOM_BITS;
  int s, j, b, t, i;
  m->k = k;
  m->dp_j = GAMQ__BLOOM_DP_BALLS / k;
  for (s = 0; s <= GAMQ__BLOOM_BITS; ++s) dist[s] = 0.0, pk[s] = gamq__powi(s / W, (uint64_t)k);
  dist[0] = 1.0;
  for (j = 0; j <= m->dp_j; ++j) {
    double sum = 0.0;
    for (s = 0; s <= GAMQ__BLOOM_BITS; ++s) sum += dist[s] * pk[s];
    m->dp[j] = sum;
    for (b = 0; b < k && j < m->dp_j; ++b) /* one more ball: stays on s set bits w.p. s/256 */
      for (s = GAMQ__BLOOM_BITS; s >= 0; --s)
        dist[s] = dist[s] * (s / W) + (s > 0 ? dist[s - 1] * ((W - s + 1) / W) : 0.0);
  }
  /* Stirling numbers of the second kind S2(k, t) */
  memset(s2, 0, sizeof s2);
  s2[0][0] = 1.0;
  for (i = 1; i <= k; ++i)
    for (t = 1; t <= i; ++t) s2[i][t] = t * s2[i - 1][t] + s2[i - 1][t - 1];
  for (t = 0; t <= k; ++t) {
    double falling = 1.0;
    for (i = 0; i < t; ++i) falling *= (W - i) / W;
    pt[t] = s2[k][t] * falling * gamq__powi(1.0 / W, (uint64_t)(k - t));
  }
  for (i = 0; i <= k; ++i) {
    double sum = 0.0, c = 1.0; /* c = C(t, i), built along t */
    for (t = i; t <= k; ++t) {
      if (t > i) c = c * t / (t - i);
      sum += pt[t] * c;
    }
    m->a[i] = (i & 1) ? -sum : sum;
    m->r[i] = gamq__powi((W - i) / W, (uint64_t)k);
  }
}

static double gamq__bloom_model_p(const gamq__bloom_model *m, uint64_t j) {
  double sum = 0.0;
  int i;
  if (j <= (uint64_t)m->dp_j) return m->dp[j];
  for (i = 0; i <= m->k; ++i) sum += m->a[i] * gamq__powi(m->r[i], j);
  return sum < 0.0 ? 0.0 : sum > 1.0 ? 1.0 : sum;
}

/* FPR = sum_j Binomial(j; n, 1/B) P(j): weights from the mode outwards by
   their ratios (no exp or log), normalised, stopped below 1e-30 of the mode. */
static double gamq__bloom_model_fpr(const gamq__bloom_model *m, uint64_t num_blocks, uint64_t n) {
  const double lam = (double)n / (double)num_blocks, q = (double)(num_blocks - 1);
  double mode_d, w, total, acc;
  uint64_t mode, j;
  if (n == 0) return 0.0;
  if (num_blocks == 1) return gamq__bloom_model_p(m, n);
  if (lam > 1e6) return 1.0; /* every block far past full: 1 in double precision */
  mode_d = ((double)n + 1.0) / (double)num_blocks;
  mode = (uint64_t)mode_d;
  if (mode > n) mode = n;
  total = 1.0, acc = gamq__bloom_model_p(m, mode);
  for (j = mode, w = 1.0; j > 0;) { /* w(j - 1) = w(j) j (B - 1) / (n - j + 1) */
    w *= (double)j * q / (double)(n - j + 1);
    --j;
    if (w < 1e-30) break;
    total += w, acc += w * gamq__bloom_model_p(m, j);
  }
  for (j = mode, w = 1.0; j < n;) { /* w(j + 1) = w(j) (n - j) / ((j + 1) (B - 1)) */
    w *= (double)(n - j) / ((double)(j + 1) * q);
    ++j;
    if (w < 1e-30) break;
    total += w, acc += w * gamq__bloom_model_p(m, j);
  }
  return acc / total;
}

GAMQ_DEF double gamq_bloom_fpr(uint64_t num_blocks, int k, uint64_t n) {
  gamq__bloom_model m;
  if (num_blocks == 0 || k < 1 || k > GAMQ_BLOOM_MAX_K) return -1.0;
  if (n == 0) return 0.0;
  gamq__bloom_model_init(&m, k);
  return gamq__bloom_model_fpr(&m, num_blocks, n);
}

/* The smallest filter (then the lowest FPR) with FPR <= eps for n keys:
   for each k, the least num_blocks by doubling then bisection (the FPR falls
   as num_blocks grows). 0 when nothing up to max_blocks is enough. */
static uint64_t gamq__bloom_plan(uint64_t n, double eps, uint64_t max_blocks, int *k_out) {
  gamq__bloom_model m;
  uint64_t best = 0, lo, hi;
  double best_fpr = 2.0;
  int k;
  for (k = 1; k <= GAMQ_BLOOM_MAX_K; ++k) {
    double f;
    gamq__bloom_model_init(&m, k);
    hi = n / 32 > 0 ? n / 32 : 1; /* about 32 keys a block: 8 bits a key */
    if (hi > max_blocks) hi = max_blocks;
    if (gamq__bloom_model_fpr(&m, hi, n) <= eps) { /* walk down: lo fails or is 0 */
      for (lo = hi / 2; lo > 0 && gamq__bloom_model_fpr(&m, lo, n) <= eps; lo /= 2) hi = lo;
    } else { /* walk up: hi fits */
      do {
        lo = hi;
        if (hi > max_blocks / 2) {
          hi = max_blocks;
          if (gamq__bloom_model_fpr(&m, hi, n) > eps) hi = 0;
          break;
        }
        hi *= 2;
      } while (gamq__bloom_model_fpr(&m, hi, n) > eps);
      if (hi == 0) continue; /* this k cannot reach eps */
    }
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (gamq__bloom_model_fpr(&m, mid, n) <= eps) hi = mid;
      else lo = mid;
    }
    f = gamq__bloom_model_fpr(&m, hi, n);
    if (best == 0 || hi < best || (hi == best && f < best_fpr)) best = hi, best_fpr = f, *k_out = k;
  }
  return best;
}

/* ---- the public filter ---- */
struct gamq_bloom {
  gamq_backend backend;            /* resolved: CUDA or HOST */
  uint64_t seed, num_blocks;
  int k;
  size_t bytes;                    /* num_blocks * 32 */
  double bits_per_key_planned;     /* 0 for gamq_bloom_create_shape */
  uint32_t *words;                 /* num_blocks * 8 words; device memory on CUDA */
  gamq_device_allocator allocator; /* CUDA: the filter's memory and the temporaries */
};

#define GAMQ__BLOOM_MAX_BLOCKS ((uint64_t)(SIZE_MAX / GAMQ_BLOOM_BLOCK_BYTES))

static gamq_status gamq__bloom_new(const gamq_bloom_desc *desc, uint64_t num_blocks, int k, double planned,
                                   gamq_bloom **out) {
  gamq_bloom_desc d;
  gamq_bloom *F;
  gamq_backend backend = GAMQ_BACKEND_HOST;
  gamq_status s;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  s = gamq_backend_resolve(d.backend, &backend);
  if (s != GAMQ_SUCCESS) return s;
  F = (gamq_bloom *)GAMQ_MALLOC(sizeof *F);
  if (F == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  memset(F, 0, sizeof *F);
  F->backend = backend, F->seed = d.seed, F->num_blocks = num_blocks, F->k = k;
  F->bytes = (size_t)num_blocks * GAMQ_BLOOM_BLOCK_BYTES, F->bits_per_key_planned = planned;
  F->allocator = d.allocator;
  if (backend == GAMQ_BACKEND_HOST) {
    F->words = (uint32_t *)GAMQ_MALLOC(F->bytes);
    if (F->words == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
    else memset(F->words, 0, F->bytes);
  } else {
#if defined(__CUDACC__)
    void *p = NULL;
    s = gamq__device_alloc(&F->allocator, &p, F->bytes, NULL);
    if (s == GAMQ_SUCCESS && ((uintptr_t)p % GAMQ_BLOOM_BLOCK_BYTES) != 0) { /* a hook that breaks the promise */
      gamq__device_free(&F->allocator, p, NULL);
      s = GAMQ_ERROR_INVALID_ARGUMENT;
    }
    if (s == GAMQ_SUCCESS) {
      F->words = (uint32_t *)p;
      if (cudaMemsetAsync(p, 0, F->bytes, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess) {
        gamq__device_free(&F->allocator, p, NULL);
        cudaStreamSynchronize(0);
        s = GAMQ_ERROR_CUDA;
      }
    }
#else
    s = GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (s != GAMQ_SUCCESS) {
    GAMQ_FREE(F);
    return s;
  }
  *out = F;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_bloom_create_shape(const gamq_bloom_desc *desc, uint64_t num_blocks, int k,
                                             gamq_bloom **out) {
  if (out == NULL || num_blocks == 0 || num_blocks > GAMQ__BLOOM_MAX_BLOCKS || k < 1 || k > GAMQ_BLOOM_MAX_K)
    return GAMQ_ERROR_INVALID_ARGUMENT;
  return gamq__bloom_new(desc, num_blocks, k, 0.0, out);
}

GAMQ_DEF gamq_status gamq_bloom_create(const gamq_bloom_desc *desc, uint64_t n_expected, double eps,
                                       gamq_bloom **out) {
  const uint64_t n = n_expected > 0 ? n_expected : 1;
  uint64_t num_blocks;
  int k = 1;
  if (out == NULL || !(eps > 0.0 && eps < 1.0)) return GAMQ_ERROR_INVALID_ARGUMENT; /* NaN fails too */
  if (desc && ((int)desc->backend < 0 || (int)desc->backend > 2)) return GAMQ_ERROR_INVALID_ARGUMENT;
  num_blocks = gamq__bloom_plan(n, eps, GAMQ__BLOOM_MAX_BLOCKS, &k);
  if (num_blocks == 0) return GAMQ_ERROR_INVALID_ARGUMENT; /* more than size_t can hold */
  return gamq__bloom_new(desc, num_blocks, k, (double)num_blocks * GAMQ__BLOOM_BITS / (double)n, out);
}

GAMQ_DEF gamq_status gamq_bloom_destroy(gamq_bloom *F) {
  gamq_status s = GAMQ_SUCCESS;
  if (F == NULL) return GAMQ_SUCCESS;
  if (F->backend == GAMQ_BACKEND_HOST) {
    GAMQ_FREE(F->words);
  } else {
#if defined(__CUDACC__)
    gamq__device_free(&F->allocator, F->words, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess) s = GAMQ_ERROR_CUDA;
#endif
  }
  GAMQ_FREE(F);
  return s;
}

GAMQ_DEF gamq_status gamq_bloom_get_info(const gamq_bloom *F, gamq_bloom_info *info) {
  if (F == NULL || info == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  info->backend = F->backend, info->seed = F->seed, info->num_blocks = F->num_blocks, info->k = F->k;
  info->bytes = F->bytes, info->bits_per_key_planned = F->bits_per_key_planned;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_bloom_key_bits(const gamq_bloom *F, uint64_t key, uint64_t *block, uint32_t mask[8]) {
  uint32_t m[8];
  uint64_t b;
  if (F == NULL || block == NULL || mask == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  b = gamq__bloom_masks(key, F->seed, F->num_blocks, F->k, m);
  memcpy(mask, m, sizeof m);
  *block = b;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_bloom_clear(gamq_bloom *F) {
  if (F == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST) {
    memset(F->words, 0, F->bytes);
    return GAMQ_SUCCESS;
  }
#if defined(__CUDACC__)
  if (cudaMemsetAsync(F->words, 0, F->bytes, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess)
    return GAMQ_ERROR_CUDA;
  return GAMQ_SUCCESS;
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

/* HOST: the reference, one key at a time. */
static void gamq__bloom_host_insert(gamq_bloom *F, const void *keys, int key_bytes, size_t n) {
  size_t i;
  int w;
  for (i = 0; i < n; ++i) {
    const uint64_t key = key_bytes == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
    uint32_t m[8], *block;
    block = F->words + 8 * gamq__bloom_masks(key, F->seed, F->num_blocks, F->k, m);
    for (w = 0; w < 8; ++w) block[w] |= m[w];
  }
}
static void gamq__bloom_host_lookup(const gamq_bloom *F, const void *keys, int key_bytes, size_t n, uint8_t *found) {
  size_t i;
  int w;
  for (i = 0; i < n; ++i) {
    const uint64_t key = key_bytes == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
    uint32_t m[8], missing = 0;
    const uint32_t *block = F->words + 8 * gamq__bloom_masks(key, F->seed, F->num_blocks, F->k, m);
    for (w = 0; w < 8; ++w) missing |= m[w] & ~block[w];
    found[i] = (uint8_t)(missing == 0);
  }
}

/* The expert forms: arrays where the filter lives; synchronise the stream. */
static gamq_status gamq__bloom_sync(const gamq_bloom *F, int lookup, const void *keys, int key_bytes, size_t n,
                                    uint8_t *found, gamq_stream stream) {
  if (F == NULL || (keys == NULL && n > 0) || (lookup && found == NULL && n > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (n == 0) return GAMQ_SUCCESS;
  if (F->backend == GAMQ_BACKEND_HOST) {
    if (lookup) gamq__bloom_host_lookup(F, keys, key_bytes, n, found);
    else gamq__bloom_host_insert((gamq_bloom *)F, keys, key_bytes, n);
    (void)stream;
    return GAMQ_SUCCESS;
  }
#if defined(__CUDACC__)
  {
    cudaError_t e = lookup ? gamq__cuda_bloom_lookup(F->words, F->num_blocks, F->seed, F->k, keys, key_bytes, n, found,
                                                     (cudaStream_t)stream)
                           : gamq__cuda_bloom_insert(F->words, F->num_blocks, F->seed, F->k, keys, key_bytes, n,
                                                     (cudaStream_t)stream);
    if (e != cudaSuccess || cudaStreamSynchronize((cudaStream_t)stream) != cudaSuccess) return GAMQ_ERROR_CUDA;
    return GAMQ_SUCCESS;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

/* The convenience forms: host arrays for either backend. */
static gamq_status gamq__bloom_arrays(const gamq_bloom *F, int lookup, const void *h_keys, int key_bytes, size_t n,
                                      uint8_t *h_found) {
  if (F == NULL || (h_keys == NULL && n > 0) || (lookup && h_found == NULL && n > 0))
    return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST || n == 0) return gamq__bloom_sync(F, lookup, h_keys, key_bytes, n, h_found, NULL);
#if defined(__CUDACC__)
  {
    void *d_keys = NULL, *d_found = NULL;
    gamq_status s;
    if (n > SIZE_MAX / (size_t)key_bytes) return GAMQ_ERROR_INVALID_ARGUMENT;
    s = gamq__device_alloc(&F->allocator, &d_keys, n * (size_t)key_bytes, NULL);
    if (s == GAMQ_SUCCESS && lookup) s = gamq__device_alloc(&F->allocator, &d_found, n, NULL);
    if (s == GAMQ_SUCCESS &&
        cudaMemcpyAsync(d_keys, h_keys, n * (size_t)key_bytes, cudaMemcpyHostToDevice, 0) != cudaSuccess)
      s = GAMQ_ERROR_CUDA;
    if (s == GAMQ_SUCCESS) s = gamq__bloom_sync(F, lookup, d_keys, key_bytes, n, (uint8_t *)d_found, NULL);
    if (s == GAMQ_SUCCESS && lookup && cudaMemcpy(h_found, d_found, n, cudaMemcpyDeviceToHost) != cudaSuccess)
      s = GAMQ_ERROR_CUDA;
    gamq__device_free(&F->allocator, d_keys, NULL);
    gamq__device_free(&F->allocator, d_found, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_bloom_insert_u32_sync(gamq_bloom *F, const uint32_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__bloom_sync(F, 0, d_keys, 4, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_bloom_insert_u64_sync(gamq_bloom *F, const uint64_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__bloom_sync(F, 0, d_keys, 8, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u32_sync(const gamq_bloom *F, const uint32_t *d_keys, size_t n,
                                                uint8_t *d_found, gamq_stream stream) {
  return gamq__bloom_sync(F, 1, d_keys, 4, n, d_found, stream);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u64_sync(const gamq_bloom *F, const uint64_t *d_keys, size_t n,
                                                uint8_t *d_found, gamq_stream stream) {
  return gamq__bloom_sync(F, 1, d_keys, 8, n, d_found, stream);
}
GAMQ_DEF gamq_status gamq_bloom_insert_u32(gamq_bloom *F, const uint32_t *h_keys, size_t n) {
  return gamq__bloom_arrays(F, 0, h_keys, 4, n, NULL);
}
GAMQ_DEF gamq_status gamq_bloom_insert_u64(gamq_bloom *F, const uint64_t *h_keys, size_t n) {
  return gamq__bloom_arrays(F, 0, h_keys, 8, n, NULL);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u32(const gamq_bloom *F, const uint32_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__bloom_arrays(F, 1, h_keys, 4, n, h_found);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u64(const gamq_bloom *F, const uint64_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__bloom_arrays(F, 1, h_keys, 8, n, h_found);
}

GAMQ_DEF gamq_status gamq_bloom_copy_bytes(const gamq_bloom *F, void *h_out, size_t *bytes) {
  if (F == NULL || bytes == NULL || (h_out != NULL && *bytes < F->bytes)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (h_out != NULL) {
    if (F->backend == GAMQ_BACKEND_HOST) {
      memcpy(h_out, F->words, F->bytes);
    } else {
#if defined(__CUDACC__)
      if (cudaMemcpy(h_out, F->words, F->bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return GAMQ_ERROR_CUDA;
#else
      return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
    }
  }
  *bytes = F->bytes;
  return GAMQ_SUCCESS;
}

#endif /* GPUAMQ_IMPLEMENTATION */

/* ---------------------------------------------------------------------------
   MIT License

   Copyright (c) 2026 the gpuamq and gpuclique authors

   Permission is hereby granted, free of charge, to any person obtaining a copy
   of this software and associated documentation files (the "Software"), to deal
   in the Software without restriction, including without limitation the rights
   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
   copies of the Software, and to permit persons to whom the Software is
   furnished to do so, subject to the following conditions:

   The above copyright notice and this permission notice shall be included in all
   copies or substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
   SOFTWARE.
   ------------------------------------------------------------------------- */
