"""The ATen -> prim table: one entry per core-ATen op the importer maps.

Each entry is a function decorated with `@aten("name.overload", ...)`; its docstring is
what docs/aten-ops.md (generated: `python -m tt.aten --markdown`) says of it. A function
takes the lowering context `cx` (importer.Lowering: values of the FX arguments, the
node's output shape and dtype, broadcasting, conversions, scalars as `prim.full`) and the
node's positional and keyword arguments, and returns the prim Value (or a tuple of them
for ops with several outputs). PyTorch's own decompositions (core ATen, applied by
`torch.export`'s `run_decompositions`) run first, so composites like `linear`, `rms_norm`
and `silu` arrive here as their core ops.
"""

from __future__ import annotations

import sys
from typing import Callable, Dict

TABLE: Dict[str, Callable] = {}


def aten(*names: str):
    def register(fn):
        for n in names:
            TABLE[n] = fn
        fn.aten_names = names
        return fn
    return register


# --- elementwise --------------------------------------------------------------------

_UNARY = {"neg": "neg", "abs": "abs", "exp": "exp", "exp2": "exp2", "log": "log",
          "sqrt": "sqrt", "rsqrt": "rsqrt", "tanh": "tanh", "erf": "erf", "sin": "sin",
          "cos": "cos", "reciprocal": "reciprocal", "sigmoid": "sigmoid", "relu": "relu",
          "silu": "silu"}


def _unary(prim):
    def lower(cx, x):
        return cx.emit(prim, [cx.elementwise(x)])
    lower.__doc__ = f"`prim.{prim}` in the result's dtype."
    return lower


for _a, _p in _UNARY.items():
    aten(f"{_a}.default")(_unary(_p))

_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "div": "div", "maximum": "max",
           "minimum": "min", "pow": "pow"}


def _binary(aname, prim):
    def lower(cx, a, b, alpha=1, rounding_mode=None):
        if rounding_mode is not None:
            cx.unsupported(f"rounding_mode={rounding_mode!r}")
        x, y = cx.elementwise(a), cx.elementwise(b)
        if alpha != 1:
            y = cx.emit("mul", [y, cx.full(alpha)])
        return cx.emit(prim, [x, y])
    lower.__doc__ = (f"`prim.{prim}` of both operands broadcast (`prim.broadcast_in_dim`) "
                     "and converted to the result's shape and dtype; a Python scalar is a "
                     "`prim.full`" + ("; `alpha` multiplies the second" if aname in ("add", "sub") else "") + ".")
    return lower


for _a, _p in _BINARY.items():
    aten(f"{_a}.Tensor", f"{_a}.Scalar", f"{_a}.Tensor_Scalar", f"{_a}.Tensor_Tensor",
         f"{_a}.default")(
        _binary(_a, _p))

_COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]


def _compare(direction):
    def lower(cx, a, b):
        dt = cx.common_dtype(a, b)
        return cx.emit("compare", [cx.elementwise(a, dt), cx.elementwise(b, dt)],
                       attrs={"direction": f'"{direction}"'})
    lower.__doc__ = (f'`prim.compare` with direction "{direction}" of both operands '
                     "broadcast and promoted to their common dtype; an i1 result.")
    return lower


for _d in _COMPARE:
    aten(f"{_d}.Tensor", f"{_d}.Scalar")(_compare(_d))


@aten("where.self", "where.ScalarOther", "where.ScalarSelf", "where.Scalar")
def where(cx, c, a, b):
    """`prim.where` of the condition and both values, broadcast to the result."""
    return cx.emit("where", [cx.elementwise(c, "i1"), cx.elementwise(a), cx.elementwise(b)])


@aten("clamp.default")
def clamp(cx, x, min=None, max=None):
    """`prim.clamp` with float `min` / `max` attributes (scalars only)."""
    attrs = {}
    if min is not None:
        attrs["min"] = cx.float_attr(min)
    if max is not None:
        attrs["max"] = cx.float_attr(max)
    return cx.emit("clamp", [cx.elementwise(x)], attrs=attrs)


@aten("gelu.default")
def gelu(cx, x, approximate="none"):
    """`prim.gelu` with `approximate` "none" (erf) or "tanh"."""
    return cx.emit("gelu", [cx.elementwise(x)], attrs={"approximate": f'"{approximate}"'})


@aten("_to_copy.default")
def to_copy(cx, x, dtype=None, layout=None, device=None, pin_memory=None,
            non_blocking=False, memory_format=None):
    """`prim.convert` to the result's dtype (the same value when the dtype is kept)."""
    return cx.convert(cx.value(x), cx.out_dtype())


