/* dot-mma-sync.c - step 5 of --convert-tile-to-gpu on mma.sync.m16n8k16 (sm_80+).
 *
 * C (M x N, f32) += A (M x K) @ B (K x N), f16 or bf16, with mma.sync.m16n8k16 (sm_80+):
 *  a. The operands arrive in the flat layout (each thread holds runs of VEC elements of
 *     the row-major tile). Each thread stores its runs to shared memory, A as [M][K + 8]
 *     and B as [N][K + 8] (a tile.trans of an [N, K] load: K contiguous, what mma's "col"
 *     B operand wants) or [K][N + 8]. The 8-element pad shifts each row by 16 bytes, so
 *     the 8 row addresses of an ldmatrix fall in 8 different 4-bank groups: no bank
 *     conflicts (and the 16-byte stores of a warp's runs cover distinct banks too).
 *  b. Warps split the C tile WM x WN (MmaLayout); each warp owns MT x NT fragments of
 *     16 x 8, held as its accumulator: four f32 per thread per fragment (thread lane
 *     holds rows lane/4 and lane/4 + 8, columns 2 (lane % 4) and + 1). Per 16 of K: one
 *     ldmatrix.x4 per 16-row A fragment, one ldmatrix.x4 (.trans for a [K][N] B) per two
 *     8-column B fragments, then MT x NT mma.sync.
 *  c. The accumulator stays in fragments across the K loop (scf.for carries MT x NT
 *     vector<4xf32>); a zero tile.splat/constant start is made as fragments directly.
 *     The first use that is not a dot moves it to the flat layout through shared memory
 *     ([M][N + 4] f32). Barriers guard each reuse of the buffer. */

#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ldmatrix of `num` 8x8 b16 matrices from shared memory at element `off` (f16/bf16) of
 * buf, transposed when trans; the num i32 registers go to out. */
