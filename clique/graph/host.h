/* clique/graph/host.h - graphs on the host: the loaders and parsers (SNAP,
   DIMACS, Matrix Market, labelled), vertex labels, graphs from edge lists,
   the generators, the CSR
   builder, and the host references every module shares: the shape check,
   merge intersection, the k-core decomposition and the peeling order.
   Host code only, in the common subset of C99 and C++. */
/* ---------------------------------------------------------------------------
   Graphs: loaders, from edges, generators.

   Host code only, in the common subset of C99 and C++. Every builder ends in
   gclq__build_csr: packed edges (lo << 32 | hi, lo < hi, compact ids) are
   radix sorted, deduplicated and scattered into both adjacency lists, which
   come out sorted because the edges are visited in (lo, hi) order.

   Input formats, as this loader reads them (decisions documented here):
   - Lines end in LF, CRLF or a lone CR (old Mac files are read line by line,
     not as one long line); a last line without an end is read too. Blank
     lines (spaces and tabs only) are skipped in every format.
   - Numbers are unsigned 64-bit decimal: a '-' sign, any other character
     inside the token, or a value above 2^64 - 1 is GCLQ_ERROR_PARSE.
   - SNAP: "u v" per line, separated by spaces or tabs; '#' starts a comment
     line. At most two more columns may follow the ids (a weight, a sign, a
     timestamp: integer or real numbers) and are ignored; a line with one id,
     a column that is not a number, or more than four columns is an error
     naming the line. Every id that appears in the file is a vertex: a vertex
     whose only edge is a self-loop is an isolated vertex.
     Empty input (or comments only) is a valid graph with no vertices.
   - DIMACS: 'c' lines are comments; exactly one "p edge N M" (or "p col N M")
     before any "e u v", ids 1 <= u, v <= N; any other line type, or text after
     the numbers, is an error. M must be the number of "e" lines, or twice or
     half of it (files differ on whether they list and count each edge once or
     in both directions); otherwise the error names the p line. All N vertices
     exist, isolated ones too (original ids 1 .. N), so N is held to the load
     limit (gclq_load_options.max_vertices). Empty input has no p line and is
     an error (line 0).
   - Matrix Market: the first line is "%%MatrixMarket matrix coordinate F S"
     (case-insensitive) with F pattern|real|integer and S general|symmetric;
     '%' lines are comments; a size line "rows cols nnz" with rows == cols,
     then exactly nnz entries "i j" (pattern) or "i j value" (real, integer),
     1 <= i, j <= rows. Every stored entry is an edge, whatever its value. All
     rows vertices exist (original ids 1 .. rows; held to the load limit).
     Empty input is an error (line 0), as is a missing size line; too few
     entries name the size line, an extra entry its own line.
   Errors at the end of the input (nothing missing on a particular line)
   report line 0.
   - Labelled (the mining benchmarks' format, GraMi's .lg): "t # N" opens
     the graph (at most one t line: one graph a file), "v id label" declares
     a vertex, "e u v [label]" an edge between declared vertices (the edge
     label, a number, is read and not kept); '#' lines are comments and
     lines may come in any order. Every declared vertex exists, isolated ones
     too, compacted in increasing order of id; its label (below 2^32) goes
     to h_labels. A repeated v id, an edge to an undeclared id, or any other
     line type is an error naming the line.
   - AUTO reads the first non-blank line (gclq__format_of_text): its word
     names the format where it can, the file name's extension where it
     cannot, SNAP where neither does; a parse error on a line that looks
     like another format names the format read and gclq_load_options.format
     (gclq__format_hint). */

/* ---- the CSR builder ----
   keys: m packed edges (lo << 32) | hi with lo < hi < n, repeats allowed;
   taken over (always freed). orig: n original ids, taken over (freed on
   failure), or NULL for id_base + v. On failure *g is zeroed. */
