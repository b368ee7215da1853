"""What cuBLAS runs at M = 128 (bench/2026-11-29-h200-m128.md, run 2): each shape's linear
(f16) or torch._scaled_mm (fp8) three times, then once more, under ncu:

  M=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_bytes.sum,launch__grid_size,\
launch__block_size,launch__cluster_dim_x,launch__cluster_dim_y,\
launch__registers_per_thread,launch__shared_mem_per_block_dynamic
  ncu --csv --metrics $M python3 bench/probes/2026-11-29-cublas-ncu.py > cublas.csv
  ncu --csv --metrics $M build-gpu/tt-run --no-check --runs 1 --warmup 1 CASE.ptx  # tt's

(ncu locks clocks and flushes caches: read its times against each other, not against
bench_variants.py's.) Shapes as arguments (DT_MxNxK, DT f16 or fp8) replace the list.
"""
import sys, torch
shapes = [("f16",128,3584,3584),("f16",128,6144,4096),("f16",128,2560,2560),("f16",128,4096,4096),("fp8",128,6144,4096),("fp8",128,4096,4096),("fp8",128,2560,2560)]
if len(sys.argv) > 1:
    shapes = [(a.split("_")[0],) + tuple(int(v) for v in a.split("_")[1].split("x")) for a in sys.argv[1:]]
for t,m,n,k in shapes:
    if t == "f16":
        x = torch.randn(m,k,device="cuda",dtype=torch.float16); w = torch.randn(n,k,device="cuda",dtype=torch.float16)
        f = lambda: torch.nn.functional.linear(x,w)
    else:
        x = torch.randn(m,k,device="cuda").to(torch.float8_e4m3fn); w = torch.randn(n,k,device="cuda").to(torch.float8_e4m3fn)
        s = torch.tensor(1.0,device="cuda")
        f = lambda: torch._scaled_mm(x,w.t(),scale_a=s,scale_b=s,out_dtype=torch.bfloat16)
    for _ in range(3): f()
    torch.cuda.synchronize()
    torch.cuda.nvtx.range_push(f"{t}_{m}x{n}x{k}"); f(); torch.cuda.synchronize(); torch.cuda.nvtx.range_pop()
