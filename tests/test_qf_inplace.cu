/* test_qf_inplace.cu - in-place batch inserts and deletes of the quotient
   filters (amq/qf/kernels.cuh, IN-PLACE ROUNDS and IN-PLACE WINDOWS): SQF
   supercluster bidding (IV-B, IV-D of "Quotient Filters: Approximate
   Membership Queries on the GPU", Geil, Farach-Colton, Owens, IPDPS 2018),
   RSQF growing regions (V-B), window re-layout, builds by inserts.

   Host tests (TEST, run in CI), on HOST filters: the host simulation of the
   rounds (amqt_sim_rounds, tests/internal_amq.h: the device's group /
   region / point-operation functions run serially) with every winner or
   region working on a copy whose bytes outside its window are poisoned - a
   step that read or wrote outside its window (a race on the device) changes
   the result or trips the window check - driven like the device
   orchestration (cap, rebuild of the rest, FULL rolled back by deletes)
   through random interleavings, against the HOST backend's point
   operations and a fresh build of the model after every step; the windows
   the same way, and each window alone on its own copy; the walks they are
   built on against slot-at-a-time definitions; round counts at 70% / 90%
   fill; the HOST backend's forced paths and builds by inserts.

   GPU tests (GPU_TEST): CUDA against HOST byte for byte with the in-place
   path forced (and the rebuild path, and AUTO, and small round caps), the
   path taken checked; builds by inserts; a timing of 2^20 keys into a 70%
   full filter of 2^(max_log2 + 6) home slots (2^30 at --max-log2=24).
   RSQF shapes run in both layouts (ALIGNED, PACKED: the PACKED poison
   window is the region's blocks plus their bytes of the offset array).

   A private copy of the implementation with the counting allocator. */
#include "counting_alloc.h"
#define GAMQ_MALLOC(sz) counting_malloc(sz)
#define GAMQ_FREE(p) counting_free(p)
#define GAMQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUAMQ_STATIC
#define GPUAMQ_IMPLEMENTATION
#include "../gpuamq.h"
#include "internal_amq.h"

#include "testing.h"

#include <chrono>
#include <set>
#include <string>
#include <vector>

typedef std::multiset<uint64_t> qi_model; /* fingerprints */

/* kind, r, layout (1: PACKED RSQF) */
static const int qi_shapes[][3] = {{GAMQ_QF_SQF, 5, 0},  {GAMQ_QF_SQF, 13, 0}, {GAMQ_QF_SQF, 21, 0},
                                   {GAMQ_QF_SQF, 29, 0}, {GAMQ_QF_RSQF, 1, 0}, {GAMQ_QF_RSQF, 5, 0},
                                   {GAMQ_QF_RSQF, 8, 0}, {GAMQ_QF_RSQF, 13, 0}, {GAMQ_QF_RSQF, 32, 0},
                                   {GAMQ_QF_RSQF, 1, 1}, {GAMQ_QF_RSQF, 5, 1}, {GAMQ_QF_RSQF, 8, 1},
                                   {GAMQ_QF_RSQF, 13, 1}, {GAMQ_QF_RSQF, 32, 1}};
enum { QI_SHAPES = sizeof qi_shapes / sizeof qi_shapes[0] };
static const char *qi_kind(int k, int packed = 0) { return k == GAMQ_QF_SQF ? "sqf" : packed ? "rsqf packed" : "rsqf"; }

/* A HOST filter (the simulations run on its bytes). */
static gamq_qf *qi_host(int kind, int q, int r, uint64_t seed, int packed = 0) {
  return amqt_qf_make(GAMQ_BACKEND_HOST, kind, q, r, seed, packed);
}
/* The bytes of a fresh HOST build of a multiset (empty vector: it does not fit). */
static std::vector<uint8_t> qi_reference(int kind, int q, int r, uint64_t seed, const qi_model &m, int packed = 0) {
  return amqt_qf_reference(kind, q, r, seed, packed, m);
}
static std::vector<uint8_t> qi_bytes(const gamq_qf *f) { return amqt_qf_bytes(f); }

#if defined(__CUDACC__)
/* The device orchestration (the CUDA driver's in-place batches) on the host
   simulation: rounds up to cap, the rest by a rebuild (the HOST backend's,
   forced), FULL rolled back by in-place deletes. Returns the status; the
   count moves with it; *rounds_out the rounds. */
static gamq_status qi_sim_insert(gamq_qf *f, const std::vector<uint64_t> &sorted, int cap, uint64_t poison,
                                 int *rounds_out) {
  const size_t n = sorted.size();
  const gamq_qf_info info = amqt_qf_info(f);
  amqt_rounds_out o;
  std::vector<uint64_t> rest(n + 1);
  *rounds_out = 0;
  if (n == 0) return GAMQ_SUCCESS;
  if (n > info.nslots - info.count) return GAMQ_ERROR_FULL;
  if (!amqt_sim_rounds(f, 0, sorted.data(), n, cap, poison, rest.data(), &o)) return GAMQ_ERROR_INVALID_ARGUMENT;
  *rounds_out = o.rounds;
  bool full = o.full != 0;
  size_t left = o.left;
  if (!full && left > 0) {
    amqt_qf_force_path(f, AMQT_PATH_REBUILD);
    gamq_status res = amqt_qf_insert_fps(f, rest.data(), left);
    amqt_qf_force_path(f, AMQT_PATH_AUTO);
    if (res == GAMQ_ERROR_FULL) full = true;
    else if (res != GAMQ_SUCCESS) return res;
    else left = 0;
  }
  if (full) { /* roll back: what went in is the batch minus the rest */
    qi_model in(sorted.begin(), sorted.end());
    for (size_t i = 0; i < left; ++i) in.erase(in.find(rest[i]));
    std::vector<uint64_t> back(in.begin(), in.end());
    if (!amqt_sim_rounds(f, 1, back.data(), back.size(), 0x7fffffff, poison, NULL, &o) || o.left != 0 ||
        o.changed != back.size())
      return GAMQ_ERROR_INVALID_ARGUMENT;
    return GAMQ_ERROR_FULL;
  }
  return GAMQ_SUCCESS;
}
static gamq_status qi_sim_delete(gamq_qf *f, const std::vector<uint64_t> &sorted, int cap, uint64_t poison,
                                 uint64_t *deleted, int *rounds_out) {
  const size_t n = sorted.size();
  amqt_rounds_out o;
  std::vector<uint64_t> rest(n + 1);
  *deleted = 0, *rounds_out = 0;
  if (n == 0) return GAMQ_SUCCESS;
  if (!amqt_sim_rounds(f, 1, sorted.data(), n, cap, poison, rest.data(), &o)) return GAMQ_ERROR_INVALID_ARGUMENT;
  *rounds_out = o.rounds;
  *deleted = o.changed;
  if (o.left > 0) { /* the rest: point deletes stand in for the rebuild's difference */
    uint64_t d2 = 0;
    if (amqt_qf_delete_fps(f, rest.data(), o.left, &d2) != GAMQ_SUCCESS) return GAMQ_ERROR_INVALID_ARGUMENT;
    *deleted += d2;
  }
  return GAMQ_SUCCESS;
}

