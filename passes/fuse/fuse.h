/* fuse.h - the private header of --fuse (passes/fuse/).
 *
 * The pass groups connected elementwise prim ops (and row, column, dot and permute
 * kernels' ops) into fused functions; fuse.c's head states the algorithm and its steps:
 *   fuse.c     the driver: the pass entry (ttFusePass), fuseBlock (steps 1-5 on one
 *              block; step 5 in place), step 1 (roots) and step 2 (growGroup, canJoin:
 *              which ops a group may hold)
 *   share.c    steps 2a-2c: a producer with users outside the group is recomputed in it
 *              (cheap values: the chain costs) or stored as an extra output
 *   merge.c    step 3: horizontal merges of groups that read the same inputs (union-find)
 *   outline.c  step 4: outlining a group into `func.func private @fused_N` and the call
 *              that replaces it; the report's remarks (option report=1)
 *   hoist.c    step 6: calls that read weights alone (`tt.invariant` arguments) are
 *              marked `tt.invariant`, so the runtime runs them once (option hoist)
 *   common.c   what every step asks of the block: op lookups, the ops a group may hold,
 *              shapes, the inputs of a group, remarks
 * Functions shared between these files carry the prefix `fu`; each file's own helpers
 * stay static.
 */
#ifndef TT_PASSES_FUSE_H
#define TT_PASSES_FUSE_H

#include "tt.h"

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

/* Step 2a's costs above the limit (FuseState.cost): the chain is too long, or an op that
 * is not elementwise is upstream. */
enum { TOO_LONG = RECOMPUTE_MAX_OPS + 1, NOT_CHEAP = RECOMPUTE_MAX_OPS + 2 };

/* The operations of a block, in program order. */
typedef struct {
  MlirOperation *ops;
  int n;
} OpList;

/* The fusion of one block (fuseBlock): per op and per group, as built by steps 1-3. */
typedef struct {
  bool report;       /* print remarks (option report=1) */
  int kPad;          /* option k-pad: 0 auto (common.c's cost model), 1 kernel, 2 in-place */
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

/* Called by fuVisitInputs on each value a group reads from outside. */
typedef void (*InputFn)(FuseState *st, MlirValue v, void *arg);

/* --- fuse.c ----------------------------------------------------------------------- */
/* Whether op may join group g; with commit, records what it brings in g's flags. */
bool fuCanJoin(FuseState *st, int g, MlirOperation op, bool commit);

/* --- share.c ---------------------------------------------------------------------- */
/* Step 2a's cost of every op (st->cost), in program order. */
void fuComputeCosts(FuseState *st, MlirBlock block);
/* True when every user of op is a fusible op of the block other than a matmul. */
bool fuUsersFusible(FuseState *st, MlirOperation op);
/* Steps 2a-2c for producer j of a member of group g; true when it joined g (an output). */
bool fuShareProducer(FuseState *st, MlirBlock block, int g, int j);

/* --- merge.c ---------------------------------------------------------------------- */
/* The group g merged into (step 3), itself when none. */
int fuGroupOf(FuseState *st, int g);
/* Step 3: merges groups; afterwards st->group holds each op's merged group. */
void fuMergeGroups(FuseState *st, MlirBlock block, int ngroups);

/* --- outline.c -------------------------------------------------------------------- */
/* Step 4: outlines group g as @fused_<serial> before func and calls it before its root. */
void fuOutlineGroup(FuseState *st, MlirBlock block, MlirOperation func, int g, int serial);
/* The remarks of steps 1-3, in program order (option report=1). */
void fuReportGroups(FuseState *st, int serial, const int *serialOf, int ngroups);

/* --- common.c --------------------------------------------------------------------- */
int fuIndexOf(const FuseState *st, MlirOperation op);
int fuUserIndex(const FuseState *st, MlirOpOperand u);
MlirOperation fuProducerIn(MlirValue v, MlirBlock block);
bool fuFusible(MlirOperation op);
bool fuIsMove(MlirOperation op);
/* True when constant op feeds a matmul (or an operand a dot reads in place): stored by
 * a kernel of its own and read like an input, not copied into groups. */
bool fuConstantInMemory(const FuseState *st, MlirOperation op);
bool fuIsConstant(MlirOperation op);
bool fuIsCopy(const FuseState *st, int i);
bool fuFeedsMatmul(MlirOperation op);
/* True when op is a matmul operand the dot kernel reads in place: a transpose feeding a
 * matmul, or a K pad (ttPrimIsKPad) that is a matmul's operand a, unless a pad kernel
 * costs less (common.c's cost model). It joins the dot group; its own operand is the group's
 * input. */
bool fuIsDotOperand(const FuseState *st, MlirOperation op);
/* True when p, the producer of operand k of matmul op, is read in place (fuIsDotOperand:
 * a transpose, or a K pad of operand a). */
bool fuJoinsMatmul(const FuseState *st, MlirOperation p, intptr_t k);
bool fuIsStatic(MlirType t);
MlirType fuResultType(MlirOperation op);
void fuRemark(FuseState *st, MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void fuLinkMembers(FuseState *st, int ngroups, int *tail);
void fuVisitInputs(FuseState *st, MlirBlock block, int g, InputFn fn, void *arg);

/* Step 6 (hoist.c): marks `tt.invariant` each call of the block whose operands are all
 * invariant (marked arguments, results of marked calls) and whose results are not
 * returned. */
void fuMarkInvariantCalls(MlirBlock block);

#endif
