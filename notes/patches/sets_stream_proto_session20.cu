// Session 20: two standalone prototypes of a streaming SISI count (H200 figures in
// bench/results/sets_h200.md, "Session 20"). Not library code; build with
// nvcc -O3 -arch=sm_90 -std=c++17 sets_stream_proto_session20.cu, run with n (default 10^7).
// Prototype: one large pair counted by blocks that each own a contiguous run
// of value windows, find their start by two warp searches, and stream both
// sides window after window (next window's loads issued before this one's
// inserts and probes). Not library code.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <random>
#define CHECK(x) do { cudaError_t e_ = (x); if (e_) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)

static __device__ __forceinline__ uint32_t warp_lower_bound(const uint32_t *b, uint32_t n, uint32_t v) {
  uint32_t lo = 0, hi = n;
  const uint32_t lane = threadIdx.x & 31;
  while (hi - lo > 32) {
    const uint64_t span = hi - lo;
    const uint32_t p = lo + (uint32_t)((span * (lane + 1)) / 32);
    const bool less = lane < 31 && b[p] < v;
    const uint32_t c = __popc(__ballot_sync(0xffffffffu, less));
    const uint32_t plo = __shfl_sync(0xffffffffu, p, c > 0 ? c - 1 : 0);
    const uint32_t phi = __shfl_sync(0xffffffffu, p, c < 31 ? c : 0);
    const uint32_t nlo = c > 0 ? plo + 1 : lo, nhi = c < 31 ? phi : hi;
    lo = nlo; hi = nhi;
  }
  const bool less = lo + lane < hi && b[lo + lane] < v;
  return lo + __popc(__ballot_sync(0xffffffffu, less));
}

template <int NT, int VT>
static __device__ __forceinline__ void load_run(const uint32_t *a, uint32_t n, uint32_t pos, uint32_t (&v)[VT]) {
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const uint32_t i = pos + k * NT + threadIdx.x;
    v[k] = i < n ? __ldg(a + i) : 0xffffffffu;
  }
}

template <int NT, int VT>
static __device__ __forceinline__ uint32_t below(const uint32_t (&v)[VT], uint32_t pos, uint32_t n, uint64_t we) {
  uint32_t c = 0;
#pragma unroll
  for (int k = 0; k < VT; ++k) c += (pos + k * NT + threadIdx.x < n) && (uint64_t)v[k] < we;
  return c;
}

