/* elementwise.c - step 2 of --convert-tile-to-gpu for the ops that compute values
 * element by element: arith and math ops on tiles and scalars, and the index ops
 * (tile.program_id, tile.num_programs, tile.range, tile.splat).
 *
 * Algorithm: an op on tiles becomes the same op on each of the REPS vectors of its
 * operands (a scalar operand is shared by all); on f32 with `afn`, a tanh becomes
 * fastTanh's short formula, an exp2 MUFU's ex2.approx.ftz, and a division of tiles a
 * multiply by rcp.approx.ftz (one MUFU op each, where the non-ftz forms LLVM picks add
 * range and subnormal fix-ups: a GELU's 2 / (1 + 2^x), --tile's emit.c, a sigmoid's
 * 1 / (1 + e^-x)). fp8 values (E4M3FN, E5M2; --tile computes them in f32) widen and
 * round in pairs with the hardware converts of sm_89+ (common.c tgWidenFp8, fp8Round),
 * as PyTorch rounds. For every i32 result an *axis fact* (lower.h's Axis) is derived from the
 * operands' facts in the manner of Triton's AxisInfo (axisOf), so step 3 knows which
 * offsets are contiguous and which masks constant over a 16-byte run.
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Axis facts of an elementwise integer op from its operands' (step 2). */
static Axis axisOf(Lower *l, MlirOperation op, const char *name) {
  Axis out = {1, 1, 1, 0};
  intptr_t n = mlirOperationGetNumOperands(op);
  Lowered *a = n > 0 ? tgLookup(l, mlirOperationGetOperand(op, 0)) : NULL;
  Lowered *b = n > 1 ? tgLookup(l, mlirOperationGetOperand(op, 1)) : NULL;
  if (!a)
    return out;
  Axis x = a->axis, y = b ? b->axis : (Axis){1, BIG_DIV, 1, 0};
  out.constancy = tgGcd64(x.constancy, y.constancy);
  if (strcmp(name, "arith.addi") == 0) {
    out.contig = tgMaxI(tgGcd64(tgGcd64(x.contig, y.constancy), y.div),
                      tgGcd64(tgGcd64(y.contig, x.constancy), x.div));
    out.div = tgGcd64(x.div, y.div);
    /* a run plus a value constant over it is a run, of whatever alignment */
    out.seq = tgMaxI(tgGcd64(tgMaxI(x.seq, x.contig), y.constancy),
                     tgGcd64(tgMaxI(y.seq, y.contig), x.constancy));
  } else if (strcmp(name, "arith.muli") == 0) {
    out.div = x.div * y.div < BIG_DIV ? x.div * y.div : BIG_DIV;
  } else if (strcmp(name, "arith.remui") == 0 || strcmp(name, "arith.remsi") == 0) {
    if (y.constancy >= BIG_DIV) {
      out.contig = tgGcd64(x.contig, y.div);
      out.div = tgGcd64(x.div, y.div);
    }
  } else if (strcmp(name, "arith.divui") == 0 || strcmp(name, "arith.divsi") == 0) {
    if (y.constancy >= BIG_DIV)
      out.constancy = tgMaxI(x.constancy, tgGcd64(x.contig, y.div));
  } else if (strcmp(name, "arith.andi") == 0 && b) {
    /* x & y is zero in the low bits either is zero in: a row start rounded down to a
     * 16-byte boundary (rowStart & -F, --tile's aligned frame) */
    out.div = tgMaxI(tgPow2Div(x.div), tgPow2Div(y.div));
  } else if (strcmp(name, "arith.cmpi") == 0) {
    out.constancy = tgMaxI(out.constancy, tgGcd64(tgGcd64(x.contig, y.div), y.constancy));
  }
  return out;
}

/* The NVVM intrinsic `intrin` (f32 -> f32) applied to x: f32, or lane by lane to a vector
 * of f32 (the intrinsics are scalar). */
