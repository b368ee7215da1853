/* parse.h - the private header of the metadata parser (meta.h's
 * ttrtMetaParse), split by what each part reads:
 *   meta.c    the file: its line kinds in their order, the tt-meta, tensor,
 *             launch, arg and zero lines, the tensor id map, the whole-file
 *             checks, ttrtMetaDestroy and ttrtMetaPrint
 *   prim.c    prim lines: operands and attributes, checked by the op
 *             table and rules of rules.h (shared with the compiler)
 *   expr.c    the expression language of grid sizes and integer arguments
 *             (`cdiv(numel(%1),128)`): parser, evaluator, formatter
 *   dims.c    symbolic sizes (format 6): their names on tensor lines, and
 *             binding them to sizes (ttrtMetaBindDim, ttrtMetaResolve)
 *   common.c  errors and shapes (meta.h), and the lexical and text helpers
 *             below
 * One Parser walks the lines; every part appends to the TtrtMeta it builds
 * and reports errors on its current line (FAIL). Functions shared between
 * these files carry the prefix `mp`; each file's own helpers stay static.
 */
#ifndef TT_RUNTIME_PARSE_H
#define TT_RUNTIME_PARSE_H

#include "meta.h"

/* Most tokens on one metadata line. */
#define MAX_TOKENS 64

/* The order the line kinds must come in. */
typedef enum Phase {
  PHASE_NONE,
  PHASE_META,
  PHASE_TENSOR,
  PHASE_PRIM,
  PHASE_LAUNCH
} Phase;

/* The state of one ttrtMetaParse: the TtrtMeta it builds, where errors go,
 * the current line and its tokens, and the capacity of each TtrtMeta array. */
typedef struct Parser {
  TtrtMeta *meta;
  TtrtError *err;
  int line;
  Phase phase;
  const char *phaseKind; /* line kind that set the phase */
  int *definedAt;        /* per slot: line of its definition, 0 if none */
  int capTensors, capPrims, capLaunches, capArgs, capZeros, capExprs;
  int pendingZeros; /* zero lines since the last launch line */
  int numTokens;
  char *tokens[MAX_TOKENS];
} Parser;

/* Reports an error on the current line. */
#define FAIL(p, ...) ttrtErrorSet((p)->err, (p)->line, __VA_ARGS__)

/* Appends one zeroed element to the TtrtMeta array `field` (of `count`
 * elements; Parser.cap its capacity); returns its index or -1. */
#define APPEND(p, field, count, cap)                                           \
  mpAppend((p), (void **)&(p)->meta->field, &(p)->meta->count, &(p)->cap,      \
           sizeof *(p)->meta->field)

/* A bounded string builder for formatting. */
typedef struct Buf {
  char *data;
  size_t size;
  size_t used;
} Buf;

/*===------------------------------------------------------------------===*
 * common.c: lexical and text helpers
 *===------------------------------------------------------------------===*/

/* Parses a non-empty run of decimal digits with value <= max. */
bool mpParseUnsigned(const char *s, size_t length, int64_t max, int64_t *out);

/* Parses a whole token as a decimal integer in [0, max]. */
bool mpParseUnsignedToken(const char *token, int64_t max, int64_t *out);

/* Parses `%N` (the first `length` chars of s) into N. */
bool mpParseId(const char *s, size_t length, int64_t *out);

/* Parses a whole token as a float (decimal, inf, -inf, nan). */
bool mpParseDouble(const char *token, double *out);

/* Index of `name` in a table of `count` names, or -1. */
int mpLookupName(const char *const *names, int count, const char *name);

/* Appends formatted text, truncating at the end of the buffer. */
void mpBufPrintf(Buf *b, const char *fmt, ...) TTRT_PRINTF(2, 3);

/*===------------------------------------------------------------------===*
 * meta.c: the parser's state
 *===------------------------------------------------------------------===*/

/* What APPEND calls: grows *array (of *count elements of `size` bytes,
 * capacity *cap) by one zeroed element; returns its index, or -1 after
 * reporting that memory ran out. */
int mpAppend(Parser *p, void **array, int *count, int *cap, size_t size);

/* Resolves a `%N` token to the slot of its tensor line. */
TtrtStatus mpResolveId(Parser *p, const char *token, int *slot);

/* Marks the inputs defined; called once, at the first line after tensors. */
TtrtStatus mpStartDefinitions(Parser *p);

/*===------------------------------------------------------------------===*
 * dims.c: symbolic sizes
 *===------------------------------------------------------------------===*/

/* The symbol of a dimension token of `length` chars: `?` (a new symbol) or
 * a name (a letter, then letters, digits or '_'; the same name is one
 * symbol). Returns the dimension's encoding, -(index + 1), or 0 after
 * reporting what is wrong (not a name, too long, too many symbols, a file
 * older than version 6). */
int64_t mpSymbolDim(Parser *p, const char *token, size_t length);

/* Evaluates every grid, argument and `when` expression at the resolved
 * sizes; fails naming the line of the first that divides by zero or
 * overflows int64. */
TtrtStatus mpCheckExpressions(const TtrtMeta *meta, TtrtError *err);

/*===------------------------------------------------------------------===*
 * prim.c: prim lines
 *===------------------------------------------------------------------===*/

/* prim ID = OP OPERAND... [KEY=VALUE]... */
TtrtStatus mpParsePrimLine(Parser *p);

/* Appends the attributes of `prim` as its prim line spells them, each after
 * a space (" dims=1,0 keepdim=1"; nothing for an op without attributes). */
void mpFormatAttributes(const TtrtPrim *prim, Buf *b);

/*===------------------------------------------------------------------===*
 * expr.c: expressions
 *===------------------------------------------------------------------===*/

/* Parses a whole token as an expression into meta->exprs; returns the root
 * node or -1 (the error reported). */
int mpParseExpression(Parser *p, const char *token);

#endif /* TT_RUNTIME_PARSE_H */
