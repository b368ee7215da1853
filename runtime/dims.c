/* dims.c - symbolic sizes in the launch metadata (format 6): one file for
 * every size of a dimension that the program leaves open (docs/metadata.md,
 * "Symbolic sizes"); format 7 adds multiples of a symbol (`s0*8`: a dim that
 * merges a dynamic dim with static ones, after a reshape), bound through the
 * symbol (a multiple's size must divide by its factor).
 *
 * A tensor line may give a dimension as a symbol instead of an integer:
 * a name (`s0`; tt-translate names every dynamic dimension so, one name per
 * class of dimensions the program's rules make equal) or `?` (a symbol of
 * its own). Before anything needs sizes (buffers, grids, the reference),
 * the user binds each symbol to a size (ttrtMetaBindDim by tensor and
 * dimension, or ttrtMetaBindSymbol by name) and ttrtMetaResolve:
 *  1. checks that every symbol is bound;
 *  2. writes each tensor's `shape`: its declared dims, symbols replaced by
 *     their sizes, at most 2^63 elements;
 *  3. checks every prim line's shape rules again on these sizes (rules.h,
 *     as the parser did with the symbols open), and every `arg tma` matrix
 *     (its rows, when symbolic, are the tensor's numel / columns);
 *  4. evaluates every expression (grids, integer arguments, `when`), so a
 *     division by zero or an int64 overflow is an error naming its line
 *     before any GPU work (mpCheckExpressions; the parser runs it on a file
 *     without symbols).
 * A symbol takes one size: a second, different binding is an error (a new
 * ttrtMetaParse of the file gives it other sizes).
 */
#include "parse.h"
#include "rules.h"

#include <stdio.h>
#include <string.h>

int64_t mpSymbolDim(Parser *p, const char *token, size_t length) {
  TtrtMeta *m = p->meta;
  if (m->version < 6) {
    FAIL(p, "symbolic sizes need metadata version 6 (this file is version %d)",
         m->version);
    return 0;
  }
  bool anonymous = length == 1 && token[0] == '?';
  if (token[0] == '?' && !anonymous) {
    FAIL(p, "bad symbolic size '%.*s' (expected '?' or a name)", (int)length, token);
    return 0;
  }
  for (size_t i = 1; i < length && !anonymous; ++i) {
    char c = token[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      FAIL(p, "bad symbolic size '%.*s' (expected '?' or a name: a lowercase "
              "letter, then lowercase letters, digits or '_')",
           (int)length, token);
      return 0;
    }
  }
  if (length >= sizeof m->symbols[0].name) {
    FAIL(p, "symbolic size '%.*s' is longer than %zu characters", (int)length,
         token, sizeof m->symbols[0].name - 1);
    return 0;
  }
  for (int i = 0; i < m->numSymbols && !anonymous; ++i)
    if (strlen(m->symbols[i].name) == length &&
        memcmp(m->symbols[i].name, token, length) == 0)
      return -(int64_t)i - 1;
  if (m->numSymbols == TTRT_MAX_SYMBOLS) {
    FAIL(p, "more than %d symbolic sizes", TTRT_MAX_SYMBOLS);
    return 0;
  }
  TtrtSymbol *s = &m->symbols[m->numSymbols];
  memcpy(s->name, token, length);
  s->name[length] = '\0';
  s->value = 0;
  s->line = p->line;
  return -(int64_t)m->numSymbols++ - 1;
}

/* Binds symbol k to size, refusing a second, different size. */
static TtrtStatus bindSymbol(TtrtMeta *meta, int k, int64_t size,
                             TtrtError *err) {
  TtrtSymbol *s = &meta->symbols[k];
  if (size < 1)
    return ttrtErrorSet(err, 0, "size %lld for '%s' (sizes are >= 1)",
                        (long long)size, s->name);
  if (s->value && s->value != size)
    return ttrtErrorSet(err, 0, "'%s' is bound to %lld already, not %lld",
                        s->name, (long long)s->value, (long long)size);
  s->value = size;
  meta->resolved = false;
  return TTRT_SUCCESS;
}

