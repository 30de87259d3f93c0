/* clique/gpm/motifs.cuh - motifs of 3 and 4 vertices by counting on the
   device (method COUNT, backend CUDA): the twin of gclq__host_motifs_count
   (clique/gpm/host.h), the same sums (gclq__fm_sums) solved by the same
   gclq__fm_solve, modulo 2^64. The graph module uploads the graph and
   orients it by (degree, id) (gclq__graph_oriented, no cores):
   vertex ids become ranks in that order, so "later in the order" is
   "larger id" and every list is ascending. Then, in a context of its own
   under the budget (clique/device.cuh):
     triangles  a warp an oriented edge (u, v): the later neighbours w common
                to u and v (the shorter list walked, the other searched),
                each triangle once at its first edge (T alone, when the
                vertices' bitmap leaves room for GCLQ__FM_BITS_MIN_BLOCKS
                blocks an SM: a block a vertex u, u's list as bits in shared
                memory, each w of the lists of u's neighbours v one bit
                test); t_e (a counter an
                oriented edge, which is an edge) and t_v by atomics, each
                only when a sum asked for needs it (D, L: gclq__fm_need);
                for K each triangle's later neighbours common to all three
                (the shortest of the three lists walked; each 4-clique once
                at its first three vertices);
     sums       a warp a vertex: C(d, 2), C(d, 3) and t_v (d - 2) at the
                vertex, (d_u - 1)(d_v - 1) and C(t_e, 2) over its out-edges;
     4-cycles   a block a highest vertex a, taken by a ticket from the last
                rank down (the largest degrees first): over a's neighbours b
                below a, over b's neighbours c below a, a counter per c in
                the block's own dense array of n counters; after a barrier
                the same walk takes each counter back (atomicExch to 0: the
                first lane to meet c adds C(count, 2), the array is clean
                for the next a). Each 4-cycle once at its highest vertex,
                opposite c (Chiba and Nishizeki, 1985).
   Memory (m edges, n vertices, in bytes): the upload (8 m + 12 n; its core
   numbers' 4 n freed at once) and the orientation (out-lists 4 m, with
   the 4-cycles the undirected lists 8 m, offsets and ranks 20 n, and its
   sort keys and temporary storage); then the upload and the ranks are freed
   and the triangles take 4 m (t_e) + 8 n (t_v); then those and the out-lists
   are freed, and the 4-cycles take 4 n a block, as many
   blocks as are resident and the budget holds (at least one: less room is
   GCLQ_ERROR_OUT_OF_MEMORY). A vertex of any degree runs in one block's
   dense array. */

#define GCLQ__FM_ACC 7 /* the device sums: T, K, W, S, P, L, D */

/* The sums a call needs (gclq__fm_need): a count of one pattern needs only
   some, and each left out saves its pass or its atomics (t_e for D, t_v
   for L, the 4-clique search for K, the 4-cycles for C). */
#define GCLQ__FM_T 1u
#define GCLQ__FM_K 2u
#define GCLQ__FM_W 4u
#define GCLQ__FM_S 8u
#define GCLQ__FM_P 16u
#define GCLQ__FM_L 32u
#define GCLQ__FM_D 64u
#define GCLQ__FM_C 128u

/* The bitmap triangle kernel's block, and the fewest of its blocks an SM
   must hold (its n-bit bitmap in shared memory) for it to run instead of
   the warp-an-edge kernel. */
#define GCLQ__FM_BITS_THREADS 128
#define GCLQ__FM_BITS_MIN_BLOCKS 4

/* The sums behind every count of k (pattern >= the pattern count), or
   behind pattern's non-induced count alone (gclq__fm_solve's noninduced
   order: k = 3 T, W; k = 4 S, P - 3T, L, C, D, K). */
