/* reduce.c - --decompose's rules for reductions over any dims (sum, amax, amin split
 * into row and column reductions, long narrow columns in levels) and for mean, var and
 * std (the section banners below state the algorithm). */
#include "decompose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- reductions over any dims ------------------------------------------------------ *
 * --fuse and --tile compute a reduction over the last dim (a row kernel) or over one run
 * of dims before it (a column kernel: the operand as [outer, R, inner], a loop over R).
 * Any other reduction is rewritten into those, each reading its operand once, coalesced:
 *  - the dims are split into maximal runs, reduced from the last run to the first (the
 *    earlier runs keep their indices), all with the op's keepdim;
 *  - a run of several dims that ends at the last dim is a column reduction of all but its
 *    last dim, then a row reduction of the last: a full sum of [M, N] is a column sum to
 *    [N], then a sum of that row (a 1-D full reduction is one row: one program, in the
 *    looped form past 32768 elements);
 *  - a column reduction with few columns (outer * inner) and many rows is split in two
 *    levels so that its first kernel has enough programs: R = S * (R / S) with S a power of
 *    two, the operand reshaped to [outer, S, R / S, inner], reduced over R / S, then over S
 *    (the second kernel reads S * outer * inner partial results, and is split the same way
 *    when it is itself long and narrow: three levels for 1048576x128, 100 us against 246
 *    on an H100, bench/2026-11-25-h100-reduce.md): S is the least with
 *    outer * inner * S >= SPLIT_TARGET (2 programs of 1024 columns per SM of the default
 *    target), at most R / SPLIT_MIN_ROWS, and must divide R (else no split). Measured on
 *    an H100 (8192x8192 bf16 column sums, 2026-11-25): S = 64 (512 programs of 128 rows,
 *    49.0 us, then 7.4 us for the 64 partial rows) 54.9 us in all, 85% of copy
 *    bandwidth; S = 128 (4 programs per SM) 57.6 us: its second kernel took 11.5 us;
 *  - f16/bf16 sums are computed in f32 (one convert of the operand, which fuses into the
 *    first kernel's loads, and one of the result), as the row and column kernels
 *    accumulate; amax and amin are exact in their dtype. */
#define SPLIT_TARGET (2 * TT_DEFAULT_NUM_SMS * 1024)
#define SPLIT_MIN_ROWS 64

/* The two-level split S of a column reduction [outer, R, inner] (1: none). */
static int64_t columnSplit(int64_t outer, int64_t rows, int64_t inner) {
  int64_t s = 1;
  while (outer * inner * s < SPLIT_TARGET && rows / (2 * s) >= SPLIT_MIN_ROWS)
    s *= 2;
  while (s > 1 && rows % s != 0)
    s /= 2;
  return s;
}

/* True when reduction op is not one a row or column kernel computes as it is. */
bool dcReductionNeedsRewrite(MlirOperation op) {
  MlirAttribute dims = ttOpAttr(op, "dims");
  if (ttPrimKind(op) != TT_PRIM_REDUCTION || ttPrimIsRowReduction(op) ||
      mlirAttributeIsNull(dims) || !mlirAttributeIsADenseI64Array(dims) ||
      mlirOperationGetNumOperands(op) != 1)
    return false;
  int64_t outer, rows, inner;
  if (!ttPrimIsColumnReduction(op))
    return ttPrimReductionRun(op, NULL, NULL, NULL, NULL, NULL) ||
           mlirDenseArrayGetNumElements(dims) > 0;
  ttPrimReductionRun(op, &outer, &rows, &inner, NULL, NULL);
  return outer >= 0 && rows >= 0 && columnSplit(outer, rows, inner) > 1;
}

/* prim.<kind>(x) over dims lo..hi (one run), keeping them as 1s when keep. */
static MlirValue reduceRun(Rw *w, const char *kind, MlirValue x, int64_t lo, int64_t hi,
                           bool keep) {
  MlirType t = mlirValueGetType(x);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), out[TT_MAX_RANK], n = 0;
  int64_t dims[TT_MAX_RANK];
  for (int64_t i = 0; i < r; i++)
    if (i < lo || i > hi)
      out[n++] = shape[i];
    else if (keep)
      out[n++] = 1;
  for (int64_t i = lo; i <= hi; i++)
    dims[i - lo] = i;
  MlirNamedAttribute attrs[2] = {
      ttNamedAttr(w->ctx, "dims", mlirDenseI64ArrayGet(w->ctx, hi - lo + 1, dims)),
      ttNamedAttr(w->ctx, "keepdim", mlirBoolAttrGet(w->ctx, keep)),
  };
  return dcPrim(w, kind, 1, &x, dcTensorOf(n, out, ttElementType(t)), 2, attrs);
}

