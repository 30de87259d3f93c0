/* gpuclique_kernels.cuh - device code of the graph half (graphs, cores,
   maximum cliques, k-clique counts, set intersection). Included by
   gpuclique.h's implementation only, when it is compiled by nvcc, after
   gpuprim.cuh and the private plan types (gclq__mc_plan).

   Maximum cliques (paper 000 ch. 2), the CUDA backend:
     upload      CSR to the device, degrees
     cores       k-core numbers by parallel peeling (Alg. 1)
     heuristic   greedy lower bound, single run (select) or multi-run
                 (segmented argmax, select, sorted search) (Alg. 2)
     setup       the oriented, pre-pruned 2-clique list, candidates sorted by
                 degree inside each sublist (Alg. 3)
     search      breadth-first over the clique list, one level per clique
                 size: count / scan / write (Alg. 4), in windows, inside the
                 device memory budget (a range whose next level does not fit
                 is split, recursively; the result never depends on it)
     readout     every clique of the last level, by following sublistIDs back
   Everything the search allocates goes through gclq__mc_alloc, which keeps
   the bytes held under the budget; kernels are static so that several
   translation units may each compile the implementation. */
#ifndef GPUCLIQUE_KERNELS_CUH
#define GPUCLIQUE_KERNELS_CUH

#include <chrono>

/* defined later in gpuclique.h's implementation */
static inline gclq_status gclq__device_alloc(const gclq_device_allocator *a, void **d_ptr, size_t bytes,
                                             gclq_stream stream);
static inline void gclq__device_free(const gclq_device_allocator *a, void *d_ptr, gclq_stream stream);

#define GCLQ__BLOCK 256

/* ---------------------------------------------------------------------------
   device helpers
   ------------------------------------------------------------------------- */

/* Is u in the (ascending) adjacency list of v? Binary search in the CSR. */
static __device__ __forceinline__ bool gclq__d_adjacent(const uint64_t *off, const uint32_t *nbr, uint32_t v,
                                                        uint32_t u) {
  uint64_t lo = off[v], hi = off[v + 1], end = hi;
  while (lo < hi) {
    uint64_t mid = (lo + hi) >> 1;
    if (__ldg(nbr + mid) < u) lo = mid + 1;
    else hi = mid;
  }
  return lo < end && __ldg(nbr + lo) == u;
}

static __global__ void gclq__iota_kernel(uint32_t *out, uint64_t n) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (uint32_t)i;
}

static __global__ void gclq__fill_kernel(uint32_t *out, uint64_t n, uint32_t value) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

static __global__ void gclq__degree_kernel(const uint64_t *off, uint32_t n, uint32_t *deg) {
  uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) deg[v] = (uint32_t)(off[v + 1] - off[v]);
}

/* ---------------------------------------------------------------------------
   k-core decomposition (000 Alg. 1): parallel peeling. With k the current
   level, every vertex still present whose degree is at most k leaves with
   core number k (filter); the neighbours it leaves behind lose one degree
   each (advance); repeat until no vertex leaves, then k jumps to the
   smallest degree left.
   ------------------------------------------------------------------------- */

/* Alg. 1 filter: info[0] counts the leaving vertices (listed in frontier),
   info[1] takes the smallest degree of those that stay. */
static __global__ void gclq__core_filter_kernel(uint32_t n, uint32_t k, const uint32_t *deg, uint32_t *core,
                                                uint8_t *gone, uint32_t *frontier, uint32_t *info, uint32_t *round,
                                                uint32_t r) {
  uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || gone[v]) return;
  uint32_t d = deg[v];
  if (d <= k) {
    gone[v] = 1;
    core[v] = k;
    if (round != NULL) round[v] = r; /* the peeling round: (round, id) is a degeneracy order */
    frontier[atomicAdd(&info[0], 1u)] = (uint32_t)v;
  } else {
    atomicMin(&info[1], d);
  }
}

/* Alg. 1 advance: a warp per leaving vertex walks its list; every neighbour
   still present loses one degree. */
static __global__ void gclq__core_advance_kernel(const uint32_t *frontier, uint32_t nf, const uint64_t *off,
                                                 const uint32_t *nbr, uint32_t *deg, const uint8_t *gone) {
  uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (w >= nf) return;
  uint32_t v = frontier[w];
  for (uint64_t e = off[v] + lane; e < off[v + 1]; e += 32) {
    uint32_t u = nbr[e];
    if (!gone[u]) atomicSub(&deg[u], 1u);
  }
}

/* ---------------------------------------------------------------------------
   heuristic helpers (000 sec. 2.4.3, Alg. 2)
   ------------------------------------------------------------------------- */

/* select predicate: is x a neighbour of v? */
struct gclq__adjacent_to {
  const uint64_t *off;
  const uint32_t *nbr;
  uint32_t v;
  __device__ bool operator()(uint32_t x) const { return gclq__d_adjacent(off, nbr, v, x); }
};

/* out = {number selected, the first of them (0 when none)}: one read per step */
static __global__ void gclq__peek_kernel(const size_t *num, const uint32_t *list, uint64_t *out) {
  out[0] = *num;
  out[1] = *num ? list[0] : 0;
}

/* Multi-run: segment s holds the candidates of run s; cnt[s] = deg(seed s). */
static __global__ void gclq__seed_degree_kernel(const uint32_t *seeds, uint32_t h, const uint32_t *deg,
                                                uint64_t *cnt) {
  uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < h) cnt[s] = deg[seeds[s]];
  if (s == h) cnt[h] = 0;
}

/* Multi-run setup: item j of segment parent[j] is the rank[j]-th neighbour of its seed. */
static __global__ void gclq__seed_fill_kernel(const uint64_t *parent, const uint64_t *rank, uint64_t total,
                                              const uint32_t *seeds, const uint64_t *off, const uint32_t *nbr,
                                              const uint32_t *key, uint32_t *cv, uint32_t *ck, uint32_t *cs) {
  uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= total) return;
  uint32_t s = (uint32_t)parent[j], v = nbr[off[seeds[s]] + rank[j]];
  cv[j] = v;
  ck[j] = key[v];
  cs[j] = s;
}

/* Multi-run step: each non-empty run takes its candidate of highest key. */
static __global__ void gclq__pick_kernel(const uint64_t *idx, uint32_t h, const uint32_t *cv, uint32_t *pick,
                                         uint32_t *size) {
  uint64_t s = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= h) return;
  uint64_t i = idx[s];
  if (i == ~(uint64_t)0) {
    pick[s] = 0xffffffffu;
  } else {
    pick[s] = cv[i];
    size[s] += 1;
  }
}

/* Multi-run step: a candidate stays when it is a neighbour of its run's pick. */
static __global__ void gclq__keep_kernel(const uint32_t *cv, const uint32_t *cs, uint64_t total, const uint32_t *pick,
                                         const uint64_t *off, const uint32_t *nbr, uint8_t *flag) {
  uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= total) return;
  uint32_t p = pick[cs[j]], v = cv[j];
  flag[j] = (uint8_t)(v != p && gclq__d_adjacent(off, nbr, p, v));
}

/* ---------------------------------------------------------------------------
   colour bound, a warp per candidate list (gclq__host_bfs_simulate is the
   serial twin: the same lists, colours and order, so its figures predict the
   device's). The children of a parent (its later siblings adjacent to it, or
   a source's kept out-neighbours) are gathered into shared memory in list
   order; with at most GCLQ__COLOUR_CAP of them, their adjacency matrix is
   built (one bit per pair) and coloured greedily class by class in list
   order; colour classes are independent sets, so k + colours bounds every
   clique through the parent. Children are written highest colour first (the
   colouring order reversed), so each child's own candidates lie in lower
   classes (Tomita's MCQ order).
   ------------------------------------------------------------------------- */
#define GCLQ__CWARPS 4 /* warps per block in the list kernels */
#define GCLQ__CWORDS (GCLQ__COLOUR_CAP / 32)
struct gclq__colour_smem {
  uint32_t list[GCLQ__COLOUR_CAP];
  uint32_t seq[GCLQ__COLOUR_CAP];
  uint32_t adj[GCLQ__COLOUR_CAP][GCLQ__CWORDS];
};

/* Greedy colouring of sm->list[0 .. c), c <= GCLQ__COLOUR_CAP, by the warp.
   sm->seq gets the list positions in colouring order; *low = how many of
   them are in classes below need. Returns the colours. */
static __device__ uint32_t gclq__d_warp_colour(gclq__colour_smem *sm, uint32_t c, uint32_t need, uint32_t *low,
                                               const uint64_t *off, const uint32_t *nbr) {
  const uint32_t lane = threadIdx.x & 31, words = (c + 31) / 32;
  for (uint32_t i = lane; i < c * GCLQ__CWORDS; i += 32) sm->adj[i / GCLQ__CWORDS][i % GCLQ__CWORDS] = 0;
  __syncwarp();
  /* adjacency: row x, words from x's own; lanes take y = 32 w + lane > x */
  for (uint32_t x = 0; x < c; ++x) {
    uint32_t vx = sm->list[x];
    for (uint32_t w = (x + 1) / 32; w < words; ++w) {
      uint32_t y = 32 * w + lane;
      bool a = y > x && y < c && gclq__d_adjacent(off, nbr, vx, sm->list[y]);
      uint32_t bits = __ballot_sync(0xffffffffu, a);
      if (lane == 0) sm->adj[x][w] |= bits;
      if (a) sm->adj[y][x / 32] |= 1u << (x % 32); /* row y: one lane each, no conflict */
      __syncwarp();
    }
  }
  /* class by class: lane w holds word w of the uncoloured and open sets */
  uint32_t uncol = lane < words ? (lane + 1 < words || c % 32 == 0 ? 0xffffffffu : (1u << (c % 32)) - 1u) : 0u;
  uint32_t colours = 0, n = 0;
  *low = 0;
  while (n < c) {
    uint32_t open = uncol;
    if (++colours == need) *low = n;
    for (;;) {
      uint32_t any = __ballot_sync(0xffffffffu, open != 0);
      if (any == 0) break;
      uint32_t fl = __ffs(any) - 1, word = __shfl_sync(0xffffffffu, open, fl);
      uint32_t v = 32 * fl + __ffs(word) - 1;
      if (lane < words) open &= ~sm->adj[v][lane];
      if (lane == fl) {
        open &= ~(1u << (v % 32));
        uncol &= ~(1u << (v % 32));
      }
      if (lane == 0) sm->seq[n] = v;
      ++n;
    }
  }
  if (colours < need) *low = c; /* every class is below need */
  __syncwarp();
  return colours;
}

/* The children of a parent of size k: cand[j] (0 <= j < nc) adjacent to v
   (v == ~0: all, with keep[] deciding; used by the setup). cand may carry
   GCLQ__DEAD bits (a sibling list). Returns their number c, or 0 when the
   parent is pruned; when c <= GCLQ__COLOUR_CAP they are in sm->list in output
   order. *live: how many of them (a prefix) may be expanded: the rest start
   no clique of the target's size (their colour class is too low) and are
   written with GCLQ__DEAD. Warp-uniform. */
struct gclq__list_src {
  const uint32_t *cand; /* the list, or a CSR row (setup) */
  uint64_t nc;
  uint32_t v;           /* the parent's vertex, ~0 in the setup */
};
template <typename Keep>
static __device__ uint32_t gclq__d_children(gclq__colour_smem *sm, const gclq__list_src &s, uint32_t k,
                                            uint32_t target, int colour, const uint64_t *off, const uint32_t *nbr,
                                            Keep keep, uint32_t *live) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t c = 0;
  *live = 0;
  for (uint64_t j0 = 0; j0 < s.nc; j0 += 32) {
    if ((uint64_t)k + c + (s.nc - j0) < target) return 0; /* cannot reach the target any more */
    uint64_t j = j0 + lane;
    uint32_t u = j < s.nc ? __ldg(s.cand + j) & ~GCLQ__DEAD : 0;
    bool a = j < s.nc && keep(u) && (s.v == 0xffffffffu || gclq__d_adjacent(off, nbr, s.v, u));
    uint32_t ballot = __ballot_sync(0xffffffffu, a);
    uint32_t at = c + __popc(ballot & ((1u << lane) - 1u));
    if (a && at < GCLQ__COLOUR_CAP) sm->list[at] = u;
    c += __popc(ballot);
  }
  __syncwarp();
  if ((uint64_t)k + c < target) return 0;
  *live = c;
  if (colour && c <= GCLQ__COLOUR_CAP && c > 0) {
    uint32_t low, colours = gclq__d_warp_colour(sm, c, target > k ? target - k : 0, &low, off, nbr);
    if ((uint64_t)k + colours < target) {
      *live = 0;
      return 0;
    }
    *live = c - low;
    /* highest colour first: list[i] = old list[seq[c - 1 - i]] (via adj's storage, now free) */
    uint32_t *tmp = &sm->adj[0][0];
    for (uint32_t i = lane; i < c; i += 32) tmp[i] = sm->list[sm->seq[c - 1 - i]];
    __syncwarp();
    for (uint32_t i = lane; i < c; i += 32) sm->list[i] = tmp[i];
    __syncwarp();
  }
  return c;
}

