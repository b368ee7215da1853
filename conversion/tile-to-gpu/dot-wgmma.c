/* dot-wgmma.c - step 5w of --convert-tile-to-gpu: tile.dot on warpgroup MMA (mma=wgmma,
 * sm_90a).
 *
 * C (M x N, f32) += A (M x K) @ B (K x N) is computed transposed ("swap AB": C^T = B^T A^T)
 * so that N takes wgmma's 64-row side and M, often 1-16 at decode, its narrow side:
 * wgmma.m64nMk16 with B^T as wgmma's A and A as wgmma's B (both read from shared memory
 * through 64-bit matrix descriptors; fp8 operands in registers are widened to f16 in 5a,
 * fp8 TMA slots run wgmma.m64nMk32 e4m3/e5m2 in place, each dot a fresh sum added to the
 * f32 accumulator afterwards).
 *  a. The operands go through registers into shared memory (the buffer aligned to 1024
 *     bytes) in the 128-byte swizzled layout: a tile with K contiguous (A [M][K], and B^T
 *     when B is a tile.trans of an [N][K] load) as K/64 blocks of [rows][64] (128-byte
 *     rows), the 16-byte chunk c of row r at chunk c ^ (r % 8) of its row; B [K][N] as N/64
 *     blocks of [K][64], chunk c of row k at c ^ (k % 8), read by wgmma transposed. The 8
 *     threads that store one row's chunks hit all 32 banks. A generic-to-async proxy fence
 *     and a barrier make the stores visible to wgmma.
 *  b. Warpgroup g (warps 4g..4g+3) of G owns C columns [g N/G, (g+1) N/G): MB = N/G/64
 *     blocks of 64. Per 16 of K it issues one wgmma per block; descriptors hold the start
 *     address / 16, the 8-row group stride (1024 bytes), the 64-column block stride (B
 *     [K][N]) and swizzle mode 128B; a K step moves the start by 32 bytes in a K-major
 *     block (the hardware swizzles the address it forms) and by 16 rows (2048 bytes) in a
 *     [K][64] block. wgmma.fence before the first, commit and wait for all after the last
 *     - unless a hopper.wgmma_wait follows the tile.dot (--pipeline wgmma-in-flight) and
 *     both operands are TMA slots, when that op says how many groups stay in flight (not
 *     for fp8 slots, whose promotion reads the sum: see below).
 *  c. The accumulator: per block b and 8-row chunk c of M a vector<4xf32>, the registers
 *     4c..4c+3 of wgmma's D: lane (g = lane / 4, t = lane % 4) of warp w in the group holds
 *     C[8c + 2t + {0, 1}][col] at col = 64 (MB g + b) + 16 w + g, then at col + 8.
 *  d. The direct form (mma = "wgmma-direct", ttWgmmaDirect: N not a multiple of 64 per warpgroup, M 64 per
 *     warpgroup, B^T K-major; e.g. 64x80 tiles, which spread N = 10240 over 128 programs
 *     where 128 columns make 80): C = A B as it stands, wgmma.m64nNk with A as wgmma's A
 *     (warpgroup g from row 64 g: 8 row groups of 1024 bytes further) and B^T as its B, one
 *     wgmma per K step. Its D is part c = 0 .. N/8 - 1: lane (g, t) of warp w holds
 *     C[r][8c + 2t + {0, 1}] and C[r + 8][...] at r = 64 g' + 16 w + g (g' the group) -
 *     mma.sync's fragment order, per 16-row warp slice. */

#include "lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vector<4xf32> parts of an M x N wgmma accumulator per thread (5w c); -1 without a
 * whole warpgroup. */
int64_t tgWgParts(const Lower *l, TtMmaForm form, int64_t m, int64_t n) {
  int64_t warps = l->T / 32;
  if (form != TT_MMA_WGMMA_DIRECT && warps < 4)
    return -1; /* no whole warpgroup */
  return form == TT_MMA_WGMMA_DIRECT ? n / 8 : n / (warps / 4) / 64 * (m / 8);
}


static MlirValue ci64(Lower *l, int64_t v) {
  return ttConstInt(&l->b, l->loc, mlirIntegerTypeGet(l->ctx, 64), v);
}

/* i64 scalar `a name b` (b a constant). */
static MlirValue arc64(Lower *l, const char *name, MlirValue a, int64_t b) {
  return tgBuild(l, name, 2, (MlirValue[]){a, ci64(l, b)}, mlirIntegerTypeGet(l->ctx, 64), 0, NULL);
}

