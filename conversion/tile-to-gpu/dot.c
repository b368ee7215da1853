/* dot.c - step 5 of --convert-tile-to-gpu: tile.dot on tensor cores, the dispatcher.
 *
 * Like Triton's DotOpToLLVM.cpp, this file checks a tile.dot's operands and hands it to
 * one instruction family: warpgroup MMA (dot-wgmma.c, step 5w) where the dot's form is
 * wgmma, else mma.sync (dot-mma-sync.c, steps 5a-5c). What both share lives here:
 *  - the accumulator's layouts: tgToMma makes the K loop's start (a splat constant) as
 *    fragments; tgToFlat moves fragments to the flat layout through shared memory when a
 *    use that is not a dot needs it (5c);
 *  - operand staging: tgStageTile stores a flat operand to shared memory, padded (5a) or
 *    128-byte swizzled (5w a), fp8 widened to f16 on the way;
 *  - which form a dot runs on (tgDotForm): the `mma` form recorded on it (decided once,
 *    by lib/mma-form.c for --tile and --pipeline), mma.sync on targets without wgmma.
 */
#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Warps over an m x n accumulator: split M while the warp tile is taller than wide (into
 * whole 16-row fragments: m may be a multiple of 16 that is not a power of two, --tile's
 * rows fitted to M). */
MmaLayout tgMmaLayout(Lower *l, int64_t m, int64_t n) {
  int64_t warps = l->T / 32, wm = 1;
  while (wm * 2 <= warps && m % (wm * 2 * 16) == 0 && m / wm > n / (warps / wm))
    wm *= 2;
  MmaLayout y = {wm, warps / wm, m / wm / 16, n / (warps / wm) / 8};
  return y;
}

/* Step 5a: stores flat tile x ([rows][cols] of elem) to shared memory at element `base`
 * (fp8 widened to f16: the buffer then holds f16): with row pitch `ld`, or when swizzled
 * in 5w's 128-byte swizzled layout of 64-column blocks of `ld` rows each. */
void tgStageTile(Lower *l, MlirValue buf, Lowered *x, int64_t cols, int64_t base,
                      int64_t ld, bool swizzled, MlirType elem) {
  bool fp8 = ttTypeIsFp8(elem);
  MlirType stored = fp8 ? mlirF16TypeGet(l->ctx) : elem;
  for (int r = 0; r < x->n; r++) {
    MlirValue row, col;
    tgRunAt(l, r, cols, &row, &col);
    MlirValue off = swizzled ? tgSwizzledOffset(l, row, col, ld, 2, false)
                             : tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, ld), col);
    MlirValue p = tgGep(l, buf, tgArithC(l, "arith.addi", off, base), stored);
    MlirValue v = fp8 ? tgWidenFp8(l, x->parts[r], elem) : x->parts[r];
    MlirNamedAttribute align = tgAlignAttr(l, 16);
    tgBuild(l, "llvm.store", 2, (MlirValue[]){v, p}, ttNoType(), 1, &align);
  }
}

MlirType tgVec4f32(Lower *l) {
  int64_t four = 4;
  return mlirVectorTypeGet(1, &four, mlirF32TypeGet(l->ctx));
}

/* Step 5c: accumulator `key` in fragments; a flat one must be a splat constant (the K
 * loop's start), made as fragments directly. Errors are reported at `at`. */
