/* translate.c - tt-translate's steps: whatever lowering a program still needs, then the
 * launch metadata and PTX (or LLVM IR).
 *
 * ttTranslate takes a parsed, verified module at any level (prim ops in the host, fused
 * functions, tile kernels) and runs, in order, only the passes it still needs: --decompose
 * and --fuse while the host holds prim ops; --splitk and --tile while a fused function
 * has no kernel; --pipeline (TMA rings with wgmma); --pdl where the target has it; a check
 * of the ops the target cannot run; --convert-tile-to-gpu; the `//@` launch metadata;
 * then NVVM/LLVM and PTX (or LLVM IR). The module is verified after every pass. It is
 * tt-translate's body (tools/tt-translate/main.c handles flags and files) and the code
 * the translate fuzz harness (test/fuzz/fuzz-translate.c) runs.
 */
#include "tt.h"

#include <stdio.h>

#include <string.h>

typedef struct {
  bool any;
  const char *name;
} Find;

static bool findPrefix(MlirOperation op, void *userData) {
  Find *f = userData;
  if (ttOpHasPrefix(op, f->name)) {
    f->any = true;
    return false;
  }
  return true;
}

/* True when a host function (not a fused one, not a kernel) holds an op whose name
 * starts with prefix. */
static bool hostHas(MlirModule m, const char *prefix) {
  Find f = {false, prefix};
  MlirBlock body = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "func.func") && mlirAttributeIsNull(ttOpAttr(op, "prim.fusion")) &&
        mlirAttributeIsNull(ttOpAttr(op, "tile.kernel")))
      ttWalk(op, findPrefix, &f);
  return f.any;
}

/* True when some fused function has no kernel yet. */
static bool untiled(MlirModule m) {
  MlirBlock body = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!mlirAttributeIsNull(ttOpAttr(op, "prim.fusion")) &&
        mlirAttributeIsNull(ttOpAttr(op, "tile.launch")))
      return true;
  return false;
}

static bool verified(MlirModule m) {
  return mlirOperationVerify(mlirModuleGetOperation(m));
}

typedef struct {
  const TtTarget *target;
  bool failed, fp8Reported;
} ArchCheck;

/* Reports ops the target cannot run: a tile.dot without mma.sync.m16n8k16 (before sm_80), or
 * of fp8 operands without the hardware fp8 converts (before sm_89), as an fp8 value widened
 * or rounded in a kernel that computes (arith.extf / arith.truncf), grid-dependency control
 * (hopper.griddep_*, from tt-opt --pdl) without programmatic dependent launch (before
 * sm_90). */
static bool unsupportedOp(MlirOperation op, void *userData) {
  ArchCheck *c = userData;
  if (!c->target->mmaSync && ttOpIs(op, "tile.dot")) {
    ttEmitError(op, "tt-translate: a tile.dot (matmul) needs --arch=sm_80 or later "
                    "(mma.sync.m16n8k16); %s has no such tensor-core instruction",
                c->target->arch);
    c->failed = true;
  } else if (!c->target->fp8Convert && ttOpIs(op, "tile.dot") &&
      ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetOperand(op, 0))))) {
    ttEmitError(op, "tt-translate: an fp8 tile.dot needs --arch=sm_89 or later (the hardware "
                    "fp8 converts)");
    c->failed = true;
  } else if (!c->target->fp8Convert && !c->fp8Reported &&
             ((ttOpIs(op, "arith.extf") &&
               ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetOperand(op, 0))))) ||
              (ttOpIs(op, "arith.truncf") &&
               ttTypeIsFp8(ttElementType(mlirValueGetType(mlirOperationGetResult(op, 0))))))) {
    ttEmitError(op, "tt-translate: computing with fp8 values (a convert to or from fp8 in a "
                    "kernel that computes) needs --arch=sm_89 or later (the hardware fp8 "
                    "converts); %s has none",
                c->target->arch);
    c->failed = c->fp8Reported = true; /* once: a kernel's every convert would say it */
  }
  if (c->target->sm < 90 && ttOpIs(op, "tile.cluster_reduce")) {
    ttEmitError(op, "tt-translate: a row split over a thread-block cluster, or split-K's "
                    "slices summed in one (tile.cluster_reduce), needs --arch=sm_90 or later; "
                    "run --tile='cluster=1' and --splitk='cluster=1' for older targets");
    c->failed = true;
  }
  if (!c->target->pdl && ttOpHasPrefix(op, "hopper.griddep_")) {
    char name[64];
    ttEmitError(op, "tt-translate: '%s' (programmatic dependent launch) needs --arch=sm_90 "
                    "or later; run --pdl='trigger=off' for older targets",
                ttOpName(op, name, sizeof name));
    c->failed = true;
  }
  return true;
}

/* Step 3: --convert-tile-to-gpu with mma and sm from the target. */
static bool lowerTiles(MlirModule m, bool wgmma, const TtTarget *target) {
  const TtPassInfo *info = ttPassLookup("convert-tile-to-gpu");
  TtPassOptions opts;
  if (!ttPassParseOptions(info, NULL, &opts))
    return false;
  opts.v[TT_LOWER_MMA] = wgmma; /* sync (0) or wgmma (1) */
  opts.v[TT_LOWER_SM] = target->sm;
  return ttConvertTileToGpu(m, &opts);
}

bool ttTranslate(MlirModule m, bool ptx, const char *arch, const char *mma, TtStr *out) {
  if (hostHas(m, "prim.") && (!ttRunPass(m, "decompose", NULL) || !verified(m) ||
                              !ttRunPass(m, "fuse", NULL) || !verified(m)))
    return false;
  const TtTarget *target = ttTargetLookup(arch); /* (main checked --arch) */
  /* rows split over thread-block clusters, and split-K's slices summed in them, only
   * where the chip has them (sm_90) */
  char opts[48]; /* and geometry within the chip's SMs and shared memory */
  snprintf(opts, sizeof opts, "%ssm=%d", target->sm >= 90 ? "" : "cluster=1 ", target->sm);
  if (untiled(m) && (!ttRunPass(m, "splitk", opts) || !verified(m) ||
                     !ttRunPass(m, "tile", opts) || !verified(m)))
    return false;
  /* tile.dot on warpgroup MMA where the chip has it (sm_90a), else mma.sync; the K loops
   * tt-opt did not pipeline: on TMA rings where wgmma reads them, else in registers */
  bool wgmma = mma ? strcmp(mma, "wgmma") == 0 : target->wgmma;
  if (!ttRunPass(m, "pipeline", wgmma ? "stage-in=auto" : NULL) || !verified(m))
    return false;
  /* programmatic dependent launch where the chip has it (sm_90 and later) */
  ArchCheck check = {target, false, false};
  if (target->pdl && (!ttRunPass(m, "pdl", NULL) || !verified(m)))
    return false;
  ttWalk(mlirModuleGetOperation(m), unsupportedOp, &check);
  if (check.failed)
    return false;
  if (!lowerTiles(m, wgmma, target) || !verified(m))
    return false;
  /* The metadata (after the lowering: it reads the kernels' dynamic shared memory) also
   * reports prim ops that --fuse left in the host (not yet supported). */
  TtStr meta = {0};
  bool ok = ttEmitLaunchMetadata(m, arch, &meta);
  if (ok && ptx)
    ttStrAppend(out, meta.data, meta.len);
  ttStrDestroy(&meta);
  if (!ok)
    return false;
  return ptx ? ttEmitPtx(m, arch, out) : ttEmitLlvmIr(m, arch, out);
}
