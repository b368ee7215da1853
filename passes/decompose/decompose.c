/* decompose.c - the --decompose pass: rewrite composite prim ops into primitive prim ops.
 *
 * A composite (softmax, layer_norm, gelu, ...) is a formula over primitives; after this
 * pass a program holds only ops that --fuse and --tile know: unary/binary elementwise ops,
 * convert, broadcast_in_dim, reshape, transpose, full, the reductions sum/amax (over
 * `dims`, keepdim = false) and matmul. Each composite has one rule function below, and
 * the table `rules` maps the op's name to it. The formulas are PyTorch's (its own
 * decompositions in torch/_decomp and its CUDA kernels), with x the input, r its rank,
 * N the size of the reduced dimension, and b(v) the reduced value v broadcast back to x's
 * shape with prim.broadcast_in_dim (every dimension but the reduced one):
 *
 *   softmax(x, d)          m = amax(x, d); e = exp(x - b(m)); y = e / b(sum(e, d))
 *   log_softmax(x, d)      s = x - b(amax(x, d)); y = s - b(log(sum(exp(s), d)))
 *                          (d < 0 counts from the end)
 *   layer_norm(x, w, c, eps) over the last dimension:
 *                          mean = sum(x)/N; v = x - b(mean); var = sum(v*v)/N;
 *                          y = v * b(rsqrt(var + eps)) * bw(w) + bw(c)
 *   rms_norm(x, w, eps)    y = x * b(rsqrt(sum(x*x)/N + eps)) * bw(w)
 *   gelu "none"            y = x*0.5 * (1 + erf(x * (1/sqrt 2)))
 *   gelu "tanh"            y = 0.5*x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x*x*x)))
 *   sigmoid(x)             y = reciprocal(1 + exp(-x))
 *   silu(x)                y = x * sigmoid(x)
 *   swiglu(a, c)           y = a * sigmoid(a) * c
 *   linear(x, w, c?)       y = matmul(x, transpose(w, [1, 0])) + bw(c); an x of rank other
 *                          than 2 is reshaped to [M, K] and the product back to [..., N]
 *   scaled_mm(a, b, sa, sb, c?)  (fp8 a [M, K], b [K, N]; f32 scales of rank 0)
 *                          y = matmul(a, b) (in f32) * bs(sa) * bs(sb) + bw(c), then
 *                          converted to the result's dtype; bs(s) broadcasts a scale
 *   mean(x, dims)          sum(x, dims) / N (N the product of the reduced dims' sizes)
 *   var(x, dims, c)        m = sum(x, dims) / N; d = x - b(m); sum(d*d, dims) / max(N - c, 0)
 *   std(x, dims, c)        sqrt(var(x, dims, c))
 *   relu(x)                max(x, 0)
 *   clamp(x, lo?, hi?)     min(max(x, lo), hi), either bound optional
 *   argmax/argmin(x, dim?, keepdim?)  over the last dim as they are (a row kernel); another
 *                          dim is transposed last, no dim (all dims) reshapes x to 1-D,
 *                          keepdim reshapes the result (reduce.c)
 *   matmul(a, b)           (a primitive, rewritten when it is not [M, K] x [K, N] or
 *                          [B, M, K] x [B, K, N]: torch.matmul's 1-D operands and batch
 *                          dims become reshapes, broadcasts and one of those; see below)
 *
 * where bw(w) broadcasts a 1-D weight or bias along the last dimension.
 *
 * Dtypes (PyTorch's policy): an f16 or bf16 composite converts its operands to f32 once
 * (prim.convert), computes in f32 and converts the result back once; f32 and f64 compute
 * in their own dtype. Constants are `prim.full` of the compute dtype (an f32 `value`, f64
 * for f64). linear is the exception: prim.matmul reads x and w in their own dtype and
 * accumulates in f32; with a bias its result is asked in f32, the bias is added in f32,
 * and one convert rounds the sum.
 *
 * Algorithm:
 *  1. Walk every func.func and collect the ops whose name is in `rules`.
 *  2. For each, its rule checks the operands and attributes first (types ranked, static,
 *     of a float dtype; dims in range; sizes that agree). An unsupported form gets a
 *     located error, the op stays and the pass fails at the end (other ops are still
 *     rewritten, so one run reports every error).
 *  3. Otherwise the rule builds the primitives before the op; the op's uses are replaced
 *     by the new value and the op is erased.
 */