Lowered *tgToMma(Lower *l, MlirOperation at, MlirValue key, int64_t m, int64_t n,
                 TtMmaForm form) {
  Lowered *x = tgLookup(l, key);
  if (x && x->mma && x->form == form)
    return x;
  if (x && x->mma) {
    ttEmitError(at, "convert-tile-to-gpu: a tile.dot accumulator comes from a dot of "
                    "another tensor-core form (mma.sync, wgmma and wgmma-direct do not mix)");
    return NULL;
  }
  MlirAttribute v = x && x->def.ptr && ttOpIs(x->def, "arith.constant") ? ttOpAttr(x->def, "value")
                                                                        : mlirAttributeGetNull();
  if (mlirAttributeIsNull(v) || !mlirAttributeIsADenseElements(v) ||
      !mlirDenseElementsAttrIsSplat(v)) {
    ttEmitError(at, "convert-tile-to-gpu: a tile.dot accumulator must start from a splat "
                    "constant or another tile.dot");
    return NULL;
  }
  MlirNamedAttribute va = ttNamedAttr(
      l->ctx, "value",
      mlirDenseElementsAttrSplatGet(tgVec4f32(l), mlirDenseElementsAttrGetSplatValue(v)));
  MmaLayout y = tgMmaLayout(l, m, n);
  int64_t parts = form != TT_MMA_SYNC ? tgWgParts(l, form, m, n) : y.mt * y.nt;
  if (parts < 1 || parts > MAX_REPS) { /* (the dot's own lowering checks its operands) */
    ttEmitError(at, "convert-tile-to-gpu: a %lldx%lld tile.dot accumulator on %lld warps "
                    "takes %lld register parts a thread; 1 to %d are supported (more warps "
                    "or a smaller tile)",
                (long long)m, (long long)n, (long long)(l->T / 32), (long long)parts, MAX_REPS);
    return NULL;
  }
  MlirValue c = tgBuild(l, "arith.constant", 0, NULL, tgVec4f32(l), 1, &va);
  Lowered *out = tgDefine(l, key);
  out->mma = true;
  out->form = form;
  out->mmaM = m;
  out->mmaN = n;
  out->n = (int)parts;
  for (int i = 0; i < out->n; i++)
    out->parts[i] = c;
  return out;
}

WarpPos tgWarpPos(Lower *l, MmaLayout y) {
  MlirValue warp = tgArithC(l, "arith.divui", l->tid, 32);
  WarpPos w = {tgArithC(l, "arith.remui", l->tid, 32), tgArithC(l, "arith.divui", warp, y.wn),
               tgArithC(l, "arith.remui", warp, y.wn)};
  return w;
}

/* The form tile.dot `dot` runs on here: its recorded `mma` form (lib/mma-form.c) for
 * mma=wgmma, except that wgmma stages operands held in registers only in runs of 8 (VEC);
 * mma.sync for mma=sync. */
TtMmaForm tgDotForm(Lower *l, MlirOperation dot) {
  if (!l->wgmma)
    return TT_MMA_SYNC;
  for (int i = 0; i < 2; i++)
    if (!ttDotOperandInSlot(dot, i) && l->VEC != 8)
      return TT_MMA_SYNC;
  TtMmaForm recorded = ttDotMmaForm(dot);
  /* a recorded form that does not fit (hand-written IR: wgmma on 2 warps) is reported by
   * tgLowerDot; until then (the loop's accumulator, lowered first) mma.sync's layout */
  return recorded == ttDotMmaFormFor(dot, l->T / 32) ? recorded : TT_MMA_SYNC;
}

/* Step 5c: accumulator x (in fragments) in the flat layout, through shared memory. */
Lowered *tgToFlat(Lower *l, Lowered *x) {
  MlirValue buf = tgAccToShared(l, x);
  return tgReadFlat(l, x->key, buf, tgConstI32(l, 0), x->mmaM, x->mmaN, x->mmaN + 4,
                    mlirF32TypeGet(l->ctx));
}

/* Accumulator x stored to scratch shared memory as [mmaM][mmaN + 4] f32, between two
 * block barriers; the buffer. */
