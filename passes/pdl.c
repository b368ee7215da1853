/* pdl.c - the --pdl pass: programmatic dependent launch (sm_90) for tile kernels.
 *
 * On a stream, a kernel normally starts after the one before it has finished, and the
 * launch then still takes its time: a decode GEMM of 17-40 us spends 2-4 of them outside
 * its main loop. Under programmatic dependent launch the runtime may start a kernel while
 * the previous one still runs - once every program of that one has executed
 * griddepcontrol.launch_dependents, or exited - and the early kernel waits itself
 * (griddepcontrol.wait) for the previous one to finish, its memory visible, before it
 * touches what that one may write. This pass puts both into tile kernels
 * (hopper.griddep_launch_dependents, hopper.griddep_wait) and marks them `tile.pdl`, which
 * convert-tile-to-gpu passes on to the launch metadata (`pdl` launches, format 5): the
 * runtime may launch such a kernel early. A runtime that launches it the plain way loses
 * nothing (the wait returns at once).
 *
 * Algorithm (tt-translate runs the pass with its defaults for sm_90 and later; a kernel
 * tt-opt marked is left alone):
 *  0. Zero kernels. A split-K launch that accumulates into its result (zero_result) had
 *     the runtime zero it first with a memset, which no programmatic launch can overlap:
 *     2-4 us of a 5-15 us decode GEMM (H200, cold: 64 x 4096 x 4096 14.8 us with the
 *     memset, 11.0 without any zeroing; bench/2026-11-26-h200-zero-kernel.md). Each such
 *     launch (one f16/bf16/f32 result; a dynamic M's bucket too) gets @<kernel>_zero, a tile
 *     kernel storing zeros (1024 a program), named by the launch's `zero_kernel`; launch
 *     metadata launches it before the dot kernel. Marked `tile.zero_fill`, it triggers at
 *     its start and waits before its stores, so the dot kernel launches at once and its
 *     prologue (and the weight's first TMA loads) overlap the zeroing, while its own wait
 *     keeps the adds after it (64 x 4096 x 4096: 12.5 us). trigger=off adds none.
 * Then for each tile kernel not marked yet:
 *  1. The wait. The kernel's top-level ops are scanned from the start. Ops that leave
 *     global memory alone (arith, program ids, ranges, splats, shape ops, shared-memory
 *     rings and mbarriers) are passed over, and so is a hopper.tma_load of an *invariant*
 *     input: it may read before the wait. A hopper.tma_load of any other input is held
 *     back (it has no results; the ops passed over neither read its slot nor wait on its
 *     mbarrier). The first op of another kind (a tile.load or store, a loop, the return)
 *     gets the wait before it, and the held loads after the wait. So a TMA-pipelined
 *     GEMM's prologue streams the weight's first K steps while the previous kernel ends,
 *     and loads x (which that kernel may have written) after it.
 *  2. The trigger (option `trigger`): start puts launch_dependents first in the kernel;
 *     after-loop right after its K loop (ttDotLoop: before the epilogue; a kernel without
 *     one then triggers at exit); exit leaves it out (the implicit trigger of a program's
 *     exit); auto is start when the launch has more than 7/8 of num-sms and at most
 *     num-sms programs (a grid of symbolic extents, like an elementwise kernel's
 *     cdiv(numel, block), counts as more) and its shared-memory rings leave no room for
 *     a second block on an SM (more than ttTargetSmemTwoBlocks of the default target), else
 *     after-loop. The next kernel's programs start where an SM has room: with one block per SM only on the
 *     idle SMs and as this kernel's programs exit, so an early trigger hides the launch
 *     (H200, 16 x 8192 x 8192 fp8, 128 programs of 161 KiB: 19.8 us without pdl, 16.7
 *     with the trigger at the start, 18.0 after the K loop); where a second block fits,
 *     the next kernel's programs move in beside this one's and slow them (16 x 28672 x
 *     8192 f16, 112 programs of 103 KiB: 110.9 us without pdl, 133 at the start, 110.6
 *     after the K loop); so did a grid that leaves many SMs idle (32 x 10240 x 8192 f16,
 *     80 programs of 121 KiB: 45.8 us without pdl, 58.7 at the start, 43.2 after the K
 *     loop: bench/2026-11-24-h200-gemm-pdl.md). trigger=off adds nothing and marks the
 *     kernel "off": it is launched the plain way.
 *
 * An input of a kernel is invariant when the fused function that launches it gets it, at
 * every call, from an argument of the calling function marked `tt.invariant` (a unit
 * attribute: memory that no kernel around this one writes, like a model's weights) or
 * from a result of a call marked `tt.invariant` (--fuse's step 6: a weight padded or
 * converted by `once` launches, which ran at an earlier run: the runtime launches every
 * kernel of a run that runs them the plain way, so nothing reads them early); a
 * dynamic M's bucket copy (`tile.variant_of = @f`) is called wherever @f is.
 */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>

