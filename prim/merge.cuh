/* gpuprim section: merge path (see gpuprim.cuh).

   merge keys / pairs ....... two sorted arrays into one, stable (a before b on ties)
   sorted search ............ lower / upper bound of every needle in a sorted haystack, O(n + m)
   load-balancing search .... expand an exclusive scan of counts into parent / rank per item
   segmented reduce ......... any associative operator per CSR segment; argmax (first occurrence)

   All of them are merge path (Green, McColl, Bader 2012; Odeh, Green, Mwassi, Shmueli, Birk
   2012; moderngpu's shape): the merge grid of two sorted sequences is cut along equal cross
   diagonals; one binary search per diagonal (gprim_merge_path) says how many of the first
   `diag` outputs come from each input, so every tile of the output knows its input slices
   without looking at any other tile. Inside a tile each thread searches its own diagonal in
   shared memory and merges a fixed number of items serially.
     sorted search ........... merge of (needles, haystack)
     load-balancing search ... merge of (segment offsets, 0 .. total - 1)
     segmented reduce ........ merge of (segment ends, 0 .. total - 1), reducing the items

   Output arrays never overlap the inputs (no in-place use). */

#if defined(__cplusplus)

/* Comparison functors for merge / sorted order. Any functor with a
   `bool operator()(K, K) const` callable on the device works the same way. */
struct gprim_less {
  template <typename T> GPRIM_HD bool operator()(const T &a, const T &b) const { return a < b; }
};
struct gprim_greater {
  template <typename T> GPRIM_HD bool operator()(const T &a, const T &b) const { return b < a; }
};

enum gprim_bound { GPRIM_LOWER_BOUND, GPRIM_UPPER_BOUND };

/* The implicit sorted sequence base, base + 1, ... (the item side of load-balancing search
   and segmented reduce). */
template <typename O> struct gprim__merge_count {
  O base;
  template <typename I> GPRIM_HD O operator[](I k) const { return (O)(base + (O)k); }
};

/* Merge path partition (a binary search on one cross diagonal of the merge grid): how many of
   the first `diag` items of the merge of sorted a[0, na) and b[0, nb) come from a.
   A_FIRST = true: on ties a's items come first (std::merge's rule); false: b's come first.
     a = [1, 3, 5], b = [2, 3, 4], diag = 3, A_FIRST  ->  2   (the merge starts 1 2 3a)
     same, A_FIRST = false                            ->  1   (the merge starts 1 2 3b)
   Used by the device partitioners, by every thread inside a tile, and by host tests. */
template <bool A_FIRST, typename I, typename AIt, typename BIt, typename Less>
GPRIM_HD I gprim_merge_path(AIt a, I na, BIt b, I nb, I diag, Less less) {
  I lo = diag > nb ? diag - nb : 0;
  I hi = diag < na ? diag : na;
  while (lo < hi) {
    I mid = lo + (hi - lo) / 2;
    bool a_goes_first = A_FIRST ? !less(b[diag - 1 - mid], a[mid]) : less(a[mid], b[diag - 1 - mid]);
    if (a_goes_first) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

#endif /* __cplusplus */

#if defined(__CUDACC__)

#define GPRIM__MERGE_MAX_BLOCKS 1024 /* persistent blocks of segmented reduce (one fix-up block) */

/* The merge-path kernels' shapes, in one place: threads per block, and
   items per thread by bytes per item (odd: no shared-memory bank conflicts;
   tiles stay under the 48 KiB of static shared memory). merge: key
   (+ value); sorted search: key + index; load-balancing search: offset;
   segmented reduce: value + offset. */
struct gprim__merge_shape {
  enum { NT = 256 };       /* threads per block of the merge-path kernels ... */
  enum { SEGRED_NT = 128 }; /* ... but segmented reduce: more, smaller blocks hide its latency */
  static constexpr int vt(int bytes) { return bytes <= 4 ? 19 : bytes <= 8 ? 11 : 7; }
  static constexpr int search_vt(int bytes) { return bytes <= 8 ? 15 : bytes <= 12 ? 11 : 9; }
  static constexpr int lbs_vt(int bytes) { return bytes <= 4 ? 15 : 11; }
  static constexpr int segred_vt(int bytes) { return bytes <= 8 ? 19 : bytes <= 12 ? 15 : 11; }
};

/* Merge path partition: the split of every tile's first diagonal, one binary search each.
   parts[i] = number of a items among the first min(i * nv, na + nb) outputs. */
template <bool A_FIRST, typename AIt, typename BIt, typename Less>
__global__ void gprim__merge_partition_kernel(AIt a, size_t na, BIt b, size_t nb, size_t nv, size_t nparts,
                                              size_t *parts, Less less) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= nparts) return;
  size_t diag = i * nv < na + nb ? i * nv : na + nb;
  parts[i] = gprim_merge_path<A_FIRST>(a, na, b, nb, diag, less);
}