template <int NT>
static __device__ __forceinline__ uint32_t block_sum(uint32_t x, uint32_t *s_red) {
  for (int o = 16; o; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  if ((threadIdx.x & 31) == 0) s_red[threadIdx.x / 32] = x;
  __syncthreads();
  uint32_t t = 0;
#pragma unroll
  for (int w = 0; w < NT / 32; ++w) t += s_red[w];
  return t;
}

template <int NT, int VT>
__global__ void __launch_bounds__(NT) stream_count(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                                                   uint32_t base, uint32_t log2w, uint32_t windows,
                                                   unsigned long long *out) {
  extern __shared__ uint4 smem4[];
  uint32_t *bits = (uint32_t *)smem4;
  __shared__ uint32_t s_pos[2];
  __shared__ uint32_t s_red[2][NT / 32];
  enum { R = NT * VT };
  const uint32_t words = 1u << (log2w - 5);
  const uint32_t w0 = (uint32_t)((uint64_t)windows * blockIdx.x / gridDim.x);
  const uint32_t w1 = (uint32_t)((uint64_t)windows * (blockIdx.x + 1) / gridDim.x);
  if (w0 == w1) return;
  const uint64_t v0 = (uint64_t)base + ((uint64_t)w0 << log2w);
  if (threadIdx.x < 32) s_pos[0] = warp_lower_bound(a, na, (uint32_t)v0);
  else if (threadIdx.x < 64) s_pos[1] = warp_lower_bound(b, nb, (uint32_t)v0);
  for (uint32_t k = threadIdx.x; k < words / 4; k += NT) smem4[k] = make_uint4(0, 0, 0, 0);
  __syncthreads();
  uint32_t ap = s_pos[0], bp = s_pos[1];
  uint32_t va[VT], vb[VT];
  load_run<NT, VT>(a, na, ap, va);
  load_run<NT, VT>(b, nb, bp, vb);
  uint32_t mine = 0, red = 0;
  for (uint32_t w = w0; w < w1; ++w) {
    const uint64_t ws = (uint64_t)base + ((uint64_t)w << log2w), we = ws + (1ull << log2w);
    const uint32_t pa = below<NT, VT>(va, ap, na, we), pb = below<NT, VT>(vb, bp, nb, we);
    uint32_t ca = block_sum<NT>(pa | pb << 16, s_red[red]);
    red ^= 1;
    uint32_t cb = ca >> 16;
    ca &= 0xffff;
    while (ca == R) { /* a's part of the window is longer than a round */
#pragma unroll
      for (int k = 0; k < VT; ++k) {
        const uint32_t i = va[k] - (uint32_t)ws;
        atomicOr(&bits[i >> 5], 1u << (i & 31));
      }
      ap += R;
      load_run<NT, VT>(a, na, ap, va);
      ca = block_sum<NT>(below<NT, VT>(va, ap, na, we), s_red[red]);
      red ^= 1;
    }
    uint32_t nv[VT];
    load_run<NT, VT>(a, na, ap + ca, nv);
#pragma unroll
    for (int k = 0; k < VT; ++k)
      if (k * NT + threadIdx.x < ca) {
        const uint32_t i = va[k] - (uint32_t)ws;
        atomicOr(&bits[i >> 5], 1u << (i & 31));
      }
#pragma unroll
    for (int k = 0; k < VT; ++k) va[k] = nv[k];
    ap += ca;
    __syncthreads();
    while (cb == R) {
#pragma unroll
      for (int k = 0; k < VT; ++k) {
        const uint32_t i = vb[k] - (uint32_t)ws;
        mine += (bits[i >> 5] >> (i & 31)) & 1u;
      }
      bp += R;
      load_run<NT, VT>(b, nb, bp, vb);
      cb = block_sum<NT>(below<NT, VT>(vb, bp, nb, we), s_red[red]);
      red ^= 1;
    }
    load_run<NT, VT>(b, nb, bp + cb, nv);
#pragma unroll
    for (int k = 0; k < VT; ++k)
      if (k * NT + threadIdx.x < cb) {
        const uint32_t i = vb[k] - (uint32_t)ws;
        mine += (bits[i >> 5] >> (i & 31)) & 1u;
      }
#pragma unroll
    for (int k = 0; k < VT; ++k) vb[k] = nv[k];
    bp += cb;
    __syncthreads();
    for (uint32_t k = threadIdx.x; k < words / 4; k += NT) smem4[k] = make_uint4(0, 0, 0, 0);
  }
  const uint32_t t = block_sum<NT>(mine, s_red[red]);
  if (threadIdx.x == 0) atomicAdd(out, (unsigned long long)t);
}


// v2: a warp owns per consecutive elements of a; windows start at its next unconsumed element
template <int VT>
static __device__ __forceinline__ void wload(const uint32_t *a, uint32_t n, uint32_t pos, uint32_t (&v)[VT]) {
  const uint32_t lane = threadIdx.x & 31;
#pragma unroll
  for (int k = 0; k < VT; ++k) {
    const uint32_t i = pos + k * 32 + lane;
    v[k] = i < n ? __ldg(a + i) : 0xffffffffu;
  }
}
template <int VT>
static __device__ __forceinline__ uint32_t wbelow(const uint32_t (&v)[VT], uint32_t pos, uint32_t n, uint64_t we) {
  const uint32_t lane = threadIdx.x & 31;
  uint32_t c = 0;
#pragma unroll
  for (int k = 0; k < VT; ++k) c += (pos + k * 32 + lane < n) && (uint64_t)v[k] < we;
  return __reduce_add_sync(0xffffffffu, c);
}
template <int VT>
__global__ void __launch_bounds__(256) warp_count(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                                                  uint32_t per, uint32_t log2w, unsigned long long *out) {
  extern __shared__ uint4 smem4[];
  enum { R = 32 * VT };
  const uint32_t lane = threadIdx.x & 31, words = 1u << (log2w - 5);
  uint32_t *bits = (uint32_t *)smem4 + (threadIdx.x / 32) * words;
  const uint64_t g = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const uint64_t lo64 = g * per;
  if (lo64 >= na) return;
  const uint32_t lo = (uint32_t)lo64, hi = (uint32_t)((lo64 + per < na) ? lo64 + per : (uint64_t)na);
  const uint64_t vend = hi < na ? (uint64_t)a[hi] : (1ull << 32);
  uint32_t bp = warp_lower_bound(b, nb, a[lo]);
  uint4 *w4 = (uint4 *)bits;
  for (uint32_t k = lane; k < words / 4; k += 32) w4[k] = make_uint4(0, 0, 0, 0);
  uint32_t ap = lo, va[VT], vb[VT], mine = 0;
  wload<VT>(a, hi, ap, va);
  wload<VT>(b, nb, bp, vb);
  __syncwarp();
  while (ap < hi) {
    const uint32_t ws = __shfl_sync(0xffffffffu, va[0], 0);
    const uint64_t we0 = (uint64_t)ws + (1u << log2w), we = we0 < vend ? we0 : vend;
    uint32_t ca = wbelow<VT>(va, ap, hi, we);
    while (ca == R) {
#pragma unroll
      for (int k = 0; k < VT; ++k) { const uint32_t i = va[k] - ws; atomicOr(&bits[i >> 5], 1u << (i & 31)); }
      ap += R;
      wload<VT>(a, hi, ap, va);
      ca = wbelow<VT>(va, ap, hi, we);
    }
    uint32_t cb = wbelow<VT>(vb, bp, nb, we);
    uint32_t nv[VT];
    wload<VT>(a, hi, ap + ca, nv);
#pragma unroll
    for (int k = 0; k < VT; ++k)
      if (k * 32 + lane < ca) { const uint32_t i = va[k] - ws; atomicOr(&bits[i >> 5], 1u << (i & 31)); }
#pragma unroll
    for (int k = 0; k < VT; ++k) va[k] = nv[k];
    ap += ca;
    __syncwarp();
    while (cb == R) {
#pragma unroll
      for (int k = 0; k < VT; ++k) {
        const uint32_t i = vb[k] - ws;
        mine += vb[k] >= ws && ((bits[(i >> 5) & (words - 1)] >> (i & 31)) & 1u);
      }
      bp += R;
      wload<VT>(b, nb, bp, vb);
      cb = wbelow<VT>(vb, bp, nb, we);
    }
    wload<VT>(b, nb, bp + cb, nv);
#pragma unroll
    for (int k = 0; k < VT; ++k)
      if (k * 32 + lane < cb && vb[k] >= ws) { const uint32_t i = vb[k] - ws; mine += (bits[i >> 5] >> (i & 31)) & 1u; }
#pragma unroll
    for (int k = 0; k < VT; ++k) vb[k] = nv[k];
    bp += cb;
    __syncwarp();
    for (uint32_t k = lane; k < words / 4; k += 32) w4[k] = make_uint4(0, 0, 0, 0);
    __syncwarp();
  }
  mine = __reduce_add_sync(0xffffffffu, mine);
  if (lane == 0 && mine) atomicAdd(out, (unsigned long long)mine);
}

template <int VT>
static void run2(const uint32_t *da, uint32_t na, const uint32_t *db, uint32_t nb, uint32_t per, uint32_t log2w,
                 uint64_t want, unsigned long long *dout) {
  const uint64_t warps = (na + per - 1) / per;
  const uint32_t grid = (uint32_t)((warps + 7) / 8);
  const size_t smem = (size_t)8 * (1u << (log2w - 5)) * 4;
  CHECK(cudaFuncSetAttribute(warp_count<VT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  int occ = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, warp_count<VT>, 256, smem));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ts;
  unsigned long long got = 0;
  for (int r = 0; r < 23; ++r) {
    cudaEventRecord(e0);
    cudaMemsetAsync(dout, 0, 8);
    warp_count<VT><<<grid, 256, smem>>>(da, na, db, nb, per, log2w, dout);
    cudaEventRecord(e1);
    CHECK(cudaEventSynchronize(e1));
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 3) ts.push_back(ms);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&got, dout, 8, cudaMemcpyDeviceToHost));
  std::sort(ts.begin(), ts.end());
  printf("warp  VT %2d per %7u log2w %2u occ %d grid %6u: %.4f ms (min %.4f)  %s (%llu vs %llu)\n", VT, per, log2w, occ,
         grid, ts[ts.size() / 2], ts[0], got == want ? "OK" : "WRONG", (unsigned long long)got, (unsigned long long)want);
}
static std::vector<uint32_t> gen(uint64_t n, uint64_t U, uint64_t seed) {
  std::mt19937_64 r(seed);
  std::vector<uint32_t> v(n);
  const uint64_t gap = U / n;
  uint64_t x = r() % gap;
  for (uint64_t i = 0; i < n; ++i) { v[i] = (uint32_t)x; x += 1 + r() % (2 * gap - 1); }
  return v;
}

