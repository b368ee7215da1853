"""torch.compile(model, backend="tt"): tt compiles the parts of each FX graph it supports,
PyTorch eager runs the rest, and the tt parts replay as CUDA graphs.

Registered as the "tt" backend through PyTorch's `torch_dynamo_backends` entry point
(python/pyproject.toml), so `torch.compile(m, backend="tt")` works once the package is
installed. Options (`torch.compile(..., options={...})`): "cudagraphs" (default True),
"flags" (tt-opt's, default tt.compile's), "arch" (default the current GPU's).

Algorithm, per graph Dynamo hands over:
  1. AOTAutograd (`aot_autograd`, PyTorch's core-ATen decompositions) turns the Torch-level
     graph into a functional ATen graph; a module's weights are graph inputs, those
     AOTAutograd calls static (parameters, buffers) become `tt.invariant` arguments in an
     inference graph (no gradient: the weights stay between calls; a training graph's
     optimizer changes them in place, so there none is).
  2. Support, node by node (`node_reasons`): an ATen op is tt's when the importer's table
     (python/tt/aten.py) maps it, its tensors are CUDA tensors of tt's dtypes, and the
     node lowers alone (the table's own checks: e.g. a norm over a dim tt does not take).
     Symbolic-size nodes stay in the host graph. Each refusal keeps its reason.
  3. Partitioning: PyTorch's CapabilityBasedPartitioner groups the supported nodes into
     the largest acyclic parts; a part of views alone (permute, reshape, ...) stays eager,
     since in eager it costs no kernel.
  4. Each part becomes a prim program (importer.lower_graph on the part's subgraph) and is
     compiled by tt-opt | tt-translate through tt.compile's cache; a part the compiler
     refuses stays eager with the compiler's message as its reason.
  5. A tt part runs through tt.load's Program on the current stream; with "cudagraphs"
     each input signature (shapes, dtypes, the weights' addresses) is captured once into a
     torch.cuda.CUDAGraph over static input buffers: a call copies the non-weight inputs
     in, replays, and returns copies of the outputs (so an output never changes under the
     caller when the part runs again).
The report of each graph (its parts, and every op left to eager with its reason and the
user's Python line) is `tt.dynamo.reports()[-1]`; a graph with ops left to eager logs
one warning line (logger "tt.dynamo").
"""

from __future__ import annotations

import functools
import logging
import operator
from dataclasses import dataclass, field
from typing import Optional

import torch

from . import aten as aten_table
from .compile import DEFAULT_FLAGS, build_ptx
from .importer import DTYPES, ImportError_, Lowering, Value, _shape, _where, aten_name, \
    lower_graph, lower_node
from .mlir import Builder

log = logging.getLogger("tt.dynamo")

# ATen ops that are views in eager (no kernel): a part made of these alone stays eager.
VIEW_OPS = {"view.default", "_unsafe_view.default", "reshape.default", "permute.default",
            "transpose.int", "t.default", "expand.default", "unsqueeze.default",
            "squeeze.dim", "squeeze.dims", "squeeze.default", "alias.default",
            "slice.Tensor", "select.int", "as_strided.default"}


@dataclass
class Refusal:
    """An op left to eager: its node, ATen name, the user's line, and why."""
    node: str
    op: str
    where: str
    reason: str


@dataclass
class Part:
    """A group of nodes compiled together: "tt" (compiled; ptx names the file) or "eager"
    (the compiler refused it; reason says why)."""
    name: str
    ops: int
    backend: str
    reason: str = ""
    text: str = ""
    ptx: str = ""


@dataclass
class Report:
    ops: int                                        # ATen ops in the graph
    parts: list = field(default_factory=list)       # Part per partition
    refused: list = field(default_factory=list)     # Refusal per op left to eager

    @property
    def tt_ops(self) -> int:
        return sum(p.ops for p in self.parts if p.backend == "tt")

    def __str__(self) -> str:
        tt_parts = [p for p in self.parts if p.backend == "tt"]
        lines = [f"tt: {self.tt_ops} of {self.ops} ops in {len(tt_parts)} tt part(s)"]
        for p in self.parts:
            lines.append(f"  part {p.name}: {p.ops} ops, {p.backend}" +
                         (f" ({p.reason})" if p.reason else ""))
        for r in self.refused:
            lines.append(f"  eager: aten.{r.op} at {r.where}: {r.reason}")
        return "\n".join(lines)


_REPORTS: list = []


def reports() -> list:
    """The Report of each graph compiled so far, oldest first."""
    return list(_REPORTS)


