/* move.c - --tile's data movement emission: slice, concat, index_select, gather, pad and
 * iota at a tile of offsets (part of step 4 of kernel.c's algorithm; emit.c's recursion
 * calls tileEmitMove for these ops).
 *
 * Each op is pointwise in its result's iteration space: an element's offset in the result
 * (row-major) gives, per dim d, its index i_d = offs / stride_d % size_d (dimIndex: no
 * division for the last dim, no remainder for the first), and the op says where its
 * operand is read:
 *  - slice: start_d + step_d * i_d in every dim (sliceOffsets);
 *  - concat along dim: the operand whose range [lo, hi) of dim holds i_dim, at
 *    outer * (its size * inner) + (i_dim - lo) * inner + offs % inner (inner: the product
 *    of the dims after dim), each operand under the kernel's mask and lo <= i < hi (so
 *    only in-range lanes read), a select chain joining them (emitConcat);
 *  - index_select along dim: the index is loaded at i_dim (it is 1-D); gather: at the
 *    same offsets (it has the result's shape); the operand is read at the index in dim and
 *    at i_k in every other dim (emitIndexed). An index (i32, or i64 compared in i64 before it
 *    is truncated to the kernel's i32 offsets) outside [0, size) - negative ones too, as
 *    unsigned comparison sees them - masks its lane off: the element reads 0;
 *  - pad: i_d - low_d in every padded dim, in the operand when that is below its size
 *    (unsigned, so below 0 is out too); the operand is read under the mask of those lanes
 *    and a select puts `value` elsewhere (emitPad);
 *  - iota: i_dimension itself, converted to the compute type (tileEmitIota; a float
 *    iota, or an integer one that a convert to a float reads: emit.c's convert asks for it
 *    in f32).
 * Each operand is emitted by the same recursion (tileEmitValue) at the mapped offsets, so a
 * chain of these ops and elementwise ops is one kernel. They are emitted in elementwise
 * kernels only (--fuse puts them in no row, column or dot group).
 */
#include "tile.h"

#include <math.h>
#include <stdlib.h>

/* The index along a dim of stride `stride` and size `size` of the elements at offsets
 * offs: offs / stride % size (no division for stride 1, no remainder for the first dim). */
static MlirValue dimIndex(Emit *e, MlirValue offs, int64_t stride, int64_t size, bool first) {
  MlirType it = tileOf(e, ttI32(e->ctx));
  MlirValue c = offs;
  if (stride != 1)
    c = tileOp2(e, "arith.divui", c, tileSplatI32(e, stride), it);
  if (!first)
    c = tileOp2(e, "arith.remui", c, tileSplatI32(e, size), it);
  return c;
}

/* Row-major strides of the shape s[0..r). */
static void stridesOf(const int64_t *s, int64_t r, int64_t *stride) {
  for (int64_t d = r - 1; d >= 0; d--)
    stride[d] = d == r - 1 ? 1 : stride[d + 1] * s[d + 1];
}

/* sum + c (c alone when sum is null). */
static MlirValue addTerm(Emit *e, MlirValue sum, MlirValue c) {
  return mlirValueIsNull(sum) ? c : tileOp2(e, "arith.addi", sum, c, tileOf(e, ttI32(e->ctx)));
}

/* c * k (c when k is 1). */
static MlirValue scaled(Emit *e, MlirValue c, int64_t k) {
  return k == 1 ? c : tileOp2(e, "arith.muli", c, tileSplatI32(e, k), tileOf(e, ttI32(e->ctx)));
}

/* Offsets into slice's operand for offsets `offs` into its result: per dim d, the
 * result index i_d (nothing for a dim of size 1) gives the operand index
 * start_d + step_d * i_d, times the operand's stride; the starts add one constant. */
