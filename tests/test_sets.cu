/* test_sets.cu - gpuclique section 7, set intersection: collections (checks,
   the text and binary readers with malformed and hostile input, the graph
   view, the generators) and every intersection call.

   TEST: the HOST backend against std::set_intersection on the shaped cases
   below and on random and generated collections; options, NULLs, leaks and
   allocation failures (a counting allocator that also records the largest
   request, so a hostile binary header can be shown to take nothing large).
   GPU_TEST: every CUDA method against HOST, byte for byte, on the same
   cases, with every device allocation poisoned first (an allocator hook),
   and with budgets small enough to make a call run in many parts.

   This file compiles its own static copy of the implementation. */
#include <stdlib.h>

#include "counting_alloc.h"
#define GCLQ_MALLOC(sz) counting_malloc(sz)
#define GCLQ_FREE(p) counting_free(p)
#define GCLQ_REALLOC(p, sz) counting_realloc(p, sz)
#define GPUCLIQUE_STATIC
#define GPUCLIQUE_TESTING /* gclq__sets_bm_tensor: both BIT_MATRIX kernels */
#define GPUCLIQUE_IMPLEMENTATION
#include "../gpuclique.h"

#include <algorithm>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "testing.h"

typedef std::vector<uint32_t> set_u32;

/* ---- helpers ---- */

/* A collection from vectors (each strictly increasing). */
static gclq_status sets_build(const std::vector<set_u32> &v, gclq_sets *s) {
  std::vector<uint64_t> off(1, 0);
  std::vector<uint32_t> el;
  for (size_t i = 0; i < v.size(); ++i) {
    el.insert(el.end(), v[i].begin(), v[i].end());
    off.push_back(el.size());
  }
  return gclq_sets_from_arrays((uint32_t)v.size(), off.data(), el.empty() ? NULL : el.data(), 0, s, NULL);
}

static set_u32 sets_get(const gclq_sets &s, uint32_t i) {
  return set_u32(s.h_elements + s.h_offsets[i], s.h_elements + s.h_offsets[i + 1]);
}

static set_u32 sets_ref(const set_u32 &a, const set_u32 &b) {
  set_u32 out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

/* n distinct sorted values below u (n <= u): selection sampling (Knuth's
   algorithm S) when u is at most 64n, else draws, sort and unique. */
static set_u32 sets_random(test_rng &rng, size_t n, uint64_t u) {
  set_u32 v;
  if (u <= 64 * (uint64_t)n) {
    for (uint64_t x = 0; x < u && v.size() < n; ++x)
      if (rng.below(u - x) < n - v.size()) v.push_back((uint32_t)x);
    return v;
  }
  while (v.size() < n) {
    size_t need = n - v.size();
    for (size_t i = 0; i < need; ++i) v.push_back((uint32_t)rng.below(u));
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return v;
}

/* A named collection and the pairs to intersect in it. */
struct sets_case {
  std::string name;
  std::vector<set_u32> sets;
  std::vector<uint32_t> pairs;
};

static void case_add(sets_case &c, const set_u32 &a, const set_u32 &b) {
  uint32_t i = (uint32_t)c.sets.size();
  c.sets.push_back(a);
  c.sets.push_back(b);
  c.pairs.push_back(i);
  c.pairs.push_back(i + 1);
  c.pairs.push_back(i + 1); /* both orders */
  c.pairs.push_back(i);
}

/* The shapes of the issue's list: empty sets, one element, disjoint,
   identical, one inside the other, interleaved, every element its
   neighbour + 1, sizes 2^k +/- 1 and the kernels' tile sizes +/- 1, skewed
   pairs (binary search's side of AUTO), values that all fall in one hash
   bucket (the hash tables' overflow), one giant pair among many tiny
   ones. Sizes up to 2^max_log2 (at most 2^20 elements a set). */
static std::vector<sets_case> sets_cases(test_rng &rng) {
  std::vector<sets_case> out;
  const int top = g_test.max_log2 < 20 ? g_test.max_log2 : 20;
  sets_case c;

  c.name = "empty and one element";
  case_add(c, set_u32(), set_u32());
  case_add(c, set_u32(), set_u32(1, 7));
  case_add(c, set_u32(1, 7), set_u32(1, 7));
  case_add(c, set_u32(1, 7), set_u32(1, 8));
  case_add(c, set_u32(1, 0), set_u32(1, 0xffffffffu));
  case_add(c, set_u32(1, 0xffffffffu), set_u32(1, 0xffffffffu));
  out.push_back(c);

  /* sizes: 2^k +/- 1, the warp limit, the merge tile, the search chunk and cache, +/- 1 */
  std::vector<size_t> sizes;
  for (int k = 0; k <= top; k += 2) {
    sizes.push_back(((size_t)1 << k) - 1);
    sizes.push_back(((size_t)1 << k) + 1);
  }
  const size_t tiles[] = {512, 1024, 1024, 2048, 3840, 1920};
  for (size_t t = 0; t < sizeof tiles / sizeof tiles[0]; ++t)
    for (int d = -1; d <= 1; ++d) sizes.push_back(tiles[t] + d);

  c = sets_case();
  c.name = "disjoint, identical, inside, interleaved, neighbour + 1";
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s];
    set_u32 even, odd, a = sets_random(rng, n, 4 * (uint64_t)n + 8), plus, sub;
    for (size_t i = 0; i < n; ++i) even.push_back((uint32_t)(2 * i)), odd.push_back((uint32_t)(2 * i + 1));
    case_add(c, even, odd);
    case_add(c, a, a);
    c.pairs.push_back((uint32_t)c.sets.size() - 1); /* a set with itself: one array on both sides */
    c.pairs.push_back((uint32_t)c.sets.size() - 1);
    for (size_t i = 0; i < a.size(); ++i) {
      if (rng.below(3) == 0) sub.push_back(a[i]);
      plus.push_back(a[i] + 1);
    }
    case_add(c, sub, a);
    case_add(c, a, plus);
    set_u32 blocks; /* runs of 5 taken, 5 skipped: long stretches matching, long stretches not */
    for (size_t i = 0; i < 2 * n; ++i)
      if ((i / 5) % 2 == 0) blocks.push_back((uint32_t)i);
    case_add(c, blocks, even);
  }
  out.push_back(c);

  c = sets_case();
  c.name = "random overlap and skewed sizes";
  for (size_t s = 0; s < sizes.size(); ++s) {
    size_t n = sizes[s], m = n / 40 + rng.below(4);
    uint64_t u = 2 * (uint64_t)n + 2;
    case_add(c, sets_random(rng, n, u), sets_random(rng, n, u));
    case_add(c, sets_random(rng, m < u ? m : u, u), sets_random(rng, n, u));
  }
  out.push_back(c);

  c = sets_case();
  c.name = "values in one hash bucket";
  {
    /* values whose Fibonacci hash has the same top 10 bits, so they fill one
       bucket of a block's table (and of a warp's, the top 7 of them) */
    set_u32 same;
    for (uint32_t v = 0; same.size() < 5000; ++v)
      if ((uint32_t)(v * 2654435769u) >> 22 == 5) same.push_back(v);
    set_u32 small_a(same.begin(), same.begin() + 300), small_b, large_b;
    for (size_t i = 0; i < 700; ++i) small_b.push_back(same[rng.below(2) ? i : 700 + i]);
    std::sort(small_b.begin(), small_b.end());
    small_b.erase(std::unique(small_b.begin(), small_b.end()), small_b.end());
    for (size_t i = 0; i < same.size(); ++i)
      if (rng.below(2)) large_b.push_back(same[i]), large_b.push_back(same[i] + 1);
    case_add(c, small_a, small_b);
    case_add(c, same, large_b);
  }
  out.push_back(c);

  c = sets_case();
  c.name = "one giant pair among many tiny ones";
  {
    size_t n = (size_t)1 << top, tiny = 20000;
    uint64_t u = 3 * (uint64_t)n;
    case_add(c, sets_random(rng, n, u), sets_random(rng, n - 1, u));
    for (size_t i = 0; i < tiny; ++i) c.sets.push_back(sets_random(rng, rng.below(9), 16));
    for (size_t i = 0; i < 4 * tiny; ++i) {
      c.pairs.push_back(2 + (uint32_t)rng.below(tiny));
      c.pairs.push_back(2 + (uint32_t)rng.below(tiny));
    }
    const uint32_t giant[2] = {1, 0}; /* once more, somewhere in the middle */
    c.pairs.insert(c.pairs.begin() + 2 * rng.below(4 * tiny), giant, giant + 2);
  }
  out.push_back(c);
  return out;
}

/* HOST (or CUDA) results of a case: counts, then the intersections. */
static gclq_status case_run(const sets_case &c, const gclq_sets &s, const gclq_intersect_options &o,
                            gclq_intersect_result *r) {
  return gclq_intersect_pairs(&s, c.pairs.data(), c.pairs.size() / 2, &o, r);
}

/* The result of a pairs call against std::set_intersection. */
static void check_pairs_against_reference(const sets_case &c, const gclq_intersect_result &r, bool materialised) {
  uint64_t total = 0;
  CHECK_EQ(r.num_pairs, c.pairs.size() / 2);
  for (size_t p = 0; p < c.pairs.size() / 2; ++p) {
    set_u32 want = sets_ref(c.sets[c.pairs[2 * p]], c.sets[c.pairs[2 * p + 1]]);
    CHECK_MSG(r.h_counts[p] == want.size(), "%s: pair %zu count %u, want %zu", c.name.c_str(), p, r.h_counts[p],
              want.size());
    total += want.size();
    if (materialised) {
      CHECK_EQ(r.h_offsets[p + 1] - r.h_offsets[p], want.size());
      CHECK_MSG(want.empty() || memcmp(r.h_elements + r.h_offsets[p], want.data(), want.size() * 4) == 0,
                "%s: pair %zu intersection differs", c.name.c_str(), p);
    }
  }
  CHECK_EQ(r.total, total);
}

static gclq_intersect_options host_options(void) {
  gclq_intersect_options o;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  return o;
}

/* ---- collections ---- */

TEST(sets, from_arrays_checks_and_names_the_set) {
  const uint64_t off[] = {0, 2, 2, 5, 7};
  const uint32_t good[] = {1, 5, 0, 3, 9, 4, 4000000000u};
  uint32_t bad[7];
  gclq_sets s;
  gclq_sets_error e;
  long long live = g_alloc_live;
  CHECK_EQ(gclq_sets_from_arrays(4, off, good, 0, &s, &e), GCLQ_SUCCESS);
  CHECK_EQ(s.num_sets, 4);
  CHECK_EQ(s.total, 7);
  CHECK_EQ(s.universe, 4000000001ull);
  CHECK(sets_get(s, 1).empty());
  gclq_sets_free(&s);
  memcpy(bad, good, sizeof bad);
  bad[4] = 3; /* set 2: 0 3 3 (a repeat) */
  CHECK_EQ(gclq_sets_from_arrays(4, off, bad, 0, &s, &e), GCLQ_ERROR_UNSORTED_SET);
  CHECK_EQ(e.set, 2);
  CHECK(strstr(e.message, "set 2") != NULL);
  CHECK_EQ(s.num_sets, 0);
  CHECK(s.h_offsets == NULL);
  memcpy(bad, good, sizeof bad);
  bad[6] = 1; /* set 3: 4 1 (descending) */
  CHECK_EQ(gclq_sets_from_arrays(4, off, bad, 0, &s, &e), GCLQ_ERROR_UNSORTED_SET);
  CHECK_EQ(e.set, 3);
  const uint64_t back[] = {0, 2, 1, 5, 7}; /* offsets decrease at set 1 */
  CHECK_EQ(gclq_sets_from_arrays(4, back, good, 0, &s, &e), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(e.set, 1);
  CHECK_EQ(gclq_sets_from_arrays(4, off, good, 100, &s, &e), GCLQ_ERROR_INVALID_ARGUMENT); /* universe too small */
  CHECK_EQ(gclq_sets_from_arrays(4, off, NULL, 0, &s, &e), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_sets_from_arrays(4, NULL, good, 0, &s, &e), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_sets_from_arrays(4, off, good, 0, NULL, &e), GCLQ_ERROR_INVALID_ARGUMENT);
  const uint64_t none[] = {0};
  CHECK_EQ(gclq_sets_from_arrays(0, none, NULL, 0, &s, NULL), GCLQ_SUCCESS); /* k = 0 */
  CHECK_EQ(s.num_sets, 0);
  CHECK_EQ(gclq_sets_validate(&s, &e), GCLQ_SUCCESS);
  gclq_sets_free(&s);
  gclq_sets_free(&s); /* twice is fine */
  gclq_sets_free(NULL);
  CHECK_EQ(g_alloc_live, live);
}

TEST(sets, validate_reports_a_changed_collection) {
  std::vector<set_u32> v(3);
  v[0].push_back(1), v[1].push_back(2), v[1].push_back(5), v[2].push_back(3);
  gclq_sets s;
  gclq_sets_error e;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_validate(&s, &e), GCLQ_SUCCESS);
  s.h_elements[2] = 2; /* set 1 is now 2 2 */
  CHECK_EQ(gclq_sets_validate(&s, &e), GCLQ_ERROR_UNSORTED_SET);
  CHECK_EQ(e.set, 1);
  gclq_intersect_result r;
  gclq_intersect_options o = host_options();
  CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT); /* calls check too */
  CHECK_EQ(r.num_pairs, 0);
  gclq_sets_free(&s);
  CHECK_EQ(gclq_sets_validate(NULL, &e), GCLQ_ERROR_INVALID_ARGUMENT);
}

TEST(sets, text_reader) {
  const char text[] = "# three sets\n1 5 9\n\n  \t\n2   3 # a comment\r\n0\r4000000000 4294967295\n";
  gclq_sets s;
  gclq_sets_error e;
  CHECK_EQ(gclq_sets_parse_text(text, sizeof text - 1, &s, &e), GCLQ_SUCCESS);
  CHECK_EQ(s.num_sets, 4);
  CHECK(sets_get(s, 0) == set_u32({1, 5, 9}));
  CHECK(sets_get(s, 1) == set_u32({2, 3}));
  CHECK(sets_get(s, 2) == set_u32({0}));
  CHECK(sets_get(s, 3) == set_u32({4000000000u, 4294967295u}));
  CHECK_EQ(s.universe, 4294967296ull);
  gclq_sets_free(&s);
  const char no_end[] = "7 8";
  CHECK_EQ(gclq_sets_parse_text(no_end, 3, &s, &e), GCLQ_SUCCESS); /* a last line without its end */
  CHECK_EQ(s.num_sets, 1);
  gclq_sets_free(&s);
  CHECK_EQ(gclq_sets_parse_text("", 0, &s, &e), GCLQ_SUCCESS);
  CHECK_EQ(s.num_sets, 0);
  gclq_sets_free(&s);
  CHECK_EQ(gclq_sets_parse_text(NULL, 0, &s, &e), GCLQ_SUCCESS);
  gclq_sets_free(&s);
}

TEST(sets, text_reader_errors_name_the_line_and_set) {
  struct bad_text {
    const char *text;
    gclq_status st;
    uint64_t line, set;
  } cases[] = {
      {"1 2\n# c\n3 x\n", GCLQ_ERROR_PARSE, 3, 1},
      {"1 2\n5 4\n", GCLQ_ERROR_UNSORTED_SET, 2, 1},
      {"1 1\n", GCLQ_ERROR_UNSORTED_SET, 1, 0},
      {"\n\n1 2 -3\n", GCLQ_ERROR_PARSE, 3, 0},
      {"1\n2\n3 4294967296\n", GCLQ_ERROR_PARSE, 3, 2},
      {"1\r\n2\r\n3 9x\r\n", GCLQ_ERROR_PARSE, 3, 2},
      {"1,2\n", GCLQ_ERROR_PARSE, 1, 0},
  };
  long long live = g_alloc_live;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    gclq_sets s;
    gclq_sets_error e;
    gclq_status st = gclq_sets_parse_text(cases[i].text, strlen(cases[i].text), &s, &e);
    CHECK_MSG(st == cases[i].st, "case %zu: status %d", i, (int)st);
    CHECK_MSG(e.line == cases[i].line, "case %zu: line %llu", i, (unsigned long long)e.line);
    CHECK_MSG(e.set == cases[i].set, "case %zu: set %llu", i, (unsigned long long)e.set);
    CHECK(e.message[0] != '\0');
    CHECK(s.h_offsets == NULL && s.num_sets == 0);
  }
  CHECK_EQ(g_alloc_live, live);
}

/* The binary format, written here byte by byte (little-endian). */
static void put32(std::vector<unsigned char> &b, uint32_t x) {
  for (int i = 0; i < 4; ++i) b.push_back((unsigned char)(x >> (8 * i)));
}
static std::vector<unsigned char> binary_of(const std::vector<set_u32> &v, uint32_t universe) {
  std::vector<unsigned char> b;
  uint64_t total = 0;
  for (size_t i = 0; i < v.size(); ++i) total += v[i].size();
  put32(b, (uint32_t)v.size());
  put32(b, universe);
  put32(b, (uint32_t)total);
  put32(b, (uint32_t)(total >> 32));
  for (size_t i = 0; i < v.size(); ++i) put32(b, (uint32_t)v[i].size());
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t j = 0; j < v[i].size(); ++j) put32(b, v[i][j]);
  return b;
}

TEST(sets, binary_reader_and_round_trip) {
  test_rng rng = test_rng_for("sets.binary");
  std::vector<set_u32> v;
  for (int i = 0; i < 50; ++i) v.push_back(sets_random(rng, rng.below(300), 1000));
  v.push_back(set_u32());
  std::vector<unsigned char> b = binary_of(v, 1000);
  gclq_sets s, t;
  gclq_sets_error e;
  CHECK_EQ(gclq_sets_parse_binary(b.data(), b.size(), &s, &e), GCLQ_SUCCESS);
  CHECK_EQ(s.num_sets, v.size());
  CHECK_EQ(s.universe, 1000);
  for (size_t i = 0; i < v.size(); ++i) CHECK(sets_get(s, (uint32_t)i) == v[i]);
  const char *path = "test_sets_round_trip.bin";
  CHECK_EQ(gclq_sets_save_binary(&s, path), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_load_binary(path, &t, &e), GCLQ_SUCCESS);
  remove(path);
  CHECK_EQ(t.total, s.total);
  CHECK(memcmp(t.h_offsets, s.h_offsets, (s.num_sets + 1) * 8) == 0);
  CHECK(memcmp(t.h_elements, s.h_elements, s.total * 4) == 0);
  gclq_sets_free(&s);
  gclq_sets_free(&t);
  CHECK_EQ(gclq_sets_load_binary("no/such/file.bin", &t, &e), GCLQ_ERROR_IO);
  CHECK_EQ(gclq_sets_load_text("no/such/file.txt", &t, &e), GCLQ_ERROR_IO);
}

TEST(sets, binary_reader_errors_name_the_byte_offset) {
  std::vector<set_u32> v(3);
  v[0] = set_u32({1, 2, 3});
  v[1] = set_u32({4});
  v[2] = set_u32({5, 9});
  const std::vector<unsigned char> good = binary_of(v, 10);
  gclq_sets s;
  gclq_sets_error e;
  long long live = g_alloc_live;
  /* cut short anywhere: the header, the sizes, the elements */
  for (size_t len = 0; len < good.size(); ++len) {
    CHECK_MSG(gclq_sets_parse_binary(good.data(), len, &s, &e) == GCLQ_ERROR_PARSE, "length %zu", len);
    CHECK(s.h_offsets == NULL);
  }
  std::vector<unsigned char> b = good;
  b.push_back(0); /* a trailing byte */
  CHECK_EQ(gclq_sets_parse_binary(b.data(), b.size(), &s, &e), GCLQ_ERROR_PARSE);
  CHECK_EQ(e.byte_offset, 8);
  b = good;
  b[16] = 2; /* sizes 2 1 2: they add up to 5, the header says 6 */
  CHECK_EQ(gclq_sets_parse_binary(b.data(), b.size(), &s, &e), GCLQ_ERROR_PARSE);
  CHECK_EQ(e.byte_offset, 16);
  b = good;
  b[16 + 12 + 4 * 5] = 3; /* set 2: 5 3 */
  CHECK_EQ(gclq_sets_parse_binary(b.data(), b.size(), &s, &e), GCLQ_ERROR_UNSORTED_SET);
  CHECK_EQ(e.set, 2);
  CHECK_EQ(e.byte_offset, 16 + 12 + 4 * 5);
  b = good;
  b[16 + 12 + 4] = 1; /* set 0: 1 1 3 */
  CHECK_EQ(gclq_sets_parse_binary(b.data(), b.size(), &s, &e), GCLQ_ERROR_UNSORTED_SET);
  CHECK_EQ(e.set, 0);
  CHECK_EQ(e.byte_offset, 16 + 12 + 4);
  CHECK_EQ(g_alloc_live, live);
}

TEST(sets, hostile_binary_headers_take_nothing_large) {
  const uint32_t hostile[][4] = {
      {0xffffffffu, 10, 0, 0},          /* 4 billion sets, no sizes */
      {2, 10, 0xffffffffu, 0xffffffffu}, /* 2^64 - 1 elements */
      {1, 10, 0x40000000u, 0},           /* 2^30 elements, none present */
      {0, 10, 5, 0},                     /* elements without sets */
  };
  for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; ++i) {
    std::vector<unsigned char> b;
    for (int w = 0; w < 4; ++w) put32(b, hostile[i][w]);
    put32(b, 0x40000000u); /* a size, in case one is read */
    put32(b, 1);
    gclq_sets s;
    gclq_sets_error e;
    g_alloc_largest = 0;
    CHECK_MSG(gclq_sets_parse_binary(b.data(), b.size(), &s, &e) == GCLQ_ERROR_PARSE, "header %zu", i);
    CHECK_MSG(g_alloc_largest < 4096, "header %zu took %zu bytes", i, g_alloc_largest);
  }
}

TEST(sets, graph_view_is_the_adjacency) {
  gclq_graph g;
  gclq_sets s;
  CHECK_EQ(gclq_graph_rmat(10, 8, 3, &g), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_from_graph(&g, &s), GCLQ_SUCCESS);
  CHECK_EQ(s.num_sets, g.num_vertices);
  CHECK(s.h_elements == g.h_neighbors);
  CHECK(s.is_view);
  CHECK_EQ(gclq_sets_validate(&s, NULL), GCLQ_SUCCESS);
  /* every edge's common neighbours: the triangles through it */
  std::vector<uint32_t> pairs;
  for (uint32_t v = 0; v < g.num_vertices; ++v)
    for (uint64_t e = g.h_offsets[v]; e < g.h_offsets[v + 1]; ++e)
      if (g.h_neighbors[e] > v) pairs.push_back(v), pairs.push_back(g.h_neighbors[e]);
  gclq_intersect_result r;
  gclq_intersect_options o = host_options();
  CHECK_EQ(gclq_intersect_pairs(&s, pairs.data(), pairs.size() / 2, &o, &r), GCLQ_SUCCESS);
  uint64_t want = 0;
  for (size_t p = 0; p < pairs.size() / 2; ++p)
    want += sets_ref(sets_get(s, pairs[2 * p]), sets_get(s, pairs[2 * p + 1])).size();
  CHECK_EQ(r.total, want);
  CHECK(want % 3 == 0); /* each triangle seen from its three edges */
  gclq_intersect_result_free(&r);
  gclq_sets_free(&s); /* a view: frees nothing */
  CHECK(g.h_neighbors != NULL);
  gclq_graph_free(&g);
  gclq_graph empty;
  memset(&empty, 0, sizeof empty);
  CHECK_EQ(gclq_sets_from_graph(&empty, &s), GCLQ_SUCCESS);
  CHECK_EQ(s.num_sets, 0);
  CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_SUCCESS);
  CHECK_EQ(r.num_pairs, 0);
  gclq_intersect_result_free(&r);
  CHECK_EQ(gclq_sets_from_graph(NULL, &s), GCLQ_ERROR_INVALID_ARGUMENT);
}

