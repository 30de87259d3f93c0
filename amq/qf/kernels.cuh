/* amq/qf/kernels.cuh - the quotient filters' device code (nvcc only):
   bulk lookups, build, extract and difference; the in-place rounds
   (supercluster bidding, growing regions) and the window re-layout, whose
   per-item steps are GAMQ__HD so the tests run them on the host. The
   launches and the batch drivers are in amq/qf/cuda.cuh. */

/* ---------------------------------------------------------------------------
   BULK: lookups, build, extract, difference (the QF paper, III-V;
   gpuamq.h section 6 documents the layouts; the host reference,
   amq/qf/host.h, is what these must equal, byte for byte)

   A CUDA filter is a gamq__qf whose data is device memory, passed to kernels
   by value. Lookups run gamq_qf_ref_contains (gpuamq.h, next to the public
   API, so users' kernels can call it), the walk the HOST backend runs too.
   Builds and extracts are written here, for the parallel shape:

   BUILD (the QF paper, IV-C) from sorted fingerprints fp[0..n):
     quot[i] = fp[i] >> r; pos = the position scan of quot (section 5, any
     method); FULL when pos[n-1] >= nslots (read back: the caller leaves the
     filter alone); then
       SQF   one thread per item writes its slot (remainder, continuation =
             not the first of its quotient, shifted = pos != quot), then one
             thread per distinct quotient sets that slot's occupied bit (a
             second launch: the slot may belong to another item);
       RSQF  one warp per 64-slot block gathers everything of its block:
             the items in it are a contiguous index range (pos ascends), its
             occupied quotients another (quot ascends), its offset comes from
             the last item whose quotient is below the block. The warp owns
             the whole block (and, PACKED, its byte of the offset array), so
             nothing races, and every byte is written (but the PACKED zero
             tail, which nothing ever writes).
   EXTRACT (the QF paper, IV-E): runs lie in quotient order, so slot order is
     fingerprint order. Per block: count occupied quotients and run marks
     (SQF run starts, RSQF runends); inclusive scans over blocks; scatter the
     occupied quotients by rank (quot_of_rank); per block count, scan, then
     write the items:
       SQF   a nonempty slot belongs to run (run starts at or before it) - 1;
       RSQF  slot s holds an item iff quot_of_rank[k] <= s, k = runends
             before s (the run k is the first that ends at or after s, and it
             starts at max(its quotient, the end of run k-1 + 1)).
   MULTISET DIFFERENCE (batch delete): a[i] is kept iff its rank among the
     equal values of a is at least the count of that value in b.
   ------------------------------------------------------------------------- */

/* first index with a[i] >= v (LOWER) or a[i] > v, in sorted a[0..n) */
template <bool LOWER>
__device__ __forceinline__ size_t gamq__bound(const uint64_t *a, size_t n, uint64_t v) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (LOWER ? a[mid] < v : a[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* fp[i] = the fingerprint of keys[i] (K = uint32_t / uint64_t: zero-extended) */
template <typename K>
__global__ void gamq__qf_hash_kernel(const K *keys, size_t n, uint64_t seed, int q, int r, uint64_t *fp) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    fp[i] = gamq__qf_fingerprint_of((uint64_t)keys[i], seed, q, r);
}

/* one thread per query, unsorted: gamq_qf_ref_contains (gpuamq.h) */
template <typename K>
__global__ void gamq__qf_lookup_kernel(gamq_qf_ref f, const K *keys, size_t n, uint8_t *found) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    found[i] = (uint8_t)gamq_qf_ref_contains(&f, (uint64_t)keys[i]);
}

/* sorted lookups: fp[i] = fingerprint(keys[i]), idx[i] = i; after the sort
   of the pairs by fingerprint, thread i looks up the i-th smallest, so
   neighbouring threads read neighbouring slots, and scatters its answer */
template <typename K>
__global__ void gamq__qf_hash_index_kernel(const K *keys, size_t n, uint64_t seed, int q, int r, uint64_t *fp,
                                           uint32_t *idx) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    fp[i] = gamq__qf_fingerprint_of((uint64_t)keys[i], seed, q, r);
    idx[i] = (uint32_t)i;
  }
}
static __global__ void gamq__qf_lookup_sorted_kernel(gamq_qf_ref f, const uint64_t *fp, const uint32_t *idx, size_t n,
                                                     uint8_t *found) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    found[idx[i]] = (uint8_t)gamq_qf_ref_contains_fp(&f, fp[i]);
}

static __global__ void gamq__qf_quotients_kernel(const uint64_t *fp, size_t n, int r, uint64_t *quot) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    quot[i] = fp[i] >> r;
}

/* SQF slots are 1, 2, 3 or 4 bytes, little-endian like gamq__store_le; 1-,
   2- and 4-byte slots are aligned to their size (data is 256-byte aligned),
   3-byte slots go byte by byte. */
static __device__ __forceinline__ uint32_t gamq__sqf_dev_get(const gamq__qf &f, uint64_t s) {
  switch (gamq__sqf_slot_bytes(f.r)) {
    case 1: return f.data[s];
    case 2: return ((const uint16_t *)f.data)[s];
    case 3: return (uint32_t)f.data[3 * s] | (uint32_t)f.data[3 * s + 1] << 8 | (uint32_t)f.data[3 * s + 2] << 16;
    default: return ((const uint32_t *)f.data)[s];
  }
}
static __device__ __forceinline__ void gamq__sqf_dev_put(const gamq__qf &f, uint64_t s, uint32_t v) {
  switch (gamq__sqf_slot_bytes(f.r)) {
    case 1: f.data[s] = (uint8_t)v; break;
    case 2: ((uint16_t *)f.data)[s] = (uint16_t)v; break;
    case 3: f.data[3 * s] = (uint8_t)v, f.data[3 * s + 1] = (uint8_t)(v >> 8), f.data[3 * s + 2] = (uint8_t)(v >> 16); break;
    default: ((uint32_t *)f.data)[s] = v; break;
  }
}

/* SQF build, pass 1: item i into slot pos[i] (occupied bits come in pass 2). */
static __global__ void gamq__sqf_items_kernel(gamq__qf f, const uint64_t *fp, const uint64_t *quot, const uint64_t *pos,
                                       size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t x = quot[i], rem = gamq__qf_remainder(&f, fp[i]);
    const bool first = i == 0 || quot[i - 1] != x;
    uint32_t v = (uint32_t)(rem << 3);
    if (!first) v |= GAMQ__SQF_CONTINUATION;
    if (pos[i] != x) v |= GAMQ__SQF_SHIFTED;
    gamq__sqf_dev_put(f, pos[i], v);
  }
}
/* SQF build, pass 2: the first item of each quotient sets the occupied bit of
   its home slot (distinct quotients: distinct slots, one writer each). */
static __global__ void gamq__sqf_occupied_kernel(gamq__qf f, const uint64_t *quot, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t x = quot[i];
    if (i == 0 || quot[i - 1] != x) gamq__sqf_dev_put(f, x, gamq__sqf_dev_get(f, x) | GAMQ__SQF_OCCUPIED);
  }
}

/* RSQF block words (8 bytes, little-endian; ALIGNED blocks are 64-byte
   aligned, PACKED ones 8-byte): 0 occupieds, 1 runends, then ALIGNED: 2 the
   offset in its low byte, 3.. the remainders as a little-endian bit stream,
   then zero padding; PACKED: 2.. the remainders (no padding), the offsets in
   the byte array after the blocks (gamq__rsqf_offset_at). */
static __device__ __forceinline__ uint64_t *gamq__rsqf_dev_words(const gamq__qf &f, uint64_t b) {
  return (uint64_t *)(f.data + b * gamq__rsqf_stride(&f));
}
static __device__ __forceinline__ uint64_t gamq__warp_or64(uint64_t v) {
  for (int d = 16; d; d >>= 1) v |= __shfl_xor_sync(0xffffffffu, v, d);
  return v;
}

/* GAMQ__RSQF_WARPS, the warps a thread block of the RSQF block kernels: amq/qf/choose.h */
#define GAMQ__RSQF_MAX_WORDS 40 /* words of the largest block (r = 32: 320 bytes) */

/* RSQF build: one warp writes all of block b (every word, so nothing needs
   clearing first). Lanes 0-3 find, by binary search, the items whose slots
   lie in the block [i0, i1) (pos ascends: at most 64) and whose quotients do
   [j0, j1) (any number: long runs). Items set runends and OR their remainder
   bits into the block's words in shared memory; first-of-quotient items set
   occupieds; the offset is the spill of the last item whose quotient is below
   the block; then the warp stores the words, coalesced. */
