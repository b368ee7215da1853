// tt-translate runs --pdl for sm_90 and later (kernels tt-opt marked are left as they
// are): the launch line says `pdl` (metadata format 5) and the PTX has griddepcontrol.
// Older targets get neither, and a kernel that tt-opt --pdl gave grid-dependency ops is
// an error there, at this file's line of the op the kernel came from (tt-opt's output
// keeps the locations), not at a line of tt-opt's output.
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90a %t.ptx -o %t.cubin %}
// RUN: tt-run --ref-only --dump-meta --seed 1 %t.ptx | FileCheck %s --check-prefix=RT
// RUN: tt-opt %s --decompose --fuse --splitk --pdl='trigger=off' | tt-translate --ptx | FileCheck %s --check-prefix=OFF
// RUN: tt-opt %s --decompose --fuse --splitk | tt-translate --ptx --arch=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: tt-opt %s --decompose --fuse --splitk --pipeline --pdl | not tt-translate --ptx --arch=sm_80 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: //@tt-meta 5 arch sm_90a
// CHECK: //@launch fused_0_kernel grid 128 1 1 block 128 1 1 shared 164864 pdl
// CHECK: .entry fused_0_kernel(
// CHECK: griddepcontrol.launch_dependents;
// CHECK: cp.async.bulk.tensor
// CHECK: griddepcontrol.wait;
// CHECK: cp.async.bulk.tensor
// RT: tt-meta 5 arch sm_90a
// RT: launch fused_0_kernel grid 128=128 1=1 1=1 block 128 1 1 shared 164864 pdl
// OFF: //@tt-meta 4 arch sm_90a
// OFF-NOT: pdl
// OFF-NOT: griddepcontrol
// SM80: //@tt-meta 1 arch sm_80
// SM80-NOT: pdl
// SM80-NOT: griddepcontrol
// ERR: {{^.*}}pdl/translate.mlir:31:8: error: tt-translate: 'hopper.griddep_{{wait|launch_dependents}}' (programmatic dependent launch) needs --arch=sm_90 or later; run --pdl='trigger=off' for older targets
func.func @weights(%x: tensor<16x8192xf16>, %w: tensor<8192x8192xf16> {tt.invariant}) -> tensor<16x8192xf16> {
  %y = "prim.linear"(%x, %w) : (tensor<16x8192xf16>, tensor<8192x8192xf16>) -> tensor<16x8192xf16>
  return %y : tensor<16x8192xf16>
}
