/* tt-opt - the mlir-opt of tt: parse a program, run passes, print the result.
 *
 * Flags follow mlir-opt where the meaning is the same: an input file (or stdin), `-o`,
 * one flag per pass (`--fuse`, `--tile='block-size=2048'`, and any upstream pass such as
 * `--canonicalize`), `--pass-pipeline=`, `--split-input-file`, `--verify-diagnostics`,
 * `--mlir-print-ir-after-all`, `--mlir-timing`, `--show-dialects`, `--list-passes`. The
 * output carries the input's locations (`--mlir-print-debuginfo`, on unless given
 * `=false`) so that a later tool's errors name the user's file. Any other flag is an
 * unknown option. The output file is written only when everything succeeded; the exit
 * code is 1 otherwise.
 */
#include "tt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PASSES 64

typedef struct {
  const char *input, *output, *pipeline;
  const char *passes[MAX_PASSES], *passOpts[MAX_PASSES], *passFlags[MAX_PASSES];
  int npasses;
  bool split, verifyDiags, printAfterAll, timing, generic, noVerifyEach;
  int debugInfo; /* --mlir-print-debuginfo: 1 given, -1 given =false, 0 not given (on) */
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
          "  --mlir-print-ir-after-all  print the IR after every pass (to stderr; with\n"
          "                             locations only when --mlir-print-debuginfo is given)\n"
          "  --mlir-timing              print pass timings (to stderr)\n"
          "  --no-verify-each           do not run the verifier after every pass\n"
          "  --show-dialects            list the dialects tt loads\n"
          "  --list-passes              list tt's passes with their options\n"
          "  -h, --help                 this text (and the pass list)\n"
          "\n"
          "Any upstream MLIR pass also works as a flag (--canonicalize, --cse, ...); a flag\n"
          "that names no pass is an unknown option.\n"
          "Exit code: 0 on success, 1 on any error.\n\n");
}

static void listPasses(FILE *f) {
  int n;
  const TtPassInfo *p = ttPasses(&n);
  fprintf(f, "tt passes:\n");
  for (int i = 0; i < n; i++) {
    fprintf(f, "  --%-22s %s\n", p[i].name, p[i].summary);
    for (int k = 0; k < p[i].nOptions; k++) { /* a word option shows its words */
      const TtPassOption *o = &p[i].options[k];
      char value[96] = "<int>";
      if (o->choices) {
        size_t used = (size_t)snprintf(value, sizeof value, "<");
        for (int c = 0; o->choices[c] && used < sizeof value; c++)
          used += (size_t)snprintf(value + used, sizeof value - used, "%s%s", c ? "|" : "",
                                   o->choices[c]);
        if (used < sizeof value)
          snprintf(value + used, sizeof value - used, ">");
      }
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

/* Returns 0 to go on, or an exit code when the flags are done (help) or wrong (1). */
static int parseArgs(int argc, char **argv, Options *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-o") == 0) {
      if (++i == argc) {
        fprintf(stderr, "tt-opt: error: -o needs a file name\n");
        return 1;
      }
      o->output = argv[i];
    } else if (strncmp(a, "-o", 2) == 0 && a[2]) {
      o->output = a + 2;
    } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      listPasses(stdout);
      return -1;
    } else if (strcmp(a, "--list-passes") == 0) {
      listPasses(stdout);
      return -1;
    } else if (strcmp(a, "--show-dialects") == 0) {
      showDialects();
      return -1;
    } else if (strncmp(a, "--pass-pipeline=", 16) == 0) {
      o->pipeline = a + 16;
    } else if (strcmp(a, "--split-input-file") == 0) {
      o->split = true;
    } else if (strcmp(a, "--verify-diagnostics") == 0) {
      o->verifyDiags = true;
    } else if (strcmp(a, "--mlir-print-ir-after-all") == 0) {
      o->printAfterAll = true;
    } else if (strcmp(a, "--mlir-print-debuginfo") == 0 ||
               strcmp(a, "--mlir-print-debuginfo=true") == 0 ||
               strcmp(a, "--mlir-print-debuginfo=1") == 0) {
      o->debugInfo = 1;
    } else if (strcmp(a, "--mlir-print-debuginfo=false") == 0 ||
               strcmp(a, "--mlir-print-debuginfo=0") == 0) {
      o->debugInfo = -1;
    } else if (strncmp(a, "--mlir-print-debuginfo=", 23) == 0) {
      fprintf(stderr, "tt-opt: error: '%s': expected true or false\n", a);
      return 1;
    } else if (strcmp(a, "--mlir-timing") == 0) {
      o->timing = true;
    } else if (strcmp(a, "--no-verify-each") == 0 || strcmp(a, "--verify-each=0") == 0 ||
               strcmp(a, "--verify-each=false") == 0) {
      o->noVerifyEach = true;
    } else if (strcmp(a, "--verify-each") == 0) {
      o->noVerifyEach = false;
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

/* Builds the pass manager the options ask for; false after printing an error. */
static bool buildPasses(MlirPassManager pm, const Options *o) {
  mlirPassManagerEnableVerifier(pm, !o->noVerifyEach);
  if (o->printAfterAll) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    if (o->debugInfo > 0)
      mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
    mlirPassManagerEnableIRPrinting(pm, false, true, true, false, false, flags, ttStrRef(""));
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
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
  TtDiag *diag = ttDiagCreate(ctx, o->verifyDiags);
  bool ok = true;
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
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
    if (ok && !o->verifyDiags) {
      /* with locations unless =false: parseable (not MLIR's "pretty" form), with `#loc`
       * aliases printed after the module, as mlir-opt --mlir-print-debuginfo does */
      MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
      if (o->debugInfo >= 0)
        mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
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

static int toolMain(int argc, char **argv) {
  Options o = {0};
  int rc = parseArgs(argc, argv, &o);
  if (rc)
    return rc < 0 ? 0 : rc;
  if (!checkPassFlags(&o))
    return 1;
  TtStr src = {0};
  if (!ttReadFile(o.input, &src)) {
    fprintf(stderr, "tt-opt: error: cannot read '%s': %s\n", o.input, strerror(errno));
    return 1;
  }
  TtStr out = {0};
  const char *name = strcmp(o.input, "-") == 0 ? "<stdin>" : o.input;
  bool ok = processFile(&o, name, src.data ? src.data : "", &out);
  const char *dest = o.output ? o.output : "-"; /* a failed write (a full disk) fails too */
  if (ok && !ttWriteFile(dest, out.data ? out.data : "", out.len)) {
    fprintf(stderr, "tt-opt: error: cannot write '%s': %s\n", dest, strerror(errno));
    ok = false;
  }
  for (int i = 0; i < o.npasses; i++)
    free((char *)o.passes[i]);
  ttStrDestroy(&src);
  ttStrDestroy(&out);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) { return ttMainOnBigStack(toolMain, argc, argv); }