enum { TRIGGER_AUTO, TRIGGER_START, TRIGGER_AFTER_LOOP, TRIGGER_EXIT, TRIGGER_OFF };
const char *const ttPdlTriggers[] = {"auto", "start", "after-loop", "exit", "off", NULL};

/* True for ops the scan of step 1 passes over: no regions, no global memory. */
static bool leavesGlobalMemory(MlirOperation op) {
  static const char *const names[] = {
      "tile.program_id",       "tile.num_programs",       "tile.range", "tile.splat",
      "tile.local_alloc",      "hopper.mbarrier_alloc",   "tensor.expand_shape",
      "tensor.collapse_shape", "tensor.extract",          NULL};
  if (mlirOperationGetNumRegions(op) != 0)
    return false;
  if (ttOpHasPrefix(op, "arith."))
    return true;
  for (int i = 0; names[i]; i++)
    if (ttOpIs(op, names[i]))
      return true;
  return false;
}


/* The pass's indexes, built once: the module's top-level ops (a kernel's launcher), and
 * every func.call of the module by callee (callee name -> its first call in `calls`, each
 * call -> the next of the same callee in `next`), so that the calls of a fused function
 * are found without a walk of the module per kernel. */
typedef struct {
  TtModuleIndex mod;
  TtStrIndex byCallee;
  MlirOperation *calls;
  int *next, ncalls, cap;
} PdlIndex;

static bool collectCall(MlirOperation op, void *userData) {
  PdlIndex *x = userData;
  MlirAttribute a = ttOpIs(op, "func.call") ? ttOpAttr(op, "callee") : mlirAttributeGetNull();
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFlatSymbolRef(a))
    return true;
  if (x->ncalls == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 64;
    x->calls = ttRealloc(x->calls, sizeof(MlirOperation) * (size_t)x->cap);
    x->next = ttRealloc(x->next, sizeof(int) * (size_t)x->cap);
  }
  MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(a);
  int first = ttStrIndexFind(&x->byCallee, callee);
  x->calls[x->ncalls] = op;
  x->next[x->ncalls] = -1;
  if (first < 0) {
    ttStrIndexAdd(&x->byCallee, callee, x->ncalls);
  } else { /* appended to the callee's list (the order does not matter) */
    x->next[x->ncalls] = x->next[first];
    x->next[first] = x->ncalls;
  }
  x->ncalls++;
  return true;
}

/* Whether every func.call of `callee` passes, as operand `index`, a weight (an argument
 * of the calling function marked tt.invariant or a result of a call marked so: once
 * launches' results, written at an earlier run), and there is at least one such call
 * (a call with too few operands is not counted). */
static bool invariantAtEveryCall(const PdlIndex *x, const char *callee, intptr_t index) {
  int calls = 0;
  bool invariant = true;
  for (int c = ttStrIndexFind(&x->byCallee, ttStrRef(callee)); c >= 0; c = x->next[c]) {
    MlirOperation op = x->calls[c];
    if (mlirOperationGetNumOperands(op) <= index)
      continue;
    calls++;
    invariant = invariant && ttValueIsInvariant(mlirOperationGetOperand(op, index));
  }
  return calls > 0 && invariant;
}

