/* npz.c - NumPy .npz archives (npz.h): a zip archive of .npy members.
 *
 * Reading: the whole file is read; the end-of-central-directory record (and its zip64
 * form, which numpy.savez may write) gives the central directory; each entry names a
 * member, its method (0 stored; 8 deflated, inflated by zlib when built with
 * TT_HAVE_ZLIB), sizes (zip64 extra field when they overflow 32 bits) and local header,
 * after which the data lies. Each member's CRC-32 is checked. A member is an .npy file:
 * magic, version, a header dict ({'descr': '<f4', 'fortran_order': False, 'shape':
 * (3, 4), }) and the C-order data; big-endian and Fortran-order arrays are refused.
 * Writing: one stored member per array (no compression, no zip64: at most 4 GiB each),
 * then the central directory and its end record. Every length read from the file is
 * bounds-checked before use: a truncated or hostile archive is an error, not a crash.
 */
#define _POSIX_C_SOURCE 200809L
#include "npz.h"
#include "ref.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef TT_HAVE_ZLIB
#include <zlib.h>
#endif

static bool fail(char *msg, size_t size, const char *fmt, ...) TTRT_PRINTF(3, 4);
static bool fail(char *msg, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, size, fmt, ap);
  va_end(ap);
  return false;
}

/* CRC-32 (IEEE 802.3, reflected, as zip uses), table-driven. */
static uint32_t crc32Of(const unsigned char *p, size_t n) {
  static uint32_t table[256];
  if (!table[1])
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i)
    c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

static uint64_t le(const unsigned char *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = v << 8 | p[i];
  return v;
}

static void put(unsigned char *p, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i, v >>= 8)
    p[i] = (unsigned char)(v & 0xFF);
}

/*===------------------------------------------------------------------===*
 * .npy members
 *===------------------------------------------------------------------===*/

/* The value text after 'key': in the header dict, or NULL. */
static const char *dictValue(const char *dict, const char *key) {
  char quoted[32];
  snprintf(quoted, sizeof quoted, "'%s'", key);
  const char *k = strstr(dict, quoted);
  if (!k)
    return NULL;
  k += strlen(quoted);
  while (*k == ' ' || *k == ':')
    ++k;
  return k;
}

/* Parses member bytes p[0..n) as an .npy array into a (data copied). */
static bool parseNpy(const unsigned char *p, size_t n, NpzArray *a, char *msg,
                     size_t size) {
  if (n < 10 || memcmp(p, "\x93NUMPY", 6) != 0)
    return fail(msg, size, "not an .npy file (no \\x93NUMPY magic)");
  int major = p[6];
  size_t hl = major == 1 ? le(p + 8, 2) : le(p + 8, 4), start = major == 1 ? 10 : 12;
  if (major < 1 || major > 3 || start + hl > n)
    return fail(msg, size, ".npy version %d or header length out of range", major);
  char dict[4096];
  if (hl >= sizeof dict)
    return fail(msg, size, ".npy header of %zu bytes is too long", hl);
  memcpy(dict, p + start, hl);
  dict[hl] = '\0';
  const char *descr = dictValue(dict, "descr"), *fo = dictValue(dict, "fortran_order"),
             *shape = dictValue(dict, "shape");
  if (!descr || !fo || !shape || descr[0] != '\'' || shape[0] != '(')
    return fail(msg, size, "bad .npy header %s", dict);
  char order = descr[1], kind = descr[2];
  char *end;
  long item = strtol(descr + 3, &end, 10);
  if (*end != '\'' || (order != '<' && order != '|' && !(order == '>' && item == 1)) ||
      !strchr("fiubV", kind) || item < 1 || item > 8)
    return fail(msg, size, "dtype %.*s is not one tt-run reads (little-endian f, i, u, "
                           "b or raw V of 1-8 bytes)", (int)strcspn(descr + 1, "'") + 2,
                descr);
  if (strncmp(fo, "False", 5) != 0)
    return fail(msg, size, "a Fortran-order array (save np.ascontiguousarray(x))");
  a->kind = kind;
  a->itemSize = (int)item;
  a->rank = 0;
  a->count = 1;
  const char *s = shape + 1;
  while (*s && *s != ')') {
    while (*s == ' ' || *s == ',')
      ++s;
    if (*s == ')')
      break;
    errno = 0;
    long long d = strtoll(s, &end, 10);
    if (end == s || errno || d < 0 || a->rank == TTRT_MAX_RANK)
      return fail(msg, size, "bad shape in .npy header %s", dict);
    a->shape[a->rank++] = d;
    if (d && a->count > SIZE_MAX / 8 / (size_t)d)
      return fail(msg, size, "array too large");
    a->count *= (size_t)d;
    s = end;
  }
  size_t bytes = a->count * (size_t)item, at = start + hl;
  if (at + bytes > n || at + bytes < at)
    return fail(msg, size, "data of %zu bytes past the member's end", bytes);
  a->data = malloc(bytes ? bytes : 1);
  if (!a->data)
    return fail(msg, size, "out of memory");
  memcpy(a->data, p + at, bytes);
  return true;
}