#include "decompose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name; /* without "prim." */
  RuleFn rule;
} rules[] = {
    {"softmax", dcRuleSoftmax},
    {"log_softmax", dcRuleLogSoftmax},
    {"layer_norm", dcRuleLayerNorm},
    {"rms_norm", dcRuleRmsNorm},
    {"gelu", dcRuleGelu},
    {"sigmoid", dcRuleSigmoid},
    {"silu", dcRuleSilu},
    {"swiglu", dcRuleSwiglu},
    {"linear", dcRuleLinear},
    {"scaled_mm", dcRuleScaledMm},
    {"sum", dcRuleReduce},
    {"amax", dcRuleReduce},
    {"amin", dcRuleReduce},
    {"mean", dcRuleMeanVar},
    {"var", dcRuleMeanVar},
    {"std", dcRuleMeanVar},
    {"relu", dcRuleClamp},
    {"clamp", dcRuleClamp},
    {"matmul", dcRuleMatmul},
    {"argmax", dcRuleArgReduce},
    {"argmin", dcRuleArgReduce},
};
#define NRULES ((int)(sizeof rules / sizeof rules[0]))

/* The index in `rules` of op's rule, -1 when op is not a composite this pass rewrites. */
static int ruleOf(MlirOperation op, bool alignK) {
  if (!ttOpHasPrefix(op, "prim.") ||
      (ttPrimKind(op) == TT_PRIM_REDUCTION && !dcReductionNeedsRewrite(op)) ||
      (ttPrimKind(op) == TT_PRIM_MATMUL && !dcMatmulNeedsRewrite(op, alignK)) ||
      ttPrimIsRowArgReduction(op))
    return -1;
  char name[64];
  ttPrimShortName(op, name, sizeof name);
  for (int i = 0; i < NRULES; i++)
    if (strcmp(rules[i].name, name) == 0)
      return i;
  return -1;
}

/* Step 1: the composite ops under a function, in program order. */
typedef struct {
  MlirOperation *ops;
  int n, cap;
  bool alignK;
} OpList;

static bool collect(MlirOperation op, void *userData) {
  OpList *l = userData;
  if (ruleOf(op, l->alignK) < 0)
    return true;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->ops = ttRealloc(l->ops, sizeof(MlirOperation) * (size_t)l->cap);
  }
  l->ops[l->n++] = op;
  return true;
}

/* Steps 2-3 for one op; false after an error (the op is left as it was). */
static bool decomposeOp(MlirOperation op, bool alignK) {
  char name[64];
  Rw w = {0};
  w.ctx = mlirOperationGetContext(op);
  w.loc = mlirOperationGetLocation(op);
  w.b.block = mlirOperationGetBlock(op);
  w.b.before = op;
  w.op = op;
  w.alignK = alignK;
  w.name = ttPrimShortName(op, name, sizeof name);
  MlirValue y = rules[ruleOf(op, alignK)].rule(&w);
  if (mlirValueIsNull(y))
    return false;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), y);
  mlirOperationDestroy(op);
  for (int i = w.ndead - 1; i >= 0; i--) /* transposes now read through their inputs */
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(w.dead[i], 0))))
      mlirOperationDestroy(w.dead[i]);
  return true;
}

bool ttDecomposeCheck(MlirOperation op) {
  if (ruleOf(op, true) < 0)
    return true;
  /* The rule's checks run as it builds; it builds on a copy in a scratch block, which is
   * then destroyed with all it holds (the original op still reads every operand, so no
   * transpose outside the block loses its last use). */
  MlirBlock scratch = mlirBlockCreate(0, NULL, NULL);
  MlirOperation copy = mlirOperationClone(op);
  mlirBlockAppendOwnedOperation(scratch, copy);
  bool ok = decomposeOp(copy, true);
  mlirBlockDestroy(scratch);
  return ok;
}

bool ttDecomposePass(MlirModule module, const TtPassOptions *opts) {
  OpList l = {.alignK = opts->v[TT_DECOMPOSE_ALIGN_K] != 0};
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    if (ttOpIs(f, "func.func"))
      ttWalk(f, collect, &l);
  bool ok = true;
  for (int i = 0; i < l.n; i++)
    ok &= decomposeOp(l.ops[i], l.alignK);
  free(l.ops);
  return ok;
}
