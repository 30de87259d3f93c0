/* gpuclique_kernels.cuh - device code of the graph half (cores and maximum
   cliques: the CUDA backend of gclq_max_cliques; set intersection: the CUDA
   backend of gclq_intersect_*, at the end). Included by
   gpuclique.h's implementation only, when it is compiled by nvcc, after
   gpuprim.cuh and the private plan types (gclq__mc_plan).

   Maximum cliques (ch. 2 of Geil, "Tackling GPU Memory Size Limitations",
   the dissertation below), the CUDA backend:
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
#include <thread> /* the containment join's light part beside the device (co-processing) */

/* defined later in gpuclique.h's implementation */
static inline gclq_status gclq__device_alloc(const gclq_device_allocator *a, void **d_ptr, size_t bytes,
                                             gclq_stream stream);
static inline void gclq__device_free(const gclq_device_allocator *a, void *d_ptr, gclq_stream stream);
static void *gclq__alloc_array(uint64_t count, size_t size);
struct gclq__sets_sink;
static gclq_status gclq__sets_take(gclq__sets_sink *k, const uint32_t *pairs, const uint32_t *counts, uint64_t n,
                                   const uint64_t *offsets, const uint32_t *elements);

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
   k-core decomposition (the dissertation, Alg. 1): parallel peeling. With k the current
   level, every vertex still present whose degree is at most k leaves with
   core number k (filter); the neighbours it leaves behind lose one degree
   each (advance); repeat until no vertex leaves, then k jumps to the
   smallest degree left.
   ------------------------------------------------------------------------- */

/* Alg. 1 filter: info[0] counts the leaving vertices (listed in frontier),
   info[1] takes the smallest degree of those that stay. round (NULL: not
   kept) gets r, the number of rounds that took vertices before this one:
   the order by (round, id) is gclq_degeneracy_order's. */
static __global__ void gclq__core_filter_kernel(uint32_t n, uint32_t k, const uint32_t *deg, uint32_t *core,
                                                uint8_t *gone, uint32_t *frontier, uint32_t *info, uint32_t *round,
                                                uint32_t r) {
  uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || gone[v]) return;
  uint32_t d = deg[v];
  if (d <= k) {
    gone[v] = 1;
    core[v] = k;
    if (round != NULL) round[v] = r;
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

/* The peeling in one cooperative launch: the state every block shares. The
   counters of round it live in slot it % 3, so a slot is reset two rounds
   before it is used again and after everyone has read it. */
struct gclq__peel_state {
  unsigned int bar_count, bar_gen; /* the grid barrier */
  unsigned int left[3], low[3];    /* per slot: vertices leaving, smallest degree staying */
  unsigned int max_core;
};

/* Grid barrier for a cooperative launch (every block resident): the last
   block to arrive resets the count and opens the next generation. */
static __device__ __forceinline__ void gclq__grid_sync(gclq__peel_state *s) {
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile unsigned int *gen = &s->bar_gen;
    const unsigned int g = *gen;
    __threadfence();
    if (atomicAdd(&s->bar_count, 1u) == gridDim.x - 1) {
      atomicExch(&s->bar_count, 0u);
      __threadfence();
      atomicAdd(&s->bar_gen, 1u);
    } else {
      while (*gen == g) __nanosleep(32);
    }
    __threadfence();
  }
  __syncthreads();
}

/* Alg. 1 (filter, advance) in one cooperative kernel: rounds separated by
   grid barriers instead of launches and read backs; the same cores and
   rounds as gclq__core_filter_kernel / gclq__core_advance_kernel in a loop.
   Values written by other blocks in the round before are read through L2
   (__ldcg); a vertex's gone flag, core and round only by its own thread.
   Every round looks at all n vertices: on R-MAT 18 (588 rounds, 8.6% of
   the looks find a vertex still present) scanning compacted lists of the
   vertices left instead measured slower (orientation 11.4 -> 12.7 ms on an
   H100), the list writes costing more than the looks they save. */
static __global__ void __launch_bounds__(GCLQ__BLOCK)
    gclq__core_peel_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, uint32_t *deg, uint8_t *gone,
                           uint32_t *core, uint32_t *round, uint32_t *frontier, gclq__peel_state *s) {
  const uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, threads = (uint64_t)gridDim.x * blockDim.x;
  const uint32_t lane = threadIdx.x & 31;
  uint32_t k = 0, left = n, rounds = 0, best = 0;
  for (uint32_t it = 0; left > 0; ++it) {
    unsigned int *leaving = &s->left[it % 3], *low = &s->low[it % 3];
    if (tid == 0) {
      s->left[(it + 1) % 3] = 0;
      s->low[(it + 1) % 3] = 0xffffffffu;
    }
    for (uint64_t v = tid; v < n; v += threads) {
      if (gone[v]) continue;
      const uint32_t d = __ldcg(deg + v);
      if (d <= k) {
        gone[v] = 1;
        core[v] = k;
        if (round != NULL) round[v] = rounds;
        frontier[atomicAdd(leaving, 1u)] = (uint32_t)v;
      } else {
        atomicMin(low, d);
      }
    }
    gclq__grid_sync(s);
    const uint32_t out = __ldcg(leaving);
    if (out == 0) { /* nobody left at k: jump to the smallest degree still present */
      k = __ldcg(low);
      continue;
    }
    best = k;
    left -= out;
    ++rounds;
    for (uint64_t w = tid / 32; w < out; w += threads / 32) {
      const uint32_t v = __ldcg(frontier + w);
      for (uint64_t e = off[v] + lane; e < off[v + 1]; e += 32) {
        const uint32_t u = nbr[e];
        if (!__ldcg(gone + u)) atomicSub(&deg[u], 1u);
      }
    }
    gclq__grid_sync(s);
  }
  if (tid == 0) s->max_core = best;
}

/* ---------------------------------------------------------------------------
   heuristic helpers (the dissertation, sec. 2.4.3, Alg. 2)
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
   colour bound, a warp per candidate list (gclq__host_bfs_simulate in
   tests/clique_testing.h is the serial twin: the same lists, colours and
   order, so its figures predict the device's). The children of a parent (its later siblings adjacent to it, or
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
   2-clique setup (the dissertation, Alg. 3), a warp per source vertex
   ------------------------------------------------------------------------- */
struct gclq__setup_args {
  const uint32_t *order;  /* source vertices in window order */
  uint32_t n;
  const uint64_t *off;
  const uint32_t *nbr;
  const uint32_t *deg;
  const uint32_t *filter; /* degree or core number: pre-pruning */
  uint32_t target;        /* cliques searched have at least this size */
  const uint32_t *round;  /* non-NULL: oriented by (peeling round, id) */
  int orient_index;
  int colour;             /* the colour bound (else the length bound) */
};

/* Does the edge v -> u belong to v (orientation), and can u be in a clique of size target? */
static __device__ __forceinline__ bool gclq__d_keep_edge(const gclq__setup_args &a, uint32_t v, uint32_t u) {
  bool owned = a.round != NULL ? a.round[v] < a.round[u] || (a.round[v] == a.round[u] && v < u)
               : a.orient_index ? v < u
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
   coloured list, the degree otherwise (the dissertation, Alg. 3: by degree), so the
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
   breadth-first expansion (the dissertation, Alg. 4): level k holds k-cliques as
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

/* Readout (the dissertation, sec. 2.4.4): clique of entry a + t of level k, by following
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
   The bitset search (gclq_search BITSET): the same breadth-first levels, but a
   k-clique is a node that carries its candidates. Each source s (a vertex
   that survives pre-pruning) gets a local graph: its kept out-neighbours
   L(s) (ascending ids) and their adjacency as d x words(d) bit rows, built
   once per window. A node of level k is (source, R, P): R the local vertices
   of the clique besides s (k - 1 bits), P the local vertices adjacent to all
   of it. Per node, a warp colours P greedily, class by class in index order,
   for need - 1 classes (need = target - k): every clique of the target's size
   through the node takes a vertex of what stays uncoloured, B (Tomita's MCQ
   bound, as in San Segundo's BBMC). The children are the b in B, highest index
   first, each with P_b = (P minus the B vertices above b) & N(b), kept when
   k + 1 + |P_b| reaches the target. Every clique is found once: in the branch
   of its highest B vertex. Nodes with P empty are cliques that cannot grow.
   Count / scan / write per step as the list search; words per lane WPL = 1, 2,
   4 (local graphs of up to 1024, 2048, 4096 vertices).
   ------------------------------------------------------------------------- */
#define GCLQ__FULL 0xffffffffu

struct gclq__bsrc { /* one source of a window */
  uint64_t loff;    /* L(s) at L + loff */
  uint64_t aoff;    /* its rows at adj + aoff: d rows of words(d) words */
  uint32_t v, d;
};
static __host__ __device__ __forceinline__ uint32_t gclq__bwords(uint32_t d) { return (d + 31) / 32; }

struct gclq__bits_args {
  const gclq__bsrc *src;
  const uint32_t *L, *adj;
  const uint32_t *nodes; /* level k: stride 2 nw + 1 words: [source][R: nw][P: nw] */
  uint32_t nw;
  uint64_t a, n;         /* the parents [a, a + n) */
  uint32_t k, target;
  int colour;            /* the colour bound (else the length bound: B = P) */
};

/* Words lane * WPL + j of a bit row of W words (zero past W). */
template <int WPL>
static __device__ __forceinline__ void gclq__bits_load(const uint32_t *row, uint32_t W, uint32_t (&x)[WPL]) {
  const uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int j = 0; j < WPL; ++j) x[j] = lane * WPL + j < W ? __ldg(row + lane * WPL + j) : 0u;
}
template <int WPL>
static __device__ __forceinline__ uint32_t gclq__bits_or(const uint32_t (&x)[WPL]) {
  uint32_t o = 0;
#pragma unroll
  for (int j = 0; j < WPL; ++j) o |= x[j];
  return o;
}
/* The lowest (first) or highest set bit of the warp's set x (not empty):
   its local index, the same on every lane. */
template <int WPL, bool HIGH>
static __device__ __forceinline__ uint32_t gclq__bits_pick(const uint32_t (&x)[WPL], uint32_t ballot) {
  const uint32_t at = HIGH ? 31 - __clz(ballot) : __ffs(ballot) - 1;
  uint32_t idx = 0;
  if (HIGH) {
#pragma unroll
    for (int j = 0; j < WPL; ++j)
      if (x[j]) idx = 32 * j + 31 - __clz(x[j]);
  } else {
#pragma unroll
    for (int j = WPL - 1; j >= 0; --j)
      if (x[j]) idx = 32 * j + __ffs(x[j]) - 1;
  }
  return 32 * WPL * at + __shfl_sync(GCLQ__FULL, idx, at);
}
template <int WPL>
static __device__ __forceinline__ void gclq__bits_clear(uint32_t (&x)[WPL], uint32_t v) {
  const uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int j = 0; j < WPL; ++j)
    if (v / 32 == lane * WPL + j) x[j] &= ~(1u << (v % 32));
}

/* Greedy colouring of the set U (rows adj, W words each), class by class in
   index order, at most `classes` classes: U keeps what is left uncoloured.
   Returns the classes used. Warp-uniform. */
template <int WPL>
static __device__ uint32_t gclq__bits_colour(const uint32_t *adj, uint32_t W, uint32_t (&U)[WPL], uint32_t classes) {
  uint32_t used = 0;
  while (used < classes && __any_sync(GCLQ__FULL, gclq__bits_or(U) != 0)) {
    uint32_t open[WPL];
#pragma unroll
    for (int j = 0; j < WPL; ++j) open[j] = U[j];
    ++used;
    for (;;) {
      uint32_t ballot = __ballot_sync(GCLQ__FULL, gclq__bits_or(open) != 0);
      if (ballot == 0) break;
      uint32_t v = gclq__bits_pick<WPL, false>(open, ballot), r[WPL];
      gclq__bits_load<WPL>(adj + (uint64_t)v * W, W, r);
#pragma unroll
      for (int j = 0; j < WPL; ++j) open[j] &= ~r[j];
      gclq__bits_clear<WPL>(open, v);
      gclq__bits_clear<WPL>(U, v);
    }
  }
  return used;
}

/* A node's source, W, P (and R when asked). */
struct gclq__bits_node {
  gclq__bsrc s;
  uint32_t si, W;
  const uint32_t *p; /* the node */
};
static __device__ __forceinline__ gclq__bits_node gclq__bits_at(const gclq__bits_args &a, uint64_t i) {
  gclq__bits_node nd;
  nd.p = a.nodes + i * (2 * (uint64_t)a.nw + 1);
  nd.si = nd.p[0];
  nd.s = a.src[nd.si];
  nd.W = gclq__bwords(nd.s.d);
  return nd;
}

/* The branch set B of a node with P (not empty): what need - 1 colour classes
   leave (all of P under the length bound). */
template <int WPL>
static __device__ __forceinline__ void gclq__bits_branch(const gclq__bits_args &a, const gclq__bits_node &nd,
                                                         const uint32_t (&P)[WPL], uint32_t (&B)[WPL]) {
  const uint32_t need = a.target > a.k ? a.target - a.k : 0;
#pragma unroll
  for (int j = 0; j < WPL; ++j) B[j] = P[j];
  if (a.colour && need > 1) gclq__bits_colour<WPL>(a.adj + nd.s.aoff, nd.W, B, need - 1);
}

/* Visit the children of a node, highest b of B first: f(b, P_b) for each one
   kept (k + 1 + |P_b| >= target). Returns how many. */
template <int WPL, typename F>
static __device__ __forceinline__ uint32_t gclq__bits_children(const gclq__bits_args &a, const gclq__bits_node &nd,
                                                               const uint32_t (&P)[WPL], const uint32_t (&B)[WPL],
                                                               F f) {
  uint32_t rest[WPL], cur[WPL], kept = 0;
#pragma unroll
  for (int j = 0; j < WPL; ++j) rest[j] = B[j], cur[j] = P[j];
  for (;;) {
    uint32_t ballot = __ballot_sync(GCLQ__FULL, gclq__bits_or(rest) != 0);
    if (ballot == 0) break;
    uint32_t b = gclq__bits_pick<WPL, true>(rest, ballot), r[WPL], c = 0;
    gclq__bits_clear<WPL>(rest, b);
    gclq__bits_clear<WPL>(cur, b);
    gclq__bits_load<WPL>(a.adj + nd.s.aoff + (uint64_t)b * nd.W, nd.W, r);
#pragma unroll
    for (int j = 0; j < WPL; ++j) r[j] &= cur[j], c += __popc(r[j]);
    c = __reduce_add_sync(GCLQ__FULL, c);
    if ((uint64_t)a.k + 1 + c >= a.target) f(kept++, b, r);
  }
  return kept;
}

struct gclq__bits_nop {
  template <int WPL> __device__ void operator()(uint32_t, uint32_t, const uint32_t (&)[WPL]) const {}
};

/* Count a step's parents, a warp each: cnt[t] = children (cnt[n] = 0 for the
   scan), B into bset (nw words a parent); nodes with P empty are counted in
   *leaves (cliques of size k that cannot grow). */
template <int WPL>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_count_kernel(gclq__bits_args a, uint64_t *cnt,
                                                                                uint32_t *bset,
                                                                                unsigned long long *leaves) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (t > a.n) return;
  if (t == a.n) {
    if (lane == 0) cnt[t] = 0;
    return;
  }
  gclq__bits_node nd = gclq__bits_at(a, a.a + t);
  uint32_t P[WPL], B[WPL], c = 0;
  gclq__bits_load<WPL>(nd.p + 1 + a.nw, nd.W, P);
  if (!__any_sync(GCLQ__FULL, gclq__bits_or(P) != 0)) {
    if (lane == 0) atomicAdd(leaves, 1ull);
  } else {
    gclq__bits_branch<WPL>(a, nd, P, B);
    c = gclq__bits_children<WPL>(a, nd, P, B, gclq__bits_nop());
#pragma unroll
    for (int j = 0; j < WPL; ++j)
      if (lane * WPL + j < a.nw) bset[t * a.nw + lane * WPL + j] = B[j];
  }
  if (lane == 0) cnt[t] = c;
}

/* Write the children of the parents [a, a + n) at pos[t] - pos[0], in the
   count kernel's order. */
template <int WPL>
struct gclq__bits_emit {
  uint32_t *out;
  uint64_t at;
  uint32_t nw, si;
  uint32_t R[WPL];
  __device__ void operator()(uint32_t i, uint32_t b, const uint32_t (&pb)[WPL]) const {
    const uint32_t lane = threadIdx.x & 31;
    uint32_t *o = out + (at + i) * (2 * (uint64_t)nw + 1);
    if (lane == 0) o[0] = si;
#pragma unroll
    for (int j = 0; j < WPL; ++j) {
      const uint32_t w = lane * WPL + j;
      if (w < nw) {
        o[1 + w] = R[j] | (b / 32 == w ? 1u << (b % 32) : 0u);
        o[1 + nw + w] = pb[j];
      }
    }
  }
};
template <int WPL>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_write_kernel(gclq__bits_args a, const uint64_t *pos,
                                                                                const uint32_t *bset, uint32_t *out) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (t >= a.n) return;
  const uint64_t at = pos[t] - pos[0];
  if (pos[t + 1] - pos[0] == at) return;
  gclq__bits_node nd = gclq__bits_at(a, a.a + t);
  uint32_t P[WPL], B[WPL];
  gclq__bits_emit<WPL> e;
  e.out = out, e.at = at, e.nw = a.nw, e.si = nd.si;
  gclq__bits_load<WPL>(nd.p + 1 + a.nw, nd.W, P);
  gclq__bits_load<WPL>(nd.p + 1, nd.W, e.R);
#pragma unroll
  for (int j = 0; j < WPL; ++j) B[j] = lane * WPL + j < a.nw ? bset[t * a.nw + lane * WPL + j] : 0u;
  gclq__bits_children<WPL>(a, nd, P, B, e);
}

/* Cliques of the parents [a, a + n) whose P is empty, as rows of k vertex ids
   (the source, then L(s) at R's bits) at rows + k * atomicAdd(num, 1), while
   fewer than cap. */
template <int WPL>
static __global__ void gclq__bits_record_kernel(gclq__bits_args a, uint32_t *rows, unsigned long long *num,
                                                unsigned long long cap) {
  const uint64_t t = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (t >= a.n) return;
  gclq__bits_node nd = gclq__bits_at(a, a.a + t);
  uint32_t P[WPL], R[WPL], mine = 0;
  gclq__bits_load<WPL>(nd.p + 1 + a.nw, nd.W, P);
  if (__any_sync(GCLQ__FULL, gclq__bits_or(P) != 0)) return;
  gclq__bits_load<WPL>(nd.p + 1, nd.W, R);
  unsigned long long r = 0;
  if (lane == 0) r = atomicAdd(num, 1ull);
  r = __shfl_sync(GCLQ__FULL, r, 0);
  if (r >= cap) return;
  uint32_t *row = rows + r * a.k;
#pragma unroll
  for (int j = 0; j < WPL; ++j) mine += __popc(R[j]);
  uint32_t at = gprim__warp_inclusive_sum_u32(mine) - mine + 1; /* after the source */
  if (lane == 0) row[0] = nd.s.v;
#pragma unroll
  for (int j = 0; j < WPL; ++j)
    for (uint32_t x = R[j]; x; x &= x - 1) row[at++] = a.L[nd.s.loff + 32 * (lane * WPL + j) + __ffs(x) - 1];
}