static inline uint32_t gclq__fm_need(uint32_t k, uint32_t pattern) {
  static const uint32_t three[2] = {GCLQ__FM_T, GCLQ__FM_W};
  static const uint32_t four[6] = {GCLQ__FM_S, GCLQ__FM_P | GCLQ__FM_T, GCLQ__FM_L | GCLQ__FM_T,
                                   GCLQ__FM_C, GCLQ__FM_D | GCLQ__FM_T, GCLQ__FM_K | GCLQ__FM_T};
  if (k == 3) return pattern < 2 ? three[pattern] : GCLQ__FM_T | GCLQ__FM_W;
  return pattern < 6 ? four[pattern] : 0xffu;
}

/* The vertex whose list holds entry e of the CSR off (n vertices, e < off[n]). */
static __device__ __forceinline__ uint32_t gclq__fmd_source(const uint64_t *off, uint32_t n, uint64_t e) {
  uint32_t lo = 0, hi = n; /* off[lo] <= e < off[hi] */
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (__ldg(off + mid) <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* C(x, 2) and C(x, 3) modulo 2^64, as gclq__fm_c2 and gclq__fm_c3. */
static __device__ __forceinline__ unsigned long long gclq__fmd_c2(unsigned long long x) {
  return x < 2 ? 0 : x % 2 == 0 ? x / 2 * (x - 1) : (x - 1) / 2 * x;
}
static __device__ __forceinline__ unsigned long long gclq__fmd_c3(unsigned long long x) {
  return x < 3 ? 0 : (x - 2) % 3 == 0 ? gclq__fmd_c2(x) * ((x - 2) / 3) : gclq__fmd_c2(x) / 3 * (x - 2);
}

static __device__ __forceinline__ unsigned long long gclq__fmd_warp_sum(unsigned long long v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(GCLQ__FULL, v, o);
  return v;
}

/* *dst += the block's sum of v (every thread of the block calls it). */
static __device__ __forceinline__ void gclq__fmd_block_add(unsigned long long v, unsigned long long *dst) {
  __shared__ unsigned long long s_warp[32];
  const unsigned warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = gclq__fmd_warp_sum(v);
  if (threadIdx.x % 32 == 0) s_warp[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long s = 0;
    for (unsigned w = 0; w < warps; ++w) s += s_warp[w];
    if (s != 0) atomicAdd(dst, s);
  }
  __syncthreads();
}

/* How many elements of a[l0, h0) are in both a[l1, h1) and a[l2, h2) (each
   range ascending): the shortest walked, the others searched. */
static __device__ __forceinline__ unsigned long long gclq__fmd_common3(const uint32_t *a, uint64_t l0, uint64_t h0,
                                                                       uint64_t l1, uint64_t h1, uint64_t l2,
                                                                       uint64_t h2) {
  unsigned long long k = 0;
  uint64_t t;
  if (h1 - l1 < h0 - l0) t = l0, l0 = l1, l1 = t, t = h0, h0 = h1, h1 = t;
  if (h2 - l2 < h0 - l0) t = l0, l0 = l2, l2 = t, t = h0, h0 = h2, h2 = t;
  for (uint64_t x = l0; x < h0; ++x) {
    const uint32_t y = __ldg(a + x);
    const uint64_t p1 = gclq__d_lower(a, l1, h1, y), p2 = gclq__d_lower(a, l2, h2, y);
    k += p1 < h1 && __ldg(a + p1) == y && p2 < h2 && __ldg(a + p2) == y;
  }
  return k;
}

/* Triangles and 4-cliques (the module comment): a warp an oriented edge e =
   (u, v), grid-stride. Entry iu of u's list and iv of v's hold the same w:
   the triangle's other two edges. acc[0] += T, acc[1] += K; te and tv
   are counted only when not NULL. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__fm_triangles_kernel(uint32_t n, uint64_t m, const uint64_t *off, const uint32_t *out, int k4, uint32_t *te,
                              unsigned long long *tv, unsigned long long *acc) {
  const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  unsigned long long T = 0, K = 0;
  for (uint64_t e = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; e < m; e += warps) {
    const uint32_t u = gclq__fmd_source(off, n, e), v = __ldg(out + e);
    const uint64_t ua = e + 1, ue = off[u + 1], va = off[v], ve = off[v + 1];
    const bool walk_u = ue - ua <= ve - va; /* walk the shorter list, search the other */
    const uint64_t a = walk_u ? ua : va, b = walk_u ? ue : ve;
    unsigned long long t = 0;
    for (uint64_t i = a + lane; i < b; i += 32) {
      const uint32_t w = __ldg(out + i);
      const uint64_t j = walk_u ? gclq__d_lower(out, va, ve, w) : gclq__d_lower(out, ua, ue, w);
      if (j == (walk_u ? ve : ue) || __ldg(out + j) != w) continue;
      const uint64_t iu = walk_u ? i : j, iv = walk_u ? j : i;
      ++t;
      if (te != NULL) atomicAdd(te + iu, 1u), atomicAdd(te + iv, 1u);
      if (tv != NULL) atomicAdd(tv + w, 1ull);
      if (k4) K += gclq__fmd_common3(out, off[w], off[w + 1], iu + 1, ue, iv + 1, ve); /* the 4-cliques */
    }
    t = gclq__fmd_warp_sum(t);
    if (lane == 0 && t != 0) {
      if (te != NULL) atomicAdd(te + e, (uint32_t)t);
      if (tv != NULL) atomicAdd(tv + u, t), atomicAdd(tv + v, t);
      T += t;
    }
  }
  gclq__fmd_block_add(T, acc);
  gclq__fmd_block_add(K, acc + 1);
}

