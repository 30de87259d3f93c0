/* test_qf_host.cu - the quotient filters' host reference: SQF and
   RSQF point operations, bulk build, extract, merge and batches against a
   multiset model, after every step: the count, the extracted fingerprints,
   every stored fingerprint found, lookups of absent ones exact, and the bytes
   equal to a fresh bulk build of the model (one layout per multiset). Then
   false-positive rates against theory, edge cases, bad arguments and
   allocation failures. RSQF shapes run in both layouts (ALIGNED, PACKED);
   the PACKED bytes are checked against the ALIGNED ones field by field. A private copy of the implementation with the
   counting allocator (test_api.cu owns the shared one). Host only: runs in CI. */
#include "counting_alloc.h"
#define GAMQ_MALLOC(sz) counting_malloc(sz)
#define GAMQ_FREE(p) counting_free(p)
#define GAMQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "amq_testing.h"

#include "testing.h"

#include <math.h>

#include <set>
#include <vector>

typedef std::multiset<uint64_t> qf_model;

static const char *qf_shape_name(const gamq__qf &f) {
  return f.kind == GAMQ__QF_SQF ? "sqf" : f.packed ? "rsqf packed" : "rsqf";
}

/* Does the model fit nslots? The position scan written out once more, apart
   from the library: slot_i = max(slot_{i-1} + 1, quotient_i). */
static bool qf_fits(const qf_model &m, int r, uint64_t nslots) {
  uint64_t next = 0;
  for (qf_model::const_iterator it = m.begin(); it != m.end(); ++it) {
    uint64_t q = *it >> r, slot = q > next ? q : next;
    if (slot >= nslots) return false;
    next = slot + 1;
  }
  return true;
}

static std::vector<uint8_t> qf_bytes(const gamq__qf &f) { return std::vector<uint8_t>(f.data, f.data + f.bytes); }

/* Everything the filter must agree with the model on. */
static void qf_check(const gamq__qf &f, const qf_model &model, test_rng &rng, const char *what) {
  std::vector<uint64_t> want(model.begin(), model.end()), got(model.size() + 1);
  CHECK_MSG(f.nitems == model.size(), "%s: count %llu, model %zu", what, (unsigned long long)f.nitems, model.size());
  CHECK_EQ(gamq__qf_extract(&f, got.data()), want.size());
  CHECK_ARRAYS(want.data(), got.data(), want.size(), what);
  /* one layout per multiset: a fresh build has the same bytes */
  gamq__qf g;
  CHECK(gamq__qf_init_like(&g, &f) == GAMQ__QF_OK);
  gamq__qf_result br = gamq__qf_build(&g, want.data(), want.size(), GAMQ__NA_SERIAL);
  bool same = br == GAMQ__QF_OK && memcmp(g.data, f.data, f.bytes) == 0;
  size_t first_diff = 0;
  while (br == GAMQ__QF_OK && first_diff < f.bytes && g.data[first_diff] == f.data[first_diff]) ++first_diff;
  gamq__qf_free(&g);
  CHECK_MSG(same, "%s: bytes differ from a fresh build (build %d, first byte %zu of %zu)", what, (int)br, first_diff,
            f.bytes);
  /* zero false negatives */
  for (size_t i = 0; i < want.size(); ++i)
    CHECK_MSG(gamq__qf_lookup(&f, want[i]), "%s: stored fingerprint %llx not found", what,
              (unsigned long long)want[i]);
  /* lookups are exact on fingerprints: random ones and neighbours of stored ones */
  int p = f.q + f.r;
  for (int t = 0; t < 200; ++t) {
    uint64_t fp = rng.next() >> (64 - p);
    if (!want.empty() && t % 2) {
      uint64_t w = want[rng.below(want.size())];
      switch (t % 6) {
        case 1: fp = w + 1; break;
        case 3: fp = w - 1; break;
        default: fp = w ^ ((uint64_t)1 << f.r); break; /* same remainder, next quotient */
      }
      if (p < 64) fp &= ((uint64_t)1 << p) - 1;
    }
    bool in = model.count(fp) > 0;
    CHECK_MSG(gamq__qf_lookup(&f, fp) == (int)in, "%s: lookup(%llx) = %d, model %d", what, (unsigned long long)fp,
              !in, (int)in);
  }
}

/* Fingerprint sources: hashed random keys (uniform), a few quotients (long
   runs, spills past blocks, saturated RSQF offsets), and one quotient. */
enum { GEN_UNIFORM, GEN_SKEWED, GEN_ONE_QUOTIENT, GEN_MODES };
struct qf_gen {
  int mode, q, r;
  uint64_t seed, one_q;
  uint64_t next(test_rng &rng) const {
    uint64_t home = (uint64_t)1 << q, rmask = ((uint64_t)1 << r) - 1, quot, rem;
    if (mode == GEN_UNIFORM) return gamq__qf_fingerprint_of(rng.next(), seed, q, r);
    if (mode == GEN_ONE_QUOTIENT) {
      quot = one_q;
    } else {
      uint64_t few[4] = {0, 1 % home, home - 1, (home / 3) % home};
      quot = rng.below(4) ? few[rng.below(4)] : rng.below(home);
    }
    rem = rng.below(3) ? rng.next() & rmask : rng.below(3) & rmask; /* remainders 0..2 repeat */
    return (quot << r) | rem;
  }
};