/*===------------------------------------------------------------------===*
 * Reading the archive
 *===------------------------------------------------------------------===*/

/* The bytes of a member: stored ones point into the file; deflated ones are inflated
 * into *owned. */
static bool memberBytes(const unsigned char *file, size_t fileSize, uint64_t local,
                        int method, uint64_t csize, uint64_t usize,
                        const unsigned char **bytes, unsigned char **owned, char *msg,
                        size_t size) {
  *owned = NULL;
  if (local > fileSize || fileSize - local < 30 || le(file + local, 4) != 0x04034b50)
    return fail(msg, size, "no local header at offset %llu", (unsigned long long)local);
  uint64_t data = local + 30 + le(file + local + 26, 2) + le(file + local + 28, 2);
  if (data > fileSize || csize > fileSize - data)
    return fail(msg, size, "data past the end of the file");
  if (method == 0) {
    if (csize != usize)
      return fail(msg, size, "stored member with two sizes");
    *bytes = file + data;
    return true;
  }
  if (method != 8)
    return fail(msg, size, "compression method %d (tt-run reads stored or deflated "
                           "members)", method);
#ifdef TT_HAVE_ZLIB
  if (usize > ((uint64_t)1 << 40) || !(*owned = malloc(usize ? usize : 1)))
    return fail(msg, size, "out of memory inflating %llu bytes", (unsigned long long)usize);
  z_stream z;
  memset(&z, 0, sizeof z);
  if (inflateInit2(&z, -15) != Z_OK)
    return fail(msg, size, "zlib: inflateInit2 failed");
  z.next_in = (Bytef *)(uintptr_t)(file + data);
  z.next_out = *owned;
  uint64_t inLeft = csize, outLeft = usize;
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.avail_in = (uInt)(inLeft < 0x40000000u ? inLeft : 0x40000000u);
    z.avail_out = (uInt)(outLeft < 0x40000000u ? outLeft : 0x40000000u);
    uInt ai = z.avail_in, ao = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    inLeft -= ai - z.avail_in;
    outLeft -= ao - z.avail_out;
    if (rc == Z_OK && ai == z.avail_in && ao == z.avail_out)
      rc = Z_BUF_ERROR; /* no progress */
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END || outLeft)
    return fail(msg, size, "deflated data is corrupt");
  *bytes = *owned;
  return true;
#else
  (void)usize;
  return fail(msg, size, "a deflated member (numpy.savez_compressed): this tt-run was "
                         "built without zlib; save with numpy.savez");
#endif
}

