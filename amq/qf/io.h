/* amq/qf/io.h - the quotient filters' FILE FORMAT (section 6), host code:
   the header, its checksum, the check that a payload is exactly the filter
   its header names, the file a save replaces (a symbolic link's target;
   never a directory, device, FIFO or socket), and the write of a new file
   that replaces the old one only once it is on the disk. The entry points
   gamq_qf_serialize, gamq_qf_deserialize, gamq_qf_save and gamq_qf_load
   are in amq/qf/api.h. */

#define GAMQ__QF_FILE_VERSION 1u
#define GAMQ__QF_HEADER_BYTES 72u
#define GAMQ__QF_FLAG_PACKED 1u /* header flags bit 0: an RSQF in the PACKED layout */
static const uint8_t gamq__qf_file_magic[8] = {0x89, 'G', 'A', 'M', 'Q', 'F', '\r', '\n'};

typedef struct gamq__qf_header {
  gamq__qf_kind kind;
  int q, r, packed;
  uint64_t seed, count, nslots, payload, checksum;
} gamq__qf_header;

/* 64-bit FNV-1a, continued from h (start with 0xcbf29ce484222325). */
static uint64_t gamq__fnv1a64(uint64_t h, const uint8_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

/* The 72 header bytes of filter f whose payload (f's bytes, in host memory) is at payload. */
static void gamq__qf_header_write(const gamq__qf *f, const uint8_t *payload, uint8_t *out) {
  memcpy(out, gamq__qf_file_magic, 8);
  gamq__store_le(out + 8, GAMQ__QF_FILE_VERSION, 4);
  gamq__store_le(out + 12, GAMQ__QF_HEADER_BYTES, 4);
  gamq__store_le(out + 16, (uint64_t)f->kind, 4);
  gamq__store_le(out + 20, (uint64_t)f->q, 4);
  gamq__store_le(out + 24, (uint64_t)f->r, 4);
  gamq__store_le(out + 28, f->packed ? GAMQ__QF_FLAG_PACKED : 0, 4);
  gamq__store_le(out + 32, f->seed, 8);
  gamq__store_le(out + 40, f->nitems, 8);
  gamq__store_le(out + 48, f->nslots, 8);
  gamq__store_le(out + 56, (uint64_t)f->bytes, 8);
  gamq__store_le(out + 64, gamq__fnv1a64(gamq__fnv1a64(0xcbf29ce484222325ull, out, 64), payload, f->bytes), 8);
}

/* Check the header in the first `avail` bytes of buf (all of it, or fewer:
   a short buffer is a truncated file). 1 and *h filled when it is a valid
   version-1 header; 0 otherwise. Nothing after the header is read. */
static int gamq__qf_header_read(const uint8_t *buf, size_t avail, gamq__qf_header *h) {
  uint64_t version, hbytes, kind, q, r, flags, nslots = 0;
  size_t bytes = 0;
  if (avail < 8 || memcmp(buf, gamq__qf_file_magic, 8) != 0) return 0;
  if (avail < 12) return 0;
  version = gamq__load_le(buf + 8, 4);
  if (version != GAMQ__QF_FILE_VERSION) return 0; /* 0, or newer than this reader */
  if (avail < GAMQ__QF_HEADER_BYTES) return 0;
  hbytes = gamq__load_le(buf + 12, 4);
  kind = gamq__load_le(buf + 16, 4), q = gamq__load_le(buf + 20, 4), r = gamq__load_le(buf + 24, 4);
  flags = gamq__load_le(buf + 28, 4);
  if (hbytes != GAMQ__QF_HEADER_BYTES || (kind != GAMQ__QF_SQF && kind != GAMQ__QF_RSQF) || q > 64 || r > 64 ||
      (flags & ~(uint64_t)GAMQ__QF_FLAG_PACKED) != 0 || /* PACKED on an SQF: the layout check fails */
      !gamq__qf_layout_packed((gamq__qf_kind)kind, (int)q, (int)r, (flags & GAMQ__QF_FLAG_PACKED) != 0, &nslots, &bytes))
    return 0;
  h->kind = (gamq__qf_kind)kind, h->q = (int)q, h->r = (int)r, h->packed = (flags & GAMQ__QF_FLAG_PACKED) != 0;
  h->seed = gamq__load_le(buf + 32, 8);
  h->count = gamq__load_le(buf + 40, 8);
  h->nslots = gamq__load_le(buf + 48, 8);
  h->payload = gamq__load_le(buf + 56, 8);
  h->checksum = gamq__load_le(buf + 64, 8);
  return h->nslots == nslots && h->payload == (uint64_t)bytes && h->count <= nslots;
}

/* Is payload exactly the filter of header h? Count what it holds (a checked
   walk that writes nothing: a header's count the payload does not hold
   costs no allocation), extract it, rebuild that multiset on the host,
   compare the bytes. GAMQ_SUCCESS, GAMQ_ERROR_BAD_FILE or
   GAMQ_ERROR_OUT_OF_MEMORY; frees what it takes. */
static gamq_status gamq__qf_check_payload(const gamq__qf_header *h, const uint8_t *payload) {
  gamq__qf view, t;
  uint64_t *fps;
  gamq_status s = GAMQ_ERROR_BAD_FILE;
  view.kind = h->kind, view.q = h->q, view.r = h->r, view.packed = h->packed, view.seed = h->seed, view.nitems = h->count;
  view.nslots = h->nslots, view.bytes = (size_t)h->payload; /* as gamq__qf_layout_packed (checked) */
  view.data = (uint8_t *)payload; /* read only */
  if (!gamq__qf_extract_checked(&view, NULL, h->count)) return GAMQ_ERROR_BAD_FILE;
  fps = (uint64_t *)GAMQ_MALLOC(((size_t)h->count + 1) * sizeof(uint64_t));
  if (fps == NULL) return GAMQ_ERROR_OUT_OF_MEMORY;
  if (gamq__qf_extract_checked(&view, fps, h->count)) {
    gamq__qf_result res = gamq__qf_init_like(&t, &view);
    if (res == GAMQ__QF_OK) {
      res = gamq__qf_build(&t, fps, h->count, GAMQ__NA_SERIAL); /* unsorted (corrupt runs): BAD_ARG */
      if (res == GAMQ__QF_OK && memcmp(t.data, payload, t.bytes) == 0) s = GAMQ_SUCCESS;
      gamq__qf_free(&t);
    }
    if (res == GAMQ__QF_NO_MEMORY) s = GAMQ_ERROR_OUT_OF_MEMORY;
  }
  GAMQ_FREE(fps);
  return s;
}

/* Saving without losing what is at the path: the bytes go to a new file
   beside it, reach the disk, and only then replace the old one by rename.
   POSIX systems write through open(2) with O_SYNC (each write returns once
   its data is on the disk: fsync, hidden from strict C99 compiles, is not
   needed); elsewhere through stdio, which has no way to sync. */

/* Write buf to a new file tmp. 1: written and on the disk; 0: an error (no
   file left); -1: tmp exists already (try another name). */
static int gamq__write_new_file(const char *tmp, const uint8_t *buf, size_t n) {
  size_t done = 0;
  int ok = 1;
#if GAMQ__POSIX_FILES
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_SYNC, 0666);
  if (fd < 0) return errno == EEXIST ? -1 : 0;
  while (ok && done < n) {
    const size_t want = n - done < ((size_t)1 << 30) ? n - done : ((size_t)1 << 30);
    const ssize_t w = write(fd, buf + done, want);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ok = 0;
    else done += (size_t)w;
  }
  if (close(fd) != 0) ok = 0;
#else
  FILE *fp = fopen(tmp, "rb");
  if (fp != NULL) { /* C99 has no exclusive create: look first */
    fclose(fp);
    return -1;
  }
  fp = fopen(tmp, "wb");
  if (fp == NULL) return 0;
  done = fwrite(buf, 1, n, fp);
  ok = done == n && fflush(fp) == 0;
  if (fclose(fp) != 0) ok = 0;
#endif
  if (!ok) remove(tmp);
  return ok;
}

