/* rules.h - the rules of the prim ops, one table that the reference's
 * metadata parser (runtime/prim.c) and the compiler's prim verifier
 * (dialects/prim/verify.c) both apply, so that the compiler accepts exactly the
 * programs the reference interpreter calls well-formed.
 *
 * Per op (TtrtOp, meta.h): its name on a prim line, its arity, the
 * attributes a prim line must give, its dtype rule and its shape check. The
 * checks work on plain data: a TtrtPrim (op, dims, keepdim, direction) and
 * one TtrtPrimTensor (name for messages, dtype, shape) per operand and for
 * the result. A dimension below 0 is dynamic (`?`, known at run time only)
 * and matches any size. Pure C11; no MLIR, no CUDA.
 */
#ifndef TT_RUNTIME_RULES_H
#define TT_RUNTIME_RULES_H

#include "meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One tensor of a prim op as the checks see it. `name` is what messages
 * call it after "operand" or "the result": "%3" on a prim line, "#0" in the
 * compiler, "" for nothing. */
typedef struct TtrtPrimTensor {
  const char *name;
  TtrtDtype dtype;
  TtrtShape shape; /* dims < 0: dynamic */
} TtrtPrimTensor;

/* The op of the prim-line name `name` ("broadcast_in_dim"); false if none. */
bool ttrtOpLookup(const char *name, TtrtOp *out);

/* The names of slice's three attributes: "start", "stop", "step" (the rows
 * of TtrtPrim.slice). */
extern const char *const ttrtSliceKeys[3];

/* The names of pad's two width attributes: "low", "high" (rows 0 and 1 of
 * TtrtPrim.slice). */
extern const char *const ttrtPadKeys[2];

/* How many operands `op` takes. */
int ttrtOpGetNumOperands(TtrtOp op);

/* The k-th attribute a prim line of `op` must give ("dims", "keepdim"), or
 * NULL past the last. */
const char *ttrtOpGetAttribute(TtrtOp op, int k);

/* Parses a compare direction name ("lt"); false if unknown. */
bool ttrtDirectionParse(const char *name, TtrtDirection *out);

/* Writes the attributes of `prim` as a prim line spells them, each after a
 * space (" dims=1,0 keepdim=1"; "" for an op without attributes); `dimsKey`
 * names prim->dims ("dims", "perm"; NULL: the prim line's name). */
void ttrtPrimFormatAttributes(const TtrtPrim *prim, const char *dimsKey,
                              char *buf, size_t size);

/* Checks the dtypes and shapes of `prim` (prim->numOperands operands, each
 * of the op's arity) against its op's rules. On failure writes the reason to
 * msg (of `size` bytes) and returns false. `dimsKey` names prim->dims in
 * messages (NULL: the prim line's name). Reductions count a negative dim
 * from the end, as PyTorch does. The reference, which computes in float64,
 * needs only compare's i1 result of the dtype rules; `strictDtypes` (the
 * compiler) checks all of them (one dtype across an op, where's i1
 * condition), and takes matmul as torch.matmul does (1-D operands, batch
 * dims broadcast); the reference's matmul is [M,K] x [K,N] or [B,M,K] x
 * [B,K,N], all that --decompose leaves in a compiled program. */
bool ttrtPrimCheck(const TtrtPrim *prim, const TtrtPrimTensor *operands,
                   const TtrtPrimTensor *result, const char *dimsKey,
                   bool strictDtypes, char *msg, size_t size);

/* A shape as the rules' messages spell it: "8x4", "scalar"; a dynamic dimension is `?`. */
void ttrtPrimFormatShape(const TtrtShape *shape, char *buf, size_t size);

/* The batch dims of a matmul, torch.matmul's broadcast: the lists a (na sizes) and b (nb)
 * aligned from the right, a missing size counting as 1, each pair equal (or one of them
 * unknown: < 0) or one of them 1. Writes the max(na, nb) broadcast sizes to out and
 * returns their count; -1 when a pair does not broadcast, that pair then in *x and *y. */
int ttrtBroadcastBatch(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out,
                       int64_t *x, int64_t *y);

#ifdef __cplusplus
}
#endif

#endif /* TT_RUNTIME_RULES_H */
