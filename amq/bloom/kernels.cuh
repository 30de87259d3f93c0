/* amq/bloom/kernels.cuh - the blocked Bloom filter's device code (nvcc
   only). The launches are in amq/bloom/cuda.cuh. */

/* ---------------------------------------------------------------------------
   The blocked Bloom filter (gpuamq.h section 7 documents the layout and the
   false-positive rate; the HOST backend, amq/bloom/host.h, is what these
   must equal, bit for bit)

   A key's block and bit positions come from the GAMQ__HD functions of
   amq/bloom/host.h, so both backends set and test the same bits.
     INSERT  one thread per key: the eight word masks in registers, one
             64-bit atomicOr per pair of words that gets a bit (at most
             four a key; OR is idempotent and commutes, so the bytes do not
             depend on the order of keys or on repeats).
     LOOKUP  four keys per thread: one 16- or 32-byte load of keys, then per
             key one 32-byte read of its block (two 16-byte read-only loads,
             all eight in flight together), each position tested by picking
             its word with three selects, and the four flags written as one
             32-bit store. Arrays not aligned for that take one key a thread.
   ------------------------------------------------------------------------- */

template <typename K>
__global__ void __launch_bounds__(GAMQ__BLOOM_THREADS)
    gamq__bloom_insert_kernel(uint32_t *words, uint64_t num_blocks, uint64_t seed, int k, const K *keys, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint32_t m[8];
    uint64_t *block = reinterpret_cast<uint64_t *>(words + 8 * gamq__bloom_masks((uint64_t)keys[i], seed, num_blocks,
                                                                                  k, m));
#pragma unroll
    for (int w = 0; w < 4; ++w) { /* words 2w and 2w + 1 as one little-endian 64-bit word */
      const uint64_t m64 = m[2 * w] | (uint64_t)m[2 * w + 1] << 32;
      if (m64) atomicOr(reinterpret_cast<unsigned long long *>(block + w), (unsigned long long)m64);
    }
  }
}

/* 1 if every position of hash h is set in its block (words 0..3 in a, 4..7
   in b), else 0. Each position's word is picked by three selects on its
   bits (no dynamic register index); the stream shifts down a byte a step.
   Host code too, so the CPU-only tests check it against the layout. */
__host__ __device__ __forceinline__ uint32_t gamq__bloom_test(uint4 a, uint4 b, uint64_t h, int k) {
  uint64_t lo, hi;
  uint32_t ok = 1;
  gamq__bloom_stream(h, k, &lo, &hi);
  for (int i = 0; i < k; ++i, lo = (lo >> 8) | (hi << 56), hi >>= 8) {
    const uint32_t x = (uint32_t)lo & 0xff;
    const bool b7 = x & 128, b6 = x & 64, b5 = x & 32; /* word x >> 5 = (b7 b6 b5) */
    const uint32_t t0 = b7 ? b.x : a.x, t1 = b7 ? b.y : a.y, t2 = b7 ? b.z : a.z, t3 = b7 ? b.w : a.w;
    const uint32_t u0 = b6 ? t2 : t0, u1 = b6 ? t3 : t1;
    ok &= (b5 ? u1 : u0) >> (x & 31);
  }
  return ok & 1;
}

/* four consecutive keys from a 4 * sizeof(K)-aligned address */
__device__ __forceinline__ void gamq__load4(const uint32_t *p, uint64_t key[4]) {
  const uint4 v = __ldg(reinterpret_cast<const uint4 *>(p));
  key[0] = v.x, key[1] = v.y, key[2] = v.z, key[3] = v.w;
}
__device__ __forceinline__ void gamq__load4(const uint64_t *p, uint64_t key[4]) {
  const ulonglong2 v = __ldg(reinterpret_cast<const ulonglong2 *>(p));
  const ulonglong2 w = __ldg(reinterpret_cast<const ulonglong2 *>(p) + 1);
  key[0] = v.x, key[1] = v.y, key[2] = w.x, key[3] = w.y;
}

template <typename K, bool VEC>
__global__ void __launch_bounds__(GAMQ__BLOOM_THREADS)
    gamq__bloom_lookup_kernel(const uint4 *blocks, uint64_t num_blocks, uint64_t seed, int k, const K *keys, size_t n,
                              uint8_t *found) {
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x, stride = (size_t)gridDim.x * blockDim.x;
  const size_t groups = n / 4, tail = VEC ? 4 * groups : 0;
  for (size_t g = tid; VEC && g < groups; g += stride) {
    uint64_t key[4], h[4];
    uint4 a[4], b[4];
    uint32_t flags = 0;
    gamq__load4(keys + 4 * g, key);
#pragma unroll
    for (int j = 0; j < 4; ++j) { /* all eight block loads first, then the tests */
      h[j] = gamq__bloom_hash(key[j], seed);
      const uint4 *p = blocks + 2 * gamq__bloom_block(h[j], num_blocks);
      a[j] = __ldg(p), b[j] = __ldg(p + 1);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) flags |= gamq__bloom_test(a[j], b[j], h[j], k) << (8 * j);
    reinterpret_cast<uint32_t *>(found)[g] = flags;
  }
  for (size_t i = tail + tid; i < n; i += stride) {
    const uint64_t h = gamq__bloom_hash((uint64_t)keys[i], seed);
    const uint4 *p = blocks + 2 * gamq__bloom_block(h, num_blocks);
    found[i] = (uint8_t)gamq__bloom_test(__ldg(p), __ldg(p + 1), h, k);
  }
}
