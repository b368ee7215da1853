// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse | FileCheck %s
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse --tile | FileCheck %s --check-prefix=TILE
// The option k-pad: kernel keeps every K pad a kernel of its own (for A/B runs); a value
// it does not know is an error.
// RUN: tt-opt %s --mlir-print-debuginfo=false --split-input-file --fuse=k-pad=kernel | FileCheck %s --check-prefix=KERNEL
// RUN: not tt-opt %s --fuse=k-pad=sideways 2>&1 | FileCheck %s --check-prefix=BAD
// KERNEL-LABEL: func.func @k_pad
// KERNEL-NEXT: %[[P:.*]] = call @fused_{{[0-9]+}}(%arg0) : (tensor<16x1000xbf16>) -> tensor<16x1024xbf16>
// KERNEL-NEXT: call @fused_{{[0-9]+}}(%[[P]], %arg1)
// BAD: error: option 'k-pad' of pass 'fuse' is 'sideways'; expected one of: auto, kernel, in-place
// A K pad (ttPrimIsKPad): a zero pad at the end of the last dim alone of a matmul's
// operand a whose rows are a multiple of 16 bytes joins the dot group (unless a pad kernel
// costs less: last case), like a transposed operand: the kernel reads the unpadded rows
// in place, by a TMA box of the [16, 1000] matrix (its zero fill is the pad) or, on the
// register path, by loads masked at column 1000 (the mask the box stands for). No kernel
// computes the pad.
// CHECK-LABEL: func.func private @fused_0
// CHECK-SAME: (%[[A:.*]]: tensor<16x1000xbf16>, %[[B:.*]]: tensor<1024x256xbf16>)
// CHECK-SAME: prim.fusion = "dot"
// CHECK: %[[P:.*]] = "prim.pad"(%[[A]])
// CHECK: "prim.matmul"(%[[P]], %[[B]])
// CHECK-LABEL: func.func @k_pad
// CHECK-NEXT: call @fused_0(%arg0, %arg1)
// CHECK-NEXT: return
// TILE-LABEL: func.func @fused_0_kernel
// TILE: scf.for %{{.*}} = %{{.*}} to %c1024_i32
// TILE: %[[END:.*]] = arith.constant dense<1000> : tensor<{{[0-9]+}}xi32>
// TILE: %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %[[END]] : tensor<{{[0-9]+}}xi32>
// TILE: "tile.load"(%arg0, %{{.*}}, %[[IN]], %{{.*}}) {tile.box = array<i64: 16, 1000>}
// TILE: "tile.load"{{.*}}tile.box = array<i64: 1024, 256>
func.func @k_pad(%a: tensor<16x1000xbf16>, %b: tensor<1024x256xbf16>) -> tensor<16x256xbf16> {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 24>, value = 0.0 : f64} : (tensor<16x1000xbf16>) -> tensor<16x1024xbf16>
  %y = "prim.matmul"(%p, %b) : (tensor<16x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x256xbf16>
  return %y : tensor<16x256xbf16>
}

// -----

// Pads the dot kernel does not read in place, each a kernel of its own: rows of 8 bytes
// (K = 4100: no TMA map strides them) at 4096 rows (--pipeline's resident copy takes
// tiles of at most 64 rows: pipeline/resident.mlir; in place under k-pad=in-place,
// pipeline/mixed.mlir), a pad by 1.0, and a pad of operand b (whose operand a, a K pad,
// is read in place: %arg1).
// CHECK-LABEL: func.func @not_k_pads
// CHECK-NEXT: call @fused_{{[0-9]+}}(%arg0) : (tensor<4096x4100xf16>)
// CHECK-NEXT: call @fused_{{[0-9]+}}(
// CHECK-NEXT: call @fused_{{[0-9]+}}(%arg1) : (tensor<16x1000xf16>)
// CHECK-NEXT: call @fused_{{[0-9]+}}(
// CHECK-NEXT: %[[E:.*]] = call @fused_{{[0-9]+}}(%arg2) : (tensor<1000x64xf16>)
// CHECK-NEXT: call @fused_{{[0-9]+}}(%arg1, %[[E]])
// CHECK-NEXT: return
func.func @not_k_pads(%a: tensor<4096x4100xf16>, %c: tensor<16x1000xf16>, %d: tensor<1000x64xf16>,
                      %w: tensor<4160x64xf16>, %v: tensor<1024x64xf16>)
    -> (tensor<4096x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>) {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 60>, value = 0.0 : f64} : (tensor<4096x4100xf16>) -> tensor<4096x4160xf16>
  %y = "prim.matmul"(%p, %w) : (tensor<4096x4160xf16>, tensor<4160x64xf16>) -> tensor<4096x64xf16>
  %q = "prim.pad"(%c) {low = array<i64: 0, 0>, high = array<i64: 0, 24>, value = 1.0 : f64} : (tensor<16x1000xf16>) -> tensor<16x1024xf16>
  %z = "prim.matmul"(%q, %v) : (tensor<16x1024xf16>, tensor<1024x64xf16>) -> tensor<16x64xf16>
  %e = "prim.pad"(%d) {low = array<i64: 0, 0>, high = array<i64: 24, 0>, value = 0.0 : f64} : (tensor<1000x64xf16>) -> tensor<1024x64xf16>
  %c2 = "prim.pad"(%c) {low = array<i64: 0, 0>, high = array<i64: 0, 24>, value = 0.0 : f64} : (tensor<16x1000xf16>) -> tensor<16x1024xf16>
  %u = "prim.matmul"(%c2, %e) : (tensor<16x1024xf16>, tensor<1024x64xf16>) -> tensor<16x64xf16>
  return %y, %z, %u : tensor<4096x64xf16>, tensor<16x64xf16>, tensor<16x64xf16>
}