TEST(sets, generators_follow_their_documentation) {
  test_rng rng = test_rng_for("sets.generators");
  const gclq_sets_dist dists[] = {GCLQ_SETS_UNIFORM, GCLQ_SETS_NORMAL, GCLQ_SETS_ZIPF};
  for (int d = 0; d < 3; ++d) {
    gclq_sets_gen gen = {dists[d], 40, 100000 + rng.below(1000), 1001, 0, rng.next()};
    gclq_sets s, t;
    CHECK_EQ(gclq_sets_generate(&gen, &s), GCLQ_SUCCESS);
    CHECK_EQ(s.num_sets, 40);
    CHECK_EQ(s.universe, gen.universe);
    CHECK_EQ(gclq_sets_validate(&s, NULL), GCLQ_SUCCESS);
    uint64_t below_half = 0, low_tenth = 0;
    for (uint32_t i = 0; i < s.num_sets; ++i) {
      uint64_t n = s.h_offsets[i + 1] - s.h_offsets[i];
      if (dists[d] != GCLQ_SETS_ZIPF) /* zipf sets may come out smaller (documented) */
        CHECK_MSG(n >= 1001 - 500 && n <= 1001 + 500, "dist %d set %u has %llu elements", d, i, (unsigned long long)n);
      CHECK(n <= 1001 + 500);
    }
    for (uint64_t e = 0; e < s.total; ++e) {
      below_half += s.h_elements[e] < gen.universe / 2;
      low_tenth += s.h_elements[e] < gen.universe / 10;
    }
    double half = (double)below_half / s.total, tenth = (double)low_tenth / s.total;
    if (dists[d] == GCLQ_SETS_UNIFORM)
      CHECK_MSG(half > 0.45 && half < 0.55 && tenth < 0.15, "uniform %f %f", half, tenth);
    if (dists[d] == GCLQ_SETS_NORMAL) CHECK_MSG(half > 0.45 && half < 0.55 && tenth < 0.01, "normal %f %f", half, tenth);
    if (dists[d] == GCLQ_SETS_ZIPF) CHECK_MSG(tenth > 0.5, "zipf: %f below U/10", tenth);
    CHECK_EQ(gclq_sets_generate(&gen, &t), GCLQ_SUCCESS); /* the same seed, the same sets */
    CHECK_EQ(t.total, s.total);
    CHECK(memcmp(t.h_elements, s.h_elements, s.total * 4) == 0);
    gclq_sets_free(&t);
    gen.seed++;
    CHECK_EQ(gclq_sets_generate(&gen, &t), GCLQ_SUCCESS);
    CHECK(t.total != s.total || memcmp(t.h_elements, s.h_elements, s.total * 4) != 0);
    gclq_sets_free(&t);
    gen.fixed_size = 1;
    CHECK_EQ(gclq_sets_generate(&gen, &t), GCLQ_SUCCESS);
    if (dists[d] != GCLQ_SETS_ZIPF) CHECK_EQ(t.total, 40 * 1001);
    gclq_sets_free(&t);
    gclq_sets_free(&s);
  }
  gclq_sets_gen small = {GCLQ_SETS_UNIFORM, 3, 10, 10, 1, 1}; /* every value */
  gclq_sets s;
  CHECK_EQ(gclq_sets_generate(&small, &s), GCLQ_SUCCESS);
  CHECK_EQ(s.total, 30);
  gclq_sets_free(&s);
  small.avg_size = 11; /* above U */
  CHECK_EQ(gclq_sets_generate(&small, &s), GCLQ_ERROR_INVALID_ARGUMENT);
  small.avg_size = 1, small.universe = 0;
  CHECK_EQ(gclq_sets_generate(&small, &s), GCLQ_ERROR_INVALID_ARGUMENT);
  small.universe = 10, small.dist = (gclq_sets_dist)7;
  CHECK_EQ(gclq_sets_generate(&small, &s), GCLQ_ERROR_INVALID_ARGUMENT);
}

/* ---- intersections on HOST ---- */

TEST(sets, host_pairs_match_the_reference_on_every_shape) {
  test_rng rng = test_rng_for("sets.host_shapes");
  std::vector<sets_case> cases = sets_cases(rng);
  long long live = g_alloc_live;
  for (size_t i = 0; i < cases.size(); ++i) {
    gclq_sets s;
    CHECK_EQ(sets_build(cases[i].sets, &s), GCLQ_SUCCESS);
    for (int m = 0; m < 2; ++m) {
      gclq_intersect_options o = host_options();
      gclq_intersect_result r;
      o.materialise = m;
      CHECK_EQ(case_run(cases[i], s, o, &r), GCLQ_SUCCESS);
      CHECK_EQ(r.stats.backend, GCLQ_BACKEND_HOST);
      CHECK_EQ(r.stats.method, GCLQ_INTERSECT_SERIAL_MERGE);
      check_pairs_against_reference(cases[i], r, m != 0);
      gclq_intersect_result_free(&r);
      CHECK_OK_SO_FAR();
    }
    gclq_sets_free(&s);
  }
  CHECK_EQ(g_alloc_live, live);
}

/* All pairs, dense and sparse, and the containment join, against loops over
   the reference, on a collection with repeats and subsets. */
static std::vector<set_u32> sets_family(test_rng &rng, size_t k, uint64_t u) {
  std::vector<set_u32> v;
  for (size_t i = 0; i < k; ++i) {
    int shape = (int)rng.below(5);
    if (shape == 0 && !v.empty()) { /* a subset of an earlier set */
      const set_u32 &src = v[rng.below(v.size())];
      set_u32 sub;
      for (size_t j = 0; j < src.size(); ++j)
        if (rng.below(2)) sub.push_back(src[j]);
      v.push_back(sub);
    } else if (shape == 1 && !v.empty()) {
      v.push_back(v[rng.below(v.size())]); /* a repeat */
    } else if (shape == 2) {
      v.push_back(set_u32()); /* empty */
    } else {
      v.push_back(sets_random(rng, rng.below(u / 4 + 1), u));
    }
  }
  return v;
}

static void check_all_pairs(const std::vector<set_u32> &v, const gclq_sets &s, const gclq_intersect_options &base) {
  const size_t k = v.size();
  gclq_intersect_options o = base;
  gclq_intersect_result r;
  CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_SUCCESS);
  CHECK_EQ(r.num_pairs, k * (k - (k > 0)) / 2);
  std::vector<uint32_t> dense, full(k * k, 0); /* full: both orders, for the containment join */
  for (size_t i = 0; i < k; ++i)
    for (size_t j = i + 1; j < k; ++j) {
      dense.push_back((uint32_t)sets_ref(v[i], v[j]).size());
      full[i * k + j] = full[j * k + i] = dense.back();
    }
  CHECK(dense.empty() || memcmp(dense.data(), r.h_counts, dense.size() * 4) == 0);
  gclq_intersect_result_free(&r);
  o.sparse = 1;
  o.min_count = 3;
  CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_SUCCESS);
  std::vector<uint32_t> want_pairs, want_counts;
  for (size_t i = 0, at = 0; i < k; ++i)
    for (size_t j = i + 1; j < k; ++j, ++at)
      if (dense[at] >= 3) {
        want_pairs.push_back((uint32_t)i);
        want_pairs.push_back((uint32_t)j);
        want_counts.push_back(dense[at]);
      }
  CHECK_EQ(r.num_pairs, want_counts.size());
  CHECK(want_counts.empty() || memcmp(r.h_pairs, want_pairs.data(), want_pairs.size() * 4) == 0);
  CHECK(want_counts.empty() || memcmp(r.h_counts, want_counts.data(), want_counts.size() * 4) == 0);
  gclq_intersect_result_free(&r);
  const double thresholds[] = {0.0, 0.5, 1.0};
  for (int t = 0; t < 3; ++t) {
    o = base;
    o.min_containment = thresholds[t];
    double th = thresholds[t] == 0.0 ? 1.0 : thresholds[t];
    CHECK_EQ(gclq_containment_join(&s, &o, &r), GCLQ_SUCCESS);
    std::vector<uint32_t> wp, wc;
    for (size_t i = 0; i < k; ++i)
      for (size_t j = 0; j < k; ++j) {
        if (i == j) continue;
        uint32_t c = full[i * k + j];
        if ((double)c >= th * (double)v[i].size()) wp.push_back((uint32_t)i), wp.push_back((uint32_t)j), wc.push_back(c);
      }
    CHECK_MSG(r.num_pairs == wc.size(), "threshold %f: %llu containments, want %zu", th,
              (unsigned long long)r.num_pairs, wc.size());
    CHECK(wc.empty() || memcmp(r.h_pairs, wp.data(), wp.size() * 4) == 0);
    CHECK(wc.empty() || memcmp(r.h_counts, wc.data(), wc.size() * 4) == 0);
    gclq_intersect_result_free(&r);
  }
}

TEST(sets, host_all_pairs_and_containment) {
  test_rng rng = test_rng_for("sets.host_all");
  const size_t ks[] = {0, 1, 2, 37, 130};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    std::vector<set_u32> v = sets_family(rng, ks[i], 200 + rng.below(300));
    gclq_sets s;
    CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
    check_all_pairs(v, s, host_options());
    gclq_sets_free(&s);
    CHECK_OK_SO_FAR();
  }
}

/* All pairs of k = 3000 tiny sets: 4498500 pairs, more than one batch of
   2^22, so the pairs continue across the batch boundary. */
static std::vector<set_u32> sets_tiny(test_rng &rng, size_t k) {
  std::vector<set_u32> v;
  for (size_t i = 0; i < k; ++i) v.push_back(sets_random(rng, rng.below(4), 12));
  return v;
}
static void check_all_pairs_dense(const std::vector<set_u32> &v, const gclq_sets &s, const gclq_intersect_options &o) {
  const size_t k = v.size();
  gclq_intersect_result r;
  CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_SUCCESS);
  CHECK_EQ(r.num_pairs, k * (k - 1) / 2);
  uint64_t at = 0, bad = 0;
  for (size_t i = 0; i < k; ++i)
    for (size_t j = i + 1; j < k; ++j, ++at) bad += r.h_counts[at] != sets_ref(v[i], v[j]).size();
  CHECK_MSG(bad == 0, "%llu of %llu pairs differ", (unsigned long long)bad, (unsigned long long)at);
  gclq_intersect_result_free(&r);
}

TEST(sets, host_all_pairs_across_batches) {
  test_rng rng = test_rng_for("sets.host_batches");
  std::vector<set_u32> v = sets_tiny(rng, 3000);
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  check_all_pairs_dense(v, s, host_options());
  gclq_sets_free(&s);
}

TEST(sets, host_generated_collections) {
  test_rng rng = test_rng_for("sets.host_generated");
  const gclq_sets_dist dists[] = {GCLQ_SETS_UNIFORM, GCLQ_SETS_NORMAL, GCLQ_SETS_ZIPF};
  for (int d = 0; d < 3; ++d) {
    gclq_sets_gen gen = {dists[d], 60, 20000, 800, 0, rng.next()};
    gclq_sets s;
    CHECK_EQ(gclq_sets_generate(&gen, &s), GCLQ_SUCCESS);
    std::vector<set_u32> v;
    for (uint32_t i = 0; i < s.num_sets; ++i) v.push_back(sets_get(s, i));
    check_all_pairs(v, s, host_options());
    gclq_sets_free(&s);
    CHECK_OK_SO_FAR();
  }
}

TEST(sets, bad_arguments_options_and_allocation_failures) {
  std::vector<set_u32> v(3);
  v[0] = set_u32({1, 2, 3});
  v[1] = set_u32({2, 3, 4});
  v[2] = set_u32({3});
  gclq_sets s;
  gclq_intersect_result r;
  gclq_intersect_options o = host_options();
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq_intersect_pair(&s, 0, 3, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pair(NULL, 0, 1, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, NULL), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pairs(&s, NULL, 2, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pairs(&s, NULL, 0, &o, &r), GCLQ_SUCCESS);
  CHECK_EQ(r.num_pairs, 0);
  gclq_intersect_result_free(&r);
  o.method = (gclq_intersect_method)99;
  CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  o.method = (gclq_intersect_method)-1;
  CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  for (int m = GCLQ_INTERSECT_HASH; m <= GCLQ_INTERSECT_IP_HASH; ++m) { /* valid; HOST ignores the method */
    o.method = (gclq_intersect_method)m;
    CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, &r), GCLQ_SUCCESS);
    CHECK_EQ(r.h_counts[0], 2);
    CHECK_EQ(r.stats.method, GCLQ_INTERSECT_SERIAL_MERGE);
    gclq_intersect_result_free(&r);
  }
  o = host_options();
  o.backend = (gclq_backend)5;
  CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  o = host_options();
  o.min_containment = 1.5;
  CHECK_EQ(gclq_containment_join(&s, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  o.min_containment = 0.0 / 0.0;
  CHECK_EQ(gclq_containment_join(&s, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(r.num_pairs, 0);
  CHECK(r.h_pairs == NULL);
  /* NULL options: the defaults (AUTO: work this small runs HOST, device or not) */
  CHECK_EQ(gclq_intersect_pair(&s, 0, 1, NULL, &r), GCLQ_SUCCESS);
  CHECK_EQ(r.h_counts[0], 2);
  CHECK_EQ(r.stats.backend, GCLQ_BACKEND_HOST);
  CHECK_EQ(r.stats.auto_small, 1);
  CHECK(strstr(r.stats.notes, "small") != NULL);
  gclq_intersect_result_free(&r);
  gclq_intersect_options d;
  gclq_intersect_options_defaults(&d);
  CHECK_EQ(d.min_count, 1);
  CHECK(d.min_containment == 1.0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_BINARY_SEARCH), "binary-search") == 0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_HASH), "hash") == 0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_BITMAP), "bitmap") == 0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_BITMAP_DYNAMIC), "bitmap-dynamic") == 0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_IP_OBS), "ip-obs") == 0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_IP_HASH), "ip-hash") == 0);
  CHECK(strcmp(gclq_intersect_method_name((gclq_intersect_method)99), "unknown") == 0);
  CHECK(strcmp(gclq_status_string(GCLQ_ERROR_UNSORTED_SET), "unknown status") != 0);
  /* every host allocation of each call failing in turn: a status, no leak */
  long long live = g_alloc_live;
  for (int call = 0; call < 4; ++call) {
    for (long long k = 0; k < 40; ++k) {
      o = host_options();
      o.materialise = 1;
      o.sparse = 1;
      g_alloc_fail_at = g_alloc_calls + k;
      gclq_status st = call == 0   ? gclq_intersect_pair(&s, 0, 1, &o, &r)
                       : call == 1 ? gclq_intersect_all(&s, &o, &r)
                       : call == 2 ? gclq_containment_join(&s, &o, &r)
                                   : gclq_intersect_pair(&s, 1, 1, &o, &r);
      g_alloc_fail_at = -1;
      CHECK_MSG(st == GCLQ_SUCCESS || st == GCLQ_ERROR_OUT_OF_MEMORY, "call %d fail %lld: %d", call, k, (int)st);
      if (st != GCLQ_SUCCESS) CHECK(r.h_counts == NULL && r.num_pairs == 0);
      gclq_intersect_result_free(&r);
      CHECK_EQ(g_alloc_live, live);
    }
  }
  gclq_intersect_result_free(NULL);
  gclq_sets_free(&s);
}

/* ---- the CUDA kernels' partitions, run on the host ----
   The kernels' cuts and pieces are __host__ __device__ helpers
   (gclq__sets_*); these loops call them block by block and thread by thread
   in the kernels' order, so the partitions (the tiles' diagonals, the
   threads' pieces, the guard element, the binary search's spans and cached
   keys) are checked on every run, with or without a GPU. Each returns the
   pair's count and, given out, writes the intersection in order. */
#if defined(__CUDACC__)

/* gclq__sets_path_kernel: tiles of merge steps, GCLQ__SETS_NT threads each. */
static uint32_t sim_path(const gclq__sets_pair &pr, uint32_t *out) {
  const uint64_t tiles = ((uint64_t)pr.na + pr.nb + GCLQ__SETS_TILE - 1) / GCLQ__SETS_TILE;
  std::vector<uint32_t> s(GCLQ__SETS_TILE + 1), mine(GCLQ__SETS_NT);
  uint32_t total = 0;
  for (uint64_t t = 0; t < tiles; ++t) {
    const uint32_t x0 = gclq__sets_tile_split(pr, t, 0), x1 = gclq__sets_tile_split(pr, t, 1);
    const gclq__sets_cut c = gclq__sets_tile_cut(pr, t, x0, x1);
    const uint32_t la = c.x1 - c.x0, lb = c.y1 - c.y0;
    for (uint32_t i = 0; i < la + lb + c.guard; ++i) s[i] = i < la ? pr.a[c.x0 + i] : pr.b[c.y0 + i - la];
    for (uint32_t th = 0; th < GCLQ__SETS_NT; ++th)
      mine[th] = gclq__sets_tile_piece<false>(s.data(), la, lb, c.guard, th, NULL);
    for (uint32_t th = 0; th < GCLQ__SETS_NT; ++th) {
      if (out) gclq__sets_tile_piece<true>(s.data(), la, lb, c.guard, th, out + total);
      total += mine[th];
    }
  }
  return total;
}

/* gclq__sets_search_kernel: chunks of a, each with its span and cached keys. */
static uint32_t sim_search(const gclq__sets_pair &pr, uint32_t *out) {
  const uint64_t chunks = ((uint64_t)pr.na + GCLQ__SETS_OBS_CHUNK - 1) / GCLQ__SETS_OBS_CHUNK;
  std::vector<uint32_t> key(GCLQ__SETS_OBS_CACHE);
  uint32_t total = 0;
  for (uint64_t t = 0; t < chunks; ++t) {
    const uint32_t lo = gclq__sets_chunk_end(pr, t, 0), hi = gclq__sets_chunk_end(pr, t, 1);
    const gclq__sets_chunk sp = gclq__sets_chunk_at(pr, t, lo, hi);
    for (uint32_t k = 0; k < sp.keys; ++k) key[k] = pr.b[gclq__sets_key_at(sp, k)];
    for (uint32_t x = sp.x0; x < sp.x1; ++x) {
      if (!gclq__sets_obs_find(pr, sp, key.data(), pr.a[x])) continue;
      if (out) out[total] = pr.a[x];
      ++total;
    }
  }
  return total;
}

/* gclq__sets_warp_kernel's merge path: 32 lanes, each its own piece. */
static uint32_t sim_lanes(const gclq__sets_pair &pr, uint32_t *out) {
  uint32_t total = 0;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    uint32_t c = gclq__sets_lane_piece<false>(pr, lane, NULL);
    if (out && gclq__sets_lane_piece<true>(pr, lane, out + total) != c) return ~0u; /* the passes disagree */
    total += c;
  }
  return total;
}

/* Every pair of the shaped cases whose smaller set is not empty (a pair
   with an empty one is never launched: its count stays 0), the smaller set
   first, as the kernels see it (the giant case: a sample):
   f(case name, pair index, pair, its intersection). */
template <typename F>
static void each_case_pair(const char *seed_name, F f) {
  test_rng rng = test_rng_for(seed_name);
  std::vector<sets_case> cases = sets_cases(rng);
  for (size_t i = 0; i < cases.size(); ++i) {
    const sets_case &c = cases[i];
    const size_t stride = c.pairs.size() > 2000 ? c.pairs.size() / 2000 : 1;
    for (size_t p = 0; p < c.pairs.size() / 2; p += (p == 0 ? 1 : stride)) {
      set_u32 a = c.sets[c.pairs[2 * p]], b = c.sets[c.pairs[2 * p + 1]];
      if (a.size() > b.size()) a.swap(b);
      if (a.empty()) continue;
      const gclq__sets_pair pr = {a.data(), b.data(), (uint32_t)a.size(), (uint32_t)b.size()};
      f(c.name, p, pr, sets_ref(a, b));
      CHECK_OK_SO_FAR();
    }
  }
}

/* A simulated kernel's count n and its output got (poisoned before it ran)
   against the pair's intersection: nothing written past its end. */
static void check_sim(const std::string &name, size_t p, const gclq__sets_pair &pr, const char *method, uint32_t n,
                      const set_u32 &got, const set_u32 &want) {
  CHECK_MSG(n == want.size(), "%s: pair %zu (%u, %u), %s: %u, want %zu", name.c_str(), p, pr.na, pr.nb, method, n,
            want.size());
  CHECK_MSG(want.empty() || memcmp(got.data(), want.data(), want.size() * 4) == 0, "%s: pair %zu %s", name.c_str(), p,
            method);
  CHECK_EQ(got[want.size()], 0xA5A5A5A5u);
}

TEST(sets, kernel_partitions_on_the_host_match_the_reference) {
  each_case_pair("sets.kernel_partitions",
                 [](const std::string &name, size_t p, const gclq__sets_pair &pr, const set_u32 &want) {
                   static const char *const names[3] = {"path", "search", "lanes"};
                   const bool small = pr.na + pr.nb <= GCLQ__SETS_WARP_WORK;
                   set_u32 got(want.size() + 1);
                   for (int method = 0; method < 3; ++method) {
                     if (method == 2 && !small) continue;
                     std::fill(got.begin(), got.end(), 0xA5A5A5A5u);
                     uint32_t n = method == 0   ? sim_path(pr, got.data())
                                  : method == 1 ? sim_search(pr, got.data())
                                                : sim_lanes(pr, got.data());
                     check_sim(name, p, pr, names[method], n, got, want);
                   }
                 });
}

/* Tile tables as the host builds them (every entry has tiles) and as the
   device call builds them (an entry per pair: many have none). */
TEST(sets, tile_owner_finds_each_tiles_pair) {
  test_rng rng = test_rng_for("sets.tile_owner");
  for (int round = 0; round < 40; ++round) {
    const bool gaps = round % 2 == 1;
    uint32_t nq = 1 + (uint32_t)rng.below(300);
    std::vector<uint64_t> first(nq + 1, 0);
    for (uint32_t q = 0; q < nq; ++q)
      first[q + 1] = first[q] + (gaps && rng.below(3) ? 0 : 1 + rng.below(rng.below(2) ? 3 : 50));
    gclq__sets_tiles T = {NULL, first.data(), nq, NULL, NULL};
    for (uint32_t q = 0; q < nq; ++q)
      for (uint64_t t = first[q]; t < first[q + 1]; ++t) CHECK_EQ(gclq__sets_tile_owner(T, t), q);
  }
}

/* Which kernel runs a pair: the host's classification and the device
   call's tiles kernel share gclq__sets_work. */
