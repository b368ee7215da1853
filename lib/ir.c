/* ir.c - small helpers for building and reading IR through MLIR's C API.
 *
 * The C API builds every op through an MlirOperationState; these helpers make the common
 * shapes one call (an op with operands, result types and attributes, inserted at a point),
 * and read the attributes and tensor types that passes look at.
 */
#include "tt.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MlirIdentifier ttId(MlirContext ctx, const char *name) {
  return mlirIdentifierGet(ctx, ttStrRef(name));
}

MlirNamedAttribute ttNamedAttr(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(ttId(ctx, name), a);
}

MlirNamedAttribute ttFastmath(MlirContext ctx, const char *flags) {
  char text[96];
  snprintf(text, sizeof text, "#arith.fastmath<%s>", flags);
  return ttNamedAttr(ctx, "fastmath", mlirAttributeParseGet(ctx, ttStrRef(text)));
}

bool ttOpHasFastmath(MlirOperation op, const char *flag) {
  MlirAttribute a = ttOpAttr(op, "fastmath");
  if (mlirAttributeIsNull(a))
    return false;
  TtStr text = {0};
  mlirAttributePrint(a, ttStrCallback, &text);
  /* #arith.fastmath<contract,afn>: look for the flag between delimiters */
  bool found = false;
  size_t n = strlen(flag);
  for (const char *p = text.data ? strstr(text.data, flag) : NULL; p && !found;
       p = strstr(p + 1, flag))
    found = (p[-1] == '<' || p[-1] == ',') && (p[n] == '>' || p[n] == ',');
  ttStrDestroy(&text);
  return found;
}

MlirOperation ttOpCreate(const char *name, MlirLocation loc, intptr_t nOperands,
                         const MlirValue *operands, intptr_t nResults,
                         const MlirType *results, intptr_t nAttrs,
                         const MlirNamedAttribute *attrs, intptr_t nRegions,
                         MlirRegion *regions) {
  MlirOperationState st = mlirOperationStateGet(ttStrRef(name), loc);
  if (nOperands)
    mlirOperationStateAddOperands(&st, nOperands, operands);
  if (nResults)
    mlirOperationStateAddResults(&st, nResults, results);
  if (nAttrs)
    mlirOperationStateAddAttributes(&st, nAttrs, attrs);
  if (nRegions)
    mlirOperationStateAddOwnedRegions(&st, nRegions, regions);
  return mlirOperationCreate(&st);
}

TtBuilder ttBuilderAtEnd(MlirBlock block) {
  TtBuilder b = {block, {NULL}};
  return b;
}

MlirOperation ttInsert(TtBuilder *b, MlirOperation op) {
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  return op;
}

MlirOperation ttBuildFor(TtBuilder *b, MlirLocation loc, MlirValue lb, MlirValue ub,
                         MlirValue step, intptr_t n, const MlirValue *inits) {
  MlirValue *ops = ttAlloc(sizeof(MlirValue) * (size_t)(n + 3));
  MlirType *types = ttAlloc(sizeof(MlirType) * (size_t)(n + 1));
  MlirLocation *locs = ttAlloc(sizeof(MlirLocation) * (size_t)(n + 1));
  ops[0] = lb;
  ops[1] = ub;
  ops[2] = step;
  types[0] = mlirValueGetType(lb);
  locs[0] = loc;
  for (intptr_t i = 0; i < n; i++) {
    ops[i + 3] = inits[i];
    types[i + 1] = mlirValueGetType(inits[i]);
    locs[i + 1] = loc;
  }
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate(n + 1, types, locs));
  MlirOperation op =
      ttInsert(b, ttOpCreate("scf.for", loc, n + 3, ops, n, types + 1, 0, NULL, 1, &region));
  free(ops);
  free(types);
  free(locs);
  return op;
}

MlirBlock ttForBody(MlirOperation forOp) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(forOp, 0));
}

MlirValue ttBinary(TtBuilder *b, MlirLocation loc, const char *name, MlirValue x,
                   MlirValue y) {
  MlirValue ops[2] = {x, y};
  return ttBuild(b, name, loc, 2, ops, mlirValueGetType(x), 0, NULL);
}

MlirOperation ttLauncherOf(MlirModule module, const char *name) {
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute l = ttOpAttr(op, "tile.launch");
    if (mlirAttributeIsNull(l))
      continue;
    MlirAttribute k = mlirDictionaryAttrGetElementByName(l, ttStrRef("kernel"));
    if (!mlirAttributeIsNull(k) && mlirAttributeIsAFlatSymbolRef(k) &&
        ttStrRefEq(mlirFlatSymbolRefAttrGetValue(k), name))
      return op;
  }
  return (MlirOperation){NULL};
}

