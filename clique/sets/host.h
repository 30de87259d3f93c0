/* clique/sets/host.h - set intersection on the host: the collections
   (checks, builders, readers, generators), the options, the HOST backend
   (the two-pointer merge), the sink that keeps what a call returns, and
   the host half of MMJoin's light/heavy split (index, heavy part, light
   counts). Host code in the common subset of C99 and C++; AUTO's rules and
   the plan are clique/sets/choose.h, the CUDA backend clique/sets/cuda.cuh,
   the public calls clique/sets/api.h. */
/* ---------------------------------------------------------------------------
   Set collections: checks, builders, readers, generators.

   Host code only, in the common subset of C99 and C++. A collection is CSR
   (gclq_sets above); every builder ends in gclq__sets_check, so nothing
   reaches a caller unchecked. The readers take memory in proportion to the
   input: the text reader grows its arrays as numbers arrive, the binary
   reader checks the header's sizes against the input's length first.
   ------------------------------------------------------------------------- */

static gclq_status gclq__sets_fail(gclq_sets_error *err, gclq_status st, uint64_t set, uint64_t line,
                                   uint64_t offset, const char *message) {
  if (err != NULL) {
    err->set = set;
    err->line = line;
    err->byte_offset = offset;
    snprintf(err->message, sizeof err->message, "%s", message);
  }
  return st;
}

static void gclq__sets_error_clear(gclq_sets_error *err) {
  if (err == NULL) return;
  err->set = UINT64_MAX;
  err->line = 0;
  err->byte_offset = 0;
  err->message[0] = '\0';
}

/* The CSR invariants: offsets from 0, non-decreasing, ending at total; each
   set strictly increasing, below universe, at most 2^32 - 1 elements. */
static gclq_status gclq__sets_check(const gclq_sets *s, gclq_sets_error *err) {
  uint32_t i;
  char msg[128];
  if (s->h_offsets == NULL && (s->num_sets > 0 || s->total > 0)) /* k = 0 may have no offsets */
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL offsets");
  if (s->h_offsets != NULL && (s->h_offsets[0] != 0 || s->h_offsets[s->num_sets] != s->total))
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "offsets do not run from 0 to total");
  if (s->total > 0 && s->h_elements == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL elements");
  for (i = 0; i < s->num_sets; ++i) {
    uint64_t e, begin = s->h_offsets[i], end = s->h_offsets[i + 1];
    if (end < begin || end > s->total)
      return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, i, 0, 0, "offsets decrease");
    if (end - begin > 0xffffffffull)
      return gclq__sets_fail(err, GCLQ_ERROR_TOO_LARGE, i, 0, 0, "a set of more than 2^32 - 1 elements");
    for (e = begin; e < end; ++e) {
      uint32_t x = s->h_elements[e];
      if (e > begin && s->h_elements[e - 1] >= x) {
        snprintf(msg, sizeof msg, "set %u: element %u does not follow %u (sets are strictly increasing)", i, x,
                 s->h_elements[e - 1]);
        return gclq__sets_fail(err, GCLQ_ERROR_UNSORTED_SET, i, 0, 0, msg);
      }
      if ((uint64_t)x >= s->universe) {
        snprintf(msg, sizeof msg, "set %u: element %u is not below the universe %llu", i, x,
                 (unsigned long long)s->universe);
        return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, i, 0, 0, msg);
      }
    }
  }
  return GCLQ_SUCCESS;
}

/* 1 + the largest element (0 for no elements). */
static uint64_t gclq__sets_span(const uint32_t *elements, uint64_t total) {
  uint64_t e, top = 0;
  for (e = 0; e < total; ++e)
    if ((uint64_t)elements[e] + 1 > top) top = (uint64_t)elements[e] + 1;
  return top;
}

GCLQ_DEF gclq_status gclq_sets_validate(const gclq_sets *sets, gclq_sets_error *err) {
  gclq__sets_error_clear(err);
  if (sets == NULL) return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  return gclq__sets_check(sets, err);
}

GCLQ_DEF void gclq_sets_free(gclq_sets *sets) {
  if (sets == NULL) return;
  if (!sets->is_view) {
    GCLQ_FREE(sets->h_offsets);
    GCLQ_FREE(sets->h_elements);
  }
  memset(sets, 0, sizeof *sets);
}

/* Take ownership of built arrays, check them; on failure free them and zero
   *sets. universe 0: the largest element + 1. */
static gclq_status gclq__sets_adopt(uint32_t k, uint64_t *offsets, uint32_t *elements, uint64_t universe,
                                    gclq_sets *sets, gclq_sets_error *err) {
  gclq_status st;
  uint64_t span;
  sets->num_sets = k;
  sets->h_offsets = offsets;
  sets->h_elements = elements;
  sets->total = offsets[k];
  sets->is_view = 0;
  span = gclq__sets_span(elements, sets->total);
  sets->universe = universe > span ? universe : span;
  st = gclq__sets_check(sets, err);
  if (st != GCLQ_SUCCESS) gclq_sets_free(sets);
  return st;
}

GCLQ_DEF gclq_status gclq_sets_from_arrays(uint32_t num_sets, const uint64_t *h_offsets, const uint32_t *h_elements,
                                           uint64_t universe, gclq_sets *sets, gclq_sets_error *err) {
  uint64_t *offsets;
  uint32_t *elements;
  uint64_t total;
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL || h_offsets == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  total = h_offsets[num_sets];
  if (total > 0 && h_elements == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL elements");
  if (universe != 0 && total > 0 && gclq__sets_span(h_elements, total) > universe)
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "an element is not below the universe");
  offsets = (uint64_t *)gclq__alloc_array((uint64_t)num_sets + 1, sizeof(uint64_t));
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  if (offsets == NULL || elements == NULL) {
    GCLQ_FREE(offsets);
    GCLQ_FREE(elements);
    return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, 0, 0, "out of memory");
  }
  memcpy(offsets, h_offsets, ((size_t)num_sets + 1) * sizeof(uint64_t));
  if (total > 0) memcpy(elements, h_elements, (size_t)total * sizeof(uint32_t));
  return gclq__sets_adopt(num_sets, offsets, elements, universe, sets, err);
}

