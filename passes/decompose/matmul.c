/* matmul.c - --decompose's rules for linear, scaled_mm and matmul with any batch dims:
 * each becomes the 2-D or 3-D prim.matmul the dot kernels take (decompose.c's head and
 * the section banners below state how). */
#include "decompose.h"
#include "rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirValue matmulForms(Rw *w, MlirValue a, MlirValue b, MlirType resType);
static MlirValue f32Product(Rw *w, MlirValue a, MlirValue b, MlirType resType);
static MlirValue matmul2D(Rw *w, MlirValue a, MlirValue b, MlirType t);

MlirValue dcRuleLinear(Rw *w) {
  Shape x, wt, res;
  MlirValue in = mlirOperationGetOperand(w->op, 0);
  MlirValue weight = mlirOperationGetOperand(w->op, 1);
  bool hasBias = mlirOperationGetNumOperands(w->op) > 2;
  MlirValue bias = hasBias ? mlirOperationGetOperand(w->op, 2) : dcNullValue();
  if (!dcCheckTensor(w, in, "x", &x) || !dcComputeType(w, x.type) ||
      !dcCheckTensor(w, weight, "weight", &wt) ||
      !dcCheckTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return dcNullValue();
  MlirType et = ttElementType(x.type);
  if (x.rank < 1) {
    ttEmitError(w->op, "decompose: linear: x must have rank 1 or more");
    return dcNullValue();
  }
  int64_t k = x.shape[x.rank - 1];
  if (wt.rank != 2 || wt.shape[1] != k) {
    char buf[128];
    dcTypeString(wt.type, buf, sizeof buf);
    ttEmitError(w->op,
                "decompose: linear: weight must be 2-D [N, K] with K = %lld (the last "
                "dimension of x), got %s",
                (long long)k, buf);
    return dcNullValue();
  }
  if (!mlirTypeEqual(ttElementType(wt.type), et)) {
    ttEmitError(w->op, "decompose: linear: weight has dtype %s but x has %s",
                ttDtypeName(wt.type), ttDtypeName(et));
    return dcNullValue();
  }
  int64_t n = wt.shape[0];
  if (hasBias && !dcCheckVector(w, bias, "bias", n))
    return dcNullValue();
  int64_t outShape[TT_MAX_RANK], m = 1;
  for (int64_t i = 0; i + 1 < x.rank; i++) {
    outShape[i] = x.shape[i];
    m = dcMulDims(m, x.shape[i]);
  }
  outShape[x.rank - 1] = n;
  MlirType expect = dcTensorOf(x.rank, outShape, et);
  if (!mlirTypeEqual(expect, res.type)) {
    char got[128], want[128];
    dcTypeString(res.type, got, sizeof got);
    dcTypeString(expect, want, sizeof want);
    ttEmitError(w->op, "decompose: linear: the result has type %s; expected %s", got, want);
    return dcNullValue();
  }

  int64_t perm[2] = {1, 0}, wtShape[2] = {k, n}, x2Shape[2] = {m, k}, yShape[2] = {m, n};
  MlirNamedAttribute pa =
      ttNamedAttr(w->ctx, "permutation", mlirDenseI64ArrayGet(w->ctx, 2, perm));
  MlirValue wT = dcPrim(w, "transpose", 1, &weight, dcTensorOf(2, wtShape, et), 1, &pa);
  MlirValue x2 = in;
  if (x.rank != 2)
    x2 = dcPrim(w, "reshape", 1, &in, dcTensorOf(2, x2Shape, et), 0, NULL);
  MlirType yt = dcTensorOf(2, yShape, hasBias ? w->compute : et);
  MlirValue y = mlirTypeIsAF32(et) ? f32Product(w, x2, wT, yt) /* no f32 tensor cores */
                                   : matmul2D(w, x2, wT, yt);
  if (hasBias) {
    MlirType t = mlirValueGetType(y);
    y = dcBinary(w, "add", y, dcBroadcastLast(w, dcToCompute(w, bias), t));
  }
  if (x.rank != 2)
    y = dcPrim(w, "reshape", 1, &y,
             dcTensorOf(x.rank, outShape, ttElementType(mlirValueGetType(y))), 0, NULL);
  return dcConvertTo(w, y, et);
}

/* Operand i of the op, a per-tensor scale: an f32 tensor of rank 0. */
static bool checkScale(Rw *w, int i, const char *what) {
  Shape s;
  if (!dcCheckTensor(w, mlirOperationGetOperand(w->op, i), what, &s))
    return false;
  if (s.rank != 0 || !mlirTypeIsAF32(ttElementType(s.type))) {
    char buf[128];
    dcTypeString(s.type, buf, sizeof buf);
    ttEmitError(w->op, "decompose: scaled_mm: %s must be tensor<f32> (per-tensor), got %s",
                what, buf);
    return false;
  }
  return true;
}

MlirValue dcRuleScaledMm(Rw *w) {
  Shape a, b, res;
  MlirValue av = mlirOperationGetOperand(w->op, 0), bv = mlirOperationGetOperand(w->op, 1);
  bool hasBias = mlirOperationGetNumOperands(w->op) > 4;
  if (!dcCheckTensor(w, av, "a", &a) || !dcCheckTensor(w, bv, "b", &b) ||
      !checkScale(w, 2, "scale_a") || !checkScale(w, 3, "scale_b") ||
      !dcCheckTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return dcNullValue();
  if (!ttTypeIsFp8(a.type) || !ttTypeIsFp8(b.type)) {
    ttEmitError(w->op, "decompose: scaled_mm: a and b must be fp8 (f8E4M3FN or f8E5M2), got "
                       "%s and %s",
                ttDtypeName(a.type), ttDtypeName(b.type));
    return dcNullValue();
  }
  MlirType out = ttElementType(res.type);
  int64_t yShape[2] = {a.rank == 2 ? a.shape[0] : 0, b.rank == 2 ? b.shape[1] : 0};
  if (a.rank != 2 || b.rank != 2 || a.shape[1] != b.shape[0] ||
      !mlirTypeEqual(res.type, dcTensorOf(2, yShape, out)) ||
      !(mlirTypeIsAF32(out) || ttTypeIsHalf(out))) {
    char ta[128], tb[128], tr[128];
    dcTypeString(a.type, ta, sizeof ta);
    dcTypeString(b.type, tb, sizeof tb);
    dcTypeString(res.type, tr, sizeof tr);
    ttEmitError(w->op, "decompose: scaled_mm: needs a [M, K], b [K, N] and a result [M, N] "
                       "of f32, f16 or bf16; got %s, %s -> %s",
                ta, tb, tr);
    return dcNullValue();
  }
  w->compute = mlirF32TypeGet(w->ctx);
  if (hasBias && !dcCheckVector(w, mlirOperationGetOperand(w->op, 4), "bias", yShape[1]))
    return dcNullValue();
  MlirValue operands[2] = {av, bv};
  MlirType t = dcTensorOf(2, yShape, w->compute);
  MlirValue y = matmul2D(w, operands[0], operands[1], t);
  for (int i = 2; i < 4; i++) /* the scales, one product each (as the reference does) */
    y = dcBinary(w, "mul", y, dcBroadcast(w, mlirOperationGetOperand(w->op, i), t, 0, NULL));
  if (hasBias)
    y = dcBinary(w, "add", y, dcBroadcastLast(w, dcToCompute(w, mlirOperationGetOperand(w->op, 4)), t));
  return dcConvertTo(w, y, out);
}

/* --- matmul with any batch dims ---------------------------------------------------- *
 * prim.matmul takes torch.matmul's shapes (the prim verifier checks them); the dot kernels
 * take [M, K] x [K, N] and [B, M, K] x [B, K, N]. Every other matmul is rewritten into one
 * of those, with free reshapes (row-major) where it can:
 *  - a 1-D a [K] is reshaped to [1, K], a 1-D b [K] to [K, 1] (the final reshape drops
 *    their 1 from the result, as torch.matmul does);
 *  - the batch dims (all but the last two, aligned from the right, a missing one counting
 *    as 1) broadcast to `batch`, of product P;
 *  - when b has no batch (its batch dims' product is 1: a weight), a [..., M, K] is
 *    reshaped to [P * M, K] and b to [K, N]: one 2-D GEMM, the weight read once;
 *  - else both operands become [P, ., .]: reshaped when their batch dims' product is P,
 *    materialized first with prim.broadcast_in_dim to batch's dims when a dim of theirs
 *    broadcasts (size 1 or missing against a larger one);
 *  - the product is reshaped to the result's shape.
 * An operand that is a prim.transpose swapping the last two dims (attention's k^T) stays
 * a transpose feeding the matmul, which the dot kernel reads in place: the reshape (and
 * broadcast) apply to the transpose's input, then a transpose of the 2-D or 3-D form
 * ([1, 0] or [0, 2, 1]); the old transpose is erased when nothing else uses it. A
 * transposed a with batch dims is not folded into the 2-D form (the transpose of a reshape
 * is not a reshape of a transpose): it takes the 3-D form. A reshape of such a transpose
 * that only regroups the batch dims (viewedTranspose: PyTorch's decomposition of a 4-D
 * q @ k.transpose(-1, -2) into a bmm) counts as the transpose too, so K^T is read in
 * place instead of copied. A dynamic dim is taken in a's rows or batch dims against a
 * weight, or as the leading batch dim of both operands (the batch of a 3-D product). */

/* True when transpose t of a rank-r operand swaps its last two dims, keeping the others. */
static bool swapsLastTwo(MlirOperation t, int64_t r) {
  MlirAttribute perm = ttOpAttr(t, "permutation");
  if (r < 2 || mlirAttributeIsNull(perm) || !mlirAttributeIsADenseI64Array(perm) ||
      mlirDenseArrayGetNumElements(perm) != r)
    return false;
  for (int64_t i = 0; i < r; i++)
    if (mlirDenseI64ArrayGetElement(perm, i) != (i < r - 2 ? i : 2 * r - 3 - i))
      return false;
  return true;
}

/* The prim.transpose of its last two dims that v is the result of, or a null op. */
static MlirOperation lastTwoTranspose(MlirValue v) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation t = mlirOpResultGetOwner(v);
  if (ttPrimKind(t) != TT_PRIM_TRANSPOSE || mlirOperationGetNumOperands(t) != 1 ||
      !swapsLastTwo(t, mlirShapedTypeGetRank(mlirValueGetType(v))))
    return none;
  return t;
}

/* A transpose seen through a reshape: v = reshape(t), t a transpose of its last two dims,
 * where the reshape only regroups the dims before the last two (its last two are t's):
 * then v is the last-two transpose of a reshape of t's input (attention's K^T after
 * PyTorch's matmul decomposition: [B, H, S, D] transposed to [B, H, D, S], viewed as
 * [B * H, D, S]). Returns t (and the reshape in *view), or a null op. */
static MlirOperation viewedTranspose(MlirValue v, MlirOperation *view) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v) || ttPrimKind(mlirOpResultGetOwner(v)) != TT_PRIM_RESHAPE)
    return none;
  MlirOperation r = mlirOpResultGetOwner(v);
  MlirValue tv = mlirOperationGetOperand(r, 0);
  MlirOperation t = lastTwoTranspose(tv);
  int64_t vs[TT_MAX_RANK], ts[TT_MAX_RANK];
  int64_t vr = ttTensorShape(mlirValueGetType(v), vs), tr = ttTensorShape(mlirValueGetType(tv), ts);
  if (mlirOperationIsNull(t) || vr < 2 || tr < 2 || vr > TT_MAX_RANK || tr > TT_MAX_RANK ||
      vs[vr - 1] != ts[tr - 1] || vs[vr - 2] != ts[tr - 2] || vs[vr - 1] < 0 || vs[vr - 2] < 0)
    return none;
  *view = r;
  return t;
}

