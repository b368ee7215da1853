/* common.c - --fuse's helpers shared by every step (fuse.c's head states the algorithm):
 * op lookups in the block (an op -> index hash), the ops a group may hold, shapes, the
 * values a group reads from outside (through copied values), its members in program
 * order, and remarks. */
#include "fuse.h"
#include "../tile/tile.h" /* the tiles a dot will get: the K pad cost model */

#include <stdarg.h>
#include <stdio.h>

/* The index of op in the block, or -1. */
int fuIndexOf(const FuseState *st, MlirOperation op) {
  return ttPtrIndexFind(&st->index, op.ptr);
}

/* The ops a group may hold (a transpose only as a matmul's operand, see growGroup). */
bool fuFusible(MlirOperation op) {
  return ttPrimIsElementwise(ttPrimKind(op)) || ttPrimIsRowReduction(op) ||
         ttPrimIsColumnReduction(op) || ttPrimKind(op) == TT_PRIM_MATMUL ||
         ttPrimIsRowCopy(op) || ttPrimIsPermute(op);
}

/* True for the data movement ops that fuse as loads at mapped offsets (slice, concat,
 * index_select, gather, pad, a transpose that keeps the last dim) or as index math (iota). */
bool fuIsMove(MlirOperation op) {
  TtPrimKind k = ttPrimKind(op);
  return k == TT_PRIM_SLICE || k == TT_PRIM_CONCAT || k == TT_PRIM_INDEX ||
         k == TT_PRIM_PAD || k == TT_PRIM_IOTA || ttPrimIsRowCopy(op);
}

/* True when a result of op is an operand of a matmul. */
bool fuFeedsMatmul(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (ttPrimKind(mlirOpOperandGetOwner(u)) == TT_PRIM_MATMUL)
        return true;
  return false;
}

/* A's K pad (ttPrimIsKPad) read in place saves a kernel, but the dot kernel then reads
 * A's rows where they lie, and rows off a 32-byte sector cost each box row a line more.
 * Every column tile re-reads A (from L2), so the cost grows with M x K x the column tiles,
 * while a pad kernel costs its launch and one copy of A. A cost model, fitted on an H100
 * (f16 x [M, K] @ w [N, K]^T, K = 4104 / N = 4096 and K = 1000 / N = 3008, M = 8 to 4096,
 * in place against a pad kernel: bench/2026-11-26-h100-k-pad.md):
 *  - in place: PAD_PENALTY_US_PER_MB for each MB of A the column tiles read, as many as
 *    the tile pass's rules will pick (tileDotDefaultColumns); where they are the big
 *    grid's 128 x 256 tiles on 8 warps the dot is compute-bound and hides it (4096 x 4096
 *    x 4104: 9.5 us on 189, where the model would say 54): no penalty;
 *  - a pad kernel: PAD_KERNEL_US (its launch, partly overlapped by PDL) plus writing and
 *    reading A again at COPY_MB_PER_US.
 * The pad stays a kernel where the penalty is the larger: it picks the faster form at
 * every measured point (e.g. 2048 x 4096 x 4104: 120 us against 161 in place; 32 x 4096
 * x 4104 10.0 in place against 10.9). A dynamic M reads it in place.
 * Rows that are no multiple of 16 bytes (K = 4100, 3001) TMA cannot stride: read in
 * place, A's tiles are loaded into registers and staged into shared memory by the dot
 * each K step (--pipeline's mixed form). That lost to the pad kernel at all 17 shapes
 * measured (H200, M = 1-4096: 7 x 1000 x 4100 7.7 us against 7.4, 128 x 4096 x 3001 71.5
 * against 13.0; bench/2026-11-27-h200-k-pad-unaligned.md), so such a pad stays a kernel,
 * but where --pipeline's resident form takes it (tileDotResidentFits: decode tiles of at
 * most 64 rows whose program's K range of A fits in shared memory beside the weight's
 * ring): each program copies its A slice once, before the K loop, with cp.async, and the
 * pad's launch and copy are gone. The fuse option k-pad=in-place forces in place (kernel:
 * always a kernel; both for A/B). A dynamic M keeps such a pad a kernel. */
#define PAD_PENALTY_US_PER_MB 0.09
#define PAD_KERNEL_US 1.5
#define COPY_MB_PER_US 3.0 /* H100's copy rate, 2.9-3.0 TB/s (H200: 4.2) */
static bool kPadReadInPlace(const FuseState *st, MlirOperation op) {
  if (!ttPrimIsKPad(op) || st->kPad == 1)
    return false;
  MlirOperation mm = {NULL}; /* the matmul whose operand a it is */
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (ttPrimKind(mlirOpOperandGetOwner(u)) == TT_PRIM_MATMUL &&
        mlirOpOperandGetOperandNumber(u) == 0)
      mm = mlirOpOperandGetOwner(u);
  int64_t xs[TT_MAX_RANK], cs[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), xs), m = 1;
  if (mlirOperationIsNull(mm))
    return false; /* no dot reads it */
  if (st->kPad == 2)
    return true;
  int64_t eb = ttDtypeBytes(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  bool unaligned = xs[r - 1] * eb % 16; /* rows TMA cannot stride (above) */
  if (ttTensorShape(fuResultType(mm), cs) != r)
    return !unaligned;
  for (int64_t d = 0; d + 1 < r; d++) {
    if (xs[d] < 0)
      return !unaligned; /* a dynamic M */
    m *= xs[d];
  }
  int64_t n = cs[r - 1], bn, padded[TT_MAX_RANK];
  if (unaligned) /* in place where --pipeline copies A's K range once a program (2-D) */
    return r == 2 && ttTensorShape(mlirValueGetType(mlirOperationGetResult(op, 0)), padded) == r &&
           tileDotResidentFits(m, n, xs[r - 1], padded[r - 1], eb);
  bool big;
  tileDotDefaultColumns(m, n, xs[r - 1], &bn, &big);
  if (big)
    return true; /* compute-bound */
  double mb = (double)(m * xs[r - 1] * eb) / 1e6;
  double inPlace = PAD_PENALTY_US_PER_MB * mb * (double)((n + bn - 1) / bn);
  double kernel = PAD_KERNEL_US + 2 * mb / COPY_MB_PER_US;
  return inPlace <= kernel;
}

