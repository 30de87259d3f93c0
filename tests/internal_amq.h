/* internal_amq.h - the AMQ tests' one door into gpuamq.h's private part.

   The AMQ tests (test_qf*.cu, test_bloom.cu, test_nonassoc*.cu) use the
   public API of gpuamq.h and this header, nothing else of the
   implementation. This header is the only place that names private gamq__
   identifiers; it names these 23, each because no public call reaches
   what a test must check:

   quotient filters
     gamq__qf ................ the filter inside a HOST handle (its shape, count
                               and bytes): the simulations and walks below run
                               on it, or on a copy of it with other bytes
     gamq__qf_layout_packed .. nslots and bytes of a shape without making it:
                               q = 32 (20 GiB) and headers that claim such sizes
     gamq__rsqf_offset ....... the true offset behind a saturated (255) stored
                               one, as the reference's inserts and deletes
                               rebuild it: no call returns it
   in-place rounds (amq/qf/kernels.cuh, IN-PLACE ROUNDS), run on the host
   serially by amqt_sim_rounds, poisoned copies outside each window:
     gamq__sqf_group ......... an SQF item's supercluster (its bid)
     gamq__sqf_step .......... an SQF winner's point operation
     gamq__rsqf_schedule ..... the RSQF region sizes and phases, round by round
     gamq__rsqf_region ....... an RSQF item's region in a round
     gamq__rsqf_queue ........ one region's queue of items
     gamq__rsqf_insert_in .... an RSQF insert bounded to a region (the dry run a
                               too small region must refuse)
   window re-layout (amq/qf/kernels.cuh, IN-PLACE WINDOWS), run on the host
   by amqt_sim_windows and window by window on copies:
     gamq__win_bounds ........ an item's window start (and stretch test)
     gamq__win_chain_one ..... one chain pass of one item
     gamq__win_write_one ..... one window's write
   the walks those two paths are built on, against slot-at-a-time definitions:
     gamq__rsqf_unused_in .... a slot in no run, from its block's words alone
     gamq__qf_next_unused .... the first unused slot at or after s
     gamq__sqf_next_empty .... the SQF's first empty slot at or after s
     gamq__sqf_cluster_start . the SQF cluster a slot is in
   non-associative scans
     gamq__na_problem ........ a recurrence for the serial reference:
     gamq__host_maxplus_serial the reference loop every method (HOST simulation
                               and kernel) is compared with; no call runs it
     gamq__scan_status ....... its result as the status a public call gives
   blocked Bloom filter
     gamq__bloom_test ........ the lookup kernel's per-key test (word picked by
                               selects), run on the host against the layout
     gamq__bloom_plan ........ the sizing plan for 2^28 keys (the documented
                               table) without allocating the filter
     gamq__bloom_model ....... the FPR model's closed form, checked where its
     gamq__bloom_model_init    table stops (where no call evaluates it)

   Without a gamq__ name, and only here: the private fields of struct
   gamq_qf (f; path and max_rounds, the knobs that force a batch path and
   a round cap; last_path and last_rounds, what the last call did) and of
   struct gamq_bloom (a shape without bytes), and the private constants
   GAMQ__QF_SQF / RSQF, GAMQ__QF_BATCH_AUTO / IN_PLACE / REBUILD / WINDOWS,
   GAMQ__QF_MAX_ROUNDS, GAMQ__QF_NO_RUN,
   GAMQ__QF_STEP_OK / OUT and GAMQ__WIN_ONE / MANY.

   The rest of this header is public: the hash through gamq_qf_ref and its
   inverse (keys with a chosen fingerprint, so that the public key API can
   build any layout), filters made, read and fed fingerprints through the
   public calls, the reference bytes (a fresh HOST build of a multiset), the
   documented byte layouts decoded, and the serial scans' typed forms.
   Helpers are named amqt_*.

   Include it after a private implementation:
     #define GPUAMQ_STATIC
     #define GPUAMQ_IMPLEMENTATION
     #include "../gpuamq.h"
     #include "internal_amq.h" */
#ifndef TESTS_INTERNAL_AMQ_H
#define TESTS_INTERNAL_AMQ_H
#if !defined(GPUAMQ_IMPLEMENTATION)
#error "internal_amq.h: include it after #define GPUAMQ_IMPLEMENTATION and gpuamq.h"
#endif

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <set>
#include <vector>

/* ===========================================================================
   Public: hash, keys, filters, layouts
   ========================================================================= */

