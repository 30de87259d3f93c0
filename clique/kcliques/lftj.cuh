/* clique/kcliques/lftj.cuh - k-clique counting by Leapfrog Triejoin (LFTJ),
   after Wu et al., "Multipredicate Join Algorithms for Accelerating
   Relational Graph Processing on GPUs", section 3 (LFTJ-GPU). Its driver is
   in clique/kcliques/cuda.cuh.

   The trie is the oriented graph: level 1 the vertices, level 2 out(v)
   (d_off, d_out). The k-clique query joins k variables x1 < ... < xk over
   the edge relation; one thread takes one value of x1 (a vertex v, as the
   paper does) and runs the join depth first. The intersection of the
   current candidates with out(w) is a leapfrog join: each iterator seeks
   the largest value seen so far, by exponential look-ahead (steps 1, 8, 64,
   ...) then binary search.

   - k = 3: for each u in out(v), |out(v) after u  ^  out(u)|.
   - k = 4: for each u in out(v) and each w of that join, the three-way
     leapfrog join of out(v), out(u) (both after w) and out(w), counted.
   - other k, and every size (k = 0): an explicit stack of iterators. The
     candidate lists C_2, C_3, ... of the current path lie one after the
     other in the thread's global scratch (|C_j| <= max_out - j + 1); for
     one k the deepest list C_{k-2} is joined with out(w) by counting only,
     for every size each list's length is counted at its depth. When the
     scratch of one thread per vertex does not fit the budget, fewer
     threads run, each taking the vertices t, t + T, t + 2T, ...: windows
     of first values; any budget that holds the graph plus one thread's
     scratch gives the same counts.

   Counts: per-thread sums in registers (a wrap sets the thread's flag),
   summed over the warp and added once per warp. Per-vertex counts (one k):
   each clique's vertices get +1, a node's prefix in bulk. */

#define GCLQ__KC_LFTJ_BLOCK 128 /* threads per block */

/* The candidate-list words of the stack for the lists C_2 .. C_deepest, at
   most max_out - j + 1 entries each (C_1 = out(v), and each list is the
   previous one's tail after the chosen vertex, intersected). */
static __host__ __device__ inline uint64_t gclq__kc_lftj_stack_words(uint32_t max_out, uint32_t deepest) {
  uint64_t words = 0;
  for (uint32_t j = 2; j <= deepest && j <= (uint64_t)max_out + 1; ++j) words += (uint64_t)max_out - j + 1;
  return words;
}

/* One thread's scratch in 32-bit words: the per-size counters of every
   size (k = 0: top + 1 counts of 64 bits, then top + 1 wrap flags), the
   stack, and per depth 0 .. deepest its position, length, list start and
   chosen vertex; rounded up to an even number (64-bit alignment). */
static __host__ __device__ inline uint64_t gclq__kc_lftj_thread_words(uint32_t max_out, uint32_t k, uint32_t top,
                                                                      uint32_t deepest) {
  uint64_t words = gclq__kc_lftj_stack_words(max_out, deepest) + 4 * ((uint64_t)deepest + 1);
  if (k == 0) words += 3 * ((uint64_t)top + 1);
  return (words + 1) / 2 * 2;
}

/* The threads that run the general path: one per vertex, fewer when their
   scratch (thread_bytes each) does not fit in left bytes; 0 when not even
   one fits. */
static __host__ __device__ inline uint64_t gclq__kc_lftj_threads(uint64_t left, uint64_t thread_bytes, uint32_t n) {
  const uint64_t fit = thread_bytes > 0 ? left / thread_bytes : n;
  return fit < n ? fit : n;
}

/* The first i in [lo, n) with a[i] >= x (n when none): look ahead from lo
   by 1, 8, 64, ... cells to one at or above x, then binary search between
   the last cell below x and it. */
