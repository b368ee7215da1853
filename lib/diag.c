/* diag.c - diagnostics as `file:line:col: error: message`, and --verify-diagnostics.
 *
 * A TtDiag attaches one handler to a context. In print mode every diagnostic (and its
 * notes) goes to stderr at once, in the form compilers and editors understand. In verify
 * mode diagnostics are recorded and later matched against `expected-error {{...}}` annotations, the way
 * mlir-opt's --verify-diagnostics does (LLVM 22's C API has no such verifier).
 */
#include "tt.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  MlirDiagnosticSeverity sev;
  char *file;
  int line, col;
  char *msg;
  bool matched;
} Recorded;

struct TtDiag {
  MlirContext ctx;
  MlirDiagnosticHandlerID id;
  bool verify;
  int errors;
  Recorded *recs;
  int nrecs, caprecs;
};

static const char *severityName(MlirDiagnosticSeverity s) {
  switch (s) {
  case MlirDiagnosticError:
    return "error";
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  }
  return "error";
}

/* Finds the file/line/col inside a location, looking through name, call-site and fused
 * locations. Returns false for unknown locations. */
static bool locationFileLineCol(MlirLocation loc, MlirStringRef *file, int *line,
                                int *col) {
  for (int depth = 0; depth < 16; depth++) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
      *line = mlirLocationFileLineColRangeGetStartLine(loc);
      *col = mlirLocationFileLineColRangeGetStartColumn(loc);
      return true;
    }
    if (mlirLocationIsAName(loc))
      loc = mlirLocationNameGetChildLoc(loc);
    else if (mlirLocationIsACallSite(loc))
      loc = mlirLocationCallSiteGetCallee(loc);
    else if (mlirLocationIsAFused(loc) && mlirLocationFusedGetNumLocations(loc) > 0) {
      MlirLocation first[1];
      if (mlirLocationFusedGetNumLocations(loc) != 1) {
        intptr_t n = mlirLocationFusedGetNumLocations(loc);
        MlirLocation *all = ttAlloc(sizeof(MlirLocation) * (size_t)n);
        mlirLocationFusedGetLocations(loc, all);
        first[0] = all[0];
        free(all);
      } else {
        mlirLocationFusedGetLocations(loc, first);
      }
      loc = first[0];
    } else
      return false;
  }
  return false;
}

void ttLocationFormat(MlirLocation loc, TtStr *out) {
  MlirStringRef file;
  int line, col;
  if (locationFileLineCol(loc, &file, &line, &col))
    ttStrAppendf(out, "%.*s:%d:%d", (int)file.length, file.data, line, col);
  else
    ttStrAppend(out, "<unknown>", 9);
}

static void record(TtDiag *d, MlirDiagnostic diag) {
  MlirStringRef file = {"", 0};
  int line = 0, col = 0;
  locationFileLineCol(mlirDiagnosticGetLocation(diag), &file, &line, &col);
  TtStr msg = {0};
  mlirDiagnosticPrint(diag, ttStrCallback, &msg);
  ttStrAppend(&msg, "", 0);
  MlirDiagnosticSeverity sev = mlirDiagnosticGetSeverity(diag);
  /* MLIR attaches the failing op to verifier errors; mlir-opt leaves it out when
   * verifying diagnostics, and so do we. */
  if (sev == MlirDiagnosticNote && strncmp(msg.data, "see current operation", 21) == 0) {
    ttStrDestroy(&msg);
    return;
  }
  if (d->nrecs == d->caprecs) {
    d->caprecs = d->caprecs ? 2 * d->caprecs : 16;
    d->recs = ttRealloc(d->recs, sizeof(Recorded) * (size_t)d->caprecs);
  }
  Recorded *r = &d->recs[d->nrecs++];
  r->sev = sev;
  r->file = ttAlloc(file.length + 1);
  memcpy(r->file, file.data, file.length);
  r->line = line;
  r->col = col;
  r->msg = msg.data;
  r->matched = false;
}

static void printOne(MlirDiagnostic diag) {
  TtStr s = {0};
  ttLocationFormat(mlirDiagnosticGetLocation(diag), &s);
  ttStrAppendf(&s, ": %s: ", severityName(mlirDiagnosticGetSeverity(diag)));
  mlirDiagnosticPrint(diag, ttStrCallback, &s);
  fprintf(stderr, "%s\n", s.data);
  ttStrDestroy(&s);
}

static MlirLogicalResult handle(MlirDiagnostic diag, void *userData) {
  TtDiag *d = userData;
  if (mlirDiagnosticGetSeverity(diag) == MlirDiagnosticError)
    d->errors++;
  intptr_t nnotes = mlirDiagnosticGetNumNotes(diag);
  if (d->verify) {
    record(d, diag);
    for (intptr_t i = 0; i < nnotes; i++)
      record(d, mlirDiagnosticGetNote(diag, i));
  } else {
    printOne(diag);
    for (intptr_t i = 0; i < nnotes; i++)
      printOne(mlirDiagnosticGetNote(diag, i));
  }
  return mlirLogicalResultSuccess();
}

TtDiag *ttDiagCreate(MlirContext ctx, bool verify) {
  TtDiag *d = ttAlloc(sizeof *d);
  d->ctx = ctx;
  d->verify = verify;
  d->id = mlirContextAttachDiagnosticHandler(ctx, handle, d, NULL);
  return d;
}

