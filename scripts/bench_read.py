"""Read-only bandwidth of the device next to its copy rate (run on the device with PyTorch).

The GEMM tables' floor is the bytes of A, B and C at the copy rate (a 1 GiB copy, read +
write); a decode GEMM mostly reads, and reads alone can stream faster than a copy. This
prints, per size, the rate of a read-only reduction (torch.sum of an f16 tensor, f32
accumulation: one read of every byte) with the calls back to back in a CUDA graph
(benchlib.bench_batched, as the GEMM tables time the peers), and its ratio to the copy rate.
The sizes include those of the GEMM weights: 8192 x 8192 f16 (128 MiB) and fp8 (64 MiB),
10240 x 8192 f16, 28672 x 8192 f16. Usage: python3 bench_read.py [--out FILE.md]
"""
import argparse, datetime
import torch
from benchlib import bench_batched, copy_bandwidth

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    copy = copy_bandwidth()
    lines = [f"# Read-only rate, {datetime.date.today()}, {torch.cuda.get_device_name()}",
             f"copy bandwidth (1 GiB copy): {copy:.0f} GB/s", "",
             "| bytes | what | read (us) | read GB/s | read / copy |", "|---|---|---|---|---|"]
    sizes = [(8192 * 8192, "8192x8192 fp8"), (2 * 8192 * 8192, "8192x8192 f16"),
             (2 * 10240 * 8192, "10240x8192 f16"), (2 * 28672 * 8192, "28672x8192 f16"),
             (1 << 30, "1 GiB")]
    for nbytes, what in sizes:
        x = torch.randn(nbytes // 2, device="cuda", dtype=torch.float16)
        us = bench_batched(lambda: torch.sum(x, dtype=torch.float32))
        rate = nbytes / us / 1e3
        lines.append(f"| {nbytes} | {what} | {us:.1f} | {rate:.0f} | {rate / copy:.2f} |")
        del x
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        open(args.out, "w").write(text)

if __name__ == "__main__":
    main()
