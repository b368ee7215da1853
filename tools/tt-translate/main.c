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
 * The steps are ttTranslate (lib/translate.c), shared with the fuzz harness
 * test/fuzz/fuzz-translate.c. Before them, `--pass-pipeline=` runs a pipeline of the
 * user's (tt-opt's syntax), which may name the passes of plugins loaded with
 * `--load-pass-plugin=` (docs/writing-a-pass.md); `--tune-cache=` loads a tuning cache
 * (lib/tune.c) that the steps' --tile, --splitk and --pipeline read. The output is the
 * metadata as `//@` comment lines followed by the PTX. It is written only
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
          "                    [--load-pass-plugin=LIB] [--pass-pipeline=PIPELINE]\n"
          "                    [--tune-cache=FILE] [input]\n"
          "\n"
          "  --ptx             PTX for the program's kernels, headed by launch metadata\n"
          "                    ('//@' lines, see docs/metadata.md)\n"
          "  --mlir-to-llvmir  the kernels as LLVM IR (NVPTX target, before libdevice)\n"
          "  --arch=SM         target GPU (default sm_90a)\n"
          "  --mma=KIND        tensor-core instructions of tile.dot: wgmma (warpgroup MMA,\n"
          "                    sm_90a only) or sync (mma.sync, sm_80+); default: wgmma\n"
          "                    for sm_90a, else sync\n"
          "  --tune-cache=FILE dot kernels it tiles take the geometry of FILE's entries (a\n"
          "                    tuning cache for --arch, written by tt-tune; a miss keeps the\n"
          "                    defaults; docs/tune-cache.md)\n"
          "  -o FILE           output file (default stdout; written only on success)\n"
          "  --load-pass-plugin=LIB\n"
          "                    load a pass plugin (its passes for --pass-pipeline)\n"
          "  --pass-pipeline=PIPELINE\n"
          "                    run a pipeline (tt-opt's syntax) before the lowering\n"
          "  --version         tt's, MLIR's and the pass API's versions\n"
          "Input: a tt program at any level (prim, fused, tile, gpu); '-' or none is stdin.\n"
          "Errors name the locations the input carries: on tt-opt's output (which keeps\n"
          "locations unless given --mlir-print-debuginfo=false) the user's file:line:col.\n");
}

/* Runs the user's --pass-pipeline on m; false after an error. */
static bool runPipeline(MlirContext ctx, MlirOperation m, const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  bool ok = ttPipelineAdd(pm, pipeline) &&
            mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, m));
  mlirPassManagerDestroy(pm);
  return ok;
}

static int toolMain(int argc, char **argv) {
  const char *input = NULL, *output = NULL, *arch = "sm_90a", *mma = NULL, *pipeline = NULL,
             *tuneCache = NULL;
  const char *plugin;
  int mode = 0; /* 1 ptx, 2 llvm ir */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int r = ttPluginFlag(argc, argv, &i, &plugin);
    TtStr err = {0};
    if (r < 0) {
      fprintf(stderr, "tt-translate: error: --load-pass-plugin needs a file name\n");
      return 1;
    } else if (r > 0) {
      if (!ttPassPluginLoad(plugin, &err)) {
        fprintf(stderr, "tt-translate: error: %s\n", err.data);
        ttStrDestroy(&err);
        return 1;
      }
    } else if (strncmp(a, "--pass-pipeline=", 16) == 0)
      pipeline = a + 16;
    else if (strcmp(a, "--version") == 0) {
      ttVersionPrint(stdout, "tt-translate");
      return 0;
    } else if (strcmp(a, "--ptx") == 0)
      mode = 1;
    else if (strcmp(a, "--mlir-to-llvmir") == 0)
      mode = 2;
    else if (strncmp(a, "--arch=", 7) == 0)
      arch = a + 7;
    else if (strncmp(a, "--mma=", 6) == 0)
      mma = a + 6;
    else if (strncmp(a, "--tune-cache=", 13) == 0 && a[13])
      tuneCache = a + 13;
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
  if (tuneCache && !ttTuneCacheLoad(tuneCache, arch)) /* its arch must be the target */
    return 1;
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
            (!pipeline || runPipeline(ctx, op, pipeline)) &&
            ttTranslate(mlirModuleFromOperation(op), mode == 1, arch, mma, &out) &&
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
