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

      nvcc -arch=sm_90 -c gpuamq_impl.cu      (your GPU's, sm_80 or newer; -arch=native
                                               on the machine that has it)

   The device code needs sm_80 or newer; a device pass for an older
   architecture (nvcc's default with CUDA 13 is sm_75) stops with an #error that
   says so. Compiling the implementation takes tens of seconds. The source form
   needs amq/, gpuprim.cuh and prim/ beside this file;
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
   back, and the break-based methods read a flag per 8 rounds; a read-back
   is a round trip to the host, which small arrays notice: the timings by n
   are in bench/results/nonassoc_h200.md). d_temp == NULL:
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
   was. A symbolic link at path (or a chain of them) stays a link: the save
   writes through it, its temporary beside the file the link resolves to
   and renamed over that file. Refused with GAMQ_ERROR_IO, before anything is
   written and with nothing changed: a path (or a link's target) that exists
   and is not a regular file (a directory, a character or block device such
   as /dev/null, a FIFO, a socket; none is opened, so a FIFO does not block),
   and a link that resolves to nothing (dangling, a loop: no file is created
   where it points). The new file gets the mode of any new file (0666 less
   the umask), not the old file's. Links are followed where <stdlib.h> and
   <sys/stat.h> declare realpath and lstat: the default on Linux, macOS and
   the BSDs. A strict -std=c99 without _DEFAULT_SOURCE, _GNU_SOURCE or
   _XOPEN_SOURCE >= 500 hides them; then the file type is still checked,
   through any link, but a link at path is replaced by the new file (as is
   a dangling one). Without POSIX open(2) (Windows) the data goes through
   stdio unsynced, nothing is checked before the write, and rename does not
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
   memory next to an unblocked Bloom filter, most at small eps.

   SIZING. gamq_bloom_create(n_expected, eps) picks, over k = 1 .. 16, the
   fewest blocks with FPR <= eps at n_expected keys (then the lowest FPR).
   Bits per key (256 num_blocks / n), for large n, beside the paper's
   Table I (bytes per item x 8):
       eps      k   this filter   Bloom 1-bit (k = 5)   BloomGPU (a byte a bit)
       0.03     5     7.56          7.7                  61.6
       1e-4    11    24.9          20.8                 163
       5e-7    15    54.9          45.6                 362
   (an unblocked Bloom filter with the best k needs 7.3, 19.2, 30.3). So
   about a fifth more memory than the 1-bit filter at small eps, for one
   sector per query instead of five random words, and 12-15% of
   BloomGPU's.

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

   The implementation lives in amq/, one folder per module (nonassoc, qf,
   bloom), each split the same way: its host part (the reference and the
   HOST backend), its chooser (AUTO: the module's tuning constants and the
   one function that turns options and input into a plan), its kernels, its
   CUDA driver (the launches), its entry points (argument checks, the plan,
   the dispatch to HOST or CUDA by it). The drivers and the host part only
   read a plan. They are included here, once, in one fixed order: common,
   every host part each followed by its chooser, then (nvcc only) every
   module's kernels and every CUDA driver, then every module's entry
   points. Code calls only what an earlier file, or an earlier line of its
   own file, defines; nonassoc comes first in each layer because the filters
   build with its position scan. Every private function is static (or a
   template), so several translation units may each hold a private
   implementation (GPUAMQ_STATIC) without clashing symbols.

   Contents of amq/
     common.h ................. allocator macros, system headers, GAMQ__HD,
                                gamq_status_string, gamq_backend_resolve;
                                nvcc: gamq__device_alloc / _free, gamq__grid
     nonassoc/host.h .......... the recurrence (section IV-C of Geil,
                                Farach-Colton, Owens, "Quotient Filters:
                                Approximate Membership Queries on the GPU",
                                IPDPS 2018, "the QF paper"), its serial
                                reference gamq__host_maxplus_serial, the host
                                simulations of the four methods, the typed
                                wrappers gamq__host_satsum_* /
                                gamq__host_position_*, the call gamq__scan_call
     nonassoc/choose.h ........ the scans' tuning constants (tiles, merge tile,
                                round batch), gamq__nonassoc_choose -> plan
                                (backend, method, bound, prefix-max path)
     qf/host.h ................ the quotient filters' host reference (the QF
                                paper, III-V): layouts, SQF / RSQF slot access
                                and point operations (GAMQ__HD), build,
                                extract, merge, batches; the handle gamq_qf
     qf/io.h .................. the FILE FORMAT: header, checksum, payload
                                check, gamq__write_new_file
     qf/choose.h .............. the filters' tuning constants (in-place rule,
                                round caps, kept temporaries, RSQF warps),
                                gamq__qf_choose -> plan (backend, build scan,
                                batch path, dedup, sorted lookup, caps);
                                gamq__qf_insert_batch (AUTO for the reference)
     bloom/host.h ............. key -> block and bits (GAMQ__HD), the FPR model,
                                gamq__bloom_plan, the handle gamq_bloom, the
                                HOST insert and lookup
     bloom/choose.h ........... block size and keys a thread of the kernels,
                                gamq__bloom_choose -> plan (backend, wide
                                lookup, launch shape)
     nonassoc/kernels.cuh ..... (nvcc)
          maps and their composition ........ gamq__map, gamq__compose_op
          the problem as the kernels see it . gamq__na_dev
          one tile's scan + decoupled look-back gprim__tile_scan (prim/scan.cuh)
          ASSOCIATIVE ........................ gamq__pos_scan_kernel (position scan
                                               without heads: one prefix max),
                                               gamq__map_scan_kernel (any recurrence)
          PARALLEL_MERGING ................... gamq__merge_tile_kernel, gamq__merge_round_kernel
          SEQUENTIAL_SHIFTING ................ gamq__run_flags_kernel, gamq__run_prep_kernel,
                                               gamq__shift_round_kernel
          SEGMENTED_LAYOUTS .................. gamq__layout_round_kernel, gamq__layout_final_kernel
     qf/kernels.cuh ........... (nvcc; lookups are gamq_qf_ref_contains, declared
                                with the public API for users' kernels)
          hash, lookup ....................... gamq__qf_hash_kernel, gamq__qf_lookup_kernel (unsorted),
                                               gamq__qf_hash_index_kernel, gamq__qf_lookup_sorted_kernel
          bulk build ......................... gamq__sqf_items_kernel, gamq__sqf_occupied_kernel,
                                               gamq__rsqf_blocks_kernel
          extract ............................ gamq__qf_block_counts_kernel, gamq__qf_ranks_kernel,
                                               gamq__qf_walk_kernel (SQF), gamq__rsqf_walk_kernel (RSQF)
          multiset difference (deletes) ...... gamq__qf_keep_kernel
          IN-PLACE ROUNDS .................... SQF supercluster bidding: gamq__sqf_bid_kernel,
                                               gamq__sqf_apply_kernel; RSQF growing regions:
                                               gamq__rsqf_region_kernel
          IN-PLACE WINDOWS ................... window re-layout: gamq__win_bounds_kernel,
                                               gamq__win_chain_kernel, gamq__win_write_kernel
     bloom/kernels.cuh ........ (nvcc) gamq__bloom_insert_kernel, gamq__bloom_lookup_kernel
     nonassoc/cuda.cuh ........ (nvcc) gamq__na_cuda (one problem, one method),
                                gamq__cuda_scan (the five operations)
     qf/cuda.cuh .............. (nvcc) gamq__cuda_qf_hash, _lookup, _lookup_sorted,
                                _sort, _build, _extract, _difference, _rounds;
                                the batch drivers gamq__qf_cuda_rebuild,
                                gamq__qf_cuda_inplace, gamq__qf_cuda_windows
     bloom/cuda.cuh ........... (nvcc) gamq__cuda_bloom_insert, gamq__cuda_bloom_lookup
     nonassoc/api.h ........... section 5's entry points
     qf/api.h ................. section 6's entry points (save / load included)
     bloom/api.h .............. section 7's entry points
   ========================================================================= */
#if defined(GPUAMQ_IMPLEMENTATION) && !defined(GPUAMQ_IMPLEMENTATION_DONE)
#define GPUAMQ_IMPLEMENTATION_DONE

#include "gpuprim.cuh"
#include "amq/common.h"
#include "amq/nonassoc/host.h"
#include "amq/nonassoc/choose.h"
#include "amq/qf/host.h"
#include "amq/qf/io.h"
#include "amq/qf/choose.h"
#include "amq/bloom/host.h"
#include "amq/bloom/choose.h"
#if defined(__CUDACC__)
#include "amq/nonassoc/kernels.cuh"
#include "amq/qf/kernels.cuh"
#include "amq/bloom/kernels.cuh"
#include "amq/nonassoc/cuda.cuh"
#include "amq/qf/cuda.cuh"
#include "amq/bloom/cuda.cuh"
#endif
#include "amq/nonassoc/api.h"
#include "amq/qf/api.h"
#include "amq/bloom/api.h"

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