struct gclq__keep_all {
  __device__ bool operator()(uint32_t) const { return true; }
};

/* ---------------------------------------------------------------------------
   2-clique setup (000 Alg. 3), a warp per source vertex
   ------------------------------------------------------------------------- */
struct gclq__setup_args {
  const uint32_t *order;  /* source vertices in window order */
  uint32_t n;
  const uint64_t *off;
  const uint32_t *nbr;
  const uint32_t *deg;
  const uint32_t *filter; /* degree or core number: pre-pruning */
  uint32_t target;        /* cliques searched have at least this size */
  int orient_index;
  int colour;             /* the colour bound (else the length bound) */
};

/* Does the edge v -> u belong to v (orientation), and can u be in a clique of size target? */
static __device__ __forceinline__ bool gclq__d_keep_edge(const gclq__setup_args &a, uint32_t v, uint32_t u) {
  bool owned = a.orient_index ? v < u
                              : (a.deg[v] < a.deg[u] || (a.deg[v] == a.deg[u] && v < u));
  return owned && (uint64_t)a.filter[u] + 1 >= a.target;
}

struct gclq__keep_edge_of {
  const gclq__setup_args *a;
  uint32_t v;
  __device__ bool operator()(uint32_t u) const { return gclq__d_keep_edge(*a, v, u); }
};

/* Alg. 3 COUNTTWOCLIQUES, a warp per source: cnt[p] = kept out-neighbours of
   order[p], 0 when the source is pre-pruned or its list is bounded out
   (1 + count, or 1 + colours, below the target). */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__two_count_kernel(gclq__setup_args a, uint64_t *cnt) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (p > a.n) return;
  if (p == a.n) {
    if (lane == 0) cnt[a.n] = 0;
    return;
  }
  uint32_t v = a.order[p], c = 0;
  if ((uint64_t)a.filter[v] + 1 >= a.target) {
    gclq__list_src s = {a.nbr + a.off[v], a.off[v + 1] - a.off[v], 0xffffffffu};
    gclq__keep_edge_of keep = {&a, v};
    uint32_t live;
    c = gclq__d_children(&smem[threadIdx.x / 32], s, 1, a.target, a.colour, a.off, a.nbr, keep, &live);
  }
  if (lane == 0) cnt[p] = c;
}

/* Alg. 3 OUTPUTTWOCLIQUES: the kept out-neighbours of order[p] as sort keys
   (rank << 32 | vertex) and source ids; the rank is the colour order for a
   coloured list, the degree otherwise (000 Alg. 3: by degree), so the
   segmented sort that follows puts every sublist in its order. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__two_write_kernel(gclq__setup_args a, const uint64_t *pos,
                                                                               uint64_t *key, uint32_t *sid) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  gclq__colour_smem *sm = &smem[threadIdx.x / 32];
  uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (p >= a.n) return;
  uint64_t at = pos[p];
  if (pos[p + 1] == at) return;
  uint32_t v = a.order[p];
  gclq__list_src s = {a.nbr + a.off[v], a.off[v + 1] - a.off[v], 0xffffffffu};
  gclq__keep_edge_of keep = {&a, v};
  uint32_t c = (uint32_t)(pos[p + 1] - at);
  if (a.colour && c <= GCLQ__COLOUR_CAP) {
    uint32_t live;
    gclq__d_children(sm, s, 1, a.target, 1, a.off, a.nbr, keep, &live); /* the same list again, in colour order */
    for (uint32_t i = lane; i < c; i += 32) {
      key[at + i] = (uint64_t)i << 32 | sm->list[i] | (i < live ? 0u : GCLQ__DEAD);
      sid[at + i] = v;
    }
    return;
  }
  for (uint64_t e0 = a.off[v]; e0 < a.off[v + 1]; e0 += 32) {
    uint64_t e = e0 + lane;
    uint32_t u = e < a.off[v + 1] ? a.nbr[e] : 0;
    bool kept = e < a.off[v + 1] && gclq__d_keep_edge(a, v, u);
    uint32_t ballot = __ballot_sync(0xffffffffu, kept);
    if (kept) {
      uint64_t q = at + __popc(ballot & ((1u << lane) - 1u));
      key[q] = (uint64_t)a.deg[u] << 32 | u;
      sid[q] = v;
    }
    at += __popc(ballot);
  }
}

static __global__ void gclq__low_word_kernel(const uint64_t *key, uint64_t n, uint32_t *out) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (uint32_t)key[i];
}

/* ---------------------------------------------------------------------------
   breadth-first expansion (000 Alg. 4): level k holds k-cliques as
   (vertexID, sublistID); entries with the same sublistID form the candidate
   list of their parent. Entry i extends by every later entry j of its sublist
   whose vertex is adjacent to vertexID[i]; the children form a new sublist of
   level k + 1 with sublistID i. A child list so short that k + count < target
   is dropped (pruning by sublist length).
   ------------------------------------------------------------------------- */
struct gclq__level_args {
  const uint32_t *vid, *sid;
  uint64_t len;     /* entries of the level (sublists may run past the range) */
  uint64_t a, n;    /* the range of parents [a, a + n) */
  uint32_t k;       /* clique size of the level */
  uint32_t target;  /* only cliques of at least this size are wanted */
  int colour;       /* the colour bound (else the length bound) */
  const uint64_t *off;
  const uint32_t *nbr;
};

/* The candidate list of entry i: its later siblings (a warp finds the end). */
static __device__ gclq__list_src gclq__d_siblings(const gclq__level_args &a, uint64_t i) {
  const uint32_t lane = threadIdx.x & 31, s = a.sid[i];
  uint64_t e = i + 1;
  for (;;) {
    uint64_t j = e + lane;
    uint32_t out = __ballot_sync(0xffffffffu, j >= a.len || a.sid[j] != s);
    if (out) {
      e += __ffs(out) - 1;
      break;
    }
    e += 32;
  }
  gclq__list_src r = {a.vid + i + 1, e - i - 1, a.vid[i]};
  return r;
}

/* Alg. 4 COUNTCLIQUES with the bound, a warp per parent; cnt[n] = 0 so that
   an exclusive scan of n + 1 counts ends in the total. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__level_count_kernel(gclq__level_args a, uint64_t *cnt) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (t > a.n) return;
  if (t == a.n || (a.vid[a.a + t] & GCLQ__DEAD)) { /* the end, or a candidate-only entry */
    if (lane == 0) cnt[t] = 0;
    return;
  }
  gclq__list_src s = gclq__d_siblings(a, a.a + t);
  uint32_t live, c = gclq__d_children(&smem[threadIdx.x / 32], s, a.k, a.target, a.colour, a.off, a.nbr,
                                      gclq__keep_all(), &live);
  if (lane == 0) cnt[t] = c;
}

/* Alg. 4 OUTPUTNEWCLIQUES: parents with a non-empty child list write it at
   pos[t] - pos[0] (pos may be a suffix of a step's scanned counts), in the
   count kernel's order. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__level_write_kernel(gclq__level_args a, const uint64_t *pos,
                                                                                 uint32_t *vid_out, uint32_t *sid_out) {
  __shared__ gclq__colour_smem smem[GCLQ__CWARPS];
  gclq__colour_smem *sm = &smem[threadIdx.x / 32];
  uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (t >= a.n) return;
  uint64_t at = pos[t] - pos[0], end = pos[t + 1] - pos[0];
  if (at == end) return;
  uint64_t i = a.a + t;
  uint32_t c = (uint32_t)(end - at);
  gclq__list_src s = gclq__d_siblings(a, i);
  if (c <= GCLQ__COLOUR_CAP) {
    uint32_t live;
    gclq__d_children(sm, s, a.k, a.target, a.colour, a.off, a.nbr, gclq__keep_all(), &live);
    for (uint32_t q = lane; q < c; q += 32) {
      vid_out[at + q] = sm->list[q] | (q < live ? 0u : GCLQ__DEAD);
      sid_out[at + q] = (uint32_t)i;
    }
    return;
  }
  for (uint64_t j0 = 0; j0 < s.nc; j0 += 32) { /* a long list: list order, ballot compaction, all live */
    uint64_t j = j0 + lane;
    uint32_t u = j < s.nc ? s.cand[j] & ~GCLQ__DEAD : 0;
    bool keep = j < s.nc && gclq__d_adjacent(a.off, a.nbr, s.v, u);
    uint32_t ballot = __ballot_sync(0xffffffffu, keep);
    if (keep) {
      uint64_t q = at + __popc(ballot & ((1u << lane) - 1u));
      vid_out[q] = u;
      sid_out[q] = (uint32_t)i;
    }
    at += __popc(ballot);
  }
}

/* One step's size (one read): out[0] = pos[n], the children of all n parents;
   out[1] = m, the most parents from the first whose children fit in cap
   (pos[m] <= cap; at least 1 when n > 0); out[2] = pos[m]. One thread. */
static __global__ void gclq__step_kernel(const uint64_t *pos, uint64_t n, uint64_t cap, uint64_t *out) {
  uint64_t lo = 0, hi = n; /* pos[lo] <= cap */
  while (lo < hi) {
    uint64_t mid = (lo + hi + 1) >> 1;
    if (pos[mid] <= cap) lo = mid;
    else hi = mid - 1;
  }
  if (lo == 0 && n > 0) lo = 1;
  out[0] = pos[n];
  out[1] = lo;
  out[2] = pos[lo];
}

struct gclq__level_ptrs {
  const uint32_t *vid, *sid;
};

/* Readout (000 sec. 2.4.4): clique of entry a + t of level k, by following
   sublistIDs back to the 2-clique list, whose sublistID is the source. */
static __global__ void gclq__readout_kernel(const gclq__level_ptrs *lv, uint32_t k, uint64_t a, uint64_t n,
                                            uint32_t *out) {
  uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  uint32_t *row = out + t * k;
  uint64_t p = a + t;
  for (uint32_t lev = k; lev > 2; --lev) {
    row[lev - 1] = lv[lev].vid[p] & ~GCLQ__DEAD;
    p = lv[lev].sid[p];
  }
  row[1] = lv[2].vid[p] & ~GCLQ__DEAD;
  row[0] = lv[2].sid[p];
}

/* ---------------------------------------------------------------------------
   Per-seed bitset branch and bound (GCLQ_SEARCH_SEEDS). The algorithm and its
   serial twin: gclq__host_seed_search in gpuclique.h (read that comment
   first). Here: a warp per vertex lists P(v) (count, scan, write); the seeds
   are sorted by |P| descending; a warp per seed builds the local bit matrix
   (32-bit words, lane i owns words i, i + 32, ...), drops members of low
   local degree and colours the seed node, writing one task per vertex of its
   branch set; then persistent warps take tasks by an atomic ticket and run
   the depth-first search with a (P, B) bitset stack in a per-warp slab of
   global memory, sharing the best size through atomicMax. WPL = words per
   lane (local graphs of up to 32 * 32 * WPL vertices).
   ------------------------------------------------------------------------- */
#define GCLQ__SEED_MAX 4096u /* the largest local graph (|P|) of the seed kernels */
#define GCLQ__FULL 0xffffffffu