/* The hash and fingerprints of section 6, through the public ref. */
static inline uint64_t amqt_fingerprint_of(uint64_t key, uint64_t seed, int q, int r) {
  gamq_qf_ref ref;
  memset(&ref, 0, sizeof ref);
  ref.kind = GAMQ_QF_RSQF, ref.q = q, ref.r = r, ref.seed = seed;
  return gamq_qf_ref_fingerprint(&ref, key);
}
/* h = mix(key ^ seed): the fingerprint of p = q + r = 64 bits */
static inline uint64_t amqt_hash64(uint64_t key, uint64_t seed) { return amqt_fingerprint_of(key, seed, 32, 32); }

/* The inverse of the hash (mix is a bijection: each xorshift and odd
   multiply undone), so a test chooses a fingerprint and gets its key. */
static inline uint64_t amqt_inverse_odd(uint64_t a) {
  uint64_t x = a; /* 3 bits right; Newton doubles them */
  for (int i = 0; i < 6; ++i) x *= 2 - a * x;
  return x;
}
static inline uint64_t amqt_unhash64(uint64_t h, uint64_t seed) {
  uint64_t z = h;
  z ^= (z >> 31) ^ (z >> 62);
  z *= amqt_inverse_odd(0x94d049bb133111ebull);
  z ^= (z >> 27) ^ (z >> 54);
  z *= amqt_inverse_odd(0xbf58476d1ce4e5b9ull);
  z ^= (z >> 30) ^ (z >> 60);
  return (z - 0x9e3779b97f4a7c15ull) ^ seed;
}
/* A key whose fingerprint under (seed, q, r) is fp (hash bits below it 0):
   one key per fingerprint, so equal fingerprints are equal keys. */
static inline uint64_t amqt_key_of(uint64_t fp, uint64_t seed, int q, int r) {
  const int p = q + r;
  return amqt_unhash64(p >= 64 ? fp : fp << (64 - p), seed);
}

static inline gamq_qf_info amqt_qf_info(const gamq_qf *f) {
  gamq_qf_info info;
  memset(&info, 0, sizeof info);
  gamq_qf_get_info(f, &info);
  return info;
}
static inline uint64_t amqt_qf_count(const gamq_qf *f) {
  uint64_t c = ~(uint64_t)0;
  gamq_qf_count(f, &c);
  return c;
}
static inline std::vector<uint64_t> amqt_keys_of(const gamq_qf *f, const uint64_t *fp, size_t n) {
  const gamq_qf_info info = amqt_qf_info(f);
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = amqt_key_of(fp[i], info.seed, info.q, info.r);
  return keys;
}

/* A filter (NULL on failure). layout: GAMQ_QF_LAYOUT_*. */
static inline gamq_qf *amqt_qf_make(gamq_backend backend, int kind, int q, int r, uint64_t seed, int layout = 0,
                                    gamq_scan_method method = GAMQ_SCAN_AUTO, int by_inserts = 0) {
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = backend, d.seed = seed, d.build_method = method, d.build_by_inserts = by_inserts;
  d.layout = layout ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  gamq_qf *f = NULL;
  return gamq_qf_create(&d, (gamq_qf_kind)kind, q, r, &f) == GAMQ_SUCCESS ? f : NULL;
}
static inline std::vector<uint8_t> amqt_qf_bytes(const gamq_qf *f) {
  size_t n = 0;
  if (gamq_qf_copy_bytes(f, NULL, &n) != GAMQ_SUCCESS) return std::vector<uint8_t>();
  std::vector<uint8_t> b(n);
  if (n && gamq_qf_copy_bytes(f, b.data(), &n) != GAMQ_SUCCESS) b.clear();
  return b;
}
/* The same filter (bytes, count, shape, backend) with another build method:
   serialize, then deserialize with that method. NULL on failure. */
static inline gamq_qf *amqt_qf_reopen(const gamq_qf *f, gamq_scan_method method) {
  size_t n = 0;
  gamq_qf *g = NULL;
  if (gamq_qf_serialize(f, NULL, &n) != GAMQ_SUCCESS) return NULL;
  std::vector<uint8_t> buf(n);
  if (gamq_qf_serialize(f, buf.data(), &n) != GAMQ_SUCCESS) return NULL;
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = amqt_qf_info(f).backend, d.build_method = method;
  return gamq_qf_deserialize(&d, buf.data(), n, &g) == GAMQ_SUCCESS ? g : NULL;
}

