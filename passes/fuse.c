/* fuse.c - the --fuse pass: group connected elementwise prim ops (and reductions over
 * rows) into fused functions.
 *
 * Each group is outlined into `func.func private @fused_N` with the attribute
 * `prim.fusion = "elementwise"` and called from where it was; each such function becomes
 * one kernel (--tile), so its ops read their inputs from memory once and write only the
 * group's result. The pass works on the body of every other function.
 *
 * Algorithm:
 *  1. Walk the block backwards. An elementwise op that is not yet in a group starts a new
 *     group (its *root*). Constants (prim.full, prim.constant) whose users are all in
 *     groups already start none: step 4 copies them into each group.
 *  2. Grow the group to a fixed point: a producer P of a group member joins when P is
 *     elementwise, lives in the same block and every user of P is already in the group.
 *     So no value is computed twice by two kernels, and only the root has users outside.
 *  3. The group's output is the root's result; its inputs are the values its ops use
 *     that are defined outside it, in order of first use.
 *  4. Create the fused function (inputs as arguments), move the members into it in program
 *     order, copy in constant producers, return the root's result, and replace the root by
 *     a func.call (members all precede the root, so every input dominates the call).
 *  5. Erase constants left without users.
 * Reductions over the last dimension fuse too (a *row* group, `prim.fusion = "row"`): the
 * first one fixes the group's row shape [..., N]; a later one joins only when it reduces
 * rows of that same shape, and only when the group's result is full rows or one value per
 * row (its shape is the row shape, or the row shape without or with 1 as its last
 * dimension). A row kernel holds each row on chip, so its prologue, its reductions and its
 * epilogue read the row from memory once.
 * A matmul fuses with its epilogue (a *dot* group, `prim.fusion = "dot"`): elementwise ops
 * that use its result (bias add, activation, convert) join it as above, and a transpose
 * feeding one of its operands joins it too (the kernel reads the transposed operand in
 * place). Nothing else that computes an operand joins: a dot kernel loads its operands
 * from memory tile by tile, so a group holds at most one matmul and no row reduction.
 * A reduction over one contiguous run of dims that ends before the last (a *column*
 * reduction: the operand viewed as [outer, R, inner], inner > 1 or trailing 1s) makes a
 * column group (`prim.fusion = "column"`): at most one per group, with no row reduction or
 * matmul, and only when the group's result has as many elements as the reduction's (the
 * reduced value and elementwise ops of it: an epilogue); its producers join as above (the
 * prologue, computed at each loaded element).
 * A slice is pointwise in its user's iteration space (operand index = start + step *
 * result index per dim), and so is a concat (each element comes from one operand at an
 * offset in dim): each joins like an elementwise op, and the kernel loads its operands
 * at the mapped offsets. So are index_select and gather (the kernel loads the index at
 * the element's offsets, then the operand where the index points: the index is loaded,
 * not a kernel), pad (a load under the mask of the lanes inside the operand, then a
 * select with the value) and iota (the element's index along its dimension, computed).
 * They join elementwise groups only: a group holding one holds no
 * reduction or matmul (`move` below; a row or column kernel's offsets follow its rows).
 * A transpose that keeps the last dim (a row copy: each output row is a contiguous input
 * row) is pointwise in the same way and joins like a slice. A transpose that moves the
 * last dim makes a *permute* group (`prim.fusion = "permute"`, --tile's permute kernel
 * exchanges tiles through shared memory): at most one per group, with no reduction or
 * matmul, and only when the group's result has as many elements as the transpose's (the
 * transposed value and elementwise ops of it: an epilogue, e.g. a convert); its producers
 * join as above (the prologue, computed at each loaded element). A transpose that feeds a
 * matmul joins the matmul's group instead (read in place).
 * Ops that do not fuse (other reductions, which --decompose splits into runs; composites)
 * stay where they are.
 */
#include "tt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable list of operations. */
typedef struct {
  MlirOperation *ops;
  int n, cap;
} OpList;

static void opListPush(OpList *l, MlirOperation op) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->ops = ttRealloc(l->ops, sizeof(MlirOperation) * (size_t)l->cap);
  }
  l->ops[l->n++] = op;
}

static int opListFind(const OpList *l, MlirOperation op) {
  for (int i = 0; i < l->n; i++)
    if (mlirOperationEqual(l->ops[i], op))
      return i;
  return -1;
}