struct gclq__seed_args {
  const uint64_t *off;
  const uint32_t *nbr, *core, *round;
  uint32_t n, target0; /* target0: the smallest clique size of interest at the start */
  uint32_t *cnt;       /* per vertex: |P(v)| (0: not a seed) */
  uint64_t *poff;      /* per vertex: where P(v) starts in plist (n + 1, scanned) */
  uint32_t *plist;
  unsigned long long *counters; /* [0] nodes [1] seeds kept [2] tasks [3] largest |P| kept [4] errors [5] seeds */
  const uint32_t *seeds, *seed_k; /* sorted by |P| descending */
  uint32_t s0, s1;                /* this batch of seeds */
  uint32_t *arena;                /* per seed: k rows of W words, alive (W), branch set (W) */
  const uint64_t *aoff, *toff;    /* per seed (absolute); abase, tbase: the batch's first */
  uint64_t abase, tbase;
  uint64_t *tasks;                /* per seed k slots: (seed << 32 | b), or ~0 */
  uint32_t *best;
  int one;
  uint32_t *rec; /* records [size, ids...] */
  unsigned long long rec_cap, *rec_used;
  uint32_t *slab; /* per warp: R (depth_cap), then the stack (depth_cap x 2W) */
  uint64_t slab_words;
  uint32_t depth_cap;
  unsigned long long *ticket;
  uint64_t t0, t1; /* task slots [t0, t1) of this launch (absolute) */
};

static __device__ __forceinline__ bool gclq__d_later(const uint32_t *round, uint32_t u, uint32_t v) {
  uint32_t ru = round[u], rv = round[v];
  return ru > rv || (ru == rv && u > v);
}

/* Warp per vertex: |P(v)| (later neighbours of core >= target0 - 1), 0 when
   |P| + 1 < target0. */
static __global__ void gclq__seed_count_kernel(gclq__seed_args a) {
  uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31, k = 0;
  if (w >= a.n) return; /* whole warps */
  uint32_t v = (uint32_t)w;
  if (a.core[v] + 1 >= a.target0) {
    uint64_t end = a.off[v + 1];
    for (uint64_t base = a.off[v]; base < end; base += 32) {
      uint64_t e = base + lane;
      bool keep = false;
      if (e < end) {
        uint32_t u = a.nbr[e];
        keep = gclq__d_later(a.round, u, v) && a.core[u] + 1 >= a.target0;
      }
      k += __popc(__ballot_sync(GCLQ__FULL, keep));
    }
  }
  if (k + 1 < a.target0) k = 0;
  if (lane == 0) {
    a.cnt[v] = k;
    a.poff[v] = k;
    if (k > 0) atomicAdd(&a.counters[5], 1ull);
  }
}

/* Warp per vertex: P(v) into plist at poff[v], in id order. */
static __global__ void gclq__seed_list_kernel(gclq__seed_args a) {
  uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t lane = threadIdx.x & 31;
  if (w >= a.n) return;
  uint32_t v = (uint32_t)w;
  if (a.cnt[v] == 0) return;
  uint64_t end = a.off[v + 1], out = a.poff[v];
  for (uint64_t base = a.off[v]; base < end; base += 32) {
    uint64_t e = base + lane;
    uint32_t u = 0;
    bool keep = false;
    if (e < end) {
      u = a.nbr[e];
      keep = gclq__d_later(a.round, u, v) && a.core[u] + 1 >= a.target0;
    }
    uint32_t m = __ballot_sync(GCLQ__FULL, keep);
    if (keep) a.plist[out + __popc(m & ((1u << lane) - 1u))] = u;
    out += __popc(m);
  }
}

/* ---- warp-wide bitset helpers: word w = lane + 32 t lives in x[t] ---- */
template <int WPL>
static __device__ __forceinline__ void gclq__d_load(uint32_t (&x)[WPL], const uint32_t *s, uint32_t W) {
  uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int t = 0; t < WPL; ++t) {
    uint32_t w = lane + 32u * t;
    x[t] = w < W ? s[w] : 0u;
  }
}
template <int WPL>
static __device__ __forceinline__ void gclq__d_store(const uint32_t (&x)[WPL], uint32_t *s, uint32_t W) {
  uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int t = 0; t < WPL; ++t) {
    uint32_t w = lane + 32u * t;
    if (w < W) s[w] = x[t];
  }
}
template <int WPL>
static __device__ __forceinline__ uint32_t gclq__d_count(const uint32_t (&x)[WPL]) {
  uint32_t c = 0;
#pragma unroll
  for (int t = 0; t < WPL; ++t) c += __popc(x[t]);
  return __reduce_add_sync(GCLQ__FULL, c);
}
/* the highest set bit, or ~0 when x is empty */
template <int WPL>
static __device__ __forceinline__ uint32_t gclq__d_highest(const uint32_t (&x)[WPL]) {
  uint32_t lane = threadIdx.x & 31, mine = 0;
#pragma unroll
  for (int t = WPL - 1; t >= 0; --t)
    if (mine == 0 && x[t] != 0) mine = (lane + 32u * t) * 32u + 31u - __clz(x[t]) + 1u;
  return __reduce_max_sync(GCLQ__FULL, mine) - 1u;
}
/* clear bit i (every lane calls; the owner clears) */
template <int WPL>
static __device__ __forceinline__ void gclq__d_clear(uint32_t (&x)[WPL], uint32_t i) {
  uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int t = 0; t < WPL; ++t)
    if (lane + 32u * t == (i >> 5)) x[t] &= ~(1u << (i & 31));
}

/* The branch set of P (see gclq__host_branch_set): colour need - 1 classes
   greedily (lowest index first within a class); B = the rest. */
template <int WPL>
static __device__ void gclq__d_branch_set(const uint32_t *rows, uint32_t W, const uint32_t (&p)[WPL], int need,
                                          uint32_t (&u)[WPL]) {
  uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int t = 0; t < WPL; ++t) u[t] = p[t];
  for (int cls = 1; cls < need; ++cls) {
    uint32_t q[WPL], any = 0;
#pragma unroll
    for (int t = 0; t < WPL; ++t) q[t] = u[t], any |= u[t];
    if (!__any_sync(GCLQ__FULL, any != 0)) return;
    for (;;) {
      uint32_t mine = GCLQ__FULL;
#pragma unroll
      for (int t = WPL - 1; t >= 0; --t) /* the lane's lowest word is its smallest t */
        if (q[t] != 0) mine = (lane + 32u * t) * 32u + (uint32_t)(__ffs(q[t]) - 1);
      uint32_t v = __reduce_min_sync(GCLQ__FULL, mine);
      if (v == GCLQ__FULL) break;
      const uint32_t *row = rows + (size_t)v * W;
#pragma unroll
      for (int t = 0; t < WPL; ++t) {
        uint32_t w = lane + 32u * t;
        if (w < W) {
          uint32_t r = row[w]; /* not __ldg: the prep kernel reads rows it wrote */
          if (w == (v >> 5)) {
            r |= 1u << (v & 31);
            u[t] &= ~(1u << (v & 31));
          }
          q[t] &= ~r;
        }
      }
    }
  }
}

/* R (size ids, global) is a leaf: record it as [size, ids] when it ties or
   beats the best (ALL) / beats it (ONE); best rises to size. */
static __device__ void gclq__d_record(const gclq__seed_args &a, const uint32_t *R, uint32_t size) {
  uint32_t lane = threadIdx.x & 31, ok = 0;
  unsigned long long pos = 0;
  if (lane == 0) {
    if (a.one) {
      ok = atomicMax(a.best, size) < size;
    } else if (size >= *(volatile uint32_t *)a.best) {
      atomicMax(a.best, size);
      ok = 1;
    }
    if (ok) pos = atomicAdd(a.rec_used, (unsigned long long)size + 1);
  }
  ok = __shfl_sync(GCLQ__FULL, ok, 0);
  pos = __shfl_sync(GCLQ__FULL, pos, 0);
  if (!ok || pos + size + 1 > a.rec_cap) return; /* overflow: the host sees rec_used > rec_cap */
  if (lane == 0) a.rec[pos] = size;
  for (uint32_t i = lane; i < size; i += 32) a.rec[pos + 1 + i] = R[i];
}

/* The smallest clique size still of interest, read once by lane 0 and
   broadcast: every lane must take the same branches (full-mask shuffles). */
static __device__ __forceinline__ int gclq__d_target(const gclq__seed_args &a) {
  uint32_t b = 0;
  if ((threadIdx.x & 31) == 0) b = *(volatile uint32_t *)a.best;
  return (int)__shfl_sync(GCLQ__FULL, b, 0) + a.one;
}

/* Warp per seed of [s0, s1): the local bit matrix, the low-degree prune, the
   seed node's branch set and its tasks. */
static __global__ void __launch_bounds__(128) gclq__seed_prep_kernel(gclq__seed_args a) {
  const int WPL = (int)(GCLQ__SEED_MAX / 1024);
  uint32_t lane = threadIdx.x & 31;
  uint64_t nw = ((uint64_t)gridDim.x * blockDim.x) / 32;
  for (uint64_t s = a.s0 + ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; s < a.s1; s += nw) {
    uint32_t v = a.seeds[s], k = a.seed_k[s], W = (k + 31) / 32;
    uint32_t *rows = a.arena + (a.aoff[s] - a.abase), *alive = rows + (size_t)k * W, *bset = alive + W;
    uint64_t *tk = a.tasks + (a.toff[s] - a.tbase);
    const uint32_t *L = a.plist + a.poff[v];
    for (uint32_t i = lane; i < k; i += 32) tk[i] = ~0ull;
    for (uint64_t x = lane; x < (uint64_t)k * W; x += 32) rows[x] = 0;
    __syncwarp();
    /* row i: bit j when L[i] and L[j] are adjacent. Short lists: each lane
       looks up L[j] in u's list (a ballot makes the word); long ones: each
       lane looks up a neighbour of u in L and sets its bit. */
    for (uint32_t i = 0; i < k; ++i) {
      uint32_t u = L[i];
      uint64_t ub = a.off[u], ue = a.off[u + 1];
      uint32_t *row = rows + (size_t)i * W;
      if ((uint64_t)k <= ue - ub) {
        for (uint32_t j0 = 0; j0 < k; j0 += 32) {
          uint32_t j = j0 + lane;
          bool adj = j < k && j != i && gclq__d_adjacent(a.off, a.nbr, u, L[j]);
          uint32_t word = __ballot_sync(GCLQ__FULL, adj);
          if (lane == 0) row[j0 / 32] = word;
        }
      } else {
        for (uint64_t e = ub + lane; e < ue; e += 32) {
          uint32_t x = __ldg(a.nbr + e), lo = 0, hi = k;
          while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (L[mid] < x) lo = mid + 1;
            else hi = mid;
          }
          if (lo < k && L[lo] == x) atomicOr(row + lo / 32, 1u << (lo % 32));
        }
      }
    }
    for (uint32_t w = lane; w < W; w += 32) alive[w] = w + 1 < W || k % 32 == 0 ? GCLQ__FULL : (1u << (k % 32)) - 1u;
    __syncwarp();
    /* drop members with fewer than target0 - 2 neighbours in P, until none
       (the local (target0 - 2)-core: the same set in any order) */
    uint32_t p[WPL], left = k;
    gclq__d_load<WPL>(p, alive, W);
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t i = 0; i < k; ++i) {
        uint32_t mine = 0;
#pragma unroll
        for (int t = 0; t < WPL; ++t)
          if (lane + 32u * t == i / 32) mine = p[t] >> (i % 32) & 1u;
        if (!__any_sync(GCLQ__FULL, mine != 0)) continue;
        uint32_t r[WPL];
        gclq__d_load<WPL>(r, rows + (size_t)i * W, W);
#pragma unroll
        for (int t = 0; t < WPL; ++t) r[t] &= p[t];
        if (gclq__d_count<WPL>(r) + 2 < a.target0) {
          gclq__d_clear<WPL>(p, i);
          --left;
          changed = true;
        }
      }
    }
    gclq__d_store<WPL>(p, alive, W);
    if (left + 1 < a.target0 || left == 0) continue;
    if (lane == 0) {
      atomicAdd(&a.counters[1], 1ull);
      atomicMax(&a.counters[3], (unsigned long long)left);
    }
    /* the seed node: R = {v}, P = alive */
    int need = gclq__d_target(a) - 1;
    if ((int)left < need) continue;
    uint32_t b[WPL];
    gclq__d_branch_set<WPL>(rows, W, p, need, b);
    gclq__d_store<WPL>(b, bset, W);
    uint32_t ntask = 0;