/* The triangles alone (acc[0] += T), a block a vertex u (grid-stride):
   u's out-list set as bits of a bitmap of all n vertices in shared memory
   (s_bits, zero before and after), then the block's warps over v in that
   list, their lanes over v's out-list, each w a triangle u-v-w when its
   bit is set: one shared-memory test a pair instead of a search. Each
   triangle once, at its first vertex and its middle one. */
static __global__ void __launch_bounds__(GCLQ__FM_BITS_THREADS)
    gclq__fm_triangles_bitmap_kernel(uint32_t n, const uint64_t *off, const uint32_t *out, unsigned long long *acc) {
  extern __shared__ uint32_t s_bits[];
  const uint32_t warp = threadIdx.x / 32, warps = blockDim.x / 32, lane = threadIdx.x % 32;
  unsigned long long T = 0;
  for (uint32_t i = threadIdx.x; i < (n + 31) / 32; i += blockDim.x) s_bits[i] = 0;
  __syncthreads();
  for (uint32_t u = blockIdx.x; u < n; u += gridDim.x) {
    const uint64_t a = off[u], b = off[u + 1];
    if (b - a < 2) continue; /* the same for every thread of the block */
    for (uint64_t i = a + threadIdx.x; i < b; i += blockDim.x) {
      const uint32_t w = __ldg(out + i);
      atomicOr(s_bits + w / 32, 1u << (w % 32));
    }
    __syncthreads();
    for (uint64_t i = a + warp; i + 1 < b; i += warps) { /* the last v has no later neighbour of u */
      const uint32_t v = __ldg(out + i);
      const uint64_t ve = off[v + 1];
      for (uint64_t j = off[v] + lane; j < ve; j += 32) {
        const uint32_t w = __ldg(out + j);
        T += (s_bits[w / 32] >> (w % 32)) & 1u;
      }
    }
    __syncthreads();
    for (uint64_t i = a + threadIdx.x; i < b; i += blockDim.x) s_bits[__ldg(out + i) / 32] = 0;
    __syncthreads();
  }
  gclq__fmd_block_add(T, acc);
}

/* The sums W, S, P, L, D (acc[2 .. 6]): a warp a vertex r, grid-stride;
   degrees from the undirected offsets uoff. L only when tv is not NULL, D
   when te is not NULL, and the out-edges (P, D) walked only when edges. */
