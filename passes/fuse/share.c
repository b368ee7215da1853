/* share.c - --fuse's steps 2a-2c (fuse.c's head states the algorithm): what becomes of a
 * producer of a group member that has users outside the group. It is recomputed in the
 * group (2a: a cheap elementwise chain, by its cost from the inputs and constants, whose
 * ops may all join the group), else stored by the group as an extra output (2b: same
 * static shape as the root, users after the root), else left out and marked needed (2c).
 */
#include "fuse.h"

/* Step 2a's cost of every op, in program order: for an elementwise op, 1 + the costs of
 * its producers in the block (inputs and constants cost 0), capped at TOO_LONG; an op
 * that is not elementwise, or has one upstream, costs NOT_CHEAP. */
void fuComputeCosts(FuseState *st, MlirBlock block) {
  for (int i = 0; i < st->block.n; i++) {
    MlirOperation op = st->block.ops[i];
    TtPrimKind k = ttPrimKind(op);
    int c = ttPrimIsElementwise(k) && k != TT_PRIM_CONSTANT ? 1 : NOT_CHEAP;
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(op) && c != NOT_CHEAP; o++) {
      int j = fuIndexOf(st, fuProducerIn(mlirOperationGetOperand(op, o), block));
      if (j >= 0 && !fuIsConstant(st->block.ops[j]))
        c = st->cost[j] == NOT_CHEAP ? NOT_CHEAP : c + st->cost[j];
    }
    st->cost[i] = c == NOT_CHEAP ? NOT_CHEAP : c > TOO_LONG ? TOO_LONG : c;
  }
}

/* True when every user of op is a fusible op of the block other than a matmul (or an
 * operand it reads in place: a dot group takes only inputs as operands): each will
 * be in a group (or copied), so op need not be in memory. */
bool fuUsersFusible(FuseState *st, MlirOperation op) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (fuUserIndex(st, u) < 0 || !fuFusible(user) || ttPrimKind(user) == TT_PRIM_MATMUL ||
        fuIsDotOperand(st, user)) /* a dot operand, read in place */
      return false;
  }
  return true;
}

/* Whether op's chain (op and its producers in the block, constants excepted) may be
 * copied into group g: without commit, checks each op may join; with it, records their
 * flags in g and marks them copied. The chain of a cheap op holds cheap ops only. */
static bool chainJoins(FuseState *st, MlirBlock block, int g, int i, bool commit) {
  MlirOperation op = st->block.ops[i];
  if (st->group[i] >= 0) /* stored by its own group: read, not copied */
    return true;
  if (!fuCanJoin(st, g, op, commit))
    return false;
  st->copied[i] |= commit;
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); o++) {
    int j = fuIndexOf(st, fuProducerIn(mlirOperationGetOperand(op, o), block));
    if (j >= 0 && !fuIsConstant(st->block.ops[j]) && !chainJoins(st, block, g, j, commit))
      return false;
  }
  return true;
}

/* True when every user of op outside group g comes after g's root (step 2b). */
static bool usersAfterRoot(FuseState *st, MlirOperation op, int g) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    int i = fuUserIndex(st, u);
    if (i < 0 || (st->group[i] != g && i <= st->root[g]))
      return false;
  }
  return true;
}

/* True when op is a matmul or a column reduction, or reads one: such a value stays the
 * output of a dot or column kernel, which has one output (step 2b would make that kernel
 * store its operand instead). */
static bool storedByOwnKernel(MlirOperation op, MlirBlock block) {
  if (ttPrimKind(op) == TT_PRIM_MATMUL || ttPrimIsColumnReduction(op))
    return true;
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); o++) {
    MlirOperation p = fuProducerIn(mlirOperationGetOperand(op, o), block);
    if (!mlirOperationIsNull(p) &&
        (ttPrimKind(p) == TT_PRIM_MATMUL || ttPrimIsColumnReduction(p)))
      return true;
  }
  return false;
}

/* Step 2a-2c for producer op (index j) of a member of group g that has users outside g.
 * Returns true when op joined g (as an extra output). */
bool fuShareProducer(FuseState *st, MlirBlock block, int g, int j) {
  MlirOperation op = st->block.ops[j];
  if (st->cost[j] <= RECOMPUTE_MAX_OPS && fuUsersFusible(st, op) &&
      chainJoins(st, block, g, j, false)) {
    chainJoins(st, block, g, j, true);
    return false;
  }
  MlirOperation root = st->block.ops[st->root[g]];
  if (!st->dot[g] && !st->col[g] && !st->perm[g] && st->nout[g] < MAX_OUTPUTS &&
      !storedByOwnKernel(op, block) && mlirOperationGetNumResults(op) == 1 &&
      ttSameShape(fuResultType(op), fuResultType(root)) && fuIsStatic(fuResultType(root)) &&
      usersAfterRoot(st, op, g) &&
      fuCanJoin(st, g, op, false)) {
    fuCanJoin(st, g, op, true);
    st->group[j] = g;
    st->output[j] = st->multi[g] = true;
    st->nout[g]++;
    return true;
  }
  st->needed[j] = true;
  return false;
}