#pragma unroll
    for (int t = 0; t < WPL; ++t) {
      uint32_t w = lane + 32u * t, x = b[t];
      for (; x != 0; x &= x - 1) { /* slot k - 1 - j: the highest j runs first */
        uint32_t j = w * 32 + (uint32_t)(__ffs(x) - 1);
        tk[k - 1 - j] = (uint64_t)s << 32 | j;
        ++ntask;
      }
    }
    ntask = __reduce_add_sync(GCLQ__FULL, ntask);
    if (lane == 0) atomicAdd(&a.counters[2], (unsigned long long)ntask);
  }
}

/* Persistent warps over the task slots [t0, t1): depth-first branch and
   bound from R = {v, b} (gclq__host_seed_task, warp-wide). */
template <int WPL>
static __global__ void __launch_bounds__(128) gclq__seed_task_kernel(gclq__seed_args a) {
  uint32_t lane = threadIdx.x & 31;
  uint64_t gw = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  uint32_t *R = a.slab + gw * a.slab_words, *stack = R + ((a.depth_cap + 31) / 32) * 32;
  unsigned long long nodes = 0;
  for (;;) {
    unsigned long long t = 0;
    if (lane == 0) t = atomicAdd(a.ticket, 1ull);
    t = __shfl_sync(GCLQ__FULL, t, 0) + a.t0;
    if (t >= a.t1) break;
    uint64_t task = a.tasks[t - a.tbase];
    if (task == ~0ull) continue;
    uint32_t s = (uint32_t)(task >> 32), bv = (uint32_t)task;
    uint32_t v = a.seeds[s], k = a.seed_k[s], W = (k + 31) / 32;
    const uint32_t *rows = a.arena + (a.aoff[s] - a.abase), *alive = rows + (size_t)k * W, *bset = alive + W;
    const uint32_t *L = a.plist + a.poff[v];
    /* depth 1: P = alive minus the branch-set vertices above bv; B = {bv} */
#pragma unroll
    for (int q = 0; q < WPL; ++q) {
      uint32_t w = lane + 32u * q;
      if (w < W) {
        uint32_t above = w > bv / 32 ? GCLQ__FULL : w < bv / 32 ? 0u : ~((2u << (bv % 32)) - 1u);
        stack[2 * W + w] = alive[w] & ~(bset[w] & above);
        stack[3 * W + w] = w == bv / 32 ? 1u << (bv % 32) : 0u;
      }
    }
    if (lane == 0) R[0] = v;
    __syncwarp();
    uint32_t d = 1;
    for (;;) {
      uint32_t *Pd = stack + (size_t)d * 2 * W, *Bd = Pd + W;
      uint32_t p[WPL], bb[WPL];
      gclq__d_load<WPL>(p, Pd, W);
      gclq__d_load<WPL>(bb, Bd, W);
      uint32_t h = gclq__d_highest<WPL>(bb);
      if (h == GCLQ__FULL || (int)(d + gclq__d_count<WPL>(p)) < gclq__d_target(a)) {
        if (d == 1) break;
        --d;
        continue;
      }
      gclq__d_clear<WPL>(p, h);
      gclq__d_clear<WPL>(bb, h);
      gclq__d_store<WPL>(p, Pd, W);
      gclq__d_store<WPL>(bb, Bd, W);
      uint32_t c[WPL], nd = d + 1;
      gclq__d_load<WPL>(c, rows + (size_t)h * W, W);
#pragma unroll
      for (int q = 0; q < WPL; ++q) c[q] &= p[q];
      if (lane == 0) R[d] = L[h];
      ++nodes;
      uint32_t np = gclq__d_count<WPL>(c);
      if (np == 0) {
        __syncwarp();
        gclq__d_record(a, R, nd);
        continue;
      }
      int need = gclq__d_target(a) - (int)nd;
      if ((int)np < need) continue;
      uint32_t u[WPL];
      gclq__d_branch_set<WPL>(rows, W, c, need, u);
      if (gclq__d_count<WPL>(u) == 0) continue;
      if (nd >= a.depth_cap) { /* cannot happen: depth <= min(|P|, max core) + 1 */
        if (lane == 0) atomicAdd(&a.counters[4], 1ull);
        continue;
      }
      gclq__d_store<WPL>(c, stack + (size_t)nd * 2 * W, W);
      gclq__d_store<WPL>(u, stack + (size_t)nd * 2 * W + W, W);
      d = nd;
    }
  }
  if (lane == 0) atomicAdd(&a.counters[0], nodes);
}

/* seed_k[s] = cnt[seeds[s]] */
static __global__ void gclq__seed_gather_kernel(const uint32_t *seeds, const uint32_t *cnt, uint64_t ns, uint32_t *out) {
  uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ns) out[i] = cnt[seeds[i]];
}
/* ---------------------------------------------------------------------------
   host side of the CUDA backend
   ------------------------------------------------------------------------- */
#define GCLQ__CUDA_TRY(call)                                   \
  do {                                                         \
    if ((call) != cudaSuccess) {                               \
      cudaGetLastError();                                      \
      return GCLQ_ERROR_CUDA;                                  \
    }                                                          \
  } while (0)
#define GCLQ__TRY(call)                                        \
  do {                                                         \
    gclq_status gclq__s = (call);                              \
    if (gclq__s != GCLQ_SUCCESS) return gclq__s;               \
  } while (0)

static inline unsigned gclq__grid(uint64_t threads) { return (unsigned)((threads + GCLQ__BLOCK - 1) / GCLQ__BLOCK); }
/* blocks of GCLQ__CWARPS warps for a warp per item */
static inline unsigned gclq__grid_warps(uint64_t items) { return (unsigned)((items + GCLQ__CWARPS - 1) / GCLQ__CWARPS); }

typedef std::chrono::steady_clock gclq__clock;
static inline double gclq__ms_since(gclq__clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(gclq__clock::now() - t0).count();
}

/* The state of one run. */
struct gclq__mc_ctx {
  const gclq__mc_plan *plan;
  cudaStream_t stream;
  gclq_maxclique_stats *stats;
  size_t used, peak, budget;
  /* the graph on the device */
  uint32_t n;
  uint64_t *d_off;
  uint32_t *d_nbr, *d_deg, *d_core, *d_filter;
  uint32_t *d_round; /* SEEDS: the peeling round of each vertex (NULL: not wanted) */
  uint32_t rounds;   /* peeling rounds so far */
  /* levels: host table of pointers (index = clique size), its device copy */
  uint32_t max_levels;
  gclq__level_ptrs *levels;
  uint64_t *level_len;
  gclq__level_ptrs *d_levels;
  /* the answer so far: cliques of size best (compact ids, rows of best) */
  uint32_t best, target;
  uint32_t *rows;
  uint64_t num_rows, rows_cap; /* rows_cap: ids */
  double readout_ms;
  /* per-step buffers of the search, allocated once: counts / positions
     (pos_cap + 1), the scan's temp storage, the step's numbers */
  uint64_t *d_pos, *d_step;
  uint64_t pos_cap; /* parents d_pos can count (GCLQ__STEP_ENTRIES unless the budget is small) */
  void *d_scan_temp;
  size_t scan_temp_bytes;
};

/* Device memory under the budget; bytes rounded up to 256. */
static inline gclq_status gclq__mc_alloc(gclq__mc_ctx *c, void **p, size_t *held, size_t bytes) {
  size_t r = (bytes + 255) / 256 * 256;
  *p = NULL;
  *held = 0;
  if (r == 0) r = 256;
  if (r > c->budget || c->used > c->budget - r) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ__TRY(gclq__device_alloc(&c->plan->allocator, p, r, (gclq_stream)c->stream));
  c->used += r;
  if (c->used > c->peak) c->peak = c->used;
  *held = r;
  return GCLQ_SUCCESS;
}

/* A device allocation owned by a scope (freed, stream-ordered, when it ends). */
struct gclq__dmem {
  gclq__mc_ctx *c;
  void *p;
  size_t held;
  explicit gclq__dmem(gclq__mc_ctx *ctx) : c(ctx), p(NULL), held(0) {}
  ~gclq__dmem() { release(); }
  gclq_status get(size_t bytes) {
    release();
    return gclq__mc_alloc(c, &p, &held, bytes);
  }
  void release() {
    if (p != NULL) {
      gclq__device_free(&c->plan->allocator, p, (gclq_stream)c->stream);
      c->used -= held;
    }
    p = NULL;
    held = 0;
  }
  template <typename T> T *as() const { return (T *)p; }

 private:
  gclq__dmem(const gclq__dmem &);
  gclq__dmem &operator=(const gclq__dmem &);
};

/* Run a gprim call f(d_temp, &bytes): size query, temp storage, call. */
template <typename F>
static inline gclq_status gclq__mc_prim(gclq__mc_ctx *c, F f) {
  size_t bytes = 0;
  GCLQ__CUDA_TRY(f((void *)NULL, &bytes));
  gclq__dmem temp(c);
  GCLQ__TRY(temp.get(bytes));
  GCLQ__CUDA_TRY(f(temp.p, &bytes));
  return GCLQ_SUCCESS;
}

/* Copy device bytes to the host and wait for them. */
static inline gclq_status gclq__mc_read(gclq__mc_ctx *c, void *h, const void *d, size_t bytes) {
  GCLQ__CUDA_TRY(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, c->stream));
  GCLQ__CUDA_TRY(cudaStreamSynchronize(c->stream));
  return GCLQ_SUCCESS;
}

static inline void gclq__mc_log(gclq__mc_ctx *c, const char *line) {
  if (c->plan->log) c->plan->log(c->plan->log_user, line);
}