/* A batch of fingerprints of the filter's shape, by mode. */
enum { QB_UNIFORM, QB_DUPLICATES, QB_PRESENT, QB_ONE_QUOTIENT, QB_TAIL, QB_MODES };
static std::vector<uint64_t> qi_batch(const gamq_qf *f, const qi_model &model, int mode, size_t n, test_rng &rng) {
  const gamq_qf_info info = amqt_qf_info(f);
  const uint64_t home = (uint64_t)1 << info.q, rmask = ((uint64_t)1 << info.r) - 1;
  const uint64_t one = rng.below(home);
  std::vector<uint64_t> pool, out;
  std::vector<uint64_t> stored(model.begin(), model.end());
  for (int i = 0; i < 5; ++i) pool.push_back((rng.below(home) << info.r) | (rng.next() & rmask));
  for (size_t i = 0; i < n; ++i) {
    uint64_t fp;
    switch (mode) {
      case QB_DUPLICATES: fp = pool[rng.below(pool.size())]; break;
      case QB_PRESENT: fp = stored.empty() ? pool[0] : stored[rng.below(stored.size())]; break;
      case QB_ONE_QUOTIENT: fp = (one << info.r) | (rng.next() & rmask); break;
      case QB_TAIL: fp = ((home - 1 - rng.below(home < 8 ? home : 8)) << info.r) | (rng.next() & rmask); break;
      default: fp = (rng.below(home) << info.r) | (rng.next() & rmask); break;
    }
    out.push_back(fp);
  }
  return out;
}

static bool qi_fits(const qi_model &m, int r, uint64_t nslots) {
  uint64_t next = 0;
  for (qi_model::const_iterator it = m.begin(); it != m.end(); ++it) {
    uint64_t q = *it >> r, slot = q > next ? q : next;
    if (slot >= nslots) return false;
    next = slot + 1;
  }
  return true;
}

/* ---------------------------------------------------------------------------
   host tests
   ------------------------------------------------------------------------- */

/* Random interleavings: simulation (poisoned windows) == point operations ==
   a fresh build of the model, every step. */
static void qi_sim_run(int kind, int packed, int q, int r, int steps, test_rng &rng, int *max_rounds_seen) {
  char what[200];
  const uint64_t seed = rng.next();
  gamq_qf *sim = qi_host(kind, q, r, seed, packed), *ref = qi_host(kind, q, r, seed, packed);
  CHECK(sim && ref);
  const uint64_t nslots = amqt_qf_info(sim).nslots;
  amqt_qf_force_path(ref, AMQT_PATH_IN_PLACE); /* the point operations */
  qi_model model;
  for (int step = 0; step < steps && !g_test.failed; ++step) {
    const bool del = rng.below(3) == 0;
    const int mode = (int)rng.below(QB_MODES);
    const size_t sizes[] = {0, 1, 31, 32, 33};
    const uint64_t count = amqt_qf_count(sim);
    size_t n = rng.below(3) == 0 ? sizes[rng.below(5)] : (size_t)rng.below(nslots / 4 + 2);
    if (!del && rng.below(6) == 0) n = (size_t)(nslots - count + rng.below(3)) - (nslots > count); /* to and past FULL */
    if (mode == QB_ONE_QUOTIENT && n > 300) n = 300;
    std::vector<uint64_t> batch = qi_batch(sim, model, mode, n, rng);
    std::sort(batch.begin(), batch.end());
    const int caps[] = {1, 2, 3, AMQT_QF_MAX_ROUNDS, 0x7fffffff};
    const int cap = caps[rng.below(5)];
    snprintf(what, sizeof what, "%s q=%d r=%d step %d %s n=%zu mode %d cap %d", qi_kind(kind, packed), q, r, step,
             del ? "delete" : "insert", n, mode, cap);
    std::vector<uint8_t> before = qi_bytes(sim);
    int rounds = 0;
    if (!del) {
      qi_model m2 = model;
      m2.insert(batch.begin(), batch.end());
      const bool fits = qi_fits(m2, r, nslots);
      gamq_status rs = qi_sim_insert(sim, batch, cap, rng.next() | 1, &rounds);
      gamq_status rr = amqt_qf_insert_fps(ref, batch.data(), batch.size());
      CHECK_MSG(rs == rr && rs == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: sim %d, reference %d, fits %d", what,
                (int)rs, (int)rr, (int)fits);
      if (rs == GAMQ_SUCCESS) model.swap(m2);
      else CHECK_MSG(qi_bytes(sim) == before, "%s: FULL changed the filter", what);
    } else {
      uint64_t ds = 0, dr = 0, expect = 0;
      for (size_t i = 0; i < n; ++i) {
        qi_model::iterator it = model.find(batch[i]);
        if (it != model.end()) model.erase(it), ++expect;
      }
      CHECK(qi_sim_delete(sim, batch, cap, rng.next() | 1, &ds, &rounds) == GAMQ_SUCCESS);
      CHECK(amqt_qf_delete_fps(ref, batch.data(), batch.size(), &dr) == GAMQ_SUCCESS);
      CHECK_MSG(ds == expect && dr == expect, "%s: deleted %llu / %llu, expected %llu", what, (unsigned long long)ds,
                (unsigned long long)dr, (unsigned long long)expect);
    }
    if (cap > rounds) *max_rounds_seen = std::max(*max_rounds_seen, rounds);
    CHECK_MSG(amqt_qf_count(sim) == model.size() && amqt_qf_count(ref) == model.size(), "%s: counts %llu %llu, model %zu",
              what, (unsigned long long)amqt_qf_count(sim), (unsigned long long)amqt_qf_count(ref), model.size());
    std::vector<uint8_t> want = qi_reference(kind, q, r, seed, model, packed);
    CHECK_MSG(!want.empty() && qi_bytes(sim) == want, "%s: simulated bytes differ from a fresh build", what);
    CHECK_MSG(qi_bytes(ref) == want, "%s: reference bytes differ from a fresh build", what);
  }
  gamq_qf_destroy(sim);
  gamq_qf_destroy(ref);
}

/* Fixed batches that need what the drawn ones usually but not surely
   exercise: into an empty filter (q = 9), 100 fingerprints of quotient 100
   (SQF: one supercluster, one winner a round; RSQF: a run across blocks,
   larger regions) and, for the windows, 40 more of quotient 110 (the window
   of quotient 100 reaches it: two groups linked). Each against a fresh
   build of the model, byte for byte. */
static std::vector<uint64_t> qi_fixed_batch(int r, int with_second, test_rng &rng) {
  std::vector<uint64_t> fps;
  const uint64_t rmask = ((uint64_t)1 << r) - 1;
  for (int i = 0; i < 100; ++i) fps.push_back(((uint64_t)100 << r) | (rng.next() & rmask));
  for (int i = 0; with_second && i < 40; ++i) fps.push_back(((uint64_t)110 << r) | (rng.next() & rmask));
  std::sort(fps.begin(), fps.end());
  return fps;
}
/* *rounds = the most rounds of the fixed batch's insert and delete. */
static void qi_fixed_rounds(int kind, int packed, int r, test_rng &rng, int *rounds) {
  const uint64_t seed = rng.next();
  int ri = 0, rd = 0;
  uint64_t deleted = 0;
  gamq_qf *f = qi_host(kind, 9, r, seed, packed);
  CHECK(f);
  std::vector<uint64_t> fps = qi_fixed_batch(r, 0, rng);
  CHECK(qi_sim_insert(f, fps, 0x7fffffff, rng.next() | 1, &ri) == GAMQ_SUCCESS);
  CHECK_MSG(qi_bytes(f) == qi_reference(kind, 9, r, seed, qi_model(fps.begin(), fps.end()), packed),
            "%s r=%d: the fixed batch's bytes differ from a fresh build", qi_kind(kind, packed), r);
  CHECK(qi_sim_delete(f, fps, 0x7fffffff, rng.next() | 1, &deleted, &rd) == GAMQ_SUCCESS && deleted == fps.size());
  CHECK_MSG(qi_bytes(f) == std::vector<uint8_t>(amqt_qf_info(f).bytes, 0), "%s r=%d: deleting the fixed batch left bytes",
            qi_kind(kind, packed), r);
  gamq_qf_destroy(f);
  *rounds = std::max(ri, rd);
}