/* The launch's grid array (null when absent). */
static MlirAttribute launchGrid(MlirOperation fusion) {
  MlirAttribute grid =
      mlirDictionaryAttrGetElementByName(ttOpAttr(fusion, "tile.launch"), ttStrRef("grid"));
  return !mlirAttributeIsNull(grid) && mlirAttributeIsAArray(grid) ? grid : (MlirAttribute){NULL};
}

/* Grid extent g when it is a positive decimal integer, else -1 (an expression). */
static int64_t gridExtent(MlirAttribute g) {
  char buf[64] = "", *end = buf;
  int64_t v = 0;
  if (mlirAttributeIsAString(g)) {
    MlirStringRef r = mlirStringAttrGetValue(g);
    snprintf(buf, sizeof buf, "%.*s", (int)r.length, r.data);
    v = strtoll(buf, &end, 10);
  }
  return v > 0 && *end == '\0' ? v : -1;
}

int64_t ttLaunchGridExtent(MlirOperation fusion, intptr_t axis) {
  MlirAttribute grid = launchGrid(fusion);
  return !mlirAttributeIsNull(grid) && axis < mlirArrayAttrGetNumElements(grid)
             ? gridExtent(mlirArrayAttrGetElement(grid, axis))
             : -1;
}

/* The product of the grid's extents, a symbolic one counting as 1 (*exact is then false). */
static int64_t launchPrograms(MlirOperation fusion, bool *exact) {
  *exact = true;
  MlirAttribute grid = launchGrid(fusion);
  int64_t programs = 1;
  for (intptr_t i = 0; !mlirAttributeIsNull(grid) && i < mlirArrayAttrGetNumElements(grid); i++) {
    int64_t v = gridExtent(mlirArrayAttrGetElement(grid, i));
    *exact = *exact && v > 0;
    programs *= v > 0 ? v : 1;
  }
  return programs;
}

int64_t ttLaunchPrograms(MlirOperation fusion) {
  bool exact;
  int64_t programs = launchPrograms(fusion, &exact);
  MlirAttribute planned =
      mlirDictionaryAttrGetElementByName(ttOpAttr(fusion, "tile.launch"), ttStrRef("programs"));
  if (!exact && !mlirAttributeIsNull(planned) && mlirAttributeIsAInteger(planned))
    programs = mlirIntegerAttrGetValueInt(planned);
  return programs;
}

int64_t ttLaunchProgramsExact(MlirOperation fusion) {
  bool exact;
  int64_t programs = launchPrograms(fusion, &exact);
  return exact ? programs : -1;
}

void ttLaunchSet(MlirOperation fusion, const char *key, MlirAttribute value) {
  MlirContext ctx = mlirOperationGetContext(fusion);
  MlirAttribute l = ttOpAttr(fusion, "tile.launch");
  intptr_t n = mlirAttributeIsNull(l) ? 0 : mlirDictionaryAttrGetNumElements(l), k = 0;
  MlirNamedAttribute *out = ttAlloc(sizeof(MlirNamedAttribute) * (size_t)(n + 1));
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute e = mlirDictionaryAttrGetElement(l, i);
    if (!ttStrRefEq(mlirIdentifierStr(e.name), key))
      out[k++] = e;
  }
  out[k++] = ttNamedAttr(ctx, key, value);
  mlirOperationSetAttributeByName(fusion, ttStrRef("tile.launch"), mlirDictionaryAttrGet(ctx, k, out));
  free(out);
}

MlirValue ttKernelInsertArg(MlirOperation kernel, intptr_t pos, MlirType type) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  MlirValue arg = mlirBlockInsertArgument(body, pos, type, mlirOperationGetLocation(kernel));
  intptr_t n = mlirBlockGetNumArguments(body);
  MlirType *types = ttAlloc(sizeof(MlirType) * (size_t)n);
  for (intptr_t i = 0; i < n; i++)
    types[i] = mlirValueGetType(mlirBlockGetArgument(body, i));
  mlirOperationSetAttributeByName(kernel, ttStrRef("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n, types, 0, NULL)));
  free(types);
  return arg;
}

void ttEraseDead(MlirBlock body) {
  for (bool again = true; again;) {
    again = false;
    intptr_t n = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      n++;
    MlirOperation *ops = ttAlloc(sizeof(MlirOperation) * (size_t)(n + 1));
    n = 0;
    for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
         op = mlirOperationGetNextInBlock(op))
      ops[n++] = op;
    while (n-- > 0) {
      bool used = mlirOperationGetNumResults(ops[n]) == 0 || ttOpIs(ops[n], "scf.for");
      for (intptr_t i = 0; i < mlirOperationGetNumResults(ops[n]); i++)
        used = used || !mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(ops[n], i)));
      if (!used) {
        mlirOperationDestroy(ops[n]);
        again = true;
      }
    }
    free(ops);
  }
}