static inline gclq_status gclq__mc_count_level(gclq__mc_ctx *c, uint32_t k, uint64_t entries) {
  gclq_maxclique_stats *s = c->stats;
  if (k >= s->num_levels) {
    uint32_t cap = k + 8, i;
    uint64_t *grown = (uint64_t *)GCLQ_REALLOC(s->candidates_per_level, cap * sizeof(uint64_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    for (i = s->num_levels; i < cap; ++i) grown[i] = 0;
    s->candidates_per_level = grown;
    s->num_levels = k + 1;
  }
  s->candidates_per_level[k] += entries;
  return GCLQ_SUCCESS;
}

/* Keep rows of size k (host, compact ids). replace: start a new list (the
   row width may change then; rows_cap counts ids, not rows). */
static inline gclq_status gclq__mc_keep_rows(gclq__mc_ctx *c, const uint32_t *rows, uint64_t count, uint32_t k,
                                             int replace) {
  uint64_t need;
  if (replace) c->num_rows = 0;
  need = (c->num_rows + count) * k;
  if (need > c->rows_cap) {
    uint64_t cap = c->rows_cap ? c->rows_cap : 256;
    uint32_t *grown;
    while (cap < need) cap *= 2;
    grown = (uint32_t *)GCLQ_REALLOC(c->rows, (size_t)cap * sizeof(uint32_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    c->rows = grown;
    c->rows_cap = cap;
  }
  memcpy(c->rows + (size_t)c->num_rows * k, rows, (size_t)count * k * sizeof(uint32_t));
  c->num_rows += count;
  return GCLQ_SUCCESS;
}

/* Entries [a, b) of level k are k-cliques that end here: keep them when they
   are at least as large as the best so far (all mode), or larger (one mode). */
static inline gclq_status gclq__mc_record(gclq__mc_ctx *c, uint32_t k, uint64_t a, uint64_t b) {
  int one = c->plan->find_one;
  if (one ? k <= c->best : k < c->best) return GCLQ_SUCCESS;
  if (one) b = a + 1;
  gclq__clock::time_point t0 = gclq__clock::now();
  int replace = k > c->best;
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_levels, c->levels, ((size_t)k + 1) * sizeof(gclq__level_ptrs),
                                 cudaMemcpyHostToDevice, c->stream));
  while (a < b) {
    /* as many rows as fit (at least one) */
    uint64_t n = b - a;
    size_t row_bytes = (size_t)k * sizeof(uint32_t);
    size_t room = c->budget - c->used > 4096 ? c->budget - c->used - 4096 : 0;
    if ((uint64_t)n * row_bytes > room) n = room / row_bytes > 0 ? room / row_bytes : 1;
    gclq__dmem out(c);
    uint32_t *h;
    GCLQ__TRY(out.get((size_t)n * row_bytes));
    gclq__readout_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(c->d_levels, k, a, n, out.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    h = (uint32_t *)GCLQ_MALLOC((size_t)n * row_bytes);
    if (h == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    gclq_status st = gclq__mc_read(c, h, out.p, (size_t)n * row_bytes);
    if (st == GCLQ_SUCCESS) st = gclq__mc_keep_rows(c, h, n, k, replace);
    GCLQ_FREE(h);
    if (st != GCLQ_SUCCESS) return st;
    replace = 0;
    a += n;
  }
  c->best = k;
  c->target = one ? k + 1 : k;
  c->readout_ms += gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* Expand the parents [a, b) of level k, then every level below them: depth
   first over steps, breadth first inside one. A step counts the children of
   `span` parents (into c->d_pos, scanned with c->d_scan_temp: both allocated
   once per run, pos_cap + 1 entries) and takes the prefix of them
   whose children fit in `width` entries and in the budget (at least one
   parent); the rest is counted again in the next step, against a target that
   may have risen. width starts at GCLQ__FIRST_WIDTH and doubles per step up
   to GCLQ__STEP_ENTRIES (a narrow first descent finds large cliques early);
   span is twice the last step's take. Candidate-only entries (GCLQ__DEAD)
   count no children. One synchronisation per step (the step kernel's three
   numbers).
   A single parent whose children cannot fit is out of memory. Splitting
   changes the order of the work, never its result. */
static inline gclq_status gclq__mc_expand(gclq__mc_ctx *c, uint32_t k, uint64_t a, uint64_t b) {
  const size_t slack = (size_t)64 << 10;
  cudaStream_t stream = c->stream;
  /* children per step: narrow first, doubling (gclq__first_width); parents
     counted per step: twice the last step's take (gclq__next_span) */
  uint64_t width = gclq__first_width(GCLQ__STEP_ENTRIES), span = width;
  while (a < b) {
    uint64_t n = b - a < span ? b - a : span, step[3];
    if (n > c->pos_cap) n = c->pos_cap;
    gclq__level_args la;
    la.vid = c->levels[k].vid;
    la.sid = c->levels[k].sid;
    la.len = c->level_len[k];
    la.a = a;
    la.n = n;
    la.k = k;
    la.target = c->target;
    la.colour = c->plan->bound != GCLQ_BOUND_LENGTH;
    la.off = c->d_off;
    la.nbr = c->d_nbr;
    if (k + 1 >= c->max_levels) return GCLQ_ERROR_CUDA; /* cannot happen: omega <= max core + 1 */

    /* count, scan the counts into positions (Alg. 4 lines 28-31), size the step */
    uint64_t *d = c->d_pos, room = c->used <= c->budget && c->budget - c->used > slack
                                       ? (c->budget - c->used - slack) / 8 : 0;
    uint64_t cap = room < width ? room : width;
    gclq__level_count_kernel<<<gclq__grid_warps(n + 1), 32 * GCLQ__CWARPS, 0, stream>>>(la, d);
    GCLQ__CUDA_TRY(cudaGetLastError());
    size_t tb = c->scan_temp_bytes;
    GCLQ__CUDA_TRY(gprim_scan_exclusive(c->d_scan_temp, &tb, (const uint64_t *)d, d, (size_t)(n + 1), gprim_op_sum(),
                                        (uint64_t)0, stream));
    gclq__step_kernel<<<1, 1, 0, stream>>>(d, n, cap, c->d_step);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, step, c->d_step, sizeof step));
    uint64_t m = step[1], total = step[2];
    span = gclq__next_span(m, GCLQ__STEP_ENTRIES);
    if (m < n && room < width) c->stats->budget_splits++; /* the budget, not the step width, cut it */
    width = width * 2 < GCLQ__STEP_ENTRIES ? width * 2 : GCLQ__STEP_ENTRIES;
    if (step[0] == 0) { /* no parent of this step extends: these k-cliques are final */
      GCLQ__TRY(gclq__mc_record(c, k, a, a + n));
      a += n;
      continue;
    }
    if (total == 0) { /* parents that end here, while others of the step extend: not maximum */
      a += m;
      continue;
    }
    gclq__dmem vid(c), sid(c);
    gclq_status st = total < ((uint64_t)1 << 32) ? vid.get((size_t)total * sizeof(uint32_t)) : GCLQ_ERROR_OUT_OF_MEMORY;
    if (st == GCLQ_SUCCESS) st = sid.get((size_t)total * sizeof(uint32_t));
    GCLQ__TRY(st); /* one parent's children do not fit */
    la.n = m;
    gclq__level_write_kernel<<<gclq__grid_warps(m), 32 * GCLQ__CWARPS, 0, stream>>>(la, d, vid.as<uint32_t>(),
                                                                                      sid.as<uint32_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    c->levels[k + 1].vid = vid.as<uint32_t>();
    c->levels[k + 1].sid = sid.as<uint32_t>();
    c->level_len[k + 1] = total;
    GCLQ__TRY(gclq__mc_count_level(c, k + 1, total));
    if (c->plan->log) {
      char line[160];
      snprintf(line, sizeof line, "level %u: %llu candidates (parents %llu..%llu of %llu, %.1f MiB held)", k + 1,
               (unsigned long long)total, (unsigned long long)a, (unsigned long long)(a + m),
               (unsigned long long)la.len, (double)c->used / 1048576.0);
      gclq__mc_log(c, line);
    }
    st = gclq__mc_expand(c, k + 1, 0, total);
    c->levels[k + 1].vid = NULL;
    c->levels[k + 1].sid = NULL;
    c->level_len[k + 1] = 0;
    GCLQ__TRY(st);
    a += m;
  }
  return GCLQ_SUCCESS;
}

/* k-core numbers of every vertex into c->d_core (Alg. 1); returns the largest. */
static inline gclq_status gclq__mc_cores(gclq__mc_ctx *c, uint32_t *max_core) {
  const uint32_t n = c->n;
  uint32_t k = 0, left = n, info[2], best = 0;
  gclq__dmem deg(c), gone(c), frontier(c), d_info(c);
  GCLQ__TRY(deg.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gone.get(n));
  GCLQ__TRY(frontier.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(d_info.get(2 * sizeof(uint32_t)));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(deg.p, c->d_deg, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, c->stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(gone.p, 0, n, c->stream));
  while (left > 0) {
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0xff, 2 * sizeof(uint32_t), c->stream));
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0, sizeof(uint32_t), c->stream));
    gclq__core_filter_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(
        n, k, deg.as<uint32_t>(), c->d_core, gone.as<uint8_t>(), frontier.as<uint32_t>(), d_info.as<uint32_t>(),
        c->d_round, c->rounds);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, info, d_info.p, sizeof info));
    if (info[0] == 0) { /* nobody left at k: jump to the smallest degree still present */
      k = info[1];
      continue;
    }
    best = k;
    left -= info[0];
    c->rounds++;
    gclq__core_advance_kernel<<<gclq__grid((uint64_t)info[0] * 32), GCLQ__BLOCK, 0, c->stream>>>(
        frontier.as<uint32_t>(), info[0], c->d_off, c->d_nbr, deg.as<uint32_t>(), gone.as<uint8_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  *max_core = best;
  return GCLQ_SUCCESS;
}

/* Vertices sorted by key (descending or ascending; ties by id), into d_out. */
static inline gclq_status gclq__mc_sort_by(gclq__mc_ctx *c, const uint32_t *d_key, int descending, uint32_t *d_out) {
  const uint32_t n = c->n;
  cudaStream_t stream = c->stream;
  gclq__dmem ids(c), keys(c);
  GCLQ__TRY(ids.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(keys.get((size_t)n * sizeof(uint32_t)));
  gclq__iota_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(ids.as<uint32_t>(), n);
  GCLQ__CUDA_TRY(cudaGetLastError());
  uint32_t *ko = keys.as<uint32_t>(), *vi = ids.as<uint32_t>();
  return gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_radix_sort_pairs(t, tb, d_key, ko, (const uint32_t *)vi, d_out, (size_t)n, 0, 32, descending != 0,
                                  stream);
  });
}

/* Single-run greedy (000 sec. 2.4.3.1): candidates sorted by key, descending;
   take the first, keep its neighbours (select, order kept), repeat. */
static inline gclq_status gclq__mc_greedy_single(gclq__mc_ctx *c, const uint32_t *d_key, uint32_t *clique, uint32_t *size) {
  const uint32_t n = c->n;
  cudaStream_t stream = c->stream;
  gclq__dmem cand(c), cand2(c), num(c), peek(c);
  uint64_t h[2];
  GCLQ__TRY(cand.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(cand2.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(num.get(sizeof(size_t)));
  GCLQ__TRY(peek.get(2 * sizeof(uint64_t)));
  GCLQ__TRY(gclq__mc_sort_by(c, d_key, 1, cand.as<uint32_t>()));
  uint32_t *src = cand.as<uint32_t>(), *dst = cand2.as<uint32_t>();
  GCLQ__TRY(gclq__mc_read(c, &h[1], src, sizeof(uint32_t)));
  h[0] = n;
  h[1] &= 0xffffffffu;
  *size = 0;
  while (h[0] > 0) {
    gclq__adjacent_to pred;
    size_t count = (size_t)h[0];
    pred.off = c->d_off;
    pred.nbr = c->d_nbr;
    pred.v = (uint32_t)h[1];
    clique[(*size)++] = pred.v;
    size_t *d_num = num.as<size_t>();
    GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_select_if(t, tb, (const uint32_t *)src, dst, d_num, count, pred, stream);
    }));
    gclq__peek_kernel<<<1, 1, 0, stream>>>(d_num, dst, peek.as<uint64_t>());
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, h, peek.p, sizeof h));
    uint32_t *t = src;
    src = dst;
    dst = t;
  }
  return GCLQ_SUCCESS;
}

/* Multi-run greedy (000 Alg. 2): h runs side by side, run s seeded by the
   vertex of s-th highest key, its candidates the seed's neighbours (one
   segment each). A step: segmented argmax picks each run's candidate of
   highest key; a candidate stays when adjacent to its run's pick (select);
   the segments are found again by sorted search. The best run is the bound. */