TEST(qf_inplace_host, simulation_matches_reference) {
  test_rng rng = test_rng_for("qf_inplace_host.simulation_matches_reference");
  const long long live = g_alloc_live;
  for (int s = 0; s < QI_SHAPES && !g_test.failed; ++s) {
    const int qs[] = {1, 6, 9, 12};
    int max_rounds_seen = 0;
    for (int qi = 0; qi < 4 && !g_test.failed; ++qi)
      qi_sim_run(qi_shapes[s][0], qi_shapes[s][2], qs[qi], qi_shapes[s][1], qs[qi] < 9 ? 30 : 12, rng,
                 &max_rounds_seen);
    int fixed_rounds = 0;
    qi_fixed_rounds(qi_shapes[s][0], qi_shapes[s][2], qi_shapes[s][1], rng, &fixed_rounds);
    max_rounds_seen = std::max(max_rounds_seen, fixed_rounds);
    CHECK_MSG(max_rounds_seen >= 2, "%s r=%d: no batch needed two rounds (the rounds were not exercised)",
              qi_kind(qi_shapes[s][0], qi_shapes[s][2]), qi_shapes[s][1]);
  }
  CHECK_EQ(g_alloc_live, live);
}

/* The windows (IN-PLACE WINDOWS) with every window run on its own copy of
   the filter as the batch found it: the windows' changed bits must be
   disjoint and their union the whole change (no window reads what another
   writes). Returns the bytes that result, or an empty vector on a
   violation. */
static std::vector<uint8_t> qi_win_isolated(const gamq_qf *f0, int del, const std::vector<uint64_t> &fp,
                                            uint64_t *changed, std::string *why) {
  const size_t n = fp.size();
  const int r = amqt_qf_info(f0).r;
  std::vector<uint64_t> A(n + 1), T(n + 1), Z(n + 1);
  std::vector<uint8_t> link(n + 1, 0), orig = qi_bytes(f0), out = orig, mask(orig.size(), 0);
  *changed = 0;
  for (size_t i = 0; i < n; ++i) amqt_win_bounds(f0, del, fp[i] >> r, &A[i], &T[i]);
  for (unsigned flags = del ? 0 : 2; flags == 2;) { /* the chain passes */
    flags = 0;
    for (size_t i = 0; i < n; ++i) flags |= amqt_win_chain_one(f0, A.data(), T.data(), link.data(), n, i, Z.data());
    if (flags & 1) return *why = "FULL", std::vector<uint8_t>();
  }
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && A[i] == A[i - 1]) continue; /* not the head of its group */
    std::vector<uint8_t> copy = orig;
    if (!amqt_win_write_one(f0, copy.data(), del, fp.data(), A.data(), T.data(), link.data(), Z.data(), n, i, changed,
                            AMQT_WIN_ONE | AMQT_WIN_MANY))
      return *why = "a window did not fill", std::vector<uint8_t>();
    for (size_t b = 0; b < copy.size(); ++b) {
      const uint8_t d = copy[b] ^ orig[b];
      if (d & mask[b]) {
        char msg[160];
        snprintf(msg, sizeof msg, "windows overlap at byte %zu (window of item %zu, a=%llu)", b, i, (unsigned long long)A[i]);
        *why = msg;
        return std::vector<uint8_t>();
      }
      mask[b] |= d, out[b] ^= d;
    }
  }
  return out;
}

/* Random interleavings through the windows: shuffled serial windows ==
   isolated windows == a fresh build of the model, every step; FULL leaves
   the bytes as they were. */
static void qi_win_run(int kind, int q, int r, int packed, int steps, test_rng &rng, int *chained) {
  char what[200];
  const uint64_t seed = rng.next();
  gamq_qf *f = qi_host(kind, q, r, seed, packed);
  CHECK(f);
  const uint64_t nslots = amqt_qf_info(f).nslots;
  qi_model model;
  for (int step = 0; step < steps && !g_test.failed; ++step) {
    const bool del = rng.below(3) == 0;
    const int mode = (int)rng.below(QB_MODES);
    const size_t sizes[] = {0, 1, 31, 32, 33};
    const uint64_t count = amqt_qf_count(f);
    size_t n = rng.below(3) == 0 ? sizes[rng.below(5)] : (size_t)rng.below(nslots / 4 + 2);
    if (!del && rng.below(6) == 0) n = (size_t)(nslots - count + rng.below(3)) - (nslots > count);
    if (mode == QB_ONE_QUOTIENT && n > 300) n = 300;
    std::vector<uint64_t> batch = qi_batch(f, model, mode, n, rng);
    std::sort(batch.begin(), batch.end());
    snprintf(what, sizeof what, "%s q=%d r=%d step %d %s n=%zu mode %d fill %.2f", qi_kind(kind, packed), q, r, step,
             del ? "delete" : "insert", n, mode, (double)count / (double)nslots);
    const std::vector<uint8_t> before = qi_bytes(f);
    qi_model m2 = model;
    uint64_t expect = 0, changed = 0, iso_changed = 0;
    if (del) {
      for (size_t i = 0; i < n; ++i) {
        qi_model::iterator it = m2.find(batch[i]);
        if (it != m2.end()) m2.erase(it), ++expect;
      }
    } else {
      m2.insert(batch.begin(), batch.end());
      expect = n;
    }
    const bool fits = del || qi_fits(m2, r, nslots);
    std::string why;
    std::vector<uint8_t> iso = n > 0 && fits ? qi_win_isolated(f, del, batch, &iso_changed, &why) : before;
    int passes = 0;
    gamq_status res = amqt_sim_windows(f, del, batch.data(), n, rng.next() | 1, &changed, &passes);
    if (passes > 1) ++*chained;
    if (!fits) {
      CHECK_MSG(res == GAMQ_ERROR_FULL, "%s: result %d, expected FULL", what, (int)res);
      CHECK_MSG(qi_bytes(f) == before, "%s: FULL changed the filter", what);
      continue;
    }
    CHECK_MSG(res == GAMQ_SUCCESS, "%s: result %d", what, (int)res);
    CHECK_MSG(changed == expect, "%s: changed %llu, expected %llu", what, (unsigned long long)changed,
              (unsigned long long)expect);
    model.swap(m2);
    CHECK_MSG(amqt_qf_count(f) == model.size(), "%s: count %llu, model %zu", what, (unsigned long long)amqt_qf_count(f),
              model.size());
    std::vector<uint8_t> want = qi_reference(kind, q, r, seed, model, packed);
    CHECK_MSG(!want.empty() && qi_bytes(f) == want, "%s: bytes differ from a fresh build", what);
    CHECK_MSG(n == 0 || (iso == want && iso_changed == expect), "%s: isolated windows: %s", what,
              why.empty() ? "bytes differ from a fresh build" : why.c_str());
  }
  gamq_qf_destroy(f);
}

/* The fixed batch through the windows: ++*chained when two groups were linked. */
static void qi_fixed_chained(int kind, int packed, int r, test_rng &rng, int *chained) {
  const uint64_t seed = rng.next();
  uint64_t changed = 0;
  int passes = 0;
  gamq_qf *f = qi_host(kind, 9, r, seed, packed);
  CHECK(f);
  std::vector<uint64_t> fps = qi_fixed_batch(r, 1, rng);
  CHECK(amqt_sim_windows(f, 0, fps.data(), fps.size(), rng.next() | 1, &changed, &passes) == GAMQ_SUCCESS);
  CHECK(changed == fps.size() && amqt_qf_count(f) == fps.size());
  CHECK_MSG(qi_bytes(f) == qi_reference(kind, 9, r, seed, qi_model(fps.begin(), fps.end()), packed),
            "%s r=%d: the fixed batch's bytes differ from a fresh build", qi_kind(kind, packed), r);
  gamq_qf_destroy(f);
  if (passes > 1) ++*chained;
}