/* One random interleaving of build / insert / delete / merge on one shape. */
static void qf_random_run(gamq__qf_kind kind, int packed, int q, int r, int mode, int steps, test_rng &rng) {
  char what[160];
  gamq__qf f;
  qf_model model;
  uint64_t seed = rng.next();
  qf_gen gen = {mode, q, r, seed, rng.below((uint64_t)1 << q)};
  CHECK(gamq__qf_init_packed(&f, kind, q, r, seed, packed) == GAMQ__QF_OK);
  uint64_t cap = f.nslots;
  for (int step = 0; step < steps && !g_test.failed; ++step) {
    int op = (int)rng.below(6);
    std::vector<uint8_t> before = qf_bytes(f);
    bool refused = false;
    std::vector<uint64_t> batch;
    snprintf(what, sizeof what, "%s q=%d r=%d gen=%d step %d op %d", qf_shape_name(f), q, r, mode, step, op);
    std::vector<uint64_t> present(model.begin(), model.end());
    if (op == 0) { /* bulk build, sometimes over capacity */
      uint64_t n = rng.below(cap + cap / 8 + 2) * (rng.below(4) == 0 ? 1 : rng.below(2) ? 1 : 0) +
                   rng.below(cap / 2 + 1);
      for (uint64_t i = 0; i < n; ++i) batch.push_back(gen.next(rng));
      std::sort(batch.begin(), batch.end());
      qf_model m2(batch.begin(), batch.end());
      gamq__na_method method = (gamq__na_method)rng.below(5);
      gamq__qf_result res = gamq__qf_build(&f, batch.data(), batch.size(), method);
      CHECK_MSG(res == (qf_fits(m2, r, f.nslots) ? GAMQ__QF_OK : GAMQ__QF_FULL), "%s: build -> %d", what, (int)res);
      if (res == GAMQ__QF_OK) model.swap(m2);
      refused = res == GAMQ__QF_FULL;
    } else if (op == 1 || op == 2) { /* batch insert (op 1) or one insert (op 2): new and repeated */
      uint64_t n = op == 2 ? 1 : rng.below(cap / 4 + 3);
      for (uint64_t i = 0; i < n; ++i)
        batch.push_back(!present.empty() && rng.below(3) == 0 ? present[rng.below(present.size())] : gen.next(rng));
      qf_model m2 = model;
      m2.insert(batch.begin(), batch.end());
      bool fits = qf_fits(m2, r, f.nslots);
      gamq__qf_result res;
      if (op == 2) {
        res = gamq__qf_insert(&f, batch[0]);
      } else {
        gamq__qf_batch_path path = (gamq__qf_batch_path)rng.below(3);
        res = gamq__qf_insert_batch(&f, batch.data(), batch.size(), path, (gamq__na_method)rng.below(5));
      }
      CHECK_MSG(res == (fits ? GAMQ__QF_OK : GAMQ__QF_FULL), "%s: insert of %zu -> %d", what, batch.size(), (int)res);
      if (res == GAMQ__QF_OK) model.swap(m2);
      refused = res == GAMQ__QF_FULL;
    } else if (op == 3 || op == 4) { /* batch delete (op 3) or one delete (op 4): present, repeated, absent */
      uint64_t n = op == 4 ? 1 : rng.below(present.size() / 2 + 3);
      for (uint64_t i = 0; i < n; ++i)
        batch.push_back(!present.empty() && rng.below(4) ? present[rng.below(present.size())] : gen.next(rng));
      uint64_t expect = 0;
      qf_model m2 = model;
      for (size_t i = 0; i < batch.size(); ++i) {
        qf_model::iterator it = m2.find(batch[i]);
        if (it != m2.end()) m2.erase(it), ++expect;
      }
      if (op == 4) {
        gamq__qf_result res = gamq__qf_delete(&f, batch[0]);
        CHECK_MSG(res == (expect ? GAMQ__QF_OK : GAMQ__QF_NOT_FOUND), "%s: delete -> %d", what, (int)res);
      } else {
        uint64_t deleted = ~(uint64_t)0;
        CHECK(gamq__qf_delete_batch(&f, batch.data(), batch.size(), &deleted) == GAMQ__QF_OK);
        CHECK_EQ(deleted, expect);
      }
      model.swap(m2);
    } else { /* merge with another filter of the same shape, into f or into a third */
      gamq__qf g, h;
      uint64_t n = rng.below(cap / 2 + 2);
      for (uint64_t i = 0; i < n; ++i) batch.push_back(gen.next(rng));
      std::sort(batch.begin(), batch.end());
      qf_model m2(batch.begin(), batch.end());
      CHECK(gamq__qf_init_like(&g, &f) == GAMQ__QF_OK);
      if (gamq__qf_build(&g, batch.data(), batch.size(), GAMQ__NA_ASSOCIATIVE) != GAMQ__QF_OK) {
        gamq__qf_free(&g); /* too many for one filter: skip */
        continue;
      }
      m2.insert(model.begin(), model.end());
      bool fits = qf_fits(m2, r, f.nslots);
      gamq__qf_result res;
      if (rng.below(2)) {
        bool f_first = rng.below(2) != 0; /* into f itself, either operand order */
        res = gamq__qf_merge(&f, f_first ? &f : &g, f_first ? &g : &f, GAMQ__NA_SEGMENTED_LAYOUTS);
      } else {
        CHECK(gamq__qf_init_like(&h, &f) == GAMQ__QF_OK);
        res = gamq__qf_merge(&h, &g, &f, GAMQ__NA_PARALLEL_MERGING);
        if (res == GAMQ__QF_OK) {
          gamq__qf t = f;
          f = h, h = t;
        }
        gamq__qf_free(&h);
      }
      gamq__qf_free(&g);
      CHECK_MSG(res == (fits ? GAMQ__QF_OK : GAMQ__QF_FULL), "%s: merge -> %d", what, (int)res);
      if (res == GAMQ__QF_OK) model.swap(m2);
      refused = res == GAMQ__QF_FULL;
    }
    CHECK_OK_SO_FAR();
    if (refused) CHECK_MSG(qf_bytes(f) == before, "%s: FULL changed the filter", what);
    qf_check(f, model, rng, what);
    if (g_test.failed) break;
  }
  gamq__qf_free(&f);
}

