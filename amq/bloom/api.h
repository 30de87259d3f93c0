/* amq/bloom/api.h - section 7's entry points: creation (by eps or by
   shape), argument checks, the plan of each call (gamq__bloom_choose,
   amq/bloom/choose.h), and the dispatch to HOST (amq/bloom/host.h) or CUDA
   (amq/bloom/cuda.cuh) by that plan. */

GAMQ_DEF double gamq_bloom_fpr(uint64_t num_blocks, int k, uint64_t n) {
  gamq__bloom_model m;
  if (num_blocks == 0 || k < 1 || k > GAMQ_BLOOM_MAX_K) return -1.0;
  if (n == 0) return 0.0;
  gamq__bloom_model_init(&m, k);
  return gamq__bloom_model_fpr(&m, num_blocks, n);
}

static gamq_status gamq__bloom_new(const gamq_bloom_desc *desc, uint64_t num_blocks, int k, double planned,
                                   gamq_bloom **out) {
  gamq_bloom_desc d;
  gamq_bloom *F;
  gamq__bloom_choice plan;
  gamq_status s;
  if (desc) d = *desc;
  else memset(&d, 0, sizeof d);
  s = gamq__bloom_choose(&d, NULL, GAMQ__BLOOM_OP_CREATE, NULL, 0, 0, NULL, &plan);
  if (s != GAMQ_SUCCESS) return s;
  F = (gamq_bloom *)GAMQ_MALLOC(sizeof *F);
  if (F == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  memset(F, 0, sizeof *F);
  F->backend = plan.backend, F->seed = d.seed, F->num_blocks = num_blocks, F->k = k;
  F->bytes = (size_t)num_blocks * GAMQ_BLOOM_BLOCK_BYTES, F->bits_per_key_planned = planned;
  F->allocator = d.allocator;
  if (F->backend == GAMQ_BACKEND_HOST) {
    F->words = (uint32_t *)GAMQ_MALLOC(F->bytes);
    if (F->words == NULL) s = GAMQ_ERROR_OUT_OF_MEMORY;
    else memset(F->words, 0, F->bytes);
  } else {
#if defined(__CUDACC__)
    void *p = NULL;
    s = gamq__device_alloc(&F->allocator, &p, F->bytes, NULL);
    if (s == GAMQ_SUCCESS && ((uintptr_t)p % GAMQ_BLOOM_BLOCK_BYTES) != 0) { /* a hook that breaks the promise */
      gamq__device_free(&F->allocator, p, NULL);
      s = GAMQ_ERROR_INVALID_ARGUMENT;
    }
    if (s == GAMQ_SUCCESS) {
      F->words = (uint32_t *)p;
      if (cudaMemsetAsync(p, 0, F->bytes, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess) {
        gamq__device_free(&F->allocator, p, NULL);
        cudaStreamSynchronize(0);
        s = GAMQ_ERROR_CUDA;
      }
    }
#else
    s = GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
  }
  if (s != GAMQ_SUCCESS) {
    GAMQ_FREE(F);
    return s;
  }
  *out = F;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_bloom_create_shape(const gamq_bloom_desc *desc, uint64_t num_blocks, int k,
                                             gamq_bloom **out) {
  if (out == NULL || num_blocks == 0 || num_blocks > GAMQ__BLOOM_MAX_BLOCKS || k < 1 || k > GAMQ_BLOOM_MAX_K)
    return GAMQ_ERROR_INVALID_ARGUMENT;
  return gamq__bloom_new(desc, num_blocks, k, 0.0, out);
}

GAMQ_DEF gamq_status gamq_bloom_create(const gamq_bloom_desc *desc, uint64_t n_expected, double eps,
                                       gamq_bloom **out) {
  const uint64_t n = n_expected > 0 ? n_expected : 1;
  uint64_t num_blocks;
  int k = 1;
  if (out == NULL || !(eps > 0.0 && eps < 1.0)) return GAMQ_ERROR_INVALID_ARGUMENT; /* NaN fails too */
  if (desc && ((int)desc->backend < 0 || (int)desc->backend > 2)) return GAMQ_ERROR_INVALID_ARGUMENT;
  num_blocks = gamq__bloom_plan(n, eps, GAMQ__BLOOM_MAX_BLOCKS, &k);
  if (num_blocks == 0) return GAMQ_ERROR_INVALID_ARGUMENT; /* more than size_t can hold */
  return gamq__bloom_new(desc, num_blocks, k, (double)num_blocks * GAMQ__BLOOM_BITS / (double)n, out);
}

GAMQ_DEF gamq_status gamq_bloom_destroy(gamq_bloom *F) {
  gamq_status s = GAMQ_SUCCESS;
  if (F == NULL) return GAMQ_SUCCESS;
  if (F->backend == GAMQ_BACKEND_HOST) {
    GAMQ_FREE(F->words);
  } else {
#if defined(__CUDACC__)
    gamq__device_free(&F->allocator, F->words, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess) s = GAMQ_ERROR_CUDA;
#endif
  }
  GAMQ_FREE(F);
  return s;
}

GAMQ_DEF gamq_status gamq_bloom_get_info(const gamq_bloom *F, gamq_bloom_info *info) {
  if (F == NULL || info == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  info->backend = F->backend, info->seed = F->seed, info->num_blocks = F->num_blocks, info->k = F->k;
  info->bytes = F->bytes, info->bits_per_key_planned = F->bits_per_key_planned;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_bloom_key_bits(const gamq_bloom *F, uint64_t key, uint64_t *block, uint32_t mask[8]) {
  uint32_t m[8];
  uint64_t b;
  if (F == NULL || block == NULL || mask == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  b = gamq__bloom_masks(key, F->seed, F->num_blocks, F->k, m);
  memcpy(mask, m, sizeof m);
  *block = b;
  return GAMQ_SUCCESS;
}

GAMQ_DEF gamq_status gamq_bloom_clear(gamq_bloom *F) {
  if (F == NULL) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST) {
    memset(F->words, 0, F->bytes);
    return GAMQ_SUCCESS;
  }
#if defined(__CUDACC__)
  if (cudaMemsetAsync(F->words, 0, F->bytes, 0) != cudaSuccess || cudaStreamSynchronize(0) != cudaSuccess)
    return GAMQ_ERROR_CUDA;
  return GAMQ_SUCCESS;
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

/* The expert forms: arrays where the filter lives; synchronise the stream. */
static gamq_status gamq__bloom_sync(const gamq_bloom *F, int lookup, const void *keys, int key_bytes, size_t n,
                                    uint8_t *found, gamq_stream stream) {
  gamq__bloom_choice plan;
  if (F == NULL || (keys == NULL && n > 0) || (lookup && found == NULL && n > 0)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (n == 0) return GAMQ_SUCCESS;
  gamq__bloom_choose(NULL, F, lookup ? GAMQ__BLOOM_OP_LOOKUP : GAMQ__BLOOM_OP_INSERT, keys, key_bytes, n, found, &plan);
  if (plan.backend == GAMQ_BACKEND_HOST) {
    if (lookup) gamq__bloom_host_lookup(F, keys, key_bytes, n, found);
    else gamq__bloom_host_insert((gamq_bloom *)F, keys, key_bytes, n);
    (void)stream;
    return GAMQ_SUCCESS;
  }
#if defined(__CUDACC__)
  {
    cudaError_t e = lookup ? gamq__cuda_bloom_lookup(&plan, F->words, F->num_blocks, F->seed, F->k, keys, key_bytes, n,
                                                     found, (cudaStream_t)stream)
                           : gamq__cuda_bloom_insert(&plan, F->words, F->num_blocks, F->seed, F->k, keys, key_bytes,
                                                     n, (cudaStream_t)stream);
    if (e != cudaSuccess || cudaStreamSynchronize((cudaStream_t)stream) != cudaSuccess) return GAMQ_ERROR_CUDA;
    return GAMQ_SUCCESS;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

/* The convenience forms: host arrays for either backend. */
static gamq_status gamq__bloom_arrays(const gamq_bloom *F, int lookup, const void *h_keys, int key_bytes, size_t n,
                                      uint8_t *h_found) {
  if (F == NULL || (h_keys == NULL && n > 0) || (lookup && h_found == NULL && n > 0))
    return GAMQ_ERROR_INVALID_ARGUMENT;
  if (F->backend == GAMQ_BACKEND_HOST || n == 0) return gamq__bloom_sync(F, lookup, h_keys, key_bytes, n, h_found, NULL);
#if defined(__CUDACC__)
  {
    void *d_keys = NULL, *d_found = NULL;
    gamq_status s;
    if (n > SIZE_MAX / (size_t)key_bytes) return GAMQ_ERROR_INVALID_ARGUMENT;
    s = gamq__device_alloc(&F->allocator, &d_keys, n * (size_t)key_bytes, NULL);
    if (s == GAMQ_SUCCESS && lookup) s = gamq__device_alloc(&F->allocator, &d_found, n, NULL);
    if (s == GAMQ_SUCCESS &&
        cudaMemcpyAsync(d_keys, h_keys, n * (size_t)key_bytes, cudaMemcpyHostToDevice, 0) != cudaSuccess)
      s = GAMQ_ERROR_CUDA;
    if (s == GAMQ_SUCCESS) s = gamq__bloom_sync(F, lookup, d_keys, key_bytes, n, (uint8_t *)d_found, NULL);
    if (s == GAMQ_SUCCESS && lookup && cudaMemcpy(h_found, d_found, n, cudaMemcpyDeviceToHost) != cudaSuccess)
      s = GAMQ_ERROR_CUDA;
    gamq__device_free(&F->allocator, d_keys, NULL);
    gamq__device_free(&F->allocator, d_found, NULL);
    if (cudaStreamSynchronize(0) != cudaSuccess && s == GAMQ_SUCCESS) s = GAMQ_ERROR_CUDA;
    return s;
  }
#else
  return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
}

GAMQ_DEF gamq_status gamq_bloom_insert_u32_sync(gamq_bloom *F, const uint32_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__bloom_sync(F, 0, d_keys, 4, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_bloom_insert_u64_sync(gamq_bloom *F, const uint64_t *d_keys, size_t n, gamq_stream stream) {
  return gamq__bloom_sync(F, 0, d_keys, 8, n, NULL, stream);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u32_sync(const gamq_bloom *F, const uint32_t *d_keys, size_t n,
                                                uint8_t *d_found, gamq_stream stream) {
  return gamq__bloom_sync(F, 1, d_keys, 4, n, d_found, stream);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u64_sync(const gamq_bloom *F, const uint64_t *d_keys, size_t n,
                                                uint8_t *d_found, gamq_stream stream) {
  return gamq__bloom_sync(F, 1, d_keys, 8, n, d_found, stream);
}
GAMQ_DEF gamq_status gamq_bloom_insert_u32(gamq_bloom *F, const uint32_t *h_keys, size_t n) {
  return gamq__bloom_arrays(F, 0, h_keys, 4, n, NULL);
}
GAMQ_DEF gamq_status gamq_bloom_insert_u64(gamq_bloom *F, const uint64_t *h_keys, size_t n) {
  return gamq__bloom_arrays(F, 0, h_keys, 8, n, NULL);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u32(const gamq_bloom *F, const uint32_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__bloom_arrays(F, 1, h_keys, 4, n, h_found);
}
GAMQ_DEF gamq_status gamq_bloom_lookup_u64(const gamq_bloom *F, const uint64_t *h_keys, size_t n, uint8_t *h_found) {
  return gamq__bloom_arrays(F, 1, h_keys, 8, n, h_found);
}

GAMQ_DEF gamq_status gamq_bloom_copy_bytes(const gamq_bloom *F, void *h_out, size_t *bytes) {
  if (F == NULL || bytes == NULL || (h_out != NULL && *bytes < F->bytes)) return GAMQ_ERROR_INVALID_ARGUMENT;
  if (h_out != NULL) {
    if (F->backend == GAMQ_BACKEND_HOST) {
      memcpy(h_out, F->words, F->bytes);
    } else {
#if defined(__CUDACC__)
      if (cudaMemcpy(h_out, F->words, F->bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return GAMQ_ERROR_CUDA;
#else
      return GAMQ_ERROR_BACKEND_UNAVAILABLE;
#endif
    }
  }
  *bytes = F->bytes;
  return GAMQ_SUCCESS;
}