typedef struct {
  bool report;       /* print remarks (option report=1) */
  OpList block;      /* the block's ops in program order */
  int *group;        /* group id per op in `block`, -1 when none */
  MlirType *rowType; /* per group: the operand type of its row reductions, or null */
  bool *dot;         /* per group: it holds a matmul */
  bool *col;         /* per group: it holds a column reduction */
  bool *move;        /* per group: it holds a slice (elementwise groups only) */
  bool *perm;        /* per group: it holds a transpose that moves the last dim */
  int *root;         /* per group: index of its root in `block` */
} FuseState;

/* The ops a group may hold (a transpose only as a matmul's operand, see growGroup). */
static bool fusible(MlirOperation op) {
  return ttPrimIsElementwise(ttPrimKind(op)) || ttPrimIsRowReduction(op) ||
         ttPrimIsColumnReduction(op) || ttPrimKind(op) == TT_PRIM_MATMUL ||
         ttPrimIsRowCopy(op) || ttPrimIsPermute(op);
}

/* True for the data movement ops that fuse as loads at mapped offsets (slice, concat,
 * index_select, gather, pad, a transpose that keeps the last dim) or as index math (iota). */
static bool isMove(MlirOperation op) {
  TtPrimKind k = ttPrimKind(op);
  return k == TT_PRIM_SLICE || k == TT_PRIM_CONCAT || k == TT_PRIM_INDEX ||
         k == TT_PRIM_PAD || k == TT_PRIM_IOTA || ttPrimIsRowCopy(op);
}

/* True when a result of op is an operand of a matmul. */
static bool feedsMatmul(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (ttPrimKind(mlirOpOperandGetOwner(u)) == TT_PRIM_MATMUL)
        return true;
  return false;
}

/* True when tensor types a and b have the same shape (whatever their element types). */
static bool sameShape(MlirType a, MlirType b) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  int64_t r = ttTensorShape(a, as);
  if (r < 0 || r > TT_MAX_RANK || r != ttTensorShape(b, bs))
    return false;
  return memcmp(as, bs, sizeof(int64_t) * (size_t)r) == 0;
}

/* True when shapes a and b are equal, or a is b without its last dimension or with it set
 * to 1 (a row reduction's result, keepdim false or true). */
static bool sameOrReducedShape(MlirType a, MlirType b) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  int64_t ar = ttTensorShape(a, as), br = ttTensorShape(b, bs);
  if (ar < 0 || br < 1 || ar > TT_MAX_RANK || br > TT_MAX_RANK)
    return false;
  bool lead = true; /* the first br-1 dims agree */
  for (int64_t i = 0; i < br - 1 && lead; i++)
    lead = i < ar && as[i] == bs[i];
  if (!lead)
    return false;
  return ar == br - 1 || (ar == br && (as[br - 1] == bs[br - 1] || as[br - 1] == 1));
}

/* Whether op may join group g (it is fusible; its users are checked elsewhere). A row
 * reduction fixes the group's row shape: every reduction in a group reduces rows of that
 * one shape, and the group's result is either full rows or one value per row. */
static bool canJoin(FuseState *st, int g, MlirOperation op) {
  if (!fusible(op) || feedsMatmul(op))
    return false;
  MlirOperation root = st->block.ops[st->root[g]];
  if (ttPrimIsPermute(op)) { /* one per group; the result is the transposed value's size */
    if (st->dot[g] || st->col[g] || st->perm[g] || !mlirTypeIsNull(st->rowType[g]) ||
        ttTensorNumel(mlirValueGetType(mlirOperationGetResult(root, 0))) !=
            ttTensorNumel(mlirValueGetType(mlirOperationGetResult(op, 0))))
      return false;
    st->perm[g] = true;
    return true;
  }
  bool reduces = ttPrimKind(op) == TT_PRIM_REDUCTION || ttPrimKind(op) == TT_PRIM_ARGREDUCE;
  if (st->perm[g] && (ttPrimKind(op) == TT_PRIM_MATMUL || reduces))
    return false;
  if (isMove(op)) {
    if (st->dot[g] || st->col[g] || !mlirTypeIsNull(st->rowType[g]))
      return false;
    st->move[g] = true;
    return true;
  }
  if (st->move[g] && (ttPrimKind(op) == TT_PRIM_MATMUL || reduces))
    return false;
  if (ttPrimKind(op) == TT_PRIM_MATMUL) {
    if (st->dot[g] || st->col[g] || !mlirTypeIsNull(st->rowType[g]))
      return false;
    st->dot[g] = true;
    return true;
  }
  if (ttPrimIsColumnReduction(op)) { /* one per group; the result is its [outer, inner] */
    if (st->dot[g] || st->col[g] || !mlirTypeIsNull(st->rowType[g]) ||
        ttTensorNumel(mlirValueGetType(mlirOperationGetResult(root, 0))) !=
            ttTensorNumel(mlirValueGetType(mlirOperationGetResult(op, 0))))
      return false;
    st->col[g] = true;
    return true;
  }
  if (!ttPrimIsRowReduction(op))
    return true;
  if (st->dot[g] || st->col[g])
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsNull(st->rowType[g]))
    return sameShape(t, st->rowType[g]);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(root, 0));
  int64_t ts[TT_MAX_RANK], tr = ttTensorShape(t, ts);
  bool perRowIndex = ttPrimIsRowArgReduction(op) && tr >= 1 && /* argmax, then a reshape */
                     ttTensorNumel(rt) * ts[tr - 1] == ttTensorNumel(t);
  if (!sameOrReducedShape(rt, t) && !perRowIndex)
    return false;
  st->rowType[g] = t;
  return true;
}