static MlirValue intrinsic(Lower *l, const char *intrin, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  if (mlirTypeIsAVector(t)) {
    MlirValue acc = x;
    for (int64_t i = 0; i < l->VEC; i++)
      acc = tgInsert(l, intrinsic(l, intrin, tgExtract(l, x, i)), acc, i);
    return acc;
  }
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "intrin", ttStrAttr(l->ctx, intrin)),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 2, (const int32_t[]){1, 0})),
      ttNamedAttr(l->ctx, "op_bundle_sizes", mlirDenseI32ArrayGet(l->ctx, 0, NULL)),
  };
  return tgBuild(l, "llvm.call_intrinsic", 1, &x, t, 3, attrs);
}

/* tanh(x) for a result that needs only 16-bit accuracy (`math.tanh` with `afn`):
 *   a = |x|;  t = a < 0.01 ? a : 1 - 2 * rcp(ex2(2 log2(e) a) + 1);  copysign(t, x)
 * with MUFU's ex2.approx.ftz and rcp.approx.ftz (their inputs are >= 0 and >= 2, so no
 * denormal is ever flushed). Relative error below 1e-4 everywhere (3.3e-5 from tanh(a) ~ a
 * at a = 0.01, a few f32 ulps of 1 elsewhere), exact saturation to +-1, NaN propagated;
 * 9 instructions against libdevice's ~20. */
static MlirValue fastTanh(Lower *l, MlirValue x, MlirType t, MlirType boolType) {
  MlirNamedAttribute fm = ttFastmath(l->ctx, "contract");
  MlirValue one = ttConstSplat(&l->b, l->loc, t, 1.0);
  MlirValue a = tgBuild(l, "math.absf", 1, &x, t, 0, NULL);
  MlirValue ops[2] = {a, ttConstSplat(&l->b, l->loc, t, 2.0 * 1.4426950408889634)};
  MlirValue ex = intrinsic(l, "llvm.nvvm.ex2.approx.ftz.f32",
                           tgBuild(l, "arith.mulf", 2, ops, t, 1, &fm));
  MlirValue d = tgBuild(l, "arith.addf", 2, (MlirValue[]){ex, one}, t, 1, &fm);
  MlirValue r = intrinsic(l, "llvm.nvvm.rcp.approx.ftz.f", d);
  MlirValue m2 = tgBuild(l, "arith.mulf", 2,
                       (MlirValue[]){r, ttConstSplat(&l->b, l->loc, t, -2.0)}, t, 1, &fm);
  MlirValue big = tgBuild(l, "arith.addf", 2, (MlirValue[]){m2, one}, t, 1, &fm);
  MlirNamedAttribute olt =
      ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, 4, mlirIntegerTypeGet(l->ctx, 64)));
  MlirValue small = tgBuild(l, "arith.cmpf", 2,
                          (MlirValue[]){a, ttConstSplat(&l->b, l->loc, t, 0.01)}, boolType, 1,
                          &olt);
  MlirValue v = tgBuild(l, "arith.select", 3, (MlirValue[]){small, a, big}, t, 0, NULL);
  return tgBuild(l, "math.copysign", 2, (MlirValue[]){v, x}, t, 0, NULL);
}

/* The lanes of x (a vector; a scalar: 1) and lane i of it. */
static int64_t lanesOf(MlirValue x) {
  MlirType t = mlirValueGetType(x);
  return mlirTypeIsAVector(t) ? mlirShapedTypeGetDimSize(t, 0) : 1;
}
static MlirValue laneOf(Lower *l, MlirValue x, int64_t i) {
  return mlirTypeIsAVector(mlirValueGetType(x)) ? tgExtract(l, x, i) : x;
}
/* A value of type t (a vector or a scalar) of the lanes v[0..n). */
static MlirValue fromLanes(Lower *l, const MlirValue *v, int64_t n, MlirType t) {
  if (!mlirTypeIsAVector(t))
    return v[0];
  MlirValue out = tgBuild(l, "llvm.mlir.poison", 0, NULL, t, 0, NULL);
  for (int64_t i = 0; i < n; i++)
    out = tgInsert(l, v[i], out, i);
  return out;
}

