/* fuse.c - the --fuse pass: group connected elementwise prim ops (and reductions over
 * rows) into fused functions. Its files (passes/fuse/) are named in fuse.h.
 *
 * Each group is outlined into `func.func private @fused_N` with the attribute
 * `prim.fusion = "elementwise"` and called from where it was; each such function becomes
 * one kernel (--tile), so its ops read their inputs from memory once and write only the
 * group's outputs. The pass works on the body of every other function.
 *
 * Algorithm:
 *  0. Erase the ops whose results have no use (ttEraseDead; a tt program's ops have no side
 *     effects): a dead value would otherwise join a group as an output, be stored, and
 *     keep its producer's other users out of that group.
 *  1. Walk the block backwards. An elementwise op that is not yet in a group starts a new
 *     group (its *root*). Constants (prim.full, prim.constant) and *copied* values (2b)
 *     whose users are all in groups (or copied themselves) start none: step 4 copies them
 *     into each group that uses them.
 *  2. Grow the group to a fixed point: a producer P of a group member joins when P is
 *     elementwise, lives in the same block and every user of P is already in the group.
 *     When P has users outside the group:
 *     a. it is *copied* (recomputed in every group that uses it, never stored) when it
 *        is cheap: an elementwise op (a broadcast, slice, convert, unary or binary op)
 *        whose chain to the inputs and constants holds at most RECOMPUTE_MAX_OPS
 *        elementwise ops (no reduction, matmul or stored value upstream), every user of
 *        P is a fusible op of the block other than a matmul (so P is never needed in
 *        memory), and every op of the chain may join the group (a slice only in
 *        elementwise groups): a broadcast feeding two groups is no kernel of its own;
 *     b. else it is an extra *output* of the group when the group can store it: an
 *        elementwise or row group, P has the root's shape, static (the same iteration
 *        space: for a row group, full rows or one value per row, as the root; a dynamic
 *        dim may differ at run time between values of one type), and every user
 *        outside the group comes after the root (the call, placed at the root, precedes
 *        them, so no cycle), and the group has fewer than MAX_OUTPUTS outputs: a
 *        pre-norm step's residual `h = x + r`, also a result of the program, is stored
 *        by the kernel that computes rms_norm(h);
 *     c. else it stays out (a remark says why) and becomes the root of a group of its own
 *        when the walk reaches it (a copied value that some group could not take is
 *        *needed*: it is stored too, and that group reads it).
 *  3. Merge groups (*horizontal* fusion), walking the roots in program order: a group
 *     joins the last earlier group that reads one of its inputs (through copied values
 *     too) when both are elementwise groups, or row groups of one row shape, their roots
 *     have one static shape, every user outside the earlier group comes after the later
 *     root, and the two have at most MAX_OUTPUTS outputs together: two outputs
 *     computed from the same inputs (a rotary embedding's two halves) are one kernel
 *     that reads the inputs once (union-find; the later root is the root). And
 *     *vertically*: an elementwise group of full rows (static, no data movement) joins
 *     the earlier row group of those rows whose output it reads, when every other user
 *     of that group's outputs comes after the later root: s = amax(|x|, -1) / 448 (a
 *     result too) and q = (x / s).to(fp8) are one row kernel that reads x once.
 *  4. The group's outputs are its members used outside it (the root always), in program
 *     order; its inputs are the values its ops (and the copied values they read) use that
 *     are defined outside it, in order of first use. Create the fused function (inputs as
 *     arguments), move the members into it in program order, copy in constants and
 *     copied values (each copied value once per group), return the outputs, and call it
 *     before the root; the call's results replace the outputs outside the group.
 *  5. Erase constants and copied values left without users.
 *  6. Mark the calls that read weights alone (`tt.invariant` arguments, or results of
 *     such calls) and return nothing to the caller `tt.invariant`: the runtime runs their
 *     kernels once, not at every call (hoist.c; option hoist=0: none).
 * Ops are found by an op -> index hash, so each user lookup is O(1); step 2's sweeps visit
 * only the members that may still pull in a producer (growGroup), so a group of n ops
 * costs O(n) sweeps of its live members, not O(n) sweeps of the block.
 * Reductions over the last dimension fuse too (a *row* group, `prim.fusion = "row"`): the
 * first one fixes the group's row shape [..., N]; a later one joins only when it reduces
 * rows of that same shape, and only when the group's result is full rows or one value per
 * row (its shape is the row shape, or the row shape without or with 1 as its last
 * dimension). A row kernel holds each row on chip, so its prologue, its reductions and its
 * epilogue read the row from memory once.
 * A matmul fuses with its epilogue (a *dot* group, `prim.fusion = "dot"`): elementwise ops
 * that use its result (bias add, activation, convert) join it as above, and a transpose
 * feeding one of its operands joins it too (the kernel reads the transposed operand in
 * place), as does a zero pad of operand a's K whose rows are 16-byte multiples
 * (ttPrimIsKPad: the kernel reads the unpadded rows, masked or by TMA's zero fill; not
 * where a pad kernel costs less, common.c's kPadReadInPlace). Nothing else that computes
 * an operand joins: a dot kernel loads its operands from memory tile by tile, so a group
 * holds at most one matmul and no row reduction.
 * A reduction over one contiguous run of dims that ends before the last (a *column*
 * reduction: the operand viewed as [outer, R, inner], inner > 1 or trailing 1s) makes a
 * column group (`prim.fusion = "column"`): at most one per group, with no row reduction or
 * matmul, and only when the group's result has as many elements as the reduction's (the
 * reduced value and elementwise ops of it: an epilogue); its producers join as above (the
 * prologue, computed at each loaded element). Dot and column groups have one output.
 * A slice is pointwise in its user's iteration space (operand index = start + step *
 * result index per dim), and so is a concat (each element comes from one operand at an
 * offset in dim): each joins like an elementwise op, and the kernel loads its operands
 * at the mapped offsets. So are index_select and gather (the kernel loads the index at
 * the element's offsets, then the operand where the index points: the index is loaded,
 * not a kernel), pad (a load under the mask of the lanes inside the operand, then a
 * select with the value), iota (the element's index along its dimension, computed) and a
 * transpose that keeps the last dim (a row copy: each output row is a contiguous input
 * row). They join elementwise groups only: a group holding one holds no
 * reduction or matmul (`move` below; a row or column kernel's offsets follow its rows).
 * A transpose that moves the last dim makes a *permute* group (`prim.fusion = "permute"`,
 * --tile's permute kernel exchanges tiles through shared memory): at most one per group,
 * with no reduction or matmul and one output, and only when the group's result has as
 * many elements as the transpose's (the transposed value and elementwise ops of it: an
 * epilogue, e.g. a convert); its producers join as above (the prologue, computed at each
 * loaded element). A transpose that feeds a matmul joins the matmul's group instead (read
 * in place).
 * Ops that do not fuse (other reductions, which --decompose splits into runs; composites)
 * stay where they are.
 * This file is the driver: the pass entry, fuseBlock (steps 1-5 on one block; step 5 in
 * place), step 1 and step 2 (growGroup; canJoin, the ops a group may hold); share.c holds
 * steps 2a-2c, merge.c step 3, outline.c step 4 and the remarks, hoist.c step 6, common.c
 * the helpers every step shares.
 */
