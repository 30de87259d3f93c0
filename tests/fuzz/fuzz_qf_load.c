/* fuzz_qf_load.c - bytes -> the quotient filter readers (gamq_qf_deserialize
   from memory, gamq_qf_load from a temporary file), HOST backend.
   The first byte picks the input's shape:
     raw         the bytes as they come, to memory or to a file; optionally
                 with the header's FNV-1a checksum recomputed, so that the
                 checks behind the checksum (lengths, the structure walk)
                 see mutated data;
     structured  a valid filter (SQF or RSQF, ALIGNED or PACKED, q <= 6)
                 built from keys in the input and serialised, then up to
                 eight bytes flipped, the checksum recomputed or not.
   Checked: a refusal is BAD_FILE (or IO for a file) and writes nothing; an
   accepted filter serialises back to the same bytes; an untouched filter
   loads and finds every key it was built from; an accepted filter takes
   inserts and deletes of a few keys and gives its count back. */
#include "fuzz_common.h"

/* The checksum of a filter file: FNV-1a over header bytes 0..63 and the
   payload, stored little-endian at offset 64. */
static void fuzz_fix_checksum(uint8_t *b, size_t len) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i;
  int s;
  if (len < 72) return;
  for (i = 0; i < len; ++i)
    if (i < 64 || i >= 72) h = (h ^ b[i]) * 0x100000001b3ull;
  for (s = 0; s < 8; ++s) b[64 + s] = (uint8_t)(h >> (8 * s));
}

/* A few inserts and deletes on an accepted filter leave its count as it was. */
static void fuzz_exercise(gamq_qf *f, const uint8_t *data, size_t size) {
  uint32_t keys[4];
  uint8_t found[4];
  uint64_t before = 0, after = 0, deleted = 0;
  size_t i;
  gamq_status st;
  for (i = 0; i < 4; ++i) keys[i] = (uint32_t)(size > i ? data[i] : i) * 2654435761u;
  FUZZ_CHECK(gamq_qf_count(f, &before) == GAMQ_SUCCESS);
  st = gamq_qf_insert_u32(f, keys, 4);
  FUZZ_CHECK(st == GAMQ_SUCCESS || st == GAMQ_ERROR_FULL);
  if (st != GAMQ_SUCCESS) return;
  FUZZ_CHECK(gamq_qf_lookup_u32(f, keys, 4, found) == GAMQ_SUCCESS);
  for (i = 0; i < 4; ++i) FUZZ_CHECK(found[i]); /* no false negatives */
  FUZZ_CHECK(gamq_qf_delete_u32(f, keys, 4, &deleted) == GAMQ_SUCCESS && deleted == 4);
  FUZZ_CHECK(gamq_qf_count(f, &after) == GAMQ_SUCCESS && after == before);
}

/* Load (memory or file), check, and on success compare the round trip. */
static gamq_qf *fuzz_load(const uint8_t *buf, size_t len, int via_file) {
  gamq_qf_desc d;
  gamq_qf *f = (gamq_qf *)(uintptr_t)0x1234, *const untouched = f;
  gamq_status st;
  uint8_t *back;
  size_t n = 0;
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  if (via_file) {
    const char *path = fuzz_temp_path(".qf");
    if (!fuzz_write_file(path, buf, len)) return NULL;
    st = gamq_qf_load(&d, path, &f);
    unlink(path);
  } else {
    st = gamq_qf_deserialize(&d, len ? buf : NULL, len, &f);
  }
  if (st != GAMQ_SUCCESS) {
    FUZZ_CHECK(st == GAMQ_ERROR_BAD_FILE || (via_file && st == GAMQ_ERROR_IO) ||
               (!via_file && len == 0 && st == GAMQ_ERROR_INVALID_ARGUMENT));
    FUZZ_CHECK(f == untouched);
    return NULL;
  }
  FUZZ_CHECK(gamq_qf_serialize(f, NULL, &n) == GAMQ_SUCCESS && n == len);
  back = (uint8_t *)malloc(n);
  FUZZ_CHECK(back != NULL);
  FUZZ_CHECK(gamq_qf_serialize(f, back, &n) == GAMQ_SUCCESS && n == len);
  FUZZ_CHECK(memcmp(back, buf, len) == 0);
  free(back);
  return f;
}

/* A valid filter from the input, serialised into *buf (malloc'd). */
static size_t fuzz_structured(const uint8_t *data, size_t size, uint8_t **buf, uint32_t *keys, size_t *nkeys) {
  static const int sqf_r[4] = {5, 13, 21, 29};
  gamq_qf_desc d;
  gamq_qf *f = NULL;
  size_t i, n = 0;
  uint8_t shape = size > 0 ? data[0] : 0, rb = size > 1 ? data[1] : 0;
  int rsqf = shape & 1, q = 1 + (shape >> 1) % 6, r = rsqf ? 1 + rb % 32 : sqf_r[rb % 4];
  memset(&d, 0, sizeof d);
  d.backend = GAMQ_BACKEND_HOST;
  d.seed = shape >> 4;
  d.layout = rsqf && (rb & 0x80) ? GAMQ_QF_LAYOUT_PACKED : GAMQ_QF_LAYOUT_ALIGNED;
  if (gamq_qf_create(&d, rsqf ? GAMQ_QF_RSQF : GAMQ_QF_SQF, q, r, &f) != GAMQ_SUCCESS) return 0;
  *nkeys = 0;
  for (i = 2; i + 1 < size && *nkeys < 64 && *nkeys < (size_t)1 << q; i += 2)
    keys[(*nkeys)++] = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8;
  if (gamq_qf_build_u32(f, keys, *nkeys) != GAMQ_SUCCESS) *nkeys = 0; /* FULL: the empty filter */
  FUZZ_CHECK(gamq_qf_serialize(f, NULL, &n) == GAMQ_SUCCESS);
  *buf = (uint8_t *)malloc(n);
  FUZZ_CHECK(*buf != NULL && gamq_qf_serialize(f, *buf, &n) == GAMQ_SUCCESS);
  gamq_qf_destroy(f);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t ctl, *buf = NULL;
  uint32_t keys[64];
  uint8_t found[64];
  size_t len, nkeys = 0, i, flips = 0;
  gamq_qf *f;
  if (size < 1) return 0;
  ctl = data[0];
  ++data, --size;
  if ((ctl & 2) == 0) { /* raw */
    buf = (uint8_t *)malloc(size + (size == 0));
    FUZZ_CHECK(buf != NULL);
    memcpy(buf, data, size);
    len = size;
    if (ctl & 4) fuzz_fix_checksum(buf, len);
  } else { /* structured: the shape and keys first, flips (2 bytes of position, 1 of mask) last */
    size_t tail = (ctl >> 3 & 7) * 3, head = size > tail ? size - tail : 0;
    len = fuzz_structured(data, head, &buf, keys, &nkeys);
    if (len == 0) return 0;
    for (i = head; i + 2 < size; i += 3, ++flips) buf[((size_t)data[i] << 8 | data[i + 1]) % len] ^= data[i + 2];
    if (ctl & 4) fuzz_fix_checksum(buf, len);
  }
  f = fuzz_load(buf, len, ctl & 1);
  if ((ctl & 2) && flips == 0) { /* untouched: loads, finds its keys */
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(gamq_qf_lookup_u32(f, keys, nkeys, found) == GAMQ_SUCCESS);
    for (i = 0; i < nkeys; ++i) FUZZ_CHECK(found[i]);
  }
  if (f != NULL) {
    fuzz_exercise(f, data, size);
    gamq_qf_destroy(f);
  }
  free(buf);
  return 0;
}