template <bool A_FIRST, typename AIt, typename BIt, typename Less>
cudaError_t gprim__merge_partition(AIt a, size_t na, BIt b, size_t nb, size_t nv, size_t ntiles, size_t *parts,
                                   Less less, cudaStream_t stream) {
  size_t nparts = ntiles + 1;
  gprim__merge_partition_kernel<A_FIRST><<<(unsigned)gprim__div_up(nparts, 256), 256, 0, stream>>>(
      a, na, b, nb, nv, nparts, parts, less);
  return cudaGetLastError();
}

/* Load a tile's slices a[0, na) then b[0, nb) (global) into s[0, na + nb), coalesced; all
   loads of a thread are issued before its shared stores. */
template <int NT, int VT, typename T>
__device__ __forceinline__ void gprim__merge_load_two(const T *a, int na, const T *b, int nb, T *s) {
  T r[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    int x = threadIdx.x + i * NT;
    if (x < na) r[i] = a[x];
    else if (x < na + nb) r[i] = b[x - na];
  }
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    int x = threadIdx.x + i * NT;
    if (x < na + nb) s[x] = r[i];
  }
}

/* Store s[0, count) to dst coalesced; 16-byte vectors for a full, aligned tile. s is 16-aligned. */
template <int NT, int NV, typename T>
__device__ __forceinline__ void gprim__merge_store_tile(T *dst, const T *s, int count) {
  if ((NV * sizeof(T)) % 16 == 0 && count == NV && ((uintptr_t)dst & 15) == 0) {
    const uint4 *s4 = (const uint4 *)s;
    uint4 *d4 = (uint4 *)dst;
    for (int x = threadIdx.x; x < (int)(NV * sizeof(T) / 16); x += NT) d4[x] = s4[x];
  } else {
    for (int x = threadIdx.x; x < count; x += NT) dst[x] = s[x];
  }
}

/* Merge path (Odeh et al. 2012; moderngpu's merge): one tile of NT * VT outputs per block. The
   tile's slices of a and b go to shared memory, each thread searches its own diagonal there and
   merges VT items serially (a first on ties), and the block stores the tile coalesced. With
   HAS_V the values are gathered by source position and follow their keys. */
template <int NT, int VT, bool HAS_V, typename K, typename V, typename Less>
__global__ void __launch_bounds__(NT)
    gprim__merge_kernel(const K *a, const V *av, const K *b, const V *bv, size_t n, K *out, V *outv,
                        const size_t *parts, Less less) {
  constexpr int NV = NT * VT;
  constexpr int KEY_BYTES = ((NV + 1) * (int)sizeof(K) + 15) / 16 * 16;
  constexpr int VAL_BYTES = HAS_V ? NV * (int)sizeof(V) : 0;
  __shared__ __align__(16) unsigned char smem[KEY_BYTES + VAL_BYTES];
  K *s_keys = (K *)smem;
  V *s_vals = (V *)(smem + KEY_BYTES);

  const size_t tile = blockIdx.x, d0 = tile * NV, d1 = d0 + NV < n ? d0 + NV : n;
  const size_t a0 = parts[tile], a1 = parts[tile + 1], b0 = d0 - a0, b1 = d1 - a1;
  const int acount = (int)(a1 - a0), bcount = (int)(b1 - b0), count = acount + bcount;

  /* 1. the tile's inputs into shared memory: s_keys = [a slice | b slice] */
  gprim__merge_load_two<NT, VT>(a + a0, acount, b + b0, bcount, s_keys);
  if (HAS_V) gprim__merge_load_two<NT, VT>(av + a0, acount, bv + b0, bcount, s_vals);
  __syncthreads();

  /* 2. this thread's diagonal, then a serial merge of up to VT items */
  const int diag = threadIdx.x * VT < count ? threadIdx.x * VT : count;
  const int steps = count - diag < VT ? count - diag : VT;
  const K *sa = s_keys, *sb = s_keys + acount;
  int ai = gprim_merge_path<true>(sa, acount, sb, bcount, diag, less);
  int bi = diag - ai;
  K ka = sa[ai], kb = sb[bi]; /* s_keys has NV + 1 slots: reading one past either slice is safe */
  K k_reg[VT];
  int src[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    if (i < steps) {
      bool take_a = bi >= bcount || (ai < acount && !less(kb, ka));
      k_reg[i] = take_a ? ka : kb;
      src[i] = take_a ? ai : acount + bi;
      if (take_a) ka = sa[++ai];
      else kb = sb[++bi];
    }
  }
  V v_reg[VT];
  if (HAS_V) {
#pragma unroll
    for (int i = 0; i < VT; ++i)
      if (i < steps) v_reg[i] = s_vals[src[i]];
  }
  __syncthreads();

  /* 3. registers -> shared memory in output order -> global memory, coalesced */
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    if (i < steps) {
      s_keys[diag + i] = k_reg[i];
      if (HAS_V) s_vals[diag + i] = v_reg[i];
    }
  }
  __syncthreads();
  gprim__merge_store_tile<NT, NV>(out + d0, s_keys, count);
  if (HAS_V) gprim__merge_store_tile<NT, NV>(outv + d0, s_vals, count);
}