template <int NT, int VT>
static void run(const uint32_t *da, uint32_t na, const uint32_t *db, uint32_t nb, uint32_t base, uint32_t hi,
                uint32_t log2w, int per_sm, uint64_t want, unsigned long long *dout, const char *tag) {
  int sms;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const uint32_t windows = (uint32_t)(((uint64_t)hi - base) >> log2w) + 1;
  const size_t smem = (size_t)(1u << (log2w - 5)) * 4;
  CHECK(cudaFuncSetAttribute(stream_count<NT, VT>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  int occ = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, stream_count<NT, VT>, NT, smem));
  const int blocks_per = per_sm > 0 ? std::min(per_sm, occ) : occ;
  const uint32_t grid = std::min<uint32_t>(windows, (uint32_t)(sms * blocks_per));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ts;
  unsigned long long got = 0;
  for (int r = 0; r < 23; ++r) {
    cudaEventRecord(e0);
    cudaMemsetAsync(dout, 0, 8);
    stream_count<NT, VT><<<grid, NT, smem>>>(da, na, db, nb, base, log2w, windows, dout);
    cudaEventRecord(e1);
    CHECK(cudaEventSynchronize(e1));
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    if (r >= 3) ts.push_back(ms);
  }
  CHECK(cudaMemcpy(&got, dout, 8, cudaMemcpyDeviceToHost));
  std::sort(ts.begin(), ts.end());
  printf("proto %-10s NT %3d VT %d log2w %2u occ %d grid %5u windows %8u: %.4f ms (min %.4f)  %s (%llu vs %llu)\n", tag, NT,
         VT, log2w, blocks_per, grid, windows, ts[ts.size() / 2], ts[0], got == want ? "OK" : "WRONG",
         (unsigned long long)got, (unsigned long long)want);
}

