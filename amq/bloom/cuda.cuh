/* amq/bloom/cuda.cuh - the blocked Bloom filter's CUDA driver (nvcc only):
   the launches of amq/bloom/kernels.cuh, shaped by the plan of
   gamq__bloom_choose (amq/bloom/choose.h). */

static inline cudaError_t gamq__cuda_bloom_insert(const gamq__bloom_choice *plan, uint32_t *words, uint64_t num_blocks,
                                                  uint64_t seed, int k, const void *keys, int key_bytes, size_t n,
                                                  cudaStream_t stream) {
  const unsigned grid = gamq__grid(plan->items, plan->threads);
  if (n == 0) return cudaSuccess;
  if (key_bytes == 4)
    gamq__bloom_insert_kernel<uint32_t><<<grid, plan->threads, 0, stream>>>(words, num_blocks, seed, k,
                                                                           (const uint32_t *)keys, n);
  else
    gamq__bloom_insert_kernel<uint64_t><<<grid, plan->threads, 0, stream>>>(words, num_blocks, seed, k,
                                                                           (const uint64_t *)keys, n);
  return cudaGetLastError();
}

template <typename K>
static inline void gamq__bloom_lookup_launch(const gamq__bloom_choice *plan, const uint32_t *words,
                                             uint64_t num_blocks, uint64_t seed, int k, const K *keys, size_t n,
                                             uint8_t *found, cudaStream_t stream) {
  const uint4 *blocks = reinterpret_cast<const uint4 *>(words);
  const unsigned grid = gamq__grid(plan->items, plan->threads);
  if (plan->vec)
    gamq__bloom_lookup_kernel<K, true><<<grid, plan->threads, 0, stream>>>(blocks, num_blocks, seed, k, keys, n,
                                                                           found);
  else
    gamq__bloom_lookup_kernel<K, false><<<grid, plan->threads, 0, stream>>>(blocks, num_blocks, seed, k, keys, n,
                                                                            found);
}
static inline cudaError_t gamq__cuda_bloom_lookup(const gamq__bloom_choice *plan, const uint32_t *words,
                                                  uint64_t num_blocks, uint64_t seed, int k, const void *keys,
                                                  int key_bytes, size_t n, uint8_t *found, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  if (key_bytes == 4)
    gamq__bloom_lookup_launch(plan, words, num_blocks, seed, k, (const uint32_t *)keys, n, found, stream);
  else
    gamq__bloom_lookup_launch(plan, words, num_blocks, seed, k, (const uint64_t *)keys, n, found, stream);
  return cudaGetLastError();
}