/* Fingerprints through the key API: each becomes the key amqt_key_of gives. */
static inline gamq_status amqt_qf_build_fps(gamq_qf *f, const uint64_t *fp, size_t n) {
  std::vector<uint64_t> k = amqt_keys_of(f, fp, n);
  return gamq_qf_build_u64(f, k.data(), n);
}
static inline gamq_status amqt_qf_insert_fps(gamq_qf *f, const uint64_t *fp, size_t n) {
  std::vector<uint64_t> k = amqt_keys_of(f, fp, n);
  return gamq_qf_insert_u64(f, k.data(), n);
}
static inline gamq_status amqt_qf_delete_fps(gamq_qf *f, const uint64_t *fp, size_t n, uint64_t *deleted) {
  std::vector<uint64_t> k = amqt_keys_of(f, fp, n);
  return gamq_qf_delete_u64(f, k.data(), n, deleted);
}
/* found[i] for fingerprint i (a failed call: an empty vector) */
static inline std::vector<uint8_t> amqt_qf_lookup_fps(const gamq_qf *f, const uint64_t *fp, size_t n) {
  std::vector<uint64_t> k = amqt_keys_of(f, fp, n);
  std::vector<uint8_t> found(n + 1, 0xA5);
  if (gamq_qf_lookup_u64(f, k.data(), n, found.data()) != GAMQ_SUCCESS) return std::vector<uint8_t>();
  found.resize(n);
  return found;
}
static inline std::vector<uint64_t> amqt_qf_extract(const gamq_qf *f) {
  std::vector<uint64_t> out(amqt_qf_count(f) + 1);
  size_t w = 0;
  if (gamq_qf_extract(f, out.data(), out.size(), &w) != GAMQ_SUCCESS) return std::vector<uint64_t>(1, 0xA5A5);
  out.resize(w);
  return out;
}

/* The reference: the bytes of a fresh HOST build of a multiset of
   fingerprints (one layout per multiset); empty when it does not fit. */
static inline std::vector<uint8_t> amqt_qf_reference(int kind, int q, int r, uint64_t seed, int layout,
                                                     const std::multiset<uint64_t> &m) {
  std::vector<uint8_t> out;
  std::vector<uint64_t> fps(m.begin(), m.end());
  gamq_qf *g = amqt_qf_make(GAMQ_BACKEND_HOST, kind, q, r, seed, layout);
  if (g == NULL) return out;
  if (amqt_qf_build_fps(g, fps.data(), fps.size()) == GAMQ_SUCCESS) out = amqt_qf_bytes(g);
  gamq_qf_destroy(g);
  return out;
}

/* ---- the documented byte layouts (gpuamq.h section 6, docs/qf.md) ---- */
static inline uint64_t amqt_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}
static inline void amqt_put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i, v >>= 8) p[i] = (uint8_t)v;
}
/* SQF slot s: (r + 3) / 8 little-endian bytes; bit 0 occupied, 1
   continuation, 2 shifted, then the remainder. Empty: bits 0-2 clear. */
enum { AMQT_SQF_OCCUPIED = 1, AMQT_SQF_CONTINUATION = 2, AMQT_SQF_SHIFTED = 4 };
static inline uint64_t amqt_sqf_slot(const uint8_t *b, int r, uint64_t s) {
  const int sb = (r + 3) / 8;
  return amqt_le(b + s * (uint64_t)sb, sb);
}
static inline void amqt_sqf_put(uint8_t *b, int r, uint64_t s, uint64_t v) {
  const int sb = (r + 3) / 8;
  amqt_put_le(b + s * (uint64_t)sb, v, sb);
}
/* RSQF: block stride (ALIGNED round_up(24 + 8r, 64), PACKED 16 + 8r), word
   w of block blk (0 occupieds, 1 runends), the stored offset (ALIGNED byte
   16 of the block, PACKED byte blk after the blocks), slot s's remainder
   (an r-bit little-endian stream from byte 24 / 16 of its block). */