/* Launch a merge with NT threads x VT items per thread (the bench tunes these). */
template <int NT, int VT, bool HAS_V, typename K, typename V, typename Less>
cudaError_t gprim__merge_run(void *d_temp, size_t *temp_bytes, const K *a, const V *av, size_t na, const K *b,
                             const V *bv, size_t nb, K *out, V *outv, Less less, cudaStream_t stream) {
  const size_t nv = (size_t)NT * VT, n = na + nb, ntiles = gprim__div_up(n, nv);
  size_t sizes[1] = {(ntiles + 1) * sizeof(size_t)};
  void *ptrs[1];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 1, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if ((na && (!a || (HAS_V && !av))) || (nb && (!b || (HAS_V && !bv))) || (n && (!out || (HAS_V && !outv))))
    return cudaErrorInvalidValue;
  if (n == 0) return cudaSuccess;
  size_t *parts = (size_t *)ptrs[0];
  GPRIM_TRY(gprim__merge_partition<true>(a, na, b, nb, nv, ntiles, parts, less, stream));
  gprim__merge_kernel<NT, VT, HAS_V><<<(unsigned)ntiles, NT, 0, stream>>>(a, av, b, bv, n, out, outv, parts, less);
  return cudaGetLastError();
}

/* Merge two sorted key arrays (sorted by `less`) into d_out[0, na + nb), stable: on ties
   every element of a comes before the equal ones of b (std::merge's rule).
     a = [1, 3, 5], b = [2, 3]  ->  out = [1, 2, 3(a), 3(b), 5]
   Temp storage: 8 bytes per tile of 4864 items or so (query it). d_out must not overlap the inputs. */
template <typename K, typename Less>
cudaError_t gprim_merge_keys(void *d_temp, size_t *temp_bytes, const K *d_a, size_t na, const K *d_b, size_t nb,
                             K *d_out, Less less, cudaStream_t stream) {
  return gprim__merge_run<gprim__merge_shape::NT, gprim__merge_shape::vt(sizeof(K)), false>(
      d_temp, temp_bytes, d_a, (const K *)NULL, na, d_b, (const K *)NULL, nb, d_out, (K *)NULL, less, stream);
}

/* Merge two sorted key-value arrays; values follow their keys; stable as gprim_merge_keys.
     a = [(1,a0), (3,a1)], b = [(1,b0), (2,b1)]  ->  [(1,a0), (1,b0), (2,b1), (3,a1)]
   V is any 4- or 8-byte type. Outputs must not overlap the inputs. */
template <typename K, typename V, typename Less>
cudaError_t gprim_merge_pairs(void *d_temp, size_t *temp_bytes, const K *d_a_keys, const V *d_a_vals, size_t na,
                              const K *d_b_keys, const V *d_b_vals, size_t nb, K *d_out_keys, V *d_out_vals,
                              Less less, cudaStream_t stream) {
  return gprim__merge_run<gprim__merge_shape::NT, gprim__merge_shape::vt(sizeof(K) + sizeof(V)), true>(
      d_temp, temp_bytes, d_a_keys, d_a_vals, na, d_b_keys, d_b_vals, nb, d_out_keys, d_out_vals, less, stream);
}

/* Vectorised sorted search by merge path over (needles, haystack): a needle goes before equal
   haystack items for the lower bound, after them for the upper bound; when a needle is merged
   the number of haystack items already merged is its answer. */
template <int NT, int VT, bool LOWER, typename K, typename I>
__global__ void __launch_bounds__(NT)
    gprim__merge_search_kernel(const K *needles, const K *hay, size_t n, I *out, const size_t *parts) {
  constexpr int NV = NT * VT;
  constexpr int KEY_BYTES = ((NV + 1) * (int)sizeof(K) + 15) / 16 * 16;
  __shared__ __align__(16) unsigned char smem[KEY_BYTES + NV * sizeof(I)];
  K *s_keys = (K *)smem;
  I *s_out = (I *)(smem + KEY_BYTES);

  const size_t tile = blockIdx.x, d0 = tile * NV, d1 = d0 + NV < n ? d0 + NV : n;
  const size_t a0 = parts[tile], a1 = parts[tile + 1], b0 = d0 - a0, b1 = d1 - a1;
  const int acount = (int)(a1 - a0), bcount = (int)(b1 - b0), count = acount + bcount;
  gprim__merge_load_two<NT, VT>(needles + a0, acount, hay + b0, bcount, s_keys);
  __syncthreads();

  const int diag = threadIdx.x * VT < count ? threadIdx.x * VT : count;
  const int steps = count - diag < VT ? count - diag : VT;
  const K *sa = s_keys, *sb = s_keys + acount;
  int ai = gprim_merge_path<LOWER>(sa, acount, sb, bcount, diag, gprim_less());
  int bi = diag - ai;
  K ka = sa[ai], kb = sb[bi];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    if (i < steps) {
      bool take_a = bi >= bcount || (ai < acount && (LOWER ? !(kb < ka) : (ka < kb)));
      if (take_a) {
        s_out[ai] = (I)(b0 + bi);
        ka = sa[++ai];
      } else {
        kb = sb[++bi];
      }
    }
  }
  __syncthreads();
  for (int x = threadIdx.x; x < acount; x += NT) out[a0 + x] = s_out[x];
}