def _tensor_vals(node):
    """The FakeTensors a node produces and reads."""
    vals = []
    for v in [node.meta.get("val")] + [a.meta.get("val") for a in node.all_input_nodes]:
        vals += [t for t in (v if isinstance(v, (tuple, list)) else [v])
                 if isinstance(t, torch.Tensor)]
    return vals


def _trial(node) -> Optional[str]:
    """Why the importer cannot lower the node alone (None: it can)."""
    cx = Lowering(Builder())
    for i, a in enumerate(node.all_input_nodes):
        v = a.meta.get("val")
        if isinstance(v, torch.Tensor):
            cx.values[a] = Value(f"%in{i}", _shape(v), DTYPES[v.dtype])
    try:
        lower_node(cx, node)
    except ImportError_ as e:
        return str(e).split(": error: ", 1)[-1]
    except Exception as e:  # a table entry's assumption about its operands
        return f"{type(e).__name__}: {e}"
    return None


def node_reasons(graph, require_cuda: bool = True) -> dict:
    """For each call_function node, why tt does not take it (None: it does; getitem
    follows its source). Symbolic-size nodes map to "" (host work, not reported)."""
    reasons = {}
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        if node.target is operator.getitem:
            reasons[node] = reasons.get(node.args[0], "")
            continue
        name = aten_name(node)
        if name is None:
            reasons[node] = ""
        elif name not in aten_table.TABLE:
            reasons[node] = "no prim mapping in tt's importer"
        elif any(t.dtype not in DTYPES for t in _tensor_vals(node)):
            reasons[node] = "a dtype tt does not take"
        elif require_cuda and any(t.device.type != "cuda" for t in _tensor_vals(node)):
            reasons[node] = "a tensor not on a CUDA device"
        else:
            reasons[node] = _trial(node)
    return reasons


class _Support(torch.fx.passes.operator_support.OperatorSupportBase):
    def __init__(self, reasons):
        self.reasons = reasons

    def is_node_supported(self, submodules, node) -> bool:
        return node.op == "call_function" and self.reasons.get(node) is None


def _only_views(partition) -> bool:
    return all(n.target is operator.getitem or aten_name(n) in VIEW_OPS
               for n in partition.nodes)


class TtPart(torch.nn.Module):
    """A compiled part in the host graph: called with the part's inputs (symbolic sizes
    among them are dropped), runs the tt program, optionally through CUDA graphs."""

    MAX_GRAPHS = 16  # input signatures kept captured per part

    def __init__(self, program, static: list, cudagraphs: bool):
        super().__init__()
        self.program, self.static, self.cudagraphs = program, static, cudagraphs
        self.graphs: dict = {}
        self.versions = None  # the weights' version counters at the last call

    def forward(self, *args):
        tensors = [a for a in args if isinstance(a, torch.Tensor)]
        # A weight changed in place (an optimizer step between validation passes,
        # load_state_dict): what the program computed from the weights once is stale.
        versions = tuple(_version(t) for t, s in zip(tensors, self.static) if s)
        if self.versions is not None and versions != self.versions:
            self.program.refresh()
            for g in self.graphs.values():
                g.program.refresh()
            self.graphs.clear()
        self.versions = versions
        if not self.cudagraphs or torch.cuda.is_current_stream_capturing():
            return self.program(*tensors)
        key = tuple((tuple(t.shape), t.dtype, t.data_ptr() if s else 0)
                    for t, s in zip(tensors, self.static))
        g = self.graphs.get(key)
        if g is None:
            if len(self.graphs) >= self.MAX_GRAPHS:
                self.graphs.pop(next(iter(self.graphs)))
            # each signature its own copy of the program: a graph replays the temps its
            # weights' once kernels wrote, which another signature's weights must not overwrite
            g = self.graphs[key] = _Graph(self.program.clone(), tensors, self.static)
        return g(tensors)


def _version(t: torch.Tensor) -> int:
    """t's version counter (bumped by each in-place change), or -1 for an inference tensor,
    which has none."""
    try:
        return t._version
    except RuntimeError:
        return -1


class _Graph:
    """One input signature of a part captured as a CUDA graph over static buffers."""

    def __init__(self, program, tensors, static):
        self.program, self.static = program, static
        self.inputs = [t if s else torch.empty_like(t, memory_format=torch.contiguous_format)
                       for t, s in zip(tensors, static)]
        for buf, t, s in zip(self.inputs, tensors, static):
            if not s:  # real data for the warm-up run: an index input must be in range
                buf.copy_(t)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):  # binds the sizes; the capture only launches
            program(*self.inputs)
        torch.cuda.current_stream().wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            out = program(*self.inputs)
        self.outputs = out if isinstance(out, tuple) else (out,)
        self.single = not isinstance(out, tuple)

    def __call__(self, tensors):
        for buf, t, s in zip(self.inputs, tensors, self.static):
            if not s:
                buf.copy_(t)
        self.graph.replay()
        outs = tuple(o.clone() for o in self.outputs)
        return outs[0] if self.single else outs