/* The descriptor (5w b) of shared memory at buf with the given group and block strides. */
static MlirValue wgmmaDesc(Lower *l, MlirValue buf, int64_t sbo, int64_t lbo) {
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);
  MlirValue addr = tgBuild(l, "llvm.ptrtoint", 1, &buf, i64, 0, NULL);
  MlirValue start = arc64(l, "arith.shrui", arc64(l, "arith.andi", addr, 0x3FFFF), 4);
  int64_t fixed = ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | ((int64_t)1 << 62);
  return arc64(l, "arith.ori", start, fixed);
}

/* The #nvvm.wgmma_type of an operand element (f16 for widened fp8 in 5a's f16 staging). */
static const char *wgmmaType(MlirType elem, bool native) {
  if (mlirTypeIsABF16(elem))
    return "#nvvm.wgmma_type<bf16>";
  if (native && mlirTypeIsAFloat8E4M3FN(elem))
    return "#nvvm.wgmma_type<e4m3>";
  if (native && mlirTypeIsAFloat8E5M2(elem))
    return "#nvvm.wgmma_type<e5m2>";
  return "#nvvm.wgmma_type<f16>";
}

/* One wgmma.m64nMkK: D (acc, or 0 when `fresh`) += wgmma's A (descriptor da, our B^T, of
 * element ta) times its B (db, our A, of tb); K = 32 bytes of either. */
static MlirValue wgmmaOp(Lower *l, MlirValue acc, MlirValue da, MlirValue db, int64_t m,
                         bool aKMajor, const char *ta, const char *tb, int64_t kk, bool fresh) {
  char shape[64];
  snprintf(shape, sizeof shape, "#nvvm.shape<m = 64, n = %lld, k = %lld>", (long long)m,
           (long long)kk);
  MlirAttribute one = mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.wgmma_scale_in<one>"));
  MlirNamedAttribute attrs[9] = {
      ttNamedAttr(l->ctx, "layoutA", mlirAttributeParseGet(l->ctx, ttStrRef(
                                         aKMajor ? "#nvvm.mma_layout<row>" : "#nvvm.mma_layout<col>"))),
      ttNamedAttr(l->ctx, "layoutB", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.mma_layout<col>"))),
      ttNamedAttr(l->ctx, "scaleA", one),
      ttNamedAttr(l->ctx, "scaleB", one),
      ttNamedAttr(l->ctx, "scaleD", mlirAttributeParseGet(l->ctx, ttStrRef(
                                        fresh ? "#nvvm.wgmma_scale_out<zero>" : "#nvvm.wgmma_scale_out<one>"))),
      ttNamedAttr(l->ctx, "shape", mlirAttributeParseGet(l->ctx, ttStrRef(shape))),
      ttNamedAttr(l->ctx, "typeA", mlirAttributeParseGet(l->ctx, ttStrRef(ta))),
      ttNamedAttr(l->ctx, "typeB", mlirAttributeParseGet(l->ctx, ttStrRef(tb))),
      ttNamedAttr(l->ctx, "typeD", mlirAttributeParseGet(l->ctx, ttStrRef("#nvvm.wgmma_type<f32>"))),
  };
  return tgBuild(l, "nvvm.wgmma.mma_async", 3, (MlirValue[]){acc, da, db}, mlirValueGetType(acc),
               9, attrs);
}

/* The warpgroup's index and, within it, warp w and lane (5w c). */
static void wgPos(Lower *l, MlirValue *group, MlirValue *warp, MlirValue *lane) {
  *group = tgArithC(l, "arith.divui", l->tid, 128);
  *warp = tgArithC(l, "arith.remui", tgArithC(l, "arith.divui", l->tid, 32), 4);
  *lane = tgArithC(l, "arith.remui", l->tid, 32);
}

/* 5c for 5w's swapped form: accumulator x (C^T in wgmma's D layout) stored to buf as
 * [M][ld] f32. (The direct form's D has mma.sync's fragment layout: toFlat stores it.) */
void tgWgmmaToShared(Lower *l, Lowered *x, MlirValue buf, int64_t ld) {
  int64_t m = x->mmaM, mb = x->mmaN / (l->T / 128) / 64;
  MlirValue group, warp, lane;
  wgPos(l, &group, &warp, &lane);
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue col0 = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", group, mb * 64),
                      tgArith(l, "arith.addi", tgArithC(l, "arith.muli", warp, 16), tgArithC(l, "arith.divui", lane, 4)));
  MlirValue row0 = tgArithC(l, "arith.muli", tgArithC(l, "arith.remui", lane, 4), 2);
  tgBarrier(l);
  for (int64_t b = 0; b < mb; b++)
    for (int64_t c = 0; c < m / 8; c++)
      for (int j = 0; j < 4; j++) {
        MlirValue row = tgArithC(l, "arith.addi", row0, 8 * c + (j & 1));
        MlirValue col = tgArithC(l, "arith.addi", col0, 64 * b + 8 * (j >> 1));
        MlirValue p = tgGep(l, buf, tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, ld), col), f32);
        MlirValue v = tgExtract(l, x->parts[b * (m / 8) + c], j);
        tgBuild(l, "llvm.store", 2, (MlirValue[]){v, p}, ttNoType(), 0, NULL);
      }
  tgBarrier(l);
}