@aten("clone.default", "alias.default", "contiguous.default", "lift_fresh_copy.default")
def identity(cx, x, memory_format=None):
    """The operand itself: tt's tensors are values, a copy is no op."""
    return cx.value(x)


# --- shape -----------------------------------------------------------------------------

@aten("view.default", "_unsafe_view.default", "reshape.default", "squeeze.dims",
      "squeeze.dim", "squeeze.default", "unsqueeze.default", "flatten.using_ints")
def reshape(cx, x, *args):
    """`prim.reshape` to the result's shape (the same value when the shape is kept)."""
    v = cx.value(x)
    shape = cx.out_shape()
    return v if v.shape == shape else cx.emit("reshape", [v])


@aten("permute.default")
def permute(cx, x, dims):
    """`prim.transpose` with `permutation` = dims (normalized)."""
    v = cx.value(x)
    perm = [d % v.rank for d in dims]
    if perm == list(range(v.rank)):
        return v
    return cx.emit("transpose", [v], attrs={"permutation": cx.i64_array(perm)})


@aten("t.default", "transpose.int")
def transpose(cx, x, d0=0, d1=1):
    """`prim.transpose` swapping two dims (t: the two of a matrix)."""
    v = cx.value(x)
    perm = list(range(v.rank))
    if v.rank >= 2:
        a, b = d0 % v.rank, d1 % v.rank
        perm[a], perm[b] = perm[b], perm[a]
    return permute(cx, x, perm)


@aten("expand.default")
def expand(cx, x, size, implicit=False):
    """`prim.broadcast_in_dim` to the result's shape (trailing dims aligned)."""
    return cx.broadcast(cx.value(x), cx.out_shape())


@aten("slice.Tensor")
def slice_(cx, x, dim=0, start=None, end=None, step=1):
    """`prim.slice` along one dim (start/stop normalized and clamped as PyTorch does)."""
    v = cx.value(x)
    dim %= v.rank
    size = v.shape[dim]
    if size is None:
        cx.unsupported("slicing along a dynamic dim")
    start = 0 if start is None else start
    end = size if end is None else end
    start = max(0, min(size, start + size if start < 0 else start))
    end = max(start, min(size, end + size if end < 0 else end))
    if start == 0 and end == size and step == 1:
        return v
    starts = [0] * v.rank
    stops = [d for d in v.shape]
    steps = [1] * v.rank
    starts[dim], stops[dim], steps[dim] = start, end, step
    if None in stops:
        cx.unsupported("slicing a tensor with a dynamic dim")
    return cx.emit("slice", [v], attrs={"start": cx.i64_array(starts),
                                        "stop": cx.i64_array(stops),
                                        "step": cx.i64_array(steps)})


@aten("select.int")
def select(cx, x, dim, index):
    """`prim.slice` of the one index along dim (negative counts from the end), then
    `prim.reshape` without that dim."""
    v = cx.value(x)
    dim %= v.rank
    size = v.shape[dim]
    if size is None:
        cx.unsupported("select along a dynamic dim")
    if not -size <= index < size:
        cx.unsupported(f"index {index} of a dim of size {size}")
    index %= size
    if None in v.shape:
        cx.unsupported("select from a tensor with a dynamic dim")
    starts, stops = [0] * v.rank, list(v.shape)
    starts[dim], stops[dim] = index, index + 1
    kept = tuple(1 if i == dim else d for i, d in enumerate(v.shape))
    sliced = cx.emit("slice", [v], kept, attrs={"start": cx.i64_array(starts),
                                                "stop": cx.i64_array(stops),
                                                "step": cx.i64_array([1] * v.rank)})
    return cx.emit("reshape", [sliced])


@aten("cat.default")
def cat(cx, tensors, dim=0):
    """`prim.concat` of two tensors at a time, left to right."""
    vals = [cx.value(t) for t in tensors]
    dt = cx.out_dtype()
    vals = [cx.convert(v, dt) for v in vals if 0 not in v.shape]
    out = vals[0]
    d = dim % out.rank
    for v in vals[1:]:
        shape = list(out.shape)
        shape[d] = None if shape[d] is None or v.shape[d] is None else shape[d] + v.shape[d]
        out = cx.emit("concat", [out, v], shape=tuple(shape), dtype=dt,
                      attrs={"dim": f"{d} : i64"})
    return out


@aten("index_select.default")
def index_select(cx, x, dim, index):
    """`prim.index_select` along `dim` with a 1-D i32/i64 index."""
    v = cx.value(x)
    return cx.emit("index_select", [v, cx.value(index)],
                   attrs={"dim": f"{dim % v.rank} : i64"})