static __host__ __device__ __forceinline__ uint32_t gclq__kc_lftj_seek(const uint32_t *a, uint32_t lo, uint32_t n,
                                                                     uint32_t x) {
  if (lo >= n || a[lo] >= x) return lo;
  uint32_t below = lo, hi = n; /* a[below] < x; the answer is in (below, hi] */
  for (uint64_t step = 1;; step *= 8) {
    const uint64_t probe = below + step;
    if (probe >= n) break;
    if (a[probe] >= x) {
      hi = (uint32_t)probe;
      break;
    }
    below = (uint32_t)probe;
  }
  lo = below + 1;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The leapfrog join of N sorted lists: emit(x, pos) for each value x in all
   of them (pos[i]: x's index in list i), ascending; returns their number.
   The iterators take turns seeking the value the last one stopped at; N in
   a row at the same value is a match. */
template <int N, typename Emit>
static __host__ __device__ __forceinline__ uint32_t gclq__kc_lftj_join(const uint32_t *const (&list)[N],
                                                                     const uint32_t (&len)[N], Emit emit) {
  uint32_t pos[N];
#if defined(__CUDA_ARCH__) /* the device pass: iterators in registers */
#endif
  for (int i = 0; i < N; ++i) {
    if (len[i] == 0) return 0;
    pos[i] = 0;
  }
  uint32_t x = list[0][0], found = 0;
  int agree = 0; /* iterators in a row (ending with the last) standing at x */
  for (;;) {
#if defined(__CUDA_ARCH__) /* the device pass: iterators in registers */
#endif
    for (int i = 0; i < N; ++i) {
      pos[i] = gclq__kc_lftj_seek(list[i], pos[i], len[i], x);
      if (pos[i] == len[i]) return found;
      const uint32_t y = list[i][pos[i]];
      if (y != x) {
        x = y;
        agree = 1;
      } else if (++agree == N) {
        emit(x, pos);
        ++found;
        if (++pos[i] == len[i]) return found;
        x = list[i][pos[i]];
        agree = 1;
      }
    }
  }
}

/* Emits nothing (counting only). */
struct gclq__kc_lftj_none {
  template <typename P> __host__ __device__ __forceinline__ void operator()(uint32_t, const P &) const {}
};

/* What every LFTJ kernel gets. */
struct gclq__kc_lftj_args {
  const uint64_t *off;             /* the oriented graph */
  const uint32_t *out;
  uint32_t n, k, top;              /* vertices; the size counted (0: every size up to top) */
  unsigned long long *count;       /* d->d_count, d->d_flags */
  unsigned int *flags;
  unsigned long long *pv;          /* per-vertex counts and flags, or NULL */
  unsigned int *pvf;
  unsigned long long *nodes;       /* search-tree nodes (intersections done) */
  uint32_t *scratch;               /* the general path: words per thread, threads */
  uint64_t words;
  uint64_t threads;
  uint32_t deepest;                /* the deepest stored candidate list */
};

/* The per-vertex counts on the device: on() when asked; (x, c) adds c to
   vertex x's count. */
struct gclq__kc_lftj_pv_dev {
  unsigned long long *pv;
  unsigned int *pvf;
  __device__ __forceinline__ bool on() const { return pv != NULL; }
  __device__ __forceinline__ void operator()(uint32_t x, unsigned long long c) const {
    gclq__kc_d_add(pv + x, pvf + x, c);
  }
};

/* acc += c; a sum that passes 2^64 - 1 sets *wrapped. */
static __host__ __device__ __forceinline__ void gclq__kc_lftj_acc(unsigned long long *acc, unsigned int *wrapped,
                                                         unsigned long long c) {
  if (*acc + c < *acc) *wrapped = 1;
  *acc += c;
}

/* The warp's sum of v (lane 0 gets it, and in *wrapped whether any lane's
   flag was set or the sum passed 2^64 - 1). Every lane of the warp calls it. */
static __device__ __forceinline__ unsigned long long gclq__kc_lftj_warp_sum(unsigned long long v,
                                                                           unsigned int *wrapped) {
  unsigned int w = *wrapped;
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long other = __shfl_down_sync(GCLQ__FULL, v, o);
    const unsigned int other_w = __shfl_down_sync(GCLQ__FULL, w, o);
    if (v + other < v) w = 1;
    v += other;
    w |= other_w;
  }
  *wrapped = w;
  return v;
}

/* The warp's counts (size s) and nodes, added once by lane 0. Every lane of
   the warp calls it. */
static __device__ __forceinline__ void gclq__kc_lftj_flush(const gclq__kc_lftj_args &a, uint32_t s,
                                                           unsigned long long acc, unsigned int wrapped,
                                                           unsigned long long nodes) {
  unsigned int nodes_wrapped = 0;
  acc = gclq__kc_lftj_warp_sum(acc, &wrapped);
  nodes = gclq__kc_lftj_warp_sum(nodes, &nodes_wrapped);
  if ((threadIdx.x & 31) == 0) {
    gclq__kc_d_add(a.count + s, a.flags + s, acc);
    if (wrapped) atomicOr(a.flags + s, 1u);
    atomicAdd(a.nodes, nodes);
  }
}

/* Triangles: a thread per vertex v; for each u in out(v) the join of out(v)
   after u with out(u). */
static __global__ void __launch_bounds__(GCLQ__KC_LFTJ_BLOCK) gclq__kc_lftj3_kernel(gclq__kc_lftj_args a) {
  const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const gclq__kc_lftj_pv_dev pv = {a.pv, a.pvf};
  unsigned long long acc = 0, nodes = 0, mine = 0;
  unsigned int wrapped = 0;
  if (v < a.n) {
    const uint32_t *ov = a.out + a.off[v];
    const uint32_t dv = (uint32_t)(a.off[v + 1] - a.off[v]);
    for (uint32_t i = 0; i + 1 < dv; ++i) {
      const uint32_t u = ov[i];
      const uint32_t *list[2] = {ov + i + 1, a.out + a.off[u]};
      const uint32_t len[2] = {dv - i - 1, (uint32_t)(a.off[u + 1] - a.off[u])};
      uint32_t c;
      if (pv.on()) {
        c = gclq__kc_lftj_join<2>(list, len, [&](uint32_t x, const uint32_t(&)[2]) { pv(x, 1); });
        pv(u, c);
        mine += c;
      } else {
        c = gclq__kc_lftj_join<2>(list, len, gclq__kc_lftj_none());
      }
      gclq__kc_lftj_acc(&acc, &wrapped, c);
      ++nodes;
    }
    if (pv.on()) pv((uint32_t)v, mine);
  }
  gclq__kc_lftj_flush(a, 3, acc, wrapped, nodes);
}

/* 4-cliques: a thread per vertex v; for each u in out(v) the join of out(v)
   and out(u) gives w, and the three-way join of out(v), out(u) (after w)
   and out(w) counts. */
static __global__ void __launch_bounds__(GCLQ__KC_LFTJ_BLOCK) gclq__kc_lftj4_kernel(gclq__kc_lftj_args a) {
  const uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const gclq__kc_lftj_pv_dev pv = {a.pv, a.pvf};
  unsigned long long acc = 0, nodes = 0, mine = 0;
  unsigned int wrapped = 0;
  if (v < a.n) {
    const uint32_t *ov = a.out + a.off[v];
    const uint32_t dv = (uint32_t)(a.off[v + 1] - a.off[v]);
    for (uint32_t i = 0; i + 2 < dv; ++i) {
      const uint32_t u = ov[i];
      const uint32_t *list2[2] = {ov + i + 1, a.out + a.off[u]};
      const uint32_t len2[2] = {dv - i - 1, (uint32_t)(a.off[u + 1] - a.off[u])};
      unsigned long long with_u = 0;
      gclq__kc_lftj_join<2>(list2, len2, [&](uint32_t w, const uint32_t(&at)[2]) {
        const uint32_t *list3[3] = {list2[0] + at[0] + 1, list2[1] + at[1] + 1, a.out + a.off[w]};
        const uint32_t len3[3] = {len2[0] - at[0] - 1, len2[1] - at[1] - 1, (uint32_t)(a.off[w + 1] - a.off[w])};
        uint32_t c;
        ++nodes;
        if (pv.on()) {
          c = gclq__kc_lftj_join<3>(list3, len3, [&](uint32_t x, const uint32_t(&)[3]) { pv(x, 1); });
          pv(w, c);
        } else {
          c = gclq__kc_lftj_join<3>(list3, len3, gclq__kc_lftj_none());
        }
        with_u += c;
      });
      gclq__kc_lftj_acc(&acc, &wrapped, with_u);
      ++nodes;
      if (pv.on()) {
        pv(u, with_u);
        mine += with_u;
      }
    }
    if (pv.on()) pv((uint32_t)v, mine);
  }
  gclq__kc_lftj_flush(a, 4, acc, wrapped, nodes);
}

/* One thread's stack in its scratch: per-size counters (every size), per
   depth the iterator's position, the list's length and start and the
   vertex chosen there, then the candidate lists C_2, C_3, ... one after the
   other. */
struct gclq__kc_lftj_stack {
  unsigned long long *size_count; /* every size: top + 1 */
  unsigned int *size_wrapped;     /* every size: top + 1 */
  uint32_t *pos, *len, *start, *clique;
  uint32_t *lists;

  __host__ __device__ gclq__kc_lftj_stack(const gclq__kc_lftj_args &a, uint64_t thread) {
    uint32_t *base = a.scratch + thread * a.words;
    const uint64_t sizes = a.k == 0 ? (uint64_t)a.top + 1 : 0, depths = (uint64_t)a.deepest + 1;
    size_count = (unsigned long long *)base;
    size_wrapped = (unsigned int *)(base + 2 * sizes);
    pos = base + 3 * sizes;
    len = pos + depths;
    start = len + depths;
    clique = start + depths;
    lists = clique + depths;
  }
};

/* One k at depth d = k - 2 (the clique so far st.clique[0 .. d), its
   candidates cd, nd of them): each candidate w and the join of the
   candidates after it with out(w) make k-cliques; returns their number
   (the prefix's vertices get it in bulk). */
template <typename Pv>
static __host__ __device__ unsigned long long gclq__kc_lftj_last(const gclq__kc_lftj_args &a,
                                                                 const gclq__kc_lftj_stack &st, const Pv &pv,
                                                                 uint32_t d, const uint32_t *cd, uint32_t nd,
                                                                 unsigned long long *nodes) {
  unsigned long long total = 0;
  for (uint32_t i = 0; i + 1 < nd; ++i) {
    const uint32_t w = cd[i];
    const uint32_t *list[2] = {cd + i + 1, a.out + a.off[w]};
    const uint32_t len[2] = {nd - i - 1, (uint32_t)(a.off[w + 1] - a.off[w])};
    uint32_t c;
    ++*nodes;
    if (pv.on()) {
      c = gclq__kc_lftj_join<2>(list, len, [&](uint32_t x, const uint32_t(&)[2]) { pv(x, 1); });
      pv(w, c);
    } else {
      c = gclq__kc_lftj_join<2>(list, len, gclq__kc_lftj_none());
    }
    total += c;
  }
  if (pv.on())
    for (uint32_t j = 0; j < d; ++j) pv(st.clique[j], total);
  return total;
}

/* The join from first value v, depth first by the stack of iterators. One
   k: the lists C_2 .. C_{k-2} are stored, C_{k-2} joined by counting
   (gclq__kc_lftj_last), the k-cliques added to *acc; every size: each list
   C_{d+1} found adds its length to the (d + 2)-cliques in st.size_count. */
template <typename Pv>
static __host__ __device__ void gclq__kc_lftj_source(const gclq__kc_lftj_args &a, const gclq__kc_lftj_stack &st,
                                                     const Pv &pv, uint32_t v, unsigned long long *acc,
                                                     unsigned int *wrapped, unsigned long long *nodes) {
  const uint32_t *c1 = a.out + a.off[v];
  uint32_t d = 1;
  st.len[1] = (uint32_t)(a.off[v + 1] - a.off[v]);
  st.pos[1] = 0;
  st.start[1] = 0;
  st.clique[0] = v;
  if (a.k != 0 && 1 + st.len[1] < a.k) return; /* too few to reach k */
  while (d >= 1) {
    const uint32_t *cd = d == 1 ? c1 : st.lists + st.start[d];
    if (a.k != 0 && d + 2 == a.k) { /* the deepest stored depth: count and go back */
      gclq__kc_lftj_acc(acc, wrapped, gclq__kc_lftj_last(a, st, pv, d, cd, st.len[d], nodes));
      --d;
      continue;
    }
    const uint32_t i = st.pos[d]++;
    /* one k: w and the candidates after it must reach k */
    if (i >= st.len[d] || (a.k != 0 && d + 1 + (st.len[d] - i - 1) < a.k)) {
      --d;
      continue;
    }
    const uint32_t w = cd[i];
    const uint32_t below = d == 1 ? 0 : st.start[d] + st.len[d]; /* C_{d+1} starts here */
    uint32_t *next = st.lists + below;
    const uint32_t *list[2] = {cd + i + 1, a.out + a.off[w]};
    const uint32_t len[2] = {st.len[d] - i - 1, (uint32_t)(a.off[w + 1] - a.off[w])};
    uint32_t nn = 0;
    ++*nodes;
    gclq__kc_lftj_join<2>(list, len, [&](uint32_t x, const uint32_t(&)[2]) { next[nn++] = x; });
    if (nn == 0 || (a.k != 0 && d + 1 + nn < a.k)) continue;
    if (a.k == 0) { /* every size: nn (d + 2)-cliques */
      unsigned long long *sc = st.size_count + d + 2;
      if (*sc + nn < *sc) st.size_wrapped[d + 2] = 1;
      *sc += nn;
    }
    st.clique[d] = w;
    ++d;
    st.start[d] = below;
    st.len[d] = nn;
    st.pos[d] = 0;
  }
}

/* The general path: a thread per first value v (v = t, t + T, ...), each
   by gclq__kc_lftj_source in its own scratch. */
static __global__ void __launch_bounds__(GCLQ__KC_LFTJ_BLOCK) gclq__kc_lftj_general_kernel(gclq__kc_lftj_args a) {
  const uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
  const gclq__kc_lftj_pv_dev pv = {a.pv, a.pvf};
  unsigned long long acc = 0, nodes = 0;
  unsigned int wrapped = 0;
  if (t < a.threads) {
    gclq__kc_lftj_stack st(a, t);
    for (uint32_t s = 0; a.k == 0 && s <= a.top; ++s) {
      st.size_count[s] = 0;
      st.size_wrapped[s] = 0;
    }
    for (uint64_t v = t; v < a.n; v += a.threads) gclq__kc_lftj_source(a, st, pv, (uint32_t)v, &acc, &wrapped, &nodes);
  }
  if (a.k != 0) {
    gclq__kc_lftj_flush(a, a.k, acc, wrapped, nodes);
    return;
  }
  gclq__kc_lftj_flush(a, 3, 0, 0, nodes); /* the nodes; the counts per size below */
  if (t < a.threads) {
    gclq__kc_lftj_stack st(a, t);
    for (uint32_t s = 3; s <= a.top; ++s) {
      gclq__kc_d_add(a.count + s, a.flags + s, st.size_count[s]);
      if (st.size_wrapped[s]) atomicOr(a.flags + s, 1u);
    }
  }
}
