/* clique/kcliques/grouped.cuh - k-clique counting by grouped extension
   (method GROUPED), after Hu et al., "A graph pattern mining framework for
   large graphs on GPU" (GAMMA), section 6. Its driver is in
   clique/kcliques/cuda.cuh.

   Groups. A group of depth t is a prefix (v1 .. vt), a clique of the
   oriented graph, with its candidate set C = out(v1) & .. & out(vt)
   (ascending ids): every w in C makes the (t + 1)-clique (prefix, w), the
   members of the group. Depth 1: the groups are the vertices, C = out(v).
   A warp takes a group, keeps C in shared memory and extends every member w
   against it: C' = C & out(w) is the candidate set of the child group
   (prefix, w) of depth t + 1, and |C'| counts the (t + 2)-cliques through
   (prefix, w).

   The intersection C & out(w), GAMMA's three stages: a Bloom filter of C
   (2048 bits, two hashes) is built in shared memory once per group; stage
   1 (filter) tests 32 elements of out(w) at a time against it and against
   C's range; stage 2 (collect) packs the survivors by ballot into a
   per-warp queue; stage 3 (search) gives each lane one queued survivor and
   looks it up exactly in C. C sits in shared memory in the column-first
   layout (element i at row i % R, column i / R, R = ceil(|C| / 32) rows):
   a lane finds its column by a binary search of row 0 and then reads down
   that column; lanes reading the same row touch distinct banks, so the
   search is free of bank conflicts. A C longer than the warp's shared slot
   (GCLQ__KG_SLOT words) stays in global memory and stage 3 searches it by
   binary search there (the filter and the collection are the same).

   Levels, breadth first. One k: the groups of depth 1 .. k - 3 are
   extended into materialised children (only children with at least
   k - t - 1 candidates, which can still reach a k-clique); the groups of
   depth k - 2 are counted, not materialised: d_count[k] += |C & out(w)| for
   every member w. Every size (k == 0): every depth is extended and
   materialised (children with 2 candidates or more), each member adding
   |C'| to d_count[t + 2]; d_count[2] is the number of edges.

   The warp memory pool. A level's children go into one arena: candidate
   words are reserved by a warp in chunks (at least GCLQ__KG_CHUNK words, or
   the largest candidate set the next member can give) with one atomic per
   chunk; child records (candidate offset, length, member, parent record)
   are reserved 32 at a time with one atomic, and the unused tail of a
   warp's last record chunk is written empty. A record names its parent
   record by its word offset in the arena (depth 1 by the vertex, flagged),
   so the per-vertex counts walk a prefix back to its first vertex.

   Windows. The arena is what the budget leaves, up to GCLQ__KG_ARENA_CAP
   bytes or 64 bytes an edge (k = 3 needs none). A level runs in chunks of
   groups, all of its groups in one launch when they fit: the children of
   a chunk are extended, level by level, before the next chunk of the same
   level, and a launch that overflows its part of the arena (the free
   arena, or half of it for several groups whose children materialise
   levels of their own) runs again with half the groups. Counts are gathered per launch on the host and kept only for
   launches that finished, so the windows never change them. When one group
   alone does not fit, the whole count starts again (per-vertex counts
   zeroed) in an arena four times larger, within the budget; past the
   budget it is GCLQ_ERROR_OUT_OF_MEMORY. So any budget that holds the
   graph and one chain of single groups, one per level, gives the same
   counts. Per-vertex counts (one k) are added in the counting launches,
   which write nothing to the arena and never overflow. */

#define GCLQ__KG_WARPS 8                      /* warps per block */
#define GCLQ__KG_SLOT 384                     /* candidate words a warp keeps in shared memory */
#define GCLQ__KG_BLOOM_BITS 2048              /* the Bloom filter of a group's candidates */
#define GCLQ__KG_CHUNK 256                    /* the least candidate words a warp reserves */
#define GCLQ__KG_RCHUNK 32                    /* records a warp reserves at a time */
#define GCLQ__KG_MAX_WARPS 8192               /* warps of one level's launch (grid-stride) */
#define GCLQ__KG_ARENA_CAP ((size_t)4 << 30)  /* the arena's bytes while windows can shrink */
#define GCLQ__KG_FIRST_VERTEX (1ull << 63)    /* a parent reference that is a vertex id */

