"""The Python front door's tests (no GPU): each mapped ATen op round-trips through
tt.export into MLIR text that tt-opt accepts (parsed and verified by the prim verifier,
then through the main job's passes and tt-translate's metadata writer, whose prim lines
tt-run's reference reads); dynamic dims become `?`; an unmapped op is an error naming it
and the Python line; tt.compile's cache is keyed by the program, not its locations; and
tt.load without a GPU is a clear error. (On a GPU: scripts/torch_e2e.py.)

TT_BIN (default build/) names the folder of tt-opt and tt-translate.
"""

import os
import pathlib
import subprocess

import pytest
import torch
import torch.nn.functional as F

import tt
from tt import aten

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("TT_BIN", ROOT / "build"))


def tt_opt(text, *flags):
    return subprocess.run([str(BIN / "tt-opt"), *flags, "-"], input=text, text=True,
                          capture_output=True)


def compiles(text):
    """The program passes tt-opt's verifier and the main job down to PTX metadata."""
    r = tt_opt(text)
    assert r.returncode == 0, r.stderr + text
    r = tt_opt(text, "--decompose", "--fuse", "--splitk")
    assert r.returncode == 0, r.stderr + text
    p = subprocess.run([str(BIN / "tt-translate"), "--ptx", "-", "-o", "/dev/null"],
                       input=r.stdout, text=True, capture_output=True)
    assert p.returncode == 0, p.stderr + text
    return text


x16 = torch.randn(4, 64, dtype=torch.bfloat16)
y16 = torch.randn(4, 64, dtype=torch.bfloat16)
w16 = torch.randn(32, 64, dtype=torch.bfloat16)
xf = torch.randn(3, 40)
v64 = torch.randn(64, dtype=torch.bfloat16)