TEST(qf_inplace_host, windows_match_reference) {
  test_rng rng = test_rng_for("qf_inplace_host.windows_match_reference");
  const long long live = g_alloc_live;
  for (int s = 0; s < QI_SHAPES && !g_test.failed; ++s) {
    const int qs[] = {1, 6, 9, 12};
    int chained = 0;
    for (int qi = 0; qi < 4 && !g_test.failed; ++qi)
      qi_win_run(qi_shapes[s][0], qs[qi], qi_shapes[s][1], qi_shapes[s][2], qs[qi] < 9 ? 40 : 16, rng, &chained);
    qi_fixed_chained(qi_shapes[s][0], qi_shapes[s][2], qi_shapes[s][1], rng, &chained);
    CHECK_MSG(chained >= 1, "%s r=%d: no batch linked two groups (chains were not exercised)",
              qi_kind(qi_shapes[s][0], qi_shapes[s][2]), qi_shapes[s][1]);
  }
  CHECK_EQ(g_alloc_live, live);
}

/* Batches of one key (the RSQF's word-by-word windows, the write's one-key
   pass) around a run of ~700 copies of one quotient: shifts across many
   blocks, offsets that saturate at 255 (a delete there must take the
   slot-by-slot path: the true offset is not known), runs that end at a
   block's last slot, keys at the filter's first and last quotients. Every
   step against a fresh build of the model, byte for byte. */
TEST(qf_inplace_host, single_key_windows) {
  test_rng rng = test_rng_for("qf_inplace_host.single_key_windows");
  const long long live = g_alloc_live;
  const int q = 11, rs[] = {1, 5, 13, 32};
  for (int shape = 0; shape < 8 && !g_test.failed; ++shape) {
    const int r = rs[shape % 4], packed = shape / 4;
    const uint64_t seed = rng.next(), nslots = (uint64_t)1 << q, Q0 = 300 + rng.below(64);
    gamq_qf *f = qi_host(GAMQ_QF_RSQF, q, r, seed, packed);
    CHECK(f);
    qi_model model;
    const uint64_t rmask = ((uint64_t)1 << r) - 1;
    for (int i = 0; i < 700; ++i) model.insert((Q0 << r) | (rng.next() & rmask));
    for (int i = 0; i < 600; ++i) model.insert(rng.next() >> (64 - q - r));
    std::vector<uint64_t> fps(model.begin(), model.end());
    CHECK(amqt_qf_build_fps(f, fps.data(), fps.size()) == GAMQ_SUCCESS);
    int saturated = 0;
    {
      const std::vector<uint8_t> b = qi_bytes(f);
      const uint64_t ns = amqt_qf_info(f).nslots;
      for (uint64_t blk = 0; blk < nslots / 64; ++blk) saturated += amqt_rsqf_offset_byte(b.data(), r, packed, ns, blk) == 255;
    }
    CHECK_MSG(saturated > 0, "rsqf r=%d: no saturated offset (the case is not exercised)", r);
    for (int step = 0; step < 300 && !g_test.failed; ++step) {
      const bool del = rng.below(2) == 0 && !model.empty();
      uint64_t x, changed = 0, expect = 1;
      const int where = (int)rng.below(4);
      if (del && rng.below(4) != 0) { /* a present key, often from the long run */
        qi_model::iterator it = where < 2 ? model.lower_bound(Q0 << r) : model.begin();
        if (where >= 2) std::advance(it, (long)rng.below(model.size()));
        if (it == model.end()) it = model.begin();
        x = *it;
      } else {
        const uint64_t quot = where == 0 ? Q0 : where == 1 ? (rng.below(2) ? 0 : nslots - 1) : rng.below(nslots);
        x = (quot << r) | (rng.next() & rmask);
      }
      if (del) {
        qi_model::iterator it = model.find(x);
        if (it != model.end()) model.erase(it);
        else expect = 0;
      } else {
        if (model.size() + 1 > nslots - 64) continue; /* may not fit */
        model.insert(x);
      }
      int passes = 0;
      const gamq_status res = amqt_sim_windows(f, del, &x, 1, 0, &changed, &passes);
      CHECK_MSG(res == GAMQ_SUCCESS, "rsqf%s r=%d step %d: result %d", packed ? " packed" : "", r, step, (int)res);
      CHECK_MSG(changed == expect, "rsqf%s r=%d step %d %s: changed %llu, expected %llu", packed ? " packed" : "", r, step,
                del ? "delete" : "insert", (unsigned long long)changed, (unsigned long long)expect);
      CHECK_MSG(qi_bytes(f) == qi_reference(GAMQ_QF_RSQF, q, r, seed, model, packed),
                "rsqf%s r=%d step %d %s of quotient %llu: bytes differ from a fresh build", packed ? " packed" : "", r, step,
                del ? "delete" : "insert", (unsigned long long)(x >> r));
    }
    gamq_qf_destroy(f);
  }
  CHECK_EQ(g_alloc_live, live);
}

/* A wrong window is caught: a step given a window one slot / block short
   must trip the poison check or change the bytes (the check can fail). */
TEST(qf_inplace_host, poison_catches_outside_access) {
  test_rng rng = test_rng_for("qf_inplace_host.poison_catches_outside_access");
  for (int shape = 0; shape < 3 && !g_test.failed; ++shape) { /* SQF, RSQF, RSQF PACKED */
    const int kind = shape ? GAMQ_QF_RSQF : GAMQ_QF_SQF;
    gamq_qf *f = qi_host(kind, 10, 13, rng.next(), shape == 2);
    CHECK(f);
    const uint64_t nslots = amqt_qf_info(f).nslots;
    std::vector<uint64_t> fps(900);
    for (size_t i = 0; i < fps.size(); ++i) fps[i] = rng.next() >> (64 - 23);
    std::sort(fps.begin(), fps.end());
    CHECK(amqt_qf_build_fps(f, fps.data(), fps.size()) == GAMQ_SUCCESS);
    const std::vector<uint8_t> bytes = qi_bytes(f);
    /* an RSQF point insert run under a region that is too small must not go in */
    int outs = 0, oks = 0;
    for (int t = 0; t < 200; ++t) {
      const uint64_t fp = rng.next() >> (64 - 23), x = fp >> 13;
      if (kind == GAMQ_QF_RSQF) {
        std::vector<uint8_t> copy = bytes;
        const uint64_t b = x >> 6;
        int res = amqt_rsqf_insert_in(f, copy.data(), x, fp & 8191, b, b + 1);
        if (res == AMQT_STEP_OUT) {
          ++outs;
          CHECK_MSG(copy == bytes, "an OUT step changed the filter");
        } else {
          ++oks;
        }
      } else { /* the SQF groups: e the first empty slot at or after x, c its cluster's start */
        const uint64_t e = amqt_sqf_group(f, 0, x), c = amqt_sqf_group(f, 1, x);
        CHECK(e >= x && e < nslots && (amqt_sqf_slot(bytes.data(), 13, e) & 7u) == 0);
        for (uint64_t s = x; s < e; ++s) CHECK((amqt_sqf_slot(bytes.data(), 13, s) & 7u) != 0);
        if (!(c & AMQT_NO_RUN)) {
          const uint64_t vc = amqt_sqf_slot(bytes.data(), 13, c);
          CHECK(c <= x && !(vc & AMQT_SQF_SHIFTED) && (vc & 7u) != 0);
        }
        ++oks;
      }
    }
    if (kind == GAMQ_QF_RSQF) CHECK_MSG(outs > 0 && oks > 0, "single-block regions: %d out, %d in", outs, oks);
    gamq_qf_destroy(f);
  }
}

/* The block and group walks against their slot-at-a-time definitions, on
   every slot of random filters from sparse to full, with long runs (one
   quotient taking many copies: RSQF offsets past 64 and saturated at 255).
   A slot is used when it holds an item (the position scan of the stored
   fingerprints; a run is a stretch of items): RSQF the block test from its
   words == unused, the first unused slot at or after s and the stretch
   start; SQF next empty, cluster start. */
