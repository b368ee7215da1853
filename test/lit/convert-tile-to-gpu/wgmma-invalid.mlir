// RUN: tt-opt %s --verify-diagnostics --convert-tile-to-gpu='mma=wgmma'
// RUN: not tt-opt %s --convert-tile-to-gpu='mma=wgmma' 2>&1 | FileCheck %s

// hopper.wgmma_wait on the wgmma lowering: a wait for a negative number of groups in flight.
func.func @wgmma_wait_negative() attributes {tile.kernel, tile.num_warps = 4 : i32} {
  // CHECK: {{^}}{{.*}}wgmma-invalid.mlir:[[@LINE+2]]:3: error: 'hopper.wgmma_wait' needs pending, an integer from 0 to 7{{$}}
  // expected-error@+1 {{'hopper.wgmma_wait' needs pending, an integer from 0 to 7}}
  "hopper.wgmma_wait"() {pending = -1 : i32} : () -> ()
  return
}