TtrtStatus ttrtMetaBindDim(TtrtMeta *meta, int64_t id, int dim, int64_t size,
                           TtrtError *err) {
  int slot = ttrtMetaFindTensor(meta, id);
  if (slot < 0)
    return ttrtErrorSet(err, 0, "no tensor %%%lld", (long long)id);
  const TtrtTensor *t = &meta->tensors[slot];
  if (dim < 0 || dim >= t->declared.rank)
    return ttrtErrorSet(err, t->line, "tensor %%%lld has no dimension %d",
                        (long long)id, dim);
  int64_t d = t->declared.dims[dim], k = t->scale[dim] > 1 ? t->scale[dim] : 1;
  if (d > 0)
    return d == size ? TTRT_SUCCESS
                     : ttrtErrorSet(err, t->line,
                                    "dimension %d of %%%lld is %lld, not %lld",
                                    dim, (long long)id, (long long)d,
                                    (long long)size);
  if (size < 1)
    return ttrtErrorSet(err, t->line, "size %lld for dimension %d of %%%lld (sizes are >= 1)",
                        (long long)size, dim, (long long)id);
  if (size % k) /* a multiple of its symbol (format 7) */
    return ttrtErrorSet(err, t->line,
                        "dimension %d of %%%lld is %s*%lld: %lld is not a "
                        "multiple of %lld",
                        dim, (long long)id, meta->symbols[-d - 1].name,
                        (long long)k, (long long)size, (long long)k);
  return bindSymbol(meta, (int)(-d - 1), size / k, err);
}

void ttrtMetaClearBindings(TtrtMeta *meta) {
  for (int k = 0; k < meta->numSymbols; ++k)
    meta->symbols[k].value = 0;
  meta->resolved = meta->numSymbols == 0;
}

TtrtStatus ttrtMetaBindSymbol(TtrtMeta *meta, const char *name, int64_t size,
                              TtrtError *err) {
  for (int k = 0; k < meta->numSymbols; ++k)
    if (strcmp(meta->symbols[k].name, name) == 0)
      return bindSymbol(meta, k, size, err);
  return ttrtErrorSet(err, 0, "no symbolic size '%s' in this file", name);
}

/* The first tensor that uses symbol k, for messages. */
static const TtrtTensor *firstUser(const TtrtMeta *meta, int k, int *dim) {
  for (int i = 0; i < meta->numTensors; ++i)
    for (int d = 0; d < meta->tensors[i].declared.rank; ++d)
      if (meta->tensors[i].declared.dims[d] == -(int64_t)k - 1) {
        *dim = d;
        return &meta->tensors[i];
      }
  return NULL;
}

/* Step 3 for one prim line: its rules on the resolved shapes. */
static TtrtStatus recheckPrim(const TtrtMeta *meta, const TtrtPrim *prim,
                              TtrtError *err) {
  TtrtPrimTensor tensors[TTRT_MAX_OPERANDS + 1];
  char names[TTRT_MAX_OPERANDS + 1][24];
  for (int i = 0; i <= prim->numOperands; ++i) {
    const TtrtTensor *t =
        &meta->tensors[i < prim->numOperands ? prim->operands[i] : prim->result];
    snprintf(names[i], sizeof names[i], "%%%lld", (long long)t->id);
    tensors[i] = (TtrtPrimTensor){names[i], t->dtype, t->shape};
  }
  char msg[2048];
  if (!ttrtPrimCheck(prim, tensors, &tensors[prim->numOperands], NULL, false,
                     msg, sizeof msg))
    return ttrtErrorSet(err, prim->line, "at these sizes: %s", msg);
  return TTRT_SUCCESS;
}

/* Step 4 for one expression of line `line`: its value in [lo, hi]. */
static TtrtStatus checkExpr(const TtrtMeta *meta, int expr, int line,
                            const char *what, int64_t lo, int64_t hi,
                            TtrtError *err) {
  int64_t v;
  if (expr < 0)
    return TTRT_SUCCESS;
  if (ttrtExprEval(meta, expr, &v, err) != TTRT_SUCCESS) {
    if (err)
      err->line = line;
    return TTRT_FAILURE;
  }
  if (v >= lo && v <= hi)
    return TTRT_SUCCESS;
  char text[512];
  ttrtExprFormat(meta, expr, text, sizeof text);
  return ttrtErrorSet(err, line, "%s '%s' is %lld, outside [%lld, %lld]", what,
                      text, (long long)v, (long long)lo, (long long)hi);
}

TtrtStatus mpCheckExpressions(const TtrtMeta *meta, TtrtError *err) {
  for (int i = 0; i < meta->numLaunches; ++i) {
    const TtrtLaunch *l = &meta->launches[i];
    if (checkExpr(meta, l->when, l->line, "'when' expression", 0, INT64_MAX, err))
      return TTRT_FAILURE;
    int64_t w;
    if (l->when >= 0 && ttrtExprEval(meta, l->when, &w, NULL) == TTRT_SUCCESS &&
        (w < l->whenLo || w > l->whenHi))
      continue; /* does not run at these sizes: its grid and arguments need not fit */
    for (int k = 0; k < 3; ++k) /* CUDA's grid limits */
      if (checkExpr(meta, l->grid[k], l->line, "grid size", 1,
                    k == 0 ? INT32_MAX : 65535, err))
        return TTRT_FAILURE;
    for (int j = l->firstArg; j < l->firstArg + l->numArgs; ++j) {
      const TtrtArg *a = &meta->args[j];
      if ((a->kind == TTRT_ARG_I32 &&
           checkExpr(meta, a->expr, a->line, "i32 argument", 0, INT32_MAX, err)) ||
          (a->kind == TTRT_ARG_I64 &&
           checkExpr(meta, a->expr, a->line, "i64 argument", 0, INT64_MAX, err)))
        return TTRT_FAILURE;
    }
  }
  return TTRT_SUCCESS;
}