GCLQ_DEF gclq_status gclq_sets_from_graph(const gclq_graph *graph, gclq_sets *sets) {
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (graph == NULL || sets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__host_graph_ok(graph)) return GCLQ_ERROR_INVALID_ARGUMENT; /* the shape; sets need no symmetry */
  sets->num_sets = graph->num_vertices;
  sets->universe = graph->num_vertices;
  sets->total = graph->num_vertices ? graph->h_offsets[graph->num_vertices] : 0;
  sets->h_offsets = graph->h_offsets;
  sets->h_elements = graph->h_neighbors;
  sets->is_view = 1;
  return GCLQ_SUCCESS;
}

/* One line of the text format into elements; *empty says whether it held
   no number (a blank or comment line). */
static gclq_status gclq__sets_text_line(const char *p, const char *le, uint64_t line, uint64_t set,
                                        gclq__vec32 *elements, int *empty, gclq_sets_error *err) {
  size_t first = elements->n;
  char msg[128];
  *empty = 1;
  for (;;) {
    uint64_t x = 0;
    int r;
    p = gclq__skip_space(p, le);
    if (p == le || *p == '#') return GCLQ_SUCCESS;
    r = gclq__read_u64(&p, le, &x);
    if (r == GCLQ__NUM_OK && x > 0xffffffffull) r = GCLQ__NUM_OVERFLOW;
    if (r != GCLQ__NUM_OK) {
      snprintf(msg, sizeof msg, "%s", r == GCLQ__NUM_OVERFLOW ? "an element above 2^32 - 1"
                                      : r == GCLQ__NUM_NEGATIVE ? "a negative element"
                                                                : "an element that is not a decimal number");
      return gclq__sets_fail(err, GCLQ_ERROR_PARSE, set, line, 0, msg);
    }
    if (elements->n > first && elements->a[elements->n - 1] >= (uint32_t)x) {
      snprintf(msg, sizeof msg, "element %llu does not follow %u (sets are strictly increasing)",
               (unsigned long long)x, elements->a[elements->n - 1]);
      return gclq__sets_fail(err, GCLQ_ERROR_UNSORTED_SET, set, line, 0, msg);
    }
    if (!gclq__vec32_push(elements, (uint32_t)x))
      return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, set, line, 0, "out of memory");
    *empty = 0;
  }
}

GCLQ_DEF gclq_status gclq_sets_parse_text(const char *text, size_t len, gclq_sets *sets, gclq_sets_error *err) {
  gclq__lines it;
  gclq__vec32 elements = {NULL, 0, 0};
  gclq__vec64 offsets;
  const char *ls, *le;
  gclq_status st = GCLQ_SUCCESS;
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL || (text == NULL && len > 0))
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  if (len == 0) text = ""; /* (NULL, 0) is empty input: no arithmetic on a null pointer */
  gclq__vec64_init(&offsets);
  it.p = text;
  it.end = text + len;
  it.line = 0;
  if (!gclq__vec64_push(&offsets, 0)) st = GCLQ_ERROR_OUT_OF_MEMORY;
  while (st == GCLQ_SUCCESS && gclq__next_line(&it, &ls, &le)) {
    int empty = 1;
    st = gclq__sets_text_line(ls, le, it.line, offsets.n - 1, &elements, &empty, err);
    if (st == GCLQ_SUCCESS && !empty && offsets.n > 0xffffffffull)
      st = gclq__sets_fail(err, GCLQ_ERROR_TOO_LARGE, UINT64_MAX, it.line, 0, "more than 2^32 - 1 sets");
    if (st == GCLQ_SUCCESS && !empty && !gclq__vec64_push(&offsets, elements.n))
      st = gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, it.line, 0, "out of memory");
  }
  if (st != GCLQ_SUCCESS) {
    if (st == GCLQ_ERROR_OUT_OF_MEMORY && err != NULL && err->message[0] == '\0')
      gclq__sets_fail(err, st, UINT64_MAX, 0, 0, "out of memory");
    GCLQ_FREE(offsets.a);
    GCLQ_FREE(elements.a);
    return st;
  }
  return gclq__sets_adopt((uint32_t)(offsets.n - 1), offsets.a, elements.a, 0, sets, err);
}

/* Little-endian words of the binary format, from any byte order and alignment. */
static uint32_t gclq__le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t gclq__le64(const unsigned char *p) { return (uint64_t)gclq__le32(p) | (uint64_t)gclq__le32(p + 4) << 32; }

/* The binary header and sizes against the input's length; no allocation.
   b is read only when len reaches the header's 16 bytes, so (NULL, 0) is
   empty input, cut short. */
