// Attention's second product, P @ V, for 12 heads at a sequence length of 1000 and head
// dim 64 (f16): a batched (3-D) matmul whose K (1000) no K step divides. tt reads P as
// its heads' rows stacked and V through a batched (rank-3) tensor map, on wgmma.
// docs/worked-example-bmm.md follows it through the main job.
func.func @main(%p: tensor<12x1000x1000xf16>, %v: tensor<12x1000x64xf16>) -> tensor<12x1000x64xf16> {
  %o = "prim.matmul"(%p, %v) : (tensor<12x1000x1000xf16>, tensor<12x1000x64xf16>) -> tensor<12x1000x64xf16>
  return %o : tensor<12x1000x64xf16>
}