/* Marks in invariant[] (by kernel argument number, cleared by the caller) the TMA
 * descriptors that map an invariant input of the fused function `fusion` launching the
 * kernel: descriptors are the kernel's last arguments, in the order of the launch's `tma`
 * entries, each entry naming its input first. */
static void invariantDescs(const PdlIndex *x, MlirOperation fusion, MlirBlock kbody,
                           bool *invariant) {
  MlirAttribute launch = mlirOperationIsNull(fusion) ? mlirAttributeGetNull()
                                                     : ttOpAttr(fusion, "tile.launch");
  MlirAttribute tma = mlirAttributeIsNull(launch)
                          ? launch
                          : mlirDictionaryAttrGetElementByName(launch, ttStrRef("tma"));
  if (mlirAttributeIsNull(tma) || !mlirAttributeIsAArray(tma))
    return;
  intptr_t ntma = mlirArrayAttrGetNumElements(tma);
  intptr_t first = mlirBlockGetNumArguments(kbody) - ntma; /* the first descriptor's */
  char name[128] = ""; /* a dynamic M's bucket copy is called as the function it copies */
  MlirAttribute of = ttOpAttr(fusion, "tile.variant_of");
  if (!mlirAttributeIsNull(of) && mlirAttributeIsAFlatSymbolRef(of)) {
    MlirStringRef r = mlirFlatSymbolRefAttrGetValue(of);
    snprintf(name, sizeof name, "%.*s", (int)r.length, r.data);
  } else {
    ttOpAttrStr(fusion, "sym_name", name, sizeof name);
  }
  for (intptr_t i = 0; i < ntma && first >= 0; i++) {
    MlirAttribute e = mlirArrayAttrGetElement(tma, i);
    if (!mlirAttributeIsADenseI64Array(e) || mlirDenseArrayGetNumElements(e) < 1)
      continue;
    invariant[first + i] =
        invariantAtEveryCall(x, name, (intptr_t)mlirDenseI64ArrayGetElement(e, 0));
  }
}

/* Bytes of the kernel's shared-memory rings (its top-level tile.local_alloc memrefs). */
static int64_t ringBytes(MlirBlock kbody) {
  int64_t bytes = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(kbody); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttOpIs(op, "tile.local_alloc"))
      continue;
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
      continue;
    int64_t n = ttDtypeBytes(mlirShapedTypeGetElementType(t));
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      n *= mlirShapedTypeGetDimSize(t, d);
    bytes += n;
  }
  return bytes;
}

/* An op without operands or results named `name`, inserted before `before`. */
static void build0(MlirBlock block, MlirOperation before, const char *name, MlirLocation loc) {
  TtBuilder b = {block, before};
  ttBuild(&b, name, loc, 0, NULL, ttNoType(), 0, NULL);
}