static __global__ void __launch_bounds__(32 * GAMQ__RSQF_WARPS)
gamq__rsqf_blocks_kernel(gamq__qf f, const uint64_t *fp, const uint64_t *quot, const uint64_t *pos, size_t n) {
  __shared__ unsigned long long sw[GAMQ__RSQF_WARPS][GAMQ__RSQF_MAX_WORDS];
  unsigned long long *w = sw[threadIdx.x / 32];
  const int lane = threadIdx.x & 31, r = f.r, words = (int)(gamq__rsqf_stride(&f) / 8);
  const int rw = gamq__rsqf_rem_byte(&f) / 8; /* the first remainder word */
  const uint64_t nblocks = f.nslots / 64, mask = ((uint64_t)1 << r) - 1;
  const uint64_t nwarps = (uint64_t)gridDim.x * GAMQ__RSQF_WARPS;
  for (uint64_t b = blockIdx.x * (uint64_t)GAMQ__RSQF_WARPS + threadIdx.x / 32; b < nblocks; b += nwarps) {
    const uint64_t lo = b * 64;
    size_t v = 0;
    if (lane < 4) v = gamq__bound<true>(lane < 2 ? pos : quot, n, lo + (lane & 1 ? 64 : 0));
    const size_t i0 = __shfl_sync(0xffffffffu, v, 0), i1 = __shfl_sync(0xffffffffu, v, 1);
    const size_t j0 = __shfl_sync(0xffffffffu, v, 2), j1 = __shfl_sync(0xffffffffu, v, 3);
    for (int k = lane; k < words; k += 32) w[k] = 0;
    __syncwarp();
    uint64_t ends = 0, occ = 0;
    for (size_t i = i0 + lane; i < i1; i += 32) {
      const uint64_t slot = pos[i] - lo, bit = slot * (uint64_t)r, rem = fp[i] & mask;
      const int sh = (int)(bit & 63);
      if (i == n - 1 || quot[i + 1] != quot[i]) ends |= (uint64_t)1 << slot;
      if (rem) {
        atomicOr(&w[rw + bit / 64], (unsigned long long)(rem << sh));
        if (sh + r > 64) atomicOr(&w[rw + bit / 64 + 1], (unsigned long long)(rem >> (64 - sh)));
      }
    }
    for (size_t i = j0 + lane; i < j1; i += 32)
      if (i == 0 || quot[i - 1] != quot[i]) occ |= (uint64_t)1 << (quot[i] - lo);
    ends = gamq__warp_or64(ends);
    occ = gamq__warp_or64(occ);
    __syncwarp();
    if (lane == 0) {
      uint64_t off = 0;
      if (j0 > 0 && pos[j0 - 1] + 1 > lo) off = pos[j0 - 1] + 1 - lo;
      w[0] = occ;
      w[1] = ends;
      if (off > GAMQ__RSQF_OFFSET_MAX) off = GAMQ__RSQF_OFFSET_MAX;
      if (f.packed) *gamq__rsqf_offset_at(&f, b) = (uint8_t)off; /* the byte array after the blocks */
      else w[2] = off;
    }
    __syncwarp();
    uint64_t *out = gamq__rsqf_dev_words(f, b);
    for (int k = lane; k < words; k += 32) out[k] = w[k];
    __syncwarp();
  }
}

/* Extract, pass 1: per block, occupied quotients and run marks (SQF: run
   starts, RSQF: runends). */
static __global__ void gamq__qf_block_counts_kernel(gamq__qf f, uint64_t *occ, uint64_t *marks) {
  const uint64_t nblocks = f.nslots / 64;
  for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nblocks;
       b += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t o = 0, m = 0;
    if (f.kind == GAMQ__QF_SQF) {
      for (uint64_t s = b * 64; s < b * 64 + 64; ++s) {
        const uint32_t v = gamq__sqf_dev_get(f, s);
        o += v & GAMQ__SQF_OCCUPIED;
        m += (v & 7u) != 0 && !(v & GAMQ__SQF_CONTINUATION);
      }
    } else {
      const uint64_t *w = gamq__rsqf_dev_words(f, b);
      o = (uint64_t)__popcll(w[0]);
      m = (uint64_t)__popcll(w[1]);
    }
    occ[b] = o;
    marks[b] = m;
  }
}

/* Extract, pass 2: the occupied quotients by rank (occ_incl: inclusive scan
   of the per-block counts). */
static __global__ void gamq__qf_ranks_kernel(gamq__qf f, const uint64_t *occ_incl, uint64_t *quot_of_rank) {
  const uint64_t nblocks = f.nslots / 64;
  for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nblocks;
       b += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t k = b ? occ_incl[b - 1] : 0;
    if (f.kind == GAMQ__QF_SQF) {
      for (uint64_t s = b * 64; s < b * 64 + 64; ++s)
        if (gamq__sqf_dev_get(f, s) & GAMQ__SQF_OCCUPIED) quot_of_rank[k++] = s;
    } else {
      for (uint64_t o = gamq__rsqf_dev_words(f, b)[0]; o; o &= o - 1) quot_of_rank[k++] = b * 64 + __ffsll((long long)o) - 1;
    }
  }
}

/* Extract, passes 3 and 4 for the SQF: walk each block's slots knowing the
   run of its first slot. WRITE = false: items[b] = the block's item count; WRITE = true:
   items holds their inclusive scan and out[.. cap) gets the fingerprints. */
template <bool WRITE>
__global__ void gamq__qf_walk_kernel(gamq__qf f, const uint64_t *marks_incl, const uint64_t *quot_of_rank,
                                     const uint64_t *nruns_at, uint64_t *items, uint64_t *out, uint64_t cap) {
  const uint64_t nblocks = f.nslots / 64, nruns = *nruns_at;
  for (uint64_t b = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; b < nblocks;
       b += (uint64_t)gridDim.x * blockDim.x) {
    uint64_t k = b ? marks_incl[b - 1] : 0; /* run marks before the block */
    uint64_t idx = WRITE ? (b ? items[b - 1] : 0) : 0;
    for (uint64_t s = b * 64; s < b * 64 + 64; ++s) {
      uint64_t x = 0, rem = 0;
      bool item = false;
      const uint32_t v = gamq__sqf_dev_get(f, s);
      if (v & 7u) {
        if (!(v & GAMQ__SQF_CONTINUATION)) ++k; /* a run starts: k counts starts up to s */
        item = k >= 1 && k <= nruns;
        if (item) x = quot_of_rank[k - 1], rem = v >> 3;
      }
      if (item) {
        if (WRITE && idx < cap) out[idx] = (x << f.r) | rem;
        ++idx;
      }
    }
    if (!WRITE) items[b] = idx;
  }
}

/* Extract, passes 3 and 4 for the RSQF: one warp per block, a lane per two
   slots. Slot s holds an item iff quot_of_rank[k] <= s, k = the runends
   before s (before the block: marks_incl[b - 1]; inside it: a popcount). */
template <bool WRITE>
__global__ void __launch_bounds__(32 * GAMQ__RSQF_WARPS)
gamq__rsqf_walk_kernel(gamq__qf f, const uint64_t *marks_incl, const uint64_t *quot_of_rank, const uint64_t *nruns_at,
                       uint64_t *items, uint64_t *out, uint64_t cap) {
  const uint64_t nblocks = f.nslots / 64, nruns = *nruns_at;
  const uint64_t nwarps = (uint64_t)gridDim.x * GAMQ__RSQF_WARPS;
  const int lane = threadIdx.x & 31;
  for (uint64_t b = blockIdx.x * (uint64_t)GAMQ__RSQF_WARPS + threadIdx.x / 32; b < nblocks; b += nwarps) {
    const uint64_t *w = gamq__rsqf_dev_words(f, b), *rw = w + gamq__rsqf_rem_byte(&f) / 8;
    const uint64_t ends = w[1], k0 = b ? marks_incl[b - 1] : 0;
    uint64_t idx = WRITE ? (b ? items[b - 1] : 0) : 0;
    for (int half = 0; half < 2; ++half) {
      const int i = lane + 32 * half;
      const uint64_t s = b * 64 + i, k = k0 + (uint64_t)__popcll(ends & (((uint64_t)1 << i) - 1));
      const bool item = k < nruns && quot_of_rank[k] <= s;
      const unsigned ballot = __ballot_sync(0xffffffffu, item);
      if (WRITE && item) {
        const uint64_t at = idx + (uint64_t)__popc(ballot & ((1u << lane) - 1));
        if (at < cap) out[at] = (quot_of_rank[k] << f.r) | gamq__ref_rsqf_word_rem(rw, f.r, (uint64_t)i);
      }
      idx += (uint64_t)__popc(ballot);
    }
    if (!WRITE && lane == 0) items[b] = idx;
  }
}

/* keep[i] = 1 iff a[i] survives deleting b once per element (a, b sorted) */
static __global__ void gamq__qf_keep_kernel(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint8_t *keep) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < na; i += (size_t)gridDim.x * blockDim.x) {
    const uint64_t x = a[i];
    const size_t rank = i - gamq__bound<true>(a, i, x); /* equal values before i */
    const size_t in_b = gamq__bound<false>(b, nb, x) - gamq__bound<true>(b, nb, x);
    keep[i] = rank >= in_b;
  }
}

