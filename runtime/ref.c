/* ref.c - float64 reference interpreter of the prim program, and comparison
 * of outputs with the reference.
 *
 * ttrtRefEvaluate runs the prim lines in order, each op over whole float64
 * arrays: elementwise ops through a table of functions, broadcast_in_dim,
 * slice and reductions as strided walks, argmax/argmin as a walk keeping
 * the best value and index of each result element, concat as block copies,
 * index_select as block copies and gather as a strided walk plus the index
 * (every index checked first: one out of [0, size) is an error naming the
 * line and the element), iota from the flat index, pad as a fill then a
 * walk of the operand into the result, transpose in square tiles, matmul in cache
 * blocks (threads split the column blocks; every sum keeps its order), and
 * `convert` rounding through the dtype table (dtype.c). A value dies after
 * its last use and its array is reused by a later value of the same size.
 * See ref.h for the interface and docs/metadata.md for the semantics of each
 * op and of rounding to each dtype.
 */
#include "ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*===------------------------------------------------------------------===*
 * Elementwise functions
 *===------------------------------------------------------------------===*/

static double negate(double x) { return -x; }
static double rsqrtOf(double x) { return 1.0 / sqrt(x); }
static double reciprocalOf(double x) { return 1.0 / x; }
static double addOf(double a, double b) { return a + b; }
static double subOf(double a, double b) { return a - b; }
static double mulOf(double a, double b) { return a * b; }
static double divOf(double a, double b) { return a / b; }

/* max and min propagate NaN (like StableHLO), unlike fmax and fmin. */
static double maxOf(double a, double b) {
  return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
}
static double minOf(double a, double b) {
  return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
}

typedef double (*UnaryFn)(double);
typedef double (*BinaryFn)(double, double);

/* The function of a unary op, or NULL. */
static UnaryFn unaryFnOf(TtrtOp op) {
  static const UnaryFn fns[] = {
      [TTRT_OP_NEG] = negate, [TTRT_OP_ABS] = fabs,
      [TTRT_OP_EXP] = exp,    [TTRT_OP_EXP2] = exp2,
      [TTRT_OP_LOG] = log,    [TTRT_OP_SQRT] = sqrt,
      [TTRT_OP_RSQRT] = rsqrtOf, [TTRT_OP_TANH] = tanh,
      [TTRT_OP_ERF] = erf,    [TTRT_OP_SIN] = sin,
      [TTRT_OP_COS] = cos,    [TTRT_OP_RECIPROCAL] = reciprocalOf,
  };
  return op <= TTRT_OP_RECIPROCAL ? fns[op] : NULL;
}

/* The function of a binary op, or NULL. */
static BinaryFn binaryFnOf(TtrtOp op) {
  switch (op) {
  case TTRT_OP_ADD:
    return addOf;
  case TTRT_OP_SUB:
    return subOf;
  case TTRT_OP_MUL:
    return mulOf;
  case TTRT_OP_DIV:
    return divOf;
  case TTRT_OP_MAX:
    return maxOf;
  case TTRT_OP_MIN:
    return minOf;
  case TTRT_OP_POW:
    return pow;
  default:
    return NULL;
  }
}

/* 1 if `a direction b`, else 0 (every comparison with NaN is false except
 * ne). */
static double compareOf(TtrtDirection direction, double a, double b) {
  switch (direction) {
  case TTRT_DIRECTION_LT:
    return a < b;
  case TTRT_DIRECTION_LE:
    return a <= b;
  case TTRT_DIRECTION_GT:
    return a > b;
  case TTRT_DIRECTION_GE:
    return a >= b;
  case TTRT_DIRECTION_EQ:
    return a == b;
  default:
    return a != b;
  }
}

/*===------------------------------------------------------------------===*
 * Ops
 *===------------------------------------------------------------------===*/

/* A walk over the elements of `shape` in row-major order that keeps the
 * offset, sum of index[d] * stride[d], of the element in another tensor:
 * broadcast_in_dim and slice walk their result and read the operand at
 * `offset`, a reduction walks its operand and folds into the result at `offset`. */