TEST(qf_host, sqf_random_interleavings) {
  test_rng rng = test_rng_for("qf_sqf_random");
  const int qs[] = {1, 2, 4, 7, 12}, rs[] = {5, 13, 21, 29};
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 4; ++b)
      for (int mode = 0; mode < GEN_MODES; ++mode) {
        qf_random_run(GAMQ__QF_SQF, 0, qs[a], rs[b], mode, qs[a] >= 12 ? 25 : 60, rng);
        CHECK_OK_SO_FAR();
      }
}

TEST(qf_host, rsqf_random_interleavings) {
  test_rng rng = test_rng_for("qf_rsqf_random");
  const int qs[] = {1, 3, 6, 8, 12}, rs[] = {1, 2, 5, 8, 13, 21, 29, 32};
  for (int packed = 0; packed < 2; ++packed)
    for (int a = 0; a < 5; ++a)
      for (int b = 0; b < 8; ++b)
        for (int mode = 0; mode < GEN_MODES; ++mode) {
          qf_random_run(GAMQ__QF_RSQF, packed, qs[a], rs[b], mode, qs[a] >= 12 ? 15 : 40, rng);
          CHECK_OK_SO_FAR();
        }
}

/* A filter merged with itself (out, a and b the same) doubles every fingerprint. */
TEST(qf_host, merge_with_itself_doubles) {
  test_rng rng = test_rng_for("qf_merge_self");
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    gamq__qf_kind kind = k ? GAMQ__QF_RSQF : GAMQ__QF_SQF;
    gamq__qf f;
    CHECK(gamq__qf_init_packed(&f, kind, 10, 13, 7, k == 2) == GAMQ__QF_OK);
    std::vector<uint64_t> fp;
    for (int i = 0; i < 300; ++i) fp.push_back(gamq__qf_fingerprint(&f, rng.next()));
    std::sort(fp.begin(), fp.end());
    CHECK(gamq__qf_build(&f, fp.data(), fp.size(), GAMQ__NA_SERIAL) == GAMQ__QF_OK);
    CHECK(gamq__qf_merge(&f, &f, &f, GAMQ__NA_SERIAL) == GAMQ__QF_OK);
    qf_model m(fp.begin(), fp.end());
    m.insert(fp.begin(), fp.end());
    qf_check(f, m, rng, "merge with itself");
    gamq__qf_free(&f);
    CHECK_OK_SO_FAR();
  }
}

/* ---- hashing and fingerprints ---- */
TEST(qf_host, hash_and_fingerprints) {
  test_rng rng = test_rng_for("qf_hash");
  /* documented constants: splitmix64's finaliser of (key ^ seed) + golden gamma */
  uint64_t z = (uint64_t)0 + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  CHECK(gamq__qf_hash64(0, 0) == (z ^ (z >> 31)));
  CHECK(gamq__qf_hash64(5, 0) != gamq__qf_hash64(5, 1));
  CHECK(gamq__qf_hash64(5, 9) == gamq__qf_hash64(5 ^ 9, 0)); /* the seed is xored into the key */
  /* 32-bit keys are zero-extended */
  gamq__qf f;
  CHECK(gamq__qf_init(&f, GAMQ__QF_RSQF, 6, 7, 1234) == GAMQ__QF_OK);
  uint32_t k32[3] = {0, 1, 0xffffffffu};
  uint64_t k64[3] = {0, 1, 0xffffffffull}, f32[3], f64[3];
  gamq__qf_fingerprints_u32(&f, k32, 3, f32);
  gamq__qf_fingerprints_u64(&f, k64, 3, f64);
  CHECK_ARRAYS(f64, f32, 3, "u32 keys");
  gamq__qf_free(&f);
  /* each output bit is set about half the time */
  int ones[64] = {0};
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    uint64_t h = gamq__qf_hash64((uint64_t)i, 42); /* consecutive keys: the hard case */
    for (int b = 0; b < 64; ++b) ones[b] += (int)((h >> b) & 1);
  }
  for (int b = 0; b < 64; ++b) CHECK_MSG(ones[b] > n / 2 - 1500 && ones[b] < n / 2 + 1500, "bit %d set %d times", b, ones[b]);
  /* split: the top q + r bits, quotient high; q + r = 64 keeps the whole hash */
  for (int t = 0; t < 1000; ++t) {
    uint64_t key = rng.next(), seed = rng.next(), h = gamq__qf_hash64(key, seed);
    CHECK(gamq__qf_fingerprint_of(key, seed, 32, 32) == h);
    CHECK(gamq__qf_fingerprint_of(key, seed, 23, 5) == h >> 36);
    CHECK(gamq__qf_fingerprint_of(key, seed, 1, 1) == h >> 62);
  }
  /* layouts at q + r = 64 and q = 32 (too big to allocate here) */
  uint64_t ns = 0;
  size_t bytes = 0;
  CHECK(gamq__qf_layout(GAMQ__QF_RSQF, 32, 32, &ns, &bytes));
  CHECK(ns == (((uint64_t)1 << 32) + 655360));
  if (sizeof(size_t) == 8) CHECK(bytes == (size_t)(ns / 64 * 320));
  CHECK(gamq__qf_layout(GAMQ__QF_SQF, 32, 29, &ns, &bytes));
  if (sizeof(size_t) == 8) CHECK(bytes == (size_t)(ns * 4));
  CHECK(gamq__qf_layout(GAMQ__QF_RSQF, 20, 5, NULL, &bytes) && bytes % 64 == 0);
  CHECK(gamq__rsqf_block_bytes(5) == 64 && gamq__rsqf_block_bytes(13) == 128 && gamq__rsqf_block_bytes(6) == 128);
  CHECK(gamq__rsqf_block_bytes(21) == 192 && gamq__rsqf_block_bytes(29) == 256 && gamq__rsqf_block_bytes(32) == 320);
  CHECK(gamq__qf_nslots(1) == 64 && gamq__qf_nslots(8) == 448);
}