/* ---------------------------------------------------------------------------
   IN-PLACE ROUNDS: batch inserts and deletes (the QF paper, IV-B Alg. 3,
   IV-D Alg. 7, V-B Alg. 9)

   The batch is hashed and sorted; a list of pending items (indices into the
   sorted fingerprints) goes through ROUNDS. In a round every pending item
   either is applied by the host reference's point insert / delete
   (gamq__sqf_insert, gamq__rsqf_delete, ... marked GAMQ__HD), on the device,
   by one thread, or waits; the waiting ones are compacted (gprim select) and
   the host reads back one small status (pending count, FULL, items changed)
   per round. Layouts are a function of the multiset, so the order in which
   items go in does not matter: the bytes equal the HOST ones.

   SQF, SUPERCLUSTER BIDDING (Alg. 3 / Alg. 7). Bid kernel, from the state
   before the round:
     insert  group = e, the first empty slot at or after the home slot: an
             insert touches only slots from its cluster's start to e (it
             reads left to the cluster start, shifts right into e), and a
             cluster start lies after the previous empty slot, so inserts of
             different e touch disjoint slots;
     delete  group = c, the cluster start (walk left while shifted; the home
             slot itself when empty; top bit set when the quotient has no run:
             nothing to delete). A delete shifts left only inside [c, h), h =
             the next cluster start or empty slot; it READS slot h's low three
             bits to stop, and the delete running in h's cluster keeps those
             bits "empty or not shifted" (it may only empty the slot or write
             another unshifted run head there), so the read decides the same
             either way.
   e and c are monotone in the home slot, so a group is a contiguous range of
   the sorted pending list: its first item is the winner (the paper's
   bidding, with a deterministic winner and no O(nslots) label array or
   full-filter scan). Apply kernel: winners run the point operation.
   Rounds = the most items any one supercluster receives, growing as inserts
   fill the empty slots between superclusters.

   RSQF, GROWING REGIONS (Alg. 9, and deletes the same way). Blocks share
   their metadata words and (r not a multiple of 8) bytes, so the unit is a
   region of whole blocks. Round k splits the blocks into regions of size s
   with phase p: s = 1, then 2, 2, 4, 4, 8, ... with p = s/2 and p = 0 in turn,
   so any span of w blocks fits a region within about 2 log2(w) + 1 rounds.
   One thread per region takes the region's queue (pending items whose home
   block is in it, contiguous in sorted order) in order; an item goes in only
   when everything its point operation reads or writes lies in the region's
   blocks (gamq__rsqf_insert_in / gamq__rsqf_delete_in: a read-only dry run
   with region-bounded rank/select, offsets rebuilt without leaving the
   region), else it waits for a larger or shifted region.

   FULL: an SQF insert whose e is nslots, an RSQF insert whose first unused
   slot is nslots; the caller rolls back what went in (deleting it in place
   restores the bytes). Rounds are capped by the caller: the rest then goes
   to a rebuild (same bytes). The tests' host simulation of the rounds
   (amqt_sim_rounds in tests/internal_amq.h) runs the same steps serially and can poison every
   byte outside a winner's window, which shows that no thread depends on,
   or changes, a byte another thread of its round may change.
   ------------------------------------------------------------------------- */

enum { GAMQ__QF_STEP_OK = 0, GAMQ__QF_STEP_NOT_FOUND = 1, GAMQ__QF_STEP_FULL = 2, GAMQ__QF_STEP_OUT = 3 };
#define GAMQ__QF_NO_RUN ((uint64_t)1 << 63) /* delete group flag: the quotient has no run */

/* SQF bid: the supercluster an item's insert (e) or delete (c) works in. */
static inline GAMQ__HD uint64_t gamq__sqf_group(const gamq__qf *f, int del, uint64_t fq) {
  uint64_t s, v;
  if (!del) return gamq__sqf_next_empty(f, fq); /* nslots: no empty slot, FULL */
  v = gamq__sqf_get(f, fq);
  if ((v & 7u) == 0) return fq | GAMQ__QF_NO_RUN; /* empty */
  s = gamq__sqf_cluster_start(f, fq);
  return v & GAMQ__SQF_OCCUPIED ? s : s | GAMQ__QF_NO_RUN;
}

/* RSQF region of a home block in round (s, p): blocks [lo, hi). */
static inline GAMQ__HD uint64_t gamq__rsqf_region(uint64_t nblocks, uint64_t blk, uint64_t s, uint64_t p, uint64_t *lo,
                                                 uint64_t *hi) {
  const uint64_t k = (blk + s - p) / s;
  if (lo) *lo = k * s + p >= s ? k * s + p - s : 0;
  if (hi) *hi = k * s + p < nblocks ? k * s + p : nblocks;
  return k;
}
/* The region schedule: round 0 single blocks, then s = 2, 2, 4, 4, ... with
   phases s/2, 0; one region of all blocks once s reaches nblocks. */
static inline GAMQ__HD void gamq__rsqf_schedule(uint64_t nblocks, int round, uint64_t *s, uint64_t *p) {
  const int k = (round + 1) / 2;
  *s = k >= 40 || ((uint64_t)1 << k) >= nblocks ? nblocks : (uint64_t)1 << k;
  *p = *s < nblocks && (round & 1) ? *s / 2 : 0;
}

/* Region-bounded rank / select: *ok = 0 when the answer needs a slot at or
   past lim (a multiple of 64) or a block before lo. */
static inline GAMQ__HD uint64_t gamq__rsqf_select_lim(const gamq__qf *f, uint64_t pos, uint64_t d, uint64_t lim, int *ok) {
  while (pos < lim) {
    const uint64_t b = pos >> 6, w = gamq__rsqf_runends(f, b) & (~(uint64_t)0 << (pos & 63));
    const uint64_t c = (uint64_t)gamq__popcount64(w);
    if (c >= d) return b * 64 + (uint64_t)gamq__select64(w, (int)(d - 1));
    d -= c;
    pos = (b + 1) * 64;
  }
  *ok = 0;
  return lim;
}
static inline GAMQ__HD uint64_t gamq__rsqf_runs_end_lim(const gamq__qf *f, uint64_t x, uint64_t off, uint64_t lim, int *ok) {
  const uint64_t b = x >> 6, i = x & 63, mask = i == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (i + 1)) - 1;
  const int d = gamq__popcount64(gamq__rsqf_occupieds(f, b) & mask);
  if (d == 0) return b * 64 + off;
  return gamq__rsqf_select_lim(f, b * 64 + off, (uint64_t)d, lim, ok) + 1;
}
/* gamq__rsqf_offset(b), reading blocks lo .. lim/64 - 1 only. */
static inline GAMQ__HD uint64_t gamq__rsqf_offset_lim(const gamq__qf *f, uint64_t b, uint64_t lo, uint64_t lim, int *ok) {
  uint64_t a = b, off, end;
  while (a > 0 && gamq__rsqf_stored_offset(f, a) == GAMQ__RSQF_OFFSET_MAX) {
    if (a <= lo) {
      *ok = 0;
      return 0;
    }
    --a;
  }
  off = gamq__rsqf_stored_offset(f, a);
  for (++a; a <= b && *ok; ++a) {
    end = gamq__rsqf_runs_end_lim(f, a * 64 - 1, off, lim, ok);
    off = end > a * 64 ? end - a * 64 : 0;
  }
  return off;
}
/* The run bounds of quotient x as the point operations compute them, or
   *ok = 0 (start: where the run starts or would; end: one past its end). */
static inline GAMQ__HD void gamq__rsqf_run_lim(const gamq__qf *f, uint64_t x, uint64_t lo, uint64_t lim, uint64_t *start,
                                              uint64_t *end, int *ok) {
  uint64_t t;
  *start = x;
  if (x > 0) {
    if (((x - 1) >> 6) < lo) {
      *ok = 0;
      return;
    }
    t = gamq__rsqf_runs_end_lim(f, x - 1, gamq__rsqf_offset_lim(f, (x - 1) >> 6, lo, lim, ok), lim, ok);
    if (t > x) *start = t;
  }
  *end = gamq__rsqf_runs_end_lim(f, x, gamq__rsqf_offset_lim(f, x >> 6, lo, lim, ok), lim, ok);
}

/* Insert one copy if everything gamq__rsqf_insert reads or writes lies in
   blocks [lo, hi): a dry run (first unused slot e at or after fq, the
   offsets of the blocks it consults), then the point insert. */
static inline GAMQ__HD int gamq__rsqf_insert_in(gamq__qf *f, uint64_t fq, uint64_t fr, uint64_t lo, uint64_t hi) {
  const uint64_t lim = hi * 64;
  uint64_t e = fq, t, start, end;
  int ok = 1;
  gamq__rsqf_run_lim(f, fq, lo, lim, &start, &end, &ok);
  if (!ok) return GAMQ__QF_STEP_OUT;
  for (;;) {
    if (e >= lim) return lim >= f->nslots ? GAMQ__QF_STEP_FULL : GAMQ__QF_STEP_OUT;
    t = gamq__rsqf_runs_end_lim(f, e, gamq__rsqf_offset_lim(f, e >> 6, lo, lim, &ok), lim, &ok);
    if (!ok) return GAMQ__QF_STEP_OUT;
    if (t <= e) break;
    e = t;
  }
  return gamq__rsqf_insert(f, fq, fr) == GAMQ__QF_OK ? GAMQ__QF_STEP_OK : GAMQ__QF_STEP_FULL;
}

