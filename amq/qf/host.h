/* amq/qf/host.h - the quotient filters' host part: the reference every
   kernel is compared with (the HOST backend of section 6), and the handle
   struct gamq_qf the CUDA driver and the entry points share. */

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
/* The slot reads, rank / select and point operations are GAMQ__HD
   (amq/common.h), so device code too: the CUDA backend's in-place kernels
   call these very functions on a filter whose data is device memory, so
   both backends share one definition. */

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
   warp's loads at 32 random places cost 32 L1 passes each: for a large
   batch into a well-filled SQF that count bounds the bidding round
   (bench/results/qf_h200.md, "In-place batches by path and fill").
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
  GAMQ__QF_BATCH_AUTO = 0,     /* the chooser's pick (gamq__qf_choose, amq/qf/choose.h) */
  GAMQ__QF_BATCH_IN_PLACE = 1, /* point inserts; on FULL the ones made are deleted again */
  GAMQ__QF_BATCH_REBUILD = 2,  /* sort the batch, extract, merge, bulk build */
  GAMQ__QF_BATCH_WINDOWS = 3   /* CUDA: in place by window re-layout (amq/qf/kernels.cuh); HOST: as IN_PLACE */
} gamq__qf_batch_path;

/* Insert a batch of n fingerprints (any order, repeats allowed) by the
   given path: IN_PLACE or WINDOWS point inserts, REBUILD (or AUTO, which
   gamq__qf_insert_batch resolves first, amq/qf/choose.h) a merge and bulk
   build. All or nothing. FULL: none went in and the filter is byte for byte
   as it was (an in-place batch deletes what it inserted, which restores the
   layout because the layout is a function of the multiset). NO_MEMORY
   (rebuild only) too. */
static inline gamq__qf_result gamq__qf_insert_by_path(gamq__qf *f, const uint64_t *fp, uint64_t n,
                                                     gamq__qf_batch_path path, gamq__na_method method) {
  uint64_t i, *sorted, *old, *merged;
  gamq__qf_result res = GAMQ__QF_OK;
  if (f == NULL || f->data == NULL || (fp == NULL && n > 0)) return GAMQ__QF_BAD_ARG;
  for (i = 0; i < n; ++i)
    if (!gamq__qf_fp_ok(f, fp[i])) return GAMQ__QF_BAD_ARG;
  if (n == 0) return GAMQ__QF_OK;
  if (n > f->nslots - f->nitems) return GAMQ__QF_FULL;
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

/* HOST build by inserts (the QF paper's fourth method, IV-C): point inserts into
   an empty filter that replaces f's bytes on success. */
static gamq__qf_result gamq__qf_build_by_inserts(gamq__qf *f, const uint64_t *fp, uint64_t n, gamq__na_method method) {
  gamq__qf g;
  gamq__qf_result res = gamq__qf_init_like(&g, f);
  if (res != GAMQ__QF_OK) return res;
  res = gamq__qf_insert_by_path(&g, fp, n, GAMQ__QF_BATCH_IN_PLACE, method);
  if (res == GAMQ__QF_OK) {
    uint8_t *t = f->data;
    f->data = g.data, f->nitems = g.nitems;
    g.data = t;
  }
  gamq__qf_free(&g);
  return res;
}

/* ---------------------------------------------------------------------------
   The public handle (section 6's gamq_qf): the HOST backend wraps the host
   reference above; the CUDA backend runs amq/qf/cuda.cuh on a gamq__qf whose
   data is device memory.
   ------------------------------------------------------------------------- */
struct gamq_qf {
  gamq__qf f;                      /* shape, count, bytes; f.data is device memory on CUDA */
  gamq_backend backend;            /* resolved: CUDA or HOST (the creation plan's) */
  gamq__nonassoc_plan scan;        /* the position scan of builds and rebuilds (the creation plan's) */
  gamq_device_allocator allocator; /* CUDA: the filter's memory and the temporaries */
  int dedup_build;                 /* builds keep one copy of each fingerprint */
  int build_inserts;               /* desc.build_by_inserts */
  gamq__qf_batch_path path;        /* private: AUTO, or force IN_PLACE / REBUILD / WINDOWS (tests, benchmarks) */
  int max_rounds;                  /* private: CUDA in-place rounds before a rebuild (0: default) */
  int last_path, last_rounds;      /* private: the last build / insert / delete: its plan's path, CUDA's rounds */
  void *scratch;                   /* private: CUDA in-place batches' temporaries, kept between calls */
  size_t scratch_bytes;            /* (default allocator only; gamq__qf_bufs_keep) */
};