/* Window setup. Sizes: d[p] = the kept out-neighbours of order[p] (0 when the
   source is pre-pruned, or 1 + d is below the target), a warp per source. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_size_kernel(gclq__setup_args a, uint32_t *d) {
  const uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (p >= a.n) return;
  const uint32_t v = a.order[p];
  uint32_t c = 0;
  if ((uint64_t)a.filter[v] + 1 >= a.target)
    for (uint64_t e0 = a.off[v]; e0 < a.off[v + 1]; e0 += 32) {
      const uint64_t e = e0 + lane;
      c += __popc(__ballot_sync(GCLQ__FULL, e < a.off[v + 1] && gclq__d_keep_edge(a, v, a.nbr[e])));
    }
  if (lane == 0) d[p] = (uint64_t)c + 1 >= a.target ? c : 0;
}

/* L(s) of each source of the window (its table entry given), a warp each. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_list_kernel(gclq__setup_args a,
                                                                               const gclq__bsrc *src, uint32_t ns,
                                                                               uint32_t *L) {
  const uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (p >= ns) return;
  const gclq__bsrc s = src[p];
  uint64_t at = s.loff;
  if (s.d == 0) return;
  for (uint64_t e0 = a.off[s.v]; e0 < a.off[s.v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane;
    const uint32_t u = e < a.off[s.v + 1] ? a.nbr[e] : 0;
    const bool kept = e < a.off[s.v + 1] && gclq__d_keep_edge(a, s.v, u);
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, kept);
    if (kept) L[at + __popc(ballot & ((1u << lane) - 1u))] = u;
    at += __popc(ballot);
  }
}

/* The adjacency rows: a warp per local vertex (rows [0, total) of the window,
   source found by binary search on loff). */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_rows_kernel(const gclq__bsrc *src, uint32_t ns,
                                                                               uint64_t total, const uint32_t *L,
                                                                               const uint64_t *off, const uint32_t *nbr,
                                                                               uint32_t *adj) {
  const uint64_t r = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (r >= total) return;
  uint32_t lo = 0, hi = ns - 1; /* the last source with loff <= r */
  while (lo < hi) {
    const uint32_t mid = (lo + hi + 1) / 2;
    if (src[mid].loff <= r) lo = mid;
    else hi = mid - 1;
  }
  const gclq__bsrc s = src[lo];
  const uint32_t x = (uint32_t)(r - s.loff), W = gclq__bwords(s.d), u = L[r];
  uint32_t *row = adj + s.aoff + (uint64_t)x * W;
  for (uint32_t w = 0; w < W; ++w) {
    const uint32_t y = 32 * w + lane;
    const bool bit = y < s.d && y != x && gclq__d_adjacent(off, nbr, u, L[s.loff + y]);
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, bit);
    if (lane == 0) row[w] = ballot;
  }
}

/* The colour bound of each source's whole local graph: *ub = max over the
   sources of 1 + colours (no clique of the window is larger). */
template <int WPL>
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS) gclq__bits_ub_kernel(const gclq__bsrc *src, uint32_t ns,
                                                                             const uint32_t *adj, uint32_t *ub) {
  const uint64_t p = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (p >= ns) return;
  const gclq__bsrc s = src[p];
  uint32_t U[WPL];
#pragma unroll
  for (int j = 0; j < WPL; ++j) {
    const uint32_t w = lane * WPL + j;
    U[j] = 32 * w + 32 <= s.d ? GCLQ__FULL : 32 * w < s.d ? (1u << (s.d % 32)) - 1u : 0u;
  }
  const uint32_t colours = gclq__bits_colour<WPL>(adj + s.aoff, gclq__bwords(s.d), U, s.d + 1);
  if (lane == 0) atomicMax(ub, 1 + colours);
}

/* Level 1 of a window: a node per source, R empty, P all of L(s). */
static __global__ void gclq__bits_root_kernel(const gclq__bsrc *src, uint32_t ns, uint32_t nw, uint32_t *nodes) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= (uint64_t)ns * (2 * nw + 1)) return;
  const uint64_t p = i / (2 * nw + 1);
  const uint32_t f = (uint32_t)(i % (2 * nw + 1)), d = src[p].d;
  uint32_t x = (uint32_t)p;
  if (f > 0 && f <= nw) x = 0;
  if (f > nw) {
    const uint32_t w = f - nw - 1;
    x = 32 * w + 32 <= d ? GCLQ__FULL : 32 * w < d ? (1u << (d % 32)) - 1u : 0u;
  }
  nodes[i] = x;
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
  uint32_t *d_round; /* NULL, or where the peeling writes each vertex's round (k-cliques) */
  /* levels: host table of pointers (index = clique size), its device copy */
  uint32_t max_levels;
  gclq__level_ptrs *levels;
  uint64_t *level_len;
  gclq__level_ptrs *d_levels;
  /* the answer so far: cliques of size best (compact ids, rows of best) */
  uint32_t best, target;
  uint32_t *rows;
  uint64_t num_rows, rows_cap; /* rows_cap: ids */
  uint64_t found;              /* cliques of size best found (num_rows of them kept: plan->max_stored) */
  double readout_ms;
  /* per-step buffers of the search, allocated once: counts / positions
     (pos_cap + 1), the scan's temp storage, the step's numbers */
  uint64_t *d_pos, *d_step;
  uint64_t pos_cap; /* parents d_pos can count (GCLQ__STEP_ENTRIES unless the budget is small) */
  void *d_scan_temp;
  size_t scan_temp_bytes;
  const char *phase; /* for the log's out-of-memory line */
  int bits_found;    /* the bitset search recorded a clique in this run */
};

/* With the default allocator, a run keeps freed blocks in the stream-ordered
   pool across synchronisations (release threshold 0, the default, hands
   them back to the driver at every synchronisation and maps them again at
   the next cudaMallocAsync); _end puts the old threshold back. */
struct gclq__pool_keep {
  cudaMemPool_t pool; /* NULL: nothing changed */
  uint64_t old_threshold;
};
static inline void gclq__pool_keep_begin(gclq__pool_keep *k, const gclq_device_allocator *allocator) {
  int device = 0;
  k->pool = NULL;
  k->old_threshold = 0;
  if (allocator->alloc == NULL && cudaGetDevice(&device) == cudaSuccess &&
      cudaDeviceGetMemPool(&k->pool, device) == cudaSuccess &&
      cudaMemPoolGetAttribute(k->pool, cudaMemPoolAttrReleaseThreshold, &k->old_threshold) == cudaSuccess) {
    uint64_t keep = ~(uint64_t)0;
    if (cudaMemPoolSetAttribute(k->pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) k->pool = NULL;
  } else {
    k->pool = NULL;
  }
  cudaGetLastError();
}
static inline void gclq__pool_keep_end(gclq__pool_keep *k) {
  if (k->pool == NULL) return;
  cudaMemPoolSetAttribute(k->pool, cudaMemPoolAttrReleaseThreshold, &k->old_threshold);
  cudaMemPoolTrimTo(k->pool, (size_t)k->old_threshold);
}

/* The default device budget: 90% of the free memory now. */
static inline gclq_status gclq__default_budget(size_t *budget) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return GCLQ_ERROR_CUDA;
  }
  *budget = free_b / 10 * 9;
  return GCLQ_SUCCESS;
}

/* Would bytes more fit the budget now? (for allocations that are optional) */
static inline bool gclq__mc_fits(const gclq__mc_ctx *c, size_t bytes) {
  const size_t r = (bytes + 255) / 256 * 256;
  return r <= c->budget && c->used <= c->budget - r;
}

/* Device memory under the budget; bytes rounded up to 256. */
static inline gclq_status gclq__mc_alloc(gclq__mc_ctx *c, void **p, size_t *held, size_t bytes) {
  size_t r = (bytes + 255) / 256 * 256;
  *p = NULL;
  *held = 0;
  if (r == 0) r = 256;
  if (r > c->budget || c->used > c->budget - r) {
    if (c->plan->log) {
      char line[200];
      snprintf(line, sizeof line, "out of memory (%s): %zu bytes wanted, %zu of the %zu-byte budget held",
               c->phase ? c->phase : "start", r, c->used, c->budget);
      c->plan->log(c->plan->log_user, line);
    }
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
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
                                             int replace, uint64_t found) {
  uint64_t need;
  const uint64_t limit = c->plan->max_stored;
  if (replace) c->num_rows = 0, c->found = 0;
  c->found += found;
  if (limit && count > limit - c->num_rows) count = limit - c->num_rows;
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
    if (st == GCLQ_SUCCESS) st = gclq__mc_keep_rows(c, h, n, k, replace, n);
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

/* The step rule of both searches. A step counts the children of `span`
   parents (into c->d_pos, at most pc) and takes the prefix of them whose
   children fit in `width` entries and in a fair share of the budget's room
   left (at least one parent); the rest is counted again in the next step,
   against a target that may have risen. width starts at the plan's first
   width (GCLQ__FIRST_WIDTH) and doubles per step up to the step size
   (GCLQ__STEP_ENTRIES; a narrow first descent finds large cliques early);
   span is twice the last step's take. The fair share is room / (the levels
   that may still come, at least 2; omega <= max core + 1), so the levels
   below always have theirs (the levels are nested: a level 3 that takes
   everything leaves nothing for level 6 of a dense graph under 6 MiB, and
   halving alone starves the 60 levels of facebook under 32 MiB into
   one-parent steps).
   plan.no_split: every counted parent, pc at a time. */
struct gclq__steps {
  gclq__mc_ctx *c;
  uint64_t pc, width, span;
  int split;
  gclq__steps(gclq__mc_ctx *ctx, uint64_t parents) : c(ctx), pc(parents), split(!ctx->plan->no_split) {
    width = split ? c->plan->first_width : ~(uint64_t)0;
    span = split ? width : pc;
  }
  /* the parents the next step counts, of [a, b) */
  uint64_t parents(uint64_t a, uint64_t b) const {
    uint64_t n = b - a < span ? b - a : span;
    return n < pc ? n : pc;
  }
  /* After the count kernel wrote the children of n parents of level k into
     c->d_pos[0, n] (d_pos[n] = 0): scan them into positions (the dissertation, Alg. 4
     lines 28-31), size the step and read `words` numbers of c->d_step (the
     step kernel's three, then what the count kernel left there). One
     synchronisation. */
  gclq_status size(uint32_t k, uint64_t n, size_t child_bytes, uint64_t *step, size_t words) {
    const size_t slack = (size_t)64 << 10;
    const uint64_t share = c->max_levels > k + 4 ? c->max_levels - 2 - k : 2;
    const uint64_t room = c->used <= c->budget && c->budget - c->used > slack
                              ? (c->budget - c->used - slack) / child_bytes / share : 0;
    const uint64_t cap = !split ? ~(uint64_t)0 : room < width ? room : width;
    size_t tb = c->scan_temp_bytes;
    GCLQ__CUDA_TRY(gprim_scan_exclusive(c->d_scan_temp, &tb, (const uint64_t *)c->d_pos, c->d_pos, (size_t)(n + 1),
                                        gprim_op_sum(), (uint64_t)0, c->stream));
    gclq__step_kernel<<<1, 1, 0, c->stream>>>(c->d_pos, n, cap, c->d_step);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, step, c->d_step, words * sizeof(uint64_t)));
    if (split) {
      const uint64_t m = step[1];
      span = gclq__next_span(m, c->plan->step);
      if (m < n && room < width) c->stats->budget_splits++; /* the budget, not the step width, cut it */
      width = width * 2 < c->plan->step ? width * 2 : c->plan->step;
    }
    return GCLQ_SUCCESS;
  }
};

/* Expand the parents [a, b) of level k, then every level below them: depth
   first over steps (gclq__steps), breadth first inside one. Candidate-only
   entries (GCLQ__DEAD) count no children. A single parent whose children
   cannot fit is out of memory. Splitting changes the order of the work,
   never its result. */
