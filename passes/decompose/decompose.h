/* decompose.h - the private header of --decompose (passes/decompose/).
 *
 * decompose.c holds the pass (its head states the algorithm and every rule) and the
 * op-name -> rule table; the rules live by family: activations.c (softmax, norms, gelu,
 * sigmoid, silu, swiglu, relu, clamp), matmul.c (linear, scaled_mm, matmul with any batch
 * dims), reduce.c (reductions over any dims, mean, var, std); common.c builds primitives
 * and checks operands for all of them. Functions shared between the files carry the
 * prefix `dc`.
 */
#ifndef TT_DECOMPOSE_H
#define TT_DECOMPOSE_H

#include "tt.h"

#define SQRT1_2 0.70710678118654752440        /* 1/sqrt(2) */
#define SQRT_2_OVER_PI 0.79788456080286535588 /* sqrt(2/pi) */
#define GELU_KAPPA 0.044715

/* The rewrite of one composite op: where new ops go and what they compute in. */
typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  TtBuilder b;      /* before the composite op */
  MlirOperation op; /* the composite op */
  const char *name; /* its short name, for diagnostics */
  MlirType compute; /* the element type the math runs in (set by computeType) */
  bool alignK;      /* option align-k: pad unaligned matmul rows (matmul.c) */
  MlirOperation dead[16]; /* ops to erase after the composite when nothing uses them
                             (dcMarkDead) */
  int ndead;
} Rw;

/* A static tensor type as read by checkTensor. */
typedef struct {
  MlirType type;
  int64_t rank, shape[TT_MAX_RANK];
} Shape;

/* A rule: checks, then builds, and returns the result (null after an error). */
typedef MlirValue (*RuleFn)(Rw *w);

/* common.c */
MlirType dcTensorOf(int64_t rank, const int64_t *shape, MlirType elem);
MlirValue dcPrim(Rw *w, const char *name, intptr_t nOperands,
                 const MlirValue *operands, MlirType result, intptr_t nAttrs,
                 const MlirNamedAttribute *attrs);
MlirValue dcUnary(Rw *w, const char *name, MlirValue x);
MlirValue dcBinary(Rw *w, const char *name, MlirValue lhs, MlirValue rhs);
MlirValue dcFull(Rw *w, MlirType t, double value);
MlirValue dcConvertTo(Rw *w, MlirValue x, MlirType elem);
MlirValue dcToCompute(Rw *w, MlirValue x);
MlirValue dcReduce(Rw *w, const char *kind, MlirValue x, int64_t dim);
MlirValue dcBroadcast(Rw *w, MlirValue x, MlirType t, intptr_t n,
                      const int64_t *dims);
MlirValue dcBroadcastBack(Rw *w, MlirValue v, MlirType t, int64_t dim);
MlirValue dcBroadcastLast(Rw *w, MlirValue v, MlirType t);
MlirValue dcBuildSigmoid(Rw *w, MlirValue x);
void dcTypeString(MlirType t, char *buf, size_t n);
bool dcCheckTensor(Rw *w, MlirValue v, const char *what, Shape *s);
/* a * b for sizes, dynamic (MLIR's dynamic size) when either is. */
int64_t dcMulDims(int64_t a, int64_t b);
/* Marks op (a transpose now read through its input) to be erased after the composite if
 * nothing uses it then; each op once. */
void dcMarkDead(Rw *w, MlirOperation op);
bool dcComputeType(Rw *w, MlirType t);
bool dcCheckVector(Rw *w, MlirValue v, const char *what, int64_t n);
bool dcCheckRows(Rw *w, Shape *x);
bool dcReadEps(Rw *w, double *eps);
MlirValue dcNullValue(void);

/* activations.c */
MlirValue dcRuleSoftmax(Rw *w);
MlirValue dcRuleLogSoftmax(Rw *w);
MlirValue dcRuleLayerNorm(Rw *w);
MlirValue dcRuleRmsNorm(Rw *w);
MlirValue dcRuleGelu(Rw *w);
MlirValue dcRuleSigmoid(Rw *w);
MlirValue dcRuleSilu(Rw *w);
MlirValue dcRuleSwiglu(Rw *w);
MlirValue dcRuleClamp(Rw *w);

/* matmul.c */
MlirValue dcRuleLinear(Rw *w);
MlirValue dcRuleScaledMm(Rw *w);
bool dcMatmulNeedsRewrite(MlirOperation op, bool alignK);
MlirValue dcRuleMatmul(Rw *w);

/* reduce.c */
bool dcReductionNeedsRewrite(MlirOperation op);
MlirValue dcRuleReduce(Rw *w);
MlirValue dcRuleMeanVar(Rw *w);
MlirValue dcRuleArgReduce(Rw *w);

#endif
