/* launch-metadata.c - the `//@` launch metadata that heads tt-translate's PTX.
 *
 * docs/metadata.md is the format. This file reads the host function (the one func.func
 * that is neither a tile kernel nor a fused function) after --tile:
 *  1. Number tensors: the function's arguments are inputs %0..%k-1; each call of a fused
 *     function (whose `tile.launch` attribute names its kernel) gets the next ids for its
 *     results (a fused function may return several: one kernel stores each), and each
 *     prim op inside the fused function one for its value.
 *  2. A call's result is an output when the host returns it, else a temp buffer; prim
 *     values inside fused functions are reference-only temps (a returned one is the
 *     call's result itself).
 *  3. Print tensor lines, then the prim program (fused functions in call order), then the
 *     launches with their arguments: the call's operand pointers, one pointer per result, then
 *     the `args` expressions, with `%iN`/`%rN` replaced by tensor ids. A launch whose
 *     `tile.launch` has `zero_result` (split-K kernels accumulate into their result; with
 *     `zero_kernel = @z`, from --pdl, a launch of @z over the result instead of the line) is
 *     preceded by `//@zero` of its result; such a file is format version 2, others 1. A
 *     launch with `workspace = S` and `reduce = @k` (two-stage split-K) gets a temp f32
 *     tensor [S, <result shape>] whose pointer follows the result's, and a second launch
 *     of @k with the same arguments and grid[1] = 1; with `workspace = S` and `counters`
 *     (reduce=last-slice) the temp is [S + 1, <result shape>] (the last slice holds the
 *     tiles' arrival counters; the runtime zeroes temps when it allocates them) and there
 *     is no second launch. A launch with `tma` (TMA descriptors,
 *     --pipeline stage-in=tma) ends its arguments with one `//@arg tma` per entry (format
 *     version 4: the maps by value; a batched map, BATCHxROWSxCOLS, format 8). `shared` is the kernel's dynamic shared memory, read
 *     from its gpu.func (`tt.dynamic_shared`), so the metadata is written after
 *     convert-tile-to-gpu; a kernel that waits for the launch before it (--pdl: its
 *     gpu.func has `tt.pdl`) gets `pdl` at the end of its launch line (format 5), and
 *     every launch of a call marked `tt.invariant` (it reads weights alone: --fuse's step
 *     6) gets `once` after it (format 9), and a launch whose tile.launch has `cluster = C`
 *     (a row split over a thread-block cluster) ` cluster C` after that (format 10).
 *  4. Dynamic dimensions (`?`) get symbolic sizes (format 6): each prim line makes the
 *     dimensions its rules say are equal one class (union-find over (tensor, dim); the
 *     same rules as runtime/rules.c: elementwise operands and result, broadcast_in_dim's
 *     mapped dims, a reduction's kept dims, transpose's permutation, matmul's batch, M,
 *     K and N, concat's other dims, index_select's other dims and its index's length,
 *     gather's index dims, pad's unpadded dims, a reshape that keeps its one dynamic dim, a
 *     workspace's result dims); a reshape with one dynamic dim on each side relates them
 *     by the ratio of the other dims' products (its result's = its operand's * px / pr:
 *     a weighted union-find, each slot's size a fraction of its root's). A class holding
 *     a static size prints each member's (when whole), else a class holding an input's
 *     dim prints symbol `sK` (numbered in input order; its unit the gcd of the members'
 *     sizes, so each is a whole multiple) or a multiple of it `sK*N` (format 7:
 *     [?, 8, 128, 64] viewed as [?, 128, 64] is s0*8; an input [?, 64] viewed as
 *     [?, 8, 64] is s0*8 itself); a class with neither is an error (nothing tells its size
 *     at run time).
 */
#include "tt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A positive fraction num / den in lowest terms (step 4's size ratios). */
typedef struct {
  int64_t num, den;
} Frac;

static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* a * b, or {0, 0} when a part would overflow (no ratio then). */
static Frac fracMul(Frac a, Frac b) {
  if (!a.den || !b.den)
    return (Frac){0, 0};
  int64_t g1 = gcd64(a.num, b.den), g2 = gcd64(b.num, a.den), n, d;
  if (__builtin_mul_overflow(a.num / g1, b.num / g2, &n) ||
      __builtin_mul_overflow(a.den / g2, b.den / g1, &d))
    return (Frac){0, 0};
  return (Frac){n, d};
}

static Frac fracInv(Frac a) { return (Frac){a.den, a.num}; }

/* The largest fraction both a and b are whole multiples of: gcd(nums) / lcm(dens) (a den
 * that overflows: {0, 0}). */
static Frac fracGcd(Frac a, Frac b) {
  int64_t g = gcd64(a.den, b.den), l;
  if (!a.den || !b.den || __builtin_mul_overflow(a.den / g, b.den, &l))
    return (Frac){0, 0};
  return (Frac){gcd64(a.num, b.num), l};
}

/* A tensor of the program: its type and role ("input", "output" or "temp"). */
typedef struct {
  MlirType type;
  const char *role;
  int index;
} Tensor;

typedef struct {
  Tensor *t;
  int n, cap;
  /* which tensor an SSA value stands for (a launch body's arguments and yielded value
   * stand for the launch's operands and result): value -> id, the last binding wins */
  TtPtrIndex b;
  /* the module's top-level ops and the gpu.funcs of @tt_kernels by name, indexed once
   * (a scan per launch was O(kernels) each) */
  TtModuleIndex mod;
  TtStrIndex gpuFuncs;
  MlirOperation *gpuOps;
  int *parent; /* step 4: union-find over dim slots (tensor * TT_MAX_RANK + dim) */
  Frac *w;     /* slot x's size is w[x] times its parent's (a reshape merges dims) */
  int nparent;
  TtStr prims, launches;
  bool zeroes; /* some launch zeroes its result first: format version 2 */
  bool tma;    /* some launch takes TMA descriptors: format version 4 */
  bool batchedTma; /* some descriptor is a batched (rank-3) map: format version 8 */
  bool pdl;    /* some launch is `pdl` (programmatic dependent launch): version 5 */
  bool symbolic; /* some tensor has a symbolic size (step 4): version 6 */
  bool scaled;   /* some tensor has a multiple of one (`s0*8`): version 7 */
  bool once;     /* some launch runs once (reads weights alone): version 9 */
  bool cluster;  /* some launch runs in thread-block clusters: version 10 */
  bool failed;
  const char *arch; /* the target, for its shared-memory limit */
} Meta;

