/* tt-opt - the mlir-opt of tt: parse a program, run passes, print the result.
 *
 * Flags follow mlir-opt where the meaning is the same: an input file (or stdin), `-o`,
 * one flag per pass (`--fuse`, `--tile='block-size=2048'`, and any upstream pass such as
 * `--canonicalize`), `--pass-pipeline=`, `--load-pass-plugin=`, `--tune-cache=` (lib/tune.c),
 * `--split-input-file`,
 * `--verify-diagnostics`, `--verify-each`, `--mlir-print-ir-before-all/-after-all`,
 * `--mlir-print-op-generic`, `--mlir-timing`, `--mlir-pass-statistics`,
 * `--mlir-disable-threading`, `--allow-unregistered-dialect`, `--show-dialects`,
 * `--list-passes`, `--version`; and `--emit-irdl` (tt's dialects for upstream mlir-opt's
 * `--irdl-file`). The output carries the input's locations (`--mlir-print-debuginfo`, on
 * unless given `=false`) so that a later tool's errors name the user's file; contexts are
 * single-threaded unless given `--mlir-disable-threading=false`. Any other flag is an
 * unknown option. The steps: parse the flags, load the plugins (their passes then count as
 * flags), answer an informational flag, check the pass flags, then run each input chunk in
 * a fresh context. The output file is written only when everything succeeded; the exit
 * code is 1 otherwise (docs/tt-opt.md).
 */
#include "tt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 64
#define MAX_PLUGINS 16

/* What to print instead of running passes (after the plugins are loaded). */
typedef enum { RUN, HELP, LIST_PASSES, SHOW_DIALECTS, VERSION, EMIT_IRDL } Action;

typedef struct {
  const char *input, *output, *pipeline, *tuneCache;
  const char *passes[MAX_PASSES], *passOpts[MAX_PASSES], *passFlags[MAX_PASSES];
  int npasses;
  const char *plugins[MAX_PLUGINS];
  int nplugins;
  Action action;
  bool split, verifyDiags, printBeforeAll, printAfterAll, timing, generic, statistics,
      statisticsList, allowUnregistered;
  bool verifyEach, disableThreading, debugInfo, debugInfoGiven;
} Options;

static void usage(FILE *f) {
  fprintf(f,
          "usage: tt-opt [options] [input.mlir]\n"
          "\n"
          "Parses a tt program (stdin when no input or '-'), runs passes in the order given,\n"
          "and prints the result.\n"
          "\n"
          "options:\n"
          "  -o FILE                    write the output to FILE (only on success)\n"
          "  --PASS[=OPTIONS]           run a pass; OPTIONS as 'name=value name=value'\n"
          "  --pass-pipeline=PIPELINE   run a textual pipeline, e.g.\n"
          "                             'builtin.module(fuse,canonicalize,func.func(cse))'\n"
          "  --load-pass-plugin=LIB     load a pass plugin (a shared library built against\n"
          "                             include/tt/pass.h); its passes become flags and\n"
          "                             pipeline elements (docs/writing-a-pass.md)\n"
          "  --tune-cache=FILE          dot kernels take the geometry of FILE's entries (a\n"
          "                             tuning cache, written by tt-tune) where the pass\n"
          "                             options leave it to the defaults (docs/tune-cache.md)\n"
          "  --split-input-file         treat '// -----' separated chunks as separate inputs,\n"
          "                             each in a fresh context\n"
          "  --verify-diagnostics       check diagnostics against expected-error/-note\n"
          "                             annotations ({{text}}, @+N, @-N, @above, @below)\n"
          "  --mlir-print-debuginfo[=false]\n"
          "                             print the IR with its locations (the default: a later\n"
          "                             tool's errors then name the input's file:line:col, as\n"
          "                             in 'tt-opt --fuse in.mlir | tt-translate --ptx');\n"
          "                             each op ends in loc(#locN), the #locN lines come last;\n"
          "                             =false prints the IR without them\n"
          "  --mlir-print-op-generic    print every op in generic form (also in IR dumps)\n"
          "  --mlir-print-ir-before-all print the IR before every pass (to stderr)\n"
          "  --mlir-print-ir-after-all  print the IR after every pass (to stderr; dumps carry\n"
          "                             locations only when --mlir-print-debuginfo is given)\n"
          "  --mlir-timing              print pass timings (to stderr)\n"
          "  --mlir-pass-statistics     print the statistics of tt's and plugins' passes (to\n"
          "                             stderr; ops before and after each pass, and the\n"
          "                             pass's own counters)\n"
          "  --mlir-pass-statistics-display=pipeline|list\n"
          "                             per pass instance in pipeline order (the default), or\n"
          "                             merged by pass name\n"
          "  --mlir-disable-threading[=false]\n"
          "                             MLIR runs nested pass managers on one thread (tt's\n"
          "                             default); =false lets it use a thread pool\n"
          "  --allow-unregistered-dialect\n"
          "                             accept ops of dialects MLIR and tt do not know\n"
          "  --verify-each[=false], --no-verify-each\n"
          "                             run the verifier after every pass (the default)\n"
          "  --emit-irdl                print tt's dialects as one IRDL file, for upstream\n"
          "                             'mlir-opt --irdl-file=FILE' (also installed as\n"
          "                             share/tt/tt.irdl.mlir)\n"
          "  --show-dialects            list the dialects tt loads\n"
          "  --list-passes              list the passes with their options\n"
          "  --version                  tt's, MLIR's and the pass API's versions, and the\n"
          "                             plugins loaded\n"
          "  -h, --help                 this text (and the pass list)\n"
          "\n"
          "Any upstream MLIR pass also works as a flag (--canonicalize, --cse, ...); a flag\n"
          "that names no pass is an unknown option.\n"
          "Exit code: 0 on success, 1 on any error.\n\n");
}