static gclq_status gclq__build_csr(uint64_t *keys, size_t m, uint64_t n, uint64_t *orig, uint64_t id_base,
                                   gclq_graph *g) {
  uint64_t *offsets = NULL;
  uint32_t *neighbors = NULL;
  size_t i;
  uint64_t v;
  gclq_status st;
  memset(g, 0, sizeof *g);
  if (n > 0xffffffffull) {
    st = GCLQ_ERROR_TOO_LARGE;
    goto fail;
  }
  st = gclq__sort_unique_u64(keys, m, &m);
  if (st != GCLQ_SUCCESS) goto fail;
  st = GCLQ_ERROR_OUT_OF_MEMORY;
  offsets = (uint64_t *)gclq__alloc_array(n + 1, sizeof(uint64_t));
  if (offsets == NULL || (uint64_t)m > ((uint64_t)-1) / 2) goto fail;
  neighbors = (uint32_t *)gclq__alloc_array(2 * (uint64_t)m, sizeof(uint32_t));
  if (neighbors == NULL) goto fail;
  if (orig == NULL) {
    orig = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
    if (orig == NULL) goto fail;
    for (v = 0; v < n; ++v) orig[v] = id_base + v;
  }
  /* degrees into offsets[v + 1], prefix sum: offsets[v] is where v starts */
  memset(offsets, 0, (size_t)(n + 1) * sizeof(uint64_t));
  for (i = 0; i < m; ++i) {
    offsets[(keys[i] >> 32) + 1]++;
    offsets[(keys[i] & 0xffffffffu) + 1]++;
  }
  for (v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  /* scatter with offsets[v] as the cursor; edges in (lo, hi) order put the
     smaller neighbours of v (from edges (u, v)) before the larger ones (from
     edges (v, w)), each group ascending, so every list comes out sorted */
  for (i = 0; i < m; ++i) {
    uint32_t lo = (uint32_t)(keys[i] >> 32), hi = (uint32_t)(keys[i] & 0xffffffffu);
    neighbors[offsets[lo]++] = hi;
    neighbors[offsets[hi]++] = lo;
  }
  /* each cursor now sits at the start of the next vertex: shift back */
  for (v = n; v > 0; --v) offsets[v] = offsets[v - 1];
  offsets[0] = 0;
  GCLQ_FREE(keys);
  g->num_vertices = (uint32_t)n;
  g->num_edges = (uint64_t)m;
  g->h_offsets = offsets;
  g->h_neighbors = neighbors;
  g->h_original_ids = orig;
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(keys);
  GCLQ_FREE(orig);
  GCLQ_FREE(offsets);
  GCLQ_FREE(neighbors);
  memset(g, 0, sizeof *g);
  return st;
}

/* Arbitrary 64-bit ids: edge i is (src[i * stride], dst[i * stride]). Finds
   the distinct ids of the endpoints of every edge, self-loops included
   (sorted: *ids_out, n of them; a loop's vertex is kept, isolated if it has
   no other edge) and the packed compact edges without the loops (*keys_out,
   *m_out). The caller owns both on success; on failure nothing is left
   allocated. */
static gclq_status gclq__compact_ids(const uint64_t *src, const uint64_t *dst, size_t stride, size_t num_edges,
                                     uint64_t **ids_out, uint64_t *n_out, uint64_t **keys_out, size_t *m_out) {
  size_t i, m = 0, n = 0, k = 0;
  uint64_t *ids, *keys, *shrunk;
  gclq_status st;
  *ids_out = NULL;
  *keys_out = NULL;
  for (i = 0; i < num_edges; ++i)
    if (src[i * stride] != dst[i * stride]) ++m;
  if (num_edges > ((size_t)-1) / 2) return GCLQ_ERROR_OUT_OF_MEMORY;
  ids = (uint64_t *)gclq__alloc_array(2 * (uint64_t)num_edges, sizeof(uint64_t));
  if (ids == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (i = 0; i < num_edges; ++i) {
    ids[n++] = src[i * stride];
    ids[n++] = dst[i * stride];
  }
  st = gclq__sort_unique_u64(ids, n, &n);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(ids);
    return st;
  }
  if ((uint64_t)n > 0xffffffffull) {
    GCLQ_FREE(ids);
    return GCLQ_ERROR_TOO_LARGE;
  }
  shrunk = (uint64_t *)GCLQ_REALLOC(ids, n ? n * sizeof(uint64_t) : 1);
  if (shrunk != NULL) ids = shrunk;
  keys = (uint64_t *)gclq__alloc_array(m, sizeof(uint64_t));
  if (keys == NULL) {
    GCLQ_FREE(ids);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  for (i = 0; i < num_edges; ++i) {
    uint64_t a = src[i * stride], b = dst[i * stride], ab[2];
    int e;
    if (a == b) continue;
    ab[0] = a;
    ab[1] = b;
    for (e = 0; e < 2; ++e) ab[e] = gclq__lower_bound_u64(ids, n, ab[e]); /* the id is present */
    keys[k++] = ab[0] < ab[1] ? (ab[0] << 32 | ab[1]) : (ab[1] << 32 | ab[0]);
  }
  *ids_out = ids;
  *n_out = n;
  *keys_out = keys;
  *m_out = k;
  return GCLQ_SUCCESS;
}

/* The compact id of file id x (ids: the graph's h_original_ids, ascending,
   or NULL for compact ids), or n when the graph has no such vertex. */
static uint64_t gclq__vertex_of_id(const uint64_t *ids, uint64_t n, uint64_t x) {
  uint64_t at;
  if (ids == NULL) return x < n ? x : n;
  at = gclq__lower_bound_u64(ids, n, x);
  return at < n && ids[at] == x ? at : n;
}

/* ---- text scanning ---- */
enum { GCLQ__NUM_OK = 0, GCLQ__NUM_MISSING, GCLQ__NUM_NEGATIVE, GCLQ__NUM_NOT_A_NUMBER, GCLQ__NUM_OVERFLOW };

static int gclq__is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static const char *gclq__skip_space(const char *p, const char *end) {
  while (p < end && gclq__is_space(*p)) ++p;
  return p;
}

/* Skip blanks, then read one unsigned decimal token ending at a blank or the
   end of the line. */
static int gclq__read_u64(const char **pp, const char *end, uint64_t *out) {
  const char *p = gclq__skip_space(*pp, end);
  uint64_t x = 0;
  int overflow = 0;
  if (p == end) return GCLQ__NUM_MISSING;
  if (*p == '-') return GCLQ__NUM_NEGATIVE;
  if (*p < '0' || *p > '9') return GCLQ__NUM_NOT_A_NUMBER;
  while (p < end && *p >= '0' && *p <= '9') {
    unsigned dgt = (unsigned)(*p - '0');
    if (x > (((uint64_t)-1) - dgt) / 10) overflow = 1;
    x = x * 10 + dgt;
    ++p;
  }
  if (p < end && !gclq__is_space(*p)) return GCLQ__NUM_NOT_A_NUMBER;
  if (overflow) return GCLQ__NUM_OVERFLOW;
  *out = x;
  *pp = p;
  return GCLQ__NUM_OK;
}

/* Skip blanks and return the next token [*tok, *tok_end) (empty at the end). */
static void gclq__read_word(const char **pp, const char *end, const char **tok, const char **tok_end) {
  const char *p = gclq__skip_space(*pp, end);
  *tok = p;
  while (p < end && !gclq__is_space(*p)) ++p;
  *tok_end = p;
  *pp = p;
}

/* does the token equal word (ASCII, case-insensitive)? */
static int gclq__word_is(const char *tok, const char *tok_end, const char *word) {
  size_t n = strlen(word), i;
  if ((size_t)(tok_end - tok) != n) return 0;
  for (i = 0; i < n; ++i) {
    char c = tok[i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != word[i]) return 0;
  }
  return 1;
}

static gclq_status gclq__fail(gclq_load_error *err, gclq_status st, uint64_t line, const char *message) {
  if (err != NULL) {
    err->line = line;
    snprintf(err->message, sizeof err->message, "%s", message);
  }
  return st;
}

/* A number that did not read: say which and why. */
static gclq_status gclq__fail_number(gclq_load_error *err, uint64_t line, int why, const char *what) {
  if (err != NULL) {
    err->line = line;
    switch (why) {
      case GCLQ__NUM_MISSING: snprintf(err->message, sizeof err->message, "missing %s", what); break;
      case GCLQ__NUM_NEGATIVE: snprintf(err->message, sizeof err->message, "%s is negative", what); break;
      case GCLQ__NUM_OVERFLOW: snprintf(err->message, sizeof err->message, "%s does not fit in 64 bits", what); break;
      default: snprintf(err->message, sizeof err->message, "%s is not a decimal number", what); break;
    }
  }
  return GCLQ_ERROR_PARSE;
}

/* Two ids "u v" at *p (DIMACS edges, Matrix Market entries): a missing one
   fails with missing_msg, a malformed one names `what`. */
static gclq_status gclq__read_pair(const char **p, const char *le, uint64_t *a, uint64_t *b, gclq_load_error *err,
                                   uint64_t line, const char *missing_msg, const char *what) {
  int r = gclq__read_u64(p, le, a);
  if (r == GCLQ__NUM_OK) r = gclq__read_u64(p, le, b);
  if (r == GCLQ__NUM_MISSING) return gclq__fail(err, GCLQ_ERROR_PARSE, line, missing_msg);
  if (r != GCLQ__NUM_OK) return gclq__fail_number(err, line, r, what);
  return GCLQ_SUCCESS;
}

/* Line iteration: [*ls, *le) is the next line without its LF, CRLF or CR. */
typedef struct gclq__lines {
  const char *p, *end;
  uint64_t line; /* 1-based number of the line last returned */
} gclq__lines;

static int gclq__next_line(gclq__lines *it, const char **ls, const char **le) {
  const char *q = it->p;
  if (q >= it->end) return 0;
  while (q < it->end && *q != '\n' && *q != '\r') ++q;
  *ls = it->p;
  *le = q;
  if (q < it->end && *q == '\r') ++q;
  if (q < it->end && *q == '\n' && (q == *le || q[-1] == '\r')) ++q;
  it->p = q;
  it->line++;
  return 1;
}

/* ---- the three parsers (one core for files and text) ---- */

/* a value token (Matrix Market values, SNAP extra columns): integer "[+-]digits", real any of [0-9+-.eE]
   starting with a digit, sign or point */
static int gclq__mm_value_ok(const char *t, const char *te, int integer) {
  const char *p = t;
  if (p < te && (*p == '+' || *p == '-')) ++p;
  if (p == te) return 0;
  for (; p < te; ++p) {
    char c = *p;
    if (c >= '0' && c <= '9') continue;
    if (!integer && (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')) continue;
    return 0;
  }
  return 1;
}

/* The columns after a SNAP line's two ids: at most GCLQ__SNAP_EXTRA of them,
   each a number (a weight, a sign, a timestamp), ignored. */
#define GCLQ__SNAP_EXTRA 2
static gclq_status gclq__snap_extra_columns(const char *p, const char *le, gclq_load_error *err, uint64_t line) {
  const char *w, *we;
  int extra = 0;
  for (;;) {
    gclq__read_word(&p, le, &w, &we);
    if (w == we) return GCLQ_SUCCESS;
    if (!gclq__mm_value_ok(w, we, 0))
      return gclq__fail(err, GCLQ_ERROR_PARSE, line, "a column after the two vertex ids is not a number");
    if (++extra > GCLQ__SNAP_EXTRA)
      return gclq__fail(err, GCLQ_ERROR_PARSE, line, "more than four columns (expected \"u v\", a weight, a time)");
  }
}

static gclq_status gclq__parse_snap(const char *text, size_t len, gclq_graph *g, gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 pairs;
  const char *ls, *le;
  uint64_t *ids = NULL, *keys = NULL, n = 0;
  size_t m = 0;
  gclq_status st;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&pairs);
  while (gclq__next_line(&it, &ls, &le)) {
    const char *p = gclq__skip_space(ls, le);
    uint64_t a, b;
    int r;
    if (p == le || *p == '#') continue;
    r = gclq__read_u64(&p, le, &a);
    if (r != GCLQ__NUM_OK) {
      st = gclq__fail_number(err, it.line, r, "vertex id");
      goto fail;
    }
    r = gclq__read_u64(&p, le, &b);
    if (r == GCLQ__NUM_MISSING) {
      st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "expected two vertex ids, found one");
      goto fail;
    }
    if (r != GCLQ__NUM_OK) {
      st = gclq__fail_number(err, it.line, r, "vertex id");
      goto fail;
    }
    st = gclq__snap_extra_columns(p, le, err, it.line);
    if (st != GCLQ_SUCCESS) goto fail;
    if (!gclq__vec64_push(&pairs, a) || !gclq__vec64_push(&pairs, b)) {
      st = gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory");
      goto fail;
    }
  }
  st = gclq__compact_ids(pairs.a, pairs.a ? pairs.a + 1 : NULL, 2, pairs.n / 2, &ids, &n, &keys, &m);
  GCLQ_FREE(pairs.a);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  st = gclq__build_csr(keys, m, n, ids, 0, g);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(pairs.a);
  return st;
}

/* A declared vertex count (DIMACS N, Matrix Market rows) against the limits:
   2^32 - 1 and max_vertices. */
static gclq_status gclq__check_vertices(uint64_t n, uint64_t max_vertices, gclq_load_error *err, uint64_t line) {
  char msg[128];
  if (n > 0xffffffffull) return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, line, "more than 2^32 - 1 vertices");
  if (n <= max_vertices) return GCLQ_SUCCESS;
  snprintf(msg, sizeof msg, "%llu vertices declared, over the load limit of %llu (gclq_load_options.max_vertices)",
           (unsigned long long)n, (unsigned long long)max_vertices);
  return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, line, msg);
}

/* A 1-based edge (u, v) of a file with n vertices: both ids in 1..n, else
   the error names the line (`what`: "vertex id", "index"). */
static gclq_status gclq__check_one_based(uint64_t u, uint64_t v, uint64_t n, const char *what, gclq_load_error *err,
                                         uint64_t line) {
  char msg[96];
  if (u >= 1 && u <= n && v >= 1 && v <= n) return GCLQ_SUCCESS;
  snprintf(msg, sizeof msg, "%s %llu out of range 1..%llu", what, (unsigned long long)(u < 1 || u > n ? u : v),
           (unsigned long long)n);
  return gclq__fail(err, GCLQ_ERROR_PARSE, line, msg);
}

/* A checked 1-based edge into keys as a packed compact edge (self-loops
   dropped). */
static gclq_status gclq__push_one_based(gclq__vec64 *keys, uint64_t u, uint64_t v, gclq_load_error *err) {
  if (u == v) return GCLQ_SUCCESS; /* self-loop */
  --u;
  --v;
  if (!gclq__vec64_push(keys, u < v ? (u << 32 | v) : (v << 32 | u)))
    return gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory");
  return GCLQ_SUCCESS;
}

/* The rest of a DIMACS "p edge N M" line after the "p" (p: the read
   position): the format word, N (held to the limits) and M. */
