/* test_qf_io.cu - quotient filters: save / load, serialize / deserialize,
   deduplicating builds, and the edge cases not covered by test_qf.cu /
   test_qf_host.cu.

   Host tests (suite qf_io_host, CI): the documented file format decoded
   field by field (checksum recomputed here), round trips of both kinds at
   many (q, r) (small q, RSQF r = 1 and 32), empty, full and one-quotient
   filters (RSQF offsets saturated); corrupt data rejected with
   GAMQ_ERROR_BAD_FILE and nothing allocated: every truncation, every bit
   flipped, bad magic / version / fields with the checksum recomputed, wrong
   structure with the checksum recomputed, and random payload mutations
   (accepted only when the result is self-consistent); hostile headers
   (sizes past the file, overflowing fields) rejected before any large
   allocation; file errors (GAMQ_ERROR_IO; a failed save leaves the old file
   byte for byte and no temporary file); saves through symbolic links (the
   link stays, its target gets the bytes) and to destinations that are not
   regular files (refused, left as they were); NULL arguments;
   allocation failure at every allocation of every allocating call; a
   multiset model driven by random build / insert / delete / merge /
   save-load steps; deduplication; q + r = 64. RSQF shapes in both layouts
   (ALIGNED, PACKED: header flags bit 0; a wrong flag is rejected, a PACKED
   payload rewritten field by field as ALIGNED loads as the same filter).

   GPU tests (suite qf_io_cuda): HOST and CUDA files identical, HOST files
   loaded into CUDA and back, a failing device allocator during load and at
   every device allocation of every CUDA call, deduplicating builds CUDA ==
   HOST, and the false-positive rate on 10^7 absent keys for each (kind, q,
   r) within 1.2x of theory.

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

#include <math.h>
#include <stdio.h>
#if defined(__linux__)
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <set>
#include <string>
#include <vector>

typedef std::vector<uint8_t> qio_buf;
typedef std::multiset<uint64_t> qio_model; /* fingerprints */

static gamq_qf *qio_make(gamq_backend backend, gamq_qf_kind kind, int q, int r, uint64_t seed, int dedup = 0,
                         const gamq_device_allocator *alloc = NULL, int layout = GAMQ_QF_LAYOUT_ALIGNED) {
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = backend, d.seed = seed, d.dedup_build = dedup, d.layout = (gamq_qf_layout)layout;
  if (alloc) d.allocator = *alloc;
  gamq_qf *f = NULL;
  if (gamq_qf_create(&d, kind, q, r, &f) != GAMQ_SUCCESS) return NULL;
  return f;
}
static gamq_qf_desc qio_desc(gamq_backend backend, int dedup = 0) {
  gamq_qf_desc d;
  memset(&d, 0, sizeof d);
  d.backend = backend, d.dedup_build = dedup;
  d.seed = 0x5eed5eed; /* ignored by load: the seed comes from the file */
  d.layout = GAMQ_QF_LAYOUT_PACKED; /* ignored by load too: so is the layout */
  return d;
}
static const char *qio_name(int kind, int layout) {
  return kind == GAMQ_QF_SQF ? "sqf" : layout == GAMQ_QF_LAYOUT_PACKED ? "rsqf packed" : "rsqf";
}
static qio_buf qio_bytes(const gamq_qf *f) {
  size_t n = 0;
  if (gamq_qf_copy_bytes(f, NULL, &n) != GAMQ_SUCCESS) return qio_buf();
  qio_buf b(n);
  if (gamq_qf_copy_bytes(f, b.data(), &n) != GAMQ_SUCCESS) b.clear();
  return b;
}
static qio_buf qio_ser(const gamq_qf *f) {
  size_t n = 0;
  if (gamq_qf_serialize(f, NULL, &n) != GAMQ_SUCCESS) return qio_buf();
  qio_buf b(n, 0xA5);
  if (gamq_qf_serialize(f, b.data(), &n) != GAMQ_SUCCESS || n != b.size()) b.clear();
  return b;
}
static uint64_t qio_fp(const gamq_qf *f, uint64_t key) {
  uint64_t fp = 0;
  gamq_qf_fingerprint(f, key, &fp);
  return fp;
}
static uint64_t qio_count(const gamq_qf *f) {
  uint64_t c = ~(uint64_t)0;
  gamq_qf_count(f, &c);
  return c;
}

/* The format, written out independently of the library. */
static uint64_t qio_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}
static void qio_put_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; ++i, v >>= 8) p[i] = (uint8_t)v;
}
static uint64_t qio_fnv(const uint8_t *p, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
/* After changing a header field or the payload: make the checksum right again. */
static void qio_reseal(qio_buf &b) {
  if (b.size() < 72) return;
  qio_put_le(&b[64], qio_fnv(&b[72], b.size() - 72, qio_fnv(b.data(), 64)), 8);
}

/* Deserialize that must fail with `want`: *out untouched, nothing left allocated. */
static void qio_reject(const qio_buf &b, gamq_status want, const char *what, gamq_backend backend = GAMQ_BACKEND_HOST) {
  gamq_qf *out = (gamq_qf *)0x1;
  long long live = g_alloc_live;
  gamq_qf_desc d = qio_desc(backend);
  gamq_status s = gamq_qf_deserialize(&d, b.empty() ? (const void *)"" : (const void *)b.data(), b.size(), &out);
  CHECK_MSG(s == want, "%s: status %d (%s), want %d", what, (int)s, gamq_status_string(s), (int)want);
  CHECK_MSG(out == (gamq_qf *)0x1, "%s: the output was written", what);
  CHECK_MSG(g_alloc_live == live, "%s: %lld host blocks left allocated", what, g_alloc_live - live);
}

/* A file name of our own in $TMPDIR (or /tmp). */
static std::string qio_path(const char *tag) {
  const char *dir = getenv("TMPDIR");
  char name[160];
#if defined(__linux__)
  snprintf(name, sizeof name, "/gamq_qf_io_%ld_%s.qf", (long)getpid(), tag);
#else
  snprintf(name, sizeof name, "/gamq_qf_io_%s.qf", tag);
#endif
  return std::string(dir && *dir ? dir : "/tmp") + name;
}
static bool qio_read_file(const std::string &path, qio_buf &out) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) return false;
  out.clear();
  int c;
  while ((c = fgetc(f)) != EOF) out.push_back((uint8_t)c);
  fclose(f);
  return true;
}
static bool qio_write_file(const std::string &path, const qio_buf &b) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!f) return false;
  bool ok = fwrite(b.data(), 1, b.size(), f) == b.size();
  return fclose(f) == 0 && ok;
}
static bool qio_exists(const std::string &path) {
  FILE *f = fopen(path.c_str(), "rb");
  if (f) fclose(f);
  return f != NULL;
}

/* The bytes the HOST backend builds from a multiset of fingerprints (empty: FULL). */
static qio_buf qio_reference(gamq_qf_kind kind, int q, int r, uint64_t seed, const qio_model &m, int layout = 0) {
  return amqt_qf_reference(kind, q, r, seed, layout == GAMQ_QF_LAYOUT_PACKED, m);
}
static bool qio_fits(const qio_model &m, int r, uint64_t nslots) {
  uint64_t next = 0;
  for (qio_model::const_iterator it = m.begin(); it != m.end(); ++it) {
    uint64_t q = *it >> r, slot = q > next ? q : next;
    if (slot >= nslots) return false;
    next = slot + 1;
  }
  return true;
}

/* Keys of one quotient (rejection sampling: small q only). */
static uint64_t qio_key_in_quotient(test_rng &rng, uint64_t seed, int q, int r, uint64_t quotient) {
  for (;;) {
    uint64_t k = rng.next();
    if (amqt_fingerprint_of(k, seed, q, r) >> r == quotient) return k;
  }
}

/* f -> buffer -> g and f -> file -> g: same bytes, count, shape, seed; stored keys found. */
static void qio_round_trip(const gamq_qf *f, const std::vector<uint64_t> &stored, gamq_backend to, const char *what) {
  gamq_qf_info fi, gi;
  CHECK(gamq_qf_get_info(f, &fi) == GAMQ_SUCCESS);
  qio_buf b = qio_ser(f), payload = qio_bytes(f);
  CHECK_MSG(b.size() == 72 + fi.bytes && payload.size() == fi.bytes, "%s: serialized size %zu", what, b.size());
  /* the documented header, field by field */
  static const uint8_t magic[8] = {0x89, 'G', 'A', 'M', 'Q', 'F', '\r', '\n'};
  CHECK_MSG(memcmp(b.data(), magic, 8) == 0, "%s: magic", what);
  CHECK(qio_le(&b[8], 4) == 1 && qio_le(&b[12], 4) == 72 && qio_le(&b[16], 4) == (uint64_t)fi.kind);
  CHECK(qio_le(&b[20], 4) == (uint64_t)fi.q && qio_le(&b[24], 4) == (uint64_t)fi.r);
  CHECK_MSG(qio_le(&b[28], 4) == (fi.layout == GAMQ_QF_LAYOUT_PACKED ? 1u : 0u), "%s: flags", what);
  CHECK(qio_le(&b[32], 8) == fi.seed && qio_le(&b[40], 8) == fi.count && qio_le(&b[48], 8) == fi.nslots);
  CHECK(qio_le(&b[56], 8) == fi.bytes);
  CHECK_MSG(qio_le(&b[64], 8) == qio_fnv(&b[72], fi.bytes, qio_fnv(b.data(), 64)), "%s: checksum", what);
  CHECK_MSG(memcmp(&b[72], payload.data(), payload.size()) == 0, "%s: payload is not copy_bytes", what);
  for (int via_file = 0; via_file < 2; ++via_file) {
    gamq_qf *g = NULL;
    gamq_qf_desc d = qio_desc(to);
    std::string path = qio_path("round_trip");
    if (via_file) {
      CHECK(gamq_qf_save(f, path.c_str()) == GAMQ_SUCCESS);
      qio_buf onfile;
      CHECK(qio_read_file(path, onfile));
      CHECK_MSG(onfile == b, "%s: the file is not the serialized buffer", what);
      CHECK(gamq_qf_load(&d, path.c_str(), &g) == GAMQ_SUCCESS && g);
      remove(path.c_str());
    } else {
      CHECK(gamq_qf_deserialize(&d, b.data(), b.size(), &g) == GAMQ_SUCCESS && g);
    }
    CHECK(gamq_qf_get_info(g, &gi) == GAMQ_SUCCESS);
    bool same = gi.kind == fi.kind && gi.q == fi.q && gi.r == fi.r && gi.seed == fi.seed && gi.count == fi.count &&
                gi.nslots == fi.nslots && gi.bytes == fi.bytes && gi.layout == fi.layout && qio_bytes(g) == payload;
    gamq_backend want = to;
    if (want == GAMQ_BACKEND_AUTO) gamq_backend_resolve(GAMQ_BACKEND_AUTO, &want);
    same = same && gi.backend == want;
    std::vector<uint8_t> found(stored.size() + 1, 0xA5);
    bool all = gamq_qf_lookup_u64(g, stored.data(), stored.size(), found.data()) == GAMQ_SUCCESS;
    for (size_t i = 0; i < stored.size(); ++i) all = all && found[i] == 1;
    qio_buf again = qio_ser(g);
    gamq_qf_destroy(g);
    CHECK_MSG(same, "%s (%s): the loaded filter differs", what, via_file ? "file" : "buffer");
    CHECK_MSG(all, "%s (%s): a stored key is not found after loading", what, via_file ? "file" : "buffer");
    CHECK_MSG(again == b, "%s: serialize(load(x)) != x", what);
  }
}

/* ---------------------------------------------------------------------------
   host tests
   ------------------------------------------------------------------------- */