/* A materialised group: its candidates at arena word cand (len of them),
   its last prefix vertex w, its parent (an arena word offset of a record,
   or a vertex id | GCLQ__KG_FIRST_VERTEX). len 0: an empty slot. */
struct gclq__kg_rec {
  unsigned long long cand;
  unsigned long long parent;
  uint32_t len;
  uint32_t w;
};

#define GCLQ__KG_REC_WORDS ((uint64_t)(sizeof(gclq__kg_rec) / sizeof(uint32_t)))

/* Rows of the column-first layout of a list of len elements (32 columns). */
static __host__ __device__ __forceinline__ uint32_t gclq__kg_rows(uint32_t len) { return (len + 31) / 32; }

/* The shared-memory cell of element i in the column-first layout with rows
   rows: row i % rows, column i / rows, 32 words a row. */
static __host__ __device__ __forceinline__ uint32_t gclq__kg_cell(uint32_t i, uint32_t rows) {
  return (i % rows) * 32 + i / rows;
}

/* Whether y is in the list laid out column-first in s (len elements, the
   cells past them UINT32_MAX): a binary search of row 0 picks the column,
   then the column is read row by row. */
static __host__ __device__ __forceinline__ bool gclq__kg_lookup(const uint32_t *s, uint32_t len, uint32_t y) {
  if (len == 0 || s[0] > y) return false; /* first: an empty list has no rows to divide by */
  const uint32_t rows = gclq__kg_rows(len), cols = (len + rows - 1) / rows;
  uint32_t lo = 0, hi = cols - 1;
  while (lo < hi) { /* the last column whose head is <= y */
    const uint32_t mid = (lo + hi + 1) / 2;
    if (s[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const uint32_t v = s[r * 32 + lo];
    if (v == y) return true;
    if (v > y) return false;
  }
  return false;
}

/* The two bit positions of x in the group's Bloom filter. */
static __host__ __device__ __forceinline__ uint32_t gclq__kg_hash1(uint32_t x) { return (x * 0x9E3779B1u) >> 21; }
static __host__ __device__ __forceinline__ uint32_t gclq__kg_hash2(uint32_t x) {
  return ((x ^ (x >> 15)) * 0x85EBCA77u) >> 21;
}

/* Whether x may be in the set whose Bloom filter is bloom (false: it is not). */
static __host__ __device__ __forceinline__ bool gclq__kg_bloom_test(const uint32_t *bloom, uint32_t x) {
  const uint32_t h1 = gclq__kg_hash1(x), h2 = gclq__kg_hash2(x);
  return (bloom[h1 >> 5] >> (h1 & 31) & 1u) && (bloom[h2 >> 5] >> (h2 & 31) & 1u);
}

/* Whether y is in the ascending list a[0 .. len) (binary search). */
static __host__ __device__ __forceinline__ bool gclq__kg_bsearch(const uint32_t *a, uint64_t len, uint32_t y) {
  uint64_t lo = 0, hi = len;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < y) lo = mid + 1;
    else hi = mid;
  }
  return lo < len && a[lo] == y;
}

/* One level's extension: the groups, where their children go, what it counts. */
struct gclq__kg_level {
  uint32_t depth;             /* t: the prefix size of the groups extended */
  uint64_t g0, g1;            /* the groups [g0, g1): vertices (depth 1) or record slots */
  uint64_t recs;              /* deeper: the arena word offset of the groups' records */
  int materialize;            /* children are written (else only counted) */
  int counted;                /* |C & out(w)| is added to ctl[3] */
  uint32_t need;              /* the least candidates of a child worth a record */
  uint64_t out_recs, rec_cap; /* the children's records: arena word offset, slots */
  uint64_t cand_lo, cand_cap; /* the children's candidates: arena words [cand_lo, cand_lo + cand_cap) */
  unsigned long long *ctl;    /* [0] candidate words reserved, [1] record slots reserved, [2] overflow,
                                 [3] the count, [4] its wrap flag (an unsigned int) */
};

#define GCLQ__KG_CTL 5 /* control words of a launch */

