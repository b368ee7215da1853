/* dtype.c - the dtypes of the runtime: one table of their names, sizes and
 * codings, and the conversions of float64 values to their bit patterns and
 * back.
 *
 * kDtypes holds, per TtrtDtype, everything the metadata parser (meta.c) and
 * the reference interpreter and tt-run (ref.h) need: the metadata name, the
 * bytes of an element, and how a value is coded: IEEE f64 or f32, a small
 * float (f16, bf16, fp8) described by its exponent and mantissa widths, i1 as
 * one byte, or a two's-complement integer with the range it saturates to.
 * Small floats round with bit arithmetic on the double (round to nearest even
 * on the dropped mantissa bits, or on multiples of the smallest subnormal
 * below the smallest normal); overflow goes to infinity, or to NaN in a
 * format without infinities (e4m3fn). Integers truncate toward zero and
 * saturate, NaN to 0 (docs/metadata.md). The names and sizes are declared in
 * meta.h, the encoding in ref.h.
 */
#include "meta.h"
#include "ref.h"

#include <float.h>
#include <math.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * The dtype table
 *===------------------------------------------------------------------===*/

/* A binary floating-point format of 1 sign bit, expBits exponent bits and
 * manBits mantissa bits. IEEE-like formats have infinities and NaNs in the
 * all-ones exponent; a finiteOnly format (e4m3fn) uses all-ones exponent for
 * normal numbers and has one NaN, all-ones exponent and mantissa, and no
 * infinity. */
typedef struct MiniFormat {
  int expBits;
  int manBits;
  int bias;
  bool finiteOnly;
} MiniFormat;

/* How the values of a dtype are coded in its bits; the float codings come
 * first (ttrtDtypeIsFloat). */
typedef enum Coding {
  CODING_F64,  /* IEEE binary64 */
  CODING_F32,  /* IEEE binary32 */
  CODING_MINI, /* a small float: DtypeInfo.mini */
  CODING_I1,   /* one byte, x != 0 */
  CODING_INT   /* two's complement, saturating to [min, max] */
} Coding;

typedef struct DtypeInfo {
  const char *name; /* in the metadata */
  size_t size;      /* bytes per element in a device buffer */
  Coding coding;
  MiniFormat mini;  /* CODING_MINI */
  int64_t min, max; /* the integer range (CODING_INT saturates to it) */
} DtypeInfo;

static const DtypeInfo kDtypes[TTRT_DTYPE_COUNT] = {
    /* name, size, coding, mini (expBits, manBits, bias, finiteOnly), range */
    [TTRT_DTYPE_F64] = {"f64", 8, CODING_F64, {0}, 0, 0},
    [TTRT_DTYPE_F32] = {"f32", 4, CODING_F32, {0}, 0, 0},
    [TTRT_DTYPE_F16] = {"f16", 2, CODING_MINI, {5, 10, 15, false}, 0, 0},
    [TTRT_DTYPE_BF16] = {"bf16", 2, CODING_MINI, {8, 7, 127, false}, 0, 0},
    [TTRT_DTYPE_F8E4M3] = {"f8e4m3", 1, CODING_MINI, {4, 3, 7, true}, 0, 0},
    [TTRT_DTYPE_F8E5M2] = {"f8e5m2", 1, CODING_MINI, {5, 2, 15, false}, 0, 0},
    [TTRT_DTYPE_I1] = {"i1", 1, CODING_I1, {0}, 0, 1},
    [TTRT_DTYPE_I8] = {"i8", 1, CODING_INT, {0}, INT8_MIN, INT8_MAX},
    [TTRT_DTYPE_I32] = {"i32", 4, CODING_INT, {0}, INT32_MIN, INT32_MAX},
    [TTRT_DTYPE_I64] = {"i64", 8, CODING_INT, {0}, INT64_MIN, INT64_MAX},
};

bool ttrtDtypeParse(const char *name, TtrtDtype *out) {
  for (int i = 0; i < TTRT_DTYPE_COUNT; ++i) {
    if (strcmp(kDtypes[i].name, name) == 0) {
      *out = (TtrtDtype)i;
      return true;
    }
  }
  return false;
}

const char *ttrtDtypeGetName(TtrtDtype dtype) { return kDtypes[dtype].name; }
size_t ttrtDtypeGetSize(TtrtDtype dtype) { return kDtypes[dtype].size; }
bool ttrtDtypeIsFloat(TtrtDtype dtype) {
  return kDtypes[dtype].coding <= CODING_MINI;
}