static inline gclq_status gclq__mc_expand(gclq__mc_ctx *c, uint32_t k, uint64_t a, uint64_t b) {
  cudaStream_t stream = c->stream;
  gclq__steps steps(c, c->pos_cap);
  while (a < b) {
    uint64_t n = steps.parents(a, b), step[3];
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

    uint64_t *d = c->d_pos;
    gclq__level_count_kernel<<<gclq__grid_warps(n + 1), 32 * GCLQ__CWARPS, 0, stream>>>(la, d);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(steps.size(k, n, 2 * sizeof(uint32_t), step, 3)); /* children: vid + sid */
    uint64_t m = step[1], total = step[2];
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

/* ---- the bitset search (see the kernels above) ---- */

/* One window's local graphs, and its per-step scratch. */
struct gclq__bits_win {
  const gclq__bsrc *src;
  const uint32_t *L, *adj;
  uint32_t ns, nw, wpl; /* sources, words a node set, words a lane (1, 2, 4) */
  uint32_t *bset;       /* pc * nw: the count kernel's B sets */
  uint64_t pc;          /* parents a step may count */
};

template <int WPL>
static inline void gclq__bits_launch_count(gclq__mc_ctx *c, const gclq__bits_args &a, const gclq__bits_win &w) {
  gclq__bits_count_kernel<WPL><<<gclq__grid_warps(a.n + 1), 32 * GCLQ__CWARPS, 0, c->stream>>>(
      a, c->d_pos, w.bset, (unsigned long long *)(c->d_step + 3));
}
template <int WPL>
static inline void gclq__bits_launch_write(gclq__mc_ctx *c, const gclq__bits_args &a, const gclq__bits_win &w,
                                           uint32_t *out) {
  gclq__bits_write_kernel<WPL><<<gclq__grid_warps(a.n), 32 * GCLQ__CWARPS, 0, c->stream>>>(a, c->d_pos, w.bset, out);
}
template <int WPL>
static inline void gclq__bits_launch_record(gclq__mc_ctx *c, const gclq__bits_args &a, uint32_t *rows,
                                            unsigned long long *num, uint64_t cap) {
  gclq__bits_record_kernel<WPL><<<gclq__grid_warps(a.n), 32 * GCLQ__CWARPS, 0, c->stream>>>(a, rows, num, cap);
}
template <int WPL>
static inline void gclq__bits_launch_ub(gclq__mc_ctx *c, const gclq__bits_win &w, uint32_t *ub) {
  gclq__bits_ub_kernel<WPL><<<gclq__grid_warps(w.ns), 32 * GCLQ__CWARPS, 0, c->stream>>>(w.src, w.ns, w.adj, ub);
}
#define GCLQ__BITS_WPL(w, call) \
  ((w).wpl == 1 ? call<1> : (w).wpl == 2 ? call<2> : call<4>)

/* The cliques among the parents [a, a + m) of level k whose P is empty (at
   most `leaves`): kept as rows when they reach the target. */
static inline gclq_status gclq__bits_record(gclq__mc_ctx *c, const gclq__bits_args &pa, const gclq__bits_win &w,
                                            uint64_t a, uint64_t m, uint64_t leaves) {
  const int one = c->plan->find_one;
  const uint32_t k = pa.k;
  if (one ? k <= c->best : k < c->best) return GCLQ_SUCCESS;
  gclq__clock::time_point t0 = gclq__clock::now();
  int replace = one || k > c->best;
  const size_t row_bytes = (size_t)k * sizeof(uint32_t);
  while (m > 0) {
    /* parents [a, a + q): their rows (at most one each) fit the room */
    size_t room = c->budget - c->used > 4096 + 256 ? c->budget - c->used - 4096 - 256 : 0;
    uint64_t q = m, cap = leaves < m ? leaves : m, got = 0;
    if (cap * row_bytes > room) {
      cap = room / row_bytes > 0 ? room / row_bytes : 1;
      if (q > cap) q = cap; /* at most one clique a parent: all of [a, a + q) fit */
    }
    /* rows still to keep (the rest is only counted) */
    const uint64_t kept = replace ? 0 : c->num_rows, limit = one ? 1 : c->plan->max_stored;
    if (limit) cap = cap < limit - kept ? cap : limit - kept;
    gclq__dmem out(c), num(c);
    GCLQ__TRY(out.get((size_t)(cap ? cap : 1) * row_bytes));
    GCLQ__TRY(num.get(sizeof(unsigned long long)));
    GCLQ__CUDA_TRY(cudaMemsetAsync(num.p, 0, sizeof(unsigned long long), c->stream));
    gclq__bits_args ra = pa;
    ra.a = a;
    ra.n = q;
    GCLQ__BITS_WPL(w, gclq__bits_launch_record)(c, ra, out.as<uint32_t>(), num.as<unsigned long long>(), cap);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, &got, num.p, sizeof got));
    if (got > 0) {
      const uint64_t nr = got < cap ? got : cap;
      uint32_t *h = (uint32_t *)GCLQ_MALLOC((size_t)nr * row_bytes + 1);
      if (h == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
      gclq_status st = nr ? gclq__mc_read(c, h, out.p, (size_t)nr * row_bytes) : GCLQ_SUCCESS;
      if (st == GCLQ_SUCCESS) st = gclq__mc_keep_rows(c, h, nr, k, replace, one ? 1 : got);
      GCLQ_FREE(h);
      GCLQ__TRY(st);
      replace = 0;
      c->best = k;
      c->target = one ? k + 1 : k;
      c->bits_found = 1;
      if (one) break;
      leaves -= got < leaves ? got : leaves;
    }
    a += q;
    m -= q;
  }
  c->readout_ms += gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* Expand the nodes [a, b) of level k (nodes: its buffer), then every level
   below them, in the steps of gclq__mc_expand (gclq__steps), with nodes of
   2 nw + 1 words. */
static inline gclq_status gclq__bits_expand(gclq__mc_ctx *c, const gclq__bits_win &w, uint32_t k,
                                            const uint32_t *nodes, uint64_t a, uint64_t b) {
  const size_t node_bytes = (2 * (size_t)w.nw + 1) * sizeof(uint32_t);
  cudaStream_t stream = c->stream;
  gclq__steps steps(c, w.pc);
  if (k + 1 >= c->max_levels) return GCLQ_ERROR_CUDA; /* cannot happen: omega <= max core + 1 */
  while (a < b) {
    uint64_t n = steps.parents(a, b), step[4];
    gclq__bits_args ba;
    ba.src = w.src;
    ba.L = w.L;
    ba.adj = w.adj;
    ba.nodes = nodes;
    ba.nw = w.nw;
    ba.a = a;
    ba.n = n;
    ba.k = k;
    ba.target = c->target;
    ba.colour = c->plan->bound != GCLQ_BOUND_LENGTH;
    GCLQ__CUDA_TRY(cudaMemsetAsync(c->d_step + 3, 0, sizeof(uint64_t), stream));
    GCLQ__BITS_WPL(w, gclq__bits_launch_count)(c, ba, w);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(steps.size(k, n, node_bytes, step, 4)); /* step[3]: the parents with P empty */
    uint64_t m = step[1], total = step[2];
    if (step[3] > 0 && k >= c->target) GCLQ__TRY(gclq__bits_record(c, ba, w, a, m, step[3]));
    if (total > 0) {
      gclq__dmem next(c);
      GCLQ__TRY(next.get((size_t)total * node_bytes)); /* one parent's children do not fit */
      ba.n = m;
      GCLQ__BITS_WPL(w, gclq__bits_launch_write)(c, ba, w, next.as<uint32_t>());
      GCLQ__CUDA_TRY(cudaGetLastError());
      GCLQ__TRY(gclq__mc_count_level(c, k + 1, total));
      if (c->plan->log) {
        char line[160];
        snprintf(line, sizeof line, "level %u: %llu candidates (parents %llu..%llu of %llu, %.1f MiB held)", k + 1,
                 (unsigned long long)total, (unsigned long long)a, (unsigned long long)(a + m),
                 (unsigned long long)b, (double)c->used / 1048576.0);
        gclq__mc_log(c, line);
      }
      GCLQ__TRY(gclq__bits_expand(c, w, k + 1, next.as<uint32_t>(), 0, total));
    }
    a += m;
  }
  return GCLQ_SUCCESS;
}

/* The local graph sizes of the sources sa.order[0, sa.n) against sa.target
   (gclq__bits_size_kernel) into h_d (host, sa.n entries). */
static inline gclq_status gclq__bits_sizes(gclq__mc_ctx *c, const gclq__setup_args &sa, uint32_t *h_d) {
  gclq__dmem d(c);
  GCLQ__TRY(d.get((size_t)sa.n * sizeof(uint32_t)));
  gclq__bits_size_kernel<<<gclq__grid_warps(sa.n), 32 * GCLQ__CWARPS, 0, c->stream>>>(sa, d.as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  return gclq__mc_read(c, h_d, d.p, (size_t)sa.n * sizeof(uint32_t));
}

/* Build the local graphs of the sources sa.order[0, sa.n) against sa.target
   into src / L / adj (scoped by the caller); *w gets the window's shape, *ub
   its colour bound (0 when no source is left). */
static inline gclq_status gclq__bits_build(gclq__mc_ctx *c, const gclq__setup_args &sa, const uint32_t *h_order,
                                           gclq__dmem *src,
                                           gclq__dmem *L, gclq__dmem *adj, gclq__bits_win *w, uint32_t *ub) {
  cudaStream_t stream = c->stream;
  uint32_t *hd = NULL, maxd = 0;
  gclq__bsrc *tab = NULL;
  uint64_t sum_d = 0, sum_a = 0;
  gclq_status st = GCLQ_SUCCESS;
  *ub = 0;
  memset(w, 0, sizeof *w);
  hd = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  tab = (gclq__bsrc *)GCLQ_MALLOC((size_t)sa.n * sizeof(gclq__bsrc) + 1);
  st = hd == NULL || tab == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__bits_sizes(c, sa, hd);
  if (st == GCLQ_SUCCESS) {
    for (uint32_t p = 0; p < sa.n; ++p) {
      if (hd[p] == 0) continue;
      gclq__bsrc e;
      e.loff = sum_d;
      e.aoff = sum_a;
      e.v = h_order[p];
      e.d = hd[p];
      tab[w->ns++] = e;
      sum_d += hd[p];
      sum_a += (uint64_t)hd[p] * gclq__bwords(hd[p]);
      if (hd[p] > maxd) maxd = hd[p];
    }
  }
  GCLQ_FREE(hd);
  if (st == GCLQ_SUCCESS && w->ns > 0) {
    gclq__dmem d_ub(c);
    w->nw = gclq__bwords(maxd);
    w->wpl = w->nw <= 32 ? 1 : w->nw <= 64 ? 2 : 4;
    st = src->get((size_t)w->ns * sizeof(gclq__bsrc));
    if (st == GCLQ_SUCCESS) st = L->get((size_t)sum_d * sizeof(uint32_t));
    if (st == GCLQ_SUCCESS) st = adj->get((size_t)sum_a * sizeof(uint32_t));
    if (st == GCLQ_SUCCESS) st = d_ub.get(sizeof(uint32_t));
    if (st == GCLQ_SUCCESS && (cudaMemcpyAsync(src->p, tab, (size_t)w->ns * sizeof(gclq__bsrc), cudaMemcpyHostToDevice,
                                               stream) != cudaSuccess ||
                               cudaMemsetAsync(d_ub.p, 0, sizeof(uint32_t), stream) != cudaSuccess))
      st = GCLQ_ERROR_CUDA;
    if (st == GCLQ_SUCCESS) {
      w->src = src->as<gclq__bsrc>();
      w->L = L->as<uint32_t>();
      w->adj = adj->as<uint32_t>();
      gclq__bits_list_kernel<<<gclq__grid_warps(w->ns), 32 * GCLQ__CWARPS, 0, stream>>>(sa, w->src, w->ns,
                                                                                       L->as<uint32_t>());
      gclq__bits_rows_kernel<<<gclq__grid_warps(sum_d), 32 * GCLQ__CWARPS, 0, stream>>>(
          w->src, w->ns, sum_d, w->L, sa.off, sa.nbr, adj->as<uint32_t>());
      GCLQ__BITS_WPL(*w, gclq__bits_launch_ub)(c, *w, d_ub.as<uint32_t>());
      if (cudaGetLastError() != cudaSuccess) st = GCLQ_ERROR_CUDA;
    }
    if (st == GCLQ_SUCCESS) st = gclq__mc_read(c, ub, d_ub.p, sizeof *ub); /* also: tab is copied */
    c->stats->two_cliques += sum_d;
  }
  GCLQ_FREE(tab);
  return st;
}

/* The sources that survive the bound: kv[0, *nk) their ids in window
   order, hd[0, *nk) their local graph sizes, *maxd the largest (hd and kv
   GCLQ_MALLOC'd, sa.n + 1 entries, the caller frees them either way). */
static inline gclq_status gclq__bits_sources(gclq__mc_ctx *c, const gclq__setup_args &sa, uint32_t **hd_out,
                                             uint32_t **kv_out, uint32_t *nk, uint32_t *maxd) {
  uint32_t *hd, *ho, *kv;
  gclq_status st;
  hd = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  ho = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  kv = (uint32_t *)GCLQ_MALLOC((size_t)sa.n * sizeof(uint32_t) + 1);
  *hd_out = hd;
  *kv_out = kv;
  st = hd == NULL || ho == NULL || kv == NULL ? GCLQ_ERROR_OUT_OF_MEMORY : gclq__bits_sizes(c, sa, hd);
  if (st == GCLQ_SUCCESS) st = gclq__mc_read(c, ho, sa.order, (size_t)sa.n * sizeof(uint32_t));
  for (uint32_t i = 0; st == GCLQ_SUCCESS && i < sa.n; ++i)
    if (hd[i] > 0) {
      kv[*nk] = ho[i];
      hd[(*nk)++] = hd[i];
      if (hd[i] > *maxd) *maxd = hd[i];
    }
  GCLQ_FREE(ho);
  return st;
}

/* The search's per-step counts, allocated once: c->pos_cap = pc parents,
   their counts / positions (d_pos, pc + 1) and the scan's temp storage
   (d_scan). */
static inline gclq_status gclq__mc_step_counts(gclq__mc_ctx *c, uint64_t pc, gclq__dmem *d_pos, gclq__dmem *d_scan) {
  gclq_status st = GCLQ_SUCCESS;
  size_t tb = 0;
  c->pos_cap = pc;
  if (gprim_scan_exclusive((void *)NULL, &tb, (const uint64_t *)NULL, (uint64_t *)NULL, (size_t)pc + 1,
                           gprim_op_sum(), (uint64_t)0, c->stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS) st = d_pos->get(((size_t)pc + 1) * sizeof(uint64_t));
  if (st == GCLQ_SUCCESS) st = d_scan->get(tb);
  c->d_pos = d_pos->as<uint64_t>();
  c->d_scan_temp = d_scan->p;
  c->scan_temp_bytes = tb;
  return st;
}

/* The kept sources on the device (ksrc, from kv) and the per-step buffers
   (d_step, d_scan, d_pos). Parents counted per step: GCLQ__STEP_ENTRIES,
   fewer under a small budget (counts and B sets take at most an eighth of
   what is left). */
static inline gclq_status gclq__bits_buffers(gclq__mc_ctx *c, const uint32_t *kv, uint32_t nk, uint32_t maxd,
                                             gclq__dmem *ksrc, gclq__dmem *d_step, gclq__dmem *d_scan,
                                             gclq__dmem *d_pos) {
  const gclq__mc_plan *p = c->plan;
  cudaStream_t stream = c->stream;
  gclq_status st = ksrc->get((size_t)nk * sizeof(uint32_t) + 4);
  if (st == GCLQ_SUCCESS && nk > 0 &&
      cudaMemcpyAsync(ksrc->p, kv, (size_t)nk * sizeof(uint32_t), cudaMemcpyHostToDevice, stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS) st = d_step->get(4 * sizeof(uint64_t));
  c->d_step = d_step->as<uint64_t>();
  uint64_t pc = p->step, left = c->budget > c->used ? c->budget - c->used : 0;
  const uint64_t per = 2 * sizeof(uint64_t) + gclq__bwords(maxd) * sizeof(uint32_t);
  while (pc > 32 && (pc + 1) * per > left / 8) pc /= 2;
  if (st == GCLQ_SUCCESS) st = gclq__mc_step_counts(c, pc, d_pos, d_scan);
  return st;
}

/* The runs of one window (its local graphs built in w, colour bound ub): the
   target descends from ub; a run that finds a clique, or the run at the
   floor (the best so far), ends the window. */
static inline gclq_status gclq__bits_runs(gclq__mc_ctx *c, gclq__bits_win &w, uint32_t ub) {
  const gclq__mc_plan *p = c->plan;
  cudaStream_t stream = c->stream;
  gclq_status st = GCLQ_SUCCESS;
  char line[200];
  for (uint32_t T = ub; st == GCLQ_SUCCESS; --T) {
    const uint32_t fl = p->find_one ? c->best + 1 : c->best;
    if (T < fl) T = fl;
    c->target = T;
    c->bits_found = 0;
    if (p->log) {
      snprintf(line, sizeof line, "run: target %u", T);
      gclq__mc_log(c, line);
    }
    gclq__dmem roots(c);
    const uint64_t words = (uint64_t)w.ns * (2 * w.nw + 1);
    st = roots.get((size_t)words * sizeof(uint32_t));
    if (st != GCLQ_SUCCESS) break;
    gclq__bits_root_kernel<<<gclq__grid(words), GCLQ__BLOCK, 0, stream>>>(w.src, w.ns, w.nw, roots.as<uint32_t>());
    if (cudaGetLastError() != cudaSuccess) {
      st = GCLQ_ERROR_CUDA;
      break;
    }
    st = gclq__bits_expand(c, w, 1, roots.as<uint32_t>(), 0, w.ns);
    c->target = p->find_one ? c->best + 1 : c->best;
    if (c->bits_found || T <= fl) break;
  }
  return st;
}

/* One window from kept source ka: whole sources, local graphs within a
   quarter of the room (at least one source), at least `window` 2-cliques
   when the user asked for windows (*kb: the source after it). Its local
   graphs are built, then searched unless the colour bound is below the
   floor. */
static inline gclq_status gclq__bits_window(gclq__mc_ctx *c, const gclq__setup_args &sa, const gclq__dmem &ksrc,
                                            uint32_t *kv, const uint32_t *hd, uint32_t nk, uint32_t ka, uint32_t *kb_out) {
  const gclq__mc_plan *p = c->plan;
  const uint64_t room = c->used < c->budget ? (uint64_t)(c->budget - c->used) / 4 : 0;
  uint64_t bytes = 0, twos = 0;
  uint32_t kb = ka;
  gclq_status st;
  char line[200];
  while (kb < nk) {
    const uint64_t d = hd[kb], more = 4 * d * (1 + gclq__bwords((uint32_t)d)) + sizeof(gclq__bsrc) + 8;
    if (kb > ka && !p->no_split && bytes + more > room) break;
    bytes += more;
    twos += d;
    ++kb;
    if (p->window > 0 && twos >= p->window) break;
  }
  *kb_out = kb;
  gclq__setup_args wa = sa;
  wa.order = ksrc.as<uint32_t>() + ka;
  wa.n = kb - ka;
  wa.target = c->target;
  c->phase = "a window's local graphs";
  gclq__dmem src(c), L(c), adj(c), bset(c);
  gclq__bits_win w;
  uint32_t ub = 0;
  gclq__clock::time_point t0 = gclq__clock::now();
  st = gclq__bits_build(c, wa, kv + ka, &src, &L, &adj, &w, &ub);
  c->stats->setup_ms += gclq__ms_since(t0);
  c->stats->windows++;
  const uint32_t lowest = p->find_one ? c->best + 1 : c->best;
  if (p->log && st == GCLQ_SUCCESS) {
    snprintf(line, sizeof line, "window %u: sources %u..%u of %u, %u with local graphs (%u words), colour bound %u, "
             "best %u", c->stats->windows, ka, kb, nk, w.ns, w.nw, ub, c->best);
    gclq__mc_log(c, line);
  }
  if (st != GCLQ_SUCCESS || w.ns == 0 || ub < lowest) return st;
  w.pc = c->pos_cap;
  {
    const uint64_t left = c->budget > c->used ? c->budget - c->used : 0;
    while (w.pc > 32 && w.pc * w.nw * sizeof(uint32_t) > left / 8) w.pc /= 2;
  }
  c->phase = "search";
  st = bset.get((size_t)w.pc * w.nw * sizeof(uint32_t));
  w.bset = bset.as<uint32_t>();
  if (st != GCLQ_SUCCESS) return st;
  return gclq__bits_runs(c, w, ub);
}

/* The bitset search over the sources in window order (sa.order, sa.n = n).
   *ran = 0 when a local graph would exceed plan.bits_max vertices (the
   caller runs the list search then). Windows: sources whose local graphs fit
   a quarter of the room (and the user's window: 2-cliques, whole sources).
   In each window the target descends from the window's colour bound: a run
   that finds nothing proves there is no clique of its target in the window,
   and a run that finds some has found every clique of the window at least
   that large; the run at the floor (the best so far) ends it. Large targets
   prune hard, so the runs above omega cost less than one run from a weak
   lower bound (R-MAT 15: 1.5M nodes against 4.3M). */
static inline gclq_status gclq__mc_bits(gclq__mc_ctx *c, gclq__setup_args sa, int *ran) {
  const gclq__mc_plan *p = c->plan;
  uint32_t *hd = NULL, *kv = NULL, nk = 0, maxd = 0;
  gclq_status st;
  *ran = 0;
  st = gclq__bits_sources(c, sa, &hd, &kv, &nk, &maxd);
  if (st != GCLQ_SUCCESS || maxd > p->bits_max) {
    if (st == GCLQ_SUCCESS) {
      snprintf(c->stats->notes, sizeof c->stats->notes,
               "a local graph of %u vertices (> %u): the list search ran", maxd, p->bits_max);
      gclq__mc_log(c, c->stats->notes);
    }
    GCLQ_FREE(hd);
    GCLQ_FREE(kv);
    return st;
  }
  *ran = 1;
  c->stats->search = GCLQ_SEARCH_BITSET;
  gclq__dmem ksrc(c), d_step(c), d_scan(c), d_pos(c);
  st = gclq__bits_buffers(c, kv, nk, maxd, &ksrc, &d_step, &d_scan, &d_pos);
  for (uint32_t ka = 0, kb = 0; st == GCLQ_SUCCESS && ka < nk; ka = kb)
    st = gclq__bits_window(c, sa, ksrc, kv, hd, nk, ka, &kb);
  GCLQ_FREE(hd);
  GCLQ_FREE(kv);
  return st;
}

/* The peeling's blocks a multiprocessor, at most (0: as many as fit). Its
   rounds are short and many (R-MAT 18: 588 iterations, two grid barriers
   each), so the barriers' arrivals dominate: on an H100, 2 blocks a
   multiprocessor take R-MAT 18's orientation from 11.7 to 8.3 ms and R-MAT
   20's from 26.9 to 21.3 ms (1 a multiprocessor: 8.4 and 24.0 ms;
   facebook_combined 2.6 ms either way). */
#ifndef GCLQ__PEEL_BLOCKS_PER_SM
#define GCLQ__PEEL_BLOCKS_PER_SM 2
#endif

/* The peeling in one cooperative launch (gclq__core_peel_kernel), at most
   GCLQ__PEEL_BLOCKS_PER_SM blocks a multiprocessor (all resident at once),
   at most one a 256 vertices. *ran = 0 where
   the device has no cooperative launch (the caller then loops). */
static inline gclq_status gclq__mc_cores_coop(gclq__mc_ctx *c, gclq__dmem *deg, gclq__dmem *gone, gclq__dmem *frontier,
                                              uint32_t *max_core, int *ran) {
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  *ran = 0;
#ifdef GPUCLIQUE_TESTING
  if (gclq__peel_by_launches) return GCLQ_SUCCESS;
#endif
  GCLQ__CUDA_TRY(cudaGetDevice(&dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gclq__core_peel_kernel, GCLQ__BLOCK, 0));
  if (!coop || sms <= 0 || per_sm <= 0) return GCLQ_SUCCESS;
  if (GCLQ__PEEL_BLOCKS_PER_SM > 0 && per_sm > GCLQ__PEEL_BLOCKS_PER_SM) per_sm = GCLQ__PEEL_BLOCKS_PER_SM;
  gclq__dmem state(c);
  GCLQ__TRY(state.get(sizeof(gclq__peel_state)));
  gclq__peel_state *s = (gclq__peel_state *)state.p;
  gclq__peel_state init;
  memset(&init, 0, sizeof init);
  init.low[0] = 0xffffffffu;
  GCLQ__CUDA_TRY(cudaMemcpyAsync(s, &init, sizeof init, cudaMemcpyHostToDevice, c->stream));
  uint32_t n = c->n;
  const uint64_t *off = c->d_off;
  const uint32_t *nbr = c->d_nbr;
  uint32_t *d = deg->as<uint32_t>(), *core = c->d_core, *round = c->d_round, *f = frontier->as<uint32_t>();
  uint8_t *g = gone->as<uint8_t>();
  void *args[] = {&n, &off, &nbr, &d, &g, &core, &round, &f, &s};
  uint64_t blocks = (uint64_t)sms * (uint64_t)per_sm;
  if (blocks > gclq__grid(n)) blocks = gclq__grid(n);
  GCLQ__CUDA_TRY(cudaLaunchCooperativeKernel((const void *)gclq__core_peel_kernel, dim3((unsigned)blocks),
                                             dim3(GCLQ__BLOCK), args, 0, c->stream));
  GCLQ__TRY(gclq__mc_read(c, max_core, &s->max_core, sizeof(uint32_t)));
  *ran = 1;
  return GCLQ_SUCCESS;
}

/* k-core numbers of every vertex into c->d_core (Alg. 1); returns the largest.
   One cooperative launch where the device has it, else a launch pair and a
   read back a round. */
static inline gclq_status gclq__mc_cores(gclq__mc_ctx *c, uint32_t *max_core) {
  const uint32_t n = c->n;
  uint32_t k = 0, left = n, info[2], best = 0, rounds = 0;
  int ran = 0;
  gclq__dmem deg(c), gone(c), frontier(c), d_info(c);
  GCLQ__TRY(deg.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gone.get(n));
  GCLQ__TRY(frontier.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(d_info.get(2 * sizeof(uint32_t)));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(deg.p, c->d_deg, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToDevice, c->stream));
  GCLQ__CUDA_TRY(cudaMemsetAsync(gone.p, 0, n, c->stream));
  if (n > 0) GCLQ__TRY(gclq__mc_cores_coop(c, &deg, &gone, &frontier, max_core, &ran));
  if (ran) return GCLQ_SUCCESS;
  while (left > 0) {
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0xff, 2 * sizeof(uint32_t), c->stream));
    GCLQ__CUDA_TRY(cudaMemsetAsync(d_info.p, 0, sizeof(uint32_t), c->stream));
    gclq__core_filter_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, c->stream>>>(
        n, k, deg.as<uint32_t>(), c->d_core, gone.as<uint8_t>(), frontier.as<uint32_t>(), d_info.as<uint32_t>(),
        c->d_round, rounds);
    GCLQ__CUDA_TRY(cudaGetLastError());
    GCLQ__TRY(gclq__mc_read(c, info, d_info.p, sizeof info));
    if (info[0] == 0) { /* nobody left at k: jump to the smallest degree still present */
      k = info[1];
      continue;
    }
    best = k;
    left -= info[0];
    ++rounds;
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

/* Single-run greedy (the dissertation, sec. 2.4.3.1): candidates sorted by key, descending;
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

/* The multi-run greedy's device buffers: the vertices sorted by key, the
   runs' candidate segments (vertex, key, run: cv / ck / cs, double-buffered
   with cv2 / ck2 / cs2), their keep flags, segment offsets (cnt), and per
   run the size, pick, argmax index and key, the segment needles, and the
   select's count. */
struct gclq__greedy_bufs {
  gclq__dmem sorted, cnt, cv, ck, cs, cv2, ck2, cs2, flag, sizes, pick, idx, mx, needles, num;
  explicit gclq__greedy_bufs(gclq__mc_ctx *c)
      : sorted(c), cnt(c), cv(c), ck(c), cs(c), cv2(c), ck2(c), cs2(c), flag(c), sizes(c), pick(c), idx(c), mx(c),
        needles(c), num(c) {}
};

/* Fill: run s's candidates are the neighbours of seed s (sorted[s]), segment
   s of cv / ck / cs (offsets in cnt, total in all); every run has size 1. */
static inline gclq_status gclq__greedy_fill(gclq__mc_ctx *c, const uint32_t *d_key, uint32_t h, uint64_t total,
                                            gclq__greedy_bufs &b) {
  cudaStream_t stream = c->stream;
  uint32_t *sd = b.sorted.as<uint32_t>();
  uint64_t *co;
  gclq_status st;
  GCLQ__TRY(b.cnt.get(((size_t)h + 1) * sizeof(uint64_t)));
  co = b.cnt.as<uint64_t>();
  gclq__seed_degree_kernel<<<gclq__grid((uint64_t)h + 1), GCLQ__BLOCK, 0, stream>>>(sd, h, c->d_deg, co);
  if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)co, co, (size_t)h + 1, gprim_op_sum(), (uint64_t)0, stream);
  }));
  if ((st = b.cv.get(total * 4)) || (st = b.ck.get(total * 4)) || (st = b.cs.get(total * 4)) ||
      (st = b.cv2.get(total * 4)) || (st = b.ck2.get(total * 4)) || (st = b.cs2.get(total * 4)) ||
      (st = b.flag.get(total)) || (st = b.sizes.get((size_t)h * 4)) || (st = b.pick.get((size_t)h * 4)) ||
      (st = b.idx.get((size_t)h * 8)) || (st = b.mx.get((size_t)h * 4)) || (st = b.needles.get(((size_t)h + 1) * 4)) ||
      (st = b.num.get(sizeof(size_t))))
    return st;
  if (total > 0) { /* expand the segments: load-balancing search */
    gclq__dmem parent(c), rank(c);
    uint64_t *pa, *ra;
    if ((st = parent.get(total * 8)) || (st = rank.get(total * 8))) return st;
    pa = parent.as<uint64_t>();
    ra = rank.as<uint64_t>();
    GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_load_balance_search(t, tb, (const uint64_t *)co, (size_t)h, (size_t)total, pa, ra, stream);
    }));
    gclq__seed_fill_kernel<<<gclq__grid(total), GCLQ__BLOCK, 0, stream>>>(
        pa, ra, total, sd, c->d_off, c->d_nbr, d_key, b.cv.as<uint32_t>(), b.ck.as<uint32_t>(), b.cs.as<uint32_t>());
    if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  }
  gclq__fill_kernel<<<gclq__grid(h), GCLQ__BLOCK, 0, stream>>>(b.sizes.as<uint32_t>(), h, 1);
  gclq__iota_kernel<<<gclq__grid((uint64_t)h + 1), GCLQ__BLOCK, 0, stream>>>(b.needles.as<uint32_t>(), (uint64_t)h + 1);
  if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  return GCLQ_SUCCESS;
}