/* What a save finds at its path before it writes (POSIX): stat(2) tells a
   regular file from a directory, device, FIFO or socket; lstat(2) and
   realpath(3) (X/Open) find a symbolic link and the file it resolves to.
   Those two are declared by default on glibc, musl, macOS, the BSDs and
   Android, but hidden by a strict ISO mode (-std=c99 without
   _DEFAULT_SOURCE, _GNU_SOURCE or _XOPEN_SOURCE 500 or later; glibc wants
   X/Open for realpath, POSIX 2008 alone is not enough); there stat alone
   checks the file type, through any link, and a link at the path is
   replaced by the new file. */
#if GAMQ__POSIX_FILES
#if defined(_DEFAULT_SOURCE) || defined(_GNU_SOURCE) || defined(_BSD_SOURCE) ||                                 \
    (defined(_XOPEN_SOURCE) && (_XOPEN_SOURCE - 0) >= 500) ||                                                   \
    ((defined(__APPLE__) || defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__) ||              \
      defined(__DragonFly__) || defined(__ANDROID__)) &&                                                       \
     !defined(_POSIX_C_SOURCE) && !defined(_XOPEN_SOURCE))
#define GAMQ__POSIX_LINKS 1
#else
#define GAMQ__POSIX_LINKS 0
#endif
#endif