TEST(qf_inplace_host, block_and_group_walks) {
  test_rng rng = test_rng_for("qf_inplace_host.block_and_group_walks");
  int saturated = 0;
  for (int t = 0; t < 24 && !g_test.failed; ++t) {
    const int kind = t % 2 ? GAMQ_QF_RSQF : GAMQ_QF_SQF, packed = kind == GAMQ_QF_RSQF && t % 4 == 3;
    /* t = 3: a PACKED RSQF, q = 12 at fill 0.9, whose hot quotients surely saturate an offset */
    const int q = t == 3 ? 12 : 8 + (int)rng.below(5);
    const int r = kind == GAMQ_QF_SQF ? 5 + 8 * (int)rng.below(4) : 1 + (int)rng.below(32);
    gamq_qf *f = qi_host(kind, q, r, rng.next(), packed);
    CHECK(f);
    const uint64_t nslots = amqt_qf_info(f).nslots;
    const double fill = (t / 2) % 3 == 0 ? 0.3 : (t / 2) % 3 == 1 ? 0.9 : 1.0;
    std::vector<uint64_t> fps((size_t)(fill * (double)nslots * 0.97));
    const uint64_t hot = rng.below((uint64_t)1 << q);
    for (size_t i = 0; i < fps.size(); ++i) /* a quarter of them on one quotient near a random place */
      fps[i] = i % 4 == 0 ? ((hot + rng.below(4)) % ((uint64_t)1 << q)) << r | rng.below((uint64_t)1 << r)
                          : rng.next() >> (64 - q - r);
    std::sort(fps.begin(), fps.end());
    for (size_t i = 0, next = 0; i < fps.size(); ++i) { /* keep what fits: the first item whose slot is past the end, on */
      const size_t slot = std::max((size_t)(fps[i] >> r), next);
      if (slot >= nslots) fps.resize(i);
      next = slot + 1;
    }
    CHECK(amqt_qf_build_fps(f, fps.data(), fps.size()) == GAMQ_SUCCESS);
    char what[96];
    snprintf(what, sizeof what, "%s q=%d r=%d fill %.1f", qi_kind(kind, packed), q, r, fill);
    std::vector<uint8_t> used(nslots, 0);
    const std::vector<uint64_t> pos = amqt_positions(fps, r);
    for (size_t i = 0; i < pos.size(); ++i) used[pos[i]] = 1;
    const std::vector<uint8_t> bytes = qi_bytes(f);
    if (kind == GAMQ_QF_SQF) /* and the SQF's own empty slots are exactly the unused ones */
      for (uint64_t s = 0; s < nslots; ++s)
        CHECK_MSG(((amqt_sqf_slot(bytes.data(), r, s) & 7u) != 0) == (used[s] != 0), "%s: slot %llu", what,
                  (unsigned long long)s);
    if (kind == GAMQ_QF_RSQF)
      for (uint64_t b = 0; b < nslots / 64; ++b) {
        const uint64_t occ = amqt_rsqf_word(bytes.data(), r, packed, b, 0), ends = amqt_rsqf_word(bytes.data(), r, packed, b, 1);
        const uint64_t off = amqt_rsqf_offset_byte(bytes.data(), r, packed, nslots, b);
        saturated += off == 255;
        for (int i = 0; i < 64; ++i)
          CHECK_MSG(amqt_rsqf_unused_in(occ, ends, off, i) == !used[64 * b + i], "%s: block %llu slot %d: used %d", what,
                    (unsigned long long)b, i, used[64 * b + i]);
      }
    uint64_t next = nslots, start = 0;
    for (uint64_t s = nslots; s-- > 0 && !g_test.failed;) { /* next unused at or after s */
      if (!used[s]) next = s;
      CHECK_MSG(amqt_qf_next_unused(f, s) == next, "%s: next unused after %llu", what, (unsigned long long)s);
      if (kind == GAMQ_QF_SQF) CHECK_MSG(amqt_sqf_next_empty(f, s) == next, "%s: next empty", what);
    }
    for (uint64_t s = 0; s < nslots && !g_test.failed; ++s) { /* stretch start and SQF cluster start */
      if (s == 0 || !used[s - 1]) start = s;
      uint64_t a = 7, tt = 7;
      amqt_win_bounds(f, 1, s, &a, &tt);
      CHECK_MSG(a == (used[s] ? start : s) && tt == (uint64_t)used[s], "%s: delete bounds of %llu: %llu, want %llu", what,
                (unsigned long long)s, (unsigned long long)a, (unsigned long long)(used[s] ? start : s));
      if (kind == GAMQ_QF_SQF && used[s]) {
        uint64_t c = s;
        while (amqt_sqf_slot(bytes.data(), r, c) & AMQT_SQF_SHIFTED) --c;
        CHECK_MSG(amqt_sqf_cluster_start(f, s) == c, "%s: cluster start of %llu", what, (unsigned long long)s);
      }
    }
    gamq_qf_destroy(f);
  }
  CHECK_MSG(saturated > 0, "no RSQF block had a saturated offset: the long-run case did not happen");
}

/* Rounds at 70% and 90% fill, batch / filter = 2^-10 as 2^20 keys into 2^30
   slots (the issue's target), simulated on the host. Printed for the notes;
   bounded so a regression shows. */
TEST(qf_inplace_host, round_counts) {
  test_rng rng = test_rng_for("qf_inplace_host.round_counts");
  const int q = std::min(20, std::max(12, g_test.max_log2 - 4));
  for (int shape = 0; shape < 3 && !g_test.failed; ++shape) { /* SQF, RSQF, RSQF PACKED */
    const int kind = shape ? GAMQ_QF_RSQF : GAMQ_QF_SQF, packed = shape == 2;
    const double fills[] = {0.7, 0.9};
    for (int fi = 0; fi < 2 && !g_test.failed; ++fi) {
      const int r = 5;
      gamq_qf *f = qi_host(kind, q, r, 1, packed);
      CHECK(f);
      std::vector<uint64_t> fps((size_t)(fills[fi] * (double)((uint64_t)1 << q)));
      for (size_t i = 0; i < fps.size(); ++i) fps[i] = rng.next() >> (64 - q - r);
      std::sort(fps.begin(), fps.end());
      CHECK(amqt_qf_build_fps(f, fps.data(), fps.size()) == GAMQ_SUCCESS);
      std::vector<uint64_t> batch((size_t)1 << (q - 10)), present;
      for (size_t i = 0; i < batch.size(); ++i) batch[i] = rng.next() >> (64 - q - r);
      std::set<size_t> picked; /* distinct stored copies */
      while (picked.size() < batch.size()) picked.insert((size_t)rng.below(fps.size()));
      for (std::set<size_t>::iterator it = picked.begin(); it != picked.end(); ++it) present.push_back(fps[*it]);
      std::sort(batch.begin(), batch.end());
      std::sort(present.begin(), present.end());
      amqt_rounds_out oi, od;
      CHECK(amqt_sim_rounds(f, 0, batch.data(), batch.size(), 1000, 0, NULL, &oi));
      CHECK(amqt_sim_rounds(f, 1, present.data(), present.size(), 1000, 0, NULL, &od));
      printf("    %s r=%d q=%d fill %.2f: insert 2^%d keys %d rounds, delete 2^%d present keys %d rounds\n",
             qi_kind(kind, packed), r, q, fills[fi], q - 10, oi.rounds, q - 10, od.rounds);
      CHECK(oi.left == 0 && oi.changed == batch.size() && !oi.full);
      CHECK(od.left == 0 && od.changed == present.size());
      CHECK_MSG(oi.rounds <= 16 && od.rounds <= 16, "rounds %d / %d", oi.rounds, od.rounds);
      std::vector<uint8_t> want;
      { /* after both the filter holds fps + batch - present */
        qi_model m(fps.begin(), fps.end());
        m.insert(batch.begin(), batch.end());
        for (size_t i = 0; i < present.size(); ++i) m.erase(m.find(present[i]));
        want = qi_reference(kind, q, r, 1, m, packed);
      }
      CHECK_MSG(qi_bytes(f) == want, "%s fill %.2f: bytes differ from a fresh build", qi_kind(kind, packed), fills[fi]);
      CHECK(amqt_qf_count(f) == fps.size());
      gamq_qf_destroy(f);
    }
  }
}
#endif /* __CUDACC__ */

