/* tt.h - the one header of the tt compiler library (libttcore).
 *
 * Prototypes are grouped under a banner per source file, QBE style, so a reader finds where a
 * function lives from this page. Naming follows MLIR's C API: `TtThing` types,
 * `ttThingVerb` functions, `Create`/`Destroy` pairs, `Get` transfers nothing.
 */
#ifndef TT_H
#define TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include "tt/pass.h" /* the public pass API: the types below share its definitions */
#include "target.h"

/* util.c: growable strings, files, small helpers --------------------------------------- */

/* A growable, NUL-terminated byte string. Zero-initialize, then append; free with
 * ttStrDestroy. */
typedef struct {
  char *data;
  size_t len, cap;
} TtStr;

void ttStrAppend(TtStr *s, const char *bytes, size_t n);
void ttStrAppendf(TtStr *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ttStrDestroy(TtStr *s);
/* An MlirStringCallback that appends to the TtStr in userData. */
void ttStrCallback(MlirStringRef piece, void *userData);
/* Reads a whole file ("-" is stdin) into *out; returns false (errno set) on failure. */
bool ttReadFile(const char *path, TtStr *out);
/* Writes bytes to path ("-" is stdout); returns false on failure. */
bool ttWriteFile(const char *path, const char *bytes, size_t n);
MlirStringRef ttStrRef(const char *s);
/* True when the string ref equals the C string. */
bool ttStrRefEq(MlirStringRef a, const char *b);
/* Runs fn(argc, argv) on a thread with a 1 GiB stack (the passes recurse along chains
 * of values; a 100k-op chain overflowed 8 MiB) and returns its result. */
int ttMainOnBigStack(int (*fn)(int, char **), int argc, char **argv);
void *ttAlloc(size_t n);            /* calloc or abort with a message */
void *ttRealloc(void *p, size_t n); /* realloc or abort with a message */
char *ttStrDup(const char *s);
/* A hash from pointer to index (open addressing, linear probing, at most half full): the
 * index of each op of a block in O(1), instead of a scan. Zero-initialized: empty. */
typedef struct {
  const void **keys;
  int *vals;
  size_t mask, n;
} TtPtrIndex;
/* Indexes keys[0..n) (distinct, non-null) as 0..n-1. */
void ttPtrIndexInit(TtPtrIndex *h, const void *const *keys, int n);
/* Sets non-null key -> val (added, or its value replaced), growing the table. */
void ttPtrIndexPut(TtPtrIndex *h, const void *key, int val);
/* The index of key, or -1. */
int ttPtrIndexFind(const TtPtrIndex *h, const void *key);
void ttPtrIndexDestroy(TtPtrIndex *h);

/* index.c: a string -> int hash, and a module's top-level ops by name ---------------- */

/* A hash from string to int (open addressing, at most half full, grows). Keys are not
 * copied: their bytes must outlive the index (attribute strings do, with the context). */
typedef struct {
  MlirStringRef *keys;
  int *vals;
  bool *used;
  size_t mask, n;
} TtStrIndex; /* zero-initialized: empty */
/* Adds key -> val; false (and no change) when key is there already (the first wins). */
bool ttStrIndexAdd(TtStrIndex *h, MlirStringRef key, int val);
/* The value of key, or -1. */
int ttStrIndexFind(const TtStrIndex *h, MlirStringRef key);
void ttStrIndexDestroy(TtStrIndex *h);
/* A module's top-level ops, indexed once (O(1) lookups instead of a scan per name): by
 * `sym_name`, and by the kernel a fused function's `tile.launch` names. The first op of a
 * name wins. It sees the body as built: rebuild it after adding or erasing the ops looked
 * up. */
typedef struct {
  MlirOperation *ops; /* the body's ops in order */
  int n;
  TtStrIndex bySym, byKernel;
} TtModuleIndex;
void ttModuleIndexInit(TtModuleIndex *x, MlirModule module);
/* The op named @name (ttModuleLookup), or a null op. */
MlirOperation ttModuleIndexSymbol(const TtModuleIndex *x, const char *name);
/* The fused function that launches kernel @kernel (ttLauncherOf), or a null op. */
MlirOperation ttModuleIndexLauncher(const TtModuleIndex *x, const char *kernel);
void ttModuleIndexDestroy(TtModuleIndex *x);

/* diag.c: diagnostics printed as file:line:col, and --verify-diagnostics -------------- */

/* Collects a context's diagnostics. With `verify` off they are printed to stderr as
 * `file:line:col: error: message` as they come; with it on they are kept and checked by
 * ttDiagVerify against `expected-*` annotations. */
typedef struct TtDiag TtDiag;
TtDiag *ttDiagCreate(MlirContext ctx, bool verify);
void ttDiagDestroy(TtDiag *d);
/* Number of errors seen (printed or recorded). */
int ttDiagErrorCount(const TtDiag *d);
/* After a parse that failed: when nothing was reported, reports why at the first tt op in
 * custom form (MLIR's parser says nothing about those), else at 1:1. */
void ttDiagParseFailed(TtDiag *d, MlirContext ctx, const char *text, const char *name);
/* Checks recorded diagnostics against `// expected-error@+N {{text}}` style annotations in
 * source (a buffer named `filename`); prints mismatches; returns true when all match. */
bool ttDiagVerify(TtDiag *d, const char *filename, const char *source);
/* Formats a location as `file:line:col` (or the location's printed form) into out. */
void ttLocationFormat(MlirLocation loc, TtStr *out);
/* Emits an error at op's location, printf-style. */
void ttEmitError(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Prints `file:line:col: remark: message` for op to stderr (the C API has no remarks). */
void ttEmitRemark(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ir.c: building and reading IR through the C API ------------------------------------- */

/* The null type: "no result" for ttBuild. */
static inline MlirType ttNoType(void) {
  MlirType t = {NULL};
  return t;
}
MlirIdentifier ttId(MlirContext ctx, const char *name);
MlirNamedAttribute ttNamedAttr(MlirContext ctx, const char *name, MlirAttribute a);
/* Creates an operation by name with operands, result types and attributes; regions are
 * taken (owned) when nRegions > 0. Inserted nowhere: use ttInsert/ttBlockAppend. */
MlirOperation ttOpCreate(const char *name, MlirLocation loc, intptr_t nOperands,
                         const MlirValue *operands, intptr_t nResults,
                         const MlirType *results, intptr_t nAttrs,
                         const MlirNamedAttribute *attrs, intptr_t nRegions,
                         MlirRegion *regions);
TtBuilder ttBuilderAtEnd(MlirBlock block);
/* Inserts op at the builder's point and returns it. */
MlirOperation ttInsert(TtBuilder *b, MlirOperation op);
/* ttOpCreate + ttInsert, returning result 0 (or a null value for no results). */
MlirValue ttBuild(TtBuilder *b, const char *name, MlirLocation loc, intptr_t nOperands,
                  const MlirValue *operands, MlirType result, intptr_t nAttrs,
                  const MlirNamedAttribute *attrs);
/* Builds `scf.for %iv = lb to ub step step iter_args(inits)` at b and returns it; its
 * body block (arguments: the induction variable, then one per init) is left empty: fill
 * it and end it with scf.yield. */
MlirOperation ttBuildFor(TtBuilder *b, MlirLocation loc, MlirValue lb, MlirValue ub,
                         MlirValue step, intptr_t n, const MlirValue *inits);
MlirBlock ttForBody(MlirOperation forOp);
/* `x name y` (an arith op whose result has x's type), built at b. */
MlirValue ttBinary(TtBuilder *b, MlirLocation loc, const char *name, MlirValue x,
                   MlirValue y);
/* `x pred y`, an arith.cmpi of predicate number pred (0 eq, 2 slt, 4 sgt, 5 sge, 6 ult). */
MlirValue ttCmpi(TtBuilder *b, MlirLocation loc, int64_t pred, MlirValue x, MlirValue y);
/* The fused function whose `tile.launch` names kernel `name` (a null op when none). */
MlirOperation ttLauncherOf(MlirModule module, const char *name);
/* The programs of fused function fusion's launch: its `tile.launch` grid's extents
 * multiplied (an extent that is not a whole decimal number counts as 1), or for such a
 * symbolic grid the launch's `programs` where given (the count its geometry was sized
 * for, e.g. at a dynamic-M bucket's largest M). */
int64_t ttLaunchPrograms(MlirOperation fusion);
/* The same, or -1 when an extent is not a whole decimal number (symbolic). */
int64_t ttLaunchProgramsExact(MlirOperation fusion);
/* Extent `axis` of the launch's grid when it is a decimal integer, else -1. */
int64_t ttLaunchGridExtent(MlirOperation fusion, intptr_t axis);
/* Sets `key` of fused function fusion's `tile.launch` dictionary to value. */
void ttLaunchSet(MlirOperation fusion, const char *key, MlirAttribute value);
/* Inserts an argument of `type` at position pos of func.func kernel (its block and its
 * function_type) and returns it. */
MlirValue ttKernelInsertArg(MlirOperation kernel, intptr_t pos, MlirType type);
/* Erases the ops of block `body` whose results nobody uses (ops without results, scf.for
 * loops and terminators stay: they have effects), last first, until none is left. */
void ttEraseDead(MlirBlock body);
/* Whether op is a warp-specialised kernel's split: an scf.if on hopper.producer_warp
 * (--pipeline step 7; its then-region the producer warp's, its else-region the consumers'). */
bool ttProducerSplit(MlirOperation op);
/* The K loop of a dot kernel's body: its first top-level scf.for holding a tile.dot, or in
 * a warp-specialised kernel (--pipeline) the consumers' (the else-region of the scf.if on
 * hopper.producer_warp); a null op when there is none. */
MlirOperation ttDotLoop(MlirBlock body);
/* True when v is a transposed view: an odd number of tile.trans ops lead to it (a dot's B
 * read K-major from an [N, K] tile). */
bool ttTransposedView(MlirValue v);
/* Shared memory of dot kernels, in convert-tile-to-gpu's layouts (--tile and --pipeline
 * budget with them): an R x C operand tile with each row padded by 16 bytes (ldmatrix then
 * reads 8 rows from 8 distinct bank groups), the f32 M x N accumulator with rows padded by
 * 4 (for its move to the flat layout); the limits are the target's (target.h). */
static inline int64_t ttSmemTileBytes(int64_t rows, int64_t cols, int64_t elemBytes) {
  return rows * (cols * elemBytes + 16);
}
static inline int64_t ttSmemAccBytes(int64_t m, int64_t n) { return m * (n + 4) * 4; }
/* What an M x N x K dot staged through registers needs: its 2-byte operand tiles (fp8
 * widens to f16; the padded rows also bound wgmma's unpadded swizzled form), or later the
 * accumulator, whichever is larger. */
static inline int64_t ttSmemDotBytes(int64_t m, int64_t n, int64_t k) {
  int64_t ops = ttSmemTileBytes(m + n, k, 2), acc = ttSmemAccBytes(m, n);
  return ops > acc ? ops : acc;
}
/* Whether an M x N dot on `warps` warps takes warpgroup MMA in its direct form
 * (convert-tile-to-gpu's 5w: C = A B, each warpgroup 64 rows of M and all N as wgmma's n)
 * rather than transposed (C^T = B^T A^T, N in 64-row blocks): where N is not a multiple of
 * 64 per warpgroup but M is 64 per warpgroup and N a multiple of 8 up to 256. */
static inline bool ttWgmmaDirect(int64_t m, int64_t n, int64_t warps) {
  return warps % 4 == 0 && warps >= 4 && n % (64 * (warps / 4)) != 0 && m == 16 * warps &&
         n % 8 == 0 && n <= 256;
}
const char *ttOpName(MlirOperation op, char *buf, size_t n); /* NUL-terminated copy */
bool ttOpIs(MlirOperation op, const char *name);
/* True when the op's name starts with `prefix` (e.g. "prim."). */
bool ttOpHasPrefix(MlirOperation op, const char *prefix);
MlirAttribute ttOpAttr(MlirOperation op, const char *name); /* null when absent */
/* Reads an integer attribute; returns dflt when absent or not an integer. */
int64_t ttOpAttrInt(MlirOperation op, const char *name, int64_t dflt);
/* The value of an arith.constant integer, or -1. */
int64_t ttConstIntValue(MlirValue v);
/* True for an argument of a func.func marked `tt.invariant` (a weight: the program never
 * writes it, and its contents stay the same between calls at one address). */
bool ttArgIsInvariant(MlirValue v);
/* True for such an argument or a result of a func.call marked `tt.invariant` (--fuse's
 * step 6: computed from weights alone, by `once` launches). */
bool ttValueIsInvariant(MlirValue v);
/* Copies a string attribute into buf; returns false when absent. */
bool ttOpAttrStr(MlirOperation op, const char *name, char *buf, size_t n);
MlirType ttI32(MlirContext ctx);
/* Shape of a ranked tensor: returns the rank (which may exceed TT_MAX_RANK: check it),
 * filling up to TT_MAX_RANK dims. -1 when not a ranked tensor. */
int64_t ttTensorShape(MlirType t, int64_t shape[TT_MAX_RANK]);
/* Elements of a static tensor of rank <= TT_MAX_RANK; -1 otherwise (not a ranked tensor,
 * dynamic, or too high a rank), INT64_MAX when the count overflows. */
int64_t ttTensorNumel(MlirType t);
/* True when tensor types a and b have the same shape, dynamic dims included (whatever
 * their element types). */
bool ttSameShape(MlirType a, MlirType b);
MlirType ttElementType(MlirType t);
/* Short dtype name (f32, bf16, i1, ...) of a type; "?" when unknown. */
const char *ttDtypeName(MlirType t);
/* Bytes per element, 0 when unknown (i1 counts as 1). */
int ttDtypeBytes(MlirType t);
bool ttTypeIsHalf(MlirType t); /* f16 or bf16 */
bool ttTypeIsFp8(MlirType t);  /* f8E4M3FN or f8E5M2 (the formats tile.dot takes) */
MlirAttribute ttIntAttr(MlirContext ctx, int64_t v, MlirType t);
MlirAttribute ttStrAttr(MlirContext ctx, const char *s);
/* `fastmath = #arith.fastmath<flags>` (flags as written in IR, e.g. "contract,afn"). */
MlirNamedAttribute ttFastmath(MlirContext ctx, const char *flags);
/* True when op's fastmath attribute includes `flag` (e.g. "afn"). */
bool ttOpHasFastmath(MlirOperation op, const char *flag);
/* A splat dense constant `value` of tensor or vector type t. */
MlirValue ttConstSplat(TtBuilder *b, MlirLocation loc, MlirType t, double value);
MlirValue ttConstInt(TtBuilder *b, MlirLocation loc, MlirType t, int64_t value);
/* Parses source (a buffer named `name`, for locations) into a module: a file holding one
 * op that is not a builtin.module is wrapped in one, as mlir-opt does. Then verifies it:
 * ttPrescan first, then the dialects' verifiers (IRDL), ttPrimVerify, ttTileVerify and
 * ttHopperVerify. Null on failure (the parser or the
 * verifier has emitted the diagnostics). */
MlirModule ttParseModule(MlirContext ctx, const char *source, const char *name);
/* prescan.c: refuses, with a located error, text that would crash MLIR's parser (nesting
 * past 256 brackets, dense arrays of index); true when MLIR may parse it. */
bool ttPrescan(MlirContext ctx, const char *source, const char *name);
/* The first func.func/gpu.func-like op named `name` under module. Null when none. */
MlirOperation ttModuleLookup(MlirModule m, const char *name);
/* Replaces `of` by `with` in the operands of `scope` and of the ops nested in it (other
 * uses of `of` keep it). */
void ttReplaceUsesWithin(MlirValue of, MlirValue with, MlirOperation scope);
void ttWalk(MlirOperation root, TtWalkFn fn, void *userData);

/* mma-form.c: which tensor-core form a tile.dot takes (its `mma` attribute) ------------ */

/* The forms, indices into ttMmaFormNames (the attribute's values: "sync", "wgmma",
 * "wgmma-direct"; NULL-terminated). */
typedef enum { TT_MMA_SYNC, TT_MMA_WGMMA, TT_MMA_WGMMA_DIRECT } TtMmaForm;
extern const char *const ttMmaFormNames[];
/* The most vector<4xf32> accumulator parts per thread a wgmma form may have (the lowering's
 * limit of parts per value). */
#define TT_MMA_MAX_PARTS 64
/* The form of an M x N x K dot on `warps` warps on a wgmma target, its operands in
 * registers (fp8Slots false) or, for fp8, both in TMA slots; bT: B read K-major (a
 * tile.trans of an [N, K] tile). */
TtMmaForm ttMmaFormChoose(int64_t m, int64_t n, int64_t k, int64_t warps, bool fp8Slots,
                          bool bT);
/* The form of tile.dot `dot` in a kernel of `warps` warps, from its shape and where its
 * operands come from (the decision); ttDotRecordMmaForm records it as the dot's `mma`. */
TtMmaForm ttDotMmaFormFor(MlirOperation dot, int64_t warps);
void ttDotRecordMmaForm(MlirOperation dot, int64_t warps);
/* The form recorded on tile.dot `dot`. */
TtMmaForm ttDotMmaForm(MlirOperation dot);
/* True when operand i of tile.dot `dot` is a slot of a ring (tile.local_load, through
 * tile.trans views). */
bool ttDotOperandInSlot(MlirOperation dot, int i);

/* pid-order.c: which output tile a program computes --------------------------------- */

/* Emits the tile coordinates (*pidM, *pidN) of program `pid` (i32) over a gm x gn grid of
 * output tiles in `order` (`group` tile rows per group for TT_ORDER_GROUPED). */
void ttEmitPidOrder(TtBuilder *b, MlirLocation loc, MlirValue pid, int64_t gm, int64_t gn,
                    TtPidOrder order, int64_t group, MlirValue *pidM, MlirValue *pidN);
/* ttEmitPidOrder with the tile rows gm an i32 value computed at run time (a dynamic M);
 * a null gmValue takes the constant gm. */
void ttEmitPidOrderDyn(TtBuilder *b, MlirLocation loc, MlirValue pid, MlirValue gmValue,
                       int64_t gm, int64_t gn, TtPidOrder order, int64_t group,
                       MlirValue *pidM, MlirValue *pidN);

/* prim.c: what each prim op is, for the passes that group, tile and interpret them ---- */

TtPrimKind ttPrimKind(MlirOperation op);
/* True for the kinds --fuse puts in an elementwise group. */
bool ttPrimIsElementwise(TtPrimKind k);
/* True for a sum/amax/amin over exactly the last dimension (dims = [rank-1] or [-1]), or
 * an argmax/argmin with dim = rank-1 or -1: the reductions a row kernel computes. */
bool ttPrimIsRowReduction(MlirOperation op);
/* True for an argmax/argmin over the last dimension (dim = rank-1 or -1). */
bool ttPrimIsRowArgReduction(MlirOperation op);
/* For a sum/amax/amin whose dims (distinct; negative ones count from the end) are one
 * contiguous run first..last of its operand's dims: the operand viewed as
 * [outer, red, inner] (red the product of the reduced dims; -1 for a part with a dynamic
 * dim; any pointer may be NULL). False for any other reduction (several runs, no dims, a
 * repeated dim). */
bool ttPrimReductionRun(MlirOperation op, int64_t *outer, int64_t *red, int64_t *inner,
                        int64_t *first, int64_t *last);
/* True for a reduction over one contiguous run of dims that ends before the last dim
 * (inner > 1 or trailing dims of size 1): the reductions a column kernel computes. */
bool ttPrimIsColumnReduction(MlirOperation op);
/* For a prim.transpose whose permutation is one of its operand's dims (rank <=
 * TT_MAX_RANK): the permutation into perm, returning the rank; -1 otherwise. */
int64_t ttPrimPermutation(MlirOperation op, int64_t *perm);
/* A transpose that moves the last dim (perm[rank-1] != rank-1): a permute kernel's. */
bool ttPrimIsPermute(MlirOperation op);
/* A transpose that keeps the last dim: every output row is a contiguous input row, so an
 * elementwise kernel reads it at mapped offsets (coalesced on both sides). */
bool ttPrimIsRowCopy(MlirOperation op);
/* A prim.pad by +0.0 at the end of the last dim alone (rank 2 or 3; f16, bf16 or fp8): a
 * dot kernel may read it in place as its A operand (K padded to a multiple its weight was
 * padded to): a TMA map of the operand whose zero fill is the pad where its rows are a
 * multiple of 16 bytes, else loads masked at the operand's own row end, copied once a
 * program into shared memory (--pipeline's resident form) or (2-byte elements) carried in
 * registers beside the weight's TMA ring (its mixed form, which fp8 has not). */
bool ttPrimIsKPad(MlirOperation op);
/* The op's name without "prim." (for diagnostics and the metadata's prim lines). */
const char *ttPrimShortName(MlirOperation op, char *buf, size_t n);
/* For prim.full and splat prim.constant: the value; returns false otherwise. */
bool ttPrimSplatValue(MlirOperation op, double *value);
/* The prim verifier (dialects/prim/verify.c): the shape and dtype rules of every prim op under root, the reference
 * interpreter's own (runtime/rules.h); a located error for each op that breaks one.
 * ttParseModule runs it on every program. */
bool ttPrimVerify(MlirOperation root);
/* The tile verifier (dialects/tile/verify.c): tile ops' shapes and attribute ranges,
 * kernels' signatures, fused functions' prim.fusion and tile.launch (the kernel it names,
 * its grid/args expressions, what the kernel takes). ttParseModule runs it on every
 * program; false after located errors. */
bool ttTileVerify(MlirOperation root);
/* The hopper verifier (dialects/hopper/verify.c): hopper ops' attribute ranges and
 * operand shapes. ttParseModule runs it on every program. */
bool ttHopperVerify(MlirOperation root);

/* dialects.c: the prim, tile and hopper dialects -------------------------------------- */

/* Creates a context with every upstream dialect registered and tt's IRDL dialects loaded.
 * Returns a null context (after printing why) when the IRDL definitions fail to load. */
MlirContext ttContextCreate(void);
/* Destroys a context made by ttContextCreate (and the IRDL modules that define its
 * dialects, which must outlive every use of those dialects). */
void ttContextDestroy(MlirContext ctx);
/* Names and IRDL sources of tt's dialects, for --show-dialects and tt-docgen. */
typedef struct {
  const char *name, *title, *source;
} TtDialectInfo;
const TtDialectInfo *ttDialects(int *count);
/* tt's dialects as one IRDL file (the sources, concatenated under a header), which
 * upstream `mlir-opt --irdl-file=` loads to parse tt IR at every level (--emit-irdl). */
void ttDialectsIrdl(TtStr *out);

/* pipeline.c: tt's own passes, pass options and pass pipelines ------------------------ */

/* tt's own passes (TtPassInfo: include/tt/pass.h), the registry's first entries. */
const TtPassInfo *ttBuiltinPasses(int *count);
/* The option indices of each pass (`opts->v[TT_TILE_TMA]` is --tile's tma): its option
 * table in pipeline.c is written by them, and its length is checked against the count. */
enum { TT_DECOMPOSE_ALIGN_K, TT_DECOMPOSE_NOPTIONS };
enum { TT_FUSE_REPORT, TT_FUSE_HOIST, TT_FUSE_K_PAD, TT_FUSE_NOPTIONS };
enum {
  TT_TILE_BLOCK_SIZE,
  TT_TILE_NUM_WARPS,
  TT_TILE_BLOCK_M,
  TT_TILE_BLOCK_N,
  TT_TILE_BLOCK_K,
  TT_TILE_ORDER,
  TT_TILE_GROUP_M,
  TT_TILE_TMA,
  TT_TILE_TMA_BATCHED,
  TT_TILE_K_STAGGER,
  TT_TILE_CLUSTER,
  TT_TILE_BUCKET_SPLIT,
  TT_TILE_ROW_STAGE,
  TT_TILE_LOOPED_ARG,
  TT_TILE_STAGE_REGS,
  TT_TILE_MULTICAST,
  TT_TILE_ONLINE_VAR,
  TT_TILE_STAGE_ODD,
  TT_TILE_PEEL_LAST,
  TT_TILE_ROW_FRAME,
  TT_TILE_PERSISTENT,
  TT_TILE_CLAMP_ROWS,
  TT_TILE_SM,
  TT_TILE_NOPTIONS
};
enum { TT_SPLITK_SPLIT_K, TT_SPLITK_NUM_SMS, TT_SPLITK_REDUCE, TT_SPLITK_FLOOR_NS, TT_SPLITK_CLUSTER, TT_SPLITK_SM,
       TT_SPLITK_NOPTIONS };
enum {
  TT_PIPELINE_NUM_STAGES,
  TT_PIPELINE_STAGE_IN,
  TT_PIPELINE_WGMMA_IN_FLIGHT,
  TT_PIPELINE_ROW_LOADS,
  TT_PIPELINE_WARP_SPECIALIZE,
  TT_PIPELINE_WAVE_STAGES,
  TT_PIPELINE_RESIDENT,
  TT_PIPELINE_NOPTIONS
};
enum { TT_PDL_TRIGGER, TT_PDL_NUM_SMS, TT_PDL_NOPTIONS };
/* convert-tile-to-gpu's options. */
enum { TT_LOWER_MMA, TT_LOWER_SM, TT_LOWER_MASKED_LOADS, TT_LOWER_NOPTIONS };
/* Parses `a=1 b=2` (mlir-opt pass option syntax) against info's options into *out.
 * Returns false and prints `error: ...` naming the pass and option when malformed or out of
 * range. */
bool ttPassParseOptions(const TtPassInfo *info, const char *text, TtPassOptions *out);
/* The same, with the message (no "error: " prefix, no newline) appended to err instead. */
bool ttPassParseOptionsTo(const TtPassInfo *info, const char *text, TtPassOptions *out,
                          TtStr *err);
/* Adds a textual pipeline to pm: a comma-separated list of passes (registered or upstream)
 * with `{options}`, optionally wrapped in `builtin.module(...)`, with nested `op(...)`
 * anchors; a registered pass must stand where its anchor op is. Returns false after
 * printing an error. */
bool ttPipelineAdd(MlirPassManager pm, const char *pipeline);
/* Adds one pass by name with its option text (may be NULL) to a pass manager on
 * builtin.module, as a `--NAME` flag does: a registered pass anchored on another op is
 * nested under that op. */
bool ttPipelineAddPass(MlirOpPassManager opm, const char *name, const char *options);
/* True when name is a registered pass or an upstream pass registered in MLIR (tt-opt's
 * test of whether a `--NAME` flag is a pass or an unknown option); prints nothing. */
bool ttPassIsRegistered(MlirContext ctx, const char *name);

/* registry.c: the registered passes (tt's, then plugins'), as MLIR external passes ---- */

/* The registered passes in order; valid until the next registration. */
const TtPassInfo *ttPasses(int *count);
const TtPassInfo *ttPassLookup(const char *name); /* NULL when none */
/* The plugin that registered info (its path), NULL for tt's own passes. */
const char *ttPassOrigin(const TtPassInfo *info);
/* The op info runs on: "builtin.module" when its anchor is NULL. */
const char *ttPassAnchor(const TtPassInfo *info);
/* Checks a pass definition (name, summary, run, options, defaults); false with the reason
 * appended to err. */
bool ttPassCheck(const TtPassInfo *info, TtStr *err);
/* Registers a checked pass (copied; its strings and tables must outlive the process) from
 * `origin` (NULL: tt); false, with the reason in err, when invalid or its name is taken. */
bool ttPassRegister(const TtPassInfo *info, const char *origin, TtStr *err);
/* A new external pass running registered pass info with opts (owned by the caller until
 * added to a pass manager). */
MlirPass ttPassCreate(const TtPassInfo *info, const TtPassOptions *opts);
/* Runs one registered pass directly on a module, on each op of its anchor (tt-translate's
 * steps, the plugin API's runPass). */
bool ttRunPass(MlirModule module, const char *name, const char *options);

/* tune.c: the tuning cache (--tune-cache=FILE; docs/tune-cache.md) --------------------- */

/* Loads the tuning cache at path for the process, replacing any loaded before; arch (may
 * be NULL: not checked) must match the file's. False after a located error (FILE:LINE:COL:
 * error: ...), leaving the cache as it was. */
bool ttTuneCacheLoad(const char *path, const char *arch);
/* The same from text (path names it in errors): the fuzz harness's entry. */
bool ttTuneCacheParse(const char *path, const char *text, const char *arch);
void ttTuneCacheClear(void);
/* The options of the cache's entry for key (a dot kernel's tile.tune_key), or NULL. */
const char *ttTuneLookup(const char *key);
/* Sets the options of info that `options` (an entry's, or a kernel's tile.tuned) names
 * and that opts leaves at their defaults; others are left alone. */
void ttTuneOptions(const char *options, const TtPassInfo *info, TtPassOptions *opts);
/* opts with the options of `pass` that kernel's tile.tuned (--tile's record of the cache
 * entry it used) names, where opts leaves them at their defaults. */
TtPassOptions ttTunedOptions(MlirOperation kernel, const char *pass, const TtPassOptions *opts);

/* statistics.c: --mlir-pass-statistics for registered passes -------------------------- */

typedef struct TtStatsRecord TtStatsRecord;
/* On: each pass instance made afterwards records statistics. */
void ttStatisticsEnable(bool on);
/* A new record for an instance of pass `pass`, NULL when statistics are off. */
TtStatsRecord *ttStatsCreate(const char *pass);
/* Around a run on op: counts its ops (ops-before, ops-after); r is the thread's current
 * record in between. r may be NULL. */
void ttStatsBegin(TtStatsRecord *r, MlirOperation op);
void ttStatsEnd(TtStatsRecord *r, MlirOperation op);
/* Adds delta to statistic `name` (static strings) of the current record, if any. */
void ttStatisticAdd(const char *name, const char *help, int64_t delta);
/* Prints the records in mlir-opt's format (list: merged by pass, sorted; else in pipeline
 * order) and forgets them. Call after the pass managers are destroyed. */
void ttStatisticsPrint(FILE *f, bool list);

/* plugin.c: pass plugins (include/tt/pass.h) ------------------------------------------- */

/* Loads the pass plugin at path and registers its passes; false with the reason in err
 * (a missing file or symbol, another API version, a bad or taken pass). */
bool ttPassPluginLoad(const char *path, TtStr *err);
/* The loaded plugins, for --version: name, version and path of plugin i < count. */
int ttPassPluginCount(void);
void ttPassPluginDescribe(int i, const char **name, const char **version, const char **path);
/* tt's helper table, as plugins receive it. */
const TtPassApi *ttPassApiGet(void);
/* The tools' plugin flag: 1 when argv[*i] is `--load-pass-plugin=PATH` or
 * `--load-pass-plugin PATH` (*path set, *i past it), -1 when the path is missing, 0 for
 * any other argument. */
int ttPluginFlag(int argc, char **argv, int *i, const char **path);
/* `--version`: the tool's and tt's version, MLIR's (the loaded libLLVM's), the pass API's,
 * and the plugins loaded. */
void ttVersionPrint(FILE *f, const char *tool);

/* The passes (passes/ and conversion/), each in its own file. */
bool ttDecomposePass(MlirModule module, const TtPassOptions *opts);
/* Checks a composite prim op (softmax, layer_norm, linear, mean, ...) by its --decompose
 * rule, on a copy that is then thrown away: false after the rule's located error. Ops
 * without a rule pass. The prim verifier calls it at parsing. */
bool ttDecomposeCheck(MlirOperation op);
bool ttFusePass(MlirModule module, const TtPassOptions *opts);
/* --tile for one dot group (`prim.fusion = "dot"`), with --tile's options; --splitk
 * uses it for groups not tiled yet. */
bool ttTileDotFusion(MlirOperation fusion, const TtPassOptions *opts);
bool ttTilePass(MlirModule module, const TtPassOptions *opts);
bool ttPipelinePass(MlirModule module, const TtPassOptions *opts);
bool ttSplitKPass(MlirModule module, const TtPassOptions *opts);
/* --splitk's step 2 from the shape (split-k=0): the split of a dot kernel's K loop of k
 * by steps of bk on bm x bn tiles of eb-byte operands, `programs` tiles on `sms` SMs; 0
 * where an unsplit program's walk over K ends before the floor (floor-ns) - no split from
 * the shape (--fuse's estimate of a program's K range: passes/tile/geometry.c). */
int64_t ttSplitKShapeSplit(int64_t bm, int64_t bn, int64_t bk, int64_t eb, int64_t k,
                           int64_t programs, int64_t sms, int64_t floorNs);
/* --pdl; its `trigger` option's words (NULL-terminated), also the kernels' tile.pdl. */
bool ttPdlPass(MlirModule module, const TtPassOptions *opts);
extern const char *const ttPdlTriggers[];
bool ttConvertTileToGpu(MlirModule module, const TtPassOptions *opts);
/* conversion/gpu-to-ptx.c: lowers gpu.module kernels to NVVM/LLVM and PTX. `arch` like
 * "sm_90a". Appends PTX (or LLVM IR with llvmIR) to out. */
bool ttLowerGpuToNvvm(MlirModule module, const char *arch);
bool ttEmitPtx(MlirModule module, const char *arch, TtStr *out);
bool ttEmitLlvmIr(MlirModule module, const char *arch, TtStr *out);
/* True when `arch` is a GPU tt-translate knows (sm_70 ... sm_120), else an error on stderr. */
bool ttCheckArch(const char *arch);

/* conversion/launch-metadata.c: the `//@` launch metadata of docs/metadata.md. */
bool ttEmitLaunchMetadata(MlirModule module, const char *arch, TtStr *out);

/* translate.c: tt-translate's steps ------------------------------------------------------ */

/* Finishes the lowering a verified module still needs (prim -> fused -> tile -> gpu, the
 * passes tt-translate's header lists) and appends to out the launch metadata and PTX
 * (ptx) or the kernels' LLVM IR (!ptx). `arch` must be known (ttCheckArch); `mma` is
 * "sync", "wgmma" or NULL (the target's default). False after emitting diagnostics. */
bool ttTranslate(MlirModule m, bool ptx, const char *arch, const char *mma, TtStr *out);

#endif