/* A word option's words as `<a|b|c>`, an integer option's `<int>`. */
static void optionValue(const TtPassOption *o, char *value, size_t n) {
  snprintf(value, n, "<int>");
  if (!o->choices)
    return;
  size_t used = (size_t)snprintf(value, n, "<");
  for (int c = 0; o->choices[c] && used < n; c++)
    used += (size_t)snprintf(value + used, n - used, "%s%s", c ? "|" : "", o->choices[c]);
  if (used < n)
    snprintf(value + used, n - used, ">");
}

/* The registered passes: tt's, then each plugin's under a heading naming it. */
static void listPasses(FILE *f) {
  int n;
  const TtPassInfo *p = ttPasses(&n);
  const char *heading = NULL;
  fprintf(f, "tt passes:\n");
  for (int i = 0; i < n; i++) {
    const char *origin = ttPassOrigin(&p[i]);
    if (origin && origin != heading)
      fprintf(f, "passes of pass plugin %s:\n", heading = origin);
    fprintf(f, "  --%-22s %s\n", p[i].name, p[i].summary);
    if (strcmp(ttPassAnchor(&p[i]), "builtin.module") != 0)
      fprintf(f, "      (runs on %s)\n", ttPassAnchor(&p[i]));
    for (int k = 0; k < p[i].nOptions; k++) {
      const TtPassOption *o = &p[i].options[k];
      char value[96];
      optionValue(o, value, sizeof value);
      fprintf(f, "      %s=%-*s %s (default ", o->name, (int)(19 - strlen(o->name)), value,
              o->help);
      if (o->choices)
        fprintf(f, "%s)\n", o->choices[o->dflt]);
      else
        fprintf(f, "%lld)\n", (long long)o->dflt);
    }
  }
}

static void showDialects(void) {
  int n;
  const TtDialectInfo *d = ttDialects(&n);
  printf("tt dialects (IRDL):\n");
  for (int i = 0; i < n; i++)
    printf("  %-8s %s\n", d[i].name, d[i].title);
  printf("upstream dialects: every dialect of MLIR 22 (arith, func, gpu, llvm, math, nvgpu,\n"
         "  nvvm, scf, tensor, vector, ...)\n");
}

/* Matches a boolean flag as mlir-opt spells it: `--NAME`, `--NAME=true|1`,
 * `--NAME=false|0`. 1 when a matches (value in *v), 0 when a is another flag, -1 (after an
 * error) when its value is neither. */
static int boolFlag(const char *a, const char *flag, bool *v) {
  size_t n = strlen(flag);
  if (strncmp(a, flag, n) != 0 || (a[n] && a[n] != '='))
    return 0;
  const char *val = a[n] ? a + n + 1 : "true";
  if (strcmp(val, "true") == 0 || strcmp(val, "1") == 0)
    *v = true;
  else if (strcmp(val, "false") == 0 || strcmp(val, "0") == 0)
    *v = false;
  else {
    fprintf(stderr, "tt-opt: error: '%s': expected true or false\n", a);
    return -1;
  }
  return 1;
}

