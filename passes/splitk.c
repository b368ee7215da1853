/* splitk.c - the --splitk pass: split the K loop of dot kernels over a second grid axis.
 *
 * For skinny GEMMs (M of 1..64) a data-parallel grid has too few programs to fill the GPU;
 * SplitK gives each program a slice of K and sums the partial tiles with atomics.
 *
 * Algorithm (this version):
 *  1. Find the dot work in the module: prim.matmul ops and tile.dot ops in tile kernels.
 *  2. With none, leave the module unchanged: elementwise and reduction kernels have no K
 *     loop to split, so `tt-opt --fuse --splitk` is valid for every program.
 *  3. With some, say that SplitK for dot kernels arrives with the GEMM work (issue 4) and
 *     fail, rather than pretend to have split anything.
 */
#include "tt.h"

static bool findDot(MlirOperation op, void *userData) {
  if (ttOpIs(op, "prim.matmul") || ttOpIs(op, "tile.dot")) {
    *(MlirOperation *)userData = op;
    return false;
  }
  return true;
}

bool ttSplitKPass(MlirModule module, const TtPassOptions *opts) {
  MlirOperation dot = {NULL};
  ttWalk(mlirModuleGetOperation(module), findDot, &dot);
  if (mlirOperationIsNull(dot))
    return true;
  ttEmitError(dot, "splitk: split-k=%lld for matmul kernels is not implemented yet",
              (long long)opts->v[0]);
  return false;
}