/* Aligned operands -----------------------------------------------------------------------
 * A 2-D f16/bf16 matmul whose K rows are not a multiple of 16 bytes (K = 4100 f16:
 * 8-byte rows; K = 3001: 2-byte) cannot be read by TMA (its global strides are multiples
 * of 16 bytes), and the register path that reads it instead runs at 6-10% of the copy
 * rate. On a target with TMA, both operands are padded with zeros along K to the next
 * 128-byte multiple (prim.pad, one copy kernel each at the copy rate; the zeros add
 * nothing; a weight's pad runs once, --fuse's step 6), so the dot kernel takes the TMA
 * path. 128 bytes, not TMA's 16: a box row that starts off a cache line costs TMA 1.4-2x
 * (H100, 2026-11-26: 64 x 4096 x 4104 17.5 us as it is, 12.4 padded to 4160; 128 x
 * 12289 x 4100 73 -> 46 us, bench/2026-11-26-h100-odd-shapes.md). With 16-byte rows:
 * 16 x 4100 x 12289 f16 398 -> 96 us on an H200, cuBLAS 93
 * (bench/2026-11-26-h200-odd-shapes.md).
 * Rows that TMA can read but that start off a 32-byte sector (K = 4104, 1000, 1032 f16:
 * their starts cycle through 16-byte offsets of a line) cost the dot kernel up to 1.5x too
 * (table D of that file; rows on 64-byte offsets, K = 4128, cost nothing): there the
 * operands are padded the same way where the weight is `tt.invariant` (its pad runs
 * once): A's pad is no kernel where the dot kernel reads A's unpadded rows in place (a K
 * pad, ttPrimIsKPad; --fuse keeps it a kernel where that pays, fuse/common.c), so only
 * the weight's boxes move onto whole lines. A weight that is not invariant keeps its rows
 * (its pad would be a copy of it at every call).
 * Applied where the padded dot qualifies for TMA: f16/bf16, B read as the transpose of an
 * [N, K] weight, or as [K, N] with 16-byte rows; fp8 (1-byte rows, the same byte rules)
 * with B read as the transpose of an [N, K] weight (fp8 wgmma reads no other B), its pads
 * kernels that only move fp8 data (tile/kernel.c). H200, 601 x 4096 x K e4m3 before: K =
 * 4104 (8-byte rows) 79.6 us on the fallback of no TMA, K = 4112 (16-byte rows off a
 * sector) 42.3 us, against 22.4 at K = 4096 and 25.2 at 4160
 * (bench/2026-11-29-h200-fp8-k-pad.md). */

