/* fuse.c - the --fuse pass: group connected elementwise prim ops (and reductions over
 * rows) into fused functions.
 *
 * Each group is outlined into `func.func private @fused_N` with the attribute
 * `prim.fusion = "elementwise"` and called from where it was; each such function becomes
 * one kernel (--tile), so its ops read their inputs from memory once and write only the
 * group's outputs. The pass works on the body of every other function.
 *
 * Algorithm:
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
 *     that reads the inputs once (union-find; the later root is the root).
 *  4. The group's outputs are its members used outside it (the root always), in program
 *     order; its inputs are the values its ops (and the copied values they read) use that
 *     are defined outside it, in order of first use. Create the fused function (inputs as
 *     arguments), move the members into it in program order, copy in constants and
 *     copied values (each copied value once per group), return the outputs, and call it
 *     before the root; the call's results replace the outputs outside the group.
 *  5. Erase constants and copied values left without users.
 * Ops are found by an op -> index hash, so each user lookup is O(1).
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
 */
#include "tt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most elementwise ops a copied value's chain may hold (step 2a). Each group that
 * reads the value recomputes the chain per element instead of loading it: a few ALU
 * instructions each (exp or tanh a dozen), against a store by a kernel of its own and a
 * load in every reader. A memory-bound kernel on an H100 has ~20 f32 ops of slack per
 * byte it moves (~60 TFLOP/s against ~3.3 TB/s), so 8 ops per element stay far below what
 * the saved load costs, even when several groups recompute them. */
enum { RECOMPUTE_MAX_OPS = 8 };

/* The most outputs of one group (steps 2b and 3): a kernel's parameters are a pointer per
 * input and output (CUDA allows 4 KiB of them) and each output is one more store stream
 * per program; 16 covers every program of issue 21 (two outputs) with room to spare, and a
 * program of hundreds of outputs of one input becomes several kernels, not one with a
 * parameter list the driver refuses. */
enum { MAX_OUTPUTS = 16 };

/* The operations of a block, in program order. */
typedef struct {
  MlirOperation *ops;
  int n;
} OpList;

typedef struct {
  bool report;       /* print remarks (option report=1) */
  OpList block;      /* the block's ops in program order */
  TtPtrIndex index;  /* op -> its index in `block` */
  int *group;        /* group id per op in `block`, -1 when none */
  int *cost;         /* per op: elementwise ops of its chain (step 2a); above the limit:
                        RECOMPUTE_MAX_OPS + 1 too long, + 2 not elementwise upstream */
  bool *copied;      /* per op: recomputed in each group that uses it (step 2a) */
  bool *needed;      /* per op: some group that uses it cannot recompute it (step 2c) */
  bool *skipped;     /* per op: constant or copied, and in no group (step 1) */
  bool *output;      /* per op: an extra output of its group (step 2b) */
  MlirType *rowType; /* per group: the operand type of its row reductions, or null */
  bool *dot;         /* per group: it holds a matmul */
  bool *col;         /* per group: it holds a column reduction */
  bool *move;        /* per group: it holds a slice (elementwise groups only) */
  bool *perm;        /* per group: it holds a transpose that moves the last dim */
  bool *multi;       /* per group: it may have several outputs (no matmul or column) */
  int *nout;         /* per group: its outputs so far (at most MAX_OUTPUTS) */
  int *root;         /* per group: index of its root in `block` */
  int *parent;       /* per group: the group it merged into (step 3), itself when none */
  int *firstUse;     /* per group: the first user of its members outside it */
  int *head, *next;  /* per group its first member, per op the next (program order) */
} FuseState;

/* The index of op in the block, or -1. */
static int indexOf(const FuseState *st, MlirOperation op) {
  return ttPtrIndexFind(&st->index, op.ptr);
}

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

/* True when tensor type t has static dims only: two values of one type with a dynamic dim
 * may differ in size at run time, so only static ones share an iteration space. */
static bool isStatic(MlirType t) {
  int64_t shape[TT_MAX_RANK];
  int64_t r = ttTensorShape(t, shape);
  for (int64_t i = 0; i < r && i < TT_MAX_RANK; i++)
    if (shape[i] < 0)
      return false;
  return r >= 0 && r <= TT_MAX_RANK;
}

static MlirType resultType(MlirOperation op) {
  return mlirValueGetType(mlirOperationGetResult(op, 0));
}

