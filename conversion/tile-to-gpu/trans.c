/* trans.c - tile.trans for --convert-tile-to-gpu: a transposed view for tile.dot, or an
 * exchange through shared memory for any other user (the permute kernels of --tile).
 *
 * A tile.trans whose users are all tile.dot stays a view: the dot reads its operand
 * transposed (kernel.c's lowerView). Otherwise the [R, C] tile x (flat layout: each thread
 * holds runs of VEC consecutive elements of a row) becomes the [C, R] tile y in the flat
 * layout, through an R x C tile of shared memory:
 *  1. Store: each run of x (row i, columns c..c+VEC) is one vector store to row i, chunk
 *     (c / VEC) ^ ((i / VEC) % nch) of the shared tile (nch = C / VEC chunks of VEC
 *     elements a row): an XOR swizzle that keeps every chunk whole, so stores stay 16-byte
 *     vectors, and a warp's stores fill whole rows (no bank conflicts).
 *  2. Barrier.
 *  3. Load: each run of y (row j, columns i..i+VEC, i a multiple of VEC) is VEC scalar
 *     loads of x[i + v][j], all in the same swizzled chunk (j / VEC) ^ (i / VEC % nch).
 *     In a warp, the 8 threads of one output row of 128 bytes read 8 rows i of distinct
 *     i / VEC, so 8 distinct chunks: with 128-byte rows (the permute kernel's tiles) the
 *     32 lanes hit 32 distinct banks, or share a word (2-byte elements: a broadcast).
 * R and C must be multiples of VEC. A second exchange in the same kernel reuses the
 * scratch after a barrier.
 */
#include "lower.h"

/* True when every user of op's result is a tile.dot. */
static bool onlyDots(MlirOperation op) {
  MlirValue v = mlirOperationGetResult(op, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!ttOpIs(mlirOpOperandGetOwner(u), "tile.dot"))
      return false;
  return true;
}

/* The swizzled element offset of chunk `chunk` of row `row` in the shared tile. */
static MlirValue swizzled(Lower *l, MlirValue row, MlirValue chunk, int64_t cols, int64_t nch) {
  MlirValue sw = tgArith(l, "arith.xori", chunk,
                         tgArithC(l, "arith.remui", tgArithC(l, "arith.divui", row, l->VEC), nch));
  return tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, cols),
                 tgArithC(l, "arith.muli", sw, l->VEC));
}

bool tgLowerTrans(Lower *l, MlirOperation op) {
  if (onlyDots(op))
    return tgLowerView(l, op);
  MlirValue xv = mlirOperationGetOperand(op, 0);
  Lowered *x = tgLookup(l, xv);
  int64_t shape[TT_MAX_RANK];
  if (!x || x->mma || x->trans || x->shared || ttTensorShape(mlirValueGetType(xv), shape) != 2) {
    ttEmitError(op, "convert-tile-to-gpu: tile.trans outside a dot takes a 2-D tile held by "
                    "the threads");
    return false;
  }
  int64_t rows = shape[0], cols = shape[1], nch = cols / l->VEC;
  if (rows % l->VEC || cols % l->VEC || (nch & (nch - 1))) { /* the swizzle: a power of 2 */
    ttEmitError(op, "convert-tile-to-gpu: tile.trans outside a dot needs both dims to be "
                    "multiples of %lld (16-byte runs), the columns a power of two of them",
                (long long)l->VEC);
    return false;
  }
  MlirType elem = ttElementType(mlirValueGetType(xv));
  int bytes = ttDtypeBytes(elem);
  tgBarrier(l); /* whatever used the scratch before (another exchange, mma staging) */
  MlirValue buf = tgScratchSmem(l, rows * cols * bytes, 16);

  /* 1-2: rows in, swizzled; barrier */
  for (int r = 0; r < x->n; r++) {
    MlirValue row, col;
    tgRunAt(l, r, cols, &row, &col);
    MlirValue p = tgGep(l, buf, swizzled(l, row, tgArithC(l, "arith.divui", col, l->VEC),
                                         cols, nch), elem);
    MlirNamedAttribute align = tgAlignAttr(l, l->VEC * bytes < 16 ? l->VEC * bytes : 16);
    tgStore(l, x->parts[r], p, &align);
  }
  tgBarrier(l);

  /* 3: columns out */
  Lowered *y = tgDefine(l, mlirOperationGetResult(op, 0));
  y->def = op;
  y->n = x->n;
  MlirType vt = tgVecOf(l, elem);
  for (int r = 0; r < y->n; r++) {
    MlirValue j, i;
    tgRunAt(l, r, rows, &j, &i);
    MlirValue at = tgArith(l, "arith.addi",
                           swizzled(l, i, tgArithC(l, "arith.divui", j, l->VEC), cols, nch),
                           tgArithC(l, "arith.remui", j, l->VEC));
    MlirValue v = tgPoison(l, vt);
    for (int64_t k = 0; k < l->VEC; k++) {
      MlirValue p = tgGep(l, buf, tgArithC(l, "arith.addi", at, k * cols), elem);
      v = tgInsert(l, tgLoadPtr(l, p, elem, bytes), v, k);
    }
    y->parts[r] = v;
  }
  return true;
}