# (name, function, example args, a prim op the text must hold)
CASES = [
    ("add", lambda a, b: a + b, (x16, y16), "prim.add"),
    ("add_alpha", lambda a, b: torch.add(a, b, alpha=2), (x16, y16), "prim.mul"),
    ("add_scalar", lambda a: a + 1.5, (x16,), "prim.full"),
    ("sub", lambda a, b: a - b, (x16, y16), "prim.sub"),
    ("mul_bcast", lambda a, v: a * v, (x16, v64), "prim.broadcast_in_dim"),
    ("div", lambda a, b: a / b, (xf, xf + 3), "prim.div"),
    ("maximum", torch.maximum, (xf, xf * 2), "prim.max"),
    ("minimum", torch.minimum, (xf, xf * 2), "prim.min"),
    ("pow", lambda a: a ** 3, (xf,), "prim.pow"),
    ("neg", torch.neg, (xf,), "prim.neg"),
    ("abs", torch.abs, (xf,), "prim.abs"),
    ("exp", torch.exp, (xf,), "prim.exp"),
    ("log", lambda a: torch.log(a.abs() + 1), (xf,), "prim.log"),
    ("sqrt", lambda a: torch.sqrt(a.abs()), (xf,), "prim.sqrt"),
    ("rsqrt", lambda a: torch.rsqrt(a.abs() + 1), (xf,), "prim.rsqrt"),
    ("tanh", torch.tanh, (xf,), "prim.tanh"),
    ("erf", torch.erf, (xf,), "prim.erf"),
    ("sin", torch.sin, (xf,), "prim.sin"),
    ("cos", torch.cos, (xf,), "prim.cos"),
    ("reciprocal", lambda a: torch.reciprocal(a + 5), (xf,), "prim.reciprocal"),
    ("sigmoid", torch.sigmoid, (xf,), "prim.sigmoid"),
    ("relu", F.relu, (xf,), "prim.relu"),
    ("silu", F.silu, (x16,), "prim."),
    ("gelu", F.gelu, (x16,), "prim.gelu"),
    ("gelu_tanh", lambda a: F.gelu(a, approximate="tanh"), (x16,), "prim.gelu"),
    ("clamp", lambda a: torch.clamp(a, -0.5, 0.5), (xf,), "prim.clamp"),
    ("compare_where", lambda a, b: torch.where(a > b, a, b), (xf, xf * 2), "prim.compare"),
    ("eq_scalar", lambda a: torch.where(a == 0.0, 1.0, a), (xf,), "prim.compare"),
    ("to_dtype", lambda a: a.float(), (x16,), "prim.convert"),
    ("select", lambda a: a[:, 3] * 2, (xf,), "prim.slice"),
    ("select_neg", lambda a: a[-1] + 1, (xf,), "prim.reshape"),
    ("mixed_dtype", lambda a, b: a * b, (x16, torch.randn(4, 64)), "prim.convert"),
    ("reshape", lambda a: a.reshape(8, 32), (x16,), "prim.reshape"),
    ("permute", lambda a: a.t().contiguous(), (x16,), "prim.transpose"),
    ("expand", lambda v: v.expand(4, 64) + 0, (v64,), "prim.broadcast_in_dim"),
    ("unsqueeze", lambda a: a.unsqueeze(0) * 2, (x16,), "prim.reshape"),
    ("slice", lambda a: a[:, 8:40:2] * 2, (x16,), "prim.slice"),
    ("cat", lambda a, b: torch.cat([a, b], dim=1), (x16, y16), "prim.concat"),
    ("index_select", lambda a, i: torch.index_select(a, 0, i),
     (x16, torch.tensor([3, 0, 1], dtype=torch.int64)), "prim.index_select"),
    ("embedding", lambda w, i: F.embedding(i, w),
     (w16, torch.tensor([1, 2, 3, 4], dtype=torch.int64)), "prim.index_select"),
    ("gather", lambda a, i: torch.gather(a, 1, i),
     (xf, torch.zeros(3, 5, dtype=torch.int64)), "prim.gather"),
    ("pad", lambda a: F.pad(a, (1, 2)) * 1, (xf,), "prim.pad"),
    ("arange", lambda a: a + torch.arange(40, dtype=torch.float32), (xf,), "prim.iota"),
    ("full", lambda a: a + torch.full((3, 40), 2.0), (xf,), "prim.full"),
    ("sum", lambda a: a.sum(dim=-1), (xf,), "prim.sum"),
    ("sum_keep", lambda a: a.sum(dim=0, keepdim=True), (xf,), "prim.sum"),
    ("sum_all", lambda a: a.sum(), (xf,), "prim.sum"),
    ("amax", lambda a: a.amax(dim=1), (xf,), "prim.amax"),
    ("amin", lambda a: a.amin(dim=1), (xf,), "prim.amin"),
    ("mean", lambda a: a.mean(dim=-1), (xf,), "prim.mean"),
    ("var", lambda a: a.var(dim=-1), (xf,), "prim.var"),
    ("argmax", lambda a: a.argmax(dim=-1), (xf,), "prim.argmax"),
    ("argmin", lambda a: a.argmin(dim=-1), (xf,), "prim.argmin"),
    ("softmax", lambda a: F.softmax(a, dim=-1), (x16,), "prim.softmax"),
    ("log_softmax", lambda a: F.log_softmax(a, dim=-1), (x16,), "prim.log_softmax"),
    ("layer_norm", lambda a, w, b: F.layer_norm(a, (64,), w, b), (x16, v64, v64),
     "prim.layer_norm"),
    ("rms_norm", lambda a, w: F.rms_norm(a, (64,), w, eps=1e-6), (x16, v64),
     ("prim.rsqrt", "prim.rms_norm")),  # decomposed, or whole (newer PyTorch)
    ("linear", lambda a, w: F.linear(a, w), (x16, w16), "prim.matmul"),
    ("linear_bias", lambda a, w, b: F.linear(a, w, b),
     (x16, w16, torch.randn(32, dtype=torch.bfloat16)), "prim.matmul"),
    ("bmm", torch.bmm, (torch.randn(2, 16, 64, dtype=torch.float16),
                        torch.randn(2, 64, 32, dtype=torch.float16)), "prim.matmul"),
]


@pytest.mark.parametrize("name,fn,args,prim", CASES, ids=[c[0] for c in CASES])
def test_round_trip(name, fn, args, prim):
    e = tt.export(fn, *args)
    assert any(p in e.text for p in ((prim,) if isinstance(prim, str) else prim))
    compiles(e.text)


def test_every_table_entry_is_exercised():
    """Each function of the table appears in CASES (its ops are tested), except the
    aliases PyTorch's decompositions may not produce."""
    covered = set()
    for name, fn, args, _ in CASES:
        ep = torch.export.export(tt.importer._as_module(fn), args).run_decompositions()
        for n in ep.graph.nodes:
            if n.op == "call_function":
                covered.add(str(getattr(n.target, "_name", n.target)).split("::")[-1])
    fns = {id(f) for k, f in aten.TABLE.items()
           if k in covered or k.replace(".default", "") in covered}
    missing = sorted({f.__name__ for f in aten.TABLE.values() if id(f) not in fns})
    allowed = {"identity", "full_reduction", "to_copy", "reshape", "transpose", "lower",
               "full", "arange", "mm", "var", "where", "rms_norm"}
    assert not set(missing) - allowed, missing