/* Delete one copy if everything gamq__rsqf_delete reads or writes lies in
   blocks [lo, hi): find it, dry-run the left shift to the slot it stops
   before (read-only: the shift reads each slot before it writes the one
   before it), then the point delete. */
static inline GAMQ__HD int gamq__rsqf_delete_in(gamq__qf *f, uint64_t fq, uint64_t fr, uint64_t lo, uint64_t hi) {
  const uint64_t lim = hi * 64;
  uint64_t start, end, p, i, j, x, quot;
  int ok = 1, ended;
  if (!gamq__rsqf_occupied(f, fq)) return GAMQ__QF_STEP_NOT_FOUND;
  gamq__rsqf_run_lim(f, fq, lo, lim, &start, &end, &ok);
  if (!ok) return GAMQ__QF_STEP_OUT;
  for (p = start; p < end && gamq__rsqf_rem(f, p) < fr; ++p) {
  }
  if (p >= end || gamq__rsqf_rem(f, p) != fr) return GAMQ__QF_STEP_NOT_FOUND;
  ended = gamq__rsqf_runend(f, p);
  for (i = p, quot = fq;; i = j) {
    j = i + 1;
    if (j >= f->nslots) break;
    if (j >= lim) return GAMQ__QF_STEP_OUT;
    if (ended) {
      for (x = quot + 1; x < j && !gamq__rsqf_occupied(f, x); ++x) {
      }
      if (x >= j) break;
      quot = x;
    }
    ended = gamq__rsqf_runend(f, j);
  }
  return gamq__rsqf_delete(f, fq, fr) == GAMQ__QF_OK ? GAMQ__QF_STEP_OK : GAMQ__QF_STEP_NOT_FOUND;
}

/* The SQF winner's point operation. */
static inline GAMQ__HD int gamq__sqf_step(gamq__qf *f, int del, uint64_t fp) {
  const uint64_t fq = gamq__qf_quotient(f, fp), fr = gamq__qf_remainder(f, fp);
  gamq__qf_result res = del ? gamq__sqf_delete(f, fq, fr) : gamq__sqf_insert(f, fq, fr);
  return res == GAMQ__QF_OK ? GAMQ__QF_STEP_OK : res == GAMQ__QF_FULL ? GAMQ__QF_STEP_FULL : GAMQ__QF_STEP_NOT_FOUND;
}

/* One RSQF region's queue, items k0 .. k1-1 of the pending list: each goes
   in (keep 0) or waits (keep 1); a FULL insert stops the queue. Returns the
   items changed; *full = 1 on FULL. */
static inline GAMQ__HD uint64_t gamq__rsqf_queue(gamq__qf *f, int del, const uint64_t *fp, const uint32_t *idx, size_t k0,
                                                size_t k1, uint64_t lo, uint64_t hi, uint8_t *keep, int *full) {
  uint64_t changed = 0;
  size_t k;
  for (k = k0; k < k1; ++k) {
    const uint64_t x = gamq__qf_quotient(f, fp[idx[k]]), rem = gamq__qf_remainder(f, fp[idx[k]]);
    int res = *full ? GAMQ__QF_STEP_FULL : del ? gamq__rsqf_delete_in(f, x, rem, lo, hi) : gamq__rsqf_insert_in(f, x, rem, lo, hi);
    if (res == GAMQ__QF_STEP_FULL) *full = 1;
    changed += res == GAMQ__QF_STEP_OK;
    keep[k] = res == GAMQ__QF_STEP_OUT || res == GAMQ__QF_STEP_FULL;
  }
  return changed;
}

/* What a round leaves for the host to read back: one small struct. */
typedef struct gamq__qf_round_status {
  size_t pending;             /* written by the select */
  unsigned long long changed; /* items inserted / deleted so far */
  unsigned int full;          /* an insert found no room */
} gamq__qf_round_status;

static __global__ void gamq__qf_iota_kernel(uint32_t *idx, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    idx[i] = (uint32_t)i;
}
static __global__ void gamq__qf_gather_kernel(const uint64_t *fp, const uint32_t *idx, size_t n, uint64_t *out) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = fp[idx[i]];
}

/* The batch kernels count what they changed with this, once each thread's
   grid-stride loop is done (every lane of the 256-thread blocks calls it):
   one atomic per warp. An atomicAdd per window on the one counter would
   serialise one atomic per window at one L2 address, a large part of the
   RSQF window writer's time (its step-by-step table: git show
   8b53d45:bench/results/qf_h200.md). */
static __device__ __forceinline__ void gamq__warp_count(unsigned long long *p, unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if ((threadIdx.x & 31) == 0 && v) atomicAdd(p, v);
}

/* SQF round, step 1 (supercluster bidding, Alg. 3 / 7): every pending item's
   group, from the filter as the round found it. */
static __global__ void gamq__sqf_bid_kernel(gamq__qf f, int del, const uint64_t *fp, const uint32_t *idx, size_t n,
                                            uint64_t *group) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x)
    group[k] = gamq__sqf_group(&f, del, gamq__qf_quotient(&f, fp[idx[k]]));
}
/* SQF round, step 2: the first item of each group wins and runs its point
   operation; no two winners touch the same slot (see IN-PLACE ROUNDS). */
static __global__ void gamq__sqf_apply_kernel(gamq__qf f, int del, const uint64_t *fp, const uint32_t *idx, size_t n,
                                              const uint64_t *group, uint8_t *keep, gamq__qf_round_status *st) {
  unsigned long long changed = 0;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
    const uint64_t g = group[k];
    if (del && (g & GAMQ__QF_NO_RUN)) { /* nothing of this quotient is stored */
      keep[k] = 0;
    } else if (k > 0 && (group[k - 1] & ~GAMQ__QF_NO_RUN) == (g & ~GAMQ__QF_NO_RUN)) {
      keep[k] = 1; /* lost the bid: next round */
    } else if (!del && g >= f.nslots) {
      keep[k] = 1;
      st->full = 1;
    } else {
      const int res = gamq__sqf_step(&f, del, fp[idx[k]]);
      changed += res == GAMQ__QF_STEP_OK;
      keep[k] = 0;
    }
  }
  gamq__warp_count(&st->changed, changed);
}
/* RSQF round (growing regions, Alg. 9): the first pending item of each
   region runs the region's queue. */
static __global__ void gamq__rsqf_region_kernel(gamq__qf f, int del, const uint64_t *fp, const uint32_t *idx, size_t n,
                                                uint64_t s, uint64_t p, uint8_t *keep, gamq__qf_round_status *st) {
  const uint64_t nblocks = f.nslots / 64;
  unsigned long long total = 0;
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
    uint64_t lo, hi;
    const uint64_t g = gamq__rsqf_region(nblocks, gamq__qf_quotient(&f, fp[idx[k]]) >> 6, s, p, &lo, &hi);
    if (k > 0 && gamq__rsqf_region(nblocks, gamq__qf_quotient(&f, fp[idx[k - 1]]) >> 6, s, p, NULL, NULL) == g) continue;
    size_t k1 = k + 1;
    while (k1 < n && gamq__rsqf_region(nblocks, gamq__qf_quotient(&f, fp[idx[k1]]) >> 6, s, p, NULL, NULL) == g) ++k1;
    int full = 0;
    total += gamq__rsqf_queue(&f, del, fp, idx, k, k1, lo, hi, keep, &full);
    if (full) st->full = 1;
  }
  gamq__warp_count(&st->changed, total);
}

/* ---------------------------------------------------------------------------
   IN-PLACE WINDOWS: batches by window re-layout (AUTO's in-place path for
   the RSQF; gamq__qf_cuda_windows in amq/qf/cuda.cuh drives it)

   One layout per multiset makes a batch a local rewrite: the bytes change
   only in windows of slots, and each window's new layout is the position
   scan of its old items merged with (inserts) or minus (deletes) the batch
   items that fall in it. A window starts at a STRETCH START a (slot a - 1
   unused: nothing before a moves into it) and one thread rewrites it in one
   pass; there are no rounds.
     BOUNDS  thread per sorted batch item: a = the stretch start of its home
             slot h (h itself when unused); inserts also t = the first unused
             slot at or after h. Items with equal a form a group (contiguous
             in the sorted batch: a is monotone in h).
     CHAINS  inserts, thread per chain head: k items fill the first k unused
             slots at or after t, so the new stretch is [a, z) with z - 1 the
             k-th unused slot at or after t (old stretches it reaches are
             absorbed). When z passes the next group's a the two are one
             window: the head links it and recomputes, as long as its window
             grows into the next group. A link is set only on a real overlap,
             so links only grow; a launch that adds none is the fixed point
             (usually the second; one 4-byte read back each). z > nslots:
             FULL, before anything was written.
     WRITE   inserts right to left over [a, z): the old items decoded from
             the top (runs pair with the occupied quotients in order) merged
             with the window's batch items, each written at its final slot;
             old items never move left, so a slot is read before it is
             written. Deletes left to right over the old stretch: survivors
             at max(previous + 1, quotient); items never move right; SQF
             occupied bits stay until their run is known to be empty. RSQF
             blocks are shared by windows: a window changes only its own
             bits, as one atomic XOR per 64-bit word it leaves (XORs of
             disjoint bit sets commute), and reads only its own bits; the
             offsets of blocks starting inside a window are its own bytes.
             The order of windows does not matter (the tests' host simulation runs
             them shuffled). RSQF windows of ONE key (nearly all of them
             when the batch is small next to the filter: the window
             writer's history, git show 8b53d45:bench/results/qf_h200.md)
             take a word-by-word path instead (gamq__win_insert1 /
             _delete1): the key's run found by counting bits, the shift
             done as 64-bit word moves; same bytes.
   Work is linear in window lengths; the span is the longest window (one
   thread): tens to a few hundred slots at 70-90% fill. The kernels count
   what they changed once per warp (gamq__warp_count).
   ------------------------------------------------------------------------- */
