/// prim (prim-torch): PyTorch primitive and composite tensor ops on builtin ranked tensors.
///
/// Values are builtin `tensor<...>` types with f32, f16 or bf16 elements (fp8 E4M3/E5M2 and
/// integer tensors where an op says so). Elementwise ops take operands of one identical type:
/// broadcasting is explicit, with `prim.broadcast_in_dim`, as in PrimTorch. Composite ops
/// (softmax, layer_norm, gelu, ...) are declared here and rewritten into primitives by
/// `--decompose`. `--fuse` groups ops into `prim.fusion` regions, one per future kernel.
///
/// Ops print in MLIR's generic form, e.g.
/// `%y = "prim.add"(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>`.
irdl.dialect @prim {
  /// Elementwise -x. Category: unary.
  irdl.operation @neg {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise |x|. Category: unary.
  irdl.operation @abs {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise e^x. Category: unary.
  irdl.operation @exp {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise 2^x. Category: unary.
  irdl.operation @exp2 {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise natural logarithm. Category: unary.
  irdl.operation @log {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise square root. Category: unary.
  irdl.operation @sqrt {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise 1/sqrt(x). Category: unary.
  irdl.operation @rsqrt {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise hyperbolic tangent. Category: unary.
  irdl.operation @tanh {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise error function. Category: unary.
  irdl.operation @erf {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise sine. Category: unary.
  irdl.operation @sin {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise cosine. Category: unary.
  irdl.operation @cos {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise 1/x. Category: unary.
  irdl.operation @reciprocal {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
  /// Elementwise lhs + rhs; both operands and the result have one type. Category: binary.
  irdl.operation @add {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise lhs - rhs; both operands and the result have one type. Category: binary.
  irdl.operation @sub {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise lhs * rhs; both operands and the result have one type. Category: binary.
  irdl.operation @mul {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise lhs / rhs (true division); both operands and the result have one type. Category: binary.
  irdl.operation @div {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise elementwise maximum (NaN propagates); both operands and the result have one type. Category: binary.
  irdl.operation @max {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise elementwise minimum (NaN propagates); both operands and the result have one type. Category: binary.
  irdl.operation @min {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise lhs ** rhs; both operands and the result have one type. Category: binary.
  irdl.operation @pow {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %t)
  }
  /// Elementwise comparison giving an i1 tensor of the operands' shape. `direction` is one
  /// of "eq", "ne", "lt", "le", "gt", "ge" (ordered: false when either side is NaN, except
  /// "ne"). Category: compare.
  irdl.operation @compare {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.string"
    irdl.operands(lhs: %t, rhs: %t)
    irdl.results(result: %r)
    irdl.attributes {"direction" = %d}
  }

  /// Elementwise select: `cond ? on_true : on_false`; `cond` is an i1 tensor of the same
  /// shape. Category: select.
  irdl.operation @where {
    %c = irdl.base "!builtin.tensor"
    %t = irdl.base "!builtin.tensor"
    irdl.operands(cond: %c, on_true: %t, on_false: %t)
    irdl.results(result: %t)
  }

  /// Elementwise dtype cast to the result's element type (same shape). Float narrowing
  /// rounds to nearest even; to fp8 as PyTorch's casts do: past the largest finite value
  /// (448, 57344) a value that rounds up is NaN in f8E4M3FN (no infinity) and +-inf in
  /// f8E5M2. Kernels compute f16, bf16 and fp8 in f32 (fp8 needs sm_89+). Category:
  /// convert.
  irdl.operation @convert {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %r)
  }

  /// Broadcast to the result shape: operand dimension i becomes result dimension
  /// `broadcast_dimensions[i]` (strictly increasing); an operand dimension of size 1
  /// broadcasts; result dimensions not named are new. Same element type. Category: shape.
  irdl.operation @broadcast_in_dim {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"broadcast_dimensions" = %d}
  }

  /// PyTorch's slicing `x[start:stop:step, ...]` (aten.slice in every dim at once): one
  /// entry per operand dimension in `start`, `stop` and `step` (array<i64>), with
  /// 0 <= start < stop <= size and step >= 1 (negative and past-the-end indices are
  /// written normalized); result dimension d has ceil((stop - start) / step) elements,
  /// element i being the operand's start + step * i. Same element type. In an
  /// elementwise group it is a load at the mapped offsets, not a kernel. Category: shape.
  irdl.operation @slice {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a = irdl.base "#builtin.dense_array"
    %b = irdl.base "#builtin.dense_array"
    %c = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"start" = %a, "stop" = %b, "step" = %c}
  }

  /// torch.cat of two tensors (one rank and element type) along dimension `dim` (an
  /// integer, 0 <= dim < rank); every other dimension has one size. torch.cat of more is
  /// a chain of concats (IRDL cannot take variadic operands of different types); a chain
  /// fuses into one kernel. In an elementwise group each element is a load from the
  /// operand its index falls in (masked loads and a select), not a kernel. Category: shape.
  irdl.operation @concat {
    %t = irdl.base "!builtin.tensor"
    %u = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %i = irdl.base "#builtin.integer"
    irdl.operands(lhs: %t, rhs: %u)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %i}
  }

  /// torch.index_select (an embedding lookup when x is the table and dim 0): `index` is a
  /// 1-D tensor of i32 or i64; the result is x's shape with dimension `dim` (an integer,
  /// 0 <= dim < rank) replaced by the index's length, result[..., i, ...] =
  /// x[..., index[i], ...]. Same element type as x. An index must be in [0, size of dim):
  /// negative indices are out of range, as in torch.index_select. The reference
  /// (tt-run) reports an out-of-range index as an error naming the line and the element;
  /// a kernel reads 0 for it (the load is masked off: an i64 index is compared before it
  /// is truncated to the kernel's i32 offsets). In an elementwise group it is an index
  /// load then a data load at the mapped offsets, not a kernel. Category: shape.
  irdl.operation @index_select {
    %t = irdl.base "!builtin.tensor"
    %u = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %i = irdl.base "#builtin.integer"
    irdl.operands(x: %t, index: %u)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %i}
  }

  /// torch.gather along dimension `dim` (an integer, 0 <= dim < rank): `index` (i32 or
  /// i64) has x's rank and, in every dimension but `dim`, at most x's size; the result has
  /// the index's shape and element type x's, result[i0, .., id, ..] = x[i0, ..,
  /// index[i0, .., id, ..], ..]. Indices must be in [0, size of dim): negative ones are
  /// out of range (not wrapped). The reference reports an out-of-range index as an error
  /// naming the line and the element; a kernel reads 0 for it (a masked-off load). In an
  /// elementwise group it is an index load then a data load, not a kernel.
  /// Category: shape.
  irdl.operation @gather {
    %t = irdl.base "!builtin.tensor"
    %u = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %i = irdl.base "#builtin.integer"
    irdl.operands(x: %t, index: %u)
    irdl.results(result: %r)
    irdl.attributes {"dim" = %i}
  }

  /// torch.arange along one dimension of the result: each element is its index along
  /// `dimension` (an integer, 0 <= dimension < the result's rank), in the result's
  /// element type (a float or an integer; broadcast over the other dimensions). Kernels
  /// compute it in f32 (for f16 and bf16 too, like every op) and store only f32, f16 and
  /// bf16: an integer iota is supported in a kernel only as the operand of a `convert` to
  /// a float (torch.arange(n, dtype=torch.int32).float()); any other integer iota there
  /// (stored, or an index) is a located error of --tile. Category: shape.
  irdl.operation @iota {
    %r = irdl.base "!builtin.tensor"
    %i = irdl.base "#builtin.integer"
    irdl.results(result: %r)
    irdl.attributes {"dimension" = %i}
  }

  /// torch.nn.functional.pad in constant mode: `low` and `high` (array<i64>, one entry per
  /// dimension, each >= 0: negative widths, which crop in PyTorch, are rejected; slice
  /// crops) add that many elements before and after each dimension, all equal to `value`
  /// (a float attribute); result dim d has low[d] + size + high[d] elements. Same element
  /// type (a float). In an elementwise group each element is a load of x under the mask
  /// of the lanes inside it, then a select with `value`; not a kernel. Category: shape.
  irdl.operation @pad {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %a = irdl.base "#builtin.dense_array"
    %b = irdl.base "#builtin.dense_array"
    %v = irdl.base "#builtin.float"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"low" = %a, "high" = %b, "value" = %v}
  }

  /// Row-major reshape to the result type (same element type and number of elements).
  /// Category: shape.
  irdl.operation @reshape {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %r)
  }

  /// Transpose: result dimension i is operand dimension `permutation[i]` (a dense i64
  /// array, a permutation of 0..rank-1). Same element type. Category: shape.
  irdl.operation @transpose {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %p = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"permutation" = %p}
  }

  /// A tensor with every element equal to `value` (a float or integer attribute), like
  /// `torch.full`. Category: constant.
  irdl.operation @full {
    %fa = irdl.base "#builtin.float"
    %ia = irdl.base "#builtin.integer"
    %v = irdl.any_of(%fa, %ia)
    %r = irdl.base "!builtin.tensor"
    irdl.results(result: %r)
    irdl.attributes {"value" = %v}
  }

  /// A tensor given element by element (`value` is a dense elements attribute of the
  /// result type). Category: constant.
  irdl.operation @constant {
    %v = irdl.base "#builtin.dense_int_or_fp_elements"
    %r = irdl.base "!builtin.tensor"
    irdl.results(result: %r)
    irdl.attributes {"value" = %v}
  }
  /// Reduction (sum) over the dimensions `dims` (negative ones count from the end);
  /// `keepdim` (a bool, optional: false when absent, as in PyTorch) keeps them with size 1.
  /// Category: reduction.
  irdl.operation @sum {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d}
  }
  /// Reduction (maximum) over the dimensions `dims` (negative ones count from the end);
  /// `keepdim` (a bool, optional: false when absent, as in PyTorch) keeps them with size 1.
  /// Category: reduction.
  irdl.operation @amax {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d}
  }
  /// Reduction (minimum) over the dimensions `dims` (negative ones count from the end);
  /// `keepdim` (a bool, optional: false when absent, as in PyTorch) keeps them with size 1.
  /// Category: reduction.
  irdl.operation @amin {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d}
  }
  /// The index of the first maximum along `dim` (an integer, optional: absent means
  /// every dim, the index into the flattened tensor, as torch.argmax's dim=None);
  /// `keepdim` (a bool, optional: false when absent) keeps the reduced dim(s) with size 1.
  /// The operand is a float tensor; the result is i64 (PyTorch's dtype) or i32. Ties give
  /// the lowest index; a NaN counts as greater than every number (the first NaN's index),
  /// as in PyTorch. Category: reduction.
  irdl.operation @argmax {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %r)
  }
  /// The index of the first minimum along `dim`, as `argmax` (a NaN counts as smaller
  /// than every number: the first NaN's index, as in PyTorch). Category: reduction.
  irdl.operation @argmin {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %r)
  }
  /// Matrix product of 2-D (MxK, KxN) or batched 3-D (BxMxK, BxKxN) operands; fp32
  /// accumulation; the result's element type is the output dtype. Category: matmul.
  irdl.operation @matmul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %r)
  }

  /// `x @ weight^T + bias` as `torch.nn.functional.linear` (bias optional). Category:
  /// composite.
  irdl.operation @linear {
    %t = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(x: %t, weight: %w, bias: optional %b)
    irdl.results(result: %r)
  }

  /// `torch._scaled_mm`: `(a @ b) * scale_a * scale_b + bias` for fp8 operands a [M, K]
  /// and b [K, N] (f8E4M3FN or f8E5M2, each its own), per-tensor f32 scales (`tensor<f32>`)
  /// and an optional 1-D bias [N]; fp32 accumulation, the result's element type (f32, f16
  /// or bf16) is the output dtype. A linear layer passes `prim.transpose` of its [N, K]
  /// weight as b. Category: composite.
  irdl.operation @scaled_mm {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %sa = irdl.base "!builtin.tensor"
    %sb = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, scale_a: %sa, scale_b: %sb, bias: optional %c)
    irdl.results(result: %r)
  }

  /// Softmax along `dim` (an integer attribute). Category: composite.
  irdl.operation @softmax {
    %t = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(x: %t)
    irdl.results(result: %t)
    irdl.attributes {"dim" = %d}
  }

  /// Log-softmax along `dim`. Category: composite.
  irdl.operation @log_softmax {
    %t = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.integer"
    irdl.operands(x: %t)
    irdl.results(result: %t)
    irdl.attributes {"dim" = %d}
  }

  /// Layer normalization over the last dimension with `weight`, `bias` (1-D, the size of the
  /// last dimension) and `eps` (float). Category: composite.
  irdl.operation @layer_norm {
    %t = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %e = irdl.base "#builtin.float"
    irdl.operands(x: %t, weight: %w, bias: %w)
    irdl.results(result: %t)
    irdl.attributes {"eps" = %e}
  }

  /// RMS normalization over the last dimension with `weight` and `eps`. Category: composite.
  irdl.operation @rms_norm {
    %t = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %e = irdl.base "#builtin.float"
    irdl.operands(x: %t, weight: %w)
    irdl.results(result: %t)
    irdl.attributes {"eps" = %e}
  }

  /// GELU; `approximate` is "none" (erf form) or "tanh". Category: composite.
  irdl.operation @gelu {
    %t = irdl.base "!builtin.tensor"
    %a = irdl.base "#builtin.string"
    irdl.operands(x: %t)
    irdl.results(result: %t)
    irdl.attributes {"approximate" = %a}
  }

  /// SiLU: `x * sigmoid(x)`. Category: composite.
  irdl.operation @silu {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  /// Sigmoid: `1 / (1 + exp(-x))`. Category: composite.
  irdl.operation @sigmoid {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  /// SwiGLU: `silu(a) * b`; both operands and the result have one type. Category:
  /// composite.
  irdl.operation @swiglu {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(a: %t, b: %t)
    irdl.results(result: %t)
  }

  /// Mean over the dimensions `dims` (negative ones count from the end), as torch.mean:
  /// the sum divided by N, the product of the reduced dims' sizes; `keepdim` (a bool,
  /// optional: false when absent) keeps them with size 1. f16/bf16 compute in f32.
  /// Category: composite.
  irdl.operation @mean {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d}
  }

  /// Variance over the dimensions `dims`, as torch.var: `sum((x - mean)^2) / max(N -
  /// correction, 0)`; `correction` (an integer, optional: 1 when absent, Bessel's) and
  /// `keepdim` (a bool, optional: false when absent) as in PyTorch. Category: composite.
  irdl.operation @var {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d}
  }

  /// Standard deviation over the dimensions `dims`, as torch.std: `sqrt(var(x))` with
  /// var's optional `correction` (1) and `keepdim` (false). Category: composite.
  irdl.operation @std {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    %d = irdl.base "#builtin.dense_array"
    irdl.operands(x: %t)
    irdl.results(result: %r)
    irdl.attributes {"dims" = %d}
  }

  /// ReLU: `max(x, 0)` (NaN propagates). Category: composite.
  irdl.operation @relu {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  /// Clamp, as torch.clamp with scalars: `min(max(x, min), max)`; `min` and `max` are
  /// float attributes, each optional (at least one given); a min above max gives max.
  /// Category: composite.
  irdl.operation @clamp {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }
}