/* The HOST backend: forced paths and builds by inserts give the same bytes. */
TEST(qf_inplace_host, host_paths_and_build_by_inserts) {
  test_rng rng = test_rng_for("qf_inplace_host.host_paths_and_build_by_inserts");
  const long long live = g_alloc_live;
  for (int s = 0; s < QI_SHAPES && !g_test.failed; ++s) {
    gamq_qf_desc d;
    memset(&d, 0, sizeof d);
    d.backend = GAMQ_BACKEND_HOST, d.seed = rng.next(), d.layout = (gamq_qf_layout)qi_shapes[s][2];
    gamq_qf *a = NULL, *b = NULL;
    CHECK(gamq_qf_create(&d, (gamq_qf_kind)qi_shapes[s][0], 9, qi_shapes[s][1], &a) == GAMQ_SUCCESS);
    d.build_by_inserts = 1;
    CHECK(gamq_qf_create(&d, (gamq_qf_kind)qi_shapes[s][0], 9, qi_shapes[s][1], &b) == GAMQ_SUCCESS);
    const double fills[] = {0.3, 0.9, 1.2};
    for (int fi = 0; fi < 3 && !g_test.failed; ++fi) {
      std::vector<uint64_t> keys((size_t)(fills[fi] * 512));
      for (size_t i = 0; i < keys.size(); ++i) keys[i] = rng.below(4) ? rng.next() : keys[rng.below(i + 1)];
      std::vector<uint8_t> before = qi_bytes(b);
      gamq_status sa = gamq_qf_build_u64(a, keys.data(), keys.size()), sb = gamq_qf_build_u64(b, keys.data(), keys.size());
      CHECK_MSG(sa == sb, "build statuses %d / %d", (int)sa, (int)sb);
      if (sb == GAMQ_SUCCESS) CHECK(qi_bytes(a) == qi_bytes(b) && amqt_qf_count(a) == amqt_qf_count(b));
      else CHECK(qi_bytes(b) == before);
      if (sb != GAMQ_SUCCESS) CHECK(gamq_qf_build_u64(a, NULL, 0) == GAMQ_SUCCESS && gamq_qf_build_u64(b, NULL, 0) == GAMQ_SUCCESS);
      /* inserts by each path */
      std::vector<uint64_t> more(40);
      for (size_t i = 0; i < more.size(); ++i) more[i] = rng.next();
      amqt_qf_force_path(a, AMQT_PATH_IN_PLACE), amqt_qf_force_path(b, AMQT_PATH_REBUILD);
      sa = gamq_qf_insert_u64(a, more.data(), more.size()), sb = gamq_qf_insert_u64(b, more.data(), more.size());
      CHECK(sa == sb);
      CHECK(amqt_qf_last_path(a) == AMQT_PATH_IN_PLACE && amqt_qf_last_path(b) == AMQT_PATH_REBUILD);
      CHECK(qi_bytes(a) == qi_bytes(b) && amqt_qf_count(a) == amqt_qf_count(b));
    }
    gamq_qf_destroy(a);
    gamq_qf_destroy(b);
  }
  CHECK_EQ(g_alloc_live, live);
}

/* ---------------------------------------------------------------------------
   GPU tests: CUDA against HOST, byte for byte
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)

static gamq_qf *qi_make(gamq_backend backend, int kind, int q, int r, uint64_t seed, int by_inserts = 0,
                        int packed = 0) {
  return amqt_qf_make(backend, kind, q, r, seed, packed, GAMQ_SCAN_AUTO, by_inserts);
}
static std::vector<uint8_t> qi_public_bytes(const gamq_qf *f) { return amqt_qf_bytes(f); }
static uint64_t qi_fp(const gamq_qf *f, uint64_t key) {
  uint64_t fp = 0;
  gamq_qf_fingerprint(f, key, &fp);
  return fp;
}
/* keys of one quotient (rejection sampling; small q) */
static uint64_t qi_key_in(const gamq_qf *f, uint64_t quot, test_rng &rng) {
  for (;;) {
    uint64_t k = rng.next();
    if (qi_fp(f, k) >> amqt_qf_info(f).r == quot) return k;
  }
}

/* Random interleavings of inserts and deletes, CUDA with a forced path (and
   round cap) beside HOST: statuses, counts, deleted counts and bytes equal,
   bytes == a fresh build of the model, FULL leaves the bytes as they were. */