/* The K that a 2-D [M, k] @ [k, n] matmul of `elem` operands is padded to (above; bT: b
 * is the transpose of an [n, k] matrix, bInvariant: that matrix is `tt.invariant`), or 0
 * when it is left alone. */
static int64_t alignedK(int64_t k, int64_t n, MlirType elem, bool bT, bool bInvariant,
                        bool alignK) {
  bool half = mlirTypeIsAF16(elem) || mlirTypeIsABF16(elem);
  if (!alignK || !ttTargetDefault()->tma || !(half || (ttTypeIsFp8(elem) && bT)) || k < 0 ||
      (!bT && n % 8))
    return 0;
  int64_t eb = half ? 2 : 1;
  bool offSector = k * eb % 32 != 0; /* rows not a multiple of 32 bytes */
  if (k * eb % 16 == 0 && !(offSector && bT && bInvariant))
    return 0;
  return (k * eb + 127) / 128 * 128 / eb; /* 128-byte rows: a TMA box row is one line */
}

/* The [n, k] matrix that b is the transpose of is `tt.invariant` (a weight). */
static bool transposedInvariant(MlirValue b) {
  MlirOperation tr = lastTwoTranspose(b);
  return !mlirOperationIsNull(tr) && ttValueIsInvariant(mlirOperationGetOperand(tr, 0));
}

