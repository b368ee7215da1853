// RUN: tt-opt %s --split-input-file --splitk | FileCheck %s
// RUN: tt-opt %s --split-input-file --fuse --splitk | FileCheck %s --check-prefix=FUSED
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' --splitk='split-k=4 reduce=atomic' | FileCheck %s --check-prefix=DOT
// split-k=0 (the default) picks the largest power of two S with programs * S <= num-sms
// (4 programs, 8 SMs: S = 2) where floor-ns=0; with the default floor, no split where an
// unsplit program's walk over K ends before the split form's floor (16 x 64 tiles, K =
// 512: 80 KB at 50 GB/s, 1.6 us against 7 us); split-k=1 leaves the kernel alone. Either
// choice is recorded on the kernel (tile.split_k), so that tt-translate keeps it
// (splitk/kept.mlir).
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' --splitk='num-sms=8 floor-ns=0 cluster=1' | FileCheck %s --check-prefix=AUTO
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' --splitk='num-sms=8 cluster=1' | FileCheck %s --check-prefix=FLOOR
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile='block-k=64' --splitk='split-k=1' | FileCheck %s --check-prefix=ONE

// A program without a dot is left unchanged by --splitk.
// CHECK-LABEL: func.func @no_dot
// CHECK-NEXT: "prim.exp"
// FUSED-LABEL: func.func private @fused_0
// FUSED: "prim.exp"
func.func @no_dot(%x: tensor<8xf32>) -> tensor<8xf32> {
  %y = "prim.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// A linear layer with a bias, split 4 ways: the K loop of program (p, s) runs over
// [s * 128, min(s * 128 + 128, 512)), only slice 0 adds the bias, the partial tile is added
// to the output with tile.atomic_add (carrying the output's 4 x 256 elements as
// tile.extent), and the launch zeroes the output and gets 4 programs along grid axis 1.
// DOT: func.func @fused_0_kernel{{.*}}tile.split_k = 4
// DOT: %[[PK:.*]] = "tile.program_id"() {axis = 1 : i32}
// DOT: %[[LO:.*]] = arith.muli %[[PK]], %c128_i32
// DOT: %[[HI0:.*]] = arith.addi %[[LO]], %c128_i32
// DOT: %[[HI:.*]] = arith.minsi %[[HI0]], %c512_i32
// DOT: %[[FIRST:.*]] = arith.cmpi eq, %[[PK]]
// DOT: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %c64
// DOT: "tile.dot"
// DOT: arith.select %[[FIRST]]
// DOT: "tile.atomic_add"({{.*}}) {tile.extent = 1024 : i64}
// DOT-NOT: "tile.store"
// DOT: tile.launch = {args = [], grid = ["4", "4", "1"], kernel = @fused_0_kernel, zero_result}
// AUTO: func.func @fused_0_kernel{{.*}}tile.split_k = 2
// AUTO: grid = ["4", "2", "1"]
// FLOOR: func.func @fused_0_kernel{{.*}}tile.split_k = 1
// FLOOR: grid = ["4", "1", "1"]
// FLOOR-NOT: zero_result
// ONE: func.func @fused_0_kernel{{.*}}tile.split_k = 1
// ONE: grid = ["4", "1", "1"]
// ONE-NOT: zero_result
func.func @linear(%x: tensor<4x512xf16>, %w: tensor<256x512xf16>, %b: tensor<256xf16>) -> tensor<4x256xf16> {
  %y = "prim.linear"(%x, %w, %b) : (tensor<4x512xf16>, tensor<256x512xf16>, tensor<256xf16>) -> tensor<4x256xf16>
  return %y : tensor<4x256xf16>
}
