#!/usr/bin/env python3
"""GEMM benchmark of issue 4 on the GPU: linear layers y = x @ w^T (x [M,K], w [N,K], f16,
no bias) at LLM decode shapes, tt side by side with cuBLAS f16 (torch.matmul), a Triton
matmul with a split-K variant (best of a small config sweep), cuBLAS fp8 (torch._scaled_mm,
e4m3, per-tensor scales) and the same Triton matmul on e4m3 operands (the seed's fp8 split-K
kernel, 64x64x512 sk4 w8 s3, among its configs), all in one run.

Cases are the PTX of scripts/make-gemm-bench.sh (compiled off the GPU): CASEDIR/
f16_<M>x<N>x<K>.ptx (tt's defaults), ..._sk<S>.ptx and ..._<order>.ptx (variants), and
f16_4096x8192x8192.ptx (large GEMM); f8e4m3_*.ptx, once tt compiles fp8, add tt fp8
columns. A missing or failing case prints n/a.

Timing (--timing batch, the default): tt is `tt-run --no-check --batch --runs R --warmup W`,
the R launches back to back between one event pair, their mean (a split-K kernel's output
zeroing included); tt's kernels are `pdl` launches (programmatic dependent launch: each may
start while the one before it ends), and the "no pdl" columns time the same PTX launched
the plain way (TTRT_NO_PDL=1). The peers' calls run back to back too, without the CPU's
launch cost: 20 calls captured in a CUDA graph, replayed (benchlib.bench_batched), Triton's
split-K zeroing included. --timing events times as the tables before bench/2026-11-24-h200-gemm-pdl.md did: each launch (tt) and
call (peers) between its own event pair, enqueued back to back (benchlib.bench_queued). Floor: bytes of A, B and C once (f16: 2 (MK + NK + MN); fp8: MK + NK + 2 MN,
f16 output) at the device's copy rate, a 1 GiB device-to-device copy measured in this run
(benchlib.copy_bandwidth, as bench_rows.py does); "% floor" = floor time / time.

Usage: bench_gemm.py TT_RUN CASEDIR [--out FILE.md] [--runs R] [--warmup W] [--no-triton]
                    [--shapes NxK,...] [--no-large] [--timing batch|events] [--rounds R]
(--rounds R: each final time is the median of R timings, for rows within noise of a peer.)
Needs python3, torch and triton (without triton the Triton column is n/a).
"""
import argparse, datetime, os, statistics, sys, time
import torch
from benchlib import bench_batched, bench_queued, copy_bandwidth, scaled_mm_time, tt_median

MS = [1, 2, 4, 8, 16, 32, 64, 128]
SHAPES = [(8192, 8192), (28672, 8192), (8192, 28672), (10240, 8192)]  # (N, K)
VARIANT_MS = [16, 64]
VARIANT_SHAPES = [(8192, 8192), (28672, 8192)]
VARIANTS = ["sk1", "sk2", "sk4", "sk8", "sk16", "row-major", "grouped", "column-major"]
LARGE = (4096, 8192, 8192)
T0 = time.time()
TIMER = [bench_batched]  # how the peers' final times are taken (--timing)

def log(msg):
    print(f"[{time.time() - T0:6.0f}s] {msg}", file=sys.stderr, flush=True)

try:
    import triton
    import triton.language as tl
except Exception as exc:  # noqa: BLE001 - any import failure means: no Triton column
    triton, TRITON_ERR = None, f"import failed: {exc}"

