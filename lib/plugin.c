/* plugin.c - pass plugins: shared libraries of passes loaded at run time
 * (`--load-pass-plugin=lib.so`), and the helper table tt hands them (include/tt/pass.h).
 *
 * Loading lib.so, all or nothing:
 *  1. dlopen(RTLD_NOW | RTLD_LOCAL): every symbol resolves now, so a plugin calling an
 *     MLIR C API function the tool does not export fails here, with dlerror's message
 *     naming the symbol; a library loaded already (the same file by any path) is not
 *     loaded again;
 *  2. dlsym(ttGetPassPluginInfo), called; its apiVersion must be TT_PASS_API_VERSION;
 *  3. every pass is checked (ttPassCheck: name, summary, run, options) and its name must
 *     be free: no registered pass (tt's, an earlier plugin's), no upstream MLIR pass, not
 *     twice in the plugin;
 *  4. initialize(api), when the plugin has one;
 *  5. its passes are registered (ttPassRegister), after which they are flags, pipeline
 *     elements, --list-passes entries and tt-docgen pages like tt's own.
 * Steps 1-3 change nothing on failure (the library is closed again); a plugin is never
 * unloaded after step 4.
 */
#include "tt.h"

#include "llvm-c/Core.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The helpers a plugin gets: tt's library functions (their prototypes in tt.h must match
 * the table's types, which the compiler checks here). */
static const TtPassApi api = {
    .apiVersion = TT_PASS_API_VERSION,
    .emitError = ttEmitError,
    .emitRemark = ttEmitRemark,
    .statisticAdd = ttStatisticAdd,
    .builderAtEnd = ttBuilderAtEnd,
    .opCreate = ttOpCreate,
    .insert = ttInsert,
    .build = ttBuild,
    .binary = ttBinary,
    .constSplat = ttConstSplat,
    .constInt = ttConstInt,
    .buildFor = ttBuildFor,
    .forBody = ttForBody,
    .namedAttr = ttNamedAttr,
    .opIs = ttOpIs,
    .opHasPrefix = ttOpHasPrefix,
    .opAttr = ttOpAttr,
    .opAttrInt = ttOpAttrInt,
    .opAttrStr = ttOpAttrStr,
    .tensorShape = ttTensorShape,
    .tensorNumel = ttTensorNumel,
    .elementType = ttElementType,
    .dtypeName = ttDtypeName,
    .dtypeBytes = ttDtypeBytes,
    .walk = ttWalk,
    .eraseDead = ttEraseDead,
    .replaceUsesWithin = ttReplaceUsesWithin,
    .moduleLookup = ttModuleLookup,
    .primKind = ttPrimKind,
    .primIsElementwise = ttPrimIsElementwise,
    .primSplatValue = ttPrimSplatValue,
    .launcherOf = ttLauncherOf,
    .launchPrograms = ttLaunchPrograms,
    .launchSet = ttLaunchSet,
    .kernelInsertArg = ttKernelInsertArg,
    .emitPidOrder = ttEmitPidOrder,
    .targetLookup = ttTargetLookup,
    .targetForSm = ttTargetForSm,
    .targetDefault = ttTargetDefault,
    .passLookup = ttPassLookup,
    .runPass = ttRunPass,
};

const TtPassApi *ttPassApiGet(void) { return &api; }

typedef struct {
  void *handle;
  const TtPassPluginInfo *info;
  char *path;
} Plugin;
static Plugin *plugins;
static int nPlugins;

int ttPassPluginCount(void) { return nPlugins; }

void ttPassPluginDescribe(int i, const char **name, const char **version, const char **path) {
  *name = plugins[i].info->pluginName ? plugins[i].info->pluginName : "?";
  *version = plugins[i].info->pluginVersion ? plugins[i].info->pluginVersion : "?";
  *path = plugins[i].path;
}

/* Step 3 for pass i of info: is its name free? Appends why not to err. */
static bool nameFree(const TtPassPluginInfo *info, int i, MlirContext ctx, TtStr *err) {
  const char *name = info->passes[i].name;
  for (int j = 0; j < i; j++)
    if (strcmp(info->passes[j].name, name) == 0) {
      ttStrAppendf(err, "pass '%s' is defined twice", name);
      return false;
    }
  const TtPassInfo *old = ttPassLookup(name);
  if (old) {
    const char *by = ttPassOrigin(old);
    ttStrAppendf(err, "pass '%s' is already registered (by %s)", name, by ? by : "tt");
    return false;
  }
  if (ttPassIsRegistered(ctx, name)) {
    ttStrAppendf(err, "pass '%s' is already registered (an upstream MLIR pass)", name);
    return false;
  }
  return true;
}