static bool isConstant(MlirOperation op) { return ttPrimKind(op) == TT_PRIM_CONSTANT; }

/* The op defining v when it is an op result in `block`, else a null op. */
static MlirOperation producerIn(MlirValue v, MlirBlock block) {
  MlirOperation none = {NULL};
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation def = mlirOpResultGetOwner(v);
  return mlirBlockEqual(mlirOperationGetBlock(def), block) ? def : none;
}

/* True when every user of op's results is an op of group g (looked up in st). */
static bool allUsersIn(FuseState *st, MlirOperation op, int g) {
  intptr_t nres = mlirOperationGetNumResults(op);
  for (intptr_t r = 0; r < nres; r++) {
    MlirValue v = mlirOperationGetResult(op, r);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      int i = opListFind(&st->block, mlirOpOperandGetOwner(u));
      if (i < 0 || st->group[i] != g)
        return false;
    }
  }
  return true;
}

/* True when op has users and all of them are in some group. */
static bool usedOnlyByGroups(FuseState *st, MlirOperation op) {
  MlirValue v = mlirOperationGetResult(op, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    int i = opListFind(&st->block, mlirOpOperandGetOwner(u));
    if (i < 0 || st->group[i] < 0)
      return false;
  }
  return true;
}

/* Prints `file:line:col: remark: fuse: ...` at op when reporting. */
static void remark(FuseState *st, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void remark(FuseState *st, MlirOperation op, const char *fmt, ...) {
  if (!st->report)
    return;
  TtStr at = {0};
  ttLocationFormat(mlirOperationGetLocation(op), &at);
  char name[64];
  fprintf(stderr, "%s: remark: fuse: '%s' ", at.data ? at.data : "?",
          ttOpName(op, name, sizeof name));
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  ttStrDestroy(&at);
}

/* Step 2: adds producers to group g until nothing changes. */
static void growGroup(FuseState *st, MlirBlock block, int g) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (int i = 0; i < st->block.n; i++) {
      if (st->group[i] != g)
        continue;
      MlirOperation op = st->block.ops[i];
      intptr_t nops = mlirOperationGetNumOperands(op);
      bool matmul = ttPrimKind(op) == TT_PRIM_MATMUL;
      bool operandOfDot = st->dot[g] && ttPrimKind(op) == TT_PRIM_TRANSPOSE;
      for (intptr_t k = 0; k < nops && !operandOfDot; k++) {
        MlirOperation p = producerIn(mlirOperationGetOperand(op, k), block);
        if (mlirOperationIsNull(p) || isConstant(p))
          continue;
        int j = opListFind(&st->block, p);
        if (j < 0 || st->group[j] >= 0 || !allUsersIn(st, p, g))
          continue; /* reported when its own group is made */
        if (matmul) { /* only a transpose of an operand joins (read in place) */
          if (ttPrimKind(p) == TT_PRIM_TRANSPOSE) {
            st->group[j] = g;
            changed = true;
          }
          continue;
        }
        if (!fusible(p))
          continue;
        if (!canJoin(st, g, p)) {
          remark(st, p, "%s",
                 ttPrimIsPermute(p) || st->perm[g]
                     ? "not fused into the group of its user: a permute kernel computes one "
                       "transpose that moves the last dim, with only elementwise ops before "
                       "and after it"
                 : isMove(p) || st->move[g]
                     ? "not fused into the group of its user: data movement (slice, concat, "
                       "index_select, gather, pad, iota, a row copy) fuses only into "
                       "elementwise groups (no reduction or matmul in the group)"
                 : ttPrimIsColumnReduction(p) || st->col[g]
                     ? "not fused into the group of its user: a column kernel computes one "
                       "column reduction, with only elementwise ops before and after it"
                     : "not fused into the group of its user: it reduces rows of another "
                       "shape, which the group would have to read as well");
          continue;
        }
        st->group[j] = g;
        changed = true;
      }
    }
  }
}