static inline size_t amqt_rsqf_stride(int r, int layout) {
  return layout ? (size_t)(16 + 8 * r) : (size_t)(24 + 8 * r + 63) / 64 * 64;
}
static inline uint64_t amqt_rsqf_word(const uint8_t *b, int r, int layout, uint64_t blk, int w) {
  return amqt_le(b + blk * amqt_rsqf_stride(r, layout) + 8 * w, 8);
}
static inline unsigned amqt_rsqf_offset_byte(const uint8_t *b, int r, int layout, uint64_t nslots, uint64_t blk) {
  const size_t st = amqt_rsqf_stride(r, layout);
  return layout ? b[nslots / 64 * st + blk] : b[blk * st + 16];
}
static inline uint64_t amqt_rsqf_rem(const uint8_t *b, int r, int layout, uint64_t s) {
  const uint8_t *p = b + (s >> 6) * amqt_rsqf_stride(r, layout) + (layout ? 16 : 24);
  const uint64_t bit = (s & 63) * (uint64_t)r;
  const int sh = (int)(bit & 7);
  return (amqt_le(p + bit / 8, (sh + r + 7) / 8) >> sh) & (((uint64_t)1 << r) - 1);
}
static inline void amqt_rsqf_set_rem(uint8_t *b, int r, int layout, uint64_t s, uint64_t v) {
  uint8_t *p = b + (s >> 6) * amqt_rsqf_stride(r, layout) + (layout ? 16 : 24);
  const uint64_t bit = (s & 63) * (uint64_t)r, mask = ((uint64_t)1 << r) - 1;
  const int sh = (int)(bit & 7), nb = (sh + r + 7) / 8;
  const uint64_t w = amqt_le(p + bit / 8, nb);
  amqt_put_le(p + bit / 8, (w & ~(mask << sh)) | ((v & mask) << sh), nb);
}
/* The slots of sorted fingerprints under linear probing: the position scan
   pos_i = max(pos_{i-1} + 1, quotient_i), written out here. */
static inline std::vector<uint64_t> amqt_positions(const std::vector<uint64_t> &sorted, int r) {
  std::vector<uint64_t> pos(sorted.size());
  for (size_t i = 0; i < sorted.size(); ++i) {
    const uint64_t q = sorted[i] >> r;
    pos[i] = i > 0 && pos[i - 1] + 1 > q ? pos[i - 1] + 1 : q;
  }
  return pos;
}

/* ---- the serial scans' typed forms (section 5's conversions, written
   out here) over the private serial loop below ---- */
static inline gamq_status amqt_serial_maxplus(size_t n, const int64_t *a, int64_t a_const, const int64_t *b,
                                              int64_t b_const, const uint8_t *heads, const int64_t *init, int64_t *x);
static inline gamq_status amqt_serial_satsum_i64(size_t n, const int64_t *a, const uint8_t *heads, const int64_t *init,
                                                 int64_t *x) {
  const int64_t zero = 0;
  return amqt_serial_maxplus(n, a, 0, NULL, 0, heads, init ? init : &zero, x);
}
static inline gamq_status amqt_serial_satsum_i32(size_t n, const int32_t *a, const uint8_t *heads, const int32_t *init,
                                                 int32_t *x) {
  std::vector<int64_t> a64(a, a + n), x64(n + 1);
  const int64_t i64 = init ? *init : 0;
  gamq_status s = amqt_serial_maxplus(n, a64.data(), 0, NULL, 0, heads, &i64, x64.data());
  for (size_t i = 0; i < n && s == GAMQ_SUCCESS; ++i) {
    if (x64[i] > INT32_MAX) s = GAMQ_ERROR_OVERFLOW;
    else x[i] = (int32_t)x64[i];
  }
  return s;
}
static inline gamq_status amqt_serial_position_u32(size_t n, const uint32_t *v, const uint8_t *heads,
                                                   const uint32_t *init, uint32_t *x) {
  std::vector<int64_t> b(v, v + n), x64(n + 1);
  const int64_t i64 = init ? (int64_t)*init : 0;
  gamq_status s = amqt_serial_maxplus(n, NULL, 1, b.data(), 0, heads, init ? &i64 : NULL, x64.data());
  for (size_t i = 0; i < n && s == GAMQ_SUCCESS; ++i) {
    if (x64[i] > (int64_t)UINT32_MAX) s = GAMQ_ERROR_OVERFLOW;
    else x[i] = (uint32_t)x64[i];
  }
  return s;
}
/* u64: on values biased by -2^63 (order-preserving; the recurrence commutes
   with it), so the whole uint64 range fits int64 */
static inline gamq_status amqt_serial_position_u64(size_t n, const uint64_t *v, const uint8_t *heads,
                                                   const uint64_t *init, uint64_t *x) {
  const uint64_t half = (uint64_t)1 << 63;
  std::vector<int64_t> b(n + 1), x64(n + 1);
  for (size_t i = 0; i < n; ++i) b[i] = (int64_t)(v[i] ^ half);
  const int64_t i64 = init ? (int64_t)(*init ^ half) : 0;
  gamq_status s = amqt_serial_maxplus(n, NULL, 1, b.data(), 0, heads, init ? &i64 : NULL, x64.data());
  for (size_t i = 0; i < n && s == GAMQ_SUCCESS; ++i) x[i] = (uint64_t)x64[i] ^ half;
  return s;
}