static MlirValue sliceOffsets(Emit *e, MlirOperation op, MlirValue offs) {
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), xs);
  MlirAttribute start = ttOpAttr(op, "start"), step = ttOpAttr(op, "step");
  int64_t rstride[TT_MAX_RANK], xstride[TT_MAX_RANK];
  stridesOf(rs, r, rstride);
  stridesOf(xs, r, xstride);
  MlirValue sum = {NULL};
  int64_t base = 0;
  for (int64_t d = 0; d < r; d++) {
    base += mlirDenseI64ArrayGetElement(start, d) * xstride[d];
    if (rs[d] == 1)
      continue;
    MlirValue c = dimIndex(e, offs, rstride[d], rs[d], d == 0);
    sum = addTerm(e, sum, scaled(e, c, mlirDenseI64ArrayGetElement(step, d) * xstride[d]));
  }
  if (mlirValueIsNull(sum))
    return tileSplatI32(e, base);
  return base ? addTerm(e, sum, tileSplatI32(e, base)) : sum;
}

/* and of two i1 tiles. */
static MlirValue tileAnd(Emit *e, MlirValue a, MlirValue b) {
  return tileOp2(e, "arith.andi", a, b, mlirValueGetType(a));
}

/* concat at offsets offs: operand j holds result indices [lo_j, hi_j) of dim `dim`; each
 * is emitted at its own offsets under the kernel's mask narrowed to its lanes, and a
 * chain of selects picks each lane's value (the last operand where no range matched). */
static MlirValue emitConcat(Emit *e, MlirOperation op, MlirValue offs) {
  MlirValue none = {NULL};
  int64_t rs[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  int64_t d = ttOpAttrInt(op, "dim", 0);
  int64_t inner = 1;
  for (int64_t k = d + 1; k < r; k++)
    inner *= rs[k];
  MlirType it = tileOf(e, ttI32(e->ctx));
  MlirValue q = inner == 1 ? offs : tileOp2(e, "arith.divui", offs, tileSplatI32(e, inner), it);
  MlirValue idx = d == 0 ? q : tileOp2(e, "arith.remui", q, tileSplatI32(e, rs[d]), it);
  MlirValue outer = d == 0 ? none : tileOp2(e, "arith.divui", q, tileSplatI32(e, rs[d]), it);
  MlirValue in = inner == 1 ? none : tileOp2(e, "arith.remui", offs, tileSplatI32(e, inner), it);
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue *vals = ttAlloc(sizeof(MlirValue) * (size_t)n);
  MlirValue *sel = ttAlloc(sizeof(MlirValue) * (size_t)n);
  MlirValue mask = e->mask;
  int64_t lo = 0;
  for (intptr_t j = 0; j < n && !e->failed; j++) {
    MlirValue x = mlirOperationGetOperand(op, j);
    int64_t xs[TT_MAX_RANK];
    ttTensorShape(mlirValueGetType(x), xs);
    int64_t hi = lo + xs[d];
    /* lanes of this operand: lo <= idx < hi (the first needs no lower bound, the last
     * no upper one) */
    MlirValue m = none;
    if (j > 0)
      m = tileCmp(e, 9 /* uge */, idx, tileSplatI32(e, lo));
    if (j < n - 1) {
      MlirValue h = tileCmp(e, 6 /* ult */, idx, tileSplatI32(e, hi));
      m = mlirValueIsNull(m) ? h : tileAnd(e, m, h);
    }
    sel[j] = m;
    /* offsets into operand j: outer * (xs[d] * inner) + (idx - lo) * inner + in */
    MlirValue c = lo ? tileOp2(e, "arith.subi", idx, tileSplatI32(e, lo), it) : idx;
    if (inner != 1)
      c = tileOp2(e, "arith.muli", c, tileSplatI32(e, inner), it);
    if (!mlirValueIsNull(outer))
      c = tileOp2(e, "arith.addi", c,
                  tileOp2(e, "arith.muli", outer, tileSplatI32(e, xs[d] * inner), it), it);
    if (!mlirValueIsNull(in))
      c = tileOp2(e, "arith.addi", c, in, it);
    e->mask = mlirValueIsNull(m) ? mask : tileAnd(e, mask, m);
    vals[j] = tileEmitValue(e, x, c);
    e->mask = mask;
    lo = hi;
  }
  MlirValue v = vals[n - 1];
  for (intptr_t j = n - 2; j >= 0 && !e->failed; j--) {
    MlirValue ops[3] = {sel[j], vals[j], v};
    v = ttBuild(&e->b, "arith.select", e->loc, 3, ops, mlirValueGetType(v), 0, NULL);
  }
  free(vals);
  free(sel);
  return e->failed ? none : v;
}


/* The i32 offsets (along the indexed dim) of an index tile iv (i32 or i64) into a dim of
 * `size` elements, and in *ok the lanes whose index is in [0, size): an unsigned compare
 * in the index's own type, so negative and (i64) too large indices are out. */
static MlirValue indexOffsets(Emit *e, MlirValue iv, int64_t size, MlirValue *ok) {
  MlirType t = mlirValueGetType(iv);
  MlirValue bound = ttConstInt(&e->b, e->loc, t, size);
  *ok = tileCmp(e, 6 /* ult */, iv, bound);
  if (mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t)) == 32)
    return iv;
  return tileOp1(e, "arith.trunci", iv, tileOf(e, ttI32(e->ctx)));
}