/* Whether op may join group g (it is fusible; its users are checked elsewhere). A row
 * reduction fixes the group's row shape: every reduction in a group reduces rows of that
 * one shape, and the group's result is either full rows or one value per row. With
 * `commit`, records what op brings (a slice, a matmul, a row shape) in g's flags. */
static bool canJoin(FuseState *st, int g, MlirOperation op, bool commit) {
  if (!fusible(op) || feedsMatmul(op))
    return false;
  bool row = !mlirTypeIsNull(st->rowType[g]);
  MlirOperation root = st->block.ops[st->root[g]];
  if (ttPrimIsPermute(op)) { /* one per group; the result is the transposed value's size */
    if (st->dot[g] || st->col[g] || st->perm[g] || row || st->multi[g] ||
        ttTensorNumel(resultType(root)) != ttTensorNumel(resultType(op)))
      return false;
    st->perm[g] |= commit;
    return true;
  }
  bool reduces = ttPrimKind(op) == TT_PRIM_REDUCTION || ttPrimKind(op) == TT_PRIM_ARGREDUCE;
  if (st->perm[g] && (ttPrimKind(op) == TT_PRIM_MATMUL || reduces))
    return false;
  if (isMove(op)) {
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
        ttTensorNumel(resultType(root)) != ttTensorNumel(resultType(op)))
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
    return sameShape(t, st->rowType[g]);
  MlirType rt = resultType(root);
  int64_t ts[TT_MAX_RANK], tr = ttTensorShape(t, ts);
  bool perRowIndex = ttPrimIsRowArgReduction(op) && tr >= 1 && /* argmax, then a reshape */
                     ttTensorNumel(rt) * ts[tr - 1] == ttTensorNumel(t);
  if (!sameOrReducedShape(rt, t) && !perRowIndex)
    return false;
  if (commit)
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

/* The index of the user of use u in the block, or -1. */
static int userIndex(const FuseState *st, MlirOpOperand u) {
  return indexOf(st, mlirOpOperandGetOwner(u));
}

/* True when every user of op's results is an op of group g (looked up in st). */
static bool allUsersIn(FuseState *st, MlirOperation op, int g) {
  intptr_t nres = mlirOperationGetNumResults(op);
  for (intptr_t r = 0; r < nres; r++) {
    MlirValue v = mlirOperationGetResult(op, r);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      int i = userIndex(st, u);
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
    int i = userIndex(st, u);
    if (i < 0 || (st->group[i] < 0 && !st->skipped[i]))
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

/* Step 2a's cost of every op, in program order: for an elementwise op, 1 + the costs of
 * its producers in the block (inputs and constants cost 0), capped at TOO_LONG; an op
 * that is not elementwise, or has one upstream, costs NOT_CHEAP. */
enum { TOO_LONG = RECOMPUTE_MAX_OPS + 1, NOT_CHEAP = RECOMPUTE_MAX_OPS + 2 };
static void computeCosts(FuseState *st, MlirBlock block) {
  for (int i = 0; i < st->block.n; i++) {
    MlirOperation op = st->block.ops[i];
    TtPrimKind k = ttPrimKind(op);
    int c = ttPrimIsElementwise(k) && k != TT_PRIM_CONSTANT ? 1 : NOT_CHEAP;
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(op) && c != NOT_CHEAP; o++) {
      int j = indexOf(st, producerIn(mlirOperationGetOperand(op, o), block));
      if (j >= 0 && !isConstant(st->block.ops[j]))
        c = st->cost[j] == NOT_CHEAP ? NOT_CHEAP : c + st->cost[j];
    }
    st->cost[i] = c == NOT_CHEAP ? NOT_CHEAP : c > TOO_LONG ? TOO_LONG : c;
  }
}

/* True when every user of op is a fusible op of the block other than a matmul (or a
 * transpose it reads in place: a dot group takes only inputs as operands): each will
 * be in a group (or copied), so op need not be in memory. */
static bool usersFusible(FuseState *st, MlirOperation op) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (userIndex(st, u) < 0 || !fusible(user) || ttPrimKind(user) == TT_PRIM_MATMUL ||
        (ttPrimKind(user) == TT_PRIM_TRANSPOSE && feedsMatmul(user))) /* a dot operand */
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
  if (!canJoin(st, g, op, commit))
    return false;
  st->copied[i] |= commit;
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); o++) {
    int j = indexOf(st, producerIn(mlirOperationGetOperand(op, o), block));
    if (j >= 0 && !isConstant(st->block.ops[j]) && !chainJoins(st, block, g, j, commit))
      return false;
  }
  return true;
}