/* Step: segmented argmax picks each run's candidate of highest key (the
   picks go to (*hpicks)[iter * h ..], grown as needed); a candidate stays
   when adjacent to its run's pick (select); the segments are found again by
   sorted search. *total: the candidates left. */
static inline gclq_status gclq__greedy_step(gclq__mc_ctx *c, uint32_t h, uint32_t iter, uint64_t *total,
                                            uint32_t **hpicks, uint64_t *picks_cap, gclq__greedy_bufs &b) {
  cudaStream_t stream = c->stream;
  uint32_t *a_v = b.cv.as<uint32_t>(), *a_k = b.ck.as<uint32_t>(), *a_s = b.cs.as<uint32_t>();
  uint32_t *b_v = b.cv2.as<uint32_t>(), *b_k = b.ck2.as<uint32_t>(), *b_s = b.cs2.as<uint32_t>();
  uint64_t *co = b.cnt.as<uint64_t>(), *ix = b.idx.as<uint64_t>();
  uint32_t *mo = b.mx.as<uint32_t>(), *ne = b.needles.as<uint32_t>();
  uint8_t *fl = b.flag.as<uint8_t>();
  size_t *d_num = b.num.as<size_t>(), ntot = (size_t)*total, got = 0;
  gclq_status st;
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_segmented_argmax(t, tb, (const uint32_t *)a_k, mo, ix, (size_t)h, (const uint64_t *)co, stream);
  }));
  gclq__pick_kernel<<<gclq__grid(h), GCLQ__BLOCK, 0, stream>>>(ix, h, a_v, b.pick.as<uint32_t>(), b.sizes.as<uint32_t>());
  gclq__keep_kernel<<<gclq__grid(*total), GCLQ__BLOCK, 0, stream>>>(a_v, a_s, *total, b.pick.as<uint32_t>(), c->d_off,
                                                                    c->d_nbr, fl);
  if (cudaGetLastError() != cudaSuccess) return GCLQ_ERROR_CUDA;
  if ((uint64_t)(iter + 1) * h > *picks_cap) {
    uint64_t cap = *picks_cap ? 2 * *picks_cap : 8 * (uint64_t)h;
    uint32_t *grown = (uint32_t *)GCLQ_REALLOC(*hpicks, (size_t)cap * sizeof(uint32_t));
    if (grown == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    *hpicks = grown;
    *picks_cap = cap;
  }
  GCLQ__TRY(gclq__mc_read(c, *hpicks + (size_t)iter * h, b.pick.p, (size_t)h * sizeof(uint32_t)));
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
  if (st != GCLQ_SUCCESS) return st;
  *total = got;
  if (*total > 0) {
    GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
      return gprim_sorted_search(t, tb, (const uint32_t *)ne, (size_t)h + 1, (const uint32_t *)b_s, (size_t)*total,
                                 co, GPRIM_LOWER_BOUND, stream);
    }));
  }
  { /* the kept candidates become the current ones */
    void *t = b.cv.p;
    b.cv.p = b.cv2.p, b.cv2.p = t;
    t = b.ck.p, b.ck.p = b.ck2.p, b.ck2.p = t;
    t = b.cs.p, b.cs.p = b.cs2.p, b.cs2.p = t;
  }
  return GCLQ_SUCCESS;
}

/* Multi-run greedy (the dissertation, Alg. 2): h runs side by side, run s
   seeded by the vertex of s-th highest key, its candidates the seed's
   neighbours (one segment each): seeds, fill, then steps until no run has
   a candidate left. The best run is the bound. */
static inline gclq_status gclq__mc_greedy_multi(gclq__mc_ctx *c, const gclq_graph *g, const uint32_t *d_key, uint32_t seeds,
                                         uint32_t *clique, uint32_t *size) {
  const uint32_t n = c->n;
  uint32_t h = seeds < n ? seeds : n, s, best_s = 0, it, iters = 0;
  uint32_t *hseeds = NULL, *hpicks = NULL, *hsizes = NULL;
  uint64_t total = 0, picks_cap = 0;
  gclq_status st = GCLQ_SUCCESS;
  gclq__greedy_bufs b(c);
  /* seeds: the h vertices of highest key */
  GCLQ__TRY(b.sorted.get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(gclq__mc_sort_by(c, d_key, 1, b.sorted.as<uint32_t>()));
  hseeds = (uint32_t *)GCLQ_MALLOC((size_t)h * sizeof(uint32_t));
  hsizes = (uint32_t *)GCLQ_MALLOC((size_t)h * sizeof(uint32_t));
  if (hseeds == NULL || hsizes == NULL) {
    st = GCLQ_ERROR_OUT_OF_MEMORY;
    goto done;
  }
  st = gclq__mc_read(c, hseeds, b.sorted.p, (size_t)h * sizeof(uint32_t));
  if (st != GCLQ_SUCCESS) goto done;
  /* the candidates of every run must fit 32-bit select sizes: fewer seeds if not */
  for (;;) {
    total = 0;
    for (s = 0; s < h; ++s) total += g->h_offsets[hseeds[s] + 1] - g->h_offsets[hseeds[s]];
    if (total < 0xffffffffull || h == 1) break;
    h /= 2;
  }
  st = gclq__greedy_fill(c, d_key, h, total, b);
  if (st != GCLQ_SUCCESS) goto done;
  while (total > 0) {
    st = gclq__greedy_step(c, h, iters, &total, &hpicks, &picks_cap, b);
    if (st != GCLQ_SUCCESS) goto done;
    ++iters;
  }
  /* the best run */
  if ((st = gclq__mc_read(c, hsizes, b.sizes.p, (size_t)h * sizeof(uint32_t))) != GCLQ_SUCCESS) goto done;
  for (s = 1; s < h; ++s)
    if (hsizes[s] > hsizes[best_s]) best_s = s;
  *size = 0;
  clique[(*size)++] = hseeds[best_s];
  for (it = 0; it < iters && hpicks[(size_t)it * h + best_s] != 0xffffffffu; ++it)
    clique[(*size)++] = hpicks[(size_t)it * h + best_s];
done:
  GCLQ_FREE(hseeds);
  GCLQ_FREE(hpicks);
  GCLQ_FREE(hsizes);
  return st;
}

/* The 2-clique counts of the sources a.order[0, a.n), scanned into *pos
   (a.n + 1 entries, allocated here); *total = their sum. */
static inline gclq_status gclq__mc_two_count(gclq__mc_ctx *c, const gclq__setup_args &a, gclq__dmem *pos,
                                             uint64_t *total) {
  cudaStream_t stream = c->stream;
  GCLQ__TRY(pos->get(((size_t)a.n + 1) * sizeof(uint64_t)));
  uint64_t *d_pos = pos->as<uint64_t>();
  gclq__two_count_kernel<<<gclq__grid_warps((uint64_t)a.n + 1), 32 * GCLQ__CWARPS, 0, stream>>>(a, d_pos);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_scan_exclusive(t, tb, (const uint64_t *)d_pos, d_pos, (size_t)a.n + 1, gprim_op_sum(), (uint64_t)0,
                                stream);
  }));
  GCLQ__TRY(gclq__mc_read(c, total, d_pos + a.n, sizeof *total));
  return *total >= 0xffffffffull ? GCLQ_ERROR_OUT_OF_MEMORY : GCLQ_SUCCESS; /* entries are u32 sublist ids */
}

/* The 2-clique list of those sources (total > 0 entries at d_pos) into
   *vid / *sid, candidates sorted by degree within sublists (the dissertation, Alg. 3
   line 40); the sort keys live only for the call. */