bool ttTransposedView(MlirValue v) {
  bool t = false;
  while (mlirValueIsAOpResult(v) && ttOpIs(mlirOpResultGetOwner(v), "tile.trans")) {
    t = !t;
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  }
  return t;
}

bool ttProducerSplit(MlirOperation op) {
  MlirValue c = ttOpIs(op, "scf.if") ? mlirOperationGetOperand(op, 0) : (MlirValue){NULL};
  return !mlirValueIsNull(c) && mlirValueIsAOpResult(c) &&
         ttOpIs(mlirOpResultGetOwner(c), "hopper.producer_warp");
}

MlirOperation ttDotLoop(MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (ttProducerSplit(op)) { /* the consumers' region */
      MlirBlock other = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
      return mlirBlockIsNull(other) ? (MlirOperation){NULL} : ttDotLoop(other);
    }
    if (!ttOpIs(op, "scf.for"))
      continue;
    for (MlirOperation x = mlirBlockGetFirstOperation(ttForBody(op)); !mlirOperationIsNull(x);
         x = mlirOperationGetNextInBlock(x))
      if (ttOpIs(x, "tile.dot"))
        return op;
  }
  return (MlirOperation){NULL};
}

MlirValue ttBuild(TtBuilder *b, const char *name, MlirLocation loc, intptr_t nOperands,
                  const MlirValue *operands, MlirType result, intptr_t nAttrs,
                  const MlirNamedAttribute *attrs) {
  bool hasResult = !mlirTypeIsNull(result);
  MlirOperation op = ttOpCreate(name, loc, nOperands, operands, hasResult ? 1 : 0,
                                &result, nAttrs, attrs, 0, NULL);
  ttInsert(b, op);
  if (!hasResult) {
    MlirValue none = {NULL};
    return none;
  }
  return mlirOperationGetResult(op, 0);
}

const char *ttOpName(MlirOperation op, char *buf, size_t n) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t k = s.length < n - 1 ? s.length : n - 1;
  memcpy(buf, s.data, k);
  buf[k] = 0;
  return buf;
}

bool ttOpIs(MlirOperation op, const char *name) {
  return ttStrRefEq(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

bool ttOpHasPrefix(MlirOperation op, const char *prefix) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(prefix);
  return s.length >= n && memcmp(s.data, prefix, n) == 0;
}

MlirAttribute ttOpAttr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, ttStrRef(name));
}

bool ttArgIsInvariant(MlirValue v) {
  if (!mlirValueIsABlockArgument(v))
    return false;
  MlirOperation fn = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  MlirAttribute attrs = ttOpAttr(fn, "arg_attrs");
  intptr_t n = mlirBlockArgumentGetArgNumber(v);
  if (!ttOpIs(fn, "func.func") || mlirAttributeIsNull(attrs) || !mlirAttributeIsAArray(attrs) ||
      n >= mlirArrayAttrGetNumElements(attrs))
    return false;
  MlirAttribute dict = mlirArrayAttrGetElement(attrs, n);
  return mlirAttributeIsADictionary(dict) &&
         !mlirAttributeIsNull(
             mlirDictionaryAttrGetElementByName(dict, ttStrRef("tt.invariant")));
}

bool ttValueIsInvariant(MlirValue v) {
  if (ttArgIsInvariant(v))
    return true;
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return ttOpIs(def, "func.call") && !mlirAttributeIsNull(ttOpAttr(def, "tt.invariant"));
}

