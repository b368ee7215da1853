/* splitk.c - the --splitk pass: split the K loop of dot kernels over a second grid axis.
 *
 * For skinny GEMMs (M of 1..64) a data-parallel grid has few programs (N / block-n) and
 * each walks all of K: too few loads in flight to fill the GPU's memory system. SplitK
 * gives program (p, s) the s-th slice of K for output tile p, and the partial tiles are
 * summed in the output with atomic adds.
 *
 * Algorithm:
 *  1. Dot groups not yet tiled (`prim.fusion = "dot"` without `tile.launch`, as after
 *     `--fuse`) get their dot kernel first, with --tile's default options.
 *  2. For each tile kernel with a K loop (an scf.for whose body holds a tile.dot), choose
 *     S: the option split-k=N, or (N = 0) from the shape: with P = programs of the kernel
 *     (grid axes 0 and 2: tiles and batches)
 *     and num-sms SMs, the largest power of two S with P * S <= num-sms (one wave) that
 *     leaves each slice at least two steps of the K loop. Every slice adds its partial
 *     tile with atomics, so slices pay only where the grid leaves SMs idle (H100, 16 x
 *     8192 x 8192 f16, 128 programs of 16x64x256: S = 1 53.5 us, 2 59.4, 4 65.8; with
 *     16x64x128 tiles S = 2 won, 60.2 against 62.3: bench/2026-11-23-h100-pipeline.md).
 *     S = 1 leaves the kernel alone.
 *  3. The epilogue (the ops from the loop's result to the tile.store) must be linear in
 *     the accumulator, since each slice adds its own part: converts, reshapes, products
 *     with values that do not depend on it (scales), and sums with such values (bias,
 *     residual), which only slice 0 adds (`select(pid_k == 0, y, 0)`). Another op (an
 *     activation) is an error for an explicit split-k, and keeps S = 1 for split-k=0.
 *  4. Rewrite: pid_k = tile.program_id 1; the loop runs from pid_k * L to
 *     min(pid_k * L + L, K) with L = the slice, a multiple of the step; the store becomes
 *     tile.atomic_add; the launch gets grid[1] = S and `zero_result` (the output is zeroed
 *     before the launch, in the same stream; tt-run's times include it). The kernel gets
 *     `tile.split_k = S`.
 */
#include "tt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1. */
static bool tileUntiledDots(MlirModule module) {
  TtPassOptions defaults;
  if (!ttPassParseOptions(ttPassLookup("tile"), "", &defaults))
    return false;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    char kind[16] = "";
    if (ttOpIs(op, "func.func") && ttOpAttrStr(op, "prim.fusion", kind, sizeof kind) &&
        strcmp(kind, "dot") == 0 && mlirAttributeIsNull(ttOpAttr(op, "tile.launch")) &&
        !ttTileDotFusion(op, &defaults))
      return false;
  }
  return true;
}

/* The value of an arith.constant integer, or -1. */
static int64_t constInt(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !ttOpIs(mlirOpResultGetOwner(v), "arith.constant"))
    return -1;
  MlirAttribute a = ttOpAttr(mlirOpResultGetOwner(v), "value");
  return mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

/* A set of values that depend on the accumulator (the epilogue's forward slice). */
typedef struct {
  MlirValue v[256];
  int n;
} Slice;

static bool inSlice(const Slice *s, MlirValue v) {
  for (int i = 0; i < s->n; i++)
    if (mlirValueEqual(s->v[i], v))
      return true;
  return false;
}

/* Step 3: checks the ops after `loop` in program order; each op using the slice is linear
 * in it, or `*bad` names the first that is not. Collects the sums whose other operand
 * slice 0 alone must add (at most 16) and the store. */
typedef struct {
  MlirOperation op;
  int other; /* the operand that does not depend on the accumulator */
} Sum;

