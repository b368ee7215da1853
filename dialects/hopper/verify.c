/* verify.c - the hopper verifier: the attribute ranges and operand shapes of hopper ops
 * that IRDL (hopper.irdl.mlir) cannot state, checked right after parsing (ttParseModule),
 * before any pass, so that the lowering (conversion/tile-to-gpu/hopper.c) reads only what
 * this file guarantees:
 *   - mbarrier_alloc: count 1 to 64 (each an 8-byte barrier in shared memory), an
 *     optional `arrivals` 1 to 1024;
 *   - mbarrier_arrive: an optional `multicast` 2 to 8;
 *   - tma_load: the ring a static memref<S x R x C x T, 3> of 1- or 2-byte T (or 1-byte
 *     fp8), R a multiple of 8 and C a multiple of 128 bytes, `dims` = array<i64: D0, D1> with D1 >= 1 and
 *     D0 >= 1 (or -1, a dynamic M), or array<i64: B, D0, D1> (a batched map) all >= 1 with
 *     D0 x D1 within i32 (the offsets' type), the offsets an i32 tile; an optional
 *     `multicast` C from 2 to 8 with dims of rank 2 and R a multiple of 8 C (each block of
 *     the cluster copies R / C whole 8-row groups of the swizzle);
 *   - wgmma_descriptor: swizzle 0, 32, 64 or 128;
 *   - wgmma: m = 64, n a multiple of 8 from 8 to 256, k 8, 16 or 32 (PTX's shapes);
 *   - wgmma_wait: pending 0 to 7; cluster_ctaid: axis 0, 1 or 2.
 * Each failing op gets a located error and the walk goes on.
 */
#include "tt.h"

#include <stdio.h>

typedef struct {
  bool ok;
} Verify;

/* op's integer attribute `key`, or INT64_MIN when absent or not an integer. */
static int64_t intAttr(MlirOperation op, const char *key) {
  MlirAttribute a = ttOpAttr(op, key);
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a)
                                                                : INT64_MIN;
}

static bool inRange(int64_t x, int64_t lo, int64_t hi) { return x >= lo && x <= hi; }

/* A ring in shared memory of 1- or 2-byte elements, R a multiple of 8, rows of a multiple
 * of 128 bytes. */
static bool tmaRingOk(MlirType ring) {
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(ring);
  int bytes = ttDtypeBytes(ring);
  return !mlirAttributeIsNull(space) && mlirAttributeIsAInteger(space) &&
         mlirIntegerAttrGetValueInt(space) == 3 && (bytes == 1 || bytes == 2) &&
         mlirShapedTypeGetDimSize(ring, 1) % 8 == 0 &&
         mlirShapedTypeGetDimSize(ring, 2) * bytes % 128 == 0;
}

static bool tmaLoadOk(MlirOperation op) {
  MlirType ring = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType offs = mlirValueGetType(mlirOperationGetOperand(op, 4));
  MlirAttribute dims = ttOpAttr(op, "dims");
  if (!mlirTypeIsAMemRef(ring) || mlirShapedTypeGetRank(ring) != 3 ||
      !mlirShapedTypeHasStaticShape(ring) || !mlirTypeIsARankedTensor(offs) ||
      !mlirTypeIsAInteger(ttElementType(offs)) ||
      mlirIntegerTypeGetWidth(ttElementType(offs)) != 32 || mlirAttributeIsNull(dims) ||
      !mlirAttributeIsADenseI64Array(dims) || mlirDenseArrayGetNumElements(dims) < 2 ||
      mlirDenseArrayGetNumElements(dims) > 3)
    return false;
  if (mlirDenseArrayGetNumElements(dims) == 3) /* [B, D0, D1]: a batched map, static */
    return mlirDenseI64ArrayGetElement(dims, 0) >= 1 && mlirDenseI64ArrayGetElement(dims, 1) >= 1 &&
           mlirDenseI64ArrayGetElement(dims, 2) >= 1 &&
           mlirDenseI64ArrayGetElement(dims, 1) <= INT32_MAX / mlirDenseI64ArrayGetElement(dims, 2) &&
           tmaRingOk(ring);
  int64_t d0 = mlirDenseI64ArrayGetElement(dims, 0), d1 = mlirDenseI64ArrayGetElement(dims, 1);
  return tmaRingOk(ring) && d1 >= 1 && (d0 >= 1 || d0 == -1);
}

