/* hoist.c - --fuse's step 6: the calls that read weights alone are marked to run once.
 *
 * A model calls its program many times with the same weights: whatever the program
 * computes from weights alone (a weight padded to 16-byte rows by --decompose align-k, a
 * transposed or converted weight, a constant made by iota) is the same at every call.
 * Such a call is marked `tt.invariant` (a unit attribute on the func.call); the launch
 * metadata marks its launches `once` (format 9) and the runtime runs them at the first
 * run and again only when a weight they read moves (docs/metadata.md). Their results
 * are temps the program keeps, so later runs read the copy made at the first.
 *
 * Algorithm, over the host block in program order: a value is invariant when it is an
 * argument marked `tt.invariant` (the caller promises its contents stay between calls) or
 * a result of a call already marked (ttValueIsInvariant). A call of a fused function is
 * marked when every operand is invariant and none of its results is returned (a result
 * is the caller's buffer, written at every run). Option hoist=0 marks nothing.
 */
#include "fuse.h"

/* True when some result of `call` is an operand of a func.return. */
static bool returnsResult(MlirOperation call) {
  for (intptr_t k = 0; k < mlirOperationGetNumResults(call); k++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(call, k));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      if (ttOpIs(mlirOpOperandGetOwner(u), "func.return"))
        return true;
  return false;
}

void fuMarkInvariantCalls(MlirBlock block) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ttOpIs(op, "func.call") || mlirOperationGetNumResults(op) < 1 || returnsResult(op))
      continue;
    bool invariant = true;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op) && invariant; k++)
      invariant = ttValueIsInvariant(mlirOperationGetOperand(op, k));
    if (invariant)
      mlirOperationSetAttributeByName(op, ttStrRef("tt.invariant"),
                                      mlirUnitAttrGet(mlirOperationGetContext(op)));
  }
}