static inline gclq_status gclq__mc_two_write(gclq__mc_ctx *c, const gclq__setup_args &a, const uint64_t *d_pos,
                                             uint64_t total, gclq__dmem *vid, gclq__dmem *sid) {
  cudaStream_t stream = c->stream;
  gclq__dmem key(c);
  GCLQ__TRY(key.get((size_t)total * sizeof(uint64_t)));
  GCLQ__TRY(vid->get((size_t)total * sizeof(uint32_t)));
  GCLQ__TRY(sid->get((size_t)total * sizeof(uint32_t)));
  uint64_t *d_key = key.as<uint64_t>();
  gclq__two_write_kernel<<<gclq__grid_warps(a.n), 32 * GCLQ__CWARPS, 0, stream>>>(a, d_pos, d_key, sid->as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__mc_prim(c, [&](void *t, size_t *tb) {
    return gprim_segmented_sort_keys(t, tb, (const uint64_t *)d_key, d_key, (size_t)total, (size_t)a.n, d_pos, stream);
  }));
  gclq__low_word_kernel<<<gclq__grid(total), GCLQ__BLOCK, 0, stream>>>(d_key, total, vid->as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* 2-cliques a list may hold: a quarter of the budget's room at 32 bytes
   each (key, vid, sid, the sort's room); the rest is for the levels below. */
static inline uint64_t gclq__two_cap(const gclq__mc_ctx *c) {
  return c->used < c->budget ? (uint64_t)(c->budget - c->used) / 4 / 32 : 0;
}

/* The first i in [0, n] with h[i] >= want (h ascending, h[n] >= want). */
static inline uint64_t gclq__first_at_least(const uint64_t *h, uint64_t n, uint64_t want) {
  uint64_t lo = 0, hi = n;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (h[mid] < want) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* upload: the CSR to the device (off, nbr) and the degrees (deg); core is
   taken for the cores phase. */
static inline gclq_status gclq__mc_run_upload(gclq__mc_ctx *c, const gclq_graph *g, gclq__dmem *off, gclq__dmem *nbr,
                                              gclq__dmem *deg, gclq__dmem *core) {
  const uint32_t n = g->num_vertices;
  const uint64_t m2 = 2 * g->num_edges;
  cudaStream_t stream = c->stream;
  gclq__clock::time_point t0 = gclq__clock::now();
  GCLQ__TRY(off->get(((size_t)n + 1) * sizeof(uint64_t)));
  GCLQ__TRY(nbr->get((size_t)m2 * sizeof(uint32_t)));
  GCLQ__TRY(deg->get((size_t)n * sizeof(uint32_t)));
  GCLQ__TRY(core->get((size_t)n * sizeof(uint32_t)));
  c->d_off = off->as<uint64_t>();
  c->d_nbr = nbr->as<uint32_t>();
  c->d_deg = deg->as<uint32_t>();
  c->d_core = core->as<uint32_t>();
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_off, g->h_offsets, ((size_t)n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
  GCLQ__CUDA_TRY(cudaMemcpyAsync(c->d_nbr, g->h_neighbors, (size_t)m2 * sizeof(uint32_t), cudaMemcpyHostToDevice, stream));
  gclq__degree_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(c->d_off, n, c->d_deg);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__CUDA_TRY(cudaStreamSynchronize(stream));
  c->stats->upload_ms = gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* cores: k-core numbers (always: they bound the clique size, so the level
   table) and, oriented by degeneracy, each vertex's peeling round (into
   round, c->d_round); then the level tables on the host and the device
   (d_levels). */
static inline gclq_status gclq__mc_run_cores(gclq__mc_ctx *c, gclq__dmem *round, gclq__dmem *d_levels,
                                             uint32_t *max_core) {
  gclq_maxclique_stats *stats = c->stats;
  gclq__clock::time_point t0 = gclq__clock::now();
  c->phase = "cores";
  if (c->plan->orient_degeneracy) {
    GCLQ__TRY(round->get((size_t)c->n * sizeof(uint32_t) + 4));
    c->d_round = round->as<uint32_t>();
  }
  GCLQ__TRY(gclq__mc_cores(c, max_core));
  stats->max_core = *max_core;
  stats->cores_ms = gclq__ms_since(t0);
  c->d_filter = c->plan->prune_core ? c->d_core : c->d_deg;
  c->max_levels = *max_core + 3;
  c->levels = (gclq__level_ptrs *)GCLQ_MALLOC(c->max_levels * sizeof(gclq__level_ptrs));
  c->level_len = (uint64_t *)GCLQ_MALLOC(c->max_levels * sizeof(uint64_t));
  if (c->levels == NULL || c->level_len == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(c->levels, 0, c->max_levels * sizeof(gclq__level_ptrs));
  memset(c->level_len, 0, c->max_levels * sizeof(uint64_t));
  GCLQ__TRY(d_levels->get(c->max_levels * sizeof(gclq__level_ptrs)));
  c->d_levels = d_levels->as<gclq__level_ptrs>();
  return GCLQ_SUCCESS;
}

/* heuristic: the lower bound and a clique of that size (kept in mode ONE);
   sets c->best and c->target. */
static inline gclq_status gclq__mc_run_heuristic(gclq__mc_ctx *c, const gclq_graph *g, uint32_t max_core) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = g->num_vertices;
  gclq_maxclique_stats *stats = c->stats;
  uint32_t lb = 1, *hclique;
  gclq_status st = GCLQ_SUCCESS;
  gclq__clock::time_point t0;
  char line[160];
  hclique = (uint32_t *)GCLQ_MALLOC(((size_t)max_core + 2) * sizeof(uint32_t));
  if (hclique == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  c->phase = "heuristic";
  t0 = gclq__clock::now();
  hclique[0] = 0;
  if (p->heuristic != GCLQ_HEURISTIC_NONE) {
    const uint32_t *key = p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE || p->heuristic == GCLQ_HEURISTIC_MULTI_CORE
                              ? c->d_core : c->d_deg;
    uint32_t h = p->seeds ? p->seeds : (n + 19) / 20;
    if (p->heuristic == GCLQ_HEURISTIC_SINGLE_DEGREE || p->heuristic == GCLQ_HEURISTIC_SINGLE_CORE)
      st = gclq__mc_greedy_single(c, key, hclique, &lb);
    else
      while ((st = gclq__mc_greedy_multi(c, g, key, h, hclique, &lb)) == GCLQ_ERROR_OUT_OF_MEMORY && h > 1) {
        h = (h + 1) / 2; /* under a small budget: fewer runs */
        if (p->log) {
          snprintf(line, sizeof line, "heuristic: %u runs, to fit the budget", h);
          gclq__mc_log(c, line);
        }
      }
    if (st == GCLQ_ERROR_OUT_OF_MEMORY) { /* the bound only prunes: go on without it */
      lb = 1, hclique[0] = 0, st = GCLQ_SUCCESS;
      gclq__mc_log(c, "heuristic: does not fit the budget; lower bound 1");
    }
  }
  stats->heuristic_ms = gclq__ms_since(t0);
  stats->lower_bound = lb;
  c->best = lb;
  c->target = p->find_one ? lb + 1 : lb;
  if (st == GCLQ_SUCCESS && p->find_one) st = gclq__mc_keep_rows(c, hclique, 1, lb, 1, 1);
  GCLQ_FREE(hclique);
  GCLQ__TRY(st);
  if (p->log) {
    snprintf(line, sizeof line, "heuristic: lower bound %u; max core %u", lb, max_core);
    gclq__mc_log(c, line);
  }
  return GCLQ_SUCCESS;
}

/* setup: the sources in window order (order) and the arguments of the
   2-clique kernels over them (sa). */
static inline gclq_status gclq__mc_run_order(gclq__mc_ctx *c, gclq__dmem *order, gclq__setup_args *sa) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->n;
  cudaStream_t stream = c->stream;
  GCLQ__TRY(order->get((size_t)n * sizeof(uint32_t)));
  if (p->order == GCLQ_WINDOW_ORDER_INDEX) {
    gclq__iota_kernel<<<gclq__grid(n), GCLQ__BLOCK, 0, stream>>>(order->as<uint32_t>(), n);
    GCLQ__CUDA_TRY(cudaGetLastError());
  } else {
    int by_core = p->order == GCLQ_WINDOW_ORDER_CORE_ASC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
    int desc = p->order == GCLQ_WINDOW_ORDER_DEGREE_DESC || p->order == GCLQ_WINDOW_ORDER_CORE_DESC;
    GCLQ__TRY(gclq__mc_sort_by(c, by_core ? c->d_core : c->d_deg, desc, order->as<uint32_t>()));
  }
  sa->order = order->as<uint32_t>();
  sa->n = n;
  sa->off = c->d_off;
  sa->nbr = c->d_nbr;
  sa->deg = c->d_deg;
  sa->filter = c->d_filter;
  sa->target = c->target;
  sa->round = p->orient_degeneracy ? c->d_round : NULL;
  sa->orient_index = p->orient_index;
  sa->colour = p->bound != GCLQ_BOUND_LENGTH;
  return GCLQ_SUCCESS;
}

/* setup of the list search: the 2-clique list counted for every source
   (*t2 entries); built whole into vid2 / sid2 when it fits a quarter of the
   budget's room, else left to the windows (*chunked). *hpos gets the host
   copy of the sources' list positions when windows need it (n + 1 entries,
   GCLQ_MALLOC'd; NULL otherwise, and on failure). */
static inline gclq_status gclq__mc_run_two_list(gclq__mc_ctx *c, const gclq__setup_args &sa, gclq__dmem *vid2,
                                                gclq__dmem *sid2, uint64_t *t2, uint64_t **hpos_out, int *chunked) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->n;
  gclq__dmem pos(c);
  uint64_t *hpos = NULL;
  gclq_status st = GCLQ_SUCCESS;
  *hpos_out = NULL;
  GCLQ__TRY(gclq__mc_two_count(c, sa, &pos, t2));
  *chunked = !p->no_split && *t2 > gclq__two_cap(c);
  if (*t2 > 0 && (p->window > 0 || *chunked)) {
    hpos = (uint64_t *)GCLQ_MALLOC(((size_t)n + 1) * sizeof(uint64_t));
    if (hpos == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    st = gclq__mc_read(c, hpos, pos.p, ((size_t)n + 1) * sizeof(uint64_t));
    if (st != GCLQ_SUCCESS) {
      GCLQ_FREE(hpos);
      return st;
    }
  }
  if (*t2 > 0 && !*chunked) st = gclq__mc_two_write(c, sa, pos.as<uint64_t>(), *t2, vid2, sid2);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(hpos);
    return st;
  }
  *hpos_out = hpos;
  return GCLQ_SUCCESS;
}

/* search: the per-step buffers, once for the whole search (d_pos, d_step,
   d_scan). Parents counted per step: GCLQ__STEP_ENTRIES, fewer under a small
   budget (the counts take at most an eighth of what is left). */
static inline gclq_status gclq__mc_run_step_buffers(gclq__mc_ctx *c, gclq__dmem *d_pos, gclq__dmem *d_step,
                                                    gclq__dmem *d_scan) {
  uint64_t pc = c->plan->step, left = c->budget > c->used ? c->budget - c->used : 0;
  while (pc > 256 && (pc + 1) * 2 * sizeof(uint64_t) > left / 8) pc /= 2;
  gclq_status st = d_step->get(3 * sizeof(uint64_t));
  c->d_step = d_step->as<uint64_t>();
  if (st == GCLQ_SUCCESS) st = gclq__mc_step_counts(c, pc, d_pos, d_scan);
  return st;
}

/* search, window by window over the 2-clique list (hpos: the sources' list
   positions): the user's window, and when the list is built window by window
   (chunked), each window's sublists built against the bound so far. */
static inline gclq_status gclq__mc_run_windows(gclq__mc_ctx *c, const gclq__setup_args &sa, const uint64_t *hpos,
                                               uint64_t t2, int chunked) {
  const gclq__mc_plan *p = c->plan;
  const uint32_t n = c->n;
  gclq_maxclique_stats *stats = c->stats;
  gclq_status st = GCLQ_SUCCESS;
  char line[160];
  for (uint64_t pa = 0; st == GCLQ_SUCCESS && hpos[pa] < t2;) {
    /* the sources [pa, pb): the user's window (ends at the first sublist end
       at or after a + window), and when the list is built window by window,
       the sublists that fit its share of the budget (at least one) */
    const uint64_t a = hpos[pa];
    uint64_t pb = n;
    if (p->window > 0 && t2 - a > p->window) pb = gclq__first_at_least(hpos, n, a + p->window);
    if (chunked) {
      const uint64_t cap = gclq__two_cap(c), one = gclq__first_at_least(hpos, n, a + 1);
      uint64_t q = cap >= t2 - a ? n : gclq__first_at_least(hpos, n, a + cap + 1) - 1;
      if (q < one) q = one;
      if (q < pb) pb = q;
    }
    const uint64_t b = hpos[pb];
    stats->windows++;
    if (p->log && (p->window > 0 || chunked)) {
      snprintf(line, sizeof line, "window %u: 2-cliques %llu..%llu of %llu, bound %u", stats->windows,
               (unsigned long long)a, (unsigned long long)b, (unsigned long long)t2, c->best);
      gclq__mc_log(c, line);
    }
    if (!chunked) {
      st = gclq__mc_expand(c, 2, a, b);
    } else { /* this window's sublists, against the bound so far */
      gclq__dmem pos(c), wv(c), ws(c);
      gclq__setup_args wa = sa;
      uint64_t len = 0;
      wa.order = sa.order + pa;
      wa.n = (uint32_t)(pb - pa);
      wa.target = c->target;
      c->phase = "a window's 2-clique list";
      st = gclq__mc_two_count(c, wa, &pos, &len);
      if (st == GCLQ_SUCCESS && len > 0) st = gclq__mc_two_write(c, wa, pos.as<uint64_t>(), len, &wv, &ws);
      pos.release();
      if (st == GCLQ_SUCCESS) st = gclq__mc_count_level(c, 2, len);
      c->phase = "search";
      if (st == GCLQ_SUCCESS && len > 0) {
        c->levels[2].vid = wv.as<uint32_t>();
        c->levels[2].sid = ws.as<uint32_t>();
        c->level_len[2] = len;
        st = gclq__mc_expand(c, 2, 0, len);
        c->levels[2].vid = NULL;
        c->levels[2].sid = NULL;
        c->level_len[2] = 0;
      }
    }
    pa = pb;
  }
  return st;
}

/* The whole CUDA run on a graph with at least one edge, phase by phase
   (upload, cores, heuristic, setup, search). Rows (compact ids, unsorted)
   stay in c->rows, c->num_rows of c->best ids each. */
static inline gclq_status gclq__mc_run(gclq__mc_ctx *c, const gclq_graph *g) {
  const gclq__mc_plan *p = c->plan;
  cudaStream_t stream = c->stream;
  gclq_maxclique_stats *stats = c->stats;
  uint32_t max_core = 0;
  uint64_t t2 = 0, *hpos = NULL;
  gclq_status st = GCLQ_SUCCESS;
  gclq__clock::time_point t0;
  char line[160];
  c->n = g->num_vertices;

  gclq__dmem off(c), nbr(c), deg(c), core(c), round(c), d_levels(c);
  GCLQ__TRY(gclq__mc_run_upload(c, g, &off, &nbr, &deg, &core));
  GCLQ__TRY(gclq__mc_run_cores(c, &round, &d_levels, &max_core));
  GCLQ__TRY(gclq__mc_run_heuristic(c, g, max_core));

  /* setup: the 2-clique list (Alg. 3). Counted for every source; built
     whole when it fits a quarter of the budget's room, else source window
     by source window during the search (each window's list built against the
     bound of that moment), so that only the graph itself must fit. The
     bitset search, when it runs, is the whole rest of the run. */
  t0 = gclq__clock::now();
  c->phase = "the 2-clique list";
  gclq__dmem vid2(c), sid2(c), order(c);
  gclq__setup_args sa;
  int chunked = 0;
  GCLQ__TRY(gclq__mc_run_order(c, &order, &sa));
  if (p->search == GCLQ_SEARCH_BITSET) {
    int ran = 0;
    st = gclq__mc_bits(c, sa, &ran);
    if (st != GCLQ_SUCCESS || ran) {
      stats->search_ms = gclq__ms_since(t0) - stats->setup_ms;
      stats->readout_ms = c->readout_ms;
      return st;
    }
  }
  stats->search = GCLQ_SEARCH_LIST;
  GCLQ__TRY(gclq__mc_run_two_list(c, sa, &vid2, &sid2, &t2, &hpos, &chunked));
  if (!chunked) order.release();
  GCLQ__CUDA_TRY(cudaStreamSynchronize(stream));
  stats->setup_ms = gclq__ms_since(t0);
  stats->two_cliques = t2;
  st = chunked ? GCLQ_SUCCESS : gclq__mc_count_level(c, 2, t2);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(hpos);
    return st;
  }
  if (p->log) {
    snprintf(line, sizeof line, "level 2: %llu candidates (the 2-clique list%s)", (unsigned long long)t2,
             chunked ? ", built window by window: the budget holds no more" : "");
    gclq__mc_log(c, line);
  }

  /* search: breadth-first over the clique list, window by window (Alg. 4) */
  t0 = gclq__clock::now();
  c->phase = "search";
  c->levels[2].vid = vid2.as<uint32_t>();
  c->levels[2].sid = sid2.as<uint32_t>();
  c->level_len[2] = t2;
  gclq__dmem d_pos(c), d_step(c), d_scan(c);
  if (t2 > 0) st = gclq__mc_run_step_buffers(c, &d_pos, &d_step, &d_scan);
  if (st == GCLQ_SUCCESS && t2 > 0 && hpos == NULL) { /* one window */
    stats->windows++;
    st = gclq__mc_expand(c, 2, 0, t2);
  }
  if (st == GCLQ_SUCCESS && hpos != NULL) st = gclq__mc_run_windows(c, sa, hpos, t2, chunked);
  GCLQ_FREE(hpos);
  stats->search_ms = gclq__ms_since(t0);
  stats->readout_ms = c->readout_ms;
  return st;
}

/* CUDA backend entry: graph with at least one edge, plan resolved. Out:
   omega, the number of rows and the rows (compact ids, GCLQ_MALLOC'd,
   unsorted); stats filled. */
static inline gclq_status gclq__cuda_max_cliques(const gclq_graph *g, const gclq__mc_plan *plan, uint32_t *omega,
                                                 uint64_t *count, uint64_t *stored, uint32_t **rows,
                                                 gclq_maxclique_stats *stats) {
  gclq__mc_ctx c;
  gclq_status st;
  if (g->num_vertices >= GCLQ__DEAD) return GCLQ_ERROR_INVALID_ARGUMENT; /* ids need their top bit free */
  memset(&c, 0, sizeof c);
  c.plan = plan;
  c.stream = (cudaStream_t)plan->stream;
  c.stats = stats;
  c.budget = plan->budget;
  if (c.budget == 0) GCLQ__TRY(gclq__default_budget(&c.budget));
  stats->budget_bytes = c.budget;
  gclq__pool_keep keep;
  gclq__pool_keep_begin(&keep, &plan->allocator);
  st = gclq__mc_run(&c, g);
  if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
  gclq__pool_keep_end(&keep);
  stats->peak_device_bytes = c.peak;
  GCLQ_FREE(c.levels);
  GCLQ_FREE(c.level_len);
  if (st == GCLQ_SUCCESS && c.found == 0) st = GCLQ_ERROR_CUDA; /* cannot happen: the bound's clique is found */
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(c.rows);
    return st;
  }
  *omega = c.best;
  *count = c.found;
  *stored = c.num_rows;
  *rows = c.rows;
  return GCLQ_SUCCESS;
}
/* ---------------------------------------------------------------------------
   set intersection (Bellas and Gounaris, "Exploiting GPUs for fast
   intersection of large sets", section 3.1): a batch of pairs (i, j) of a
   collection in CSR form, counted and, asked, written. A pair is (a, b)
   with |a| <= |b| (swapped when not). Small pairs run a warp each, larger
   ones a block per tile of work (merge steps, or elements of a searched),
   so a giant pair among tiny ones spreads over the whole device. Writing
   takes two passes: count, scan, write at the scanned positions.

   The cuts and pieces are __host__ __device__ helpers (gclq__sets_*), so
   the tests run the same partitions on the host, block by block and
   thread by thread; the kernels add only the loads, barriers and sums.
   ------------------------------------------------------------------------- */
#define GCLQ__SETS_NT 256
#define GCLQ__SETS_VT 15                                /* merge steps per thread (odd: no bank conflicts) */
#define GCLQ__SETS_TILE (GCLQ__SETS_NT * GCLQ__SETS_VT) /* merge steps per block: 3840 */
#define GCLQ__SETS_WARP_WORK 1024u                      /* |a| + |b| at most this: a warp per pair */
#define GCLQ__SETS_OBS_CHUNK (GCLQ__SETS_NT * 8)        /* elements of a per block, binary search */
#define GCLQ__SETS_OBS_CACHE 1024u                      /* keys of b's search tree cached per block */
#define GCLQ__SETS_GRID (1u << 20)                       /* blocks of a tile launch at most (they loop) */

struct gclq__sets_args {
  const uint64_t *off;      /* the collection */
  const uint32_t *elem;
  const uint32_t *pairs;    /* 2n: (i, j) */
  uint32_t *counts;         /* n, zeroed before the count pass */
  const uint64_t *pair_pos; /* write pass: n + 1 output offsets */
  uint32_t *out;            /* write pass: the intersections */
};

/* The tiles of one kind (merge path or binary search): tile t belongs to
   entry q with first[q] <= t < first[q + 1] (entries may have no tiles),
   pair[q] its pair (NULL: q itself); count[t] its matches (count pass,
   materialising), scan[t] their exclusive scan (write pass). */
struct gclq__sets_tiles {
  const uint32_t *pair;  /* nq pair indices, or NULL */
  const uint64_t *first; /* nq + 1: first[nq] is the number of tiles */
  uint32_t nq;
  uint64_t *count;
  const uint64_t *scan;
  const uint32_t *split; /* the tiles' ends from the partition kernels (merge path, binary search: 2 a
                            tile; a table method: 4), or NULL: each block finds its own */
  gprim__lookback<unsigned long long> lb; /* the one pass: tile tickets and the tiles' output counts */
  uint32_t first_shift; /* first's entries lie 2^first_shift words apart (the device call's tables, scanned
                           together: gclq__cuda_pairs_device); 0: one after another */
};

/* Entry q of T's first (the tiles before pair q of T's). */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_first(const gclq__sets_tiles &T, uint64_t q) {
  return T.first[q << T.first_shift];
}

struct gclq__sets_pair {
  const uint32_t *a, *b;
  uint32_t na, nb;
};

/* Pair p of the batch, the smaller set first. */
static __host__ __device__ __forceinline__ gclq__sets_pair gclq__sets_pair_at(const gclq__sets_args &g, uint32_t p) {
  uint32_t i = g.pairs[2 * p], j = g.pairs[2 * p + 1];
  gclq__sets_pair q;
  q.a = g.elem + g.off[i];
  q.na = (uint32_t)(g.off[i + 1] - g.off[i]);
  q.b = g.elem + g.off[j];
  q.nb = (uint32_t)(g.off[j + 1] - g.off[j]);
  if (q.na > q.nb) {
    const uint32_t *t = q.a;
    uint32_t n = q.na;
    q.a = q.b, q.na = q.nb;
    q.b = t, q.nb = n;
  }
  return q;
}

static __host__ __device__ __forceinline__ uint32_t gclq__sets_min(uint32_t x, uint32_t y) { return x < y ? x : y; }

/* AUTO's choice for a pair one warp runs (na <= nb, na + nb <=
   GCLQ__SETS_WARP_WORK): binary search when a takes at most two rounds of
   32 lookups, or b is at least twice a; else merge path. A warp's lookups
   hit b in the L1 cache and share the top of its search tree, so they pay
   at a lower ratio than a grid's (GCLQ_SETS_AUTO_RATIO). Every edge of the
   data graphs and of R-MAT as pairs on an H200 (bench_sets sets_graphs and
   sets, the device's time, ms), against the grid's ratio at warp size:
   ca-HepTh 0.017 against 0.021-0.022, facebook_combined 0.074 against
   0.085-0.087, R-MAT 16 3.05 against 3.24-3.26, R-MAT 18 24.8 against
   25.0-25.2. The ratio of 2 alone leaves the SNAP graphs' balanced pairs of
   a few dozen to merge path (ca-HepTh 0.022); binary search for every pair
   takes c-fat500-10's balanced pairs of ~370 to 0.058-0.060, against merge
   path's 0.045. */
static __host__ __device__ __forceinline__ bool gclq__sets_warp_searches(uint64_t na, uint64_t nb) {
  return na <= 64 || nb >= 2 * na;
}

/* Does a pair (na <= nb) run binary search? The method asked, or AUTO's
   rule: a warp's for a pair one warp runs, else the ratio. */
static __host__ __device__ __forceinline__ bool gclq__sets_searches(gclq_intersect_method m, uint64_t na, uint64_t nb) {
  if (m == GCLQ_INTERSECT_AUTO)
    return na + nb <= GCLQ__SETS_WARP_WORK ? gclq__sets_warp_searches(na, nb) : nb >= (uint64_t)GCLQ_SETS_AUTO_RATIO * na;
  return m == GCLQ_INTERSECT_BINARY_SEARCH;
}

/* What runs a pair (na <= nb): nothing (na = 0: its count is 0), a warp
   (na + nb <= GCLQ__SETS_WARP_WORK), or tiles of the one method: *path_tiles
   of merge steps or *search_tiles chunks of a (the other 0). */
static __host__ __device__ __forceinline__ void gclq__sets_work(gclq_intersect_method m, uint64_t na, uint64_t nb,
                                                                uint64_t *path_tiles, uint64_t *search_tiles) {
  *path_tiles = *search_tiles = 0;
  if (na == 0 || na + nb <= GCLQ__SETS_WARP_WORK) return;
  if (gclq__sets_searches(m, na, nb)) *search_tiles = (na + GCLQ__SETS_OBS_CHUNK - 1) / GCLQ__SETS_OBS_CHUNK;
  else *path_tiles = (na + nb + GCLQ__SETS_TILE - 1) / GCLQ__SETS_TILE;
}

/* The first index of b[lo, hi) whose element is not below v (hi if none). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_lower_bound(const uint32_t *b, uint32_t lo, uint32_t hi,
                                                                           uint32_t v) {
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (b[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The first index of b[0, n) whose element is above v (n if none). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_upper_bound(const uint32_t *b, uint32_t n, uint32_t v) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (b[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Intersect Path, one piece (section 3.1.1): a[x0, x1) against b from y0.
   A match of a[x] is the first element of b not below it, which the merge
   path (a first on ties) puts in this piece, before y1, or first in the
   next one: the loop reads through y1 up to the guard ny. */
template <bool WRITE>
static __host__ __device__ __forceinline__ uint32_t gclq__sets_merge(const uint32_t *a, uint32_t x0, uint32_t x1,
                                                                     const uint32_t *b, uint32_t y0, uint32_t y1,
                                                                     uint32_t ny, uint32_t *out) {
  uint32_t c = 0;
  for (uint32_t x = x0; x < x1; ++x) {
    uint32_t v = a[x];
    while (y0 < y1 && b[y0] < v) ++y0;
    if (y0 < ny && b[y0] == v) {
      if (WRITE) out[c] = v;
      ++c;
    }
  }
  return c;
}

/* Cross diagonal `end` (0: the start, 1: the end) of a tile of merge steps
   of a pair, the tile's merge steps [tile * GCLQ__SETS_TILE, ...) clipped
   to |a| + |b|. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_tile_diag(const gclq__sets_pair &pr, uint64_t tile,
                                                                         uint32_t end) {
  const uint64_t work = (uint64_t)pr.na + pr.nb, d = (tile + end) * GCLQ__SETS_TILE;
  return d < work ? d : work;
}

/* A tile's slices a[x0, x1) and b[y0, y1), from the a items before each of
   its two diagonals (merge path: gclq__sets_tile_split), and whether b has
   a next element (the guard, b[y1]). */
struct gclq__sets_cut {
  uint32_t x0, x1, y0, y1, guard;
};
static __host__ __device__ __forceinline__ uint32_t gclq__sets_tile_split(const gclq__sets_pair &pr, uint64_t tile,
                                                                          uint32_t end) {
  const uint64_t d = gclq__sets_tile_diag(pr, tile, end);
  return (uint32_t)gprim_merge_path<true, uint64_t>(pr.a, pr.na, pr.b, pr.nb, d, gprim_less());
}
static __host__ __device__ __forceinline__ gclq__sets_cut gclq__sets_tile_cut(const gclq__sets_pair &pr, uint64_t tile,
                                                                              uint32_t x0, uint32_t x1) {
  gclq__sets_cut c;
  c.x0 = x0;
  c.x1 = x1;
  c.y0 = (uint32_t)(gclq__sets_tile_diag(pr, tile, 0) - x0);
  c.y1 = (uint32_t)(gclq__sets_tile_diag(pr, tile, 1) - x1);
  c.guard = c.y1 < pr.nb;
  return c;
}

/* One thread's piece of a tile held as s = a's slice (la) then b's (lb, and
   the guard when there is one): its own diagonal cut by merge path in s,
   then GCLQ__SETS_VT merge steps. Returns its matches (written to out). */
template <bool WRITE>
static __host__ __device__ __forceinline__ uint32_t gclq__sets_tile_piece(const uint32_t *s, uint32_t la, uint32_t lb,
                                                                          uint32_t guard, uint32_t thread,
                                                                          uint32_t *out) {
  const uint32_t n = la + lb, e0 = gclq__sets_min(thread * GCLQ__SETS_VT, n), e1 = gclq__sets_min(e0 + GCLQ__SETS_VT, n);
  const uint32_t i0 = gprim_merge_path<true, uint32_t>(s, la, s + la, lb, e0, gprim_less());
  const uint32_t i1 = gprim_merge_path<true, uint32_t>(s, la, s + la, lb, e1, gprim_less());
  return gclq__sets_merge<WRITE>(s, i0, i1, s + la, e0 - i0, e1 - i1, lb + guard, out);
}

/* One lane's piece of a small pair (Intersect Path at warp width): its own
   cross diagonal of the pair's merge grid, cut in global memory. */
template <bool WRITE>
static __host__ __device__ __forceinline__ uint32_t gclq__sets_lane_piece(const gclq__sets_pair &pr, uint32_t lane,
                                                                          uint32_t *out) {
  const uint32_t work = pr.na + pr.nb, per = (work + 31) / 32;
  const uint32_t d0 = gclq__sets_min(lane * per, work), d1 = gclq__sets_min(d0 + per, work);
  const uint32_t i0 = gprim_merge_path<true, uint32_t>(pr.a, pr.na, pr.b, pr.nb, d0, gprim_less());
  const uint32_t i1 = gprim_merge_path<true, uint32_t>(pr.a, pr.na, pr.b, pr.nb, d1, gprim_less());
  return gclq__sets_merge<WRITE>(pr.a, i0, i1, pr.b, d0 - i0, d1 - i1, pr.nb, out);
}

/* Is v in sorted b[0, n)? (binary search at warp width) */
static __host__ __device__ __forceinline__ bool gclq__sets_has(const uint32_t *b, uint32_t n, uint32_t v) {
  uint32_t y = gclq__sets_lower_bound(b, 0, n, v);
  return y < n && b[y] == v;
}

/* A binary-search chunk a[x0, x1) of a pair and the part of b its values
   span, b[lo, hi): every match lies there. keys = the cached keys, b at
   lo + k len / keys for k < keys (len = hi - lo): the top of the span's
   search tree, evenly spaced. The span's two ends are independent binary
   searches (gclq__sets_chunk_end, two threads at once). */
struct gclq__sets_chunk {
  uint32_t x0, x1, lo, hi, keys;
};
static __host__ __device__ __forceinline__ uint32_t gclq__sets_chunk_end(const gclq__sets_pair &pr, uint64_t chunk,
                                                                         uint32_t end) {
  const uint32_t x0 = (uint32_t)(chunk * GCLQ__SETS_OBS_CHUNK);
  const uint32_t x1 = gclq__sets_min(x0 + (uint32_t)GCLQ__SETS_OBS_CHUNK, pr.na);
  if (end == 0) return gclq__sets_lower_bound(pr.b, 0, pr.nb, pr.a[x0]);
  return gclq__sets_min(gclq__sets_lower_bound(pr.b, 0, pr.nb, pr.a[x1 - 1]) + 1, pr.nb);
}
static __host__ __device__ __forceinline__ gclq__sets_chunk gclq__sets_chunk_at(const gclq__sets_pair &pr, uint64_t chunk,
                                                                                uint32_t lo, uint32_t hi) {
  gclq__sets_chunk s;
  s.x0 = (uint32_t)(chunk * GCLQ__SETS_OBS_CHUNK);
  s.x1 = gclq__sets_min(s.x0 + (uint32_t)GCLQ__SETS_OBS_CHUNK, pr.na);
  s.lo = lo;
  s.hi = hi;
  s.keys = gclq__sets_min(hi > lo ? hi - lo : 0, GCLQ__SETS_OBS_CACHE);
  return s;
}
/* Where cached key k (0 <= k <= keys; keys: hi) sits in b. */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_key_at(const gclq__sets_chunk &s, uint32_t k) {
  return k == s.keys ? s.hi : s.lo + (uint32_t)((uint64_t)k * (s.hi - s.lo) / s.keys);
}
/* Optimized binary search for one element v of the chunk: the cached keys
   not above v say which stretch of b between two keys may hold it, then a
   binary search there. */
static __host__ __device__ __forceinline__ bool gclq__sets_obs_find(const gclq__sets_pair &pr, const gclq__sets_chunk &s,
                                                                    const uint32_t *key, uint32_t v) {
  const uint32_t k = gclq__sets_upper_bound(key, s.keys, v);
  if (k == 0) return false; /* below b[lo]: not in b */
  const uint32_t y = gclq__sets_lower_bound(pr.b, gclq__sets_key_at(s, k - 1), gclq__sets_key_at(s, k), v);
  return y < s.hi && pr.b[y] == v;
}

/* The tile's entry: the last q with first[q] <= t (a binary search). */
static __host__ __device__ __forceinline__ uint32_t gclq__sets_tile_owner(const gclq__sets_tiles &T, uint64_t t) {
  uint32_t lo = 0, hi = T.nq;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (gclq__sets_first(T, mid) <= t) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Tile t's entry *q, pair *p, and the pair's sets. */
static __host__ __device__ __forceinline__ gclq__sets_pair gclq__sets_tile_pair(const gclq__sets_args &g,
                                                                                const gclq__sets_tiles &T, uint64_t t,
                                                                                uint32_t *q, uint32_t *p) {
  *q = gclq__sets_tile_owner(T, t);
  *p = T.pair ? T.pair[*q] : *q;
  return gclq__sets_pair_at(g, *p);
}

/* Where a tile writes: its pair's offset plus the tiles of the pair before it. */
static __host__ __device__ __forceinline__ uint64_t gclq__sets_tile_base(const gclq__sets_args &g,
                                                                         const gclq__sets_tiles &T, uint64_t t,
                                                                         uint32_t q, uint32_t p) {
  return g.pair_pos[p] + T.scan[t] - T.scan[gclq__sets_first(T, q)];
}

/* Exclusive sum of v over the block's threads; *total gets the block's sum
   (every thread). s_warp: GCLQ__SETS_NT / 32 words of shared memory. */
static __device__ __forceinline__ uint32_t gclq__d_block_exclusive_sum(uint32_t v, uint32_t *s_warp, uint32_t *total) {
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t inc = gprim__warp_inclusive_sum_u32(v);
  __syncthreads(); /* s_warp may still be read by a previous call */
  if (lane == 31) s_warp[warp] = inc;
  __syncthreads();
  uint32_t before = 0, sum = 0;
  for (uint32_t w = 0; w < GCLQ__SETS_NT / 32; ++w) {
    if (w < warp) before += s_warp[w];
    sum += s_warp[w];
  }
  *total = sum;
  return before + inc - v;
}

/* A tile's total: added to its pair's count (count pass), and kept per
   tile when the pass is followed by a write pass. */
static __device__ __forceinline__ void gclq__d_tile_total(const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                          uint64_t t, uint32_t p, uint32_t total) {
  if (threadIdx.x != 0) return;
  if (total) atomicAdd(&g.counts[p], total);
  if (T.count) T.count[t] = total;
}

/* The one pass (count and write in one launch, gclq__sets_one_pass): a
   block takes its tiles by ticket, in order, from T.lb; tiles <= t hold
   tickets taken before. Every thread gets the ticket. */
static __device__ __forceinline__ uint32_t gclq__d_tile_ticket(const gclq__sets_tiles &T, uint32_t *s_ticket) {
  if (threadIdx.x == 0) *s_ticket = T.lb.take_ticket();
  __syncthreads();
  return *s_ticket;
}

/* The one pass: tile t's first output word, the matches of the tiles
   before it, by decoupled look-back (warp 0; every thread gets it). The
   tile's matches are added to its pair's count. The tiles of the launch
   are every tile of the batch, in pair order, so the place is also where
   the pair's output goes. */
static __device__ __forceinline__ uint64_t gclq__d_tile_place(const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                              uint32_t t, uint32_t p, uint32_t total,
                                                              unsigned long long *s_place) {
  if (threadIdx.x < 32) {
    const uint32_t lane = threadIdx.x;
    unsigned long long before = 0;
    if (t == 0) {
      if (lane == 0) T.lb.publish(0, GPRIM__TILE_PREFIX, (unsigned long long)total);
    } else {
      if (lane == 0) T.lb.publish(t, GPRIM__TILE_AGGREGATE, (unsigned long long)total);
      before = T.lb.template exclusive_prefix<1, 0>(t, gprim_op_sum());
      if (lane == 0) T.lb.publish(t, GPRIM__TILE_PREFIX, before + total);
    }
    if (lane == 0) {
      *s_place = before;
      if (total) atomicAdd(&g.counts[p], total);
    }
  }
  __syncthreads();
  return *s_place;
}

/* Intersect Path (section 3.1.1): a block per tile of GCLQ__SETS_TILE merge
   steps of a pair (the blocks loop over the tiles). The tile's ends on the
   grid-level cross diagonals by merge path in global memory; its slices of
   a and b, and b's next element (the guard), in shared memory; each thread
   cuts its own diagonal there and merges GCLQ__SETS_VT steps. ONE (with
   WRITE): the one pass, tiles by ticket, counted, placed, then written. */
template <bool WRITE, bool ONE = false>
static __global__ void __launch_bounds__(GCLQ__SETS_NT) gclq__sets_path_kernel(gclq__sets_args g, gclq__sets_tiles T) {
  __shared__ uint32_t s[GCLQ__SETS_TILE + 1];
  __shared__ uint32_t s_split[2], s_ticket;
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  __shared__ unsigned long long s_place;
  const uint64_t tiles = gclq__sets_first(T, T.nq);
  for (uint64_t t = ONE ? gclq__d_tile_ticket(T, &s_ticket) : blockIdx.x; t < tiles;
       t = ONE ? gclq__d_tile_ticket(T, &s_ticket) : t + gridDim.x) {
    uint32_t q, p;
    const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
    if (threadIdx.x < 2) /* both diagonals at once */
      s_split[threadIdx.x] = T.split != NULL ? T.split[2 * t + threadIdx.x]
                                             : gclq__sets_tile_split(pr, t - gclq__sets_first(T, q), threadIdx.x);
    __syncthreads();
    const gclq__sets_cut c = gclq__sets_tile_cut(pr, t - gclq__sets_first(T, q), s_split[0], s_split[1]);
    const uint32_t la = c.x1 - c.x0, lb = c.y1 - c.y0;
    for (uint32_t i = threadIdx.x; i < la + lb + c.guard; i += GCLQ__SETS_NT)
      s[i] = i < la ? pr.a[c.x0 + i] : pr.b[c.y0 + i - la];
    __syncthreads();
    uint32_t total;
    const uint32_t mine = gclq__sets_tile_piece<false>(s, la, lb, c.guard, threadIdx.x, NULL);
    const uint32_t before = gclq__d_block_exclusive_sum(mine, s_warp, &total);
    if (!WRITE) gclq__d_tile_total(g, T, t, p, total);
    if (WRITE) {
      const uint64_t base = ONE ? gclq__d_tile_place(g, T, (uint32_t)t, p, total, &s_place)
                                : gclq__sets_tile_base(g, T, t, q, p);
      gclq__sets_tile_piece<true>(s, la, lb, c.guard, threadIdx.x, g.out + base + before);
    }
    __syncthreads(); /* s and s_split are the next tile's */
  }
}

/* Optimized binary search, OBS (section 3.1.2): a block per chunk of
   GCLQ__SETS_OBS_CHUNK elements of a. The span of b the chunk's values
   cover, and the top of its search tree (evenly spaced keys) cached in
   shared memory; each element searches the cache, then the stretch of b
   between two keys. Rounds of one element a thread keep the output in
   order. The blocks loop over the chunks. */
template <bool WRITE>
static __global__ void __launch_bounds__(GCLQ__SETS_NT) gclq__sets_search_kernel(gclq__sets_args g, gclq__sets_tiles T) {
  __shared__ uint32_t s_key[GCLQ__SETS_OBS_CACHE];
  __shared__ uint32_t s_end[2];
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  const uint64_t tiles = gclq__sets_first(T, T.nq);
  for (uint64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    uint32_t q, p;
    const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
    if (threadIdx.x < 2) /* both at once */
      s_end[threadIdx.x] = T.split != NULL ? T.split[2 * t + threadIdx.x]
                                           : gclq__sets_chunk_end(pr, t - gclq__sets_first(T, q), threadIdx.x);
    __syncthreads();
    const gclq__sets_chunk sp = gclq__sets_chunk_at(pr, t - gclq__sets_first(T, q), s_end[0], s_end[1]);
    for (uint32_t k = threadIdx.x; k < sp.keys; k += GCLQ__SETS_NT) s_key[k] = pr.b[gclq__sets_key_at(sp, k)];
    __syncthreads();
    uint32_t mine = 0, written = 0, total;
    const uint64_t base = WRITE ? gclq__sets_tile_base(g, T, t, q, p) : 0;
    for (uint32_t r = sp.x0; r < sp.x1; r += GCLQ__SETS_NT) {
      const uint32_t x = r + threadIdx.x;
      const uint32_t found = x < sp.x1 && gclq__sets_obs_find(pr, sp, s_key, pr.a[x]);
      if (!WRITE) {
        mine += found;
        continue;
      }
      const uint32_t before = gclq__d_block_exclusive_sum(found, s_warp, &total);
      if (found) g.out[base + written + before] = pr.a[x];
      written += total;
    }
    if (!WRITE) {
      gclq__d_block_exclusive_sum(mine, s_warp, &total);
      gclq__d_tile_total(g, T, t, p, total);
    }
    __syncthreads(); /* s_key and s_end are the next chunk's */
  }
}

/* A warp per small pair (|a| + |b| <= GCLQ__SETS_WARP_WORK), by either
   method at warp width: Intersect Path (section 3.1.1), every lane merging
   its own piece (gclq__sets_lane_piece); or binary search (section 3.1.2),
   the lanes taking a's elements 32 at a time. Warp w takes pair list[w]
   (list NULL: pair w, and a pair that is not small, or empty, is left to
   the tiles). WRITE: lanes write at pair_pos in order (a warp scan of
   their counts, or a ballot per round). */
template <bool WRITE>
static __global__ void gclq__sets_warp_kernel(gclq__sets_args g, const uint32_t *list, uint32_t n,
                                              gclq_intersect_method method) {
  const uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (w >= n) return;
  const uint32_t p = list ? list[w] : (uint32_t)w;
  const gclq__sets_pair pr = gclq__sets_pair_at(g, p);
  if (pr.na == 0 || (uint64_t)pr.na + pr.nb > GCLQ__SETS_WARP_WORK) return;
  uint32_t *out = WRITE ? g.out + g.pair_pos[p] : NULL;
  if (gclq__sets_searches(method, pr.na, pr.nb)) {
    uint32_t c = 0;
    for (uint32_t r = 0; r < pr.na; r += 32) {
      const uint32_t x = r + lane;
      const bool found = x < pr.na && gclq__sets_has(pr.b, pr.nb, pr.a[x]);
      const uint32_t ballot = __ballot_sync(0xffffffffu, found);
      if (WRITE && found) out[c + __popc(ballot & ((1u << lane) - 1))] = pr.a[x];
      c += __popc(ballot);
    }
    if (!WRITE && lane == 0) g.counts[p] = c;
    return;
  }
  const uint32_t c = gclq__sets_lane_piece<false>(pr, lane, NULL);
  const uint32_t inc = gprim__warp_inclusive_sum_u32(c);
  if (!WRITE) {
    if (lane == 31) g.counts[p] = inc;
    return;
  }
  gclq__sets_lane_piece<true>(pr, lane, out + inc - c);
}

/* HASH, BITMAP, BITMAP_DYNAMIC, IP_OBS, IP_HASH: their tables and kernels */
#include "clique/sets_methods.cuh"

/* ---- host side ---- */

/* One call's device state: the collection on the device and the memory
   context of the maximum-clique search (budget, allocator, log). */
struct gclq__sets_dev {
  gclq__mc_plan plan;
  gclq__mc_ctx c;
  gclq_maxclique_stats unused; /* the context's clique statistics: not used here */
  gclq_intersect_stats *stats;
  const gclq_sets *sets;
  gclq_intersect_method method;
  int auto_ip_obs; /* AUTO's batch rule picked IP_OBS: its small pairs take the per-pair rule's warps */
  int materialise;
  void *d_off, *d_elem;
  size_t off_held, elem_held;
};

/* A batch cut into the work of each kernel (host arrays, GCLQ_MALLOC'd). */
struct gclq__sets_split {
  uint32_t *warp;               /* the pairs a warp runs */
  uint32_t nw;
  uint32_t *path_pair, *search_pair;
  uint64_t *path_first, *search_first; /* nq + 1 each */
  uint32_t npath, nsearch;
  uint32_t searched;   /* pairs that run binary search */
  uint64_t most;       /* the smaller sets' sizes summed: no more matches than this */
  uint64_t lane_tiles; /* search tiles of pairs of GCLQ__SETS_CUT_LANES_FROM elements or more */
  int stream; /* how the bitmaps' count pass streams its windows (GCLQ__STREAM_*), or 0: it does not */
};

static inline void gclq__sets_split_free(gclq__sets_split *s) {
  GCLQ_FREE(s->warp);
  GCLQ_FREE(s->path_pair);
  GCLQ_FREE(s->search_pair);
  GCLQ_FREE(s->path_first);
  GCLQ_FREE(s->search_first);
  memset(s, 0, sizeof *s);
}


/* Blocks of GCLQ__SETS_NT threads the device holds at once: the grid of
   the bitmaps' count kernels (gclq__sets_bits_count), which the stream
   rule (gclq__sets_stream_balanced) divides a batch's tiles among, and of
   the device call's tile kernels (gclq__cuda_pairs_device). */
static inline uint32_t gclq__sets_resident_blocks(void) {
  return (uint32_t)gprim__sm_count() * (2048 / GCLQ__SETS_NT);
}

/* Classify the pairs of a batch: empty ones need nothing (their count is
   0), small ones a warp, the rest tiles of merge steps or of searches. */
static inline gclq_status gclq__sets_classify(gclq__sets_dev *d, const uint32_t *pairs, uint32_t n,
                                              gclq__sets_split *s) {
  const gclq__sets_args h = {d->sets->h_offsets, d->sets->h_elements, pairs, NULL, NULL, NULL}; /* on the host */
  memset(s, 0, sizeof *s);
  s->warp = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  s->path_pair = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  s->search_pair = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  s->path_first = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  s->search_first = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
  if (!s->warp || !s->path_pair || !s->search_pair || !s->path_first || !s->search_first) {
    gclq__sets_split_free(s);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  s->path_first[0] = s->search_first[0] = 0;
  uint64_t search_elements = 0; /* both sides of the pairs in search tiles */
  for (uint32_t p = 0; p < n; ++p) {
    const gclq__sets_pair pr = gclq__sets_pair_at(h, p);
    if (pr.na == 0) continue;
    s->most += pr.na;
    uint64_t path_tiles, search_tiles;
    gclq__sets_work_pair(d->method, pr, &path_tiles, &search_tiles);
    s->searched += gclq__sets_searches(d->method, pr.na, pr.nb);
    if (search_tiles > 0) {
      if ((uint64_t)pr.na + pr.nb >= GCLQ__SETS_CUT_LANES_FROM) s->lane_tiles += search_tiles;
      search_elements += (uint64_t)pr.na + pr.nb;
      s->search_pair[s->nsearch] = p;
      s->search_first[s->nsearch + 1] = s->search_first[s->nsearch] + search_tiles;
      s->nsearch++;
    } else if (path_tiles > 0) {
      s->path_pair[s->npath] = p;
      s->path_first[s->npath + 1] = s->path_first[s->npath] + path_tiles;
      s->npath++;
    } else {
      s->warp[s->nw++] = p;
    }
  }
  const uint32_t blocks = gclq__sets_resident_blocks();
  if (gclq__sets_is_bitmap(d->method) &&
      gclq__sets_stream_balanced(d->method, h, s->search_pair, s->search_first, s->nsearch, blocks))
    s->stream = GCLQ__STREAM_ON | gclq__sets_stream_shape(search_elements, s->search_first[s->nsearch], blocks);
  return GCLQ_SUCCESS;
}

/* The split's arrays freed when a scope ends. */
struct gclq__sets_split_scope {
  gclq__sets_split *s;
  ~gclq__sets_split_scope() { gclq__sets_split_free(s); }
};

/* A host array of `count` words on the device, under the budget. */
template <typename T>
static inline gclq_status gclq__sets_put(gclq__mc_ctx *c, gclq__dmem *d, const T *h, uint64_t count) {
  GCLQ__TRY(d->get((size_t)count * sizeof(T)));
  if (count > 0) GCLQ__CUDA_TRY(cudaMemcpyAsync(d->p, h, (size_t)count * sizeof(T), cudaMemcpyHostToDevice, c->stream));
  return GCLQ_SUCCESS;
}

/* The tiles of one kind on the device (pair, first; count when writing). */
static inline gclq_status gclq__sets_put_tiles(gclq__sets_dev *d, const uint32_t *pair, const uint64_t *first,
                                               uint32_t nq, gclq__dmem *dp, gclq__dmem *df, gclq__dmem *dc,
                                               gclq__sets_tiles *T) {
  memset(T, 0, sizeof *T);
  T->nq = nq;
  if (nq == 0) return GCLQ_SUCCESS;
  GCLQ__TRY(gclq__sets_put(&d->c, dp, pair, nq));
  GCLQ__TRY(gclq__sets_put(&d->c, df, first, (uint64_t)nq + 1));
  T->pair = dp->as<uint32_t>();
  T->first = df->as<uint64_t>();
  if (d->materialise) {
    GCLQ__TRY(dc->get((size_t)first[nq] * sizeof(uint64_t)));
    T->count = dc->as<uint64_t>();
  }
  return GCLQ_SUCCESS;
}

/* Blocks for `tiles` tiles (GCLQ__SETS_GRID at most: they loop over the rest). */
static inline unsigned gclq__sets_grid(uint64_t tiles) {
  return (unsigned)(tiles < GCLQ__SETS_GRID ? tiles : GCLQ__SETS_GRID);
}

/* The kinds of block tiles whose ends a partition kernel can cut. */
enum { GCLQ__CUT_PATH = 0, GCLQ__CUT_SEARCH = 1, GCLQ__CUT_TABLE = 2 };

/* The ends of every tile, a thread each, before the tiles run: merge
   path's cuts of the tile's two diagonals (PATH, 2 a tile), binary search's
   span of b (SEARCH, 2 a tile), or a table method's four slice ends
   (TABLE, 4 a tile, gclq__sets_slice_end). An end is a chain of dependent
   binary searches in global memory, which a block finding its own would
   wait for tile after tile. A batch of mostly large pairs has its bitmaps'
   and HASH's ends by gclq__sets_table_split_kernel instead. */
template <int KIND>
static __global__ void gclq__sets_split_kernel(gclq__sets_args g, gclq__sets_tiles T, gclq_intersect_method method,
                                               uint32_t *split) {
  const uint32_t per = KIND == GCLQ__CUT_TABLE ? 4 : 2;
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= per * gclq__sets_first(T, T.nq)) return;
  uint32_t q, p;
  const uint64_t t = i / per;
  const uint32_t end = (uint32_t)(i % per);
  const gclq__sets_pair pr = gclq__sets_tile_pair(g, T, t, &q, &p);
  split[i] = KIND == GCLQ__CUT_TABLE    ? gclq__sets_slice_end(method, pr, t - gclq__sets_first(T, q), end)
             : KIND == GCLQ__CUT_SEARCH ? gclq__sets_chunk_end(pr, t - gclq__sets_first(T, q), end)
                                        : gclq__sets_tile_split(pr, t - gclq__sets_first(T, q), end);
}

/* Every tile's ends by the partition kernel into split, and cut->split
   pointing at them; when the budget has no room for them, cut->split stays
   NULL and each block finds its own (the same ends, found tile after tile
   by the block before its work: slower, e.g. the bitmaps' count of two
   sets of 10^8 takes a fifth longer). lanes: the bitmaps' and HASH's ends
   by a warp a tile (gclq__sets_table_split_kernel), for a batch whose
   tiles are mostly of large pairs (two uniform sets of 10^7 on an H200:
   25-27 us of partition by a thread an end, of a 65-80 us count; 13-14 us
   by a warp a tile searching a's ends and then b's, where
   gclq__d_table_ends runs all four at once; on R-MAT's every edge, whose
   pairs are small, a warp a tile costs more than it saves). */
template <int KIND>
static inline gclq_status gclq__sets_cuts(gclq__sets_dev *d, const gclq__sets_args &g, uint64_t tiles, bool lanes,
                                          gclq__dmem *split, gclq__sets_tiles *cut) {
  const uint32_t per = KIND == GCLQ__CUT_TABLE ? 4 : 2;
  const size_t bytes = (size_t)tiles * per * sizeof(uint32_t);
  int on = 1;
#ifdef GPUCLIQUE_TESTING
  on = !gclq__sets_cuts_in_blocks;
#endif
  if (!on || tiles == 0 || !gclq__mc_fits(&d->c, bytes) || split->get(bytes) != GCLQ_SUCCESS) return GCLQ_SUCCESS;
  if (KIND == GCLQ__CUT_TABLE && lanes && (gclq__sets_is_bitmap(d->method) || d->method == GCLQ_INTERSECT_HASH))
    gclq__sets_table_split_kernel<<<gclq__grid(32 * tiles), GCLQ__BLOCK, 0, d->c.stream>>>(g, *cut, d->method,
                                                                                         split->as<uint32_t>(), NULL);
  else
    gclq__sets_split_kernel<KIND><<<gclq__grid(per * tiles), GCLQ__BLOCK, 0, d->c.stream>>>(g, *cut, d->method,
                                                                                         split->as<uint32_t>());
  GCLQ__CUDA_TRY(cudaGetLastError());
  cut->split = split->as<uint32_t>();
  return GCLQ_SUCCESS;
}

/* Whether a batch's table ends go by a warp a tile: half its search tiles
   or more are of large pairs (gclq__sets_cuts). */
static inline bool gclq__sets_lanes(const gclq__sets_split &s) {
  return 2 * s.lane_tiles >= s.search_first[s.nsearch];
}

/* The bitmaps' count pass over a batch's search tiles T (tiles of them):
   streamed (stream: gclq__sets_split's GCLQ__STREAM_* bits,
   gclq__sets_bits_stream_kernel, whose PAIRS kernel is held to the blocks
   a multiprocessor fits; two uniform sets of 10^7 over U = 10^9 on an
   H200, 0.049 ms WIDE against 0.057 by the records; of 10^8, 0.232 against
   0.256), or by
   gclq__sets_bits_count_kernel from the partition kernel's records (rec:
   their memory, held until the kernels are done). *ran = 0 when the
   budget has no room for the records or the blocks find their own ends
   (the hook): the caller runs the usual kernels. */
static inline gclq_status gclq__sets_bits_count(gclq__sets_dev *d, const gclq__sets_args &g, const gclq__sets_tiles &T,
                                                uint64_t tiles, int stream, gclq__dmem *rec, int *ran) {
  const size_t bytes = (size_t)tiles * sizeof(gclq__sets_bits_tile);
  const uint64_t most = gclq__sets_resident_blocks();
  const unsigned grid = (unsigned)(tiles < most ? tiles : most);
  int on = 1;
  *ran = 0;
#ifdef GPUCLIQUE_TESTING
  on = !gclq__sets_cuts_in_blocks;
  if (gclq__sets_stream_windows >= 0) stream = gclq__sets_stream_windows;
#endif
  if (on && stream && T.first_shift == 0) {
    const uint32_t ls = stream & GCLQ__STREAM_SLOTS ? GCLQ__SETS_STREAM_SLOTS_LOG2 : 0u;
    if (stream & GCLQ__STREAM_PAIRS && T.count == NULL) { /* PAIRS reads WIDE */
      int per_sm = 0; /* the 32 KB bitmap holds fewer blocks a multiprocessor */
      GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
          &per_sm, gclq__sets_bits_stream_kernel<2, true>, GCLQ__SETS_NT, 0));
      const uint64_t held = (uint64_t)gprim__sm_count() * (uint64_t)(per_sm > 0 ? per_sm : 1);
      gclq__sets_bits_stream_kernel<2, true>
          <<<(unsigned)(tiles < held ? tiles : held), GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, d->method, ls);
    } else if (stream & GCLQ__STREAM_WIDE) {
      gclq__sets_bits_stream_kernel<2, false><<<grid, GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, d->method, ls);
    } else {
      gclq__sets_bits_stream_kernel<1, false><<<grid, GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, d->method, ls);
    }
    GCLQ__CUDA_TRY(cudaGetLastError());
    *ran = 1;
    return GCLQ_SUCCESS;
  }
  if (!on || !gclq__mc_fits(&d->c, bytes) || rec->get(bytes) != GCLQ_SUCCESS) return GCLQ_SUCCESS;
  gclq__sets_bits_tile *r = rec->as<gclq__sets_bits_tile>();
  gclq__sets_table_split_kernel<<<gclq__grid(32 * tiles), GCLQ__BLOCK, 0, d->c.stream>>>(g, T, d->method, NULL, r);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__sets_bits_count_kernel<<<grid, GCLQ__SETS_NT, 0, d->c.stream>>>(g, T, r);
  GCLQ__CUDA_TRY(cudaGetLastError());
  *ran = 1;
  return GCLQ_SUCCESS;
}