/* True when every user of op outside group g comes after g's root (step 2b). */
static bool usersAfterRoot(FuseState *st, MlirOperation op, int g) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    int i = userIndex(st, u);
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
    MlirOperation p = producerIn(mlirOperationGetOperand(op, o), block);
    if (!mlirOperationIsNull(p) &&
        (ttPrimKind(p) == TT_PRIM_MATMUL || ttPrimIsColumnReduction(p)))
      return true;
  }
  return false;
}

/* Step 2a-2c for producer op (index j) of a member of group g that has users outside g.
 * Returns true when op joined g (as an extra output). */
static bool shareProducer(FuseState *st, MlirBlock block, int g, int j) {
  MlirOperation op = st->block.ops[j];
  if (st->cost[j] <= RECOMPUTE_MAX_OPS && usersFusible(st, op) &&
      chainJoins(st, block, g, j, false)) {
    chainJoins(st, block, g, j, true);
    return false;
  }
  MlirOperation root = st->block.ops[st->root[g]];
  if (!st->dot[g] && !st->col[g] && !st->perm[g] && st->nout[g] < MAX_OUTPUTS &&
      !storedByOwnKernel(op, block) && mlirOperationGetNumResults(op) == 1 &&
      sameShape(resultType(op), resultType(root)) && isStatic(resultType(root)) &&
      usersAfterRoot(st, op, g) &&
      canJoin(st, g, op, false)) {
    canJoin(st, g, op, true);
    st->group[j] = g;
    st->output[j] = st->multi[g] = true;
    st->nout[g]++;
    return true;
  }
  st->needed[j] = true;
  return false;
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
        int j = indexOf(st, p);
        if (j < 0 || st->group[j] >= 0)
          continue;
        if (!allUsersIn(st, p, g)) { /* steps 2a-2c; refusals are reported in step 1 */
          if (!matmul && fusible(p))
            changed |= shareProducer(st, block, g, j);
          continue;
        }
        if (matmul) { /* only a transpose of an operand joins (read in place) */
          if (ttPrimKind(p) == TT_PRIM_TRANSPOSE) {
            st->group[j] = g;
            changed = true;
          }
          continue;
        }
        if (!fusible(p))
          continue;
        if (!canJoin(st, g, p, true)) {
          remark(st, p, "%s",
                 ttPrimIsPermute(p) || st->perm[g]
                     ? "not fused into the group of its user: a permute kernel computes one "
                       "transpose that moves the last dim, with only elementwise ops before "
                       "and after it"
                 : isMove(p) || st->move[g]
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
        changed = true;
      }
    }
  }
}

/* The group of op i after step 3's merges (union-find, with path halving). */
static int groupOf(FuseState *st, int g) {
  while (g >= 0 && st->parent[g] != g)
    g = st->parent[g] = st->parent[st->parent[g]];
  return g;
}

/* True when op i is a copied value in no group: each group that reads it copies it. */
static bool isCopy(const FuseState *st, int i) {
  return i >= 0 && st->copied[i] && st->group[i] < 0;
}

/* Calls fn on each value that group g reads from outside (constants excepted), in order
 * of first use, looking through copied values to what they read; a value may repeat. */
typedef void (*InputFn)(FuseState *st, MlirValue v, void *arg);
static void visitValue(FuseState *st, MlirBlock block, int g, MlirValue v, InputFn fn,
                       void *arg) {
  MlirOperation p = producerIn(v, block);
  int at = indexOf(st, p);
  if (!mlirOperationIsNull(p) && isConstant(p))
    return;
  if (at >= 0 && groupOf(st, st->group[at]) == g)
    return;
  if (isCopy(st, at)) {
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(p); k++)
      visitValue(st, block, g, mlirOperationGetOperand(p, k), fn, arg);
    return;
  }
  fn(st, v, arg);
}

/* Links the members of every group in program order (st->head, st->next): after step 2,
 * and again after step 3's merges. */
static void linkMembers(FuseState *st, int ngroups, int *tail) {
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

static void visitInputs(FuseState *st, MlirBlock block, int g, InputFn fn, void *arg) {
  for (int i = st->head[g]; i >= 0; i = st->next[i]) {
    MlirOperation op = st->block.ops[i];
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++)
      visitValue(st, block, g, mlirOperationGetOperand(op, k), fn, arg);
  }
}

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

/* Step 3's state: per value key (an op's index, or block.n + an argument's number), the
 * last group that read it; the group whose inputs are being visited. */