/* The warp's state while it extends groups: its open chunks and its sum. */
struct gclq__kg_warp {
  uint64_t pos, end;   /* candidate words of the open chunk (arena offsets) */
  uint64_t rpos, rend; /* record slots of the open record chunk */
  unsigned long long acc;
  bool wrapped, dead;
};

/* Room for bound more candidate words in the warp's chunk: a new chunk
   (one atomic) when the open one is short. False (overflow flagged): the
   arena is full. Warp-uniform. */
static __device__ __forceinline__ bool gclq__kg_reserve(const gclq__kg_level &lv, gclq__kg_warp *ws,
                                                        uint64_t bound) {
  if (ws->end - ws->pos >= bound) return true;
  const uint64_t size = bound > GCLQ__KG_CHUNK ? bound : GCLQ__KG_CHUNK;
  unsigned long long base = 0;
  if ((threadIdx.x & 31) == 0) base = atomicAdd(&lv.ctl[0], (unsigned long long)size);
  base = __shfl_sync(GCLQ__FULL, base, 0);
  if (base + size > lv.cand_cap) {
    if ((threadIdx.x & 31) == 0) atomicOr(&lv.ctl[2], 1ull);
    ws->dead = true;
    return false;
  }
  ws->pos = lv.cand_lo + base;
  ws->end = ws->pos + size;
  return true;
}

/* Write the record of a child group (candidates at ws->pos, len of them);
   a new record chunk (one atomic) when the open one is used up. False
   (overflow flagged): the record region is full. Warp-uniform. */
static __device__ __forceinline__ bool gclq__kg_record(const gclq__kg_level &lv, gclq__kg_warp *ws, uint32_t *arena,
                                                       uint32_t len, uint32_t w, unsigned long long parent) {
  const uint32_t lane = threadIdx.x & 31;
  if (ws->rpos == ws->rend) {
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(&lv.ctl[1], (unsigned long long)GCLQ__KG_RCHUNK);
    base = __shfl_sync(GCLQ__FULL, base, 0);
    if (base + GCLQ__KG_RCHUNK > lv.rec_cap) {
      if (lane == 0) atomicOr(&lv.ctl[2], 1ull);
      ws->dead = true;
      return false;
    }
    ws->rpos = base;
    ws->rend = base + GCLQ__KG_RCHUNK;
  }
  if (lane == 0) {
    gclq__kg_rec *r = (gclq__kg_rec *)(arena + lv.out_recs) + ws->rpos;
    r->cand = ws->pos;
    r->parent = parent;
    r->len = len;
    r->w = w;
  }
  ws->rpos += 1;
  ws->pos += len;
  return true;
}

/* The per-warp shared memory: the group's candidates (column-first), its
   Bloom filter, the queue of survivors of the filter. */
struct gclq__kg_smem {
  uint32_t cand[GCLQ__KG_SLOT];
  uint32_t bloom[GCLQ__KG_BLOOM_BITS / 32];
  uint32_t queue[64];
};

/* Load the group's candidates C (len of them, global) into the warp's
   shared slot column-first (when they fit) and build their Bloom filter. */
static __device__ __forceinline__ void gclq__kg_load_group(gclq__kg_smem *sm, const uint32_t *C, uint32_t len) {
  const uint32_t lane = threadIdx.x & 31;
  __syncwarp();
  for (uint32_t i = lane; i < GCLQ__KG_BLOOM_BITS / 32; i += 32) sm->bloom[i] = 0;
  if (len <= GCLQ__KG_SLOT) {
    const uint32_t rows = gclq__kg_rows(len);
    for (uint32_t i = lane; i < rows * 32; i += 32) sm->cand[gclq__kg_cell(i, rows)] = i < len ? C[i] : UINT32_MAX;
  }
  __syncwarp();
  for (uint32_t i = lane; i < len; i += 32) {
    const uint32_t x = C[i], h1 = gclq__kg_hash1(x), h2 = gclq__kg_hash2(x);
    atomicOr(&sm->bloom[h1 >> 5], 1u << (h1 & 31));
    atomicOr(&sm->bloom[h2 >> 5], 1u << (h2 & 31));
  }
  __syncwarp();
}