/* ---- the PACKED RSQF layout ----
   Sizes: blocks of 16 + 8r bytes and one offset byte per block, the total
   rounded up to 8: (17 + 8r) / 64 bytes a slot, the memory of Table I of
   "Quotient Filters: Approximate Membership Queries on the GPU" (Geil,
   Farach-Colton, Owens, IPDPS 2018): bytes an item at 95% fill 0.9375,
   1.990, 3.043 for r = 5, 13, 21. */
TEST(qf_host, rsqf_packed_sizes) {
  const int qs[] = {1, 2, 5, 8, 12, 20, 27, 32};
  for (int a = 0; a < 8; ++a)
    for (int r = 1; r <= 32; ++r) {
      uint64_t ns = 0, ns2 = 0;
      size_t bytes = 0, aligned = 0;
      CHECK(gamq__qf_layout_packed(GAMQ__QF_RSQF, qs[a], r, 1, &ns, &bytes));
      CHECK(gamq__qf_layout(GAMQ__QF_RSQF, qs[a], r, &ns2, &aligned));
      CHECK(ns == ns2 && ns == gamq__qf_nslots(qs[a]));
      const uint64_t nb = ns / 64, want = (nb * (uint64_t)(17 + 8 * r) + 7) / 8 * 8;
      if (sizeof(size_t) == 8 || want <= (uint64_t)(size_t)-1)
        CHECK_MSG(bytes == (size_t)want, "q=%d r=%d: %zu bytes, want %llu", qs[a], r, bytes, (unsigned long long)want);
      CHECK(bytes % 8 == 0 && bytes <= aligned);
      CHECK(gamq__rsqf_stride_of(r, 1) == (size_t)(16 + 8 * r) && gamq__rsqf_stride_of(r, 0) == gamq__rsqf_block_bytes(r));
    }
  /* the Table I figures: bytes a slot / 0.95 */
  const int rs[3] = {5, 13, 21};
  const double per_item[3] = {0.9375, 1.990, 3.043};
  for (int i = 0; i < 3; ++i) {
    uint64_t ns = 0;
    size_t bytes = 0;
    CHECK(gamq__qf_layout_packed(GAMQ__QF_RSQF, 20, rs[i], 1, &ns, &bytes));
    const double got = (double)bytes / (double)ns / 0.95;
    printf("    rsqf packed r=%d: %.4f bytes an item at 95%% fill (aligned: %.4f)\n", rs[i], got,
           (double)(ns / 64 * gamq__rsqf_block_bytes(rs[i])) / (double)ns / 0.95);
    CHECK_MSG(fabs(got - per_item[i]) < 5e-4, "r=%d: %.5f bytes an item, want %.4f", rs[i], got, per_item[i]);
  }
  /* and the filters made so: that size, all zero; SQF has no PACKED layout */
  gamq__qf f;
  for (int r = 1; r <= 32; r += 5) {
    CHECK(gamq__qf_init_packed(&f, GAMQ__QF_RSQF, 7, r, 1, 1) == GAMQ__QF_OK);
    CHECK(f.packed == 1 && f.bytes == (size_t)((f.nslots / 64 * (uint64_t)(17 + 8 * r) + 7) / 8 * 8));
    for (size_t i = 0; i < f.bytes; ++i) CHECK(f.data[i] == 0);
    gamq__qf_free(&f);
  }
  memset(&f, 0, sizeof f);
  for (int r = 5; r <= 29; r += 8) {
    CHECK(!gamq__qf_layout_packed(GAMQ__QF_SQF, 8, r, 1, NULL, NULL));
    CHECK(gamq__qf_init_packed(&f, GAMQ__QF_SQF, 8, r, 1, 1) == GAMQ__QF_BAD_ARG && f.data == NULL);
  }
}

