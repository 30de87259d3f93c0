/* amq/bloom/host.h - the blocked Bloom filter's host part: a key's block and
   bits, the false-positive model and the sizing plan, the handle struct
   gamq_bloom, and the HOST backend's insert and lookup. */

/* ---------------------------------------------------------------------------
   The blocked Bloom filter (section 7). The key -> (block, bit positions)
   functions are GAMQ__HD: the HOST backend calls them here, the kernels of
   amq/bloom/kernels.cuh on the device, so both backends set and test the
   same bits by construction.
   ------------------------------------------------------------------------- */

/* high 64 bits of the 128-bit product a * b (the multiply-shift range
   reduction: a uniform in [0, 2^64) -> a * b / 2^64 uniform in [0, b)) */
static inline GAMQ__HD uint64_t gamq__mulhi64(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  const uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
  const uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  const uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi; /* < 2^64 */
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* The 64-bit hash of a key (section 6's, with the filter's seed). */
static inline GAMQ__HD uint64_t gamq__bloom_hash(uint64_t key, uint64_t seed) { return gamq__qf_hash64(key, seed); }

/* The block of hash h among num_blocks: the high 64 bits of h * num_blocks. */
static inline GAMQ__HD uint64_t gamq__bloom_block(uint64_t h, uint64_t num_blocks) {
  return gamq__mulhi64(h, num_blocks);
}

/* The position stream of hash h: 16 bytes, position i (0 .. k-1) is byte i,
   little-endian: bytes 0..3 the low 32 bits of h, bytes 4..11 g1 = mix(h),
   bytes 12..15 the low 32 bits of g2 = mix(g1). *lo holds bytes 0..7, *hi
   bytes 8..15; the mixes only run when k needs their bytes. */
static inline GAMQ__HD void gamq__bloom_stream(uint64_t h, int k, uint64_t *lo, uint64_t *hi) {
  uint64_t g1 = 0, g2 = 0;
  if (k > 4) g1 = gamq__qf_hash64(h, 0);
  if (k > 12) g2 = gamq__qf_hash64(g1, 0);
  *lo = (h & 0xffffffffull) | (g1 << 32);
  *hi = (g1 >> 32) | (g2 << 32);
}

/* The bits key sets in its block, as one mask per 32-bit word (position x:
   word x >> 5, bit x & 31); returns the block. */
static inline GAMQ__HD uint64_t gamq__bloom_masks(uint64_t key, uint64_t seed, uint64_t num_blocks, int k,
                                                  uint32_t mask[8]) {
  const uint64_t h = gamq__bloom_hash(key, seed);
  uint64_t lo, hi;
  int i, w;
  gamq__bloom_stream(h, k, &lo, &hi);
  for (w = 0; w < 8; ++w) mask[w] = 0;
  for (i = 0; i < k; ++i) {
    const uint32_t x = (uint32_t)((i < 8 ? lo >> (8 * i) : hi >> (8 * (i - 8))) & 0xff);
    for (w = 0; w < 8; ++w) /* mask[x >> 5] |= bit, without a dynamic index (registers on the device) */
      mask[w] |= (x >> 5) == (uint32_t)w ? (uint32_t)1 << (x & 31) : 0u;
  }
  return gamq__bloom_block(h, num_blocks);
}

/* ---- the false-positive rate of the layout (section 7's FPR) ---- */

/* x^e by repeated squaring (no libm: the host part links without it) */
static double gamq__powi(double x, uint64_t e) {
  double r = 1.0;
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return r;
}

enum { GAMQ__BLOOM_BITS = 256, GAMQ__BLOOM_DP_BALLS = 1024 };

/* P(j) = the probability that all k positions of a query are set in a block
   that holds j keys: E[(|S| / 256)^k], S the bits set by the j k positions
   of those keys (uniform, independent). Exact two ways:
     small j (j k <= 1024 balls): dp[j], from the occupancy distribution of
       256 bins, grown one ball at a time (positive terms only);
     larger j: by inclusion-exclusion over the t distinct positions of the
       query, P(j) = sum_i a_i r_i^j with r_i = (1 - i/256)^k and
       a_i = (-1)^i sum_{t >= i} P(t distinct) C(t, i), P(t distinct) =
       S2(k, t) 256 (256 - 1) .. (256 - t + 1) / 256^k. There the block is
       at least 98% set, so the alternating sum loses no precision. */
typedef struct gamq__bloom_model {
  int k, dp_j;
  double dp[GAMQ__BLOOM_DP_BALLS + 1];
  double a[GAMQ_BLOOM_MAX_K + 1], r[GAMQ_BLOOM_MAX_K + 1];
} gamq__bloom_model;

static void gamq__bloom_model_init(gamq__bloom_model *m, int k) {
  double dist[GAMQ__BLOOM_BITS + 1], pk[GAMQ__BLOOM_BITS + 1];
  double s2[GAMQ_BLOOM_MAX_K + 1][GAMQ_BLOOM_MAX_K + 1], pt[GAMQ_BLOOM_MAX_K + 1];
  const double W = GAMQ__BLOOM_BITS;
  int s, j, b, t, i;
  m->k = k;
  m->dp_j = GAMQ__BLOOM_DP_BALLS / k;
  for (s = 0; s <= GAMQ__BLOOM_BITS; ++s) dist[s] = 0.0, pk[s] = gamq__powi(s / W, (uint64_t)k);
  dist[0] = 1.0;
  for (j = 0; j <= m->dp_j; ++j) {
    double sum = 0.0;
    for (s = 0; s <= GAMQ__BLOOM_BITS; ++s) sum += dist[s] * pk[s];
    m->dp[j] = sum;
    for (b = 0; b < k && j < m->dp_j; ++b) /* one more ball: stays on s set bits w.p. s/256 */
      for (s = GAMQ__BLOOM_BITS; s >= 0; --s)
        dist[s] = dist[s] * (s / W) + (s > 0 ? dist[s - 1] * ((W - s + 1) / W) : 0.0);
  }
  /* Stirling numbers of the second kind S2(k, t) */
  memset(s2, 0, sizeof s2);
  s2[0][0] = 1.0;
  for (i = 1; i <= k; ++i)
    for (t = 1; t <= i; ++t) s2[i][t] = t * s2[i - 1][t] + s2[i - 1][t - 1];
  for (t = 0; t <= k; ++t) {
    double falling = 1.0;
    for (i = 0; i < t; ++i) falling *= (W - i) / W;
    pt[t] = s2[k][t] * falling * gamq__powi(1.0 / W, (uint64_t)(k - t));
  }
  for (i = 0; i <= k; ++i) {
    double sum = 0.0, c = 1.0; /* c = C(t, i), built along t */
    for (t = i; t <= k; ++t) {
      if (t > i) c = c * t / (t - i);
      sum += pt[t] * c;
    }
    m->a[i] = (i & 1) ? -sum : sum;
    m->r[i] = gamq__powi((W - i) / W, (uint64_t)k);
  }
}

static double gamq__bloom_model_p(const gamq__bloom_model *m, uint64_t j) {
  double sum = 0.0;
  int i;
  if (j <= (uint64_t)m->dp_j) return m->dp[j];
  for (i = 0; i <= m->k; ++i) sum += m->a[i] * gamq__powi(m->r[i], j);
  return sum < 0.0 ? 0.0 : sum > 1.0 ? 1.0 : sum;
}

/* FPR = sum_j Binomial(j; n, 1/B) P(j): weights from the mode outwards by
   their ratios (no exp or log), normalised, stopped below 1e-30 of the mode. */
static double gamq__bloom_model_fpr(const gamq__bloom_model *m, uint64_t num_blocks, uint64_t n) {
  const double lam = (double)n / (double)num_blocks, q = (double)(num_blocks - 1);
  double mode_d, w, total, acc;
  uint64_t mode, j;
  if (n == 0) return 0.0;
  if (num_blocks == 1) return gamq__bloom_model_p(m, n);
  if (lam > 1e6) return 1.0; /* every block far past full: 1 in double precision */
  mode_d = ((double)n + 1.0) / (double)num_blocks;
  mode = (uint64_t)mode_d;
  if (mode > n) mode = n;
  total = 1.0, acc = gamq__bloom_model_p(m, mode);
  for (j = mode, w = 1.0; j > 0;) { /* w(j - 1) = w(j) j (B - 1) / (n - j + 1) */
    w *= (double)j * q / (double)(n - j + 1);
    --j;
    if (w < 1e-30) break;
    total += w, acc += w * gamq__bloom_model_p(m, j);
  }
  for (j = mode, w = 1.0; j < n;) { /* w(j + 1) = w(j) (n - j) / ((j + 1) (B - 1)) */
    w *= (double)(n - j) / ((double)(j + 1) * q);
    ++j;
    if (w < 1e-30) break;
    total += w, acc += w * gamq__bloom_model_p(m, j);
  }
  return acc / total;
}

/* The smallest filter (then the lowest FPR) with FPR <= eps for n keys:
   for each k, the least num_blocks by doubling then bisection (the FPR falls
   as num_blocks grows). 0 when nothing up to max_blocks is enough. */
static uint64_t gamq__bloom_plan(uint64_t n, double eps, uint64_t max_blocks, int *k_out) {
  gamq__bloom_model m;
  uint64_t best = 0, lo, hi;
  double best_fpr = 2.0;
  int k;
  for (k = 1; k <= GAMQ_BLOOM_MAX_K; ++k) {
    double f;
    gamq__bloom_model_init(&m, k);
    hi = n / 32 > 0 ? n / 32 : 1; /* about 32 keys a block: 8 bits a key */
    if (hi > max_blocks) hi = max_blocks;
    if (gamq__bloom_model_fpr(&m, hi, n) <= eps) { /* walk down: lo fails or is 0 */
      for (lo = hi / 2; lo > 0 && gamq__bloom_model_fpr(&m, lo, n) <= eps; lo /= 2) hi = lo;
    } else { /* walk up: hi fits */
      do {
        lo = hi;
        if (hi > max_blocks / 2) {
          hi = max_blocks;
          if (gamq__bloom_model_fpr(&m, hi, n) > eps) hi = 0;
          break;
        }
        hi *= 2;
      } while (gamq__bloom_model_fpr(&m, hi, n) > eps);
      if (hi == 0) continue; /* this k cannot reach eps */
    }
    while (hi - lo > 1) {
      const uint64_t mid = lo + (hi - lo) / 2;
      if (gamq__bloom_model_fpr(&m, mid, n) <= eps) hi = mid;
      else lo = mid;
    }
    f = gamq__bloom_model_fpr(&m, hi, n);
    if (best == 0 || hi < best || (hi == best && f < best_fpr)) best = hi, best_fpr = f, *k_out = k;
  }
  return best;
}

/* ---- the public filter ---- */
struct gamq_bloom {
  gamq_backend backend;            /* resolved: CUDA or HOST */
  uint64_t seed, num_blocks;
  int k;
  size_t bytes;                    /* num_blocks * 32 */
  double bits_per_key_planned;     /* 0 for gamq_bloom_create_shape */
  uint32_t *words;                 /* num_blocks * 8 words; device memory on CUDA */
  gamq_device_allocator allocator; /* CUDA: the filter's memory and the temporaries */
};

#define GAMQ__BLOOM_MAX_BLOCKS ((uint64_t)(SIZE_MAX / GAMQ_BLOOM_BLOCK_BYTES))

/* HOST: the reference, one key at a time. */
static void gamq__bloom_host_insert(gamq_bloom *F, const void *keys, int key_bytes, size_t n) {
  size_t i;
  int w;
  for (i = 0; i < n; ++i) {
    const uint64_t key = key_bytes == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
    uint32_t m[8], *block;
    block = F->words + 8 * gamq__bloom_masks(key, F->seed, F->num_blocks, F->k, m);
    for (w = 0; w < 8; ++w) block[w] |= m[w];
  }
}
static void gamq__bloom_host_lookup(const gamq_bloom *F, const void *keys, int key_bytes, size_t n, uint8_t *found) {
  size_t i;
  int w;
  for (i = 0; i < n; ++i) {
    const uint64_t key = key_bytes == 4 ? ((const uint32_t *)keys)[i] : ((const uint64_t *)keys)[i];
    uint32_t m[8], missing = 0;
    const uint32_t *block = F->words + 8 * gamq__bloom_masks(key, F->seed, F->num_blocks, F->k, m);
    for (w = 0; w < 8; ++w) missing |= m[w] & ~block[w];
    found[i] = (uint8_t)(missing == 0);
  }
}