#define GAMQ__NONE (~(uint64_t)0)

/* RSQF: whether slot 64b + i is in no run, from block b's words occ / ends
   and stored offset off alone. Slots below the offset hold the spill of
   earlier quotients' runs; from the offset on, slot i is unused exactly
   when the runs of the block's quotients <= i all ended before it: runends
   in [off, i) >= occupied quotients in [0, i] (a run starts at or after its
   quotient, so none of a larger one covers i). A stored offset >= 64 (255,
   "255 or more", included) means the whole block is spill. Two popcounts a
   slot, where the walk from a block's true offset takes a rank and a select. */
static inline GAMQ__HD int gamq__rsqf_unused_in(uint64_t occ, uint64_t ends, uint64_t off, int i) {
  if ((uint64_t)i < off) return 0;
  return gamq__popcount64(ends & (((uint64_t)1 << i) - 1) & ~(((uint64_t)1 << off) - 1)) >=
         gamq__popcount64(occ & (((uint64_t)2 << i) - 1));
}
/* The first unused slot at or after s (nslots: none); the RSQF block by
   block, slot by slot from the block's words. */
static inline GAMQ__HD uint64_t gamq__qf_next_unused(const gamq__qf *f, uint64_t s) {
  uint64_t b;
  int i;
  if (f->kind == GAMQ__QF_SQF) return gamq__sqf_next_empty(f, s);
  for (b = s >> 6, i = (int)(s & 63); b < f->nslots / 64; ++b, i = 0) {
    const uint64_t occ = gamq__rsqf_occupieds(f, b), ends = gamq__rsqf_runends(f, b), off = gamq__rsqf_stored_offset(f, b);
    for (; i < 64; ++i)
      if (gamq__rsqf_unused_in(occ, ends, off, i)) return 64 * b + (uint64_t)i;
  }
  return f->nslots;
}
/* BOUNDS of home slot h. Inserts: a = t = the first unused slot at or after
   h (the group key: one stretch, one t). Deletes: a = the start of h's
   stretch (h when unused) and t = 1 when h is used (the stretch holds
   items), else 0 - the write kernel must not look (it would read blocks
   other windows write). */
static inline GAMQ__HD void gamq__win_bounds(const gamq__qf *f, int del, uint64_t h, uint64_t *a, uint64_t *t) {
  if (!del) {
    *a = *t = gamq__qf_next_unused(f, h);
    return;
  }
  if (f->kind == GAMQ__QF_SQF) {
    if (gamq__sqf_empty(f, h)) {
      *a = h, *t = 0;
      return;
    }
    *a = h > 0 ? gamq__sqf_prev_with(f, h - 1, 7u, 0) + 1 : 0, *t = 1; /* after the last empty slot below h (~0 + 1 = 0: none) */
    return;
  }
  { /* RSQF: the last unused slot at or below h, block by block: h itself (home unused), or the one the stretch starts after */
    uint64_t b = h >> 6;
    int i = (int)(h & 63) + 1;
    for (;; --b, i = 64) {
      const uint64_t occ = gamq__rsqf_occupieds(f, b), ends = gamq__rsqf_runends(f, b), off = gamq__rsqf_stored_offset(f, b);
      while (i-- > 0)
        if (gamq__rsqf_unused_in(occ, ends, off, i)) {
          const uint64_t u = 64 * b + (uint64_t)i;
          *a = u == h ? h : u + 1, *t = u != h;
          return;
        }
      if (b == 0) break;
    }
    *a = 0, *t = 1;
  }
}
static inline GAMQ__HD int gamq__win_head(const uint64_t *A, size_t i) { return i == 0 || A[i] != A[i - 1]; }
static inline GAMQ__HD size_t gamq__win_group_end(const uint64_t *A, size_t n, size_t i) {
  size_t j = i + 1;
  while (j < n && A[j] == A[i]) ++j;
  return j;
}
/* A chain head's window: items [i, *j) (its group and the linked ones after
   it), and z (nslots + 1: no room). */
static inline GAMQ__HD uint64_t gamq__win_chain(const gamq__qf *f, const uint64_t *A, const uint64_t *T, const uint8_t *link,
                                               size_t n, size_t i, size_t *jend) {
  size_t j = gamq__win_group_end(A, n, i);
  uint64_t k, t = T[i];
  while (j < n && link[j]) j = gamq__win_group_end(A, n, j);
  *jend = j;
  for (k = j - i;; ++t) { /* the k-th unused slot at or after t */
    t = gamq__qf_next_unused(f, t);
    if (t >= f->nslots) return f->nslots + 1;
    if (--k == 0) return t + 1;
  }
}

/* RSQF writes: a pending XOR of one 64-bit word, and the word's value when
   the window first touched it. Each bit is written at most once a batch and
   only by its window, so the bits a window writes still hold their old
   values there: one load a word, not one a slot. */
typedef struct gamq__win_acc {
  uint64_t *w, x, old;
} gamq__win_acc;
static inline GAMQ__HD void gamq__win_flush(gamq__win_acc *c) {
  if (c->w != NULL && c->x != 0) {
#if defined(__CUDA_ARCH__)
    atomicXor((unsigned long long *)c->w, (unsigned long long)c->x);
#else
    *c->w ^= c->x;
#endif
  }
  c->w = NULL, c->x = 0;
}
/* The bits mask of word *w become those of val. */
static inline GAMQ__HD void gamq__win_put(gamq__win_acc *c, uint64_t *w, uint64_t val, uint64_t mask) {
  if (c->w != w) {
    gamq__win_flush(c);
    c->w = w, c->old = *w;
  }
  c->x ^= (c->old ^ val) & mask;
}
/* Slot s's bit of block word 0 (occupieds) or 1 (runends) becomes v. */
static inline GAMQ__HD void gamq__win_set_bit(const gamq__qf *f, gamq__win_acc *c, uint64_t s, int word, int v) {
  const uint64_t m = (uint64_t)1 << (s & 63);
  gamq__win_put(c, (uint64_t *)gamq__rsqf_block(f, s >> 6) + word, v ? m : 0, m);
}
/* Slot s's remainder becomes rem; down = 1 when slots are written right to
   left (the high word first, so the pending word only moves one way). */
static inline GAMQ__HD void gamq__win_set_rem(const gamq__qf *f, gamq__win_acc *c, uint64_t s, uint64_t rem, int down) {
  uint64_t *base = (uint64_t *)(gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f)); /* 8-byte aligned in both layouts */
  const uint64_t bit = (s & 63) * (uint64_t)f->r, k = bit >> 6, sh = bit & 63, m = ((uint64_t)1 << f->r) - 1;
  const int two = sh + (uint64_t)f->r > 64; /* the remainder spans words k and k + 1 */
  if (down && two) gamq__win_put(c, base + k + 1, rem >> (64 - sh), m >> (64 - sh));
  gamq__win_put(c, base + k, rem << sh, m << sh);
  if (!down && two) gamq__win_put(c, base + k + 1, rem >> (64 - sh), m >> (64 - sh));
}
/* RSQF reads of the decoder: the last word loaded, kept while the walk
   stays in it. The decoder reads a slot before any window writes it, so a
   kept word still holds the old values of the bits it reads. */
typedef struct gamq__win_rd {
  const uint64_t *p;
  uint64_t v;
} gamq__win_rd;
static inline GAMQ__HD uint64_t gamq__win_word(gamq__win_rd *c, const uint64_t *p) {
  if (c->p != p) c->p = p, c->v = *p;
  return c->v;
}
static inline GAMQ__HD int gamq__win_runend(const gamq__qf *f, gamq__win_rd *c, uint64_t s) {
  return (int)((gamq__win_word(c, (const uint64_t *)gamq__rsqf_block(f, s >> 6) + 1) >> (s & 63)) & 1);
}
static inline GAMQ__HD uint64_t gamq__win_occupieds(const gamq__qf *f, gamq__win_rd *c, uint64_t b) {
  return gamq__win_word(c, (const uint64_t *)gamq__rsqf_block(f, b));
}
/* Slot s's remainder; down as for gamq__win_set_rem (the word the walk
   goes on in is loaded last). */