typedef struct {
  int *lastReader;
  int nkeys, g;
  MlirBlock block;
} MergeState;

/* Whether group a (its root earlier) can merge into group b (step 3). */
static bool canMerge(FuseState *st, int a, int b) {
  bool rowA = !mlirTypeIsNull(st->rowType[a]), rowB = !mlirTypeIsNull(st->rowType[b]);
  return !st->dot[a] && !st->dot[b] && !st->col[a] && !st->col[b] && !st->perm[a] &&
         !st->perm[b] && rowA == rowB &&
         (!rowA || sameShape(st->rowType[a], st->rowType[b])) &&
         sameShape(resultType(st->block.ops[st->root[a]]),
                   resultType(st->block.ops[st->root[b]])) &&
         isStatic(resultType(st->block.ops[st->root[b]])) &&
         st->nout[a] + st->nout[b] <= MAX_OUTPUTS &&
         st->firstUse[a] > st->root[b];
}

/* Step 3 for one value group m->g reads: merges the last earlier reader into it. */
static void mergeReader(FuseState *st, MlirValue v, void *arg) {
  MergeState *m = arg;
  int key = -1;
  if (mlirValueIsAOpResult(v))
    key = indexOf(st, mlirOpResultGetOwner(v));
  else if (mlirBlockEqual(mlirBlockArgumentGetOwner(v), m->block))
    key = st->block.n + (int)mlirBlockArgumentGetArgNumber(v);
  if (key < 0 || key >= m->nkeys)
    return;
  int h = groupOf(st, m->lastReader[key]), g = m->g;
  if (h >= 0 && h != g && canMerge(st, h, g)) {
    st->parent[h] = g;
    st->move[g] |= st->move[h];
    st->multi[g] = true;
    st->nout[g] += st->nout[h];
    st->firstUse[g] = st->firstUse[h] < st->firstUse[g] ? st->firstUse[h] : st->firstUse[g];
  }
  m->lastReader[key] = g;
}

/* Step 3: firstUse of every group, then the merges, roots in program order (group ids
 * count down along the block). Afterwards st->group holds each op's merged group. */
static void mergeGroups(FuseState *st, MlirBlock block, int ngroups) {
  for (int g = 0; g < ngroups; g++)
    st->firstUse[g] = st->block.n;
  for (int i = 0; i < st->block.n; i++) {
    int g = st->group[i];
    if (g < 0)
      continue;
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(st->block.ops[i], 0));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      int k = userIndex(st, u);
      if (k >= 0 && st->group[k] != g && k < st->firstUse[g])
        st->firstUse[g] = k;
    }
  }
  MergeState m = {.nkeys = st->block.n + (int)mlirBlockGetNumArguments(block), .block = block};
  m.lastReader = ttAlloc(sizeof(int) * (size_t)(m.nkeys ? m.nkeys : 1));
  for (int k = 0; k < m.nkeys; k++)
    m.lastReader[k] = -1;
  for (m.g = ngroups - 1; m.g >= 0; m.g--)
    visitInputs(st, block, m.g, mergeReader, &m);
  for (int i = 0; i < st->block.n; i++)
    st->group[i] = groupOf(st, st->group[i]);
  free(m.lastReader);
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
  MlirOperation p = producerIn(v, o->host);
  if (!mlirOperationIsNull(p) && isConstant(p)) {
    MlirOperation copy = mlirOperationClone(p);
    mlirBlockInsertOwnedOperationBefore(o->body, before, copy);
    return mlirOperationGetResult(copy, 0);
  }
  if (isCopy(st, indexOf(st, p)))
    return copyOf(st, o, p, before);
  return v;
}

/* True when member i of group g is one of its outputs: the root, or used outside g. */
static bool isOutput(FuseState *st, int g, int i) {
  if (st->root[g] == i)
    return true;
  for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(st->block.ops[i], 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    int k = userIndex(st, u);
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
    int k = userIndex(st, u);
    if (k < 0 || st->group[k] != g)
      mlirOperationSetOperand(mlirOpOperandGetOwner(u),
                              (intptr_t)mlirOpOperandGetOperandNumber(u), r);
    u = next;
  }
}

/* Step 4: outlines group g into `func.func private @fused_<serial>` placed before `func`,
 * and calls it before its root. */
