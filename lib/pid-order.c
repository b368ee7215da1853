/* pid-order.c - program-id orders: which output tile a program computes.
 *
 * A 2-D grid of gm x gn output tiles is launched as gm * gn programs along grid axis 0;
 * the order decides which tile program `pid` takes, and so which tiles run at the same
 * time and share operands in L2:
 *   row-major     pid_m = pid / gn,  pid_n = pid % gn   (consecutive programs walk a row
 *                 of tiles: they share the A rows)
 *   column-major  pid_m = pid % gm,  pid_n = pid / gm   (they share the B columns)
 *   grouped       Triton's swizzle: row-major within groups of `group` tile rows, column
 *                 by column inside a group, so a wave of programs covers a near-square
 *                 block of tiles and reads both operands from L2 more often:
 *                   width = group * gn;  first = (pid / width) * group
 *                   size  = min(gm - first, group)
 *                   pid_m = first + (pid % width) % size;  pid_n = (pid % width) / size
 * The arithmetic is emitted as scalar arith ops on i32, so it stays visible in the IR.
 * Dot kernels use it (passes/tile/dot.c); any kernel over a 2-D grid of tiles can.
 */
#include "tt.h"

void ttEmitPidOrder(TtBuilder *b, MlirLocation loc, MlirValue pid, int64_t gm, int64_t gn,
                    TtPidOrder order, int64_t group, MlirValue *pidM, MlirValue *pidN) {
  ttEmitPidOrderDyn(b, loc, pid, (MlirValue){NULL}, gm, gn, order, group, pidM, pidN);
}

void ttEmitPidOrderDyn(TtBuilder *b, MlirLocation loc, MlirValue pid, MlirValue gmValue,
                       int64_t gm, int64_t gn, TtPidOrder order, int64_t group,
                       MlirValue *pidM, MlirValue *pidN) {
  MlirType i32 = mlirValueGetType(pid);
  MlirValue cgm = mlirValueIsNull(gmValue) ? ttConstInt(b, loc, i32, gm) : gmValue;
  MlirValue cgn = ttConstInt(b, loc, i32, gn);
  if (order == TT_ORDER_ROW_MAJOR) {
    *pidM = ttBinary(b, loc, "arith.divui", pid, cgn);
    *pidN = ttBinary(b, loc, "arith.remui", pid, cgn);
  } else if (order == TT_ORDER_COLUMN_MAJOR) {
    *pidM = ttBinary(b, loc, "arith.remui", pid, cgm);
    *pidN = ttBinary(b, loc, "arith.divui", pid, cgm);
  } else {
    MlirValue cg = ttConstInt(b, loc, i32, group);
    MlirValue width = ttConstInt(b, loc, i32, group * gn);
    MlirValue first = ttBinary(b, loc, "arith.muli", ttBinary(b, loc, "arith.divui", pid, width), cg);
    MlirValue size = ttBinary(b, loc, "arith.minsi", ttBinary(b, loc, "arith.subi", cgm, first), cg);
    MlirValue in = ttBinary(b, loc, "arith.remui", pid, width);
    *pidM = ttBinary(b, loc, "arith.addi", first, ttBinary(b, loc, "arith.remui", in, size));
    *pidN = ttBinary(b, loc, "arith.divui", in, size);
  }
}