static gclq_status gclq__dimacs_p_line(const char *p, const char *le, uint64_t line, uint64_t max_vertices,
                                       uint64_t *n, uint64_t *m, gclq_load_error *err) {
  const char *w, *we;
  int r;
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "edge") && !gclq__word_is(w, we, "col"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, line, "expected \"p edge N M\" (or \"p col N M\")");
  r = gclq__read_u64(&p, le, n);
  if (r != GCLQ__NUM_OK) return gclq__fail_number(err, line, r, "vertex count N of \"p edge N M\"");
  r = gclq__read_u64(&p, le, m);
  if (r != GCLQ__NUM_OK) return gclq__fail_number(err, line, r, "edge count M of \"p edge N M\"");
  if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after \"p edge N M\"");
  return gclq__check_vertices(*n, max_vertices, err, line);
}

/* The rest of a DIMACS "e u v" line after the "e": the edge into keys. */
static gclq_status gclq__dimacs_e_line(const char *p, const char *le, uint64_t line, uint64_t n, gclq__vec64 *keys,
                                       gclq_load_error *err) {
  uint64_t u, v;
  gclq_status st = gclq__read_pair(&p, le, &u, &v, err, line, "expected \"e u v\" with two vertex ids", "vertex id");
  if (st != GCLQ_SUCCESS) return st;
  if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after \"e u v\"");
  st = gclq__check_one_based(u, v, n, "vertex id", err, line);
  if (st != GCLQ_SUCCESS) return st;
  return gclq__push_one_based(keys, u, v, err);
}

static gclq_status gclq__parse_dimacs(const char *text, size_t len, uint64_t max_vertices, gclq_graph *g,
                                      gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 keys;
  const char *ls, *le;
  uint64_t n = 0, m = 0, p_line = 0, e_lines = 0;
  gclq_status st;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&keys);
  while (gclq__next_line(&it, &ls, &le)) {
    const char *p = ls, *w, *we;
    gclq__read_word(&p, le, &w, &we);
    if (w == we || *w == 'c') continue; /* blank or comment */
    if (we - w == 1 && *w == 'p') {
      if (p_line != 0) {
        st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "a second p line");
        goto fail;
      }
      st = gclq__dimacs_p_line(p, le, it.line, max_vertices, &n, &m, err);
      if (st != GCLQ_SUCCESS) goto fail;
      p_line = it.line;
    } else if (we - w == 1 && *w == 'e') {
      if (p_line == 0) {
        st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "edge before the p line");
        goto fail;
      }
      st = gclq__dimacs_e_line(p, le, it.line, n, &keys, err);
      if (st != GCLQ_SUCCESS) goto fail;
      ++e_lines;
    } else {
      st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "unknown line type (expected c, p or e)");
      goto fail;
    }
  }
  if (p_line == 0) {
    st = gclq__fail(err, GCLQ_ERROR_PARSE, 0, "missing \"p edge N M\" line");
    goto fail;
  }
  if (m != e_lines && m != 2 * e_lines && 2 * m != e_lines) {
    char msg[128];
    snprintf(msg, sizeof msg, "the p line declares M = %llu edges but the file has %llu \"e\" lines",
             (unsigned long long)m, (unsigned long long)e_lines);
    st = gclq__fail(err, GCLQ_ERROR_PARSE, p_line, msg);
    goto fail;
  }
  st = gclq__build_csr(keys.a, keys.n, n, NULL, 1, g);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(keys.a);
  return st;
}

/* The Matrix Market header line: "%%MatrixMarket matrix coordinate F S";
   *field: 0 pattern, 1 integer, 2 real. */
static gclq_status gclq__mm_header(const char *ls, const char *le, int *field, gclq_load_error *err) {
  const char *p = ls, *w, *we;
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "%%matrixmarket"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "expected the %%MatrixMarket header");
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "matrix"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "expected \"matrix\" after %%MatrixMarket");
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "coordinate"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "only the coordinate format is supported");
  gclq__read_word(&p, le, &w, &we);
  if (gclq__word_is(w, we, "pattern")) *field = 0;
  else if (gclq__word_is(w, we, "integer")) *field = 1;
  else if (gclq__word_is(w, we, "real")) *field = 2;
  else return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "the field must be pattern, integer or real");
  gclq__read_word(&p, le, &w, &we);
  if (!gclq__word_is(w, we, "general") && !gclq__word_is(w, we, "symmetric"))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "the symmetry must be general or symmetric");
  if (gclq__skip_space(p, le) != le)
    return gclq__fail(err, GCLQ_ERROR_PARSE, 1, "unexpected text after the %%MatrixMarket header");
  return GCLQ_SUCCESS;
}

/* The size line "rows cols nnz" (square, rows held to the limits). */
static gclq_status gclq__mm_size_line(const char *p, const char *le, uint64_t line, uint64_t max_vertices, uint64_t *n,
                                      uint64_t *nnz, gclq_load_error *err) {
  uint64_t a, b, c;
  int r = gclq__read_u64(&p, le, &a);
  if (r == GCLQ__NUM_OK) r = gclq__read_u64(&p, le, &b);
  if (r == GCLQ__NUM_OK) r = gclq__read_u64(&p, le, &c);
  if (r != GCLQ__NUM_OK)
    return r == GCLQ__NUM_MISSING ? gclq__fail(err, GCLQ_ERROR_PARSE, line, "expected the size line \"rows cols nnz\"")
                                  : gclq__fail_number(err, line, r, "size");
  if (gclq__skip_space(p, le) != le)
    return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after \"rows cols nnz\"");
  if (a != b) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "the matrix is not square (rows != cols)");
  *n = a;
  *nnz = c;
  return gclq__check_vertices(a, max_vertices, err, line);
}

/* An entry "i j" (pattern) or "i j value": the edge into keys, counted in
   *count against nnz. */
static gclq_status gclq__mm_entry(const char *p, const char *le, uint64_t line, int field, uint64_t n, uint64_t nnz,
                                  uint64_t *count, gclq__vec64 *keys, gclq_load_error *err) {
  const char *w, *we;
  uint64_t a, b;
  gclq_status st = gclq__read_pair(&p, le, &a, &b, err, line, "expected an entry \"i j\" with two indices", "index");
  if (st != GCLQ_SUCCESS) return st;
  if (field != 0) {
    gclq__read_word(&p, le, &w, &we);
    if (w == we) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "missing the entry's value");
    if (!gclq__mm_value_ok(w, we, field == 1))
      return gclq__fail(err, GCLQ_ERROR_PARSE, line, "the entry's value is not a number");
  }
  if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "unexpected text after the entry");
  st = gclq__check_one_based(a, b, n, "index", err, line);
  if (st != GCLQ_SUCCESS) return st;
  if (++*count > nnz) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "more entries than the size line's nnz");
  return gclq__push_one_based(keys, a, b, err);
}

static gclq_status gclq__parse_mm(const char *text, size_t len, uint64_t max_vertices, gclq_graph *g,
                                  gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 keys;
  const char *ls, *le, *p;
  uint64_t n = 0, nnz = 0, count = 0, size_line = 0;
  int field = 0;
  gclq_status st;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&keys);
  if (!gclq__next_line(&it, &ls, &le))
    return gclq__fail(err, GCLQ_ERROR_PARSE, 0, "empty input: missing the %%MatrixMarket header");
  st = gclq__mm_header(ls, le, &field, err);
  if (st != GCLQ_SUCCESS) return st;
  while (gclq__next_line(&it, &ls, &le)) {
    p = gclq__skip_space(ls, le);
    if (p == le || *p == '%') continue;
    if (size_line == 0) {
      st = gclq__mm_size_line(p, le, it.line, max_vertices, &n, &nnz, err);
      size_line = it.line;
    } else {
      st = gclq__mm_entry(p, le, it.line, field, n, nnz, &count, &keys, err);
    }
    if (st != GCLQ_SUCCESS) goto fail;
  }
  if (size_line == 0) {
    st = gclq__fail(err, GCLQ_ERROR_PARSE, 0, "missing the size line \"rows cols nnz\"");
    goto fail;
  }
  if (count < nnz) {
    char msg[96];
    snprintf(msg, sizeof msg, "fewer entries than the size line's nnz (%llu of %llu)", (unsigned long long)count,
             (unsigned long long)nnz);
    st = gclq__fail(err, GCLQ_ERROR_PARSE, size_line, msg);
    goto fail;
  }
  st = gclq__build_csr(keys.a, keys.n, n, NULL, 1, g);
  if (st != GCLQ_SUCCESS) return gclq__fail(err, st, 0, gclq_status_string(st));
  return GCLQ_SUCCESS;
fail:
  GCLQ_FREE(keys.a);
  return st;
}

/* ---- the labelled format ---- */
typedef struct gclq__lg_vertex {
  uint64_t id, line;
  uint32_t label;
} gclq__lg_vertex;

static int gclq__lg_cmp(const void *a, const void *b) {
  const gclq__lg_vertex *x = (const gclq__lg_vertex *)a, *y = (const gclq__lg_vertex *)b;
  return x->id < y->id ? -1 : x->id > y->id ? 1 : (x->line < y->line ? -1 : x->line > y->line);
}

/* The rest of a "v id label" line into vs, or of an "e u v [label]" line
   into es (u, v, line). */
