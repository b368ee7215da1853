/* tile.h - the private header of --tile (passes/tile/).
 *
 * The pass gives each fused function a tile kernel; kernel.c's head states the algorithm
 * and its steps:
 *   kernel.c    steps 1, 2 and 6 for every kind (checks, the kernel function, the launch)
 *               and the pass entry, ttTilePass
 *   emit.c      step 4: a group's value at a tile of offsets (Emit, the memo, the ops),
 *               and step 5b, loads first
 *   move.c      step 4 for data movement: slice, concat, index_select, gather, pad, iota
 *               (operands at mapped offsets)
 *   rows.c      steps 3-5 of elementwise and row kernels: row spaces, the looped form
 *               (emitLevels)
 *   online.c    the looped form's online softmax normalizer (a sum joins its max's loop)
 *   welford.c   the looped form's one-pass variance (a variance joins its mean's loop)
 *   columns.c   column kernels: a reduction over a run of dims before the last, a loop
 *               over its rows carrying a tile of columns (tileColumnFusion)
 *   permute.c   permute kernels: a transpose that moves the last dim, a tile loaded along
 *               the input's contiguous dim and stored along the output's
 *               (tilePermuteFusion)
 *   dot.c       dot kernels: operands, operand tiles and loads, the K loop, the epilogue;
 *               ttTileDotFusion
 *   geometry-rows.c  block sizes and warps of elementwise and row groups (tileRowGeometry)
 *   geometry.c  dot tiles, K steps and warps by rule tables (tileDotGeometry)
 * Functions shared between these files carry the prefix `tile`; each file's own helpers
 * stay static. Prototypes are grouped under a banner per file, as in tt.h.
 */
#ifndef TT_PASSES_TILE_H
#define TT_PASSES_TILE_H

#include "tt.h"

/* arith.cmpi predicates. */
enum { CMPI_EQ = 0, CMPI_SLT = 2, CMPI_SGE = 5 };
enum { CMPF_OEQ = 1, CMPF_OGT = 2, CMPF_OLT = 4, CMPF_ORD = 7, CMPF_UNO = 14 };

/* One memoized value: `key` emitted at offsets `offs` (null: the same everywhere); prev
 * is the entry of the same key before it (-1: none), a chain from Emit.memoIndex. */
typedef struct {
  MlirValue key, offs, result;
  int prev;
} Memo;

/* The state of one kernel's emission (emit.c): where ops go, the offsets and mask of the
 * elements being computed, and the memo. */
typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;
  int64_t block;
  MlirValue offs, mask;
  MlirValue cols;    /* row kernels: the column of each element of offs (offs % N) */
  MlirValue loadMask, rowMask; /* a row in the aligned frame (rows.c, 3a): the loads' and
                          copies' mask at offs while mask is still rowMask, rowSpace's
                          (column < N + s: the s columns before the row, inside the
                          tensor, are read and masked where used); null: mask */
  int64_t rowLen;    /* row kernels: N */
  bool rowMode;      /* a row kernel: offs/mask cover one row of the program's rows */
  bool looped;       /* a looped row kernel: offs/mask cover one chunk of the row */
  int loopMemo;      /* memo entries made before the current chunk loop */
  int64_t cluster;   /* row kernels split over a cluster: its blocks (tileReduceToSplat
                        combines across them); else 1 */
  MlirValue loopK;   /* the current chunk loop's first column, splat over the block */
  MlirValue loopIv;  /* the same as a scalar (the loop's induction variable) */
  MlirValue *stageBuf; /* staged rows: per input, its row's tile.local_alloc (null: read
                          from global memory); stageSlot the current chunk's slot */
  MlirValue stageSlot;
  MlirValue partFirst; /* a staged row split over a cluster: the block's first column,
                          splat (null: none); partFirstScalar the same as an i32 */
  MlirValue partFirstScalar;
  bool fullChunk;      /* the current chunk is whole: rowSpace masks no column (4c) */
  int64_t regChunks;   /* a staged row's last chunks held in registers (rows.c, 3''): */
  MlirValue *regOffs, *regMask, *regCols; /* each one's offsets, mask and columns */
  MlirValue *regVal;   /* [chunk * nin + input]: its loaded values (null: not staged) */
  bool halfOutput;   /* the result is stored as f16/bf16/fp8: math may be `afn` */
  bool rawFp8;       /* fp8 values stay fp8 (a kernel that only moves data); else an fp8
                        input is widened to f32 at its load and rounded at its store */
  MlirBlock kernel;  /* the kernel's entry block: its arguments are the pointers */
  MlirValue *inputs; /* the fusion's inputs (values from outside), in argument order */
  int nin;
  Memo *memo;
  int nmemo, capmemo;
  TtPtrIndex memoIndex; /* key -> its last entry in memo (-1: none): O(1) lookups */
  bool failed;
} Emit;