/*===------------------------------------------------------------------===*
 * Small floats (f16, bf16, f8e4m3, f8e5m2)
 *===------------------------------------------------------------------===*/

/* The bits of a double. */
static uint64_t doubleBits(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b;
}

/* The double of some bits. */
static double bitsDouble(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* The largest finite value of the format. */
static double miniMaxFinite(const MiniFormat *f) {
  int topExp = (1 << f->expBits) - (f->finiteOnly ? 1 : 2);
  uint64_t topMan = (1u << f->manBits) - (f->finiteOnly ? 2 : 1);
  return bitsDouble((uint64_t)(topExp - f->bias + 1023) << 52 |
                    topMan << (52 - f->manBits));
}

/* The exponent field of all ones, in place. */
static uint32_t miniExpMask(const MiniFormat *f) {
  return ((1u << f->expBits) - 1) << f->manBits;
}

/* The NaN pattern of the format (quiet, positive). */
static uint32_t miniNaN(const MiniFormat *f) {
  if (f->finiteOnly)
    return miniExpMask(f) | ((1u << f->manBits) - 1);
  return miniExpMask(f) | (1u << (f->manBits - 1));
}

/* Rounds a finite a > 0 to the format's precision (nearest, ties to even)
 * where the result is no subnormal of the format: drops the low 52 - manBits
 * mantissa bits of the double; a carry moves into the exponent by itself. */
static double miniRoundNormal(const MiniFormat *f, double a) {
  int shift = 52 - f->manBits;
  uint64_t b = doubleBits(a);
  uint64_t lsb = (b >> shift) & 1;
  b += ((uint64_t)1 << (shift - 1)) - 1 + lsb;
  return bitsDouble(b & ~(((uint64_t)1 << shift) - 1));
}

/* Rounds a finite a > 0 below the format's smallest normal to a multiple of
 * the smallest subnormal (nearest, ties to even). */
static double miniRoundSubnormal(const MiniFormat *f, double a) {
  double quantum = ldexp(1.0, 1 - f->bias - f->manBits);
  /* a / quantum < 2^manBits: nearbyint is exact, ties to even. */
  return nearbyint(a / quantum) * quantum;
}

/* Bits of a value r >= 0 that is exactly representable in `f`. */
static uint32_t miniBitsOf(const MiniFormat *f, double r) {
  int emin = 1 - f->bias;
  uint64_t b = doubleBits(r);
  int e = (int)(b >> 52) - 1023;
  if (r == 0 || e < emin) /* zero or subnormal */
    return (uint32_t)ldexp(r, f->manBits - emin);
  uint32_t mantissa = (uint32_t)(b >> (52 - f->manBits)) &
                      ((1u << f->manBits) - 1);
  return ((uint32_t)(e + f->bias) << f->manBits) | mantissa;
}

/* Rounds `x` to the format, to nearest even, with subnormals; overflow goes
 * to infinity, or to NaN in a finiteOnly format. Returns the bits. */
static uint32_t miniEncode(const MiniFormat *f, double x) {
  uint32_t sign = signbit(x) ? 1u << (f->expBits + f->manBits) : 0;
  double a = fabs(x);
  if (isnan(x))
    return sign | miniNaN(f);
  if (a == 0)
    return sign;
  if (!isinf(a)) {
    int e = (int)(doubleBits(a) >> 52) - 1023; /* a >= 2^e */
    a = e >= 1 - f->bias ? miniRoundNormal(f, a) : miniRoundSubnormal(f, a);
    if (a <= miniMaxFinite(f))
      return sign | miniBitsOf(f, a);
  }
  return sign | (f->finiteOnly ? miniNaN(f) : miniExpMask(f));
}

/* The value of bits of the format. */
static double miniDecode(const MiniFormat *f, uint32_t bits) {
  uint32_t manMask = (1u << f->manBits) - 1;
  uint32_t exp = (bits & miniExpMask(f)) >> f->manBits;
  uint32_t man = bits & manMask;
  bool negative = (bits >> (f->expBits + f->manBits)) & 1;
  uint32_t topExp = (1u << f->expBits) - 1;
  double v;
  if (f->finiteOnly && exp == topExp && man == manMask)
    return NAN;
  if (!f->finiteOnly && exp == topExp)
    v = man ? NAN : INFINITY;
  else if (exp == 0)
    v = ldexp((double)man, 1 - f->bias - f->manBits);
  else
    v = bitsDouble((uint64_t)((int)exp - f->bias + 1023) << 52 |
                   (uint64_t)man << (52 - f->manBits));
  return negative ? -v : v;
}

/*===------------------------------------------------------------------===*
 * Integers
 *===------------------------------------------------------------------===*/

/* Truncates toward zero and saturates to [lo, hi]; NaN is 0. */
static int64_t saturateToInteger(double x, int64_t lo, int64_t hi) {
  if (isnan(x))
    return 0;
  if (x < (double)lo)
    return lo;
  /* (double)hi + 1 is 2^7, 2^31 or 2^63 (exact), the first value too
   * large. */
  if (x >= (double)hi + 1.0)
    return hi;
  return (int64_t)trunc(x);
}

/* The low `size` bytes of `bits`. */
static uint64_t lowBytes(uint64_t bits, size_t size) {
  return size == 8 ? bits : bits & (((uint64_t)1 << (8 * size)) - 1);
}

/* The value of the two's-complement integer in the low `size` bytes. */
static int64_t signExtend(uint64_t bits, size_t size) {
  uint64_t sign = (uint64_t)1 << (8 * size - 1);
  return (int64_t)((lowBytes(bits, size) ^ sign) - sign);
}

/*===------------------------------------------------------------------===*
 * Encoding of all dtypes
 *===------------------------------------------------------------------===*/

uint64_t ttrtDtypeEncode(TtrtDtype dtype, double x) {
  const DtypeInfo *d = &kDtypes[dtype];
  switch (d->coding) {
  case CODING_F64:
    return doubleBits(x);
  case CODING_F32: {
    float f = (float)x;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
  }
  case CODING_MINI:
    return miniEncode(&d->mini, x);
  case CODING_I1:
    return x != 0;
  default:
    return lowBytes((uint64_t)saturateToInteger(x, d->min, d->max), d->size);
  }
}

double ttrtDtypeDecode(TtrtDtype dtype, uint64_t bits) {
  const DtypeInfo *d = &kDtypes[dtype];
  switch (d->coding) {
  case CODING_F64:
    return bitsDouble(bits);
  case CODING_F32: {
    uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, sizeof f);
    return f;
  }
  case CODING_MINI:
    return miniDecode(&d->mini, (uint32_t)bits);
  case CODING_I1:
    return (double)(uint8_t)bits;
  default:
    return (double)signExtend(bits, d->size);
  }
}