static int tensorId(Meta *m, MlirValue v) { return ttPtrIndexFind(&m->b, v.ptr); }

static void bind(Meta *m, MlirValue v, int id) {
  if (v.ptr)
    ttPtrIndexPut(&m->b, v.ptr, id);
}

/* A new tensor of type `type` (no value stands for it yet). */
static int newTensor(Meta *m, MlirType type, const char *role, int index) {
  if (m->n == m->cap) { /* doubled: amortized O(1) a tensor */
    m->cap = m->cap ? 2 * m->cap : 64;
    m->t = ttRealloc(m->t, sizeof(Tensor) * (size_t)m->cap);
    m->parent = ttRealloc(m->parent, sizeof(int) * (size_t)m->cap * TT_MAX_RANK);
    m->w = ttRealloc(m->w, sizeof(Frac) * (size_t)m->cap * TT_MAX_RANK);
  }
  m->t[m->n] = (Tensor){type, role, index};
  for (int d = 0; d < TT_MAX_RANK; d++) {
    m->parent[m->n * TT_MAX_RANK + d] = m->n * TT_MAX_RANK + d;
    m->w[m->n * TT_MAX_RANK + d] = (Frac){1, 1};
  }
  return m->n++;
}

/* A new tensor for value v. */
static int addTensor(Meta *m, MlirValue v, const char *role, int index) {
  int id = newTensor(m, mlirValueGetType(v), role, index);
  bind(m, v, id);
  return id;
}

/* Step 4: dimension classes. ------------------------------------------------------------ */

/* The root of slot x's class, and in *w (may be NULL) x's size over the root's. The
 * slot itself is moved under the root (each find compresses its own path's start). */
static int dimFindW(Meta *m, int x, Frac *w) {
  Frac acc = {1, 1};
  int y = x;
  while (m->parent[y] != y) {
    acc = fracMul(acc, m->w[y]);
    y = m->parent[y];
  }
  if (m->parent[x] != y && acc.den) {
    m->parent[x] = y;
    m->w[x] = acc;
  }
  if (w)
    *w = acc;
  return y;
}

/* Makes dim da of tensor a and dim db of tensor b one class, with size(a.da) = r *
 * size(b.db) (ids < 0, or a ratio that overflows: nothing). */
static void dimUnionScaled(Meta *m, int a, int da, int b, int db, Frac r) {
  if (a < 0 || b < 0 || da < 0 || db < 0 || da >= TT_MAX_RANK || db >= TT_MAX_RANK)
    return;
  Frac wa, wb;
  int x = dimFindW(m, a * TT_MAX_RANK + da, &wa), y = dimFindW(m, b * TT_MAX_RANK + db, &wb);
  Frac f = fracMul(fracMul(r, wb), fracInv(wa)); /* size(x) = f * size(y) */
  if (x == y || !f.den)
    return;
  if (x > y) { /* the smaller slot is the root: inputs (the first ids) name classes */
    m->parent[x] = y;
    m->w[x] = f;
  } else {
    m->parent[y] = x;
    m->w[y] = fracInv(f);
  }
}

/* Makes dim da of tensor a and dim db of tensor b one class of equal sizes. */
static void dimUnion(Meta *m, int a, int da, int b, int db) {
  dimUnionScaled(m, a, da, b, db, (Frac){1, 1});
}

static int64_t rankOf(Meta *m, int id, int64_t shape[TT_MAX_RANK]) {
  int64_t r = ttTensorShape(m->t[id].type, shape);
  return r > TT_MAX_RANK ? TT_MAX_RANK : r;
}