static bool linearEpilogue(MlirOperation loop, MlirOperation *bad, Sum *adds, int *nadds,
                           MlirOperation *store) {
  Slice s = {{mlirOperationGetResult(loop, 0)}, 1};
  *nadds = 0;
  for (MlirOperation op = mlirOperationGetNextInBlock(loop); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    int uses = 0, at = -1;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
      if (inSlice(&s, mlirOperationGetOperand(op, i))) {
        uses++;
        at = (int)i;
      }
    if (!uses)
      continue;
    bool sum = ttOpIs(op, "arith.addf") || ttOpIs(op, "arith.subf");
    bool linear = ttOpIs(op, "arith.truncf") || ttOpIs(op, "arith.extf") ||
                  ttOpIs(op, "tensor.collapse_shape") || ttOpIs(op, "arith.negf") ||
                  ((ttOpIs(op, "arith.mulf") || (ttOpIs(op, "arith.divf") && at == 0)) &&
                   uses == 1) ||
                  (sum && uses == 2);
    if (ttOpIs(op, "tile.store") && uses == 1 && at == 2) {
      *store = op;
      return true;
    }
    if (sum && uses == 1 && *nadds < 16) {
      adds[(*nadds)++] = (Sum){op, 1 - at};
      linear = true;
    }
    if (!linear || s.n == 256) {
      *bad = op;
      return false;
    }
    s.v[s.n++] = mlirOperationGetResult(op, 0);
  }
  *bad = loop;
  return false;
}

/* The fused function whose tile.launch names kernel `name`. */
static MlirOperation launcherOf(MlirModule module, const char *name) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute l = ttOpAttr(op, "tile.launch");
    if (mlirAttributeIsNull(l))
      continue;
    MlirAttribute k = mlirDictionaryAttrGetElementByName(l, ttStrRef("kernel"));
    MlirStringRef s = mlirFlatSymbolRefAttrGetValue(k);
    if (strlen(name) == s.length && strncmp(name, s.data, s.length) == 0)
      return op;
  }
  return (MlirOperation){NULL};
}

/* Step 4: the launch's grid[1] = S and zero_result. */
static void relaunch(MlirOperation fusion, int64_t split) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirAttribute l = ttOpAttr(fusion, "tile.launch");
  MlirAttribute grid = mlirDictionaryAttrGetElementByName(l, ttStrRef("grid"));
  char sk[32];
  snprintf(sk, sizeof sk, "%lld", (long long)split);
  MlirAttribute g[3] = {mlirArrayAttrGetElement(grid, 0), ttStrAttr(ctx, sk),
                        mlirArrayAttrGetElement(grid, 2)};
  MlirNamedAttribute out[8];
  intptr_t n = 0;
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(l) && n < 7; i++) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(l, i);
    MlirStringRef name = mlirIdentifierStr(e.name);
    if (name.length == 4 && strncmp(name.data, "grid", 4) == 0)
      e.attribute = mlirArrayAttrGet(ctx, 3, g);
    out[n++] = e;
  }
  out[n++] = ttNamedAttr(ctx, "zero_result", mlirUnitAttrGet(ctx));
  mlirOperationSetAttributeByName(fusion, ttStrRef("tile.launch"),
                                  mlirDictionaryAttrGet(ctx, n, out));
}