/* Do the small pairs of AUTO's IP_OBS (auto_ip_obs, and the device call's
   AUTO) run the per-pair rule's warps (gclq__sets_warp_kernel: merge path,
   or binary search, gclq__sets_warp_searches) rather than IP_OBS's warp tables?
   Yes: a warp's table costs more than it saves on a pair of a few hundred
   elements. Every edge of c-fat500-10 as pairs (46,627 pairs of ~370
   elements) through the device call on an H200: 0.067 ms against 0.082
   with the warp tables (merge path 0.067-0.071); R-MAT 16 and 17: 4.40-4.43
   and 12.86-12.90 ms against 4.48 and 13.17-13.18. */
static inline bool gclq__sets_rule_warps(int auto_ip_obs) {
#ifdef GPUCLIQUE_TESTING
  if (gclq__sets_ip_obs_warps) return false;
#endif
  return auto_ip_obs != 0;
}

/* The three kernels of one pass (WRITE: the write pass). */
template <bool WRITE>
static inline gclq_status gclq__sets_launch(gclq__sets_dev *d, const gclq__sets_args &g, const gclq__sets_split &s,
                                            const uint32_t *d_warp, const gclq__sets_tiles &path,
                                            const gclq__sets_tiles &search) {
  cudaStream_t stream = d->c.stream;
  const uint64_t path_tiles = s.path_first[s.npath], search_tiles = s.search_first[s.nsearch];
  if (!WRITE && gclq__sets_is_bitmap(d->method) && path_tiles == 0 && search_tiles > 0 && gclq__sets_lanes(s)) {
    gclq__dmem rec(&d->c);
    int ran;
    GCLQ__TRY(gclq__sets_bits_count(d, g, search, search_tiles, s.stream, &rec, &ran));
    if (ran) /* the pairs a warp runs, if any */
      return gclq__sets_methods_launch<false>(d->method, g, d_warp, s.nw, path, 0, search, 0, stream);
  }
  if (gclq__sets_methods_has(d->method)) {
    gclq__dmem path_split(&d->c), search_split(&d->c);
    gclq__sets_tiles path_cut = path, search_cut = search;
    const uint32_t table_warps = gclq__sets_rule_warps(d->auto_ip_obs) ? 0 : s.nw;
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_TABLE>(d, g, path_tiles, false, &path_split, &path_cut));
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_TABLE>(d, g, search_tiles, gclq__sets_lanes(s), &search_split, &search_cut));
    if (s.nw > 0 && table_warps == 0) {
      gclq__sets_warp_kernel<WRITE><<<gclq__grid((uint64_t)s.nw * 32), GCLQ__BLOCK, 0, stream>>>(g, d_warp, s.nw,
                                                                                               GCLQ_INTERSECT_AUTO);
      GCLQ__CUDA_TRY(cudaGetLastError());
    }
    return gclq__sets_methods_launch<WRITE>(d->method, g, d_warp, table_warps, path_cut, gclq__sets_grid(path_tiles),
                                            search_cut, gclq__sets_grid(search_tiles), stream);
  }
  if (s.nw > 0) {
    const unsigned blocks = gclq__grid((uint64_t)s.nw * 32);
    gclq__sets_warp_kernel<WRITE><<<blocks, GCLQ__BLOCK, 0, stream>>>(g, d_warp, s.nw, d->method);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (path_tiles > 0) {
    gclq__dmem split(&d->c);
    gclq__sets_tiles cut = path;
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_PATH>(d, g, path_tiles, false, &split, &cut));
    gclq__sets_path_kernel<WRITE><<<gclq__sets_grid(path_tiles), GCLQ__SETS_NT, 0, stream>>>(g, cut);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (search_tiles > 0) {
    gclq__dmem split(&d->c);
    gclq__sets_tiles cut = search;
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_SEARCH>(d, g, search_tiles, false, &split, &cut));
    gclq__sets_search_kernel<WRITE><<<gclq__sets_grid(search_tiles), GCLQ__SETS_NT, 0, stream>>>(g, cut);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  return GCLQ_SUCCESS;
}

