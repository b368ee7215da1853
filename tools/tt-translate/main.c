/* tt-translate - from a tt program at any level to PTX (or LLVM IR).
 *
 * `tt-opt --fuse --splitk in.mlir | tt-translate --ptx` is the main job. tt-translate
 * finishes whatever lowering its input still needs, so it accepts tt-opt's output at any
 * level:
 *  1. prim ops in the host function -> --decompose (composites), --fuse
 *  2. fused functions               -> --splitk, --tile (default options: dot groups get
 *                                      their kernel and split-K from the shape); dot kernels
 *                                      not yet pipelined -> --pipeline (sm_90a: TMA rings
 *                                      where the loop qualifies, stage-in=auto; else 2
 *                                      stages in registers); sm_90 and later:
 *                                      --pdl on kernels tt-opt did not mark
 *  3. tile kernels                  -> --convert-tile-to-gpu (mma=wgmma for sm_90a, else
 *                                      mma=sync; --mma overrides; sm= the --arch's number)
 *  4. the launch metadata (docs/metadata.md) is written from the host function
 *  5. gpu.module                    -> NVVM/LLVM -> PTX through LLVM's NVPTX backend
 * The output is the metadata as `//@` comment lines followed by the PTX. It is written only
 * on success; errors are `file:line:col: error: ...` and exit code 1, at the locations the
 * input carries: tt-opt prints its input's (--mlir-print-debuginfo, its default), so on
 * tt-opt's output they name the user's file, not `<stdin>`.
 */
#include "tt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fprintf(f,
          "usage: tt-translate (--ptx | --mlir-to-llvmir) [--arch=sm_90a] [--mma=KIND] [-o FILE]\n"
          "                    [input]\n"
          "\n"
          "  --ptx             PTX for the program's kernels, headed by launch metadata\n"
          "                    ('//@' lines, see docs/metadata.md)\n"
          "  --mlir-to-llvmir  the kernels as LLVM IR (NVPTX target, before libdevice)\n"
          "  --arch=SM         target GPU (default sm_90a)\n"
          "  --mma=KIND        tensor-core instructions of tile.dot: wgmma (warpgroup MMA,\n"
          "                    sm_90a only) or sync (mma.sync, sm_80+); default: wgmma\n"
          "                    for sm_90a, else sync\n"
          "  -o FILE           output file (default stdout; written only on success)\n"
          "Input: a tt program at any level (prim, fused, tile, gpu); '-' or none is stdin.\n"
          "Errors name the locations the input carries: on tt-opt's output (which keeps\n"
          "locations unless given --mlir-print-debuginfo=false) the user's file:line:col.\n");
}

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
  bool failed;
} ArchCheck;

/* Reports ops the target cannot run: a tile.dot without mma.sync.m16n8k16 (before sm_80), or
 * of fp8 operands without the hardware fp8 converts (before sm_89), grid-dependency control
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
  return info->run(m, &opts);
}

/* Steps 1-5. */
static bool translate(MlirModule m, bool ptx, const char *arch, const char *mma, TtStr *out) {
  if (hostHas(m, "prim.") && (!ttRunPass(m, "decompose", NULL) || !verified(m) ||
                              !ttRunPass(m, "fuse", NULL) || !verified(m)))
    return false;
  if (untiled(m) && (!ttRunPass(m, "splitk", NULL) || !verified(m) ||
                     !ttRunPass(m, "tile", NULL) || !verified(m)))
    return false;
  const TtTarget *target = ttTargetLookup(arch); /* (main checked --arch) */
  /* tile.dot on warpgroup MMA where the chip has it (sm_90a), else mma.sync; the K loops
   * tt-opt did not pipeline: on TMA rings where wgmma reads them, else in registers */
  bool wgmma = mma ? strcmp(mma, "wgmma") == 0 : target->wgmma;
  if (!ttRunPass(m, "pipeline", wgmma ? "stage-in=auto" : NULL) || !verified(m))
    return false;
  /* programmatic dependent launch where the chip has it (sm_90 and later) */
  ArchCheck check = {target, false};
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

static int toolMain(int argc, char **argv) {
  const char *input = NULL, *output = NULL, *arch = "sm_90a", *mma = NULL;
  int mode = 0; /* 1 ptx, 2 llvm ir */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--ptx") == 0)
      mode = 1;
    else if (strcmp(a, "--mlir-to-llvmir") == 0)
      mode = 2;
    else if (strncmp(a, "--arch=", 7) == 0)
      arch = a + 7;
    else if (strncmp(a, "--mma=", 6) == 0)
      mma = a + 6;
    else if (strcmp(a, "-o") == 0 && i + 1 < argc)
      output = argv[++i];
    else if (strcmp(a, "-o") == 0) {
      fprintf(stderr, "tt-translate: error: -o needs a file name\n");
      return 1;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "tt-translate: error: unknown option '%s' (see --help)\n", a);
      return 1;
    } else if (input) {
      fprintf(stderr, "tt-translate: error: more than one input file\n");
      return 1;
    } else
      input = a;
  }
  if (!ttCheckArch(arch)) /* (its description goes to the passes) */
    return 1;
  if (mma && strcmp(mma, "sync") != 0 && !(strcmp(mma, "wgmma") == 0 && ttTargetLookup(arch)->wgmma)) {
    fprintf(stderr, "tt-translate: error: --mma=%s: expected sync, or wgmma with --arch=sm_90a\n", mma);
    return 1;
  }
  if (!mode) {
    fprintf(stderr, "tt-translate: error: say what to emit: --ptx or --mlir-to-llvmir\n");
    return 1;
  }
  if (!input)
    input = "-";
  TtStr src = {0};
  if (!ttReadFile(input, &src)) {
    fprintf(stderr, "tt-translate: error: cannot read '%s': %s\n", input, strerror(errno));
    return 1;
  }
  MlirContext ctx = ttContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  TtDiag *diag = ttDiagCreate(ctx, false);
  const char *name = strcmp(input, "-") == 0 ? "<stdin>" : input;
  MlirOperation op = mlirModuleGetOperation(ttParseModule(ctx, src.data ? src.data : "", name));
  if (mlirOperationIsNull(op))
    ttDiagParseFailed(diag, ctx, src.data ? src.data : "", name);
  TtStr out = {0};
  bool ok = !mlirOperationIsNull(op) &&
            mlirOperationVerify(op) &&
            translate(mlirModuleFromOperation(op), mode == 1, arch, mma, &out) &&
            ttDiagErrorCount(diag) == 0;
  if (ok && !ttWriteFile(output ? output : "-", out.data ? out.data : "", out.len)) {
    fprintf(stderr, "tt-translate: error: cannot write '%s': %s\n", output ? output : "-",
            strerror(errno));
    ok = false;
  }
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  ttDiagDestroy(diag);
  ttContextDestroy(ctx);
  ttStrDestroy(&src);
  ttStrDestroy(&out);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) { return ttMainOnBigStack(toolMain, argc, argv); }