/* ===========================================================================
   Private: the names listed at the top, and nothing else
   ========================================================================= */

/* ---- shapes, handles ---- */

/* nslots and bytes of a shape (kind GAMQ_QF_SQF / RSQF, layout 0 ALIGNED,
   1 PACKED); 0 for a bad shape or one too big for size_t. */
static inline int amqt_qf_layout(int kind, int q, int r, int layout, uint64_t *nslots, size_t *bytes) {
  return gamq__qf_layout_packed(kind == GAMQ_QF_SQF ? GAMQ__QF_SQF : GAMQ__QF_RSQF, q, r, layout, nslots, bytes);
}

/* The batch paths a filter can be forced onto (its private knob; AUTO: the
   chooser's), and the one the last build / insert / delete took. */
enum { AMQT_PATH_AUTO = 0, AMQT_PATH_IN_PLACE = 1, AMQT_PATH_REBUILD = 2, AMQT_PATH_WINDOWS = 3 };
static inline void amqt_qf_force_path(gamq_qf *F, int path) {
  F->path = path == AMQT_PATH_IN_PLACE ? GAMQ__QF_BATCH_IN_PLACE
            : path == AMQT_PATH_REBUILD ? GAMQ__QF_BATCH_REBUILD
            : path == AMQT_PATH_WINDOWS ? GAMQ__QF_BATCH_WINDOWS
                                        : GAMQ__QF_BATCH_AUTO;
}
static inline int amqt_qf_last_path(const gamq_qf *F) {
  return F->last_path == GAMQ__QF_BATCH_IN_PLACE  ? AMQT_PATH_IN_PLACE
         : F->last_path == GAMQ__QF_BATCH_REBUILD ? AMQT_PATH_REBUILD
         : F->last_path == GAMQ__QF_BATCH_WINDOWS ? AMQT_PATH_WINDOWS
                                                  : AMQT_PATH_AUTO;
}
/* CUDA in place: rounds before the rest goes in by a rebuild (0: the default, AMQT_QF_MAX_ROUNDS) */
enum { AMQT_QF_MAX_ROUNDS = GAMQ__QF_MAX_ROUNDS };
static inline void amqt_qf_set_max_rounds(gamq_qf *F, int rounds) { F->max_rounds = rounds; }
static inline int amqt_qf_max_rounds(const gamq_qf *F) { return F->max_rounds; }
static inline int amqt_qf_last_rounds(const gamq_qf *F) { return F->last_rounds; }

/* The true offset of RSQF block b of a HOST filter. */
static inline uint64_t amqt_rsqf_true_offset(const gamq_qf *F, uint64_t b) { return gamq__rsqf_offset(&F->f, b); }

#if defined(__CUDACC__)
/* ---- in-place batches on the host (amq/qf/kernels.cuh), HOST filters ---- */

enum { AMQT_STEP_OK = GAMQ__QF_STEP_OK, AMQT_STEP_OUT = GAMQ__QF_STEP_OUT };
static const uint64_t AMQT_NO_RUN = GAMQ__QF_NO_RUN; /* a delete group's flag: the quotient has no run */
enum { AMQT_WIN_ONE = GAMQ__WIN_ONE, AMQT_WIN_MANY = GAMQ__WIN_MANY };

