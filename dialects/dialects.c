/* dialects.c - loads tt's dialects (prim, tile, hopper) into an MLIR context.
 *
 * Each dialect is defined by one IRDL file, dialects/<name>/<name>.irdl.mlir, the single
 * source of truth. CMake embeds the files into the tools (cmake/embed.cmake) so they run
 * from any directory; here each is parsed and handed to mlirLoadIRDLDialects. The IRDL
 * modules stay alive as long as the context: the loaded dialects verify ops with them.
 */
#include "tt.h"

#include "mlir-c/Dialect/IRDL.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>

extern const char tt_prim_irdl[];
extern const char tt_tile_irdl[];
extern const char tt_hopper_irdl[];

static const TtDialectInfo dialects[] = {
    {"prim", "prim-torch: PyTorch primitive and composite tensor ops", tt_prim_irdl},
    {"tile", "block-level kernels in the style of Triton", tt_tile_irdl},
    {"hopper", "gpu-hopper: TMA, mbarrier, wgmma, fences, clusters", tt_hopper_irdl},
};
#define NDIALECTS ((int)(sizeof dialects / sizeof dialects[0]))

const TtDialectInfo *ttDialects(int *count) {
  *count = NDIALECTS;
  return dialects;
}

/* Contexts made here and the IRDL modules each one holds. */
typedef struct Owned {
  MlirContext ctx;
  MlirOperation irdl[NDIALECTS];
  struct Owned *next;
} Owned;
static Owned *owned;

MlirContext ttContextCreate(void) {
  static bool passesRegistered;
  if (!passesRegistered) {
    mlirRegisterAllPasses();
    passesRegistered = true;
  }
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirContextLoadAllAvailableDialects(ctx);

  Owned *o = ttAlloc(sizeof *o);
  o->ctx = ctx;
  for (int i = 0; i < NDIALECTS; i++) {
    char name[64];
    snprintf(name, sizeof name, "%s.irdl.mlir", dialects[i].name);
    o->irdl[i] = mlirModuleGetOperation(ttParseModule(ctx, dialects[i].source, name));
    if (mlirOperationIsNull(o->irdl[i]) ||
        mlirLogicalResultIsFailure(
            mlirLoadIRDLDialects(mlirModuleFromOperation(o->irdl[i])))) {
      fprintf(stderr, "tt: internal error: the %s dialect definition failed to load\n",
              dialects[i].name);
      for (int j = 0; j <= i; j++)
        if (!mlirOperationIsNull(o->irdl[j]))
          mlirOperationDestroy(o->irdl[j]);
      free(o);
      mlirContextDestroy(ctx);
      MlirContext none = {NULL};
      return none;
    }
  }
  o->next = owned;
  owned = o;
  return ctx;
}

void ttContextDestroy(MlirContext ctx) {
  for (Owned **p = &owned; *p; p = &(*p)->next) {
    if ((*p)->ctx.ptr == ctx.ptr) {
      Owned *o = *p;
      *p = o->next;
      for (int i = 0; i < NDIALECTS; i++)
        mlirOperationDestroy(o->irdl[i]);
      free(o);
      break;
    }
  }
  mlirContextDestroy(ctx);
}