void tgLdmatrix(Lower *l, MlirValue buf, MlirValue off, int num, bool trans, MlirValue *out) {
  MlirType i32 = ttI32(l->ctx);
  MlirValue p = tgGep(l, buf, off, mlirF16TypeGet(l->ctx));
  char st[64];
  snprintf(st, sizeof st, "!llvm.struct<(%s)>", num == 4 ? "i32, i32, i32, i32" : "i32, i32");
  MlirNamedAttribute attrs[4] = {
      ttNamedAttr(l->ctx, "num", ttIntAttr(l->ctx, num, i32)),
      ttNamedAttr(l->ctx, "layout", mlirAttributeParseGet(l->ctx, ttStrRef(
                                        trans ? "#nvvm.mma_layout<col>" : "#nvvm.mma_layout<row>"))),
      ttNamedAttr(l->ctx, "shape",
                  mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.ld_st_matrix_shape<m = 8, n = 8>"))),
      ttNamedAttr(l->ctx, "eltType",
                  mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.ld_st_matrix_elt_type<b16>"))),
  };
  MlirValue s = tgBuild(l, "nvvm.ldmatrix", 1, &p, mlirTypeParseGet(l->ctx, ttStrRef(st)), 4, attrs);
  for (int i = 0; i < num; i++)
    out[i] = tgExtractValue(l, s, i, i32);
}

/* One mma.sync.m16n8k16 (f32 accumulator): c[0..4) += a[0..4) @ b[0..2). */
void tgMma(Lower *l, bool bf16, const MlirValue *a, const MlirValue *b, MlirValue *c) {
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue ops[10];
  MlirType h2 = mlirTypeParseGet(l->ctx, ttStrRef("vector<2xf16>"));
  for (int i = 0; i < 6; i++) {
    MlirValue x = i < 4 ? a[i] : b[i - 4];
    ops[i] = bf16 ? x : tgBuild(l, "llvm.bitcast", 1, &x, h2, 0, NULL);
  }
  for (int i = 0; i < 4; i++)
    ops[6 + i] = c[i];
  const char *ty = bf16 ? "#nvvm.mma_type<bf16>" : "#nvvm.mma_type<f16>";
  MlirNamedAttribute attrs[6] = {
      ttNamedAttr(l->ctx, "layoutA", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.mma_layout<row>"))),
      ttNamedAttr(l->ctx, "layoutB", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.mma_layout<col>"))),
      ttNamedAttr(l->ctx, "shape",
                  mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.shape<m = 16, n = 8, k = 16>"))),
      ttNamedAttr(l->ctx, "multiplicandAPtxType", mlirAttributeParseGet(l->ctx, ttStrRef(ty))),
      ttNamedAttr(l->ctx, "multiplicandBPtxType", mlirAttributeParseGet(l->ctx, ttStrRef(ty))),
      ttNamedAttr(l->ctx, "operandSegmentSizes",
                  mlirDenseI32ArrayGet(l->ctx, 3, (const int32_t[]){4, 2, 4})),
  };
  MlirValue r = tgBuild(l, "nvvm.mma.sync", 10, ops,
                      mlirTypeParseGet(l->ctx, ttStrRef("!llvm.struct<(f32, f32, f32, f32)>")),
                      6, attrs);
  for (int i = 0; i < 4; i++)
    c[i] = tgExtractValue(l, r, i, f32);
}

/* Step 5 for tile.dot on mma.sync (tgLowerDot has checked the operands; m x n x k
 * is the dot's shape). */
bool tgLowerMmaSync(Lower *l, MlirOperation op, Lowered *a, Lowered *b, MlirType aElem,
                    MlirType bElem) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), as);
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 1)), bs);
  int64_t m = as[0], k = as[1], n = bs[1];
  bool bf16 = mlirTypeIsABF16(aElem) && mlirTypeIsABF16(bElem);
  MmaLayout y = tgMmaLayout(l, m, n);
  if (m % (16 * y.wm) || n % (8 * y.wn) || k % 16 || y.mt > 16 || y.mt * y.nt > MAX_REPS ||
      l->VEC != 8) {
    ttEmitError(op, "convert-tile-to-gpu: a %lldx%lldx%lld tile.dot does not fit %lld warps "
                    "of 16x8 mma fragments (at most 16 rows and %d fragments per warp, "
                    "operands in 16-byte runs)",
                (long long)m, (long long)n, (long long)k, (long long)(l->T / 32), MAX_REPS);
    return false;
  }
  Lowered *c = tgToMma(l, op, mlirOperationGetOperand(op, 2), m, n, TT_MMA_SYNC);
  if (!c)
    return false;
  bool bT = b->trans; /* B held as [N][K] */
  /* 5a: where each operand is in shared memory: in place (step 6) or staged */
  MlirValue abuf = a->sbuf, bbuf = b->sbuf, abase = a->parts[0], bbase = b->parts[0];
  int64_t lda = a->shared ? a->ld : k + 8, ldb = b->shared ? b->ld : bT ? k + 8 : n + 8;
  if (!a->shared || !b->shared) {
    int64_t aElems = a->shared ? 0 : m * lda, bElems = b->shared ? 0 : (bT ? n : k) * ldb;
    MlirValue buf = tgScratchSmem(l, (aElems + bElems) * 2, 16);
    tgBarrier(l);
    if (!a->shared) {
      tgStageTile(l, buf, a, k, 0, lda, false, aElem);
      abuf = buf;
      abase = tgConstI32(l, 0);
    }
    if (!b->shared) {
      tgStageTile(l, buf, b, bT ? k : n, aElems, ldb, false, bElem);
      bbuf = buf;
      bbase = tgConstI32(l, aElems);
    }
    tgBarrier(l);
  }

  /* 5b: the warp's fragments, 16 of K at a time. */
  WarpPos w = tgWarpPos(l, y);
  MlirValue l16 = tgArithC(l, "arith.remui", w.lane, 16), h16 = tgArithC(l, "arith.muli", tgArithC(l, "arith.divui", w.lane, 16), 8);
  MlirValue l8 = tgArithC(l, "arith.remui", w.lane, 8);
  MlirValue h8 = tgArithC(l, "arith.muli", tgArithC(l, "arith.remui", tgArithC(l, "arith.divui", w.lane, 8), 2), 8);
  MlirValue rowA = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", w.wmI, m / y.wm), l16);
  MlirValue colB = tgArithC(l, "arith.muli", w.wnI, n / y.wn);
  MlirValue acc[MAX_REPS][4];
  for (int i = 0; i < c->n; i++)
    for (int j = 0; j < 4; j++)
      acc[i][j] = tgExtract(l, c->parts[i], j);
  for (int64_t ks = 0; ks < k; ks += 16) {
    MlirValue af[16][4], bf[MAX_REPS][2];
    for (int64_t mt = 0; mt < y.mt; mt++) { /* A: rows lane % 16, K half lane / 16 */
      MlirValue off = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", tgArithC(l, "arith.addi", rowA, mt * 16), lda),
                         tgArithC(l, "arith.addi", h16, ks));
      tgLdmatrix(l, abuf, tgArith(l, "arith.addi", off, abase), 4, false, af[mt]);
    }
    for (int64_t nt = 0; nt < y.nt; nt += 2) {
      bool pair = nt + 1 < y.nt;
      MlirValue regs[4];
      /* B [N][K]: matrix j of the x4 covers columns nt*8 + 8 (j / 2), K half j % 2;
       * B [K][N] (.trans): rows K, the same matrices. */
      MlirValue nIdx = tgArith(l, "arith.addi", tgArithC(l, "arith.addi", colB, nt * 8), pair ? h16 : tgConstI32(l, 0));
      MlirValue off;
      if (bT)
        off = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", tgArith(l, "arith.addi", nIdx, l8), ldb),
                 tgArithC(l, "arith.addi", h8, ks));
      else
        off = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", tgArithC(l, "arith.addi", tgArith(l, "arith.addi", l8, h8), ks), ldb),
                 nIdx);
      tgLdmatrix(l, bbuf, tgArith(l, "arith.addi", off, bbase), pair ? 4 : 2, !bT, regs);
      bf[nt][0] = regs[0];
      bf[nt][1] = regs[1];
      if (pair) {
        bf[nt + 1][0] = regs[2];
        bf[nt + 1][1] = regs[3];
      }
    }
    for (int64_t mt = 0; mt < y.mt; mt++)
      for (int64_t nt = 0; nt < y.nt; nt++)
        tgMma(l, bf16, af[mt], bf[nt], acc[mt * y.nt + nt]);
  }
  Lowered *out = tgDefine(l, mlirOperationGetResult(op, 0));
  out->mma = true;
  out->mmaM = m;
  out->mmaN = n;
  out->n = c->n;
  for (int i = 0; i < c->n; i++)
    out->parts[i] = tgBuild(l, "vector.from_elements", 4, acc[i], tgVec4f32(l), 0, NULL);
  return true;
}