static gclq_status gclq__lg_line(char kind, const char *p, const char *le, uint64_t line, gclq__vec64 *vs,
                                 gclq__vec64 *es, gclq_load_error *err) {
  uint64_t a, b, extra;
  const char *what = kind == 'v' ? "expected \"v id label\"" : "expected \"e u v\" with two vertex ids";
  gclq_status st = gclq__read_pair(&p, le, &a, &b, err, line, what, kind == 'v' ? "vertex id or label" : "vertex id");
  int r;
  if (st != GCLQ_SUCCESS) return st;
  if (kind == 'v' && b > 0xffffffffull) return gclq__fail(err, GCLQ_ERROR_PARSE, line, "label does not fit in 32 bits");
  if (kind == 'e') { /* an optional edge label */
    r = gclq__read_u64(&p, le, &extra);
    if (r != GCLQ__NUM_OK && r != GCLQ__NUM_MISSING) return gclq__fail_number(err, line, r, "edge label");
  }
  if (gclq__skip_space(p, le) != le)
    return gclq__fail(err, GCLQ_ERROR_PARSE, line,
                      kind == 'v' ? "unexpected text after \"v id label\"" : "unexpected text after \"e u v label\"");
  if (kind == 'v' ? !gclq__vec64_push(vs, a) || !gclq__vec64_push(vs, b) || !gclq__vec64_push(vs, line)
                  : !gclq__vec64_push(es, a) || !gclq__vec64_push(es, b) || !gclq__vec64_push(es, line))
    return gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory");
  return GCLQ_SUCCESS;
}

/* The graph of the declared vertices (vs: id, label, line; sorted by id,
   checked, compacted in that order, their labels into h_labels) and the
   edges (es: u, v, line; loops dropped). */
static gclq_status gclq__lg_build(const gclq__vec64 *vs, const gclq__vec64 *es, gclq_graph *g, gclq_load_error *err) {
  const uint64_t n = vs->n / 3;
  gclq__lg_vertex *v = NULL;
  uint64_t *orig = NULL, *keys = NULL, i;
  uint32_t *labels = NULL;
  size_t m = 0;
  char msg[128];
  gclq_status st = GCLQ_SUCCESS;
  if (n > 0xffffffffull) return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "more than 2^32 - 1 vertices");
  v = (gclq__lg_vertex *)gclq__alloc_array(n, sizeof(gclq__lg_vertex));
  orig = (uint64_t *)gclq__alloc_array(n, sizeof(uint64_t));
  labels = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  keys = (uint64_t *)gclq__alloc_array(es->n / 3, sizeof(uint64_t));
  if (v == NULL || orig == NULL || labels == NULL || keys == NULL)
    st = gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory");
  for (i = 0; st == GCLQ_SUCCESS && i < n; ++i) {
    v[i].id = vs->a[3 * i];
    v[i].label = (uint32_t)vs->a[3 * i + 1];
    v[i].line = vs->a[3 * i + 2];
  }
  if (st == GCLQ_SUCCESS) qsort(v, (size_t)n, sizeof *v, gclq__lg_cmp);
  for (i = 1; st == GCLQ_SUCCESS && i < n; ++i)
    if (v[i].id == v[i - 1].id) {
      snprintf(msg, sizeof msg, "vertex %llu declared twice (first on line %llu)", (unsigned long long)v[i].id,
               (unsigned long long)v[i - 1].line);
      st = gclq__fail(err, GCLQ_ERROR_PARSE, v[i].line, msg);
    }
  for (i = 0; st == GCLQ_SUCCESS && i < n; ++i) orig[i] = v[i].id, labels[i] = v[i].label;
  for (i = 0; st == GCLQ_SUCCESS && i < es->n / 3; ++i) {
    const uint64_t a = gclq__vertex_of_id(orig, n, es->a[3 * i]), b = gclq__vertex_of_id(orig, n, es->a[3 * i + 1]);
    if (a == n || b == n) {
      snprintf(msg, sizeof msg, "vertex %llu has no \"v\" line", (unsigned long long)es->a[3 * i + (a == n ? 0 : 1)]);
      st = gclq__fail(err, GCLQ_ERROR_PARSE, es->a[3 * i + 2], msg);
    } else if (a != b) {
      keys[m++] = a < b ? (a << 32 | b) : (b << 32 | a);
    }
  }
  GCLQ_FREE(v);
  if (st == GCLQ_SUCCESS) {
    st = gclq__build_csr(keys, m, n, orig, 0, g); /* takes keys and orig */
    if (st != GCLQ_SUCCESS) gclq__fail(err, st, 0, gclq_status_string(st));
    keys = NULL, orig = NULL;
  }
  GCLQ_FREE(keys);
  GCLQ_FREE(orig);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(labels);
    return st;
  }
  g->h_labels = labels;
  return GCLQ_SUCCESS;
}

static gclq_status gclq__parse_labelled(const char *text, size_t len, gclq_graph *g, gclq_load_error *err) {
  gclq__lines it;
  gclq__vec64 vs, es;
  const char *ls, *le;
  uint64_t t_line = 0;
  gclq_status st = GCLQ_SUCCESS;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  gclq__vec64_init(&vs);
  gclq__vec64_init(&es);
  while (st == GCLQ_SUCCESS && gclq__next_line(&it, &ls, &le)) {
    const char *p = ls, *w, *we;
    gclq__read_word(&p, le, &w, &we);
    if (w == we || *w == '#') continue; /* blank or comment */
    if (we - w == 1 && *w == 't') {
      if (t_line != 0) st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "a second \"t\" line: one graph a file");
      t_line = it.line;
    } else if (we - w == 1 && (*w == 'v' || *w == 'e')) {
      st = gclq__lg_line(*w, p, le, it.line, &vs, &es, err);
    } else {
      st = gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "unknown line type (expected t, v or e)");
    }
  }
  if (st == GCLQ_SUCCESS) st = gclq__lg_build(&vs, &es, g, err);
  GCLQ_FREE(vs.a);
  GCLQ_FREE(es.a);
  return st;
}

/* The vertex limit of a load: the caller's, or what len bytes justify. */
static uint64_t gclq__max_vertices(const gclq_load_options *o, size_t len) {
  uint64_t per = GCLQ_LOAD_VERTICES_PER_BYTE, room = (0xffffffffull - GCLQ_LOAD_MIN_VERTICES) / per;
  if (o != NULL && o->max_vertices != 0) return o->max_vertices;
  return GCLQ_LOAD_MIN_VERTICES + per * ((uint64_t)len < room ? (uint64_t)len : room);
}

/* What a line's first word says its format is: "%%MatrixMarket" Matrix
   Market; a one-letter "c", "p" or "e" DIMACS; "t" or "v" labelled; a digit
   or '#' SNAP; anything else (and a blank line) AUTO, nothing. */
static gclq_format gclq__format_of_line(const char *ls, const char *le) {
  const char *p = ls, *w, *we;
  gclq__read_word(&p, le, &w, &we);
  if (w == we) return GCLQ_FORMAT_AUTO;
  if (gclq__word_is(w, we, "%%matrixmarket")) return GCLQ_FORMAT_MATRIX_MARKET;
  if (we - w == 1 && (*w == 'c' || *w == 'p' || *w == 'e')) return GCLQ_FORMAT_DIMACS;
  if (we - w == 1 && (*w == 't' || *w == 'v')) return GCLQ_FORMAT_LABELLED;
  if ((*w >= '0' && *w <= '9') || *w == '#') return GCLQ_FORMAT_SNAP;
  return GCLQ_FORMAT_AUTO;
}

/* AUTO's format for a text: what its first line that is neither blank nor
   a '#' comment says (SNAP and labelled files may open with those: a text of
   them only is SNAP), where it says something; named (the path's
   extension, AUTO for none) decides only when the content does not, when a
   .mtx file starts with numbers (a Matrix Market file missing its header is
   not read as an edge list, whose first edge would be the size line), or
   when a .lg file starts with an "e" line (labelled too); SNAP when neither
   decides. */
static gclq_format gclq__format_of_text(const char *text, size_t len, gclq_format named) {
  gclq__lines it;
  const char *ls, *le;
  gclq_format seen = GCLQ_FORMAT_AUTO;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  while (gclq__next_line(&it, &ls, &le)) {
    const char *p = gclq__skip_space(ls, le);
    if (p == le || *p == '#') continue;
    seen = gclq__format_of_line(ls, le);
    break;
  }
  if (seen == GCLQ_FORMAT_AUTO || (named == GCLQ_FORMAT_MATRIX_MARKET && seen == GCLQ_FORMAT_SNAP) ||
      (named == GCLQ_FORMAT_LABELLED && seen == GCLQ_FORMAT_DIMACS))
    return named == GCLQ_FORMAT_AUTO ? GCLQ_FORMAT_SNAP : named;
  return seen;
}

static const char *gclq__format_name(gclq_format f) {
  return f == GCLQ_FORMAT_DIMACS           ? "DIMACS"
         : f == GCLQ_FORMAT_MATRIX_MARKET ? "Matrix Market"
         : f == GCLQ_FORMAT_LABELLED      ? "labelled"
                                          : "SNAP";
}

/* A parse error on a line that looks like another format (the line's first
   word, gclq__format_of_line) names the format it was read as and the
   option that picks one; the message is cut where it must be. Numbers
   after a Matrix Market file's first line are its own (size, entries). */
static void gclq__format_hint(const char *text, size_t len, gclq_format used, gclq_load_error *err) {
  gclq__lines it;
  const char *ls = text, *le = text;
  gclq_format looks;
  size_t n;
  if (err == NULL || err->line == 0) return;
  it.p = text;
  it.end = text + len;
  it.line = 0;
  while (it.line < err->line && gclq__next_line(&it, &ls, &le)) {
  }
  if (it.line != err->line) return;
  looks = gclq__format_of_line(ls, le);
  if (looks == GCLQ_FORMAT_AUTO || looks == used) return;
  if (used == GCLQ_FORMAT_LABELLED && looks == GCLQ_FORMAT_DIMACS) return; /* its own "e" lines */
  if (used == GCLQ_FORMAT_MATRIX_MARKET && err->line > 1 && *gclq__skip_space(ls, le) != '#') return;
  n = strlen(err->message);
  snprintf(err->message + n, sizeof err->message - n, " (read as %s, the line looks %s: gclq_load_options.format)",
           gclq__format_name(used), gclq__format_name(looks));
}