/* The file a save to path replaces. GAMQ_SUCCESS and *dest NULL: write at
   path itself (nothing is there, or a regular file); GAMQ_SUCCESS and *dest
   a name (realpath's malloc memory, for free()): path is a symbolic link
   (or a chain of them) to the regular file *dest, which the save replaces
   so that the link stays a link. GAMQ_ERROR_IO, *dest NULL: refused, as
   what is there (or what the link resolves to) is not a regular file, the
   link resolves to nothing (dangling, a loop: a dangling link is not
   followed to create a file wherever it points), or the path cannot be
   examined (lstat fails other than for ENOENT). Nothing is opened (a FIFO
   would block). Without POSIX files: *dest NULL, nothing checked. */
static gamq_status gamq__save_target(const char *path, char **dest) {
  *dest = NULL;
#if GAMQ__POSIX_FILES
  {
    struct stat st;
#if GAMQ__POSIX_LINKS
    if (lstat(path, &st) != 0) return errno == ENOENT ? GAMQ_SUCCESS : GAMQ_ERROR_IO;
    if (S_ISLNK(st.st_mode)) {
      *dest = realpath(path, NULL); /* every link of the chain followed */
      if (*dest == NULL || stat(*dest, &st) != 0) st.st_mode = 0; /* resolves to nothing: refused below */
    }
#else
    if (stat(path, &st) != 0) return errno == ENOENT ? GAMQ_SUCCESS : GAMQ_ERROR_IO;
#endif
    if (!S_ISREG(st.st_mode)) {
      free(*dest);
      *dest = NULL;
      return GAMQ_ERROR_IO;
    }
  }
#else
  (void)path;
#endif
  return GAMQ_SUCCESS;
}

/* The temporary name for a save to path: path + ".tmp" + 16 hex digits
   drawn from the time, a stack address, the attempt (and the process id on
   POSIX), in GAMQ_MALLOC memory; NULL when out of memory. A name in use
   makes the caller try the next attempt. */
static char *gamq__temp_name(const char *path, unsigned attempt) {
  const size_t len = strlen(path);
  char *tmp = (char *)GAMQ_MALLOC(len + 4 + 16 + 1);
  uint64_t h = gamq__qf_hash64((uint64_t)time(NULL), (uint64_t)(uintptr_t)&attempt);
  int i;
  if (tmp == NULL) return NULL;
#if GAMQ__POSIX_FILES
  h = gamq__qf_hash64(h, (uint64_t)getpid());
#endif
  h = gamq__qf_hash64(h, attempt);
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".tmp", 4);
  for (i = 0; i < 16; ++i) tmp[len + 4 + i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 15];
  tmp[len + 20] = '\0';
  return tmp;
}