/* Unions the dims op's rules make equal; `ids` are its operands', `rid` its result's. */
static void unifyPrim(Meta *m, MlirOperation op, const int *ids, int nids, int rid) {
  int64_t rs[TT_MAX_RANK], xs[TT_MAX_RANK], ys[TT_MAX_RANK];
  int64_t rr = rankOf(m, rid, rs), xr = nids > 0 ? rankOf(m, ids[0], xs) : 0;
  switch (ttPrimKind(op)) {
  case TT_PRIM_UNARY:
  case TT_PRIM_BINARY:
  case TT_PRIM_COMPARE:
  case TT_PRIM_WHERE:
  case TT_PRIM_CONVERT:
    for (int i = 0; i < nids; i++)
      for (int64_t d = 0; d < rr; d++)
        dimUnion(m, ids[i], (int)d, rid, (int)d);
    break;
  case TT_PRIM_BROADCAST: {
    MlirAttribute bd = ttOpAttr(op, "broadcast_dimensions");
    for (int64_t i = 0; i < xr; i++)
      if (xs[i] != 1)
        dimUnion(m, ids[0], (int)i, rid, (int)mlirDenseI64ArrayGetElement(bd, i));
    break;
  }
  case TT_PRIM_TRANSPOSE: {
    MlirAttribute perm = ttOpAttr(op, "permutation");
    for (int64_t i = 0; i < rr; i++)
      dimUnion(m, ids[0], (int)mlirDenseI64ArrayGetElement(perm, i), rid, (int)i);
    break;
  }
  case TT_PRIM_REDUCTION: {
    MlirAttribute dims = ttOpAttr(op, "dims");
    bool keep = ttOpAttrInt(op, "keepdim", 0) != 0, reduced[TT_MAX_RANK] = {0};
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(dims); i++) {
      int64_t d = mlirDenseI64ArrayGetElement(dims, i);
      d = d < 0 ? d + xr : d;
      if (d >= 0 && d < xr)
        reduced[d] = true;
    }
    for (int64_t d = 0, k = 0; d < xr; d++)
      if (!reduced[d])
        dimUnion(m, ids[0], (int)d, rid, (int)(keep ? d : k++));
    break;
  }
  case TT_PRIM_ARGREDUCE: { /* the dims but `dim` (none: every dim is reduced) */
    MlirAttribute da = ttOpAttr(op, "dim");
    if (mlirAttributeIsNull(da))
      break;
    int64_t r = mlirIntegerAttrGetValueInt(da);
    r = r < 0 ? r + xr : r;
    bool keep = ttOpAttrInt(op, "keepdim", 0) != 0;
    for (int64_t d = 0, k = 0; d < xr; d++)
      if (d != r)
        dimUnion(m, ids[0], (int)d, rid, (int)(keep ? d : k++));
    break;
  }
  case TT_PRIM_MATMUL: { /* batch dims from the right, M, K and N */
    int64_t yr = rankOf(m, ids[1], ys);
    if (xr < 2 || yr < 2 || rr < 2)
      break;
    dimUnion(m, ids[0], (int)xr - 2, rid, (int)rr - 2);
    dimUnion(m, ids[0], (int)xr - 1, ids[1], (int)yr - 2);
    dimUnion(m, ids[1], (int)yr - 1, rid, (int)rr - 1);
    for (int64_t i = 3; i <= rr; i++) {
      if (xr >= i && xs[xr - i] != 1)
        dimUnion(m, ids[0], (int)(xr - i), rid, (int)(rr - i));
      if (yr >= i && ys[yr - i] != 1)
        dimUnion(m, ids[1], (int)(yr - i), rid, (int)(rr - i));
    }
    break;
  }
  case TT_PRIM_CONCAT: {
    int64_t cd = ttOpAttrInt(op, "dim", 0);
    for (int i = 0; i < nids; i++)
      for (int64_t d = 0; d < rr; d++)
        if (d != cd)
          dimUnion(m, ids[i], (int)d, rid, (int)d);
    break;
  }
  case TT_PRIM_INDEX: { /* index_select: x's other dims, the index's length in dim;
                         * gather: the index's dims */
    int64_t cd = ttOpAttrInt(op, "dim", 0);
    bool gather = ttOpIs(op, "prim.gather");
    for (int64_t d = 0; d < rr && nids > 1; d++)
      if (gather || d == cd)
        dimUnion(m, ids[1], gather ? (int)d : 0, rid, (int)d);
      else
        dimUnion(m, ids[0], (int)d, rid, (int)d);
    break;
  }
  case TT_PRIM_PAD: { /* the dims without padding */
    MlirAttribute lo = ttOpAttr(op, "low"), hi = ttOpAttr(op, "high");
    for (int64_t d = 0; d < rr && d < xr; d++)
      if (!mlirDenseI64ArrayGetElement(lo, d) && !mlirDenseI64ArrayGetElement(hi, d))
        dimUnion(m, ids[0], (int)d, rid, (int)d);
    break;
  }
  case TT_PRIM_RESHAPE: { /* one dynamic dim on each side: rd * pr = xd * px */
    int xd = -1, rd = -1, nx = 0, nr = 0;
    int64_t px = 1, pr = 1;
    bool over = false;
    for (int64_t d = 0; d < xr; d++)
      xs[d] < 0 ? (xd = (int)d, nx++) : (over |= __builtin_mul_overflow(px, xs[d], &px));
    for (int64_t d = 0; d < rr; d++)
      rs[d] < 0 ? (rd = (int)d, nr++) : (over |= __builtin_mul_overflow(pr, rs[d], &pr));
    int64_t g = !over && px > 0 && pr > 0 ? gcd64(px, pr) : 0;
    if (nx == 1 && nr == 1 && g)
      dimUnionScaled(m, rid, rd, ids[0], xd, (Frac){px / g, pr / g});
    break;
  }
  default:
    break;
  }
}

/* Step 4's answer per class root: the root's size when a member is static (size[root]
 * the fraction; den 0: none) and the symbol of a class an input's dim sizes (sym[root],
 * else -1; base[root] the symbol's size over the root's), for every dim slot. */
static void classSizes(Meta *m, Frac *size, int *sym, Frac *base) {
  int n = m->n * TT_MAX_RANK, next = 0;
  for (int x = 0; x < n; x++) {
    size[x] = (Frac){0, 0};
    sym[x] = -1;
  }
  for (int id = 0; id < m->n; id++) {
    int64_t s[TT_MAX_RANK], r = rankOf(m, id, s);
    for (int64_t d = 0; d < r; d++) {
      Frac w;
      int root = dimFindW(m, id * TT_MAX_RANK + (int)d, &w);
      if (s[d] > 0 && w.den) /* size(root) = s / w */
        size[root] = fracMul((Frac){s[d], 1}, fracInv(w));
    }
  }
  /* the symbol's unit: the largest fraction of the root's size that every member's is a
   * whole multiple of (the gcd of their weights), so that a reshape splitting the dynamic
   * dim ([?, 64] as [?, 8, 64]) names the input a multiple (s0*8) instead of failing */
  for (int x = 0; x < n; x++)
    base[x] = (Frac){0, 0};
  for (int id = 0; id < m->n; id++) {
    int64_t s[TT_MAX_RANK], r = rankOf(m, id, s);
    for (int64_t d = 0; d < r; d++) {
      Frac w;
      int root = dimFindW(m, id * TT_MAX_RANK + (int)d, &w);
      if (s[d] < 0 && !size[root].den && w.den)
        base[root] = base[root].den ? fracGcd(base[root], w) : w;
    }
  }
  for (int id = 0; id < m->n && strcmp(m->t[id].role, "input") == 0; id++) {
    int64_t s[TT_MAX_RANK], r = rankOf(m, id, s);
    for (int64_t d = 0; d < r; d++) {
      int root = dimFindW(m, id * TT_MAX_RANK + (int)d, NULL);
      if (s[d] < 0 && !size[root].den && sym[root] < 0 && base[root].den)
        sym[root] = next++;
    }
  }
}