int64_t ttConstIntValue(MlirValue v) {
  if (!mlirValueIsAOpResult(v) || !ttOpIs(mlirOpResultGetOwner(v), "arith.constant"))
    return -1;
  MlirAttribute a = ttOpAttr(mlirOpResultGetOwner(v), "value");
  return mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

int64_t ttOpAttrInt(MlirOperation op, const char *name, int64_t dflt) {
  MlirAttribute a = ttOpAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return dflt;
  return mlirIntegerAttrGetValueInt(a);
}

bool ttOpAttrStr(MlirOperation op, const char *name, char *buf, size_t n) {
  MlirAttribute a = ttOpAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(a);
  size_t k = s.length < n - 1 ? s.length : n - 1;
  if (k > 0) /* an empty string's data may be NULL */
    memcpy(buf, s.data, k);
  buf[k] = 0;
  return true;
}

MlirType ttI32(MlirContext ctx) { return mlirIntegerTypeGet(ctx, 32); }

int64_t ttTensorShape(MlirType t, int64_t shape[TT_MAX_RANK]) {
  if (!mlirTypeIsARankedTensor(t))
    return -1;
  int64_t r = mlirShapedTypeGetRank(t);
  for (int64_t i = 0; i < r && i < TT_MAX_RANK; i++)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  return r;
}

bool ttSameShape(MlirType a, MlirType b) {
  int64_t as[TT_MAX_RANK], bs[TT_MAX_RANK];
  int64_t r = ttTensorShape(a, as);
  if (r < 0 || r > TT_MAX_RANK || r != ttTensorShape(b, bs))
    return false;
  return memcmp(as, bs, sizeof(int64_t) * (size_t)r) == 0;
}

int64_t ttTensorNumel(MlirType t) {
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), n = 1;
  if (r < 0 || r > TT_MAX_RANK)
    return -1;
  for (int64_t i = 0; i < r; i++) {
    if (shape[i] < 0)
      return -1;
    if (shape[i] && n > INT64_MAX / shape[i])
      return INT64_MAX;
    n *= shape[i];
  }
  return n;
}

MlirType ttElementType(MlirType t) {
  if (mlirTypeIsAShaped(t))
    return mlirShapedTypeGetElementType(t);
  return t;
}

const char *ttDtypeName(MlirType t) {
  t = ttElementType(t);
  if (mlirTypeIsAF32(t))
    return "f32";
  if (mlirTypeIsAF16(t))
    return "f16";
  if (mlirTypeIsABF16(t))
    return "bf16";
  if (mlirTypeIsAF64(t))
    return "f64";
  if (mlirTypeIsAFloat8E4M3FN(t))
    return "f8e4m3";
  if (mlirTypeIsAFloat8E5M2(t))
    return "f8e5m2";
  if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1:
      return "i1";
    case 8:
      return "i8";
    case 32:
      return "i32";
    case 64:
      return "i64";
    }
  }
  return "?";
}

int ttDtypeBytes(MlirType t) {
  t = ttElementType(t);
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t) <= 8 ? 1 : (int)mlirIntegerTypeGetWidth(t) / 8;
  if (mlirTypeIsAFloat(t))
    return (int)mlirFloatTypeGetWidth(t) / 8;
  return 0;
}

bool ttTypeIsFp8(MlirType t) {
  t = ttElementType(t);
  return mlirTypeIsAFloat8E4M3FN(t) || mlirTypeIsAFloat8E5M2(t);
}

bool ttTypeIsHalf(MlirType t) {
  t = ttElementType(t);
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t);
}

MlirAttribute ttIntAttr(MlirContext ctx, int64_t v, MlirType t) {
  if (mlirTypeIsNull(t))
    t = ttI32(ctx);
  return mlirIntegerAttrGet(t, v);
}

MlirAttribute ttStrAttr(MlirContext ctx, const char *s) {
  return mlirStringAttrGet(ctx, ttStrRef(s));
}

/* An arith.constant of scalar, tensor or vector type t with every element `value`. */
static MlirValue constOf(TtBuilder *b, MlirLocation loc, MlirType t, double fv,
                         int64_t iv) {
  MlirContext ctx = mlirTypeGetContext(t);
  MlirType elem = ttElementType(t);
  MlirAttribute scalar = mlirTypeIsAFloat(elem) ? mlirFloatAttrDoubleGet(ctx, elem, fv)
                                                : mlirIntegerAttrGet(elem, iv);
  MlirAttribute value =
      mlirTypeIsAShaped(t) ? mlirDenseElementsAttrSplatGet(t, scalar) : scalar;
  MlirNamedAttribute attr = ttNamedAttr(ctx, "value", value);
  return ttBuild(b, "arith.constant", loc, 0, NULL, t, 1, &attr);
}

MlirValue ttConstSplat(TtBuilder *b, MlirLocation loc, MlirType t, double value) {
  /* the integer form only where it exists: a float splat of -inf (a max's identity) or
   * NaN has none, and converting it would be undefined (UBSan, found by fuzz-opt) */
  bool fits = value > -9.2e18 && value < 9.2e18; /* false for NaN */
  return constOf(b, loc, t, value, fits ? (int64_t)value : 0);
}

MlirValue ttConstInt(TtBuilder *b, MlirLocation loc, MlirType t, int64_t value) {
  return constOf(b, loc, t, (double)value, value);
}