/* Stage 3 on the first cnt queued survivors: each lane looks one up
   exactly in C; the hits are written to the arena at out + *found (when
   out), added per vertex (when pv), and counted in *found. Warp-uniform. */
static __device__ __forceinline__ void gclq__kg_search(const gclq__kg_smem *sm, const uint32_t *C, uint32_t len,
                                                       uint32_t cnt, uint32_t *out, unsigned long long *pv,
                                                       unsigned int *pvf, uint32_t *found) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t y = lane < cnt ? sm->queue[lane] : 0;
  bool hit = false;
  if (lane < cnt) hit = len <= GCLQ__KG_SLOT ? gclq__kg_lookup(sm->cand, len, y) : gclq__kg_bsearch(C, len, y);
  const uint32_t hits = __ballot_sync(GCLQ__FULL, hit);
  if (hit && out != NULL) out[*found + __popc(hits & ((1u << lane) - 1u))] = y;
  if (hit && pv != NULL) gclq__kc_d_add(&pv[y], &pvf[y], 1ull);
  *found += __popc(hits);
}

/* |C & out(w)| by the three stages (filter, collect, search); the
   elements written at out (when out) in ascending order, and added per
   vertex (when pv). Warp-uniform. */
static __device__ uint32_t gclq__kg_intersect(gclq__kg_smem *sm, const uint32_t *C, uint32_t len, const uint32_t *ow,
                                              uint32_t wd, uint32_t *out, unsigned long long *pv, unsigned int *pvf) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t lo = C[0], hi = C[len - 1];
  uint32_t found = 0, queued = 0;
  for (uint32_t e0 = 0; e0 < wd; e0 += 32) {
    const bool valid = e0 + lane < wd;
    const uint32_t x = valid ? ow[e0 + lane] : 0;
    const bool pass = valid && x >= lo && x <= hi && gclq__kg_bloom_test(sm->bloom, x); /* stage 1: filter */
    const uint32_t passed = __ballot_sync(GCLQ__FULL, pass);
    const bool beyond = __any_sync(GCLQ__FULL, valid && x > hi);
    if (pass) sm->queue[queued + __popc(passed & ((1u << lane) - 1u))] = x; /* stage 2: collect */
    queued += __popc(passed);
    __syncwarp();
    if (queued >= 32) { /* stage 3: search a full warp's worth */
      gclq__kg_search(sm, C, len, 32, out, pv, pvf, &found);
      __syncwarp();
      const uint32_t rest = lane + 32 < queued ? sm->queue[lane + 32] : 0;
      __syncwarp();
      if (lane + 32 < queued) sm->queue[lane] = rest;
      queued -= 32;
      __syncwarp();
    }
    if (beyond) break; /* out(w) is ascending: the rest is past C */
  }
  if (queued > 0) gclq__kg_search(sm, C, len, queued, out, pv, pvf, &found);
  __syncwarp();
  return found;
}

/* Add v to the per-vertex count of every vertex of the prefix that ends in
   the group referenced by ref (a record's arena offset, or a flagged vertex). */
static __device__ void gclq__kg_add_prefix(const uint32_t *arena, unsigned long long ref, unsigned long long *pv,
                                           unsigned int *pvf, unsigned long long v) {
  while ((ref & GCLQ__KG_FIRST_VERTEX) == 0) {
    const gclq__kg_rec *r = (const gclq__kg_rec *)(arena + ref);
    gclq__kc_d_add(&pv[r->w], &pvf[r->w], v);
    ref = r->parent;
  }
  const uint32_t first = (uint32_t)(ref & ~GCLQ__KG_FIRST_VERTEX);
  gclq__kc_d_add(&pv[first], &pvf[first], v);
}

/* Extend every member of one group (candidates C, len of them; ref names
   the group for its children's parent links and the per-vertex walk). */