/* kind, q, r, layout */
#define QIO_P GAMQ_QF_LAYOUT_PACKED
static const int qio_shapes[][4] = {
    {GAMQ_QF_SQF, 1, 5, 0},       {GAMQ_QF_SQF, 6, 13, 0},      {GAMQ_QF_SQF, 9, 29, 0},
    {GAMQ_QF_SQF, 10, 5, 0},      {GAMQ_QF_RSQF, 1, 1, 0},      {GAMQ_QF_RSQF, 1, 32, 0},
    {GAMQ_QF_RSQF, 7, 1, 0},      {GAMQ_QF_RSQF, 8, 5, 0},      {GAMQ_QF_RSQF, 10, 8, 0},
    {GAMQ_QF_RSQF, 6, 13, 0},     {GAMQ_QF_RSQF, 9, 20, 0},     {GAMQ_QF_RSQF, 5, 32, 0},
    {GAMQ_QF_RSQF, 12, 32, 0},    {GAMQ_QF_RSQF, 1, 1, QIO_P},  {GAMQ_QF_RSQF, 1, 32, QIO_P},
    {GAMQ_QF_RSQF, 7, 1, QIO_P},  {GAMQ_QF_RSQF, 8, 5, QIO_P},  {GAMQ_QF_RSQF, 6, 13, QIO_P},
    {GAMQ_QF_RSQF, 9, 21, QIO_P}, {GAMQ_QF_RSQF, 12, 32, QIO_P}};
enum { QIO_SHAPES = sizeof qio_shapes / sizeof qio_shapes[0] };

/* The largest prefix of `keys` that builds (binary search): a full filter. */
static size_t qio_fill_to_full(gamq_qf *f, const std::vector<uint64_t> &keys) {
  size_t lo = 0, hi = keys.size(); /* lo builds; hi + 1 does not (or is past the end) */
  while (lo < hi) {
    size_t mid = lo + (hi - lo + 1) / 2;
    if (gamq_qf_build_u64(f, keys.data(), mid) == GAMQ_SUCCESS) lo = mid;
    else hi = mid - 1;
  }
  gamq_qf_build_u64(f, keys.data(), lo);
  return lo;
}

/* Round trips: empty, half full, full, one quotient (RSQF offsets saturate),
   one key many times; buffer and file; HOST to HOST. */
TEST(qf_io_host, round_trips) {
  test_rng rng = test_rng_for("qf_io_host.round_trips");
  char what[200];
  for (int s = 0; s < QIO_SHAPES && !g_test.failed; ++s) {
    const gamq_qf_kind kind = (gamq_qf_kind)qio_shapes[s][0];
    const int q = qio_shapes[s][1], r = qio_shapes[s][2], layout = qio_shapes[s][3];
    const uint64_t seed = rng.next();
    gamq_qf *f = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, NULL, layout);
    CHECK(f);
    gamq_qf_info info;
    gamq_qf_get_info(f, &info);
    for (int fill = 0; fill < 5 && !g_test.failed; ++fill) {
      std::vector<uint64_t> keys;
      const char *name[] = {"empty", "half", "full", "one-quotient", "one-key"};
      if (fill == 1)
        for (uint64_t i = 0; i < ((uint64_t)1 << q) / 2; ++i) keys.push_back(rng.next());
      if (fill == 2) {
        std::vector<uint64_t> pool(info.nslots + 1);
        for (size_t i = 0; i < pool.size(); ++i) pool[i] = rng.next();
        keys.assign(pool.begin(), pool.begin() + qio_fill_to_full(f, pool));
        CHECK(keys.size() > ((uint64_t)1 << q) / 2);
      }
      if (fill == 3 && q <= 10) { /* a quotient near the start: the run spills over many blocks */
        uint64_t x = rng.below(((uint64_t)1 << q) < 4 ? 1 : 4);
        for (uint64_t i = 0; i + x < info.nslots; ++i) keys.push_back(qio_key_in_quotient(rng, seed, q, r, x));
      }
      if (fill == 4) keys.assign((size_t)std::min<uint64_t>(300, info.nslots - ((uint64_t)1 << q)), rng.next());
      CHECK(gamq_qf_build_u64(f, keys.data(), keys.size()) == GAMQ_SUCCESS);
      if (fill == 3 && !keys.empty()) { /* every slot from x on is used: one more in x does not fit */
        uint64_t more = qio_key_in_quotient(rng, seed, q, r, qio_fp(f, keys[0]) >> r);
        CHECK(gamq_qf_insert_u64(f, &more, 1) == GAMQ_ERROR_FULL);
      }
      snprintf(what, sizeof what, "%s q=%d r=%d %s n=%zu", qio_name(kind, layout), q, r, name[fill], keys.size());
      qio_round_trip(f, keys, GAMQ_BACKEND_HOST, what);
    }
    gamq_qf_destroy(f);
  }
}

/* A small filter's serialization, and the same with its checksum kept right. */
static qio_buf qio_sample(gamq_qf_kind kind, int q, int r, uint64_t seed, size_t n, test_rng &rng,
                          std::vector<uint64_t> *keys_out = NULL, int layout = GAMQ_QF_LAYOUT_ALIGNED) {
  gamq_qf *f = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, NULL, layout);
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = i % 5 == 4 ? keys[i - 1] : rng.next(); /* some copies */
  qio_buf b;
  if (f && gamq_qf_build_u64(f, keys.data(), n) == GAMQ_SUCCESS) b = qio_ser(f);
  gamq_qf_destroy(f);
  if (keys_out) *keys_out = keys;
  return b;
}

/* Truncations, bit flips, trailing bytes, header fields, text-mode damage. */
TEST(qf_io_host, corrupt_headers_and_lengths) {
  test_rng rng = test_rng_for("qf_io_host.corrupt_headers_and_lengths");
  char what[200];
  const int shapes[][4] = {{GAMQ_QF_RSQF, 6, 5, 0}, {GAMQ_QF_SQF, 6, 13, 0}, {GAMQ_QF_RSQF, 5, 32, 0},
                           {GAMQ_QF_RSQF, 6, 5, QIO_P}, {GAMQ_QF_RSQF, 5, 32, QIO_P}};
  for (int s = 0; s < 5 && !g_test.failed; ++s) {
    const gamq_qf_kind kind = (gamq_qf_kind)shapes[s][0];
    const int q = shapes[s][1], r = shapes[s][2], layout = shapes[s][3];
    const qio_buf good = qio_sample(kind, q, r, rng.next(), 40, rng, NULL, layout);
    CHECK(good.size() > 72);
    {
      gamq_qf *g = NULL;
      CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), &g) == GAMQ_SUCCESS && g);
      gamq_qf_destroy(g);
    }
    /* every truncation, and one byte too many */
    for (size_t len = 0; len < good.size() && !g_test.failed; ++len) {
      snprintf(what, sizeof what, "shape %d truncated to %zu of %zu", s, len, good.size());
      qio_reject(qio_buf(good.begin(), good.begin() + len), GAMQ_ERROR_BAD_FILE, what);
    }
    qio_buf longer = good;
    longer.push_back(0);
    qio_reject(longer, GAMQ_ERROR_BAD_FILE, "a byte after the payload");
    /* every single bit flipped: the checksum (or a header check) catches it */
    for (size_t bit = 0; bit < good.size() * 8 && !g_test.failed; ++bit) {
      qio_buf b = good;
      b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
      snprintf(what, sizeof what, "shape %d bit %zu flipped", s, bit);
      qio_reject(b, GAMQ_ERROR_BAD_FILE, what);
    }
    /* text-mode damage: CRLF -> LF, LF -> CRLF, the high bit stripped */
    qio_buf t = good;
    t.erase(t.begin() + 6);
    qio_reject(t, GAMQ_ERROR_BAD_FILE, "\\r\\n became \\n");
    t = good;
    t.insert(t.begin() + 7, '\r');
    qio_reject(t, GAMQ_ERROR_BAD_FILE, "\\n became \\r\\n");
    t = good;
    t[0] &= 0x7f;
    qio_reject(t, GAMQ_ERROR_BAD_FILE, "7-bit transfer");
    /* header fields out of range, each with the checksum made right again */
    struct field_case {
      int off, size;
      uint64_t value;
      const char *name;
    } cases[] = {{8, 4, 2, "version 2 (newer)"},     {8, 4, 0xffffffffu, "version 2^32-1"}, {8, 4, 0, "version 0"},
                 {12, 4, 64, "header size 64"},     {12, 4, 80, "header size 80"},      {16, 4, 0, "kind 0"},
                 {16, 4, 3, "kind 3"},              {20, 4, 0, "q 0"},                  {20, 4, 33, "q 33"},
                 {20, 4, 64, "q 64"},               {20, 4, (uint64_t)q + 1, "q + 1 (sizes disagree)"},
                 {24, 4, 0, "r 0"},                 {24, 4, 33, "r 33"},                {24, 4, 0xffffffffu, "r 2^32-1"},
                 {28, 4, layout ? 0u : 1u, "flags: the other layout"}, {28, 4, 2, "flags 2"},
                 {28, 4, layout ? 3u : 2u, "flags: an unknown bit"}, {28, 4, 0x80000000u, "flags bit 31"},
                 {48, 8, 0, "nslots 0"},              {56, 8, 0, "payload 0"},
                 {56, 8, good.size() - 71, "payload + 1"}, {40, 8, 1000000, "count > nslots"}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0] && !g_test.failed; ++c) {
      qio_buf b = good;
      qio_put_le(&b[cases[c].off], cases[c].value, cases[c].size);
      qio_reseal(b);
      snprintf(what, sizeof what, "shape %d %s", s, cases[c].name);
      qio_reject(b, GAMQ_ERROR_BAD_FILE, what);
    }
    if (kind == GAMQ_QF_SQF) { /* an SQF r the RSQF would take */
      qio_buf b = good;
      qio_put_le(&b[24], 8, 4);
      qio_reseal(b);
      qio_reject(b, GAMQ_ERROR_BAD_FILE, "sqf r = 8");
    }
    { /* the other layout's flag with that layout's payload size: the payload
         cut or zero-extended to it, everything resealed (an SQF: no PACKED) */
      uint64_t ns = 0;
      size_t other = 0;
      if (amqt_qf_layout(kind, q, r, !layout, &ns, &other)) {
        qio_buf b = good;
        qio_put_le(&b[28], layout ? 0 : 1, 4), qio_put_le(&b[56], other, 8);
        b.resize(72 + other, 0);
        qio_reseal(b);
        snprintf(what, sizeof what, "shape %d read as the other layout", s);
        qio_reject(b, GAMQ_ERROR_BAD_FILE, what);
      }
    }
    for (int m = 0; m < 8; ++m) { /* each magic byte */
      qio_buf b = good;
      b[m] ^= 0x20;
      qio_reseal(b);
      qio_reject(b, GAMQ_ERROR_BAD_FILE, "magic");
    }
  }
  /* a 72-byte header that claims q = 32, r = 32 (20 GiB): rejected without allocating */
  qio_buf big = qio_sample(GAMQ_QF_RSQF, 6, 5, 1, 3, rng);
  big.resize(72);
  uint64_t ns = 0;
  size_t bytes = 0;
  CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 32, 32, 0, &ns, &bytes));
  qio_put_le(&big[20], 32, 4), qio_put_le(&big[24], 32, 4), qio_put_le(&big[48], ns, 8);
  qio_put_le(&big[56], bytes, 8);
  qio_reseal(big);
  long long calls = g_alloc_calls;
  qio_reject(big, GAMQ_ERROR_BAD_FILE, "q = r = 32 header, no payload");
  CHECK_EQ(g_alloc_calls, calls);
}

