/* verify.c - the prim verifier: the shape and dtype rules of every prim op, checked
 * right after parsing (ttParseModule), before any pass.
 *
 * The rules are the reference interpreter's own (runtime/rules.h, one table for both):
 * each prim op that has a prim line (the elementwise ops, compare, where, convert,
 * broadcast_in_dim, reshape, transpose, full/constant, sum/amax/amin, argmax/argmin, matmul,
 * slice, concat, index_select, gather, iota, pad) is read into
 * the plain form the table checks (a TtrtPrim with its dims, keepdim and direction, one
 * TtrtPrimTensor per operand and for the result: dtype and shape, `?` as a negative size)
 * and ttrtPrimCheck runs on it with the strict dtype rules (the compiler computes in the
 * tensors' dtypes). Before that, what only the compiler reads is checked here: element
 * types the metadata can describe, ranks up to TT_MAX_RANK, dimension lists as
 * array<i64>, compare's direction, keepdim a bool where given, argmax's `dim` an integer
 * where given (absent: every dim, as torch.argmax's dim=None), and a dense constant
 * of the result's type. The composites (linear, softmax, ...), which have no prim line,
 * need every static dimension of their operands and result at least 1 (as the table asks
 * of the others) and are checked by their --decompose rule run on a copy that is thrown
 * away (ttDecomposeCheck): the same checks the pass makes before it rewrites them. Every
 * failing op gets a located error; the walk goes on, so one
 * run reports every bad op. Messages are the table's, with operands named #0, #1, #2.
 */
#include "rules.h"
#include "tt.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  bool ok;
} Verify;

/* The attribute holding an op's dimension list, or NULL for ops without one. */
static const char *dimsAttrName(TtrtOp op) {
  if (op == TTRT_OP_BROADCAST_IN_DIM)
    return "broadcast_dimensions";
  if (op == TTRT_OP_TRANSPOSE)
    return "permutation";
  return ttrtOpIsReduction(op) ? "dims" : NULL;
}

/* Reads value v into t (its name in messages `name`); false after an error at op. */
static bool readTensor(MlirOperation op, const char *opName, MlirValue v, const char *what,
                       const char *name, TtrtPrimTensor *t) {
  MlirType type = mlirValueGetType(v);
  int64_t shape[TT_MAX_RANK];
  int64_t rank = ttTensorShape(type, shape);
  if (rank < 0) {
    ttEmitError(op, "'%s' %s must be a ranked tensor", opName, what);
    return false;
  }
  if (rank > TT_MAX_RANK) {
    ttEmitError(op, "'%s' %s has rank %lld; at most %d is supported", opName, what,
                (long long)rank, TT_MAX_RANK);
    return false;
  }
  if (!ttrtDtypeParse(ttDtypeName(type), &t->dtype)) {
    ttEmitError(op, "'%s' %s has an element type that prim does not take (f64, f32, f16, "
                    "bf16, f8E4M3FN, f8E5M2, i1, i8, i32, i64)",
                opName, what);
    return false;
  }
  t->name = name;
  t->shape.rank = (int)rank;
  for (int64_t i = 0; i < rank; i++)
    t->shape.dims[i] = mlirShapedTypeIsDynamicDim(type, i) ? -1 : shape[i];
  return true;
}

/* True when type t (a ranked tensor of rank <= TT_MAX_RANK; other types pass: the rules
 * report them) has every static dimension at least 1, as the table asks of every op it
 * has a line for (an empty mean would divide by zero); else an error at op naming it
 * `what` ('mean' operand #0, 'mean' result, function @f argument #0 ...). */
static bool sizesOf(MlirOperation op, MlirType t, const char *what) {
  int64_t shape[TT_MAX_RANK];
  TtrtShape s = {.rank = (int)ttTensorShape(t, shape)};
  bool zero = false;
  for (int d = 0; d < s.rank && s.rank <= TT_MAX_RANK; d++) {
    s.dims[d] = mlirShapedTypeIsDynamicDim(t, d) ? -1 : shape[d];
    zero |= shape[d] == 0;
  }
  if (!zero)
    return true;
  char text[256];
  ttrtPrimFormatShape(&s, text, sizeof text);
  ttEmitError(op, "%s has shape %s (dimensions must be at least 1)", what, text);
  return false;
}

/* A composite's operands and results (sizesOf); false after an error naming the first. */
static bool sizesAtLeastOne(MlirOperation op) {
  char name[64], what[96];
  ttPrimShortName(op, name, sizeof name);
  intptr_t nin = mlirOperationGetNumOperands(op), n = nin + mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; i++) {
    if (i < nin)
      snprintf(what, sizeof what, "'%s' operand #%d", name, (int)i);
    else
      snprintf(what, sizeof what, "'%s' result", name);
    MlirValue v = i < nin ? mlirOperationGetOperand(op, i) : mlirOperationGetResult(op, i - nin);
    if (!sizesOf(op, mlirValueGetType(v), what))
      return false;
  }
  return true;
}

/* A function's arguments and results (sizesOf): the runtime allocates and the reference
 * reads every tensor a program takes or gives. */