/* Parse text as format (AUTO: gclq__format_of_text, with named the format
   of the file's name); a parse error gets gclq__format_hint. */
static gclq_status gclq__parse_any(const char *text, size_t len, gclq_format format, gclq_format named,
                                   uint64_t max_vertices, gclq_graph *g, gclq_load_error *err) {
  gclq_status st;
  if (format == GCLQ_FORMAT_AUTO) format = gclq__format_of_text(text, len, named);
  switch (format) {
    case GCLQ_FORMAT_SNAP: st = gclq__parse_snap(text, len, g, err); break;
    case GCLQ_FORMAT_DIMACS: st = gclq__parse_dimacs(text, len, max_vertices, g, err); break;
    case GCLQ_FORMAT_MATRIX_MARKET: st = gclq__parse_mm(text, len, max_vertices, g, err); break;
    case GCLQ_FORMAT_LABELLED: st = gclq__parse_labelled(text, len, g, err); break;
    default: return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "unknown format");
  }
  if (st == GCLQ_ERROR_PARSE) gclq__format_hint(text, len, format, err);
  return st;
}

GCLQ_DEF gclq_status gclq_graph_parse_opts(const char *text, size_t len, const gclq_load_options *options,
                                           gclq_graph *graph, gclq_load_error *err) {
  gclq_status st;
  gclq_format format = options ? options->format : GCLQ_FORMAT_AUTO;
  if (err != NULL) {
    err->line = 0;
    err->message[0] = '\0';
  }
  if (graph != NULL) memset(graph, 0, sizeof *graph);
  if (text == NULL || graph == NULL) return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "NULL argument");
  if (options != NULL && options->max_bytes != 0 && (uint64_t)len > options->max_bytes)
    return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "the input is larger than gclq_load_options.max_bytes");
  st = gclq__parse_any(text, len, format, GCLQ_FORMAT_AUTO, gclq__max_vertices(options, len), graph, err);
  if (st != GCLQ_SUCCESS) memset(graph, 0, sizeof *graph);
  return st;
}

GCLQ_DEF gclq_status gclq_graph_parse(const char *text, size_t len, gclq_format format, gclq_graph *graph,
                                      gclq_load_error *err) {
  gclq_load_options o;
  memset(&o, 0, sizeof o);
  o.format = format;
  return gclq_graph_parse_opts(text, len, &o, graph, err);
}

/* the format a path's extension names: .clq/.dimacs DIMACS, .mtx Matrix
   Market, .lg labelled, any other (or none) AUTO: the content decides */
static gclq_format gclq__format_of_path(const char *path) {
  const char *dot = strrchr(path, '.'), *end;
  if (dot == NULL || strchr(dot, '/') != NULL || strchr(dot, '\\') != NULL) return GCLQ_FORMAT_AUTO;
  end = dot + strlen(dot);
  if (gclq__word_is(dot + 1, end, "clq") || gclq__word_is(dot + 1, end, "dimacs")) return GCLQ_FORMAT_DIMACS;
  if (gclq__word_is(dot + 1, end, "mtx")) return GCLQ_FORMAT_MATRIX_MARKET;
  if (gclq__word_is(dot + 1, end, "lg")) return GCLQ_FORMAT_LABELLED;
  return GCLQ_FORMAT_AUTO;
}

/* A loader's message in the user's words: why, then the system's reason
   for the call that failed (errno e; none when 0), into buf:
     "cannot open the file: No such file or directory"
   Used by the graph and the set loaders. */
static const char *gclq__os_why(char *buf, size_t size, const char *why, int e) {
  if (e == 0) return why;
  snprintf(buf, size, "%s: %s", why, strerror(e));
  return buf;
}

/* A file read whole into *buf (GCLQ_MALLOC'd, *len bytes; the caller
   frees it), never past max_bytes (0: no limit; a size known from the file
   system fails before anything is read). */
static gclq_status gclq__read_file(const char *path, uint64_t max_bytes, char **buf_out, size_t *len_out,
                                   gclq_load_error *err) {
  FILE *f;
  char *buf = NULL;
  size_t len = 0, cap = 0;
  char reason[128];
  *buf_out = NULL;
  *len_out = 0;
  f = fopen(path, "rb");
  if (f == NULL)
    return gclq__fail(err, GCLQ_ERROR_IO, 0, gclq__os_why(reason, sizeof reason, "cannot open the file", errno));
  if (max_bytes != 0 && fseek(f, 0, SEEK_END) == 0) {
    long size = ftell(f);
    if (size > 0 && (uint64_t)size > max_bytes) {
      fclose(f);
      return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "the file is larger than gclq_load_options.max_bytes");
    }
    rewind(f);
  }
  for (;;) { /* doubling the buffer */
    size_t got;
    if (max_bytes != 0 && (uint64_t)len > max_bytes) {
      fclose(f);
      GCLQ_FREE(buf);
      return gclq__fail(err, GCLQ_ERROR_TOO_LARGE, 0, "the file is larger than gclq_load_options.max_bytes");
    }
    if (len == cap) {
      size_t ncap = cap ? cap * 2 : (size_t)1 << 16;
      char *nbuf = ncap > cap ? (char *)GCLQ_REALLOC(buf, ncap) : NULL;
      if (nbuf == NULL) {
        fclose(f);
        GCLQ_FREE(buf);
        return gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory reading the file");
      }
      buf = nbuf;
      cap = ncap;
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) { /* a directory: "Is a directory" */
    const char *why = gclq__os_why(reason, sizeof reason, "cannot read the file", errno);
    fclose(f);
    GCLQ_FREE(buf);
    return gclq__fail(err, GCLQ_ERROR_IO, 0, why);
  }
  fclose(f);
  *buf_out = buf;
  *len_out = len;
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_graph_load_opts(const char *path, const gclq_load_options *options, gclq_graph *graph,
                                          gclq_load_error *err) {
  char *buf = NULL;
  size_t len = 0;
  gclq_format format = options ? options->format : GCLQ_FORMAT_AUTO;
  gclq_status st;
  if (err != NULL) {
    err->line = 0;
    err->message[0] = '\0';
  }
  if (graph != NULL) memset(graph, 0, sizeof *graph);
  if (path == NULL || graph == NULL) return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "NULL argument");
  if ((int)format < (int)GCLQ_FORMAT_AUTO || (int)format > (int)GCLQ_FORMAT_LABELLED)
    return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "unknown format");
  st = gclq__read_file(path, options ? options->max_bytes : 0, &buf, &len, err);
  if (st != GCLQ_SUCCESS) return st;
  st = gclq__parse_any(buf, len, format, gclq__format_of_path(path), gclq__max_vertices(options, len), graph, err);
  GCLQ_FREE(buf);
  if (st != GCLQ_SUCCESS) memset(graph, 0, sizeof *graph);
  return st;
}

GCLQ_DEF gclq_status gclq_graph_load(const char *path, gclq_format format, gclq_graph *graph, gclq_load_error *err) {
  gclq_load_options o;
  memset(&o, 0, sizeof o);
  o.format = format;
  return gclq_graph_load_opts(path, &o, graph, err);
}

GCLQ_DEF gclq_status gclq_graph_from_edges(const uint64_t *h_src, const uint64_t *h_dst, size_t num_edges,
                                           gclq_graph *graph) {
  uint64_t *ids = NULL, *keys = NULL, n = 0;
  size_t m = 0;
  gclq_status st;
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (num_edges > 0 && (h_src == NULL || h_dst == NULL)) return GCLQ_ERROR_INVALID_ARGUMENT;
  st = gclq__compact_ids(h_src, h_dst, 1, num_edges, &ids, &n, &keys, &m);
  if (st != GCLQ_SUCCESS) return st;
  return gclq__build_csr(keys, m, n, ids, 0, graph);
}

GCLQ_DEF void gclq_graph_free(gclq_graph *graph) {
  if (graph == NULL) return;
  GCLQ_FREE(graph->h_offsets);
  GCLQ_FREE(graph->h_neighbors);
  GCLQ_FREE(graph->h_original_ids);
  GCLQ_FREE(graph->h_labels);
  memset(graph, 0, sizeof *graph);
}

/* ---- generators ----
   Random numbers: splitmix64 (Steele, Lea, Flood 2014; the seeding generator
   of xoshiro): state += 0x9e3779b97f4a7c15, then two xor-shift-multiply
   rounds. Uniform doubles take the top 53 bits. The logarithm below is our
   own, so a seed gives the same graph whatever the C library. */
static uint64_t gclq__splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* uniform in [0, 1) */
/* The generators' starting state: the seed mixed once, so that nearby seeds
   (s and s + the splitmix increment) do not give overlapping streams. */
static uint64_t gclq__seed_state(uint64_t seed) {
  uint64_t mix = seed;
  return gclq__splitmix64(&mix);
}

