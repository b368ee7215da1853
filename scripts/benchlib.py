"""Timing helpers shared by the benchmark scripts (run on the device with PyTorch)."""
import itertools, os, re, subprocess
import torch

def bench(fn, iters=100):
    """Median time of fn in microseconds: CUDA events around each call, after 10 warm-ups."""
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1000.0)
    ts.sort()
    return ts[len(ts) // 2]

def copy_bandwidth():
    """The device's copy rate in GB/s (read + write): a 1 GiB device-to-device copy."""
    big = torch.empty(1 << 30, device="cuda", dtype=torch.uint8)
    dst = torch.empty_like(big)
    return 2 * big.numel() / bench(lambda: dst.copy_(big), 200) / 1e3

def bench_queued(fn, runs=100, warmup=10):
    """Median time of fn in microseconds, timed the way tt-run times its launches: `warmup`
    untimed calls, then `runs` calls enqueued back to back (no synchronize between), each
    between its own pair of CUDA events. While the GPU is the slower side (kernels longer
    than the CPU's launch cost), launch overhead stays off the clock, as it does for tt-run;
    bench() synchronizes before each call, so it also counts the launch."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    evs = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
           for _ in range(runs)]
    for s, e in evs:
        s.record(); fn(); e.record()
    torch.cuda.synchronize()
    ts = sorted(s.elapsed_time(e) * 1000.0 for s, e in evs)
    return ts[len(ts) // 2]

def bench_batched(fn, runs=100, warmup=10, calls=20):
    """Mean time of fn in microseconds with the calls back to back, the way `tt-run --batch`
    times its launches, but without the CPU's launch cost: `calls` calls captured in a CUDA
    graph, `warmup` replays, then runs / calls replays (at least 5) each between its own
    event pair; the median replay / calls. Falls back to bench_queued when the calls cannot
    be captured."""
    try:
        fn()
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(calls):
                fn()
    except Exception:  # noqa: BLE001 - not capturable: time on the stream
        torch.cuda.synchronize()
        return bench_queued(fn, runs=runs, warmup=warmup)
    for _ in range(max(1, warmup)):
        g.replay()
    torch.cuda.synchronize()
    ts = []
    for _ in range(max(5, runs // calls)):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); g.replay(); e.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1000.0 / calls)
    ts.sort()
    del g
    return ts[len(ts) // 2]

def tt_median(tt_run, ptx, runs=100, warmup=10, batch=False, pdl=True, extra=()):
    """(median us, "") of `tt-run --no-check` on ptx (seeded inputs, launches timed like
    bench_queued; with batch, `--batch`: back to back between one event pair, their mean,
    so that `pdl` launches overlap; pdl=False launches them the plain way, TTRT_NO_PDL=1),
    or (None, why) when it does not run. `extra`: more tt-run arguments (e.g. --cold N)."""
    cmd = [tt_run, "--no-check", "--seed", "1", "--runs", str(runs), "--warmup", str(warmup),
           *extra, ptx]
    if batch:
        cmd.insert(1, "--batch")
    env = dict(os.environ)
    if not pdl:
        env["TTRT_NO_PDL"] = "1"
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=env)
    except Exception as exc:  # noqa: BLE001 - a run that cannot start is n/a
        return None, str(exc)
    m = re.search(r"^time median ([0-9.]+) us", r.stdout, re.M)
    if r.returncode != 0 or not m:
        return None, f"exit {r.returncode}: {(r.stdout[-300:] + r.stderr[-300:]).strip()}"
    return float(m.group(1)), ""

def scaled_mm_time(x, w, runs, warmup, timer=bench_queued):
    """cuBLAS fp8: torch._scaled_mm on e4m3 copies, per-tensor scales, f16 out; best of
    use_fast_accum False/True. (None, reason) when it does not run."""
    if not hasattr(torch, "float8_e4m3fn") or not hasattr(torch, "_scaled_mm"):
        return None, "this torch has no fp8"
    x8, w8 = x.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn)
    one = torch.tensor(1.0, device="cuda", dtype=torch.float32)
    best, why = None, ""
    for fast in (False, True):
        def fn():
            return torch._scaled_mm(x8, w8.t(), scale_a=one, scale_b=one,
                                    out_dtype=torch.float16, use_fast_accum=fast)
        try:
            fn()
            torch.cuda.synchronize()
            t = timer(fn, runs=runs, warmup=warmup)
            best = t if best is None else min(best, t)
        except Exception as exc:  # noqa: BLE001
            msg = str(exc).strip().splitlines()
            why = msg[0][:120] if msg else type(exc).__name__
    return (best, "") if best is not None else (None, why)

def cublas_linear(t, m, n, k, copies):
    """(warm us, cold us) of cuBLAS on x [m, k] @ w[n, k]^T, dtype t (f16, bf16; fp8: e4m3
    through torch._scaled_mm, f32 scales, bf16 out): warm on one weight, cold cycling
    over `copies` of it, bench_batched's CUDA graphs either way."""
    if t == "fp8":
        e4 = torch.float8_e4m3fn
        x = torch.randn(m, k, device="cuda").to(e4)
        ws = [torch.randn(n, k, device="cuda").to(e4) for _ in range(copies)]
        one = torch.ones((), device="cuda")
        op = lambda w: torch._scaled_mm(x, w.t(), one, one, out_dtype=torch.bfloat16)
    else:
        dt = torch.float16 if t == "f16" else torch.bfloat16
        x = torch.randn(m, k, device="cuda", dtype=dt)
        ws = [torch.randn(n, k, device="cuda", dtype=dt) for _ in range(copies)]
        op = lambda w: torch.matmul(x, w.t())
    warm = bench_batched(lambda: op(ws[0]))
    turn = itertools.cycle(ws)
    return warm, bench_batched(lambda: op(next(turn)))