/* The boolean flags and where each one's value goes. */
static int boolFlags(const char *a, Options *o) {
  struct {
    const char *flag;
    bool *v;
  } flags[] = {
      {"--split-input-file", &o->split},
      {"--verify-diagnostics", &o->verifyDiags},
      {"--verify-each", &o->verifyEach},
      {"--mlir-print-ir-before-all", &o->printBeforeAll},
      {"--mlir-print-ir-after-all", &o->printAfterAll},
      {"--mlir-print-op-generic", &o->generic},
      {"--mlir-timing", &o->timing},
      {"--mlir-pass-statistics", &o->statistics},
      {"--mlir-disable-threading", &o->disableThreading},
      {"--allow-unregistered-dialect", &o->allowUnregistered},
  };
  for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
    int r = boolFlag(a, flags[i].flag, flags[i].v);
    if (r)
      return r;
  }
  int r = boolFlag(a, "--mlir-print-debuginfo", &o->debugInfo);
  o->debugInfoGiven |= r == 1;
  return r;
}

/* The informational flags: each one is an action. */
static bool actionFlag(const char *a, Options *o) {
  static const struct {
    const char *flag;
    Action action;
  } actions[] = {{"-h", HELP},         {"--help", HELP},
                 {"--list-passes", LIST_PASSES}, {"--show-dialects", SHOW_DIALECTS},
                 {"--version", VERSION}, {"--emit-irdl", EMIT_IRDL}};
  for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
    if (strcmp(a, actions[i].flag) == 0) {
      o->action = actions[i].action;
      return true;
    }
  return false;
}

/* Returns 0 to go on, or 1 when the flags are wrong (after an error). */
static int parseArgs(int argc, char **argv, Options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *plugin;
    int r;
    if (strcmp(a, "-o") == 0) {
      if (++i == argc) {
        fprintf(stderr, "tt-opt: error: -o needs a file name\n");
        return 1;
      }
      o->output = argv[i];
    } else if (strncmp(a, "-o", 2) == 0 && a[2]) {
      o->output = a + 2;
    } else if (actionFlag(a, o)) {
    } else if ((r = ttPluginFlag(argc, argv, &i, &plugin)) != 0) {
      if (r < 0 || o->nplugins == MAX_PLUGINS) {
        fprintf(stderr, r < 0 ? "tt-opt: error: --load-pass-plugin needs a file name\n"
                              : "tt-opt: error: more than %d pass plugins\n", MAX_PLUGINS);
        return 1;
      }
      o->plugins[o->nplugins++] = plugin;
    } else if (strncmp(a, "--pass-pipeline=", 16) == 0) {
      o->pipeline = a + 16;
    } else if (strncmp(a, "--tune-cache=", 13) == 0 && a[13]) {
      o->tuneCache = a + 13;
    } else if (strcmp(a, "--mlir-pass-statistics-display=list") == 0 ||
               strcmp(a, "--mlir-pass-statistics-display=pipeline") == 0) {
      o->statisticsList = strcmp(a + 31, "list") == 0;
    } else if (strncmp(a, "--mlir-pass-statistics-display", 30) == 0) {
      fprintf(stderr, "tt-opt: error: '%s': expected =list or =pipeline\n", a);
      return 1;
    } else if (strcmp(a, "--no-verify-each") == 0) {
      o->verifyEach = false;
    } else if ((r = boolFlags(a, o)) != 0) {
      if (r < 0)
        return 1;
    } else if (strncmp(a, "--", 2) == 0 && a[2]) {
      if (o->npasses == MAX_PASSES) {
        fprintf(stderr, "tt-opt: error: more than %d passes\n", MAX_PASSES);
        return 1;
      }
      char *name = ttStrDup(a + 2);
      char *eq = strchr(name, '=');
      o->passOpts[o->npasses] = eq ? eq + 1 : NULL;
      if (eq)
        *eq = 0;
      o->passFlags[o->npasses] = a;
      o->passes[o->npasses++] = name;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "tt-opt: error: unknown option '%s' (see --help)\n", a);
      return 1;
    } else if (o->input) {
      fprintf(stderr, "tt-opt: error: more than one input file ('%s' and '%s')\n",
              o->input, a);
      return 1;
    } else {
      o->input = a;
    }
  }
  if (!o->input)
    o->input = "-";
  if (o->pipeline && o->npasses) {
    fprintf(stderr, "tt-opt: error: give passes either as flags or with --pass-pipeline\n");
    return 1;
  }
  return 0;
}