/* alignedK of 2-D a @ b (same element types), or 0. */
static int64_t paddedK(MlirValue a, MlirValue b, bool alignK) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  MlirType at = mlirValueGetType(a), bt = mlirValueGetType(b);
  if (!mlirTypeIsARankedTensor(at) || !mlirTypeIsARankedTensor(bt) ||
      mlirShapedTypeGetRank(at) != 2 || mlirShapedTypeGetRank(bt) != 2 ||
      !mlirTypeEqual(ttElementType(at), ttElementType(bt)))
    return 0;
  ttTensorShape(at, as);
  ttTensorShape(bt, bs);
  return alignedK(as[1], bs[1], ttElementType(at), !mlirOperationIsNull(lastTwoTranspose(b)),
                  transposedInvariant(b), alignK);
}

/* 2-D x padded with zeros along dim d to kp. */
static MlirValue padDim(Rw *w, MlirValue x, int d, int64_t kp) {
  int64_t shape[TT_MAX_RANK], low[2] = {0, 0}, high[2] = {0, 0};
  ttTensorShape(mlirValueGetType(x), shape);
  high[d] = kp - shape[d];
  shape[d] = kp;
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(w->ctx, "low", mlirDenseI64ArrayGet(w->ctx, 2, low)),
      ttNamedAttr(w->ctx, "high", mlirDenseI64ArrayGet(w->ctx, 2, high)),
      ttNamedAttr(w->ctx, "value", mlirFloatAttrDoubleGet(w->ctx, mlirF64TypeGet(w->ctx), 0.0)),
  };
  return dcPrim(w, "pad", 1, &x, dcTensorOf(2, shape, ttElementType(mlirValueGetType(x))), 3,
                attrs);
}

