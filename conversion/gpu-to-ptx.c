/* gpu-to-ptx.c - from gpu.module kernels to PTX (and LLVM IR), all through upstream MLIR.
 *
 * Steps:
 *  1. Inside gpu.module: scf to cf, then gpu/arith/index/vector/math to the LLVM and NVVM
 *     dialects (math functions become libdevice `__nv_*` calls), and the NVVM ops that
 *     have no LLVM intrinsic (wgmma.mma_async) to inline PTX; cf to llvm and
 *     reconcile-unrealized-casts at module level.
 *  2. For PTX: `nvvm-attach-target` (chip, PTX ISA, O3, and libdevice from the CUDA
 *     toolkit to link) and `gpu-module-to-binary{format=isa}`: MLIR translates the module
 *     to LLVM IR, links libdevice, and runs LLVM's NVPTX backend. The PTX is the `#gpu.object` of the
 *     resulting gpu.binary.
 *  3. For LLVM IR: translate the lowered gpu.module with mlirTranslateModuleToLLVMIR.
 */
#include "tt.h"

#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Target/LLVMIR.h"
#include "llvm-c/Core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs a textual upstream pipeline on the module; false (with diagnostics) on failure. */
static bool runPipeline(MlirModule module, const char *pipeline) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  bool ok = ttPipelineAdd(pm, pipeline) &&
            mlirLogicalResultIsSuccess(
                mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  mlirPassManagerDestroy(pm);
  return ok;
}

/* The path of CUDA's libdevice (math functions as LLVM bitcode), or NULL. */
static const char *findLibdevice(void) {
  static char path[512];
  const char *roots[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), getenv("CUDA_ROOT"),
                         "/usr/local/cuda"};
  for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
    if (!roots[i] || !*roots[i])
      continue;
    snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", roots[i]);
    FILE *f = fopen(path, "rb");
    if (f) {
      fclose(f);
      return path;
    }
  }
  return NULL;
}

bool ttCheckArch(const char *arch) {
  if (ttTargetLookup(arch))
    return true;
  fprintf(stderr, "error: unknown --arch '%s' (%s)\n", arch, ttTargetNames());
  return false;
}

/* Gives each kernel the LLVM argument attributes that tile-to-gpu left in
 * `tt.llvm_arg_attrs` (a gpu.func may not carry llvm.byval or nvvm.grid_constant, and
 * convert-gpu-to-nvvm would drop them). */
static bool moveArgAttrs(MlirOperation op, void *userData) {
  (void)userData;
  MlirAttribute attrs = ttOpAttr(op, "tt.llvm_arg_attrs");
  if (!ttOpIs(op, "llvm.func") || mlirAttributeIsNull(attrs))
    return true;
  mlirOperationSetAttributeByName(op, ttStrRef("arg_attrs"), attrs);
  mlirOperationRemoveAttributeByName(op, ttStrRef("tt.llvm_arg_attrs"));
  return true;
}

bool ttLowerGpuToNvvm(MlirModule module, const char *arch) {
  if (!ttCheckArch(arch))
    return false;
  if (mlirOperationIsNull(ttModuleLookup(module, "tt_kernels")))
    return true;
  if (!runPipeline(module,
                   "builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,"
                   "convert-vector-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,"
                   "convert-index-to-llvm,convert-nvvm-to-llvm),convert-cf-to-llvm,"
                   "reconcile-unrealized-casts)"))
    return false;
  MlirOperation top = mlirModuleGetOperation(module);
  ttWalk(top, moveArgAttrs, NULL);
  return mlirOperationVerify(top);
}

/* The gpu.module of the kernels; null after a located error when there is none. */
static MlirOperation kernelsOf(MlirModule module) {
  MlirOperation gm = ttModuleLookup(module, "tt_kernels");
  if (mlirOperationIsNull(gm))
    ttEmitError(mlirModuleGetOperation(module), "tt-translate: the program has no kernels "
                                                "(a host function with no ops to run)");
  return gm;
}

bool ttEmitPtx(MlirModule module, const char *arch, TtStr *out) {
  if (!ttLowerGpuToNvvm(module, arch))
    return false;
  MlirOperation gm = kernelsOf(module);
  if (mlirOperationIsNull(gm))
    return false;
  const char *libdevice = findLibdevice();
  if (!libdevice) {
    fprintf(stderr, "error: libdevice.10.bc not found: set CUDA_HOME to the CUDA toolkit "
                    "(looked in $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT, /usr/local/cuda)\n");
    return false;
  }
  char pipeline[1024];
  snprintf(pipeline, sizeof pipeline,
           "builtin.module(nvvm-attach-target{chip=%s features=%s O=3 l=%s},"
           "gpu-module-to-binary{format=isa})",
           arch, ttTargetLookup(arch)->ptx, libdevice);
  if (!runPipeline(module, pipeline))
    return false;
  MlirOperation bin = ttModuleLookup(module, "tt_kernels");
  MlirAttribute objects = ttOpAttr(bin, "objects");
  if (!ttOpIs(bin, "gpu.binary") || mlirAttributeIsNull(objects) ||
      mlirArrayAttrGetNumElements(objects) != 1) {
    fprintf(stderr, "error: gpu-module-to-binary made no single PTX object\n");
    return false;
  }
  MlirStringRef ptx = mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0));
  ttStrAppend(out, ptx.data, ptx.length);
  return true;
}

bool ttEmitLlvmIr(MlirModule module, const char *arch, TtStr *out) {
  if (!ttLowerGpuToNvvm(module, arch))
    return false;
  MlirOperation gm = kernelsOf(module);
  if (mlirOperationIsNull(gm))
    return false;
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMModuleRef llmod = mlirTranslateModuleToLLVMIR(gm, llctx);
  bool ok = llmod != NULL;
  if (ok) {
    char *text = LLVMPrintModuleToString(llmod);
    ttStrAppend(out, text, strlen(text));
    LLVMDisposeMessage(text);
    LLVMDisposeModule(llmod);
  } else {
    fprintf(stderr, "error: translation to LLVM IR failed\n");
  }
  LLVMContextDispose(llctx);
  return ok;
}