class MLP(torch.nn.Module):
    """The model of issue 23's GPU check: rms_norm, a silu-gated MLP, residual adds."""

    def __init__(self, d=64, h=128):
        super().__init__()
        self.norm = torch.nn.RMSNorm(d, eps=1e-6)
        self.gate = torch.nn.Linear(d, h, bias=False)
        self.up = torch.nn.Linear(d, h, bias=False)
        self.down = torch.nn.Linear(h, d, bias=False)

    def mlp(self, x):
        y = self.norm(x)
        return self.down(F.silu(self.gate(y)) * self.up(y))

    def forward(self, x):
        return x + self.mlp(x)


def test_module_weights_are_invariant_inputs():
    m = MLP().to(torch.bfloat16)
    e = tt.export(m, torch.randn(8, 64, dtype=torch.bfloat16))
    roles = [a.role for a in e.arguments]
    assert roles == ["parameter"] * 4 + ["input"]
    assert e.text.count("{tt.invariant}") == 4
    assert len(e.weights) == 4 and all(isinstance(w, torch.Tensor) for w in e.weights)
    compiles(e.text)


def test_dynamic_batch_is_a_question_mark():
    m = MLP().to(torch.bfloat16)
    batch = torch.export.Dim("batch", min=1, max=4096)
    e = tt.export(m, torch.randn(8, 64, dtype=torch.bfloat16),
                  dynamic_shapes={"x": {0: batch}})
    assert "tensor<?x64xbf16>" in e.text
    compiles(e.text)


def test_dynamic_batch_of_3d_activations_compiles(tmp_path, monkeypatch):
    """A linear layer on [batch, seq, d] with a dynamic batch: PyTorch views the
    activations as [batch * seq, d] rows, which the metadata names as a multiple of the
    batch (format 7: s0*5); and attention's q @ k^T with a dynamic batch."""
    monkeypatch.setenv("TT_CACHE", str(tmp_path))
    monkeypatch.setenv("TT_BIN", str(BIN))
    batch = torch.export.Dim("batch", min=1, max=64)
    lin = torch.nn.Linear(64, 32, bias=False).to(torch.float16)
    path = tt.precompile(lin, torch.randn(2, 5, 64, dtype=torch.float16),
                         dynamic_shapes={"input": {0: batch}})
    text = path.read_text()
    assert "//@tt-meta 7" in text and "s0*5x64" in text

    def scores(q, k):
        return torch.softmax(q @ k.transpose(-1, -2), dim=-1)
    q = torch.randn(2, 4, 16, 32, dtype=torch.float16)
    path = tt.precompile(scores, q, q.clone(),
                         dynamic_shapes={"q": {0: batch}, "k": {0: batch}})
    assert "s0*4x16x32" in path.read_text()


def test_locations_point_at_the_user_line():
    def f(a):
        return torch.tanh(a)  # this line
    e = tt.export(f, xf)
    line = f.__code__.co_firstlineno + 1
    assert f'"{__file__}":{line}:1' in e.text


def test_unmapped_op_names_op_and_line():
    def f(a):
        return torch.cumsum(a, dim=1)  # no prim op
    line = f.__code__.co_firstlineno + 1
    with pytest.raises(tt.TtImportError) as err:
        tt.export(f, xf)
    msg = str(err.value)
    assert "aten.cumsum" in msg and f"{__file__}:{line}" in msg


def test_docs_table_is_fresh():
    doc = (ROOT / "docs" / "aten-ops.md").read_text()
    assert doc == aten.markdown(), "regenerate: python -m tt.aten --markdown > docs/aten-ops.md"


def test_compile_cache_is_keyed_by_the_program_not_its_locations(tmp_path, monkeypatch):
    """tt.precompile fills the cache (no GPU needed); the same program from another file
    (other locations) hits the same entry; another program or target does not."""
    from tt.compile import cache_key
    monkeypatch.setenv("TT_CACHE", str(tmp_path))
    monkeypatch.setenv("TT_BIN", str(BIN))
    path = tt.precompile(lambda a: torch.tanh(a) * 2, xf, arch="sm_90a")
    assert path.exists() and "//@launch" in path.read_text()
    text = tt.export(lambda a: torch.tanh(a) * 2, xf).text
    moved = text.replace(__file__, "/elsewhere/model.py")
    assert moved != text
    assert cache_key(moved, ["--fuse"], "sm_90a") == cache_key(text, ["--fuse"], "sm_90a")
    assert cache_key(text, ["--fuse"], "sm_80") != cache_key(text, ["--fuse"], "sm_90a")
    assert tt.precompile(lambda a: torch.tanh(a) * 2, xf, arch="sm_90a") == path