GPU_TEST(qf_inplace_cuda, ops_match_host) {
  test_rng rng = test_rng_for("qf_inplace_cuda.ops_match_host");
  char what[240];
  for (int s = 0; s < QI_SHAPES && !g_test.failed; ++s) {
    const int qs[] = {1, 7, 10, std::min(13, g_test.max_log2 - 4)}; /* q 16 took minutes (host point ops) */
    for (int qi = 0; qi < 4 && !g_test.failed; ++qi) {
      const int kind = qi_shapes[s][0], r = qi_shapes[s][1], q = qs[qi], packed = qi_shapes[s][2];
      const uint64_t seed = rng.next();
      gamq_qf *c = qi_make(GAMQ_BACKEND_CUDA, kind, q, r, seed, 0, packed);
      gamq_qf *h = qi_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, packed);
      CHECK(c && h);
      const uint64_t nslots = amqt_qf_info(c).nslots;
      qi_model model;
      std::vector<uint64_t> stored;
      int inplace_rounds = 0, window_batches = 0;
      /* 24 drawn steps, then 4 fixed ones that run each in-place path
         whatever the drawn steps did: a delete of 33 keys on IN_PLACE, then on WINDOWS (deletes
         never meet FULL, so both paths run), then an insert of up to 33 new
         keys on each (as many as there are free slots) */
      for (int step = 0; step < 28 && !g_test.failed; ++step) {
        const bool fixed = step >= 24;
        int op = rng.below(3) == 0 ? 2 : 1, mode = (int)rng.below(5);
        const size_t sizes[] = {0, 1, 31, 32, 33};
        const uint64_t count = amqt_qf_count(c);
        size_t n = rng.below(3) == 0 ? sizes[rng.below(5)] : (size_t)rng.below(nslots / 4 + 2);
        if (op == 1 && rng.below(6) == 0) n = (size_t)(nslots - count + rng.below(3)) - (nslots > count);
        if (fixed) {
          op = step < 26 ? 2 : 1, mode = op == 2 ? 2 : 0; /* deletes of stored keys (random when none), new keys */
          n = op == 2 ? 33 : (size_t)std::min<uint64_t>(33, nslots - count);
        }
        if (mode == 3 && (q > 10 || n > 300)) n = std::min<size_t>(n, q > 10 ? 0 : 300);
        std::vector<uint64_t> keys(n);
        const uint64_t quot = rng.below((uint64_t)1 << q);
        for (size_t i = 0; i < n; ++i) {
          if (mode == 1 && i > 0 && rng.below(2)) keys[i] = keys[rng.below(i)];                  /* duplicates */
          else if (mode == 2 && !stored.empty()) keys[i] = stored[rng.below(stored.size())];  /* present */
          else if (mode == 3) keys[i] = qi_key_in(h, quot, rng);                              /* one quotient */
          else keys[i] = rng.next();
        }
        const int caps[] = {0, 1, 2, 0};
        const int path = fixed ? (step % 2 == 0 ? AMQT_PATH_IN_PLACE : AMQT_PATH_WINDOWS)
                               : (step + s) % 4; /* AUTO, IN_PLACE (rounds), REBUILD, WINDOWS in turn */
        amqt_qf_force_path(c, path), amqt_qf_set_max_rounds(c, caps[rng.below(4)]);
        snprintf(what, sizeof what, "%s q=%d r=%d step %d %s n=%zu mode %d path %d cap %d", qi_kind(kind, packed), q, r,
                 step, op == 1 ? "insert" : "delete", n, mode, path, amqt_qf_max_rounds(c));
        dbuf<uint64_t> d(n);
        CHECK(d.ok());
        CUDA_CHECK(d.upload(keys));
        std::vector<uint8_t> before = qi_public_bytes(c);
        gamq_status sh, sc;
        if (op == 1) {
          sh = gamq_qf_insert_u64(h, keys.data(), n);
          sc = gamq_qf_insert_u64_sync(c, d.p, n, NULL);
          if (sh == GAMQ_SUCCESS) {
            stored.insert(stored.end(), keys.begin(), keys.end());
            for (size_t i = 0; i < n; ++i) model.insert(qi_fp(h, keys[i]));
          }
        } else {
          uint64_t dh = 1, dc = 2;
          sh = gamq_qf_delete_u64(h, keys.data(), n, &dh);
          sc = gamq_qf_delete_u64_sync(c, d.p, n, &dc, NULL);
          CHECK_MSG(dh == dc, "%s: deleted %llu on HOST, %llu on CUDA", what, (unsigned long long)dh,
                    (unsigned long long)dc);
          for (size_t i = 0; i < n; ++i) {
            qi_model::iterator it = model.find(qi_fp(h, keys[i]));
            if (it != model.end()) model.erase(it);
          }
          stored.clear();
        }
        CHECK_MSG(sh == sc, "%s: HOST %d, CUDA %d", what, (int)sh, (int)sc);
        if (n > 0) {
          const int taken = amqt_qf_last_path(c);
          if (path != 0) /* forced; AUTO decides on the count before the call */ CHECK_MSG(taken == path, "%s: path %d taken", what, taken);
          if (taken == AMQT_PATH_IN_PLACE && sc != GAMQ_ERROR_FULL) {
            CHECK_MSG(amqt_qf_last_rounds(c) >= 1, "%s: in place with no round", what);
            inplace_rounds += amqt_qf_last_rounds(c);
          }
          if (taken == AMQT_PATH_WINDOWS) ++window_batches;
        }
        if (sc == GAMQ_ERROR_FULL) CHECK_MSG(qi_public_bytes(c) == before, "%s: FULL changed the CUDA filter", what);
        std::vector<uint8_t> bc = qi_public_bytes(c), bh = qi_public_bytes(h);
        CHECK_MSG(bc == bh, "%s: CUDA bytes differ from HOST", what);
        CHECK_MSG(bh == qi_reference(kind, q, r, seed, model, packed), "%s: bytes differ from a fresh build", what);
        uint64_t cc = 0, ch = 1;
        CHECK(gamq_qf_count(c, &cc) == GAMQ_SUCCESS && gamq_qf_count(h, &ch) == GAMQ_SUCCESS);
        CHECK_MSG(cc == ch && ch == model.size(), "%s: counts %llu / %llu, model %zu", what, (unsigned long long)cc,
                  (unsigned long long)ch, model.size());
      }
      CHECK_MSG(inplace_rounds > 0 && window_batches > 0, "%s q=%d r=%d: an in-place path never ran (rounds %d, windows %d)",
                qi_kind(kind, packed), q, r, inplace_rounds, window_batches);
      gamq_qf_destroy(c);
      gamq_qf_destroy(h);
    }
  }
}

/* Builds by inserts (the quotient filter paper's fourth method, IV-C) on CUDA == HOST builds. */
GPU_TEST(qf_inplace_cuda, build_by_inserts) {
  test_rng rng = test_rng_for("qf_inplace_cuda.build_by_inserts");
  char what[200];
  for (int s = 0; s < QI_SHAPES && !g_test.failed; ++s) {
    const int kind = qi_shapes[s][0], r = qi_shapes[s][1], q = std::min(14, g_test.max_log2 - 4), packed = qi_shapes[s][2];
    const uint64_t seed = rng.next();
    gamq_qf *c = qi_make(GAMQ_BACKEND_CUDA, kind, q, r, seed, 1, packed);
    gamq_qf *h = qi_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, packed);
    CHECK(c && h);
    const double fills[] = {0.0, 0.5, 0.9, 1.0, 1.2};
    for (int fi = 0; fi < 5 && !g_test.failed; ++fi) {
      std::vector<uint64_t> keys((size_t)(fills[fi] * (double)((uint64_t)1 << q)) + (fi == 0 ? 1 : 0));
      for (size_t i = 0; i < keys.size(); ++i) keys[i] = rng.below(8) ? rng.next() : keys[rng.below(i + 1)];
      snprintf(what, sizeof what, "%s q=%d r=%d fill %.2f n=%zu", qi_kind(kind, packed), q, r, fills[fi], keys.size());
      std::vector<uint8_t> before = qi_public_bytes(c);
      gamq_status sh = gamq_qf_build_u64(h, keys.data(), keys.size()), sc = gamq_qf_build_u64(c, keys.data(), keys.size());
      CHECK_MSG(sh == sc, "%s: HOST %d, CUDA %d", what, (int)sh, (int)sc);
      if (sc == GAMQ_SUCCESS) CHECK_MSG(amqt_qf_last_path(c) == AMQT_PATH_IN_PLACE && amqt_qf_last_rounds(c) >= 1, "%s", what);
      if (sc == GAMQ_ERROR_FULL) CHECK_MSG(qi_public_bytes(c) == before, "%s: FULL changed the filter", what);
      CHECK_MSG(qi_public_bytes(c) == qi_public_bytes(h), "%s: CUDA bytes differ from HOST", what);
      if (sc == GAMQ_SUCCESS) printf("    %s: %d rounds\n", what, amqt_qf_last_rounds(c));
    }
    gamq_qf_destroy(c);
    gamq_qf_destroy(h);
  }
}

/* distinct keys: splitmix64's finaliser of i ^ salt (a bijection) */
static __global__ void qi_keys_kernel(uint64_t *keys, size_t n, uint64_t salt) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t z = (i ^ salt) + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    keys[i] = z ^ (z >> 31);
  }
}

/* The issue's target: 2^20 keys into a 70% full filter of 2^q home slots
   (q = max_log2 + 6, at most 30: 2^30 at --max-log2=24), SQF r = 5 and RSQF
   r = 5, in place, then 2^20 present keys deleted; prints G keys/s (hash and
   sort included, the _sync call timed). Checks: counts, every inserted key
   found, nothing left of the deleted keys' copies beyond the model. */