/* Appends tensor id's shape: static sizes, the size a class fixes, or its symbol (or a
 * multiple of it: `s0*8`). */
static void printShape(Meta *m, MlirOperation at, int id, const Frac *size, const int *sym,
                       const Frac *base, TtStr *out) {
  int64_t shape[TT_MAX_RANK], r = rankOf(m, id, shape);
  if (r == 0)
    ttStrAppend(out, "scalar", 6);
  for (int64_t d = 0; d < r; d++) {
    ttStrAppend(out, "x", d ? 1 : 0);
    Frac w;
    int root = dimFindW(m, id * TT_MAX_RANK + (int)d, &w);
    Frac v = size[root].den && w.den ? fracMul(w, size[root]) : (Frac){0, 0};
    Frac k = sym[root] >= 0 && w.den ? fracMul(w, fracInv(base[root])) : (Frac){0, 0};
    if (shape[d] >= 0 || (v.den == 1 && v.num > 0)) {
      ttStrAppendf(out, "%lld", (long long)(shape[d] >= 0 ? shape[d] : v.num));
    } else if (k.den == 1 && k.num >= 1) {
      ttStrAppendf(out, "s%d", sym[root]);
      if (k.num > 1)
        ttStrAppendf(out, "*%lld", (long long)k.num);
      m->symbolic = true;
      m->scaled |= k.num > 1;
    } else {
      ttEmitError(at, "tt-translate: dimension %lld of tensor %%%d is dynamic, and no input's "
                      "dimension gives its size at run time",
                  (long long)d, id);
      m->failed = true;
      return;
    }
  }
}

/* Copies expression `e`, replacing %iN / %rN with tensor ids of launch operands/results. */
static void substitute(Meta *m, MlirOperation call, const MlirValue *inputs, int nin,
                       const char *e, TtStr *out) {
  for (const char *p = e; *p;) {
    if (p[0] == '%' && (p[1] == 'i' || p[1] == 'r') && isdigit((unsigned char)p[2])) {
      char *end;
      long k = strtol(p + 2, &end, 10);
      bool isIn = p[1] == 'i';
      intptr_t n = isIn ? nin : mlirOperationGetNumResults(call);
      if (k >= n) {
        ttEmitError(call, "tile.launch: '%s' names %s %ld, which it does not have", e,
                    isIn ? "input" : "result", k);
        m->failed = true;
        return;
      }
      MlirValue v = isIn ? inputs[k] : mlirOperationGetResult(call, k);
      ttStrAppendf(out, "%%%d", tensorId(m, v));
      p = end;
    } else {
      ttStrAppend(out, p++, 1);
    }
  }
}

/* Appends ` key=A0,A1,...` for op's array<i64> attribute `key` (slice's, pad's). */
static void arrayAttr(Meta *m, MlirOperation op, const char *key) {
  MlirAttribute a = ttOpAttr(op, key);
  ttStrAppendf(&m->prims, " %s=", key);
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); i++)
    ttStrAppendf(&m->prims, "%s%lld", i ? "," : "", (long long)mlirDenseI64ArrayGetElement(a, i));
}

/* Appends one prim line for op, whose result gets tensor id `id`. */
static void primLine(Meta *m, MlirOperation op, int id) {
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  if (ttPrimKind(op) == TT_PRIM_CONSTANT) /* full and splat constant read the same */
    snprintf(name, sizeof name, "constant");
  ttStrAppendf(&m->prims, "//@prim %%%d = %s", id, name);
  intptr_t n = mlirOperationGetNumOperands(op);
  int ids[8];
  for (intptr_t i = 0; i < n; i++) {
    int oid = tensorId(m, mlirOperationGetOperand(op, i));
    if (i < 8)
      ids[i] = oid;
    ttStrAppendf(&m->prims, " %%%d", oid);
  }
  unifyPrim(m, op, ids, n < 8 ? (int)n : 8, id);
  TtPrimKind k = ttPrimKind(op);
  if (k == TT_PRIM_BROADCAST || k == TT_PRIM_REDUCTION || k == TT_PRIM_TRANSPOSE) {
    MlirAttribute dims = ttOpAttr(op, k == TT_PRIM_BROADCAST   ? "broadcast_dimensions"
                                      : k == TT_PRIM_TRANSPOSE ? "permutation"
                                                               : "dims");
    int64_t rank = mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetOperand(op, 0)));
    ttStrAppendf(&m->prims, " %s=", k == TT_PRIM_TRANSPOSE ? "perm" : "dims");
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(dims); i++) {
      int64_t d = mlirDenseI64ArrayGetElement(dims, i);
      if (k == TT_PRIM_REDUCTION && d < 0) /* reductions count negative dims from the end */
        d += rank;
      ttStrAppendf(&m->prims, "%s%lld", i ? "," : "", (long long)d);
    }
    if (k == TT_PRIM_REDUCTION)
      ttStrAppendf(&m->prims, " keepdim=%d", ttOpAttrInt(op, "keepdim", 0) != 0);
  } else if (k == TT_PRIM_ARGREDUCE) { /* dims= one dim, or none (all dims) */
    MlirAttribute d = ttOpAttr(op, "dim");
    int64_t rank = mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetOperand(op, 0)));
    int64_t v = mlirAttributeIsNull(d) ? 0 : mlirIntegerAttrGetValueInt(d);
    ttStrAppendf(&m->prims, " dims=");
    if (!mlirAttributeIsNull(d))
      ttStrAppendf(&m->prims, "%lld", (long long)(v < 0 ? v + rank : v));
    ttStrAppendf(&m->prims, " keepdim=%d", ttOpAttrInt(op, "keepdim", 0) != 0);
  } else if (k == TT_PRIM_CONCAT || k == TT_PRIM_INDEX) {
    ttStrAppendf(&m->prims, " dim=%lld", (long long)ttOpAttrInt(op, "dim", 0));
  } else if (k == TT_PRIM_IOTA) {
    ttStrAppendf(&m->prims, " dimension=%lld", (long long)ttOpAttrInt(op, "dimension", 0));
  } else if (k == TT_PRIM_SLICE) {
    static const char *const keys[3] = {"start", "stop", "step"};
    for (int j = 0; j < 3; j++)
      arrayAttr(m, op, keys[j]);
  } else if (k == TT_PRIM_PAD) {
    arrayAttr(m, op, "low");
    arrayAttr(m, op, "high");
    ttStrAppendf(&m->prims, " value=%.17g", mlirFloatAttrGetValueDouble(ttOpAttr(op, "value")));
  } else if (k == TT_PRIM_COMPARE) {
    char dir[16] = "";
    ttOpAttrStr(op, "direction", dir, sizeof dir);
    ttStrAppendf(&m->prims, " direction=%s", dir);
  } else if (k == TT_PRIM_CONSTANT) {
    double v;
    if (!ttPrimSplatValue(op, &v)) {
      ttEmitError(op, "tt-translate: only splat constants can be described yet");
      m->failed = true;
    }
    ttStrAppendf(&m->prims, " value=%.17g", v);
  } else if (k != TT_PRIM_UNARY && k != TT_PRIM_BINARY && k != TT_PRIM_WHERE &&
             k != TT_PRIM_CONVERT && k != TT_PRIM_RESHAPE && k != TT_PRIM_MATMUL) {
    ttEmitError(op, "tt-translate: 'prim.%s' cannot be described to the reference yet", name);
    m->failed = true;
  }
  ttStrAppend(&m->prims, "\n", 1);
}