TEST(sets, pair_work_follows_the_thresholds) {
  uint64_t pt, st;
  gclq__sets_work(GCLQ_INTERSECT_AUTO, 0, 100000, &pt, &st);
  CHECK(pt == 0 && st == 0); /* empty: nothing runs */
  gclq__sets_work(GCLQ_INTERSECT_AUTO, 500, GCLQ__SETS_WARP_WORK - 500, &pt, &st);
  CHECK(pt == 0 && st == 0); /* a warp */
  gclq__sets_work(GCLQ_INTERSECT_AUTO, 500, GCLQ__SETS_WARP_WORK - 499, &pt, &st);
  CHECK(pt == 1 && st == 0);
  gclq__sets_work(GCLQ_INTERSECT_MERGE_PATH, 4000, 4000, &pt, &st);
  CHECK(pt == 3 && st == 0); /* 8000 merge steps: 3 tiles of 3840 */
  gclq__sets_work(GCLQ_INTERSECT_BINARY_SEARCH, 4097, 5000, &pt, &st);
  CHECK(pt == 0 && st == 3); /* chunks of 2048 of the smaller set */
  gclq__sets_work(GCLQ_INTERSECT_AUTO, 100, (uint64_t)GCLQ_SETS_AUTO_RATIO * 100, &pt, &st);
  CHECK(pt == 0 && st == 1); /* AUTO: the ratio reached */
  gclq__sets_work(GCLQ_INTERSECT_AUTO, 100, (uint64_t)GCLQ_SETS_AUTO_RATIO * 100 - 1, &pt, &st);
  CHECK(pt == 1 && st == 0);
}

/* AUTO's per-pair rule: a warp's for a pair a warp runs (binary search for
   a of at most 64, or b at least twice a), the grid's ratio above. */
TEST(sets, auto_searches_small_pairs_by_the_warp_rule) {
  const gclq_intersect_method A = GCLQ_INTERSECT_AUTO;
  CHECK(gclq__sets_searches(A, 1, 1) && gclq__sets_searches(A, 64, 64) && gclq__sets_searches(A, 64, 960));
  CHECK(!gclq__sets_searches(A, 65, 65) && !gclq__sets_searches(A, 65, 129) && gclq__sets_searches(A, 65, 130));
  CHECK(!gclq__sets_searches(A, 341, 681) && gclq__sets_searches(A, 341, 682)); /* 1023 and 1024: a warp's */
  CHECK(!gclq__sets_searches(A, 370, 370) && !gclq__sets_searches(A, 512, 512));
  CHECK(!gclq__sets_searches(A, 64, 961)); /* 1025: the grid's ratio */
  CHECK(!gclq__sets_searches(A, 342, 684) && gclq__sets_searches(A, 342, (uint64_t)GCLQ_SETS_AUTO_RATIO * 342));
  CHECK(!gclq__sets_searches(GCLQ_INTERSECT_MERGE_PATH, 1, 1000) && gclq__sets_searches(GCLQ_INTERSECT_BINARY_SEARCH, 500, 500));
}

TEST(sets, pairs_device_arguments) {
  gclq_sets_device d;
  size_t bytes = 0;
  memset(&d, 0, sizeof d);
  CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 1000, NULL, GCLQ_INTERSECT_AUTO, NULL, &bytes, NULL), GCLQ_SUCCESS);
  CHECK(bytes >= 32 * 1000);
  CHECK_EQ(gclq_intersect_pairs_device(NULL, NULL, 0, NULL, GCLQ_INTERSECT_AUTO, NULL, &bytes, NULL),
           GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 0, NULL, GCLQ_INTERSECT_AUTO, NULL, NULL, NULL),
           GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 0, NULL, GCLQ_INTERSECT_SERIAL_MERGE, NULL, &bytes, NULL),
           GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 0, NULL, (gclq_intersect_method)99, NULL, &bytes, NULL),
           GCLQ_ERROR_INVALID_ARGUMENT);
  for (int m = GCLQ_INTERSECT_HASH; m <= GCLQ_INTERSECT_IP_HASH; ++m) {
    bytes = 0;
    CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 1000, NULL, (gclq_intersect_method)m, NULL, &bytes, NULL),
             GCLQ_SUCCESS);
    CHECK(bytes >= 32 * 1000);
  }
  CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, (uint64_t)1 << 31, NULL, GCLQ_INTERSECT_AUTO, NULL, &bytes, NULL),
           GCLQ_ERROR_INVALID_ARGUMENT);
  char fake;
  CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 5, NULL, GCLQ_INTERSECT_AUTO, &fake, &bytes, NULL),
           GCLQ_ERROR_INVALID_ARGUMENT); /* NULL pairs with temp storage given */
}

/* The device call's AUTO bitmap test on the host, as gclq__sets_tiles_kernel
   applies it (the peak densities read by a thread, not a warp). */
static bool sets_bitmap_pays(const gclq__sets_pair &pr) {
  double dense = 0.0;
  const int d = gclq__sets_bitmap_dense(pr, &dense);
  if (d < 2) return d == 1;
  return gclq__sets_bitmap_spread((uint64_t)pr.na + pr.nb, dense,
                                  gclq__sets_peak_density_of(pr.a, pr.na, GCLQ__SETS_DEVICE_STRETCHES),
                                  gclq__sets_peak_density_of(pr.b, pr.nb, GCLQ__SETS_DEVICE_STRETCHES),
                                  GCLQ_SETS_AUTO_BITMAP_WINDOWS) != 0;
}

/* The device call's AUTO bitmap test (sets_bitmap_pays), pair by
   pair: two uniform sets of 2^21 over 2^24 values (density 1/4, 64
   stretches of 2^18 values) pass, and over twice the values (1/8, above
   GCLQ__SETS_DEVICE_BITMAP_DENSITY); the same with nine tenths of each set
   crowded into its first 64th do not (their peak stretch is ~58 times the
   mean); over 3 and 8 times the values (densities 1/12, 1/32) do not; a
   pair below 2^17 elements does not, however dense; large sets whose
   ranges do not overlap pass (nothing to count). */
TEST(sets, device_auto_bitmap_test) {
  test_rng rng = test_rng_for("sets.device_bitmap");
  const uint64_t u = (uint64_t)1 << 24;
  const size_t n = (size_t)1 << 21;
  set_u32 a = sets_random(rng, n, u), b = sets_random(rng, n, u);
  auto pays = [](const set_u32 &x, const set_u32 &y) {
    gclq__sets_pair pr = {x.data(), y.data(), (uint32_t)x.size(), (uint32_t)y.size()};
    if (pr.na > pr.nb) std::swap(pr.a, pr.b), std::swap(pr.na, pr.nb);
    return sets_bitmap_pays(pr);
  };
  CHECK(pays(a, b));
  for (int k = 0; k < 8; ++k) { /* the peak against the stretches' densities, divided one by one */
    const size_t size = 32 + rng.below(5000);
    const set_u32 x = sets_random(rng, size, k < 4 ? size + rng.below(1u << 20) : (uint64_t)1 << 32);
    const uint32_t m = (uint32_t)x.size();
    double want = 0.0;
    for (uint32_t i = 0; i < 32; ++i) {
      const uint64_t from = (uint64_t)m * i / 32, to = (uint64_t)m * (i + 1) / 32 - 1;
      want = std::max(want, (double)(to - from + 1) / ((double)x[to] - (double)x[from] + 1.0));
    }
    CHECK_EQ(gclq__sets_peak_density_of(x.data(), m, 32), want);
  }
  auto crowded = [&](size_t count) {
    set_u32 c = sets_random(rng, count * 9 / 10, u / 64), rest = sets_random(rng, count / 10, u - u / 64);
    for (uint32_t x : rest) c.push_back((uint32_t)(x + u / 64));
    return c;
  };
  CHECK(!pays(crowded(n), crowded(n)));
  CHECK(pays(sets_random(rng, n, 2 * u), sets_random(rng, n, 2 * u)));
  CHECK(!pays(sets_random(rng, n, 3 * u), sets_random(rng, n, 3 * u)));
  CHECK(!pays(sets_random(rng, n, 8 * u), sets_random(rng, n, 8 * u)));
  const set_u32 small_a = sets_random(rng, (1 << 16) - 1, 1 << 17), small_b = sets_random(rng, 1 << 16, 1 << 17);
  CHECK(!pays(small_a, small_b)); /* 2^17 - 1 elements, density 1 */
  set_u32 high;
  for (uint32_t x : b) high.push_back((uint32_t)(x + u));
  CHECK(pays(a, high));
}

/* ---- the table methods (clique/sets_methods.cuh) on the host ----
   gclq__sets_table_kernel and gclq__sets_table_warp_kernel, one thread at
   a time: the same slice ends, tables (their atomics run as plain
   operations on the host) and probes in order. */

static const gclq_intersect_method table_methods[] = {GCLQ_INTERSECT_HASH, GCLQ_INTERSECT_BITMAP,
                                                      GCLQ_INTERSECT_BITMAP_DYNAMIC, GCLQ_INTERSECT_IP_OBS,
                                                      GCLQ_INTERSECT_IP_HASH};

/* One tile from its four ends: the shared words poisoned (a table may read
   only what it cleared or wrote), the table built, the probe side walked.
   Returns the matches (written to out when given). */
template <typename Table>
static uint32_t sim_table_tile(const gclq__sets_pair &pr, const uint32_t *e, bool block, std::vector<uint32_t> &mem,
                               uint32_t *out) {
  const gclq__sets_slices c = gclq__sets_slices_at(e);
  std::fill(mem.begin(), mem.end(), 0xA5A5A5A5u);
  const Table t = Table::make(mem.data(), block, pr, c);
  const gclq__sets_run build = gclq__sets_side(pr, c, Table::FROM_B), probe = gclq__sets_side(pr, c, !Table::FROM_B);
  if (t.clear_words() > mem.size() || (Table::FROM_B && build.n > mem.size()))
    return ~0u; /* it would write past its words: fails the count check */
  for (uint32_t k = 0; k < t.clear_words(); ++k) t.clear()[k] = 0;
  for (uint32_t i = 0; i < build.n; ++i) t.insert(build.v[i], i);
  uint32_t n = 0;
  for (uint32_t i = 0; i < probe.n; ++i) {
    if (!t(probe.v[i])) continue;
    if (out) out[n] = probe.v[i];
    ++n;
  }
  return n;
}

/* A pair by one table method: a warp's single tile, or every block tile. */
template <typename Table>
static uint32_t sim_table(gclq_intersect_method m, const gclq__sets_pair &pr, uint32_t *out) {
  uint32_t e[4], total = 0;
  if (gclq__sets_warp_runs(m, pr)) {
    std::vector<uint32_t> mem(GCLQ__SETS_WARP_WORDS);
    for (uint32_t k = 0; k < 4; ++k) e[k] = gclq__sets_warp_end(m, pr, k);
    return sim_table_tile<Table>(pr, e, false, mem, out);
  }
  std::vector<uint32_t> mem(Table::BLOCK_WORDS);
  uint64_t path_tiles, search_tiles;
  gclq__sets_work_pair(m, pr, &path_tiles, &search_tiles);
  for (uint64_t t = 0; t < path_tiles + search_tiles; ++t) {
    for (uint32_t k = 0; k < 4; ++k) e[k] = gclq__sets_slice_end(m, pr, t, k);
    total += sim_table_tile<Table>(pr, e, true, mem, out ? out + total : NULL);
  }
  return total;
}

/* The table a method uses, as gclq__sets_methods_launch picks it. */
static uint32_t sim_method(gclq_intersect_method m, const gclq__sets_pair &pr, uint32_t *out) {
  if (m == GCLQ_INTERSECT_IP_OBS) return sim_table<gclq__sets_sorted>(m, pr, out);
  if (gclq__sets_is_bitmap(m)) return sim_table<gclq__sets_bits>(m, pr, out);
  return sim_table<gclq__sets_hash>(m, pr, out);
}

TEST(sets, table_methods_on_the_host_match_the_reference) {
  each_case_pair("sets.table_methods",
                 [](const std::string &name, size_t p, const gclq__sets_pair &pr, const set_u32 &want) {
                   set_u32 got(want.size() + 1);
                   for (size_t k = 0; k < sizeof table_methods / sizeof table_methods[0]; ++k) {
                     const char *method = gclq_intersect_method_name(table_methods[k]);
                     const uint32_t counted = sim_method(table_methods[k], pr, NULL); /* the count pass */
                     CHECK_MSG(counted == want.size(), "%s: pair %zu, %s: counted %u, want %zu", name.c_str(), p,
                               method, counted, want.size());
                     std::fill(got.begin(), got.end(), 0xA5A5A5A5u);
                     check_sim(name, p, pr, method, sim_method(table_methods[k], pr, got.data()), got, want);
                   }
                 });
}

/* Fibonacci hashing keeps to its buckets and spreads a run of consecutive
   values evenly; a table whose elements all land in one bucket (most of
   them overflowing) still answers every probe exactly, at block and warp
   size. */
TEST(sets, hash_buckets_spread_and_overflow_loses_nothing) {
  test_rng rng = test_rng_for("sets.hash_buckets");
  for (int i = 0; i < 10000; ++i) {
    const uint32_t log2 = 1 + (uint32_t)rng.below(31), v = (uint32_t)rng.next();
    CHECK(gclq__sets_bucket(v, log2) < (1ull << log2));
  }
  for (int round = 0; round < 20; ++round) {
    const uint32_t start = (uint32_t)rng.next();
    std::vector<uint32_t> load(1u << GCLQ__SETS_WARP_HASH_LOG2, 0);
    for (uint32_t v = 0; v < 512; ++v) load[gclq__sets_bucket(start + v, GCLQ__SETS_WARP_HASH_LOG2)]++;
    CHECK_MSG(*std::max_element(load.begin(), load.end()) <= GCLQ__SETS_HASH_SLOTS,
              "512 values from %u: a bucket of %u", start, *std::max_element(load.begin(), load.end()));
  }
  CHECK_EQ((1 + GCLQ__SETS_HASH_SLOTS) << GCLQ__SETS_WARP_HASH_LOG2, GCLQ__SETS_WARP_WORDS); /* a table fills its words */
  CHECK_EQ((1 + GCLQ__SETS_HASH_SLOTS) << GCLQ__SETS_HASH_LOG2, (uint32_t)gclq__sets_hash::BLOCK_WORDS);
  set_u32 same, probes;
  for (uint32_t v = 0; same.size() < 3000; ++v)
    if (gclq__sets_bucket(v, GCLQ__SETS_HASH_LOG2) == 77) same.push_back(v);
  for (uint32_t v = 0; v <= same.back() + 2; ++v) probes.push_back(v);
  for (int block = 0; block < 2; ++block) {
    const size_t n = block ? same.size() : 500;
    std::vector<uint32_t> mem(block ? (uint32_t)gclq__sets_hash::BLOCK_WORDS : GCLQ__SETS_WARP_WORDS, 0xA5A5A5A5u);
    gclq__sets_pair pr = {same.data(), probes.data(), (uint32_t)n, (uint32_t)probes.size()};
    gclq__sets_slices c = {0, (uint32_t)n, 0, (uint32_t)probes.size()};
    const gclq__sets_hash h = gclq__sets_hash::make(mem.data(), block != 0, pr, c);
    CHECK_EQ(h.log2, block ? GCLQ__SETS_HASH_LOG2 : GCLQ__SETS_WARP_HASH_LOG2);
    for (uint32_t k = 0; k < h.clear_words(); ++k) h.clear()[k] = 0;
    for (size_t i = n; i-- > 0;) h.insert(same[i], (uint32_t)i); /* any order */
    CHECK_EQ(h.count[gclq__sets_bucket(same[0], h.log2)], n);
    for (size_t i = 0; i < probes.size(); ++i)
      CHECK_MSG(h(probes[i]) == std::binary_search(same.begin(), same.begin() + n, probes[i]), "probe %u",
                probes[i]);
  }
}

/* The bitmaps' spans (a's range; the shared range, or none) and windows:
   the windows' a slices are a's elements in the span, in order and once
   each; each b slice is b's elements in its window;
   a small pair runs a warp exactly when its span fits the warp's window. */
TEST(sets, bitmap_spans_and_windows) {
  test_rng rng = test_rng_for("sets.bitmap_windows");
  for (int round = 0; round < 400; ++round) {
    const uint64_t u = round % 4 == 0 ? 0x100000000ull : 1 + rng.below((uint64_t)1 << (8 + round % 20));
    const size_t na = 1 + rng.below(round % 3 == 0 ? 4000 : 300);
    set_u32 a = sets_random(rng, na < u ? na : (size_t)u, u);
    const uint64_t ub = std::min<uint64_t>(u + rng.below(2) * rng.below(u), 0x100000000ull);
    set_u32 b = sets_random(rng, std::min<uint64_t>(a.size() + rng.below(3000), ub), ub);
    if (b.size() < a.size()) continue;
    const gclq__sets_pair pr = {a.data(), b.data(), (uint32_t)a.size(), (uint32_t)b.size()};
    for (int dyn = 0; dyn < 2; ++dyn) {
      const gclq_intersect_method m = dyn ? GCLQ_INTERSECT_BITMAP_DYNAMIC : GCLQ_INTERSECT_BITMAP;
      const gclq__sets_range s = gclq__sets_bitmap_range(m, pr);
      const uint64_t lo = dyn ? std::max(a[0], b[0]) : a[0], hi = dyn ? std::min(a.back(), b.back()) : a.back();
      CHECK_EQ(s.bits, lo <= hi ? hi - lo + 1 : 0);
      if (s.bits) CHECK_EQ(s.lo, lo);
      uint64_t path_tiles, search_tiles;
      gclq__sets_work_pair(m, pr, &path_tiles, &search_tiles);
      CHECK_EQ(path_tiles, 0);
      const bool small = a.size() + b.size() <= GCLQ__SETS_WARP_WORK;
      CHECK_EQ(gclq__sets_warp_runs(m, pr), s.bits == 0 || (small && s.bits <= GCLQ__SETS_WARP_BITMAP_BITS));
      if (!gclq__sets_warp_runs(m, pr)) CHECK_EQ(search_tiles, (s.bits + GCLQ__SETS_BITMAP_BITS - 1) / GCLQ__SETS_BITMAP_BITS);
      const uint64_t tiles = gclq__sets_warp_runs(m, pr) ? 1 : search_tiles;
      const uint64_t window = gclq__sets_warp_runs(m, pr) ? GCLQ__SETS_WARP_BITMAP_BITS : GCLQ__SETS_BITMAP_BITS;
      uint32_t next = (uint32_t)(std::lower_bound(a.begin(), a.end(), (uint32_t)lo) - a.begin());
      const uint32_t last = s.bits ? (uint32_t)(std::upper_bound(a.begin(), a.end(), (uint32_t)hi) - a.begin()) : next;
      for (uint64_t t = 0; t < tiles; ++t) {
        uint32_t e[4];
        for (uint32_t k = 0; k < 4; ++k) e[k] = gclq__sets_window_end(m, pr, t, window, k);
        if (e[0] == e[1]) continue; /* no element of a in the window */
        CHECK_EQ(e[0], next);
        next = e[1];
        CHECK((uint64_t)a[e[1] - 1] - a[e[0]] < window);
        const gclq__sets_window w = gclq__sets_window_at(m, pr, t, window);
        CHECK(w.lo <= a[e[0]] && a[e[1] - 1] < w.hi);
        for (uint32_t y = e[2]; y < e[3]; ++y) CHECK(b[y] >= w.lo && b[y] < w.hi);
        CHECK(e[2] == 0 || b[e[2] - 1] < w.lo);
        CHECK(e[3] == b.size() || b[e[3]] >= w.hi);
      }
      CHECK_EQ(next, last);
    }
    CHECK_OK_SO_FAR();
  }
}

/* Intersect Path's and HASH's slices: the a slices of a pair's tiles cut a
   into consecutive pieces; IP's b slices likewise, each with b's next
   element as its guard; HASH's b slice is the span of its chunk's values. */
TEST(sets, ip_and_chunk_slices_cut_the_pair) {
  test_rng rng = test_rng_for("sets.ip_slices");
  for (int round = 0; round < 200; ++round) {
    const uint64_t u = 1 + rng.below(200000);
    set_u32 a = sets_random(rng, std::min<uint64_t>(1 + rng.below(20000), u), u);
    set_u32 b = sets_random(rng, std::min<uint64_t>(a.size() + rng.below(20000), u), u);
    const gclq__sets_pair pr = {a.data(), b.data(), (uint32_t)a.size(), (uint32_t)b.size()};
    const gclq_intersect_method ms[3] = {GCLQ_INTERSECT_IP_OBS, GCLQ_INTERSECT_IP_HASH, GCLQ_INTERSECT_HASH};
    for (int k = 0; k < 3; ++k) {
      uint64_t path_tiles, search_tiles;
      gclq__sets_work_pair(ms[k], pr, &path_tiles, &search_tiles);
      if (gclq__sets_warp_runs(ms[k], pr)) {
        CHECK_EQ(gclq__sets_warp_end(ms[k], pr, 1), a.size());
        CHECK_EQ(gclq__sets_warp_end(ms[k], pr, 3), b.size());
        continue;
      }
      CHECK_EQ(ms[k] == GCLQ_INTERSECT_HASH ? path_tiles : search_tiles, 0);
      uint32_t x = 0, y = 0;
      for (uint64_t t = 0; t < path_tiles + search_tiles; ++t) {
        uint32_t e[4];
        for (uint32_t j = 0; j < 4; ++j) e[j] = gclq__sets_slice_end(ms[k], pr, t, j);
        CHECK_EQ(e[0], x);
        x = e[1];
        if (ms[k] == GCLQ_INTERSECT_HASH) {
          CHECK(e[1] - e[0] <= GCLQ__SETS_OBS_CHUNK);
          CHECK(e[2] == b.size() || b[e[2]] >= a[e[0]]);
          CHECK(e[2] == 0 || b[e[2] - 1] < a[e[0]]);
          CHECK(e[3] == b.size() || b[e[3]] > a[e[1] - 1]);
          continue;
        }
        const uint32_t y1 = (uint32_t)(gclq__sets_tile_diag(pr, t, 1) - e[1]); /* the b items before the end */
        CHECK_EQ(e[2], y);
        CHECK_EQ(e[3], y1 + (y1 < b.size())); /* and the guard */
        y = y1;
      }
      CHECK_EQ(x, a.size());
      if (ms[k] != GCLQ_INTERSECT_HASH) CHECK_EQ(y, b.size());
    }
    CHECK_OK_SO_FAR();
  }
}

/* Which kernel runs a pair under the table methods (gclq__sets_work_pair,
   shared by the host's classification and the device call's tiles kernel). */
