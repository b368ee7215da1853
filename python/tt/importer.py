"""torch.export -> a prim program (MLIR text that tt-opt reads).

Algorithm:
  1. `torch.export.export(fn, args, dynamic_shapes=...)`, then
     `run_decompositions()` with PyTorch's core-ATen table: composites (linear,
     rms_norm, silu, ...) become core ATen ops.
  2. The graph's placeholders become the host function's arguments, in the graph
     signature's order: a module's parameters and buffers (and lifted constants) first,
     each marked `tt.invariant` (weights, which --pdl may prefetch), then the user's
     inputs. A symbolic size becomes a `?` dim.
  3. Each call_function node is lowered through aten.TABLE (one entry per ATen op) in
     graph order; `getitem` picks an item of a multi-output node; sym_size and other
     symbolic-int nodes are skipped (shapes come from each node's FakeTensor `val`).
     A node whose op has no entry is an error naming the op and the user's Python line.
  4. The outputs become the function's results. Every op carries
     `loc("file.py":line:col)` from its node's stack trace, so tt's errors point at the
     user's code.
The result is an `Exported`: the MLIR text, the names and roles of the arguments, and the
parameters' tensors (the runtime passes them as the leading inputs).
"""

from __future__ import annotations

import operator
import os
import re
import types
from dataclasses import dataclass, field
from typing import Any, Optional

import torch

from . import aten as aten_table
from .mlir import Builder, Value, float_attr, i64_array, tensor_type

DTYPES = {
    torch.float64: "f64", torch.float32: "f32", torch.float16: "f16",
    torch.bfloat16: "bf16", torch.float8_e4m3fn: "f8E4M3FN", torch.float8_e5m2: "f8E5M2",
    torch.bool: "i1", torch.int8: "i8", torch.int32: "i32", torch.int64: "i64",
}
TORCH_DTYPES = {v: k for k, v in DTYPES.items()}


class ImportError_(Exception):
    """A program tt cannot import: the message names the op and the user's line."""


@dataclass
class Argument:
    name: str          # the graph placeholder's name
    role: str          # "parameter", "buffer", "constant" or "input"
    target: str        # the module attribute (parameters, buffers) or the input's name
    shape: tuple
    dtype: str


@dataclass
class Exported:
    text: str                       # the prim program (MLIR)
    arguments: list                 # Argument per host-function argument, in order
    weights: list = field(default_factory=list)  # the tensors of the leading arguments
    num_outputs: int = 0


def _dtype(t: torch.dtype, where: str) -> str:
    if t not in DTYPES:
        raise ImportError_(f"{where}: dtype {t} is not one tt takes "
                           f"({', '.join(str(d) for d in DTYPES)})")
    return DTYPES[t]


def _shape(val) -> tuple:
    return tuple(int(d) if isinstance(d, int) or (hasattr(d, "node") and d.node.is_constant())
                 else None for d in val.shape)


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def _location(node) -> Optional[str]:
    """loc("file":line:col) of the user's frame that made the node (the last frame of its
    stack trace outside torch), or None."""
    trace = node.meta.get("stack_trace") or ""
    frames = _FRAME.findall(trace)
    user = [f for f in frames
            if "/torch/" not in f[0] and not f[0].startswith(_PACKAGE)] or frames
    if not user:
        return None
    path, line = user[-1]
    path = path.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{path}":{line}:1'


def _where(node) -> str:
    loc = _location(node)
    if loc is None:
        return f"node {node.name}"
    path, line, _ = loc.rsplit(":", 2)
    return f"{path.strip(chr(34))}:{line}"