static void outlineGroup(FuseState *st, MlirBlock block, MlirOperation func, int g,
                         int serial) {
  MlirOperation rootOp = st->block.ops[st->root[g]];
  MlirContext ctx = mlirOperationGetContext(rootOp);
  MlirLocation loc = mlirOperationGetLocation(rootOp);
  Outline o = {.host = block};
  visitInputs(st, block, g, addDistinct, &o.inputs);
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
  if (!usersFusible(st, op))
    return "; it is also a result of the program or read by an op that does not fuse";
  return "; a group reading it cannot hold its chain: a slice or concat in a row, column or "
         "dot group";
}

/* Step 1's and steps 2-3's remarks, in program order (ngroups: before the merges). */
static void reportGroups(FuseState *st, int serial, const int *serialOf, int ngroups) {
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
    if (ttPrimKind(op) == TT_PRIM_REDUCTION && !fusible(op)) {
      remark(st, op, "does not fuse: its dims are not one contiguous run (run --decompose, "
                     "which splits it into reductions of runs)");
    } else if (ttPrimKind(op) == TT_PRIM_ARGREDUCE && !fusible(op)) {
      remark(st, op, "does not fuse: it is not over the last dim (run --decompose, which "
                     "moves its dim last)");
    } else if (st->skipped[i] && st->copied[i]) {
      remark(st, op, "is recomputed in each group that reads it, not stored (%d elementwise "
                     "ops from the inputs and constants; at most %d)",
             st->cost[i], RECOMPUTE_MAX_OPS);
    } else if (g >= 0 && st->root[g] == i) {
      int readers = 0, last = -1; /* groups using the result (users are in order) */
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        int k = userIndex(st, u);
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
      remark(st, op, "ends a%s group of %d ops%s, outlined as @fused_%d%s",
             st->dot[g]                          ? " dot"
             : st->col[g]                        ? " column"
             : st->perm[g]                       ? " permute"
             : mlirTypeIsNull(st->rowType[g]) ? "n elementwise"
                                                 : " row",
             size[g], outputs, serial + serialOf[g], why);
    } else if (g >= 0 && isOutput(st, g, i)) {
      remark(st, op, "is also an output of @fused_%d, which stores it: %s", serial + serialOf[g],
             st->output[i] ? "its other users come after the group's root"
                           : "its group read the same inputs over the same iteration space "
                             "(merged into one kernel)");
    }
  }
  free(size);
  free(nout);
}

/* Runs steps 1-5 on one block. */
static void fuseBlock(MlirBlock block, MlirOperation func, int *serial, bool report) {
  FuseState st = {0};
  st.report = report;
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
  computeCosts(&st, block);

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
  for (int i = st.block.n - 1; i >= 0; i--) { /* steps 1 and 2 */
    MlirOperation op = st.block.ops[i];
    if (st.group[i] >= 0 || !fusible(op))
      continue;
    if ((isConstant(op) || (st.copied[i] && !st.needed[i])) && usedOnlyByGroups(&st, op)) {
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
    st.move[ngroups] = isMove(op);
    st.perm[ngroups] = ttPrimIsPermute(op);
    growGroup(&st, block, ngroups);
    ngroups++;
  }
  int *scratch = ttAlloc(sizeof(int) * cap);
  linkMembers(&st, ngroups, scratch);
  mergeGroups(&st, block, ngroups); /* step 3 */
  linkMembers(&st, ngroups, scratch);
  int next = 0; /* serial numbers: outlined in program order of the roots */
  for (int g = ngroups - 1; g >= 0; g--)
    scratch[g] = st.parent[g] == g ? next++ : -1;
  if (st.report)
    reportGroups(&st, *serial, scratch, ngroups);
  for (int g = ngroups - 1; g >= 0; g--) /* step 4 */
    if (st.parent[g] == g)
      outlineGroup(&st, block, func, g, *serial + scratch[g]);
  *serial += next;

  /* Step 5: constants and copied values whose users all moved into groups. */
  for (int i = st.block.n - 1; i >= 0; i--) {
    MlirOperation op = st.block.ops[i];
    if (st.group[i] < 0 && (isConstant(op) || st.copied[i]) &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0))))
      mlirOperationDestroy(op);
  }
  void *arrays[] = {st.group,  st.cost, st.next, st.copied, st.needed, st.skipped,
                    st.output, st.root, st.parent, st.firstUse, st.head, st.rowType,
                    st.dot,    st.col,  st.move,  st.perm,   st.multi, st.nout,  scratch,
                    st.block.ops};
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
         b = mlirBlockGetNextInRegion(b))
      fuseBlock(b, op, &serial, opts->v[TT_FUSE_REPORT] != 0);
  }
  return true;
}