typedef struct StridedWalk {
  const TtrtShape *shape;
  int64_t stride[TTRT_MAX_RANK];
  int64_t index[TTRT_MAX_RANK];
  int64_t offset;
} StridedWalk;

/* Moves the walk to the next element (after the last: back to the first). */
static void walkNext(StridedWalk *w) {
  for (int d = w->shape->rank - 1; d >= 0; --d) {
    w->offset += w->stride[d];
    if (++w->index[d] < w->shape->dims[d])
      return;
    w->offset -= w->stride[d] * w->shape->dims[d];
    w->index[d] = 0;
  }
}

/* Fills dst, of the walk's shape, in row-major order with the operand
 * elements at the walk's offsets. */
static void gather(StridedWalk *w, const double *src, double *dst) {
  int64_t numel = ttrtShapeGetNumel(w->shape);
  for (int64_t i = 0; i < numel; ++i, walkNext(w))
    dst[i] = src[w->offset];
}

/* broadcast_in_dim: result[i] = operand[j] where operand dim k indexes with
 * result dim dims[k], or with 0 if the operand's dim k has size 1. */
static void broadcastInDim(const TtrtPrim *prim, const TtrtShape *os,
                           const double *src, const TtrtShape *rs,
                           double *dst) {
  StridedWalk w = {rs, {0}, {0}, 0};
  int64_t operandStride = 1;
  for (int k = os->rank - 1; k >= 0; --k) {
    if (os->dims[k] != 1)
      w.stride[prim->dims[k]] = operandStride;
    operandStride *= os->dims[k];
  }
  gather(&w, src, dst);
}

/* slice: result[i] = operand[start + step * i] in every dim: a walk over
 * the result with the operand's strides times the steps, from the offset of
 * the starts. */
static void slice(const TtrtPrim *prim, const TtrtShape *os, const double *src,
                  const TtrtShape *rs, double *dst) {
  StridedWalk w = {rs, {0}, {0}, 0};
  int64_t operandStride = 1;
  for (int d = os->rank - 1; d >= 0; --d) {
    w.stride[d] = prim->slice[2][d] * operandStride;
    w.offset += prim->slice[0][d] * operandStride;
    operandStride *= os->dims[d];
  }
  gather(&w, src, dst);
}

/* concat along dim: for each index of the dims before it, each operand's
 * block (its dims from `dim` on) is copied in turn. */
static void concat(const TtrtMeta *meta, const TtrtPrim *prim,
                   const double *const *ops, double *dst) {
  const TtrtShape *s0 = &meta->tensors[prim->operands[0]].shape;
  int d = prim->dims[0];
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < d; ++k)
    outer *= s0->dims[k];
  for (int k = d + 1; k < s0->rank; ++k)
    inner *= s0->dims[k];
  for (int64_t o = 0; o < outer; ++o)
    for (int i = 0; i < prim->numOperands; ++i) {
      int64_t n = meta->tensors[prim->operands[i]].shape.dims[d] * inner;
      memcpy(dst, ops[i] + o * n, (size_t)n * sizeof *dst);
      dst += n;
    }
}

/* Row-major strides of shape s into stride[]. */
static void stridesOf(const TtrtShape *s, int64_t stride[TTRT_MAX_RANK]) {
  int64_t n = 1;
  for (int k = s->rank - 1; k >= 0; --k) {
    stride[k] = n;
    n *= s->dims[k];
  }
}

/* Checks every element of an index_select's or gather's index (operand 1)
 * is in [0, size of dim) of the operand; false (after the error, at the
 * prim's line) when one is not. */
static TtrtStatus checkIndices(const TtrtMeta *meta, const TtrtPrim *prim,
                               const double *index, TtrtError *err) {
  const TtrtTensor *x = &meta->tensors[prim->operands[0]];
  const TtrtTensor *it = &meta->tensors[prim->operands[1]];
  int64_t size = x->shape.dims[prim->dims[0]];
  int64_t n = ttrtShapeGetNumel(&it->shape);
  for (int64_t i = 0; i < n; ++i)
    if (!(index[i] >= 0 && index[i] < (double)size))
      return ttrtErrorSet(err, prim->line,
                          "reference: %s index %%%lld element %lld (row-major) is "
                          "%.17g, out of range [0, %lld) of dim %d of %%%lld",
                          ttrtOpGetName(prim->op), (long long)it->id,
                          (long long)i, index[i], (long long)size,
                          prim->dims[0], (long long)x->id);
  return TTRT_SUCCESS;
}