template <bool LOWER, typename K, typename I>
cudaError_t gprim__merge_search_launch(const K *needles, size_t n_needles, const K *hay, size_t n_hay, I *out,
                                       size_t *parts, size_t ntiles, cudaStream_t stream) {
  constexpr int NT = gprim__merge_shape::NT, VT = gprim__merge_shape::search_vt(sizeof(K) + sizeof(I));
  GPRIM_TRY(gprim__merge_partition<LOWER>(needles, n_needles, hay, n_hay, (size_t)NT * VT, ntiles, parts,
                                          gprim_less(), stream));
  gprim__merge_search_kernel<NT, VT, LOWER><<<(unsigned)ntiles, NT, 0, stream>>>(needles, hay, n_needles + n_hay,
                                                                                out, parts);
  return cudaGetLastError();
}

/* Vectorised sorted search: needles and haystack both sorted ascending (operator<);
   d_out[i] = lower (or upper) bound of needles[i] in the haystack, an index in [0, n_haystack].
   O(n + m) work by merge path (not a binary search per needle).
     needles = [0, 2, 2, 9], haystack = [1, 2, 2, 3]
       GPRIM_LOWER_BOUND  ->  out = [0, 1, 1, 4]
       GPRIM_UPPER_BOUND  ->  out = [0, 3, 3, 4]
   I = uint32_t or uint64_t. n_haystack = 0 gives all zeros. */
template <typename K, typename I>
cudaError_t gprim_sorted_search(void *d_temp, size_t *temp_bytes, const K *d_needles, size_t n_needles,
                                const K *d_haystack, size_t n_haystack, I *d_out, gprim_bound bound,
                                cudaStream_t stream) {
  const size_t nv = (size_t)gprim__merge_shape::NT * gprim__merge_shape::search_vt(sizeof(K) + sizeof(I));
  const size_t ntiles = gprim__div_up(n_needles + n_haystack, nv);
  size_t sizes[1] = {(ntiles + 1) * sizeof(size_t)};
  void *ptrs[1];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 1, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if ((n_needles && (!d_needles || !d_out)) || (n_haystack && !d_haystack)) return cudaErrorInvalidValue;
  if (bound != GPRIM_LOWER_BOUND && bound != GPRIM_UPPER_BOUND) return cudaErrorInvalidValue;
  if (n_needles == 0) return cudaSuccess;
  if (bound == GPRIM_LOWER_BOUND)
    return gprim__merge_search_launch<true>(d_needles, n_needles, d_haystack, n_haystack, d_out,
                                            (size_t *)ptrs[0], ntiles, stream);
  return gprim__merge_search_launch<false>(d_needles, n_needles, d_haystack, n_haystack, d_out, (size_t *)ptrs[0],
                                           ntiles, stream);
}

/* Load-balancing search by merge path over (offsets, 0 .. total - 1): offset s goes before item
   j when offsets[s] <= j; when item j is merged, the last offset merged is its segment's. The
   parents go through shared memory; the ranks are computed at the coalesced store. */