static inline uint64_t amqt_sqf_group(const gamq_qf *F, int del, uint64_t x) { return gamq__sqf_group(&F->f, del, x); }
static inline uint64_t amqt_sqf_next_empty(const gamq_qf *F, uint64_t s) { return gamq__sqf_next_empty(&F->f, s); }
static inline uint64_t amqt_sqf_cluster_start(const gamq_qf *F, uint64_t s) { return gamq__sqf_cluster_start(&F->f, s); }
static inline uint64_t amqt_qf_next_unused(const gamq_qf *F, uint64_t s) { return gamq__qf_next_unused(&F->f, s); }
static inline int amqt_rsqf_unused_in(uint64_t occ, uint64_t ends, uint64_t off, int i) {
  return gamq__rsqf_unused_in(occ, ends, off, i);
}
/* an RSQF point insert bounded to blocks [lo, hi), on F's shape with the bytes at data */
static inline int amqt_rsqf_insert_in(const gamq_qf *F, uint8_t *data, uint64_t fq, uint64_t fr, uint64_t lo,
                                      uint64_t hi) {
  gamq__qf g = F->f;
  g.data = data;
  return gamq__rsqf_insert_in(&g, fq, fr, lo, hi);
}
static inline void amqt_win_bounds(const gamq_qf *F, int del, uint64_t h, uint64_t *a, uint64_t *t) {
  gamq__win_bounds(&F->f, del, h, a, t);
}
static inline unsigned amqt_win_chain_one(const gamq_qf *F, const uint64_t *A, const uint64_t *T, uint8_t *link,
                                          size_t n, size_t i, uint64_t *Z) {
  return gamq__win_chain_one(&F->f, A, T, link, n, i, Z);
}
/* one window's write, on F's shape with the bytes at data */
static inline int amqt_win_write_one(const gamq_qf *F, uint8_t *data, int del, const uint64_t *fp, const uint64_t *A,
                                     const uint64_t *T, uint8_t *link, const uint64_t *Z, size_t n, size_t i,
                                     uint64_t *changed, int which) {
  gamq__qf g = F->f;
  g.data = data;
  return gamq__win_write_one(&g, del, fp, A, T, link, Z, n, i, changed, which);
}

/* What the rounds did (as the CUDA driver's rounds report it). */
struct amqt_rounds_out {
  size_t left;      /* items not applied (FULL, or max_rounds reached): rest[0 .. left), sorted */
  uint64_t changed; /* items inserted / deleted */
  int full;         /* an insert found no room (what went in is still in) */
  int rounds;
};

/* The in-place rounds on the host, serially, with the device's group,
   region and point-operation functions, on a HOST filter; its count moves
   by what changed. fp: n sorted fingerprints. poison != 0: each winner
   (SQF) or region (RSQF) runs on a copy of the filter in which every byte
   outside its window is random (the SQF delete's stop slot keeps its
   value), and the copy's bytes outside the window must come back
   untouched; winners run in an order drawn from poison, so the stop slot is
   seen before or after its own cluster's delete. Returns 0 when a window
   was violated, else 1. rest may be NULL. */