/* Whether a materialised batch can count and write in one pass: every
   pair with matches in tiles of one kind that a one-pass kernel runs (the
   merge path kernel's, or a table method's), none in warps; at most 2^32
   tiles (the tickets). */
static inline int gclq__sets_one_pass_runs(const gclq__sets_dev *d, const gclq__sets_split &s) {
  const uint64_t pt = s.path_first[s.npath], st = s.search_first[s.nsearch];
#ifdef GPUCLIQUE_TESTING
  if (gclq__sets_two_passes) return 0;
#endif
  if (!d->materialise || s.nw > 0 || (pt > 0) == (st > 0) || pt + st > 0xffffffffull) return 0;
  return gclq__sets_methods_has(d->method) || pt > 0;
}

/* The device memory of the one pass: the output's room, the look-back's
   words, the tiles' ends (4 a tile at most), each rounded up. */
static inline size_t gclq__sets_one_pass_bytes(const gclq__sets_split &s) {
  const uint64_t tiles = s.path_first[s.npath] + s.search_first[s.nsearch];
  return (size_t)s.most * sizeof(uint32_t) + gprim__lookback<unsigned long long>::bytes((size_t)tiles) +
         (size_t)tiles * 4 * sizeof(uint32_t) + 3 * 256;
}

/* Count and write a batch in one pass (gclq__sets_one_pass_runs): the
   tiles' ends by the partition kernel, then one kernel whose blocks take
   the tiles in order and place each by decoupled look-back on the matches
   of the tiles before it (gclq__d_tile_place), so the input is read once
   and the output (g.out, room for s.most words) comes out in pair order at
   the pairs' offsets; the counts (zeroed before) are added as in the count
   pass. lb: the look-back's words, held until the kernel is done. */
static inline gclq_status gclq__sets_one_pass(gclq__sets_dev *d, const gclq__sets_args &g, const gclq__sets_split &s,
                                              const gclq__sets_tiles &path, const gclq__sets_tiles &search,
                                              gclq__dmem *lb) {
  const uint64_t pt = s.path_first[s.npath], st = s.search_first[s.nsearch], tiles = pt + st;
  cudaStream_t stream = d->c.stream;
  gclq__sets_tiles T = pt > 0 ? path : search;
  gclq__dmem split(&d->c);
  GCLQ__TRY(lb->get(gprim__lookback<unsigned long long>::bytes((size_t)tiles)));
  T.lb.bind(lb->p, (size_t)tiles);
  GCLQ__CUDA_TRY(T.lb.reset(stream));
  if (gclq__sets_methods_has(d->method)) {
    GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_TABLE>(d, g, tiles, st > 0 && gclq__sets_lanes(s), &split, &T));
    return gclq__sets_methods_one_pass(d->method, g, T, gclq__sets_grid(tiles), stream);
  }
  GCLQ__TRY(gclq__sets_cuts<GCLQ__CUT_PATH>(d, g, tiles, false, &split, &T));
  gclq__sets_path_kernel<true, true><<<gclq__sets_grid(tiles), GCLQ__SETS_NT, 0, stream>>>(g, T);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* Exclusive scan of a kind's tile counts (scan: as many words). */
static inline gclq_status gclq__sets_scan_tiles(gclq__sets_dev *d, gclq__sets_tiles *T, uint64_t tiles,
                                                gclq__dmem *scan) {
  if (T->nq == 0) return GCLQ_SUCCESS;
  GCLQ__TRY(scan->get((size_t)tiles * sizeof(uint64_t)));
  uint64_t *out = scan->as<uint64_t>();
  const uint64_t *in = T->count;
  cudaStream_t stream = d->c.stream;
  GCLQ__TRY(gclq__mc_prim(&d->c, [&](void *tmp, size_t *bytes) {
    return gprim_scan_exclusive(tmp, bytes, in, out, (size_t)tiles, gprim_op_sum(), (uint64_t)0, stream);
  }));
  T->scan = out;
  return GCLQ_SUCCESS;
}

/* The pairs' output offsets: pos[p] the counts before pair p (n + 1). */
static inline void gclq__sets_offsets(const uint32_t *counts, uint32_t n, uint64_t *pos) {
  pos[0] = 0;
  for (uint32_t p = 0; p < n; ++p) pos[p + 1] = pos[p] + counts[p];
}

/* The write pass of a part whose counts are on the host and offsets in pos
   (gclq__sets_offsets): the tiles' scans, the kernels, then the
   intersections to the host. *fits = 0 when the output does not fit the
   budget. */
static inline gclq_status gclq__sets_write(gclq__sets_dev *d, gclq__sets_args g, const gclq__sets_split &s,
                                           const uint32_t *d_warp, gclq__sets_tiles path, gclq__sets_tiles search,
                                           uint32_t n, const uint64_t *pos, uint32_t **h_out, int *fits) {
  gclq__mc_ctx *c = &d->c;
  gclq__dmem d_pos(c), d_out(c), path_scan(c), search_scan(c);
  gclq_status st = gclq__sets_put(c, &d_pos, pos, (uint64_t)n + 1);
  if (st == GCLQ_SUCCESS) st = d_out.get((size_t)pos[n] * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS) st = gclq__sets_scan_tiles(d, &path, s.path_first[s.npath], &path_scan);
  if (st == GCLQ_SUCCESS) st = gclq__sets_scan_tiles(d, &search, s.search_first[s.nsearch], &search_scan);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) *fits = 0;
  GCLQ__TRY(st);
  g.pair_pos = d_pos.as<uint64_t>();
  g.out = d_out.as<uint32_t>();
  GCLQ__TRY(gclq__sets_launch<true>(d, g, s, d_warp, path, search));
  *h_out = (uint32_t *)gclq__alloc_array(pos[n], sizeof(uint32_t));
  if (*h_out == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  return gclq__mc_read(c, *h_out, g.out, (size_t)pos[n] * sizeof(uint32_t));
}

/* One part of a batch (n pairs) on the device, then into the sink. *fits =
   0 when its device memory did not fit the budget (nothing was taken). */