if triton is not None:
    @triton.jit(do_not_specialize=["M"])
    def _linear_kernel(x_ptr, w_ptr, y_ptr, sa_ptr, sb_ptr, M, N, K, BLOCK_M: tl.constexpr,
                       BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr,
                       GROUP_M: tl.constexpr, SCALED: tl.constexpr):
        """y[M,N] (+)= x[M,K] @ w[N,K]^T; program (p, s): output tile p (grouped order),
        K slice s; SPLIT_K > 1 adds its partial tile into the zeroed y with atomics.
        SCALED (fp8 operands): the f32 sum times the per-tensor scales *sa_ptr * *sb_ptr.
        N must be a multiple of BLOCK_N and K of BLOCK_K * SPLIT_K (checked by the caller)."""
        pid = tl.program_id(0)
        pid_k = tl.program_id(1)
        num_m = tl.cdiv(M, BLOCK_M)
        num_n = N // BLOCK_N
        in_group = GROUP_M * num_n
        first_m = (pid // in_group) * GROUP_M
        size_m = tl.minimum(num_m - first_m, GROUP_M)
        pid_m = first_m + (pid % in_group) % size_m
        pid_n = (pid % in_group) // size_m
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = tl.max_contiguous(tl.multiple_of(pid_n * BLOCK_N + tl.arange(0, BLOCK_N), BLOCK_N),
                               BLOCK_N)
        k_slice = K // SPLIT_K
        rk = pid_k * k_slice + tl.arange(0, BLOCK_K)
        a_ptrs = x_ptr + (rm % M)[:, None] * K + rk[None, :]  # rows past M re-read row rm % M
        b_ptrs = w_ptr + rn[None, :] * K + rk[:, None]       # w^T tile [BLOCK_K, BLOCK_N]
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for _ in range(0, k_slice, BLOCK_K):
            acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
            a_ptrs += BLOCK_K
            b_ptrs += BLOCK_K
        if SCALED:
            acc = acc * (tl.load(sa_ptr) * tl.load(sb_ptr))
        c = acc.to(y_ptr.dtype.element_ty)
        y_ptrs = y_ptr + rm[:, None] * N + rn[None, :]
        mask = rm[:, None] < M
        if SPLIT_K == 1:
            tl.store(y_ptrs, c, mask=mask)
        else:
            tl.atomic_add(y_ptrs, c, mask=mask, sem="relaxed")

ATOMIC_F16 = [True]  # cleared if f16 atomic_add does not compile: then accumulate in f32

def triton_fn(x, w, y, cfg, scales=None):
    """A callable that computes y = x @ w^T with one Triton config (zeroing included);
    scales = (sa, sb), f32 scalars, for fp8 operands (y = sa * sb * x @ w^T)."""
    M, K = x.shape
    N = w.shape[0]
    bm, bn, bk, sk = cfg["BM"], cfg["BN"], cfg["BK"], cfg["SK"]
    grid = (triton.cdiv(M, bm) * (N // bn), sk)
    sa, sb = scales if scales is not None else (y, y)  # unread unless SCALED
    kw = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, SPLIT_K=sk, GROUP_M=8,
              SCALED=scales is not None, num_warps=cfg["warps"], num_stages=cfg["stages"])
    if sk == 1:
        return lambda: _linear_kernel[grid](x, w, y, sa, sb, M, N, K, **kw)
    if cfg.get("acc32"):
        acc = torch.empty(M, N, device="cuda", dtype=torch.float32)
        def run32():
            acc.zero_()
            _linear_kernel[grid](x, w, acc, sa, sb, M, N, K, **kw)
            y.copy_(acc)
        return run32
    def run():
        y.zero_()
        _linear_kernel[grid](x, w, y, sa, sb, M, N, K, **kw)
    return run

def cfg_name(c):
    s = f"{c['BM']}x{c['BN']}x{c['BK']} sk{c['SK']} w{c['warps']} s{c['stages']}"
    return s + (" acc32" if c.get("acc32") else "")

def smem_ok(c, esize=2):  # Triton's operand buffers: stages x (A + B tiles)
    return c["stages"] * (c["BM"] + c["BN"]) * c["BK"] * esize <= 220 * 1024

SEED_FP8 = dict(BM=64, BN=64, BK=512, SK=4, warps=8, stages=3)  # the brief's fp8 split-K

def triton_candidates(M, N, K, esize=2):
    """Configs to try: f16 (esize 2) block-k 64-256, fp8 (esize 1) block-k 128-512 and the
    seed's config; each with block-n 64/128 and split-k 1-8 where K divides evenly."""
    if M >= 256:  # the large GEMM: data-parallel tiles
        cs = [dict(BM=128, BN=128, BK=64, SK=1, warps=8, stages=3),
              dict(BM=128, BN=256, BK=64, SK=1, warps=8, stages=3),
              dict(BM=128, BN=128, BK=64, SK=1, warps=4, stages=4),
              dict(BM=64, BN=128, BK=64, SK=1, warps=4, stages=4)]
        return [c for c in cs if N % c["BN"] == 0 and K % c["BK"] == 0 and smem_ok(c, esize)]
    bm = 16 if M <= 16 else 32 if M <= 32 else 64
    cs = [SEED_FP8] if esize == 1 else []
    for bn in (64, 128):
        for bk in ((64, 128, 256) if esize == 2 else (128, 256, 512)):
            for sk in (1, 2, 4, 8):
                c = dict(BM=bm, BN=bn, BK=bk, SK=sk, warps=4, stages=3)
                if c not in cs and N % bn == 0 and K % (bk * sk) == 0 and K // (bk * sk) >= 2 \
                        and smem_ok(c, esize):
                    cs.append(c)
    return cs

def rel_err(y, ref):
    return ((y.float() - ref.float()).norm() / ref.float().norm()).item()

def triton_best(x, w, ref, runs, warmup, scales=None):
    """(time us, config) of the fastest correct config: num_stages 3 over block-n, block-k
    and split-k, then num_stages 4 for the two best; (None, reason) if none ran. fp8
    operands (x, w e4m3) take scales = (sa, sb)."""
    if triton is None:
        return None, TRITON_ERR
    M, N = x.shape[0], w.shape[0]
    y = torch.empty(M, N, device="cuda", dtype=torch.float16)
    timed, errors = [], []

    def attempt(c):
        if c["SK"] > 1 and not ATOMIC_F16[0]:
            c = dict(c, acc32=True)
        try:
            fn = triton_fn(x, w, y, c, scales)
            y.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
        except Exception as exc:  # noqa: BLE001 - a config that fails is skipped
            if c["SK"] > 1 and not c.get("acc32"):  # f16 atomic_add unsupported? try f32
                n = len(timed)
                attempt(dict(c, acc32=True))
                if len(timed) > n:
                    ATOMIC_F16[0] = False
                    log(f"triton: f16 atomic_add failed ({str(exc)[:80]}); split-K "
                        "accumulates in f32 (then converts, timed) from now on")
                    return
            msg = str(exc).strip().splitlines()
            errors.append(f"{cfg_name(c)}: {msg[0][:120] if msg else type(exc).__name__}")
            return
        err = rel_err(y, ref)
        if not err < 2e-2:
            errors.append(f"{cfg_name(c)}: wrong result (rel err {err:.1e})")
            return
        timed.append((bench_queued(fn, runs=max(10, runs // 4), warmup=3), c))

    esize = x.element_size()
    for c in triton_candidates(M, N, x.shape[1], esize):
        attempt(c)
    if M < 256:
        for _, c in sorted(timed, key=lambda t: t[0])[:2]:
            c4 = dict(c, stages=4)
            c4.pop("acc32", None)
            if smem_ok(c4, esize) and c4 not in [t[1] for t in timed]:
                attempt(c4)
    if not timed:
        return None, "; ".join(errors[:2]) or "no config fits"
    _, c = min(timed, key=lambda t: t[0])
    return TIMER[0](triton_fn(x, w, y, c, scales), runs=runs, warmup=warmup), cfg_name(c)

def rand(*shape):  # uniform in [-1, 1], as tt-run makes its inputs
    return torch.rand(*shape, device="cuda", dtype=torch.float32).mul_(2).sub_(1).half()

PEERS = {}

def peers(M, N, K, a):
    """cuBLAS f16, Triton f16, cuBLAS fp8 and Triton fp8 at one shape (cached for the
    variant rows; Triton fp8 only where a.fp8_triton)."""
    if (M, N, K) in PEERS:
        return PEERS[(M, N, K)]
    runs, warmup = (20, 3) if M >= 256 else (a.runs, a.warmup)
    p = {"cublas": None, "triton": None, "tcfg": "n/a", "fp8": None, "triton8": None,
         "t8cfg": "n/a"}
    try:
        x, w = rand(M, K), rand(N, K)
        y, wt = torch.empty(M, N, device="cuda", dtype=torch.float16), w.t()
        torch.matmul(x, wt, out=y)
        ref = y.clone()
        p["cublas"] = TIMER[0](lambda: torch.matmul(x, wt, out=y), runs=runs, warmup=warmup)
        if not a.no_triton:
            p["triton"], p["tcfg"] = triton_best(x, w, ref, runs, warmup)
            if p["triton"] is None:
                log(f"triton n/a at {M}x{N}x{K}: {p['tcfg']}")
                p["tcfg"] = "n/a"
        p["fp8"], why = scaled_mm_time(x, w, runs, warmup, TIMER[0])
        if p["fp8"] is None:
            log(f"_scaled_mm n/a at {M}x{N}x{K}: {why}")
        if a.fp8_triton and not a.no_triton and M < 256 and hasattr(torch, "float8_e4m3fn"):
            x8, w8 = x.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn)
            one = torch.tensor(1.0, device="cuda", dtype=torch.float32)
            ref8 = (x8.float() @ w8.float().t()).half()  # from the fp8-rounded inputs
            p["triton8"], p["t8cfg"] = triton_best(x8, w8, ref8, runs, warmup, (one, one))
            if p["triton8"] is None:
                log(f"triton fp8 n/a at {M}x{N}x{K}: {p['t8cfg']}")
                p["t8cfg"] = "n/a"
            del x8, w8, ref8
        del x, w, y, wt, ref
    except Exception as exc:  # noqa: BLE001 - one failing peer (e.g. out of memory) -> n/a
        log(f"peers at {M}x{N}x{K}: {exc}")
    torch.cuda.empty_cache()
    PEERS[(M, N, K)] = p
    return p

def tt_time(a, name, large=False, pdl=True):
    """tt-run's time in us for CASEDIR/name.ptx (--timing), or None (missing PTX, failed
    run); pdl=False launches its kernels the plain way."""
    ptx = os.path.join(a.casedir, name + ".ptx")
    if not os.path.exists(ptx):
        log(f"tt n/a: no {ptx}")
        return None
    runs, warmup = (20, 3) if large else (a.runs, a.warmup)
    ts = []
    for _ in range(a.rounds):
        t, why = tt_median(a.tt_run, ptx, runs, warmup, batch=a.timing == "batch", pdl=pdl)
        if t is None:
            log(f"tt n/a: {name}: {why}")
            return None
        ts.append(t)
    return statistics.median(ts)

def us(t):
    return "n/a" if t is None else f"{t:.1f}"

def ratio(num, den):  # "1.23x": how many times faster den is than num
    return "n/a" if num is None or den is None else f"{num / den:.2f}x"

def pct(floor, t):
    return "n/a" if t is None else f"{100 * floor / t:.1f}%"

def tflops(M, N, K, t):
    return "n/a" if t is None else f"{2 * M * N * K / t / 1e6:.0f}"

class Out:
    def __init__(self):
        self.lines = []
    def __call__(self, line=""):
        print(line, flush=True)
        self.lines.append(line)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tt_run")
    ap.add_argument("casedir")
    ap.add_argument("--out", help="also write the Markdown here")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--no-triton", action="store_true")
    ap.add_argument("--shapes", help="only these (N, K), e.g. 8192x8192,28672x8192 (the "
                    "sweep in parts, each within a device call)")
    ap.add_argument("--no-large", action="store_true", help="leave out the large GEMM")
    ap.add_argument("--timing", choices=["batch", "events"], default="batch",
                    help="batch: calls back to back, their mean (tt-run --batch; peers in a "
                    "CUDA graph); events: an event pair around each call")
    ap.add_argument("--rounds", type=int, default=1, help="time each kernel (tt's and the "
                    "peers' final ones) this many times and report the median")
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error("--rounds must be at least 1")
    base = bench_batched if a.timing == "batch" else bench_queued
    TIMER[0] = base if a.rounds <= 1 else (
        lambda fn, runs, warmup: statistics.median(base(fn, runs=runs, warmup=warmup)
                                                   for _ in range(a.rounds)))
    a.shapes = ([tuple(int(v) for v in s.split("x")) for s in a.shapes.split(",")]
                if a.shapes else SHAPES)
    out = Out()
    try:
        run(a, out)
    finally:
        if a.out:
            with open(a.out, "w") as f:
                f.write("\n".join(out.lines) + "\n")
            log(f"wrote {a.out}")

def run(a, out):
    bw = copy_bandwidth()  # GB/s = 1e3 bytes/us
    floor16 = lambda M, N, K: 2 * (M * K + N * K + M * N) / bw / 1e3
    floor8 = lambda M, N, K: (M * K + N * K + 2 * M * N) / bw / 1e3
    fp8_tt = a.fp8_triton = any(f.startswith("f8e4m3_") for f in os.listdir(a.casedir))
    out(f"# GEMM (linear y = x @ w^T, f16) at decode shapes, {datetime.date.today()}, "
        f"{torch.cuda.get_device_name()}")
    out(f"copy bandwidth (1 GiB copy): {bw:.0f} GB/s; torch {torch.__version__}, CUDA "
        f"{torch.version.cuda}, triton {triton.__version__ if triton else 'n/a'}; "
        + (f"tt-run --no-check --batch: mean of {a.runs} launches back to back after {a.warmup} "
           "warm-ups (large GEMM: 20)\n" if a.timing == "batch" else
           f"tt-run --no-check median of {a.runs} runs after {a.warmup} warm-ups (large GEMM: 20)\n"))
    out(("Times in us (calls back to back: tt's launches on the stream, `pdl` launches that may "
         "start while the one before ends - \"no pdl\": the same PTX launched the plain way; "
         "the peers' calls in a CUDA graph of 20, median replay / 20; split-K zeroing counted)."
         if a.timing == "batch" else
         "Times in us (median; peers timed like tt-run: enqueued back to back, an event pair "
         "each; split-K zeroing counted).") + " \"tt vs X\" = X time / tt time. Floor = bytes of A, B and C "
        "at the copy rate; % floor = floor / time. cuBLAS fp8 = torch._scaled_mm (e4m3, "
        "per-tensor scales, f16 out, best of use_fast_accum off/on); Triton fp8 = the Triton matmul "
        "on e4m3 operands with the scales applied to its f32 sum.\n")
    if a.rounds > 1:
        out(f"Each time (tt's, cuBLAS's, Triton's best config's) is the median of {a.rounds} "
            "rounds of that timing.\n")
    out("## M sweep (tt defaults: --decompose --fuse --splitk)\n")
    nopdl = a.timing == "batch"
    head = ("| M | N | K | tt (us) | cuBLAS f16 (us) | Triton f16 (us) | Triton config | "
            "tt vs cuBLAS | tt vs Triton | floor f16 (us) | tt % floor | cuBLAS % floor | "
            "cuBLAS fp8 (us) | floor fp8 (us) | cuBLAS fp8 % floor |")
    if nopdl:
        head += " tt no pdl (us) |"
    if fp8_tt:
        head += (" tt fp8 (us) | tt fp8 vs cuBLAS fp8 | tt fp8 % floor | Triton fp8 (us) | "
                 "Triton fp8 config | tt fp8 vs Triton fp8 |")
        if nopdl:
            head += " tt fp8 no pdl (us) |"
    out(head)
    out("|" + "---|" * (head.count("|") - 1))
    tt_base = {}
    shapes = [(M, N, K) for N, K in a.shapes for M in MS]
    for i, (M, N, K) in enumerate(shapes):
        log(f"[{i + 1}/{len(shapes)}] {M}x{N}x{K}")
        p = peers(M, N, K, a)
        tt = tt_base[(M, N, K)] = tt_time(a, f"f16_{M}x{N}x{K}")
        f16, f8 = floor16(M, N, K), floor8(M, N, K)
        row = (f"| {M} | {N} | {K} | {us(tt)} | {us(p['cublas'])} | {us(p['triton'])} | "
               f"{p['tcfg']} | {ratio(p['cublas'], tt)} | {ratio(p['triton'], tt)} | {f16:.1f} | "
               f"{pct(f16, tt)} | {pct(f16, p['cublas'])} | {us(p['fp8'])} | {f8:.1f} | "
               f"{pct(f8, p['fp8'])} |")
        if nopdl:
            row += f" {us(tt_time(a, f'f16_{M}x{N}x{K}', pdl=False))} |"
        if fp8_tt:
            t8 = tt_time(a, f"f8e4m3_{M}x{N}x{K}")
            row += (f" {us(t8)} | {ratio(p['fp8'], t8)} | {pct(f8, t8)} | {us(p['triton8'])} | "
                    f"{p['t8cfg']} | {ratio(p['triton8'], t8)} |")
            if nopdl:
                row += f" {us(tt_time(a, f'f8e4m3_{M}x{N}x{K}', pdl=False))} |"
        out(row)

    out("\n## Variants (split-k: --tile --splitk='split-k=S'; order: --tile='order=O' --splitk)\n")
    out("| M | N | K | variant | tt (us) | tt vs cuBLAS | tt % floor |")
    out("|---|---|---|---|---|---|---|")
    for N, K in [s for s in VARIANT_SHAPES if s in a.shapes]:
        for M in VARIANT_MS:
            p, f16 = peers(M, N, K, a), floor16(M, N, K)
            log(f"variants {M}x{N}x{K}")
            tt = tt_base.get((M, N, K))
            out(f"| {M} | {N} | {K} | default | {us(tt)} | {ratio(p['cublas'], tt)} | {pct(f16, tt)} |")
            for v in VARIANTS:
                tt = tt_time(a, f"f16_{M}x{N}x{K}_{v}")
                out(f"| {M} | {N} | {K} | {v} | {us(tt)} | {ratio(p['cublas'], tt)} | {pct(f16, tt)} |")

    if a.no_large:
        log("done")
        return
    M, N, K = LARGE
    out(f"\n## Large GEMM (tt defaults: --decompose --fuse --splitk)\n")
    out("| M | N | K | tt (us) | cuBLAS f16 (us) | Triton f16 (us) | Triton config | tt vs cuBLAS | "
        "tt vs Triton | tt TFLOP/s | cuBLAS TFLOP/s | Triton TFLOP/s | cuBLAS fp8 (us) | "
        "cuBLAS fp8 TFLOP/s |")
    out("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    log(f"large {M}x{N}x{K}")
    p = peers(M, N, K, a)
    tt = tt_time(a, f"f16_{M}x{N}x{K}", large=True)
    out(f"| {M} | {N} | {K} | {us(tt)} | {us(p['cublas'])} | {us(p['triton'])} | {p['tcfg']} | "
        f"{ratio(p['cublas'], tt)} | {ratio(p['triton'], tt)} | {tflops(M, N, K, tt)} | "
        f"{tflops(M, N, K, p['cublas'])} | {tflops(M, N, K, p['triton'])} | {us(p['fp8'])} | "
        f"{tflops(M, N, K, p['fp8'])} |")
    log("done")

if __name__ == "__main__":
    main()
