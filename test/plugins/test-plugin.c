/* test-plugin.c - pass plugins for tt's lit tests of plugin loading (test/lit/plugins/).
 *
 * One source, built once per VARIANT (test/plugins/CMakeLists.txt): the good plugin, whose
 * passes (the other variants have them too, but fail to load first) exercise what a plugin pass receives (options, its anchor op, diagnostics,
 * statistics, the helper table), and one broken plugin per way loading must fail:
 *   good            test-count-ops (module), test-mark-func (func.func), test-any (any op)
 *   bad-version     built for API version 999
 *   no-entry        exports no ttGetPassPluginInfo
 *   dup-tt          a pass named `fuse` (tt's)
 *   dup-upstream    a pass named `cse` (MLIR's)
 *   dup-plugin      a pass named `test-count-ops` (the good plugin's)
 *   bad-default     an option whose default is outside its range
 *   bad-name        a pass named `Bad Name`
 *   init-fails      its initialize callback fails
 *   undefined       calls a function the tool does not export
 */
#include "tt/pass.h"

#include <stdio.h>

static const TtPassApi *tt;

static MlirLogicalResult initialize(const TtPassApi *api) {
#ifdef VARIANT_INIT_FAILS
  (void)api;
  fprintf(stderr, "test-plugin: initialize refuses\n");
  return mlirLogicalResultFailure();
#else
  tt = api;
  return mlirLogicalResultSuccess();
#endif
}

#ifdef VARIANT_UNDEFINED
void ttNotExportedAnywhere(void);
#endif

static bool countFunc(MlirOperation op, void *userData) {
  if (tt->opIs(op, "func.func"))
    ++*(int64_t *)userData;
  return true;
}

/* test-count-ops: counts the module's functions into a statistic; verbose=1 prints a
 * remark at the module; mode=fail fails with an error at the module. */
static MlirLogicalResult countOps(MlirOperation op, const TtPassOptions *opts, void *userData) {
  (void)userData;
#ifdef VARIANT_UNDEFINED
  ttNotExportedAnywhere();
#endif
  int64_t n = 0;
  tt->walk(op, countFunc, &n);
  tt->statisticAdd("functions", "Functions in the module", n);
  if (opts->v[0])
    tt->emitRemark(op, "test-count-ops: %lld functions (target %s)", (long long)n,
                   tt->targetDefault()->arch);
  if (opts->v[1] == 1) {
    tt->emitError(op, "test-count-ops: asked to fail (mode=fail)");
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

/* test-mark-func: sets `test.ops = N` (the ops in its body) on each func.func it runs on. */
static MlirLogicalResult markFunc(MlirOperation op, const TtPassOptions *opts, void *userData) {
  int64_t n = *(const int64_t *)userData + opts->v[0];
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation c = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(c);
       c = mlirOperationGetNextInBlock(c))
    n++;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("test.ops"),
                                  mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), n));
  tt->statisticAdd("marked", "Functions marked", 1);
  return mlirLogicalResultSuccess();
}

/* test-any: names the op it ran on in a remark. */
static MlirLogicalResult anyOp(MlirOperation op, const TtPassOptions *opts, void *userData) {
  (void)opts, (void)userData;
  MlirIdentifier name = mlirOperationGetName(op);
  MlirStringRef s = mlirIdentifierStr(name);
  tt->emitRemark(op, "test-any ran on '%.*s'", (int)s.length, s.data);
  return mlirLogicalResultSuccess();
}

static const char *const modes[] = {"count", "fail", NULL};
static const TtPassOption countOptions[] = {
    {"verbose", "1: a remark with the count", 0, 0, 1, NULL},
    {"mode", "count, or fail with an error", 0, 0, 1, modes},
#ifdef VARIANT_BAD_DEFAULT
    {"level", "a default outside the range", 7, 0, 3, NULL},
#endif
};
static const TtPassOption markOptions[] = {
    {"bias", "added to each count", 0, -100, 100, NULL},
};
static const int64_t markBase = 0;

#if defined(VARIANT_DUP_TT)
#define FIRST "fuse"
#elif defined(VARIANT_DUP_UPSTREAM)
#define FIRST "cse"
#elif defined(VARIANT_BAD_NAME)
#define FIRST "Bad Name"
#else
#define FIRST "test-count-ops"
#endif

static const TtPassInfo passes[] = {
    {FIRST, "Count the module's functions (a test of plugin loading)",
     "Counts the functions of the module into the statistic `functions`; with verbose=1 "
     "prints a remark, with mode=fail fails with an error.",
     countOptions, (int)(sizeof countOptions / sizeof countOptions[0]), countOps, NULL, NULL},
    {"test-mark-func", "Mark each function with its op count",
     "Sets `test.ops` on each func.func: the ops of its body plus `bias`.", markOptions, 1,
     markFunc, (void *)&markBase, "func.func"},
    {"test-any", "Name the op it runs on in a remark", NULL, NULL, 0, anyOp, NULL, "any"},
};

static const TtPassPluginInfo info = {
#ifdef VARIANT_BAD_VERSION
    999,
#else
    TT_PASS_API_VERSION,
#endif
    "test-plugin", "1.0", initialize, passes, (int)(sizeof passes / sizeof passes[0])};

#ifdef VARIANT_NO_ENTRY
TT_PASS_PLUGIN_EXPORT const TtPassPluginInfo *somethingElse(void);
TT_PASS_PLUGIN_EXPORT const TtPassPluginInfo *somethingElse(void) { return &info; }
#else
const TtPassPluginInfo *ttGetPassPluginInfo(void) { return &info; }
#endif