/* x [R, K] padded with zeros to [R, kp]; x [K, N] to [kp, N]. */
static MlirValue padK(Rw *w, MlirValue x, int64_t kp) { return padDim(w, x, 1, kp); }
static MlirValue padRows(Rw *w, MlirValue x, int64_t kp) { return padDim(w, x, 0, kp); }

/* 2-D a [M, K] and b [K, N] (or the transpose of an [N, K] b, transposed again after its
 * pad, so the dot kernel still reads it in place) padded with zeros along K to kp. */
static void padOperands(Rw *w, MlirValue *a, MlirValue *b, int64_t kp) {
  int64_t bs[TT_MAX_RANK];
  ttTensorShape(mlirValueGetType(*b), bs);
  MlirOperation tr = lastTwoTranspose(*b);
  *a = padK(w, *a, kp);
  if (mlirOperationIsNull(tr)) {
    *b = padRows(w, *b, kp);
    return;
  }
  int64_t bw[2] = {kp, bs[1]};
  MlirValue src = padK(w, mlirOperationGetOperand(tr, 0), kp);
  MlirNamedAttribute pa = ttNamedAttr(w->ctx, "permutation", ttOpAttr(tr, "permutation"));
  *b = dcPrim(w, "transpose", 1, &src, dcTensorOf(2, bw, ttElementType(mlirValueGetType(*b))),
              1, &pa);
  dcMarkDead(w, tr);
}

/* prim.matmul of 2-D a and b with a result of type t, its operands padded along K where
 * that lets TMA read them (above). */
static MlirValue matmul2D(Rw *w, MlirValue a, MlirValue b, MlirType t) {
  int64_t kp = paddedK(a, b, w->alignK);
  if (kp)
    padOperands(w, &a, &b, kp);
  MlirValue ops[2] = {a, b};
  return dcPrim(w, "matmul", 2, ops, t, 0, NULL);
}

/* True when matmul op is not a form the dot kernels take as it is. */
bool dcMatmulNeedsRewrite(MlirOperation op, bool alignK) {
  if (mlirOperationGetNumOperands(op) != 2)
    return false;
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  MlirType at = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType bt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  if (!mlirTypeIsARankedTensor(at) || !mlirTypeIsARankedTensor(bt) ||
      mlirShapedTypeGetRank(at) > TT_MAX_RANK || mlirShapedTypeGetRank(bt) > TT_MAX_RANK)
    return false;
  int64_t ra = ttTensorShape(at, as), rb = ttTensorShape(bt, bs);
  if (mlirTypeIsAF32(ttElementType(at)) && mlirTypeIsAF32(ttElementType(bt)))
    return true; /* f32 operands: split into bf16 parts (splitF32) */
  if (paddedK(mlirOperationGetOperand(op, 0), mlirOperationGetOperand(op, 1), alignK))
    return true; /* rows TMA cannot read: padded (matmul2D) */
  MlirOperation view;
  for (int i = 0; i < 2; i++)
    if (!mlirOperationIsNull(viewedTranspose(mlirOperationGetOperand(op, i), &view)))
      return true; /* a transpose behind a reshape: read in place (mmOperand) */
  return !(ra == rb && (ra == 2 || (ra == 3 && as[0] == bs[0])));
}