static inline GAMQ__HD uint64_t gamq__win_rem(const gamq__qf *f, gamq__win_rd *c, uint64_t s, int down) {
  const uint64_t *base = (const uint64_t *)(gamq__rsqf_block(f, s >> 6) + gamq__rsqf_rem_byte(f));
  const uint64_t bit = (s & 63) * (uint64_t)f->r, k = bit >> 6, sh = bit & 63;
  const int two = sh + (uint64_t)f->r > 64;
  uint64_t v = 0;
  if (down && two) v = gamq__win_word(c, base + k + 1) << (64 - sh);
  v |= gamq__win_word(c, base + k) >> sh;
  if (!down && two) v |= gamq__win_word(c, base + k + 1) << (64 - sh);
  return v & (((uint64_t)1 << f->r) - 1);
}
/* The largest occupied quotient in [lo, x) / the smallest in (x, lim]; NONE.
   The RSQF reads its occupieds through c. */
static inline GAMQ__HD uint64_t gamq__win_prev_occ(const gamq__qf *f, gamq__win_rd *c, uint64_t x, uint64_t lo) {
  if (f->kind == GAMQ__QF_SQF) {
    while (x > lo)
      if (gamq__sqf_occupied(f, --x)) return x;
    return GAMQ__NONE;
  }
  while (x > lo) {
    const uint64_t y = x - 1, m = (y & 63) == 63 ? ~(uint64_t)0 : ((uint64_t)2 << (y & 63)) - 1;
    const uint64_t wd = gamq__win_occupieds(f, c, y >> 6) & m;
    if (wd) {
      const uint64_t p = (y & ~(uint64_t)63) + (uint64_t)gamq__select64(wd, gamq__popcount64(wd) - 1);
      return p >= lo ? p : GAMQ__NONE;
    }
    x = y & ~(uint64_t)63;
  }
  return GAMQ__NONE;
}
static inline GAMQ__HD uint64_t gamq__win_next_occ(const gamq__qf *f, gamq__win_rd *c, uint64_t x, uint64_t lim) {
  uint64_t y = x + 1;
  if (f->kind == GAMQ__QF_SQF) {
    for (; y <= lim && y < f->nslots; ++y)
      if (gamq__sqf_occupied(f, y)) return y;
    return GAMQ__NONE;
  }
  while (y <= lim && y < f->nslots) {
    const uint64_t wd = gamq__win_occupieds(f, c, y >> 6) >> (y & 63);
    if (wd) {
      y += (uint64_t)gamq__select64(wd, 0);
      return y <= lim ? y : GAMQ__NONE;
    }
    y = (y | 63) + 1;
  }
  return GAMQ__NONE;
}

/* INSERT the sorted batch items fp[i0 .. i1) into the window that ends at z
   (z - 1 is the last old unused slot they fill), right to left: the old
   items are decoded from the top and merged with the batch's. Once the
   smallest batch item N is placed every item below it keeps its slot, so
   the pass stops there: only the run marks between N and the item right
   below it are fixed (SQF N's continuation bit, the RSQF runend bit below
   N) and the SQF occupied bits of batch homes below N set. Every old item
   larger than N sits at or above N's home, so the decoder never reads
   below it (nor another window's slots). Returns 0 when the items do not
   fit the window (cannot happen). */
static inline GAMQ__HD int gamq__win_insert(gamq__qf *f, const uint64_t *fp, size_t i0, size_t i1, uint64_t z) {
  const int sqf = f->kind == GAMQ__QF_SQF;
  const uint64_t lo = gamq__qf_quotient(f, fp[i0]);
  uint64_t u = z, oq = z, oldq = 0, oldr = 0, oldpos = 0, w = z, pq = 0, pr = 0, lastnew = GAMQ__NONE, v;
  uint64_t B = (z - 1) & ~(uint64_t)63; /* the next block start below z whose offset is due */
  size_t k = i1, hp = i1;
  int need = 1, inrun = 0, have = 0, pend = 0;
  gamq__win_acc rem = {NULL, 0, 0}, ends = {NULL, 0, 0}, occ = {NULL, 0, 0};
  gamq__win_rd rc = {NULL, 0}, ec = {NULL, 0}, oc = {NULL, 0}; /* the decoder's remainder, runend, occupied words */
  for (;;) {
    uint64_t q, rr;
    while (!have && u > lo) { /* the next old item, from the top */
      --u;
      if (sqf) {
        v = gamq__sqf_get(f, u);
        if ((v & 7u) == 0) continue;
        if (need) oq = gamq__win_prev_occ(f, &oc, oq, 0);
        need = (v & GAMQ__SQF_CONTINUATION) == 0;
        oldq = oq, oldr = v >> 3, oldpos = u, have = 1;
      } else if (gamq__win_runend(f, &ec, u)) {
        oq = gamq__win_prev_occ(f, &oc, oq, 0);
        inrun = 1, oldq = oq, oldr = gamq__win_rem(f, &rc, u, 1), oldpos = u, have = 1;
      } else if (inrun && u >= oq) {
        oldq = oq, oldr = gamq__win_rem(f, &rc, u, 1), oldpos = u, have = 1;
      } else {
        inrun = 0;
      }
      if (oq == GAMQ__NONE) return 0;
    }
    if (k == i0) break;
    if (w == 0) return 0;
    --w; /* place the larger of the next old and the next batch item at w */
    if (!have || fp[k - 1] >= ((oldq << f->r) | oldr)) {
      --k;
      q = gamq__qf_quotient(f, fp[k]), rr = gamq__qf_remainder(f, fp[k]);
      if (!sqf && q != lastnew) gamq__win_set_bit(f, &occ, q, 0, 1);
      lastnew = q;
    } else {
      q = oldq, rr = oldr, have = 0;
    }
    if (sqf) { /* slot w + 1 is complete now that its lower neighbour is known */
      if (pend) {
        while (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) > w + 1) --hp;
        v = (gamq__sqf_get(f, w + 1) & GAMQ__SQF_OCCUPIED) | (pr << 3) | (pq == q ? GAMQ__SQF_CONTINUATION : 0) |
            (pq != w + 1 ? GAMQ__SQF_SHIFTED : 0);
        if (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) == w + 1) v |= GAMQ__SQF_OCCUPIED;
        gamq__sqf_put(f, w + 1, v);
      }
      pq = q, pr = rr, pend = 1;
    } else {
      gamq__win_set_rem(f, &rem, w, rr, 1);
      gamq__win_set_bit(f, &ends, w, 1, w == z - 1 || pq != q);
      pq = q;
      for (; B > q; B -= 64) gamq__rsqf_store_offset(f, B >> 6, w + 1 > B ? w + 1 - B : 0);
    }
  }
  /* N (quotient pq) is at w; the item right below it, if at or above N's
     home, was decoded */
  const int next_to = have && oldpos + 1 == w, below = next_to && oldq == pq; /* below: the same run */
  if (sqf) {
    while (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) > w) --hp;
    v = (gamq__sqf_get(f, w) & GAMQ__SQF_OCCUPIED) | (pr << 3) | (below ? GAMQ__SQF_CONTINUATION : 0) |
        (pq != w ? GAMQ__SQF_SHIFTED : 0);
    if (hp > i0 && gamq__qf_quotient(f, fp[hp - 1]) == w) v |= GAMQ__SQF_OCCUPIED;
    gamq__sqf_put(f, w, v);
    for (k = i0; k < i1 && gamq__qf_quotient(f, fp[k]) < w; ++k) gamq__sqf_set_occupied(f, gamq__qf_quotient(f, fp[k]), 1);
  } else {
    if (next_to) gamq__win_set_bit(f, &ends, w - 1, 1, !below);
    gamq__win_flush(&rem), gamq__win_flush(&ends), gamq__win_flush(&occ);
  }
  return 1;
}

/* DELETE one copy of each of fp[i0 .. i1) present in the (non-empty)
   stretch that starts at a; left to right, survivors at max(previous + 1,
   quotient). Returns how many were removed. */
