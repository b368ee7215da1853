/* ref.h - the float64 reference interpreter of the prim program, dtype
 * encoding, and output comparison.
 *
 * ttrtRefEvaluate runs the `prim` lines of the metadata (meta.h) on float64
 * values: the exact value of the program, rounded only where it says
 * `convert` (docs/metadata.md). The dtype helpers turn float64 values into
 * the bit patterns of each dtype and back (round to nearest even, with
 * subnormals, overflow and NaN as documented in docs/metadata.md), so that
 * tt-run can make inputs and read outputs; dtype.c implements them from the
 * dtype table that also gives meta.h's dtype names and sizes.
 * ttrtRefCompare measures how far a kernel's output is from the reference.
 * Pure C11.
 */
#ifndef TT_RUNTIME_REF_H
#define TT_RUNTIME_REF_H

#include "meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/*===------------------------------------------------------------------===*
 * Dtype encoding (dtype.c)
 *===------------------------------------------------------------------===*/

/* The bit pattern (in the low bits) of `x` rounded to `dtype`. Floats round
 * to nearest even; integers truncate toward zero and saturate (NaN -> 0);
 * i1 is x != 0. */
uint64_t ttrtDtypeEncode(TtrtDtype dtype, double x);

/* The value of a bit pattern of `dtype`. An i1 byte decodes to its raw value,
 * so a byte other than 0 or 1 shows as a mismatch. */
double ttrtDtypeDecode(TtrtDtype dtype, uint64_t bits);

/* `x` rounded to `dtype` (the decoding of its encoding). */
double ttrtDtypeRound(TtrtDtype dtype, double x);

/* Encodes `count` values as little-endian elements of ttrtDtypeGetSize bytes
 * each into `bytes`. */
void ttrtDtypePack(TtrtDtype dtype, const double *values, size_t count,
                   void *bytes);

/* Decodes `count` little-endian elements of `dtype` into `values`. */
void ttrtDtypeUnpack(TtrtDtype dtype, const void *bytes, size_t count,
                     double *values);

/*===------------------------------------------------------------------===*
 * Reference interpreter
 *===------------------------------------------------------------------===*/

/* Evaluates the prim program. `values` has one entry per tensor slot. On
 * entry, the entries of the inputs point at their values (owned by the
 * caller, not changed) and all others are NULL. On success, the entries of
 * the outputs hold malloc'd arrays (the caller frees them) and all others
 * except the inputs are NULL: intermediates are freed after their last use.
 * On failure, nothing but the inputs is left. */
TtrtStatus ttrtRefEvaluate(const TtrtMeta *meta, double **values,
                           TtrtError *err);

/* The number of valid indices of the tensor in `slot` when a prim line reads
 * it as the index of index_select or gather: the size of the indexed dim of
 * the operand (the smallest, when several read it), so that tt-run makes that
 * input uniform in [0, size). -1 when no such line reads it (or no size is
 * known yet: a dynamic one not bound). */
int64_t ttrtRefIndexBound(const TtrtMeta *meta, int slot);

/*===------------------------------------------------------------------===*
 * Comparison
 *===------------------------------------------------------------------===*/

typedef struct TtrtComparison {
  double relL2;      /* ||out - ref|| / ||ref|| over elements of finite ref */
  bool absolute;     /* ||ref|| was 0, so relL2 is the absolute ||out - ref|| */
  double maxAbs;     /* largest |out - ref| over elements of finite ref */
  int64_t nonfinite; /* NaN/Inf out where ref is finite, or where ref is
                        NaN/Inf and out is not the same */
} TtrtComparison;

/* Compares `count` output values with the reference values. */
void ttrtRefCompare(const double *out, const double *ref, size_t count,
                    TtrtComparison *result);

#ifdef __cplusplus
}
#endif

#endif /* TT_RUNTIME_REF_H */