void ttDiagDestroy(TtDiag *d) {
  if (!d)
    return;
  mlirContextDetachDiagnosticHandler(d->ctx, d->id);
  for (int i = 0; i < d->nrecs; i++) {
    free(d->recs[i].file);
    free(d->recs[i].msg);
  }
  free(d->recs);
  free(d);
}

int ttDiagErrorCount(const TtDiag *d) { return d->errors; }

void ttDiagParseFailed(TtDiag *d, MlirContext ctx, const char *text, const char *name) {
  if (d->errors > 0)
    return;
  /* MLIR's parser fails without a word on an IRDL op written in custom form
   * (`%y = prim.neg %x`): IRDL ops have only the generic form. Point at the first one. */
  static const char *const prefixes[] = {"prim.", "tile.", "hopper."};
  int line = 1, col = 1, bestLine = 1, bestCol = 1;
  bool found = false;
  for (const char *p = text; *p && !found; p++) {
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0] && !found; i++) {
      size_t n = strlen(prefixes[i]);
      bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' ||
                                  p[-1] == '"' || p[-1] == '.' || p[-1] == '!' || p[-1] == '@');
      if (start && strncmp(p, prefixes[i], n) == 0 && isalpha((unsigned char)p[n])) {
        found = true;
        bestLine = line;
        bestCol = col;
      }
    }
    if (*p == '/' && p[1] == '/') { /* skip comments */
      while (*p && *p != '\n')
        p++;
      if (!*p)
        break;
    }
    if (*p == '\n') {
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  MlirLocation loc = mlirLocationFileLineColGet(ctx, ttStrRef(name), (unsigned)bestLine,
                                                (unsigned)bestCol);
  if (found)
    mlirEmitError(loc, "custom op syntax is not supported for tt's IRDL dialects; write the "
                       "op in generic form, e.g. %y = \"prim.neg\"(%x) : (tensor<4xf32>) -> "
                       "tensor<4xf32>");
  else
    mlirEmitError(loc, "the input does not parse");
}

/* One `expected-KIND[@LOC] {{TEXT}}` annotation. */
typedef struct {
  MlirDiagnosticSeverity sev;
  int line;
  char text[512];
  int srcLine;
} Expected;

/* Parses the annotation starting at p (just after "expected-") on source line `line`;
 * returns false when it is malformed (reported by the caller). */
static bool parseExpected(const char *p, int line, Expected *e) {
  static const struct {
    const char *kw;
    MlirDiagnosticSeverity sev;
  } kinds[] = {{"error", MlirDiagnosticError},
               {"warning", MlirDiagnosticWarning},
               {"note", MlirDiagnosticNote},
               {"remark", MlirDiagnosticRemark}};
  size_t k;
  for (k = 0; k < 4; k++)
    if (strncmp(p, kinds[k].kw, strlen(kinds[k].kw)) == 0)
      break;
  if (k == 4)
    return false;
  e->sev = kinds[k].sev;
  p += strlen(kinds[k].kw);
  e->line = e->srcLine = line;
  if (*p == '@') {
    p++;
    if (strncmp(p, "above", 5) == 0) {
      e->line = line - 1;
      p += 5;
    } else if (strncmp(p, "below", 5) == 0) {
      e->line = line + 1;
      p += 5;
    } else if (*p == '+' || *p == '-') {
      char *end;
      long off = strtol(p, &end, 10);
      if (end == p + 1)
        return false;
      e->line = line + (int)off;
      p = end;
    } else
      return false;
  }
  while (*p == ' ')
    p++;
  if (strncmp(p, "{{", 2) != 0)
    return false;
  p += 2;
  const char *end = strstr(p, "}}");
  const char *nl = strchr(p, '\n');
  if (!end || (nl && nl < end) || (size_t)(end - p) >= sizeof e->text)
    return false;
  memcpy(e->text, p, (size_t)(end - p));
  e->text[end - p] = 0;
  return true;
}

bool ttDiagVerify(TtDiag *d, const char *filename, const char *source) {
  bool ok = true;
  int line = 1;
  for (const char *p = source; *p; p++) {
    if (*p == '\n') {
      line++;
      continue;
    }
    if (strncmp(p, "expected-", 9) != 0)
      continue;
    Expected e;
    if (!parseExpected(p + 9, line, &e)) {
      fprintf(stderr, "%s:%d: error: malformed expected-* annotation\n", filename, line);
      ok = false;
      continue;
    }
    bool found = false;
    for (int i = 0; i < d->nrecs && !found; i++) {
      Recorded *r = &d->recs[i];
      if (!r->matched && r->sev == e.sev && r->line == e.line &&
          strstr(r->msg, e.text)) {
        r->matched = found = true;
      }
    }
    if (!found) {
      fprintf(stderr, "%s:%d: error: expected %s \"%s\" was not produced\n", filename,
              e.srcLine, severityName(e.sev), e.text);
      ok = false;
    }
  }
  for (int i = 0; i < d->nrecs; i++) {
    Recorded *r = &d->recs[i];
    if (!r->matched) {
      fprintf(stderr, "%s:%d:%d: error: unexpected %s: %s\n",
              r->file[0] ? r->file : filename, r->line, r->col, severityName(r->sev),
              r->msg);
      ok = false;
    }
  }
  return ok;
}

void ttEmitError(MlirOperation op, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), buf);
}

void ttEmitRemark(MlirOperation op, const char *fmt, ...) {
  TtStr at = {0};
  ttLocationFormat(mlirOperationGetLocation(op), &at);
  fprintf(stderr, "%s: remark: ", at.data ? at.data : "?");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  ttStrDestroy(&at);
}