static inline int amqt_sim_rounds(gamq_qf *F, int del, const uint64_t *fp, size_t n, int max_rounds, uint64_t poison,
                                  uint64_t *rest, amqt_rounds_out *out) {
  gamq__qf *f = &F->f;
  const int sqf = f->kind == GAMQ__QF_SQF;
  const uint64_t nblocks = f->nslots / 64, unit = sqf ? (uint64_t)(f->r + 3) / 8 : amqt_rsqf_stride(f->r, f->packed);
  const uint64_t ob = !sqf && f->packed ? nblocks * unit : f->bytes; /* PACKED: the offset bytes, window [ob + a, ob + b) */
  size_t m = n, k, k1, nw, w, i;
  std::vector<uint32_t> idx(n + 1);
  std::vector<uint64_t> group(n + 1);
  std::vector<uint8_t> keep(n + 1), copy(poison ? f->bytes : 0), pat(poison ? f->bytes : 0);
  std::vector<size_t> win(n + 1);
  int good = 1;
  memset(out, 0, sizeof *out);
  for (k = 0; k < n; ++k) idx[k] = (uint32_t)k;
  while (good && m > 0 && !out->full && out->rounds < max_rounds) {
    uint64_t s = 0, p = 0;
    if (!sqf) gamq__rsqf_schedule(nblocks, out->rounds, &s, &p);
    /* the round's winners (SQF: first of each group) or region heads */
    for (k = 0; k < m; ++k) {
      const uint64_t x = fp[idx[k]] >> f->r;
      group[k] = sqf ? gamq__sqf_group(f, del, x) : gamq__rsqf_region(nblocks, x >> 6, s, p, NULL, NULL);
    }
    for (k = 0, nw = 0; k < m; ++k) { /* groups compare without the no-run flag */
      keep[k] = 1;
      if (sqf && del && (group[k] & GAMQ__QF_NO_RUN)) keep[k] = 0;
      else if (k == 0 || (group[k - 1] & ~GAMQ__QF_NO_RUN) != (group[k] & ~GAMQ__QF_NO_RUN)) win[nw++] = k;
    }
    for (w = nw; w > 1 && poison; --w) { /* a random order of the winners */
      size_t j, t;
      poison = amqt_hash64(poison, w);
      j = (size_t)(poison % w), t = win[j], win[j] = win[w - 1], win[w - 1] = t;
    }
    for (w = 0; w < nw && good; ++w) {
      uint64_t a, b, lo = 0, hi = 0, stop = ~(uint64_t)0, stop_val = 0, changed = 0; /* window [a, b) in units */
      gamq__qf g = *f;
      int full = 0, res = GAMQ__QF_STEP_OK;
      k = win[w];
      for (k1 = k + 1; k1 < m && (group[k1] & ~GAMQ__QF_NO_RUN) == (group[k] & ~GAMQ__QF_NO_RUN); ++k1) {
      }
      if (sqf) {
        if (!del && group[k] >= f->nslots) {
          out->full = 1;
          continue;
        }
        if (del) { /* [c, next group's c) and the stop slot */
          a = group[k] & ~GAMQ__QF_NO_RUN;
          b = k1 < m ? group[k1] & ~GAMQ__QF_NO_RUN : f->nslots;
          if (b < f->nslots) stop = b;
        } else {
          a = k > 0 ? group[k - 1] + 1 : 0; /* (previous group's e, e] */
          b = group[k] + 1;
        }
      } else {
        gamq__rsqf_region(nblocks, (fp[idx[k]] >> f->r) >> 6, s, p, &lo, &hi);
        a = lo, b = hi;
      }
      if (poison) {
        for (i = 0; i < f->bytes; ++i) pat[i] = (uint8_t)(amqt_hash64(poison, i) >> 56);
        poison = amqt_hash64(poison, 1);
        memcpy(copy.data(), pat.data(), f->bytes);
        memcpy(copy.data() + a * unit, f->data + a * unit, (size_t)((b - a) * unit));
        if (ob < f->bytes) memcpy(copy.data() + ob + a, f->data + ob + a, (size_t)(b - a));
        if (stop != ~(uint64_t)0) memcpy(copy.data() + stop * unit, f->data + stop * unit, (size_t)unit);
        if (stop != ~(uint64_t)0) stop_val = amqt_le(copy.data() + stop * unit, (int)unit);
        g.data = copy.data();
      }
      if (sqf) {
        res = gamq__sqf_step(&g, del, fp[idx[k]]);
        changed = res == GAMQ__QF_STEP_OK;
        keep[k] = 0;
      } else {
        changed = gamq__rsqf_queue(&g, del, fp, idx.data(), k, k1, lo, hi, keep.data(), &full);
        if (full) out->full = 1;
      }
      out->changed += changed;
      if (poison) {
        for (i = 0; i < f->bytes && good; ++i)
          if ((i < a * unit || i >= b * unit) && (i < ob + a || i >= ob + b) &&
              !(stop != ~(uint64_t)0 && i >= stop * unit && i < (stop + 1) * unit))
            good = copy[i] == pat[i];
        if (stop != ~(uint64_t)0 && amqt_le(copy.data() + stop * unit, (int)unit) != stop_val) good = 0;
        memcpy(f->data + a * unit, copy.data() + a * unit, (size_t)((b - a) * unit));
        if (ob < f->bytes) memcpy(f->data + ob + a, copy.data() + ob + a, (size_t)(b - a));
      }
    }
    for (k = 0, k1 = 0; k < m; ++k) /* compact the waiting ones */
      if (keep[k]) idx[k1++] = idx[k];
    m = k1;
    out->rounds++;
  }
  out->left = m;
  for (k = 0; good && rest && k < m; ++k) rest[k] = fp[idx[k]];
  f->nitems = del ? f->nitems - out->changed : f->nitems + out->changed;
  return good;
}

/* The windows on the host, serially, on a HOST filter: the device's
   functions, bounds and chains from the filter as the batch found it,
   windows written in an order drawn from shuffle (0: left to right), the
   one-key pass then the others, as the device's two launches. fp: n sorted
   fingerprints. GAMQ_SUCCESS (the count moves by *changed), GAMQ_ERROR_FULL
   (nothing changed) or GAMQ_ERROR_INVALID_ARGUMENT (a window did not fill:
   a bug); *chain_rounds: the chain passes. */