GPU_TEST(qf_inplace_cuda, timing_2e20_into_70pct) {
  const int q = std::min(30, g_test.max_log2 + 6);
  const size_t nb = std::min<size_t>((size_t)1 << 20, (size_t)1 << (q - 4));
  for (int shape = 0; shape < 3 && !g_test.failed; ++shape) { /* SQF, RSQF, RSQF PACKED */
    const int kind = shape ? GAMQ_QF_RSQF : GAMQ_QF_SQF, packed = shape == 2;
    gamq_qf *c = qi_make(GAMQ_BACKEND_CUDA, kind, q, 5, 7, 0, packed);
    CHECK(c);
    const size_t nfill = (size_t)(0.7 * (double)((uint64_t)1 << q));
    {
      dbuf<uint64_t> keys(nfill);
      CHECK(keys.ok());
      qi_keys_kernel<<<1024, 256>>>(keys.p, nfill, 1);
      CUDA_CHECK(cudaGetLastError());
      CHECK(gamq_qf_build_u64_sync(c, keys.p, nfill, NULL) == GAMQ_SUCCESS);
    }
    dbuf<uint64_t> more(nb), gone(nb);
    dbuf<uint8_t> found(nb);
    CHECK(more.ok() && gone.ok() && found.ok());
    qi_keys_kernel<<<256, 256>>>(more.p, nb, 2);   /* new keys */
    qi_keys_kernel<<<256, 256>>>(gone.p, nb, 1);   /* the first nb built keys: present */
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int path = AMQT_PATH_IN_PLACE; path <= AMQT_PATH_WINDOWS && !g_test.failed; ++path) {
      amqt_qf_force_path(c, path);
      uint64_t before = 0, after = 0, del = 0;
      gamq_qf_count(c, &before);
      auto t0 = std::chrono::steady_clock::now();
      CHECK(gamq_qf_insert_u64_sync(c, more.p, nb, NULL) == GAMQ_SUCCESS);
      auto t1 = std::chrono::steady_clock::now();
      const int ri = amqt_qf_last_rounds(c);
      CHECK(gamq_qf_lookup_u64_sync(c, more.p, nb, found.p, NULL) == GAMQ_SUCCESS);
      std::vector<uint8_t> hf;
      CUDA_CHECK(found.download(hf));
      for (size_t i = 0; i < nb; ++i) CHECK_MSG(hf[i] == 1, "inserted key %zu not found", i);
      auto t2 = std::chrono::steady_clock::now();
      CHECK(gamq_qf_delete_u64_sync(c, more.p, nb, &del, NULL) == GAMQ_SUCCESS); /* back to the 70% filter */
      auto t3 = std::chrono::steady_clock::now();
      const int rd = amqt_qf_last_rounds(c);
      gamq_qf_count(c, &after);
      CHECK_EQ(del, nb);
      CHECK_EQ(after, before);
      const double ti = std::chrono::duration<double>(t1 - t0).count(), td = std::chrono::duration<double>(t3 - t2).count();
      printf("    %s r=5 q=%d fill 0.70, %s: insert 2^%d keys %.3f ms (%.2f G keys/s, %d rounds), delete %.3f ms (%.2f G "
             "keys/s, %d rounds)\n",
             qi_kind(kind, packed), q, path == AMQT_PATH_IN_PLACE ? "rounds" : path == AMQT_PATH_REBUILD ? "rebuild" : "windows", (int)log2((double)nb),
             ti * 1e3, (double)nb / ti * 1e-9, ri, td * 1e3, (double)nb / td * 1e-9, rd);
    }
    { /* the rounds path with no practical cap (2^20 rounds): every key in,
         and out again, by rounds alone (no rebuild of a rest) */
      amqt_qf_force_path(c, AMQT_PATH_IN_PLACE);
      amqt_qf_set_max_rounds(c, 1 << 20);
      uint64_t before = 0, mid = 0, after = 0, del = 0;
      gamq_qf_count(c, &before);
      auto a0 = std::chrono::steady_clock::now();
      CHECK(gamq_qf_insert_u64_sync(c, more.p, nb, NULL) == GAMQ_SUCCESS);
      auto a1 = std::chrono::steady_clock::now();
      const int r1 = amqt_qf_last_rounds(c);
      gamq_qf_count(c, &mid);
      CHECK(amqt_qf_last_path(c) == AMQT_PATH_IN_PLACE && r1 >= 1 && r1 < (1 << 20));
      CHECK_EQ(mid - before, (uint64_t)nb);
      CHECK(gamq_qf_delete_u64_sync(c, more.p, nb, &del, NULL) == GAMQ_SUCCESS);
      auto a2 = std::chrono::steady_clock::now();
      const int r2 = amqt_qf_last_rounds(c);
      gamq_qf_count(c, &after);
      CHECK(amqt_qf_last_path(c) == AMQT_PATH_IN_PLACE && r2 >= 1 && r2 < (1 << 20));
      CHECK_EQ(del, (uint64_t)nb);
      CHECK_EQ(after, before);
      amqt_qf_set_max_rounds(c, 0);
      auto ms = [](std::chrono::steady_clock::time_point x, std::chrono::steady_clock::time_point y) {
        return std::chrono::duration<double>(y - x).count() * 1e3;
      };
      printf("    %s rounds, uncapped: insert %.3f ms (%d rounds), delete %.3f ms (%d rounds)\n", qi_kind(kind, packed),
             ms(a0, a1), r1, ms(a1, a2), r2);
    }
    { /* the windows path: every key in (never FULL here), and out again */
      amqt_qf_force_path(c, AMQT_PATH_WINDOWS);
      uint64_t before = 0, mid = 0, after = 0, del = 0;
      gamq_qf_count(c, &before);
      auto w0 = std::chrono::steady_clock::now();
      CHECK(gamq_qf_insert_u64_sync(c, more.p, nb, NULL) == GAMQ_SUCCESS);
      auto w1 = std::chrono::steady_clock::now();
      const int passes = amqt_qf_last_rounds(c);
      gamq_qf_count(c, &mid);
      CHECK(amqt_qf_last_path(c) == AMQT_PATH_WINDOWS);
      CHECK_EQ(mid - before, (uint64_t)nb);
      CHECK(gamq_qf_delete_u64_sync(c, more.p, nb, &del, NULL) == GAMQ_SUCCESS);
      auto w2 = std::chrono::steady_clock::now();
      gamq_qf_count(c, &after);
      CHECK_EQ(del, (uint64_t)nb);
      CHECK_EQ(after, before);
      printf("    %s windows: insert %.3f ms (%d chain passes), delete %.3f ms\n", qi_kind(kind, packed),
             std::chrono::duration<double>(w1 - w0).count() * 1e3, passes,
             std::chrono::duration<double>(w2 - w1).count() * 1e3);
    }
    /* delete present keys (built ones) in place, then put them back: the
       filter is the 70% one again (checked by bytes for the windows path) */
    for (int path = AMQT_PATH_WINDOWS; path >= AMQT_PATH_IN_PLACE && !g_test.failed; path -= 2) {
      amqt_qf_force_path(c, path);
      std::vector<uint8_t> before = qi_public_bytes(c);
      uint64_t del = 0;
      auto t0 = std::chrono::steady_clock::now();
      CHECK(gamq_qf_delete_u64_sync(c, gone.p, nb, &del, NULL) == GAMQ_SUCCESS);
      auto t1 = std::chrono::steady_clock::now();
      const int rd = amqt_qf_last_rounds(c);
      CHECK_EQ(del, nb);
      CHECK(gamq_qf_insert_u64_sync(c, gone.p, nb, NULL) == GAMQ_SUCCESS);
      auto t2 = std::chrono::steady_clock::now();
      CHECK_MSG(qi_public_bytes(c) == before, "%s: delete + insert of built keys changed the filter", qi_kind(kind, packed));
      const double td = std::chrono::duration<double>(t1 - t0).count(), ti = std::chrono::duration<double>(t2 - t1).count();
      printf("    %s q=%d %s: delete 2^%d built keys %.3f ms (%.2f G keys/s, %d rounds), insert them back %.3f ms "
             "(%.2f G keys/s, %d rounds)\n",
             qi_kind(kind, packed), q, path == AMQT_PATH_WINDOWS ? "windows" : "rounds", (int)log2((double)nb), td * 1e3,
             (double)nb / td * 1e-9, rd, ti * 1e3, (double)nb / ti * 1e-9, amqt_qf_last_rounds(c));
    }
    gamq_qf_destroy(c);
  }
}

#endif /* __CUDACC__ */
