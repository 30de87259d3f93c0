/* test_qf_host.cu - the quotient filters' HOST backend (the reference the
   CUDA backend is compared with), through the public calls: SQF and RSQF
   point and batch inserts (each path forced), deletes, bulk builds (every
   build method), extracts and merges against a multiset of fingerprints,
   after every step: the count, the extracted fingerprints, every stored
   fingerprint found, lookups of absent ones exact, and the bytes equal to a
   fresh bulk build of the model (one layout per multiset). Fingerprints are
   chosen (long runs, saturated offsets, one quotient) and stored through
   their keys: the hash is a bijection, tests/internal_amq.h inverts it.
   Then false-positive rates against theory, edge cases, bad arguments and
   allocation failures. RSQF shapes run in both layouts (ALIGNED, PACKED);
   the PACKED bytes are checked against the ALIGNED ones field by field. A
   private copy of the implementation with the counting allocator
   (test_api.cu owns the shared one). Host only: runs in CI. */
#include "counting_alloc.h"
#define GAMQ_MALLOC(sz) counting_malloc(sz)
#define GAMQ_FREE(p) counting_free(p)
#define GAMQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "internal_amq.h"

#include "testing.h"

#include <math.h>

#include <set>
#include <vector>

typedef std::multiset<uint64_t> qf_model;