// -----

// Rows of 8 bytes (K = 4100) at 16 rows: read in place, --pipeline copying each program's
// K range of them to shared memory once (tileDotResidentFits); 2-byte rows (K = 3001)
// stay a kernel (no cp.async under 4 bytes).
// CHECK-LABEL: func.func @resident_k_pad
// CHECK-NEXT: call @fused_{{[0-9]+}}(%arg0, %arg1) : (tensor<16x4100xf16>, tensor<4160x64xf16>)
// CHECK-NEXT: %[[P:.*]] = call @fused_{{[0-9]+}}(%arg2) : (tensor<16x3001xf16>)
// CHECK-NEXT: call @fused_{{[0-9]+}}(%[[P]], %arg3)
// KERNEL-LABEL: func.func @resident_k_pad
// KERNEL-NEXT: call @fused_{{[0-9]+}}(%arg0) : (tensor<16x4100xf16>)
func.func @resident_k_pad(%a: tensor<16x4100xf16>, %w: tensor<4160x64xf16>,
                          %b: tensor<16x3001xf16>, %v: tensor<3008x64xf16>)
    -> (tensor<16x64xf16>, tensor<16x64xf16>) {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 60>, value = 0.0 : f64} : (tensor<16x4100xf16>) -> tensor<16x4160xf16>
  %y = "prim.matmul"(%p, %w) : (tensor<16x4160xf16>, tensor<4160x64xf16>) -> tensor<16x64xf16>
  %q = "prim.pad"(%b) {low = array<i64: 0, 0>, high = array<i64: 0, 7>, value = 0.0 : f64} : (tensor<16x3001xf16>) -> tensor<16x3008xf16>
  %z = "prim.matmul"(%q, %v) : (tensor<16x3008xf16>, tensor<3008x64xf16>) -> tensor<16x64xf16>
  return %y, %z : tensor<16x64xf16>, tensor<16x64xf16>
}

// -----

// A dynamic M with rows TMA cannot stride keeps the pad a kernel (the resident copy's
// tile rows are not known at --fuse).
// CHECK-LABEL: func.func @dynamic_k_pad
// CHECK-NEXT: %[[P:.*]] = call @fused_{{[0-9]+}}(%arg0) : (tensor<?x4100xf16>) -> tensor<?x4160xf16>
// CHECK-NEXT: call @fused_{{[0-9]+}}(%[[P]], %arg1)
func.func @dynamic_k_pad(%a: tensor<?x4100xf16>, %w: tensor<4160x64xf16>) -> tensor<?x64xf16> {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 60>, value = 0.0 : f64} : (tensor<?x4100xf16>) -> tensor<?x4160xf16>
  %y = "prim.matmul"(%p, %w) : (tensor<?x4160xf16>, tensor<4160x64xf16>) -> tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}

// -----

// Where the column tiles' re-reads of A's off-sector rows would cost more than a pad
// kernel (common.c's cost model: 64 x 4104 f16 read by 64 column tiles, 3.0 us against
// 1.9), the K pad stays a kernel of its own.
// CHECK-LABEL: func.func @k_pad_kernel
// CHECK-NEXT: %[[P:.*]] = call @fused_{{[0-9]+}}(%arg0) : (tensor<64x4104xf16>) -> tensor<64x4160xf16>
// CHECK-NEXT: call @fused_{{[0-9]+}}(%[[P]], %arg1)
func.func @k_pad_kernel(%a: tensor<64x4104xf16>, %b: tensor<4160x4096xf16>) -> tensor<64x4096xf16> {
  %p = "prim.pad"(%a) {low = array<i64: 0, 0>, high = array<i64: 0, 56>, value = 0.0 : f64} : (tensor<64x4104xf16>) -> tensor<64x4160xf16>
  %y = "prim.matmul"(%p, %b) : (tensor<64x4160xf16>, tensor<4160x4096xf16>) -> tensor<64x4096xf16>
  return %y : tensor<64x4096xf16>
}