bool ttrtDtypeHolds(TtrtDtype dtype, double x) {
  if (dtype < 0 || dtype >= TTRT_DTYPE_COUNT)
    return false;
  const DtypeInfo *d = &kDtypes[dtype];
  switch (d->coding) {
  case CODING_F64:
    return true;
  case CODING_F32:
    return isnan(x) || isinf(x) || fabs(x) <= FLT_MAX;
  case CODING_MINI:
    return isnan(x) || (isinf(x) && !d->mini.finiteOnly) || fabs(x) <= miniMaxFinite(&d->mini);
  case CODING_I1:
    return x == 0 || x == 1;
  case CODING_INT: /* (double)max + 1 is exact, 2^63 for i64 */
    return x == floor(x) && x >= (double)d->min && x < (double)d->max + 1.0;
  }
  return false;
}

double ttrtDtypeRound(TtrtDtype dtype, double x) {
  if (dtype == TTRT_DTYPE_F64)
    return x;
  if (dtype == TTRT_DTYPE_F32)
    return (double)(float)x;
  return ttrtDtypeDecode(dtype, ttrtDtypeEncode(dtype, x));
}

void ttrtDtypePack(TtrtDtype dtype, const double *values, size_t count,
                   void *bytes) {
  size_t size = ttrtDtypeGetSize(dtype);
  unsigned char *out = bytes;
  for (size_t i = 0; i < count; ++i) {
    uint64_t bits = ttrtDtypeEncode(dtype, values[i]);
    for (size_t b = 0; b < size; ++b)
      *out++ = (unsigned char)(bits >> (8 * b));
  }
}

void ttrtDtypeUnpack(TtrtDtype dtype, const void *bytes, size_t count,
                     double *values) {
  size_t size = ttrtDtypeGetSize(dtype);
  const unsigned char *in = bytes;
  for (size_t i = 0; i < count; ++i) {
    uint64_t bits = 0;
    for (size_t b = 0; b < size; ++b)
      bits |= (uint64_t)*in++ << (8 * b);
    values[i] = ttrtDtypeDecode(dtype, bits);
  }
}