/* How a prim reduction combines: the tile.reduce kind, the arith op joining two partial
 * results, and the identity (the value of masked-off lanes). */
typedef struct {
  const char *kind, *combine;
  double identity;
} Combiner;

/* How an elementwise or row group is split into programs. */
typedef struct {
  bool row;            /* a row kernel: one row per program */
  bool looped;         /* a row kernel whose row is longer than its block: loops over it */
  int64_t block;       /* tile size (elements) */
  int64_t warps;       /* warps per program */
  int64_t rowLen, rows; /* row kernels: N and M of the [M, N] row space (M = -1:
                           dynamic, a kernel argument) */
  int64_t rowRank;        /* row kernels: the rank of the reduced operands */
  int64_t rowsPerProgram; /* row kernels: R, rows one program computes one after another */
  int64_t chunksPerStep;  /* looped row kernels: chunks one step of a reduction loop
                             computes, their loads issued together (geometry-rows.c,
                             LOOP_INFLIGHT) */
  int64_t chunksPerStepOut; /* the same for the output loop */
  bool online;            /* looped: softmax's sum joins its max's loop (rows.c, 4a') */
  int64_t cluster;        /* row kernels: blocks of a thread-block cluster one row is
                             split over (1: none), each holding `block` of its columns */
  int64_t rowStage;       /* the row-stage option (0 never, 1 by the rule, 2 wherever legal) */
  bool loopedArg;         /* the looped-arg option: argmax/argmin rows may take the looped form */
  bool staged;            /* looped: the varying inputs' rows are copied to shared memory
                             once, and every pass reads them there (rows.c, 3') */
  int64_t partLen;        /* staged: the columns a block holds (a multiple of block; the
                             row's, or its share of a cluster's) */
  int64_t regChunks;      /* staged: the last chunks of the part held in registers, not
                             shared memory (rows.c, 3''; 0: none) */
  int64_t stageRegs;      /* the stage-regs option (bytes a thread; geometry-rows.c) */
  bool welford;           /* looped: a variance's sum joins its mean's loop (the
                             online-var option; welford.c) */
  bool stageOdd;          /* the stage-odd option: rows off 16-byte alignment may be
                             staged (tileStageable) */
  bool peel;              /* the peel-last option: chunk loops run whole steps unmasked,
                             the partial last step in a loop of its own (rows.c, 4c) */
  bool rowFrame;          /* the row-frame option */
  bool persistentOpt;     /* the persistent option */
  int64_t persistent;     /* on chip: the programs of a persistent grid, each looping over
                             rows p, p + persistent, ... (rows.c, 3'''; 0: a program a row) */
  int64_t frame;          /* rows off 16-byte alignment computed in the aligned frame
                             (rows.c, 3a): its alignment in elements (16 bytes of the
                             narrowest row-length input); 0: columns from the row's start */
  const TtTarget *target; /* the sm option's target: its SMs and shared memory */
  int64_t programsPerSm;  /* on chip: the programs an SM the kernel asks for (its
                             tile.programs_per_sm; 0: the lowering's count) */
} Geometry;

/* The operands of a dot group: its matmul, the kernel arguments holding A and B, and
 * whether B is read transposed (an [N, K] input) and A through a K pad (ka < k). */
typedef struct {
  MlirOperation matmul;
  int a, b;
  bool bT;
  int64_t batch, m, n, k; /* batch: 1 for a 2-D matmul, < 0 when dynamic */
  int64_t ka;             /* A's row length in memory: k, or the columns of a K pad's
                             operand (ttPrimIsKPad), read in place with zeros past them */
  bool dynBatch;          /* the batch of a 3-D matmul is dynamic */
  bool dynM;              /* M is dynamic: m is its bucket's geometry size (dot.c) */
  int64_t mLo, mHi;       /* dynM: the bucket's smallest and largest M (hi 0: open) */
  MlirType elem, belem; /* of A and B: both f16, both bf16, or fp8 of either format */
} DotOperands;

/* Dot geometry: the tile, the K step and the warps; 0 options come from the shape. */
typedef struct {
  int64_t bm, bn, bk, warps, order, group, stagger;
  int64_t multicast;  /* blocks of a cluster that share an operand's tile (1: none) */
  int multicastOperand; /* which: 0, A (C column tiles of one tile row); 1, B (the C tile
                           rows of one column, programs in column-major order) */
  bool clampRows;     /* option clamp-rows: the last tile row starts at M - bm (dot.c) */
  bool boxes; /* the operand tiles are marked as TMA boxes (tile.box) for --pipeline */
  char tuneKey[128];  /* the tuning cache's key of the dot (tile.tune_key) */
  const char *tuned;  /* the cache entry's options that were used, or NULL */
} DotGeometry;