/* arith.truncf of x (f32 lanes) to t (lanes of `fp8`), to nearest even as PyTorch's
 * x.to(float8_*) and runtime/dtype.c round: each pair through cvt.rn.satfinite.{e4m3,
 * e5m2}x2.f32, whose saturation is then undone where the value rounds past the largest
 * finite one: |x| > 464 (halfway from 448 to 480, ties to 448) is NaN in E4M3FN, which
 * has no infinity; |x| >= 61440 (halfway from 57344 to 65536, ties to 65536) is +-inf in
 * E5M2. NaN stays NaN. */
static MlirValue fp8Round(Lower *l, MlirValue x, MlirType fp8, MlirType t) {
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8), f32 = mlirF32TypeGet(l->ctx);
  MlirType i1 = mlirIntegerTypeGet(l->ctx, 1);
  int64_t n = lanesOf(x), two = 2;
  MlirType pairI8 = mlirVectorTypeGet(1, &two, i8);
  bool e4m3 = mlirTypeIsAFloat8E4M3FN(fp8);
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "rnd", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.fp_rnd_mode<rn>"))),
      ttNamedAttr(l->ctx, "sat", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.sat_mode<satfinite>"))),
      ttNamedAttr(l->ctx, "dstTy", mlirTypeAttrGet(fp8)),
  };
  /* ogt (2) past 464, oge (3) from 61440 */
  MlirNamedAttribute pred = ttNamedAttr(
      l->ctx, "predicate", ttIntAttr(l->ctx, e4m3 ? 2 : 3, mlirIntegerTypeGet(l->ctx, 64)));
  MlirValue limit = ttConstSplat(&l->b, l->loc, f32, e4m3 ? 464.0 : 61440.0);
  MlirValue zero = ttConstSplat(&l->b, l->loc, f32, 0.0), out[64];
  for (int64_t i = 0; i < n; i += 2) {
    MlirValue lo = laneOf(l, x, i), hi = i + 1 < n ? laneOf(l, x, i + 1) : zero;
    /* element 0 of the pair is the second operand's (the low byte of cvt's result) */
    MlirValue pair = tgBuild(l, "nvvm.convert.f32x2.to.f8x2", 2, (MlirValue[]){hi, lo},
                             pairI8, 3, attrs);
    for (int64_t j = i; j < i + 2 && j < n; j++) {
      MlirValue v = j == i ? lo : hi, byte = tgExtract(l, pair, j - i);
      MlirValue a = tgBuild(l, "math.absf", 1, &v, f32, 0, NULL);
      MlirValue over = tgBuild(l, "arith.cmpf", 2, (MlirValue[]){a, limit}, i1, 1, &pred);
      MlirValue big = e4m3 /* +-448 (S.1111.110) -> NaN (S.1111.111); +-57344 -> +-inf */
          ? tgBuild(l, "arith.ori", 2, (MlirValue[]){byte, ttConstInt(&l->b, l->loc, i8, 0x7f)}, i8, 0, NULL)
          : tgBuild(l, "arith.ori", 2,
                    (MlirValue[]){tgBuild(l, "arith.andi", 2, (MlirValue[]){byte, ttConstInt(&l->b, l->loc, i8, -128)}, i8, 0, NULL),
                                  ttConstInt(&l->b, l->loc, i8, 0x7c)}, i8, 0, NULL);
      out[j] = tgBuild(l, "arith.select", 3, (MlirValue[]){over, big, byte}, i8, 0, NULL);
    }
  }
  MlirType bt = mlirTypeIsAVector(t) ? mlirVectorTypeGet(1, &n, i8) : i8;
  MlirValue bytes = fromLanes(l, out, n, bt);
  return tgBuild(l, "arith.bitcast", 1, &bytes, t, 0, NULL);
}