static const char *qf_shape_name(const gamq_qf *f) {
  const gamq_qf_info info = amqt_qf_info(f);
  return info.kind == GAMQ_QF_SQF ? "sqf" : info.layout == GAMQ_QF_LAYOUT_PACKED ? "rsqf packed" : "rsqf";
}
static gamq_qf *qf_make(int kind, int q, int r, uint64_t seed, int packed = 0,
                        gamq_scan_method method = GAMQ_SCAN_AUTO) {
  return amqt_qf_make(GAMQ_BACKEND_HOST, kind, q, r, seed, packed, method);
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

static std::vector<uint8_t> qf_bytes(const gamq_qf *f) { return amqt_qf_bytes(f); }
static bool qf_all_zero(const std::vector<uint8_t> &b) {
  for (size_t i = 0; i < b.size(); ++i)
    if (b[i]) return false;
  return !b.empty();
}
/* one fingerprint in (insert) or out (delete: the copies removed) */
static gamq_status qf_insert1(gamq_qf *f, uint64_t fp) { return amqt_qf_insert_fps(f, &fp, 1); }
static uint64_t qf_delete1(gamq_qf *f, uint64_t fp) {
  uint64_t d = ~(uint64_t)0;
  if (amqt_qf_delete_fps(f, &fp, 1, &d) != GAMQ_SUCCESS) return ~(uint64_t)0;
  return d;
}
/* Everything the filter must agree with the model on. */
static void qf_check(const gamq_qf *f, const qf_model &model, test_rng &rng, const char *what) {
  const gamq_qf_info info = amqt_qf_info(f);
  std::vector<uint64_t> want(model.begin(), model.end());
  CHECK_MSG(amqt_qf_count(f) == model.size() && info.count == model.size(), "%s: count %llu, model %zu", what,
            (unsigned long long)amqt_qf_count(f), model.size());
  std::vector<uint64_t> got = amqt_qf_extract(f);
  CHECK_EQ(got.size(), want.size());
  CHECK_ARRAYS(want.data(), got.data(), want.size(), what);
  /* one layout per multiset: a fresh build has the same bytes */
  std::vector<uint8_t> ref = amqt_qf_reference(info.kind, info.q, info.r, info.seed, info.layout, model), have = qf_bytes(f);
  size_t first_diff = 0;
  while (first_diff < have.size() && first_diff < ref.size() && ref[first_diff] == have[first_diff]) ++first_diff;
  CHECK_MSG(!ref.empty() && ref == have, "%s: bytes differ from a fresh build (first byte %zu of %zu)", what, first_diff,
            have.size());
  /* zero false negatives */
  std::vector<uint8_t> found = amqt_qf_lookup_fps(f, want.data(), want.size());
  CHECK_EQ(found.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    CHECK_MSG(found[i] == 1, "%s: stored fingerprint %llx not found", what, (unsigned long long)want[i]);
  /* lookups are exact on fingerprints: random ones and neighbours of stored ones */
  int p = info.q + info.r;
  std::vector<uint64_t> probe;
  for (int t = 0; t < 200; ++t) {
    uint64_t fp = rng.next() >> (64 - p);
    if (!want.empty() && t % 2) {
      uint64_t w = want[rng.below(want.size())];
      switch (t % 6) {
        case 1: fp = w + 1; break;
        case 3: fp = w - 1; break;
        default: fp = w ^ ((uint64_t)1 << info.r); break; /* same remainder, next quotient */
      }
      if (p < 64) fp &= ((uint64_t)1 << p) - 1;
    }
    probe.push_back(fp);
  }
  found = amqt_qf_lookup_fps(f, probe.data(), probe.size());
  CHECK_EQ(found.size(), probe.size());
  for (size_t t = 0; t < probe.size(); ++t) {
    bool in = model.count(probe[t]) > 0;
    CHECK_MSG(found[t] == (int)in, "%s: lookup(%llx) = %d, model %d", what, (unsigned long long)probe[t], found[t],
              (int)in);
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
    if (mode == GEN_UNIFORM) return amqt_fingerprint_of(rng.next(), seed, q, r);
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

/* One random interleaving of build / insert / delete / merge on one shape:
   builds, batch inserts and merges by a random build method (the filter
   reopened with it: serialized, deserialized with that method), batch
   inserts by a random path (AUTO, IN_PLACE, REBUILD), single inserts and
   deletes as point operations. */
static void qf_random_run(int kind, int packed, int q, int r, int mode, int steps, test_rng &rng) {
  char what[160];
  qf_model model;
  uint64_t seed = rng.next();
  qf_gen gen = {mode, q, r, seed, rng.below((uint64_t)1 << q)};
  gamq_qf *f = qf_make(kind, q, r, seed, packed);
  gamq_scan_method fm = GAMQ_SCAN_AUTO; /* f's build method */
  CHECK(f);
  auto with_method = [&](gamq_scan_method m) {
    if (m == fm) return true;
    gamq_qf *g = amqt_qf_reopen(f, m);
    if (g == NULL) return false;
    gamq_qf_destroy(f);
    f = g, fm = m;
    return true;
  };
  uint64_t cap = amqt_qf_info(f).nslots;
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
      CHECK(with_method((gamq_scan_method)rng.below(5)));
      gamq_status res = amqt_qf_build_fps(f, batch.data(), batch.size());
      CHECK_MSG(res == (qf_fits(m2, r, cap) ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: build -> %d", what, (int)res);
      if (res == GAMQ_SUCCESS) model.swap(m2);
      refused = res == GAMQ_ERROR_FULL;
    } else if (op == 1 || op == 2) { /* batch insert (op 1) or one insert (op 2): new and repeated */
      uint64_t n = op == 2 ? 1 : rng.below(cap / 4 + 3);
      for (uint64_t i = 0; i < n; ++i)
        batch.push_back(!present.empty() && rng.below(3) == 0 ? present[rng.below(present.size())] : gen.next(rng));
      qf_model m2 = model;
      m2.insert(batch.begin(), batch.end());
      bool fits = qf_fits(m2, r, cap);
      gamq_status res;
      if (op == 2) {
        amqt_qf_force_path(f, AMQT_PATH_IN_PLACE); /* the point insert */
        res = qf_insert1(f, batch[0]);
      } else {
        const int path = (int)rng.below(3); /* AUTO, IN_PLACE, REBUILD */
        CHECK(with_method((gamq_scan_method)rng.below(5)));
        amqt_qf_force_path(f, path);
        res = amqt_qf_insert_fps(f, batch.data(), batch.size());
      }
      amqt_qf_force_path(f, AMQT_PATH_AUTO);
      CHECK_MSG(res == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: insert of %zu -> %d", what, batch.size(),
                (int)res);
      if (res == GAMQ_SUCCESS) model.swap(m2);
      refused = res == GAMQ_ERROR_FULL;
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
      uint64_t deleted = ~(uint64_t)0;
      CHECK(amqt_qf_delete_fps(f, batch.data(), batch.size(), &deleted) == GAMQ_SUCCESS);
      CHECK_MSG(deleted == expect, "%s: deleted %llu, expected %llu (one: found or not)", what,
                (unsigned long long)deleted, (unsigned long long)expect);
      model.swap(m2);
    } else { /* merge with another filter of the same shape, into f or into a third */
      uint64_t n = rng.below(cap / 2 + 2);
      for (uint64_t i = 0; i < n; ++i) batch.push_back(gen.next(rng));
      std::sort(batch.begin(), batch.end());
      qf_model m2(batch.begin(), batch.end());
      gamq_qf *g = qf_make(kind, q, r, seed, packed);
      CHECK(g);
      if (amqt_qf_build_fps(g, batch.data(), batch.size()) != GAMQ_SUCCESS) {
        gamq_qf_destroy(g); /* too many for one filter: skip */
        continue;
      }
      m2.insert(model.begin(), model.end());
      bool fits = qf_fits(m2, r, cap);
      gamq_status res;
      if (rng.below(2)) {
        bool f_first = rng.below(2) != 0; /* into f itself, either operand order */
        CHECK(with_method(GAMQ_SCAN_SEGMENTED_LAYOUTS));
        res = gamq_qf_merge_sync(f, f_first ? f : g, f_first ? g : f, NULL);
      } else {
        gamq_qf *h = qf_make(kind, q, r, seed, packed, GAMQ_SCAN_PARALLEL_MERGING);
        CHECK(h);
        res = gamq_qf_merge_sync(h, g, f, NULL);
        if (res == GAMQ_SUCCESS) std::swap(f, h), fm = GAMQ_SCAN_PARALLEL_MERGING;
        gamq_qf_destroy(h);
      }
      gamq_qf_destroy(g);
      CHECK_MSG(res == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: merge -> %d", what, (int)res);
      if (res == GAMQ_SUCCESS) model.swap(m2);
      refused = res == GAMQ_ERROR_FULL;
    }
    CHECK_OK_SO_FAR();
    if (refused) CHECK_MSG(qf_bytes(f) == before, "%s: FULL changed the filter", what);
    qf_check(f, model, rng, what);
    if (g_test.failed) break;
  }
  gamq_qf_destroy(f);
}

TEST(qf_host, sqf_random_interleavings) {
  test_rng rng = test_rng_for("qf_sqf_random");
  const int qs[] = {1, 2, 4, 7, 12}, rs[] = {5, 13, 21, 29};
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 4; ++b)
      for (int mode = 0; mode < GEN_MODES; ++mode) {
        qf_random_run(GAMQ_QF_SQF, 0, qs[a], rs[b], mode, qs[a] >= 12 ? 25 : 60, rng);
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
          qf_random_run(GAMQ_QF_RSQF, packed, qs[a], rs[b], mode, qs[a] >= 12 ? 15 : 40, rng);
          CHECK_OK_SO_FAR();
        }
}

/* A filter merged with itself (out, a and b the same) doubles every fingerprint. */
TEST(qf_host, merge_with_itself_doubles) {
  test_rng rng = test_rng_for("qf_merge_self");
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    gamq_qf *f = qf_make(k ? GAMQ_QF_RSQF : GAMQ_QF_SQF, 10, 13, 7, k == 2);
    CHECK(f);
    std::vector<uint64_t> keys, fp;
    for (int i = 0; i < 300; ++i) {
      uint64_t x = 0;
      keys.push_back(rng.next());
      CHECK(gamq_qf_fingerprint(f, keys.back(), &x) == GAMQ_SUCCESS);
      fp.push_back(x);
    }
    CHECK(gamq_qf_build_u64(f, keys.data(), keys.size()) == GAMQ_SUCCESS);
    CHECK(gamq_qf_merge_sync(f, f, f, NULL) == GAMQ_SUCCESS);
    qf_model m(fp.begin(), fp.end());
    m.insert(fp.begin(), fp.end());
    qf_check(f, m, rng, "merge with itself");
    gamq_qf_destroy(f);
    CHECK_OK_SO_FAR();
  }
}

/* bytes of an ALIGNED RSQF block, from the layout of a shape */
static size_t qf_block_bytes(int r) {
  uint64_t ns = 0;
  size_t bytes = 0;
  if (!amqt_qf_layout(GAMQ_QF_RSQF, 1, r, 0, &ns, &bytes)) return 0;
  return (size_t)(bytes / (ns / 64));
}
/* nslots as section 6 gives it: round_up(2^q + 10 isqrt(2^q), 64) */
static uint64_t qf_nslots(int q) {
  const uint64_t home = (uint64_t)1 << q;
  uint64_t s = 0;
  for (uint64_t bit = (uint64_t)1 << 31; bit; bit >>= 1)
    if ((s + bit) * (s + bit) <= home) s += bit;
  return (home + 10 * s + 63) / 64 * 64;
}

/* ---- hashing and fingerprints ---- */
TEST(qf_host, hash_and_fingerprints) {
  test_rng rng = test_rng_for("qf_hash");
  /* documented constants: splitmix64's finaliser of (key ^ seed) + golden gamma */
  uint64_t z = (uint64_t)0 + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  CHECK(amqt_hash64(0, 0) == (z ^ (z >> 31)));
  CHECK(amqt_hash64(5, 0) != amqt_hash64(5, 1));
  CHECK(amqt_hash64(5, 9) == amqt_hash64(5 ^ 9, 0)); /* the seed is xored into the key */
  /* 32-bit keys are zero-extended: the same fingerprints as the u64 keys */
  gamq_qf *f = qf_make(GAMQ_QF_RSQF, 6, 7, 1234), *g = qf_make(GAMQ_QF_RSQF, 6, 7, 1234);
  CHECK(f && g);
  uint32_t k32[3] = {0, 1, 0xffffffffu};
  uint64_t k64[3] = {0, 1, 0xffffffffull};
  CHECK(gamq_qf_build_u32(f, k32, 3) == GAMQ_SUCCESS && gamq_qf_build_u64(g, k64, 3) == GAMQ_SUCCESS);
  std::vector<uint64_t> f32 = amqt_qf_extract(f), f64 = amqt_qf_extract(g);
  CHECK(f32.size() == 3 && f64.size() == 3);
  CHECK_ARRAYS(f64.data(), f32.data(), 3, "u32 keys");
  CHECK(qf_bytes(f) == qf_bytes(g));
  for (int i = 0; i < 3; ++i) CHECK(amqt_fingerprint_of(k32[i], 1234, 6, 7) == amqt_fingerprint_of(k64[i], 1234, 6, 7));
  gamq_qf_destroy(f);
  gamq_qf_destroy(g);
  /* each output bit is set about half the time */
  int ones[64] = {0};
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    uint64_t h = amqt_hash64((uint64_t)i, 42); /* consecutive keys: the hard case */
    for (int b = 0; b < 64; ++b) ones[b] += (int)((h >> b) & 1);
  }
  for (int b = 0; b < 64; ++b) CHECK_MSG(ones[b] > n / 2 - 1500 && ones[b] < n / 2 + 1500, "bit %d set %d times", b, ones[b]);
  /* split: the top q + r bits, quotient high; q + r = 64 keeps the whole hash */
  for (int t = 0; t < 1000; ++t) {
    uint64_t key = rng.next(), seed = rng.next(), h = amqt_hash64(key, seed);
    CHECK(amqt_fingerprint_of(key, seed, 32, 32) == h);
    CHECK(amqt_fingerprint_of(key, seed, 23, 5) == h >> 36);
    CHECK(amqt_fingerprint_of(key, seed, 1, 1) == h >> 62);
    CHECK(amqt_unhash64(h, seed) == key); /* a bijection: the tests' keys for chosen fingerprints */
    const uint64_t fp = h >> 36;
    CHECK(amqt_fingerprint_of(amqt_key_of(fp, seed, 23, 5), seed, 23, 5) == fp);
  }
  /* layouts at q + r = 64 and q = 32 (too big to allocate here) */
  uint64_t ns = 0;
  size_t bytes = 0;
  CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 32, 32, 0, &ns, &bytes));
  CHECK(ns == (((uint64_t)1 << 32) + 655360));
  if (sizeof(size_t) == 8) CHECK(bytes == (size_t)(ns / 64 * 320));
  CHECK(amqt_qf_layout(GAMQ_QF_SQF, 32, 29, 0, &ns, &bytes));
  if (sizeof(size_t) == 8) CHECK(bytes == (size_t)(ns * 4));
  CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 20, 5, 0, NULL, &bytes) && bytes % 64 == 0);
  CHECK(qf_block_bytes(5) == 64 && qf_block_bytes(13) == 128 && qf_block_bytes(6) == 128);
  CHECK(qf_block_bytes(21) == 192 && qf_block_bytes(29) == 256 && qf_block_bytes(32) == 320);
  CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 1, 5, 0, &ns, NULL) && ns == 64);
  CHECK(amqt_qf_layout(GAMQ_QF_SQF, 8, 5, 0, &ns, NULL) && ns == 448);
  /* and a filter made through the API reports them */
  f = qf_make(GAMQ_QF_SQF, 8, 13, 0);
  CHECK(f && amqt_qf_info(f).nslots == 448 && amqt_qf_info(f).bytes == 448 * 2);
  gamq_qf_destroy(f);
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
      CHECK(amqt_qf_layout(GAMQ_QF_RSQF, qs[a], r, 1, &ns, &bytes));
      CHECK(amqt_qf_layout(GAMQ_QF_RSQF, qs[a], r, 0, &ns2, &aligned));
      CHECK(ns == ns2 && ns == qf_nslots(qs[a]));
      const uint64_t nb = ns / 64, want = (nb * (uint64_t)(17 + 8 * r) + 7) / 8 * 8;
      if (sizeof(size_t) == 8 || want <= (uint64_t)(size_t)-1)
        CHECK_MSG(bytes == (size_t)want, "q=%d r=%d: %zu bytes, want %llu", qs[a], r, bytes, (unsigned long long)want);
      CHECK(bytes % 8 == 0 && bytes <= aligned);
      /* blocks of 16 + 8r bytes (PACKED, above), round_up(24 + 8r, 64) (ALIGNED) */
      const uint64_t want_aligned = nb * (uint64_t)((24 + 8 * r + 63) / 64 * 64);
      if (sizeof(size_t) == 8 || want_aligned <= (uint64_t)(size_t)-1) CHECK(aligned == (size_t)want_aligned);
    }
  /* the Table I figures: bytes a slot / 0.95 */
  const int rs[3] = {5, 13, 21};
  const double per_item[3] = {0.9375, 1.990, 3.043};
  for (int i = 0; i < 3; ++i) {
    uint64_t ns = 0;
    size_t bytes = 0;
    CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 20, rs[i], 1, &ns, &bytes));
    const double got = (double)bytes / (double)ns / 0.95;
    printf("    rsqf packed r=%d: %.4f bytes an item at 95%% fill (aligned: %.4f)\n", rs[i], got,
           (double)(ns / 64 * qf_block_bytes(rs[i])) / (double)ns / 0.95);
    CHECK_MSG(fabs(got - per_item[i]) < 5e-4, "r=%d: %.5f bytes an item, want %.4f", rs[i], got, per_item[i]);
  }
  /* and the filters made so: that size, all zero; SQF has no PACKED layout */
  for (int r = 1; r <= 32; r += 5) {
    gamq_qf *f = qf_make(GAMQ_QF_RSQF, 7, r, 1, 1);
    CHECK(f);
    const gamq_qf_info info = amqt_qf_info(f);
    CHECK(info.layout == GAMQ_QF_LAYOUT_PACKED && info.bytes == (size_t)((info.nslots / 64 * (uint64_t)(17 + 8 * r) + 7) / 8 * 8));
    CHECK(qf_all_zero(qf_bytes(f)));
    gamq_qf_destroy(f);
  }
  for (int r = 5; r <= 29; r += 8) {
    gamq_qf_desc d;
    memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_HOST, d.seed = 1, d.layout = GAMQ_QF_LAYOUT_PACKED;
    gamq_qf *f = (gamq_qf *)0x1;
    CHECK(!amqt_qf_layout(GAMQ_QF_SQF, 8, r, 1, NULL, NULL));
    CHECK(gamq_qf_create(&d, GAMQ_QF_SQF, 8, r, &f) == GAMQ_ERROR_INVALID_ARGUMENT && f == (gamq_qf *)0x1);
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
        uint64_t seed = rng.next();
        gamq_qf *al = qf_make(GAMQ_QF_RSQF, q, r, seed, 0, (gamq_scan_method)rng.below(5));
        gamq_qf *pk = qf_make(GAMQ_QF_RSQF, q, r, seed, 1, (gamq_scan_method)rng.below(5));
        CHECK(al && pk);
        const uint64_t nslots = amqt_qf_info(al).nslots;
        qf_gen gen = {mode, q, r, seed, a == 3 ? 0 : rng.below((uint64_t)1 << q)};
        std::vector<uint64_t> fp;
        uint64_t n = a == 3 ? nslots / 2 : rng.below(nslots - (mode == GEN_ONE_QUOTIENT ? gen.one_q : 0) + 1);
        for (uint64_t i = 0; i < n; ++i) fp.push_back(gen.next(rng));
        std::sort(fp.begin(), fp.end());
        gamq_status ra = amqt_qf_build_fps(al, fp.data(), fp.size());
        gamq_status rp = amqt_qf_build_fps(pk, fp.data(), fp.size());
        CHECK(ra == rp);
        const std::vector<uint8_t> ab_bytes = qf_bytes(al), pk_bytes = qf_bytes(pk);
        const uint64_t nb = nslots / 64, ab = qf_block_bytes(r), pb = 16 + 8 * (uint64_t)r;
        bool same = ab_bytes.size() == nb * ab;
        for (uint64_t k = 0; k < nb && same; ++k) {
          const uint8_t *x = ab_bytes.data() + k * ab, *y = pk_bytes.data() + k * pb;
          same = memcmp(x, y, 16) == 0 && memcmp(x + 24, y + 16, 8 * (size_t)r) == 0 && x[16] == pk_bytes[nb * pb + k];
          for (uint64_t i = 17; i < 24; ++i) same = same && x[i] == 0;
          for (uint64_t i = 24 + 8 * (uint64_t)r; i < ab; ++i) same = same && x[i] == 0;
          saturated += x[16] == 255;
        }
        for (uint64_t i = nb * pb + nb; i < pk_bytes.size(); ++i) same = same && pk_bytes[i] == 0; /* the tail */
        CHECK_MSG(same, "q=%d r=%d gen=%d n=%llu: PACKED bytes are not the ALIGNED fields", q, r, mode,
                  (unsigned long long)n);
        if (ra == GAMQ_SUCCESS) {
          qf_model m(fp.begin(), fp.end());
          qf_check(pk, m, rng, "packed build");
        }
        gamq_qf_destroy(al);
        gamq_qf_destroy(pk);
        CHECK_OK_SO_FAR();
      }
  CHECK(saturated > 0); /* the one-quotient multisets saturate offsets */
}