class Lowering:
    """What a table entry sees: the node being lowered and helpers over prim values."""

    def __init__(self, builder: Builder):
        self.b = builder
        self.values: dict = {}
        self.node = None

    # -- errors and the node's output --
    def unsupported(self, what: str):
        raise ImportError_(f"{_where(self.node)}: error: {self.node.target}: {what} is not "
                           "supported by tt's importer")

    def out_val(self):
        val = self.node.meta.get("val")
        if isinstance(val, (tuple, list)):
            val = val[0]
        return val

    def out_shape(self) -> tuple:
        return _shape(self.out_val())

    def out_dtype(self) -> str:
        return _dtype(self.out_val().dtype, _where(self.node))

    # -- values --
    def value(self, arg) -> Value:
        if isinstance(arg, torch.fx.Node):
            v = self.values.get(arg)
            if not isinstance(v, Value):
                self.unsupported(f"operand {arg.name} (not a tensor tt computes)")
            return v
        self.unsupported(f"operand {arg!r} where a tensor is expected")

    def emit(self, name, operands, shape=None, dtype=None, attrs=None) -> Value:
        shape = self.out_shape() if shape is None else shape
        dtype = self.out_dtype() if dtype is None else dtype
        return self.b.op(name, operands, shape, dtype, attrs, _location(self.node))

    def full(self, value, shape=None, dtype=None) -> Value:
        """A scalar as a tensor: `prim.full` of shape (default: the node's output's) and
        dtype; a dynamic shape gets a full of ones broadcast to it."""
        shape = self.out_shape() if shape is None else tuple(shape)
        dtype = self.out_dtype() if dtype is None else dtype
        if dtype == "i1":
            attr = f"{1 if value else 0} : i64"
        else:
            attr = float_attr(value) if dtype.startswith(("f", "bf")) else f"{int(value)} : i64"
        if None not in shape:
            return self.b.op("full", [], shape, dtype, {"value": attr}, _location(self.node))
        ones = self.b.op("full", [], (1,) * len(shape), dtype, {"value": attr},
                         _location(self.node))
        return self.broadcast(ones, shape)

    def convert(self, v: Value, dtype: str) -> Value:
        if v.dtype == dtype:
            return v
        return self.b.op("convert", [v], v.shape, dtype, None, _location(self.node))

    def broadcast(self, v: Value, shape: tuple) -> Value:
        """v broadcast to shape (PyTorch's rule: trailing dims aligned, 1s stretch)."""
        shape = tuple(shape)
        if v.shape == shape:
            return v
        lead = len(shape) - v.rank
        if lead < 0:
            self.unsupported(f"broadcasting {v.shape} to {shape}")
        return self.b.op("broadcast_in_dim", [v], shape, v.dtype,
                         {"broadcast_dimensions": i64_array(range(lead, len(shape)))},
                         _location(self.node))

    def common_dtype(self, *args) -> str:
        ts = []
        for a in args:
            if isinstance(a, torch.fx.Node):
                ts.append(a.meta["val"])
            else:
                ts.append(a)
        return _dtype(torch.result_type(*ts) if len(ts) == 2 else ts[0].dtype,
                      _where(self.node))

    def elementwise(self, arg, dtype: Optional[str] = None) -> Value:
        """An operand of an elementwise op: a tensor broadcast to the output's shape and
        converted to `dtype` (default: the output's), or a scalar as a prim.full."""
        dtype = self.out_dtype() if dtype is None else dtype
        shape = self.out_shape()
        if isinstance(arg, torch.fx.Node):
            return self.broadcast(self.convert(self.value(arg), dtype), shape)
        if isinstance(arg, (bool, int, float)):
            return self.full(arg, shape, dtype)
        self.unsupported(f"operand {arg!r}")

    float_attr = staticmethod(float_attr)
    i64_array = staticmethod(i64_array)


def aten_name(node) -> Optional[str]:
    """The ATen overload a call_function node calls ("add.Tensor"), or None for
    getitem and the symbolic-size and assertion nodes (which compute no tensor)."""
    target = node.target
    if target is operator.getitem:
        return None
    name = getattr(target, "_name", None) or str(target)
    name = name.split("::", 1)[-1]  # aten::add.Tensor -> add.Tensor
    if "." not in name:
        name += ".default"
    if name.startswith(("sym_", "_assert", "sym_constrain")) or \
            not isinstance(node.meta.get("val"), (torch.Tensor, tuple, list)):
        return None
    return name


def lower_node(cx: Lowering, node):
    """The prim value(s) of one call_function node, its operands already in cx.values."""
    cx.node = node
    name = aten_name(node)
    if name is None:
        if node.target is operator.getitem:
            src = cx.values.get(node.args[0])
            return src[node.args[1]] if isinstance(src, tuple) else None
        return None  # symbolic ints and checks: shapes come from the nodes' vals
    fn = aten_table.TABLE.get(name)
    if fn is None:
        raise ImportError_(f"{_where(node)}: error: aten.{name} has no prim mapping "
                           "in tt's importer (python/tt/aten.py; docs/aten-ops.md "
                           "lists the mapped ops)")
    return fn(cx, *node.args, **node.kwargs)