template <int NT, int VT, typename O>
__global__ void __launch_bounds__(NT)
    gprim__merge_lbs_kernel(const O *offsets, size_t n, O *parent, O *rank, const size_t *parts) {
  constexpr int NV = NT * VT;
  __shared__ O s_off[NV + 1]; /* s_off[0] = the offset merged just before this tile (0 if none) */
  __shared__ O s_par[NV];

  const size_t tile = blockIdx.x, d0 = tile * NV, d1 = d0 + NV < n ? d0 + NV : n;
  const size_t a0 = parts[tile], a1 = parts[tile + 1], b0 = d0 - a0, b1 = d1 - a1;
  const int acount = (int)(a1 - a0), bcount = (int)(b1 - b0), count = acount + bcount;
  gprim__merge_load_two<NT, VT>(offsets + a0, acount, offsets, 0, s_off + 1);
  if (threadIdx.x == 0) s_off[0] = a0 ? offsets[a0 - 1] : (O)0;
  __syncthreads();

  const int diag = threadIdx.x * VT < count ? threadIdx.x * VT : count;
  const int steps = count - diag < VT ? count - diag : VT;
  gprim__merge_count<O> items = {(O)b0};
  int ai = gprim_merge_path<true>(s_off + 1, acount, items, bcount, diag, gprim_less());
  int bi = diag - ai;
  O seg = (O)(a0 + ai - 1); /* (O)-1 before the first offset */
  const O none = gprim__limits<O>::highest(); /* above every item index */
  O next = ai < acount ? s_off[ai + 1] : none;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    if (i < steps) {
      if (bi >= bcount || next <= items[bi]) {
        ++ai;
        seg = (O)(a0 + ai - 1);
        next = ai < acount ? s_off[ai + 1] : none;
      } else {
        s_par[bi++] = seg;
      }
    }
  }
  __syncthreads();
  for (int x = threadIdx.x; x < bcount; x += NT) {
    O p = s_par[x];
    parent[b0 + x] = p;
    if (rank) rank[b0 + x] = (O)(items[x] - s_off[(O)(p - (O)a0 + 1)]);
  }
}

template <int NT, int VT, typename O>
cudaError_t gprim__merge_lbs_run(void *d_temp, size_t *temp_bytes, const O *d_offsets, size_t n_segments,
                                 size_t total, O *d_parent, O *d_rank, cudaStream_t stream) {
  const size_t nv = (size_t)NT * VT, n = n_segments + total, ntiles = gprim__div_up(n, nv);
  size_t sizes[1] = {(ntiles + 1) * sizeof(size_t)};
  void *ptrs[1];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 1, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if ((n_segments && !d_offsets) || (total && (!d_parent || n_segments == 0))) return cudaErrorInvalidValue;
  if (total == 0) return cudaSuccess;
  size_t *parts = (size_t *)ptrs[0];
  gprim__merge_count<O> items = {(O)0};
  GPRIM_TRY(gprim__merge_partition<true>(d_offsets, n_segments, items, total, nv, ntiles, parts, gprim_less(),
                                         stream));
  gprim__merge_lbs_kernel<NT, VT><<<(unsigned)ntiles, NT, 0, stream>>>(d_offsets, n, d_parent, d_rank, parts);
  return cudaGetLastError();
}

/* Load-balancing search: d_offsets = exclusive scan of per-segment counts (n_segments entries,
   non-decreasing, offsets[0] = 0, last offset + last count = total). For every item j < total:
   d_parent[j] = the segment s with offsets[s] <= j < offsets[s + 1] (the last such s, so empty
   segments are skipped), d_rank[j] = j - offsets[s]. d_rank may be NULL.
     counts [2, 0, 3] -> offsets = [0, 2, 2], total = 5
       ->  parent = [0, 0, 2, 2, 2], rank = [0, 1, 0, 1, 2]
   O = uint32_t or uint64_t. total > 0 with n_segments == 0 is invalid. */
template <typename O>
cudaError_t gprim_load_balance_search(void *d_temp, size_t *temp_bytes, const O *d_offsets, size_t n_segments,
                                      size_t total, O *d_parent, O *d_rank, cudaStream_t stream) {
  return gprim__merge_lbs_run<gprim__merge_shape::NT, gprim__merge_shape::lbs_vt(sizeof(O))>(
      d_temp, temp_bytes, d_offsets, n_segments, total, d_parent, d_rank, stream);
}

/* ---- segmented reduce: merge path over (segment ends, items), persistent blocks ---- */

/* A partial reduction on its way through the scans: f = a segment closes inside the range
   (v then covers only what follows the last close), h = v holds a value. */
template <typename A> struct gprim__merge_carry {
  A v;
  int f, h;
};
/* The first segment a block closes, still missing what earlier blocks hold of it. */
template <typename A> struct gprim__merge_head {
  A v;
  size_t seg;
  int h, pad;
};

/* Combine the partials of two adjacent ranges, x before y (segmented-scan operator). */
template <typename P, typename A>
__device__ __forceinline__ gprim__merge_carry<A> gprim__merge_carry_join(const P &p, const gprim__merge_carry<A> &x,
                                                                         const gprim__merge_carry<A> &y) {
  if (y.f) return y;
  gprim__merge_carry<A> r;
  r.f = x.f;
  r.h = x.h | y.h;
  r.v = (x.h && y.h) ? p.combine(x.v, y.v) : (y.h ? y.v : x.v);
  return r;
}

template <typename T> __device__ __forceinline__ T gprim__merge_shfl_up(const T &x, int d) {
  constexpr int W = (int)((sizeof(T) + 3) / 4);
  int w[W];
  memcpy(w, &x, sizeof(T));
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = __shfl_up_sync(0xffffffffu, w[i], d);
  T r;
  memcpy(&r, w, sizeof(T));
  return r;
}