/* Payloads with the right checksum and the wrong structure. */
TEST(qf_io_host, corrupt_structure) {
  test_rng rng = test_rng_for("qf_io_host.corrupt_structure");
  char what[200];
  for (int k = 0; k < 3 && !g_test.failed; ++k) { /* SQF, RSQF, RSQF PACKED */
    const int kind = k ? GAMQ_QF_RSQF : GAMQ_QF_SQF, layout = k == 2;
    const int q = 7, r = kind == GAMQ_QF_SQF ? 13 : 6;
    const uint64_t seed = rng.next();
    const qio_buf good = qio_sample((gamq_qf_kind)kind, q, r, seed, 100, rng, NULL, layout);
    CHECK(good.size() > 72);
    /* the payload decoded by the documented layout; the slots in use are
       the position scan of its fingerprints */
    uint64_t nslots = 0;
    size_t pbytes = 0;
    CHECK(amqt_qf_layout(kind, q, r, layout, &nslots, &pbytes));
    std::vector<uint8_t> used(nslots, 0);
    {
      gamq_qf *g = NULL;
      CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), &g) == GAMQ_SUCCESS);
      std::vector<uint64_t> fps = amqt_qf_extract(g), pos = amqt_positions(fps, r);
      for (size_t i = 0; i < pos.size(); ++i) used[pos[i]] = 1;
      gamq_qf_destroy(g);
    }
    /* count off by one either way */
    for (int d = -1; d <= 1; d += 2) {
      qio_buf b = good;
      qio_put_le(&b[40], qio_le(&b[40], 8) + (uint64_t)(int64_t)d, 8);
      qio_reseal(b);
      qio_reject(b, GAMQ_ERROR_BAD_FILE, d < 0 ? "count - 1" : "count + 1");
    }
    /* every metadata bit flipped and every padding byte set, one at a time */
    std::vector<std::pair<size_t, int> > spots; /* (payload byte, bit) */
    if (kind == GAMQ_QF_SQF) {
      int sb = (r + 3) / 8;
      for (uint64_t sl = 0; sl < nslots; ++sl)
        for (int bit = 0; bit < 3; ++bit) spots.push_back(std::make_pair((size_t)(sl * sb), bit));
    } else if (!layout) {
      size_t bb = amqt_rsqf_stride(r, 0);
      for (uint64_t blk = 0; blk < nslots / 64; ++blk) {
        for (int byte = 0; byte < 24; ++byte) /* occupieds, runends, offset, zero bytes */
          for (int bit = 0; bit < 8; ++bit) spots.push_back(std::make_pair((size_t)(blk * bb + byte), bit));
        for (size_t byte = 24 + (64 * (size_t)r + 7) / 8; byte < bb; ++byte) /* padding after the remainders */
          spots.push_back(std::make_pair((size_t)(blk * bb + byte), (int)rng.below(8)));
      }
    } else { /* PACKED: blocks of 16 + 8r bytes, then the offsets, then the zero tail */
      const size_t bb = 16 + 8 * (size_t)r, nb = (size_t)(nslots / 64);
      for (size_t blk = 0; blk < nb; ++blk)
        for (int bit = 0; bit < 8; ++bit) {
          for (int byte = 0; byte < 16; ++byte) spots.push_back(std::make_pair(blk * bb + byte, bit)); /* occ, ends */
          spots.push_back(std::make_pair(nb * bb + blk, bit)); /* its offset */
        }
      for (size_t byte = nb * bb + nb; byte < pbytes; ++byte) spots.push_back(std::make_pair(byte, (int)rng.below(8)));
    }
    size_t rejected = 0;
    for (size_t i = 0; i < spots.size() && !g_test.failed; ++i) {
      qio_buf b = good;
      b[72 + spots[i].first] ^= (uint8_t)(1u << spots[i].second);
      qio_reseal(b);
      snprintf(what, sizeof what, "%s payload byte %zu bit %d", qio_name(kind, layout), spots[i].first, spots[i].second);
      /* a flipped metadata, offset or padding bit always breaks the layout */
      qio_reject(b, GAMQ_ERROR_BAD_FILE, what);
      ++rejected;
    }
    CHECK(rejected > 100);
    /* two remainders of one run swapped (unsorted run), when there is such a run */
    qio_buf b = good;
    bool swapped = false;
    for (uint64_t sl = 0; sl + 1 < nslots && !swapped; ++sl) {
      uint8_t *pay = &b[72];
      if (kind == GAMQ_QF_SQF) { /* slot sl + 1 continues the run of slot sl */
        const uint64_t va = amqt_sqf_slot(pay, r, sl), vc = amqt_sqf_slot(pay, r, sl + 1);
        if (!(vc & AMQT_SQF_CONTINUATION) || (va & 7u) == 0) continue;
        if (va >> 3 == vc >> 3) continue;
        amqt_sqf_put(pay, r, sl, (va & 7u) | (vc >> 3) << 3); /* the remainders swapped, the bits kept */
        amqt_sqf_put(pay, r, sl + 1, (vc & 7u) | (va >> 3) << 3);
      } else { /* slot sl is used and does not end its run: sl + 1 is in it */
        const int ends = (int)((amqt_rsqf_word(pay, r, layout, sl >> 6, 1) >> (sl & 63)) & 1);
        if (ends || !used[sl]) continue;
        uint64_t a = amqt_rsqf_rem(pay, r, layout, sl), c = amqt_rsqf_rem(pay, r, layout, sl + 1);
        if (a == c) continue;
        amqt_rsqf_set_rem(pay, r, layout, sl, c);
        amqt_rsqf_set_rem(pay, r, layout, sl + 1, a);
      }
      swapped = true;
    }
    if (swapped) {
      qio_reseal(b);
      qio_reject(b, GAMQ_ERROR_BAD_FILE, "a run out of order");
    }
    /* whole payloads of junk */
    for (int junk = 0; junk < 3 && !g_test.failed; ++junk) {
      qio_buf j = good;
      for (size_t i = 72; i < j.size(); ++i) j[i] = junk == 0 ? 0xff : junk == 1 ? (uint8_t)rng.next() : (uint8_t)0;
      qio_reseal(j);
      qio_reject(j, GAMQ_ERROR_BAD_FILE, junk == 0 ? "payload all ones" : junk == 1 ? "random payload" : "zeros, count > 0");
    }
    /* random byte changes with the checksum made right: rejected, or (a
       remainder changed within order) accepted only as a consistent filter */
    size_t acc = 0;
    for (int trial = 0; trial < 3000 && !g_test.failed; ++trial) {
      qio_buf m = good;
      int changes = 1 + (int)rng.below(3);
      for (int c = 0; c < changes; ++c) m[72 + rng.below(m.size() - 72)] ^= (uint8_t)(1 + rng.below(255));
      qio_reseal(m);
      gamq_qf *g = (gamq_qf *)0x1;
      long long live = g_alloc_live;
      gamq_status st = gamq_qf_deserialize(NULL, m.data(), m.size(), &g);
      if (st == GAMQ_SUCCESS) {
        ++acc;
        CHECK_MSG(qio_ser(g) == m, "trial %d: accepted, but it does not serialize back to itself", trial);
        std::vector<uint64_t> fps(qio_count(g) + 1);
        size_t w = 0;
        CHECK(gamq_qf_extract(g, fps.data(), fps.size(), &w) == GAMQ_SUCCESS && w == qio_count(g));
        for (size_t i = 1; i < w; ++i) CHECK(fps[i - 1] <= fps[i]);
        gamq_qf_destroy(g);
      } else {
        CHECK_MSG(st == GAMQ_ERROR_BAD_FILE && g == (gamq_qf *)0x1, "trial %d: status %d", trial, (int)st);
      }
      CHECK_EQ(g_alloc_live, live);
    }
    printf("    %s: %zu of 3000 random payload changes were valid filters (kept order)\n", qio_name(kind, layout), acc);
  }
}

/* The layout flag: a PACKED file rewritten as ALIGNED (each block's fields
   moved to their ALIGNED places, flags 0, the payload size and checksum
   fixed) loads as the ALIGNED filter of the same keys, and the other way
   round; files with flags 0 (all files before layouts existed) are ALIGNED. */
static qio_buf qio_convert(const qio_buf &in, int to_packed) {
  const int q = (int)qio_le(&in[20], 4), r = (int)qio_le(&in[24], 4);
  uint64_t ns = 0;
  size_t bytes = 0;
  amqt_qf_layout(GAMQ_QF_RSQF, q, r, to_packed, &ns, &bytes);
  const size_t nb = (size_t)(ns / 64), ab = (24 + 8 * (size_t)r + 63) / 64 * 64, pb = 16 + 8 * (size_t)r;
  qio_buf out(in.begin(), in.begin() + 72);
  out.resize(72 + bytes, 0);
  const uint8_t *src = &in[72];
  uint8_t *dst = &out[72];
  for (size_t b = 0; b < nb; ++b) {
    uint8_t *al = to_packed ? (uint8_t *)src + b * ab : dst + b * ab; /* the ALIGNED block */
    uint8_t *pk = to_packed ? dst + b * pb : (uint8_t *)src + b * pb;  /* the PACKED block */
    uint8_t *pk_off = (to_packed ? dst : (uint8_t *)src) + nb * pb + b;
    if (to_packed) memcpy(pk, al, 16), memcpy(pk + 16, al + 24, 8 * (size_t)r), *pk_off = al[16];
    else memcpy(al, pk, 16), memcpy(al + 24, pk + 16, 8 * (size_t)r), al[16] = *pk_off;
  }
  qio_put_le(&out[28], to_packed ? 1 : 0, 4), qio_put_le(&out[56], bytes, 8);
  qio_reseal(out);
  return out;
}
TEST(qf_io_host, layout_flag_and_conversion) {
  test_rng rng = test_rng_for("qf_io_host.layout_flag_and_conversion");
  char what[200];
  const int rs[] = {1, 5, 8, 13, 21, 32};
  for (int t = 0; t < 6 && !g_test.failed; ++t)
    for (int from = 0; from < 2 && !g_test.failed; ++from) {
      const int q = 3 + (int)rng.below(8), r = rs[t];
      const uint64_t seed = rng.next();
      gamq_qf *f = qio_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, q, r, seed, 0, NULL, from);
      gamq_qf *g = qio_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, q, r, seed, 0, NULL, !from);
      CHECK(f && g);
      gamq_qf_info info;
      gamq_qf_get_info(f, &info);
      std::vector<uint64_t> keys((size_t)rng.below(info.nslots));
      const uint64_t one = rng.below(2) ? qio_key_in_quotient(rng, seed, q, r, rng.below(4)) : 0;
      for (size_t i = 0; i < keys.size(); ++i) keys[i] = one && i % 2 ? one : rng.next(); /* long runs, or not */
      keys.resize(qio_fill_to_full(f, keys));
      CHECK(gamq_qf_build_u64(g, keys.data(), keys.size()) == GAMQ_SUCCESS);
      const qio_buf conv = qio_convert(qio_ser(f), !from), want = qio_ser(g);
      snprintf(what, sizeof what, "q=%d r=%d n=%zu %s -> %s", q, r, keys.size(), from ? "packed" : "aligned",
               from ? "aligned" : "packed");
      CHECK_MSG(conv == want, "%s: the converted file is not the other layout's file", what);
      gamq_qf *h = NULL;
      CHECK(gamq_qf_deserialize(NULL, conv.data(), conv.size(), &h) == GAMQ_SUCCESS && h);
      gamq_qf_info hi;
      CHECK(gamq_qf_get_info(h, &hi) == GAMQ_SUCCESS && hi.layout == (from ? GAMQ_QF_LAYOUT_ALIGNED : GAMQ_QF_LAYOUT_PACKED));
      CHECK_MSG(qio_bytes(h) == qio_bytes(g), "%s: loaded bytes", what);
      gamq_qf_destroy(h);
      /* the converted payload with the original flag: where the two layouts'
         sizes differ it is the wrong size and rejected. Where they agree (one
         block, r = 5, 13, 21: both round up to one 64-byte multiple) the
         payload is read in the other layout: both keep the metadata words in
         bytes 0-15, so it is a valid filter (an empty one, or one whose
         misread offset byte happens to be right) or rejected by validation. */
      qio_buf bad = conv;
      qio_put_le(&bad[28], from ? 1 : 0, 4);
      qio_reseal(bad);
      if (conv.size() != qio_ser(f).size()) qio_reject(bad, GAMQ_ERROR_BAD_FILE, what);
      else {
        gamq_qf *x = NULL;
        const gamq_status s = gamq_qf_deserialize(NULL, bad.data(), bad.size(), &x);
        CHECK_MSG(s == GAMQ_ERROR_BAD_FILE || (s == GAMQ_SUCCESS && x), "%s, same size: status %d", what, (int)s);
        if (s != GAMQ_SUCCESS) qio_reject(bad, GAMQ_ERROR_BAD_FILE, what);
        gamq_qf_destroy(x);
      }
      gamq_qf_destroy(f);
      gamq_qf_destroy(g);
    }
}