/* The two layouts hold the same fields: for every block, the PACKED bytes
   are the ALIGNED ones with bytes 16..23 and the padding taken out and the
   offset byte moved to the array after the blocks. Random multisets (long
   runs and saturated offsets among them), fresh each run, and at q = 10
   (a = 3) one fixed size, half the slots, so that the one-quotient
   multisets (quotient 0) surely saturate offsets. */
TEST(qf_host, rsqf_packed_matches_aligned) {
  test_rng rng = test_rng_for("qf_rsqf_packed_fields");
  const int rs[] = {1, 3, 5, 7, 8, 11, 13, 21, 29, 32}, qs[] = {3, 8, 10, 10};
  int saturated = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 10; ++b)
      for (int mode = 0; mode < GEN_MODES; ++mode) {
        const int q = qs[a], r = rs[b];
        gamq__qf al, pk;
        uint64_t seed = rng.next();
        CHECK(gamq__qf_init(&al, GAMQ__QF_RSQF, q, r, seed) == GAMQ__QF_OK);
        CHECK(gamq__qf_init_packed(&pk, GAMQ__QF_RSQF, q, r, seed, 1) == GAMQ__QF_OK);
        qf_gen gen = {mode, q, r, seed, a == 3 ? 0 : rng.below((uint64_t)1 << q)};
        std::vector<uint64_t> fp;
        uint64_t n = a == 3 ? al.nslots / 2 : rng.below(al.nslots - (mode == GEN_ONE_QUOTIENT ? gen.one_q : 0) + 1);
        for (uint64_t i = 0; i < n; ++i) fp.push_back(gen.next(rng));
        std::sort(fp.begin(), fp.end());
        gamq__qf_result ra = gamq__qf_build(&al, fp.data(), fp.size(), (gamq__na_method)rng.below(5));
        gamq__qf_result rp = gamq__qf_build(&pk, fp.data(), fp.size(), (gamq__na_method)rng.below(5));
        CHECK(ra == rp);
        const uint64_t nb = al.nslots / 64, ab = gamq__rsqf_block_bytes(r), pb = 16 + 8 * (uint64_t)r;
        bool same = true;
        for (uint64_t k = 0; k < nb && same; ++k) {
          const uint8_t *x = al.data + k * ab, *y = pk.data + k * pb;
          same = memcmp(x, y, 16) == 0 && memcmp(x + 24, y + 16, 8 * (size_t)r) == 0 && x[16] == pk.data[nb * pb + k];
          for (uint64_t i = 17; i < 24; ++i) same = same && x[i] == 0;
          for (uint64_t i = 24 + 8 * (uint64_t)r; i < ab; ++i) same = same && x[i] == 0;
          saturated += x[16] == 255;
        }
        for (uint64_t i = nb * pb + nb; i < pk.bytes; ++i) same = same && pk.data[i] == 0; /* the tail */
        CHECK_MSG(same, "q=%d r=%d gen=%d n=%llu: PACKED bytes are not the ALIGNED fields", q, r, mode,
                  (unsigned long long)n);
        if (ra == GAMQ__QF_OK) {
          qf_model m(fp.begin(), fp.end());
          qf_check(pk, m, rng, "packed build");
        }
        gamq__qf_free(&al);
        gamq__qf_free(&pk);
        CHECK_OK_SO_FAR();
      }
  CHECK(saturated > 0); /* the one-quotient multisets saturate offsets */
}

/* ---- multiset semantics on keys ---- */
TEST(qf_host, duplicates_and_empty_batches) {
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    gamq__qf f;
    CHECK(gamq__qf_init_packed(&f, k ? GAMQ__QF_RSQF : GAMQ__QF_SQF, 8, 13, 99, k == 2) == GAMQ__QF_OK);
    uint64_t fp = gamq__qf_fingerprint(&f, 123456789);
    uint64_t two[2] = {fp, fp};
    CHECK(gamq__qf_insert_batch(&f, NULL, 0, GAMQ__QF_BATCH_AUTO, GAMQ__NA_SERIAL) == GAMQ__QF_OK);
    CHECK(gamq__qf_build(&f, NULL, 0, GAMQ__NA_SERIAL) == GAMQ__QF_OK && f.nitems == 0);
    uint64_t deleted = 7;
    CHECK(gamq__qf_delete_batch(&f, NULL, 0, &deleted) == GAMQ__QF_OK && deleted == 0);
    CHECK(gamq__qf_insert_batch(&f, two, 2, GAMQ__QF_BATCH_IN_PLACE, GAMQ__NA_SERIAL) == GAMQ__QF_OK);
    CHECK(f.nitems == 2 && gamq__qf_lookup(&f, fp));
    CHECK(gamq__qf_delete(&f, fp) == GAMQ__QF_OK); /* twice in, once out: still there */
    CHECK(gamq__qf_lookup(&f, fp) && f.nitems == 1);
    CHECK(gamq__qf_delete(&f, fp) == GAMQ__QF_OK);
    CHECK(!gamq__qf_lookup(&f, fp) && f.nitems == 0);
    CHECK(gamq__qf_delete(&f, fp) == GAMQ__QF_NOT_FOUND);
    for (size_t i = 0; i < f.bytes; ++i) CHECK(f.data[i] == 0); /* back to empty, byte for byte */
    gamq__qf_free(&f);
  }
}