/* Fragment vector v (4 x f32 of a wgmma's D) through an empty inline asm with side
 * effects that ties its registers: wgmma.mma_async defines D when it is issued, for LLVM,
 * so a pure op on it (a conversion) could be scheduled before the wgmma.wait_group that
 * ends it, reading registers the wgmma may still write. Ordered after the wait like a
 * store, as Triton's wait ties the accumulators. */
static MlirValue readAfterWait(Lower *l, MlirValue v) {
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue e[4];
  for (int j = 0; j < 4; j++)
    e[j] = tgExtract(l, v, j);
  MlirNamedAttribute attrs[3] = {
      ttNamedAttr(l->ctx, "asm_string", ttStrAttr(l->ctx, "")),
      ttNamedAttr(l->ctx, "constraints", ttStrAttr(l->ctx, "=f,=f,=f,=f,0,1,2,3")),
      ttNamedAttr(l->ctx, "has_side_effects", mlirUnitAttrGet(l->ctx))};
  MlirType st = mlirTypeParseGet(l->ctx, ttStrRef("!llvm.struct<(f32, f32, f32, f32)>"));
  MlirValue asmOut = tgBuild(l, "llvm.inline_asm", 4, e, st, 3, attrs);
  for (int j = 0; j < 4; j++)
    e[j] = tgExtractValue(l, asmOut, j, f32);
  return tgBuild(l, "vector.from_elements", 4, e, tgVec4f32(l), 0, NULL);
}

/* 5c for 5w's swapped form when the accumulator's one use converts it to a 2-byte float
 * `elem` (f16, bf16): converted in registers, then moved to the flat layout through
 * shared memory as [M][N + 8] of elem, and defined as `key` (the conversion's result). In
 * D's layout a thread holds rows R and R + 1 of tile column C (C = lane / 4 + ...), the
 * lane four away the same rows of column C + 1: one 32-bit shuffle between the two
 * (xor 4) gives each a row's pair of columns, stored as one packed word (the even lane
 * row R, the odd one row R + 1, both at column C; columns C + 8 in the same shuffle).
 * Against f32 staging (tgWgmmaToShared, then a convert): half the shared-memory bytes and
 * half the stores. Bank-conflict free: a warp's words are 8 rows x 4 columns, rows of
 * (N + 8) / 2 = 4 mod 32 words. (H200, f16 scores 8 x 4096 x 4096 x 128: L1 at 88% of
 * its peak, DRAM 35%, with f32 staging; bench/2026-11-27-h200-bmm-epilogue.md.) */