def compile_graph(gm: torch.fx.GraphModule, example_inputs, static_indices=(),
                  cudagraphs: bool = True, flags=DEFAULT_FLAGS, arch=None,
                  require_cuda: bool = True, load: bool = True):
    """Partitions an ATen graph between tt and eager and compiles the tt parts (step 2-5
    above); returns the host GraphModule and its Report. With load=False the parts are
    compiled but not loaded (no GPU needed: the Report and PTX files only)."""
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    graph = gm.graph
    reasons = node_reasons(graph, require_cuda)
    report = Report(ops=sum(1 for n in graph.nodes if n.op == "call_function"
                            and aten_name(n) is not None))
    for n, why in reasons.items():
        if why and n.target is not operator.getitem:
            report.refused.append(Refusal(n.name, aten_name(n) or str(n.target), _where(n),
                                          why))
    partitioner = CapabilityBasedPartitioner(gm, _Support(reasons),
                                             allows_single_node_partition=True)
    partitions = [p for p in partitioner.propose_partitions() if not _only_views(p)]
    fused = partitioner.fuse_partitions(partitions) if partitions else gm
    placeholders = [n for n in fused.graph.nodes if n.op == "placeholder"]
    static = {placeholders[i].name for i in static_indices if i < len(placeholders)}
    for node in list(fused.graph.nodes):
        if node.op != "call_module" or not node.target.startswith("fused_"):
            continue
        sub = getattr(fused, node.target)
        subph = [n for n in sub.graph.nodes if n.op == "placeholder"]
        roles, static_flags = {}, []  # static_flags: per tensor input, a weight?
        for ph, arg in zip(subph, node.args):
            is_static = isinstance(arg, torch.fx.Node) and arg.name in static
            roles[ph.name] = ("parameter" if is_static else "input", ph.name)
            if isinstance(ph.meta.get("val"), torch.Tensor):
                static_flags.append(is_static)
        ops = sum(1 for n in sub.graph.nodes if n.op == "call_function"
                  and aten_name(n) is not None)
        part = Part(node.target, ops, "eager")
        report.parts.append(part)
        try:
            part.text = lower_graph(sub.graph, roles, "main", skip_symbols=True).text
            part.ptx = str(build_ptx(part.text, flags, arch))
        except (ImportError_, RuntimeError) as e:
            part.reason = str(e).strip().splitlines()[0] if str(e).strip() else repr(e)
            continue
        part.backend = "tt"
        if load:
            from .runtime import Program
            program = Program(open(part.ptx).read())
            setattr(fused, node.target, TtPart(program, static_flags, cudagraphs))
    fused.recompile()
    _REPORTS.append(report)
    if report.refused or any(p.backend != "tt" for p in report.parts):
        log.warning("%s", report)
    else:
        log.info("%s", report)
    return fused, report


def _static_indices():
    """The graph inputs AOTAutograd knows as static (parameters, buffers)."""
    try:
        from torch._guards import TracingContext
        tc = TracingContext.try_get()
        meta = tc.fw_metadata if tc is not None else None
        return list(meta.static_input_indices) if meta is not None else []
    except Exception:
        return []


def backend(gm: torch.fx.GraphModule, example_inputs, mode=None, options=None):
    """The "tt" torch.compile backend (see the module's docstring)."""
    from torch._decomp import core_aten_decompositions
    from torch._dynamo.backends.common import aot_autograd
    opts = dict(options or {})
    unknown = set(opts) - {"cudagraphs", "flags", "arch"}
    if unknown:
        raise ValueError(f"tt backend: unknown option(s) {sorted(unknown)}; it takes "
                         "cudagraphs, flags, arch")

    def compiler(g, inputs, invariant=False):
        fused, _ = compile_graph(g, inputs, _static_indices() if invariant else [],
                                 cudagraphs=opts.get("cudagraphs", True),
                                 flags=tuple(opts.get("flags", DEFAULT_FLAGS)),
                                 arch=opts.get("arch"))
        return fused

    # Weights are invariant (tt runs what it computes from them alone once, and streams
    # them before the previous kernel ends) only in an inference graph: in training the
    # optimizer changes them in place between calls, and a backward graph's inputs are
    # activations and gradients.
    return aot_autograd(fw_compiler=compiler, bw_compiler=compiler,
                        inference_compiler=functools.partial(compiler, invariant=True),
                        decompositions=core_aten_decompositions())(gm, example_inputs)