static gclq_status gclq__sets_binary_header(const unsigned char *b, size_t len, uint32_t *k, uint32_t *universe,
                                            uint64_t *total, gclq_sets_error *err) {
  uint64_t i, sum = 0;
  char msg[128];
  if (len < 16) return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, len, "the 16-byte header is cut short");
  *k = gclq__le32(b);
  *universe = gclq__le32(b + 4);
  *total = gclq__le64(b + 8);
  if ((uint64_t)*k * 4 > (uint64_t)len - 16)
    return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, 0, "k sizes do not fit in the input");
  if (*total > ((uint64_t)len - 16 - (uint64_t)*k * 4) / 4 ||
      16 + (uint64_t)*k * 4 + *total * 4 != (uint64_t)len) {
    snprintf(msg, sizeof msg, "total %llu elements and k %u sizes do not match the input's %llu bytes",
             (unsigned long long)*total, *k, (unsigned long long)len);
    return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, 8, msg);
  }
  for (i = 0; i < *k; ++i) sum += gclq__le32(b + 16 + 4 * i);
  if (sum != *total) {
    snprintf(msg, sizeof msg, "the sizes add up to %llu, the header says %llu", (unsigned long long)sum,
             (unsigned long long)*total);
    return gclq__sets_fail(err, GCLQ_ERROR_PARSE, UINT64_MAX, 0, 16, msg);
  }
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_sets_parse_binary(const void *data, size_t len, gclq_sets *sets, gclq_sets_error *err) {
  const unsigned char *b = (const unsigned char *)data;
  uint32_t k = 0, universe = 0, i;
  uint64_t total = 0, e, pos, *offsets;
  uint32_t *elements;
  gclq_status st;
  char msg[128];
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL || (data == NULL && len > 0))
    return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  st = gclq__sets_binary_header(b, len, &k, &universe, &total, err);
  if (st != GCLQ_SUCCESS) return st;
  offsets = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t));
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  if (offsets == NULL || elements == NULL) {
    GCLQ_FREE(offsets);
    GCLQ_FREE(elements);
    return gclq__sets_fail(err, GCLQ_ERROR_OUT_OF_MEMORY, UINT64_MAX, 0, 0, "out of memory");
  }
  offsets[0] = 0;
  pos = 16 + (uint64_t)k * 4;
  for (i = 0, e = 0; i < k; ++i) {
    uint64_t end = e + gclq__le32(b + 16 + 4 * (uint64_t)i);
    offsets[i + 1] = end;
    for (; e < end; ++e, pos += 4) {
      elements[e] = gclq__le32(b + pos);
      if (e > offsets[i] && elements[e - 1] >= elements[e]) {
        snprintf(msg, sizeof msg, "set %u: element %u does not follow %u (sets are strictly increasing)", i,
                 elements[e], elements[e - 1]);
        GCLQ_FREE(offsets);
        GCLQ_FREE(elements);
        return gclq__sets_fail(err, GCLQ_ERROR_UNSORTED_SET, i, 0, pos, msg);
      }
    }
  }
  return gclq__sets_adopt(k, offsets, elements, universe, sets, err);
}

/* A whole file into memory, its size from the file system (fseek, ftell).
   The first byte is read before the file is measured or anything is
   allocated: a directory, which fopen opens on POSIX systems and ftell
   measures as up to 2^63 bytes, fails that read and is GCLQ_ERROR_IO, as in
   the graph loader. A file that cannot be measured (a pipe) or that holds
   more than its measured size (a device such as /dev/zero, which measures
   0) is GCLQ_ERROR_IO too. An empty file takes no buffer (*data stays NULL). */
static gclq_status gclq__sets_read_file(const char *path, char **data, size_t *len, gclq_sets_error *err) {
  FILE *f;
  long size = 0;
  char first;
  size_t got;
  const char *why = NULL;
  char reason[128];
  gclq_status st = GCLQ_ERROR_IO;
  *data = NULL;
  *len = 0;
  if (path == NULL) return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  f = fopen(path, "rb");
  if (f == NULL)
    return gclq__sets_fail(err, GCLQ_ERROR_IO, UINT64_MAX, 0, 0,
                           gclq__os_why(reason, sizeof reason, "cannot open the file", errno));
  got = fread(&first, 1, 1, f);
  if (ferror(f)) { /* a directory: "Is a directory" */
    why = gclq__os_why(reason, sizeof reason, "cannot read the file", errno);
  } else if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    why = "cannot measure the file (not a regular file?)";
  } else if ((size_t)size < got) {
    why = "the file holds more than its size (not a regular file?)";
  } else if (size > 0 && (*data = (char *)GCLQ_MALLOC((size_t)size)) == NULL) {
    why = "out of memory reading the file";
    st = GCLQ_ERROR_OUT_OF_MEMORY;
  } else if (size > 0 && fread(*data, 1, (size_t)size, f) != (size_t)size) {
    why = gclq__os_why(reason, sizeof reason, "cannot read the file", ferror(f) ? errno : 0);
  } else if (fgetc(f) != EOF) {
    why = "the file holds more than its size (not a regular file?)";
  }
  fclose(f);
  if (why != NULL) {
    GCLQ_FREE(*data);
    *data = NULL;
    return gclq__sets_fail(err, st, UINT64_MAX, 0, 0, why);
  }
  *len = (size_t)size;
  return GCLQ_SUCCESS;
}

/* A file through one of the two parsers. */
static gclq_status gclq__sets_load(const char *path, int binary, gclq_sets *sets, gclq_sets_error *err) {
  char *data;
  size_t len;
  gclq_status st;
  gclq__sets_error_clear(err);
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (sets == NULL) return gclq__sets_fail(err, GCLQ_ERROR_INVALID_ARGUMENT, UINT64_MAX, 0, 0, "NULL argument");
  st = gclq__sets_read_file(path, &data, &len, err);
  if (st != GCLQ_SUCCESS) return st;
  st = binary ? gclq_sets_parse_binary(data, len, sets, err) : gclq_sets_parse_text(data, len, sets, err);
  GCLQ_FREE(data);
  return st;
}

GCLQ_DEF gclq_status gclq_sets_load_text(const char *path, gclq_sets *sets, gclq_sets_error *err) {
  return gclq__sets_load(path, 0, sets, err);
}

GCLQ_DEF gclq_status gclq_sets_load_binary(const char *path, gclq_sets *sets, gclq_sets_error *err) {
  return gclq__sets_load(path, 1, sets, err);
}

static int gclq__put32(FILE *f, uint32_t x) {
  unsigned char b[4];
  b[0] = (unsigned char)x;
  b[1] = (unsigned char)(x >> 8);
  b[2] = (unsigned char)(x >> 16);
  b[3] = (unsigned char)(x >> 24);
  return fwrite(b, 1, 4, f) == 4;
}