/* emit.c: a group's value at a tile of offsets ----------------------------------------- */

/* The compute type of a dtype: f16, bf16 and fp8 compute in f32 (fp8 stays fp8 in a kernel
 * that only moves data, e->rawFp8). */
MlirType tileComputeType(const Emit *e, MlirType elem);
/* Erases, in block and the blocks nested in it, each arith.extf whose result is unused: a
 * convert's widening that only a store of the rounded value followed (tileRoundTo stores
 * what the truncf made), left out of the IR a kernel author reads (kernel.c). */
void tileEraseDeadWidens(MlirBlock block);
/* v (a tile in its compute type) rounded to oelem for a store: arith.truncf where they
 * differ; an fp8 value just widened from oelem (a convert's rounding) is stored as it was. */
MlirValue tileRoundTo(Emit *e, MlirValue v, MlirType oelem);
/* A 1-D tile of e->block elements of type elem. */
MlirType tileOf(Emit *e, MlirType elem);
/* Op `name` of one or two operands and result type t, built at e->b. */
MlirValue tileOp1(Emit *e, const char *name, MlirValue a, MlirType t);
MlirValue tileOp2(Emit *e, const char *name, MlirValue a, MlirValue c, MlirType t);
/* The mask a load or copy at offs takes: a row in the aligned frame, read at its own
 * offsets under rowSpace's mask, reads the columns before its start too (Emit.loadMask);
 * else e->mask. */
MlirValue tileLoadMask(Emit *e, MlirValue offs);
/* tile.load of ptr at offs under tileLoadMask (other: the result's type and the value of
 * lanes off it), marked `tile.early` where that is the aligned frame's mask: the
 * lowering issues each group's vector load before the branch of a group whose lanes are
 * not all on (load-store.c, 1''; only the row's two end groups are not). */
MlirValue tileRowLoad(Emit *e, MlirValue ptr, MlirValue offs, MlirValue other);
/* A splat i32 tile of e->block elements. */
MlirValue tileSplatI32(Emit *e, int64_t v);
/* arith.cmpi `pred` of two i32 tiles (an i1 tile of their shape). */
MlirValue tileCmp(Emit *e, int pred, MlirValue a, MlirValue b);
/* arith.cmpf `pred` (CMPF_*) of two float tiles (an i1 tile of their shape). */
MlirValue tileCmpf(Emit *e, int pred, MlirValue a, MlirValue b);
/* How reduction op combines (sum, amax, amin; argmax and argmin: their max, min step). */
Combiner tileCombinerOf(MlirOperation op);
/* argmax/argmin's candidates for the row's max (min) m: per lane, its column where x is m
 * or NaN, else N, in f32. col null: x is the row's own lanes (columns e->cols, under
 * e->mask: the on-chip form); else col holds each lane's column (a looped row's lanes'
 * best elements, rows.c). The index is the min of the candidates. */
MlirValue tileArgCandidate(Emit *e, MlirValue x, MlirValue m, MlirValue col);
/* x (a tile of type ct) with the lanes outside the mask replaced by c's identity. */
MlirValue tileMaskedToIdentity(Emit *e, MlirValue x, Combiner c, MlirType ct);
/* tile.reduce (kind "max", "min" or "sum") of tile x to one scalar of its element type. */
MlirValue tileReduce(Emit *e, MlirValue x, const char *kind);
/* tile.reduce of x to one scalar, splat back to a tile of type ct for its users. */
MlirValue tileReduceToSplat(Emit *e, MlirValue x, Combiner c, MlirType ct);
/* Records that v at offsets offs (null: everywhere) is r. */
void tileMemoPut(Emit *e, MlirValue v, MlirValue offs, MlirValue r);
/* v at offs is r from now on (its memo entry replaced, or put). */
void tileMemoSet(Emit *e, MlirValue v, MlirValue offs, MlirValue r);
/* Forgets the memo entries from the n-th on (the values made inside a loop body). */
void tileMemoTruncate(Emit *e, int n);
/* Frees the memo. */
void tileMemoFree(Emit *e);
/* Emits value v of the fused function at offsets offs (step 4); sets e->failed (after a
 * diagnostic) when it cannot. */
MlirValue tileEmitValue(Emit *e, MlirValue v, MlirValue offs);
/* Step 5b: moves every tile.load of body, with the ops it needs, ahead of the math. */
void tileLoadsFirst(MlirBlock body);

