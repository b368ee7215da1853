/* prim.c - the classification of prim ops that --fuse, --tile and tt-translate share.
 *
 * One table says which category each prim op is in; passes switch on the category instead
 * of on op names, so a new elementwise op needs one line here and its lowering. A
 * reduction is classified by its dims: over the last dim only (a row reduction), over one
 * contiguous run of dims ending before the last (a column reduction: the operand viewed
 * as [outer, R, inner]), or neither (--decompose splits it into runs). A transpose is
 * classified by whether it moves the last dim (a *permute*: its own kernel through shared
 * memory) or keeps it (a *row copy*: each output row is a contiguous input row, a load at
 * mapped offsets in an elementwise kernel).
 */
#include "tt.h"

#include <math.h>

#include <string.h>

static const struct {
  const char *name;
  TtPrimKind kind;
} table[] = {
    {"neg", TT_PRIM_UNARY},          {"abs", TT_PRIM_UNARY},
    {"exp", TT_PRIM_UNARY},          {"exp2", TT_PRIM_UNARY},
    {"log", TT_PRIM_UNARY},          {"sqrt", TT_PRIM_UNARY},
    {"rsqrt", TT_PRIM_UNARY},        {"tanh", TT_PRIM_UNARY},
    {"erf", TT_PRIM_UNARY},          {"sin", TT_PRIM_UNARY},
    {"cos", TT_PRIM_UNARY},          {"reciprocal", TT_PRIM_UNARY},
    {"add", TT_PRIM_BINARY},         {"sub", TT_PRIM_BINARY},
    {"mul", TT_PRIM_BINARY},         {"div", TT_PRIM_BINARY},
    {"max", TT_PRIM_BINARY},         {"min", TT_PRIM_BINARY},
    {"pow", TT_PRIM_BINARY},         {"compare", TT_PRIM_COMPARE},
    {"where", TT_PRIM_WHERE},        {"convert", TT_PRIM_CONVERT},
    {"broadcast_in_dim", TT_PRIM_BROADCAST}, {"reshape", TT_PRIM_RESHAPE},
    {"full", TT_PRIM_CONSTANT},      {"constant", TT_PRIM_CONSTANT},
    {"sum", TT_PRIM_REDUCTION},      {"amax", TT_PRIM_REDUCTION},
    {"amin", TT_PRIM_REDUCTION},     {"matmul", TT_PRIM_MATMUL},
    {"argmax", TT_PRIM_ARGREDUCE},   {"argmin", TT_PRIM_ARGREDUCE},
    {"transpose", TT_PRIM_TRANSPOSE}, {"slice", TT_PRIM_SLICE},
    {"concat", TT_PRIM_CONCAT},      {"index_select", TT_PRIM_INDEX},
    {"gather", TT_PRIM_INDEX},       {"iota", TT_PRIM_IOTA},
    {"pad", TT_PRIM_PAD},
    {"linear", TT_PRIM_COMPOSITE},   {"softmax", TT_PRIM_COMPOSITE},
    {"log_softmax", TT_PRIM_COMPOSITE}, {"layer_norm", TT_PRIM_COMPOSITE},
    {"rms_norm", TT_PRIM_COMPOSITE}, {"gelu", TT_PRIM_COMPOSITE},
    {"silu", TT_PRIM_COMPOSITE},     {"sigmoid", TT_PRIM_COMPOSITE},
    {"swiglu", TT_PRIM_COMPOSITE},   {"mean", TT_PRIM_COMPOSITE},
    {"var", TT_PRIM_COMPOSITE},      {"std", TT_PRIM_COMPOSITE},
    {"relu", TT_PRIM_COMPOSITE},     {"clamp", TT_PRIM_COMPOSITE},
};