#include "fuse.h"

#include <stdlib.h>

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

/* True when values of types a and b have as many elements: equal static counts, or, with
 * a dynamic dim (whose sizes may differ at run time), the same shape. */
static bool sameNumel(MlirType a, MlirType b) {
  int64_t na = ttTensorNumel(a), nb = ttTensorNumel(b);
  return na < 0 || nb < 0 ? ttSameShape(a, b) : na == nb;
}

/* Whether op may join group g (it is fusible; its users are checked elsewhere). A row
 * reduction fixes the group's row shape: every reduction in a group reduces rows of that
 * one shape, and the group's result is either full rows or one value per row. With
 * `commit`, records what op brings (a slice, a matmul, a row shape) in g's flags. */
bool fuCanJoin(FuseState *st, int g, MlirOperation op, bool commit) {
  if (!fuFusible(op) || fuFeedsMatmul(op))
    return false;
  bool row = !mlirTypeIsNull(st->rowType[g]);
  MlirOperation root = st->block.ops[st->root[g]];
  if (ttPrimIsPermute(op)) { /* one per group; the result is the transposed value's size */
    if (st->dot[g] || st->col[g] || st->perm[g] || row || st->multi[g] ||
        !sameNumel(fuResultType(root), fuResultType(op)))
      return false;
    st->perm[g] |= commit;
    return true;
  }
  bool reduces = ttPrimKind(op) == TT_PRIM_REDUCTION || ttPrimKind(op) == TT_PRIM_ARGREDUCE;
  if (st->perm[g] && (ttPrimKind(op) == TT_PRIM_MATMUL || reduces))
    return false;
  if (fuIsMove(op)) {
    if (st->dot[g] || st->col[g] || row)
      return false;
    st->move[g] |= commit;
    return true;
  }
  if (st->move[g] && (ttPrimKind(op) == TT_PRIM_MATMUL || reduces))
    return false;
  if (ttPrimKind(op) == TT_PRIM_MATMUL) {
    if (st->dot[g] || st->col[g] || row || st->multi[g])
      return false;
    st->dot[g] |= commit;
    return true;
  }
  if (ttPrimIsColumnReduction(op)) { /* one per group; the result is its [outer, inner] */
    if (st->dot[g] || st->col[g] || row || st->multi[g] ||
        !sameNumel(fuResultType(root), fuResultType(op)))
      return false;
    st->col[g] |= commit;
    return true;
  }
  if (!ttPrimIsRowReduction(op))
    return true;
  if (st->dot[g] || st->col[g])
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (row)
    return ttSameShape(t, st->rowType[g]);
  MlirType rt = fuResultType(root);
  int64_t ts[TT_MAX_RANK], tr = ttTensorShape(t, ts);
  int64_t rn = ttTensorNumel(rt), tn = ttTensorNumel(t); /* -1 where a dim is dynamic */
  bool perRowIndex = ttPrimIsRowArgReduction(op) && tr >= 1 && /* argmax, then a reshape */
                     rn > 0 && tn > 0 && ts[tr - 1] > 0 && tn / ts[tr - 1] == rn &&
                     tn % ts[tr - 1] == 0;
  if (!sameOrReducedShape(rt, t) && !perRowIndex)
    return false;
  if (commit)
    st->rowType[g] = t;
  return true;
}