static void pdlKernel(const PdlIndex *x, MlirOperation kernel, int trigger, int64_t numSms) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirBlock kbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  char kname[128] = "";
  ttOpAttrStr(kernel, "sym_name", kname, sizeof kname);
  MlirOperation fusion = ttModuleIndexLauncher(&x->mod, kname);
  MlirOperation loop = ttDotLoop(kbody);
  if (trigger == TRIGGER_AUTO && !mlirAttributeIsNull(ttOpAttr(kernel, "tile.zero_fill")))
    trigger = TRIGGER_START; /* a zero kernel (step 0): the kernel it zeroes for starts at once */
  if (trigger == TRIGGER_AUTO) { /* a symbolic grid counts as more than one wave */
    int64_t programs = mlirOperationIsNull(fusion) ? -1 : ttLaunchProgramsExact(fusion);
    trigger = programs > numSms * 7 / 8 && programs <= numSms &&
                      ringBytes(kbody) > ttTargetSmemTwoBlocks(ttTargetDefault())
                  ? TRIGGER_START
                  : TRIGGER_AFTER_LOOP;
  }
  if (trigger == TRIGGER_AFTER_LOOP && mlirOperationIsNull(loop))
    trigger = TRIGGER_EXIT;
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.pdl"),
                                  ttStrAttr(ctx, ttPdlTriggers[trigger]));
  if (trigger == TRIGGER_OFF)
    return;

  /* Step 1. */
  bool *invariant = ttAlloc(sizeof(bool) * (size_t)(mlirBlockGetNumArguments(kbody) + 1));
  invariantDescs(x, fusion, kbody, invariant);
  MlirOperation held[64], op = mlirBlockGetFirstOperation(kbody);
  int nheld = 0;
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (leavesGlobalMemory(op))
      continue;
    if (!ttOpIs(op, "hopper.tma_load") || nheld == 64)
      break;
    MlirValue desc = mlirOperationGetOperand(op, 0);
    if (!mlirValueIsABlockArgument(desc) || !invariant[mlirBlockArgumentGetArgNumber(desc)])
      held[nheld++] = op;
  }
  free(invariant);
  MlirOperation stop = op; /* the block ends with its terminator: never null */
  MlirLocation loc = mlirOperationGetLocation(stop);
  build0(kbody, stop, "hopper.griddep_wait", loc);
  for (int i = 0; i < nheld; i++)
    mlirOperationMoveBefore(held[i], stop);

  /* Step 2. */
  if (trigger == TRIGGER_START) {
    MlirOperation first = mlirBlockGetFirstOperation(kbody);
    build0(kbody, first, "hopper.griddep_launch_dependents", mlirOperationGetLocation(first));
  } else if (trigger == TRIGGER_AFTER_LOOP) /* (a warp-specialised kernel's: its consumers') */
    build0(mlirOperationGetBlock(loop), mlirOperationGetNextInBlock(loop),
           "hopper.griddep_launch_dependents", mlirOperationGetLocation(loop));
}

/* Step 0 for a fused function whose launch zeroes its result first (zero_result: split-K
 * atomics) and has no zero kernel yet: @<kernel>_zero, a tile kernel of 1024 zeros per
 * program over cdiv(numel, 1024) programs, inserted before fn and named by the launch's
 * zero_kernel, so launch metadata launches it (with pdl) instead of a memset. Only for a
 * single f16/bf16/f32 result. A dynamic M's bucket (a launch with `when`) gets its own,
 * and launch metadata gives the zero launch the bucket's `when`: only the bucket that runs
 * zeroes the result. */