def _lower_graph(ep, function_name: str) -> Exported:
    """An ExportedProgram's graph as a prim program: the placeholders' roles from its
    graph signature, the weights' tensors from its state."""
    roles = {}
    for spec in ep.graph_signature.input_specs:
        kind = spec.kind.name.lower()  # PARAMETER, BUFFER, CONSTANT_TENSOR, USER_INPUT
        role = {"parameter": "parameter", "buffer": "buffer",
                "constant_tensor": "constant", "user_input": "input"}.get(kind, kind)
        roles[spec.arg.name] = (role, spec.target or spec.arg.name)
    state = dict(ep.state_dict)
    state.update(getattr(ep, "constants", {}) or {})
    e = lower_graph(ep.graph_module.graph, roles, function_name)
    e.weights = [state[a.target] for a in e.arguments if a.role != "input"]
    return e


def lower_graph(graph, roles: dict, function_name: str = "main",
                skip_symbols: bool = False) -> Exported:
    """An ATen-level FX graph as a prim program. `roles` maps a placeholder's name to
    (role, target); a role other than "input" marks the argument `tt.invariant`.
    With `skip_symbols`, placeholders that are not tensors (symbolic sizes, which
    torch.compile passes) are left out of the arguments; otherwise they are an error."""
    b = Builder()
    cx = Lowering(b)
    args, params = [], []
    for node in graph.nodes:
        if node.op != "placeholder":
            continue
        val = node.meta.get("val")
        role, target = roles.get(node.name, ("input", node.name))
        if not isinstance(val, torch.Tensor):
            if skip_symbols:
                cx.values[node] = None
                continue
            raise ImportError_(f"input {node.name}: only tensor inputs are supported")
        shape, dtype = _shape(val), _dtype(val.dtype, f"input {node.name}")
        v = Value(f"%a{len(args)}", shape, dtype)
        cx.values[node] = v
        attr = " {tt.invariant}" if role != "input" else ""
        params.append(f"{v.name}: {v.type}{attr}")
        args.append(Argument(node.name, role, target, shape, dtype))
    results = []
    for node in graph.nodes:
        cx.node = node
        if node.op == "call_function":
            cx.values[node] = lower_node(cx, node)
        elif node.op == "output":
            outs = node.args[0]
            for o in (outs if isinstance(outs, (tuple, list)) else [outs]):
                v = cx.values.get(o) if isinstance(o, torch.fx.Node) else None
                if not isinstance(v, Value):
                    raise ImportError_(f"output {o}: only tensor outputs are supported")
                results.append(v)
        elif node.op not in ("placeholder", "get_attr"):
            raise ImportError_(f"{_where(node)}: error: FX node kind {node.op} is not "
                               "supported")
    rtypes = ", ".join(v.type for v in results)
    text = [f"func.func @{function_name}({', '.join(params)}) -> ({rtypes}) {{"]
    text += b.lines
    text.append(f"  return {', '.join(v.name for v in results)} : {rtypes}")
    text.append("}")
    return Exported("\n".join(text) + "\n", args, [], len(results))


def export(fn: Any, *example_args, dynamic_shapes=None, name: str = "main") -> Exported:
    """Exports fn (an nn.Module or a function) on example_args with torch.export, applies
    the core-ATen decompositions and maps the graph to a prim program.
    `dynamic_shapes` is torch.export's (e.g. `{"x": {0: torch.export.Dim("batch")}}`):
    a dynamic dim becomes `?`."""
    module = fn if isinstance(fn, torch.nn.Module) else _as_module(fn)
    ep = torch.export.export(module, tuple(example_args), dynamic_shapes=dynamic_shapes)
    ep = ep.run_decompositions()
    return _lower_graph(ep, name)


class _Wrap(torch.nn.Module):
    """A function as a module, for builtins (torch.tanh) that have no code of their own."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *args):
        return self.fn(*args)


def _as_module(fn) -> torch.nn.Module:
    """fn as an nn.Module whose forward is fn's own code renamed `forward`: torch.export
    records, for each node, the source line of the `forward` frame that made it, so the
    nodes' locations are the user's lines (and dynamic_shapes names fn's parameters)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return _Wrap(fn)
    forward = types.FunctionType(code.replace(co_name="forward", co_qualname="forward"),
                                 fn.__globals__, "forward", fn.__defaults__, fn.__closure__)
    cls = type("Function", (torch.nn.Module,), {"forward": staticmethod(forward)})
    return cls()