/* index_select along dim: for each index of the dims before it and each
 * index i, the operand's block (its dims after dim) at index[i] is copied. */
static void indexSelect(const TtrtMeta *meta, const TtrtPrim *prim,
                        const double *const *ops, double *dst) {
  const TtrtShape *xs = &meta->tensors[prim->operands[0]].shape;
  int64_t len = meta->tensors[prim->operands[1]].shape.dims[0];
  int d = prim->dims[0];
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < d; ++k)
    outer *= xs->dims[k];
  for (int k = d + 1; k < xs->rank; ++k)
    inner *= xs->dims[k];
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < len; ++i, dst += inner)
      memcpy(dst, ops[0] + (o * xs->dims[d] + (int64_t)ops[1][i]) * inner,
             (size_t)inner * sizeof *dst);
}

/* gather along dim: a walk over the index's shape with the operand's strides
 * (none in dim) gives each element's offset but for dim, where the index's
 * element times the operand's stride is added. */
static void gatherAlong(const TtrtMeta *meta, const TtrtPrim *prim,
                        const double *const *ops, double *dst) {
  const TtrtShape *xs = &meta->tensors[prim->operands[0]].shape;
  const TtrtShape *is = &meta->tensors[prim->operands[1]].shape;
  StridedWalk w = {is, {0}, {0}, 0};
  stridesOf(xs, w.stride);
  int64_t along = w.stride[prim->dims[0]];
  w.stride[prim->dims[0]] = 0;
  int64_t numel = ttrtShapeGetNumel(is);
  for (int64_t i = 0; i < numel; ++i, walkNext(&w))
    dst[i] = ops[0][w.offset + (int64_t)ops[1][i] * along];
}

/* iota: element i is its index along `dimension`, i / stride % size. */
static void iota(const TtrtPrim *prim, const TtrtShape *rs, double *dst,
                 size_t n) {
  int64_t stride[TTRT_MAX_RANK];
  stridesOf(rs, stride);
  int d = prim->dims[0];
  for (size_t i = 0; i < n; ++i)
    dst[i] = (double)((int64_t)i / stride[d] % rs->dims[d]);
}

/* pad: the result filled with the value, then a walk over the operand with
 * the result's strides from the offset of the low widths writes each
 * element. */
static void pad(const TtrtPrim *prim, const TtrtShape *os, const double *src,
                const TtrtShape *rs, double *dst, size_t n) {
  for (size_t i = 0; i < n; ++i)
    dst[i] = prim->value;
  StridedWalk w = {os, {0}, {0}, 0};
  stridesOf(rs, w.stride);
  for (int d = 0; d < os->rank; ++d)
    w.offset += prim->slice[0][d] * w.stride[d];
  int64_t numel = ttrtShapeGetNumel(os);
  for (int64_t i = 0; i < numel; ++i, walkNext(&w))
    dst[w.offset] = src[i];
}

/* Side of the square tiles a transpose copies (doubles). */
#define TRANSPOSE_TILE 32

/* Copies one tile, dst[q * dstStride + j] = src[q + j * srcStride] for
 * q < nq, j < nj, with nq and nj (what is left of the dims) clipped to
 * TRANSPOSE_TILE. */
static void copyTile(const double *src, int64_t srcStride, double *dst,
                     int64_t dstStride, int64_t nq, int64_t nj) {
  nq = nq < TRANSPOSE_TILE ? nq : TRANSPOSE_TILE;
  nj = nj < TRANSPOSE_TILE ? nj : TRANSPOSE_TILE;
  for (int64_t q = 0; q < nq; ++q)
    for (int64_t j = 0; j < nj; ++j)
      dst[q * dstStride + j] = src[q + j * srcStride];
}