static bool zeroKernel(const TtModuleIndex *mod, MlirOperation fn) {
  MlirAttribute launch = ttOpAttr(fn, "tile.launch");
  if (mlirAttributeIsNull(launch) || !mlirAttributeIsADictionary(launch))
    return false;
  MlirAttribute z = mlirDictionaryAttrGetElementByName(launch, ttStrRef("zero_result"));
  MlirAttribute k = mlirDictionaryAttrGetElementByName(launch, ttStrRef("kernel"));
  bool zero = !mlirAttributeIsNull(z) && (mlirAttributeIsAUnit(z) ||
                                          (mlirAttributeIsABool(z) && mlirBoolAttrGetValue(z)));
  MlirAttribute fta = ttOpAttr(fn, "function_type");
  MlirType ft = mlirAttributeIsNull(fta) ? (MlirType){NULL} : mlirTypeAttrGetValue(fta);
  if (!zero || mlirAttributeIsNull(k) || !mlirAttributeIsAFlatSymbolRef(k) ||
      !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(launch, ttStrRef("zero_kernel"))) ||
      mlirTypeIsNull(ft) || mlirFunctionTypeGetNumResults(ft) != 1)
    return false;
  MlirType elem = ttElementType(mlirFunctionTypeGetResult(ft, 0));
  if (!mlirTypeIsAF16(elem) && !mlirTypeIsABF16(elem) && !mlirTypeIsAF32(elem))
    return false;
  MlirStringRef kname = mlirFlatSymbolRefAttrGetValue(k);
  char name[160], text[2048];
  snprintf(name, sizeof name, "%.*s", (int)kname.length, kname.data);
  MlirOperation dot = ttModuleIndexSymbol(mod, name);
  if (mlirOperationIsNull(dot) || !mlirAttributeIsNull(ttOpAttr(dot, "tile.pdl")) ||
      !mlirOperationEqual(ttModuleIndexLauncher(mod, name), fn))
    return false; /* a kernel marked already (tt-opt's --pdl) is left as it is; a kernel
                   * that several functions launch gets one zero kernel at most */
  snprintf(name, sizeof name, "%.*s_zero", (int)kname.length, kname.data);
  if (!mlirOperationIsNull(ttModuleIndexSymbol(mod, name)))
    return false; /* the name is taken (a second launch of the kernel, or the user's): memset */
  const char *t = ttDtypeName(elem);
  snprintf(text, sizeof text,
           "func.func @%s(%%p: !tile.ptr<%s>, %%n: i32) attributes {tile.kernel, "
           "tile.num_warps = 4 : i32, tile.zero_fill} {\n"
           "  %%pid = \"tile.program_id\"() {axis = 0 : i32} : () -> i32\n"
           "  %%r = \"tile.range\"() {end = 1024 : i32, start = 0 : i32} : () -> tensor<1024xi32>\n"
           "  %%c = arith.constant 1024 : i32\n"
           "  %%b = arith.muli %%pid, %%c : i32\n"
           "  %%bs = \"tile.splat\"(%%b) : (i32) -> tensor<1024xi32>\n"
           "  %%o = arith.addi %%bs, %%r : tensor<1024xi32>\n"
           "  %%ns = \"tile.splat\"(%%n) : (i32) -> tensor<1024xi32>\n"
           "  %%m = arith.cmpi slt, %%o, %%ns : tensor<1024xi32>\n"
           "  %%z = arith.constant dense<0.0> : tensor<1024x%s>\n"
           "  \"tile.store\"(%%p, %%o, %%z, %%m) : (!tile.ptr<%s>, tensor<1024xi32>, "
           "tensor<1024x%s>, tensor<1024xi1>) -> ()\n"
           "  return\n}",
           name, t, t, t, t);
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirOperation kernel = mlirOperationCreateParse(ctx, ttStrRef(text), ttStrRef("tt-pdl-zero"));
  if (mlirOperationIsNull(kernel))
    return false; /* cannot happen for these types; the memset stays */
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(fn), fn, kernel);
  ttLaunchSet(fn, "zero_kernel", mlirFlatSymbolRefAttrGet(ctx, ttStrRef(name)));
  return true;
}

bool ttPdlPass(MlirModule module, const TtPassOptions *opts) {
  PdlIndex x = {0}; /* after step 0 the pass adds no top-level ops and no calls */
  ttModuleIndexInit(&x.mod, module);
  bool added = false; /* step 0: zero kernels (top-level ops: the index is made again) */
  for (int i = 0, n = x.mod.n; opts->v[TT_PDL_TRIGGER] != TRIGGER_OFF && i < n; i++)
    if (ttOpIs(x.mod.ops[i], "func.func") &&
        !mlirAttributeIsNull(ttOpAttr(x.mod.ops[i], "prim.fusion")))
      added |= zeroKernel(&x.mod, x.mod.ops[i]);
  if (added) {
    ttModuleIndexDestroy(&x.mod);
    ttModuleIndexInit(&x.mod, module);
  }
  ttWalk(mlirModuleGetOperation(module), collectCall, &x);
  for (int i = 0; i < x.mod.n; i++) {
    MlirOperation op = x.mod.ops[i];
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel")) &&
        mlirAttributeIsNull(ttOpAttr(op, "tile.pdl")))
      pdlKernel(&x, op, (int)opts->v[TT_PDL_TRIGGER], opts->v[TT_PDL_NUM_SMS]);
  }
  ttModuleIndexDestroy(&x.mod);
  ttStrIndexDestroy(&x.byCallee);
  free(x.calls);
  free(x.next);
  return true;
}