const char *ttPrimShortName(MlirOperation op, char *buf, size_t n) {
  char full[64];
  ttOpName(op, full, sizeof full);
  const char *s = strncmp(full, "prim.", 5) == 0 ? full + 5 : full;
  size_t k = strlen(s) < n - 1 ? strlen(s) : n - 1;
  memcpy(buf, s, k);
  buf[k] = 0;
  return buf;
}

TtPrimKind ttPrimKind(MlirOperation op) {
  if (!ttOpHasPrefix(op, "prim."))
    return TT_PRIM_OTHER;
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(table[i].name, name) == 0)
      return table[i].kind;
  return TT_PRIM_OTHER;
}

bool ttPrimIsElementwise(TtPrimKind k) {
  return k == TT_PRIM_UNARY || k == TT_PRIM_BINARY || k == TT_PRIM_COMPARE ||
         k == TT_PRIM_WHERE || k == TT_PRIM_CONVERT || k == TT_PRIM_BROADCAST ||
         k == TT_PRIM_RESHAPE || k == TT_PRIM_CONSTANT || k == TT_PRIM_SLICE ||
         k == TT_PRIM_CONCAT || k == TT_PRIM_INDEX || k == TT_PRIM_IOTA || k == TT_PRIM_PAD;
}

bool ttPrimIsRowArgReduction(MlirOperation op) {
  if (ttPrimKind(op) != TT_PRIM_ARGREDUCE || mlirOperationGetNumOperands(op) != 1)
    return false;
  MlirAttribute d = ttOpAttr(op, "dim");
  int64_t shape[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), shape);
  if (r < 1 || r > TT_MAX_RANK || mlirAttributeIsNull(d) || !mlirAttributeIsAInteger(d))
    return false;
  int64_t v = mlirIntegerAttrGetValueInt(d);
  return v == r - 1 || v == -1;
}

bool ttPrimIsRowReduction(MlirOperation op) {
  if (ttPrimIsRowArgReduction(op))
    return true;
  if (ttPrimKind(op) != TT_PRIM_REDUCTION || mlirOperationGetNumOperands(op) != 1)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirAttribute dims = ttOpAttr(op, "dims");
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape);
  if (r < 1 || r > TT_MAX_RANK || mlirAttributeIsNull(dims) ||
      !mlirAttributeIsADenseI64Array(dims) || mlirDenseArrayGetNumElements(dims) != 1)
    return false;
  int64_t d = mlirDenseI64ArrayGetElement(dims, 0);
  return d == r - 1 || d == -1;
}

bool ttPrimReductionRun(MlirOperation op, int64_t *outer, int64_t *red, int64_t *inner,
                        int64_t *first, int64_t *last) {
  if (ttPrimKind(op) != TT_PRIM_REDUCTION || mlirOperationGetNumOperands(op) != 1)
    return false;
  MlirAttribute dims = ttOpAttr(op, "dims");
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)),
                                                shape);
  if (r < 1 || r > TT_MAX_RANK || mlirAttributeIsNull(dims) ||
      !mlirAttributeIsADenseI64Array(dims))
    return false;
  intptr_t n = mlirDenseArrayGetNumElements(dims);
  bool in[TT_MAX_RANK] = {false};
  for (intptr_t i = 0; i < n; i++) {
    int64_t d = mlirDenseI64ArrayGetElement(dims, i);
    d = d < 0 ? d + r : d;
    if (d < 0 || d >= r || in[d])
      return false;
    in[d] = true;
  }
  int64_t lo = 0;
  while (lo < r && !in[lo])
    lo++;
  int64_t hi = lo;
  while (hi + 1 < r && in[hi + 1])
    hi++;
  if (n == 0 || hi - lo + 1 != n)
    return false;
  int64_t o = 1, m = 1, k = 1; /* -1 once a dim of the part is dynamic */
  for (int64_t d = 0; d < r; d++) {
    int64_t *part = d < lo ? &o : d <= hi ? &m : &k;
    *part = *part < 0 || shape[d] < 0 ? -1 : *part * shape[d];
  }
  if (outer)
    *outer = o;
  if (red)
    *red = m;
  if (inner)
    *inner = k;
  if (first)
    *first = lo;
  if (last)
    *last = hi;
  return true;
}