static inline GAMQ__HD uint64_t gamq__win_delete(gamq__qf *f, const uint64_t *fp, size_t i0, size_t i1, uint64_t a) {
  const int sqf = f->kind == GAMQ__QF_SQF;
  uint64_t u = a, oq = a, w = a, changed = 0, kept = 0, prev = GAMQ__NONE, pq = 0, v = 0;
  uint64_t B = (a | 63) + 1; /* the next block start above a whose offset is due */
  size_t k = i0;
  int first = 1, ended = 0;
  gamq__win_acc rem = {NULL, 0, 0}, ends = {NULL, 0, 0}, occ = {NULL, 0, 0};
  gamq__win_rd rc = {NULL, 0}, ec = {NULL, 0}, oc = {NULL, 0}; /* the decoder's remainder, runend, occupied words */
  for (; u < f->nslots; ++u) {
    uint64_t q, rr, x, s;
    if (sqf) { /* the next old item */
      v = gamq__sqf_get(f, u);
      if ((v & 7u) == 0) break;
      if (!first && !(v & GAMQ__SQF_CONTINUATION)) { /* a new run */
        if (kept == 0) gamq__sqf_set_occupied(f, oq, 0);
        oq = gamq__win_next_occ(f, &oc, oq, u), kept = 0;
      }
      rr = v >> 3;
    } else {
      if (!first && ended) { /* the next run starts here, or the stretch ended */
        const uint64_t y = gamq__win_next_occ(f, &oc, oq, u);
        if (y == GAMQ__NONE) break;
        if (kept == 0) gamq__win_set_bit(f, &occ, oq, 0, 0);
        oq = y, kept = 0;
      }
      rr = gamq__win_rem(f, &rc, u, 0);
      ended = gamq__win_runend(f, &ec, u);
    }
    first = 0;
    q = oq, x = (q << f->r) | rr;
    while (k < i1 && fp[k] < x) ++k;
    if (k < i1 && fp[k] == x) { /* deleted */
      ++k, ++changed;
      continue;
    }
    s = w > q ? w : q; /* a survivor: slots w .. s-1 stay unused */
    if (!sqf) {
      if (prev != GAMQ__NONE) gamq__win_set_bit(f, &ends, prev, 1, pq != q);
      for (; B <= q; B += 64) gamq__rsqf_store_offset(f, B >> 6, prev != GAMQ__NONE && prev + 1 > B ? prev + 1 - B : 0);
    }
    for (; w < s; ++w) {
      if (sqf) {
        gamq__sqf_put(f, w, gamq__sqf_get(f, w) & GAMQ__SQF_OCCUPIED);
      } else {
        gamq__win_set_rem(f, &rem, w, 0, 0);
        gamq__win_set_bit(f, &ends, w, 1, 0);
      }
    }
    if (sqf)
      gamq__sqf_put(f, s, (gamq__sqf_get(f, s) & GAMQ__SQF_OCCUPIED) | (rr << 3) |
                              (prev != GAMQ__NONE && pq == q ? GAMQ__SQF_CONTINUATION : 0) | (s != q ? GAMQ__SQF_SHIFTED : 0));
    else
      gamq__win_set_rem(f, &rem, s, rr, 0);
    prev = s, pq = q, w = s + 1, ++kept;
  }
  if (kept == 0) {
    if (sqf) gamq__sqf_set_occupied(f, oq, 0);
    else gamq__win_set_bit(f, &occ, oq, 0, 0);
  }
  if (!sqf) {
    if (prev != GAMQ__NONE) gamq__win_set_bit(f, &ends, prev, 1, 1);
    for (; B < u; B += 64) gamq__rsqf_store_offset(f, B >> 6, prev != GAMQ__NONE && prev + 1 > B ? prev + 1 - B : 0);
  }
  for (; w < u; ++w) { /* the stretch's tail is unused now */
    if (sqf) {
      gamq__sqf_put(f, w, 0);
    } else {
      gamq__win_set_rem(f, &rem, w, 0, 0);
      gamq__win_set_bit(f, &ends, w, 1, 0);
    }
  }
  if (!sqf) gamq__win_flush(&rem), gamq__win_flush(&ends), gamq__win_flush(&occ);
  return changed;
}

/* ---- RSQF windows of one batch item, word by word ----
   Most windows hold one item (2^20 keys into 2^30 slots: 99%). For those
   the RSQF is changed the way its layout allows: the item's run is found
   by counting bits, and the slots between the item and the end of the
   shift move one slot as whole 64-bit words (64 / r remainders a word), not
   slot by slot through the merge above. The result is the same bytes.
   Everything read is in the window's own stretch (or the unused slot that
   ends it), as above. */

/* Bits [lo, hi) of a word, 0 <= lo < hi <= 64. */
static inline GAMQ__HD uint64_t gamq__bit_range(uint64_t lo, uint64_t hi) {
  return (hi >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << hi) - 1) & (~(uint64_t)0 << lo);
}
static inline GAMQ__HD void gamq__win_xor_now(uint64_t *w, uint64_t x) {
  gamq__win_acc c = {w, x, 0};
  gamq__win_flush(&c);
}
/* The slots [*s0, *s1) of block b that lie in [lo, hi] (b in lo / 64 .. hi / 64). */
static inline GAMQ__HD void gamq__win_span(uint64_t b, uint64_t lo, uint64_t hi, uint64_t *s0, uint64_t *s1) {
  *s0 = b == lo >> 6 ? lo & 63 : 0;
  *s1 = b == hi >> 6 ? (hi & 63) + 1 : 64;
}
/* Set bits of block word `word` (0 occupieds, 1 runends) in slots [lo, hi]. */
static inline GAMQ__HD uint64_t gamq__win_count(const gamq__qf *f, int word, uint64_t lo, uint64_t hi) {
  uint64_t b, c = 0, s0, s1;
  for (b = lo >> 6; lo <= hi && b <= hi >> 6; ++b) {
    gamq__win_span(b, lo, hi, &s0, &s1);
    c += (uint64_t)gamq__popcount64(((const uint64_t *)gamq__rsqf_block(f, b))[word] & gamq__bit_range(s0, s1));
  }
  return c;
}
/* The d-th (d >= 1) runend counting down from slot hi to slot lo; NONE if
   there are fewer. */
static inline GAMQ__HD uint64_t gamq__win_runend_below(const gamq__qf *f, uint64_t lo, uint64_t hi, uint64_t d) {
  uint64_t b, s0, s1;
  for (b = hi >> 6; lo <= hi; --b) {
    gamq__win_span(b, lo, hi, &s0, &s1);
    const uint64_t w = gamq__rsqf_runends(f, b) & gamq__bit_range(s0, s1), c = (uint64_t)gamq__popcount64(w);
    if (c >= d) return 64 * b + (uint64_t)gamq__select64(w, (int)(c - d));
    d -= c;
    if (b == lo >> 6) break;
  }
  return GAMQ__NONE;
}
/* Slots [lo, hi] of the per-block array at byte `at` of each block (width
   bits a slot: runends at 8 with width 1, the remainders with width r) take
   the values of the slots one below (up) or one above (!up; slot hi + 1
   exists). Each old word is read before it is written, and only the
   range's bits change (an XOR, like the windows above). */
static inline GAMQ__HD void gamq__win_move(const gamq__qf *f, int at, uint64_t width, uint64_t lo, uint64_t hi, int up) {
  const uint64_t nblocks = f->nslots / 64;
  uint64_t b, prev = 0, s0, s1;
  for (b = lo >> 6; lo <= hi && b <= hi >> 6; ++b) {
    uint64_t *w = (uint64_t *)(gamq__rsqf_block(f, b) + at);
    gamq__win_span(b, lo, hi, &s0, &s1);
    const uint64_t b0 = s0 * width, b1 = s1 * width, klast = (b1 - 1) >> 6; /* the slots' bits [b0, b1) */
    uint64_t k = b0 >> 6, cur;
    if (up && b == lo >> 6) /* the word below the first one written */
      prev = k > 0 ? w[k - 1] : b > 0 ? ((const uint64_t *)(gamq__rsqf_block(f, b - 1) + at))[width - 1] : 0;
    for (cur = w[k]; k <= klast; ++k) {
      const uint64_t m = gamq__bit_range(64 * k < b0 ? b0 - 64 * k : 0, b1 - 64 * k < 64 ? b1 - 64 * k : 64);
      uint64_t nw, next = 0;
      if (up) {
        nw = (cur << width) | (prev >> (64 - width));
        prev = cur;
      } else {
        if (k + 1 < width) next = w[k + 1];
        else if (b + 1 < nblocks) next = ((const uint64_t *)(gamq__rsqf_block(f, b + 1) + at))[0];
        nw = (cur >> width) | (next << (64 - width));
      }
      gamq__win_xor_now(w + k, (cur ^ nw) & m);
      if (k + 1 <= klast) cur = up ? w[k + 1] : next;
    }
  }
}
/* Slot s's remainder (0 clears it) / runend bit becomes v, right now. */
static inline GAMQ__HD void gamq__win_put_rem(const gamq__qf *f, uint64_t s, uint64_t v) {
  gamq__win_acc c = {NULL, 0, 0};
  gamq__win_set_rem(f, &c, s, v, 0);
  gamq__win_flush(&c);
}
static inline GAMQ__HD void gamq__win_put_bit(const gamq__qf *f, uint64_t s, int word, int v) {
  gamq__win_acc c = {NULL, 0, 0};
  gamq__win_set_bit(f, &c, s, word, v);
  gamq__win_flush(&c);
}
/* INSERT fingerprint x alone; t = the first unused slot at or after its
   quotient q. The runs in [q, t) are, from the top, those of the occupied
   quotients in (q, t) and then q's (or the one before, spilled past q).
   x goes to slot P (after the equal and smaller remainders of its run, or
   after the runs below q), the items in [P, t) move up one, and the blocks
   that start in (q, t] have one more slot of spill. */