/* Step 2 for an arith/math op (on tiles: once per group; on scalars: once). */
bool tgLowerGeneric(Lower *l, MlirOperation op) {
  char name[64];
  ttOpName(op, name, sizeof name);
  intptr_t nops = mlirOperationGetNumOperands(op);
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumRegions(op) != 0 ||
      nops > 8) {
    ttEmitError(op, "convert-tile-to-gpu: cannot lower '%s' in a tile kernel", name);
    return false;
  }
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType rt = mlirValueGetType(res);
  bool tile = tgIsTile(res);
  intptr_t nattrs = mlirOperationGetNumAttributes(op);
  if (nattrs > 16) {
    ttEmitError(op, "convert-tile-to-gpu: '%s' has %d attributes; at most 16 are supported",
                name, (int)nattrs);
    return false;
  }
  MlirNamedAttribute attrs[16];
  for (intptr_t i = 0; i < nattrs; i++)
    attrs[i] = mlirOperationGetAttribute(op, i);

  Lowered *out = tgDefine(l, res);
  if (ttOpIs(op, "arith.constant")) {
    MlirAttribute v = ttOpAttr(op, "value");
    if (tile) {
      if (!mlirDenseElementsAttrIsSplat(v)) {
        ttEmitError(op, "convert-tile-to-gpu: only splat tile constants are supported");
        return false;
      }
      MlirAttribute s = mlirDenseElementsAttrGetSplatValue(v);
      MlirType vt = tgVecOf(l, mlirShapedTypeGetElementType(rt));
      MlirNamedAttribute va = ttNamedAttr(l->ctx, "value", mlirDenseElementsAttrSplatGet(vt, s));
      MlirValue c = tgBuild(l, "arith.constant", 0, NULL, vt, 1, &va);
      for (int r = 0; r < out->n; r++)
        out->parts[r] = c;
      out->axis = (Axis){1, BIG_DIV, mlirAttributeIsAInteger(s) ? tgPow2Div(mlirIntegerAttrGetValueInt(s)) : 1, 0};
    } else {
      out->parts[0] = mlirOperationGetResult(ttInsert(&l->b, mlirOperationClone(op)), 0);
      if (mlirAttributeIsAInteger(v))
        out->axis.div = tgPow2Div(mlirIntegerAttrGetValueInt(v));
    }
    return true;
  }
  int reps = out->n;
  MlirType t = tile ? tgVecOf(l, mlirShapedTypeGetElementType(rt)) : rt;
  for (int r = 0; r < reps; r++) {
    MlirValue ops[8];
    for (intptr_t k = 0; k < nops; k++) {
      Lowered *x = tgLookup(l, mlirOperationGetOperand(op, k));
      if (!x) {
        ttEmitError(op, "convert-tile-to-gpu: operand %d of '%s' is not lowered", (int)k,
                    name);
        return false;
      }
      /* a scalar operand (e.g. arith.select's i1 condition) has one part for every rep */
      ops[k] = x->parts[tile && tgIsTile(mlirOperationGetOperand(op, k)) ? r : 0];
    }
    MlirType from = nops ? ttElementType(mlirValueGetType(ops[0])) : t;
    if (ttOpIs(op, "arith.extf") && ttTypeIsFp8(from)) {
      /* exactly to f16 a pair of bytes at a time (common.c), then to f32 */
      MlirValue h = tgWidenFp8(l, ops[0], from);
      out->parts[r] = tgBuild(l, "arith.extf", 1, &h, t, 0, NULL);
      continue;
    }
    if (ttOpIs(op, "arith.truncf") && ttTypeIsFp8(ttElementType(t))) {
      out->parts[r] = fp8Round(l, ops[0], ttElementType(t), t);
      continue;
    }
    bool fastF32 = ttOpHasFastmath(op, "afn") &&
                   mlirTypeIsAF32(tile ? mlirShapedTypeGetElementType(t) : t);
    if (fastF32 && ttOpIs(op, "math.tanh")) {
      MlirType i1 = mlirIntegerTypeGet(l->ctx, 1);
      out->parts[r] = fastTanh(l, ops[0], t, tile ? tgVecOf(l, i1) : i1);
    } else if (fastF32 && ttOpIs(op, "math.exp2")) {
      out->parts[r] = intrinsic(l, "llvm.nvvm.ex2.approx.ftz.f32", ops[0]);
    } else if (fastF32 && tile && ttOpIs(op, "arith.divf")) {
      MlirValue m[2] = {ops[0], intrinsic(l, "llvm.nvvm.rcp.approx.ftz.f", ops[1])};
      out->parts[r] = tgBuild(l, "arith.mulf", 2, m, t, nattrs, attrs); /* its fastmath */
    } else {
      out->parts[r] = tgBuild(l, name, nops, ops, t, nattrs, attrs);
    }
  }
  out->axis = axisOf(l, op, name);
  return true;
}