/* A column reduction over run lo..hi of x, split in two levels when columnSplit says so
 * (then keepdim comes from a reshape of the result). */
static MlirValue reduceColumns(Rw *w, const char *kind, MlirValue x, int64_t lo, int64_t hi,
                               bool keep) {
  MlirType t = mlirValueGetType(x);
  int64_t shape[TT_MAX_RANK], r = ttTensorShape(t, shape), outer = 1, rows = 1, inner = 1;
  for (int64_t i = 0; i < r; i++)
    *(i < lo ? &outer : i <= hi ? &rows : &inner) *= shape[i];
  int64_t split = shape[0] < 0 ? 1 : columnSplit(outer, rows, inner); /* dynamic: as it is */
  if (split == 1 || r + 2 > TT_MAX_RANK)
    return reduceRun(w, kind, x, lo, hi, keep);
  int64_t v[TT_MAX_RANK], n = 0;
  for (int64_t i = 0; i < lo; i++)
    v[n++] = shape[i];
  v[n++] = split;
  v[n++] = rows / split;
  for (int64_t i = hi + 1; i < r; i++)
    v[n++] = shape[i];
  MlirValue y = dcPrim(w, "reshape", 1, &x, dcTensorOf(n, v, ttElementType(t)), 0, NULL);
  /* the second level is a column reduction of `split` rows: split again while it is long
   * and narrow (1048576x128 bf16: 4096 partial rows of 128 columns, then 64) */
  y = reduceColumns(w, kind, reduceRun(w, kind, y, lo + 1, lo + 1, false), lo, lo, false);
  if (!keep)
    return y;
  for (int64_t i = lo; i <= hi; i++)
    shape[i] = 1;
  return dcPrim(w, "reshape", 1, &y, dcTensorOf(r, shape, ttElementType(t)), 0, NULL);
}

/* prim.<kind> of y (of rank `rank`) over the dims marked in `in`, rewritten into row and
 * column reductions (the runs, last first), each with keepdim `keep`. */
static MlirValue reduceDims(Rw *w, const char *kind, MlirValue y, const bool *in,
                            int64_t rank, bool keep) {
  for (int64_t hi = rank - 1; hi >= 0; hi--) { /* the runs, last first */
    if (!in[hi])
      continue;
    int64_t lo = hi;
    while (lo > 0 && in[lo - 1])
      lo--;
    if (hi == rank - 1 && lo < hi) { /* columns of all but the last dim, then the row */
      y = reduceColumns(w, kind, y, lo, hi - 1, keep);
      y = reduceRun(w, kind, y, keep ? hi : lo, keep ? hi : lo, keep);
    } else if (hi == rank - 1) {
      y = reduceRun(w, kind, y, lo, hi, keep);
    } else {
      y = reduceColumns(w, kind, y, lo, hi, keep);
    }
    hi = lo;
  }
  return y;
}

MlirValue dcRuleReduce(Rw *w) {
  MlirValue x = mlirOperationGetOperand(w->op, 0);
  Shape xs;
  if (!dcCheckTensor(w, x, "the operand", &xs))
    return dcNullValue();
  MlirAttribute dims = ttOpAttr(w->op, "dims"), keepAttr = ttOpAttr(w->op, "keepdim");
  bool in[TT_MAX_RANK] = {false};
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(dims); i++) {
    int64_t d = mlirDenseI64ArrayGetElement(dims, i);
    d = d < 0 ? d + xs.rank : d;
    if (d < 0 || d >= xs.rank || in[d]) {
      ttEmitError(w->op, "decompose: 'prim.%s' has dim %lld, out of range or repeated for "
                         "rank %lld",
                  w->name, (long long)mlirDenseI64ArrayGetElement(dims, i), (long long)xs.rank);
      return dcNullValue();
    }
    in[d] = true;
  }
  bool keep = !mlirAttributeIsNull(keepAttr) && mlirAttributeIsABool(keepAttr) &&
              mlirBoolAttrGetValue(keepAttr);
  MlirType elem = ttElementType(xs.type);
  bool widen = strcmp(w->name, "sum") == 0 && ttTypeIsHalf(elem);
  MlirValue y = widen ? dcConvertTo(w, x, mlirF32TypeGet(w->ctx)) : x;
  y = reduceDims(w, w->name, y, in, xs.rank, keep);
  return widen ? dcConvertTo(w, y, elem) : y;
}