/* x at offsets xoffs under the kernel's mask and `ok`; lanes outside ok get `other` (a
 * masked-off load gives 0 already: the select is left out for a kernel input and 0). */
static MlirValue emitWhere(Emit *e, MlirValue x, MlirValue xoffs, MlirValue ok, MlirType ct,
                           double other) {
  MlirValue mask = e->mask;
  e->mask = tileAnd(e, mask, ok);
  MlirValue v = tileEmitValue(e, x, xoffs);
  e->mask = mask;
  if (e->failed)
    return (MlirValue){NULL};
  bool input = false;
  for (int i = 0; i < e->nin; i++)
    input |= mlirValueEqual(e->inputs[i], x);
  if (input && other == 0.0 && !signbit(other))
    return v;
  MlirValue ops[3] = {ok, v, ttConstSplat(&e->b, e->loc, ct, other)};
  return ttBuild(&e->b, "arith.select", e->loc, 3, ops, ct, 0, NULL);
}

/* index_select and gather along dim at offsets offs: the index is loaded (at the position
 * i_dim for index_select's 1-D index, at offs for gather's), and the operand read where it
 * points; in every other dim k the operand's index is the result's, i_k (index_select:
 * the sizes are the operand's; gather: the index's, at most the operand's). */
static MlirValue emitIndexed(Emit *e, MlirOperation op, MlirValue offs, MlirType ct) {
  MlirValue x = mlirOperationGetOperand(op, 0), index = mlirOperationGetOperand(op, 1);
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK], rstride[TT_MAX_RANK], xstride[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  ttTensorShape(mlirValueGetType(x), xs);
  stridesOf(rs, r, rstride);
  stridesOf(xs, r, xstride);
  int64_t d = ttOpAttrInt(op, "dim", 0);
  bool gather = ttOpIs(op, "prim.gather");
  MlirValue at = gather ? offs : rs[d] == 1 ? tileSplatI32(e, 0)
                                            : dimIndex(e, offs, rstride[d], rs[d], d == 0);
  MlirValue iv = tileEmitValue(e, index, at);
  if (e->failed)
    return (MlirValue){NULL};
  MlirValue ok;
  MlirValue sum = scaled(e, indexOffsets(e, iv, xs[d], &ok), xstride[d]);
  for (int64_t k = 0; k < r; k++) {
    if (k == d || rs[k] == 1)
      continue;
    sum = addTerm(e, sum, scaled(e, dimIndex(e, offs, rstride[k], rs[k], k == 0), xstride[k]));
  }
  return emitWhere(e, x, sum, ok, ct, 0.0);
}

/* pad at offsets offs: per padded dim the operand index i_d - low_d, in the operand when
 * below its size (unsigned); the operand read under the mask of those lanes, `value`
 * selected elsewhere. An unpadded dim maps i_d to itself. */