GCLQ_DEF gclq_status gclq_sets_save_binary(const gclq_sets *sets, const char *path) {
  FILE *f;
  uint64_t e;
  uint32_t i;
  int ok;
  if (sets == NULL || path == NULL || gclq__sets_check(sets, NULL) != GCLQ_SUCCESS) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (sets->universe > 0xffffffffull) return GCLQ_ERROR_TOO_LARGE;
  f = fopen(path, "wb");
  if (f == NULL) return GCLQ_ERROR_IO;
  ok = gclq__put32(f, sets->num_sets) && gclq__put32(f, (uint32_t)sets->universe) &&
       gclq__put32(f, (uint32_t)sets->total) && gclq__put32(f, (uint32_t)(sets->total >> 32));
  for (i = 0; ok && i < sets->num_sets; ++i) ok = gclq__put32(f, (uint32_t)(sets->h_offsets[i + 1] - sets->h_offsets[i]));
  for (e = 0; ok && e < sets->total; ++e) ok = gclq__put32(f, sets->h_elements[e]);
  if (fclose(f) != 0) ok = 0;
  return ok ? GCLQ_SUCCESS : GCLQ_ERROR_IO;
}

/* ---- generators ---- */

/* e^x for x in [0, 23] (the generators' zipf draw): 2^k e^r, |r| < log 2,
   e^r by its series; our own, so a seed gives the same sets whatever the C
   library. */
static double gclq__exp(double x) {
  const double ln2 = 0.6931471805599453;
  int k = (int)(x / ln2), i;
  double r = x - k * ln2, term = 1.0, sum = 1.0;
  for (i = 1; i <= 24; ++i) {
    term *= r / i;
    sum += term;
  }
  return sum * (double)((uint64_t)1 << k);
}

/* One draw from the distribution over [0, U) (see gclq_sets_gen). */
static uint32_t gclq__sets_draw(gclq_sets_dist dist, uint64_t universe, double log_u1, uint64_t *state) {
  if (dist == GCLQ_SETS_NORMAL) {
    for (;;) {
      double z = -6.0, v;
      int i;
      for (i = 0; i < 12; ++i) z += gclq__uniform01(state);
      v = (double)universe / 2.0 + (double)universe / 8.0 * z + 0.5;
      if (v >= 0.0 && v < (double)universe) return (uint32_t)v;
    }
  }
  if (dist == GCLQ_SETS_ZIPF) {
    double v = gclq__exp(gclq__uniform01(state) * log_u1) - 1.0;
    if (v < 0.0) v = 0.0;
    if (v > (double)(universe - 1)) v = (double)(universe - 1);
    return (uint32_t)v;
  }
  return (uint32_t)(gclq__splitmix64(state) % universe);
}

/* One set of `size` distinct draws (fewer after 64 rounds), sorted, into
   out; *got its size. Each round draws what is missing, sorts only the new
   draws and merges them in (buf and tmp hold size words each). */