static inline gclq_status gclq__mc_greedy_multi(gclq__mc_ctx *c, const gclq_graph *g, const uint32_t *d_key, uint32_t seeds,
                                         uint32_t *clique, uint32_t *size) {
  const uint32_t n = c->n;
  cudaStream_t stream = c->stream;
  uint32_t h = seeds < n ? seeds : n, s, best_s = 0, it, iters = 0;
  uint32_t *hseeds = NULL, *hpicks = NULL, *hsizes = NULL;
  uint64_t total = 0, picks_cap = 0;
  gclq_status st = GCLQ_SUCCESS;
  gclq__dmem sorted(c), cnt(c), cv(c), ck(c), cs(c), cv2(c), ck2(c), cs2(c), flag(c), sizes(c), pick(c), idx(c),
      mx(c), needles(c), num(c);
  GCLQ__TRY(sorted.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gclq__mc_sort_by(c, d_key, 1, sorted.as<uint32_t>()));
  hseeds = (uint32_t *)GCLQ_MALLOC((size_t)h * sizeof(uint32_t));
  hsizes = (uint32_t *)GCLQ_MALLOC((size_t)h * sizeof(uint32_t));
  if (hseeds == NULL || hsizes == NULL) {
    st = GCLQ_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  st = gclq__mc_read(c, hseeds, sorted.p, (size_t)h * sizeof(uint32_t));
  if (st != GCLQ_SUCCESS) goto done;
  /* the candidates of every run must fit 32-bit select sizes: fewer seeds if not */
  for (;;) {
    total = 0;
    for (s = 0; s < h; ++s) total += g->h_offsets[hseeds[s] + 1] - g->h_offsets[hseeds[s]];
    if (total < 0xffffffffull || h == 1) break;
    h /= 2;
  }
  {
    uint32_t *sd = sorted.as<uint32_t>();
    uint64_t *co;
    if ((st = cnt.get(((size_t)h + 1) * sizeof(uint64_t))) != GCLQ_SUCCESS) goto done;
    co = cnt.as<uint64_t>();
    gclq__seed_degree_kernel<<<gclq__grid((uint64_t)h + 1), GCLQ__BLOCK, 0, stream>>>(sd, h, c->d_deg, co);
    if (cudaGetLastError() != cudaSuccess) goto cuda_error;
    st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_scan_exclusive(t, tb, (const uint64_t *)co, co, (size_t)h + 1, gprim_op_sum(), (uint64_t)0, stream);
    });
    if (st != GCLQ_SUCCESS) goto done;
    if ((st = cv.get(total * 4)) || (st = ck.get(total * 4)) || (st = cs.get(total * 4)) ||
        (st = cv2.get(total * 4)) || (st = ck2.get(total * 4)) || (st = cs2.get(total * 4)) ||
        (st = flag.get(total)) || (st = sizes.get((size_t)h * 4)) || (st = pick.get((size_t)h * 4)) ||
        (st = idx.get((size_t)h * 8)) || (st = mx.get((size_t)h * 4)) || (st = needles.get(((size_t)h + 1) * 4)) ||
        (st = num.get(sizeof(size_t))))
      goto done;
    if (total > 0) { /* expand the segments: load-balancing search */
      gclq__dmem parent(c), rank(c);
      uint64_t *pa, *ra;
      if ((st = parent.get(total * 8)) || (st = rank.get(total * 8))) goto done;
      pa = parent.as<uint64_t>();
      ra = rank.as<uint64_t>();
      st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_load_balance_search(t, tb, (const uint64_t *)co, (size_t)h, (size_t)total, pa, ra, stream);
      });
      if (st != GCLQ_SUCCESS) goto done;
      gclq__seed_fill_kernel<<<gclq__grid(total), GCLQ__BLOCK, 0, stream>>>(
          pa, ra, total, sd, c->d_off, c->d_nbr, d_key, cv.as<uint32_t>(), ck.as<uint32_t>(), cs.as<uint32_t>());
      if (cudaGetLastError() != cudaSuccess) goto cuda_error;
    }
    gclq__fill_kernel<<<gclq__grid(h), GCLQ__BLOCK, 0, stream>>>(sizes.as<uint32_t>(), h, 1);
    gclq__iota_kernel<<<gclq__grid((uint64_t)h + 1), GCLQ__BLOCK, 0, stream>>>(needles.as<uint32_t>(), (uint64_t)h + 1);
    if (cudaGetLastError() != cudaSuccess) goto cuda_error;
  }
  while (total > 0) {
    uint32_t *a_v = cv.as<uint32_t>(), *a_k = ck.as<uint32_t>(), *a_s = cs.as<uint32_t>();
    uint32_t *b_v = cv2.as<uint32_t>(), *b_k = ck2.as<uint32_t>(), *b_s = cs2.as<uint32_t>();
    uint64_t *co = cnt.as<uint64_t>(), *ix = idx.as<uint64_t>();
    uint32_t *mo = mx.as<uint32_t>(), *ne = needles.as<uint32_t>();
    uint8_t *fl = flag.as<uint8_t>();
    size_t *d_num = num.as<size_t>(), ntot = (size_t)total, got = 0;
    st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_segmented_argmax(t, tb, (const uint32_t *)a_k, mo, ix, (size_t)h, (const uint64_t *)co, stream);
    });
    if (st != GCLQ_SUCCESS) goto done;
    gclq__pick_kernel<<<gclq__grid(h), GCLQ__BLOCK, 0, stream>>>(ix, h, a_v, pick.as<uint32_t>(), sizes.as<uint32_t>());
    gclq__keep_kernel<<<gclq__grid(total), GCLQ__BLOCK, 0, stream>>>(a_v, a_s, total, pick.as<uint32_t>(), c->d_off,
                                                                     c->d_nbr, fl);
    if (cudaGetLastError() != cudaSuccess) goto cuda_error;
    if ((uint64_t)(iters + 1) * h > picks_cap) {
      uint64_t cap = picks_cap ? 2 * picks_cap : 8 * (uint64_t)h;
      uint32_t *grown = (uint32_t *)GCLQ_REALLOC(hpicks, (size_t)cap * sizeof(uint32_t));
      if (grown == NULL) {
        st = GCLQ_ERROR_OUT_OF_MEMORY;
        goto done;
      }
      hpicks = grown;
      picks_cap = cap;
    }
    if ((st = gclq__mc_read(c, hpicks + (size_t)iters * h, pick.p, (size_t)h * sizeof(uint32_t))) != GCLQ_SUCCESS)
      goto done;
    ++iters;
    st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_select_flagged(t, tb, (const uint32_t *)a_v, (const uint8_t *)fl, b_v, d_num, ntot, stream);
    });
    if (st == GCLQ_SUCCESS)
      st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_select_flagged(t, tb, (const uint32_t *)a_k, (const uint8_t *)fl, b_k, d_num, ntot, stream);
      });
    if (st == GCLQ_SUCCESS)
      st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_select_flagged(t, tb, (const uint32_t *)a_s, (const uint8_t *)fl, b_s, d_num, ntot, stream);
      });
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(c, &got, d_num, sizeof got);
    if (st != GCLQ_SUCCESS) goto done;
    total = got;
    if (total > 0) {
      st = gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_sorted_search(t, tb, (const uint32_t *)ne, (size_t)h + 1, (const uint32_t *)b_s, (size_t)total,
                                   co, GPRIM_LOWER_BOUND, stream);
      });
      if (st != GCLQ_SUCCESS) goto done;
    }
    { void *t = cv.p; cv.p = cv2.p; cv2.p = t; t = ck.p; ck.p = ck2.p; ck2.p = t; t = cs.p; cs.p = cs2.p; cs2.p = t; }
  }
  if ((st = gclq__mc_read(c, hsizes, sizes.p, (size_t)h * sizeof(uint32_t))) != GCLQ_SUCCESS) goto done;
  for (s = 1; s < h; ++s)
    if (hsizes[s] > hsizes[best_s]) best_s = s;
  *size = 0;
  clique[(*size)++] = hseeds[best_s];
  for (it = 0; it < iters && hpicks[(size_t)it * h + best_s] != 0xffffffffu; ++it)
    clique[(*size)++] = hpicks[(size_t)it * h + best_s];
  goto done;
cuda_error:
  st = GCLQ_ERROR_CUDA;
done:
  GCLQ_FREE(hseeds);
  GCLQ_FREE(hpicks);
  GCLQ_FREE(hsizes);
  return st;
}

/* The per-seed search (GCLQ_SEARCH_SEEDS), after the cores (with peeling
   rounds in c->d_round) and the heuristic: c->best holds the lower bound
   (mode ONE: c->rows its clique). On success c->best is omega and c->rows the
   maximum cliques (mode ONE: one). *too_big: a seed's local graph exceeds
   GCLQ__SEED_MAX; nothing was changed and the caller runs the BFS.
   Memory, all under the budget: per vertex cnt / poff / order (16 B), the
   lists P(v), the clique records (grown once: on overflow the search runs
   again from the final best, which records only the maximum cliques), a
   slab per warp, and per batch of seeds their bit matrices and task slots. */