static MlirValue emitPad(Emit *e, MlirOperation op, MlirValue offs, MlirType ct) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK], rstride[TT_MAX_RANK], xstride[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  ttTensorShape(mlirValueGetType(x), xs);
  stridesOf(rs, r, rstride);
  stridesOf(xs, r, xstride);
  MlirAttribute low = ttOpAttr(op, "low");
  MlirType it = tileOf(e, ttI32(e->ctx));
  MlirValue sum = {NULL}, ok = {NULL};
  for (int64_t d = 0; d < r; d++) {
    if (rs[d] == 1) /* then the operand's size is 1 and there is no padding */
      continue;
    MlirValue c = dimIndex(e, offs, rstride[d], rs[d], d == 0);
    if (rs[d] != xs[d]) {
      int64_t lo = mlirDenseI64ArrayGetElement(low, d);
      if (lo)
        c = tileOp2(e, "arith.subi", c, tileSplatI32(e, lo), it);
      MlirValue in = tileCmp(e, 6 /* ult */, c, tileSplatI32(e, xs[d]));
      ok = mlirValueIsNull(ok) ? in : tileAnd(e, ok, in);
    }
    sum = addTerm(e, sum, scaled(e, c, xstride[d]));
  }
  if (mlirValueIsNull(sum))
    sum = tileSplatI32(e, 0);
  if (mlirValueIsNull(ok)) /* no padding at all: a copy */
    return tileEmitValue(e, x, sum);
  return emitWhere(e, x, sum, ok, ct, mlirFloatAttrGetValueDouble(ttOpAttr(op, "value")));
}

MlirValue tileEmitIota(Emit *e, MlirOperation op, MlirValue offs, MlirType ct) {
  int64_t rs[TT_MAX_RANK], rstride[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), rs);
  stridesOf(rs, r, rstride);
  int64_t d = ttOpAttrInt(op, "dimension", 0);
  MlirValue i = rs[d] == 1 ? tileSplatI32(e, 0) : dimIndex(e, offs, rstride[d], rs[d], d == 0);
  return tileOp1(e, "arith.uitofp", i, ct);
}

/* False when index_select or gather indexes a dynamic dim (the bound is only known at run
 * time) or pad widens one (a dynamic leading dim is otherwise fine: the offsets use the
 * strides, which do not depend on it). */
static bool staticMoved(MlirOperation op) {
  TtPrimKind k = ttPrimKind(op);
  if (k != TT_PRIM_INDEX && k != TT_PRIM_PAD)
    return true;
  int64_t xs[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), xs);
  if (k == TT_PRIM_INDEX)
    return xs[ttOpAttrInt(op, "dim", 0)] >= 0;
  for (int64_t d = 0; d < r; d++)
    if (xs[d] < 0 && (mlirDenseI64ArrayGetElement(ttOpAttr(op, "low"), d) ||
                      mlirDenseI64ArrayGetElement(ttOpAttr(op, "high"), d)))
      return false;
  return true;
}

MlirValue tileEmitMove(Emit *e, MlirOperation op, MlirValue offs) {
  MlirValue none = {NULL};
  char name[32];
  ttPrimShortName(op, name, sizeof name);
  MlirType relem = ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0)));
  MlirType ct = tileOf(e, tileComputeType(e, relem));
  if (e->rowMode) { /* --fuse puts data movement in elementwise groups only */
    ttEmitError(op, "tile: 'prim.%s' is only supported in elementwise kernels", name);
    e->failed = true;
    return none;
  }
  if (!staticMoved(op)) {
    ttEmitError(op, "tile: 'prim.%s' %s a dynamic dimension is not supported yet", name,
                ttPrimKind(op) == TT_PRIM_PAD ? "padding" : "along");
    e->failed = true;
    return none;
  }
  switch (ttPrimKind(op)) {
  case TT_PRIM_SLICE:
    return tileEmitValue(e, mlirOperationGetOperand(op, 0), sliceOffsets(e, op, offs));
  case TT_PRIM_CONCAT:
    return emitConcat(e, op, offs);
  case TT_PRIM_INDEX:
    return emitIndexed(e, op, offs, ct);
  case TT_PRIM_PAD:
  case TT_PRIM_IOTA:
    if (!mlirTypeIsAFloat(relem)) {
      ttEmitError(op, "tile: 'prim.%s' of %s elements is not supported in kernels (f32, f16, "
                      "bf16)%s",
                  name, ttDtypeName(relem),
                  ttPrimKind(op) == TT_PRIM_IOTA
                      ? ": make a float iota, or convert this one to a float" : "");
      e->failed = true;
      return none;
    }
    return ttPrimKind(op) == TT_PRIM_PAD ? emitPad(e, op, offs, ct) : tileEmitIota(e, op, offs, ct);
  default:
    break;
  }
  ttEmitError(op, "tile: 'prim.%s' is not a data movement op", name);
  e->failed = true;
  return none;
}
