/* outline.c - --fuse's step 4 (fuse.c's head states the algorithm) and its remarks.
 * A group becomes `func.func private @fused_N`: its inputs (values read from outside, in
 * order of first use) are the arguments, its members move in in program order, constants
 * and copied values are copied in (each copied value once per group), its outputs are
 * returned, and a call before the root replaces them outside the group. fuReportGroups
 * prints the remarks of steps 1-3 (option report=1).
 */
#include "fuse.h"

#include <stdio.h>
#include <stdlib.h>

/* A list of distinct values. */
typedef struct {
  MlirValue *v;
  int n;
} ValueList;

static void addDistinct(FuseState *st, MlirValue v, void *arg) {
  (void)st;
  ValueList *l = arg;
  for (int j = 0; j < l->n; j++)
    if (mlirValueEqual(l->v[j], v))
      return;
  l->v = ttRealloc(l->v, sizeof(MlirValue) * (size_t)(l->n + 1));
  l->v[l->n++] = v;
}

/* Step 4's state for one group: the host block, the fused function's body, the inputs
 * (argument j is inputs.v[j]) and the copied values made so far (from.v[k] -> to.v[k]). */
typedef struct {
  MlirBlock host, body;
  ValueList inputs, from, to;
} Outline;

static MlirValue mapOperand(FuseState *st, Outline *o, MlirValue v, MlirOperation before);

/* The copy of copied value p's result in the body (made once per group, before `before`,
 * with its operands mapped). */
static MlirValue copyOf(FuseState *st, Outline *o, MlirOperation p, MlirOperation before) {
  MlirValue v = mlirOperationGetResult(p, 0);
  for (int k = 0; k < o->from.n; k++)
    if (mlirValueEqual(o->from.v[k], v))
      return o->to.v[k];
  MlirOperation copy = mlirOperationClone(p);
  mlirBlockInsertOwnedOperationBefore(o->body, before, copy);
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(p); k++)
    mlirOperationSetOperand(copy, k, mapOperand(st, o, mlirOperationGetOperand(p, k), copy));
  MlirValue c = mlirOperationGetResult(copy, 0);
  o->from.v = ttRealloc(o->from.v, sizeof(MlirValue) * (size_t)(o->from.n + 1));
  o->to.v = ttRealloc(o->to.v, sizeof(MlirValue) * (size_t)(o->to.n + 1));
  o->from.v[o->from.n++] = v;
  o->to.v[o->to.n++] = c;
  return c;
}

/* What a member's operand v becomes in the body: an input's argument, a copy of a
 * constant (one per use) or of a copied value (one per group), else v (a member's). */
static MlirValue mapOperand(FuseState *st, Outline *o, MlirValue v, MlirOperation before) {
  for (int j = 0; j < o->inputs.n; j++)
    if (mlirValueEqual(o->inputs.v[j], v))
      return mlirBlockGetArgument(o->body, j);
  MlirOperation p = fuProducerIn(v, o->host);
  if (!mlirOperationIsNull(p) && fuIsConstant(p)) {
    MlirOperation copy = mlirOperationClone(p);
    mlirBlockInsertOwnedOperationBefore(o->body, before, copy);
    return mlirOperationGetResult(copy, 0);
  }
  if (fuIsCopy(st, fuIndexOf(st, p)))
    return copyOf(st, o, p, before);
  return v;
}

/* True when member i of group g is one of its outputs: the root, or used outside g. */
static bool isOutput(FuseState *st, int g, int i) {
  if (st->root[g] == i)
    return true;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(st->block.ops[i], 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    int k = fuUserIndex(st, u);
    if (k < 0 || st->group[k] != g)
      return true;
  }
  return false;
}