static inline gclq_status gclq__mc_seeds(gclq__mc_ctx *c, uint32_t max_core, int *too_big) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->n;
  const int one = p->find_one;
  cudaStream_t stream = c->stream;
  gclq_maxclique_stats *stats = c->stats;
  const unsigned tb = 32 * GCLQ__CWARPS;
  uint32_t lb = c->best, ns = 0, kmax, *hk = NULL, *hrec = NULL;
  uint64_t total = 0, *haoff = NULL, *htoff = NULL;
  unsigned long long hc[8];
  gclq_status st = GCLQ_SUCCESS;
  gclq__seed_args a;
  *too_big = 0;
  memset(&a, 0, sizeof a);
  a.off = c->d_off;
  a.nbr = c->d_nbr;
  a.core = c->d_core;
  a.round = c->d_round;
  a.n = n;
  a.one = one;
  a.target0 = lb + (uint32_t)one;
  gclq__dmem cnt(c), poff(c), counters(c), best(c), ticket(c), plist(c), order(c), seed_k(c), aoff(c), toff(c);
  GCLQ__TRY(cnt.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(poff.get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(counters.get(8 * sizeof(unsigned long long)));
  GCLQ__TRY(best.get(sizeof(uint32_t)));
  GCLQ__TRY(ticket.get(sizeof(unsigned long long)));
  a.cnt = cnt.as<uint32_t>();
  a.poff = poff.as<uint64_t>();
  a.counters = counters.as<unsigned long long>();
  a.best = best.as<uint32_t>();
  a.ticket = ticket.as<unsigned long long>();
  GCLQ__CUDA_TRY(cudaMemsetAsync(a.counters, 0, 8 * sizeof(unsigned long long), stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(a.poff, 0, ((size_t)n + 1) * sizeof(uint64_t), stream));
  /* 1. P(v) for every vertex: count, scan, write */
  gclq__seed_count_kernel<<<gclq__grid_warps(n), tb, 0, stream>>>(a);
  GCLQ__CUDA_TRY(cudaGetLastError());
  {
    uint64_t *d = a.poff;
    GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *b) {
      return gprim_scan_exclusive(t, b, (const uint64_t *)d, d, (size_t)n + 1, gprim_op_sum(), (uint64_t)0, stream);
    }));
  }
  GCLQ__TRY(gclq__mc_read(c, &total, a.poff + n, sizeof total));
  GCLQ__TRY(gclq__mc_read(c, hc, a.counters, sizeof hc));
  ns = (uint32_t)hc[5];
  if (ns == 0) return GCLQ_SUCCESS; /* nothing can beat the bound (mode ONE: its clique stands) */
  GCLQ__TRY(plist.get((size_t)total * sizeof(uint32_t)));
  a.plist = plist.as<uint32_t>();
  gclq__seed_list_kernel<<<gclq__grid_warps(n), tb, 0, stream>>>(a);
  GCLQ__CUDA_TRY(cudaGetLastError());
  /* 2. seeds by |P| descending */
  GCLQ__TRY(order.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gclq__mc_sort_by(c, a.cnt, 1, order.as<uint32_t>()));
  GCLQ__TRY(seed_k.get((size_t)ns * sizeof(uint32_t)));
  gclq__seed_gather_kernel<<<gclq__grid(ns), GCLQ__BLOCK, 0, stream>>>(order.as<uint32_t>(), a.cnt, ns,
                                                                         seed_k.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  a.seeds = order.as<uint32_t>();
  a.seed_k = seed_k.as<uint32_t>();
  hk = (uint32_t *)GCLQ_MALLOC((size_t)ns * sizeof(uint32_t));
  haoff = (uint64_t *)GCLQ_MALLOC(((size_t)ns + 1) * sizeof(uint64_t));
  htoff = (uint64_t *)GCLQ_MALLOC(((size_t)ns + 1) * sizeof(uint64_t));
  if (hk == NULL || haoff == NULL || htoff == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(c, hk, a.seed_k, (size_t)ns * sizeof(uint32_t));
  kmax = st == GCLQ_SUCCESS ? hk[0] : 0;
  if (st == GCLQ_SUCCESS && kmax > GCLQ__SEED_MAX) *too_big = 1;
  if (st == GCLQ_SUCCESS && !*too_big) {
    uint32_t s;
    haoff[0] = htoff[0] = 0;
    for (s = 0; s < ns; ++s) {
      uint64_t k = hk[s], W = (k + 31) / 32;
      haoff[s + 1] = haoff[s] + k * W + 2 * W;
      htoff[s + 1] = htoff[s] + k;
    }
    st = aoff.get(((size_t)ns + 1) * sizeof(uint64_t));
    if (st == GCLQ_SUCCESS) st = toff.get(((size_t)ns + 1) * sizeof(uint64_t));
    if (st == GCLQ_SUCCESS && (cudaMemcpyAsync(aoff.p, haoff, ((size_t)ns + 1) * sizeof(uint64_t),
                                               cudaMemcpyHostToDevice, stream) != cudaSuccess ||
                               cudaMemcpyAsync(toff.p, htoff, ((size_t)ns + 1) * sizeof(uint64_t),
                                               cudaMemcpyHostToDevice, stream) != cudaSuccess ||
                               cudaStreamSynchronize(stream) != cudaSuccess))
      st = GCLQ_ERROR_CUDA;
  }
  if (st != GCLQ_SUCCESS || *too_big) {
    GCLQ_FREE(hk);
    GCLQ_FREE(haoff);
    GCLQ_FREE(htoff);
    cudaGetLastError();
    return st;
  }
  a.aoff = aoff.as<uint64_t>();
  a.toff = toff.as<uint64_t>();
  stats->max_local = kmax;

  /* 3. the records, the slabs, the batch buffers */
  const size_t slack = (size_t)64 << 10;
  int sms = 1, per_sm = 1, device = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gclq__seed_task_kernel<4>, tb, 0) != cudaSuccess ||
      per_sm < 1)
    per_sm = 1;
  cudaGetLastError();
  uint64_t resident = (uint64_t)sms * (uint64_t)per_sm * GCLQ__CWARPS;
  a.depth_cap = (kmax < max_core ? kmax : max_core) + 3;
  uint64_t wmax = (kmax + 31) / 32;
  a.slab_words = ((uint64_t)a.depth_cap + 31) / 32 * 32 + (uint64_t)a.depth_cap * 2 * wmax;
  gclq__dmem rec(c), slab(c), arena(c), tasks(c);
  size_t room = c->budget > c->used + slack ? c->budget - c->used - slack : 0;
  uint64_t rec_cap = room / 16 / sizeof(uint32_t);
  if (rec_cap > ((uint64_t)1 << 22)) rec_cap = (uint64_t)1 << 22;
  if (rec_cap < 1024) rec_cap = 1024;
  uint64_t warps = room / 3 / (a.slab_words * sizeof(uint32_t));
  if (warps > resident) warps = resident;
  if (warps > htoff[ns]) warps = htoff[ns] < 1 ? 1 : htoff[ns];
  if (warps >= GCLQ__CWARPS) warps -= warps % GCLQ__CWARPS;
  if (warps == 0) warps = 1; /* the allocation below says whether even one fits */
  st = rec.get((size_t)rec_cap * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS) st = slab.get((size_t)(warps * a.slab_words * sizeof(uint32_t)));
  uint64_t arena_cap = 0, tasks_cap = 0;
  if (st == GCLQ_SUCCESS) {
    room = c->budget > c->used + slack ? c->budget - c->used - slack : 0;
    if (haoff[ns] * sizeof(uint32_t) + htoff[ns] * sizeof(uint64_t) <= room) {
      arena_cap = haoff[ns], tasks_cap = htoff[ns];
    } else {
      arena_cap = room / 3 * 2 / sizeof(uint32_t), tasks_cap = room / 3 / sizeof(uint64_t);
    }
    if (haoff[1] > arena_cap || htoff[1] > tasks_cap) st = GCLQ_ERROR_OUT_OF_MEMORY; /* the largest seed */
  }
  if (st == GCLQ_SUCCESS) st = arena.get((size_t)arena_cap * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS) st = tasks.get((size_t)tasks_cap * sizeof(uint64_t));
  a.rec = rec.as<uint32_t>();
  a.slab = slab.as<uint32_t>();
  a.arena = arena.as<uint32_t>();
  a.tasks = tasks.as<uint64_t>();

  /* 4. the search, batch by batch; again once if the records overflowed */
  unsigned thr = warps >= GCLQ__CWARPS ? tb : (unsigned)(32 * warps), blocks = (unsigned)(warps * 32 / thr);
  uint32_t start = lb;
  unsigned long long used = 0;
  for (int pass = 0; st == GCLQ_SUCCESS && pass < 2; ++pass) {
    a.rec_cap = rec_cap;
    stats->seed_passes = (uint32_t)pass + 1;
    if (cudaMemcpyAsync(a.best, &start, sizeof start, cudaMemcpyHostToDevice, stream) != cudaSuccess ||
        cudaMemsetAsync(a.counters, 0, 5 * sizeof(unsigned long long), stream) != cudaSuccess) {
      st = GCLQ_ERROR_CUDA;
      break;
    }
    a.rec_used = a.counters + 6;
    if (cudaMemsetAsync(a.rec_used, 0, sizeof(unsigned long long), stream) != cudaSuccess) st = GCLQ_ERROR_CUDA;
    for (uint32_t s0 = 0; st == GCLQ_SUCCESS && s0 < ns;) {
      uint32_t s1 = s0 + 1;
      while (s1 < ns && haoff[s1 + 1] - haoff[s0] <= arena_cap && htoff[s1 + 1] - htoff[s0] <= tasks_cap) ++s1;
      a.s0 = s0, a.s1 = s1, a.abase = haoff[s0], a.tbase = htoff[s0];
      uint64_t pw = s1 - s0 < resident ? s1 - s0 : resident;
      gclq__seed_prep_kernel<<<(unsigned)((pw + GCLQ__CWARPS - 1) / GCLQ__CWARPS), tb, 0, stream>>>(a);
      if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
      /* the tasks, by words per lane: seeds above 2048, above 1024, the rest */
      for (int wpl = 4; st == GCLQ_SUCCESS && wpl >= 1; wpl /= 2) {
        uint32_t lo = 32u * 32u * (uint32_t)wpl / 2, hi = 32u * 32u * (uint32_t)wpl, sa = s0, sb;
        if (wpl == 1) lo = 0;
        while (sa < s1 && hk[sa] > hi) ++sa;
        sb = sa;
        while (sb < s1 && hk[sb] > lo) ++sb;
        if (sa == sb) continue;
        a.t0 = htoff[sa], a.t1 = htoff[sb];
        if (cudaMemsetAsync(a.ticket, 0, sizeof(unsigned long long), stream) != cudaSuccess) {
          st = GCLQ_ERROR_CUDA;
          break;
        }
        if (wpl == 4) gclq__seed_task_kernel<4><<<blocks, thr, 0, stream>>>(a);
        else if (wpl == 2) gclq__seed_task_kernel<2><<<blocks, thr, 0, stream>>>(a);
        else gclq__seed_task_kernel<1><<<blocks, thr, 0, stream>>>(a);
        if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
      }
      s0 = s1;
    }
    uint32_t hb = 0;
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(c, hc, a.counters, sizeof hc);
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(c, &hb, a.best, sizeof hb);
    if (st != GCLQ_SUCCESS) break;
    used = hc[6];
    stats->nodes += hc[0];
    stats->seeds = hc[1];
    stats->tasks = hc[2];
    if (hc[4] != 0) st = GCLQ_ERROR_CUDA; /* a search deeper than its stack: a bug */
    c->best = hb;
    if (st != GCLQ_SUCCESS || used <= rec_cap) break;
    /* overflow: room for every record of the first pass (more than the
       second records: it starts at the final best) */
    if (pass == 1) {
      st = GCLQ_ERROR_CUDA;
      break;
    }
    rec.release();
    rec_cap = used;
    st = rec.get((size_t)rec_cap * sizeof(uint32_t));
    a.rec = rec.as<uint32_t>();
    start = hb;
    a.target0 = hb + (uint32_t)one;
  }
  /* 5. keep the records of size best (from here on a failure is final: the
     caller must not fall back to the BFS, c->rows may have changed) */
  *too_big = 2;
  if (st == GCLQ_SUCCESS && used > 0) {
    hrec = (uint32_t *)GCLQ_MALLOC((size_t)used * sizeof(uint32_t));
    if (hrec == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
    else st = gclq__mc_read(c, hrec, a.rec, (size_t)used * sizeof(uint32_t));
    int replaced = 0;
    for (uint64_t q = 0; st == GCLQ_SUCCESS && q < used; q += (uint64_t)hrec[q] + 1) {
      uint32_t d = hrec[q];
      if (d != c->best || (one && replaced)) continue;
      st = gclq__mc_keep_rows(c, hrec + q + 1, 1, d, !replaced);
      replaced = 1;
    }
  }
  GCLQ_FREE(hrec);
  GCLQ_FREE(hk);
  GCLQ_FREE(haoff);
  GCLQ_FREE(htoff);
  return st;
}

/* The whole CUDA run on a graph with at least one edge. Rows (compact ids,
   unsorted) stay in c->rows, c->num_rows of c->best ids each. */