static double gclq__uniform01(uint64_t *state) {
  return (double)(gclq__splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* natural log of a normal double x in (0, 1]: x = 2^e * m with m in
   [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172 */
static double gclq__log(double x) {
  uint64_t bits;
  int e;
  double m, s, s2, t, r;
  int k;
  memcpy(&bits, &x, sizeof bits);
  e = (int)((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;
  memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++e;
  }
  s = (m - 1.0) / (m + 1.0);
  s2 = s * s;
  t = s;
  r = s;
  for (k = 3; k <= 25; k += 2) {
    t *= s2;
    r += t / k;
  }
  return 2.0 * r + (double)e * 0.6931471805599453;
}

/* log(1 - p) for p in (0, 1), accurate for tiny p too */
static double gclq__log1m(double p) {
  if (p < 1e-4) return -(p + p * p / 2 + p * p * p / 3 + p * p * p * p / 4);
  return gclq__log(1.0 - p);
}

/* G(n, p) edges into keys, by geometric skipping over the pairs (w, v),
   w < v, in order (Batagelj and Brandes 2005): O(n + m), not n^2 coin flips. */
static int gclq__er_edges(uint32_t n, double p, uint64_t *state, gclq__vec64 *keys) {
  int64_t v = 1, w = -1;
  double lp;
  if (n < 2 || p <= 0.0) return 1;
  if (p >= 1.0) {
    for (v = 1; v < (int64_t)n; ++v)
      for (w = 0; w < v; ++w)
        if (!gclq__vec64_push(keys, (uint64_t)w << 32 | (uint64_t)v)) return 0;
    return 1;
  }
  lp = gclq__log1m(p);
  while (v < (int64_t)n) {
    double skip = gclq__log(1.0 - gclq__uniform01(state)) / lp; /* >= 0; 1 - u is in (0, 1] */
    if (skip > 4.0e18) break;                                    /* past every remaining pair */
    w += 1 + (int64_t)skip;
    while (w >= v && v < (int64_t)n) {
      w -= v;
      ++v;
    }
    if (v < (int64_t)n && !gclq__vec64_push(keys, (uint64_t)w << 32 | (uint64_t)v)) return 0;
  }
  return 1;
}

static int gclq__probability_ok(double p) { return p >= 0.0 && p <= 1.0; /* false for NaN */ }

GCLQ_DEF gclq_status gclq_graph_erdos_renyi(uint32_t n, double p, uint64_t seed, gclq_graph *graph) {
  gclq__vec64 keys;
  uint64_t state = gclq__seed_state(seed);
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (!gclq__probability_ok(p)) return GCLQ_ERROR_INVALID_ARGUMENT;
  gclq__vec64_init(&keys);
  if (!gclq__er_edges(n, p, &state, &keys)) {
    GCLQ_FREE(keys.a);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  return gclq__build_csr(keys.a, keys.n, n, NULL, 0, graph);
}

/* R-MAT (Chakrabarti, Zhan, Faloutsos 2004) with the Graph500 parameters:
   at each of scale levels the edge falls in quadrant a = 0.57 (0, 0),
   b = 0.19 (0, 1), c = 0.19 (1, 0) or d = 0.05 (1, 1), one 32-bit half of a
   splitmix64 draw per level. No noise, no relabelling: ids 0 .. 2^scale - 1. */
GCLQ_DEF gclq_status gclq_graph_rmat(int scale, int edge_factor, uint64_t seed, gclq_graph *graph) {
  const uint32_t ta = (uint32_t)(0.57 * 4294967296.0), tab = (uint32_t)(0.76 * 4294967296.0),
                 tabc = (uint32_t)(0.95 * 4294967296.0);
  uint64_t state = gclq__seed_state(seed), draws, e, *keys;
  size_t k = 0;
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (scale < 1 || scale > 30 || edge_factor < 1) return GCLQ_ERROR_INVALID_ARGUMENT;
  draws = (uint64_t)edge_factor << scale;
  keys = (uint64_t *)gclq__alloc_array(draws, sizeof(uint64_t));
  if (keys == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (e = 0; e < draws; ++e) {
    uint64_t u = 0, v = 0, r = 0;
    int level;
    for (level = 0; level < scale; ++level) {
      uint32_t x;
      if ((level & 1) == 0) r = gclq__splitmix64(&state);
      x = (uint32_t)(r >> (32 * (level & 1)));
      /* a: (0, 0), b: (0, 1), c: (1, 0), d: (1, 1) */
      u = u << 1 | (uint64_t)(x >= tab);
      v = v << 1 | (uint64_t)((x >= ta && x < tab) || x >= tabc);
    }
    if (u != v) keys[k++] = u < v ? (u << 32 | v) : (v << 32 | u);
  }
  return gclq__build_csr(keys, k, (uint64_t)1 << scale, NULL, 0, graph);
}

static int gclq__cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* G(n, p) exactly as gclq_graph_erdos_renyi(n, p, seed) draws it, plus a
   clique on clique_size vertices sampled from a second splitmix64 stream
   (seeded from seed ^ 0x5851f42d4c957f2d) by Floyd's algorithm. */
GCLQ_DEF gclq_status gclq_graph_planted_clique(uint32_t n, double p, uint32_t clique_size, uint64_t seed,
                                               gclq_graph *graph, uint32_t *h_clique_out) {
  gclq__vec64 keys;
  uint64_t state = gclq__seed_state(seed), cstate = gclq__seed_state(seed ^ 0x5851f42d4c957f2dull);
  uint32_t *clique, i, j, t;
  gclq_status st;
  if (graph == NULL) return GCLQ_ERROR_INVALID_ARGUMENT;
  memset(graph, 0, sizeof *graph);
  if (!gclq__probability_ok(p) || clique_size > n) return GCLQ_ERROR_INVALID_ARGUMENT;
  gclq__vec64_init(&keys);
  clique = (uint32_t *)gclq__alloc_array(clique_size, sizeof(uint32_t));
  if (clique == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  if (!gclq__er_edges(n, p, &state, &keys)) goto oom;
  /* Floyd: for j = n - k .. n - 1 take t uniform in [0, j]; t if new, else j.
     The membership test is a scan: O(k^2), the cost of the clique's edges. */
  for (i = 0, j = n - clique_size; i < clique_size; ++i, ++j) {
    uint32_t x;
    int seen = 0;
    t = (uint32_t)(((gclq__splitmix64(&cstate) >> 32) * ((uint64_t)j + 1)) >> 32);
    for (x = 0; x < i && !seen; ++x) seen = clique[x] == t;
    clique[i] = seen ? j : t;
  }
  qsort(clique, clique_size, sizeof(uint32_t), gclq__cmp_u32);
  for (i = 0; i < clique_size; ++i)
    for (j = i + 1; j < clique_size; ++j)
      if (!gclq__vec64_push(&keys, (uint64_t)clique[i] << 32 | clique[j])) goto oom;
  st = gclq__build_csr(keys.a, keys.n, n, NULL, 0, graph);
  if (st == GCLQ_SUCCESS && h_clique_out != NULL && clique_size > 0)
    memcpy(h_clique_out, clique, clique_size * sizeof(uint32_t));
  GCLQ_FREE(clique);
  return st;
oom:
  GCLQ_FREE(keys.a);
  GCLQ_FREE(clique);
  return GCLQ_ERROR_OUT_OF_MEMORY;
}

/* ---- vertex labels ---- */

/* The labels of a label file's lines into labels (n entries; seen: n flags,
   zeroed), every vertex once. */
static gclq_status gclq__parse_label_lines(const char *text, size_t len, const gclq_graph *g, uint32_t *labels,
                                           unsigned char *seen, gclq_load_error *err) {
  gclq__lines it;
  const char *ls, *le;
  const uint64_t n = g->num_vertices;
  uint64_t v;
  char msg[128];
  it.p = text;
  it.end = text + len;
  it.line = 0;
  while (gclq__next_line(&it, &ls, &le)) {
    const char *p = gclq__skip_space(ls, le);
    uint64_t id, label;
    gclq_status st;
    if (p == le || *p == '#') continue;
    st = gclq__read_pair(&p, le, &id, &label, err, it.line, "expected \"id label\"", "vertex id or label");
    if (st != GCLQ_SUCCESS) return st;
    if (gclq__skip_space(p, le) != le) return gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "unexpected text after \"id label\"");
    if (label > 0xffffffffull) return gclq__fail(err, GCLQ_ERROR_PARSE, it.line, "label does not fit in 32 bits");
    v = gclq__vertex_of_id(g->h_original_ids, n, id);
    if (v == n) continue; /* not a vertex of the graph */
    if (seen[v]) {
      snprintf(msg, sizeof msg, "vertex %llu labelled twice", (unsigned long long)id);
      return gclq__fail(err, GCLQ_ERROR_PARSE, it.line, msg);
    }
    seen[v] = 1;
    labels[v] = (uint32_t)label;
  }
  for (v = 0; v < n; ++v)
    if (!seen[v]) {
      snprintf(msg, sizeof msg, "vertex %llu has no label",
               (unsigned long long)(g->h_original_ids ? g->h_original_ids[v] : v));
      return gclq__fail(err, GCLQ_ERROR_PARSE, 0, msg);
    }
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_graph_parse_labels(const char *text, size_t len, gclq_graph *graph, gclq_load_error *err) {
  uint32_t *labels;
  unsigned char *seen;
  uint64_t v;
  gclq_status st;
  if (err != NULL) {
    err->line = 0;
    err->message[0] = '\0';
  }
  if (graph == NULL || (text == NULL && len > 0)) return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "NULL argument");
  for (v = 1; graph->h_original_ids != NULL && v < graph->num_vertices; ++v)
    if (graph->h_original_ids[v - 1] >= graph->h_original_ids[v])
      return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "the graph's h_original_ids are not ascending");
  labels = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
  seen = (unsigned char *)gclq__alloc_array(graph->num_vertices, 1);
  st = labels == NULL || seen == NULL ? gclq__fail(err, GCLQ_ERROR_OUT_OF_MEMORY, 0, "out of memory") : GCLQ_SUCCESS;
  if (st == GCLQ_SUCCESS) {
    memset(seen, 0, graph->num_vertices);
    st = gclq__parse_label_lines(text, len, graph, labels, seen, err);
  }
  GCLQ_FREE(seen);
  if (st != GCLQ_SUCCESS) {
    GCLQ_FREE(labels);
    return st;
  }
  GCLQ_FREE(graph->h_labels);
  graph->h_labels = labels;
  return GCLQ_SUCCESS;
}

GCLQ_DEF gclq_status gclq_graph_load_labels(const char *path, const gclq_load_options *options, gclq_graph *graph,
                                            gclq_load_error *err) {
  char *buf = NULL;
  size_t len = 0;
  gclq_status st;
  if (err != NULL) {
    err->line = 0;
    err->message[0] = '\0';
  }
  if (path == NULL || graph == NULL) return gclq__fail(err, GCLQ_ERROR_INVALID_ARGUMENT, 0, "NULL argument");
  st = gclq__read_file(path, options ? options->max_bytes : 0, &buf, &len, err);
  if (st != GCLQ_SUCCESS) return st;
  st = gclq_graph_parse_labels(buf ? buf : "", len, graph, err);
  GCLQ_FREE(buf);
  return st;
}

GCLQ_DEF gclq_status gclq_graph_random_labels(gclq_graph *graph, uint32_t num_labels, uint64_t seed) {
  uint64_t state = gclq__seed_state(seed), v;
  uint32_t *labels;
  if (graph == NULL || num_labels == 0) return GCLQ_ERROR_INVALID_ARGUMENT;
  labels = (uint32_t *)gclq__alloc_array(graph->num_vertices, sizeof(uint32_t));
  if (labels == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  for (v = 0; v < graph->num_vertices; ++v) /* the high 32 bits scaled to 0 .. num_labels - 1 */
    labels[v] = (uint32_t)(((gclq__splitmix64(&state) >> 32) * num_labels) >> 32);
  GCLQ_FREE(graph->h_labels);
  graph->h_labels = labels;
  return GCLQ_SUCCESS;
}

/* ---------------------------------------------------------------------------
   Host references shared by the modules: the shape check of a graph, merge
   intersection, core numbers and the peeling order.

   Serial, plain C in the common subset of C99 and C++. These are the answers
   the CUDA backend is tested against, so they are written to be read: each
   function names its algorithm and keeps to it, with no tuning that would hide
   the idea. All of them take a gclq_graph as the loaders build it (simple,
   undirected, every list sorted ascending, each edge stored both ways) and
   check its shape first (pointers, offsets, ids in range, lists strictly
   ascending, no self-loops); a malformed graph gives
   GCLQ_ERROR_INVALID_ARGUMENT, a failed allocation GCLQ_ERROR_OUT_OF_MEMORY,
   and nothing is leaked on either path.

   Private (static, gclq__host_ prefix). They are `static inline` so that a
   translation unit that includes the implementation but calls none of them
   compiles cleanly under -Wall -Wextra -Werror (gcc and clang do not warn
   about unused static inline functions); the recursive ones are simply never
   inlined. The tests reach them through the public calls
   (tests/internal_clique.h).

     gclq__host_core_order   k-core decomposition, Batagelj-Zaversnik bucket
                             peeling, O(n + m)
     gclq__host_peel_order   the parallel peeling's order (rounds), as the
                             CUDA backend peels
   ------------------------------------------------------------------------- */
/* ---- small helpers ------------------------------------------------------ */

/* Is g a well-formed simple graph in CSR form? (see the comment above)
   O(n + m); the edges' symmetry is gclq__graph_check's (below). m is at
   most n (n - 1) / 2, so 2m cannot wrap. */
static inline int gclq__host_graph_ok(const gclq_graph *g) {
  uint32_t v;
  if (g == NULL) return 0;
  if (g->num_vertices == 0) return g->num_edges == 0;
  if (g->num_edges > (uint64_t)g->num_vertices * (g->num_vertices - 1) / 2) return 0;
  if (g->h_offsets == NULL || g->h_offsets[0] != 0) return 0;
  if (g->h_offsets[g->num_vertices] != 2 * g->num_edges) return 0;
  if (g->num_edges > 0 && g->h_neighbors == NULL) return 0;
  for (v = 0; v < g->num_vertices; ++v) {
    uint64_t e, begin = g->h_offsets[v], end = g->h_offsets[v + 1];
    if (end < begin || end > 2 * g->num_edges) return 0;
    for (e = begin; e < end; ++e) {
      uint32_t u = g->h_neighbors[e];
      if (u >= g->num_vertices || u == v) return 0;
      if (e > begin && g->h_neighbors[e - 1] >= u) return 0;
    }
  }
  return 1;
}

/* Is every edge of g (whose shape gclq__host_graph_ok has passed) stored
   at both ends, as the gclq_graph contract (gpuclique.h, section 5) asks? Every public entry point
   that takes a caller's graph checks the shape first; the symmetry is
   checked by the backend that runs, before it reads the lists as a graph:
   here for HOST (and AUTO's small-graph test), on the device in the CUDA
   upload (gclq__graph_symmetric_kernel), where a host pass would cost more
   than the run. So no method reads lists that are not a simple undirected
   graph (the orientations keep each edge at one end, m in all, and size
   their arrays by m). GCLQ_ERROR_OUT_OF_MEMORY when its n words cannot be
   had.
   Symmetry by a cursor per vertex: take the vertices v in increasing order;
   for each "upper" entry (v, u), u > v, the entry at u's cursor must be v,
   and the cursor moves on. u's list is sorted and its entries below u are
   met in increasing order of v, so in a symmetric CSR the cursor always
   points at v; otherwise some edge is stored at one end only. That maps the
   upper entries one to one into the lower ones (u, v); with exactly m upper
   entries of the 2m, the map is onto, so every edge is stored both ways.
   Cost O(n + m), one scattered read per edge, and 4n bytes of host memory:
   about what HOST's core numbers of the same graph take. (A binary
   search of each reverse edge needs no memory but reads O(m log d) and
   measured several times slower on R-MAT graphs.) */
static inline gclq_status gclq__graph_symmetric(const gclq_graph *g) {
  uint64_t upper = 0, e;
  uint32_t v, *cursor;
  int ok = 1;
  cursor = (uint32_t *)gclq__alloc_array(g->num_vertices, sizeof(uint32_t));
  if (cursor == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  memset(cursor, 0, (size_t)g->num_vertices * sizeof(uint32_t));
  for (v = 0; ok && v < g->num_vertices; ++v)
    for (e = g->h_offsets[v]; ok && e < g->h_offsets[v + 1]; ++e) {
      uint32_t u = g->h_neighbors[e];
      uint64_t at;
      if (u < v) continue;
      at = g->h_offsets[u] + cursor[u];
      ok = at < g->h_offsets[u + 1] && g->h_neighbors[at] == v;
      ++cursor[u], ++upper;
    }
  GCLQ_FREE(cursor);
  return ok && upper == g->num_edges ? GCLQ_SUCCESS : GCLQ_ERROR_INVALID_ARGUMENT;
}
/* The shape and the symmetry; callers that have checked the shape (the
   choosers do) call gclq__graph_symmetric alone. */
static inline gclq_status gclq__graph_check(const gclq_graph *g) {
  return gclq__host_graph_ok(g) ? gclq__graph_symmetric(g) : GCLQ_ERROR_INVALID_ARGUMENT;
}

static inline uint32_t gclq__host_degree(const gclq_graph *g, uint32_t v) {
  return (uint32_t)(g->h_offsets[v + 1] - g->h_offsets[v]);
}

/* Merge intersection of two ascending lists: |a & b|, and the common values
   written to out when out is not NULL (out may alias a). */
static inline uint32_t gclq__host_intersect(const uint32_t *a, uint32_t na, const uint32_t *b, uint32_t nb,
                                            uint32_t *out) {
  uint32_t i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    if (a[i] < b[j]) {
      ++i;
    } else if (a[i] > b[j]) {
      ++j;
    } else {
      if (out) out[k] = a[i];
      ++k, ++i, ++j;
    }
  }
  return k;
}

/* ---- k-core decomposition ----------------------------------------------- */

/* Batagelj-Zaversnik bucket peeling ("An O(m) algorithm for cores
   decomposition of networks", 2003). Vertices sit in an array sorted by
   current degree, with bin[d] the first position of degree d. Take them in
   that order: the vertex taken has the smallest current degree, which is its
   core number; each neighbour still of higher degree moves to the front of
   its bin, the bin boundary moves past it, and its degree drops by one. The
   sort stays valid, so the whole peel is O(n + m).

   core[v] gets the core number of every vertex; order (n entries, may be
   NULL) the peeling order, a degeneracy order: core numbers are
   non-decreasing along it, and each vertex has at most core[v] neighbours
   later in it. max_core (may be NULL) gets the largest core number (0 for
   an empty graph).
     path 0-1-2, plus triangle 3-4-5:  core <-- [1, 1, 1, 2, 2, 2], max 2 */
static inline gclq_status gclq__host_core_order(const gclq_graph *g, uint32_t *core, uint32_t *order,
                                                uint32_t *max_core) {
  uint32_t n, v, i, d, max_degree = 0, best = 0;
  uint32_t *bin, *pos, *vert;
  if (!gclq__host_graph_ok(g) || (core == NULL && g->num_vertices > 0)) return GCLQ_ERROR_INVALID_ARGUMENT;
  n = g->num_vertices;
  if (n == 0) {
    if (max_core) *max_core = 0;
    return GCLQ_SUCCESS;
  }
  /* deg[] is core[]: a vertex's current degree when it is taken is final */
  for (v = 0; v < n; ++v) {
    core[v] = gclq__host_degree(g, v);
    if (core[v] > max_degree) max_degree = core[v];
  }
  bin = (uint32_t *)GCLQ_MALLOC(((size_t)max_degree + 1) * sizeof(uint32_t));
  pos = (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  vert = order ? order : (uint32_t *)GCLQ_MALLOC((size_t)n * sizeof(uint32_t));
  if (bin == NULL || pos == NULL || vert == NULL) {
    GCLQ_FREE(bin);
    GCLQ_FREE(pos);
    if (vert != order) GCLQ_FREE(vert);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  /* counting sort of the vertices by degree: bin[d] = first slot of degree d */
  memset(bin, 0, ((size_t)max_degree + 1) * sizeof(uint32_t));
  for (v = 0; v < n; ++v) ++bin[core[v]];
  {
    uint32_t start = 0;
    for (d = 0; d <= max_degree; ++d) {
      uint32_t count = bin[d];
      bin[d] = start;
      start += count;
    }
  }
  for (v = 0; v < n; ++v) {
    pos[v] = bin[core[v]]++;
    vert[pos[v]] = v;
  }
  for (d = max_degree; d > 0; --d) bin[d] = bin[d - 1]; /* back to first slots */
  bin[0] = 0;
  /* peel */
  for (i = 0; i < n; ++i) {
    uint64_t e;
    v = vert[i];
    if (core[v] > best) best = core[v];
    for (e = g->h_offsets[v]; e < g->h_offsets[v + 1]; ++e) {
      uint32_t u = g->h_neighbors[e];
      if (core[u] > core[v]) {
        /* swap u with the first vertex of its bin, then shrink the bin */
        uint32_t du = core[u], pu = pos[u], pw = bin[du], w = vert[pw];
        if (u != w) {
          pos[u] = pw, vert[pw] = u;
          pos[w] = pu, vert[pu] = w;
        }
        ++bin[du];
        --core[u];
      }
    }
  }
  GCLQ_FREE(bin);
  GCLQ_FREE(pos);
  if (vert != order) GCLQ_FREE(vert);
  if (max_core) *max_core = best;
  return GCLQ_SUCCESS;
}

/* The peeling order of the parallel core decomposition (the CUDA backend's
   gclq__graph_cores), reproduced on the host: at level k (the core numbers in
   ascending order) every vertex still present whose degree is at most k
   leaves in one round; the neighbours it leaves behind lose one degree each;
   rounds repeat until none leaves. order = the vertices by (round, id).
   Each vertex has at most its core number of neighbours later in it (when
   its round starts, every neighbour still present, same round or later,
   counts in its degree, and that degree is at most k). core: from
   gclq__host_core_order (Batagelj-Zaversnik); O(n + m). */
static inline gclq_status gclq__host_peel_order(const gclq_graph *g, const uint32_t *core, uint32_t max_core,
                                                uint32_t *order) {
  uint32_t n = g->num_vertices, v, k, r = 0, nf, nn, i;
  uint32_t *deg, *round, *by_core, *first, *front, *next;
  uint8_t *gone;
  uint64_t e;
  deg = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  round = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  by_core = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  first = (uint32_t *)gclq__alloc_array((uint64_t)max_core + 2, sizeof(uint32_t));
  front = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  next = (uint32_t *)gclq__alloc_array(n, sizeof(uint32_t));
  gone = (uint8_t *)gclq__alloc_array(n, 1);
  if (deg == NULL || round == NULL || by_core == NULL || first == NULL || front == NULL || next == NULL ||
      gone == NULL) {
    GCLQ_FREE(deg);
    GCLQ_FREE(round);
    GCLQ_FREE(by_core);
    GCLQ_FREE(first);
    GCLQ_FREE(front);
    GCLQ_FREE(next);
    GCLQ_FREE(gone);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  /* the vertices grouped by core number (counting sort): level k's first round is among them */
  memset(first, 0, ((size_t)max_core + 2) * sizeof(uint32_t));
  for (v = 0; v < n; ++v) ++first[core[v] + 1];
  for (k = 0; k <= max_core; ++k) first[k + 1] += first[k];
  for (v = 0; v < n; ++v) by_core[first[core[v]]++] = v;
  for (k = max_core + 1; k > 0; --k) first[k] = first[k - 1];
  first[0] = 0;
  for (v = 0; v < n; ++v) deg[v] = gclq__host_degree(g, v), gone[v] = 0;
  for (k = 0; k <= max_core; ++k) {
    /* the level's first round: every vertex present of degree at most k (all have core k) */
    for (nf = 0, i = first[k]; i < first[k + 1]; ++i)
      if (!gone[by_core[i]] && deg[by_core[i]] <= k) front[nf++] = by_core[i];
    while (nf > 0) {
      uint32_t *t;
      for (i = 0; i < nf; ++i) gone[front[i]] = 1, round[front[i]] = r;
      ++r;
      /* the neighbours left behind lose a degree; those that reach k leave in the next round */
      for (nn = 0, i = 0; i < nf; ++i)
        for (e = g->h_offsets[front[i]]; e < g->h_offsets[front[i] + 1]; ++e) {
          uint32_t u = g->h_neighbors[e];
          if (!gone[u] && --deg[u] == k) next[nn++] = u;
        }
      t = front, front = next, next = t;
      nf = nn;
    }
  }
  /* order by (round, id): a counting sort over the rounds, ids ascending inside each */
  GCLQ_FREE(first);
  first = (uint32_t *)gclq__alloc_array((uint64_t)r + 1, sizeof(uint32_t));
  if (first != NULL) {
    memset(first, 0, ((size_t)r + 1) * sizeof(uint32_t));
    for (v = 0; v < n; ++v) ++first[round[v] + 1];
    for (i = 0; i < r; ++i) first[i + 1] += first[i];
    for (v = 0; v < n; ++v) order[first[round[v]]++] = v;
  }
  GCLQ_FREE(deg);
  GCLQ_FREE(round);
  GCLQ_FREE(by_core);
  GCLQ_FREE(front);
  GCLQ_FREE(next);
  GCLQ_FREE(gone);
  if (first == NULL) return GCLQ_ERROR_OUT_OF_MEMORY;
  GCLQ_FREE(first);
  return GCLQ_SUCCESS;
}

/* ---- cliques as rows ----------------------------------------------------- */

/* Lexicographic sort of `count` rows of `width` ids (bottom-up merge sort of
   row indices, then one permuting copy). Returns 0 when out of memory. */
static inline int gclq__host_row_less(const uint32_t *rows, uint32_t width, size_t a, size_t b) {
  uint32_t i;
  for (i = 0; i < width; ++i) {
    uint32_t x = rows[a * width + i], y = rows[b * width + i];
    if (x != y) return x < y;
  }
  return 0;
}
static inline int gclq__host_sort_rows(uint32_t *rows, size_t count, uint32_t width) {
  size_t *idx, *tmp, run, i;
  uint32_t *copy;
  if (count < 2 || width == 0) return 1;
  idx = (size_t *)GCLQ_MALLOC(count * sizeof(size_t));
  tmp = (size_t *)GCLQ_MALLOC(count * sizeof(size_t));
  copy = (uint32_t *)GCLQ_MALLOC(count * width * sizeof(uint32_t));
  if (idx == NULL || tmp == NULL || copy == NULL) {
    GCLQ_FREE(idx);
    GCLQ_FREE(tmp);
    GCLQ_FREE(copy);
    return 0;
  }
  for (i = 0; i < count; ++i) idx[i] = i;
  for (run = 1; run < count; run *= 2) {
    for (i = 0; i < count; i += 2 * run) {
      size_t lo = i, mid = i + run < count ? i + run : count, hi = i + 2 * run < count ? i + 2 * run : count;
      size_t a = lo, b = mid, o = lo;
      while (a < mid && b < hi) tmp[o++] = gclq__host_row_less(rows, width, idx[b], idx[a]) ? idx[b++] : idx[a++];
      while (a < mid) tmp[o++] = idx[a++];
      while (b < hi) tmp[o++] = idx[b++];
    }
    { size_t *t = idx; idx = tmp; tmp = t; }
  }
  memcpy(copy, rows, count * width * sizeof(uint32_t));
  for (i = 0; i < count; ++i) memcpy(rows + i * width, copy + idx[i] * width, width * sizeof(uint32_t));
  GCLQ_FREE(idx);
  GCLQ_FREE(tmp);
  GCLQ_FREE(copy);
  return 1;
}

/* stored rows of width compact ids as a result's cliques: each row
   ascending, the rows in lexicographic order, then file ids into a new
   array *h_cliques (NULL when there are none). Sorting compact ids sorts
   file ids too: the loaders compact in increasing order of file id. rows
   is consumed (freed) either way. */
static inline gclq_status gclq__graph_rows_out(const gclq_graph *g, uint32_t width, uint64_t stored, uint32_t *rows,
                                               uint64_t **h_cliques) {
  uint64_t i, total = stored * width;
  uint32_t j, t;
  *h_cliques = NULL;
  for (i = 0; i < stored; ++i) { /* insertion sort: rows are short */
    uint32_t *row = rows + i * width;
    for (j = 1; j < width; ++j) {
      uint32_t x = row[j];
      for (t = j; t > 0 && row[t - 1] > x; --t) row[t] = row[t - 1];
      row[t] = x;
    }
  }
  if (!gclq__host_sort_rows(rows, (size_t)stored, width)) {
    GCLQ_FREE(rows);
    return GCLQ_ERROR_OUT_OF_MEMORY;
  }
  if (total > 0) {
    *h_cliques = (uint64_t *)gclq__alloc_array(total, sizeof(uint64_t));
    if (*h_cliques == NULL) {
      GCLQ_FREE(rows);
      return GCLQ_ERROR_OUT_OF_MEMORY;
    }
    for (i = 0; i < total; ++i) (*h_cliques)[i] = g->h_original_ids ? g->h_original_ids[rows[i]] : rows[i];
  }
  GCLQ_FREE(rows);
  return GCLQ_SUCCESS;
}