TEST(sets, table_methods_work_follows_the_thresholds) {
  set_u32 a(500), b(GCLQ__SETS_WARP_WORK - 500), wide(4097), wider(5000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = (uint32_t)(3 * i);
  for (size_t i = 0; i < b.size(); ++i) b[i] = (uint32_t)(2 * i);
  for (size_t i = 0; i < wide.size(); ++i) wide[i] = (uint32_t)(300 * i);
  for (size_t i = 0; i < wider.size(); ++i) wider[i] = (uint32_t)(7 * i + 1);
  uint64_t pt, st;
  gclq__sets_pair small = {a.data(), b.data(), (uint32_t)a.size(), (uint32_t)b.size()};
  gclq__sets_pair large = {wide.data(), wider.data(), (uint32_t)wide.size(), (uint32_t)wider.size()};
  for (size_t k = 0; k < sizeof table_methods / sizeof table_methods[0]; ++k) {
    gclq__sets_work_pair(table_methods[k], small, &pt, &st);
    CHECK(pt == 0 && st == 0); /* a warp: 1024 elements, a range of 1498 values */
    CHECK(gclq__sets_warp_runs(table_methods[k], small));
  }
  gclq__sets_work_pair(GCLQ_INTERSECT_HASH, large, &pt, &st);
  CHECK(pt == 0 && st == 3); /* chunks of 2048 of the smaller set */
  gclq__sets_work_pair(GCLQ_INTERSECT_IP_OBS, large, &pt, &st);
  CHECK(pt == 3 && st == 0); /* 9097 merge steps: 3 tiles of 3840 */
  gclq__sets_work_pair(GCLQ_INTERSECT_IP_HASH, large, &pt, &st);
  CHECK(pt == 3 && st == 0);
  gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP, large, &pt, &st);
  CHECK(pt == 0 && st == (4096 * 300 + 1 + GCLQ__SETS_BITMAP_BITS - 1) / GCLQ__SETS_BITMAP_BITS); /* a's range */
  gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP_DYNAMIC, large, &pt, &st);
  CHECK(pt == 0 && st == 1); /* the shared range: up to b's last, 34994 */
  small.a = wide.data(); /* a small pair over a range past the warp's window: block windows */
  gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP, small, &pt, &st);
  CHECK(pt == 0 && st == (300 * 499 + 1 + GCLQ__SETS_BITMAP_BITS - 1) / GCLQ__SETS_BITMAP_BITS); /* its 500 */
  gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP_DYNAMIC, small, &pt, &st);
  CHECK(pt == 0 && st == 0); /* the shared range, up to b's last (1046), fits: a warp */
  set_u32 high(1, 5000000);
  gclq__sets_pair apart = {high.data(), b.data(), 1, (uint32_t)b.size()};
  gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP_DYNAMIC, apart, &pt, &st);
  CHECK(pt == 0 && st == 0 && gclq__sets_bitmap_range(GCLQ_INTERSECT_BITMAP_DYNAMIC, apart).bits == 0);
  CHECK(!gclq__sets_searches(GCLQ_INTERSECT_IP_OBS, 1, 1000000)); /* none of them is binary search */
}

/* The stream rule (gclq__sets_stream_balanced) on a grid of 16 blocks: a
   uniform pair over 64 windows streams; the same pair with most of a's
   and b's elements in its first two windows does not (one block's run
   would hold them); no more tiles than blocks streams however skewed; too
   few windows a pair, or more pairs than blocks, does not. */
TEST(sets, stream_rule_weighs_the_blocks_runs) {
  test_rng rng = test_rng_for("sets.stream_rule");
  const uint64_t w = GCLQ__SETS_BITMAP_BITS, u = 64 * w;
  std::vector<set_u32> v;
  v.push_back(sets_random(rng, 20000, u));
  v.push_back(sets_random(rng, 30000, u));
  for (int k = 0; k < 2; ++k) { /* nine tenths in the first two windows */
    set_u32 dense = sets_random(rng, 18000, 2 * w), rest = sets_random(rng, 2000, u - 2 * w);
    for (uint32_t x : rest) dense.push_back((uint32_t)(x + 2 * w));
    v.push_back(dense);
  }
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  const uint32_t pairs[] = {0, 1, 2, 3};
  const gclq__sets_args h = {s.h_offsets, s.h_elements, pairs, NULL, NULL, NULL};
  const gclq_intersect_method m = GCLQ_INTERSECT_BITMAP_DYNAMIC;
  uint64_t pt, first[3] = {0, 0, 0};
  const uint32_t uniform = 0, skewed = 1, both[2] = {0, 0}; /* the uniform pair twice */
  gclq__sets_work_pair(m, gclq__sets_pair_at(h, 0), &pt, &first[1]);
  CHECK(first[1] >= 63 && first[1] <= 64);
  CHECK(gclq__sets_stream_balanced(m, h, &uniform, first, 1, 16));
  CHECK(gclq__sets_stream_balanced(m, h, &uniform, first, 1, 64)); /* a tile a block */
  gclq__sets_work_pair(m, gclq__sets_pair_at(h, 1), &pt, &first[1]);
  CHECK(first[1] >= 63 && first[1] <= 64);
  CHECK(!gclq__sets_stream_balanced(m, h, &skewed, first, 1, 16));
  CHECK(gclq__sets_stream_balanced(m, h, &skewed, first, 1, 64));
  first[1] = 31; /* fewer than GCLQ__SETS_STREAM_TILES windows */
  CHECK(!gclq__sets_stream_balanced(m, h, &uniform, first, 1, 16));
  gclq__sets_work_pair(m, gclq__sets_pair_at(h, 0), &pt, &first[1]);
  first[2] = 2 * first[1];
  CHECK(gclq__sets_stream_balanced(m, h, both, first, 2, 16));
  CHECK(!gclq__sets_stream_balanced(m, h, both, first, 2, 1)); /* more pairs than blocks */
  gclq_sets_free(&s);
  /* the kernel's shape from the elements a window holds on average, and
     (PAIRS) the tiles a block's run holds */
  const uint64_t tiles = GCLQ__SETS_STREAM_PAIRS_RUN * (1 + rng.below(1000)), runs = tiles / GCLQ__SETS_STREAM_PAIRS_RUN;
  CHECK_EQ(gclq__sets_stream_shape(0, 0, runs), 0);
  CHECK_EQ(gclq__sets_stream_shape(GCLQ__SETS_STREAM_WIDE_FROM * tiles - 1, tiles, runs), 0);
  CHECK_EQ(gclq__sets_stream_shape(GCLQ__SETS_STREAM_WIDE_FROM * tiles, tiles, runs),
           (int)(GCLQ__STREAM_WIDE | GCLQ__STREAM_PAIRS));
  CHECK_EQ(gclq__sets_stream_shape(GCLQ__SETS_STREAM_WIDE_FROM * tiles, tiles, runs + 1), (int)GCLQ__STREAM_WIDE);
  CHECK_EQ(gclq__sets_stream_shape(GCLQ__SETS_STREAM_SLOTS_FROM * tiles - 1, tiles, runs),
           (int)(GCLQ__STREAM_WIDE | GCLQ__STREAM_PAIRS));
  CHECK_EQ(gclq__sets_stream_shape(GCLQ__SETS_STREAM_SLOTS_FROM * tiles, tiles, runs),
           (int)(GCLQ__STREAM_WIDE | GCLQ__STREAM_SLOTS));
}
#endif

/* ---- CUDA against HOST ---- */
#if defined(__CUDACC__)

/* The default allocator with every block poisoned, so that an output a
   kernel forgot to write cannot match by luck. */
static void *poison_alloc(void *user, size_t bytes, gclq_stream stream) {
  void *p = NULL;
  (void)user;
  if (cudaMallocAsync(&p, bytes, (cudaStream_t)stream) != cudaSuccess) return NULL;
  cudaMemsetAsync(p, 0xA5, bytes, (cudaStream_t)stream);
  return p;
}
static void poison_free(void *user, void *p, gclq_stream stream) {
  (void)user;
  cudaFreeAsync(p, (cudaStream_t)stream);
}

/* About what an uploaded collection takes on the device (its offsets and
   elements, and 512 bytes of slack): the tests' budgets are this plus the
   room they leave a call. */
static size_t sets_upload_bytes(const gclq_sets &s) { return (s.num_sets + 1) * 8 + s.total * 4 + 512; }

static gclq_intersect_options cuda_options(gclq_intersect_method m) {
  gclq_intersect_options o;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_CUDA;
  o.method = m;
  o.allocator.alloc = poison_alloc;
  o.allocator.free = poison_free;
  return o;
}

/* Two results of the same call, byte for byte. */
static void check_same(const gclq_intersect_result &want, const gclq_intersect_result &got, bool materialised,
                       bool listed, const char *what) {
  CHECK_MSG(want.num_pairs == got.num_pairs, "%s: %llu pairs, want %llu", what, (unsigned long long)got.num_pairs,
            (unsigned long long)want.num_pairs);
  CHECK_EQ(want.total, got.total);
  CHECK_ARRAYS(want.h_counts, got.h_counts, want.num_pairs, what);
  if (listed) CHECK_ARRAYS(want.h_pairs, got.h_pairs, 2 * want.num_pairs, what);
  if (!materialised) return;
  CHECK_ARRAYS(want.h_offsets, got.h_offsets, want.num_pairs + 1, what);
  CHECK_ARRAYS(want.h_elements, got.h_elements, want.total, what);
}

static const gclq_intersect_method cuda_methods[] = {
    GCLQ_INTERSECT_MERGE_PATH, GCLQ_INTERSECT_BINARY_SEARCH,   GCLQ_INTERSECT_AUTO,   GCLQ_INTERSECT_HASH,
    GCLQ_INTERSECT_BITMAP,     GCLQ_INTERSECT_BITMAP_DYNAMIC, GCLQ_INTERSECT_IP_OBS, GCLQ_INTERSECT_IP_HASH};
static const size_t num_cuda_methods = sizeof cuda_methods / sizeof cuda_methods[0];

GPU_TEST(sets, cuda_pairs_equal_host_on_every_shape) {
  test_rng rng = test_rng_for("sets.cuda_shapes");
  std::vector<sets_case> cases = sets_cases(rng);
  for (size_t i = 0; i < cases.size(); ++i) {
    gclq_sets s;
    CHECK_EQ(sets_build(cases[i].sets, &s), GCLQ_SUCCESS);
    for (int m = 0; m < 2; ++m) {
      gclq_intersect_options h = host_options();
      gclq_intersect_result want;
      h.materialise = m;
      CHECK_EQ(case_run(cases[i], s, h, &want), GCLQ_SUCCESS);
      for (size_t k = 0; k < num_cuda_methods; ++k) {
        gclq_intersect_options o = cuda_options(cuda_methods[k]);
        gclq_intersect_result got;
        o.materialise = m;
        CHECK_EQ(case_run(cases[i], s, o, &got), GCLQ_SUCCESS);
        CHECK_EQ(got.stats.backend, GCLQ_BACKEND_CUDA);
        std::string what = cases[i].name + " / " + gclq_intersect_method_name(cuda_methods[k]) + (m ? " / written" : "");
        check_same(want, got, m != 0, false, what.c_str());
        if (cuda_methods[k] != GCLQ_INTERSECT_BINARY_SEARCH && cuda_methods[k] != GCLQ_INTERSECT_AUTO)
          CHECK_EQ(got.stats.binary_search_pairs, 0);
        gclq_intersect_result_free(&got);
        CHECK_OK_SO_FAR();
      }
      gclq_intersect_result_free(&want);
    }
    gclq_sets_free(&s);
  }
}

GPU_TEST(sets, cuda_one_giant_pair_uses_many_blocks) {
  test_rng rng = test_rng_for("sets.cuda_giant");
  const size_t n = test_max_size() < ((size_t)1 << 22) ? test_max_size() : ((size_t)1 << 22);
  std::vector<set_u32> v(2);
  v[0] = sets_random(rng, n, 4 * (uint64_t)n);
  v[1] = sets_random(rng, n + rng.below(n), 4 * (uint64_t)n);
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  gclq_intersect_options h = host_options();
  h.materialise = 1;
  gclq_intersect_result want;
  CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &h, &want), GCLQ_SUCCESS);
  for (size_t k = 0; k < num_cuda_methods; ++k) {
    gclq_intersect_options o = cuda_options(cuda_methods[k]);
    o.materialise = 1;
    gclq_intersect_result got;
    CHECK_EQ(gclq_intersect_pair(&s, 1, 0, &o, &got), GCLQ_SUCCESS);
    check_same(want, got, true, false, gclq_intersect_method_name(cuda_methods[k]));
    CHECK_EQ(got.stats.block_pairs, v[0].size() + v[1].size() > 1024 ? 1 : 0);
    gclq_intersect_result_free(&got);
  }
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}

/* AUTO on CUDA for given pairs runs what its batch rule says
   (gclq__sets_pairs_rule), says so in stats.method, and equals HOST: a
   dense pair spread over many windows (as in the host test
   sets.pairs_auto_rule: the bitmap), a sparse one (IP_OBS), every edge of
   an R-MAT graph. */
GPU_TEST(sets, cuda_auto_runs_its_batch_rule) {
  test_rng rng = test_rng_for("sets.cuda_auto_rule");
  const double w = GCLQ_SETS_AUTO_BITMAP_WINDOWS, window = (double)GCLQ__SETS_AUTO_STRETCH;
  for (int dense = 0; dense < 2; ++dense) {
    std::vector<set_u32> v(2);
    const size_t n = dense ? (size_t)(GCLQ_SETS_AUTO_BITMAP_DENSITY * 1.28 * w * window) + rng.below(1000)
                           : 5000 + rng.below(5000);
    const uint64_t u = dense ? (uint64_t)(2 * w) * (uint64_t)window : 500 * (uint64_t)n; /* densities >= 1.28 d, 0.004 */
    v[0] = sets_random(rng, n, u);
    v[1] = sets_random(rng, n + rng.below(n), u);
    gclq_sets s;
    CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
    const uint32_t pair[2] = {0, 1};
    const gclq_intersect_method want_method =
        gclq__sets_pairs_rule(&s, pair, 1, GCLQ_SETS_AUTO_BITMAP_DENSITY, GCLQ_SETS_AUTO_BITMAP_WINDOWS,
                              GCLQ_SETS_AUTO_IP_OBS_BELOW);
    CHECK_EQ(want_method, dense ? GCLQ_INTERSECT_BITMAP_DYNAMIC : GCLQ_INTERSECT_IP_OBS);
    for (int m = 0; m < 2; ++m) {
      gclq_intersect_options h = host_options(), o = cuda_options(GCLQ_INTERSECT_AUTO);
      h.materialise = o.materialise = m;
      gclq_intersect_result want, got;
      CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &h, &want), GCLQ_SUCCESS);
      CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, &got), GCLQ_SUCCESS);
      check_same(want, got, m != 0, false, dense ? "dense pair" : "sparse pair");
      CHECK_EQ(got.stats.method, want_method);
      gclq_intersect_result_free(&want);
      gclq_intersect_result_free(&got);
    }
    gclq_sets_free(&s);
  }
  gclq_graph g;
  gclq_sets s;
  CHECK_EQ(gclq_graph_rmat(12, 16, rng.next(), &g), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_from_graph(&g, &s), GCLQ_SUCCESS);
  std::vector<uint32_t> edges;
  for (uint32_t x = 0; x < g.num_vertices; ++x)
    for (uint64_t e = g.h_offsets[x]; e < g.h_offsets[x + 1]; ++e)
      if (g.h_neighbors[e] > x) edges.push_back(x), edges.push_back(g.h_neighbors[e]);
  struct hook { /* IP_OBS's warp tables (1) or the per-pair rule's warps (0) for the small pairs */
    ~hook() { gclq__sets_ip_obs_warps = 0; }
  } restore;
  for (int warps = 0; warps < 2; ++warps)
    for (int m = 0; m < 2; ++m) {
      gclq__sets_ip_obs_warps = warps;
      gclq_intersect_options h = host_options(), o = cuda_options(GCLQ_INTERSECT_AUTO);
      h.materialise = o.materialise = m;
      gclq_intersect_result want, got;
      CHECK_EQ(gclq_intersect_pairs(&s, edges.data(), edges.size() / 2, &h, &want), GCLQ_SUCCESS);
      CHECK_EQ(gclq_intersect_pairs(&s, edges.data(), edges.size() / 2, &o, &got), GCLQ_SUCCESS);
      check_same(want, got, m != 0, false, warps ? "R-MAT 12 every edge, IP_OBS's warps" : "R-MAT 12 every edge");
      CHECK_EQ(got.stats.method, GCLQ_INTERSECT_IP_OBS);
      gclq_intersect_result_free(&want);
      gclq_intersect_result_free(&got);
    }
  gclq_sets_free(&s);
  gclq_graph_free(&g);
}

GPU_TEST(sets, cuda_all_pairs_and_containment_equal_host) {
  test_rng rng = test_rng_for("sets.cuda_all");
  const size_t ks[] = {2, 37, 131};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    std::vector<set_u32> v = sets_family(rng, ks[i], 1000 + rng.below(5000));
    gclq_sets s;
    CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
    for (size_t k = 0; k < num_cuda_methods; ++k) {
      gclq_intersect_options o = cuda_options(cuda_methods[k]);
      check_all_pairs(v, s, o);
      CHECK_OK_SO_FAR();
    }
    gclq_sets_free(&s);
  }
}

GPU_TEST(sets, cuda_generated_collections_equal_host) {
  test_rng rng = test_rng_for("sets.cuda_generated");
  const gclq_sets_dist dists[] = {GCLQ_SETS_UNIFORM, GCLQ_SETS_NORMAL, GCLQ_SETS_ZIPF};
  for (int d = 0; d < 3; ++d) {
    gclq_sets_gen gen = {dists[d], 100, 1000000, 20000, 0, rng.next()};
    gclq_sets s;
    CHECK_EQ(gclq_sets_generate(&gen, &s), GCLQ_SUCCESS);
    gclq_intersect_options h = host_options();
    gclq_intersect_result want, got;
    h.sparse = 1;
    CHECK_EQ(gclq_intersect_all(&s, &h, &want), GCLQ_SUCCESS);
    for (size_t k = 0; k < num_cuda_methods; ++k) {
      gclq_intersect_options o = cuda_options(cuda_methods[k]);
      o.sparse = 1;
      CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_SUCCESS);
      check_same(want, got, false, true, gclq_intersect_method_name(cuda_methods[k]));
      gclq_intersect_result_free(&got);
      CHECK_OK_SO_FAR();
    }
    gclq_intersect_result_free(&want);
    gclq_sets_free(&s);
  }
}

GPU_TEST(sets, cuda_small_budgets_give_the_same_bytes) {
  test_rng rng = test_rng_for("sets.cuda_budget");
  std::vector<set_u32> v;
  for (int i = 0; i < 300; ++i) v.push_back(sets_random(rng, rng.below(i % 10 == 0 ? 20000 : 600), 40000));
  std::vector<uint32_t> pairs;
  for (int p = 0; p < 30000; ++p) pairs.push_back((uint32_t)rng.below(300)), pairs.push_back((uint32_t)rng.below(300));
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  size_t set_bytes = sets_upload_bytes(s);
  gclq_intersect_options h = host_options();
  h.materialise = 1;
  gclq_intersect_result want, got;
  CHECK_EQ(gclq_intersect_pairs(&s, pairs.data(), pairs.size() / 2, &h, &want), GCLQ_SUCCESS);
  const size_t room[] = {1 << 17, 1 << 18, 1 << 20}; /* one pair's intersection takes up to 80 KB */
  for (size_t b = 0; b < 3; ++b) {
    for (size_t k = 0; k < num_cuda_methods; ++k) {
      gclq_intersect_options o = cuda_options(cuda_methods[k]);
      o.materialise = 1;
      o.device_budget_bytes = set_bytes + room[b];
      CHECK_EQ(gclq_intersect_pairs(&s, pairs.data(), pairs.size() / 2, &o, &got), GCLQ_SUCCESS);
      check_same(want, got, true, false, "small budget");
      if (b == 0) CHECK(got.stats.batches > 1);
      CHECK(got.stats.peak_device_bytes <= o.device_budget_bytes);
      gclq_intersect_result_free(&got);
      CHECK_OK_SO_FAR();
    }
  }
  gclq_intersect_options o = cuda_options(GCLQ_INTERSECT_AUTO);
  o.device_budget_bytes = 1024; /* not even the collection */
  CHECK_EQ(gclq_intersect_pairs(&s, pairs.data(), pairs.size() / 2, &o, &got), GCLQ_ERROR_OUT_OF_MEMORY);
  CHECK(got.h_counts == NULL);
  o.device_budget_bytes = set_bytes + (1 << 17); /* all pairs through the same halving */
  check_all_pairs(v, s, o);
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}

/* Block tiles that find their own ends (the gclq__sets_cuts_in_blocks
   hook: as when the budget has no room for the partition kernel's cuts),
   for every method: every shape, a giant pair, and tight budgets give
   HOST's bytes. */
GPU_TEST(sets, cuda_tiles_cut_in_blocks_equal_host) {
  const gclq_intersect_method *table = cuda_methods;
  test_rng rng = test_rng_for("sets.cuda_block_cuts");
  struct hook_on { /* off again however the test ends */
    hook_on() { gclq__sets_cuts_in_blocks = 1; }
    ~hook_on() { gclq__sets_cuts_in_blocks = 0; }
  } on;
  std::vector<sets_case> cases = sets_cases(rng);
  const size_t n = test_max_size() < ((size_t)1 << 20) ? test_max_size() : ((size_t)1 << 20);
  sets_case giant;
  giant.name = "giant pair";
  giant.sets.push_back(sets_random(rng, n, 4 * (uint64_t)n));
  giant.sets.push_back(sets_random(rng, n + rng.below(n), 4 * (uint64_t)n));
  giant.pairs = {0, 1, 1, 0};
  cases.push_back(giant);
  for (size_t i = 0; i < cases.size() && !g_test.failed; ++i) {
    gclq_sets s;
    CHECK_EQ(sets_build(cases[i].sets, &s), GCLQ_SUCCESS);
    const size_t set_bytes = sets_upload_bytes(s);
    for (int m = 0; m < 2; ++m) {
      gclq_intersect_options h = host_options();
      gclq_intersect_result want;
      h.materialise = m;
      CHECK_EQ(case_run(cases[i], s, h, &want), GCLQ_SUCCESS);
      uint32_t most = 0; /* the largest intersection: one pair's output must fit the tight budget */
      for (uint64_t p = 0; p < want.num_pairs; ++p) most = want.h_counts[p] > most ? want.h_counts[p] : most;
      for (size_t k = 0; k < num_cuda_methods; ++k)
        for (int tight = 0; tight < 2; ++tight) {
          gclq_intersect_options o = cuda_options(table[k]);
          gclq_intersect_result got;
          o.materialise = m;
          if (tight) /* halves, and cuts that may not fit */
            o.device_budget_bytes = set_bytes + ((size_t)1 << 17) + 8 * (size_t)most;
          CHECK_EQ(case_run(cases[i], s, o, &got), GCLQ_SUCCESS);
          std::string what = cases[i].name + " / " + gclq_intersect_method_name(table[k]) + (m ? " / written" : "") +
                             (tight ? " / small budget" : "");
          check_same(want, got, m != 0, false, what.c_str());
          gclq_intersect_result_free(&got);
          CHECK_OK_SO_FAR();
        }
      gclq_intersect_result_free(&want);
    }
    gclq_sets_free(&s);
  }
}

/* The bitmaps' count pass of a batch of large pairs with its windows
   streamed (gclq__sets_bits_stream_kernel, the gclq__sets_stream_windows
   hook at each shape: 1 or 2 quads a round, whole tiles or slots, windows
   of 1 or 2 tiles) and from the partition kernel's records (0): all equal
   HOST, counted and (two passes: the count pass keeps each tile's count,
   in whole tiles) written. In slots a block's run starts and ends inside
   tiles, and a pair's last tile has slots past its last value; in windows
   of 2 tiles a window may end at a pair's end or a run's after 1. The pairs span hundreds of windows
   each, more tiles than the device runs blocks, so a block's run of
   windows crosses from one pair into the next: uniform sets; a set whose elements lie in a few windows
   of every seven (windows without a's elements, after which b's start is
   searched again); b starting before a's first element (BITMAP's range is
   a's); sets up to 2^32 - 1 (the last window ends at 2^32); a pair with
   itself; and small pairs, which warps run. */
