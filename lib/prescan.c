/* prescan.c - a lexical pass over a program's text before MLIR parses it, refusing the
 * inputs that crash MLIR's own parser (docs/known-issues.md has each reproducer):
 *   - nesting deeper than TT_MAX_NESTING brackets: the parser recurses once per level and
 *     overflows the stack (an attribute nested 20,000 deep: SEGV);
 *   - a dense array of `index` elements (`array<index: 1>`) or of an aliased type
 *     (`array<!t: 1>`, which may name index): the parser asks index for a bit width (SEGV).
 * Algorithm: one left-to-right scan keeping the line and column, skipping string literals
 * (with their escapes) and `//` comments; `(`, `[`, `{`, `<` open a level and `)`, `]`,
 * `}`, `>` close one (`->` is an arrow, not a bracket). The first offence is reported at
 * its line and column through MLIR's diagnostics (so --verify-diagnostics sees it), and
 * the scan stops. Anything it lets through is for MLIR's parser to accept or reject.
 */
#include "tt.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Deep enough for any real program (types nest a handful of levels), shallow enough for
 * MLIR's recursive parser on an 8 MiB stack, with sanitizers. */
#define TT_MAX_NESTING 256

static void report(MlirContext ctx, const char *name, int line, int col, const char *msg) {
  MlirLocation loc = mlirLocationFileLineColGet(ctx, ttStrRef(name), (unsigned)line, (unsigned)col);
  mlirEmitError(loc, msg);
}

/* Whether p starts `array<` followed by index or a type alias (spaces allowed). */
static bool badDenseArray(const char *p) {
  if (strncmp(p, "array<", 6) != 0)
    return false;
  p += 6;
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
    p++;
  if (*p == '!')
    return true;
  return strncmp(p, "index", 5) == 0 && !isalnum((unsigned char)p[5]) && p[5] != '_';
}

bool ttPrescan(MlirContext ctx, const char *source, const char *name) {
  int line = 1, col = 1, depth = 0;
  for (const char *p = source; *p; p++, col++) {
    char c = *p;
    if (c == '\n') {
      line++;
      col = 0;
    } else if (c == '"') { /* a string literal: skip to its closing quote */
      for (p++, col++; *p && *p != '"' && *p != '\n'; p++, col++)
        if (*p == '\\' && p[1] && p[1] != '\n') {
          p++;
          col++;
        }
      if (*p != '"')
        return true; /* unterminated: MLIR's lexer says so */
    } else if (c == '/' && p[1] == '/') {
      while (p[1] && p[1] != '\n')
        p++;
    } else if (c == '-' && p[1] == '>') {
      p++;
      col++;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > TT_MAX_NESTING) {
        char msg[128];
        snprintf(msg, sizeof msg, "brackets nest more than %d deep (MLIR's parser would "
                                  "overflow its stack)", TT_MAX_NESTING);
        report(ctx, name, line, col, msg);
        return false;
      }
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      depth = depth > 0 ? depth - 1 : 0;
    } else if (c == 'a' && (p == source || !isalnum((unsigned char)p[-1])) && badDenseArray(p)) {
      report(ctx, name, line, col, "a dense array's elements must be an integer or float "
                                   "type written out (MLIR's parser crashes on index and "
                                   "does not check an alias)");
      return false;
    }
  }
  return true;
}
