/* clique/graph/kernels.cuh - device code of the graph module: adjacency
   tests in the CSR, the upload's degrees, and the k-core decomposition by
   parallel peeling (Alg. 1 of Geil's dissertation), as a loop of launches
   and as one cooperative kernel. Its driver is clique/graph/cuda.cuh. */
/* ---------------------------------------------------------------------------
   device helpers
   ------------------------------------------------------------------------- */

/* T itself: a parameter of this type is not deduced from its argument. */
template <typename T> struct gclq__same_type {
  typedef T type;
};

/* The first index of the ascending a[lo, hi) whose element is not below x
   (hi if none); T: uint32_t (ids) or uint64_t (keys), from a alone. */
template <typename T>
static __device__ __forceinline__ uint64_t gclq__d_lower(const T *a, uint64_t lo, uint64_t hi,
                                                         typename gclq__same_type<T>::type x) {
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (__ldg(a + mid) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* Is u in the (ascending) adjacency list of v? Binary search in the CSR. */
static __device__ __forceinline__ bool gclq__d_adjacent(const uint64_t *off, const uint32_t *nbr, uint32_t v,
                                                        uint32_t u) {
  const uint64_t end = off[v + 1], at = gclq__d_lower(nbr, off[v], end, u);
  return at < end && __ldg(nbr + at) == u;
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

/* The graph contract's symmetry, on the device (the host has checked the
   rest: sorted lists, no repeats, no self-loops, ids below n). A warp a
   vertex v: each entry (v, u) with u > v, an upper entry, must have its
   reverse, v in u's list (a binary search there; *missing set when not),
   and the upper entries are counted into *upper. With no repeats the
   reverses of the upper entries are distinct lower entries, so when none
   is missing and there are exactly m upper entries, they are every lower
   entry: each edge is stored at both ends. */
static __global__ void gclq__graph_symmetric_kernel(const uint64_t *off, const uint32_t *nbr, uint32_t n,
                                                    unsigned long long *upper, unsigned int *missing) {
  const uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (w >= n) return;
  const uint32_t v = (uint32_t)w;
  uint32_t mine = 0;
  bool bad = false;
  for (uint64_t e = off[v] + lane; e < off[v + 1]; e += 32) {
    const uint32_t u = __ldg(nbr + e);
    if (u <= v) continue;
    ++mine;
    bad |= !gclq__d_adjacent(off, nbr, u, v);
  }
  for (int d = 16; d > 0; d /= 2) mine += __shfl_down_sync(0xffffffffu, mine, d);
  if (lane == 0 && mine != 0) atomicAdd(upper, (unsigned long long)mine);
  if (__any_sync(0xffffffffu, bad) && lane == 0) atomicOr(missing, 1u);
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
   vertices left instead measured slower, the list writes costing more than
   the looks they save (bench/results/kcliques_h200.md, "The orientation"). */
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
   orientation: the graph renamed by an order, each edge kept at its
   earlier end (gclq__graph_orient, clique/graph/cuda.cuh)
   ------------------------------------------------------------------------- */

/* The 64-bit order key of vertex v: (degree, id), or (round, id) when round
   is given. Keys are distinct (the id is in the low half). */
static __device__ __forceinline__ uint64_t gclq__orient_key(const uint32_t *deg, const uint32_t *round, uint32_t v) {
  return (uint64_t)(round != NULL ? round[v] : deg[v]) << 32 | v;
}

static __global__ void gclq__orient_keys_kernel(uint32_t n, const uint32_t *deg, const uint32_t *round, uint64_t *key) {
  const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) key[v] = gclq__orient_key(deg, round, (uint32_t)v);
}

/* rank[v] = the position of v in the order (the keys sorted ascending). */
static __global__ void gclq__orient_rank_kernel(uint32_t n, const uint64_t *sorted, uint32_t *rank) {
  const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) rank[(uint32_t)sorted[i]] = (uint32_t)i;
}

/* Per vertex, at its rank r: ucnt[r] its degree, ocnt[r] its later
   neighbours; *max_out the most of those. A warp per vertex. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__orient_count_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, const uint32_t *rank,
                                 uint64_t *ucnt, uint64_t *ocnt, uint32_t *max_out) {
  const uint64_t v = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (v >= n) return;
  const uint32_t r = rank[v];
  uint32_t c = 0;
  for (uint64_t e0 = off[v]; e0 < off[v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane;
    c += __popc(__ballot_sync(GCLQ__FULL, e < off[v + 1] && rank[nbr[e]] > r));
  }
  if (lane == 0) {
    ucnt[r] = off[v + 1] - off[v];
    ocnt[r] = c;
    atomicMax(max_out, c);
  }
}

/* The lists of vertex v at its rank r, in rank ids: every neighbour into
   unbr at uoff[r] (unless unbr is NULL), the later ones into oout at
   ooff[r] (each list still to be sorted). A warp per vertex. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__orient_write_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, const uint32_t *rank,
                                 const uint64_t *uoff, uint32_t *unbr, const uint64_t *ooff, uint32_t *oout) {
  const uint64_t v = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint32_t lane = threadIdx.x & 31;
  if (v >= n) return;
  const uint32_t r = rank[v];
  uint64_t at = ooff[r];
  for (uint64_t e0 = off[v]; e0 < off[v + 1]; e0 += 32) {
    const uint64_t e = e0 + lane;
    const uint32_t ru = e < off[v + 1] ? rank[nbr[e]] : 0;
    const bool later = e < off[v + 1] && ru > r;
    const uint32_t ballot = __ballot_sync(GCLQ__FULL, later);
    if (unbr != NULL && e < off[v + 1]) unbr[uoff[r] + (e - off[v])] = ru;
    if (later) oout[at + __popc(ballot & ((1u << lane) - 1u))] = ru;
    at += __popc(ballot);
  }
}