/* Block-wide exclusive segmented scan of the threads' partials (warp shuffles, then the warp
   totals from shared memory), preceded by carry_in; *all = carry_in joined with every partial.
   Every thread of the block must call it; the caller syncs before s_warp is reused. */
template <int NT, typename P, typename A>
__device__ gprim__merge_carry<A> gprim__merge_block_segscan(const P &p, gprim__merge_carry<A> x,
                                                            gprim__merge_carry<A> carry_in,
                                                            gprim__merge_carry<A> *s_warp,
                                                            gprim__merge_carry<A> *all) {
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  gprim__merge_carry<A> incl = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    gprim__merge_carry<A> y = gprim__merge_shfl_up(incl, d);
    if (lane >= d) incl = gprim__merge_carry_join(p, y, incl);
  }
  if (lane == 31) s_warp[w] = incl;
  __syncthreads();
  gprim__merge_carry<A> pre = carry_in;
  for (int k = 0; k < w; ++k) pre = gprim__merge_carry_join(p, pre, s_warp[k]);
  gprim__merge_carry<A> tot = pre;
  for (int k = w; k < NT / 32; ++k) tot = gprim__merge_carry_join(p, tot, s_warp[k]);
  *all = tot;
  gprim__merge_carry<A> prev = gprim__merge_shfl_up(incl, 1);
  return lane ? gprim__merge_carry_join(p, pre, prev) : pre;
}

/* Policies: what an item contributes, how partials combine (left is earlier), where a finished
   segment goes. */
template <typename T, typename Op> struct gprim__merge_reduce_policy {
  typedef T acc_t;
  T *out;
  Op op;
  T init;
  __device__ int start_has() const { return 1; }
  __device__ T start() const { return init; }
  __device__ T make(T x, size_t) const { return x; }
  __device__ T combine(const T &a, const T &b) const { return op(a, b); }
  __device__ void emit(size_t s, int h, const T &v) const { out[s] = h ? v : init; }
};
template <typename T, typename O> struct gprim__merge_argmax_acc {
  T v;
  O i;
};
template <typename T, typename O> struct gprim__merge_argmax_policy {
  typedef gprim__merge_argmax_acc<T, O> acc_t;
  T *max_out;
  O *index_out;
  __device__ int start_has() const { return 0; }
  __device__ acc_t start() const {
    acc_t r;
    r.v = gprim__limits<T>::lowest();
    r.i = (O)-1;
    return r;
  }
  __device__ acc_t make(T x, size_t j) const {
    acc_t r;
    r.v = x;
    r.i = (O)j;
    return r;
  }
  __device__ acc_t combine(const acc_t &a, const acc_t &b) const { return a.v < b.v ? b : a; }
  __device__ void emit(size_t s, int h, const acc_t &v) const {
    max_out[s] = h ? v.v : gprim__limits<T>::lowest();
    index_out[s] = h ? v.i : (O)-1;
  }
};

/* Segmented reduction by merge path over (segment ends, items) (moderngpu's segreduce shape):
   gridDim.x persistent blocks each own an equal share of the S + total diagonals (so long and
   empty segments cost the same per item), walk it tile by tile, reduce serially per thread,
   stitch threads with a segmented scan, tiles with a running carry, and blocks with the fix-up
   kernel below. The total is read on the device, so the grid does not depend on it.
   One function: each pass of the tile loop loads the tile into shared memory, merges and
   reduces per thread, scans the block and advances the tile by what the merge used (s_aused),
   and the running carry, the thread's partial and its first closed segment pass from phase to
   phase in registers between those barriers. */