/* --- mean, var, std ----------------------------------------------------------------- *
 * Over `dims` (an array<i64>, negative dims count from the end, none repeated) with
 * `keepdim` (a bool, false when absent), as torch.mean / torch.var / torch.std; N is the
 * product of the reduced dims' sizes:
 *   mean(x)   sum(x, dims) / N
 *   var(x)    m = sum(x, dims) / N; d = x - b(m); sum(d*d, dims) / max(N - correction, 0)
 *   std(x)    sqrt(var(x))
 * `correction` (an integer, 1 when absent) as PyTorch's; its divisor max(N - correction, 0)
 * is ATen's (a divisor of 0 gives inf or nan, as there). The sums are reduceDims': row and
 * column reductions. */

/* The reduced dims of x (in[d]), keepdim, N, and the result's type checked; false after an
 * error. */
static bool readReduction(Rw *w, const Shape *x, bool *in, bool *keep, int64_t *count) {
  MlirAttribute dims = ttOpAttr(w->op, "dims"), k = ttOpAttr(w->op, "keepdim");
  if (mlirAttributeIsNull(dims) || !mlirAttributeIsADenseI64Array(dims)) {
    ttEmitError(w->op, "decompose: %s: dims must be an array<i64: ...>", w->name);
    return false;
  }
  if (!mlirAttributeIsNull(k) && !mlirAttributeIsABool(k)) {
    ttEmitError(w->op, "decompose: %s: keepdim must be a bool (true or false)", w->name);
    return false;
  }
  *keep = !mlirAttributeIsNull(k) && mlirBoolAttrGetValue(k);
  for (int64_t i = 0; i < x->rank; i++)
    in[i] = false;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(dims); i++) {
    int64_t dim = mlirDenseI64ArrayGetElement(dims, i), d = dim < 0 ? dim + x->rank : dim;
    if (d < 0 || d >= x->rank || in[d]) {
      ttEmitError(w->op,
                  "decompose: %s: dim %lld is out of range or repeated for a tensor of rank "
                  "%lld (expected %lld to %lld, each once)",
                  w->name, (long long)dim, (long long)x->rank, (long long)-x->rank,
                  (long long)x->rank - 1);
      return false;
    }
    in[d] = true;
  }
  int64_t shape[TT_MAX_RANK], n = 0;
  *count = 1;
  for (int64_t i = 0; i < x->rank; i++)
    if (!in[i])
      shape[n++] = x->shape[i];
    else {
      if (x->shape[i] < 0) {
        ttEmitError(w->op, "decompose: %s over a dynamic dimension is not supported yet",
                    w->name);
        return false;
      }
      *count *= x->shape[i];
      if (*keep)
        shape[n++] = 1;
    }
  Shape res;
  if (!dcCheckTensor(w, mlirOperationGetResult(w->op, 0), "the result", &res))
    return false;
  MlirType expect = dcTensorOf(n, shape, ttElementType(x->type));
  if (!mlirTypeEqual(expect, res.type)) {
    char got[128], want[128];
    dcTypeString(res.type, got, sizeof got);
    dcTypeString(expect, want, sizeof want);
    ttEmitError(w->op, "decompose: %s: the result has type %s; expected %s", w->name, got,
                want);
    return false;
  }
  return true;
}

