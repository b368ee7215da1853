// --pdl: griddepcontrol.wait before a kernel's first access to global memory that the
// previous kernel may have written (TMA loads of tt.invariant inputs go first), and
// launch_dependents where `trigger` says: auto = at the start on a grid of at most num-sms
// programs of one block per SM, else after the K loop (at exit without one).
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --splitk='split-k=1' --pipeline='stage-in=tma' --pdl | FileCheck %s
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --splitk='split-k=1' --pipeline='stage-in=tma' --pdl='num-sms=4' | FileCheck %s --check-prefix=WIDE
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --splitk='split-k=1' --pipeline='stage-in=tma' --pdl='trigger=exit' | FileCheck %s --check-prefix=EXIT
// RUN: tt-opt %s --split-input-file --decompose --fuse --tile --splitk='split-k=1' --pipeline='stage-in=tma' --pdl='trigger=off' | FileCheck %s --check-prefix=OFF
// RUN: not tt-opt %s --pdl='trigger=soon' 2>&1 | FileCheck %s --check-prefix=BAD

// The weight (%w, tt.invariant) is TMA descriptor %arg4: its three prologue loads stay
// before the wait; x's (%arg3) are held back until after it. 128 programs whose rings
// (4 x (16 + 64) x 256 f16, 160 KiB) leave no room for a second block on an SM: the
// trigger comes first.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.pdl = "start"
// CHECK-NEXT: "hopper.griddep_launch_dependents"
// CHECK-NOT: "hopper.griddep_wait"
// CHECK: "hopper.tma_load"(%arg4, {{.*}}, %c0_i32
// CHECK-NOT: "hopper.griddep_wait"
// CHECK: "hopper.tma_load"(%arg4, {{.*}}, %c1_i32
// CHECK-NOT: "hopper.griddep_wait"
// CHECK: "hopper.tma_load"(%arg4, {{.*}}, %c2_i32
// CHECK-NEXT: "hopper.griddep_wait"
// CHECK-NEXT: "hopper.tma_load"(%arg3, {{.*}}, %c0_i32
// CHECK-NEXT: "hopper.tma_load"(%arg3, {{.*}}, %c1_i32
// CHECK-NEXT: "hopper.tma_load"(%arg3, {{.*}}, %c2_i32
// CHECK-NEXT: scf.for
// CHECK-NOT: "hopper.griddep
// CHECK: return
// More programs than num-sms SMs: the trigger follows the K loop.
// WIDE-LABEL: func.func @fused_0_kernel
// WIDE-SAME: tile.pdl = "after-loop"
// WIDE-NOT: "hopper.griddep_launch_dependents"
// WIDE: "hopper.griddep_wait"
// WIDE: scf.for
// WIDE: scf.yield
// WIDE-NEXT: }
// WIDE-NEXT: "hopper.griddep_launch_dependents"
// EXIT-LABEL: func.func @fused_0_kernel
// EXIT-SAME: tile.pdl = "exit"
// EXIT-NOT: "hopper.griddep_launch_dependents"
// EXIT: "hopper.griddep_wait"
// EXIT-NOT: "hopper.griddep_launch_dependents"
// OFF-LABEL: func.func @fused_0_kernel
// OFF-SAME: tile.pdl = "off"
// OFF-NOT: "hopper.griddep
// BAD: error: option 'trigger' of pass 'pdl' is 'soon'; expected one of: auto, start, after-loop, exit, off
func.func @weights(%x: tensor<16x8192xf16>, %w: tensor<8192x8192xf16> {tt.invariant}) -> tensor<16x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x8192xf16>, tensor<8192x8192xf16>) -> tensor<16x8192xf16>
  return %y : tensor<16x8192xf16>
}

// -----

// Nothing marked invariant: the wait precedes every load. Rings of 54 KiB leave room for
// a second block on an SM, where the next kernel's programs would move in beside these:
// the trigger follows the K loop.
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.pdl = "after-loop"
// CHECK-NOT: "hopper.tma_load"
// CHECK-NOT: "hopper.griddep_launch_dependents"
// CHECK: "hopper.griddep_wait"
// CHECK-NEXT: "hopper.tma_load"(%arg3
// CHECK-NEXT: "hopper.tma_load"(%arg4
// CHECK-NEXT: "hopper.tma_load"(%arg3
// CHECK-NEXT: "hopper.tma_load"(%arg4
// CHECK-NEXT: scf.for
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: "hopper.griddep_launch_dependents"
func.func @plain(%x: tensor<16x1024xf16>, %w: tensor<512x1024xf16>) -> tensor<16x512xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x1024xf16>, tensor<512x1024xf16>) -> tensor<16x512xf16>
  return %y : tensor<16x512xf16>
}

// -----

// An elementwise kernel: the wait goes before its first tile.load (the invariant input is
// not read by TMA, so it waits too). Its grid is symbolic (cdiv(numel, block)), which
// auto counts as more than one wave, and it has no K loop: no explicit trigger (a
// program's exit is one).
// CHECK-LABEL: func.func @fused_0_kernel
// CHECK-SAME: tile.pdl = "exit"
// CHECK-NOT: "hopper.griddep_launch_dependents"
// CHECK-NOT: "tile.load"
// CHECK: "hopper.griddep_wait"
// CHECK-NEXT: "tile.load"
// CHECK-NOT: "hopper.griddep_launch_dependents"
// CHECK: return
func.func @add(%a: tensor<8192xf32> {tt.invariant}, %b: tensor<8192xf32>) -> tensor<8192xf32> {
  %y = "prim.add"(%a, %b) : (tensor<8192xf32>, tensor<8192xf32>) -> tensor<8192xf32>
  return %y : tensor<8192xf32>
}