template <int NT, int VT, typename P, typename T, typename O>
__global__ void __launch_bounds__(NT)
    gprim__merge_segred_kernel(const T *in, const O *offsets, size_t S, P p,
                               gprim__merge_carry<typename P::acc_t> *carries,
                               gprim__merge_head<typename P::acc_t> *heads) {
  typedef typename P::acc_t A;
  typedef gprim__merge_carry<A> C;
  constexpr int NV = NT * VT;
  __shared__ O s_ends[NV];
  __shared__ T s_items[NV];
  __shared__ C s_warp[NT / 32];
  __shared__ size_t s_split[2];
  __shared__ int s_aused;

  const O base = offsets[0];
  const size_t total = (size_t)(offsets[S] - base), W = S + total;
  const size_t blk = blockIdx.x, d0 = W * blk / gridDim.x, d1 = W * (blk + 1) / gridDim.x;
  gprim__merge_count<O> all_items = {base};
  if (threadIdx.x < 2)
    s_split[threadIdx.x] = gprim_merge_path<true>(offsets + 1, S, all_items, total, threadIdx.x ? d1 : d0,
                                                  gprim_less());
  __syncthreads();
  size_t a_cur = s_split[0], b_cur = d0 - a_cur;
  const size_t a_end = s_split[1], b_end = d1 - a_end;
  C run; /* the partial of the open segment, from the block start (block 0: from init) */
  run.f = blk == 0;
  run.h = blk == 0 ? p.start_has() : 0;
  run.v = p.start();

  while (a_cur < a_end || b_cur < b_end) {
    const size_t a_rem = a_end - a_cur, b_rem = b_end - b_cur;
    const int na = (int)(a_rem < NV ? a_rem : NV), nb = (int)(b_rem < NV ? b_rem : NV);
    const int L = (int)(a_rem + b_rem < NV ? a_rem + b_rem : NV);
    {
      O e_reg[VT];
      T x_reg[VT];
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        int x = threadIdx.x + i * NT;
        if (x < na) e_reg[i] = offsets[a_cur + 1 + x];
        if (x < nb) x_reg[i] = in[base + b_cur + x];
      }
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        int x = threadIdx.x + i * NT;
        if (x < na) s_ends[x] = e_reg[i];
        if (x < nb) s_items[x] = x_reg[i];
      }
    }
    __syncthreads();

    gprim__merge_count<O> items = {(O)(base + b_cur)};
    const int diag = threadIdx.x * VT < L ? threadIdx.x * VT : L;
    const int steps = L - diag < VT ? L - diag : VT;
    /* a tile of items only (inside one long segment) needs no merge: a plain serial reduction */
    const bool items_only = nb == L && (na == 0 || s_ends[0] >= items[L]);
    C acc; /* this thread's partial; f = it closed a segment */
    acc.f = 0;
    acc.h = 0;
    acc.v = p.start();
    A head_v = p.start(); /* the first segment it closes, without what came before the thread */
    int head_h = 0;
    size_t head_seg = 0;
    if (items_only) {
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        if (i < steps) {
          A x = p.make(s_items[diag + i], (size_t)base + b_cur + diag + i);
          acc.v = acc.h ? p.combine(acc.v, x) : x;
          acc.h = 1;
        }
      }
    } else {
      int ai = gprim_merge_path<true>(s_ends, na, items, nb, diag, gprim_less());
      int bi = diag - ai;
      const O none = gprim__limits<O>::highest(); /* above every item index */
      O next_end = ai < na ? s_ends[ai] : none;
#pragma unroll
      for (int i = 0; i < VT; ++i) {
        if (i < steps) {
          if (bi >= nb || next_end <= items[bi]) {
            size_t seg = a_cur + ai;
            if (!acc.f) {
              head_v = acc.v;
              head_h = acc.h;
              head_seg = seg;
              acc.f = 1;
            } else {
              p.emit(seg, acc.h, acc.v);
            }
            acc.h = p.start_has();
            acc.v = p.start();
            ++ai;
            next_end = ai < na ? s_ends[ai] : none;
          } else {
            A x = p.make(s_items[bi], (size_t)base + b_cur + bi);
            acc.v = acc.h ? p.combine(acc.v, x) : x;
            acc.h = 1;
            ++bi;
          }
        }
      }
      if (steps > 0 && diag + steps == L) s_aused = ai; /* the thread with the tile's last diagonal */
    }
    C tile_all;
    C excl = gprim__merge_block_segscan<NT>(p, acc, run, s_warp, &tile_all);
    if (acc.f) {
      int h = excl.h | head_h;
      A v = (excl.h && head_h) ? p.combine(excl.v, head_v) : (head_h ? head_v : excl.v);
      if (excl.f) {
        p.emit(head_seg, h, v);
      } else { /* the block's first close: earlier blocks may hold part of it */
        gprim__merge_head<A> hd;
        hd.v = v;
        hd.seg = head_seg;
        hd.h = h;
        hd.pad = 0;
        heads[blk] = hd;
      }
    }
    run = tile_all;
    const int aused = items_only ? 0 : s_aused;
    __syncthreads(); /* before the next tile overwrites shared memory */
    a_cur += aused;
    b_cur += L - aused;
  }
  if (threadIdx.x == 0) carries[blk] = run;
}

/* Fix-up of segmented reduce: an exclusive segmented scan of the blocks' carries gives each
   block what earlier blocks hold of its first closed segment. One block, G <= NT entries. */
template <int NT, typename P>
__global__ void __launch_bounds__(NT)
    gprim__merge_segred_fixup_kernel(const gprim__merge_carry<typename P::acc_t> *carries,
                                     const gprim__merge_head<typename P::acc_t> *heads, int G, P p) {
  typedef typename P::acc_t A;
  typedef gprim__merge_carry<A> C;
  __shared__ C s_warp[NT / 32];
  const int t = threadIdx.x;
  C none;
  none.f = 0;
  none.h = 0;
  none.v = p.start();
  C c = t < G ? carries[t] : none;
  C all;
  C excl = gprim__merge_block_segscan<NT>(p, c, none, s_warp, &all);
  if (t > 0 && t < G && c.f) {
    gprim__merge_head<A> hd = heads[t];
    int h = excl.h | hd.h;
    A v = (excl.h && hd.h) ? p.combine(excl.v, hd.v) : (hd.h ? hd.v : excl.v);
    p.emit(hd.seg, h, v);
  }
}