/* ---- multiset semantics on keys ---- */
TEST(qf_host, duplicates_and_empty_batches) {
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    gamq_qf *f = qf_make(k ? GAMQ_QF_RSQF : GAMQ_QF_SQF, 8, 13, 99, k == 2);
    CHECK(f);
    uint64_t key = 123456789, two[2] = {key, key}, deleted = 7;
    uint8_t found = 9;
    CHECK(gamq_qf_insert_u64(f, NULL, 0) == GAMQ_SUCCESS);
    CHECK(gamq_qf_build_u64(f, NULL, 0) == GAMQ_SUCCESS && amqt_qf_count(f) == 0);
    CHECK(gamq_qf_delete_u64(f, NULL, 0, &deleted) == GAMQ_SUCCESS && deleted == 0);
    amqt_qf_force_path(f, AMQT_PATH_IN_PLACE);
    CHECK(gamq_qf_insert_u64(f, two, 2) == GAMQ_SUCCESS);
    CHECK(amqt_qf_last_path(f) == AMQT_PATH_IN_PLACE);
    CHECK(amqt_qf_count(f) == 2 && gamq_qf_lookup_u64(f, &key, 1, &found) == GAMQ_SUCCESS && found == 1);
    CHECK(gamq_qf_delete_u64(f, &key, 1, &deleted) == GAMQ_SUCCESS && deleted == 1); /* twice in, once out: still there */
    CHECK(gamq_qf_lookup_u64(f, &key, 1, &found) == GAMQ_SUCCESS && found == 1 && amqt_qf_count(f) == 1);
    CHECK(gamq_qf_delete_u64(f, &key, 1, &deleted) == GAMQ_SUCCESS && deleted == 1);
    CHECK(gamq_qf_lookup_u64(f, &key, 1, &found) == GAMQ_SUCCESS && found == 0 && amqt_qf_count(f) == 0);
    CHECK(gamq_qf_delete_u64(f, &key, 1, &deleted) == GAMQ_SUCCESS && deleted == 0); /* not found */
    CHECK(qf_all_zero(qf_bytes(f))); /* back to empty, byte for byte */
    gamq_qf_destroy(f);
  }
}