/* Steps 2-3: the entry point, the version, the passes. */
static bool check(void *handle, const TtPassPluginInfo **out, TtStr *err) {
  const TtPassPluginInfo *(*entry)(void);
  *(void **)&entry = dlsym(handle, TT_PASS_PLUGIN_ENTRY); /* POSIX's way to a function */
  if (!entry) {
    ttStrAppendf(err, "it exports no %s (not a tt pass plugin; see docs/writing-a-pass.md)",
                 TT_PASS_PLUGIN_ENTRY);
    return false;
  }
  const TtPassPluginInfo *info = entry();
  if (!info) {
    ttStrAppendf(err, "its %s returned NULL", TT_PASS_PLUGIN_ENTRY);
    return false;
  }
  if (info->apiVersion != TT_PASS_API_VERSION) {
    ttStrAppendf(err, "it was built for tt pass API version %u; this tool has version %u "
                      "(rebuild the plugin against this tt)",
                 (unsigned)info->apiVersion, (unsigned)TT_PASS_API_VERSION);
    return false;
  }
  if (info->nPasses < 0 || (info->nPasses > 0 && !info->passes)) {
    ttStrAppendf(err, "it has no pass table (%d passes)", info->nPasses);
    return false;
  }
  MlirContext ctx = ttContextCreate(); /* registers MLIR's passes, for their names */
  if (mlirContextIsNull(ctx)) {
    ttStrAppendf(err, "no MLIR context");
    return false;
  }
  bool ok = true;
  for (int i = 0; i < info->nPasses && ok; i++)
    ok = ttPassCheck(&info->passes[i], err) && nameFree(info, i, ctx, err);
  ttContextDestroy(ctx);
  *out = info;
  return ok;
}

bool ttPassPluginLoad(const char *path, TtStr *err) {
  TtStr why = {0};
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) { /* dlerror names the path itself */
    const char *e = dlerror();
    ttStrAppendf(err, "cannot load pass plugin: %s", e ? e : path);
    if (e && strstr(e, "undefined symbol"))
      ttStrAppendf(err, " (a plugin may call MLIR's C API, which the tool exports, and tt's "
                        "helpers through TtPassApi; nothing else)");
    return false;
  }
  for (int i = 0; i < nPlugins; i++)
    if (plugins[i].handle == handle) {
      dlclose(handle); /* drops the reference this dlopen took */
      return true;
    }
  const TtPassPluginInfo *info = NULL;
  if (!check(handle, &info, &why)) {
    ttStrAppendf(err, "pass plugin '%s': %s", path, why.data);
    ttStrDestroy(&why);
    dlclose(handle);
    return false;
  }
  if (info->initialize && mlirLogicalResultIsFailure(info->initialize(&api))) {
    ttStrAppendf(err, "pass plugin '%s': its initialize callback failed", path);
    return false;
  }
  plugins = ttRealloc(plugins, (size_t)(nPlugins + 1) * sizeof *plugins);
  plugins[nPlugins] = (Plugin){handle, info, ttStrDup(path)};
  for (int i = 0; i < info->nPasses; i++)
    if (!ttPassRegister(&info->passes[i], plugins[nPlugins].path, &why)) { /* checked: */
      ttStrAppendf(err, "pass plugin '%s': %s", path, why.data);      /* cannot happen */
      ttStrDestroy(&why);
      return false;
    }
  nPlugins++;
  return true;
}

int ttPluginFlag(int argc, char **argv, int *i, const char **path) {
  static const char flag[] = "--load-pass-plugin";
  const char *a = argv[*i];
  if (strncmp(a, flag, sizeof flag - 1) != 0)
    return 0;
  a += sizeof flag - 1;
  if (*a == '=') {
    *path = a + 1;
    return **path ? 1 : -1;
  }
  if (*a)
    return 0; /* another flag that starts alike */
  if (*i + 1 == argc)
    return -1;
  *path = argv[++*i];
  return 1;
}

void ttVersionPrint(FILE *f, const char *tool) {
  unsigned major, minor, patch;
  LLVMGetVersion(&major, &minor, &patch);
  fprintf(f, "%s (tt %s)\n  MLIR and LLVM %u.%u.%u\n  tt pass API version %u\n", tool,
          TT_VERSION, major, minor, patch, (unsigned)TT_PASS_API_VERSION);
  for (int i = 0; i < nPlugins; i++) {
    const char *name, *version, *path;
    ttPassPluginDescribe(i, &name, &version, &path);
    fprintf(f, "  pass plugin %s %s (%s)\n", name, version, path);
  }
}