GPU_TEST(sets, cuda_bitmap_windows_streamed_equal_host) {
  test_rng rng = test_rng_for("sets.cuda_stream");
  const uint64_t u = 600 * GCLQ__SETS_BITMAP_BITS + rng.below(GCLQ__SETS_BITMAP_BITS);
  const size_t n = test_max_size() < ((size_t)1 << 19) ? test_max_size() : ((size_t)1 << 19);
  std::vector<set_u32> v;
  v.push_back(sets_random(rng, n, u));
  v.push_back(sets_random(rng, n + rng.below(n), u));
  set_u32 some; /* windows 0, 2 and 3 of every seven */
  for (uint32_t x : sets_random(rng, 2 * n, u))
    if ((x / GCLQ__SETS_BITMAP_BITS) % 7 == 0 || (x / GCLQ__SETS_BITMAP_BITS) % 7 / 2 == 1) some.push_back(x);
  v.push_back(some);
  set_u32 late; /* from 10.5 windows in */
  for (uint32_t x : sets_random(rng, n, u))
    if (x >= 10 * GCLQ__SETS_BITMAP_BITS + GCLQ__SETS_BITMAP_BITS / 2) late.push_back(x);
  v.push_back(late);
  for (int k = 0; k < 2; ++k) { /* the top of the u32 range, 2^32 - 1 in both */
    set_u32 high;
    for (uint32_t x : sets_random(rng, n, u)) high.push_back((uint32_t)(0xffffffffull - u + 1 + x));
    if (high.back() != 0xffffffffu) high.push_back(0xffffffffu);
    v.push_back(high);
  }
  v.push_back(sets_random(rng, 1 + rng.below(8), 64));
  v.push_back(sets_random(rng, 1 + rng.below(8), 64));
  const uint32_t pairs[] = {0, 1, 2, 1, 1, 2, 3, 0, 0, 3, 4, 5, 5, 4, 0, 0, 6, 7, 2, 0, 1, 3};
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  struct hook { /* back to the rule however the test ends */
    ~hook() {
      gclq__sets_stream_windows = -1;
      gclq__sets_two_passes = 0;
    }
  } restore;
  const gclq_intersect_method methods[] = {GCLQ_INTERSECT_BITMAP, GCLQ_INTERSECT_BITMAP_DYNAMIC};
  for (int m = 0; m < 2; ++m) {
    gclq_intersect_options h = host_options();
    gclq_intersect_result want;
    h.materialise = m;
    CHECK_EQ(gclq_intersect_pairs(&s, pairs, sizeof pairs / 8, &h, &want), GCLQ_SUCCESS);
    for (int k = 0; k < 2; ++k)
      for (int stream : {0, (int)GCLQ__STREAM_ON, GCLQ__STREAM_ON | GCLQ__STREAM_WIDE, GCLQ__STREAM_ON | GCLQ__STREAM_SLOTS,
                         GCLQ__STREAM_ON | GCLQ__STREAM_WIDE | GCLQ__STREAM_SLOTS,
                         GCLQ__STREAM_ON | GCLQ__STREAM_WIDE | GCLQ__STREAM_PAIRS,
                         GCLQ__STREAM_ON | GCLQ__STREAM_WIDE | GCLQ__STREAM_SLOTS | GCLQ__STREAM_PAIRS}) {
        gclq__sets_stream_windows = stream;
        gclq__sets_two_passes = 1;
        gclq_intersect_options o = cuda_options(methods[k]);
        gclq_intersect_result got;
        o.materialise = m;
        CHECK_EQ(gclq_intersect_pairs(&s, pairs, sizeof pairs / 8, &o, &got), GCLQ_SUCCESS);
        std::string what = std::string(gclq_intersect_method_name(methods[k])) +
                           (stream ? " / streamed, shape " + std::to_string(stream) : " / records") +
                           (m ? " / written" : "");
        check_same(want, got, m != 0, false, what.c_str());
        gclq_intersect_result_free(&got);
      }
    gclq_intersect_result_free(&want);
  }
  gclq_sets_free(&s);
}

/* gclq__d_group_lower_bound<L>: query k on group k % G of warp k / G (G
   groups of L lanes a warp); out[k] its answer, or 0xffffffff when the
   group's lanes disagree. */
template <uint32_t L>
static __global__ void test_group_lower_bound_kernel(const uint32_t *b, const uint32_t *lo, const uint32_t *hi,
                                                     const uint64_t *v, uint32_t n, uint32_t *out) {
  const uint32_t G = 32 / L, lane = threadIdx.x & 31;
  const uint64_t w = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32, k = G * w + lane / L;
  if (G * w >= n) return; /* the whole warp */
  const uint32_t r = k < n ? gclq__d_group_lower_bound<L>(b, lo[k], hi[k], v[k]) : gclq__d_group_lower_bound<L>(b, 0, 0, 0);
  const uint32_t first = __shfl_sync(0xffffffffu, r, lane - lane % L);
  const bool differ = __ballot_sync(0xffffffffu, r != first) >> (lane - lane % L) & ((1u << L) - 1);
  if (lane % L == 0 && k < n) out[k] = differ ? 0xffffffffu : r;
}

/* The table methods' cuts by the partition kernels, as gclq__sets_cuts
   picks them (lanes: a warp a tile, where the method has it): every tile
   of a batch of pairs of method m. */
static void test_table_cuts(gclq_intersect_method m, const gclq__sets_args &g, const gclq__sets_tiles &T,
                            uint64_t tiles, bool lanes, uint32_t *split) {
  if (lanes && (gclq__sets_is_bitmap(m) || m == GCLQ_INTERSECT_HASH))
    gclq__sets_table_split_kernel<<<gclq__grid(32 * tiles), GCLQ__BLOCK>>>(g, T, m, split, NULL);
  else
    gclq__sets_split_kernel<GCLQ__CUT_TABLE><<<gclq__grid(4 * tiles), GCLQ__BLOCK>>>(g, T, m, split);
}

/* The table methods' cuts on the device: a group's lower bound equals
   std::lower_bound on every range of sets of 0, 1, 15-17, 31-33, 255-257
   elements and of random and large sizes (values below, among, just above
   and past the elements, and 2^32); the partition kernels' four ends of
   every tile equal gclq__sets_slice_end's, by a thread an end and by a
   warp a tile, over batches of pairs of every density (the warp's lanes
   searching in groups or, below GCLQ__SETS_CUT_LANES_FROM, four of them
   alone), near the top of the values,
   with windows that hold no element of a, pairs given either way round,
   and pairs a warp runs (no tiles) among them. */
GPU_TEST(sets, cuda_table_cuts_equal_the_host_searches) {
  test_rng rng = test_rng_for("sets.cuda_table_cuts");
  std::vector<size_t> sizes = {0, 1, 15, 16, 17, 31, 32, 33, 255, 256, 257, 1000 + (size_t)rng.below(5000),
                               test_max_size() + (size_t)rng.below(1000)};
  for (size_t si = 0; si < sizes.size() && !g_test.failed; ++si) {
    const size_t nb = sizes[si];
    const uint64_t u = rng.below(2) ? 4 * (uint64_t)nb + 8 : ((uint64_t)1 << 32);
    set_u32 b = sets_random(rng, nb, u);
    const uint32_t nq = 4099;
    std::vector<uint32_t> lo(nq), hi(nq), want(nq);
    std::vector<uint64_t> v(nq);
    for (uint32_t k = 0; k < nq; ++k) {
      uint32_t x = (uint32_t)rng.below(nb + 1), y = (uint32_t)rng.below(nb + 1);
      if (k % 5 == 0) x = 0, y = (uint32_t)nb; /* the whole set */
      lo[k] = std::min(x, y), hi[k] = std::max(x, y);
      const uint32_t pick = (uint32_t)rng.below(5);
      v[k] = pick == 0 && nb ? (uint64_t)b[rng.below(nb)]                   /* an element */
             : pick == 1 && nb ? (uint64_t)b[rng.below(nb)] + 1             /* just above one */
             : pick == 2       ? ((uint64_t)1 << 32) - rng.below(2)         /* the top */
             : pick == 3       ? rng.below(2)                               /* the bottom */
                               : rng.below(u + 1);
      want[k] = (uint32_t)(std::lower_bound(b.begin() + lo[k], b.begin() + hi[k], v[k],
                                            [](uint32_t e, uint64_t x) { return (uint64_t)e < x; }) -
                           b.begin());
    }
    dbuf<uint32_t> d_b(nb ? nb : 1), d_lo(nq), d_hi(nq), d_out(nq);
    dbuf<uint64_t> d_v(nq);
    CUDA_CHECK(d_b.upload(b));
    CUDA_CHECK(d_lo.upload(lo));
    CUDA_CHECK(d_hi.upload(hi));
    CUDA_CHECK(d_v.upload(v));
    for (uint32_t lanes : {8u, (uint32_t)GCLQ__SETS_CUT_LANES}) { /* the bitmaps' quarter warps, HASH's halves */
      const uint32_t per_block = 256 / lanes; /* queries a block of 256 threads takes */
      CUDA_CHECK(cudaMemset(d_out.p, 0xab, (size_t)nq * sizeof(uint32_t)));
      if (lanes == 8)
        test_group_lower_bound_kernel<8><<<(nq + per_block - 1) / per_block, 256>>>(d_b.p, d_lo.p, d_hi.p, d_v.p, nq,
                                                                                 d_out.p);
      else
        test_group_lower_bound_kernel<GCLQ__SETS_CUT_LANES><<<(nq + per_block - 1) / per_block, 256>>>(
            d_b.p, d_lo.p, d_hi.p, d_v.p, nq, d_out.p);
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<uint32_t> got;
      CUDA_CHECK(d_out.download(got));
      std::string what = "the lower bound of " + std::to_string(lanes) + " lanes on " + std::to_string(nb) + " elements";
      CHECK_ARRAYS(want.data(), got.data(), nq, what.c_str());
    }
  }
  const gclq_intersect_method ms[5] = {GCLQ_INTERSECT_BITMAP, GCLQ_INTERSECT_BITMAP_DYNAMIC, GCLQ_INTERSECT_HASH,
                                       GCLQ_INTERSECT_IP_OBS, GCLQ_INTERSECT_IP_HASH};
  const size_t top = test_max_size() < ((size_t)1 << 19) ? test_max_size() : ((size_t)1 << 19);
  for (int round = 0; round < 12 && !g_test.failed; ++round) {
    std::vector<set_u32> v;
    const uint32_t k = 2 + (uint32_t)rng.below(9);
    for (uint32_t i = 0; i < k; ++i) {
      const size_t n = rng.below(4) == 0 ? rng.below(600) : 1 + rng.below(top);
      const uint64_t spread = rng.below(3) == 0 ? 2 : rng.below(2) ? 100 : 5000; /* dense, 10^-2, sparse */
      const uint64_t u = std::min<uint64_t>(spread * n + 8, (uint64_t)1 << 32);
      set_u32 x = sets_random(rng, n, u);
      if (rng.below(3) == 0) { /* near the top of the values */
        const uint32_t shift = (uint32_t)(((uint64_t)1 << 32) - u);
        for (uint32_t &e : x) e += shift;
      }
      v.push_back(x);
    }
    std::vector<uint64_t> off(1, 0);
    std::vector<uint32_t> elem, pairs;
    for (const set_u32 &x : v) elem.insert(elem.end(), x.begin(), x.end()), off.push_back(elem.size());
    const uint32_t np = 1 + (uint32_t)rng.below(20);
    for (uint32_t p = 0; p < 2 * np; ++p) pairs.push_back((uint32_t)rng.below(k));
    dbuf<uint64_t> d_off(off.size());
    dbuf<uint32_t> d_elem(elem.size() ? elem.size() : 1), d_pairs(pairs.size());
    CUDA_CHECK(d_off.upload(off));
    CUDA_CHECK(d_elem.upload(elem));
    CUDA_CHECK(d_pairs.upload(pairs));
    const gclq__sets_args host = {off.data(), elem.data(), pairs.data(), NULL, NULL, NULL};
    const gclq__sets_args dev = {d_off.p, d_elem.p, d_pairs.p, NULL, NULL, NULL};
    for (int mi = 0; mi < 10; ++mi) {
      const bool lanes = mi >= 5;
      std::vector<uint64_t> first(1, 0);
      for (uint32_t p = 0; p < np; ++p) {
        uint64_t path_tiles, search_tiles;
        gclq__sets_work_pair(ms[mi % 5], gclq__sets_pair_at(host, p), &path_tiles, &search_tiles);
        first.push_back(first.back() + path_tiles + search_tiles);
      }
      const uint64_t tiles = first.back();
      if (tiles == 0) continue;
      std::vector<uint32_t> want(4 * tiles), got;
      for (uint32_t p = 0; p < np; ++p)
        for (uint64_t t = first[p]; t < first[p + 1]; ++t)
          for (uint32_t j = 0; j < 4; ++j)
            want[4 * t + j] = gclq__sets_slice_end(ms[mi % 5], gclq__sets_pair_at(host, p), t - first[p], j);
      dbuf<uint64_t> d_first(first.size());
      dbuf<uint32_t> d_split(4 * tiles);
      CUDA_CHECK(d_first.upload(first));
      gclq__sets_tiles T;
      memset(&T, 0, sizeof T);
      T.first = d_first.p;
      T.nq = np;
      test_table_cuts(ms[mi % 5], dev, T, tiles, lanes, d_split.p);
      CUDA_CHECK(cudaDeviceSynchronize());
      CUDA_CHECK(d_split.download(got));
      std::string what = std::string(gclq_intersect_method_name(ms[mi % 5])) + (lanes ? " warps'" : " threads'") +
                         " ends of " + std::to_string(np) +
                         " pairs, " + std::to_string(tiles) + " tiles";
      CHECK_ARRAYS(want.data(), got.data(), 4 * tiles, what.c_str());
    }
    CHECK_OK_SO_FAR();
  }
}

/* A materialised batch whose pairs all run tiles of one kind counts and
   writes in one pass (gclq__sets_one_pass: tiles by ticket, placed by
   look-back); the same batch in two passes (the gclq__sets_two_passes
   hook), and HOST, give the same bytes: big pairs only (none small enough
   for a warp), one pair, identical sets and one inside the other (more
   matches than the one pass keeps), a pair with no match, a batch beside
   empty pairs,
   every method, tight budgets (the one pass's room may not fit: two
   passes then). */
GPU_TEST(sets, cuda_one_pass_equals_two_passes) {
  test_rng rng = test_rng_for("sets.cuda_one_pass");
  const size_t top = test_max_size() < ((size_t)1 << 20) ? test_max_size() : ((size_t)1 << 20);
  std::vector<sets_case> cases;
  sets_case c;
  c.name = "big pairs";
  for (int i = 0; i < 12; ++i) {
    const size_t na = 1025 + rng.below(i % 3 == 0 ? top : 5000), nb = 1025 + rng.below(top);
    const uint64_t u = (uint64_t)(na + nb) * (1 + rng.below(8));
    case_add(c, sets_random(rng, na, u), sets_random(rng, nb, u));
  }
  cases.push_back(c);
  c = sets_case();
  c.name = "one pair";
  case_add(c, sets_random(rng, top, 3 * (uint64_t)top), sets_random(rng, top - 1 + rng.below(3), 3 * (uint64_t)top));
  c.pairs.resize(2);
  cases.push_back(c);
  c = sets_case();
  c.name = "identical and inside"; /* every probe a match: more than a warp keeps (GCLQ__SETS_KEEP) */
  set_u32 big = sets_random(rng, top, 2 * (uint64_t)top + 1), part;
  for (size_t i = 0; i < big.size(); ++i)
    if (rng.below(3)) part.push_back(big[i]);
  case_add(c, big, big);
  case_add(c, part, big);
  case_add(c, big, part);
  cases.push_back(c);
  c = sets_case();
  c.name = "no match";
  set_u32 even, odd;
  for (uint32_t x = 0; x < 2 * 3841; ++x) (x % 2 ? odd : even).push_back(x);
  case_add(c, even, odd);
  cases.push_back(c);
  c = sets_case();
  c.name = "beside empty pairs";
  case_add(c, set_u32(), sets_random(rng, 5000, 20000));
  case_add(c, sets_random(rng, 3841, 10000), sets_random(rng, 3839, 10000));
  case_add(c, sets_random(rng, 7000, 20000), set_u32());
  cases.push_back(c);
  struct hook { /* off again however the test ends */
    ~hook() { gclq__sets_two_passes = 0; }
  } off;
  for (size_t i = 0; i < cases.size() && !g_test.failed; ++i) {
    gclq_sets s;
    CHECK_EQ(sets_build(cases[i].sets, &s), GCLQ_SUCCESS);
    const size_t set_bytes = sets_upload_bytes(s);
    gclq_intersect_options h = host_options();
    gclq_intersect_result want;
    h.materialise = 1;
    CHECK_EQ(case_run(cases[i], s, h, &want), GCLQ_SUCCESS);
    uint32_t most = 0;
    for (uint64_t p = 0; p < want.num_pairs; ++p) most = want.h_counts[p] > most ? want.h_counts[p] : most;
    for (size_t k = 0; k < num_cuda_methods; ++k)
      for (int two = 0; two < 2; ++two)
        for (int tight = 0; tight < 2; ++tight) {
          gclq__sets_two_passes = two;
          gclq_intersect_options o = cuda_options(cuda_methods[k]);
          gclq_intersect_result got;
          o.materialise = 1;
          if (tight) o.device_budget_bytes = set_bytes + ((size_t)1 << 17) + 8 * (size_t)most;
          CHECK_EQ(case_run(cases[i], s, o, &got), GCLQ_SUCCESS);
          std::string what = cases[i].name + " / " + gclq_intersect_method_name(cuda_methods[k]) +
                             (two ? " / two passes" : " / one pass") + (tight ? " / small budget" : "");
          check_same(want, got, true, false, what.c_str());
          if (two) CHECK_MSG(got.stats.one_pass_batches == 0, "%s", what.c_str());
          const bool tiles_of_one_kind = /* binary search's tiles, and AUTO's mixes, have no one pass */
              cuda_methods[k] != GCLQ_INTERSECT_BINARY_SEARCH && cuda_methods[k] != GCLQ_INTERSECT_AUTO;
          if (!two && !tight && tiles_of_one_kind)
            CHECK_MSG(got.stats.one_pass_batches == got.stats.batches, "%s: %u of %u batches in one pass",
                      what.c_str(), got.stats.one_pass_batches, got.stats.batches);
          gclq_intersect_result_free(&got);
          CHECK_OK_SO_FAR();
        }
    gclq_intersect_result_free(&want);
    gclq_sets_free(&s);
  }
}

/* The device call's tile tables (gclq__sets_tiles_kernel) equal the host's
   rule pair by pair (AUTO: the bitmap's test, else IP_OBS's tiles): its
   warps read each candidate's stretches together
   (gclq__d_warp_peak_density), so warps hold several candidates, pairs that pass, pairs whose stretches fail
   them (crowded), pairs below the density, pairs whose ranges do not
   overlap, small pairs, and a last warp past the n pairs. Entries poisoned
   first; entry n must be 0. */