static bool signatureSizes(MlirOperation f) {
  MlirAttribute ft = ttOpAttr(f, "function_type"), name = ttOpAttr(f, "sym_name");
  if (mlirAttributeIsNull(ft) || !mlirAttributeIsAType(ft) || !mlirAttributeIsAString(name))
    return true;
  MlirType t = mlirTypeAttrGetValue(ft);
  if (!mlirTypeIsAFunction(t))
    return true;
  MlirStringRef fn = mlirStringAttrGetValue(name);
  int len = fn.length < 100 ? (int)fn.length : 100;
  intptr_t nin = mlirFunctionTypeGetNumInputs(t), n = nin + mlirFunctionTypeGetNumResults(t);
  char what[160];
  for (intptr_t i = 0; i < n; i++) {
    snprintf(what, sizeof what, "function @%.*s %s #%d", len, fn.data,
             i < nin ? "argument" : "result", (int)(i < nin ? i : i - nin));
    if (!sizesOf(f, i < nin ? mlirFunctionTypeGetInput(t, i)
                            : mlirFunctionTypeGetResult(t, i - nin), what))
      return false;
  }
  return true;
}

/* Reads the array<i64> attribute `key` (at most TTRT_MAX_RANK entries) into out[*n];
 * false after an error. */
static bool readArray(MlirOperation op, const char *opName, const char *key,
                      int64_t out[TTRT_MAX_RANK], int *n) {
  MlirAttribute a = ttOpAttr(op, key);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a)) {
    ttEmitError(op, "'%s' needs '%s' as an array<i64: ...>", opName, key);
    return false;
  }
  intptr_t count = mlirDenseArrayGetNumElements(a);
  if (count > TTRT_MAX_RANK) {
    ttEmitError(op, "'%s' %s has %lld entries; at most %d", opName, key, (long long)count,
                TTRT_MAX_RANK);
    return false;
  }
  *n = (int)count;
  for (intptr_t i = 0; i < count; i++)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return true;
}

/* Reads the op's dimension list into prim; false after an error. */
static bool readDims(MlirOperation op, const char *opName, const char *key, TtrtPrim *prim) {
  int64_t dims[TTRT_MAX_RANK];
  if (!readArray(op, opName, key, dims, &prim->numDims))
    return false;
  for (int i = 0; i < prim->numDims; i++) { /* any value out of int's range is out of range */
    int64_t d = dims[i];
    prim->dims[i] = d > INT_MAX / 2 ? INT_MAX / 2 : d < INT_MIN / 2 ? INT_MIN / 2 : (int)d;
  }
  return true;
}

/* Reads slice's start, stop and step (each an array<i64>) into prim->slice; false after
 * an error. */
static bool readSlice(MlirOperation op, const char *opName, TtrtPrim *prim) {
  for (int k = 0; k < 3; k++)
    if (!readArray(op, opName, ttrtSliceKeys[k], prim->slice[k], &prim->numSlice[k]))
      return false;
  return true;
}

/* The integer attribute holding an op's one dimension (concat, index_select, gather:
 * `dim`; iota: `dimension`), or NULL. */
static const char *oneDimAttrName(TtrtOp op) {
  if (op == TTRT_OP_CONCAT || op == TTRT_OP_INDEX_SELECT || op == TTRT_OP_GATHER)
    return "dim";
  return op == TTRT_OP_IOTA ? "dimension" : NULL;
}

/* Reads the integer attribute `key` into prim->dims[0]; false after an error. */
static bool readOneDim(MlirOperation op, const char *opName, const char *key,
                       TtrtPrim *prim) {
  MlirAttribute d = ttOpAttr(op, key);
  if (mlirAttributeIsNull(d) || !mlirAttributeIsAInteger(d)) {
    ttEmitError(op, "'%s' needs '%s' as an integer", opName, key);
    return false;
  }
  int64_t v = mlirIntegerAttrGetValueInt(d);
  prim->numDims = 1;
  prim->dims[0] = v > INT_MAX / 2 ? INT_MAX / 2 : v < INT_MIN / 2 ? INT_MIN / 2 : (int)v;
  return true;
}