bool fuJoinsMatmul(const FuseState *st, MlirOperation p, intptr_t k) {
  return ttPrimKind(p) == TT_PRIM_TRANSPOSE || (k == 0 && kPadReadInPlace(st, p));
}

bool fuIsDotOperand(const FuseState *st, MlirOperation op) {
  return kPadReadInPlace(st, op) || (ttPrimKind(op) == TT_PRIM_TRANSPOSE && fuFeedsMatmul(op));
}

/* True when tensor type t has static dims only: two values of one type with a dynamic dim
 * may differ in size at run time, so only static ones share an iteration space. */
bool fuIsStatic(MlirType t) {
  int64_t shape[TT_MAX_RANK];
  int64_t r = ttTensorShape(t, shape);
  for (int64_t i = 0; i < r && i < TT_MAX_RANK; i++)
    if (shape[i] < 0)
      return false;
  return r >= 0 && r <= TT_MAX_RANK;
}

MlirType fuResultType(MlirOperation op) {
  return mlirValueGetType(mlirOperationGetResult(op, 0));
}

bool fuIsConstant(MlirOperation op) { return ttPrimKind(op) == TT_PRIM_CONSTANT; }

/* True when constant op is an operand of a matmul (directly or through a transpose the dot
 * kernel reads in place): a dot kernel loads its operands from memory tile by tile, so the
 * constant is stored by a kernel of its own (step 1) and read like an input, not copied. */
bool fuConstantInMemory(const FuseState *st, MlirOperation op) {
  if (!fuIsConstant(op))
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (ttPrimKind(user) == TT_PRIM_MATMUL || fuIsDotOperand(st, user))
      return true;
  }
  return false;
}

/* The op defining v when it is an op result in `block`, else a null op. */
MlirOperation fuProducerIn(MlirValue v, MlirBlock block) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation def = mlirOpResultGetOwner(v);
  return mlirBlockEqual(mlirOperationGetBlock(def), block) ? def : none;
}

/* The index of the user of use u in the block, or -1. */
int fuUserIndex(const FuseState *st, MlirOpOperand u) {
  return fuIndexOf(st, mlirOpOperandGetOwner(u));
}

/* Prints `file:line:col: remark: fuse: ...` at op when reporting. */
void fuRemark(FuseState *st, MlirOperation op, const char *fmt, ...) {
  if (!st->report)
    return;
  char name[64], msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ttEmitRemark(op, "fuse: '%s' %s", ttOpName(op, name, sizeof name), msg);
}

/* True when op i is a copied value in no group: each group that reads it copies it. */
bool fuIsCopy(const FuseState *st, int i) {
  return i >= 0 && st->copied[i] && st->group[i] < 0;
}

/* Calls fn on each value that group g reads from outside (constants excepted), in order
 * of first use, looking through copied values to what they read; a value may repeat. */
static void visitValue(FuseState *st, MlirBlock block, int g, MlirValue v, InputFn fn,
                       void *arg) {
  MlirOperation p = fuProducerIn(v, block);
  int at = fuIndexOf(st, p);
  if (!mlirOperationIsNull(p) && fuIsConstant(p) && !fuConstantInMemory(st, p))
    return;
  if (at >= 0 && fuGroupOf(st, st->group[at]) == g)
    return;
  if (fuIsCopy(st, at)) {
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(p); k++)
      visitValue(st, block, g, mlirOperationGetOperand(p, k), fn, arg);
    return;
  }
  fn(st, v, arg);
}

/* Links the members of every group in program order (st->head, st->next): after step 2,
 * and again after step 3's merges. */
void fuLinkMembers(FuseState *st, int ngroups, int *tail) {
  for (int g = 0; g < ngroups; g++)
    st->head[g] = tail[g] = -1;
  for (int i = 0; i < st->block.n; i++) {
    int g = st->group[i];
    st->next[i] = -1;
    if (g < 0)
      continue;
    if (tail[g] < 0)
      st->head[g] = i;
    else
      st->next[tail[g]] = i;
    tail[g] = i;
  }
}

/* Calls fn on each value that group g reads from outside (see visitValue). */
void fuVisitInputs(FuseState *st, MlirBlock block, int g, InputFn fn, void *arg) {
  for (int i = st->head[g]; i >= 0; i = st->next[i]) {
    MlirOperation op = st->block.ops[i];
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
      visitValue(st, block, g, mlirOperationGetOperand(op, k), fn, arg);
  }
}
