/* fuzz_sets_load.c - bytes -> the set collection readers.
   The first byte picks the reader (text or binary) and the way in (memory:
   gclq_sets_parse_text / _binary; a temporary file: gclq_sets_load_text /
   _binary); the rest is the input. Promises checked: a failure leaves the
   collection zeroed with a terminated message; a success passes
   gclq_sets_validate with every element below the universe, and (when
   small) its HOST intersections agree with a merge done here, and the binary
   format gives the same collection back. */
#include "fuzz_common.h"

static uint32_t fuzz_merge_count(const gclq_sets *s, uint32_t i, uint32_t j) {
  uint64_t a = s->h_offsets[i], ae = s->h_offsets[i + 1], b = s->h_offsets[j], be = s->h_offsets[j + 1];
  uint32_t k = 0;
  while (a < ae && b < be) {
    if (s->h_elements[a] < s->h_elements[b]) ++a;
    else if (s->h_elements[a] > s->h_elements[b]) ++b;
    else ++k, ++a, ++b;
  }
  return k;
}

/* HOST intersections of a small collection against fuzz_merge_count. */
static void fuzz_intersect(const gclq_sets *s, uint8_t ctl) {
  gclq_intersect_options o;
  gclq_intersect_result r;
  uint32_t i, j;
  uint64_t p = 0;
  if (s->num_sets == 0 || s->num_sets > 48 || s->total > 2048) return;
  memset(&o, 0, sizeof o);
  o.backend = GCLQ_BACKEND_HOST;
  o.materialise = ctl & 1;
  FUZZ_CHECK(gclq_intersect_pair(s, 0, s->num_sets - 1, &o, &r) == GCLQ_SUCCESS);
  FUZZ_CHECK(r.num_pairs == 1 && r.h_counts[0] == fuzz_merge_count(s, 0, s->num_sets - 1));
  gclq_intersect_result_free(&r);
  if (s->num_sets < 2) return;
  o.materialise = 0;
  FUZZ_CHECK(gclq_intersect_all(s, &o, &r) == GCLQ_SUCCESS);
  FUZZ_CHECK(r.num_pairs == (uint64_t)s->num_sets * (s->num_sets - 1) / 2);
  for (i = 0; i < s->num_sets; ++i)
    for (j = i + 1; j < s->num_sets; ++j) FUZZ_CHECK(r.h_counts[p++] == fuzz_merge_count(s, i, j));
  gclq_intersect_result_free(&r);
  FUZZ_CHECK(gclq_containment_join(s, &o, &r) == GCLQ_SUCCESS);
  for (p = 0; p < r.num_pairs; ++p) {
    i = r.h_pairs[2 * p], j = r.h_pairs[2 * p + 1];
    FUZZ_CHECK(i != j && r.h_counts[p] == s->h_offsets[i + 1] - s->h_offsets[i]);
    FUZZ_CHECK(fuzz_merge_count(s, i, j) == r.h_counts[p]);
  }
  gclq_intersect_result_free(&r);
}

/* Saved in the binary format and read back: the same sets. */
static void fuzz_round_trip(const gclq_sets *s) {
  const char *path = fuzz_temp_path(".bin");
  gclq_sets t;
  gclq_sets_error e;
  gclq_status st = gclq_sets_save_binary(s, path);
  if (s->universe > 0xffffffffull) {
    FUZZ_CHECK(st == GCLQ_ERROR_TOO_LARGE);
    return;
  }
  FUZZ_CHECK(st == GCLQ_SUCCESS);
  FUZZ_CHECK(gclq_sets_load_binary(path, &t, &e) == GCLQ_SUCCESS);
  unlink(path);
  FUZZ_CHECK(t.num_sets == s->num_sets && t.total == s->total && t.universe == s->universe);
  FUZZ_CHECK(memcmp(t.h_offsets, s->h_offsets, ((size_t)s->num_sets + 1) * sizeof(uint64_t)) == 0);
  FUZZ_CHECK(s->total == 0 || memcmp(t.h_elements, s->h_elements, (size_t)s->total * sizeof(uint32_t)) == 0);
  gclq_sets_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gclq_sets s;
  gclq_sets_error e;
  gclq_status st;
  uint8_t ctl;
  uint64_t i, top = 0;
  int binary;
  if (size < 1) return 0;
  ctl = data[0];
  ++data, --size;
  binary = ctl & 1;
  memset(&e, 0x5a, sizeof e);
  memset(&s, 0xa5, sizeof s); /* a builder need not get a zeroed struct */
  if (ctl & 2) {
    const char *path = fuzz_temp_path(".sets");
    if (!fuzz_write_file(path, data, size)) return 0;
    st = binary ? gclq_sets_load_binary(path, &s, &e) : gclq_sets_load_text(path, &s, &e);
    unlink(path);
  } else {
    const void *p = size ? (const void *)data : NULL;
    st = binary ? gclq_sets_parse_binary(p, size, &s, &e) : gclq_sets_parse_text((const char *)p, size, &s, &e);
  }
  if (st != GCLQ_SUCCESS) {
    FUZZ_CHECK(st == GCLQ_ERROR_PARSE || st == GCLQ_ERROR_UNSORTED_SET || st == GCLQ_ERROR_TOO_LARGE);
    FUZZ_CHECK(fuzz_zeroed(&s, sizeof s));
    FUZZ_CHECK(fuzz_terminated(e.message, sizeof e.message));
    return 0;
  }
  FUZZ_CHECK(gclq_sets_validate(&s, &e) == GCLQ_SUCCESS);
  FUZZ_CHECK(!s.is_view && s.h_offsets != NULL && s.h_offsets[0] == 0 && s.h_offsets[s.num_sets] == s.total);
  for (i = 0; i < s.total; ++i) {
    FUZZ_CHECK(s.h_elements[i] < s.universe);
    if (s.h_elements[i] + (uint64_t)1 > top) top = s.h_elements[i] + (uint64_t)1;
  }
  FUZZ_CHECK(binary ? s.universe >= top : s.universe == top); /* text: the largest element + 1 */
  fuzz_intersect(&s, ctl >> 2);
  if (ctl & 4) fuzz_round_trip(&s);
  gclq_sets_free(&s);
  FUZZ_CHECK(fuzz_zeroed(&s, sizeof s));
  return 0;
}