/* f32 operands (no f32 tensor-core form exists) are computed as XLA's BF16_BF16_F32_X3:
 * each operand x is split into bf16 parts hi = bf16(x) and lo = bf16(x - hi), and
 * a @ b = a_hi @ b_hi + a_hi @ b_lo + a_lo @ b_hi in f32 (dropping a_lo @ b_lo and the
 * parts past 16 bits: about 2^-16 relative per product, below tf32's 2^-11). Three bf16
 * dot kernels, the sums fused into the later ones' epilogues, and the splits in one
 * elementwise kernel per operand. A transposed operand is split before its transpose, so
 * the dot kernel still reads it in place. */
static void splitF32(Rw *w, MlirValue x, MlirValue parts[2], MlirOperation *tr) {
  *tr = lastTwoTranspose(x);
  MlirValue src = mlirOperationIsNull(*tr) ? x : mlirOperationGetOperand(*tr, 0);
  MlirType bf16 = mlirBF16TypeGet(w->ctx), f32 = mlirF32TypeGet(w->ctx);
  parts[0] = dcConvertTo(w, src, bf16);
  parts[1] = dcConvertTo(w, dcBinary(w, "sub", src, dcConvertTo(w, parts[0], f32)), bf16);
  if (!mlirOperationIsNull(*tr))
    dcMarkDead(w, *tr);
}

/* Part p of an operand split by splitF32, transposed again (one transpose per use, so
 * each dot kernel reads it in place) when the operand was a transpose `tr`. */
static MlirValue splitPart(Rw *w, MlirValue p, MlirOperation tr, MlirValue x) {
  if (mlirOperationIsNull(tr))
    return p;
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(mlirValueGetType(x), shape);
  MlirNamedAttribute pa = ttNamedAttr(w->ctx, "permutation", ttOpAttr(tr, "permutation"));
  return dcPrim(w, "transpose", 1, &p, dcTensorOf(r, shape, mlirBF16TypeGet(w->ctx)), 1, &pa);
}

/* Matmul operand x (rank >= 2, its batch dims' product xp) in the dot kernel's form `want`
 * (rank 2: [rows, cols], or 3: [P, rows, cols]); batch (nb dims, product P) is the
 * broadcast batch, materialized when want is 3-D and xp is not P. */