static inline GAMQ__HD void gamq__win_insert1(gamq__qf *f, uint64_t x, uint64_t t) {
  const uint64_t q = gamq__qf_quotient(f, x), xr = gamq__qf_remainder(f, x);
  const int occ = gamq__rsqf_occupied(f, q);
  const uint64_t above = q + 1 < t ? gamq__win_count(f, 0, q + 1, t - 1) : 0; /* runs above q's */
  const uint64_t e = q < t ? gamq__win_runend_below(f, q, t - 1, above + 1) : GAMQ__NONE;
  uint64_t P, b;
  if (occ) { /* q's run is [its start, e] */
    const uint64_t below = e > q ? gamq__win_runend_below(f, q, e - 1, 1) : GAMQ__NONE;
    for (P = below == GAMQ__NONE ? q : below + 1; P <= e && gamq__rsqf_rem(f, P) <= xr;) ++P;
  } else {
    P = e == GAMQ__NONE ? q : e + 1;
  }
  gamq__win_move(f, gamq__rsqf_rem_byte(f), (uint64_t)f->r, P + 1, t, 1);
  gamq__win_move(f, 8, 1, P + 1, t, 1);
  gamq__win_put_rem(f, P, xr);
  if (!occ) {
    gamq__win_put_bit(f, q, 0, 1);
    gamq__win_put_bit(f, P, 1, 1); /* a run of one */
  } else if (P == e + 1) {        /* x ends its run */
    gamq__win_put_bit(f, e, 1, 0);
    gamq__win_put_bit(f, P, 1, 1);
  } else {
    gamq__win_put_bit(f, P, 1, 0);
  }
  for (b = (q >> 6) + 1; b <= t >> 6; ++b) {
    const uint64_t o = gamq__rsqf_stored_offset(f, b);
    if (o < GAMQ__RSQF_OFFSET_MAX) gamq__rsqf_store_offset(f, b, o + 1);
  }
}
/* DELETE one copy of x alone from the stretch that starts at a. q's run is
   the j-th of the stretch (j: occupied quotients in [a, q]). After the copy
   at slot D, the items move down one up to F: the first slot with no run
   open (unused, or an item at its home). Blocks that start in (q, F) lose
   one slot of spill; a saturated one (255, "255 or more") is not known
   exactly: returns -1 before anything changed and the caller takes the
   slot-by-slot path. Returns 1 deleted, 0 absent. */
static inline GAMQ__HD int gamq__win_delete1(gamq__qf *f, uint64_t x, uint64_t a) {
  const uint64_t q = gamq__qf_quotient(f, x), xr = gamq__qf_remainder(f, x);
  uint64_t j, e, rs, D, F, open, b, r = 0;
  gamq__win_rd oc = {NULL, 0}, ec = {NULL, 0};
  if (!gamq__rsqf_occupied(f, q)) return 0;
  j = gamq__win_count(f, 0, a, q);
  rs = j > 1 ? gamq__rsqf_select_runend(f, a, j - 1) + 1 : a; /* q's run is [rs, e] */
  e = gamq__rsqf_select_runend(f, rs, 1);
  for (D = rs; D <= e && (r = gamq__rsqf_rem(f, D)) < xr;) ++D;
  if (D > e || r != xr) return 0;
  /* runs open at slot D + 1: occupieds in [a, D] (j, and those in (q, D])
     less runends in [a, D] (the j - 1 runs before q's, and e if D = e) */
  open = 1 + (D > q ? gamq__win_count(f, 0, q + 1, D) : 0) - (D == e);
  for (F = D + 1; open > 0 && F < f->nslots; ++F)
    open += ((gamq__win_occupieds(f, &oc, F >> 6) >> (F & 63)) & 1) - (uint64_t)gamq__win_runend(f, &ec, F);
  for (b = (q >> 6) + 1; 64 * b < F; ++b)
    if (gamq__rsqf_stored_offset(f, b) == GAMQ__RSQF_OFFSET_MAX) return -1;
  if (rs == e) gamq__win_put_bit(f, q, 0, 0); /* its only item */
  else if (D == e) gamq__win_put_bit(f, D - 1, 1, 1);
  if (F > D + 1) { /* items in (D, F) */
    gamq__win_move(f, gamq__rsqf_rem_byte(f), (uint64_t)f->r, D, F - 2, 0);
    gamq__win_move(f, 8, 1, D, F - 2, 0);
  }
  gamq__win_put_rem(f, F - 1, 0);
  gamq__win_put_bit(f, F - 1, 1, 0);
  for (b = (q >> 6) + 1; 64 * b < F; ++b) gamq__rsqf_store_offset(f, b, gamq__rsqf_stored_offset(f, b) - 1);
  return 1;
}

/* What one thread of the chain and write launches does for item i (the
   kernels and the tests' host simulation call these). Chain: flags |= 1 FULL,
   2 a link was added. Write: *changed += items inserted / deleted; returns
   0 when a window did not fill (cannot happen). */
static inline GAMQ__HD unsigned gamq__win_chain_one(const gamq__qf *f, const uint64_t *A, const uint64_t *T, uint8_t *link,
                                                   size_t n, size_t i, uint64_t *Z) {
  size_t j;
  unsigned flags = 0;
  if (!gamq__win_head(A, i) || link[i]) return 0;
  for (;;) { /* absorb the next group while the window reaches it */
    Z[i] = gamq__win_chain(f, A, T, link, n, i, &j);
    if (Z[i] > f->nslots) return flags | 1u;
    if (j >= n || A[j] >= Z[i]) return flags;
    link[j] = 1, flags |= 2u;
  }
}
/* Write: which = 1 the RSQF's one-key windows, 2 the others, 3 both. The
   device runs 1 and then 2 as two launches (GAMQ__WIN_ONE, GAMQ__WIN_MANY):
   the one-key kernel is small (about a third of the registers of the
   slot-by-slot writer), so many more of its threads are resident to hide
   their memory latency. A one-key delete that must take the slot-by-slot
   path (a saturated offset) sets link[i] (deletes have no chains) for
   pass 2. */
#define GAMQ__WIN_ONE 1
#define GAMQ__WIN_MANY 2
static inline GAMQ__HD int gamq__win_write_one(gamq__qf *f, int del, const uint64_t *fp, const uint64_t *A, const uint64_t *T,
                                              uint8_t *link, const uint64_t *Z, size_t n, size_t i, uint64_t *changed,
                                              int which) {
  size_t j;
  int one;
  if (!gamq__win_head(A, i)) return 1;
  if (del) {
    j = gamq__win_group_end(A, n, i);
    if (T[i] == 0) return 1; /* home slots unused */
    one = f->kind == GAMQ__QF_RSQF && j == i + 1;
    if (one && (which & GAMQ__WIN_ONE)) {
      const int d = gamq__win_delete1(f, fp[i], A[i]);
      if (d >= 0) {
        *changed += (uint64_t)d;
        return 1;
      }
      link[i] = 1; /* for pass 2 */
    }
    if ((which & GAMQ__WIN_MANY) && (!one || link[i])) *changed += gamq__win_delete(f, fp, i, j, A[i]);
    return 1;
  }
  if (link[i]) return 1; /* inside an earlier group's window */
  for (j = gamq__win_group_end(A, n, i); j < n && link[j];) j = gamq__win_group_end(A, n, j);
  one = f->kind == GAMQ__QF_RSQF && j == i + 1;
  if (!(which & (one ? GAMQ__WIN_ONE : GAMQ__WIN_MANY))) return 1;
  *changed += j - i;
  if (one) {
    gamq__win_insert1(f, fp[i], Z[i] - 1);
    return 1;
  }
  return gamq__win_insert(f, fp, i, j, Z[i]);
}

/* The kernels (gamq__qf_cuda_windows runs them). */
static __global__ void gamq__win_bounds_kernel(gamq__qf f, int del, const uint64_t *fp, size_t n, uint64_t *A, uint64_t *T) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    gamq__win_bounds(&f, del, gamq__qf_quotient(&f, fp[i]), &A[i], &T[i]);
}
static __global__ void gamq__win_chain_kernel(gamq__qf f, const uint64_t *A, const uint64_t *T, uint8_t *link, size_t n,
                                              uint64_t *Z, unsigned int *flags) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    const unsigned fl = gamq__win_chain_one(&f, A, T, link, n, i, Z);
    if (fl) atomicOr(flags, fl);
  }
}
template <int WHICH>
static __global__ void __launch_bounds__(256, WHICH == GAMQ__WIN_ONE ? 4 : 1) gamq__win_write_kernel(gamq__qf f, int del, const uint64_t *fp, const uint64_t *A, const uint64_t *T,
                                              uint8_t *link, const uint64_t *Z, size_t n, gamq__qf_round_status *st) {
  uint64_t c = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    if (!gamq__win_write_one(&f, del, fp, A, T, link, Z, n, i, &c, WHICH)) st->full = 2;
  gamq__warp_count(&st->changed, c);
}