/* Files: missing, unreadable, unwritable, empty, foreign. */
TEST(qf_io_host, file_errors) {
  test_rng rng = test_rng_for("qf_io_host.file_errors");
  std::vector<uint64_t> keys;
  const qio_buf good = qio_sample(GAMQ_QF_RSQF, 8, 8, rng.next(), 150, rng, &keys);
  gamq_qf *f = NULL, *g = (gamq_qf *)0x1;
  CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), &f) == GAMQ_SUCCESS);
  const std::string path = qio_path("file_errors"), dir = qio_path("file_errors_dir");
  long long live = g_alloc_live;
  remove(path.c_str());
  CHECK(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_ERROR_IO && g == (gamq_qf *)0x1);
  CHECK(gamq_qf_load(NULL, "", &g) == GAMQ_ERROR_IO && g == (gamq_qf *)0x1);
  CHECK(gamq_qf_save(f, (dir + "/no/such/dir.qf").c_str()) == GAMQ_ERROR_IO);
  /* a directory: cannot be written; opened for reading it fails on read */
#if defined(__linux__)
  CHECK(mkdir(dir.c_str(), 0700) == 0);
  CHECK(gamq_qf_save(f, dir.c_str()) == GAMQ_ERROR_IO);
  CHECK(gamq_qf_load(NULL, dir.c_str(), &g) == GAMQ_ERROR_IO && g == (gamq_qf *)0x1);
  rmdir(dir.c_str());
#endif
  /* empty, foreign, truncated, trailing */
  const char *text = "hello, I am not a filter\r\n";
  qio_buf foreign(text, text + strlen(text));
  qio_buf cases[4] = {qio_buf(), foreign, qio_buf(good.begin(), good.end() - 1), good};
  cases[3].push_back(7);
  for (int c = 0; c < 4; ++c) {
    CHECK(qio_write_file(path, cases[c]));
    CHECK_MSG(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_ERROR_BAD_FILE && g == (gamq_qf *)0x1, "file case %d", c);
  }
  /* a file truncated at every header byte and a few payload bytes */
  for (size_t len = 0; len < good.size() && !g_test.failed; len += len < 80 ? 1 : 1 + rng.below(300)) {
    CHECK(qio_write_file(path, qio_buf(good.begin(), good.begin() + len)));
    CHECK_MSG(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_ERROR_BAD_FILE && g == (gamq_qf *)0x1, "truncated at %zu",
              len);
  }
  CHECK_EQ(g_alloc_live, live);
  /* saving over an existing (longer) file replaces it */
  qio_buf longer(good.size() * 2, 0x33);
  CHECK(qio_write_file(path, longer));
  CHECK(gamq_qf_save(f, path.c_str()) == GAMQ_SUCCESS);
  qio_buf back;
  CHECK(qio_read_file(path, back) && back == good);
  CHECK(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_SUCCESS && qio_bytes(g) == qio_bytes(f));
  gamq_qf_destroy(g);
  remove(path.c_str());
  gamq_qf_destroy(f);
}

#if defined(__linux__)
/* The names in directory dir other than . and .. */
static std::vector<std::string> qio_dir_names(const std::string &dir) {
  std::vector<std::string> names;
  DIR *d = opendir(dir.c_str());
  if (d == NULL) return names;
  for (struct dirent *e = readdir(d); e != NULL; e = readdir(d))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) names.push_back(e->d_name);
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}
/* A new directory of our own in $TMPDIR (or /tmp); "" when none was made. */
static std::string qio_temp_dir(const char *tag) {
  std::string dir = qio_path((std::string(tag) + "_XXXXXX").c_str());
  dir.resize(dir.size() - 3); /* without ".qf": mkdtemp's template ends in XXXXXX */
  return mkdtemp(&dir[0]) != NULL ? dir : std::string();
}
/* gamq_qf_save(f, path) that must fail with GAMQ_ERROR_IO and leave the
   directory dir as it was: the old file at path byte for byte (old NULL:
   none there), no temporary. */
static void qio_save_fails_cleanly(const gamq_qf *f, const std::string &dir, const std::string &path,
                                   const qio_buf *old, const char *what) {
  const std::vector<std::string> names = qio_dir_names(dir);
  const gamq_status s = gamq_qf_save(f, path.c_str());
  qio_buf back;
  CHECK_MSG(s == GAMQ_ERROR_IO, "%s: status %d", what, (int)s);
  if (old) CHECK_MSG(qio_read_file(path, back) && back == *old, "%s: the old file changed", what);
  else CHECK_MSG(!qio_exists(path), "%s: a file appeared", what);
  CHECK_MSG(qio_dir_names(dir) == names, "%s: the directory holds other names now (a temporary left?)", what);
}

/* A failed save leaves what was at the path and nothing else: a write past
   the file size limit (setrlimit, SIGXFSZ ignored; works as root) and a
   read-only directory (skipped as root, who may write there anyway). A
   save that works replaces the file and leaves no temporary (saves over
   links and special files: save_to_links_and_special_files). */
TEST(qf_io_host, failed_save_keeps_old_file) {
  test_rng rng = test_rng_for("qf_io_host.failed_save_keeps_old_file");
  const qio_buf good = qio_sample(GAMQ_QF_RSQF, 8, 8, rng.next(), 150, rng);
  const qio_buf other = qio_sample(GAMQ_QF_SQF, 8, 13, rng.next(), 120, rng);
  gamq_qf *f = NULL, *g = NULL;
  CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), &f) == GAMQ_SUCCESS);
  const std::string dir = qio_temp_dir("failed_save");
  CHECK(!dir.empty());
  const std::string path = dir + "/filter.qf";
  const long long live = g_alloc_live;
  CHECK(qio_write_file(path, other));
  { /* the file size limit: the write fails inside the payload */
    struct rlimit old, lim;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    lim = old;
    lim.rlim_cur = 100; /* past the header, inside the payload */
    if (setrlimit(RLIMIT_FSIZE, &lim) == 0) {
      const std::vector<std::string> names = qio_dir_names(dir);
      const gamq_status s = gamq_qf_save(f, path.c_str());
      setrlimit(RLIMIT_FSIZE, &old);
      qio_buf back;
      CHECK_MSG(s == GAMQ_ERROR_IO, "save past the file size limit: status %d", (int)s);
      CHECK_MSG(qio_read_file(path, back) && back == other, "file size limit: the old file changed");
      CHECK_MSG(qio_dir_names(dir) == names, "file size limit: a temporary file was left");
    } else {
      CHECK_MSG(false, "setrlimit(RLIMIT_FSIZE) failed");
    }
    signal(SIGXFSZ, prev);
  }
  if (geteuid() == 0) {
    printf("    read-only directory: skipped (running as root, who may write there)\n");
  } else {
    CHECK(chmod(dir.c_str(), 0500) == 0);
    qio_save_fails_cleanly(f, dir, path, &other, "read-only directory");
    CHECK(chmod(dir.c_str(), 0700) == 0);
  }
  qio_save_fails_cleanly(f, dir, dir + "/missing/filter.qf", NULL, "a missing directory");
  /* a save that works replaces the file and leaves only it */
  CHECK(gamq_qf_save(f, path.c_str()) == GAMQ_SUCCESS);
  qio_buf back;
  CHECK(qio_read_file(path, back) && back == good);
  CHECK(qio_dir_names(dir) == std::vector<std::string>(1, "filter.qf"));
  CHECK(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_SUCCESS && qio_bytes(g) == qio_bytes(f));
  gamq_qf_destroy(g);
  CHECK_EQ(g_alloc_live, live);
  remove(path.c_str());
  CHECK(rmdir(dir.c_str()) == 0);
  gamq_qf_destroy(f);
}

/* What is at path, found without following a link there or opening it (a
   FIFO would block): its type, device and inode, and a link's text; ""
   when nothing is there. The same string later: the same node, untouched. */
static std::string qio_node(const std::string &path) {
  struct stat st;
  char head[96], text[4096];
  if (lstat(path.c_str(), &st) != 0) return "";
  snprintf(head, sizeof head, "%o %llu %llu ", (unsigned)(st.st_mode & S_IFMT), (unsigned long long)st.st_dev,
           (unsigned long long)st.st_ino);
  std::string node = head;
  if (S_ISLNK(st.st_mode)) {
    const ssize_t n = readlink(path.c_str(), text, sizeof text);
    if (n > 0) node.append(text, (size_t)n);
  }
  return node;
}
/* gamq_qf_save(f, path) that must be refused with GAMQ_ERROR_IO and leave
   the node at path, the node at also (what a link there resolves to; ""
   for none) and the names in directory dir as they were (no temporary). */
static void qio_save_refused(const gamq_qf *f, const std::string &dir, const std::string &path,
                             const std::string &also, const char *what) {
  const std::vector<std::string> names = qio_dir_names(dir);
  const std::string node = qio_node(path), also_node = also.empty() ? "" : qio_node(also);
  const gamq_status s = gamq_qf_save(f, path.c_str());
  const bool same = qio_node(path) == node, also_same = also.empty() || qio_node(also) == also_node;
  const bool clean = qio_dir_names(dir) == names;
  CHECK_MSG(s == GAMQ_ERROR_IO, "%s: status %d (%s), want GAMQ_ERROR_IO", what, (int)s, gamq_status_string(s));
  CHECK_MSG(same, "%s: the node at the path was replaced or changed", what);
  CHECK_MSG(also_same, "%s: the node the path resolves to was replaced or changed", what);
  CHECK_MSG(clean, "%s: the directory holds other names now (a temporary left?)", what);
}
/* Remove directory dir and everything under it (links removed, not followed). */
static void qio_remove_dir(const std::string &dir) {
  const std::vector<std::string> names = qio_dir_names(dir);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string p = dir + "/" + names[i];
    struct stat st;
    if (lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) qio_remove_dir(p);
    else remove(p.c_str());
  }
  rmdir(dir.c_str());
}

/* Saves to what is not a plain file. A symbolic link (absolute, to another
   link, relative from another directory) stays the same link: the new
   bytes replace the file it resolves to, through a temporary beside that
   file, and no name appears or goes. A destination that is not a regular
   file (a directory, a FIFO, a socket, a character device; directly or
   through a link) and a link that resolves to nothing (dangling, a loop)
   are refused with GAMQ_ERROR_IO, every node as it was. The FIFO is never
   opened (by the save or here), so nothing blocks. /dev/null itself is
   tried only when all before it passed (a link to it refused): a save
   that replaced the node at its path would replace /dev/null as root. */