/* move.c: data movement in elementwise kernels ---------------------------------------- */

/* Emits slice, concat, index_select, gather, pad or iota `op` at offsets offs: its operands
 * at the mapped offsets (a located error in a row kernel, and for an integer pad or iota). */
MlirValue tileEmitMove(Emit *e, MlirOperation op, MlirValue offs);
/* iota `op` at offsets offs: the index along its dimension, as a tile of type ct (a float
 * type; --tile's convert of an integer iota asks for f32). */
MlirValue tileEmitIota(Emit *e, MlirOperation op, MlirValue offs, MlirType ct);

/* rows.c: elementwise and row kernels -------------------------------------------------- */

/* Steps 2-6 for an elementwise or row group, on geometry geo (rows: filled here). */
bool tileFusion(MlirOperation fusion, Geometry geo);
/* The op defining v when it is prim `name`, else a null op. */
MlirOperation tilePrimDef(MlirValue v, const char *name);
/* The loops over the row the looped form's reductions take: their levels, less those
 * whose every reduction joins an earlier level's loop as a variance's sum (welford);
 * *pairs (when asked, false on entry): set when any does. */
int tileLevelLoops(MlirBlock body, bool welford, bool *pairs);

/* online.c: the online softmax normalizer of looped row kernels ---------------------- */

/* Whether row reduction `sum` is sum(exp(x - broadcast(mx))), mx = amax(x) of the same x,
 * in f32: an online pair (softmax's normalizer). */
bool tileOnlinePair(MlirOperation sum, MlirOperation mx);
/* Whether body holds an online pair. */
bool tileHasOnlinePair(MlirBlock body);
/* One loop step of the pair (amax mx, its sum): the step's chunks' values, -inf where
 * masked, in xm (combined in `step`; offs and cols: each chunk's), carried in the scalars
 * *m and *s (-inf and 0 before the row). */
void tileOnlineStep(Emit *e, MlirOperation mx, MlirOperation sum, MlirValue step,
                    const MlirValue *xm, const MlirValue *offs, const MlirValue *cols,
                    int64_t chunks, MlirValue *m, MlirValue *s);

/* welford.c: the one-pass variance of looped row kernels ----------------------------- */

/* Whether row reduction `r` is sum(v * v), v = x - broadcast(s / N) along the rows, s =
 * sum(x) of the same x (N its row length), both in f32: a variance's sum of squared
 * deviations, which may join s's loop. */
bool tileVariancePair(MlirOperation r, MlirOperation s);
/* Welford's update of a lane's mean and m2 by chunk value x (the chunk's mask e->mask;
 * chunkNo: the chunk's index in the block's part, an i32 scalar). */
void tileWelfordStep(Emit *e, MlirValue x, MlirValue chunkNo, MlirValue *mean, MlirValue *m2);
/* After the loop: the lanes' mean and m2 combined into the row's sum(x) (of reduction
 * `sum`) and sum of squared deviations (of `var`), set in the memo (range: the lanes'
 * columns in a chunk). */
void tileWelfordCombine(Emit *e, const Geometry *g, MlirValue range, MlirValue mean,
                        MlirValue m2, MlirOperation sum, MlirOperation var);
/* The levels of dependent row reductions in body (a reduction's level: one more than the
 * most among its operands', 1 when none; the looped form's loops, emitLevels); where
 * asked, each op of body in order (*ops) and its level (*depth), *n of them (the caller
 * frees both). */
int tileReductionLevels(MlirBlock body, MlirOperation **ops, int **depth, int *n);

/* columns.c: column kernels ----------------------------------------------------------- */

/* A column group's kernel and launch (block-size/num-warps options: 0 from the shape). */
bool tileColumnFusion(MlirOperation fusion, int64_t blockOpt, int64_t warpsOpt);

/* permute.c: permute kernels ---------------------------------------------------------- */

/* A permute group's kernel and launch (num-warps option: 0 for the default). */
bool tilePermuteFusion(MlirOperation fusion, int64_t warpsOpt);

/* geometry-rows.c: elementwise and row geometry ----------------------------------------- */

/* The geometry of an elementwise (row false) or row group from --tile's options o
 * (block-size and num-warps 0: from the shape; a row group's is completed by
 * tileRowGeometry). */
Geometry tileGroupGeometry(MlirOperation fusion, bool row, const TtPassOptions *o);
/* True when a row kernel's input of type t is stageable (rows.c, 3'): full rows of the row
 * space (its rank, N last; all M rows), rows a multiple of 16 bytes (cp.async's runs) or,
 * under stage-odd, of any width (copied element by element). */