static MlirValue mmOperand(Rw *w, MlirValue x, bool allowTrans, int64_t wantRank,
                           const int64_t *want, int64_t nb, const int64_t *batch, int64_t p) {
  MlirType t = mlirValueGetType(x), elem = ttElementType(t);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), xp = 1;
  for (int64_t i = 0; i + 2 < r; i++)
    xp = dcMulDims(xp, shape[i]);
  MlirOperation tr = allowTrans ? lastTwoTranspose(x) : (MlirOperation){NULL}, view = {NULL};
  if (allowTrans && mlirOperationIsNull(tr) && (wantRank == 2 || xp == p))
    tr = viewedTranspose(x, &view); /* (no batch to materialize: src's rank may differ) */
  bool trans = !mlirOperationIsNull(tr);
  MlirValue src = trans ? mlirOperationGetOperand(tr, 0) : x;
  if (trans) { /* src's shape: the last two swapped */
    int64_t s = shape[r - 1];
    shape[r - 1] = shape[r - 2];
    shape[r - 2] = s;
    dcMarkDead(w, tr);
    if (!mlirOperationIsNull(view))
      dcMarkDead(w, view); /* (erased first: it reads tr) */
  }
  if (wantRank == 3 && xp != p) { /* a batch dim broadcasts: materialize it */
    int64_t full[TT_MAX_RANK], dims[TT_MAX_RANK];
    for (int64_t i = 0; i < nb; i++)
      full[i] = batch[i];
    full[nb] = shape[r - 2];
    full[nb + 1] = shape[r - 1];
    for (int64_t i = 0; i < r; i++)
      dims[i] = i + (nb + 2 - r);
    src = dcBroadcast(w, src, dcTensorOf(nb + 2, full, elem), r, dims);
  }
  int64_t s[3];
  for (int64_t i = 0; i < wantRank; i++)
    s[i] = want[i];
  if (trans) {
    s[wantRank - 1] = want[wantRank - 2];
    s[wantRank - 2] = want[wantRank - 1];
  }
  MlirType st = dcTensorOf(wantRank, s, elem);
  if (!mlirTypeEqual(mlirValueGetType(src), st))
    src = dcPrim(w, "reshape", 1, &src, st, 0, NULL);
  if (!trans)
    return src;
  int64_t perm[3] = {0, 2, 1}, perm2[2] = {1, 0};
  MlirNamedAttribute pa = ttNamedAttr(
      w->ctx, "permutation", mlirDenseI64ArrayGet(w->ctx, wantRank, wantRank == 3 ? perm : perm2));
  return dcPrim(w, "transpose", 1, &src, dcTensorOf(wantRank, want, elem), 1, &pa);
}