TEST(qf_io_host, save_to_links_and_special_files) {
  const std::string dir = qio_temp_dir("links");
  CHECK(!dir.empty());
  test_rng rng = test_rng_for("qf_io_host.save_to_links_and_special_files");
  const qio_buf good = qio_sample(GAMQ_QF_RSQF, 8, 8, rng.next(), 150, rng);
  const qio_buf other = qio_sample(GAMQ_QF_SQF, 8, 13, rng.next(), 120, rng);
  gamq_qf *f = NULL, *g = NULL;
  CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), &f) == GAMQ_SUCCESS);
  const std::string sub = dir + "/sub", target = dir + "/target.qf";
  const std::string links[3] = {dir + "/link.qf", dir + "/link2.qf", sub + "/rel.qf"};
  const char *link_what[3] = {"an absolute link", "a link to a link", "a relative link in another directory"};
  const long long live = g_alloc_live;
  CHECK(mkdir(sub.c_str(), 0700) == 0);
  CHECK(qio_write_file(target, other));
  CHECK(symlink(target.c_str(), links[0].c_str()) == 0);
  CHECK(symlink("link.qf", links[1].c_str()) == 0);
  CHECK(symlink("../target.qf", links[2].c_str()) == 0);
  for (int i = 0; i < 3; ++i) {
    const std::vector<std::string> names = qio_dir_names(dir), sub_names = qio_dir_names(sub);
    std::string nodes[3];
    for (int j = 0; j < 3; ++j) nodes[j] = qio_node(links[j]);
    CHECK(qio_write_file(target, other));
    CHECK_MSG(gamq_qf_save(f, links[i].c_str()) == GAMQ_SUCCESS, "save to %s", link_what[i]);
    for (int j = 0; j < 3; ++j)
      CHECK_MSG(qio_node(links[j]) == nodes[j], "save to %s: link %d is no longer the same link", link_what[i], j);
    qio_buf back;
    CHECK_MSG(qio_read_file(target, back) && back == good, "save to %s: the target lacks the new bytes", link_what[i]);
    CHECK_MSG(qio_dir_names(dir) == names && qio_dir_names(sub) == sub_names,
              "save to %s: names appeared or went (a temporary left?)", link_what[i]);
    g = NULL;
    CHECK_MSG(gamq_qf_load(NULL, links[i].c_str(), &g) == GAMQ_SUCCESS && qio_bytes(g) == qio_bytes(f),
              "load through %s", link_what[i]);
    gamq_qf_destroy(g);
  }
  /* links to nothing: no file is created where a dangling link points */
  CHECK(symlink("none.qf", (dir + "/dangling.qf").c_str()) == 0);
  qio_save_refused(f, dir, dir + "/dangling.qf", "", "a dangling link");
  CHECK(symlink("loop.qf", (dir + "/loop.qf").c_str()) == 0);
  qio_save_refused(f, dir, dir + "/loop.qf", "", "a link to itself");
  /* a directory, directly and through a link: its contents stay too */
  const std::vector<std::string> sub_names = qio_dir_names(sub);
  qio_save_refused(f, dir, sub, "", "a directory");
  CHECK(symlink("sub", (dir + "/to_dir.qf").c_str()) == 0);
  qio_save_refused(f, dir, dir + "/to_dir.qf", sub, "a link to a directory");
  CHECK(qio_dir_names(sub) == sub_names);
  /* a FIFO, directly and through a link */
  const std::string fifo = dir + "/fifo.qf";
  CHECK(mkfifo(fifo.c_str(), 0600) == 0);
  qio_save_refused(f, dir, fifo, "", "a FIFO");
  CHECK(symlink("fifo.qf", (dir + "/to_fifo.qf").c_str()) == 0);
  qio_save_refused(f, dir, dir + "/to_fifo.qf", fifo, "a link to a FIFO");
  /* a socket bound in the directory */
  const std::string sock = dir + "/sock.qf";
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  if (fd >= 0 && sock.size() < sizeof addr.sun_path) {
    memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
    CHECK(bind(fd, (const struct sockaddr *)&addr, sizeof addr) == 0);
    qio_save_refused(f, dir, sock, "", "a socket");
  } else {
    printf("    socket: skipped (no AF_UNIX socket, or the path is too long for one)\n");
  }
  if (fd >= 0) close(fd);
  /* a character device: through a link, then /dev/null itself */
  struct stat st;
  CHECK(symlink("/dev/null", (dir + "/to_null.qf").c_str()) == 0);
  qio_save_refused(f, dir, dir + "/to_null.qf", "/dev/null", "a link to /dev/null");
  if (!g_test.failed) qio_save_refused(f, "/dev", "/dev/null", "", "/dev/null");
  else
    printf("    /dev/null itself: not tried (a check before it failed)\n");
  CHECK(lstat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
  CHECK_EQ(g_alloc_live, live);
  qio_remove_dir(dir);
  CHECK(!qio_exists(dir));
  gamq_qf_destroy(f);
}
#endif

/* Headers nobody vouches for: loads and deserializes answer BAD_FILE before
   any allocation the file's own length does not justify. A header of the
   largest filter (RSQF q = 32, r = 32: 21.5 GB) with nothing or a few MiB
   after it, fields that overflow or disagree, a count the payload does not
   hold, and a valid file cut short. */
TEST(qf_io_host, hostile_headers) {
  test_rng rng = test_rng_for("qf_io_host.hostile_headers");
  const std::string path = qio_path("hostile_headers");
  const long long live = g_alloc_live;
  uint64_t nslots = 0;
  size_t bytes = 0;
  CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 32, 32, 0, &nslots, &bytes));
  qio_buf huge(72, 0);
  const uint8_t magic[8] = {0x89, 'G', 'A', 'M', 'Q', 'F', '\r', '\n'};
  memcpy(huge.data(), magic, 8);
  qio_put_le(&huge[8], 1, 4), qio_put_le(&huge[12], 72, 4), qio_put_le(&huge[16], GAMQ_QF_RSQF, 4);
  qio_put_le(&huge[20], 32, 4), qio_put_le(&huge[24], 32, 4), qio_put_le(&huge[32], rng.next(), 8);
  qio_put_le(&huge[40], 0, 8), qio_put_le(&huge[48], nslots, 8), qio_put_le(&huge[56], bytes, 8);
  qio_reseal(huge);
  struct hostile {
    int field, width; /* byte offset and width of the field set (-1: none) */
    uint64_t value;
    size_t body; /* bytes after the header */
  } cases[] = {{-1, 0, 0, 0},
               {-1, 0, 0, (size_t)5 << 20},
               {56, 8, ~(uint64_t)0, 0},                  /* payload: 2^64 - 1 */
               {56, 8, ~(uint64_t)0 - 71, 0},             /* 72 + payload wraps to 0 */
               {48, 8, ~(uint64_t)0, 0},                  /* nslots */
               {40, 8, ~(uint64_t)0, 0},                  /* count */
               {20, 4, 0xffffffffu, 0},                   /* q */
               {24, 4, 0xffffffffu, 0},                   /* r */
               {12, 4, 0xffffffffu, 0}};                  /* header bytes */
  for (size_t c = 0; c < sizeof cases / sizeof cases[0] && !g_test.failed; ++c) {
    qio_buf b = huge;
    if (cases[c].field >= 0) qio_put_le(&b[cases[c].field], cases[c].value, cases[c].width);
    b.resize(72 + cases[c].body, 0);
    CHECK(qio_write_file(path, b));
    gamq_qf *g = (gamq_qf *)0x1;
    g_alloc_largest = 0;
    CHECK_MSG(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_ERROR_BAD_FILE && g == (gamq_qf *)0x1, "case %zu", c);
    CHECK_MSG(g_alloc_largest <= 2 * b.size() + ((size_t)2 << 20), "case %zu: load asked for %zu bytes of a %zu-byte file",
              c, g_alloc_largest, b.size());
    g_alloc_largest = 0;
    qio_reject(b, GAMQ_ERROR_BAD_FILE, "hostile header");
    CHECK_MSG(g_alloc_largest == 0, "case %zu: deserialize asked for %zu bytes", c, g_alloc_largest);
  }
  /* a header whose count the payload does not hold: RSQF q = 20, r = 1 (a
     byte a slot), count = nslots, every payload byte zero. The walk finds
     no fingerprint before anything is allocated for the nslots it claims. */
  {
    CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 20, 1, 0, &nslots, &bytes));
    qio_buf b(72 + bytes, 0);
    memcpy(b.data(), huge.data(), 72);
    qio_put_le(&b[24], 1, 4), qio_put_le(&b[20], 20, 4), qio_put_le(&b[40], nslots, 8);
    qio_put_le(&b[48], nslots, 8), qio_put_le(&b[56], bytes, 8);
    qio_reseal(b);
    CHECK(qio_write_file(path, b));
    gamq_qf *g = (gamq_qf *)0x1;
    g_alloc_largest = 0;
    CHECK(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_ERROR_BAD_FILE && g == (gamq_qf *)0x1);
    CHECK_MSG(g_alloc_largest <= b.size(), "a count the payload does not hold: load asked for %zu bytes of a %zu-byte file",
              g_alloc_largest, b.size());
    g_alloc_largest = 0;
    qio_reject(b, GAMQ_ERROR_BAD_FILE, "a count the payload does not hold");
    CHECK_MSG(g_alloc_largest == 0, "a count the payload does not hold: deserialize asked for %zu bytes", g_alloc_largest);
  }
  /* a valid file cut short in its payload, by one byte and by half */
  const qio_buf good = qio_sample(GAMQ_QF_RSQF, 12, 8, rng.next(), 3000, rng);
  for (int cut = 0; cut < 2 && !g_test.failed; ++cut) {
    const size_t len = cut ? 72 + (good.size() - 72) / 2 : good.size() - 1;
    gamq_qf *g = (gamq_qf *)0x1;
    CHECK(qio_write_file(path, qio_buf(good.begin(), good.begin() + len)));
    g_alloc_largest = 0;
    CHECK(gamq_qf_load(NULL, path.c_str(), &g) == GAMQ_ERROR_BAD_FILE && g == (gamq_qf *)0x1);
    CHECK(g_alloc_largest <= good.size());
  }
  CHECK_EQ(g_alloc_live, live);
  remove(path.c_str());
}