@aten("embedding.default")
def embedding(cx, weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """`prim.index_select` of the table's rows (dim 0) at the flattened indices, then
    `prim.reshape` to the result's shape."""
    w, idx = cx.value(weight), cx.value(indices)
    n = 1
    for d in idx.shape:
        n = None if n is None or d is None else n * d
    flat = idx if idx.rank == 1 else cx.emit("reshape", [idx], shape=(n,), dtype=idx.dtype)
    rows = cx.emit("index_select", [w, flat], shape=(n, w.shape[1]), dtype=w.dtype,
                   attrs={"dim": "0 : i64"})
    return rows if rows.shape == cx.out_shape() else cx.emit("reshape", [rows])


@aten("gather.default")
def gather(cx, x, dim, index, sparse_grad=False):
    """`prim.gather` along `dim`."""
    v = cx.value(x)
    return cx.emit("gather", [v, cx.value(index)], attrs={"dim": f"{dim % v.rank} : i64"})


@aten("constant_pad_nd.default")
def constant_pad(cx, x, pad, value=0.0):
    """`prim.pad` (constant mode): PyTorch's pad list (last dim first, (low, high) pairs)
    becomes per-dim `low` / `high`; negative widths (crops) are not mapped."""
    v = cx.value(x)
    low, high = [0] * v.rank, [0] * v.rank
    for i in range(len(pad) // 2):
        d = v.rank - 1 - i
        low[d], high[d] = pad[2 * i], pad[2 * i + 1]
    if min(low + high) < 0:
        cx.unsupported("negative padding")
    return cx.emit("pad", [v], attrs={"low": cx.i64_array(low), "high": cx.i64_array(high),
                                      "value": cx.float_attr(value)})


# --- constants ---------------------------------------------------------------------------

@aten("full.default", "scalar_tensor.default", "zeros.default", "ones.default")
def full(cx, size=None, fill_value=None, **kw):
    """`prim.full` of the result's shape and dtype (zeros: 0, ones: 1)."""
    name = cx.node.target.__name__ if hasattr(cx.node.target, "__name__") else ""
    if fill_value is None:
        fill_value = 1.0 if "ones" in name else 0.0
    if "scalar_tensor" in name:
        fill_value = size
    return cx.full(fill_value, cx.out_shape(), cx.out_dtype())


@aten("arange.start_step", "arange.default", "arange.start")
def arange(cx, *args, **kw):
    """`prim.iota` (a 1-D result: start 0, step 1); other starts and steps: iota * step +
    start in the result's dtype."""
    nums = [a for a in args if isinstance(a, (int, float))]
    start, step = 0, 1
    if len(nums) >= 2:
        start = nums[0]
    if len(nums) >= 3:
        step = nums[2]
    v = cx.emit("iota", [], attrs={"dimension": "0 : i64"})
    if step != 1:
        v = cx.emit("mul", [v, cx.full(step)])
    if start != 0:
        v = cx.emit("add", [v, cx.full(start)])
    return v


# --- reductions ----------------------------------------------------------------------------

def _dims_attrs(cx, x, dims, keepdim):
    v = cx.value(x)
    if dims is None or len(dims) == 0:
        dims = list(range(v.rank))
    return v, {"dims": cx.i64_array([d % v.rank for d in dims]),
               "keepdim": "true" if keepdim else "false"}


def _reduction(prim):
    def lower(cx, x, dims=None, keepdim=False, dtype=None):
        v, attrs = _dims_attrs(cx, x, dims, keepdim)
        return cx.emit(prim, [cx.convert(v, cx.out_dtype())], attrs=attrs)
    lower.__doc__ = f"`prim.{prim}` over `dims` with `keepdim`."
    return lower


aten("sum.dim_IntList")(_reduction("sum"))
aten("amax.default")(_reduction("amax"))
aten("amin.default")(_reduction("amin"))
aten("mean.dim")(_reduction("mean"))


@aten("sum.default", "mean.default")
def full_reduction(cx, x, dtype=None):
    """`prim.sum` / `prim.mean` over every dim."""
    prim = "mean" if "mean" in str(cx.node.target) else "sum"
    return _reduction(prim)(cx, x, None, False)


@aten("var.correction", "std.correction")
def var(cx, x, dims=None, correction=None, keepdim=False):
    """`prim.var` / `prim.std` over `dims` with `correction` (1 when not given)."""
    prim = "std" if "std" in str(cx.node.target) else "var"
    v, attrs = _dims_attrs(cx, x, dims, keepdim)
    attrs["correction"] = f"{1 if correction is None else int(correction)} : i64"
    return cx.emit(prim, [v], attrs=attrs)


def _arg(prim):
    def lower(cx, x, dim=None, keepdim=False):
        v = cx.value(x)
        attrs = {"keepdim": "true" if keepdim else "false"}
        if dim is not None:
            attrs["dim"] = f"{dim % v.rank} : i64"
        return cx.emit(prim, [v], attrs=attrs)
    lower.__doc__ = f"`prim.{prim}` along `dim` (None: the flattened tensor), i64 indices."
    return lower


aten("argmax.default")(_arg("argmax"))
aten("argmin.default")(_arg("argmin"))


# --- composites and matrix products ---------------------------------------------------------

@aten("_softmax.default")
def softmax(cx, x, dim, half_to_float=False):
    """`prim.softmax` along `dim`."""
    v = cx.value(x)
    return cx.emit("softmax", [v], attrs={"dim": f"{dim % v.rank} : i64"})


@aten("_log_softmax.default")
def log_softmax(cx, x, dim, half_to_float=False):
    """`prim.log_softmax` along `dim`."""
    v = cx.value(x)
    return cx.emit("log_softmax", [v], attrs={"dim": f"{dim % v.rank} : i64"})


@aten("native_layer_norm.default")
def layer_norm(cx, x, normalized_shape, weight, bias, eps):
    """`prim.layer_norm` over the last dim with its weight and bias (ones / zeros when
    absent); only the normalized output (item 0) is mapped, not mean and rstd."""
    v = cx.value(x)
    if len(normalized_shape) != 1:
        cx.unsupported("layer_norm over more than the last dim")
    n = normalized_shape[0]
    w = cx.value(weight) if weight is not None else cx.full(1.0, (n,), v.dtype)
    b = cx.value(bias) if bias is not None else cx.full(0.0, (n,), v.dtype)
    y = cx.emit("layer_norm", [v, w, b], shape=v.shape, dtype=v.dtype,
                attrs={"eps": cx.float_attr(eps)})
    return (y, None, None)


@aten("_fused_rms_norm.default")
def rms_norm(cx, x, normalized_shape, weight=None, eps=None):
    """`prim.rms_norm` over the last dim with its weight (ones when absent) and `eps`
    (the dtype's machine epsilon when absent, as torch.rms_norm); only the normalized
    output (item 0) is mapped, not rstd. (Newer PyTorch keeps rms_norm whole on CUDA.)"""
    import torch
    v = cx.value(x)
    if len(normalized_shape) != 1:
        cx.unsupported("rms_norm over more than the last dim")
    n = normalized_shape[0]
    w = cx.value(weight) if weight is not None else cx.full(1.0, (n,), v.dtype)
    if eps is None:
        eps = torch.finfo(cx.node.args[0].meta["val"].dtype).eps
    y = cx.emit("rms_norm", [v, w], shape=v.shape, dtype=v.dtype,
                attrs={"eps": cx.float_attr(eps)})
    return (y, None)


@aten("mm.default", "bmm.default", "matmul.default")
def mm(cx, a, b):
    """`prim.matmul` (2-D, or batched 3-D)."""
    return cx.emit("matmul", [cx.value(a), cx.value(b)])


@aten("addmm.default")
def addmm(cx, bias, a, b, beta=1, alpha=1):
    """`prim.matmul` then `prim.add` of the bias broadcast to the result (`beta` and
    `alpha` scale them)."""
    y = cx.emit("matmul", [cx.value(a), cx.value(b)])
    if alpha != 1:
        y = cx.emit("mul", [y, cx.full(alpha)])
    c = cx.elementwise(bias)
    if beta != 1:
        c = cx.emit("mul", [c, cx.full(beta)])
    return cx.emit("add", [y, c])


def markdown() -> str:
    """docs/aten-ops.md: the table, one row per function, sorted by ATen name."""
    rows = {}
    for name, fn in TABLE.items():
        rows.setdefault(id(fn), (fn, []))[1].append(name)
    lines = ["# ATen ops the importer maps",
             "",
             "Generated from `python/tt/aten.py` by `python -m tt.aten --markdown`; do not edit.",
             "`tt.export` runs `torch.export` and PyTorch's core-ATen decompositions, then maps",
             "each node through this table. An op that is not here is an error naming the op",
             "and the line of the user's Python that made it.",
             "",
             "| ATen ops | prim |",
             "|---|---|"]
    for fn, names in sorted(rows.values(), key=lambda r: sorted(r[1])[0]):
        doc = " ".join((fn.__doc__ or "").split())
        lines.append(f"| {', '.join(f'`aten.{n}`' for n in sorted(names))} | {doc} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] == ["--markdown"]:
        sys.stdout.write(markdown())
    else:
        sys.exit("usage: python -m tt.aten --markdown")