void tgWgmmaToFlatNarrow(Lower *l, Lowered *x, MlirValue key, MlirType elem) {
  int64_t m = x->mmaM, n = x->mmaN, mb = n / (l->T / 128) / 64, ld = n + 8;
  MlirValue group, warp, lane;
  wgPos(l, &group, &warp, &lane);
  MlirType i32 = ttI32(l->ctx), i1 = mlirIntegerTypeGet(l->ctx, 1);
  int64_t two = 2, four = 4;
  MlirType pair = mlirVectorTypeGet(1, &two, elem), quad = mlirVectorTypeGet(1, &four, elem);
  MlirValue odd = tgArithC(l, "arith.andi", tgArithC(l, "arith.shrui", lane, 2), 1);
  MlirNamedAttribute ne = ttNamedAttr(l->ctx, "predicate", ttIntAttr(l->ctx, 1, mlirIntegerTypeGet(l->ctx, 64)));
  MlirValue isOdd = tgBuild(l, "arith.cmpi", 2, (MlirValue[]){odd, tgConstI32(l, 0)}, i1, 1, &ne);
  /* the word this lane writes: row R (even lane) or R + 1 (odd), the pair's even column */
  MlirValue col0 = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", group, mb * 64),
                           tgArith(l, "arith.addi", tgArithC(l, "arith.muli", warp, 16),
                                   tgArith(l, "arith.subi", tgArithC(l, "arith.divui", lane, 4), odd)));
  MlirValue row0 = tgArith(l, "arith.addi", tgArithC(l, "arith.muli", tgArithC(l, "arith.remui", lane, 4), 2), odd);
  MlirValue buf = tgScratchSmem(l, m * ld * 2, 16);
  MlirNamedAttribute xorMode = ttNamedAttr(l->ctx, "mode", mlirAttributeParseGet(l->ctx, ttStrRef("#gpu<shuffle_mode xor>")));
  MlirNamedAttribute align4 = tgAlignAttr(l, 4);
  tgBarrier(l);
  for (int64_t b = 0; b < mb; b++)
    for (int64_t c = 0; c < m / 8; c++) {
      /* h: (R, C) (R + 1, C) (R, C + 8) (R + 1, C + 8) of this lane's column C */
      MlirValue frag = readAfterWait(l, x->parts[b * (m / 8) + c]);
      MlirValue h = tgBuild(l, "arith.truncf", 1, &frag, quad, 0, NULL);
      MlirValue rowR = tgBuild(l, "llvm.mlir.poison", 0, NULL, pair, 0, NULL), rowR1 = rowR;
      for (int j = 0; j < 2; j++) {
        rowR = tgInsert(l, tgExtract(l, h, 2 * j), rowR, j);
        rowR1 = tgInsert(l, tgExtract(l, h, 2 * j + 1), rowR1, j);
      }
      MlirValue keep = tgBuild(l, "arith.select", 3, (MlirValue[]){isOdd, rowR1, rowR}, pair, 0, NULL);
      MlirValue send = tgBuild(l, "arith.select", 3, (MlirValue[]){isOdd, rowR, rowR1}, pair, 0, NULL);
      MlirValue ops[3] = {tgBuild(l, "llvm.bitcast", 1, &send, i32, 0, NULL), tgConstI32(l, 4),
                          tgConstI32(l, 32)};
      MlirType rts[2] = {i32, i1};
      MlirOperation sh = ttInsert(&l->b, ttOpCreate("gpu.shuffle", l->loc, 3, ops, 2, rts, 1, &xorMode, 0, NULL));
      MlirValue got = mlirOperationGetResult(sh, 0);
      MlirValue recv = tgBuild(l, "llvm.bitcast", 1, &got, pair, 0, NULL);
      /* column C first: the even lane's own value, the odd lane's received one */
      MlirValue lo = tgBuild(l, "arith.select", 3, (MlirValue[]){isOdd, recv, keep}, pair, 0, NULL);
      MlirValue hi = tgBuild(l, "arith.select", 3, (MlirValue[]){isOdd, keep, recv}, pair, 0, NULL);
      MlirValue row = tgArithC(l, "arith.addi", row0, 8 * c);
      for (int j = 0; j < 2; j++) { /* columns C, C + 1, then C + 8, C + 9 */
        MlirValue word = tgInsert(l, tgExtract(l, hi, j), tgInsert(l, tgExtract(l, lo, j),
                                  tgBuild(l, "llvm.mlir.poison", 0, NULL, pair, 0, NULL), 0), 1);
        MlirValue col = tgArithC(l, "arith.addi", col0, 64 * b + 8 * j);
        MlirValue p = tgGep(l, buf, tgArith(l, "arith.addi", tgArithC(l, "arith.muli", row, ld), col), elem);
        tgBuild(l, "llvm.store", 2, (MlirValue[]){word, p}, ttNoType(), 1, &align4);
      }
    }
  tgBarrier(l);
  tgReadFlat(l, key, buf, tgConstI32(l, 0), m, n, ld, elem);
}