/* Points the uses of v outside group g at r. */
static void replaceOutsideUses(FuseState *st, int g, MlirValue v, MlirValue r) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  while (!mlirOpOperandIsNull(u)) {
    MlirOpOperand next = mlirOpOperandGetNextUse(u);
    int k = fuUserIndex(st, u);
    if (k < 0 || st->group[k] != g)
      mlirOperationSetOperand(mlirOpOperandGetOwner(u),
                              (intptr_t)mlirOpOperandGetOperandNumber(u), r);
    u = next;
  }
}

/* Step 4: outlines group g into `func.func private @fused_<serial>` placed before `func`,
 * and calls it before its root. */
void fuOutlineGroup(FuseState *st, MlirBlock block, MlirOperation func, int g,
                    int serial) {
  MlirOperation rootOp = st->block.ops[st->root[g]];
  MlirContext ctx = mlirOperationGetContext(rootOp);
  MlirLocation loc = mlirOperationGetLocation(rootOp);
  Outline o = {.host = block};
  fuVisitInputs(st, block, g, addDistinct, &o.inputs);
  int nin = o.inputs.n, nout = 0;
  for (int i = st->head[g]; i >= 0; i = st->next[i])
    nout += isOutput(st, g, i);
  MlirType *types = ttAlloc(sizeof(MlirType) * (size_t)(nin + nout));
  MlirLocation *locs = ttAlloc(sizeof(MlirLocation) * (size_t)(nin + 1));
  MlirValue *outs = ttAlloc(sizeof(MlirValue) * (size_t)nout);
  for (int i = 0; i < nin; i++) {
    types[i] = mlirValueGetType(o.inputs.v[i]);
    locs[i] = loc;
  }
  MlirType *outTypes = types + nin;
  nout = 0;
  for (int i = st->head[g]; i >= 0; i = st->next[i])
    if (isOutput(st, g, i)) {
      outs[nout] = mlirOperationGetResult(st->block.ops[i], 0);
      outTypes[nout] = mlirValueGetType(outs[nout]);
      nout++;
    }

  MlirRegion region = mlirRegionCreate();
  o.body = mlirBlockCreate(nin, types, locs);
  mlirRegionAppendOwnedBlock(region, o.body);
  char name[32];
  snprintf(name, sizeof name, "fused_%d", serial);
  MlirNamedAttribute fattrs[4] = {
      ttNamedAttr(ctx, "sym_name", ttStrAttr(ctx, name)),
      ttNamedAttr(ctx, "function_type",
                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nin, types, nout, outTypes))),
      ttNamedAttr(ctx, "sym_visibility", ttStrAttr(ctx, "private")),
      ttNamedAttr(ctx, "prim.fusion",
                  ttStrAttr(ctx, st->dot[g]    ? "dot"
                                 : st->col[g]  ? "column"
                                 : st->perm[g] ? "permute"
                                 : mlirTypeIsNull(st->rowType[g]) ? "elementwise"
                                                                   : "row")),
  };
  MlirOperation fn = ttOpCreate("func.func", loc, 0, NULL, 0, NULL, 4, fattrs, 1, &region);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(func), func, fn);

  MlirNamedAttribute callee =
      ttNamedAttr(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, ttStrRef(name)));
  MlirOperation call = ttOpCreate("func.call", loc, nin, o.inputs.v, nout, outTypes, 1,
                                  &callee, 0, NULL);
  mlirBlockInsertOwnedOperationBefore(block, rootOp, call);
  for (int k = 0; k < nout; k++)
    replaceOutsideUses(st, g, outs[k], mlirOperationGetResult(call, k));

  /* Move members in program order; copy constants and copied values in; point inputs at
   * the arguments. */
  for (int i = st->head[g]; i >= 0; i = st->next[i]) {
    MlirOperation op = st->block.ops[i];
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(o.body, op);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
      mlirOperationSetOperand(op, k, mapOperand(st, &o, mlirOperationGetOperand(op, k), op));
  }
  mlirBlockAppendOwnedOperation(
      o.body, ttOpCreate("func.return", loc, nout, outs, 0, NULL, 0, NULL, 0, NULL));
  free(o.inputs.v);
  free(o.from.v);
  free(o.to.v);
  free(outs);
  free(types);
  free(locs);
}