/* Answers an informational flag (after the plugins are loaded, so that theirs show). */
static int runAction(const Options *o) {
  TtStr out = {0};
  switch (o->action) {
  case HELP:
    usage(stdout);
    listPasses(stdout);
    return 0;
  case LIST_PASSES:
    listPasses(stdout);
    return 0;
  case SHOW_DIALECTS:
    showDialects();
    return 0;
  case VERSION:
    ttVersionPrint(stdout, "tt-opt");
    return 0;
  case EMIT_IRDL:
    ttDialectsIrdl(&out);
    if (!ttWriteFile(o->output ? o->output : "-", out.data, out.len)) {
      fprintf(stderr, "tt-opt: error: cannot write '%s': %s\n", o->output ? o->output : "-",
              strerror(errno));
      ttStrDestroy(&out);
      return 1;
    }
    ttStrDestroy(&out);
    return 0;
  case RUN:
    break;
  }
  return 0;
}

/* Reports the `--NAME` flags that name neither a tt pass nor a registered upstream pass
 * as unknown options (mlir-opt: "Unknown command line argument"), before any input is
 * read; a context is made only when some flag is not a tt pass. */
static bool checkPassFlags(const Options *o) {
  MlirContext ctx = {NULL};
  bool ok = true;
  for (int i = 0; i < o->npasses; i++) {
    if (ttPassLookup(o->passes[i]))
      continue;
    if (mlirContextIsNull(ctx) && mlirContextIsNull(ctx = ttContextCreate()))
      return false;
    if (!ttPassIsRegistered(ctx, o->passes[i])) {
      fprintf(stderr, "tt-opt: error: unknown option '%s' (see --help)\n", o->passFlags[i]);
      ok = false;
    }
  }
  if (!mlirContextIsNull(ctx))
    ttContextDestroy(ctx);
  return ok;
}

/* The printing flags of the output (dumps: debugInfo only when given). */
static MlirOpPrintingFlags printingFlags(const Options *o, bool debugInfo) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (debugInfo)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  if (o->generic)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  return flags;
}