static __global__ void __launch_bounds__(32 * GCLQ__CWARPS)
    gclq__fm_sums_kernel(uint32_t n, const uint64_t *uoff, const uint64_t *off, const uint32_t *out, const uint32_t *te,
                         const unsigned long long *tv, int edges, unsigned long long *acc) {
  const uint64_t warps = (uint64_t)gridDim.x * blockDim.x / 32;
  const uint32_t lane = threadIdx.x % 32;
  unsigned long long W = 0, S = 0, P = 0, L = 0, D = 0;
  for (uint64_t r = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32; r < n; r += warps) {
    const unsigned long long d = uoff[r + 1] - uoff[r];
    if (lane == 0) {
      W += gclq__fmd_c2(d);
      S += gclq__fmd_c3(d);
      L += d < 2 || tv == NULL ? 0 : tv[r] * (d - 2);
    }
    for (uint64_t e = off[r] + lane; edges && e < off[r + 1]; e += 32) {
      const uint32_t x = __ldg(out + e);
      P += (d - 1) * (uoff[x + 1] - uoff[x] - 1);
      if (te != NULL) D += gclq__fmd_c2(te[e]);
    }
  }
  gclq__fmd_block_add(W, acc + 2);
  gclq__fmd_block_add(S, acc + 3);
  gclq__fmd_block_add(P, acc + 4);
  gclq__fmd_block_add(L, acc + 5);
  gclq__fmd_block_add(D, acc + 6);
}

/* The wedges a-b-c below a (undirected lists off, nbr in rank ids): a warp
   a b, its lanes over c. take 0: cnt[c] += 1 each; take 1: each counter
   taken back to 0, *mine += C(count, 2) by the lane that took it. */
static __device__ __forceinline__ void gclq__fmd_wedges(const uint64_t *off, const uint32_t *nbr, uint32_t a,
                                                        uint32_t *cnt, int take, unsigned long long *mine) {
  const uint32_t warp = threadIdx.x / 32, warps = blockDim.x / 32, lane = threadIdx.x % 32;
  const uint64_t bs = off[a], be = gclq__d_lower(nbr, off[a], off[a + 1], a);
  for (uint64_t i = bs + warp; i < be; i += warps) {
    const uint32_t b = __ldg(nbr + i);
    const uint64_t ce = gclq__d_lower(nbr, off[b], off[b + 1], a);
    for (uint64_t j = off[b] + lane; j < ce; j += 32) {
      const uint32_t c = __ldg(nbr + j);
      if (!take) atomicAdd(cnt + c, 1u);
      else *mine += gclq__fmd_c2(atomicExch(cnt + c, 0u));
    }
  }
}

/* 4-cycles (the module comment): a block a highest vertex a, by the ticket
   from rank n - 1 down; the block's counters at slabs + blockIdx.x * n
   (zero before and after). *acc += C. */
static __global__ void __launch_bounds__(GCLQ__BLOCK)
    gclq__fm_cycles_kernel(uint32_t n, const uint64_t *off, const uint32_t *nbr, uint32_t *slabs,
                           unsigned long long *ticket, unsigned long long *acc) {
  __shared__ unsigned long long s_t;
  uint32_t *cnt = slabs + (uint64_t)blockIdx.x * n;
  unsigned long long mine = 0;
  for (;;) {
    if (threadIdx.x == 0) s_t = atomicAdd(ticket, 1ull);
    __syncthreads();
    const unsigned long long t = s_t;
    if (t >= n) break; /* the same for every thread of the block */
    const uint32_t a = (uint32_t)(n - 1 - t);
    gclq__fmd_wedges(off, nbr, a, cnt, 0, &mine);
    __syncthreads();
    gclq__fmd_wedges(off, nbr, a, cnt, 1, &mine);
    __syncthreads(); /* the counters clean, s_t read, before the next ticket */
  }
  gclq__fmd_block_add(mine, acc);
}