/* Where the central directory starts and how many entries it has. */
static bool centralDirectory(const unsigned char *f, size_t n, uint64_t *start,
                             uint64_t *entries, char *msg, size_t size) {
  if (n < 22)
    return fail(msg, size, "not a zip archive (too short)");
  size_t eocd = n - 22, stop = n > 65557 ? n - 65557 : 0;
  while (le(f + eocd, 4) != 0x06054b50) {
    if (eocd == stop)
      return fail(msg, size, "not a zip archive (no end of central directory)");
    --eocd;
  }
  *entries = le(f + eocd + 10, 2);
  *start = le(f + eocd + 16, 4);
  if ((*entries == 0xFFFF || *start == 0xFFFFFFFFu) && eocd >= 20 &&
      le(f + eocd - 20, 4) == 0x07064b50) { /* zip64 locator -> zip64 end record */
    uint64_t z = le(f + eocd - 20 + 8, 8);
    if (z > n || n - z < 56 || le(f + z, 4) != 0x06064b50)
      return fail(msg, size, "bad zip64 end of central directory");
    *entries = le(f + z + 32, 8);
    *start = le(f + z + 48, 8);
  }
  if (*start > n)
    return fail(msg, size, "central directory past the end of the file");
  return true;
}

static bool readArchive(const unsigned char *f, size_t n, Npz *out, char *msg,
                        size_t size) {
  uint64_t at = 0, entries = 0;
  if (!centralDirectory(f, n, &at, &entries, msg, size))
    return false;
  if (entries > n / 46)
    return fail(msg, size, "%llu entries cannot fit the file", (unsigned long long)entries);
  out->arrays = calloc(entries ? entries : 1, sizeof *out->arrays);
  if (!out->arrays)
    return fail(msg, size, "out of memory");
  for (uint64_t e = 0; e < entries; ++e) {
    if (n - at < 46 || le(f + at, 4) != 0x02014b50)
      return fail(msg, size, "bad central directory entry %llu", (unsigned long long)e);
    int method = (int)le(f + at + 10, 2);
    uint32_t crc = (uint32_t)le(f + at + 16, 4);
    uint64_t csize = le(f + at + 20, 4), usize = le(f + at + 24, 4),
             local = le(f + at + 42, 4);
    size_t nameLen = le(f + at + 28, 2), extraLen = le(f + at + 30, 2),
           commentLen = le(f + at + 32, 2);
    if (n - at - 46 < nameLen + extraLen + commentLen)
      return fail(msg, size, "central directory entry %llu past the end",
                  (unsigned long long)e);
    const unsigned char *name = f + at + 46, *extra = name + nameLen;
    for (size_t x = 0; x + 4 <= extraLen;) { /* zip64: the sizes that overflowed */
      size_t id = le(extra + x, 2), len = le(extra + x + 2, 2), k = x + 4;
      if (x + 4 + len > extraLen)
        break;
      if (id == 1) {
        if (usize == 0xFFFFFFFFu && k + 8 <= x + 4 + len)
          usize = le(extra + k, 8), k += 8;
        if (csize == 0xFFFFFFFFu && k + 8 <= x + 4 + len)
          csize = le(extra + k, 8), k += 8;
        if (local == 0xFFFFFFFFu && k + 8 <= x + 4 + len)
          local = le(extra + k, 8);
      }
      x += 4 + len;
    }
    NpzArray *a = &out->arrays[out->count++];
    size_t keep = nameLen >= 4 && memcmp(name + nameLen - 4, ".npy", 4) == 0
                      ? nameLen - 4 : nameLen;
    snprintf(a->name, sizeof a->name, "%.*s", (int)keep, (const char *)name);
    char why[256];
    const unsigned char *bytes = NULL;
    unsigned char *owned;
    bool ok = memberBytes(f, n, local, method, csize, usize, &bytes, &owned, why,
                          sizeof why);
    if (ok && crc32Of(bytes, usize) != crc)
      ok = fail(why, sizeof why, "CRC-32 mismatch (a corrupt archive)");
    ok = ok && parseNpy(bytes, usize, a, why, sizeof why);
    free(owned);
    if (!ok)
      return fail(msg, size, "member %s.npy: %s", a->name, why);
    at += 46 + nameLen + extraLen + commentLen;
  }
  return true;
}