GPU_TEST(sets, cuda_device_tiles_pick_as_the_host) {
  test_rng rng = test_rng_for("sets.cuda_device_tiles");
  const uint64_t u = (uint64_t)1 << 24;
  const size_t big = (size_t)1 << 21;
  std::vector<set_u32> v;
  v.push_back(sets_random(rng, big, u)); /* 0, 1: pass */
  v.push_back(sets_random(rng, big - rng.below(1000), u));
  for (int k = 0; k < 2; ++k) { /* 2, 3: nine tenths in the first 64th */
    set_u32 c = sets_random(rng, big * 9 / 10, u / 64), rest = sets_random(rng, big / 10, u - u / 64);
    for (uint32_t x : rest) c.push_back((uint32_t)(x + u / 64));
    v.push_back(c);
  }
  v.push_back(sets_random(rng, big / 2, 4 * u)); /* 4: with itself, density 1/64 */
  set_u32 high; /* 5: above 0's range */
  for (uint32_t x : sets_random(rng, big, u)) high.push_back((uint32_t)(x + u));
  v.push_back(high);
  v.push_back(sets_random(rng, 1 + rng.below(300), 5000)); /* 6, 7: small */
  v.push_back(sets_random(rng, 1 + rng.below(300), 5000));
  const uint32_t kinds[6][2] = {{0, 1}, {2, 3}, {4, 4}, {0, 5}, {6, 7}, {1, 0}};
  const uint32_t n = 70 + (uint32_t)rng.below(60);
  std::vector<uint32_t> pairs;
  for (uint32_t p = 0; p < n; ++p) { /* every kind among the first six (passing and not), then drawn */
    const uint32_t *k = kinds[p < 6 ? p : rng.below(6)];
    pairs.push_back(k[0]), pairs.push_back(k[1]);
  }
  gclq_sets s;
  gclq_sets_device d;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_upload(&s, NULL, &d, NULL), GCLQ_SUCCESS);
  std::vector<uint64_t> want(4 * ((size_t)n + 1), 0);
  const gclq__sets_args h = {s.h_offsets, s.h_elements, pairs.data(), NULL, NULL, NULL};
  uint32_t passed = 0;
  for (uint32_t p = 0; p < n; ++p) {
    const gclq__sets_pair pr = gclq__sets_pair_at(h, p);
    uint64_t *e = &want[4 * (size_t)p], none;
    if (sets_bitmap_pays(pr)) {
      gclq__sets_work_pair(GCLQ_INTERSECT_BITMAP_DYNAMIC, pr, &none, &e[2]);
      passed++;
    } else {
      gclq__sets_work_pair(GCLQ_INTERSECT_IP_OBS, pr, &e[0], &e[1]);
    }
  }
  CHECK(passed > 0 && passed < n);
  dbuf<uint32_t> d_pairs(pairs.size());
  dbuf<gclq__sets_dev_tiles> d_tiles((size_t)n + 1);
  CUDA_CHECK(d_pairs.upload(pairs));
  const gclq__sets_args g = {d.d_offsets, d.d_elements, d_pairs.p, NULL, NULL, NULL};
  gclq__sets_tiles_kernel<<<gclq__grid((uint64_t)n + 1), GCLQ__BLOCK>>>(g, n, GCLQ_INTERSECT_AUTO, d_tiles.p);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<uint64_t> got(want.size());
  CUDA_CHECK(cudaMemcpy(got.data(), d_tiles.p, got.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  CHECK_ARRAYS(want.data(), got.data(), want.size(), "the device call's tile entries");
  gclq_sets_device_free(&d, NULL, NULL);
  gclq_sets_free(&s);
}

GPU_TEST(sets, cuda_pairs_device_equal_host) {
  test_rng rng = test_rng_for("sets.cuda_device");
  std::vector<set_u32> v;
  for (int i = 0; i < 2000; ++i) v.push_back(sets_random(rng, rng.below(i % 100 == 0 ? 50000 : 700), 100000));
  v.push_back(set_u32());
  v.push_back(sets_random(rng, (size_t)1 << 19, (uint64_t)1 << 21)); /* a giant */
  v.push_back(sets_random(rng, (size_t)1 << 19, (uint64_t)1 << 21));
  v.push_back(sets_random(rng, (size_t)1 << 21, (uint64_t)1 << 24)); /* a pair AUTO gives the bitmap */
  v.push_back(sets_random(rng, (size_t)1 << 21, (uint64_t)1 << 24));
  const uint32_t k = (uint32_t)v.size();
  std::vector<uint32_t> pairs;
  for (int p = 0; p < 200000; ++p) pairs.push_back((uint32_t)rng.below(k - 2)), pairs.push_back((uint32_t)rng.below(k - 2));
  const uint32_t giant[6] = {k - 3, k - 4, k - 5, 5, k - 1, k - 2}; /* the giant pair; the empty set with another;
                                                                      the bitmap's pair */
  pairs.insert(pairs.begin() + 2 * rng.below(200000), giant, giant + 6);
  const size_t n = pairs.size() / 2;
  gclq_sets s;
  gclq_sets_device d;
  gclq_intersect_result want;
  gclq_intersect_options h = host_options();
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  {
    const uint32_t bits_pair[2] = {k - 1, k - 2};
    const gclq__sets_args host = {s.h_offsets, s.h_elements, bits_pair, NULL, NULL, NULL};
    CHECK(sets_bitmap_pays(gclq__sets_pair_at(host, 0))); /* AUTO's bitmap kernel runs */
  }
  CHECK_EQ(gclq_intersect_pairs(&s, pairs.data(), n, &h, &want), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_upload(&s, NULL, &d, NULL), GCLQ_SUCCESS);
  dbuf<uint32_t> d_pairs(pairs.size()), d_counts(n);
  CUDA_CHECK(d_pairs.upload(pairs));
  struct hook {
    ~hook() { gclq__sets_ip_obs_warps = 0; }
  } restore;
  for (size_t m = 0; m <= num_cuda_methods; ++m) { /* the last: AUTO with IP_OBS's warp tables */
    gclq__sets_ip_obs_warps = m == num_cuda_methods;
    const gclq_intersect_method method = m < num_cuda_methods ? cuda_methods[m] : GCLQ_INTERSECT_AUTO;
    size_t bytes = 0;
    CHECK_EQ(gclq_intersect_pairs_device(&d, d_pairs.p, n, d_counts.p, method, NULL, &bytes, NULL),
             GCLQ_SUCCESS);
    dbuf<uint8_t> temp(bytes);
    CUDA_CHECK(test_poison(d_counts.p, n * 4));
    CHECK_EQ(gclq_intersect_pairs_device(&d, d_pairs.p, n, d_counts.p, method, temp.p, &bytes, NULL),
             GCLQ_SUCCESS);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<uint32_t> got;
    CUDA_CHECK(d_counts.download(got));
    CHECK_ARRAYS(want.h_counts, got.data(), n,
                 m < num_cuda_methods ? gclq_intersect_method_name(method) : "auto, IP_OBS's warps");
    bytes -= 1;
    CHECK_EQ(gclq_intersect_pairs_device(&d, d_pairs.p, n, d_counts.p, method, temp.p, &bytes, NULL),
             GCLQ_ERROR_INVALID_ARGUMENT); /* temp storage too small */
  }
  gclq_sets_device_free(&d, NULL, NULL);
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}

GPU_TEST(sets, cuda_all_pairs_across_batches) {
  test_rng rng = test_rng_for("sets.cuda_batches");
  std::vector<set_u32> v = sets_tiny(rng, 3000);
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  check_all_pairs_dense(v, s, cuda_options(GCLQ_INTERSECT_AUTO));
  gclq_sets_free(&s);
}

GPU_TEST(sets, cuda_upload_and_device_free) {
  std::vector<set_u32> v(2);
  v[0] = set_u32({1, 2});
  v[1] = set_u32({2});
  gclq_sets s;
  gclq_sets_device d;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_upload(&s, NULL, &d, NULL), GCLQ_SUCCESS);
  CHECK_EQ(d.num_sets, 2);
  CHECK_EQ(d.total, 3);
  std::vector<uint32_t> back(3);
  CUDA_CHECK(cudaStreamSynchronize(0));
  CUDA_CHECK(cudaMemcpy(back.data(), d.d_elements, 12, cudaMemcpyDeviceToHost));
  CHECK(back == set_u32({1, 2, 2}));
  gclq_sets_device_free(&d, NULL, NULL);
  CHECK(d.d_elements == NULL);
  gclq_sets_free(&s);
}
#endif

/* ---- all pairs at once: INVERTED_INDEX and BIT_MATRIX ----
   The index math (row-order pair index, its inverse, row tiles, the owner
   of an element, the compacted column of a value) on the host; the methods
   against HOST on the GPU: every k around the kernels' tiles, every shape
   of collection, every generator, sparse and containment outputs, and
   budgets small enough to cut the counts into row tiles and the bit matrix
   into column chunks. */
#if defined(__CUDACC__)

/* R(i) = i (2k - i - 1) / 2, in 128 bits. */
static unsigned __int128 ap_row_start_ref(uint64_t k, uint64_t i) {
  return (unsigned __int128)i * (2 * (unsigned __int128)k - i - 1) / 2;
}

TEST(sets, all_pairs_index_math_and_its_inverse) {
  test_rng rng = test_rng_for("sets.ap_index");
  const uint64_t small[] = {2, 3, 4, 31, 32, 33, 63, 64, 65, 200};
  for (size_t s = 0; s < sizeof small / sizeof small[0]; ++s) { /* every pair, in row order */
    const uint64_t k = small[s];
    uint64_t p = 0;
    for (uint64_t i = 0; i < k; ++i) {
      CHECK_EQ(gclq__sets_row_start(k, i), p);
      for (uint64_t j = i + 1; j < k; ++j, ++p) {
        CHECK_EQ(gclq__sets_pair_index(k, i, j), p);
        uint64_t x = ~0ull, y = ~0ull;
        gclq__sets_pair_of(k, p, &x, &y);
        CHECK_MSG(x == i && y == j, "k %llu p %llu: (%llu, %llu), want (%llu, %llu)", (unsigned long long)k,
                  (unsigned long long)p, (unsigned long long)x, (unsigned long long)y, (unsigned long long)i,
                  (unsigned long long)j);
      }
    }
    CHECK_EQ(gclq__sets_row_start(k, k - 1), p);
    CHECK_EQ(gclq__sets_row_start(k, k), p);
    CHECK_OK_SO_FAR();
  }
  /* large k, up to 2^32: no overflow, and the inverse lands in its row */
  const uint64_t large[] = {100000, (1ull << 31) + 1, 4294967295ull, 4294967296ull};
  for (size_t s = 0; s < sizeof large / sizeof large[0]; ++s) {
    const uint64_t k = large[s], last = (uint64_t)ap_row_start_ref(k, k - 1);
    for (int round = 0; round < 2000; ++round) {
      const uint64_t i = round < 3 ? (uint64_t)round : (round < 6 ? k - 1 - (uint64_t)(round - 3) : rng.below(k));
      CHECK(gclq__sets_row_start(k, i) == (uint64_t)ap_row_start_ref(k, i));
      uint64_t p = round % 2 ? rng.below(last) : (round % 4 == 0 ? last - 1 - rng.below(3) : rng.below(3)), x, y;
      gclq__sets_pair_of(k, p, &x, &y);
      CHECK(x < y && y < k);
      CHECK_EQ(gclq__sets_pair_index(k, x, y), p);
    }
    CHECK_EQ(gclq__sets_row_start(k, k - 1), last);
    CHECK_OK_SO_FAR();
  }
}

/* Row tiles: every row once, each tile within max_pairs (or one row), and
   as long as it can be (max_pairs, max_rows or the last row stop it). */
TEST(sets, all_pairs_row_tiles_cover_every_row_once) {
  test_rng rng = test_rng_for("sets.ap_tiles");
  const uint64_t ks[] = {2, 3, 33, 64, 65, 1000, 4294967295ull};
  for (size_t s = 0; s < sizeof ks / sizeof ks[0]; ++s) {
    const uint64_t k = ks[s];
    for (int round = 0; round < 12; ++round) {
      const uint64_t max_pairs = round == 0 ? k - 1 : (round == 1 ? k : (round == 2 ? k - 2 : 1 + rng.below(40 * k)));
      const uint64_t max_rows = round % 3 == 2 ? 1 + rng.below(100) : k;
      uint64_t r0 = 0, tiles = 0;
      while (r0 + 1 < k && tiles < 2000) {
        const uint64_t r1 = gclq__sets_row_tile_end(k, r0, max_pairs, max_rows);
        const uint64_t n = gclq__sets_row_start(k, r1) - gclq__sets_row_start(k, r0);
        CHECK(r1 > r0 && r1 <= k - 1);
        CHECK(r1 - r0 <= max_rows || r1 == r0 + 1);
        CHECK(n <= max_pairs || r1 == r0 + 1);
        if (r1 < k - 1 && r1 - r0 < max_rows) /* one more row would not fit */
          CHECK(gclq__sets_row_start(k, r1 + 1) - gclq__sets_row_start(k, r0) > max_pairs);
        r0 = r1;
        ++tiles;
      }
      CHECK(r0 + 1 >= k || k > 100000); /* the huge k: only the first tiles */
      CHECK_OK_SO_FAR();
    }
  }
}

/* A tile's slots: (i, j) of its rows map onto [0, n) one to one, in row order. */
TEST(sets, all_pairs_tile_slots_are_row_order) {
  const uint64_t k = 70;
  for (uint64_t r0 = 0; r0 + 1 < k; r0 += 9) {
    gclq__sets_tri t;
    t.k = k;
    t.r0 = r0;
    t.r1 = gclq__sets_row_tile_end(k, r0, 300, k);
    t.base = gclq__sets_row_start(k, r0);
    t.counts = NULL;
    uint64_t next = 0;
    for (uint64_t i = 0; i < k + 2; ++i)
      for (uint64_t j = 0; j < k + 2; ++j) {
        const uint64_t at = gclq__sets_tri_at(t, i, j);
        const bool mine = i >= r0 && i < t.r1 && i < j && j < k;
        CHECK(mine ? at == next++ : at == UINT64_MAX);
      }
    CHECK_EQ(next, gclq__sets_row_start(k, t.r1) - t.base);
  }
}

TEST(sets, all_pairs_owner_and_compacted_columns) {
  test_rng rng = test_rng_for("sets.ap_owner");
  for (int round = 0; round < 30; ++round) { /* sets of 0 to 4 elements: many empty ones */
    const uint32_t k = 1 + (uint32_t)rng.below(60);
    std::vector<uint64_t> off(1, 0);
    for (uint32_t i = 0; i < k; ++i) off.push_back(off.back() + rng.below(5));
    for (uint32_t i = 0; i < k; ++i)
      for (uint64_t e = off[i]; e < off[i + 1]; ++e) CHECK_EQ(gclq__sets_owner(off.data(), k, e), i);
  }
  const uint32_t words = 40; /* columns: the rank among the marked values */
  std::vector<uint32_t> seen2(words);
  std::vector<uint64_t> colbase(words + 1, 0);
  for (uint32_t w = 0; w < words; ++w) {
    seen2[w] = w % 7 == 0 ? 0u : (w % 5 == 0 ? ~0u : (uint32_t)rng.next());
    colbase[w + 1] = colbase[w] + (uint64_t)__builtin_popcount(seen2[w]);
  }
  uint64_t rank = 0;
  for (uint32_t v = 0; v < 32 * words; ++v) {
    const bool marked = (seen2[v / 32] >> (v % 32)) & 1;
    CHECK_EQ(gclq__sets_column(seen2.data(), colbase.data(), v), marked ? rank : UINT64_MAX);
    rank += marked;
  }
}

/* One more in a host array: the kernels' add, on the host. */
struct ap_host_add {
  uint32_t *counts;
  __host__ __device__ void operator()(uint64_t at) const { ++counts[at]; }
};

/* sf-gssjoin on the host, piece by piece as the kernels cut it: the index
   (the sets of each value, ascending), then per row tile the short lists a
   "thread" each (gclq__sets_ii_short_list) and the long ones by their span,
   tiles of GCLQ__SETS_II_TILE and GCLQ__SETS_II_VT pairs a "thread"
   (gclq__sets_ii_long_span, gclq__sets_ii_long_piece); every tile's counts
   equal the reference. */
TEST(sets, all_pairs_index_pieces_on_the_host_match_the_reference) {
  test_rng rng = test_rng_for("sets.ap_pieces");
  const size_t ks[] = {2, 3, 17, 33, 65, 150};
  for (size_t round = 0; round < sizeof ks / sizeof ks[0]; ++round) {
    const size_t k = ks[round];
    const uint64_t u = 20 + rng.below(300);
    std::vector<set_u32> v = sets_family(rng, k, u);
    for (size_t i = 0; i < k; i += 3) v[i] = v[0]; /* repeats: lists longer than GCLQ__SETS_II_SHORT */
    std::vector<std::vector<uint32_t> > lists(u);
    for (size_t i = 0; i < k; ++i)
      for (size_t e = 0; e < v[i].size(); ++e) lists[v[i][e]].push_back((uint32_t)i);
    std::vector<uint32_t> want;
    for (size_t i = 0; i < k; ++i)
      for (size_t j = i + 1; j < k; ++j) want.push_back((uint32_t)sets_ref(v[i], v[j]).size());
    const uint64_t caps[] = {k - 1, 3 * k + rng.below(k), want.size()};
    for (int c = 0; c < 3; ++c) {
      for (uint64_t r0 = 0; r0 + 1 < k;) {
        gclq__sets_tri t;
        t.k = k;
        t.r0 = r0;
        t.r1 = gclq__sets_row_tile_end(k, r0, caps[c], k);
        t.base = gclq__sets_row_start(k, r0);
        const uint64_t n = gclq__sets_row_start(k, t.r1) - t.base;
        std::vector<uint32_t> counts(n, 0);
        t.counts = counts.data();
        const ap_host_add add = {counts.data()};
        for (uint64_t x = 0; x < u; ++x) {
          const uint32_t *list = lists[x].data(), len = (uint32_t)lists[x].size();
          if (len < 2) continue;
          if (len <= GCLQ__SETS_II_SHORT) {
            gclq__sets_ii_short_list(list, len, t, add);
            continue;
          }
          uint64_t lo, hi;
          gclq__sets_ii_long_span(list, len, t, &lo, &hi);
          const uint64_t tiles = (hi - lo + GCLQ__SETS_II_TILE - 1) / GCLQ__SETS_II_TILE;
          for (uint64_t tile = 0; tile < tiles; ++tile)
            for (uint64_t th = 0; th < GCLQ__SETS_NT; ++th) {
              const uint64_t g0 = lo + tile * GCLQ__SETS_II_TILE + th * GCLQ__SETS_II_VT;
              const uint64_t g1 = g0 + GCLQ__SETS_II_VT < hi ? g0 + GCLQ__SETS_II_VT : hi;
              if (g0 < g1) gclq__sets_ii_long_piece(list, len, g0, g1, t, add);
            }
        }
        CHECK_MSG(memcmp(counts.data(), want.data() + t.base, n * 4) == 0, "k %zu, rows %llu to %llu differ", k,
                  (unsigned long long)r0, (unsigned long long)t.r1);
        r0 = t.r1;
      }
    }
  }
}

TEST(sets, all_pairs_auto_rule) {
  const double mc = GCLQ_SETS_AUTO_MATRIX_COST, ic = GCLQ_SETS_AUTO_INDEX_COST;
  /* costs 0: never */
  CHECK_EQ(gclq__sets_all_rule(10000, 350000, 1600, 0.0, 0.0), GCLQ_INTERSECT_AUTO);
  /* the BMS stand-in: 2.5e9 words + 4800 x 3.5e5 for the build (x mc: 3.2e7) against the index's
     3.5e5 + 0.31 x 3.8e7 increments (x ic: 1.0e8) and 3.5e9 merge steps */
  CHECK_EQ(gclq__sets_all_rule(10000, 350000, 1600, mc, ic), GCLQ_INTERSECT_BIT_MATRIX);
  CHECK_EQ(gclq__sets_all_rule(10000, 350000, 1600, 0.05, ic), GCLQ_INTERSECT_INVERTED_INDEX);
  CHECK_EQ(gclq__sets_all_rule(10000, 350000, 1600, 1.0, ic), GCLQ_INTERSECT_INVERTED_INDEX); /* the matrix over the merge */
  CHECK_EQ(gclq__sets_all_rule(10000, 350000, 1600, mc, 0.0), GCLQ_INTERSECT_BIT_MATRIX);
  /* k = 1000 of 1e5 over 1e8: 1.2e8 index steps (x ic) against 1e11 merge steps; the matrix is 1.6e12
     words, x 5.8 for its 528 tiles of counts (fewer than GCLQ_SETS_AUTO_MATRIX_TILES) */
  CHECK_EQ(gclq__sets_all_rule(1000, 100000000, 100000000, mc, ic), GCLQ_INTERSECT_INVERTED_INDEX);
  /* without the index, the matrix (7.3e10 by its cost) still beats the merge (1e11) */
  CHECK_EQ(gclq__sets_all_rule(1000, 100000000, 100000000, mc, 1000.0), GCLQ_INTERSECT_BIT_MATRIX);
  CHECK_EQ(gclq__sets_all_rule(1000, 100000000, 100000000, mc, 0.0), GCLQ_INTERSECT_BIT_MATRIX);
  CHECK_EQ(gclq__sets_all_rule(1000, 100000000, 100000000, 2 * mc, 0.0), GCLQ_INTERSECT_AUTO);
  /* k = 1e4 of 1000 over 8.7e6 */
  CHECK_EQ(gclq__sets_all_rule(10000, 10000000, 8700000, mc, ic), GCLQ_INTERSECT_INVERTED_INDEX);
  CHECK_EQ(gclq__sets_all_rule(0, 0, 0, 1.0, 1.0), GCLQ_INTERSECT_AUTO);
  gclq_sets s;
  memset(&s, 0, sizeof s);
  int unsure = -1;
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_BIT_MATRIX, NULL, &unsure), GCLQ_INTERSECT_BIT_MATRIX);
  CHECK_EQ(unsure, 0);
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_MERGE_PATH, NULL, NULL), GCLQ_INTERSECT_MERGE_PATH);
}

/* AUTO's estimate for all pairs (gclq__sets_all_estimate): the increments
   of a skewed collection (every set holds the same heavy values), where
   the rule for values spread evenly misses them and picks the index, while
   the estimate picks the bit matrix; a uniform collection keeps the index;
   the same collection gives the same estimate; nothing to count, no pick. */
TEST(sets, all_pairs_auto_estimates_skew) {
  test_rng rng = test_rng_for("sets.all_auto_estimate");
  const uint32_t k = 1000 + (uint32_t)rng.below(200), heavy = 64, light = 64;
  const uint64_t u = (uint64_t)1 << 30;
  std::vector<set_u32> v(k);
  for (uint32_t i = 0; i < k; ++i) {
    v[i] = sets_random(rng, light, u - heavy);
    for (auto &x : v[i]) x += heavy; /* light values above the heavy ones */
    for (uint32_t h = 0; h < heavy; ++h) v[i].push_back(h);
    std::sort(v[i].begin(), v[i].end());
  }
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  s.universe = u;
  std::map<uint32_t, uint64_t> c; /* the exact increments */
  for (uint64_t e = 0; e < s.total; ++e) ++c[s.h_elements[e]];
  double exact = 0.0;
  for (const auto &vc : c) exact += (double)vc.second * (double)(vc.second - 1) / 2.0;
  double values, increments, values2, increments2;
  gclq__sets_all_estimate(&s, &values, &increments);
  gclq__sets_all_estimate(&s, &values2, &increments2);
  CHECK(values == values2 && increments == increments2);
  CHECK_MSG(increments > 0.6 * exact && increments < 1.4 * exact, "increments %.4g, exact %.4g", increments, exact);
  CHECK_MSG(values >= (double)c.size() / 4 && values <= (double)s.total, "values %.4g of %zu", values, c.size());
  CHECK_EQ(gclq__sets_all_rule(s.num_sets, s.total, s.universe, GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST),
           GCLQ_INTERSECT_INVERTED_INDEX);
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_AUTO, NULL, NULL), GCLQ_INTERSECT_BIT_MATRIX);
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_INVERTED_INDEX, NULL, NULL), GCLQ_INTERSECT_INVERTED_INDEX);
  gclq_sets_free(&s);
  /* uniform: 300 sets of 3000 over 10^6 (the index, by far) */
  std::vector<set_u32> w(300);
  for (auto &x : w) x = sets_random(rng, 3000, 1000000);
  CHECK_EQ(sets_build(w, &s), GCLQ_SUCCESS);
  s.universe = 1000000;
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_AUTO, NULL, NULL), GCLQ_INTERSECT_INVERTED_INDEX);
  gclq_sets_free(&s);
  /* one set, or none: no pair, nothing to choose */
  w.resize(1);
  CHECK_EQ(sets_build(w, &s), GCLQ_SUCCESS);
  gclq__sets_all_estimate(&s, &values, &increments);
  CHECK(values == 0.0 && increments == 0.0);
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_AUTO, NULL, NULL), GCLQ_INTERSECT_AUTO);
  gclq_sets_free(&s);
}

/* A collection AUTO's all-pairs rule is unsure of by construction
   (gclq__sets_all_method: the estimate's values and values / 8 pick
   differently), fresh values each run: 400 sets, each the same 32 common
   values (below 2^16) followed by 50 values of its own (2^16 up, in no
   other set). gclq__sets_all_estimate then counts every sampled element
   exactly, whatever the values: a common one is held by all 32 other sets
   it tries (c = 400), an own one by none (c = 1), and which positions it
   samples depends only on the offsets, which are fixed. So its values
   (1.9e4: most of them the 2e4 own values, in one set each) and its
   increments (2.8e6) are the same every run: the index is picked over
   the matrix of ~1.9e4 columns, the matrix over one of 1/8 of them. The
   sampled fraction f of own values is 0.578 (values = total (f + (1 - f) /
   400)); by the costs the rule stays unsure for f in [0.42, 0.81]. The
   exact columns (values in two or more sets) are the 32 common values,
   where the matrix wins by far: the device's count changes the pick.
   (Checked on the host for 1000 seeds: unsure, the index, the matrix.) */
static std::vector<set_u32> sets_unsure_collection(test_rng &rng) {
  const uint32_t k = 400, common = 32, own = 50;
  const set_u32 shared = sets_random(rng, common, (uint64_t)1 << 16);
  set_u32 mine = sets_random(rng, (size_t)k * own, (uint64_t)1 << 18);
  for (size_t i = mine.size(); i > 1; --i) std::swap(mine[i - 1], mine[rng.below(i)]);
  std::vector<set_u32> v(k);
  for (uint32_t i = 0; i < k; ++i) {
    v[i] = shared;
    set_u32 o(mine.begin() + (size_t)i * own, mine.begin() + (size_t)(i + 1) * own);
    std::sort(o.begin(), o.end());
    for (uint32_t x : o) v[i].push_back(x + (1u << 16));
  }
  return v;
}

/* The values in two or more sets (the bit matrix's columns, counted). */
static double sets_columns(const gclq_sets &s) {
  std::vector<uint8_t> seen(s.universe, 0);
  double columns = 0.0;
  for (uint64_t e = 0; e < s.total; ++e) seen[s.h_elements[e]] += seen[s.h_elements[e]] < 2;
  for (uint8_t c : seen) columns += c >= 2;
  return columns;
}