MlirValue tgAccToShared(Lower *l, Lowered *x) {
  int64_t m = x->mmaM, n = x->mmaN, ld = n + 4;
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue buf = tgScratchSmem(l, m * ld * 4, 16);
  int64_t warps = l->T / 32;
  bool direct = x->form == TT_MMA_WGMMA_DIRECT;
  if (x->form == TT_MMA_WGMMA) {
    tgWgmmaToShared(l, x, buf, ld);
    return buf;
  }
  /* mma.sync's fragments; the direct form (5w d) has the same with every warp along M:
   * part c of warp w holds rows 16 w + lane / 4 (+ 8), columns 8 c + 2 (lane % 4) (+ 1) */
  MmaLayout y = direct ? (MmaLayout){warps, 1, 1, n / 8} : tgMmaLayout(l, m, n);
  WarpPos w = tgWarpPos(l, y);
  MlirValue g = tgArithC(l, "arith.divui", w.lane, 4), t2 = tgArithC(l, "arith.muli", tgArithC(l, "arith.remui", w.lane, 4), 2);
  MlirValue row0 = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", w.wmI, m / y.wm), g);
  MlirValue col0 = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", w.wnI, n / y.wn), t2);
  tgBarrier(l);
  int64_t two = 2;
  MlirType v2 = mlirVectorTypeGet(1, &two, f32);
  for (int64_t mt = 0; mt < y.mt; mt++)
    for (int64_t nt = 0; nt < y.nt; nt++)
      for (int half = 0; half < 2; half++) { /* c0 c1 at row g, c2 c3 at row g + 8 */
        MlirValue pair = tgSlice2(l, x->parts[mt * y.nt + nt], 2 * half, v2);
        MlirValue row = tgArithC(l, "arith.addi", row0, mt * 16 + 8 * half);
        MlirValue col = tgArithC(l, "arith.addi", col0, nt * 8);
        MlirValue p = tgGep(l, buf, tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, ld), col), f32);
        MlirNamedAttribute align = tgAlignAttr(l, 8);
        tgBuild(l, "llvm.store", 2, (MlirValue[]){pair, p}, ttNoType(), 1, &align);
      }
  tgBarrier(l);
  return buf;
}

/* Step 5 for tile.dot. */
bool tgLowerDot(Lower *l, MlirOperation op) {
  MlirValue av = mlirOperationGetOperand(op, 0), bv = mlirOperationGetOperand(op, 1);
  Lowered *a = tgLookup(l, av), *b = tgLookup(l, bv);
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK], cs[TT_MAX_RANK];
  MlirType aElem = ttElementType(mlirValueGetType(av)), bElem = ttElementType(mlirValueGetType(bv));
  bool fp8 = ttTypeIsFp8(aElem) && ttTypeIsFp8(bElem); /* widened to f16 in 5a, or
                                                          * TMA slots on fp8 wgmma */
  bool bf16 = mlirTypeIsABF16(aElem) && mlirTypeIsABF16(bElem);
  bool f16 = mlirTypeIsAF16(aElem) && mlirTypeIsAF16(bElem);
  TtMmaForm form = tgDotForm(l, op);
  if (!a || !b || a->mma || a->trans || b->mma ||
      (fp8 && (a->shared || b->shared) && form == TT_MMA_SYNC) ||
      ttTensorShape(mlirValueGetType(av), as) != 2 || ttTensorShape(mlirValueGetType(bv), bs) != 2 ||
      ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), cs) != 2 ||
      !(fp8 || bf16 || f16) ||
      as[1] != bs[0] || cs[0] != as[0] || cs[1] != bs[1] ||
      !mlirTypeIsAF32(ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0))))) {
    ttEmitError(op, "convert-tile-to-gpu: tile.dot needs 2-D operands MxK and KxN, both f16, "
                    "both bf16 or both fp8 (E4M3FN or E5M2; in registers, or K-major TMA "
                    "slots for wgmma), and an f32 MxN accumulator");
    return false;
  }
  TtMmaForm recorded = ttDotMmaForm(op);
  if (recorded != TT_MMA_SYNC && recorded != ttDotMmaFormFor(op, l->T / 32)) {
    ttEmitError(op, "convert-tile-to-gpu: tile.dot's mma = \"%s\" does not fit this "
                    "%lldx%lldx%lld dot on %lld warps with its operands where they are (--tile "
                    "and --pipeline record the form that fits)",
                ttMmaFormNames[recorded], (long long)as[0], (long long)bs[1], (long long)as[1],
                (long long)(l->T / 32));
    return false;
  }
  if (form != TT_MMA_SYNC)
    return tgLowerWgmma(l, op, a, b, aElem, bElem, form);
  if (a->swz || b->swz) {
    ttEmitError(op, "convert-tile-to-gpu: a tile.dot reading TMA slots (128-byte swizzled) "
                    "runs only on wgmma: mma=wgmma (sm_90a) and a tile that fits it (whole "
                    "warpgroups, N a multiple of 64 per warpgroup and M of 8 up to 256, or M "
                    "64 per warpgroup, N of 8 up to 256 and B read transposed from [N, K]; K "
                    "of 64)");
    return false;
  }
  return tgLowerMmaSync(l, op, a, b, aElem, bElem);
}