bool tileStageable(MlirType t, const Geometry *g);
/* Step 1 for a row fusion: the row shape and the block and warps. */
bool tileRowGeometry(MlirOperation fusion, MlirBlock body, Geometry *g);
/* Chunks a loop step of a looped row kernel's online pair computes (rows.c, 4a'). */
int64_t tileOnlineChunks(const Geometry *g);

/* geometry.c: dot geometry ---------------------------------------------------------------- */

/* A dot's tile, K step, warps, program order and K stagger, from --tile's options o and
 * the shape; false (after a diagnostic at fusion) when the tile cannot be lowered. */
bool tileDotGeometry(MlirOperation fusion, const DotOperands *d, const TtPassOptions *o,
                     DotGeometry *g);
/* The tile rows (block-m) the rules pick for dot d at m rows under options o (the tuning
 * cache aside): where a dynamic M's bucket is split (dot.c). */
int64_t tileDotBlockM(const DotOperands *d, const TtPassOptions *o, int64_t m);
/* The column tiles' width (*bn) the TMA rules give a 2-D m x n x k f16/bf16 dot of a
 * transposed weight with default options, and whether they are the big grid's 128 x 256 tiles on 8
 * warps (compute-bound): for --fuse's cost of a K pad read in place (fuse/common.c). */
void tileDotDefaultColumns(int64_t m, int64_t n, int64_t k, int64_t *bn, bool *big);
/* Whether --pipeline's resident form (forms.c) will hold A's whole K range a program in
 * shared memory for the 2-D m x kPad by n dot of a transposed weight (eb-byte elements; k:
 * A's own K) with default options: rows of K a multiple of 4 bytes (cp.async's
 * pieces), the rules' tile rows at most 64, and its bytes - the
 * rows x the K steps of one slice, split-K's split as --splitk's step 2 gives it from
 * the shape (ttSplitKShapeSplit) - beside two stages of the weight's ring (past one wave: three, in two blocks an SM,
 * as --pipeline gives such a grid). For --fuse: A's K pad
 * of rows TMA cannot stride is then read in place, not a kernel (fuse/common.c). */
bool tileDotResidentFits(int64_t m, int64_t n, int64_t k, int64_t kPad, int64_t eb);

/* kernel.c: the steps every kind shares ----------------------------------------------- */

/* Step 1: the fused function's body, one block returning *nout >= 1 tensors. */
bool tileFusionResults(MlirOperation fusion, MlirBlock *fbody, int *nout);
/* Step 1 for a dot or column fusion: the body, returning one tensor (of *outType). */
bool tileFusionBody(MlirOperation fusion, MlirBlock *fbody, MlirType *outType);
/* Step 1 for an input or the result: a dtype the kernel can load or store (indexOk: i32 and
 * i64 too, an argmax result of an elementwise or row kernel), and a shape. */
bool tileCheckDtype(MlirOperation at, MlirType t, const char *what, bool indexOk);
/* True when tensor type t has a dynamic dimension (only the leading one passes step 1). */
bool tileIsDynamic(MlirType t);
/* Step 1 for a column fusion: tileFusionBody, then the result's and inputs' dtypes
 * (tileCheckDtype) and the body's values (shapes). */
bool tileCheckFusion(MlirOperation fusion, MlirBlock *fbody, MlirType *outType);
/* Step 1 for an elementwise or row fusion: tileFusionResults and the same checks, of
 * every result; several results must be distinct values computed in the body. */
bool tileCheckOutputs(MlirOperation fusion, MlirBlock *fbody, int *nout);
/* Step 2: the kernel function (`warps` warps; one pointer per input, then one per result
 * of the fused function; withSize: a last `%n: i32` argument) and an emitter e at its
 * start, over tiles of `block` elements; its name goes to name[0..n); e->inputs is
 * malloc'd (the caller frees it). */
MlirOperation tileStartKernel(MlirOperation fusion, MlirBlock fbody, bool withSize,
                              int64_t warps, int64_t block, Emit *e, char *name, size_t n);
/* Step 5's end for an elementwise, row or column kernel: frees e's memo and inputs; on
 * failure erases kfunc and returns false, else ends the kernel (func.return) and puts its
 * loads first. */
bool tileFinishKernel(Emit *e, MlirOperation kfunc);
/* Step 6: `tile.launch = {kernel = @name, grid = [gridX, "1", gridZ], args = [...]}`. */
void tileSetLaunch(MlirOperation fusion, const char *name, const char *gridX,
                   const char *gridZ, int nargs, const char *const *args);

#endif