def test_compile_with_a_tuning_cache(tmp_path, monkeypatch):
    """A tuning cache in the flags reaches tt-opt (its entry shapes the kernel), and the
    cache key follows the tuning cache's contents."""
    from tt.compile import cache_key
    monkeypatch.setenv("TT_CACHE", str(tmp_path / "ptx"))
    monkeypatch.setenv("TT_BIN", str(BIN))
    x, w = torch.randn(16, 256, dtype=torch.float16), torch.randn(512, 256, dtype=torch.float16)
    tune = tmp_path / "h200.cache"
    tune.write_text("tt-tune-cache 1\narch sm_90a\n"
                    "dot 1x16x512x256 f16xf16 nk : block-n=128 split-k=1\n")
    flags = ("--decompose", "--fuse", f"--tune-cache={tune}", "--splitk")
    path = tt.precompile(lambda a, b: F.linear(a, b), x, w, flags=flags, arch="sm_90a")
    assert "//@launch fused_0_kernel grid 4 1 1 block 128" in path.read_text()
    text = tt.export(lambda a, b: F.linear(a, b), x, w).text
    before = cache_key(text, flags, "sm_90a")
    tune.write_text("tt-tune-cache 1\narch sm_90a\n"
                    "dot 1x16x512x256 f16xf16 nk : block-n=64 split-k=1\n")
    assert cache_key(text, flags, "sm_90a") != before


def test_load_without_a_gpu_is_a_clear_error(tmp_path, monkeypatch):
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    monkeypatch.setenv("TT_CACHE", str(tmp_path))
    path = tt.precompile(lambda a: a + 1, xf, arch="sm_90a")
    with pytest.raises(tt.TtRuntimeError, match="CUDA GPU"):
        tt.load(str(path))


# --- torch.compile(backend="tt") (python/tt/dynamo.py) ------------------------------

class GatedMLP(MLP):
    def __init__(self):
        super().__init__(64, 96)

    def forward(self, x):
        z = self.mlp(x)
        return x + z.sort(dim=-1).values * 2  # sort: no prim mapping, left to eager


def _partitioned(model, xs, **kw):
    """Runs model through torch.compile with tt's partitioning, compiling the tt parts
    but leaving them to run as FX code (no GPU); returns the outputs and reports."""
    from torch._decomp import core_aten_decompositions
    from torch._dynamo.backends.common import aot_autograd
    from tt import dynamo

    def fw(gm, ex):
        return dynamo.compile_graph(gm, ex, dynamo._static_indices(), require_cuda=False,
                                    load=False, **kw)[0]
    torch._dynamo.reset()
    c = torch.compile(model, backend=aot_autograd(
        fw_compiler=fw, decompositions=core_aten_decompositions()))
    start = len(dynamo.reports())
    with torch.no_grad():
        outs = [(c(x), model(x)) for x in xs]
    return outs, dynamo.reports()[start:]


def test_backend_is_registered():
    import torch._dynamo
    assert "tt" in torch._dynamo.list_backends()


def test_backend_partitions_and_reports(tmp_path, monkeypatch):
    monkeypatch.setenv("TT_CACHE", str(tmp_path))
    torch.manual_seed(0)
    m = GatedMLP().to(torch.bfloat16)
    xs = [torch.randn(3, 64, dtype=torch.bfloat16), torch.randn(5, 64, dtype=torch.bfloat16)]
    outs, reps = _partitioned(m, xs)
    for got, want in outs:
        assert torch.equal(got, want)
    assert len(reps) == 2  # batch 3, then a dynamic batch
    for rep in reps:
        assert [p.backend for p in rep.parts] == ["tt", "tt"], str(rep)
        assert rep.tt_ops == rep.ops - 1
        assert [(r.op, r.reason) for r in rep.refused] == \
            [("sort.default", "no prim mapping in tt's importer")]
        assert rep.refused[0].where.endswith("test_importer.py:%d" % _line("z.sort"))
        big = max(rep.parts, key=lambda p: p.ops)
        assert big.text.count("{tt.invariant}") == 4  # the norm's and three linears' weights
        assert pathlib.Path(big.ptx).exists()
    assert "tensor<?x64xbf16>" in reps[1].parts[0].text + reps[1].parts[1].text