static inline gclq_status gclq__mc_run(gclq__mc_ctx *c, const gclq_graph *g) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = g->num_vertices;
  const uint64_t m2 = 2 * g->num_edges;
  cudaStream_t stream = c->stream;
  gclq_maxclique_stats *stats = c->stats;
  uint32_t max_core = 0, lb = 1, *hclique = NULL;
  uint64_t t2 = 0, *hpos = NULL;
  gclq_status st;
  gclq__clock::time_point t0 = gclq__clock::now();
  char line[160];
  c->n = n;

  /* upload */
  gclq__dmem off(c), nbr(c), deg(c), core(c), d_levels(c);
  GCLQ__TRY(off.get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(nbr.get((size_t)m2 * sizeof(uint32_t)));
  GCLQ__TRY(deg.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(core.get((size_t)n * sizeof(uint32_t)));
  c->d_off = off.as<uint64_t>();
  c->d_nbr = nbr.as<uint32_t>();
  c->d_deg = deg.as<uint32_t>();
  c->d_core = core.as<uint32_t>();
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_off, g->h_offsets, ((size_t)n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_nbr, g->h_neighbors, (size_t)m2 * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
  gclq__degree_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(c->d_off, n, c->d_deg);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__CUDA_TRY(cudaStreamSynchronize(stream));
  stats->upload_ms = gclq__ms_since(t0);

  /* cores (always: they bound the clique size, so the level table); SEEDS
     also keeps each vertex's peeling round (its degeneracy order) */
  gclq__dmem round(c);
  if (p->search == GCLQ_SEARCH_SEEDS) {
    GCLQ__TRY(round.get((size_t)n * sizeof(uint32_t)));
    c->d_round = round.as<uint32_t>();
  }
  t0 = gclq__clock::now();
  GCLQ__TRY(gclq__mc_cores(c, &max_core));
  stats->max_core = max_core;
  stats->cores_ms = gclq__ms_since(t0);
  c->d_filter = p->prune_core ? c->d_core : c->d_deg;
  c->max_levels = max_core + 3;
  c->levels = (gclq__level_ptrs *)GCLQ_MALLOC(c->max_levels * sizeof(gclq__level_ptrs));
  c->level_len = (uint64_t *)GCLQ_MALLOC(c->max_levels * sizeof(uint64_t));
  hclique = (uint32_t *)GCLQ_MALLOC(((size_t)max_core + 2) * sizeof(uint32_t));
  if (c->levels == NULL || c->level_len == NULL || hclique == NULL) {
    GCLQ_FREE(hclique);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  memset(c->levels, 0, c->max_levels * sizeof(gclq__level_ptrs));
  memset(c->level_len, 0, c->max_levels * sizeof(uint64_t));
  st = d_levels.get(c->max_levels * sizeof(gclq__level_ptrs));
  c->d_levels = d_levels.as<gclq__level_ptrs>();

  /* heuristic: the lower bound and a clique of that size */
  t0 = gclq__clock::now();
  hclique[0] = 0;
  if (st == GCLQ_SUCCESS && p->heuristic != GCLQ_HEURISTIC_NONE) {
    const uint32_t *key = p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE
                              ? c->d_core : c->d_deg;
    if (p->heuristic == GCLQ_HEURISTIC_SINGLE_DEGREE || p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE)
      st = gclq__mc_greedy_single(c, key, hclique, &lb);
    else
      st = gclq__mc_greedy_multi(c, g, key, p->seeds ? p->seeds : (n + 19) / 20, hclique, &lb);
  }
  stats->heuristic_ms = gclq__ms_since(t0);
  stats->lower_bound = lb;
  c->best = lb;
  c->target = p->find_one ? lb + 1 : lb;
  if (st == GCLQ_SUCCESS && p->find_one) st = gclq__mc_keep_rows(c, hclique, 1, lb, 1);
  GCLQ_FREE(hclique);
  GCLQ__TRY(st);
  if (p->log) {
    snprintf(line, sizeof line, "heuristic: lower bound %u; max core %u", lb, max_core);
    gclq__mc_log(c, line);
  }

  /* the per-seed search; the BFS below when a local graph is too large */
  stats->search = GCLQ_SEARCH_BFS;
  if (p->search == GCLQ_SEARCH_SEEDS) {
    int too_big = 0;
    const uint32_t best0 = c->best, target0 = c->target;
    t0 = gclq__clock::now();
    st = gclq__mc_seeds(c, max_core, &too_big);
    stats->search_ms = gclq__ms_since(t0);
    if (st == GCLQ_ERROR_OUT_OF_MEMORY && too_big != 2) {
      /* the seeds' buffers do not fit the budget: the BFS below splits its
         work to fit instead (from the heuristic's bound, rows untouched) */
      c->best = best0, c->target = target0;
      snprintf(stats->notes, sizeof stats->notes, "SEEDS: did not fit the device budget: ran the BFS");
      stats->nodes = stats->seeds = stats->tasks = 0, stats->max_local = 0;
      st = GCLQ_SUCCESS;
    } else if (st != GCLQ_SUCCESS || too_big != 1) {
      stats->search = GCLQ_SEARCH_SEEDS;
      if (p->log && st == GCLQ_SUCCESS) {
        snprintf(line, sizeof line, "seeds: %llu seeds, %llu tasks, %llu nodes, largest local graph %u, omega %u",
                 (unsigned long long)stats->seeds, (unsigned long long)stats->tasks,
                 (unsigned long long)stats->nodes, stats->max_local, c->best);
        gclq__mc_log(c, line);
      }
      return st;
    } else {
      snprintf(stats->notes, sizeof stats->notes,
               "SEEDS: a local graph of %u vertices is above %u: ran the BFS", stats->max_local, GCLQ__SEED_MAX);
      stats->max_local = 0;
    }
  }

  /* setup: the 2-clique list (Alg. 3) */
  t0 = gclq__clock::now();
  gclq__dmem vid2(c), sid2(c);
  {
    gclq__dmem order(c), pos(c), key(c);
    gclq__setup_args sa;
    uint64_t *d_pos;
    GCLQ__TRY(order.get((size_t)n * sizeof(uint32_t)));
    if (p->order == GCLQ_WINDOW_ORDER_INDEX) {
      gclq__iota_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(order.as<uint32_t>(), n);
      GCLQ__CUDA_TRY(cudaGetLastError());
    } else {
      int by_core = p->order == GCLQ_WINDOW_ORDER_CORE_ASC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
      int desc = p->order == GCLQ_WINDOW_ORDER_DEGREE_DESC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
      GCLQ__TRY(gclq__mc_sort_by(c, by_core ? c->d_core : c->d_deg, desc, order.as<uint32_t>()));
    }
    sa.order = order.as<uint32_t>();
    sa.n = n;
    sa.off = c->d_off;
    sa.nbr = c->d_nbr;
    sa.deg = c->d_deg;
    sa.filter = c->d_filter;
    sa.target = c->target;
    sa.orient_index = p->orient_index;
    sa.colour = p->bound != GCLQ_BOUND_LENGTH;
    GCLQ__TRY(pos.get(((size_t)n + 1) * sizeof(uint64_t)));
    d_pos = pos.as<uint64_t>();
    gclq__two_count_kernel<<<gclq__grid_warps((uint64_t)n + 1), 32 * GCLQ__CWARPS, 0, stream>>>(sa, d_pos);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_scan_exclusive(t, tb, (const uint64_t *)d_pos, d_pos, (size_t)n + 1, gprim_op_sum(), (uint64_t)0,
                                  stream);
    }));
    GCLQ__TRY(gclq__mc_read(c, &t2, d_pos + n, sizeof t2));
    if (t2 >= 0xffffffffull) return GCLQ_ERROR_OUT_OF_MEMORY;
    if (t2 > 0) {
      uint64_t *d_key;
      GCLQ__TRY(key.get((size_t)t2 * sizeof(uint64_t)));
      GCLQ__TRY(vid2.get((size_t)t2 * sizeof(uint32_t)));
      GCLQ__TRY(sid2.get((size_t)t2 * sizeof(uint32_t)));
      d_key = key.as<uint64_t>();
      gclq__two_write_kernel<<<gclq__grid_warps(n), 32 * GCLQ__CWARPS, 0, stream>>>(sa, d_pos, d_key,
                                                                                      sid2.as<uint32_t>());
      GCLQ__CUDA_TRY(cudaGetLastError());
      /* candidates sorted by degree within sublists (000 Alg. 3 line 40) */
      GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
        return gprim_segmented_sort_keys(t, tb, (const uint64_t *)d_key, d_key, (size_t)t2, (size_t)n,
                                         (const uint64_t *)d_pos, stream);
      }));
      gclq__low_word_kernel<<<gclq__grid(t2), GCLQ__BLOCK, 0, stream>>>(d_key, t2, vid2.as<uint32_t>());
      GCLQ__CUDA_TRY(cudaGetLastError());
      if (p->window > 0) {
        hpos = (uint64_t *)GCLQ_MALLOC(((size_t)n + 1) * sizeof(uint64_t));
        if (hpos == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
        st = gclq__mc_read(c, hpos, d_pos, ((size_t)n + 1) * sizeof(uint64_t));
        if (st != GCLQ_SUCCESS) {
          GCLQ_FREE(hpos);
          return st;
        }
      }
    }
  }
  GCLQ__CUDA_TRY(cudaStreamSynchronize(stream));
  stats->setup_ms = gclq__ms_since(t0);
  stats->two_cliques = t2;
  st = gclq__mc_count_level(c, 2, t2);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(hpos);
    return st;
  }
  if (p->log) {
    snprintf(line, sizeof line, "level 2: %llu candidates (the 2-clique list)", (unsigned long long)t2);
    gclq__mc_log(c, line);
  }

  /* search: breadth-first over the clique list, window by window (Alg. 4) */
  t0 = gclq__clock::now();
  c->levels[2].vid = vid2.as<uint32_t>();
  c->levels[2].sid = sid2.as<uint32_t>();
  c->level_len[2] = t2;
  gclq__dmem d_pos(c), d_step(c), d_scan(c);
  if (t2 > 0) { /* the per-step buffers, once for the whole search */
    size_t tb = 0;
    /* parents counted per step: GCLQ__STEP_ENTRIES, fewer under a small
       budget (the counts take at most an eighth of what is left) */
    uint64_t pc = GCLQ__STEP_ENTRIES, left = c->budget > c->used ? c->budget - c->used : 0;
    while (pc > 256 && (pc + 1) * 2 * sizeof(uint64_t) > left / 8) pc /= 2;
    c->pos_cap = pc;
    if (gprim_scan_exclusive((void *)NULL, &tb, (const uint64_t *)NULL, (uint64_t *)NULL, (size_t)pc + 1,
                             gprim_op_sum(), (uint64_t)0, stream) != cudaSuccess)
      st = GCLQ_ERROR_CUDA;
    if (st == GCLQ_SUCCESS) st = d_pos.get(((size_t)pc + 1) * sizeof(uint64_t));
    if (st == GCLQ_SUCCESS) st = d_step.get(3 * sizeof(uint64_t));
    if (st == GCLQ_SUCCESS) st = d_scan.get(tb);
    c->d_pos = d_pos.as<uint64_t>();
    c->d_step = d_step.as<uint64_t>();
    c->d_scan_temp = d_scan.p;
    c->scan_temp_bytes = tb;
  }
  {
    uint64_t a = 0;
    while (st == GCLQ_SUCCESS && a < t2) {
      uint64_t b = t2;
      if (p->window > 0 && t2 - a > p->window) { /* end at the first sublist end at or after a + window */
        uint64_t want = a + p->window, lo = 0, hi = n;
        while (lo < hi) {
          uint64_t mid = (lo + hi) / 2;
          if (hpos[mid] < want) lo = mid + 1;
          else hi = mid;
        }
        b = hpos[lo];
      }
      stats->windows++;
      if (p->log && p->window > 0) {
        snprintf(line, sizeof line, "window %u: 2-cliques %llu..%llu of %llu, bound %u", stats->windows,
                 (unsigned long long)a, (unsigned long long)b, (unsigned long long)t2, c->best);
        gclq__mc_log(c, line);
      }
      st = gclq__mc_expand(c, 2, a, b);
      a = b;
    }
  }
  GCLQ_FREE(hpos);
  stats->search_ms = gclq__ms_since(t0);
  stats->readout_ms = c->readout_ms;
  return st;
}

/* CUDA backend entry: graph with at least one edge, plan resolved. Out:
   omega, the number of rows and the rows (compact ids, GCLQ_MALLOC'd,
   unsorted); stats filled. */
static inline gclq_status gclq__cuda_max_cliques(const gclq_graph *g, const gclq__mc_plan *plan, uint32_t *omega,
                                          uint64_t *count, uint32_t **rows, gclq_maxclique_stats *stats) {
  gclq__mc_ctx c;
  gclq_status st;
  if (g->num_vertices >= GCLQ__DEAD) return GCLQ_ERROR_INVALID_ARGUMENT; /* ids need their top bit free */
  memset(&c, 0, sizeof c);
  c.plan = plan;
  c.stream = (cudaStream_t)plan->stream;
  c.stats = stats;
  c.budget = plan->budget;
  if (c.budget == 0) {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
      cudaGetLastError();
      return GCLQ_ERROR_CUDA;
    }
    c.budget = free_b / 10 * 9;
  }
  stats->budget_bytes = c.budget;
  /* The default allocator: keep freed blocks in the stream-ordered pool across
     synchronisations for the run (release threshold 0, the default, hands
     them back to the driver at every synchronisation and maps them again at
     the next cudaMallocAsync); the old threshold comes back afterwards. */
  cudaMemPool_t pool = NULL;
  uint64_t old_threshold = 0;
  int device = 0;
  if (plan->allocator.alloc == NULL && cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetMemPool(&pool, device) == cudaSuccess &&
      cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &old_threshold) == cudaSuccess) {
    uint64_t keep = ~(uint64_t)0;
    if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) pool = NULL;
  } else {
    pool = NULL;
  }
  cudaGetLastError();
  st = gclq__mc_run(&c, g);
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  if (pool != NULL) {
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &old_threshold);
    cudaMemPoolTrimTo(pool, (size_t)old_threshold);
  }
  stats->peak_device_bytes = c.peak;
  GCLQ_FREE(c.levels);
  GCLQ_FREE(c.level_len);
  if (st == GCLQ_SUCCESS && c.num_rows == 0) st = GCLQ_ERROR_CUDA; /* cannot happen: the bound's clique is found */
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(c.rows);
    return st;
  }
  *omega = c.best;
  *count = c.num_rows;
  *rows = c.rows;
  return GCLQ_SUCCESS;
}
/* Core numbers on the device (Alg. 1) of a host graph, for the tests:
   h_core gets n entries, *max_core the largest. */
static inline gclq_status gclq__cuda_core_numbers(const gclq_graph *g, uint32_t *h_core, uint32_t *max_core) {
  gclq__mc_plan plan;
  gclq_maxclique_stats stats;
  gclq__mc_ctx c;
  gclq_status st;
  const uint32_t n = g->num_vertices;
  memset(&plan, 0, sizeof plan);
  memset(&stats, 0, sizeof stats);
  memset(&c, 0, sizeof c);
  c.plan = &plan;
  c.stats = &stats;
  c.budget = ~(size_t)0;
  c.n = n;
  *max_core = 0;
  if (n == 0) return GCLQ_SUCCESS;
  {
    gclq__dmem off(&c), nbr(&c), deg(&c), core(&c);
    GCLQ__TRY(off.get(((size_t)n + 1) * sizeof(uint64_t)));
    GCLQ__TRY(nbr.get((size_t)(2 * g->num_edges) * sizeof(uint32_t)));
    GCLQ__TRY(deg.get((size_t)n * sizeof(uint32_t)));
    GCLQ__TRY(core.get((size_t)n * sizeof(uint32_t)));
    c.d_off = off.as<uint64_t>();
    c.d_nbr = nbr.as<uint32_t>();
    c.d_deg = deg.as<uint32_t>();
    c.d_core = core.as<uint32_t>();
    GCLQ__CUDA_TRY(cudaMemcpy(c.d_off, g->h_offsets, ((size_t)n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice));
    if (g->num_edges)
      GCLQ__CUDA_TRY(cudaMemcpy(c.d_nbr, g->h_neighbors, (size_t)(2 * g->num_edges) * sizeof(uint32_t),
                                cudaMemcpyHostToDevice));
    gclq__degree_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, 0>>>(c.d_off, n, c.d_deg);
    GCLQ__CUDA_TRY(cudaGetLastError());
    st = gclq__mc_cores(&c, max_core);
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(&c, h_core, c.d_core, (size_t)n * sizeof(uint32_t));
  }
  if (cudaDeviceSynchronize() != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  return st;
}

#endif /* GPUCLIQUE_KERNELS_CUH */