/* Why op i, read by several groups, is not copied into them (step 2a), for a remark;
 * buf holds it when it has a number. */
static const char *notCopiedWhy(FuseState *st, int i, char *buf, size_t n) {
  MlirOperation op = st->block.ops[i];
  if (st->cost[i] == NOT_CHEAP)
    return ttPrimIsElementwise(ttPrimKind(op))
               ? "; recomputing it is not cheap: a reduction, matmul or stored value is "
                 "upstream"
               : "";
  if (st->cost[i] == TOO_LONG) {
    snprintf(buf, n, "; recomputing it is not cheap: its chain holds more than %d "
                     "elementwise ops", RECOMPUTE_MAX_OPS);
    return buf;
  }
  if (!fuUsersFusible(st, op))
    return "; it is also a result of the program or read by an op that does not fuse";
  return "; a group reading it cannot hold its chain: a slice or concat in a row, column or "
         "dot group";
}

/* Step 1's and steps 2-3's remarks, in program order (ngroups: before the merges). */
void fuReportGroups(FuseState *st, int serial, const int *serialOf, int ngroups) {
  int *size = ttAlloc(sizeof(int) * (size_t)(ngroups ? ngroups : 1));
  int *nout = ttAlloc(sizeof(int) * (size_t)(ngroups ? ngroups : 1));
  for (int i = 0; i < st->block.n; i++)
    if (st->group[i] >= 0) {
      size[st->group[i]]++;
      nout[st->group[i]] += isOutput(st, st->group[i], i);
    }
  for (int i = 0; i < st->block.n; i++) {
    MlirOperation op = st->block.ops[i];
    int g = st->group[i];
    if (ttPrimKind(op) == TT_PRIM_REDUCTION && !fuFusible(op)) {
      fuRemark(st, op, "does not fuse: its dims are not one contiguous run (run --decompose, "
                     "which splits it into reductions of runs)");
    } else if (ttPrimKind(op) == TT_PRIM_ARGREDUCE && !fuFusible(op)) {
      fuRemark(st, op, "does not fuse: it is not over the last dim (run --decompose, which "
                     "moves its dim last)");
    } else if (st->skipped[i] && st->copied[i]) {
      fuRemark(st, op, "is recomputed in each group that reads it, not stored (%d elementwise "
                     "ops from the inputs and constants; at most %d)",
             st->cost[i], RECOMPUTE_MAX_OPS);
    } else if (g >= 0 && st->root[g] == i) {
      int readers = 0, last = -1; /* groups using the result (users are in order) */
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        int k = fuUserIndex(st, u);
        int ug = k >= 0 ? st->group[k] : -1;
        readers += ug >= 0 && ug != last;
        last = ug >= 0 ? ug : last;
      }
      char outputs[32] = "", why[320] = "", num[96];
      if (nout[g] > 1)
        snprintf(outputs, sizeof outputs, " and %d outputs", nout[g]);
      if (readers > 1)
        snprintf(why, sizeof why, " (not fused into its users: several groups read its "
                 "result, which fusing would compute once in each%s)",
                 notCopiedWhy(st, i, num, sizeof num));
      fuRemark(st, op, "ends a%s group of %d ops%s, outlined as @fused_%d%s",
             st->dot[g]                          ? " dot"
             : st->col[g]                        ? " column"
             : st->perm[g]                       ? " permute"
             : mlirTypeIsNull(st->rowType[g]) ? "n elementwise"
                                                 : " row",
             size[g], outputs, serial + serialOf[g], why);
    } else if (g >= 0 && isOutput(st, g, i)) {
      fuRemark(st, op, "is also an output of @fused_%d, which stores it: %s", serial + serialOf[g],
             st->output[i] ? "its other users come after the group's root"
                           : "its group read the same inputs over the same iteration space "
                             "(merged into one kernel)");
    }
  }
  free(size);
  free(nout);
}