static gclq_status gclq__sets_gen_one(const gclq_sets_gen *g, uint64_t size, double log_u1, uint64_t *state,
                                      uint64_t *buf, uint64_t *tmp, uint32_t *out, uint64_t *got) {
  size_t have = 0, fresh, e, i, j, k;
  int round;
  for (round = 0; round < 64 && have < size; ++round) {
    gclq_status st;
    for (e = have; e < size; ++e) buf[e] = gclq__sets_draw(g->dist, g->universe, log_u1, state);
    st = gclq__sort_unique_u64(buf + have, (size_t)size - have, &fresh);
    if (st != GCLQ_SUCCESS) return st;
    /* merge the sorted buf[0, have) and buf[have, have + fresh), dropping repeats */
    for (i = 0, j = have, k = 0; i < have || j < have + fresh;) {
      uint64_t x = j == have + fresh || (i < have && buf[i] <= buf[j]) ? buf[i++] : buf[j++];
      if (k == 0 || tmp[k - 1] != x) tmp[k++] = x;
    }
    memcpy(buf, tmp, k * sizeof *buf);
    have = k;
  }
  for (e = 0; e < have; ++e) out[e] = (uint32_t)buf[e];
  *got = have;
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_sets_generate(const gclq_sets_gen *gen, gclq_sets *sets) {
  uint64_t state, i, total = 0, biggest = 0, *sizes, *offsets, *buf, *tmp;
  uint32_t *elements;
  double log_u1;
  gclq_status st = GCLQ_SUCCESS;
  if (sets != NULL) memset(sets, 0, sizeof *sets);
  if (gen == NULL || sets == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  if ((int)gen->dist < 0 || (int)gen->dist > (int)GCLQ_SETS_ZIPF) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (gen->universe < 1 || gen->universe > ((uint64_t)1 << 32) || gen->avg_size > gen->universe)
    return GCLQ_ERROR_INVALID_ARGUMENT;
  state = gclq__seed_state(gen->seed);
  log_u1 = gclq__log(1.0 / ((double)gen->universe + 1.0)) * -1.0; /* log(U + 1) */
  sizes = (uint64_t *)gclq__alloc_array(gen->num_sets, sizeof(uint64_t));
  if (sizes == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < gen->num_sets; ++i) { /* sizes first: the elements array is taken once */
    uint64_t lo = gen->avg_size - gen->avg_size / 2, hi = gen->avg_size + gen->avg_size / 2;
    uint64_t s = gen->fixed_size ? gen->avg_size : lo + gclq__splitmix64(&state) % (hi - lo + 1);
    sizes[i] = s < gen->universe ? s : gen->universe;
    total += sizes[i];
    if (sizes[i] > biggest) biggest = sizes[i];
  }
  offsets = (uint64_t *)gclq__alloc_array((uint64_t)gen->num_sets + 1, sizeof(uint64_t));
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  buf = (uint64_t *)gclq__alloc_array(biggest, sizeof(uint64_t));
  tmp = (uint64_t *)gclq__alloc_array(biggest, sizeof(uint64_t));
  if (offsets == NULL || elements == NULL || buf == NULL || tmp == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) offsets[0] = 0;
  for (i = 0; st == GCLQ_SUCCESS && i < gen->num_sets; ++i) {
    uint64_t got = 0;
    st = gclq__sets_gen_one(gen, sizes[i], log_u1, &state, buf, tmp, elements + offsets[i], &got);
    offsets[i + 1] = offsets[i] + got;
  }
  GCLQ_FREE(sizes);
  GCLQ_FREE(buf);
  GCLQ_FREE(tmp);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(offsets);
    GCLQ_FREE(elements);
    return st;
  }
  return gclq__sets_adopt(gen->num_sets, offsets, elements, gen->universe, sets, NULL);
}

/* ---------------------------------------------------------------------------
   Intersections: options, the host backend, the public calls.

   Every call is a stream of batches of pairs (i, j): the pairs given, or all
   pairs i < j in row order, GCLQ__SETS_BATCH pairs at a time. A backend
   counts (and, asked, writes) each batch; a sink per call keeps what the
   call returns (the counts in place, the pairs at or above a threshold, the
   containments in both directions). The CUDA backend cuts a batch further
   to its device memory budget; no answer depends on either cut.
   ------------------------------------------------------------------------- */
#define GCLQ__SETS_BATCH ((uint64_t)1 << 22)

GCLQ_DEF void gclq_intersect_options_defaults(gclq_intersect_options *options) {
  if (options == NULL) return;
  memset(options, 0, sizeof *options);
  options->backend = GCLQ_BACKEND_AUTO;
  options->method = GCLQ_INTERSECT_AUTO;
  options->min_count = 1;
  options->min_containment = 1.0;
  options->max_pairs = GCLQ_SETS_MAX_PAIRS;
}

GCLQ_DEF const char *gclq_intersect_method_name(gclq_intersect_method method) {
  switch (method) {
    case GCLQ_INTERSECT_AUTO: return "auto";
    case GCLQ_INTERSECT_MERGE_PATH: return "merge-path";
    case GCLQ_INTERSECT_BINARY_SEARCH: return "binary-search";
    case GCLQ_INTERSECT_SERIAL_MERGE: return "serial-merge";
    case GCLQ_INTERSECT_HASH: return "hash";
    case GCLQ_INTERSECT_BITMAP: return "bitmap";
    case GCLQ_INTERSECT_BITMAP_DYNAMIC: return "bitmap-dynamic";
    case GCLQ_INTERSECT_IP_OBS: return "ip-obs";
    case GCLQ_INTERSECT_IP_HASH: return "ip-hash";
    case GCLQ_INTERSECT_INVERTED_INDEX: return "inverted-index";
    case GCLQ_INTERSECT_BIT_MATRIX: return "bit-matrix";
    default: return "unknown";
  }
}

GCLQ_DEF void gclq_intersect_result_free(gclq_intersect_result *result) {
  if (result == NULL) return;
  GCLQ_FREE(result->h_counts);
  GCLQ_FREE(result->h_pairs);
  GCLQ_FREE(result->h_offsets);
  GCLQ_FREE(result->h_elements);
  memset(result, 0, sizeof *result);
}

/* Do the methods INVERTED_INDEX and BIT_MATRIX, all pairs at once, name m? */
static int gclq__sets_whole(gclq_intersect_method m) {
  return m == GCLQ_INTERSECT_INVERTED_INDEX || m == GCLQ_INTERSECT_BIT_MATRIX;
}

/* Is m one of gclq_intersect_method's values? */
static int gclq__sets_method_known(gclq_intersect_method m) {
  return ((int)m >= 0 && (int)m <= (int)GCLQ_INTERSECT_IP_HASH) || gclq__sets_whole(m);
}

/* Options (NULL: defaults) with every default filled in; out of range is invalid. */
static gclq_status gclq__sets_resolve(const gclq_intersect_options *o, gclq_intersect_options *r) {
  gclq_intersect_options_defaults(r);
  if (o == NULL) return GCLQ_SUCCESS;
  if ((int)o->backend < 0 || (int)o->backend > (int)GCLQ_BACKEND_HOST) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!gclq__sets_method_known(o->method)) return GCLQ_ERROR_INVALID_ARGUMENT;
  if (!(o->min_containment >= 0.0 && o->min_containment <= 1.0)) return GCLQ_ERROR_INVALID_ARGUMENT; /* NaN too */
  if (o->allocator.alloc != NULL && o->allocator.free == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  *r = *o;
  if (r->min_count == 0) r->min_count = 1;
  if (r->min_containment == 0.0) r->min_containment = 1.0;
  if (r->max_pairs == 0) r->max_pairs = GCLQ_SETS_MAX_PAIRS;
  return GCLQ_SUCCESS;
}

/* ---- the host backend: the two-pointer merge, pair by pair ---- */

static uint32_t gclq__sets_size(const gclq_sets *s, uint32_t i) {
  return (uint32_t)(s->h_offsets[i + 1] - s->h_offsets[i]);
}

/* Counts of n pairs; with elements (room for the sum of the smaller sizes)
   the intersections too, at offsets[p] (n + 1 entries). */
static void gclq__host_sets_batch(const gclq_sets *s, const uint32_t *pairs, uint64_t n, uint32_t *counts,
                                  uint64_t *offsets, uint32_t *elements) {
  uint64_t p, at = 0;
  for (p = 0; p < n; ++p) {
    uint32_t i = pairs[2 * p], j = pairs[2 * p + 1];
    /* no elements at all: h_elements may be NULL (a graph view without edges) */
    const uint32_t *a = s->total ? s->h_elements + s->h_offsets[i] : s->h_elements;
    const uint32_t *b = s->total ? s->h_elements + s->h_offsets[j] : s->h_elements;
    counts[p] = gclq__host_intersect(a, gclq__sets_size(s, i), b, gclq__sets_size(s, j),
                                     elements ? elements + at : NULL);
    if (offsets) offsets[p] = at;
    at += counts[p];
  }
  if (offsets) offsets[n] = at;
}

/* ---- the run: backend, batches, sinks ---- */

/* MMJoin's light/heavy split of one containment join (host side; see
   gclq_intersect_options.split_below). The inverted index: value r of
   `runs` (ascending) is in the sets sv[start[r] .. start[r + 1]),
   ascending. heavy: every set cut down to its heavy values, value r of the
   heavy ones renumbered to its rank among them. The light counts, row by
   row: pair (i, j), i < j, shares cnt.a[x] light values for each x in
   [row[i], row[i + 1]) with col.a[x] = j (in no order within a row); a
   pair not listed shares none. dense and at: the sink's view, row at's
   light counts spread over k entries (0 elsewhere). */
typedef struct gclq__mmjoin {
  uint64_t below;                 /* light: in fewer than this many sets */
  uint64_t runs;
  uint64_t *start;                /* runs + 1 */
  uint32_t *sv;                   /* total */
  gclq_sets heavy;
  uint64_t light_values, heavy_values, increments;
  uint64_t *row;                  /* k + 1 */
  gclq__vec32 col, cnt;
  gclq_status status;             /* the light part's */
  uint32_t *dense;                /* k */
  uint64_t at;                    /* UINT64_MAX: no row spread */
} gclq__mmjoin;

/* What a call keeps of each batch. */
typedef struct gclq__sets_sink {
  int kind;                  /* GCLQ__SINK_* */
  const gclq_sets *sets;     /* the call's collection: the sink's sizes */
  const gclq_sets *work;     /* the collection the backend counts: sets, or the split's heavy part */
  gclq__mmjoin *light;       /* containment with the split: the light counts to add; NULL: none */
  gclq_status (*wait)(void *user); /* CUDA's split: wait for the light counts before the first use */
  void *wait_user;
  const gclq_intersect_options *opt;
  gclq_intersect_result *r;
  uint64_t done;             /* pairs taken so far */
  gclq__vec32 pairs, counts, elements;
  gclq__vec64 keys;          /* containment: (i << 32 | j) */
} gclq__sets_sink;
enum { GCLQ__SINK_LIST = 0, GCLQ__SINK_SPARSE = 1, GCLQ__SINK_CONTAIN = 2 };

/* Does |s_i & s_j| = count make s_i (of size ni) contained at the threshold? */
static int gclq__sets_contained(uint32_t count, uint32_t ni, double t) { return (double)count >= t * (double)ni; }

/* The light count of pair (i, j), i < j: row i spread over dense first
   (the pairs come row by row, so each row is spread once). */
static uint32_t gclq__mmjoin_light_count(gclq__mmjoin *m, uint32_t i, uint32_t j) {
  uint64_t x;
  if (m->at != i) {
    if (m->at != UINT64_MAX)
      for (x = m->row[m->at]; x < m->row[m->at + 1]; ++x) m->dense[m->col.a[x]] = 0;
    for (x = m->row[i]; x < m->row[i + 1]; ++x) m->dense[m->col.a[x]] = m->cnt.a[x];
    m->at = i;
  }
  return m->dense[j];
}

static gclq_status gclq__sets_take(gclq__sets_sink *k, const uint32_t *pairs, const uint32_t *counts, uint64_t n,
                                   const uint64_t *offsets, const uint32_t *elements) {
  uint64_t p, e;
  if (k->light != NULL && k->wait != NULL) { /* the light part's thread, joined once */
    gclq_status (*wait)(void *) = k->wait, ws;
    k->wait = NULL;
    ws = wait(k->wait_user);
    if (ws != GCLQ_SUCCESS) return ws;
  }
  if (k->light != NULL && k->light->status != GCLQ_SUCCESS) return k->light->status;
  for (p = 0; p < n; ++p) {
    uint32_t i = pairs[2 * p], j = pairs[2 * p + 1], c = counts[p];
    int ok = 1;
    if (k->light != NULL) c += gclq__mmjoin_light_count(k->light, i, j); /* heavy + light: the whole count */
    if (k->kind == GCLQ__SINK_LIST) {
      k->r->h_counts[k->done + p] = c;
    } else if (k->kind == GCLQ__SINK_SPARSE) {
      if (c >= k->opt->min_count)
        ok = gclq__vec32_push(&k->pairs, i) && gclq__vec32_push(&k->pairs, j) && gclq__vec32_push(&k->counts, c);
    } else {
      if (gclq__sets_contained(c, gclq__sets_size(k->sets, i), k->opt->min_containment))
        ok = gclq__vec64_push(&k->keys, (uint64_t)i << 32 | j) && gclq__vec32_push(&k->counts, c);
      if (ok && gclq__sets_contained(c, gclq__sets_size(k->sets, j), k->opt->min_containment))
        ok = gclq__vec64_push(&k->keys, (uint64_t)j << 32 | i) && gclq__vec32_push(&k->counts, c);
    }
    if (!ok) return GCLQ_ERROR_OUT_OF_MEMORY;
    if (k->kind != GCLQ__SINK_LIST && k->counts.n > k->opt->max_pairs) return GCLQ_ERROR_TOO_LARGE;
  }
  if (offsets != NULL) {
    for (p = 0; p < n; ++p) k->r->h_offsets[k->done + p] = k->elements.n + offsets[p];
    for (e = 0; e < offsets[n]; ++e)
      if (!gclq__vec32_push(&k->elements, elements[e])) return GCLQ_ERROR_OUT_OF_MEMORY;
    k->r->h_offsets[k->done + n] = k->elements.n;
  }
  k->done += n;
  return GCLQ_SUCCESS;
}

/* The next batch of all pairs i < j after (*i, *j), in row order. */
static uint64_t gclq__sets_next_pairs(uint32_t k, uint32_t *i, uint32_t *j, uint32_t *pairs, uint64_t cap) {
  uint64_t n = 0;
  while (n < cap && *i + 1 < k) {
    pairs[2 * n] = *i;
    pairs[2 * n + 1] = *j;
    ++n;
    if (++*j == k) {
      ++*i;
      *j = *i + 1;
    }
  }
  return n;
}

/* One batch on the host: counts, and the intersections when materialising. */
static gclq_status gclq__host_sets_run(gclq__sets_sink *k, const uint32_t *pairs, uint64_t n, uint32_t *counts) {
  const gclq_sets *s = k->work;
  uint64_t *offsets = NULL, room = 0, p;
  uint32_t *elements = NULL;
  gclq_status st;
  if (k->opt->materialise) {
    for (p = 0; p < n; ++p) {
      uint32_t a = gclq__sets_size(s, pairs[2 * p]), b = gclq__sets_size(s, pairs[2 * p + 1]);
      room += a < b ? a : b;
    }
    offsets = (uint64_t *)gclq__alloc_array(n + 1, sizeof(uint64_t));
    elements = (uint32_t *)gclq__alloc_array(room, sizeof(uint32_t));
    if (offsets == NULL || elements == NULL) {
      GCLQ_FREE(offsets);
      GCLQ_FREE(elements);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
  }
  gclq__host_sets_batch(s, pairs, n, counts, offsets, elements);
  st = gclq__sets_take(k, pairs, counts, n, offsets, elements);
  GCLQ_FREE(offsets);
  GCLQ_FREE(elements);
  return st;
}

/* ---- MMJoin's light/heavy split of the containment join ----

   Deep et al.'s MMJoin as the set intersection paper runs it (section 4.1):
   the host builds the inverted index, the light values' pairs are counted
   on the host from it, the heavy values' by the device's product, and each
   pair's two counts are added before the sink decides it. Host code in the
   common subset of C99 and C++. The threshold's rule (gclq__mmjoin_auto)
   is the chooser's (clique/sets/choose.h); the split's plan
   (gclq__mmjoin_plan) and the thread that runs the light part beside the
   device (gclq__mmjoin_cuda) are in clique/sets/api.h. */

static void gclq__mmjoin_free(gclq__mmjoin *m) {
  GCLQ_FREE(m->start);
  GCLQ_FREE(m->sv);
  gclq_sets_free(&m->heavy);
  GCLQ_FREE(m->row);
  GCLQ_FREE(m->col.a);
  GCLQ_FREE(m->cnt.a);
  GCLQ_FREE(m->dense);
  memset(m, 0, sizeof *m);
}

/* The inverted index: the keys (value << 32 | set) radix sorted, so each
   value's sets come out ascending; runs of one value are its list. */
static gclq_status gclq__mmjoin_index(const gclq_sets *s, gclq__mmjoin *m) {
  const uint64_t n = s->total;
  uint64_t *keys = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t)), e, r;
  uint32_t i;
  gclq_status st;
  if (keys == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < s->num_sets; ++i)
    for (e = s->h_offsets[i]; e < s->h_offsets[i + 1]; ++e) keys[e] = (uint64_t)s->h_elements[e] << 32 | i;
  st = gclq__sort_u64(keys, (size_t)n);
  for (e = 0, m->runs = 0; st == GCLQ_SUCCESS && e < n; ++e) m->runs += e == 0 || keys[e] >> 32 != keys[e - 1] >> 32;
  if (st == GCLQ_SUCCESS) {
    m->start = (uint64_t *)gclq__alloc_array(m->runs + 1, sizeof(uint64_t));
    m->sv = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
    if (m->start == NULL || m->sv == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) {
    for (e = 0, r = 0; e < n; ++e) {
      if (e == 0 || keys[e] >> 32 != keys[e - 1] >> 32) m->start[r++] = e;
      m->sv[e] = (uint32_t)keys[e];
    }
    m->start[m->runs] = n;
  }
  GCLQ_FREE(keys);
  return st;
}

/* The heavy part as a collection: each set's heavy values, renumbered to
   their ranks (the index visits values in order, so every set stays
   strictly increasing). */
static gclq_status gclq__mmjoin_heavy(const gclq_sets *s, gclq__mmjoin *m) {
  const uint32_t k = s->num_sets;
  uint64_t *off = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t)), *at, r, x, total = 0, h = 0;
  uint32_t *elements, i;
  if (off == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(off, 0, ((size_t)k + 1) * sizeof(uint64_t));
  for (r = 0; r < m->runs; ++r)
    if (m->start[r + 1] - m->start[r] >= m->below)
      for (x = m->start[r]; x < m->start[r + 1]; ++x) ++off[m->sv[x] + 1];
  for (i = 0; i < k; ++i) off[i + 1] += off[i];
  total = off[k];
  elements = (uint32_t *)gclq__alloc_array(total, sizeof(uint32_t));
  at = (uint64_t *)gclq__alloc_array(k, sizeof(uint64_t));
  if (elements == NULL || at == NULL) {
    GCLQ_FREE(off);
    GCLQ_FREE(elements);
    GCLQ_FREE(at);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (k > 0) memcpy(at, off, (size_t)k * sizeof(uint64_t));
  for (r = 0; r < m->runs; ++r) {
    if (m->start[r + 1] - m->start[r] < m->below) continue;
    for (x = m->start[r]; x < m->start[r + 1]; ++x) elements[at[m->sv[x]]++] = (uint32_t)h;
    ++h;
  }
  GCLQ_FREE(at);
  m->heavy_values = h;
  m->light_values = m->runs - h;
  m->heavy.num_sets = k;
  m->heavy.universe = h > 0 ? h : 1;
  m->heavy.total = total;
  m->heavy.h_offsets = off;
  m->heavy.h_elements = elements;
  m->heavy.is_view = 0;
  return GCLQ_SUCCESS;
}

/* The light part (the thread's work on CUDA): for each row i, every light
   value of s_i adds one to (i, j) for each later set j of its list, in a
   dense row of k counters whose touched entries then go to the lists.
   Values in one set only meet nothing and are skipped. */
static gclq_status gclq__mmjoin_light(const gclq_sets *s, gclq__mmjoin *m) {
  const uint32_t k = s->num_sets;
  uint64_t *loff = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t)), *at = NULL, r, x;
  uint32_t *lrun = NULL, *counter = NULL, *touched = NULL, i;
  gclq_status st = GCLQ_SUCCESS;
  m->row = (uint64_t *)gclq__alloc_array((uint64_t)k + 1, sizeof(uint64_t));
  if (loff == NULL || m->row == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  if (st == GCLQ_SUCCESS) { /* each set's light lists of two or more sets (CSR: loff, lrun) */
    memset(loff, 0, ((size_t)k + 1) * sizeof(uint64_t));
    for (r = 0; r < m->runs; ++r) {
      const uint64_t c = m->start[r + 1] - m->start[r];
      if (c < 2 || c >= m->below) continue;
      m->increments += c * (c - 1) / 2;
      for (x = m->start[r]; x < m->start[r + 1]; ++x) ++loff[m->sv[x] + 1];
    }
    for (i = 0; i < k; ++i) loff[i + 1] += loff[i];
    lrun = (uint32_t *)gclq__alloc_array(loff[k], sizeof(uint32_t));
    at = (uint64_t *)gclq__alloc_array(k, sizeof(uint64_t));
    counter = (uint32_t *)gclq__alloc_array(k, sizeof(uint32_t));
    touched = (uint32_t *)gclq__alloc_array(k, sizeof(uint32_t));
    if (lrun == NULL || at == NULL || counter == NULL || touched == NULL) st = GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (st == GCLQ_SUCCESS) {
    if (k > 0) {
      memcpy(at, loff, (size_t)k * sizeof(uint64_t));
      memset(counter, 0, (size_t)k * sizeof(uint32_t));
    }
    for (r = 0; r < m->runs; ++r) {
      const uint64_t c = m->start[r + 1] - m->start[r];
      if (c < 2 || c >= m->below) continue;
      for (x = m->start[r]; x < m->start[r + 1]; ++x) lrun[at[m->sv[x]]++] = (uint32_t)r;
    }
    m->row[0] = 0;
    for (i = 0; st == GCLQ_SUCCESS && i < k; ++i) {
      uint32_t nt = 0, t;
      uint64_t q;
      for (q = loff[i]; q < loff[i + 1]; ++q) { /* the list's sets after i: from its end down to i */
        const uint64_t lo = m->start[lrun[q]];
        for (x = m->start[lrun[q] + 1]; x > lo && m->sv[x - 1] > i; --x) {
          const uint32_t j = m->sv[x - 1];
          if (counter[j]++ == 0) touched[nt++] = j;
        }
      }
      for (t = 0; t < nt; ++t) {
        const uint32_t j = touched[t];
        if (!gclq__vec32_push(&m->col, j) || !gclq__vec32_push(&m->cnt, counter[j])) {
          st = GCLQ_ERROR_OUT_OF_MEMORY;
          break;
        }
        counter[j] = 0;
      }
      m->row[i + 1] = m->col.n;
    }
  }
  GCLQ_FREE(loff);
  GCLQ_FREE(lrun);
  GCLQ_FREE(at);
  GCLQ_FREE(counter);
  GCLQ_FREE(touched);
  return st;
}

/* The split's numbers into the stats (times: the caller's). */
static void gclq__mmjoin_stats(const gclq__mmjoin *m, gclq_intersect_stats *stats) {
  stats->split.below = m->below;
  stats->split.light_values = m->light_values;
  stats->split.heavy_values = m->heavy_values;
  stats->split.light_increments = m->increments;
  stats->split.light_pairs = m->col.n;
}

/* Containment records, sorted by (i, j). */
typedef struct gclq__sets_rec {
  uint64_t key;
  uint32_t count;
} gclq__sets_rec;
static int gclq__sets_rec_cmp(const void *a, const void *b) {
  uint64_t x = ((const gclq__sets_rec *)a)->key, y = ((const gclq__sets_rec *)b)->key;
  return x < y ? -1 : x > y;
}

/* The sink's lists into the result (sparse pairs, containments). */
static gclq_status gclq__sets_finish(gclq__sets_sink *k) {
  gclq_intersect_result *r = k->r;
  uint64_t p;
  if (k->kind == GCLQ__SINK_SPARSE) {
    r->num_pairs = k->counts.n;
    r->h_pairs = k->pairs.a;
    r->h_counts = k->counts.a;
    k->pairs.a = k->counts.a = NULL;
  } else if (k->kind == GCLQ__SINK_CONTAIN) {
    gclq__sets_rec *rec = (gclq__sets_rec *)gclq__alloc_array(k->keys.n, sizeof(gclq__sets_rec));
    r->h_pairs = (uint32_t *)gclq__alloc_array(2 * (uint64_t)k->keys.n, sizeof(uint32_t));
    r->h_counts = (uint32_t *)gclq__alloc_array(k->keys.n, sizeof(uint32_t));
    if (rec == NULL || r->h_pairs == NULL || r->h_counts == NULL) {
      GCLQ_FREE(rec);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    for (p = 0; p < k->keys.n; ++p) {
      rec[p].key = k->keys.a[p];
      rec[p].count = k->counts.a[p];
    }
    if (k->keys.n > 1) qsort(rec, k->keys.n, sizeof *rec, gclq__sets_rec_cmp);
    for (p = 0; p < k->keys.n; ++p) {
      r->h_pairs[2 * p] = (uint32_t)(rec[p].key >> 32);
      r->h_pairs[2 * p + 1] = (uint32_t)rec[p].key;
      r->h_counts[p] = rec[p].count;
    }
    r->num_pairs = k->keys.n;
    GCLQ_FREE(rec);
  } else if (k->opt->materialise) {
    r->h_elements = k->elements.a;
    k->elements.a = NULL;
  }
  for (p = 0, r->total = 0; p < r->num_pairs; ++p) r->total += r->h_counts[p];
  return GCLQ_SUCCESS;
}