MlirValue dcRuleMeanVar(Rw *w) {
  Shape x;
  bool in[TT_MAX_RANK], keep;
  int64_t count, correction = 1;
  MlirValue in0 = mlirOperationGetOperand(w->op, 0);
  if (!dcCheckTensor(w, in0, "x", &x) || !dcComputeType(w, x.type) ||
      !readReduction(w, &x, in, &keep, &count))
    return dcNullValue();
  bool isMean = strcmp(w->name, "mean") == 0;
  MlirAttribute c = ttOpAttr(w->op, "correction");
  if (!isMean && !mlirAttributeIsNull(c)) {
    if (!mlirAttributeIsAInteger(c) || mlirAttributeIsABool(c)) {
      ttEmitError(w->op, "decompose: %s: correction must be an integer attribute", w->name);
      return dcNullValue();
    }
    correction = mlirIntegerAttrGetValueInt(c);
  }
  MlirValue xc = dcToCompute(w, in0);
  MlirType t = mlirValueGetType(xc);
  MlirValue s = reduceDims(w, "sum", xc, in, x.rank, isMean && keep);
  MlirValue mean = dcBinary(w, "div", s, dcFull(w, mlirValueGetType(s), (double)count));
  if (isMean)
    return dcConvertTo(w, mean, ttElementType(x.type));
  int64_t kept[TT_MAX_RANK], n = 0;
  for (int64_t i = 0; i < x.rank; i++)
    if (!in[i])
      kept[n++] = i;
  MlirValue d = dcBinary(w, "sub", xc, dcBroadcast(w, mean, t, n, kept));
  MlirValue ss = reduceDims(w, "sum", dcBinary(w, "mul", d, d), in, x.rank, keep);
  /* in double: N - correction overflows int64 for a correction near INT64_MIN */
  double divisor = (double)count - (double)correction;
  MlirValue y = dcBinary(w, "div", ss, dcFull(w, mlirValueGetType(ss), divisor > 0 ? divisor : 0));
  if (strcmp(w->name, "std") == 0)
    y = dcUnary(w, "sqrt", y);
  return dcConvertTo(w, y, ttElementType(x.type));
}

/* --- argmax, argmin ------------------------------------------------------------------ *
 * A row kernel computes argmax/argmin over the last dim (passes/tile/emit.c: the max, then
 * the least column holding it). Any other form is rewritten into that one:
 *  - no `dim` (torch.argmax(x) with dim=None: the index into the flattened tensor): x is
 *    reshaped to [numel] and reduced over its one dim;
 *  - a dim before the last: x is transposed to move it last (a permute kernel), keeping
 *    the order of the others;
 *  - keepdim: the result of the row form is reshaped to the result's shape. */
MlirValue dcRuleArgReduce(Rw *w) {
  MlirValue x = mlirOperationGetOperand(w->op, 0);
  Shape xs;
  if (!dcCheckTensor(w, x, "the operand", &xs) || !dcComputeType(w, xs.type))
    return dcNullValue();
  MlirType elem = ttElementType(xs.type);
  MlirType rtype = mlirValueGetType(mlirOperationGetResult(w->op, 0));
  MlirAttribute dimAttr = ttOpAttr(w->op, "dim");
  MlirValue y = x;
  int64_t ys[TT_MAX_RANK], yr = xs.rank;
  memcpy(ys, xs.shape, sizeof ys);
  if (mlirAttributeIsNull(dimAttr)) {
    int64_t n = ttTensorNumel(xs.type);
    n = n < 0 ? mlirShapedTypeGetDynamicSize() : n; /* a dynamic dim: `?` elements */
    if (xs.rank != 1)
      y = dcPrim(w, "reshape", 1, &x, dcTensorOf(1, &n, elem), 0, NULL);
    yr = 1;
    ys[0] = n;
  } else {
    int64_t d = mlirIntegerAttrGetValueInt(dimAttr);
    d = d < 0 ? d + xs.rank : d; /* (in range: the prim verifier checked it) */
    if (d != xs.rank - 1) {
      int64_t perm[TT_MAX_RANK], n = 0;
      for (int64_t i = 0; i < xs.rank; i++)
        if (i != d)
          perm[n++] = i;
      perm[n] = d;
      for (int64_t i = 0; i < xs.rank; i++)
        ys[i] = xs.shape[perm[i]];
      MlirNamedAttribute p =
          ttNamedAttr(w->ctx, "permutation", mlirDenseI64ArrayGet(w->ctx, xs.rank, perm));
      y = dcPrim(w, "transpose", 1, &x, dcTensorOf(xs.rank, ys, elem), 1, &p);
    }
  }
  int64_t last = yr - 1;
  MlirNamedAttribute a =
      ttNamedAttr(w->ctx, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(w->ctx, 64), last));
  MlirType zt = dcTensorOf(yr - 1, ys, ttElementType(rtype));
  MlirValue z = dcPrim(w, w->name, 1, &y, zt, 1, &a);
  return mlirTypeEqual(zt, rtype) ? z : dcPrim(w, "reshape", 1, &z, rtype, 0, NULL);
}