/* All fingerprints in one quotient x: exactly nslots - x fit, the next is
   FULL and changes nothing; RSQF offsets saturate (255) on the way. */
TEST(qf_host, one_quotient_until_full) {
  test_rng rng = test_rng_for("qf_one_quotient");
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    int r = k ? 5 : 13;
    gamq_qf *f = qf_make(k ? GAMQ_QF_RSQF : GAMQ_QF_SQF, 8, r, 5, k == 2);
    CHECK(f);
    const gamq_qf_info info = amqt_qf_info(f);
    const uint64_t x = k ? 3 : 200, room = info.nslots - x;
    qf_model m;
    amqt_qf_force_path(f, AMQT_PATH_IN_PLACE); /* point inserts */
    for (uint64_t i = 0; i < room; ++i) {
      uint64_t fp = (x << r) | (rng.next() & ((1u << r) - 1));
      CHECK(qf_insert1(f, fp) == GAMQ_SUCCESS);
      m.insert(fp);
    }
    std::vector<uint8_t> before = qf_bytes(f);
    CHECK(qf_insert1(f, x << r) == GAMQ_ERROR_FULL);
    amqt_qf_force_path(f, AMQT_PATH_REBUILD);
    CHECK(qf_insert1(f, x << r) == GAMQ_ERROR_FULL && amqt_qf_last_path(f) == AMQT_PATH_REBUILD);
    amqt_qf_force_path(f, AMQT_PATH_IN_PLACE);
    CHECK(qf_insert1(f, x << r) == GAMQ_ERROR_FULL && amqt_qf_last_path(f) == AMQT_PATH_IN_PLACE);
    CHECK(qf_bytes(f) == before);
    if (k)
      CHECK(amqt_rsqf_offset_byte(before.data(), r, k == 2, info.nslots, 1) == 255 &&
            amqt_rsqf_true_offset(f, 1) == room + x - 64);
    qf_check(f, m, rng, "one quotient, full");
    CHECK_OK_SO_FAR();
    /* a home slot before the run is still free */
    if (x > 0) CHECK(qf_insert1(f, 0) == GAMQ_SUCCESS && qf_delete1(f, 0) == 1);
    /* empty it again in a scrambled order, checking on the way */
    std::vector<uint64_t> all(m.begin(), m.end());
    for (size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[rng.below(i)]);
    for (size_t i = 0; i < all.size(); ++i) {
      CHECK(qf_delete1(f, all[i]) == 1);
      m.erase(m.find(all[i]));
      if (i % 61 == 0) qf_check(f, m, rng, "one quotient, emptying");
      CHECK_OK_SO_FAR();
    }
    CHECK(qf_all_zero(qf_bytes(f)));
    gamq_qf_destroy(f);
  }
}