/* Step 3: the values group g uses from outside it (constants excepted), in order of
 * first use. Returns the count; *out is malloc'd. */
static int groupInputs(FuseState *st, MlirBlock block, int g, MlirValue **out) {
  MlirValue *in = NULL;
  int n = 0;
  for (int i = 0; i < st->block.n; i++) {
    if (st->group[i] != g)
      continue;
    MlirOperation op = st->block.ops[i];
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue v = mlirOperationGetOperand(op, k);
      MlirOperation p = producerIn(v, block);
      int at = mlirOperationIsNull(p) ? -1 : opListFind(&st->block, p);
      if (!mlirOperationIsNull(p) && (isConstant(p) || (at >= 0 && st->group[at] == g)))
        continue;
      bool seen = false;
      for (int j = 0; j < n && !seen; j++)
        seen = mlirValueEqual(in[j], v);
      if (!seen) {
        in = ttRealloc(in, sizeof(MlirValue) * (size_t)(n + 1));
        in[n++] = v;
      }
    }
  }
  *out = in;
  return n;
}

/* Step 4: outlines group g (rooted at st->block.ops[root]) into `func.func private
 * @fused_<serial>` placed before `func`, and calls it where the root was. */
static void outlineGroup(FuseState *st, MlirBlock block, MlirOperation func, int g, int root,
                         int serial) {
  MlirOperation rootOp = st->block.ops[root];
  MlirContext ctx = mlirOperationGetContext(rootOp);
  MlirLocation loc = mlirOperationGetLocation(rootOp);
  MlirValue *inputs;
  int nin = groupInputs(st, block, g, &inputs);
  MlirType *types = ttAlloc(sizeof(MlirType) * (size_t)(nin + 1));
  MlirLocation *locs = ttAlloc(sizeof(MlirLocation) * (size_t)(nin + 1));
  for (int i = 0; i < nin; i++) {
    types[i] = mlirValueGetType(inputs[i]);
    locs[i] = loc;
  }
  MlirValue rootResult = mlirOperationGetResult(rootOp, 0);
  MlirType outType = mlirValueGetType(rootResult);

  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(nin, types, locs);
  mlirRegionAppendOwnedBlock(region, body);
  char name[32];
  snprintf(name, sizeof name, "fused_%d", serial);
  MlirNamedAttribute fattrs[4] = {
      ttNamedAttr(ctx, "sym_name", ttStrAttr(ctx, name)),
      ttNamedAttr(ctx, "function_type",
                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nin, types, 1, &outType))),
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
  MlirOperation call = ttOpCreate("func.call", loc, nin, inputs, 1, &outType, 1, &callee, 0,
                                  NULL);
  mlirBlockInsertOwnedOperationBefore(block, rootOp, call);
  mlirValueReplaceAllUsesOfWith(rootResult, mlirOperationGetResult(call, 0));

  /* Move members in program order; copy constants in; point inputs at the arguments. */
  for (int i = 0; i < st->block.n; i++) {
    if (st->group[i] != g)
      continue;
    MlirOperation op = st->block.ops[i];
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(body, op);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue v = mlirOperationGetOperand(op, k);
      for (int j = 0; j < nin; j++)
        if (mlirValueEqual(inputs[j], v))
          mlirOperationSetOperand(op, k, mlirBlockGetArgument(body, j));
      MlirOperation p = producerIn(v, block);
      if (!mlirOperationIsNull(p) && isConstant(p)) {
        MlirOperation copy = mlirOperationClone(p);
        mlirBlockInsertOwnedOperationBefore(body, op, copy);
        mlirOperationSetOperand(op, k, mlirOperationGetResult(copy, 0));
      }
    }
  }
  mlirBlockAppendOwnedOperation(
      body, ttOpCreate("func.return", loc, 1, &rootResult, 0, NULL, 0, NULL, 0, NULL));
  free(inputs);
  free(types);
  free(locs);
}