/* The gpu.func of kernel `name` (a null op before convert-tile-to-gpu). */
static MlirOperation gpuFunc(const Meta *m, const char *name) {
  int i = ttStrIndexFind(&m->gpuFuncs, ttStrRef(name));
  return i < 0 || !ttOpIs(m->gpuOps[i], "gpu.func") ? (MlirOperation){NULL} : m->gpuOps[i];
}

/* Threads per block of kernel `name`, from the tile kernel or its gpu.func. */
static int64_t blockThreads(const Meta *m, const char *name) {
  MlirOperation f = ttModuleIndexSymbol(&m->mod, name);
  if (!mlirOperationIsNull(f))
    return 32 * (ttOpAttrInt(f, "tile.num_warps", 4) + ttOpAttrInt(f, "tile.producer_warps", 0));
  MlirOperation g = gpuFunc(m, name);
  MlirAttribute bs = mlirOperationIsNull(g) ? mlirAttributeGetNull() : ttOpAttr(g, "known_block_size");
  return mlirAttributeIsNull(bs) ? 0 : mlirDenseI32ArrayGetElement(bs, 0);
}

/* Dynamic shared memory of kernel `name`: its gpu.func's `tt.dynamic_shared` (TMA rings),
 * else 0 (static shared memory needs no launch parameter). */
static int64_t dynamicShared(const Meta *m, const char *name) {
  MlirOperation g = gpuFunc(m, name);
  return mlirOperationIsNull(g) ? 0 : ttOpAttrInt(g, "tt.dynamic_shared", 0);
}

/* Builds m's indexes of the module (the module is not changed while they are used): its
 * top-level ops, and the ops of `gpu.module @tt_kernels` by sym_name (the first wins). */
static void indexModule(Meta *m, MlirModule module) {
  ttModuleIndexInit(&m->mod, module);
  MlirOperation gm = ttModuleIndexSymbol(&m->mod, "tt_kernels");
  if (mlirOperationIsNull(gm) || !ttOpIs(gm, "gpu.module"))
    return;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0));
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  m->gpuOps = ttAlloc(sizeof(MlirOperation) * (size_t)(n ? n : 1));
  n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute s = ttOpAttr(op, "sym_name");
    m->gpuOps[n] = op;
    if (!mlirAttributeIsNull(s) && mlirAttributeIsAString(s))
      ttStrIndexAdd(&m->gpuFuncs, mlirStringAttrGetValue(s), n);
    n++;
  }
}

/* The most shared memory a block may opt in to on `arch` (target.c's table). */
static int64_t archSharedLimit(const char *arch) {
  const TtTarget *t = ttTargetLookup(arch);
  return t ? (int64_t)t->smemBlockKiB * 1024 : TT_SMEM_LIMIT;
}

/* Whether the `tile.launch` dictionary `launch` of fused function fn asks for the result
 * to be zeroed before the launch: `zero_result`, a unit attribute or true. */
static bool zeroesResult(Meta *m, MlirOperation fn, MlirAttribute launch) {
  MlirAttribute z = mlirDictionaryAttrGetElementByName(launch, ttStrRef("zero_result"));
  if (mlirAttributeIsNull(z))
    return false;
  if (mlirAttributeIsAUnit(z))
    return true;
  if (mlirAttributeIsABool(z))
    return mlirBoolAttrGetValue(z);
  ttEmitError(fn, "tile.launch: zero_result must be a unit or bool attribute");
  m->failed = true;
  return false;
}

/* A dynamic M's bucket (format 6): ` when EXPR in LO..[HI]` on the launch line being
 * written, from `launch`'s when / when_range; nothing without them. False after an
 * error. */
static bool whenClause(Meta *m, MlirOperation call, MlirAttribute launch,
                       const MlirValue *inputs, int nin) {
  MlirAttribute when = mlirDictionaryAttrGetElementByName(launch, ttStrRef("when"));
  MlirAttribute range = mlirDictionaryAttrGetElementByName(launch, ttStrRef("when_range"));
  if (!mlirAttributeIsNull(when)) { /* a dynamic M's bucket (format 6) */
    if (!mlirAttributeIsAString(when) || mlirAttributeIsNull(range) ||
        !mlirAttributeIsADenseI64Array(range) || mlirDenseArrayGetNumElements(range) != 2 ||
        mlirDenseI64ArrayGetElement(range, 0) < 1 ||
        mlirDenseI64ArrayGetElement(range, 1) < 0) {
      ttEmitError(call, "tile.launch: when (an expression) needs when_range = array<i64: lo, "
                        "hi> (lo >= 1; hi 0: no upper bound)");
      m->failed = true;
      return false;
    }
    MlirStringRef w = mlirStringAttrGetValue(when);
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)w.length, w.data);
    ttStrAppend(&m->launches, " when ", 6);
    substitute(m, call, inputs, nin, buf, &m->launches);
    ttStrAppendf(&m->launches, " in %lld..", (long long)mlirDenseI64ArrayGetElement(range, 0));
    if (mlirDenseI64ArrayGetElement(range, 1) > 0)
      ttStrAppendf(&m->launches, "%lld", (long long)mlirDenseI64ArrayGetElement(range, 1));
    m->symbolic = true;
  }
  return true;
}