template <int NT, int VT, typename P, typename T, typename O>
cudaError_t gprim__merge_segred_run(void *d_temp, size_t *temp_bytes, const T *d_in, size_t num_segments,
                                    const O *d_offsets, bool outputs_ok, P p, cudaStream_t stream) {
  typedef typename P::acc_t A;
  constexpr int G_MAX = GPRIM__MERGE_MAX_BLOCKS;
  size_t sizes[2] = {G_MAX * sizeof(gprim__merge_carry<A>), G_MAX * sizeof(gprim__merge_head<A>)};
  void *ptrs[2];
  GPRIM_TRY(gprim__temp_carve(d_temp, temp_bytes, 2, sizes, ptrs));
  if (d_temp == NULL) return cudaSuccess;
  if (num_segments && (!d_in || !d_offsets || !outputs_ok)) return cudaErrorInvalidValue;
  if (num_segments == 0) return cudaSuccess;
  gprim__merge_carry<A> *carries = (gprim__merge_carry<A> *)ptrs[0];
  gprim__merge_head<A> *heads = (gprim__merge_head<A> *)ptrs[1];
  int per_sm = 0;
  GPRIM_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gprim__merge_segred_kernel<NT, VT, P, T, O>,
                                                          NT, 0));
  int G = (per_sm < 1 ? 1 : per_sm) * gprim__sm_count();
  if (G > G_MAX) G = G_MAX;
  gprim__merge_segred_kernel<NT, VT, P, T, O><<<G, NT, 0, stream>>>(d_in, d_offsets, num_segments, p, carries, heads);
  GPRIM_TRY(cudaGetLastError());
  gprim__merge_segred_fixup_kernel<G_MAX, P><<<1, G_MAX, 0, stream>>>(carries, heads, G, p);
  return cudaGetLastError();
}

/* Segmented reduce over CSR segments: d_offsets has num_segments + 1 non-decreasing entries,
   segment s is d_in[offsets[s], offsets[s + 1]); d_out[s] = init op x0 op x1 ... (left to
   right; op associative, need not be commutative); an empty segment gives init.
     in = [1, 2, 3, 4], offsets = [0, 3, 3, 4], gprim_op_sum, init 0  ->  out = [6, 0, 4]
   Balanced by merge path over segments + items: one huge segment or millions of tiny ones run
   at the same speed per item. Temp storage: a few tens of KiB (query it). d_in must not be
   NULL when num_segments > 0, even if every segment is empty. */
template <typename T, typename Op, typename O>
cudaError_t gprim_segmented_reduce(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_out, size_t num_segments,
                                   const O *d_offsets, Op op, T init, cudaStream_t stream) {
  gprim__merge_reduce_policy<T, Op> p;
  p.out = d_out;
  p.op = op;
  p.init = init;
  return gprim__merge_segred_run<gprim__merge_shape::SEGRED_NT, gprim__merge_shape::segred_vt(sizeof(T) + sizeof(O))>(
      d_temp, temp_bytes, d_in, num_segments, d_offsets, d_out != NULL, p, stream);
}

/* Segmented argmax over CSR segments (offsets as gprim_segmented_reduce): d_max_out[s] = the
   largest value of segment s, d_index_out[s] = the index (global, into d_in) of its FIRST
   occurrence. An empty segment gives gprim__limits<T>::lowest() and index (O)-1. A segment
   whose values all equal lowest() still reports its first index. NaNs are never a maximum
   unless first. d_in must not be NULL when num_segments > 0, even if every segment is empty.
     in = [5, 7, 7, 1], offsets = [0, 3, 3, 4]  ->  max = [7, lowest, 1], index = [1, (O)-1, 3] */
template <typename T, typename O>
cudaError_t gprim_segmented_argmax(void *d_temp, size_t *temp_bytes, const T *d_in, T *d_max_out, O *d_index_out,
                                   size_t num_segments, const O *d_offsets, cudaStream_t stream) {
  gprim__merge_argmax_policy<T, O> p;
  p.max_out = d_max_out;
  p.index_out = d_index_out;
  return gprim__merge_segred_run<gprim__merge_shape::SEGRED_NT, gprim__merge_shape::segred_vt(sizeof(T) + sizeof(O))>(
      d_temp, temp_bytes, d_in, num_segments, d_offsets, d_max_out != NULL && d_index_out != NULL, p, stream);
}

#endif /* __CUDACC__ */