TtrtStatus ttrtMetaResolve(TtrtMeta *meta, TtrtError *err) {
  for (int k = 0; k < meta->numSymbols; ++k) { /* 1 */
    int dim = 0;
    const TtrtTensor *t = firstUser(meta, k, &dim);
    if (!meta->symbols[k].value)
      return ttrtErrorSet(err, t ? t->line : meta->symbols[k].line,
                          "the size '%s' (dimension %d of %%%lld) is not "
                          "given",
                          meta->symbols[k].name, dim,
                          t ? (long long)t->id : -1LL);
  }
  for (int i = 0; i < meta->numTensors; ++i) { /* 2 */
    TtrtTensor *t = &meta->tensors[i];
    int64_t numel = 1;
    for (int d = 0; d < t->declared.rank; ++d) {
      int64_t v = t->declared.dims[d], k = t->scale[d] > 1 ? t->scale[d] : 1;
      if (v < 0)
        v = meta->symbols[-v - 1].value;
      if (v > INT64_MAX / k)
        return ttrtErrorSet(err, t->line,
                            "tensor %%%lld has more than 2^63 elements at "
                            "these sizes",
                            (long long)t->id);
      v *= k; /* a multiple of its symbol (format 7) */
      if (v > INT64_MAX / numel)
        return ttrtErrorSet(err, t->line,
                            "tensor %%%lld has more than 2^63 elements at "
                            "these sizes",
                            (long long)t->id);
      numel *= v;
      t->shape.dims[d] = v;
    }
    t->shape.rank = t->declared.rank;
  }
  meta->resolved = true;
  for (int i = 0; i < meta->numPrims; ++i) /* 3 */
    if (recheckPrim(meta, &meta->prims[i], err)) {
      meta->resolved = false;
      return TTRT_FAILURE;
    }
  for (int i = 0; i < meta->numArgs; ++i) {
    const TtrtArg *a = &meta->args[i];
    if (a->kind != TTRT_ARG_TMA)
      continue;
    int64_t numel = ttrtShapeGetNumel(&meta->tensors[a->tensor].shape);
    if (a->tmaBatch)
      continue; /* a batched map: of a static tensor, checked when parsed */
    int64_t rows = a->tmaDims[0] > 0 ? a->tmaDims[0] : numel / a->tmaDims[1];
    if (rows < 1 || rows > INT32_MAX || rows * a->tmaDims[1] != numel) {
      meta->resolved = false;
      return ttrtErrorSet(err, a->line,
                          "'arg tma' matrix of %lld columns does not hold the "
                          "%lld elements of the tensor in whole rows (at most "
                          "2^31 - 1)",
                          (long long)a->tmaDims[1], (long long)numel);
    }
  }
  if (mpCheckExpressions(meta, err)) { /* 4 */
    meta->resolved = false;
    return TTRT_FAILURE;
  }
  return TTRT_SUCCESS;
}

void ttrtMetaFormatShape(const TtrtMeta *meta, const TtrtShape *declared,
                         char *buf, size_t size) {
  ttrtMetaFormatScaledShape(meta, declared, NULL, buf, size);
}

void ttrtMetaFormatScaledShape(const TtrtMeta *meta, const TtrtShape *declared,
                               const int64_t *scale, char *buf, size_t size) {
  if (declared->rank == 0) {
    snprintf(buf, size, "scalar");
    return;
  }
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < declared->rank && used < size; ++i) {
    int64_t d = declared->dims[i];
    int n = d > 0 || !meta ? snprintf(buf + used, size - used, "%s%lld", i ? "x" : "",
                                      (long long)d)
            : scale && scale[i] > 1
                ? snprintf(buf + used, size - used, "%s%s*%lld", i ? "x" : "",
                           meta->symbols[-d - 1].name, (long long)scale[i])
                : snprintf(buf + used, size - used, "%s%s", i ? "x" : "",
                           meta->symbols[-d - 1].name);
    if (n < 0)
      return;
    used += (size_t)n;
  }
}