/* The end of kernel `name`'s launch line: ` block T 1 1 shared S`, ` pdl` where its
 * gpu.func waits for the launch before it (an error where S passes the arch's limit), and
 * ` once` where the call is `tt.invariant` (--fuse's step 6: it reads weights alone). */
static void launchBlock(Meta *m, MlirOperation call, const char *name) {
  int64_t shared = dynamicShared(m, name);
  if (shared > archSharedLimit(m->arch)) {
    ttEmitError(call, "tt-translate: kernel @%s needs %lld bytes of shared memory; %s allows "
                      "at most %lld a block (smaller dot tiles: --tile='tma=0' for "
                      "targets without TMA, or block-m, block-n, block-k; or fewer "
                      "--pipeline stages)",
                name, (long long)shared, m->arch, (long long)archSharedLimit(m->arch));
    m->failed = true;
  }
  MlirOperation g = gpuFunc(m, name);
  bool pdl = !mlirOperationIsNull(g) && !mlirAttributeIsNull(ttOpAttr(g, "tt.pdl"));
  m->pdl = m->pdl || pdl;
  bool once = !mlirAttributeIsNull(ttOpAttr(call, "tt.invariant"));
  m->once = m->once || once;
  ttStrAppendf(&m->launches, " block %lld 1 1 shared %lld%s%s",
               (long long)blockThreads(m, name), (long long)shared, pdl ? " pdl" : "",
               once ? " once" : "");
}

/* The launch and arg lines of kernel `kname` for a call: grid from `launch` (grid[1] = 1
 * for a split-K reduce kernel), pointers to the call's operands, its result (tensor rid)
 * and the workspace (wid, when >= 0), then the `args` expressions. */
static void launchLines(Meta *m, MlirOperation call, MlirAttribute launch,
                        const MlirValue *inputs, int nin, MlirStringRef kname, int rid, int wid,
                        bool reduce) {
  MlirAttribute grid = mlirDictionaryAttrGetElementByName(launch, ttStrRef("grid"));
  MlirAttribute args = mlirDictionaryAttrGetElementByName(launch, ttStrRef("args"));
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)kname.length, kname.data);
  ttStrAppendf(&m->launches, "//@launch %s grid", name);
  for (intptr_t i = 0; i < 3; i++) {
    MlirStringRef g = mlirStringAttrGetValue(mlirArrayAttrGetElement(grid, i));
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)g.length, g.data);
    ttStrAppend(&m->launches, " ", 1);
    substitute(m, call, inputs, nin, reduce && i == 1 ? "1" : buf, &m->launches);
  }
  launchBlock(m, call, name);
  MlirAttribute cluster = mlirDictionaryAttrGetElementByName(launch, ttStrRef("cluster"));
  if (!mlirAttributeIsNull(cluster) && !reduce) { /* clusters along x (format 10; 2 to 8: */
    m->cluster = true;                              /* the tile verifier's check) */
    ttStrAppendf(&m->launches, " cluster %lld", (long long)mlirIntegerAttrGetValueInt(cluster));
  }
  if (!whenClause(m, call, launch, inputs, nin))
    return;
  ttStrAppend(&m->launches, "\n", 1);
  for (int i = 0; i < nin; i++)
    ttStrAppendf(&m->launches, "//@arg ptr %%%d\n", tensorId(m, inputs[i]));
  for (intptr_t k = 0; k < mlirOperationGetNumResults(call); k++)
    ttStrAppendf(&m->launches, "//@arg ptr %%%d\n", rid + (int)k);
  if (wid >= 0)
    ttStrAppendf(&m->launches, "//@arg ptr %%%d\n", wid);
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(args); i++) {
    MlirStringRef a = mlirStringAttrGetValue(mlirArrayAttrGetElement(args, i));
    char buf[256];
    snprintf(buf, sizeof buf, "%.*s", (int)a.length, a.data);
    ttStrAppend(&m->launches, "//@arg i32 ", 11);
    substitute(m, call, inputs, nin, buf, &m->launches);
    ttStrAppend(&m->launches, "\n", 1);
  }
  /* TMA descriptors, last: [input, D0, D1, box rows, box columns] each (format 4), or
   * [input, batch, D0, D1, box rows, box columns] for a batched map (format 8) */
  MlirAttribute tma = mlirDictionaryAttrGetElementByName(launch, ttStrRef("tma"));
  for (intptr_t i = 0; !reduce && !mlirAttributeIsNull(tma) && i < mlirArrayAttrGetNumElements(tma); i++) {
    MlirAttribute e = mlirArrayAttrGetElement(tma, i);
    intptr_t n = mlirAttributeIsADenseI64Array(e) ? mlirDenseArrayGetNumElements(e) : 0;
    int64_t v[6] = {-1, 0, 0, 0, 0, 0};
    if (n == 5 || n == 6)
      v[0] = mlirDenseI64ArrayGetElement(e, 0);
    if (v[0] >= 0 && v[0] < nin)
      for (int j = 1; j < 6; j++) /* v: input, batch (0: none), D0, D1, box rows, columns */
        v[j] = j == 1 && n == 5 ? 0 : mlirDenseI64ArrayGetElement(e, j - (n == 5));
    if (v[0] < 0 || v[0] >= nin || (n == 6 && (v[1] < 1 || v[2] < 1))) {
      ttEmitError(call, "tile.launch: each tma entry is array<i64: input, [batch,] D0, D1, "
                        "box rows, box columns> of an input of the call (a batch and D0 "
                        "of at least 1)");
      m->failed = true;
      return;
    }
    char rows[48] = "?"; /* a dynamic M: numel / columns rows at run time (format 6) */
    if (v[1])
      snprintf(rows, sizeof rows, "%lldx%lld", (long long)v[1], (long long)v[2]);
    else if (v[2] >= 0)
      snprintf(rows, sizeof rows, "%lld", (long long)v[2]);
    else
      m->symbolic = true;
    ttStrAppendf(&m->launches, "//@arg tma %%%d %sx%lld box %lldx%lld\n",
                 tensorId(m, inputs[v[0]]), rows, (long long)v[3], (long long)v[4],
                 (long long)v[5]);
    m->batchedTma |= v[1] != 0;
    m->tma = true;
  }
}