/* transpose where result dim q, not the last, is the operand's last dim;
 * `from` walks the result with the operand's strides. The result's dims q
 * and last are copied in square tiles (reads and writes both stay within a
 * few cache lines); two walks in step go over the other dims. */
static void transposeTiled(const StridedWalk *from, int q, const double *src,
                           double *dst) {
  const TtrtShape *rs = from->shape;
  int last = rs->rank - 1;
  TtrtShape outer = *rs;
  outer.dims[q] = outer.dims[last] = 1;
  StridedWalk in = {&outer, {0}, {0}, 0}, out = {&outer, {0}, {0}, 0};
  int64_t resultStride = 1;
  for (int i = last; i >= 0; --i) {
    in.stride[i] = from->stride[i];
    out.stride[i] = resultStride;
    resultStride *= rs->dims[i];
  }
  int64_t nq = rs->dims[q], nj = rs->dims[last];
  int64_t srcStride = from->stride[last], dstStride = out.stride[q];
  int64_t count = ttrtShapeGetNumel(&outer);
  for (int64_t n = 0; n < count; ++n, walkNext(&in), walkNext(&out))
    for (int64_t q0 = 0; q0 < nq; q0 += TRANSPOSE_TILE)
      for (int64_t j0 = 0; j0 < nj; j0 += TRANSPOSE_TILE)
        copyTile(src + in.offset + q0 + j0 * srcStride, srcStride,
                 dst + out.offset + q0 * dstStride + j0, dstStride, nq - q0,
                 nj - j0);
}

/* transpose: result dim i is operand dim perm[i]. Where the operand's last
 * dim stays last, a walk over the result reads runs of it; otherwise such a
 * walk would read the operand a whole row apart at every step, so the copy
 * goes in tiles (transposeTiled). */
static void transpose(const TtrtPrim *prim, const TtrtShape *os,
                      const double *src, const TtrtShape *rs, double *dst) {
  int last = rs->rank - 1, q = last;
  StridedWalk from = {rs, {0}, {0}, 0};
  for (int i = 0; i <= last; ++i) {
    int64_t stride = 1;
    for (int k = prim->dims[i] + 1; k < os->rank; ++k)
      stride *= os->dims[k];
    from.stride[i] = stride;
    if (prim->dims[i] == last)
      q = i;
  }
  if (q == last)
    gather(&from, src, dst);
  else
    transposeTiled(&from, q, src, dst);
}

/* The rows (of the second operand) and columns of the blocks a matmul
 * works in: a block of 128 x 256 doubles (256 KiB) stays in cache while
 * every row of the first operand uses it. */
#define MATMUL_BLOCK_K 128
#define MATMUL_BLOCK_N 256

/* The sizes of one (batch of a) matmul: [m,k] x [k,n] -> [m,n]. */
typedef struct MatmulSizes {
  int64_t m, k, n;
} MatmulSizes;

/* Adds the products of one block to every row of the result:
 * r[i][j] += a[i][kk] * b[kk][j] for kk in [k0, k0 + MATMUL_BLOCK_K), j in
 * [j0, j0 + MATMUL_BLOCK_N) (clipped to the sizes), in the order i, kk, j,
 * so each r[i][j] adds its products in the order of kk. */
static void matmulBlock(const MatmulSizes *z, const double *a, const double *b,
                        double *r, int64_t k0, int64_t j0) {
  int64_t k1 = z->k - k0 < MATMUL_BLOCK_K ? z->k : k0 + MATMUL_BLOCK_K;
  int64_t width = z->n - j0 < MATMUL_BLOCK_N ? z->n - j0 : MATMUL_BLOCK_N;
  for (int64_t i = 0; i < z->m; ++i) {
    double *restrict row = r + i * z->n + j0;
    for (int64_t kk = k0; kk < k1; ++kk) {
      double aik = a[i * z->k + kk];
      const double *restrict brow = b + kk * z->n + j0;
      for (int64_t j = 0; j < width; ++j)
        row[j] += aik * brow[j];
    }
  }
}