bool npzRead(const char *path, Npz *out, char *msg, size_t size) {
  memset(out, 0, sizeof *out);
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return fail(msg, size, "%s: cannot open: %s", path, strerror(errno));
  unsigned char *f = NULL;
  long n = -1;
  if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 && fseek(fp, 0, SEEK_SET) == 0)
    f = malloc((size_t)n + 1);
  bool ok = f && fread(f, 1, (size_t)n, fp) == (size_t)n;
  fclose(fp);
  char why[512];
  if (!ok)
    snprintf(why, sizeof why, "cannot read the file");
  else
    ok = readArchive(f, (size_t)n, out, why, sizeof why);
  free(f);
  if (!ok) {
    npzFree(out);
    return fail(msg, size, "%s: %s", path, why);
  }
  return true;
}

const NpzArray *npzFind(const Npz *npz, const char *name) {
  for (int i = 0; i < npz->count; ++i)
    if (strcmp(npz->arrays[i].name, name) == 0)
      return &npz->arrays[i];
  return NULL;
}

const NpzArray *npzMember(const Npz *npz, const char *prefix, int i, int total) {
  char name[64];
  snprintf(name, sizeof name, "%s%d", prefix, i);
  const NpzArray *a = npzFind(npz, name);
  snprintf(name, sizeof name, "arr_%d", i);
  if (!a)
    a = npzFind(npz, name);
  if (!a && npz->count == total && i < total)
    a = &npz->arrays[i];
  return a;
}

bool npzToDoubles(const NpzArray *a, TtrtDtype dtype, double *out, char *msg,
                  size_t size) {
  int k = a->itemSize;
  if (a->kind == 'V' && (size_t)k != ttrtDtypeGetSize(dtype))
    return fail(msg, size, "raw %d-byte values for a %s tensor", k,
                ttrtDtypeGetName(dtype));
  if (a->kind == 'f' && k != 2 && k != 4 && k != 8)
    return fail(msg, size, "float of %d bytes", k);
  for (size_t i = 0; i < a->count; ++i) {
    uint64_t bits = le(a->data + i * (size_t)k, k);
    double v;
    if (a->kind == 'V')
      v = ttrtDtypeDecode(dtype, bits);
    else if (a->kind == 'f' && k == 2)
      v = ttrtDtypeDecode(TTRT_DTYPE_F16, bits);
    else if (a->kind == 'f' && k == 4) {
      float x;
      uint32_t b = (uint32_t)bits;
      memcpy(&x, &b, 4);
      v = x;
    } else if (a->kind == 'f') {
      memcpy(&v, &bits, 8);
    } else if (a->kind == 'i') {
      int64_t s = (int64_t)(bits << (64 - 8 * k)) >> (64 - 8 * k);
      v = (double)s;
    } else {
      v = (double)bits;
    }
    out[i] = a->kind == 'V' ? v : ttrtDtypeRound(dtype, v);
  }
  return true;
}

/*===------------------------------------------------------------------===*
 * Writing
 *===------------------------------------------------------------------===*/

/* The .npy descr and item size tt-run writes for a dtype. */
static const char *descrOf(TtrtDtype d, int *item) {
  switch (d) {
  case TTRT_DTYPE_F64: *item = 8; return "<f8";
  case TTRT_DTYPE_F16: *item = 2; return "<f2";
  case TTRT_DTYPE_I1: *item = 1; return "|b1";
  case TTRT_DTYPE_I8: *item = 1; return "|i1";
  case TTRT_DTYPE_I32: *item = 4; return "<i4";
  case TTRT_DTYPE_I64: *item = 8; return "<i8";
  default: *item = 4; return "<f4"; /* f32, and bf16/f8 exactly */
  }
}

