"""Timing helpers shared by the benchmark scripts (run on the device with PyTorch)."""
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