/* matmul of [m,k] x [k,n] or [batch,m,k] x [batch,k,n] operands of shapes
 * `as` and `bs` into r: each element is the sum of its k products, added in
 * float64 in the order of k, from -0 (like sum). */
static void matmul(const TtrtShape *as, const double *a, const TtrtShape *bs,
                   const double *b, double *r) {
  int rank = as->rank;
  MatmulSizes z = {as->dims[rank - 2], as->dims[rank - 1], bs->dims[rank - 1]};
  int64_t batches = rank == 3 ? as->dims[0] : 1;
  for (int64_t i = 0; i < batches * z.m * z.n; ++i)
    r[i] = -0.0;
  int64_t nblocks = (z.n + MATMUL_BLOCK_N - 1) / MATMUL_BLOCK_N;
  /* column blocks are independent: threads split them (each sum keeps its order) */
#pragma omp parallel for collapse(2) schedule(static)
  for (int64_t t = 0; t < batches; ++t)
    for (int64_t jb = 0; jb < nblocks; ++jb)
      for (int64_t k0 = 0; k0 < z.k; k0 += MATMUL_BLOCK_K)
        matmulBlock(&z, a + t * z.m * z.k, b + t * z.k * z.n, r + t * z.m * z.n,
                    k0, jb * MATMUL_BLOCK_N);
}

/* sum, amax, amin over prim->dims of an operand of shape `os` into `dst`
 * (numel `n`): each operand element folds into the result element with its
 * index minus the reduced dims (keepdim's dims of size 1 move no offsets).
 * sum adds in float64 in row-major order from -0 (so that all -0 sum to
 * -0); amax and amin start from -inf and +inf and propagate NaN. */
static void reduce(const TtrtPrim *prim, const TtrtShape *os, const double *src,
                   double *dst, size_t n) {
  BinaryFn fold = prim->op == TTRT_OP_SUM    ? addOf
                  : prim->op == TTRT_OP_AMAX ? maxOf
                                             : minOf;
  double init = prim->op == TTRT_OP_SUM    ? -0.0
                : prim->op == TTRT_OP_AMAX ? -INFINITY
                                           : INFINITY;
  for (size_t i = 0; i < n; ++i)
    dst[i] = init;
  bool reduced[TTRT_MAX_RANK] = {false};
  for (int i = 0; i < prim->numDims; ++i)
    reduced[prim->dims[i]] = true;
  StridedWalk w = {os, {0}, {0}, 0};
  int64_t resultStride = 1;
  for (int k = os->rank - 1; k >= 0; --k) {
    if (!reduced[k]) {
      w.stride[k] = resultStride;
      resultStride *= os->dims[k];
    }
  }
  int64_t numel = ttrtShapeGetNumel(os);
  for (int64_t i = 0; i < numel; ++i, walkNext(&w))
    dst[w.offset] = fold(dst[w.offset], src[i]);
}

/* argmax/argmin over prim->dims (none: all dims) into dst (numel n): the
 * index along the reduced dim (row-major over all dims when none) of the
 * first maximum (minimum); a NaN counts as greater (smaller) than every
 * number, so the first NaN wins, as PyTorch's argmax and argmin. A walk in
 * operand order with the result's strides, as reduce(); the index of an
 * element is its position along the reduced dim, counted per result
 * element. */