TEST(qf_io_host, null_arguments) {
  test_rng rng = test_rng_for("qf_io_host.null_arguments");
  const qio_buf good = qio_sample(GAMQ_QF_SQF, 5, 5, rng.next(), 20, rng);
  gamq_qf *f = NULL, *g = (gamq_qf *)0x1;
  CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), &f) == GAMQ_SUCCESS);
  size_t n = 0;
  const std::string path = qio_path("null_arguments");
  CHECK(gamq_qf_serialize(NULL, NULL, &n) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_serialize(f, NULL, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  qio_buf small(good.size() - 1, 0x5a);
  n = small.size();
  CHECK(gamq_qf_serialize(f, small.data(), &n) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(n == small.size() && small == qio_buf(good.size() - 1, 0x5a)); /* nothing written */
  CHECK(gamq_qf_deserialize(NULL, NULL, good.size(), &g) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_deserialize(NULL, good.data(), good.size(), NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_save(NULL, path.c_str()) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(!qio_exists(path));
  CHECK(gamq_qf_save(f, NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_load(NULL, NULL, &g) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(gamq_qf_save(f, path.c_str()) == GAMQ_SUCCESS);
  CHECK(gamq_qf_load(NULL, path.c_str(), NULL) == GAMQ_ERROR_INVALID_ARGUMENT);
  CHECK(g == (gamq_qf *)0x1);
  /* a bad desc for the new filter: INVALID_ARGUMENT, after the data checked out */
  gamq_qf_desc d = qio_desc((gamq_backend)9);
  CHECK(gamq_qf_load(&d, path.c_str(), &g) == GAMQ_ERROR_INVALID_ARGUMENT && g == (gamq_qf *)0x1);
  d = qio_desc(GAMQ_BACKEND_CUDA);
  if (!g_test.have_gpu) {
#if defined(__CUDACC__)
    CHECK(gamq_qf_load(&d, path.c_str(), &g) == GAMQ_ERROR_NO_DEVICE && g == (gamq_qf *)0x1);
#else
    CHECK(gamq_qf_load(&d, path.c_str(), &g) == GAMQ_ERROR_BACKEND_UNAVAILABLE && g == (gamq_qf *)0x1);
#endif
  }
  remove(path.c_str());
  gamq_qf_destroy(f);
  CHECK(strcmp(gamq_status_string(GAMQ_ERROR_IO), "a file could not be opened, read or written") == 0);
  CHECK(strcmp(gamq_status_string(GAMQ_ERROR_BAD_FILE),
               "not a gpuamq filter file, a newer format version, or corrupt (nothing was loaded)") == 0);
  CHECK(GAMQ_ERROR_IO == -9 && GAMQ_ERROR_BAD_FILE == -10);
}

/* Every host allocation of every allocating call fails in turn: the call
   says OUT_OF_MEMORY, changes nothing, leaks nothing. */
TEST(qf_io_host, allocation_failure) {
  test_rng rng = test_rng_for("qf_io_host.allocation_failure");
  const std::string path = qio_path("allocation_failure"), path2 = qio_path("allocation_failure_2");
  for (int shape = 0; shape < 3 && !g_test.failed; ++shape) { /* SQF, RSQF, RSQF PACKED */
    const int kind = shape ? GAMQ_QF_RSQF : GAMQ_QF_SQF;
    std::vector<uint64_t> keys;
    const qio_buf good = qio_sample((gamq_qf_kind)kind, 8, 13, rng.next(), 180, rng, &keys, shape == 2);
    gamq_qf *f = NULL, *fd = NULL;
    gamq_qf_desc dh = qio_desc(GAMQ_BACKEND_HOST); /* not AUTO: on a GPU machine that is CUDA (device allocations) */
    CHECK(gamq_qf_deserialize(&dh, good.data(), good.size(), &f) == GAMQ_SUCCESS);
    gamq_qf_desc dd = qio_desc(GAMQ_BACKEND_HOST, 1);
    CHECK(gamq_qf_deserialize(&dd, good.data(), good.size(), &fd) == GAMQ_SUCCESS); /* dedup builds */
    CHECK(gamq_qf_save(f, path.c_str()) == GAMQ_SUCCESS);
    const qio_buf before = qio_bytes(f);
    std::vector<uint64_t> gone(keys.begin(), keys.begin() + 40);
    /* ops: 0 deserialize, 1 load, 2 save, 3 delete, 4 dedup build, 5 serialize (allocates nothing) */
    for (int op = 0; op < 6 && !g_test.failed; ++op) {
      long long at = 0;
      for (;; ++at) {
        long long live = g_alloc_live, calls = g_alloc_calls;
        gamq_qf *g = (gamq_qf *)0x1;
        uint64_t del = 77;
        size_t n = good.size();
        qio_buf out(n);
        remove(path2.c_str());
        g_alloc_fail_at = g_alloc_calls + at;
        gamq_status s = op == 0   ? gamq_qf_deserialize(NULL, good.data(), good.size(), &g)
                        : op == 1 ? gamq_qf_load(NULL, path.c_str(), &g)
                        : op == 2 ? gamq_qf_save(f, path2.c_str())
                        : op == 3 ? gamq_qf_delete_u64(f, gone.data(), gone.size(), &del)
                        : op == 4 ? gamq_qf_build_u64(fd, keys.data(), keys.size())
                                  : gamq_qf_serialize(f, out.data(), &n);
        bool failed_one = g_alloc_fail_at < g_alloc_calls;
        g_alloc_fail_at = -1;
        if (!failed_one) {
          CHECK_MSG(s == GAMQ_SUCCESS, "op %d: status %d", op, (int)s);
          if (op <= 1) {
            CHECK(qio_bytes(g) == before);
            gamq_qf_destroy(g);
          }
          if (op == 2) CHECK(qio_read_file(path2, out) && out == good);
          if (op == 3) { /* put the keys back: the same filter as before */
            CHECK(del == gone.size());
            CHECK(gamq_qf_insert_u64(f, gone.data(), gone.size()) == GAMQ_SUCCESS && qio_bytes(f) == before);
          }
          if (op == 5) CHECK(out == good && g_alloc_calls == calls);
          CHECK_EQ(g_alloc_live, live);
          break;
        }
        CHECK_MSG(s == GAMQ_ERROR_OUT_OF_MEMORY, "op %d, allocation %lld: status %d", op, at, (int)s);
        CHECK_MSG(g == (gamq_qf *)0x1 && del == 77, "op %d, allocation %lld: an output was written", op, at);
        CHECK_MSG(g_alloc_live == live, "op %d, allocation %lld: %lld blocks leaked", op, at, g_alloc_live - live);
        CHECK_MSG(qio_bytes(f) == before, "op %d, allocation %lld: the filter changed", op, at);
        if (op == 2) CHECK_MSG(!qio_exists(path2), "op %d, allocation %lld: a file was written", op, at);
        if (op == 4) CHECK(qio_count(fd) == qio_count(f));
      }
      CHECK_MSG(op == 5 || at >= 1, "op %d made no allocation", op);
      if (op == 1) CHECK_MSG(at >= 5, "load made only %lld allocations", at); /* buffer, check x3, filter x2 */
    }
    gamq_qf_destroy(f);
    gamq_qf_destroy(fd);
  }
  remove(path.c_str());
  remove(path2.c_str());
  /* q + r = 64: the shape is right, and its 20 GiB allocation failing is a
     clean OUT_OF_MEMORY (nothing is allocated for real) */
  uint64_t ns = 0;
  size_t bytes = 0;
  CHECK(amqt_qf_layout(GAMQ_QF_RSQF, 32, 32, 0, &ns, &bytes));
  CHECK(ns == ((uint64_t)1 << 32) + 655360);
  for (int which = 1; which <= 2; ++which) { /* the struct, then the 20 GiB */
    gamq_qf *h = (gamq_qf *)0x1;
    long long live = g_alloc_live;
    gamq_qf_desc d = qio_desc(GAMQ_BACKEND_HOST);
    g_alloc_fail_at = g_alloc_calls + which - 1;
    gamq_status s = gamq_qf_create(&d, GAMQ_QF_RSQF, 32, 32, &h);
    bool failed_one = g_alloc_fail_at < g_alloc_calls;
    g_alloc_fail_at = -1;
    CHECK(failed_one && s == GAMQ_ERROR_OUT_OF_MEMORY && h == (gamq_qf *)0x1 && g_alloc_live == live);
  }
  for (int t = 0; t < 100; ++t) { /* the split at p = 64: the whole hash, quotient = its top 32 bits */
    uint64_t key = rng.next(), seed = rng.next(), h = amqt_hash64(key, seed);
    CHECK(amqt_fingerprint_of(key, seed, 32, 32) == h && h >> 32 == amqt_fingerprint_of(key, seed, 32, 0));
    CHECK(amqt_unhash64(h, seed) == key); /* the hash is a bijection (internal_amq.h inverts it) */
  }
}

/* Deduplicating builds on HOST: count = distinct fingerprints, the bytes of
   a plain build of the distinct keys, FULL judged on what is kept. */
TEST(qf_io_host, dedup_build) {
  test_rng rng = test_rng_for("qf_io_host.dedup_build");
  /* the documented example */
  gamq_qf *e = qio_make(GAMQ_BACKEND_HOST, GAMQ_QF_RSQF, 10, 8, 0, 1);
  uint64_t ex[4] = {5, 9, 9, 12};
  CHECK(e && gamq_qf_build_u64(e, ex, 4) == GAMQ_SUCCESS && qio_count(e) == 3);
  CHECK(gamq_qf_insert_u64(e, ex, 4) == GAMQ_SUCCESS && qio_count(e) == 7); /* inserts keep copies */
  CHECK(gamq_qf_build_u64(e, NULL, 0) == GAMQ_SUCCESS && qio_count(e) == 0);
  gamq_qf_destroy(e);
  for (int s = 0; s < QIO_SHAPES && !g_test.failed; ++s) {
    const gamq_qf_kind kind = (gamq_qf_kind)qio_shapes[s][0];
    const int q = qio_shapes[s][1], r = qio_shapes[s][2], layout = qio_shapes[s][3];
    const uint64_t seed = rng.next();
    gamq_qf *d = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 1, NULL, layout);
    gamq_qf *p = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, NULL, layout);
    CHECK(d && p);
    gamq_qf_info info;
    gamq_qf_get_info(d, &info);
    for (int mode = 0; mode < 4 && !g_test.failed; ++mode) {
      /* 0 few distinct keys, many times (more keys than slots); 1 uniform;
         2 one key; 3 uniform, each key twice (u32) */
      size_t n = mode == 0 ? (size_t)info.nslots * 2 : mode == 2 ? 500 : (size_t)(0.7 * (double)((uint64_t)1 << q)) + 1;
      std::vector<uint64_t> pool(mode == 0 ? (size_t)((uint64_t)1 << q) / 3 + 1 : 1);
      for (size_t i = 0; i < pool.size(); ++i) pool[i] = rng.next();
      std::vector<uint64_t> keys(n);
      for (size_t i = 0; i < n; ++i)
        keys[i] = mode == 0 ? pool[rng.below(pool.size())] : mode == 2 ? pool[0] : mode == 3 && i % 2 ? keys[i - 1]
                                                                                     : rng.next();
      if (mode == 3)
        for (size_t i = 0; i < n; ++i) keys[i] = (uint32_t)keys[i];
      qio_model distinct;
      for (size_t i = 0; i < n; ++i) distinct.insert(qio_fp(d, keys[i]));
      std::set<uint64_t> uniq(distinct.begin(), distinct.end());
      qio_model once(uniq.begin(), uniq.end());
      bool fits = qio_fits(once, r, info.nslots);
      gamq_status st;
      if (mode == 3) {
        std::vector<uint32_t> k32(keys.begin(), keys.end());
        st = gamq_qf_build_u32(d, k32.data(), n);
      } else {
        st = gamq_qf_build_u64(d, keys.data(), n);
      }
      CHECK_MSG(st == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "shape %d mode %d: status %d", s, mode, (int)st);
      if (st != GAMQ_SUCCESS) continue;
      CHECK_MSG(qio_count(d) == once.size(), "shape %d mode %d: count %llu, distinct %zu", s, mode,
                (unsigned long long)qio_count(d), once.size());
      CHECK_MSG(qio_bytes(d) == qio_reference(kind, q, r, seed, once, layout), "shape %d mode %d: bytes", s, mode);
      if (mode == 0) /* the plain build of the same keys does not fit */
        CHECK(gamq_qf_build_u64(p, keys.data(), n) == GAMQ_ERROR_FULL);
      std::vector<uint8_t> found(n + 1, 0);
      CHECK(gamq_qf_lookup_u64(d, keys.data(), n, found.data()) == GAMQ_SUCCESS);
      for (size_t i = 0; i < n; ++i) CHECK(found[i] == 1);
    }
    gamq_qf_destroy(d);
    gamq_qf_destroy(p);
  }
}

/* The multiset model of test_qf.cu with save / load steps: random build
   (plain or deduplicating) / insert / delete / merge / save-load (buffer or
   file, into a filter with another desc), and after every step: count,
   sorted extract, bytes equal to a fresh reference build, stored keys found. */
static void qio_model_run(gamq_qf_kind kind, int layout, int q, int r, int steps, test_rng &rng) {
  char what[200];
  const uint64_t seed = rng.next();
  gamq_qf *f = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, (int)rng.below(2), NULL, layout);
  CHECK(f);
  gamq_qf_info info;
  gamq_qf_get_info(f, &info);
  const uint64_t cap = info.nslots;
  std::vector<uint64_t> pool(cap / 3 + 2);
  for (size_t i = 0; i < pool.size(); ++i) pool[i] = rng.next();
  qio_model model;
  std::multiset<uint64_t> keys;
  const std::string path = qio_path("model");
  for (int step = 0; step < steps && !g_test.failed; ++step) {
    int op = (int)rng.below(6);
    snprintf(what, sizeof what, "%s q=%d r=%d step %d op %d", qio_name(kind, layout), q, r, step, op);
    const qio_buf before = qio_bytes(f);
    size_t n = op == 0 ? (size_t)rng.below(cap + cap / 8 + 2) : (size_t)rng.below(cap / 4 + 3);
    if (step % 9 == 4) n = 0; /* empty batches */
    std::vector<uint64_t> batch(n);
    for (size_t i = 0; i < n; ++i) {
      batch[i] = rng.below(3) ? pool[rng.below(pool.size())] : rng.next(); /* duplicates */
      if (op == 2 && !keys.empty() && rng.below(4)) {
        std::multiset<uint64_t>::iterator it = keys.begin();
        std::advance(it, (long)rng.below(std::min<uint64_t>(keys.size(), 64)));
        batch[i] = *it;
      }
    }
    gamq_status s = GAMQ_SUCCESS;
    if (op == 0 || op == 1) {
      int dedup = f->dedup_build;
      qio_model m2 = op == 0 ? qio_model() : model;
      std::set<uint64_t> seen;
      for (size_t i = 0; i < n; ++i) {
        uint64_t fp = qio_fp(f, batch[i]);
        if (op == 0 && dedup && !seen.insert(fp).second) continue;
        m2.insert(fp);
      }
      bool fits = qio_fits(m2, r, cap);
      s = op == 0 ? gamq_qf_build_u64(f, batch.data(), n) : gamq_qf_insert_u64(f, batch.data(), n);
      CHECK_MSG(s == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: status %d, fits %d", what, (int)s, (int)fits);
      if (s == GAMQ_SUCCESS) {
        model.swap(m2);
        if (op == 0) keys.clear();
        keys.insert(batch.begin(), batch.end());
      } else {
        CHECK_MSG(qio_bytes(f) == before, "%s: FULL changed the filter", what);
      }
    } else if (op == 2) {
      uint64_t expect = 0, del = ~(uint64_t)0;
      for (size_t i = 0; i < n; ++i) {
        qio_model::iterator it = model.find(qio_fp(f, batch[i]));
        if (it != model.end()) model.erase(it), ++expect;
        std::multiset<uint64_t>::iterator kt = keys.find(batch[i]);
        if (kt != keys.end()) keys.erase(kt);
      }
      CHECK(gamq_qf_delete_u64(f, batch.data(), n, &del) == GAMQ_SUCCESS);
      CHECK_EQ(del, expect);
      std::multiset<uint64_t> k2; /* keep the keys whose fingerprints are still stored */
      qio_model left = model;
      for (std::multiset<uint64_t>::iterator it = keys.begin(); it != keys.end(); ++it) {
        qio_model::iterator mt = left.find(qio_fp(f, *it));
        if (mt != left.end()) left.erase(mt), k2.insert(*it);
      }
      keys.swap(k2);
    } else if (op == 3) {
      gamq_qf *g = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, NULL, layout);
      CHECK(g);
      if (gamq_qf_build_u64(g, batch.data(), n) == GAMQ_SUCCESS) {
        qio_model m2 = model;
        for (size_t i = 0; i < n; ++i) m2.insert(qio_fp(f, batch[i]));
        s = rng.below(2) ? gamq_qf_merge_sync(f, f, g, NULL) : gamq_qf_merge_sync(f, g, f, NULL);
        CHECK_MSG(s == (qio_fits(m2, r, cap) ? GAMQ_SUCCESS : GAMQ_ERROR_FULL), "%s: merge status %d", what, (int)s);
        if (s == GAMQ_SUCCESS) {
          model.swap(m2);
          keys.insert(batch.begin(), batch.end());
        } else {
          CHECK_MSG(qio_bytes(f) == before, "%s: FULL merge changed the filter", what);
        }
      }
      gamq_qf_destroy(g);
    } else { /* save and load: replaces f by its copy (another dedup setting) */
      gamq_qf *g = NULL;
      gamq_qf_desc d = qio_desc(GAMQ_BACKEND_HOST, (int)rng.below(2));
      d.build_method = (gamq_scan_method)rng.below(5);
      if (op == 4) {
        CHECK(gamq_qf_save(f, path.c_str()) == GAMQ_SUCCESS);
        CHECK(gamq_qf_load(&d, path.c_str(), &g) == GAMQ_SUCCESS);
      } else {
        qio_buf b = qio_ser(f);
        CHECK(!b.empty() && gamq_qf_deserialize(&d, b.data(), b.size(), &g) == GAMQ_SUCCESS);
      }
      CHECK_MSG(qio_bytes(g) == before, "%s: load changed the bytes", what);
      gamq_qf_destroy(f);
      f = g;
    }
    CHECK_OK_SO_FAR();
    CHECK_MSG(qio_count(f) == model.size(), "%s: count %llu, model %zu", what, (unsigned long long)qio_count(f),
              model.size());
    std::vector<uint64_t> want(model.begin(), model.end()), got(model.size() + 1, 0xA5A5A5A5A5A5A5A5ull);
    size_t w = 0;
    CHECK(gamq_qf_extract(f, got.data(), got.size(), &w) == GAMQ_SUCCESS && w == want.size());
    CHECK_ARRAYS(want.data(), got.data(), want.size(), what);
    CHECK_MSG(qio_bytes(f) == qio_reference(kind, q, r, seed, model, layout), "%s: bytes differ from a fresh build",
              what);
    std::vector<uint64_t> kv(keys.begin(), keys.end());
    std::vector<uint8_t> found(kv.size() + 1, 0xA5);
    CHECK(gamq_qf_lookup_u64(f, kv.data(), kv.size(), found.data()) == GAMQ_SUCCESS);
    for (size_t i = 0; i < kv.size(); ++i) CHECK_MSG(found[i] == 1, "%s: stored key %zu not found", what, i);
  }
  remove(path.c_str());
  gamq_qf_destroy(f);
}

TEST(qf_io_host, multiset_model_with_save_load) {
  test_rng rng = test_rng_for("qf_io_host.multiset_model_with_save_load");
  const int shapes[][3] = {{GAMQ_QF_SQF, 6, 5},  {GAMQ_QF_SQF, 8, 13}, {GAMQ_QF_SQF, 5, 29}, {GAMQ_QF_RSQF, 1, 1},
                           {GAMQ_QF_RSQF, 6, 1}, {GAMQ_QF_RSQF, 8, 5}, {GAMQ_QF_RSQF, 7, 8}, {GAMQ_QF_RSQF, 9, 20},
                           {GAMQ_QF_RSQF, 5, 32}};
  for (int layout = 0; layout < 2; ++layout) /* RSQF shapes in both layouts */
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && !g_test.failed; ++s)
      for (int rep = 0; rep < 2 && !g_test.failed; ++rep)
        if (!layout || shapes[s][0] == GAMQ_QF_RSQF)
          qio_model_run((gamq_qf_kind)shapes[s][0], layout, shapes[s][1], shapes[s][2], 30, rng);
}

/* ---------------------------------------------------------------------------
   GPU tests
   ------------------------------------------------------------------------- */
#if defined(__CUDACC__)

/* A device allocator that counts live blocks and fails from the k-th call on. */
struct qio_dev_alloc {
  long long live, calls, fail_from;
};
static void *qio_dev_alloc_fn(void *user, size_t bytes, gamq_stream) {
  qio_dev_alloc *a = (qio_dev_alloc *)user;
  if (a->fail_from >= 0 && a->calls++ >= a->fail_from) return NULL;
  void *p = NULL;
  if (cudaMalloc(&p, bytes) != cudaSuccess) return NULL;
  ++a->live;
  return p;
}
static void qio_dev_free_fn(void *user, void *p, gamq_stream) {
  qio_dev_alloc *a = (qio_dev_alloc *)user;
  if (p) --a->live, cudaFree(p);
}

/* HOST and CUDA filters of the same keys serialize to the same bytes; files
   cross between the backends both ways; a failing device allocator during
   load is a clean OUT_OF_MEMORY. */
GPU_TEST(qf_io_cuda, files_cross_backends) {
  test_rng rng = test_rng_for("qf_io_cuda.files_cross_backends");
  char what[200];
  for (int s = 0; s < QIO_SHAPES && !g_test.failed; ++s) {
    const gamq_qf_kind kind = (gamq_qf_kind)qio_shapes[s][0];
    const int q = qio_shapes[s][1], r = qio_shapes[s][2], layout = qio_shapes[s][3];
    const uint64_t seed = rng.next();
    gamq_qf *h = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 0, NULL, layout);
    gamq_qf *c = qio_make(GAMQ_BACKEND_CUDA, kind, q, r, seed, 0, NULL, layout);
    CHECK(h && c);
    gamq_qf_info info;
    gamq_qf_get_info(h, &info);
    const double fills[] = {0.0, 0.5, 0.9, 2.0};
    for (int fi = 0; fi < 4 && !g_test.failed; ++fi) {
      std::vector<uint64_t> keys((size_t)(fills[fi] * (double)((uint64_t)1 << q)));
      for (size_t i = 0; i < keys.size(); ++i) keys[i] = i % 7 == 6 ? keys[i - 1] : rng.next();
      if (fi == 3) keys.resize(qio_fill_to_full(h, keys)); /* full */
      CHECK(gamq_qf_build_u64(h, keys.data(), keys.size()) == GAMQ_SUCCESS);
      CHECK(gamq_qf_build_u64(c, keys.data(), keys.size()) == GAMQ_SUCCESS);
      snprintf(what, sizeof what, "%s q=%d r=%d n=%zu", qio_name(kind, layout), q, r, keys.size());
      qio_buf bh = qio_ser(h), bc = qio_ser(c);
      CHECK_MSG(!bh.empty() && bh == bc, "%s: HOST and CUDA serialize differently", what);
      qio_round_trip(h, keys, GAMQ_BACKEND_CUDA, what); /* HOST file into CUDA */
      qio_round_trip(c, keys, GAMQ_BACKEND_HOST, what); /* CUDA file into HOST */
      qio_round_trip(c, keys, GAMQ_BACKEND_AUTO, what);
    }
    /* a device allocator that fails: OUT_OF_MEMORY, nothing left on either side */
    qio_buf b = qio_ser(h);
    qio_dev_alloc counter = {0, 0, 0};
    gamq_qf_desc d = qio_desc(GAMQ_BACKEND_CUDA);
    d.allocator.alloc = qio_dev_alloc_fn, d.allocator.free = qio_dev_free_fn, d.allocator.user = &counter;
    gamq_qf *g = (gamq_qf *)0x1;
    long long live = g_alloc_live;
    CHECK(gamq_qf_deserialize(&d, b.data(), b.size(), &g) == GAMQ_ERROR_OUT_OF_MEMORY);
    CHECK(g == (gamq_qf *)0x1 && counter.live == 0 && g_alloc_live == live);
    counter.fail_from = -1; /* and with it working, the filter lives in its memory */
    CHECK(gamq_qf_deserialize(&d, b.data(), b.size(), &g) == GAMQ_SUCCESS && counter.live == 1);
    CHECK(qio_bytes(g) == qio_bytes(h));
    gamq_qf_destroy(g);
    CHECK(counter.live == 0);
    gamq_qf_destroy(h);
    gamq_qf_destroy(c);
  }
}

/* Every device allocation of every allocating CUDA call fails in turn (the
   filter's allocator): OUT_OF_MEMORY, the filter byte for byte as it was,
   outputs untouched, no device block left behind. */
GPU_TEST(qf_io_cuda, device_allocation_failure) {
  test_rng rng = test_rng_for("qf_io_cuda.device_allocation_failure");
  for (int shape = 0; shape < 3 && !g_test.failed; ++shape) { /* SQF, RSQF, RSQF PACKED */
    const int kind = shape ? GAMQ_QF_RSQF : GAMQ_QF_SQF, layout = shape == 2;
    qio_dev_alloc counter = {0, 0, -1};
    gamq_device_allocator da;
    da.alloc = qio_dev_alloc_fn, da.free = qio_dev_free_fn, da.user = &counter;
    const uint64_t seed = rng.next();
    gamq_qf *f = qio_make(GAMQ_BACKEND_CUDA, (gamq_qf_kind)kind, 10, 13, seed, 0, &da, layout);
    gamq_qf *g = qio_make(GAMQ_BACKEND_CUDA, (gamq_qf_kind)kind, 10, 13, seed, 0, &da, layout);
    gamq_qf *fd = qio_make(GAMQ_BACKEND_CUDA, (gamq_qf_kind)kind, 10, 13, seed, 1, &da, layout);
    CHECK(f && g && fd);
    std::vector<uint64_t> k(400), more(200);
    for (size_t i = 0; i < k.size(); ++i) k[i] = i % 4 == 3 ? k[i - 1] : rng.next();
    for (size_t i = 0; i < more.size(); ++i) more[i] = rng.next();
    CHECK(gamq_qf_build_u64(f, k.data(), k.size()) == GAMQ_SUCCESS);
    CHECK(gamq_qf_build_u64(g, more.data(), more.size()) == GAMQ_SUCCESS);
    const qio_buf before = qio_bytes(f), b = qio_ser(f);
    const long long filters = counter.live;
    /* ops: 0 build, 1 insert, 2 delete, 3 merge, 4 lookup, 5 extract, 6 dedup build, 7 deserialize */
    for (int op = 0; op < 8 && !g_test.failed; ++op) {
      long long at = 0;
      for (;; ++at) {
        std::vector<uint8_t> found(k.size(), 0xA5);
        std::vector<uint64_t> fps(k.size() + 1, 7);
        uint64_t del = 77;
        size_t w = 12345;
        gamq_qf *out = (gamq_qf *)0x1;
        gamq_qf_desc d = qio_desc(GAMQ_BACKEND_CUDA);
        d.allocator = da;
        counter.calls = 0, counter.fail_from = at;
        gamq_status s = op == 0   ? gamq_qf_build_u64(f, more.data(), more.size())
                        : op == 1 ? gamq_qf_insert_u64(f, more.data(), more.size())
                        : op == 2 ? gamq_qf_delete_u64(f, k.data(), 100, &del)
                        : op == 3 ? gamq_qf_merge_sync(f, f, g, NULL)
                        : op == 4 ? gamq_qf_lookup_u64(f, k.data(), k.size(), found.data())
                        : op == 5 ? gamq_qf_extract(f, fps.data(), fps.size(), &w)
                        : op == 6 ? gamq_qf_build_u64(fd, k.data(), k.size())
                                  : gamq_qf_deserialize(&d, b.data(), b.size(), &out);
        bool failed_one = counter.calls > at;
        counter.fail_from = -1;
        if (!failed_one) {
          CHECK_MSG(s == GAMQ_SUCCESS, "op %d: status %d", op, (int)s);
          if (op == 7) {
            CHECK(qio_bytes(out) == before);
            gamq_qf_destroy(out);
          }
          if (op <= 3) CHECK(gamq_qf_build_u64(f, k.data(), k.size()) == GAMQ_SUCCESS && qio_bytes(f) == before);
          break;
        }
        CHECK_MSG(s == GAMQ_ERROR_OUT_OF_MEMORY, "op %d, device allocation %lld: status %d", op, at, (int)s);
        CHECK_MSG(qio_bytes(f) == before && (op != 6 || qio_count(fd) == 0), "op %d, allocation %lld: a filter changed",
                  op, at);
        CHECK_MSG(del == 77 && w == 12345 && out == (gamq_qf *)0x1 && found[0] == 0xA5 && fps[0] == 7,
                  "op %d, allocation %lld: an output was written", op, at);
        CHECK_MSG(counter.live == filters, "op %d, allocation %lld: %lld device blocks left", op, at,
                  counter.live - filters);
      }
      CHECK_MSG(at >= 1, "op %d made no device allocation", op);
    }
    gamq_qf_destroy(f);
    gamq_qf_destroy(g);
    gamq_qf_destroy(fd);
    CHECK_EQ(counter.live, 0);
  }
}

/* Deduplicating builds: CUDA == HOST byte for byte, count = distinct
   fingerprints, FULL judged on what is kept; device and host-array forms. */
GPU_TEST(qf_io_cuda, dedup_build_matches_host) {
  test_rng rng = test_rng_for("qf_io_cuda.dedup_build_matches_host");
  char what[200];
  for (int s = 0; s < QIO_SHAPES && !g_test.failed; ++s) {
    const gamq_qf_kind kind = (gamq_qf_kind)qio_shapes[s][0];
    const int q = std::min(qio_shapes[s][1] + 4, 16), r = qio_shapes[s][2], layout = qio_shapes[s][3];
    const uint64_t seed = rng.next();
    gamq_qf *h = qio_make(GAMQ_BACKEND_HOST, kind, q, r, seed, 1, NULL, layout);
    gamq_qf *c = qio_make(GAMQ_BACKEND_CUDA, kind, q, r, seed, 1, NULL, layout);
    CHECK(h && c);
    gamq_qf_info info;
    gamq_qf_get_info(h, &info);
    for (int mode = 0; mode < 5 && !g_test.failed; ++mode) {
      /* 0 few distinct (2x nslots keys), 1 uniform 0.9, 2 one key, 3 pairs, 4 empty */
      size_t n = mode == 0 ? (size_t)info.nslots * 2 : mode == 2 ? 1000 : mode == 4 ? 0
                                                                                    : (size_t)(0.9 * (double)((uint64_t)1 << q));
      std::vector<uint64_t> pool((size_t)((uint64_t)1 << q) / 2 + 1);
      for (size_t i = 0; i < pool.size(); ++i) pool[i] = rng.next();
      std::vector<uint64_t> keys(n);
      for (size_t i = 0; i < n; ++i)
        keys[i] = mode == 0 ? pool[rng.below(pool.size())] : mode == 2 ? pool[0] : mode == 3 && i % 2 ? keys[i - 1]
                                                                                     : rng.next();
      std::set<uint64_t> uniq;
      for (size_t i = 0; i < n; ++i) uniq.insert(qio_fp(h, keys[i]));
      bool use32 = mode == 3;
      gamq_status sh, sc;
      if (use32) {
        std::vector<uint32_t> k32(keys.begin(), keys.end());
        uniq.clear();
        for (size_t i = 0; i < n; ++i) uniq.insert(qio_fp(h, k32[i]));
        dbuf<uint32_t> dk(n);
        CHECK(dk.ok());
        CUDA_CHECK(dk.upload(k32));
        sh = gamq_qf_build_u32(h, k32.data(), n);
        sc = gamq_qf_build_u32_sync(c, dk.p, n, NULL);
      } else {
        dbuf<uint64_t> dk(n);
        CHECK(dk.ok());
        CUDA_CHECK(dk.upload(keys));
        sh = gamq_qf_build_u64(h, keys.data(), n);
        sc = rng.below(2) ? gamq_qf_build_u64_sync(c, dk.p, n, NULL) : gamq_qf_build_u64(c, keys.data(), n);
      }
      snprintf(what, sizeof what, "%s q=%d r=%d mode %d n=%zu", qio_name(kind, layout), q, r, mode, n);
      qio_model once(uniq.begin(), uniq.end());
      bool fits = qio_fits(once, r, info.nslots);
      CHECK_MSG(sh == (fits ? GAMQ_SUCCESS : GAMQ_ERROR_FULL) && sc == sh, "%s: HOST %d, CUDA %d, fits %d", what,
                (int)sh, (int)sc, (int)fits);
      CHECK_MSG(qio_bytes(c) == qio_bytes(h), "%s: CUDA bytes differ from HOST", what);
      if (sh == GAMQ_SUCCESS)
        CHECK_MSG(qio_count(c) == uniq.size() && qio_count(h) == uniq.size(), "%s: count %llu / %llu, distinct %zu",
                  what, (unsigned long long)qio_count(c), (unsigned long long)qio_count(h), uniq.size());
    }
    gamq_qf_destroy(h);
    gamq_qf_destroy(c);
  }
}

/* False-positive rate of CUDA lookups on 1.4 x 10^7 absent keys, each
   (kind, q, r): within 1.2x of eps = 1 - (1 - 2^-(q+r))^n when N * eps >=
   1500 (the hits are Poisson(N eps): outside the band with probability <=
   1.4e-11; r = 13 gives 1538 and 1624); rarer rates: at most a handful,
   hits <= N eps + 7 sqrt(N eps) + 5 (passed but with probability <= 7e-11
   at every mean; as qf_host.false_positive_rates). 10^7 keys and N * eps >=
   1000, 6 sqrt + 3, were 3e-8 and 1e-8 to 6e-8. */
GPU_TEST(qf_io_cuda, false_positive_rate) {
  test_rng rng = test_rng_for("qf_io_cuda.false_positive_rate");
  const size_t N = 14000000;
  std::vector<uint64_t> absent(N);
  for (size_t i = 0; i < N; ++i) absent[i] = rng.next() | 1; /* stored keys are even */
  dbuf<uint64_t> d_absent(N);
  dbuf<uint8_t> d_found(N);
  CHECK(d_absent.ok() && d_found.ok());
  CUDA_CHECK(d_absent.upload(absent));
  const int q = std::min(20, g_test.max_log2);
  struct cfg {
    int kind, r;
    double alpha;
    int layout;
  } cfgs[] = {{GAMQ_QF_SQF, 5, 0.5, 0},   {GAMQ_QF_SQF, 5, 0.9, 0},   {GAMQ_QF_SQF, 13, 0.9, 0},
              {GAMQ_QF_SQF, 29, 0.9, 0},  {GAMQ_QF_RSQF, 1, 0.9, 0},  {GAMQ_QF_RSQF, 3, 0.7, 0},
              {GAMQ_QF_RSQF, 5, 0.9, 0},  {GAMQ_QF_RSQF, 8, 0.95, 0}, {GAMQ_QF_RSQF, 10, 0.9, 0},
              {GAMQ_QF_RSQF, 13, 0.9, 0}, {GAMQ_QF_RSQF, 20, 0.9, 0}, {GAMQ_QF_RSQF, 32, 0.9, 0},
              {GAMQ_QF_RSQF, 5, 0.95, QIO_P}, {GAMQ_QF_RSQF, 13, 0.95, QIO_P}, {GAMQ_QF_RSQF, 21, 0.95, QIO_P}};
  for (size_t c = 0; c < sizeof cfgs / sizeof cfgs[0] && !g_test.failed; ++c) {
    gamq_qf *f = qio_make(GAMQ_BACKEND_CUDA, (gamq_qf_kind)cfgs[c].kind, q, cfgs[c].r, rng.next(), 0, NULL,
                          cfgs[c].layout);
    CHECK(f);
    size_t n = (size_t)(cfgs[c].alpha * (double)((uint64_t)1 << q));
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) keys[i] = rng.next() & ~(uint64_t)1;
    CHECK(gamq_qf_build_u64(f, keys.data(), n) == GAMQ_SUCCESS);
    std::vector<uint8_t> found(n);
    CHECK(gamq_qf_lookup_u64(f, keys.data(), n, found.data()) == GAMQ_SUCCESS);
    for (size_t i = 0; i < n; ++i) CHECK_MSG(found[i] == 1, "config %zu: false negative", c);
    CHECK(gamq_qf_lookup_u64_sync(f, d_absent.p, N, d_found.p, NULL) == GAMQ_SUCCESS);
    std::vector<uint8_t> fa;
    CUDA_CHECK(d_found.download(fa));
    uint64_t hits = 0;
    for (size_t i = 0; i < N; ++i) hits += fa[i];
    double p = (double)(q + cfgs[c].r), eps = -expm1((double)qio_count(f) * log1p(-pow(2.0, -p)));
    double measured = (double)hits / (double)N, ratio = measured / eps;
    printf("    %s q=%d r=%d alpha=%.2f: fp rate %.3e, theory %.3e, ratio %.3f (%zu queries)\n",
           qio_name(cfgs[c].kind, cfgs[c].layout), q, cfgs[c].r, cfgs[c].alpha, measured, eps, ratio, N);
    gamq_qf_destroy(f);
    if ((double)N * eps >= 1500) {
      CHECK_MSG(ratio <= 1.2 && ratio >= 1 / 1.2, "config %zu: fp rate %g vs theory %g", c, measured, eps);
    } else { /* too rare for the 1.2x band: within 7 sigma of the mean, at least a handful allowed */
      double mean = (double)N * eps;
      CHECK_MSG((double)hits <= mean + 7 * sqrt(mean) + 5, "config %zu: %llu hits, expected %.1f", c,
                (unsigned long long)hits, mean);
    }
  }
}

#endif /* __CUDACC__ */