bool ttPrimIsColumnReduction(MlirOperation op) {
  int64_t shape[TT_MAX_RANK], last;
  if (!ttPrimReductionRun(op, NULL, NULL, NULL, NULL, &last))
    return false;
  return last < ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), shape) - 1;
}

int64_t ttPrimPermutation(MlirOperation op, int64_t *perm) {
  if (ttPrimKind(op) != TT_PRIM_TRANSPOSE || mlirOperationGetNumOperands(op) != 1)
    return -1;
  MlirAttribute p = ttOpAttr(op, "permutation");
  int64_t shape[TT_MAX_RANK];
  int64_t r = ttTensorShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), shape);
  if (r < 1 || r > TT_MAX_RANK || mlirAttributeIsNull(p) || !mlirAttributeIsADenseI64Array(p) ||
      mlirDenseArrayGetNumElements(p) != r)
    return -1;
  bool seen[TT_MAX_RANK] = {false};
  for (int64_t i = 0; i < r; i++) {
    perm[i] = mlirDenseI64ArrayGetElement(p, i);
    if (perm[i] < 0 || perm[i] >= r || seen[perm[i]])
      return -1;
    seen[perm[i]] = true;
  }
  return r;
}

bool ttPrimIsPermute(MlirOperation op) {
  int64_t perm[TT_MAX_RANK], r = ttPrimPermutation(op, perm);
  return r > 0 && perm[r - 1] != r - 1;
}

bool ttPrimIsRowCopy(MlirOperation op) {
  int64_t perm[TT_MAX_RANK], r = ttPrimPermutation(op, perm);
  return r > 0 && perm[r - 1] == r - 1;
}

bool ttPrimIsKPad(MlirOperation op) {
  if (ttPrimKind(op) != TT_PRIM_PAD || mlirOperationGetNumOperands(op) != 1)
    return false;
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  int64_t xs[TT_MAX_RANK], r = ttTensorShape(xt, xs);
  MlirType elem = ttElementType(xt);
  MlirAttribute low = ttOpAttr(op, "low"), high = ttOpAttr(op, "high");
  double v;
  if (r < 2 || r > 3 || xs[r - 1] <= 0 || !(ttTypeIsHalf(elem) || ttTypeIsFp8(elem)) ||
      mlirAttributeIsNull(low) || mlirAttributeIsNull(high) ||
      !mlirAttributeIsADenseI64Array(low) || !mlirAttributeIsADenseI64Array(high) ||
      mlirDenseArrayGetNumElements(low) != r || mlirDenseArrayGetNumElements(high) != r ||
      !ttPrimSplatValue(op, &v) || v != 0.0 || signbit(v))
    return false;
  for (int64_t d = 0; d < r; d++)
    if (mlirDenseI64ArrayGetElement(low, d) != 0 ||
        (d < r - 1 && mlirDenseI64ArrayGetElement(high, d) != 0))
      return false;
  return mlirDenseI64ArrayGetElement(high, r - 1) > 0;
}

bool ttPrimSplatValue(MlirOperation op, double *value) {
  MlirAttribute a = ttOpAttr(op, "value");
  if (mlirAttributeIsNull(a))
    return false;
  if (ttOpIs(op, "prim.constant")) {
    if (!mlirAttributeIsADenseElements(a) || !mlirDenseElementsAttrIsSplat(a))
      return false;
    a = mlirDenseElementsAttrGetSplatValue(a);
  }
  if (mlirAttributeIsAFloat(a)) {
    *value = mlirFloatAttrGetValueDouble(a);
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    *value = (double)mlirIntegerAttrGetValueInt(a);
    return true;
  }
  return false;
}