/* Every build method lays out the same bytes (a 95%-full filter), and so do
   the builds by inserts and point inserts in random order. */
TEST(qf_host, build_methods_agree) {
  test_rng rng = test_rng_for("qf_build_methods");
  for (int k = 0; k < 3; ++k) { /* SQF, RSQF, RSQF PACKED */
    const int kind = k ? GAMQ_QF_RSQF : GAMQ_QF_SQF;
    gamq_qf *f = qf_make(kind, 12, 5, 11, k == 2);
    CHECK(f);
    std::vector<uint64_t> fp;
    for (int i = 0; i < 3891; ++i) fp.push_back(amqt_fingerprint_of(rng.next(), 11, 12, 5));
    std::sort(fp.begin(), fp.end());
    CHECK(amqt_qf_build_fps(f, fp.data(), fp.size()) == GAMQ_SUCCESS);
    const std::vector<uint8_t> want = qf_bytes(f);
    for (int m = 1; m <= 4; ++m) {
      gamq_qf *g = qf_make(kind, 12, 5, 11, k == 2, (gamq_scan_method)m);
      CHECK(g && amqt_qf_build_fps(g, fp.data(), fp.size()) == GAMQ_SUCCESS);
      CHECK_MSG(qf_bytes(g) == want, "%s: method %d differs", qf_shape_name(f), m);
      gamq_qf_destroy(g);
    }
    { /* the paper's fourth method: inserts into an empty filter */
      gamq_qf *g = amqt_qf_make(GAMQ_BACKEND_HOST, kind, 12, 5, 11, k == 2, GAMQ_SCAN_AUTO, 1);
      CHECK(g && amqt_qf_build_fps(g, fp.data(), fp.size()) == GAMQ_SUCCESS);
      CHECK(amqt_qf_last_path(g) == AMQT_PATH_IN_PLACE && qf_bytes(g) == want);
      gamq_qf_destroy(g);
    }
    /* and one by one, in random order */
    std::vector<uint64_t> shuffled = fp;
    for (size_t i = shuffled.size(); i > 1; --i) std::swap(shuffled[i - 1], shuffled[rng.below(i)]);
    gamq_qf *g = qf_make(kind, 12, 5, 11, k == 2);
    CHECK(g && gamq_qf_build_u64(g, NULL, 0) == GAMQ_SUCCESS);
    amqt_qf_force_path(g, AMQT_PATH_IN_PLACE);
    for (size_t i = 0; i < shuffled.size(); ++i) CHECK(qf_insert1(g, shuffled[i]) == GAMQ_SUCCESS);
    CHECK(qf_bytes(g) == want);
    gamq_qf_destroy(f);
    gamq_qf_destroy(g);
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
static void qf_fp_rate(int kind, int q, int r, double alpha, uint64_t queries, test_rng &rng, int packed = 0) {
  gamq_qf *f = qf_make(kind, q, r, rng.next(), packed);
  CHECK(f);
  uint64_t n = (uint64_t)(alpha * (double)((uint64_t)1 << q));
  std::vector<uint64_t> keys(n);
  for (uint64_t i = 0; i < n; ++i) keys[i] = rng.next() & ~(uint64_t)1; /* present keys even, absent odd */
  CHECK(gamq_qf_insert_u64(f, keys.data(), n) == GAMQ_SUCCESS);
  std::vector<uint8_t> found(n + 1, 0);
  CHECK(gamq_qf_lookup_u64(f, keys.data(), n, found.data()) == GAMQ_SUCCESS);
  for (uint64_t i = 0; i < n; ++i) CHECK(found[i] == 1); /* no false negatives */
  uint64_t hits = 0;
  const size_t chunk = (size_t)1 << 20;
  std::vector<uint64_t> probe(chunk);
  found.assign(chunk, 0);
  for (uint64_t done = 0; done < queries;) {
    const size_t m = (size_t)std::min<uint64_t>(chunk, queries - done);
    for (size_t i = 0; i < m; ++i) probe[i] = rng.next() | 1;
    CHECK(gamq_qf_lookup_u64(f, probe.data(), m, found.data()) == GAMQ_SUCCESS);
    for (size_t i = 0; i < m; ++i) hits += found[i];
    done += m;
  }
  double p = (double)(q + r), eps = -expm1((double)n * log1p(-pow(2.0, -p)));
  double measured = (double)hits / (double)queries, ratio = measured / eps;
  printf("    %s q=%d r=%d alpha=%.2f: fp rate %.3e, theory %.3e, ratio %.3f (%llu queries)\n", qf_shape_name(f), q, r,
         alpha, measured, eps, ratio, (unsigned long long)queries);
  gamq_qf_destroy(f);
  if ((double)queries * eps < 1500) { /* too rare for the band: within 7 sigma of the mean, a handful allowed */
    const double mean = (double)queries * eps;
    CHECK_MSG((double)hits <= mean + 7 * sqrt(mean) + 5, "%llu hits, expected %.1f", (unsigned long long)hits, mean);
    return;
  }
  CHECK_MSG(ratio <= 1.2 && ratio >= 1 / 1.2, "fp rate %g vs theory %g", measured, eps);
}

TEST(qf_host, false_positive_rates) {
  test_rng rng = test_rng_for("qf_fp");
  qf_fp_rate(GAMQ_QF_SQF, 16, 5, 0.5, 1000000, rng);
  qf_fp_rate(GAMQ_QF_SQF, 16, 5, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ_QF_SQF, 14, 13, 0.9, 14000000, rng); /* N eps 1538 */
  qf_fp_rate(GAMQ_QF_SQF, 12, 29, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ_QF_RSQF, 16, 1, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ_QF_RSQF, 16, 3, 0.7, 1000000, rng);
  qf_fp_rate(GAMQ_QF_RSQF, 16, 5, 0.9, 1000000, rng);
  qf_fp_rate(GAMQ_QF_RSQF, 16, 8, 0.95, 1000000, rng);
  qf_fp_rate(GAMQ_QF_RSQF, 14, 13, 0.9, 14000000, rng); /* N eps 1538 */
  qf_fp_rate(GAMQ_QF_RSQF, 16, 5, 0.95, 1000000, rng, 1);
}

/* ---- bad arguments: a status, nothing touched ---- */
TEST(qf_host, bad_arguments) {
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  gamq_qf *const sentinel = (gamq_qf *)0x1, *out = sentinel;
  CHECK(gamq_qf_create(&d, GAMQ_QF_SQF, 8, 5, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_create(&d, GAMQ_QF_SQF, 0, 5, &out) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_create(&d, GAMQ_QF_SQF, 33, 5, &out) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_create(&d, GAMQ_QF_SQF, 8, 6, &out) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 8, 0, &out) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_create(&d, GAMQ_QF_RSQF, 8, 33, &out) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_create(&d, (gamq_qf_kind)7, 8, 5, &out) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(out == sentinel);
  CHECK(!amqt_qf_layout(GAMQ_QF_SQF, 8, 4, 0, NULL, NULL));
  uint64_t c = 0, k1 = 1, del = 0;
  double lf = 0;
  uint8_t fl = 0;
  CHECK(gamq_qf_lookup_u64(NULL, &k1, 1, &fl) == GAMQ_ERROR_INVALID_ARGUMENT && gamq_qf_count(NULL, &c) ==
        GAMQ_ERROR_INVALID_ARGUMENT && gamq_qf_load_factor(NULL, &lf) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_insert_u64(NULL, &k1, 1) == GAMQ_ERROR_INVALID_ARGUMENT &&
        gamq_qf_delete_u64(NULL, &k1, 1, &del) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_extract(NULL, NULL, 0, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_destroy(NULL) == GAMQ_SUCCESS);
  gamq_qf *f = qf_make(GAMQ_QF_SQF, 8, 5, 0), *g = qf_make(GAMQ_QF_RSQF, 8, 5, 0), *h = qf_make(GAMQ_QF_SQF, 8, 5, 1);
  CHECK(f && g && h);
  CHECK(qf_insert1(f, 40) == GAMQ_SUCCESS);
  std::vector<uint8_t> before = qf_bytes(f);
  /* what the key API cannot be given: no keys, too many keys */
  CHECK(gamq_qf_insert_u64(f, NULL, 1) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_delete_u64(f, NULL, 1, &del) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_insert_u64(f, &k1, GAMQ_QF_MAX_BATCH + 1) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_delete_u64(f, &k1, GAMQ_QF_MAX_BATCH + 1, &del) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_lookup_u64(f, &k1, GAMQ_QF_MAX_BATCH + 1, &fl) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_build_u64(f, NULL, 3) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_insert_u64(f, NULL, 2) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_delete_u64(f, NULL, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_extract(f, NULL, 1, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_merge_sync(f, f, g, NULL) == GAMQ_ERROR_INVALID_ARGUMENT); /* kinds differ */
  CHECK(gamq_qf_merge_sync(f, f, h, NULL) == GAMQ_ERROR_INVALID_ARGUMENT); /* seeds differ */
  CHECK(gamq_qf_merge_sync(NULL, f, f, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(qf_bytes(f) == before && amqt_qf_count(f) == 1);
  { /* keys in any order: the build sorts them (the unsorted fingerprints the reference refuses never reach it) */
    uint64_t fp[3] = {5, 3, 9}, sorted[3] = {3, 5, 9};
    gamq_qf *u = qf_make(GAMQ_QF_SQF, 8, 5, 0), *s = qf_make(GAMQ_QF_SQF, 8, 5, 0);
    CHECK(u && s && amqt_qf_build_fps(u, fp, 3) == GAMQ_SUCCESS && amqt_qf_build_fps(s, sorted, 3) == GAMQ_SUCCESS);
    CHECK(qf_bytes(u) == qf_bytes(s));
    gamq_qf_destroy(u);
    gamq_qf_destroy(s);
  }
  { /* layouts differ */
    gamq_qf *p = qf_make(GAMQ_QF_RSQF, 8, 5, 0, 1);
    CHECK(p);
    CHECK(qf_insert1(g, 40) == GAMQ_SUCCESS);
    std::vector<uint8_t> gb = qf_bytes(g), pb = qf_bytes(p);
    CHECK(gamq_qf_merge_sync(g, g, p, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_qf_merge_sync(p, g, g, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(gamq_qf_merge_sync(p, p, g, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
    CHECK(qf_bytes(g) == gb && qf_bytes(p) == pb && amqt_qf_count(g) == 1 && amqt_qf_count(p) == 0);
    CHECK(gamq_qf_destroy(p) == GAMQ_SUCCESS);
  }
  CHECK(gamq_qf_destroy(f) == GAMQ_SUCCESS);
  CHECK(gamq_qf_destroy(g) == GAMQ_SUCCESS);
  CHECK(gamq_qf_destroy(h) == GAMQ_SUCCESS);
}

/* ---- allocation failures: OUT_OF_MEMORY, the filter unchanged, nothing leaked ---- */
TEST(qf_host, allocation_failures) {
  test_rng rng = test_rng_for("qf_alloc");
  long long live0 = g_alloc_live;
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST, d.seed = 3;
  for (int which = 0; which < 2; ++which) { /* the handle, then the filter's bytes */
    gamq_qf *f = (gamq_qf *)0x1;
    g_alloc_fail_at = g_alloc_calls + which;
    gamq_status s = gamq_qf_create(&d, GAMQ_QF_RSQF, 10, 8, &f);
    g_alloc_fail_at = -1;
    CHECK(s == GAMQ_ERROR_OUT_OF_MEMORY && f == (gamq_qf *)0x1 && g_alloc_live == live0);
  }
  gamq_qf *f = qf_make(GAMQ_QF_RSQF, 10, 8, 3), *g = qf_make(GAMQ_QF_RSQF, 10, 8, 3);
  CHECK(f && g);
  std::vector<uint64_t> a, b;
  for (int i = 0; i < 300; ++i) a.push_back(amqt_fingerprint_of(rng.next(), 3, 10, 8));
  for (int i = 0; i < 200; ++i) b.push_back(amqt_fingerprint_of(rng.next(), 3, 10, 8));
  std::sort(a.begin(), a.end());
  const std::vector<uint64_t> ka = amqt_keys_of(f, a.data(), a.size()), kb = amqt_keys_of(f, b.data(), b.size());
  CHECK(gamq_qf_build_u64(f, ka.data(), ka.size()) == GAMQ_SUCCESS);
  amqt_qf_force_path(g, AMQT_PATH_IN_PLACE);
  CHECK(gamq_qf_insert_u64(g, kb.data(), kb.size()) == GAMQ_SUCCESS);
  const std::vector<uint8_t> fb = qf_bytes(f);
  /* builds by every method, a merge (PARALLEL_MERGING), a rebuild insert (SEQUENTIAL_SHIFTING) */
  const gamq_scan_method methods[6] = {GAMQ_SCAN_ASSOCIATIVE, GAMQ_SCAN_PARALLEL_MERGING, GAMQ_SCAN_SEQUENTIAL_SHIFTING,
                                       GAMQ_SCAN_SEGMENTED_LAYOUTS, GAMQ_SCAN_PARALLEL_MERGING,
                                       GAMQ_SCAN_SEQUENTIAL_SHIFTING};
  for (int c = 0; c < 6; ++c) {
    const int op = c < 4 ? 0 : c - 3;
    gamq_qf *t = amqt_qf_reopen(f, methods[c]);
    CHECK(t);
    if (op == 2) amqt_qf_force_path(t, AMQT_PATH_REBUILD);
    long long live1 = g_alloc_live;
    int failures = 0;
    for (long long k = 0;; ++k) {
      g_alloc_fail_at = g_alloc_calls + k;
      gamq_status res;
      if (op == 0) res = gamq_qf_build_u64(t, ka.data(), ka.size());
      else if (op == 1) res = gamq_qf_merge_sync(t, t, g, NULL);
      else res = gamq_qf_insert_u64(t, kb.data(), kb.size());
      g_alloc_fail_at = -1;
      CHECK_MSG(g_alloc_live == live1, "op %d, failing call %lld: %lld blocks leaked", op, k, g_alloc_live - live1);
      if (res == GAMQ_SUCCESS) break;
      CHECK_MSG(res == GAMQ_ERROR_OUT_OF_MEMORY, "op %d, failing call %lld: %d", op, k, (int)res);
      CHECK(qf_bytes(t) == fb && amqt_qf_count(t) == a.size());
      ++failures;
    }
    CHECK(failures >= 2);
    if (op == 2) CHECK(amqt_qf_last_path(t) == AMQT_PATH_REBUILD);
    gamq_qf_destroy(t);
  }
  gamq_qf_destroy(f);
  gamq_qf_destroy(g);
  CHECK(g_alloc_live == live0);
}