int main(int argc, char **argv) {
  const uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 10000000ull, U = 1000000000ull;
  std::vector<uint32_t> a = gen(n, U, 1), b = gen(n, U, 2);
  std::vector<uint32_t> c;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(c));
  const uint64_t want = c.size();
  uint32_t *da, *db, *dc;
  unsigned long long *dout;
  CHECK(cudaMalloc(&da, n * 4)); CHECK(cudaMalloc(&db, n * 4)); CHECK(cudaMalloc(&dc, 2 * n * 4));
  CHECK(cudaMalloc(&dout, 8));
  CHECK(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  {
    cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
    std::vector<float> ts;
    for (int r = 0; r < 23; ++r) {
      cudaEventRecord(e0); cudaMemcpyAsync(dc, da, n * 4, cudaMemcpyDeviceToDevice);
      cudaMemcpyAsync(dc + n, db, n * 4, cudaMemcpyDeviceToDevice); cudaEventRecord(e1);
      cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms, e0, e1); if (r >= 3) ts.push_back(ms);
    }
    std::sort(ts.begin(), ts.end());
    printf("copy of both sets (d2d): %.4f ms; matches %llu\n", ts[ts.size() / 2], (unsigned long long)want);
  }
  const uint32_t lo = std::max(a[0], b[0]), hi = std::min(a[n - 1], b[n - 1]);
  const double dens = (double)n / U;
  const int sms = 132;
  for (int VT : {4, 8}) {
    const uint32_t R = 32 * VT;
    for (double fill : {0.5, 0.7}) {
      uint32_t lw = 8;
      while (lw < 20 && dens * (double)(1u << (lw + 1)) <= fill * R) ++lw;
      for (uint32_t per_mult : {1u, 2u, 4u}) {
        // per: so that the warps make per_mult waves of 64 warps a multiprocessor
        uint64_t warps = (uint64_t)sms * 64 * per_mult;
        uint32_t per = (uint32_t)((n + warps - 1) / warps);
        if (VT == 4) run2<4>(da, n, db, n, per, lw, want, dout);
        else run2<8>(da, n, db, n, per, lw, want, dout);
      }
    }
  }
  run<256, 4>(da, n, db, n, lo, hi, std::min(17u, (uint32_t)(16 - (dens > 0.05 ? 3 : 0))), 0, want, dout, "256x4");
  return 0;
}