/* Runs steps 1-5 on one block. */
static void fuseBlock(MlirBlock block, MlirOperation func, int *serial, bool report) {
  FuseState st = {0};
  st.report = report;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    opListPush(&st.block, op);
  st.group = ttAlloc(sizeof(int) * (size_t)(st.block.n ? st.block.n : 1));
  for (int i = 0; i < st.block.n; i++)
    st.group[i] = -1;

  size_t cap = (size_t)(st.block.n ? st.block.n : 1);
  int ngroups = 0;
  st.root = ttAlloc(sizeof(int) * cap);
  st.rowType = ttAlloc(sizeof(MlirType) * cap);
  st.dot = ttAlloc(sizeof(bool) * cap);
  st.col = ttAlloc(sizeof(bool) * cap);
  st.move = ttAlloc(sizeof(bool) * cap);
  st.perm = ttAlloc(sizeof(bool) * cap);
  for (int i = st.block.n - 1; i >= 0; i--) {
    MlirOperation op = st.block.ops[i];
    if (st.group[i] >= 0 || !fusible(op))
      continue;
    if (isConstant(op) && usedOnlyByGroups(&st, op))
      continue;
    st.group[i] = ngroups;
    st.root[ngroups] = i;
    if (ttPrimIsRowReduction(op))
      st.rowType[ngroups] = mlirValueGetType(mlirOperationGetOperand(op, 0));
    st.dot[ngroups] = ttPrimKind(op) == TT_PRIM_MATMUL;
    st.col[ngroups] = ttPrimIsColumnReduction(op);
    st.move[ngroups] = isMove(op);
    st.perm[ngroups] = ttPrimIsPermute(op);
    growGroup(&st, block, ngroups);
    ngroups++;
  }
  for (int i = 0; i < st.block.n && st.report; i++) {
    MlirOperation op = st.block.ops[i];
    if (ttPrimKind(op) == TT_PRIM_REDUCTION && !fusible(op))
      remark(&st, op, "does not fuse: its dims are not one contiguous run (run --decompose, "
                      "which splits it into reductions of runs)");
    else if (ttPrimKind(op) == TT_PRIM_ARGREDUCE && !fusible(op))
      remark(&st, op, "does not fuse: it is not over the last dim (run --decompose, which "
                      "moves its dim last)");
    else if (st.group[i] >= 0 && st.root[st.group[i]] == i) {
      int n = 0;
      for (int k = 0; k < st.block.n; k++)
        n += st.group[k] == st.group[i];
      int readers = 0, last = -1; /* groups using the result (users are in order) */
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        int k = opListFind(&st.block, mlirOpOperandGetOwner(u));
        int ug = k >= 0 ? st.group[k] : -1;
        readers += ug >= 0 && ug != last;
        last = ug >= 0 ? ug : last;
      }
      remark(&st, op, "ends a%s group of %d ops, outlined as @fused_%d%s",
             st.dot[st.group[i]]                          ? " dot"
             : st.col[st.group[i]]                        ? " column"
             : st.perm[st.group[i]]                       ? " permute"
             : mlirTypeIsNull(st.rowType[st.group[i]]) ? "n elementwise"
                                                          : " row",
             n,
             *serial + (ngroups - 1 - st.group[i]),
             readers > 1 ? " (not fused into its users: several groups read its result, "
                           "which fusing would compute once in each)"
                         : "");
    }
  }
  for (int g = ngroups - 1; g >= 0; g--)
    outlineGroup(&st, block, func, g, st.root[g], (*serial)++);

  /* Step 5: constants whose users all moved into groups. */
  for (int i = 0; i < st.block.n; i++) {
    MlirOperation op = st.block.ops[i];
    if (st.group[i] < 0 && isConstant(op) &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
      mlirOperationDestroy(op);
  }
  free(st.root);
  free(st.rowType);
  free(st.dot);
  free(st.col);
  free(st.move);
  free(st.perm);
  free(st.group);
  free(st.block.ops);
}

/* Counts existing fused functions, so a second run names its functions apart. */
static bool countFusion(MlirOperation op, void *userData) {
  if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "prim.fusion")))
    ++*(int *)userData;
  return true;
}

bool ttFusePass(MlirModule module, const TtPassOptions *opts) {
  int serial = 0;
  ttWalk(mlirModuleGetOperation(module), countFusion, &serial);
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttOpIs(op, "func.func") || !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel")) ||
        !mlirAttributeIsNull(ttOpAttr(op, "prim.fusion")))
      continue;
    MlirRegion r = mlirOperationGetRegion(op, 0);
    for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      fuseBlock(b, op, &serial, opts->v[TT_FUSE_REPORT] != 0);
  }
  return true;
}