static void argReduce(const TtrtPrim *prim, const TtrtShape *os,
                      const double *src, double *dst, size_t n) {
  bool isMax = prim->op == TTRT_OP_ARGMAX;
  double *best = malloc(n * sizeof *best);
  if (!best) {
    for (size_t i = 0; i < n; ++i)
      dst[i] = NAN; /* (out of memory: the comparison fails) */
    return;
  }
  int dim = prim->numDims == 0 ? -1 /* every dim: the flat index */
            : prim->dims[0] < 0 ? prim->dims[0] + os->rank : prim->dims[0];
  bool reduced[TTRT_MAX_RANK] = {false};
  for (int k = 0; k < os->rank; ++k)
    reduced[k] = dim < 0 || dim == k;
  StridedWalk w = {os, {0}, {0}, 0};
  int64_t resultStride = 1;
  for (int k = os->rank - 1; k >= 0; --k)
    if (!reduced[k]) {
      w.stride[k] = resultStride;
      resultStride *= os->dims[k];
    }
  int64_t numel = ttrtShapeGetNumel(os);
  for (int64_t i = 0; i < numel; ++i, walkNext(&w)) {
    int64_t o = w.offset, at = dim < 0 ? i : w.index[dim]; /* along the reduced dim */
    double x = src[i];
    bool better = at == 0 || (!isnan(best[o]) &&
                              (isnan(x) || (isMax ? x > best[o] : x < best[o])));
    if (better) {
      best[o] = x;
      dst[o] = (double)at;
    }
  }
  free(best);
}

/* Computes `prim` into `r` (numel `n`) from the operand values. */
static void evalInto(const TtrtMeta *meta, const TtrtPrim *prim,
                     const double *const *ops, double *r, size_t n) {
  const TtrtTensor *result = &meta->tensors[prim->result];
  UnaryFn unary = unaryFnOf(prim->op);
  BinaryFn binary = binaryFnOf(prim->op);
  if (unary)
    for (size_t i = 0; i < n; ++i)
      r[i] = unary(ops[0][i]);
  else if (binary)
    for (size_t i = 0; i < n; ++i)
      r[i] = binary(ops[0][i], ops[1][i]);
  else if (prim->op == TTRT_OP_COMPARE)
    for (size_t i = 0; i < n; ++i)
      r[i] = compareOf(prim->direction, ops[0][i], ops[1][i]);
  else if (prim->op == TTRT_OP_WHERE)
    for (size_t i = 0; i < n; ++i)
      r[i] = ops[0][i] != 0 ? ops[1][i] : ops[2][i];
  else if (prim->op == TTRT_OP_CONVERT)
    for (size_t i = 0; i < n; ++i)
      r[i] = ttrtDtypeRound(result->dtype, ops[0][i]);
  else if (prim->op == TTRT_OP_RESHAPE)
    memcpy(r, ops[0], n * sizeof *r);
  else if (prim->op == TTRT_OP_CONSTANT)
    for (size_t i = 0; i < n; ++i)
      r[i] = prim->value; /* exactly as written: only convert rounds */
  else if (ttrtOpIsReduction(prim->op))
    reduce(prim, &meta->tensors[prim->operands[0]].shape, ops[0], r, n);
  else if (ttrtOpIsArgReduction(prim->op))
    argReduce(prim, &meta->tensors[prim->operands[0]].shape, ops[0], r, n);
  else if (prim->op == TTRT_OP_TRANSPOSE)
    transpose(prim, &meta->tensors[prim->operands[0]].shape, ops[0],
              &result->shape, r);
  else if (prim->op == TTRT_OP_CONCAT)
    concat(meta, prim, ops, r);
  else if (prim->op == TTRT_OP_INDEX_SELECT)
    indexSelect(meta, prim, ops, r);
  else if (prim->op == TTRT_OP_GATHER)
    gatherAlong(meta, prim, ops, r);
  else if (prim->op == TTRT_OP_IOTA)
    iota(prim, &result->shape, r, n);
  else if (prim->op == TTRT_OP_PAD)
    pad(prim, &meta->tensors[prim->operands[0]].shape, ops[0], &result->shape,
        r, n);
  else if (prim->op == TTRT_OP_SLICE)
    slice(prim, &meta->tensors[prim->operands[0]].shape, ops[0],
          &result->shape, r);
  else if (prim->op == TTRT_OP_MATMUL)
    matmul(&meta->tensors[prim->operands[0]].shape, ops[0],
           &meta->tensors[prim->operands[1]].shape, ops[1], r);
  else
    broadcastInDim(prim, &meta->tensors[prim->operands[0]].shape, ops[0],
                   &result->shape, r);
}