/* wgmma.wait_group: at most `pending` of this warpgroup's committed groups in flight. */
void tgWgmmaWaitGroup(Lower *l, int64_t pending) {
  MlirNamedAttribute group =
      ttNamedAttr(l->ctx, "group", ttIntAttr(l->ctx, pending, mlirIntegerTypeGet(l->ctx, 64)));
  tgBuild(l, "nvvm.wgmma.wait.group.sync.aligned", 0, NULL, ttNoType(), 1, &group);
}

/* Step 5w for tile.dot in wgmma form `form` (tgLowerDot has checked the operands). */
bool tgLowerWgmma(Lower *l, MlirOperation op, Lowered *a, Lowered *b, MlirType aElem,
                  MlirType bElem, TtMmaForm form) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), as);
  ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 1)), bs);
  int64_t m = as[0], k = as[1], n = bs[1];
  /* the direct form (5w d): one wgmma of n columns per K step, 64 rows per warpgroup;
   * else mb blocks of 64 columns per warpgroup */
  bool direct = form == TT_MMA_WGMMA_DIRECT;
  int64_t mb = direct ? 1 : n / (l->T / 128) / 64;
  int64_t regs = direct ? n / 2 : m / 2; /* f32 registers of one wgmma's D */
  Lowered *c = tgToMma(l, op, mlirOperationGetOperand(op, 2), m, n, form);
  if (!c)
    return false;
  bool bT = b->trans; /* B held as [N][K]: B^T is K-major (always in the direct form: lib/mma-form.c) */
  /* 5a: operands in registers are staged; TMA slots (step 7) are read in place */
  MlirType i8 = mlirIntegerTypeGet(l->ctx, 8);
  int64_t aStaged = a->shared ? 0 : m * k, bStaged = b->shared ? 0 : n * k;
  MlirValue buf = {NULL};
  if (aStaged + bStaged) {
    l->smemAlign = true;
    buf = tgScratchSmem(l, (aStaged + bStaged) * 2, 1024);
    tgBarrier(l);
    if (aStaged)
      tgStageTile(l, buf, a, k, 0, m, true, aElem);
    if (bStaged)
      tgStageTile(l, buf, b, bT ? k : n, aStaged, bT ? n : k, true, bElem);
    tgFenceProxyAsync(l);
    tgBarrier(l);
  }
  /* fp8 slots (both K-major: lib/mma-form.c) run fp8 wgmma: eb-byte elements, kb of them to a
   * 128-byte row, K steps of 32 bytes. Its accumulation inside the tensor cores keeps
   * fewer than f32's bits, so each tile.dot starts a fresh sum (scale-d 0) that is added
   * to the f32 accumulator in registers afterwards ("promotion", as DeepGEMM and cuBLAS
   * without fast accumulation do): without it 16 x 8192 x 8192 e4m3 had rel_l2 1.9e-3. */
  bool native = ttTypeIsFp8(aElem) && a->shared;
  int64_t eb = native ? 1 : 2, kb = 128 / eb, kk = 32 / eb;
  const char *ta = wgmmaType(bElem, native), *tb = wgmmaType(aElem, native);
  MlirValue aPtr = a->shared ? tgGep(l, a->sbuf, tgArithC(l, "arith.muli", a->parts[0], eb), i8) : buf;
  /* a staged B sits bBase bytes into the buffer (kept in the descriptors' constants) */
  MlirValue bPtr = b->shared ? tgGep(l, b->sbuf, tgArithC(l, "arith.muli", b->parts[0], eb), i8) : buf;
  int64_t bBase = b->shared ? 0 : aStaged * 2;

  /* 5b: descriptors in units of 16 bytes from the buffer's start */
  MlirValue group, warp, lane;
  wgPos(l, &group, &warp, &lane);
  MlirType i64 = mlirIntegerTypeGet(l->ctx, 64);
  MlirValue g64 = tgBuild(l, "arith.extui", 1, &group, i64, 0, NULL);
  MlirValue descB = wgmmaDesc(l, aPtr, 1024, 0); /* A as wgmma's B (direct: its A) */
  MlirValue descA = wgmmaDesc(l, bPtr, 1024, bT ? 0 : k * 128); /* B^T as wgmma's A (B) */
  int64_t blockBytes = bT ? 64 * 128 : k * 128;
  /* warpgroup g's part: its blocks of N (direct: its 64 rows of A, 8 row groups) */
  MlirValue gOff = arc64(l, "arith.muli", g64, (direct ? 8 * 1024 : mb * blockBytes) / 16);
  if (direct)
    descB = tgBuild(l, "arith.addi", 2, (MlirValue[]){gOff, descB}, i64, 0, NULL);
  else
    descA = tgBuild(l, "arith.addi", 2, (MlirValue[]){gOff, descA}, i64, 0, NULL);
  char st[4096] = "!llvm.struct<(";
  for (int64_t i = 0; i < regs; i++)
    strcat(st, i ? ", f32" : "f32");
  strcat(st, ")>");
  MlirType accT = mlirTypeParseGet(l->ctx, ttStrRef(st));
  MlirType f32 = mlirF32TypeGet(l->ctx);
  MlirValue acc[MAX_REPS];
  for (int64_t bi = 0; bi < mb; bi++) {
    acc[bi] = tgBuild(l, "llvm.mlir.poison", 0, NULL, accT, 0, NULL);
    for (int64_t i = 0; i < regs && !native; i++) { /* (native: a fresh sum, see below) */
      MlirNamedAttribute pos = ttNamedAttr(l->ctx, "position", mlirDenseI64ArrayGet(l->ctx, 1, &i));
      MlirValue e = tgExtract(l, c->parts[bi * (regs / 4) + i / 4], i % 4);
      acc[bi] = tgBuild(l, "llvm.insertvalue", 2, (MlirValue[]){acc[bi], e}, accT, 1, &pos);
    }
  }
  tgBuild(l, "nvvm.wgmma.fence.aligned", 0, NULL, ttNoType(), 0, NULL);
  for (int64_t ks = 0; ks < k; ks += kk) {
    MlirValue db = arc64(l, "arith.addi", descB, ((ks / kb) * m * 128 + (ks % kb) * eb) / 16);
    for (int64_t bi = 0; bi < mb; bi++) {
      int64_t off = bT ? bBase + (ks / kb) * n * 128 + bi * blockBytes + (ks % kb) * eb
                       : bBase + bi * blockBytes + ks * 128;
      MlirValue da = arc64(l, "arith.addi", descA, off / 16);
      acc[bi] = direct ? wgmmaOp(l, acc[bi], db, da, n, true, tb, ta, kk, native && ks == 0)
                       : wgmmaOp(l, acc[bi], da, db, m, bT, ta, tb, kk, native && ks == 0);
    }
  }
  tgBuild(l, "nvvm.wgmma.commit.group.sync.aligned", 0, NULL, ttNoType(), 0, NULL);
  MlirOperation next = mlirOperationGetNextInBlock(op); /* (staging buf is reused: wait) */
  if (native || aStaged + bStaged || mlirOperationIsNull(next) ||
      !ttOpIs(next, "hopper.wgmma_wait"))
    tgWgmmaWaitGroup(l, 0);
  Lowered *out = tgDefine(l, mlirOperationGetResult(op, 0));
  out->mma = true;
  out->form = form;
  out->mmaM = m;
  out->mmaN = n;
  out->n = c->n;
  for (int64_t bi = 0; bi < mb; bi++)
    for (int64_t ch = 0; ch < regs / 4; ch++) {
      MlirValue e[4];
      for (int j = 0; j < 4; j++)
        e[j] = tgExtractValue(l, acc[bi], 4 * ch + j, f32);
      MlirValue v = tgBuild(l, "vector.from_elements", 4, e, tgVec4f32(l), 0, NULL);
      if (native) /* promoted: this dot's fp8 sum into the f32 accumulator */
        v = tgBuild(l, "arith.addf", 2, (MlirValue[]){c->parts[bi * (regs / 4) + ch], v}, tgVec4f32(l), 0, NULL);
      out->parts[bi * (regs / 4) + ch] = v;
    }
  return true;
}

/* hopper.wgmma_wait (--pipeline wgmma-in-flight): at most `pending` groups in flight. */
bool tgLowerWgmmaWait(Lower *l, MlirOperation op) {
  int64_t pending = ttOpAttrInt(op, "pending", -1);
  if (!l->wgmma)
    ttEmitError(op, "convert-tile-to-gpu: hopper.wgmma_wait needs mma=wgmma (sm_90a)");
  else if (pending < 0)
    ttEmitError(op, "convert-tile-to-gpu: hopper.wgmma_wait needs pending >= 0");
  else
    tgWgmmaWaitGroup(l, pending);
  return l->wgmma && pending >= 0;
}