/* True when every user of op's results is an op of group g (looked up in st). */
static bool allUsersIn(FuseState *st, MlirOperation op, int g) {
  intptr_t nres = mlirOperationGetNumResults(op);
  for (intptr_t r = 0; r < nres; r++) {
    MlirValue v = mlirOperationGetResult(op, r);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      int i = fuUserIndex(st, u);
      if (i < 0 || st->group[i] != g)
        return false;
    }
  }
  return true;
}

/* True when op has users and each of them is in some group or skipped (step 1). */
static bool usedOnlyByGroups(FuseState *st, MlirOperation op) {
  MlirValue v = mlirOperationGetResult(op, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
    return false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    int i = fuUserIndex(st, u);
    if (i < 0 || (st->group[i] < 0 && !st->skipped[i]))
      return false;
  }
  return true;
}

/* Step 2 for member i of group g: each producer of its operands joins g when it may
 * (or is shared, steps 2a-2c). Appends the index of each op that joined to
 * added[*nadded]; true when one did. */
static bool visitMember(FuseState *st, MlirBlock block, int g, int i, int *added,
                        int *nadded) {
  MlirOperation op = st->block.ops[i];
  intptr_t nops = mlirOperationGetNumOperands(op);
  bool matmul = ttPrimKind(op) == TT_PRIM_MATMUL, changed = false;
  bool operandOfDot = st->dot[g] && fuIsDotOperand(st, op);
  for (intptr_t k = 0; k < nops && !operandOfDot; k++) {
    MlirOperation p = fuProducerIn(mlirOperationGetOperand(op, k), block);
    if (mlirOperationIsNull(p) || fuIsConstant(p))
      continue;
    int j = fuIndexOf(st, p);
    if (j < 0 || st->group[j] >= 0)
      continue;
    if (!allUsersIn(st, p, g)) { /* steps 2a-2c; refusals are reported in step 1 */
      if (!matmul && fuFusible(p) && fuShareProducer(st, block, g, j)) {
        added[(*nadded)++] = j;
        changed = true;
      }
      continue;
    }
    if (matmul) { /* only an operand read in place joins (a transpose, a K pad) */
      if (fuJoinsMatmul(st, p, k)) {
        st->group[j] = g;
        added[(*nadded)++] = j;
        changed = true;
      }
      continue;
    }
    if (!fuFusible(p))
      continue;
    if (!fuCanJoin(st, g, p, true)) {
      fuRemark(st, p, "%s",
             ttPrimIsPermute(p) || st->perm[g]
                 ? "not fused into the group of its user: a permute kernel computes one "
                   "transpose that moves the last dim, with only elementwise ops before "
                   "and after it"
             : fuIsMove(p) || st->move[g]
                 ? "not fused into the group of its user: data movement (slice, concat, "
                   "index_select, gather, pad, iota, a row copy) fuses only into "
                   "elementwise groups (no reduction or matmul in the group)"
             : st->multi[g] && (ttPrimKind(p) == TT_PRIM_MATMUL || ttPrimIsColumnReduction(p))
                 ? "not fused into the group of its user: a group with several outputs "
                   "holds no matmul or column reduction"
             : ttPrimIsColumnReduction(p) || st->col[g]
                 ? "not fused into the group of its user: a column kernel computes one "
                   "column reduction, with only elementwise ops before and after it"
                 : "not fused into the group of its user: it reduces rows of another "
                   "shape, which the group would have to read as well");
      continue;
    }
    st->group[j] = g;
    added[(*nadded)++] = j;
    changed = true;
  }
  return changed;
}

