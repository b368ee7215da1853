/* common.c - --fuse's helpers shared by every step (fuse.c's head states the algorithm):
 * op lookups in the block (an op -> index hash), the ops a group may hold, shapes, the
 * values a group reads from outside (through copied values), its members in program
 * order, and remarks. */
#include "fuse.h"

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
bool fuConstantInMemory(MlirOperation op) {
  if (!fuIsConstant(op))
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (ttPrimKind(user) == TT_PRIM_MATMUL ||
        (ttPrimKind(user) == TT_PRIM_TRANSPOSE && fuFeedsMatmul(user)))
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
  if (!mlirOperationIsNull(p) && fuIsConstant(p) && !fuConstantInMemory(p))
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