static inline gclq_status gclq__sets_part(gclq__sets_dev *d, gclq__sets_sink *k, const uint32_t *pairs, uint32_t n,
                                          uint32_t *counts, int *fits) {
  gclq__mc_ctx *c = &d->c;
  gclq__sets_split s;
  gclq__sets_split_scope scope = {&s};
  gclq__dmem d_pairs(c), d_counts(c), d_warp(c), pp(c), pf(c), pc(c), sp(c), sf(c), sc(c);
  gclq__sets_tiles path, search;
  gclq__clock::time_point t0 = gclq__clock::now();
  *fits = 1;
  GCLQ__TRY(gclq__sets_classify(d, pairs, n, &s));
  gclq_status st = gclq__sets_put(c, &d_pairs, pairs, 2 * (uint64_t)n);
  if (st == GCLQ_SUCCESS) st = d_counts.get((size_t)n * sizeof(uint32_t));
  if (st == GCLQ_SUCCESS) st = gclq__sets_put(c, &d_warp, s.warp, s.nw);
  if (st == GCLQ_SUCCESS) st = gclq__sets_put_tiles(d, s.path_pair, s.path_first, s.npath, &pp, &pf, &pc, &path);
  if (st == GCLQ_SUCCESS) st = gclq__sets_put_tiles(d, s.search_pair, s.search_first, s.nsearch, &sp, &sf, &sc, &search);
  if (st == GCLQ_ERROR_OUT_OF_MEMORY) *fits = 0;
  GCLQ__TRY(st);
  gclq__sets_args g = {(const uint64_t *)d->d_off, (const uint32_t *)d->d_elem, d_pairs.as<uint32_t>(),
                       d_counts.as<uint32_t>(), NULL, NULL};
  GCLQ__CUDA_TRY(cudaMemsetAsync(g.counts, 0, (size_t)n * sizeof(uint32_t), c->stream));
  /* one pass when it runs and its output's room (s.most words) fits the budget */
  gclq__dmem d_out(c), lb(c);
  const int one = gclq__sets_one_pass_runs(d, s) && gclq__mc_fits(c, gclq__sets_one_pass_bytes(s)) &&
                  d_out.get((size_t)s.most * sizeof(uint32_t)) == GCLQ_SUCCESS;
  g.out = d_out.as<uint32_t>();
  if (one) GCLQ__TRY(gclq__sets_one_pass(d, g, s, path, search, &lb));
  else GCLQ__TRY(gclq__sets_launch<false>(d, g, s, d_warp.as<uint32_t>(), path, search));
  GCLQ__TRY(gclq__mc_read(c, counts, g.counts, (size_t)n * sizeof(uint32_t)));
  uint64_t *pos = NULL;
  uint32_t *out = NULL;
  if (d->materialise) {
    pos = (uint64_t *)gclq__alloc_array((uint64_t)n + 1, sizeof(uint64_t));
    if (pos == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
    gclq__sets_offsets(counts, n, pos);
    if (one) { /* the output is on the device already */
      out = (uint32_t *)gclq__alloc_array(pos[n], sizeof(uint32_t));
      st = out ? gclq__mc_read(c, out, g.out, (size_t)pos[n] * sizeof(uint32_t)) : GCLQ_ERROR_OUT_OF_MEMORY;
    } else {
      st = gclq__sets_write(d, g, s, d_warp.as<uint32_t>(), path, search, n, pos, &out, fits);
    }
  }
  d->stats->kernel_ms += gclq__ms_since(t0);
  if (st == GCLQ_SUCCESS) st = gclq__sets_take(k, pairs, counts, n, pos, out);
  GCLQ_FREE(pos);
  GCLQ_FREE(out);
  if (st != GCLQ_SUCCESS) return st;
  d->stats->warp_pairs += s.nw;
  d->stats->block_pairs += (uint64_t)s.npath + s.nsearch;
  d->stats->binary_search_pairs += s.searched;
  d->stats->batches++;
  d->stats->one_pass_batches += one;
  return GCLQ_SUCCESS;
}

/* A batch of pairs on the device: whole when it fits the budget, else in
   halves, recursively (the answers are the same). */
static inline gclq_status gclq__cuda_sets_run(gclq__sets_dev *d, gclq__sets_sink *k, const uint32_t *pairs, uint64_t n,
                                              uint32_t *counts) {
  int fits = 1;
  gclq_status st = gclq__sets_part(d, k, pairs, (uint32_t)n, counts, &fits);
  if (fits || n < 2) return st;
  if (d->plan.log) {
    char line[120];
    snprintf(line, sizeof line, "sets: %llu pairs do not fit the budget: halves", (unsigned long long)n);
    d->plan.log(d->plan.log_user, line);
  }
  const uint64_t h = n / 2;
  GCLQ__TRY(gclq__cuda_sets_run(d, k, pairs, h, counts));
  return gclq__cuda_sets_run(d, k, pairs + 2 * h, n - h, counts + h);
}

/* Start a call: the memory context, the collection on the device. */
static inline gclq_status gclq__cuda_sets_open(gclq__sets_dev *d, const gclq_sets *s, const gclq_intersect_options *o,
                                               gclq_intersect_stats *stats) {
  gclq__clock::time_point t0 = gclq__clock::now();
  memset(d, 0, sizeof *d);
  d->plan.allocator = o->allocator;
  d->plan.log = o->log;
  d->plan.log_user = o->log_user;
  d->plan.stream = o->stream;
  d->plan.budget = o->device_budget_bytes;
  d->c.plan = &d->plan;
  d->c.stream = (cudaStream_t)o->stream;
  d->c.stats = &d->unused;
  d->c.phase = "set intersection";
  d->c.budget = o->device_budget_bytes;
  d->stats = stats;
  d->sets = s;
  d->method = o->method;
  d->materialise = o->materialise;
  if (d->c.budget == 0) GCLQ__TRY(gclq__default_budget(&d->c.budget));
  stats->budget_bytes = d->c.budget;
  GCLQ__TRY(gclq__mc_alloc(&d->c, &d->d_off, &d->off_held, ((size_t)s->num_sets + 1) * sizeof(uint64_t)));
  GCLQ__TRY(gclq__mc_alloc(&d->c, &d->d_elem, &d->elem_held, (size_t)s->total * sizeof(uint32_t)));
  if (s->h_offsets != NULL)
    GCLQ__CUDA_TRY(cudaMemcpyAsync(d->d_off, s->h_offsets, ((size_t)s->num_sets + 1) * sizeof(uint64_t),
                                   cudaMemcpyHostToDevice, d->c.stream));
  if (s->total > 0)
    GCLQ__CUDA_TRY(cudaMemcpyAsync(d->d_elem, s->h_elements, (size_t)s->total * sizeof(uint32_t),
                                   cudaMemcpyHostToDevice, d->c.stream));
  GCLQ__CUDA_TRY(cudaStreamSynchronize(d->c.stream));
  stats->upload_ms = gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* End a call: the collection freed, the stream drained, the peak kept. */
static inline void gclq__cuda_sets_close(gclq__sets_dev *d, gclq_status *st) {
  gclq__device_free(&d->plan.allocator, d->d_off, (gclq_stream)d->c.stream);
  gclq__device_free(&d->plan.allocator, d->d_elem, (gclq_stream)d->c.stream);
  if (cudaStreamSynchronize(d->c.stream) != cudaSuccess && *st == GCLQ_SUCCESS) *st = GCLQ_ERROR_CUDA;
  cudaGetLastError();
  d->stats->peak_device_bytes = d->c.peak;
}

/* A pair's entry in the device call's tables: its path tiles and its search
   tiles (gclq__sets_work_pair: merge path or IP_OBS, AUTO's other pairs
   included; binary search, HASH or a bitmap), its tiles of the bitmap
   (AUTO's dense pairs, gclq__sets_bitmap_dense), and a pad. The three
   tables are scanned at once (gclq__sets_dev_tiles_sum) and the tile
   kernels read them 4 words apart (gclq__sets_tiles::first_shift = 2). */
struct gclq__sets_dev_tiles {
  uint64_t w[4];
};
struct gclq__sets_dev_tiles_sum {
  template <typename T> __host__ __device__ T operator()(const T &a, const T &b) const {
    T c;
    for (int i = 0; i < 4; ++i) c.w[i] = a.w[i] + b.w[i];
    return c;
  }
  template <typename T> static __host__ __device__ T identity() {
    T z;
    for (int i = 0; i < 4; ++i) z.w[i] = 0;
    return z;
  }
};

/* Does AUTO give a pair of the device call to BITMAP_DYNAMIC? The batch
   rule's test of a dominant pair (gclq__sets_pairs_rule_at), pair by pair:
   dense over the values both span (GCLQ_SETS_AUTO_BITMAP_DENSITY), and
   spread over GCLQ_SETS_AUTO_BITMAP_WINDOWS busy stretches, each set's
   peak density from GCLQ__SETS_DEVICE_STRETCHES stretches, but dense from
   GCLQ__SETS_DEVICE_BITMAP_DENSITY (the device call's bitmap runs a table
   per tile, not the batch's streamed windows). Two sets of 10^7 (uniform
   or normal) on an H200, the device call's BITMAP_DYNAMIC against IP_OBS:
   at density 0.2 (U = 10^8) 0.070-0.095 ms against 0.118-0.125, and two of
   10^8 over 10^9 0.39 against 0.99; at 0.02 (U = 10^9)
   0.146-0.164 against 0.119-0.123, and 10^6 over 10^8 level. Pairs below
   GCLQ__SETS_DEVICE_BITMAP_FROM elements never pass (64 stretches of 2^18
   values at the least density hold more), so a batch of small pairs reads
   nothing more. */
#define GCLQ__SETS_DEVICE_STRETCHES 32u
#define GCLQ__SETS_DEVICE_BITMAP_FROM ((uint64_t)1 << 17)
#define GCLQ__SETS_DEVICE_BITMAP_DENSITY 0.1
/* The device call's bitmap test of a pair before its stretches are read:
   0, the bitmap does not pay; 1, it does (the ranges do not overlap: no
   tiles, the count stays 0); 2, it does if the pair's stretches say so
   (gclq__sets_bitmap_spread over the peak densities of
   GCLQ__SETS_DEVICE_STRETCHES stretches, gclq__sets_tiles_kernel), *dense
   the pair's density. */
static __host__ __device__ __forceinline__ int gclq__sets_bitmap_dense(const gclq__sets_pair &pr, double *dense) {
  const uint64_t work = (uint64_t)pr.na + pr.nb;
  if (work < GCLQ__SETS_DEVICE_BITMAP_FROM || pr.na < GCLQ__SETS_DEVICE_STRETCHES) return 0;
  const gclq__sets_range r = gclq__sets_bitmap_range(GCLQ_INTERSECT_BITMAP_DYNAMIC, pr);
  if (r.bits == 0) return 1;
  *dense = (double)work / (double)r.bits;
  return *dense >= GCLQ__SETS_DEVICE_BITMAP_DENSITY ? 2 : 0;
}

/* gclq__sets_peak_density_of(x, n, 32) by a warp (every lane, the same x
   and n): lane i reads stretch i, and the densest is found by shuffles, so
   the warp waits on its loads once. */
static __device__ __forceinline__ double gclq__d_warp_peak_density(const uint32_t *x, uint32_t n) {
  uint64_t c, w;
  gclq__sets_stretch(x, n, 32, threadIdx.x & 31, &c, &w);
  for (int o = 16; o > 0; o >>= 1) {
    const uint64_t c2 = __shfl_xor_sync(0xffffffffu, c, o), w2 = __shfl_xor_sync(0xffffffffu, w, o);
    if (c2 * w > c * w2) c = c2, w = w2;
  }
  return (double)c / (double)w;
}

/* The device call's AUTO over its two tile tables in one launch (their
   totals stay on the device, so a kernel a table would launch even when
   its table is empty): a block's tiles t run through P's (IP_OBS), then
   B's (BITMAP_DYNAMIC), the table kernel's own tile body over one shared
   buffer. Held to the table kernel's 32 registers, so that the grid's
   8 blocks a multiprocessor are resident at once. */
static __global__ void __launch_bounds__(GCLQ__SETS_NT, 2048 / GCLQ__SETS_NT)
    gclq__sets_auto_tiles_kernel(gclq__sets_args g, gclq__sets_tiles P, gclq__sets_tiles B) {
  __shared__ uint32_t s_mem[(uint32_t)gclq__sets_sorted::BLOCK_WORDS > (uint32_t)gclq__sets_bits::BLOCK_WORDS
                                ? (uint32_t)gclq__sets_sorted::BLOCK_WORDS
                                : (uint32_t)gclq__sets_bits::BLOCK_WORDS];
  __shared__ uint32_t s_end[4];
  __shared__ uint32_t s_warp[GCLQ__SETS_NT / 32];
  const uint64_t np = gclq__sets_first(P, P.nq), nb = gclq__sets_first(B, B.nq);
  for (uint64_t t = blockIdx.x; t < np + nb; t += gridDim.x) {
    if (t < np)
      gclq__d_table_tile<false, gclq__sets_sorted, false>(g, P, t, GCLQ_INTERSECT_IP_OBS, s_mem, s_end, s_warp, NULL,
                                                          NULL);
    else
      gclq__d_table_tile<false, gclq__sets_bits, false>(g, B, t - np, GCLQ_INTERSECT_BITMAP_DYNAMIC, s_mem, s_end,
                                                        s_warp, NULL, NULL);
  }
}

/* Each pair's entry (gclq__sets_dev_tiles); entry n is 0, so that the scan
   ends in the totals. */
static __global__ void gclq__sets_tiles_kernel(gclq__sets_args g, uint32_t n, gclq_intersect_method method,
                                               gclq__sets_dev_tiles *tiles) {
  const uint64_t p = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; /* every lane of a warp runs to the end */
  const uint32_t lane = threadIdx.x & 31;
  gclq__sets_pair pr = {NULL, NULL, 0, 0};
  if (p < n) pr = gclq__sets_pair_at(g, (uint32_t)p);
  double dense = 0.0;
  const int d = p < n && method == GCLQ_INTERSECT_AUTO ? gclq__sets_bitmap_dense(pr, &dense) : 0;
  bool bitmap = d == 1;
  for (uint32_t m = __ballot_sync(0xffffffffu, d == 2); m != 0; m &= m - 1) { /* the warp reads each one's stretches */
    const int l = __ffs(m) - 1;
    const uint32_t *a = (const uint32_t *)__shfl_sync(0xffffffffu, (unsigned long long)pr.a, l);
    const uint32_t *b = (const uint32_t *)__shfl_sync(0xffffffffu, (unsigned long long)pr.b, l);
    const uint32_t na = __shfl_sync(0xffffffffu, pr.na, l), nb = __shfl_sync(0xffffffffu, pr.nb, l);
    const double peak_a = gclq__d_warp_peak_density(a, na), peak_b = gclq__d_warp_peak_density(b, nb);
    if (lane == (uint32_t)l)
      bitmap = gclq__sets_bitmap_spread((uint64_t)na + nb, dense, peak_a, peak_b, GCLQ_SETS_AUTO_BITMAP_WINDOWS) != 0;
  }
  if (p > n) return;
  gclq__sets_dev_tiles e = {{0, 0, 0, 0}};
  if (p < n) {
    uint64_t none;
    if (bitmap)
      gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP_DYNAMIC, pr, &none, &e.w[2]);
    else
      gclq__sets_work_pair(method == GCLQ_INTERSECT_AUTO ? GCLQ_INTERSECT_IP_OBS : method, pr, &e.w[0], &e.w[1]);
  }
  tiles[p] = e;
}

/* gclq_intersect_pairs_device: the tile tables built on the device (the
   tiles kernel, one scan of the three), then the count kernels over every
   pair; the tile kernels' blocks loop, so no count comes back to the host.
   AUTO's pairs run BITMAP_DYNAMIC where dense and large
   (gclq__sets_bitmap_dense), else IP_OBS: a warp each for the small ones
   (the per-pair rule's warps, gclq__sets_rule_warps), then both kinds of
   tiles in one kernel (gclq__sets_auto_tiles_kernel), so that AUTO
   launches as many kernels as IP_OBS. Temp: the tables (n + 1 entries of 4
   words), then the scan's storage. */
static inline gclq_status gclq__cuda_pairs_device(const gclq_sets_device *s, const uint32_t *d_pairs, uint32_t n,
                                                  uint32_t *d_counts, gclq_intersect_method method, void *d_temp,
                                                  size_t *temp_bytes, cudaStream_t stream) {
  const size_t table = ((size_t)(n + 1) * sizeof(gclq__sets_dev_tiles) + 255) / 256 * 256;
  size_t scan_bytes = 0;
  GCLQ__CUDA_TRY(gprim_scan_exclusive((void *)NULL, &scan_bytes, (const gclq__sets_dev_tiles *)NULL,
                                      (gclq__sets_dev_tiles *)NULL, (size_t)n + 1, gclq__sets_dev_tiles_sum(),
                                      gclq__sets_dev_tiles_sum::identity<gclq__sets_dev_tiles>(), stream));
  if (d_temp == NULL) {
    *temp_bytes = table + scan_bytes;
    return GCLQ_SUCCESS;
  }
  if (*temp_bytes < table + scan_bytes) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (n == 0) return GCLQ_SUCCESS;
  gclq__sets_dev_tiles *tiles = (gclq__sets_dev_tiles *)d_temp;
  void *scan_temp = (char *)d_temp + table;
  gclq__sets_args g = {s->d_offsets, s->d_elements, d_pairs, d_counts, NULL, NULL};
  GCLQ__CUDA_TRY(cudaMemsetAsync(d_counts, 0, (size_t)n * sizeof(uint32_t), stream));
  gclq__sets_tiles_kernel<<<gclq__grid((uint64_t)n + 1), GCLQ__BLOCK, 0, stream>>>(g, n, method, tiles);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__CUDA_TRY(gprim_scan_exclusive(scan_temp, &scan_bytes, tiles, tiles, (size_t)n + 1, gclq__sets_dev_tiles_sum(),
                                      gclq__sets_dev_tiles_sum::identity<gclq__sets_dev_tiles>(), stream));
  const unsigned grid = gclq__sets_resident_blocks(); /* the tile kernels' blocks, resident at once; they loop */
  gclq__sets_tiles T[3]; /* merge path's, binary search's, the bitmap's: word k of the entries */
  for (int k = 0; k < 3; ++k) {
    memset(&T[k], 0, sizeof T[k]);
    T[k].first = tiles->w + k;
    T[k].nq = n;
    T[k].first_shift = 2;
  }
  if (gclq__sets_methods_has(method))
    return gclq__sets_methods_launch<false>(method, g, NULL, n, T[0], grid, T[1], grid, stream);
  if (method == GCLQ_INTERSECT_AUTO) {
    if (gclq__sets_rule_warps(1)) {
      gclq__sets_warp_kernel<false><<<gclq__grid((uint64_t)n * 32), GCLQ__BLOCK, 0, stream>>>(g, NULL, n, method);
      GCLQ__CUDA_TRY(cudaGetLastError());
    } else {
      GCLQ__TRY(gclq__sets_methods_launch<false>(GCLQ_INTERSECT_IP_OBS, g, NULL, n, T[0], 0, T[1], 0, stream));
    }
    gclq__sets_auto_tiles_kernel<<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T[0], T[2]);
    GCLQ__CUDA_TRY(cudaGetLastError());
    return GCLQ_SUCCESS;
  }
  gclq__sets_warp_kernel<false><<<gclq__grid((uint64_t)n * 32), GCLQ__BLOCK, 0, stream>>>(g, NULL, n, method);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__sets_path_kernel<false><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T[0]);
  GCLQ__CUDA_TRY(cudaGetLastError());
  gclq__sets_search_kernel<false><<<grid, GCLQ__SETS_NT, 0, stream>>>(g, T[1]);
  GCLQ__CUDA_TRY(cudaGetLastError());
  return GCLQ_SUCCESS;
}

/* gclq_sets_upload: the collection through the allocator, no budget. */
static inline gclq_status gclq__cuda_sets_upload(const gclq_sets *s, const gclq_device_allocator *a,
                                                 gclq_sets_device *d, gclq_stream stream) {
  void *off = NULL, *elem = NULL;
  gclq_status st = gclq__device_alloc(a, &off, ((size_t)s->num_sets + 1) * sizeof(uint64_t), stream);
  if (st == GCLQ_SUCCESS) st = gclq__device_alloc(a, &elem, (size_t)s->total * sizeof(uint32_t), stream);
  if (st == GCLQ_SUCCESS && s->h_offsets != NULL &&
      cudaMemcpyAsync(off, s->h_offsets, ((size_t)s->num_sets + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice,
                      (cudaStream_t)stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st == GCLQ_SUCCESS && s->total > 0 &&
      cudaMemcpyAsync(elem, s->h_elements, (size_t)s->total * sizeof(uint32_t), cudaMemcpyHostToDevice,
                      (cudaStream_t)stream) != cudaSuccess)
    st = GCLQ_ERROR_CUDA;
  if (st != GCLQ_SUCCESS) {
    cudaGetLastError();
    gclq__device_free(a, off, stream);
    gclq__device_free(a, elem, stream);
    return st;
  }
  d->num_sets = s->num_sets;
  d->universe = s->universe;
  d->total = s->total;
  d->d_offsets = (uint64_t *)off;
  d->d_elements = (uint32_t *)elem;
  return GCLQ_SUCCESS;
}

/* All pairs at once: the inverted index and the bit matrix. */
#include "clique/sets_all_pairs.cuh"

/* ---------------------------------------------------------------------------
   k-clique counting: the oriented graph and the counters (clique/kcliques.cuh),
   then the methods (clique/kc_*.cuh); the driver is gclq__kc_cuda in
   gpuclique.h.
   ------------------------------------------------------------------------- */
#include "clique/kcliques.cuh"
#include "clique/kc_bitset.cuh"
#include "clique/kc_pivot.cuh"
#include "clique/kc_lftj.cuh"
#include "clique/kc_level_join.cuh"
#include "clique/kc_grouped.cuh"

#endif /* GPUCLIQUE_KERNELS_CUH */