/* The lines of one kernel (and a two-stage reduce) of fused function fn, whose
 * `tile.launch` is `launch`, for `call`: its workspace tensor, zero lines and launches. */
static void kernelLines(Meta *m, MlirOperation call, MlirOperation fn,
                        MlirAttribute launch, const MlirValue *inputs, int nin,
                        MlirValue result, int rid) {
  MlirAttribute kernel = mlirDictionaryAttrGetElementByName(launch, ttStrRef("kernel"));
  MlirAttribute reduce = mlirDictionaryAttrGetElementByName(launch, ttStrRef("reduce"));
  MlirAttribute slices = mlirDictionaryAttrGetElementByName(launch, ttStrRef("workspace"));
  int wid = -1;
  bool counters = !mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(launch, ttStrRef("counters")));
  if (!mlirAttributeIsNull(slices)) { /* f32 [S, <result shape>], [S + 1, ...] with counters */
    if (!mlirAttributeIsAInteger(slices) ||
        (!counters && (mlirAttributeIsNull(reduce) || !mlirAttributeIsAFlatSymbolRef(reduce)))) {
      ttEmitError(fn, "tile.launch: workspace = S (an integer) needs reduce = @kernel or "
                      "counters");
      m->failed = true;
      return;
    }
    int64_t shape[TT_MAX_RANK + 1] = {mlirIntegerAttrGetValueInt(slices) + counters};
    intptr_t r = ttTensorShape(mlirValueGetType(result), shape + 1);
    MlirType ws = mlirRankedTensorTypeGet(r + 1, shape, mlirF32TypeGet(mlirOperationGetContext(fn)),
                                          mlirAttributeGetNull());
    wid = newTensor(m, ws, "temp", 0);
    for (intptr_t d = 0; d < r; d++)
      dimUnion(m, rid, (int)d, wid, (int)d + 1);
  }
  if (mlirAttributeIsNull(kernel) || !mlirAttributeIsAFlatSymbolRef(kernel)) {
    ttEmitError(fn, "tile.launch: kernel must name the kernel function");
    m->failed = true;
    return;
  }
  MlirAttribute zk = mlirDictionaryAttrGetElementByName(launch, ttStrRef("zero_kernel"));
  bool zero = zeroesResult(m, fn, launch);
  if (zero && !mlirAttributeIsNull(zk) && mlirAttributeIsAFlatSymbolRef(zk)) {
    /* --pdl's zero kernel: (ptr, i32 numel), 1024 elements a program */
    MlirStringRef z = mlirFlatSymbolRefAttrGetValue(zk);
    char name[160];
    snprintf(name, sizeof name, "%.*s", (int)z.length, z.data);
    ttStrAppendf(&m->launches, "//@launch %s grid cdiv(numel(%%%d),1024) 1 1", name, rid);
    launchBlock(m, call, name);
    if (!whenClause(m, call, launch, inputs, nin)) /* with its dot kernel, or not at all */
      return;
    ttStrAppendf(&m->launches, "\n//@arg ptr %%%d\n//@arg i32 numel(%%%d)\n", rid, rid);
  } else if (zero) {
    ttStrAppendf(&m->launches, "//@zero %%%d\n", rid);
    m->zeroes = true;
  }
  launchLines(m, call, launch, inputs, nin, mlirFlatSymbolRefAttrGetValue(kernel), rid,
              wid, false);
  if (wid >= 0 && !counters)
    launchLines(m, call, launch, inputs, nin, mlirFlatSymbolRefAttrGetValue(reduce),
                rid, wid, true);
}