/* The .npy bytes of one array (malloc'd). */
static unsigned char *npyBytes(const NpzOut *o, size_t *length) {
  int item;
  const char *descr = descrOf(o->dtype, &item);
  char shape[512] = "", dict[640];
  size_t count = (size_t)ttrtShapeGetNumel(o->shape);
  for (int d = 0; d < o->shape->rank; ++d)
    snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%lld,%s",
             (long long)o->shape->dims[d], o->shape->rank > 1 && d + 1 < o->shape->rank
                                               ? " " : "");
  if (o->shape->rank > 1)
    shape[strlen(shape) - 1] = '\0'; /* (2, 3) but (5,) */
  int len = snprintf(dict, sizeof dict,
                     "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr,
                     shape);
  size_t header = ((size_t)len + 11 + 63) / 64 * 64; /* magic..newline, 64-aligned */
  *length = header + count * (size_t)item;
  unsigned char *p = malloc(*length);
  if (!p)
    return NULL;
  memcpy(p, "\x93NUMPY\x01\x00", 8);
  put(p + 8, header - 10, 2);
  memset(p + 10, ' ', header - 10);
  memcpy(p + 10, dict, (size_t)len);
  p[header - 1] = '\n';
  for (size_t i = 0; i < count; ++i) {
    unsigned char *e = p + header + i * (size_t)item;
    double v = o->values[i];
    if (o->dtype == TTRT_DTYPE_F64) {
      uint64_t b;
      memcpy(&b, &v, 8);
      put(e, b, 8);
    } else if (item == 4 && o->dtype != TTRT_DTYPE_I32) {
      float x = (float)v;
      uint32_t b;
      memcpy(&b, &x, 4);
      put(e, b, 4);
    } else {
      put(e, ttrtDtypeEncode(o->dtype, v), item);
    }
  }
  return p;
}

bool npzWrite(const char *path, const NpzOut *arrays, int count, char *msg,
              size_t size) {
  FILE *fp = fopen(path, "wb");
  if (!fp)
    return fail(msg, size, "%s: cannot create: %s", path, strerror(errno));
  unsigned char *central = calloc((size_t)count + 1, 46 + 128);
  size_t centralLen = 0;
  uint64_t offset = 0;
  bool ok = central != NULL;
  for (int i = 0; ok && i < count; ++i) {
    size_t length;
    unsigned char *npy = npyBytes(&arrays[i], &length);
    char name[132];
    int nameLen = snprintf(name, sizeof name, "%.120s.npy", arrays[i].name);
    if (!npy || length >= 0xFFFFFFFFu || offset >= 0xFFFFFFFFu) {
      free(npy);
      ok = false;
      break;
    }
    uint32_t crc = crc32Of(npy, length);
    unsigned char local[30] = {0};
    put(local, 0x04034b50, 4);
    put(local + 4, 20, 2); /* version needed: 2.0 */
    put(local + 14, crc, 4);
    put(local + 18, length, 4);
    put(local + 22, length, 4);
    put(local + 26, (uint64_t)nameLen, 2);
    unsigned char *c = central + centralLen;
    put(c, 0x02014b50, 4);
    put(c + 4, 20, 2);
    memcpy(c + 6, local + 4, 26); /* version needed .. name length, then zeros */
    put(c + 42, offset, 4);
    memcpy(c + 46, name, (size_t)nameLen);
    centralLen += 46 + (size_t)nameLen;
    ok = fwrite(local, 1, 30, fp) == 30 && fwrite(name, 1, (size_t)nameLen, fp) ==
         (size_t)nameLen && fwrite(npy, 1, length, fp) == length;
    offset += 30 + (size_t)nameLen + length;
    free(npy);
  }
  unsigned char end[22] = {0};
  put(end, 0x06054b50, 4);
  put(end + 8, (uint64_t)count, 2);
  put(end + 10, (uint64_t)count, 2);
  put(end + 12, centralLen, 4);
  put(end + 16, offset, 4);
  ok = ok && offset < 0xFFFFFFFFu && fwrite(central, 1, centralLen, fp) == centralLen &&
       fwrite(end, 1, 22, fp) == 22;
  free(central);
  if (fclose(fp) != 0)
    ok = false;
  if (!ok) {
    remove(path);
    return fail(msg, size, "%s: cannot write the archive (out of memory, a disk error, "
                           "or over 4 GiB)", path);
  }
  return true;
}

void npzFree(Npz *npz) {
  for (int i = 0; i < npz->count; ++i)
    free(npz->arrays[i].data);
  free(npz->arrays);
  npz->arrays = NULL;
  npz->count = 0;
}