/* All fingerprints in one quotient x: exactly nslots - x fit, the next is
   FULL and changes nothing; RSQF offsets saturate (255) on the way. */
TEST(qf_host, one_quotient_until_full) {
  test_rng rng = test_rng_for("qf_one_quotient");
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    gamq__qf f;
    int r = k ? 5 : 13;
    CHECK(gamq__qf_init_packed(&f, k ? GAMQ__QF_RSQF : GAMQ__QF_SQF, 8, r, 5, k == 2) == GAMQ__QF_OK);
    const uint64_t x = k ? 3 : 200, room = f.nslots - x;
    qf_model m;
    for (uint64_t i = 0; i < room; ++i) {
      uint64_t fp = (x << r) | (rng.next() & ((1u << r) - 1));
      CHECK(gamq__qf_insert(&f, fp) == GAMQ__QF_OK);
      m.insert(fp);
    }
    std::vector<uint8_t> before = qf_bytes(f);
    CHECK(gamq__qf_insert(&f, x << r) == GAMQ__QF_FULL);
    uint64_t same_home = x << r;
    CHECK(gamq__qf_insert_batch(&f, &same_home, 1, GAMQ__QF_BATCH_REBUILD, GAMQ__NA_SERIAL) == GAMQ__QF_FULL);
    CHECK(gamq__qf_insert_batch(&f, &same_home, 1, GAMQ__QF_BATCH_IN_PLACE, GAMQ__NA_SERIAL) == GAMQ__QF_FULL);
    CHECK(qf_bytes(f) == before);
    if (k) CHECK(gamq__rsqf_stored_offset(&f, 1) == 255 && gamq__rsqf_offset(&f, 1) == room + x - 64);
    qf_check(f, m, rng, "one quotient, full");
    CHECK_OK_SO_FAR();
    /* a home slot before the run is still free */
    if (x > 0) CHECK(gamq__qf_insert(&f, 0) == GAMQ__QF_OK && gamq__qf_delete(&f, 0) == GAMQ__QF_OK);
    /* empty it again in a scrambled order, checking on the way */
    std::vector<uint64_t> all(m.begin(), m.end());
    for (size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.below(i)]);
    for (size_t i = 0; i < all.size(); ++i) {
      CHECK(gamq__qf_delete(&f, all[i]) == GAMQ__QF_OK);
      m.erase(m.find(all[i]));
      if (i % 61 == 0) qf_check(f, m, rng, "one quotient, emptying");
      CHECK_OK_SO_FAR();
    }
    for (size_t i = 0; i < f.bytes; ++i) CHECK(f.data[i] == 0);
    gamq__qf_free(&f);
  }
}

/* Every build method lays out the same bytes (a 95%-full filter). */
TEST(qf_host, build_methods_agree) {
  test_rng rng = test_rng_for("qf_build_methods");
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    gamq__qf f, g;
    CHECK(gamq__qf_init_packed(&f, k ? GAMQ__QF_RSQF : GAMQ__QF_SQF, 12, 5, 11, k == 2) == GAMQ__QF_OK);
    CHECK(gamq__qf_init_like(&g, &f) == GAMQ__QF_OK);
    std::vector<uint64_t> fp;
    for (int i = 0; i < 3891; ++i) fp.push_back(gamq__qf_fingerprint(&f, rng.next()));
    std::sort(fp.begin(), fp.end());
    CHECK(gamq__qf_build(&f, fp.data(), fp.size(), GAMQ__NA_SERIAL) == GAMQ__QF_OK);
    for (int m = 1; m <= 4; ++m) {
      CHECK(gamq__qf_build(&g, fp.data(), fp.size(), (gamq__na_method)m) == GAMQ__QF_OK);
      CHECK_MSG(memcmp(f.data, g.data, f.bytes) == 0, "%s: method %d differs", qf_shape_name(f), m);
    }
    /* and one by one, in random order */
    std::vector<uint64_t> shuffled = fp;
    for (size_t i = shuffled.size(); i > 1; --i) std::swap(shuffled[i - 1], shuffled[rng.below(i)]);
    CHECK(gamq__qf_build(&g, NULL, 0, GAMQ__NA_SERIAL) == GAMQ__QF_OK);
    for (size_t i = 0; i < shuffled.size(); ++i) CHECK(gamq__qf_insert(&g, shuffled[i]) == GAMQ__QF_OK);
    CHECK(memcmp(f.data, g.data, f.bytes) == 0);
    gamq__qf_free(&f);
    gamq__qf_free(&g);
  }
}

/* ---- false-positive rates ----
   An absent key is reported present exactly when its fingerprint equals a
   stored one. Fingerprints are p = q + r uniform bits, so for n distinct
   stored keys
       eps = 1 - (1 - 2^-p)^n  ~=  n / 2^p  =  alpha * 2^-r,   alpha = n / 2^q.
   The hits of N absent keys are then Poisson(N eps) (the filter's own rate
   is its distinct fingerprints over 2^p: it barely varies). Checked:
   measured / eps within [1/1.2, 1.2] when N * eps >= 1500 (a Poisson count
   leaves that band with probability <= 1.4e-11; at 1000 it was 3e-8), so
   the shapes near it take 1.4 x 10^7 queries (N * eps 1538); rates too rare
   for the band: hits <= N eps + 7 sqrt(N eps) + 5, which a Poisson count
   passes but with probability <= 7e-11 at every mean (the worst near 1.7;
   6 sqrt + 3 was 6e-8 at a mean of 0.5). */