/* Steps 1-2 for one call of a fused function, and its lines. */
static void describeLaunch(Meta *m, MlirOperation call) {
  MlirStringRef cname = mlirFlatSymbolRefAttrGetValue(ttOpAttr(call, "callee"));
  char callee[128];
  snprintf(callee, sizeof callee, "%.*s", (int)cname.length, cname.data);
  MlirOperation fn = ttModuleIndexSymbol(&m->mod, callee);
  MlirAttribute launch = mlirOperationIsNull(fn) ? mlirAttributeGetNull()
                                                 : ttOpAttr(fn, "tile.launch");
  intptr_t nres = mlirOperationGetNumResults(call);
  MlirBlock body = mlirAttributeIsNull(launch)
                       ? (MlirBlock){NULL}
                       : mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (mlirAttributeIsNull(launch) || nres < 1 || mlirBlockIsNull(body) ||
      mlirOperationGetNumOperands(mlirBlockGetTerminator(body)) != nres) {
    ttEmitError(call, "tt-translate: '%s' is not a fused function with a kernel (run "
                      "--fuse and --tile)",
                callee);
    m->failed = true;
    return;
  }
  int nin = (int)mlirOperationGetNumOperands(call);
  MlirValue *inputs = ttAlloc(sizeof(MlirValue) * (size_t)(nin + 1));
  for (int i = 0; i < nin; i++) {
    inputs[i] = mlirOperationGetOperand(call, i);
    if (tensorId(m, inputs[i]) < 0) {
      ttEmitError(call, "tt-translate: operand %d is not a tensor of the program", i);
      m->failed = true;
      free(inputs);
      return;
    }
  }
  MlirValue result = mlirOperationGetResult(call, 0);
  int rid = addTensor(m, result, "temp", 0); /* the results' ids: rid .. rid + nres - 1 */
  for (intptr_t k = 1; k < nres; k++)
    addTensor(m, mlirOperationGetResult(call, k), "temp", 0);
  for (int i = 0; i < nin; i++)
    bind(m, mlirBlockGetArgument(body, i), tensorId(m, inputs[i]));
  MlirOperation ret = mlirBlockGetTerminator(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (ttOpIs(op, "func.return"))
      break;
    MlirValue v = mlirOperationGetResult(op, 0);
    int id = -1;
    for (intptr_t k = 0; k < nres && id < 0; k++)
      if (mlirValueEqual(v, mlirOperationGetOperand(ret, k)))
        id = rid + (int)k;
    if (id >= 0)
      bind(m, v, id);
    else
      id = addTensor(m, v, "temp", 0);
    primLine(m, op, id);
  }
  kernelLines(m, call, fn, launch, inputs, nin, result, rid);
  /* a dynamic M's other buckets: fused functions with tile.variant_of = @callee, inserted
   * right after it by --tile (only a fusion with tile.when has any) */
  bool buckets = !mlirAttributeIsNull(ttOpAttr(fn, "tile.when"));
  for (MlirOperation v = mlirOperationGetNextInBlock(fn);
       buckets && !mlirOperationIsNull(v) && !m->failed; v = mlirOperationGetNextInBlock(v)) {
    MlirAttribute of = ttOpAttr(v, "tile.variant_of");
    if (mlirAttributeIsNull(of) || !mlirAttributeIsAFlatSymbolRef(of) ||
        !ttStrRefEq(mlirFlatSymbolRefAttrGetValue(of), callee))
      continue;
    MlirAttribute vl = ttOpAttr(v, "tile.launch");
    if (mlirAttributeIsNull(vl) || !mlirAttributeIsADictionary(vl)) {
      ttEmitError(v, "tt-translate: a variant of @%s without a kernel (run --tile)", callee);
      m->failed = true;
      break;
    }
    kernelLines(m, call, v, vl, inputs, nin, result, rid);
  }
  free(inputs);
}

bool ttEmitLaunchMetadata(MlirModule module, const char *arch, TtStr *out) {
  MlirOperation host = {NULL};
  MlirBlock mb = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(mb); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (ttOpIs(op, "func.func") && mlirAttributeIsNull(ttOpAttr(op, "tile.kernel")) &&
        mlirAttributeIsNull(ttOpAttr(op, "prim.fusion"))) {
      if (!mlirOperationIsNull(host)) {
        ttEmitError(op, "tt-translate: one host function per program is supported yet");
        return false;
      }
      host = op;
    }
  if (mlirOperationIsNull(host)) {
    ttEmitError(mlirModuleGetOperation(module), "tt-translate: the program has no host "
                                                "function");
    return false;
  }
  Meta m = {0};
  m.arch = arch;
  indexModule(&m, module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(host, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); i++)
    addTensor(&m, mlirBlockGetArgument(body, i), "input", (int)i);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && !m.failed; op = mlirOperationGetNextInBlock(op)) {
    if (ttOpIs(op, "func.call")) {
      describeLaunch(&m, op);
    } else if (ttOpIs(op, "func.return")) {
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        int id = tensorId(&m, mlirOperationGetOperand(op, i));
        if (id < 0 || strcmp(m.t[id].role, "temp") != 0) {
          ttEmitError(op, "tt-translate: result %d must be computed by a kernel (returning "
                          "an input or the same value twice is not supported yet)",
                      (int)i);
          m.failed = true;
          break;
        }
        m.t[id].role = "output";
        m.t[id].index = (int)i;
      }
    } else {
      char name[64];
      ttEmitError(op, "tt-translate: '%s' is not inside a kernel; run --fuse and --tile "
                      "(tt-translate does when it is given prim ops)",
                  ttOpName(op, name, sizeof name));
      m.failed = true;
    }
  }
  TtStr tensors = {0};
  Frac *size = ttAlloc(sizeof(Frac) * (size_t)(m.n + 1) * TT_MAX_RANK);
  Frac *base = ttAlloc(sizeof(Frac) * (size_t)(m.n + 1) * TT_MAX_RANK);
  int *sym = ttAlloc(sizeof(int) * (size_t)(m.n + 1) * TT_MAX_RANK);
  classSizes(&m, size, sym, base);
  for (int i = 0; i < m.n && !m.failed; i++) {
    ttStrAppendf(&tensors, "//@tensor %%%d %s", i, m.t[i].role);
    if (strcmp(m.t[i].role, "temp") != 0)
      ttStrAppendf(&tensors, " %d", m.t[i].index);
    ttStrAppendf(&tensors, " %s ", ttDtypeName(m.t[i].type));
    printShape(&m, host, i, size, sym, base, &tensors);
    ttStrAppend(&tensors, "\n", 1);
  }
  if (!m.failed) {
    ttStrAppendf(out, "//@tt-meta %d arch %s\n",
                 m.cluster ? 10 : m.once ? 9 : m.batchedTma ? 8 : m.scaled ? 7 : m.symbolic ? 6 : m.pdl ? 5 : m.tma ? 4 : m.zeroes ? 2 : 1,
                 arch);
    ttStrAppend(out, tensors.data ? tensors.data : "", tensors.len);
    ttStrAppend(out, m.prims.data ? m.prims.data : "", m.prims.len);
    ttStrAppend(out, m.launches.data ? m.launches.data : "", m.launches.len);
  }
  free(size);
  free(base);
  free(sym);
  ttStrDestroy(&tensors);
  ttStrDestroy(&m.prims);
  ttStrDestroy(&m.launches);
  free(m.t);
  ttPtrIndexDestroy(&m.b);
  ttModuleIndexDestroy(&m.mod);
  ttStrIndexDestroy(&m.gpuFuncs);
  free(m.gpuOps);
  free(m.parent);
  free(m.w);
  return !m.failed;
}