/* The state of one evaluation. Values that die become spares, and a new
 * value reuses a spare of its size: fresh pages of a 512 MB array cost more
 * than the arithmetic. Only when no spare fits are they all freed before the
 * allocation, so memory in use never exceeds what plain malloc and free would
 * reach at their peak. */
typedef struct Evaluator {
  const TtrtMeta *meta;
  double **values;
  int *lastUse; /* per slot: index of the last prim that reads or defines it */
  int numSpares;
  double **spares;     /* per spare (at most one per slot) */
  int64_t *spareNumel; /* per spare */
} Evaluator;

/* Takes a spare of `numel` elements; if there is none, frees all spares and
 * returns NULL. */
static double *takeSpare(Evaluator *ev, int64_t numel) {
  for (int i = 0; i < ev->numSpares; ++i) {
    if (ev->spareNumel[i] == numel) {
      double *found = ev->spares[i];
      --ev->numSpares;
      ev->spares[i] = ev->spares[ev->numSpares];
      ev->spareNumel[i] = ev->spareNumel[ev->numSpares];
      return found;
    }
  }
  for (int i = 0; i < ev->numSpares; ++i)
    free(ev->spares[i]);
  ev->numSpares = 0;
  return NULL;
}

/* Evaluates one prim into values[prim->result]. */
static TtrtStatus evalPrim(Evaluator *ev, const TtrtPrim *prim,
                           TtrtError *err) {
  const TtrtTensor *result = &ev->meta->tensors[prim->result];
  int64_t numel = ttrtShapeGetNumel(&result->shape);
  const double *ops[TTRT_MAX_OPERANDS] = {NULL};
  for (int i = 0; i < prim->numOperands; ++i)
    ops[i] = ev->values[prim->operands[i]];
  if ((uint64_t)numel > SIZE_MAX / sizeof(double))
    return ttrtErrorSet(err, prim->line, "%%%lld is too large",
                        (long long)result->id);
  if ((prim->op == TTRT_OP_INDEX_SELECT || prim->op == TTRT_OP_GATHER) &&
      checkIndices(ev->meta, prim, ops[1], err))
    return TTRT_FAILURE;
  double *r = takeSpare(ev, numel);
  if (!r)
    r = malloc((size_t)numel * sizeof *r);
  if (!r)
    return ttrtErrorSet(err, prim->line,
                        "out of memory for the reference value of %%%lld "
                        "(%lld doubles)",
                        (long long)result->id, (long long)numel);
  evalInto(ev->meta, prim, ops, r, (size_t)numel);
  ev->values[prim->result] = r;
  return TTRT_SUCCESS;
}

/* Frees every value that is not an input, and the spares. */
static void freeNonInputs(Evaluator *ev) {
  takeSpare(ev, -1);
  for (int s = 0; s < ev->meta->numTensors; ++s) {
    if (ev->meta->tensors[s].role != TTRT_ROLE_INPUT) {
      free(ev->values[s]);
      ev->values[s] = NULL;
    }
  }
}

/* Makes the value of `slot` a spare if no later prim needs it and it is
 * neither an input nor an output. */
static void releaseIfDead(Evaluator *ev, int prim, int slot) {
  const TtrtTensor *t = &ev->meta->tensors[slot];
  if (ev->lastUse[slot] > prim || t->role == TTRT_ROLE_INPUT ||
      t->role == TTRT_ROLE_OUTPUT || !ev->values[slot])
    return;
  ev->spares[ev->numSpares] = ev->values[slot];
  ev->spareNumel[ev->numSpares++] = ttrtShapeGetNumel(&t->shape);
  ev->values[slot] = NULL;
}

/* Fills lastUse[slot] with the index of the last prim that reads or defines
 * the slot (-1 if none). */
static void computeLastUse(const TtrtMeta *meta, int *lastUse) {
  for (int s = 0; s < meta->numTensors; ++s)
    lastUse[s] = -1;
  for (int i = 0; i < meta->numPrims; ++i) {
    const TtrtPrim *prim = &meta->prims[i];
    lastUse[prim->result] = i;
    for (int k = 0; k < prim->numOperands; ++k)
      lastUse[prim->operands[k]] = i;
  }
}