static void qf_fp_rate(gamq__qf_kind kind, int q, int r, double alpha, uint64_t queries, test_rng &rng,
                       int packed = 0) {
  gamq__qf f;
  CHECK(gamq__qf_init_packed(&f, kind, q, r, rng.next(), packed) == GAMQ__QF_OK);
  uint64_t n = (uint64_t)(alpha * (double)((uint64_t)1 << q));
  std::vector<uint64_t> keys(n), fp(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = rng.next() & ~(uint64_t)1; /* present keys even, absent odd */
  gamq__qf_fingerprints_u64(&f, keys.data(), n, fp.data());
  CHECK(gamq__qf_insert_batch(&f, fp.data(), n, GAMQ__QF_BATCH_AUTO, GAMQ__NA_ASSOCIATIVE) == GAMQ__QF_OK);
  for (uint64_t i = 0; i < n; ++i) CHECK(gamq__qf_lookup(&f, gamq__qf_fingerprint(&f, keys[i]))); /* no false negatives */
  uint64_t hits = 0;
  for (uint64_t i = 0; i < queries; ++i) hits += (uint64_t)gamq__qf_lookup(&f, gamq__qf_fingerprint(&f, rng.next() | 1));
  double p = (double)(q + r), eps = -expm1((double)n * log1p(-pow(2.0, -p)));
  double measured = (double)hits / (double)queries, ratio = measured / eps;
  printf("    %s q=%d r=%d alpha=%.2f: fp rate %.3e, theory %.3e, ratio %.3f (%llu queries)\n", qf_shape_name(f), q, r,
         alpha, measured, eps, ratio, (unsigned long long)queries);
  gamq__qf_free(&f);
  if ((double)queries * eps < 1500) { /* too rare for the band: within 7 sigma of the mean, a handful allowed */
    const double mean = (double)queries * eps;
    CHECK_MSG((double)hits <= mean + 7 * sqrt(mean) + 5, "%llu hits, expected %.1f", (unsigned long long)hits, mean);
    return;
  }
  CHECK_MSG(ratio <= 1.2 && ratio >= 1 / 1.2, "fp rate %g vs theory %g", measured, eps);
}

TEST(qf_host, false_positive_rates) {
  test_rng rng = test_rng_for("qf_fp");
  qf_fp_rate(GAMQ__QF_SQF, 16, 5, 0.5, 1000000, rng);
  qf_fp_rate(GAMQ__QF_SQF, 16, 5, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ__QF_SQF, 14, 13, 0.9, 14000000, rng); /* N eps 1538 */
  qf_fp_rate(GAMQ__QF_SQF, 12, 29, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ__QF_RSQF, 16, 1, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ__QF_RSQF, 16, 3, 0.7, 1000000, rng);
  qf_fp_rate(GAMQ__QF_RSQF, 16, 5, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ__QF_RSQF, 16, 8, 0.95, 1000000, rng);
  qf_fp_rate(GAMQ__QF_RSQF, 14, 13, 0.9, 14000000, rng); /* N eps 1538 */
  qf_fp_rate(GAMQ__QF_RSQF, 16, 5, 0.95, 1000000, rng, 1);
}

/* ---- bad arguments: a status, nothing touched ---- */
TEST(qf_host, bad_arguments) {
  gamq__qf f, g, h;
  memset(&f, 0x5a, sizeof f);
  gamq__qf keep = f;
  CHECK(gamq__qf_init(NULL, GAMQ__QF_SQF, 8, 5, 0) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_init(&f, GAMQ__QF_SQF, 0, 5, 0) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_init(&f, GAMQ__QF_SQF, 33, 5, 0) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_init(&f, GAMQ__QF_SQF, 8, 6, 0) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_init(&f, GAMQ__QF_RSQF, 8, 0, 0) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_init(&f, GAMQ__QF_RSQF, 8, 33, 0) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_init(&f, (gamq__qf_kind)7, 8, 5, 0) == GAMQ__QF_BAD_ARG);
  CHECK(memcmp(&f, &keep, sizeof f) == 0);
  CHECK(!gamq__qf_layout(GAMQ__QF_SQF, 8, 4, NULL, NULL));
  CHECK(gamq__qf_lookup(NULL, 1) == 0 && gamq__qf_count(NULL) == 0 && gamq__qf_load_factor(NULL) == 0.0);
  CHECK(gamq__qf_insert(NULL, 1) == GAMQ__QF_BAD_ARG && gamq__qf_delete(NULL, 1) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_extract(NULL, NULL) == 0);
  gamq__qf_free(NULL);
  CHECK(gamq__qf_init(&f, GAMQ__QF_SQF, 8, 5, 0) == GAMQ__QF_OK);
  CHECK(gamq__qf_init(&g, GAMQ__QF_RSQF, 8, 5, 0) == GAMQ__QF_OK);
  CHECK(gamq__qf_init(&h, GAMQ__QF_SQF, 8, 5, 1) == GAMQ__QF_OK);
  uint64_t fp[3] = {5, 3, 9}, wide = (uint64_t)1 << 13;
  CHECK(gamq__qf_insert(&f, 40) == GAMQ__QF_OK);
  std::vector<uint8_t> before = qf_bytes(f);
  CHECK(gamq__qf_insert(&f, wide) == GAMQ__QF_BAD_ARG);           /* wider than q + r bits */
  CHECK(gamq__qf_delete(&f, wide) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_lookup(&f, wide) == 0);
  CHECK(gamq__qf_build(&f, fp, 3, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG); /* unsorted */
  CHECK(gamq__qf_build(&f, NULL, 3, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_insert_batch(&f, NULL, 2, GAMQ__QF_BATCH_AUTO, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_delete_batch(&f, NULL, 1, NULL) == GAMQ__QF_BAD_ARG);
  CHECK(gamq__qf_extract(&f, NULL) == 0);
  CHECK(gamq__qf_merge(&f, &f, &g, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG); /* kinds differ */
  CHECK(gamq__qf_merge(&f, &f, &h, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG); /* seeds differ */
  CHECK(gamq__qf_merge(NULL, &f, &f, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG);
  CHECK(qf_bytes(f) == before && f.nitems == 1);
  { /* layouts differ */
    gamq__qf p;
    CHECK(gamq__qf_init_packed(&p, GAMQ__QF_RSQF, 8, 5, 0, 1) == GAMQ__QF_OK);
    CHECK(gamq__qf_insert(&g, 40) == GAMQ__QF_OK);
    std::vector<uint8_t> gb = qf_bytes(g), pb = qf_bytes(p);
    CHECK(gamq__qf_merge(&g, &g, &p, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG);
    CHECK(gamq__qf_merge(&p, &g, &g, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG);
    CHECK(gamq__qf_merge(&p, &p, &g, GAMQ__NA_SERIAL) == GAMQ__QF_BAD_ARG);
    CHECK(qf_bytes(g) == gb && qf_bytes(p) == pb && g.nitems == 1 && p.nitems == 0);
    gamq__qf_free(&p);
  }
  gamq__qf_free(&f);
  gamq__qf_free(&g);
  gamq__qf_free(&h);
  CHECK(f.data == NULL);
}

/* ---- allocation failures: NO_MEMORY, the filter unchanged, nothing leaked ---- */
TEST(qf_host, allocation_failures) {
  test_rng rng = test_rng_for("qf_alloc");
  long long live0 = g_alloc_live;
  gamq__qf f, g;
  memset(&f, 0, sizeof f);
  g_alloc_fail_at = g_alloc_calls;
  CHECK(gamq__qf_init(&f, GAMQ__QF_RSQF, 10, 8, 3) == GAMQ__QF_NO_MEMORY);
  CHECK(f.data == NULL && g_alloc_live == live0);
  g_alloc_fail_at = -1;
  CHECK(gamq__qf_init(&f, GAMQ__QF_RSQF, 10, 8, 3) == GAMQ__QF_OK);
  CHECK(gamq__qf_init(&g, GAMQ__QF_RSQF, 10, 8, 3) == GAMQ__QF_OK);
  std::vector<uint64_t> a, b;
  for (int i = 0; i < 300; ++i) a.push_back(gamq__qf_fingerprint(&f, rng.next()));
  for (int i = 0; i < 200; ++i) b.push_back(gamq__qf_fingerprint(&f, rng.next()));
  std::sort(a.begin(), a.end());
  CHECK(gamq__qf_build(&f, a.data(), a.size(), GAMQ__NA_SERIAL) == GAMQ__QF_OK);
  CHECK(gamq__qf_insert_batch(&g, b.data(), b.size(), GAMQ__QF_BATCH_IN_PLACE, GAMQ__NA_SERIAL) == GAMQ__QF_OK);
  std::vector<uint8_t> fb = qf_bytes(f);
  long long live1 = g_alloc_live;
  for (int op = 0; op < 3; ++op) {
    int failures = 0;
    for (long long k = 0;; ++k) {
      g_alloc_fail_at = g_alloc_calls + k;
      gamq__qf_result res;
      if (op == 0) res = gamq__qf_build(&f, a.data(), a.size(), (gamq__na_method)(k % 5));
      else if (op == 1) res = gamq__qf_merge(&f, &f, &g, GAMQ__NA_PARALLEL_MERGING);
      else res = gamq__qf_insert_batch(&f, b.data(), b.size(), GAMQ__QF_BATCH_REBUILD, GAMQ__NA_SEQUENTIAL_SHIFTING);
      g_alloc_fail_at = -1;
      CHECK_MSG(g_alloc_live == live1, "op %d, failing call %lld: %lld blocks leaked", op, k, g_alloc_live - live1);
      if (res == GAMQ__QF_OK) break;
      CHECK_MSG(res == GAMQ__QF_NO_MEMORY, "op %d, failing call %lld: %d", op, k, (int)res);
      CHECK(qf_bytes(f) == fb && f.nitems == a.size());
      ++failures;
    }
    CHECK(failures >= 2);
    CHECK(gamq__qf_build(&f, a.data(), a.size(), GAMQ__NA_SERIAL) == GAMQ__QF_OK); /* back to a */
  }
  gamq__qf_free(&f);
  gamq__qf_free(&g);
  CHECK(g_alloc_live == live0);
}