/* sets_unsure_collection is unsure every run, the estimate picks the
   index, and the exact columns pick the bit matrix (what
   cuda_all_pairs_auto_counts_the_columns_when_unsure relies on). */
TEST(sets, all_pairs_auto_unsure_by_construction) {
  test_rng rng = test_rng_for("sets.all_auto_unsure");
  gclq_sets s;
  CHECK_EQ(sets_build(sets_unsure_collection(rng), &s), GCLQ_SUCCESS);
  const double columns = sets_columns(s);
  CHECK_EQ(columns, 32);
  double increments = -1.0, values;
  int unsure = -1;
  const gclq_intersect_method guess = gclq__sets_all_method(&s, GCLQ_INTERSECT_AUTO, &increments, &unsure);
  gclq__sets_all_estimate(&s, &values, &increments);
  const double f = ((double)values / (double)s.total - 1.0 / 400) / (1.0 - 1.0 / 400); /* sampled own fraction */
  CHECK_MSG(unsure == 1 && guess == GCLQ_INTERSECT_INVERTED_INDEX, "unsure %d, %s (f %.3f: values %.4g, increments %.4g)",
            unsure, gclq_intersect_method_name(guess), f, values, increments);
  CHECK_EQ(gclq__sets_all_pick(s.num_sets, s.total, columns, increments, GCLQ_SETS_AUTO_MATRIX_COST,
                               GCLQ_SETS_AUTO_INDEX_COST, NULL),
           GCLQ_INTERSECT_BIT_MATRIX);
  gclq_sets_free(&s);
}

/* AUTO's batch rule for given pairs (GCLQ_SETS_AUTO_BITMAP_DENSITY,
   _WINDOWS, _IP_OBS_BELOW): fresh sets each run, each side of every
   threshold. */
TEST(sets, pairs_auto_rule) {
  test_rng rng = test_rng_for("sets.pairs_auto_rule");
  const double d = GCLQ_SETS_AUTO_BITMAP_DENSITY, w = GCLQ_SETS_AUTO_BITMAP_WINDOWS;
  const uint64_t below = GCLQ_SETS_AUTO_IP_OBS_BELOW;
  const uint64_t window = GCLQ__SETS_AUTO_STRETCH;
  /* one pair of n + n values over [0, u): the bitmap where it is dense
     (2n >= d u) and spread over enough windows (u / 2^18 >= w, less the
     densest stretch's excess: 2 w, room for the densest of 1024 stretches
     of a random set to hold twice the average); not where it is sparse,
     over too few windows, or crowded into one */
  const size_t n = (size_t)(d * 1.28 * w * (double)window) + rng.below(1000); /* 2n = 2.56 d w windows */
  const uint64_t spread_u = (uint64_t)(2 * w) * window;                       /* density 2n / u = 1.28 d */
  struct {
    const char *what;
    uint64_t u;
    bool crowd, bitmap;
  } shapes[] = {{"dense, spread", spread_u, false, true},
                {"sparse", (uint64_t)(2.0 * (double)n / d) * 2, false, false},
                {"too few windows", (uint64_t)(0.5 * w) * window, false, false},
                {"crowded", spread_u, true, false}};
  static_assert(GCLQ_SETS_AUTO_BITMAP_FULL > 0.0, "the density above which fewer windows are enough");
  std::vector<set_u32> v(2);
  const uint32_t pair[2] = {0, 1};
  gclq_sets s;
  /* the rule on one pair of m + m random values spanning [0, u) into *got
     (crowd: half of each set's elements in the first window) */
  auto rule_on = [&](size_t m, uint64_t u, bool crowd, gclq_intersect_method *got) {
    for (int k = 0; k < 2; ++k) {
      v[k] = sets_random(rng, m, u);
      if (crowd)
        for (size_t i = 0; i < m / 2; ++i) v[k][i] = (uint32_t)(i * (window / (m / 2 + 1)));
      v[k][0] = 0;
      v[k][m - 1] = (uint32_t)(u - 1);
      std::sort(v[k].begin(), v[k].end());
      v[k].erase(std::unique(v[k].begin(), v[k].end()), v[k].end());
    }
    CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
    *got = gclq__sets_pairs_rule(&s, pair, 1, d, w, below);
    gclq_sets_free(&s);
  };
  for (const auto &sh : shapes) {
    gclq_intersect_method got = GCLQ_INTERSECT_SERIAL_MERGE;
    rule_on(n, sh.u, sh.crowd, &got);
    CHECK_MSG(got == (sh.bitmap ? GCLQ_INTERSECT_BITMAP_DYNAMIC : GCLQ_INTERSECT_IP_OBS), "%s: n %zu, u %llu", sh.what,
              n, (unsigned long long)sh.u);
  }
  /* above GCLQ_SETS_AUTO_BITMAP_FULL fewer windows are enough: at 4x that
     density, a quarter of w (here 0.3 w: the bitmap; 0.2 w: not) */
  for (int more = 0; more < 2; ++more) {
    const double full = GCLQ_SETS_AUTO_BITMAP_FULL, stretches = more ? 0.3 * w : 0.2 * w;
    const uint64_t u = (uint64_t)(stretches * (double)window);
    const size_t m = (size_t)(4.0 * full * (double)u / 2.0); /* 2m / u = 4 full */
    gclq_intersect_method got = GCLQ_INTERSECT_SERIAL_MERGE;
    rule_on(m, u, false, &got);
    CHECK_MSG(got == (more ? GCLQ_INTERSECT_BITMAP_DYNAMIC : GCLQ_INTERSECT_IP_OBS), "density 4 x %g over %g w stretches",
              full, stretches / w);
  }
  /* a dominant pair the bitmap does not take: IP_OBS while its sets are
     within GCLQ_SETS_AUTO_RATIO of each other, else the per-pair rule
     (binary search) */
  for (int skew = 0; skew < 2; ++skew) {
    const size_t small = 1000 + rng.below(1000), large = small * (GCLQ_SETS_AUTO_RATIO - 1 + 2 * skew);
    v[0] = sets_random(rng, small, (uint64_t)1 << 32);
    v[1] = sets_random(rng, large, (uint64_t)1 << 32);
    CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
    CHECK_MSG(gclq__sets_pairs_rule(&s, pair, 1, d, w, below) == (skew ? GCLQ_INTERSECT_AUTO : GCLQ_INTERSECT_IP_OBS),
              "sparse pair of %zu and %zu", small, large);
    gclq_sets_free(&s);
  }
  /* one pair whose ranges do not overlap: the bitmap does nothing */
  v[0] = sets_random(rng, n, 1000000);
  v[1] = sets_random(rng, n, 1000000);
  for (size_t i = 0; i < v[1].size(); ++i) v[1][i] += 1000000;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq__sets_pairs_rule(&s, pair, 1, d, w, below), GCLQ_INTERSECT_BITMAP_DYNAMIC);
  gclq_sets_free(&s);
  /* the dominant pair holds an empty set, or every set is empty: per pair */
  v[0].clear();
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq__sets_pairs_rule(&s, pair, 1, d, w, below), GCLQ_INTERSECT_AUTO);
  gclq_sets_free(&s);
  v[1].clear();
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  CHECK_EQ(gclq__sets_pairs_rule(&s, pair, 1, d, w, below), GCLQ_INTERSECT_AUTO);
  CHECK_EQ(gclq__sets_pairs_rule(&s, NULL, 0, d, w, below), GCLQ_INTERSECT_AUTO);
  gclq_sets_free(&s);
  /* every edge of an R-MAT graph: many small pairs, none dominant: IP_OBS */
  gclq_graph g;
  CHECK_EQ(gclq_graph_rmat(10 + (int)rng.below(3), 16, rng.next(), &g), GCLQ_SUCCESS);
  CHECK_EQ(gclq_sets_from_graph(&g, &s), GCLQ_SUCCESS);
  std::vector<uint32_t> edges;
  uint64_t work = 0;
  for (uint32_t x = 0; x < g.num_vertices; ++x)
    for (uint64_t e = g.h_offsets[x]; e < g.h_offsets[x + 1]; ++e)
      if (g.h_neighbors[e] > x) {
        edges.push_back(x);
        edges.push_back(g.h_neighbors[e]);
        work += (g.h_offsets[x + 1] - g.h_offsets[x]) + (g.h_offsets[g.h_neighbors[e] + 1] - g.h_offsets[g.h_neighbors[e]]);
      }
  const uint64_t ne = edges.size() / 2;
  CHECK(ne > 100);
  CHECK_EQ(gclq__sets_pairs_rule(&s, edges.data(), ne, d, w, below), GCLQ_INTERSECT_IP_OBS);
  /* the same pairs averaging exactly the threshold: per pair (ceil of the mean; never below 1) */
  const uint64_t at = (work + ne - 1) / ne;
  CHECK_EQ(gclq__sets_pairs_rule(&s, edges.data(), ne, d, w, at), work == at * ne ? GCLQ_INTERSECT_AUTO
                                                                                 : GCLQ_INTERSECT_IP_OBS);
  CHECK_EQ(gclq__sets_pairs_rule(&s, edges.data(), ne, d, w, work / ne), GCLQ_INTERSECT_AUTO);
  gclq_sets_free(&s);
  gclq_graph_free(&g);
}
#endif

/* Asked for given pairs, the all-pairs methods are invalid on every
   backend (decided before a device is looked for); for all pairs, HOST
   ignores them and merges. */
TEST(sets, all_pairs_methods_reject_given_pairs) {
  std::vector<set_u32> v(3);
  v[0] = set_u32({1, 2, 3});
  v[1] = set_u32({2, 3, 4});
  v[2] = set_u32({3});
  gclq_sets s;
  gclq_intersect_result r;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  const gclq_intersect_method whole[] = {GCLQ_INTERSECT_INVERTED_INDEX, GCLQ_INTERSECT_BIT_MATRIX};
  const gclq_backend backends[] = {GCLQ_BACKEND_HOST, GCLQ_BACKEND_CUDA, GCLQ_BACKEND_AUTO};
  for (int m = 0; m < 2; ++m) {
    for (int b = 0; b < 3; ++b) {
      gclq_intersect_options o = host_options();
      o.backend = backends[b];
      o.method = whole[m];
      CHECK_EQ(gclq_intersect_pair(&s, 0, 1, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
      CHECK(r.h_counts == NULL);
      const uint32_t pairs[4] = {0, 1, 1, 2};
      CHECK_EQ(gclq_intersect_pairs(&s, pairs, 2, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
    }
    gclq_intersect_options o = host_options();
    o.method = whole[m];
    check_all_pairs(v, s, o);
    CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_SUCCESS);
    CHECK_EQ(r.stats.method, GCLQ_INTERSECT_SERIAL_MERGE);
    gclq_intersect_result_free(&r);
  }
  gclq_intersect_options o = host_options();
  o.method = (gclq_intersect_method)11;
  CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_ERROR_INVALID_ARGUMENT);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_INVERTED_INDEX), "inverted-index") == 0);
  CHECK(strcmp(gclq_intersect_method_name(GCLQ_INTERSECT_BIT_MATRIX), "bit-matrix") == 0);
  CHECK_EQ((int)GCLQ_INTERSECT_INVERTED_INDEX, 9);
  CHECK_EQ((int)GCLQ_INTERSECT_BIT_MATRIX, 10);
#if defined(__CUDACC__)
  gclq_sets_device d;
  size_t bytes = 0;
  memset(&d, 0, sizeof d);
  for (int m = 0; m < 2; ++m)
    CHECK_EQ(gclq_intersect_pairs_device(&d, NULL, 0, NULL, whole[m], NULL, &bytes, NULL), GCLQ_ERROR_INVALID_ARGUMENT);
#endif
  gclq_sets_free(&s);
}

#if defined(__CUDACC__)

/* The all-pairs configurations: the index, the matrix by popcount, the
   matrix on tensor cores. */
struct ap_config {
  gclq_intersect_method method;
  int tensor;
  const char *name;
};
static const ap_config ap_configs[] = {{GCLQ_INTERSECT_INVERTED_INDEX, 0, "inverted-index"},
                                       {GCLQ_INTERSECT_BIT_MATRIX, 0, "bit-matrix popcount"},
                                       {GCLQ_INTERSECT_BIT_MATRIX, 1, "bit-matrix tensor cores"}};

static gclq_intersect_options ap_options(const ap_config &c) {
  gclq__sets_bm_tensor = c.tensor;
  return cuda_options(c.method);
}

/* Dense, sparse and containment of one collection, each configuration
   against HOST (check_all_pairs: the reference loops), and the method
   reported. */
static void ap_check(const std::vector<set_u32> &v, const char *what) {
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  for (size_t c = 0; c < sizeof ap_configs / sizeof ap_configs[0]; ++c) {
    gclq_intersect_options o = ap_options(ap_configs[c]);
    check_all_pairs(v, s, o);
    gclq_intersect_result r;
    CHECK_EQ(gclq_intersect_all(&s, &o, &r), GCLQ_SUCCESS);
    CHECK_EQ(r.stats.backend, GCLQ_BACKEND_CUDA);
    CHECK_MSG(v.size() < 2 || r.stats.method == ap_configs[c].method, "%s / %s: method %d", what, ap_configs[c].name,
              (int)r.stats.method);
    gclq_intersect_result_free(&r);
    if (g_test.failed) {
      fprintf(stderr, "    in: %s / %s (k = %zu)\n", what, ap_configs[c].name, v.size());
      break;
    }
  }
  gclq__sets_bm_tensor = -1;
  gclq_sets_free(&s);
}

GPU_TEST(sets, cuda_all_pairs_at_once_equal_host_on_every_shape) {
  test_rng rng = test_rng_for("sets.cuda_ap_shapes");
  /* k around the warp, the matrix's 64-row tiles, and the 16-set short lists */
  const size_t ks[] = {0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
    std::vector<set_u32> v = sets_family(rng, ks[i], 40 + rng.below(i % 2 ? 60 : 600));
    ap_check(v, "family");
  }
  std::vector<set_u32> same(70, sets_random(rng, 300, 5000)); /* identical sets: one long list a value */
  ap_check(same, "identical");
  std::vector<set_u32> one(45, set_u32(1, 0)); /* a universe of one value */
  for (size_t i = 0; i < one.size(); i += 4) one[i].clear();
  ap_check(one, "one value");
  ap_check(std::vector<set_u32>(33), "all empty");
  std::vector<set_u32> top(40); /* values at the top of the 32-bit range */
  for (size_t i = 0; i < top.size(); ++i)
    for (uint32_t x = 0; x < 40; ++x)
      if (rng.below(2)) top[i].push_back(0xffffffffu - 39 + x);
  ap_check(top, "top of the range");
  std::vector<set_u32> words(66); /* columns around 32-bit words and 256-bit stages */
  for (size_t i = 0; i < words.size(); ++i) words[i] = sets_random(rng, rng.below(300), 257 + 32 * (i % 3));
  ap_check(words, "column edges");
}

GPU_TEST(sets, cuda_all_pairs_at_once_every_generator) {
  test_rng rng = test_rng_for("sets.cuda_ap_generated");
  const gclq_sets_dist dists[] = {GCLQ_SETS_UNIFORM, GCLQ_SETS_NORMAL, GCLQ_SETS_ZIPF};
  /* small universes (long lists, a dense matrix: the BMS shape) and large ones */
  const uint64_t universes[] = {300, 1000000};
  const uint64_t avgs[] = {35, 5000};
  for (int d = 0; d < 3; ++d)
    for (int u = 0; u < 2; ++u) {
      gclq_sets_gen gen = {dists[d], u == 0 ? 700u : 90u, universes[u], avgs[u], 0, rng.next()};
      gclq_sets s;
      CHECK_EQ(gclq_sets_generate(&gen, &s), GCLQ_SUCCESS);
      gclq_intersect_options h = host_options();
      gclq_intersect_result want, got;
      CHECK_EQ(gclq_intersect_all(&s, &h, &want), GCLQ_SUCCESS);
      gclq_intersect_options hs = h;
      hs.sparse = 1;
      hs.min_count = 2;
      gclq_intersect_result want_sparse;
      CHECK_EQ(gclq_intersect_all(&s, &hs, &want_sparse), GCLQ_SUCCESS);
      for (size_t c = 0; c < sizeof ap_configs / sizeof ap_configs[0]; ++c) {
        gclq_intersect_options o = ap_options(ap_configs[c]);
        CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_SUCCESS);
        check_same(want, got, false, false, ap_configs[c].name);
        gclq_intersect_result_free(&got);
        o.sparse = 1;
        o.min_count = 2;
        CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_SUCCESS);
        check_same(want_sparse, got, false, true, ap_configs[c].name);
        gclq_intersect_result_free(&got);
        CHECK_OK_SO_FAR();
      }
      gclq__sets_bm_tensor = -1;
      gclq_intersect_result_free(&want);
      gclq_intersect_result_free(&want_sparse);
      gclq_sets_free(&s);
    }
}

/* AUTO for all pairs on CUDA: where the estimate's values over
   GCLQ__SETS_COLUMNS_SLACK would pick another method, the device counts the
   columns and the method run is the rule's over the exact values in two or
   more sets (counted here); elsewhere the estimate's pick. The collection
   of sets_unsure_collection is unsure every run and its exact columns pick
   the bit matrix where the estimate picks the index (so the count must have
   happened); a uniform one is sure (the index, >= 10x cheaper than the
   matrix even at the estimate's values / 8); zipf collections of 600 sets
   are often unsure (the estimate's values 2-5x the columns; U = 10^6: 95 of
   100 seeds, U = 10^7: 49), not always: both missed it in 2.5% of the runs,
   when this test's coverage of the count was left to them. The counts
   equal HOST's in every case. */
GPU_TEST(sets, cuda_all_pairs_auto_counts_the_columns_when_unsure) {
  test_rng rng = test_rng_for("sets.cuda_ap_auto_columns");
  const gclq_sets_gen gens[] = {{GCLQ_SETS_ZIPF, 600, 1000000, 1000, 0, rng.next()},
                                {GCLQ_SETS_ZIPF, 600, 10000000, 1000, 0, rng.next()},
                                {GCLQ_SETS_UNIFORM, 300, 1000000, 3000, 0, rng.next()}};
  const int cases = sizeof gens / sizeof gens[0] + 1, built = cases - 1, uniform = 2;
  int unsure_seen = 0;
  for (int c = 0; c < cases; ++c) {
    gclq_sets s;
    if (c == built) CHECK_EQ(sets_build(sets_unsure_collection(rng), &s), GCLQ_SUCCESS);
    else CHECK_EQ(gclq_sets_generate(&gens[c], &s), GCLQ_SUCCESS);
    const double columns = sets_columns(s);
    double increments;
    int unsure = -1;
    const gclq_intersect_method guess = gclq__sets_all_method(&s, GCLQ_INTERSECT_AUTO, &increments, &unsure);
    const gclq_intersect_method want_method =
        unsure ? gclq__sets_all_pick(s.num_sets, s.total, columns, increments, GCLQ_SETS_AUTO_MATRIX_COST,
                                     GCLQ_SETS_AUTO_INDEX_COST, NULL)
               : guess;
    unsure_seen += unsure == 1;
    if (c == built)
      CHECK_MSG(unsure == 1 && guess == GCLQ_INTERSECT_INVERTED_INDEX && want_method == GCLQ_INTERSECT_BIT_MATRIX,
                "constructed: unsure %d, estimate %s, columns %s", unsure, gclq_intersect_method_name(guess),
                gclq_intersect_method_name(want_method));
    if (c == uniform) CHECK_MSG(unsure == 0 && guess == GCLQ_INTERSECT_INVERTED_INDEX, "uniform: unsure %d", unsure);
    gclq_intersect_options h = host_options(), o = cuda_options(GCLQ_INTERSECT_AUTO);
    gclq_intersect_result want, got;
    CHECK_EQ(gclq_intersect_all(&s, &h, &want), GCLQ_SUCCESS);
    CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_SUCCESS);
    check_same(want, got, false, false, "auto");
    CHECK_MSG(got.stats.method == want_method, "case %d (k %u): ran %s, want %s (unsure %d)", c, s.num_sets,
              gclq_intersect_method_name(got.stats.method), gclq_intersect_method_name(want_method), unsure);
    gclq_intersect_result_free(&want);
    gclq_intersect_result_free(&got);
    gclq_sets_free(&s);
    CHECK_OK_SO_FAR();
  }
  CHECK(unsure_seen > 0); /* the constructed collection, every run */
}

/* AUTO picks the inverted index for many small sets over a large universe;
   with a budget that holds the collection and 128 KB more (no room for the
   index) it runs the pairs in batches instead, says so in the log and gives
   HOST's bytes; the index asked for by name is GCLQ_ERROR_OUT_OF_MEMORY
   with nothing in the result. */
GPU_TEST(sets, cuda_all_pairs_auto_falls_back_to_batches_when_its_structure_does_not_fit) {
  test_rng rng = test_rng_for("sets.cuda_ap_auto_fallback");
  const gclq_sets_gen gen = {GCLQ_SETS_UNIFORM, 1500 + (uint32_t)rng.below(100), 1000000, 60, 0, rng.next()};
  gclq_sets s;
  CHECK_EQ(gclq_sets_generate(&gen, &s), GCLQ_SUCCESS);
  double increments;
  int unsure = -1;
  CHECK_EQ(gclq__sets_all_method(&s, GCLQ_INTERSECT_AUTO, &increments, &unsure), GCLQ_INTERSECT_INVERTED_INDEX);
  CHECK_EQ(unsure, 0);
  struct lines {
    std::vector<std::string> seen;
    static void fn(void *user, const char *line) { ((lines *)user)->seen.push_back(line); }
  } log;
  gclq_intersect_options h = host_options(), o = cuda_options(GCLQ_INTERSECT_AUTO);
  gclq_intersect_result want, got;
  CHECK_EQ(gclq_intersect_all(&s, &h, &want), GCLQ_SUCCESS);
  CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_SUCCESS); /* room: the index */
  CHECK_EQ(got.stats.method, GCLQ_INTERSECT_INVERTED_INDEX);
  check_same(want, got, false, false, "auto, room");
  gclq_intersect_result_free(&got);
  o.device_budget_bytes = sets_upload_bytes(s) + (1 << 17);
  o.log = lines::fn;
  o.log_user = &log;
  CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_SUCCESS);
  CHECK_EQ(got.stats.method, GCLQ_INTERSECT_AUTO);
  CHECK(got.stats.peak_device_bytes <= o.device_budget_bytes);
  check_same(want, got, false, false, "auto, small budget");
  bool said = false;
  for (const std::string &l : log.seen) said = said || l.find("does not fit the device budget") != std::string::npos;
  CHECK(said);
  gclq_intersect_result_free(&got);
  o.method = GCLQ_INTERSECT_INVERTED_INDEX;
  CHECK_EQ(gclq_intersect_all(&s, &o, &got), GCLQ_ERROR_OUT_OF_MEMORY);
  CHECK(got.h_counts == NULL && got.num_pairs == 0);
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}

/* "%u words a row, %u at once" of the bit matrix's notes. */
static bool ap_chunked(const char *notes) {
  const char *p = strstr(notes, "columns, ");
  unsigned words = 0, chunk = 0;
  return p != NULL && sscanf(p, "columns, %u words a row, %u at once", &words, &chunk) == 2 && chunk < words;
}

/* Budgets from generous down to too small: each call gives HOST's bytes or
   GCLQ_ERROR_OUT_OF_MEMORY, never more device memory than the budget; some
   run in several row tiles, and some build the matrix in column chunks. */