/* Checks that the caller gave every input and nothing else. */
static TtrtStatus checkInitialValues(const TtrtMeta *meta,
                                     double *const *values, TtrtError *err) {
  for (int s = 0; s < meta->numTensors; ++s) {
    const TtrtTensor *t = &meta->tensors[s];
    if ((t->role == TTRT_ROLE_INPUT) != (values[s] != NULL))
      return ttrtErrorSet(err, t->line,
                          "reference: %%%lld %s a value on entry",
                          (long long)t->id,
                          t->role == TTRT_ROLE_INPUT ? "needs" : "must not have");
  }
  return TTRT_SUCCESS;
}

TtrtStatus ttrtRefEvaluate(const TtrtMeta *meta, double **values,
                           TtrtError *err) {
  if (!meta->resolved)
    return ttrtErrorSet(err, 0, "the program's symbolic sizes are not bound "
                                "and resolved (ttrtMetaResolve)");
  if (checkInitialValues(meta, values, err))
    return TTRT_FAILURE;
  size_t slots = (size_t)meta->numTensors + 1;
  Evaluator ev = {meta, values, malloc(slots * sizeof(int)), 0,
                  malloc(slots * sizeof(double *)),
                  malloc(slots * sizeof(int64_t))};
  TtrtStatus status = ev.lastUse && ev.spares && ev.spareNumel
                          ? TTRT_SUCCESS
                          : ttrtErrorSet(err, 0, "out of memory");
  if (status == TTRT_SUCCESS)
    computeLastUse(meta, ev.lastUse);
  for (int i = 0; i < meta->numPrims && status == TTRT_SUCCESS; ++i) {
    const TtrtPrim *prim = &meta->prims[i];
    status = evalPrim(&ev, prim, err);
    /* Duplicate operands (mul %0 %0) are released once: the value is NULL
     * after the first. */
    for (int k = 0; status == TTRT_SUCCESS && k < prim->numOperands; ++k)
      releaseIfDead(&ev, i, prim->operands[k]);
    if (status == TTRT_SUCCESS)
      releaseIfDead(&ev, i, prim->result);
  }
  if (status != TTRT_SUCCESS)
    freeNonInputs(&ev);
  takeSpare(&ev, -1);
  free(ev.lastUse);
  free(ev.spares);
  free(ev.spareNumel);
  return status;
}

int64_t ttrtRefIndexBound(const TtrtMeta *meta, int slot) {
  int64_t bound = -1;
  for (int i = 0; i < meta->numPrims; ++i) {
    const TtrtPrim *p = &meta->prims[i];
    if ((p->op != TTRT_OP_INDEX_SELECT && p->op != TTRT_OP_GATHER) ||
        p->operands[1] != slot)
      continue;
    int64_t size = meta->tensors[p->operands[0]].shape.dims[p->dims[0]];
    if (size >= 1 && (bound < 0 || size < bound))
      bound = size;
  }
  return bound;
}

/*===------------------------------------------------------------------===*
 * Comparison
 *===------------------------------------------------------------------===*/

void ttrtRefCompare(const double *out, const double *ref, size_t count,
                    TtrtComparison *result) {
  double errSq = 0, refSq = 0, maxAbs = 0;
  int64_t nonfinite = 0;
  for (size_t i = 0; i < count; ++i) {
    double o = out[i], r = ref[i];
    if (!isfinite(r)) {
      /* NaN must meet NaN, and an infinity the same infinity. */
      nonfinite += !(isnan(r) ? isnan(o) : o == r);
      continue;
    }
    if (!isfinite(o)) {
      ++nonfinite;
      continue;
    }
    double d = fabs(o - r);
    errSq += d * d;
    refSq += r * r;
    if (d > maxAbs)
      maxAbs = d;
  }
  result->absolute = refSq == 0;
  result->relL2 = result->absolute ? sqrt(errSq) : sqrt(errSq / refSq);
  result->maxAbs = maxAbs;
  result->nonfinite = nonfinite;
}