/* The optional multicast of a rank-2 tma_load: absent, or C in 2..8 with R a multiple
 * of 8 C. */
static bool multicastOk(MlirOperation op) {
  if (mlirAttributeIsNull(ttOpAttr(op, "multicast")))
    return true;
  int64_t c = intAttr(op, "multicast");
  MlirType ring = mlirValueGetType(mlirOperationGetOperand(op, 1));
  return inRange(c, 2, 8) && mlirDenseArrayGetNumElements(ttOpAttr(op, "dims")) == 2 &&
         mlirShapedTypeGetDimSize(ring, 1) % (8 * c) == 0;
}

static bool visit(MlirOperation op, void *data) {
  Verify *v = data;
  const char *msg = NULL;
  if (!ttOpHasPrefix(op, "hopper."))
    return true;
  if (ttOpIs(op, "hopper.mbarrier_alloc")) {
    if (!inRange(intAttr(op, "count"), 1, 64))
      msg = "'hopper.mbarrier_alloc' needs count, an integer from 1 to 64";
    else if (!mlirAttributeIsNull(ttOpAttr(op, "arrivals")) &&
             !inRange(intAttr(op, "arrivals"), 1, 1024))
      msg = "'hopper.mbarrier_alloc' arrivals must be an integer from 1 to 1024";
  } else if (ttOpIs(op, "hopper.mbarrier_arrive")) {
    if (!mlirAttributeIsNull(ttOpAttr(op, "multicast")) && !inRange(intAttr(op, "multicast"), 2, 8))
      msg = "'hopper.mbarrier_arrive' multicast must be an integer from 2 to 8";
  } else if (ttOpIs(op, "hopper.tma_load")) {
    if (!tmaLoadOk(op))
      msg = "'hopper.tma_load' needs a static memref<S x R x C x T, 3> ring of 1- or 2-byte "
            "T, R a multiple of 8 and rows of a multiple of 128 bytes, i32 offsets and dims = array<i64: D0, "
            "D1> (D1 >= 1; D0 >= 1, or -1 for a dynamic M) or array<i64: B, D0, D1> (each "
            ">= 1, D0 x D1 within i32)";
    else if (!multicastOk(op))
      msg = "'hopper.tma_load' multicast needs an integer from 2 to 8, dims of rank 2 and "
            "ring rows a multiple of 8 times it";
  } else if (ttOpIs(op, "hopper.wgmma_descriptor")) {
    int64_t s = intAttr(op, "swizzle");
    if (s != 0 && s != 32 && s != 64 && s != 128)
      msg = "'hopper.wgmma_descriptor' needs swizzle 0, 32, 64 or 128";
  } else if (ttOpIs(op, "hopper.wgmma")) {
    int64_t m = intAttr(op, "m"), n = intAttr(op, "n"), k = intAttr(op, "k");
    if (m != 64 || !inRange(n, 8, 256) || n % 8 != 0 || (k != 8 && k != 16 && k != 32))
      msg = "'hopper.wgmma' needs m = 64, n a multiple of 8 from 8 to 256 and k 8, 16 or 32";
  } else if (ttOpIs(op, "hopper.wgmma_wait")) {
    if (!inRange(intAttr(op, "pending"), 0, 7))
      msg = "'hopper.wgmma_wait' needs pending, an integer from 0 to 7";
  } else if (ttOpIs(op, "hopper.cluster_ctaid")) {
    if (!inRange(intAttr(op, "axis"), 0, 2))
      msg = "'hopper.cluster_ctaid' needs axis, an integer from 0 to 2";
  }
  if (msg) {
    ttEmitError(op, "%s", msg);
    v->ok = false;
  }
  return true;
}

bool ttHopperVerify(MlirOperation root) {
  Verify v = {true};
  ttWalk(root, visit, &v);
  return v.ok;
}