/* tile.program_id and tile.num_programs: gpu.block_id and gpu.grid_dim. */
bool tgLowerIndex(Lower *l, MlirOperation op) {
  int64_t axis = ttOpAttrInt(op, "axis", 0);
  Lowered *x = tgDefine(l, mlirOperationGetResult(op, 0));
  x->parts[0] = tgGpuIndex(l, ttOpIs(op, "tile.program_id") ? "gpu.block_id" : "gpu.grid_dim",
                         axis);
  return true;
}

/* tile.range: constants + tid * VEC; its runs are contiguous from a multiple of start's
 * divisibility. */
bool tgLowerRange(Lower *l, MlirOperation op) {
  int64_t start = ttOpAttrInt(op, "start", 0);
  Lowered *x = tgDefine(l, mlirOperationGetResult(op, 0));
  MlirType vt = tgVecOf(l, ttI32(l->ctx));
  MlirValue base = tgBuild(l, "vector.broadcast", 1, &l->tid, vt, 0, NULL);
  MlirValue vecs = ttConstInt(&l->b, l->loc, vt, l->VEC);
  MlirValue ops[2] = {base, vecs};
  base = tgBuild(l, "arith.muli", 2, ops, vt, 0, NULL);
  for (int r = 0; r < x->n; r++) {
    MlirAttribute lanes[64];
    for (int64_t j = 0; j < l->VEC; j++)
      lanes[j] = mlirIntegerAttrGet(ttI32(l->ctx), start + r * l->VEC * l->T + j);
    MlirNamedAttribute va =
        ttNamedAttr(l->ctx, "value", mlirDenseElementsAttrGet(vt, l->VEC, lanes));
    MlirValue c = tgBuild(l, "arith.constant", 0, NULL, vt, 1, &va);
    MlirValue sum[2] = {base, c};
    x->parts[r] = tgBuild(l, "arith.addi", 2, sum, vt, 0, NULL);
  }
  int64_t len = ttOpAttrInt(op, "end", 0) - start;
  x->axis = (Axis){tgGcd64(len, tgPow2Div(start)), 1, tgPow2Div(start), 0};
  return true;
}

/* tile.splat: one vector.broadcast shared by every part. */
bool tgLowerSplat(Lower *l, MlirOperation op) {
  Lowered *s = tgLookup(l, mlirOperationGetOperand(op, 0));
  Lowered *x = tgDefine(l, mlirOperationGetResult(op, 0));
  MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(op, 0)));
  MlirValue v = tgBuild(l, "vector.broadcast", 1, &s->parts[0], tgVecOf(l, elem), 0, NULL);
  for (int r = 0; r < x->n; r++)
    x->parts[r] = v;
  x->axis = (Axis){1, BIG_DIV, s->axis.div, 0};
  return true;
}