static inline gamq_status amqt_sim_windows(gamq_qf *F, int del, const uint64_t *fp, size_t n, uint64_t shuffle,
                                           uint64_t *changed, int *chain_rounds) {
  gamq__qf *f = &F->f;
  std::vector<uint64_t> A(n + 1), T(n + 1), Z(n + 1);
  std::vector<uint8_t> link(n + 1, 0);
  std::vector<size_t> order(n + 1);
  gamq_status res = GAMQ_SUCCESS;
  unsigned flags = 2;
  size_t i;
  *changed = 0, *chain_rounds = 0;
  for (i = 0; i < n; ++i) {
    order[i] = i;
    gamq__win_bounds(f, del, fp[i] >> f->r, &A[i], &T[i]);
  }
  for (i = n; shuffle && i > 1; --i) { /* the threads in some order */
    size_t r, t;
    shuffle = amqt_hash64(shuffle, i);
    r = (size_t)(shuffle % i), t = order[r], order[r] = order[i - 1], order[i - 1] = t;
  }
  while (res == GAMQ_SUCCESS && !del && flags == 2) { /* chain passes, as the device */
    flags = 0, ++*chain_rounds;
    for (i = 0; i < n; ++i) flags |= gamq__win_chain_one(f, A.data(), T.data(), link.data(), n, order[i], Z.data());
    if (flags & 1) res = GAMQ_ERROR_FULL;
  }
  for (int pass = GAMQ__WIN_ONE; pass <= GAMQ__WIN_MANY; ++pass) /* the two write launches */
    for (i = 0; res == GAMQ_SUCCESS && i < n; ++i)
      if (!gamq__win_write_one(f, del, fp, A.data(), T.data(), link.data(), Z.data(), n, order[i], changed, pass))
        res = GAMQ_ERROR_INVALID_ARGUMENT;
  if (res == GAMQ_SUCCESS) f->nitems = del ? f->nitems - *changed : f->nitems + *changed;
  return res;
}
#endif /* __CUDACC__ */

/* ---- non-associative scans: the serial reference ---- */

/* x_i = max(x_{i-1} + a_i, b_i) by the serial loop, every step checked; a
   (b) NULL: every a_i = a_const (b_i = b_const); init NULL: none. The
   status a public call would give. */
static inline gamq_status amqt_serial_maxplus(size_t n, const int64_t *a, int64_t a_const, const int64_t *b,
                                              int64_t b_const, const uint8_t *heads, const int64_t *init, int64_t *x) {
  gamq__na_problem p;
  memset(&p, 0, sizeof p);
  p.n = n, p.a = a, p.a_const = a_const, p.b = b, p.b_const = b_const, p.heads = heads;
  p.has_init = init != NULL, p.init = init ? *init : 0;
  return gamq__scan_status(gamq__host_maxplus_serial(&p, x));
}

/* ---- blocked Bloom filter ---- */

/* The most blocks whose bytes fit size_t (section 7's ERRORS). */
static const uint64_t AMQT_BLOOM_MAX_BLOCKS = (uint64_t)(SIZE_MAX / GAMQ_BLOOM_BLOCK_BYTES);

/* A filter of a shape without its bytes (gamq_bloom_key_bits reads the
   shape only): shapes too big to allocate. */
static inline gamq_bloom amqt_bloom_shape(uint64_t num_blocks, int k, uint64_t seed) {
  gamq_bloom F;
  memset(&F, 0, sizeof F);
  F.backend = GAMQ_BACKEND_HOST, F.seed = seed, F.num_blocks = num_blocks, F.k = k;
  return F;
}
/* gamq_bloom_create's plan for n keys at eps: the blocks (0: none) and *k. */
static inline uint64_t amqt_bloom_plan(uint64_t n, double eps, int *k) {
  return gamq__bloom_plan(n, eps, AMQT_BLOOM_MAX_BLOCKS, k);
}
/* The model's closed form sum_i a_i r_i^j (P(j) above the table) for j in
   [j0, j1], and *table_end: the last j the table holds. */
static inline std::vector<double> amqt_bloom_closed_form(int k, int j0, int j1, int *table_end) {
  gamq__bloom_model m;
  gamq__bloom_model_init(&m, k);
  std::vector<double> out;
  for (int j = j0; j <= j1; ++j) {
    double sum = 0.0;
    for (int i = 0; i <= k; ++i) sum += m.a[i] * pow(m.r[i], j);
    out.push_back(sum);
  }
  *table_end = m.dp_j;
  return out;
}
#if defined(__CUDACC__)
/* The lookup kernel's test of a block's eight words w against hash h. */
static inline uint32_t amqt_bloom_test(const uint32_t w[8], uint64_t h, int k) {
  return gamq__bloom_test(make_uint4(w[0], w[1], w[2], w[3]), make_uint4(w[4], w[5], w[6], w[7]), h, k);
}
#endif

#endif /* TESTS_INTERNAL_AMQ_H */