static __device__ void gclq__kg_group(const gclq__kc_dev &d, const gclq__kg_level &lv, uint32_t *arena,
                                      gclq__kg_smem *sm, gclq__kg_warp *ws, const uint32_t *C, uint32_t len,
                                      unsigned long long ref) {
  const bool pvc = !lv.materialize && d.d_per_vertex != NULL;
  const uint32_t member_need = lv.counted ? 1 : lv.need; /* a counted member needs one later neighbour */
  unsigned long long group_sum = 0; /* at most len * len < 2^64 */
  gclq__kg_load_group(sm, C, len);
  for (uint32_t j = 0; j < len && !ws->dead; ++j) {
    const uint32_t w = C[j];
    const uint64_t wo = d.d_off[w], wdeg = d.d_off[w + 1] - wo;
    if (wdeg < member_need) continue;
    const uint32_t wd = (uint32_t)wdeg, bound = wd < len - 1 ? wd : len - 1;
    uint32_t *out = NULL;
    if (lv.materialize) {
      if (!gclq__kg_reserve(lv, ws, bound)) break;
      out = arena + ws->pos;
    }
    const uint32_t c = gclq__kg_intersect(sm, C, len, d.d_out + wo, wd, out, pvc ? d.d_per_vertex : NULL, d.d_pv_flags);
    if (lv.counted) {
      if (ws->acc + c < ws->acc) ws->wrapped = true;
      ws->acc += c;
    }
    if (pvc && c > 0) {
      group_sum += c;
      if ((threadIdx.x & 31) == 0) gclq__kc_d_add(&d.d_per_vertex[w], &d.d_pv_flags[w], c);
    }
    if (lv.materialize && c >= lv.need) gclq__kg_record(lv, ws, arena, c, w, ref);
  }
  if (pvc && group_sum > 0 && (threadIdx.x & 31) == 0) gclq__kg_add_prefix(arena, ref, d.d_per_vertex, d.d_pv_flags, group_sum);
}

/* One level: a warp per group (grid-stride), each member extended against
   the group's candidates; the children materialised through the warp
   memory pool or counted. */
static __global__ void __launch_bounds__(32 * GCLQ__KG_WARPS)
    gclq__kg_extend_kernel(gclq__kc_dev d, gclq__kg_level lv, uint32_t *arena) {
  __shared__ gclq__kg_smem smem[GCLQ__KG_WARPS];
  gclq__kg_smem *sm = &smem[threadIdx.x / 32];
  const uint32_t lane = threadIdx.x & 31;
  const uint64_t nwarps = (uint64_t)gridDim.x * GCLQ__KG_WARPS;
  gclq__kg_warp ws;
  ws.pos = ws.end = ws.rpos = ws.rend = 0;
  ws.acc = 0;
  ws.wrapped = ws.dead = false;
  for (uint64_t g = lv.g0 + (uint64_t)blockIdx.x * GCLQ__KG_WARPS + threadIdx.x / 32; g < lv.g1 && !ws.dead;
       g += nwarps) {
    unsigned long long stop = 0;
    if (lane == 0) stop = *(volatile unsigned long long *)&lv.ctl[2];
    if (__shfl_sync(GCLQ__FULL, stop, 0) != 0) break; /* another warp overflowed: the launch runs again */
    const uint32_t *C;
    uint32_t len;
    unsigned long long ref;
    if (lv.depth == 1) {
      const uint32_t v = (uint32_t)g;
      C = d.d_out + d.d_off[v];
      len = (uint32_t)(d.d_off[v + 1] - d.d_off[v]);
      ref = (unsigned long long)v | GCLQ__KG_FIRST_VERTEX;
    } else {
      const gclq__kg_rec *r = (const gclq__kg_rec *)(arena + lv.recs) + g;
      C = arena + r->cand;
      len = r->len;
      ref = lv.recs + g * GCLQ__KG_REC_WORDS;
    }
    if (len < 2) continue; /* C & out(w) lies in C minus w */
    gclq__kg_group(d, lv, arena, sm, &ws, C, len, ref);
  }
  if (lv.materialize && !ws.dead && lane == 0) /* the open record chunk's tail: empty slots */
    for (uint64_t s = ws.rpos; s < ws.rend; ++s) ((gclq__kg_rec *)(arena + lv.out_recs))[s].len = 0;
  if (lv.counted && lane == 0) {
    unsigned int *flag = (unsigned int *)&lv.ctl[4];
    gclq__kc_d_add(&lv.ctl[3], flag, ws.acc);
    if (ws.wrapped) atomicOr(flag, 1u);
  }
}