/* False when visiting member i of group g (visitMember) can change nothing, now or later:
 * no producer of its operands is a block op in no group, not a constant, that may join
 * (a fusible op; for a matmul member, a transpose or a K pad of operand a), or g holds a
 * matmul and i is a dot operand read in place (whose producers stay out). Ops never leave
 * a group, so a member that is not live stays so. */
static bool memberLive(FuseState *st, MlirBlock block, int g, int i) {
  MlirOperation op = st->block.ops[i];
  bool matmul = ttPrimKind(op) == TT_PRIM_MATMUL;
  if (st->dot[g] && fuIsDotOperand(st, op))
    return false;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
    MlirOperation p = fuProducerIn(mlirOperationGetOperand(op, k), block);
    if (mlirOperationIsNull(p) || fuIsConstant(p))
      continue;
    int j = fuIndexOf(st, p);
    if (j >= 0 && st->group[j] < 0 &&
        (matmul ? fuJoinsMatmul(st, p, k) : fuFusible(p)))
      return true;
  }
  return false;
}

static int cmpInt(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Step 2: adds producers to group g until nothing changes. Each sweep visits the members
 * g had when it began, in program order (an op that joins is a producer, before its
 * user, so it waits for the next sweep), as a sweep over the whole block would; members
 * that are no longer live (memberLive) are dropped from the sweeps, since visiting them
 * would change nothing. A chain of n ops then takes n sweeps of one member each, O(n),
 * where sweeps over the block took O(n^2). live and added have room for every op. */
static void growGroup(FuseState *st, MlirBlock block, int g, int *live, int *added) {
  int nlive = 1;
  live[0] = st->root[g];
  for (bool changed = true; changed;) {
    changed = false;
    int kept = 0, nadded = 0;
    for (int a = 0; a < nlive; a++) {
      int i = live[a];
      changed |= visitMember(st, block, g, i, added, &nadded);
      if (memberLive(st, block, g, i))
        live[kept++] = i;
    }
    for (int a = 0; a < nadded; a++)
      live[kept++] = added[a];
    nlive = kept;
    qsort(live, (size_t)nlive, sizeof(int), cmpInt);
  }
}

/* Runs steps 1-5 on one block. */
static void fuseBlock(MlirBlock block, MlirOperation func, int *serial,
                      const TtPassOptions *opts) {
  FuseState st = {0};
  st.report = opts->v[TT_FUSE_REPORT] != 0;
  st.kPad = (int)opts->v[TT_FUSE_K_PAD];
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    st.block.n++;
  size_t cap = (size_t)(st.block.n ? st.block.n : 1);
  st.block.ops = ttAlloc(sizeof(MlirOperation) * cap);
  const void **keys = ttAlloc(sizeof(void *) * cap);
  MlirOperation at = mlirBlockGetFirstOperation(block);
  for (int i = 0; i < st.block.n; i++, at = mlirOperationGetNextInBlock(at))
    keys[i] = (st.block.ops[i] = at).ptr;
  ttPtrIndexInit(&st.index, keys, st.block.n);
  free(keys);
  st.group = ttAlloc(sizeof(int) * cap);
  st.cost = ttAlloc(sizeof(int) * cap);
  st.next = ttAlloc(sizeof(int) * cap);
  st.copied = ttAlloc(sizeof(bool) * cap);
  st.needed = ttAlloc(sizeof(bool) * cap);
  st.skipped = ttAlloc(sizeof(bool) * cap);
  st.output = ttAlloc(sizeof(bool) * cap);
  for (int i = 0; i < st.block.n; i++)
    st.group[i] = -1;
  fuComputeCosts(&st, block);

  int ngroups = 0;
  st.root = ttAlloc(sizeof(int) * cap);
  st.parent = ttAlloc(sizeof(int) * cap);
  st.firstUse = ttAlloc(sizeof(int) * cap);
  st.head = ttAlloc(sizeof(int) * cap);
  st.rowType = ttAlloc(sizeof(MlirType) * cap);
  st.dot = ttAlloc(sizeof(bool) * cap);
  st.col = ttAlloc(sizeof(bool) * cap);
  st.move = ttAlloc(sizeof(bool) * cap);
  st.perm = ttAlloc(sizeof(bool) * cap);
  st.multi = ttAlloc(sizeof(bool) * cap);
  st.nout = ttAlloc(sizeof(int) * cap);
  int *live = ttAlloc(sizeof(int) * cap), *added = ttAlloc(sizeof(int) * cap);
  for (int i = st.block.n - 1; i >= 0; i--) { /* steps 1 and 2 */
    MlirOperation op = st.block.ops[i];
    if (st.group[i] >= 0 || !fuFusible(op))
      continue;
    if (((fuIsConstant(op) && !fuConstantInMemory(&st, op)) || (st.copied[i] && !st.needed[i])) &&
        usedOnlyByGroups(&st, op)) {
      st.skipped[i] = true;
      continue;
    }
    st.group[i] = ngroups;
    st.root[ngroups] = i;
    st.parent[ngroups] = ngroups;
    st.nout[ngroups] = 1;
    if (ttPrimIsRowReduction(op))
      st.rowType[ngroups] = mlirValueGetType(mlirOperationGetOperand(op, 0));
    st.dot[ngroups] = ttPrimKind(op) == TT_PRIM_MATMUL;
    st.col[ngroups] = ttPrimIsColumnReduction(op);
    st.move[ngroups] = fuIsMove(op);
    st.perm[ngroups] = ttPrimIsPermute(op);
    growGroup(&st, block, ngroups, live, added);
    ngroups++;
  }
  int *scratch = ttAlloc(sizeof(int) * cap);
  fuLinkMembers(&st, ngroups, scratch);
  fuMergeGroups(&st, block, ngroups); /* step 3 */
  fuLinkMembers(&st, ngroups, scratch);
  int next = 0; /* serial numbers: outlined in program order of the roots */
  for (int g = ngroups - 1; g >= 0; g--)
    scratch[g] = st.parent[g] == g ? next++ : -1;
  if (st.report)
    fuReportGroups(&st, *serial, scratch, ngroups);
  for (int g = ngroups - 1; g >= 0; g--) /* step 4 */
    if (st.parent[g] == g)
      fuOutlineGroup(&st, block, func, g, *serial + scratch[g]);
  *serial += next;

  /* Step 5: constants and copied values whose users all moved into groups. */
  for (int i = st.block.n - 1; i >= 0; i--) {
    MlirOperation op = st.block.ops[i];
    if (st.group[i] < 0 && (fuIsConstant(op) || st.copied[i]) &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
      mlirOperationDestroy(op);
  }
  void *arrays[] = {st.group,  st.cost, st.next, st.copied, st.needed, st.skipped,
                    st.output, st.root, st.parent, st.firstUse, st.head, st.rowType,
                    st.dot,    st.col,  st.move,  st.perm,   st.multi, st.nout,  scratch,
                    st.block.ops, live, added};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
    free(arrays[k]);
  ttPtrIndexDestroy(&st.index);
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
         b = mlirBlockGetNextInRegion(b)) {
      ttEraseDead(b); /* step 0 */
      fuseBlock(b, op, &serial, opts);
      if (opts->v[TT_FUSE_HOIST])
        fuMarkInvariantCalls(b); /* step 6 */
    }
  }
  return true;
}