def _line(fragment):
    lines = pathlib.Path(__file__).read_text().splitlines()
    return next(i + 1 for i, l in enumerate(lines) if fragment in l and "def " not in l)


def test_backend_compile_error_leaves_the_part_to_eager(tmp_path, monkeypatch):
    monkeypatch.setenv("TT_CACHE", str(tmp_path))
    outs, reps = _partitioned(lambda a: torch.tanh(a) * 3, [torch.randn(4, 8)],
                              flags=("--no-such-pass",))
    (got, want), = outs
    assert torch.equal(got, want)
    part, = reps[0].parts
    assert part.backend == "eager" and "no-such-pass" in part.reason


def test_backend_on_cpu_tensors_runs_eager():
    from tt import dynamo
    torch._dynamo.reset()
    c = torch.compile(lambda a: torch.tanh(a) + 1, backend="tt")
    x = torch.randn(7, 5)
    assert torch.equal(c(x), torch.tanh(x) + 1)
    rep = dynamo.reports()[-1]
    assert rep.parts == [] and {r.reason for r in rep.refused} == \
        {"a tensor not on a CUDA device"}


def test_backend_rejects_unknown_options():
    torch._dynamo.reset()
    c = torch.compile(lambda a: a + 1, backend="tt", options={"cuda_graphs": False})
    with pytest.raises(Exception, match="unknown option"):
        c(torch.randn(2))


def test_cache_misses_are_recorded_and_filled(tmp_path, monkeypatch):
    """A machine without the compiler records what its cache lacks (TT_MISSES); `python
    -m tt fill` on a machine with it compiles those programs into the cache."""
    ttc = __import__("importlib").import_module("tt.compile")
    text = tt.export(torch.tanh, xf).text
    monkeypatch.setenv("TT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("TT_MISSES", str(tmp_path / "misses"))
    monkeypatch.setenv("TT_BIN", str(tmp_path / "no-compiler"))
    with pytest.raises(RuntimeError, match="not in the cache"):
        ttc.build_ptx(text, arch="sm_90a")
    misses = sorted((tmp_path / "misses").glob("*.json"))
    assert len(misses) == 1
    monkeypatch.setenv("TT_BIN", str(BIN))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    r = subprocess.run([os.sys.executable, "-m", "tt", "fill", str(misses[0])], env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    monkeypatch.setenv("TT_BIN", str(tmp_path / "no-compiler"))
    assert ttc.build_ptx(text, arch="sm_90a").exists()  # now a hit


def test_backend_marks_weights_invariant_in_inference_graphs_only(monkeypatch):
    """tt runs what it computes from weights alone once (`once` launches), so weights are
    tt.invariant only where they stay between calls: an inference graph, not a training
    forward (the optimizer changes them in place) nor a backward."""
    from tt import dynamo
    seen = []

    def record(gm, example_inputs, static_indices=(), **kw):
        seen.append(list(static_indices))
        return gm, None
    monkeypatch.setattr(dynamo, "compile_graph", record)
    torch.manual_seed(0)
    m, x = MLP(), torch.randn(3, 64)
    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(m, backend=dynamo.backend)(x)
    assert len(seen) == 1 and len(seen[0]) == 4  # the norm's and three linears' weights
    seen.clear()
    torch._dynamo.reset()
    torch.compile(m, backend=dynamo.backend)(x).sum().backward()
    assert len(seen) == 2 and seen == [[], []]  # forward and backward


def test_part_refreshes_its_once_kernels_when_a_weight_changes_in_place():
    """A weight changed in place between calls (an optimizer step between validation
    passes) makes the part refresh its program (what it computed from the weights once)."""
    from tt import dynamo

    class FakeProgram:
        def __init__(self):
            self.refreshes, self.calls = 0, 0

        def refresh(self):
            self.refreshes += 1

        def __call__(self, *tensors):
            self.calls += 1
            return tensors[0] * 1

    p = FakeProgram()
    part = dynamo.TtPart(p, [True, False], cudagraphs=False)
    w, x = torch.randn(4), torch.randn(4)
    part(w, x)
    part(w, x)
    assert p.refreshes == 0
    with torch.no_grad():
        w.add_(1.0)  # in place: same address, new contents
    part(w, x)
    assert p.refreshes == 1 and p.calls == 3