/* Builds the pass manager the options ask for; false after printing an error. */
static bool buildPasses(MlirPassManager pm, const Options *o) {
  mlirPassManagerEnableVerifier(pm, o->verifyEach);
  if (o->printBeforeAll || o->printAfterAll) {
    MlirOpPrintingFlags flags = printingFlags(o, o->debugInfoGiven && o->debugInfo);
    mlirPassManagerEnableIRPrinting(pm, o->printBeforeAll, o->printAfterAll, true, false,
                                    false, flags, ttStrRef(""));
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  ttStatisticsEnable(o->statistics);
  if (o->pipeline)
    return ttPipelineAdd(pm, o->pipeline);
  for (int i = 0; i < o->npasses; i++)
    if (!ttPipelineAddPass(mlirPassManagerGetAsOpPassManager(pm), o->passes[i],
                           o->passOpts[i]))
      return false;
  return true;
}

/* Processes one input chunk (the whole file without --split-input-file). The chunk text
 * starts with blank lines so that its line numbers are those of the file. Appends the
 * printed result to out. Returns true on success. */
static bool processChunk(const Options *o, const char *name, const char *text, TtStr *out) {
  MlirContext ctx = ttContextCreate();
  if (mlirContextIsNull(ctx))
    return false;
  mlirContextEnableMultithreading(ctx, !o->disableThreading);
  mlirContextSetAllowUnregisteredDialects(ctx, o->allowUnregistered);
  TtDiag *diag = ttDiagCreate(ctx, o->verifyDiags);
  bool ok = true, ran = false;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (!buildPasses(pm, o)) {
    ok = false;
    goto done;
  }
  MlirOperation op = mlirModuleGetOperation(ttParseModule(ctx, text, name));
  if (mlirOperationIsNull(op))
    ttDiagParseFailed(diag, ctx, text, name);
  if (mlirOperationIsNull(op) || !mlirOperationVerify(op)) {
    ok = false;
  } else {
    ran = true;
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
    if (ok && !o->verifyDiags) {
      /* with locations unless =false: parseable (not MLIR's "pretty" form), with `#loc`
       * aliases printed after the module, as mlir-opt --mlir-print-debuginfo does */
      MlirOpPrintingFlags flags = printingFlags(o, o->debugInfo);
      mlirOperationPrintWithFlags(op, flags, ttStrCallback, out);
      mlirOpPrintingFlagsDestroy(flags);
      ttStrAppend(out, "\n", 1);
    }
  }
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  if (o->verifyDiags)
    ok = ttDiagVerify(diag, name, text);
  else if (ttDiagErrorCount(diag) > 0)
    ok = false;
done:
  mlirPassManagerDestroy(pm);
  if (o->statistics && ran) /* as mlir-opt, after the run of each chunk */
    ttStatisticsPrint(stderr, o->statisticsList);
  ttDiagDestroy(diag);
  ttContextDestroy(ctx);
  return ok;
}

/* Splits the file at lines `// -----` and runs each chunk; all chunks run even when one
 * fails, as mlir-opt does. */
static bool processFile(const Options *o, const char *name, const char *src, TtStr *out) {
  if (!o->split)
    return processChunk(o, name, src, out);
  bool ok = true;
  int line = 1, chunkStartLine = 1;
  const char *chunk = src, *p = src;
  for (;;) {
    const char *eol = strchr(p, '\n');
    bool last = eol == NULL;
    const char *lineEnd = last ? p + strlen(p) : eol;
    const char *q = p;
    while (q < lineEnd && (*q == ' ' || *q == '\t'))
      q++;
    bool sep = (size_t)(lineEnd - q) >= 8 && strncmp(q, "// -----", 8) == 0;
    if (sep || last) {
      const char *chunkEnd = sep ? p : lineEnd;
      TtStr text = {0};
      for (int i = 1; i < chunkStartLine; i++)
        ttStrAppend(&text, "\n", 1);
      ttStrAppend(&text, chunk, (size_t)(chunkEnd - chunk));
      if (out->len)
        ttStrAppend(out, "// -----\n", 9);
      ok = processChunk(o, name, text.data, out) && ok;
      ttStrDestroy(&text);
      if (last)
        break;
      chunk = eol + 1;
      chunkStartLine = line + 1;
    }
    p = eol + 1;
    line++;
  }
  return ok;
}

/* Everything after the flags: plugins, an informational flag, or the inputs. */
static int run(Options *o) {
  for (int i = 0; i < o->nplugins; i++) {
    TtStr err = {0};
    if (!ttPassPluginLoad(o->plugins[i], &err)) {
      fprintf(stderr, "tt-opt: error: %s\n", err.data);
      ttStrDestroy(&err);
      return 1;
    }
  }
  if (o->action != RUN)
    return runAction(o);
  if (!checkPassFlags(o) || (o->tuneCache && !ttTuneCacheLoad(o->tuneCache, NULL)))
    return 1;
  TtStr src = {0};
  if (!ttReadFile(o->input, &src)) {
    fprintf(stderr, "tt-opt: error: cannot read '%s': %s\n", o->input, strerror(errno));
    return 1;
  }
  TtStr out = {0};
  const char *name = strcmp(o->input, "-") == 0 ? "<stdin>" : o->input;
  bool ok = processFile(o, name, src.data ? src.data : "", &out);
  const char *dest = o->output ? o->output : "-"; /* a failed write (a full disk) fails too */
  if (ok && !ttWriteFile(dest, out.data ? out.data : "", out.len)) {
    fprintf(stderr, "tt-opt: error: cannot write '%s': %s\n", dest, strerror(errno));
    ok = false;
  }
  ttStrDestroy(&src);
  ttStrDestroy(&out);
  return ok ? 0 : 1;
}

static int toolMain(int argc, char **argv) {
  Options o = {.verifyEach = true, .disableThreading = true, .debugInfo = true};
  int rc = parseArgs(argc, argv, &o) ? 1 : run(&o);
  for (int i = 0; i < o.npasses; i++)
    free((char *)o.passes[i]);
  return rc;
}

int main(int argc, char **argv) { return ttMainOnBigStack(toolMain, argc, argv); }