GPU_TEST(sets, cuda_all_pairs_at_once_small_budgets_give_the_same_bytes) {
  test_rng rng = test_rng_for("sets.cuda_ap_budget");
  std::vector<set_u32> v; /* 1000 small sets (2 MB of counts), some large, 20 alike (long lists) */
  const set_u32 alike = sets_random(rng, 300, 4000);
  for (int i = 0; i < 1000; ++i)
    v.push_back(i % 50 == 7 ? alike : sets_random(rng, rng.below(i % 50 == 0 ? 400 : 20), 4000));
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  const size_t set_bytes = sets_upload_bytes(s);
  gclq_intersect_options h = host_options();
  gclq_intersect_result want, got;
  CHECK_EQ(gclq_intersect_all(&s, &h, &want), GCLQ_SUCCESS);
  for (size_t c = 0; c < sizeof ap_configs / sizeof ap_configs[0]; ++c) {
    int tiled = 0, chunked = 0, ran = 0;
    for (size_t room = (size_t)1 << 22; room >= 4096; room = room * 7 / 8) {
      gclq_intersect_options o = ap_options(ap_configs[c]);
      o.device_budget_bytes = set_bytes + room;
      gclq_status st = gclq_intersect_all(&s, &o, &got);
      CHECK_MSG(st == GCLQ_SUCCESS || st == GCLQ_ERROR_OUT_OF_MEMORY, "%s, room %zu: %s", ap_configs[c].name, room,
                gclq_status_string(st));
      if (st != GCLQ_SUCCESS) {
        CHECK(got.h_counts == NULL);
        continue;
      }
      ++ran;
      check_same(want, got, false, false, ap_configs[c].name);
      CHECK(got.stats.peak_device_bytes <= o.device_budget_bytes);
      tiled += got.stats.batches > 1;
      chunked += ap_chunked(got.stats.notes);
      gclq_intersect_result_free(&got);
      if (g_test.failed) break;
    }
    CHECK_OK_SO_FAR();
    CHECK_MSG(ran > 0 && tiled > 0, "%s: %d runs, %d in several row tiles", ap_configs[c].name, ran, tiled);
    if (ap_configs[c].method == GCLQ_INTERSECT_BIT_MATRIX)
      CHECK_MSG(chunked > 0, "%s: never chunked", ap_configs[c].name);
    /* containment through the same tiles */
    gclq_intersect_options o = ap_options(ap_configs[c]);
    o.device_budget_bytes = set_bytes + (1 << 20);
    check_all_pairs(v, s, o);
  }
  gclq__sets_bm_tensor = -1;
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}

/* k = 3000 tiny sets: 4498500 pairs, more than one hand-over of 2^22 to the
   sink; 3000 is not a multiple of the matrix's 64 rows. */
GPU_TEST(sets, cuda_all_pairs_at_once_across_hand_overs) {
  test_rng rng = test_rng_for("sets.cuda_ap_batches");
  std::vector<set_u32> v = sets_tiny(rng, 3000);
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  for (size_t c = 0; c < sizeof ap_configs / sizeof ap_configs[0]; ++c)
    check_all_pairs_dense(v, s, ap_options(ap_configs[c]));
  gclq__sets_bm_tensor = -1;
  gclq_sets_free(&s);
}
#endif

/* ---- the containment join's light/heavy split (MMJoin, section 4.1) ----
   TEST: the split's pieces (the classes, the heavy collection, each pair's
   light count) against brute force, and the join with the split on HOST
   against the join without it, byte for byte, at every threshold from all
   heavy to all light; allocation failures. GPU_TEST: the CUDA join with
   the split (the light part in a host thread) against HOST without it. */

/* How many sets hold each value. */
static std::map<uint32_t, uint64_t> split_freq(const std::vector<set_u32> &v) {
  std::map<uint32_t, uint64_t> f;
  for (size_t i = 0; i < v.size(); ++i)
    for (size_t e = 0; e < v[i].size(); ++e) ++f[v[i][e]];
  return f;
}

/* The split's pieces at one threshold against brute force. */
static void split_check_pieces(const std::vector<set_u32> &v, uint64_t below, const char *what) {
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  gclq_intersect_options o = host_options();
  o.split_below = below;
  gclq__mmjoin m;
  int split = -1;
  CHECK_EQ(gclq__mmjoin_plan(&s, &o, GCLQ_BACKEND_HOST, &m, &split), GCLQ_SUCCESS);
  CHECK_EQ(split, v.size() >= 2 ? 1 : 0); /* fewer than two sets: no pair, no split */
  if (split != 1) {
    gclq__mmjoin_free(&m);
    gclq_sets_free(&s);
    return;
  }
  CHECK_EQ(m.below, below);
  CHECK_EQ(gclq__mmjoin_light(&s, &m), GCLQ_SUCCESS);
  const std::map<uint32_t, uint64_t> f = split_freq(v);
  std::map<uint32_t, uint32_t> rank; /* heavy value -> its rank */
  uint64_t light_values = 0, increments = 0;
  for (std::map<uint32_t, uint64_t>::const_iterator it = f.begin(); it != f.end(); ++it) {
    if (it->second >= below) {
      const uint32_t r = (uint32_t)rank.size();
      rank[it->first] = r;
    } else {
      ++light_values;
      increments += it->second * (it->second - 1) / 2;
    }
  }
  CHECK_MSG(m.light_values == light_values && m.heavy_values == rank.size(), "%s, below %llu: %llu / %llu values",
            what, (unsigned long long)below, (unsigned long long)m.light_values, (unsigned long long)m.heavy_values);
  CHECK_EQ(m.increments, increments);
  CHECK_EQ(m.heavy.num_sets, s.num_sets);
  CHECK_EQ(m.heavy.universe, rank.empty() ? 1 : rank.size());
  CHECK_EQ(gclq_sets_validate(&m.heavy, NULL), GCLQ_SUCCESS);
  for (uint32_t i = 0; i < s.num_sets; ++i) { /* each set's heavy values, as ranks */
    set_u32 want;
    for (size_t e = 0; e < v[i].size(); ++e)
      if (rank.count(v[i][e])) want.push_back(rank[v[i][e]]);
    CHECK_MSG(sets_get(m.heavy, i) == want, "%s, below %llu: heavy set %u", what, (unsigned long long)below, i);
  }
  uint64_t pairs = 0, bad = 0;
  for (uint32_t i = 0; i < s.num_sets; ++i)
    for (uint32_t j = i + 1; j < s.num_sets; ++j) {
      const set_u32 both = sets_ref(v[i], v[j]);
      uint32_t light = 0;
      for (size_t e = 0; e < both.size(); ++e) light += f.find(both[e])->second < below;
      pairs += light > 0;
      const uint32_t got = gclq__mmjoin_light_count(&m, i, j);
      const uint32_t heavy = (uint32_t)sets_ref(sets_get(m.heavy, i), sets_get(m.heavy, j)).size();
      bad += got != light || got + heavy != both.size();
    }
  CHECK_MSG(bad == 0, "%s, below %llu: %llu pairs' light counts differ", what, (unsigned long long)below,
            (unsigned long long)bad);
  CHECK_EQ(m.col.n, pairs);
  gclq__mmjoin_free(&m);
  gclq_sets_free(&s);
}

/* Shaped collections for the split: random families (empty sets, subsets,
   repeats), one element a set from a tiny universe (every value in many
   sets), identical sets, a chain of subsets, all empty, a zipf collection
   (a few values in most sets, most values in few). */
static std::vector<std::pair<std::string, std::vector<set_u32> > > split_cases(test_rng &rng, bool small) {
  std::vector<std::pair<std::string, std::vector<set_u32> > > c;
  const size_t ks[] = {0, 1, 2, 3, 37, 130};
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i)
    c.push_back(std::make_pair("family", sets_family(rng, ks[i], 40 + rng.below(small ? 100 : 400))));
  std::vector<set_u32> one(50);
  for (size_t i = 0; i < one.size(); ++i) one[i].push_back((uint32_t)rng.below(6));
  c.push_back(std::make_pair("one element", one));
  c.push_back(std::make_pair("identical", std::vector<set_u32>(40, sets_random(rng, 30, 200))));
  std::vector<set_u32> chain(1, sets_random(rng, 60, 500));
  while (chain.back().size() > 1) { /* each a subset of the one before; the last two may be equal */
    set_u32 sub;
    for (size_t e = 0; e < chain.back().size(); ++e)
      if (rng.below(4) != 0) sub.push_back(chain.back()[e]);
    if (sub.empty()) sub.push_back(chain.back()[0]);
    chain.push_back(sub);
  }
  c.push_back(std::make_pair("chain of subsets", chain));
  c.push_back(std::make_pair("all empty", std::vector<set_u32>(9)));
  gclq_sets_gen gen = {GCLQ_SETS_ZIPF, small ? 80u : 150u, 3000, 60, 0, rng.next()};
  gclq_sets z;
  if (gclq_sets_generate(&gen, &z) == GCLQ_SUCCESS) {
    std::vector<set_u32> zv;
    for (uint32_t i = 0; i < z.num_sets; ++i) zv.push_back(sets_get(z, i));
    c.push_back(std::make_pair("zipf", zv));
    gclq_sets_free(&z);
  }
  return c;
}

/* Thresholds from all heavy (1) to all light (above k), the edges around
   the largest list, and a value near 2^64. */
static std::vector<uint64_t> split_thresholds(const std::vector<set_u32> &v) {
  const std::map<uint32_t, uint64_t> f = split_freq(v);
  uint64_t most = 0;
  for (std::map<uint32_t, uint64_t>::const_iterator it = f.begin(); it != f.end(); ++it)
    most = std::max(most, it->second);
  const uint64_t t[] = {1, 2, 3, 4, 7, most, most + 1, v.size() / 2 + 1, v.size(), v.size() + 1, (uint64_t)1 << 40,
                        GCLQ_SPLIT_OFF - 1};
  std::vector<uint64_t> out(t, t + sizeof t / sizeof t[0]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  out.erase(std::remove(out.begin(), out.end(), (uint64_t)0), out.end());
  return out;
}

TEST(sets, containment_split_pieces_against_brute_force) {
  test_rng rng = test_rng_for("sets.split_pieces");
  std::vector<std::pair<std::string, std::vector<set_u32> > > cases = split_cases(rng, true);
  long long live = g_alloc_live;
  for (size_t c = 0; c < cases.size(); ++c) {
    const std::vector<uint64_t> th = split_thresholds(cases[c].second);
    for (size_t t = 0; t < th.size(); ++t) split_check_pieces(cases[c].second, th[t], cases[c].first.c_str());
    CHECK_OK_SO_FAR();
  }
  CHECK_EQ(g_alloc_live, live);
  /* no split: GCLQ_SPLIT_OFF, and AUTO on HOST or on small work */
  std::vector<set_u32> v = sets_family(rng, 30, 100);
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  gclq_intersect_options o = host_options();
  gclq__mmjoin m;
  int split = -1;
  const gclq_backend backends[] = {GCLQ_BACKEND_HOST, GCLQ_BACKEND_CUDA};
  const uint64_t off[] = {GCLQ_SPLIT_OFF, 0};
  for (int b = 0; b < 2; ++b)
    for (int x = 0; x < 2; ++x) {
      o.split_below = off[x];
      CHECK_EQ(gclq__mmjoin_plan(&s, &o, backends[b], &m, &split), GCLQ_SUCCESS);
      CHECK_EQ(split, 0);
      CHECK(m.sv == NULL && m.heavy.h_offsets == NULL);
    }
  gclq_sets_free(&s);
  CHECK_EQ(g_alloc_live, live);
}

/* AUTO on CUDA, worked on the host: enough work to look (k = 10^5 uniform
   sets of about 25 values from 2000: every estimate above 2 x 10^9 merge
   steps), then a threshold that is a power of two of at least 4, or none. */
TEST(sets, containment_split_auto_rule) {
  test_rng rng = test_rng_for("sets.split_auto");
  gclq_sets_gen gen = {GCLQ_SETS_UNIFORM, 100000, 2000, 25, 0, rng.next()};
  gclq_sets s;
  CHECK_EQ(gclq_sets_generate(&gen, &s), GCLQ_SUCCESS);
  CHECK(gclq__sets_all_cost(s.num_sets, s.total, s.universe, GCLQ_SETS_AUTO_MATRIX_COST, GCLQ_SETS_AUTO_INDEX_COST) >=
        GCLQ_SETS_AUTO_SPLIT_WORK);
  gclq_intersect_options o = host_options();
  gclq__mmjoin m;
  int split = -1;
  CHECK_EQ(gclq__mmjoin_plan(&s, &o, GCLQ_BACKEND_CUDA, &m, &split), GCLQ_SUCCESS);
  CHECK(split == 0 || (m.below >= 4 && (m.below & (m.below - 1)) == 0));
  gclq__mmjoin_free(&m);
  /* the rule by itself, on the index */
  gclq__mmjoin ix;
  memset(&ix, 0, sizeof ix);
  CHECK_EQ(gclq__mmjoin_index(&s, &ix), GCLQ_SUCCESS);
  CHECK_EQ(ix.runs, 2000);
  CHECK_EQ(ix.start[ix.runs], s.total);
  const uint64_t below = gclq__mmjoin_auto(&s, &ix);
  CHECK(below == GCLQ_SPLIT_OFF || (below >= 4 && (below & (below - 1)) == 0));
  gclq__mmjoin_free(&ix);
  gclq_sets_free(&s);
}

/* Two containment results, byte for byte (the host's check_same). */
static void split_same(const gclq_intersect_result &want, const gclq_intersect_result &got, const char *what) {
  CHECK_MSG(want.num_pairs == got.num_pairs, "%s: %llu pairs, want %llu", what, (unsigned long long)got.num_pairs,
            (unsigned long long)want.num_pairs);
  CHECK_EQ(want.total, got.total);
  CHECK(want.num_pairs != got.num_pairs || want.num_pairs == 0 ||
        (memcmp(want.h_pairs, got.h_pairs, 2 * want.num_pairs * 4) == 0 &&
         memcmp(want.h_counts, got.h_counts, want.num_pairs * 4) == 0));
}

/* The join with the split (base's backend and method) against HOST without
   it, at every threshold and three degrees of containment. */
static void split_check_join(const std::vector<set_u32> &v, const gclq_intersect_options &base, const char *what) {
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  std::vector<uint64_t> th = split_thresholds(v);
  th.push_back(GCLQ_SPLIT_OFF);
  th.push_back(0);
  const double degrees[] = {0.0, 0.5, 0.01};
  for (int d = 0; d < 3; ++d) {
    gclq_intersect_options h = host_options();
    h.min_containment = degrees[d];
    h.split_below = GCLQ_SPLIT_OFF;
    gclq_intersect_result want, got;
    CHECK_EQ(gclq_containment_join(&s, &h, &want), GCLQ_SUCCESS);
    CHECK_EQ(want.stats.split.below, 0);
    for (size_t t = 0; t < th.size(); ++t) {
      gclq_intersect_options o = base;
      o.min_containment = degrees[d];
      o.split_below = th[t];
      char name[160];
      snprintf(name, sizeof name, "%s, k %zu, degree %g, below %llu", what, v.size(), degrees[d],
               (unsigned long long)th[t]);
      CHECK_MSG(gclq_containment_join(&s, &o, &got) == GCLQ_SUCCESS, "%s", name);
      split_same(want, got, name);
      const bool explicit_split = th[t] != 0 && th[t] != GCLQ_SPLIT_OFF && v.size() >= 2;
      if (explicit_split) {
        CHECK_MSG(got.stats.split.below == th[t], "%s: below %llu", name, (unsigned long long)got.stats.split.below);
        CHECK(got.stats.split.host_ms >= 0.0 && got.stats.split.device_ms >= 0.0);
        CHECK(got.stats.split.overlap_ms >= 0.0 && got.stats.split.overlap_ms <= got.stats.split.host_ms + 1e-9);
        if (th[t] == 1) CHECK_EQ(got.stats.split.light_values, 0);
        if (th[t] > v.size()) CHECK_EQ(got.stats.split.heavy_values, 0);
      } else if (th[t] == GCLQ_SPLIT_OFF || base.backend == GCLQ_BACKEND_HOST) {
        CHECK_EQ(got.stats.split.below, 0);
      }
      gclq_intersect_result_free(&got);
      if (g_test.failed) break;
    }
    gclq_intersect_result_free(&want);
    if (g_test.failed) break;
  }
  gclq_sets_free(&s);
}

TEST(sets, host_containment_split_equals_no_split) {
  test_rng rng = test_rng_for("sets.split_host");
  std::vector<std::pair<std::string, std::vector<set_u32> > > cases = split_cases(rng, false);
  long long live = g_alloc_live;
  for (size_t c = 0; c < cases.size(); ++c) {
    split_check_join(cases[c].second, host_options(), cases[c].first.c_str());
    gclq_intersect_options o = host_options(); /* and against the reference loops */
    o.split_below = 3;
    gclq_sets s;
    CHECK_EQ(sets_build(cases[c].second, &s), GCLQ_SUCCESS);
    check_all_pairs(cases[c].second, s, o);
    gclq_sets_free(&s);
    CHECK_OK_SO_FAR();
  }
  CHECK_EQ(g_alloc_live, live);
}

TEST(sets, host_containment_split_allocation_failures) {
  test_rng rng = test_rng_for("sets.split_alloc");
  std::vector<set_u32> v = sets_family(rng, 25, 60);
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  gclq_intersect_options h = host_options();
  h.split_below = GCLQ_SPLIT_OFF;
  gclq_intersect_result want, r;
  CHECK_EQ(gclq_containment_join(&s, &h, &want), GCLQ_SUCCESS);
  const long long live = g_alloc_live;
  int failed = 0;
  for (long long k = 0; k < 60; ++k) {
    gclq_intersect_options o = host_options();
    o.split_below = 4;
    g_alloc_fail_at = g_alloc_calls + k;
    gclq_status st = gclq_containment_join(&s, &o, &r);
    g_alloc_fail_at = -1;
    CHECK_MSG(st == GCLQ_SUCCESS || st == GCLQ_ERROR_OUT_OF_MEMORY, "fail %lld: %d", k, (int)st);
    if (st == GCLQ_SUCCESS) split_same(want, r, "after a failure elsewhere");
    else CHECK(r.h_counts == NULL && r.num_pairs == 0 && r.stats.split.below == 0);
    failed += st != GCLQ_SUCCESS;
    gclq_intersect_result_free(&r);
    CHECK_EQ(g_alloc_live, live);
  }
  CHECK(failed > 10); /* the split's own allocations were among those that failed */
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}

#if defined(__CUDACC__)
/* The CUDA join with the split against HOST without it: every pairwise
   method and both all-pairs methods count the heavy part while a host
   thread counts the light one. */
GPU_TEST(sets, cuda_containment_split_equals_host) {
  test_rng rng = test_rng_for("sets.split_cuda");
  std::vector<std::pair<std::string, std::vector<set_u32> > > cases = split_cases(rng, true);
  long long live = g_alloc_live;
  for (size_t c = 0; c < cases.size(); ++c) {
    for (size_t k = 0; k < num_cuda_methods; ++k) {
      std::string what = cases[c].first + " / " + gclq_intersect_method_name(cuda_methods[k]);
      split_check_join(cases[c].second, cuda_options(cuda_methods[k]), what.c_str());
    }
    for (size_t a = 0; a < sizeof ap_configs / sizeof ap_configs[0]; ++a) {
      std::string what = cases[c].first + " / " + ap_configs[a].name;
      split_check_join(cases[c].second, ap_options(ap_configs[a]), what.c_str());
    }
    gclq__sets_bm_tensor = -1;
    CHECK_OK_SO_FAR();
  }
  CHECK_EQ(g_alloc_live, live);
}

/* The split under small device budgets (several row tiles: the first waits
   for the host, the rest run after it), a budget too small for the
   collection (the device fails while the thread runs: it is joined, and
   nothing leaks), and every host allocation failing in turn (in either
   thread: a status, no leak). */
GPU_TEST(sets, cuda_containment_split_budgets_and_failures) {
  test_rng rng = test_rng_for("sets.split_cuda_budget");
  std::vector<set_u32> v;
  const set_u32 alike = sets_random(rng, 300, 4000);
  for (int i = 0; i < 1000; ++i)
    v.push_back(i % 50 == 7 ? alike : sets_random(rng, rng.below(i % 50 == 0 ? 400 : 20), 4000));
  gclq_sets s;
  CHECK_EQ(sets_build(v, &s), GCLQ_SUCCESS);
  const size_t set_bytes = sets_upload_bytes(s);
  gclq_intersect_options h = host_options();
  h.split_below = GCLQ_SPLIT_OFF;
  h.min_containment = 0.5;
  gclq_intersect_result want, got;
  CHECK_EQ(gclq_containment_join(&s, &h, &want), GCLQ_SUCCESS);
  const long long live = g_alloc_live;
  for (size_t c = 0; c < sizeof ap_configs / sizeof ap_configs[0]; ++c) {
    int tiled = 0;
    for (size_t room = (size_t)1 << 22; room >= 65536; room /= 2) {
      gclq_intersect_options o = ap_options(ap_configs[c]);
      o.min_containment = 0.5;
      o.split_below = 8;
      o.device_budget_bytes = set_bytes + room;
      gclq_status st = gclq_containment_join(&s, &o, &got);
      CHECK_MSG(st == GCLQ_SUCCESS || st == GCLQ_ERROR_OUT_OF_MEMORY, "%s, room %zu: %s", ap_configs[c].name, room,
                gclq_status_string(st));
      if (st == GCLQ_SUCCESS) {
        split_same(want, got, ap_configs[c].name);
        tiled += got.stats.batches > 1;
      }
      gclq_intersect_result_free(&got);
      CHECK_EQ(g_alloc_live, live);
    }
    CHECK_MSG(tiled > 0, "%s: never in several row tiles", ap_configs[c].name);
    CHECK_OK_SO_FAR();
  }
  gclq__sets_bm_tensor = -1;
  gclq_intersect_options o = cuda_options(GCLQ_INTERSECT_AUTO);
  o.split_below = 8;
  o.device_budget_bytes = 1024; /* not even the collection */
  CHECK_EQ(gclq_containment_join(&s, &o, &got), GCLQ_ERROR_OUT_OF_MEMORY);
  CHECK(got.h_pairs == NULL && got.num_pairs == 0);
  CHECK_EQ(g_alloc_live, live);
  int failed = 0;
  for (long long k = 0; k < 40; ++k) {
    o = cuda_options(GCLQ_INTERSECT_BIT_MATRIX);
    o.min_containment = 0.5;
    o.split_below = 8;
    g_alloc_fail_at = g_alloc_calls + k;
    gclq_status st = gclq_containment_join(&s, &o, &got);
    g_alloc_fail_at = -1;
    CHECK_MSG(st == GCLQ_SUCCESS || st == GCLQ_ERROR_OUT_OF_MEMORY, "fail %lld: %s", k, gclq_status_string(st));
    if (st == GCLQ_SUCCESS) split_same(want, got, "after a failure elsewhere");
    failed += st != GCLQ_SUCCESS;
    gclq_intersect_result_free(&got);
    CHECK_EQ(g_alloc_live, live);
  }
  CHECK(failed > 0);
  gclq_intersect_result_free(&want);
  gclq_sets_free(&s);
}
#endif
