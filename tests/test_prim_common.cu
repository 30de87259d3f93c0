/* test_prim_common.cu - the shared pieces of gpuprim.cuh: temp carving, operators, bits of a word. */
#include "../gpuprim.cuh"
#include "internal_prim.h"
#include "testing.h"

TEST(prim_common, temp_carve_sizes_and_alignment) {
  size_t sizes[3] = {100, 4, 0};
  size_t bytes = 0;
  CHECK(primt_temp_carve(NULL, &bytes, 3, sizes, NULL) == cudaSuccess);
  CHECK_EQ(bytes, 512);
  void *ptrs[3];
  char *base = (char *)(uintptr_t)0x10000; /* never dereferenced */
  CHECK(primt_temp_carve(base, &bytes, 3, sizes, ptrs) == cudaSuccess);
  CHECK(ptrs[0] == base && ptrs[1] == base + 256 && ptrs[2] == base + 512);
  size_t small = 511;
  CHECK(primt_temp_carve(base, &small, 3, sizes, ptrs) == cudaErrorInvalidValue);
  CHECK(primt_temp_carve(base, NULL, 3, sizes, ptrs) == cudaErrorInvalidValue);
  size_t zero_sizes[1] = {0};
  CHECK(primt_temp_carve(NULL, &bytes, 1, zero_sizes, NULL) == cudaSuccess);
  CHECK(bytes > 0);
}

TEST(prim_common, operators_and_identities) {
  gprim_op_sum s; gprim_op_max mx; gprim_op_min mn;
  CHECK_EQ(s(3u, 4u), 7u);
  CHECK_EQ(mx(-3, 4), 4);
  CHECK_EQ(mn(-3, 4), -3);
  CHECK_EQ(gprim_op_sum::identity<uint64_t>(), 0);
  CHECK(gprim_op_max::identity<int32_t>() == INT32_MIN);
  CHECK(gprim_op_min::identity<uint32_t>() == UINT32_MAX);
  CHECK(gprim_op_max::identity<float>() < -1e38f);
  CHECK(gprim_op_min::identity<int64_t>() == INT64_MAX);
}

/* gprim_popcount32 and gprim_select32 against a bit-by-bit walk: every k
   of fresh random words of every density, and the edges (0, one bit, all). */
TEST(prim_common, popcount_and_select_in_a_word) {
  test_rng rng = test_rng_for("prim_common.select32");
  std::vector<uint32_t> words = {0u, 1u, 0x80000000u, 0xffffffffu, 0x58u, 0x55555555u, 0xaaaaaaaau};
  for (int i = 0; i < 2000; ++i) {
    uint32_t w = (uint32_t)rng.next();
    for (int t = 0; t < i % 4; ++t) w &= (uint32_t)rng.next(); /* sparser words too */
    words.push_back(w);
  }
  CHECK_EQ(gprim_select32(0x58u, 1), 4);
  for (size_t i = 0; i < words.size(); ++i) {
    const uint32_t w = words[i];
    int k = 0;
    for (int b = 0; b < 32; ++b)
      if (w >> b & 1u) {
        CHECK_MSG(gprim_select32(w, k) == b, "word 0x%08x: bit %d of rank %d, select says %d", w, b, k,
                  gprim_select32(w, k));
        ++k;
      }
    CHECK_MSG(gprim_popcount32(w) == k, "word 0x%08x: popcount %d, want %d", w, gprim_popcount32(w), k);
  }
}