/* Reads the attributes of op into prim; false after an error. */
static bool readAttributes(MlirOperation op, const char *opName, TtrtPrim *prim) {
  const char *key = dimsAttrName(prim->op);
  if (key && !readDims(op, opName, key, prim))
    return false;
  if (prim->op == TTRT_OP_SLICE && !readSlice(op, opName, prim))
    return false;
  const char *one = oneDimAttrName(prim->op);
  if (one && !readOneDim(op, opName, one, prim))
    return false;
  if (prim->op == TTRT_OP_PAD) {
    for (int k = 0; k < 2; k++)
      if (!readArray(op, opName, ttrtPadKeys[k], prim->slice[k], &prim->numSlice[k]))
        return false;
    MlirAttribute v = ttOpAttr(op, "value");
    if (mlirAttributeIsNull(v) || !mlirAttributeIsAFloat(v)) {
      ttEmitError(op, "'%s' needs 'value' as a float", opName);
      return false;
    }
    prim->value = mlirFloatAttrGetValueDouble(v);
  }
  if (ttOpIs(op, "prim.full")) { /* its value, which the table checks against the dtype */
    MlirAttribute v = ttOpAttr(op, "value");
    if (!mlirAttributeIsNull(v) && mlirAttributeIsAFloat(v))
      prim->value = mlirFloatAttrGetValueDouble(v);
    else if (!mlirAttributeIsNull(v) && mlirAttributeIsAInteger(v))
      prim->value = (double)mlirIntegerAttrGetValueInt(v);
  }
  if (ttrtOpIsArgReduction(prim->op)) {
    MlirAttribute d = ttOpAttr(op, "dim");
    if (!mlirAttributeIsNull(d) && !mlirAttributeIsAInteger(d)) {
      ttEmitError(op, "'%s' dim must be an integer (or absent: every dim)", opName);
      return false;
    }
    prim->numDims = mlirAttributeIsNull(d) ? 0 : 1;
    int64_t v = prim->numDims ? mlirIntegerAttrGetValueInt(d) : 0;
    prim->dims[0] = v > INT_MAX / 2 ? INT_MAX / 2 : v < INT_MIN / 2 ? INT_MIN / 2 : (int)v;
  }
  if (ttrtOpIsReduction(prim->op) || ttrtOpIsArgReduction(prim->op)) {
    MlirAttribute k = ttOpAttr(op, "keepdim");
    if (!mlirAttributeIsNull(k) && !mlirAttributeIsABool(k)) {
      ttEmitError(op, "'%s' keepdim must be a bool (true or false)", opName);
      return false;
    }
    prim->keepdim = !mlirAttributeIsNull(k) && mlirBoolAttrGetValue(k);
  }
  if (prim->op == TTRT_OP_COMPARE) {
    char dir[16] = "";
    MlirAttribute d = ttOpAttr(op, "direction");
    if (!ttOpAttrStr(op, "direction", dir, sizeof dir) ||
        mlirStringAttrGetValue(d).length >= sizeof dir ||
        !ttrtDirectionParse(dir, &prim->direction)) {
      ttEmitError(op, "'%s' direction must be one of \"lt\", \"le\", \"gt\", \"ge\", \"eq\", "
                      "\"ne\"",
                  opName);
      return false;
    }
  }
  if (ttOpIs(op, "prim.constant")) {
    MlirAttribute v = ttOpAttr(op, "value");
    MlirType r = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (mlirAttributeIsNull(v) || !mlirTypeEqual(mlirAttributeGetType(v), r)) {
      ttEmitError(op, "'%s' value must have the result's type", opName);
      return false;
    }
  }
  return true;
}

/* Verifies one prim op that has a rule. */
static bool verifyOp(MlirOperation op, TtrtOp kind) {
  char opName[64];
  ttOpName(op, opName, sizeof opName);
  TtrtPrim prim = {0};
  prim.op = kind;
  intptr_t n = mlirOperationGetNumOperands(op);
  if (n != ttrtOpGetNumOperands(kind) || mlirOperationGetNumResults(op) != 1) {
    ttEmitError(op, "'%s' takes %d operand%s and gives one result", opName,
                ttrtOpGetNumOperands(kind), ttrtOpGetNumOperands(kind) == 1 ? "" : "s");
    return false;
  }
  prim.numOperands = (int)n;
  static const char *const names[TTRT_MAX_OPERANDS] = {"#0", "#1", "#2"};
  TtrtPrimTensor operands[TTRT_MAX_OPERANDS], result;
  for (intptr_t i = 0; i < n; i++) {
    char what[32];
    snprintf(what, sizeof what, "operand #%d", (int)i);
    if (!readTensor(op, opName, mlirOperationGetOperand(op, i), what, names[i],
                    &operands[i]))
      return false;
  }
  if (!readTensor(op, opName, mlirOperationGetResult(op, 0), "result", "", &result) ||
      !readAttributes(op, opName, &prim))
    return false;
  char msg[2048];
  const char *key = ttrtOpIsArgReduction(kind) ? "dim" : dimsAttrName(kind);
  if (!ttrtPrimCheck(&prim, operands, &result, key, true, msg, sizeof msg)) {
    ttEmitError(op, "%s", msg);
    return false;
  }
  return true;
}

static bool visit(MlirOperation op, void *userData) {
  Verify *v = userData;
  if (ttOpIs(op, "func.func") && !signatureSizes(op))
    v->ok = false;
  if (!ttOpHasPrefix(op, "prim."))
    return true;
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  TtrtOp kind;
  if (strcmp(name, "full") == 0) /* full and a dense constant are the reference's constant */
    kind = TTRT_OP_CONSTANT;
  else if (!ttrtOpLookup(name, &kind)) { /* composites: their --decompose rule's checks */
    if (!sizesAtLeastOne(op) || !ttDecomposeCheck(op))
      v->ok = false;
    return true;
  }
  if (!verifyOp(op, kind))
    v->ok = false;
  return true;
}

bool ttPrimVerify(MlirOperation root) {
  Verify v = {true};
  ttWalk(root, visit, &v);
  return v.ok;
}