MlirValue ttCmpi(TtBuilder *b, MlirLocation loc, int64_t pred, MlirValue x, MlirValue y) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute p = ttNamedAttr(ctx, "predicate",
                                     mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), pred));
  return ttBuild(b, "arith.cmpi", loc, 2, (MlirValue[]){x, y}, mlirIntegerTypeGet(ctx, 1), 1, &p);
}

/* True when the first op of source (after blank and `//` comment lines, and the alias
 * definitions such as `#loc1 = loc(...)` that tt-opt's output with locations starts
 * with) is a module. */
static bool startsWithModule(const char *p) {
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if ((p[0] == '/' && p[1] == '/') || p[0] == '#' || p[0] == '!') {
      while (*p && *p != '\n')
        p++;
      continue;
    }
    return strncmp(p, "module", 6) == 0 || strncmp(p, "\"builtin.module\"", 16) == 0;
  }
}

/* Reports each func.func of module op that has no body: every function of a tt program
 * (host, fused, kernel) is defined, and the passes read their bodies. */
static bool functionsDefined(MlirOperation op) {
  bool ok = true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    MlirRegion fr = mlirOperationGetRegion(f, 0);
    if (!ttOpIs(f, "func.func") || !mlirBlockIsNull(mlirRegionGetFirstBlock(fr)))
      continue;
    char fname[128] = "?";
    ttOpAttrStr(f, "sym_name", fname, sizeof fname);
    ttEmitError(f, "function @%s has no body: a tt program defines every function it "
                   "declares",
                fname);
    ok = false;
  }
  return ok;
}

MlirModule ttParseModule(MlirContext ctx, const char *source, const char *name) {
  /* Like mlir-opt, accept several top-level ops by wrapping them in a module. The wrapper
   * opens on line 1 (shifting only that line's columns, which is a comment in practice)
   * so that every line number stays the file's. */
  if (!ttPrescan(ctx, source, name)) /* what would crash MLIR's parser */
    return (MlirModule){NULL};
  TtStr text = {0};
  bool wrap = !startsWithModule(source);
  if (wrap)
    ttStrAppend(&text, "module{", 7);
  ttStrAppend(&text, source, strlen(source));
  if (wrap)
    ttStrAppend(&text, "\n}", 2);
  MlirOperation op = mlirOperationCreateParse(ctx, ttStrRef(text.data), ttStrRef(name));
  ttStrDestroy(&text);
  if (mlirOperationIsNull(op))
    return (MlirModule){NULL};
  /* no pass ever sees a program that breaks the dialects' or the prim ops' rules */
  bool ok = mlirOperationVerify(op) && functionsDefined(op);
  if (ok) { /* all three verifiers report, each its own errors */
    bool prim = ttPrimVerify(op), tile = ttTileVerify(op), hopper = ttHopperVerify(op);
    ok = prim && tile && hopper;
  }
  if (!ok) {
    mlirOperationDestroy(op);
    return (MlirModule){NULL};
  }
  return mlirModuleFromOperation(op);
}

MlirOperation ttModuleLookup(MlirModule m, const char *name) {
  MlirBlock body = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute s = ttOpAttr(op, "sym_name");
    if (!mlirAttributeIsNull(s) && ttStrRefEq(mlirStringAttrGetValue(s), name))
      return op;
  }
  MlirOperation none = {NULL};
  return none;
}

/* Pre-order walk; returns false when fn asked to stop. */
static bool walkOp(MlirOperation op, TtWalkFn fn, void *userData) {
  if (!fn(op, userData))
    return false;
  intptr_t nr = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < nr; r++) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock blk = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(blk);
         blk = mlirBlockGetNextInRegion(blk)) {
      MlirOperation child = mlirBlockGetFirstOperation(blk);
      while (!mlirOperationIsNull(child)) {
        MlirOperation next = mlirOperationGetNextInBlock(child);
        if (!walkOp(child, fn, userData))
          return false;
        child = next;
      }
    }
  }
  return true;
}

void ttWalk(MlirOperation root, TtWalkFn fn, void *userData) { walkOp(root, fn, userData); }

static bool within(MlirOperation op, MlirOperation scope) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(op, scope))
      return true;
  return false;
}

void ttReplaceUsesWithin(MlirValue of, MlirValue with, MlirOperation scope) {
  for (;;) { /* one use at a time: setting an operand unlinks it from the list */
    MlirOpOperand u = mlirValueGetFirstUse(of);
    while (!mlirOpOperandIsNull(u) && !within(mlirOpOperandGetOwner(u), scope))
      u = mlirOpOperandGetNextUse(u);
    if (mlirOpOperandIsNull(u))
      return;
    mlirOperationSetOperand(mlirOpOperandGetOwner(u), mlirOpOperandGetOperandNumber(u), with);
  }
}