/* Steps 2-4 for one kernel. */
static bool splitKernel(MlirModule module, MlirOperation kernel, int64_t option, int64_t sms) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirOperation loop = ttDotLoop(body);
  if (mlirOperationIsNull(loop) || !mlirAttributeIsNull(ttOpAttr(kernel, "tile.split_k")))
    return true;
  char name[128] = "";
  ttOpAttrStr(kernel, "sym_name", name, sizeof name);
  MlirOperation fusion = launcherOf(module, name);
  int64_t lb = constInt(mlirOperationGetOperand(loop, 0));
  int64_t k = constInt(mlirOperationGetOperand(loop, 1));
  int64_t step = constInt(mlirOperationGetOperand(loop, 2));
  if (mlirOperationIsNull(fusion) || lb != 0 || k <= 0 || step <= 0) {
    ttEmitError(loop, "splitk: the K loop of @%s must run from 0 to a constant K with a "
                      "constant step, and its kernel must be launched by a fused function",
                name);
    return false;
  }
  MlirAttribute grid =
      mlirDictionaryAttrGetElementByName(ttOpAttr(fusion, "tile.launch"), ttStrRef("grid"));
  MlirStringRef g0 = mlirStringAttrGetValue(mlirArrayAttrGetElement(grid, 0));
  MlirStringRef g2 = mlirStringAttrGetValue(mlirArrayAttrGetElement(grid, 2));
  int64_t programs = strtoll(g0.data, NULL, 10) * strtoll(g2.data, NULL, 10),
          steps = (k + step - 1) / step;

  /* Step 2. */
  int64_t split = option;
  if (split == 0)
    for (split = 1; programs * split * 2 <= sms && steps / (split * 2) >= 2;)
      split *= 2;
  if (split > steps)
    split = steps;
  MlirOperation bad = {NULL}, store = {NULL};
  Sum adds[16];
  int nadds = 0;
  if (split > 1 && !linearEpilogue(loop, &bad, adds, &nadds, &store)) {
    if (option == 0)
      return true;
    char what[64];
    ttEmitError(bad, "splitk: split-k=%lld needs an epilogue linear in the accumulator "
                     "(converts, scales, bias adds); '%s' is not",
                (long long)option, ttOpName(bad, what, sizeof what));
    return false;
  }
  if (split <= 1)
    return true;

  /* Step 4. */
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirType i32 = ttI32(ctx);
  TtBuilder b = {body, loop};
  MlirNamedAttribute axis = ttNamedAttr(ctx, "axis", ttIntAttr(ctx, 1, i32));
  MlirValue pidK = ttBuild(&b, "tile.program_id", loc, 0, NULL, i32, 1, &axis);
  MlirValue slice = ttConstInt(&b, loc, i32, (steps + split - 1) / split * step);
  MlirValue begin = ttBinary(&b, loc, "arith.muli", pidK, slice);
  MlirValue end = ttBinary(&b, loc, "arith.minsi", ttBinary(&b, loc, "arith.addi", begin, slice),
                           mlirOperationGetOperand(loop, 1));
  mlirOperationSetOperand(loop, 0, begin);
  mlirOperationSetOperand(loop, 1, end);
  /* sums: slice 0 alone adds the other operand */
  MlirNamedAttribute eq = ttNamedAttr(ctx, "predicate",
                                      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 0));
  MlirValue first = ttBuild(&b, "arith.cmpi", loc, 2,
                            (MlirValue[]){pidK, ttConstInt(&b, loc, i32, 0)},
                            mlirIntegerTypeGet(ctx, 1), 1, &eq);
  for (int i = 0; i < nadds; i++) {
    TtBuilder at = {body, adds[i].op};
    MlirValue y = mlirOperationGetOperand(adds[i].op, adds[i].other);
    MlirType t = mlirValueGetType(y);
    MlirValue sel[3] = {first, y, ttConstSplat(&at, loc, t, 0.0)};
    mlirOperationSetOperand(adds[i].op, adds[i].other,
                            ttBuild(&at, "arith.select", loc, 3, sel, t, 0, NULL));
  }
  MlirValue st[4];
  for (int i = 0; i < 4; i++)
    st[i] = mlirOperationGetOperand(store, i);
  TtBuilder at = {body, store};
  ttBuild(&at, "tile.atomic_add", loc, 4, st, ttNoType(), 0, NULL);
  mlirOperationDestroy(store);
  mlirOperationSetAttributeByName(kernel, ttStrRef("tile.split_k"), ttIntAttr(ctx, split, i32));
  relaunch(fusion, split);
  return true;
}

bool ttSplitKPass(MlirModule module, const TtPassOptions *opts) {
  if (!tileUntiledDots(module))
    return false;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "func.func") && !mlirAttributeIsNull(ttOpAttr(op, "tile.kernel")) &&
        !splitKernel(module, op, opts->v[0], opts->v[1]))
      return false;
  return true;
}