/* Blocks of `threads` resident on the current device at once (at least 1). */
template <typename K>
static inline gclq_status gclq__fm_resident(K kernel, int threads, uint64_t *blocks) {
  int dev = 0, sms = 0, per_sm = 0;
  GCLQ__CUDA_TRY(cudaGetDevice(&dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  *blocks = (uint64_t)(sms > 0 ? sms : 1) * (uint64_t)(per_sm > 0 ? per_sm : 1);
  return GCLQ_SUCCESS;
}

/* T alone into *acc by the bitmap kernel when its n-bit bitmap leaves
   room for GCLQ__FM_BITS_MIN_BLOCKS blocks an SM (*ran 1), else nothing
   (*ran 0: the caller's warp-an-edge kernel counts them). */
static inline gclq_status gclq__fm_bitmap_triangles(gclq__dev *c, const gclq__doriented *o, uint32_t n,
                                                    unsigned long long *acc, int *ran) {
  const size_t bytes = (size_t)((n + 31) / 32) * sizeof(uint32_t);
  int dev = 0, sms = 0, optin = 0, per_sm = 0;
  *ran = 0;
  GCLQ__CUDA_TRY(cudaGetDevice(&dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  GCLQ__CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (bytes + 1024 > (size_t)optin) return GCLQ_SUCCESS; /* 1024: the kernel's own shared words, and slack */
  GCLQ__CUDA_TRY(cudaFuncSetAttribute(gclq__fm_triangles_bitmap_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      (int)bytes));
  GCLQ__CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gclq__fm_triangles_bitmap_kernel,
                                                               GCLQ__FM_BITS_THREADS, bytes));
  if (per_sm < GCLQ__FM_BITS_MIN_BLOCKS) return GCLQ_SUCCESS;
  {
    const uint64_t most = (uint64_t)(sms > 0 ? sms : 1) * (uint64_t)per_sm;
    const unsigned blocks = (unsigned)(n < most ? n : most);
    gclq__fm_triangles_bitmap_kernel<<<blocks > 0 ? blocks : 1, GCLQ__FM_BITS_THREADS, bytes, c->stream>>>(
        n, o->d_off, o->d_out, acc);
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  *ran = 1;
  return GCLQ_SUCCESS;
}

/* The sums of need but C into s (the others 0): triangles (and 4-cliques,
   t_e, t_v as need asks) and then W .. D, from the oriented graph o of n
   vertices and the undirected offsets uoff in rank order (the orientation
   fills them even without the undirected lists, when o->d_uoff is NULL). */
static inline gclq_status gclq__fm_cuda_triangles(gclq__dev *c, const gclq__doriented *o, const uint64_t *uoff,
                                                  uint32_t n, uint32_t need, gclq__fm_sums *s) {
  gclq__dmem te(c), tv(c), acc(c);
  unsigned long long h[GCLQ__FM_ACC];
  uint64_t most = 0, blocks;
  const uint32_t sums = GCLQ__FM_W | GCLQ__FM_S | GCLQ__FM_P | GCLQ__FM_L | GCLQ__FM_D;
  int bitmap = 0;
  c->phase = "motifs: triangles";
  if (need & GCLQ__FM_D) {
    GCLQ__TRY(te.get((size_t)o->m * sizeof(uint32_t)));
    GCLQ__CUDA_TRY(cudaMemsetAsync(te.p, 0, (size_t)o->m * sizeof(uint32_t), c->stream));
  }
  if (need & GCLQ__FM_L) {
    GCLQ__TRY(tv.get((size_t)n * sizeof(unsigned long long)));
    GCLQ__CUDA_TRY(cudaMemsetAsync(tv.p, 0, (size_t)n * sizeof(unsigned long long), c->stream));
  }
  GCLQ__TRY(acc.get(sizeof h));
  GCLQ__CUDA_TRY(cudaMemsetAsync(acc.p, 0, sizeof h, c->stream));
  if ((need & GCLQ__FM_T) && !(need & (GCLQ__FM_K | GCLQ__FM_L | GCLQ__FM_D))) {
    GCLQ__TRY(gclq__fm_bitmap_triangles(c, o, n, acc.as<unsigned long long>(), &bitmap));
  }
  if (!bitmap && (need & (GCLQ__FM_T | GCLQ__FM_K | GCLQ__FM_L | GCLQ__FM_D))) {
    GCLQ__TRY(gclq__fm_resident(gclq__fm_triangles_kernel, 32 * GCLQ__CWARPS, &most));
    blocks = gclq__grid_warps(o->m) < most ? gclq__grid_warps(o->m) : most;
    gclq__fm_triangles_kernel<<<(unsigned)blocks, 32 * GCLQ__CWARPS, 0, c->stream>>>(
        n, o->m, o->d_off, o->d_out, (need & GCLQ__FM_K) != 0, te.as<uint32_t>(), tv.as<unsigned long long>(),
        acc.as<unsigned long long>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  if (need & sums) {
    GCLQ__TRY(gclq__fm_resident(gclq__fm_sums_kernel, 32 * GCLQ__CWARPS, &most));
    blocks = gclq__grid_warps(n) < most ? gclq__grid_warps(n) : most;
    gclq__fm_sums_kernel<<<(unsigned)blocks, 32 * GCLQ__CWARPS, 0, c->stream>>>(
        n, uoff, o->d_off, o->d_out, te.as<uint32_t>(), tv.as<unsigned long long>(),
        (need & (GCLQ__FM_P | GCLQ__FM_D)) != 0, acc.as<unsigned long long>());
    GCLQ__CUDA_TRY(cudaGetLastError());
  }
  GCLQ__TRY(gclq__dev_read(c, h, acc.p, sizeof h));
  s->T = h[0], s->K = h[1], s->W = h[2], s->S = h[3], s->P = h[4], s->L = h[5], s->D = h[6];
  gclq__dev_log(c, "motifs: triangles counted");
  return GCLQ_SUCCESS;
}

/* The 4-cycles into *C, from the undirected lists (rank ids) of o: as many
   blocks as are resident and whose counter arrays (4 n bytes each) the
   budget holds. */
static inline gclq_status gclq__fm_cuda_cycles(gclq__dev *c, const gclq__doriented *o, uint32_t n, uint64_t *C) {
  gclq__dmem state(c), slabs(c);
  unsigned long long h = 0;
  uint64_t blocks = 0, room;
  const uint64_t slab = (uint64_t)n * sizeof(uint32_t);
  c->phase = "motifs: 4-cycles";
  GCLQ__TRY(state.get(2 * sizeof(unsigned long long))); /* the ticket, the sum */
  GCLQ__CUDA_TRY(cudaMemsetAsync(state.p, 0, 2 * sizeof(unsigned long long), c->stream));
  GCLQ__TRY(gclq__fm_resident(gclq__fm_cycles_kernel, GCLQ__BLOCK, &blocks));
  if (blocks > n) blocks = n;
  room = c->used < c->budget ? c->budget - c->used : 0;
  if (blocks > room / slab) blocks = room / slab;
  while (blocks > 1 && !gclq__dev_fits(c, (size_t)(blocks * slab))) --blocks;
  if (blocks == 0) blocks = 1; /* the allocation below then reports the shortage */
  GCLQ__TRY(slabs.get((size_t)(blocks * slab)));
  GCLQ__CUDA_TRY(cudaMemsetAsync(slabs.p, 0, (size_t)(blocks * slab), c->stream));
  gclq__fm_cycles_kernel<<<(unsigned)blocks, GCLQ__BLOCK, 0, c->stream>>>(
      n, o->d_uoff, o->d_unbr, slabs.as<uint32_t>(), state.as<unsigned long long>(),
      state.as<unsigned long long>() + 1);
  GCLQ__CUDA_TRY(cudaGetLastError());
  GCLQ__TRY(gclq__dev_read(c, &h, state.as<unsigned long long>() + 1, sizeof h));
  *C = h;
  gclq__dev_log(c, "motifs: 4-cycles counted");
  return GCLQ_SUCCESS;
}

/* The sums of need of a graph with edges: upload and orientation (the
   upload freed after it; none from a prepared graph; the undirected lists
   only for C), triangles and sums, then the 4-cycles; *count_ms the wall
   time from the oriented graph on. */
static inline gclq_status gclq__fm_cuda_run(gclq__dev *c, const gclq_graph *g, uint32_t need,
                                            const gclq_prepared_graph *pg, gclq__fm_sums *s, double *count_ms) {
  const uint32_t n = g->num_vertices;
  const int cycles = (need & GCLQ__FM_C) != 0;
  gclq__doriented o;
  gclq__dmem rank(c), ooff(c), oout(c), uoff(c), unbr(c);
  gclq__clock::time_point t0 = gclq__clock::now();
  uint32_t no_cores = 0;
  double upload_ms, order_ms;
  memset(&o, 0, sizeof o);
  if (pg != NULL) { /* its orientation, whichever order: any total order counts each cycle once */
    GCLQ__TRY(gclq__fm_cuda_triangles(c, &pg->o, pg->o.d_uoff, pg->n, need, s));
    if (cycles) GCLQ__TRY(gclq__fm_cuda_cycles(c, &pg->o, pg->n, &s->C));
    *count_ms = gclq__ms_since(t0);
    return GCLQ_SUCCESS;
  }
  c->phase = "motifs: upload"; /* no cores: the (degree, id) order */
  GCLQ__TRY(gclq__graph_oriented(c, g, GCLQ_ORIENT_BY_DEGREE, 0, cycles, &rank, &ooff, &oout, &uoff, &unbr, &o,
                                 &no_cores, &upload_ms, &order_ms));
  rank.release();
  t0 = gclq__clock::now();
  GCLQ__TRY(gclq__fm_cuda_triangles(c, &o, uoff.as<uint64_t>(), n, need, s));
  ooff.release();
  oout.release();
  if (cycles) GCLQ__TRY(gclq__fm_cuda_cycles(c, &o, n, &s->C));
  *count_ms = gclq__ms_since(t0);
  return GCLQ_SUCCESS;
}

/* gclq__host_motifs_count on the current device under budget bytes (0: the
   default budget), from the prepared graph pg when not NULL, with the same
   outputs and, when count_ms is not NULL, the counting's wall time (from
   the oriented graph to the sums); on failure they are undefined. Only the
   sums of need (gclq__fm_need) are computed, the rest taken as 0: the
   counts that do not rest on them alone are then not the graph's. */
static inline gclq_status gclq__cuda_motifs_count(const gclq_graph *g, uint32_t k, uint32_t need, size_t budget,
                                                  const gclq_prepared_graph *pg, void (*log)(void *, const char *),
                                                  void *log_user, uint64_t *counts, uint64_t *subgraphs,
                                                  uint64_t *noninduced, double *count_ms) {
  gclq__dev c;
  gclq__fm_sums s;
  gclq__pool_keep keep;
  double ms = 0;
  gclq_status st = GCLQ_SUCCESS;
  if ((k != 3 && k != 4) || (pg != NULL && !gclq__prepared_of(pg, g))) return GCLQ_ERROR_INVALID_ARGUMENT;
  GCLQ__TRY(gclq__device_start(&budget));
  gclq__dev_init(&c, NULL, NULL, budget);
  c.log = log;
  c.log_user = log_user;
  memset(&s, 0, sizeof s);
  if (k == 3) need &= GCLQ__FM_T | GCLQ__FM_W;
  if (g->num_edges > 0) { /* else every sum is 0 */
    gclq__pool_keep_begin(&keep, &c.allocator);
    st = gclq__fm_cuda_run(&c, g, need, pg, &s, &ms);
    if (cudaStreamSynchronize(c.stream) != cudaSuccess && st == GCLQ_SUCCESS) st = GCLQ_ERROR_CUDA;
    gclq__pool_keep_end(&keep);
  }
  if (st == GCLQ_SUCCESS) gclq__fm_solve(k, &s, counts, subgraphs, noninduced);
  if (count_ms != NULL) *count_ms = ms;
  return st;
}