MlirValue dcRuleMatmul(Rw *w) {
  Shape as, bs, res;
  MlirValue a = mlirOperationGetOperand(w->op, 0), b = mlirOperationGetOperand(w->op, 1);
  if (!dcCheckTensor(w, a, "a", &as) || !dcCheckTensor(w, b, "b", &bs) ||
      !dcCheckTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return dcNullValue();
  if (as.rank < 1 || bs.rank < 1) { /* the verifier's rule; checked again for safety */
    ttEmitError(w->op, "decompose: matmul: the operands must have rank 1 or more");
    return dcNullValue();
  }
  if (!mlirTypeIsAF32(ttElementType(as.type)) || !mlirTypeIsAF32(ttElementType(bs.type)))
    return matmulForms(w, a, b, res.type);
  return f32Product(w, a, b, res.type);
}

/* a @ b of f32 operands as three bf16 products of their parts (splitF32). */
static MlirValue f32Product(Rw *w, MlirValue a, MlirValue b, MlirType resType) {
  MlirValue ap[2], bp[2], y = {NULL};
  MlirOperation at, bt;
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  if (ttTensorShape(mlirValueGetType(a), as) == 2 && ttTensorShape(mlirValueGetType(b), bs) == 2) {
    /* rows TMA cannot stride in bf16: pad the f32 operands, so the pads join the splits'
     * kernels */
    int64_t kp = alignedK(as[1], bs[1], mlirBF16TypeGet(w->ctx),
                          !mlirOperationIsNull(lastTwoTranspose(b)), transposedInvariant(b),
                          w->alignK);
    if (kp)
      padOperands(w, &a, &b, kp);
  }
  splitF32(w, a, ap, &at);
  splitF32(w, b, bp, &bt);
  static const int terms[3][2] = {{0, 0}, {0, 1}, {1, 0}}; /* hi hi, hi lo, lo hi */
  for (int i = 0; i < 3 && !(i && mlirValueIsNull(y)); i++) {
    MlirValue mm = matmulForms(w, splitPart(w, ap[terms[i][0]], at, a),
                               splitPart(w, bp[terms[i][1]], bt, b), resType);
    y = i == 0 || mlirValueIsNull(mm) ? mm : dcBinary(w, "add", y, mm);
  }
  return y;
}

/* torch.matmul of a and b (checked by the rule) as the 2-D and 3-D matmuls the dot
 * kernels take, with a result of type resType. */
static MlirValue matmulForms(Rw *w, MlirValue a, MlirValue b, MlirType resType) {
  Shape as, bs, res;
  dcCheckTensor(w, a, "a", &as);
  dcCheckTensor(w, b, "b", &bs);
  res.type = resType;
  if (as.rank == 1) { /* [K] -> [1, K] */
    int64_t v[2] = {1, as.shape[0]};
    a = dcPrim(w, "reshape", 1, &a, dcTensorOf(2, v, ttElementType(as.type)), 0, NULL);
    as.rank = 2;
    as.shape[0] = 1;
    as.shape[1] = v[1];
  }
  if (bs.rank == 1) { /* [K] -> [K, 1] */
    int64_t v[2] = {bs.shape[0], 1};
    b = dcPrim(w, "reshape", 1, &b, dcTensorOf(2, v, ttElementType(bs.type)), 0, NULL);
    bs.rank = 2;
    bs.shape[1] = 1;
  }
  int na = (int)as.rank - 2, nb = (int)bs.rank - 2;
  int64_t batch[TT_MAX_RANK], bx, by, p = 1, pa = 1, pb = 1;
  int n = ttrtBroadcastBatch(as.shape, na, bs.shape, nb, batch, &bx, &by);
  if (n < 0) { /* (the verifier rejects these first) */
    ttEmitError(w->op, "decompose: matmul: the batch sizes %lld and %lld differ",
                (long long)bx, (long long)by);
    return dcNullValue();
  }
  for (int i = 0; i < n; i++)
    p = dcMulDims(p, batch[i]);
  for (int i = 0; i < na; i++)
    pa = dcMulDims(pa, as.shape[i]);
  for (int i = 0; i < nb; i++)
    pb = dcMulDims(pb, bs.shape[i]);
  /* dynamic: a's rows or batch against a weight (no batch), or the same batch dims in
   * both (their leading one dynamic: attention with a dynamic batch) */
  bool sameDynBatch = pa < 0 && pb < 0 && na == nb && as.shape[0] < 0 && bs.shape[0] < 0;
  for (int i = 1; i < na && sameDynBatch; i++) /* no batch dim broadcasts */
    sameDynBatch = as.shape[i] == bs.shape[i];
  if ((nb == 0 && bs.shape[0] < 0) || (pb < 0 && !sameDynBatch) ||
      (pa < 0 && pb != 1 && !sameDynBatch)) {
    ttEmitError(w->op, "decompose: matmul: a dynamic dimension is supported in a's rows or "
                       "batch dims against a b without batch dims (a weight), or as the "
                       "leading batch dim of both operands, only");
    return dcNullValue();
  }
  int64_t m = as.shape[as.rank - 2], k = as.shape[as.rank - 1], nn = bs.shape[bs.rank - 1];
  bool aTrans = !mlirOperationIsNull(lastTwoTranspose(a));
  MlirValue operands[2];
  if (pb == 1 && !(aTrans && pa > 1)) { /* one 2-D GEMM: [P * M, K] x [K, N] */
    int64_t aw[2] = {dcMulDims(p, m), k}, bw[2] = {k, nn}, yw[2] = {dcMulDims(p, m), nn};
    operands[0] = mmOperand(w, a, pa == 1, 2, aw, n, batch, p);
    operands[1] = mmOperand(w, b, true, 2, bw, n, batch, p);
    MlirValue y = matmul2D(w, operands[0], operands[1], dcTensorOf(2, yw, ttElementType(res.type)));
    if (mlirTypeEqual(mlirValueGetType(y), res.type)) /* a 2-D f32 product's parts */
      return y;
    return dcPrim(w, "reshape", 1, &y, res.type, 0, NULL);
  }
  int64_t aw[3] = {p, m, k}, bw[3] = {p, k, nn}, yw[3] = {p, m, nn};
  operands[0] = mmOperand(w, a, true, 3, aw, n, batch, p);
  operands[1] = mmOperand(w, b, true, 3, bw, n, batch, p);
  MlirValue y = dcPrim(w, "matmul", 2, operands, dcTensorOf(3, yw, ttElementType(res.type)), 0,
                     NULL);
  if (mlirTypeEqual(mlirValueGetType(y), res.type))
    return y;
  return dcPrim(w, "reshape", 1, &y, res.type, 0, NULL);
}
