"""Compiles the GEMM benchmark's Triton matmul (bench_gemm.py's _linear_kernel) to PTX for
sm_90a without a GPU, to read next to tt's PTX: which loads (cp.async, TMA) and which MMA
(mma.sync, wgmma) Triton picks for a config. Needs `pip install triton` (3.6 was used) but
no torch and no GPU; pointers, N and K are taken as multiples of 16, as Triton's launcher
specializes them at run time.

Usage: python3 triton_ptx.py BM BN BK SPLIT_K WARPS STAGES OUT.ptx
  e.g. 16 64 256 1 4 4 t.ptx  (a best config of the K-heavy rows of the GEMM table)
"""
import importlib.util, os, sys, tempfile

def kernel():
    """bench_gemm.py's kernel, without importing torch (bench_gemm.py imports it): its
    source written to a temporary module (Triton reads a kernel's source from its file)."""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_gemm.py")).read()
    body = src[src.index('    @triton.jit(do_not_specialize=["M"])'):src.index("ATOMIC_F16")]
    path = os.path.join(tempfile.mkdtemp(), "tt_triton_kernel.py")
    with open(path, "w") as f:
        f.write("import triton\nimport triton.language as tl\n" +
                "\n".join(l[4:] for l in body.splitlines()) + "\n")
    spec = importlib.util.spec_from_file_location("tt_triton_kernel", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod._linear_kernel

def main():
    if len(sys.argv) != 8:
        sys.exit(__doc__.split("\n\n")[-1])
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    bm, bn, bk, sk, warps, stages = (int(v) for v in sys.argv[1:7])
    names = ["x_ptr", "w_ptr", "y_ptr", "sa_ptr", "sb_ptr", "M", "N", "K"]
    sig = {n: ("*fp16" if n.endswith("_ptr") else "i32") for n in names}
    const = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "SPLIT_K": sk, "GROUP_M": 8,
             "SCALED": False}
    sig.update({n: "constexpr" for n in const})
    attrs = {(i,): [["tt.divisibility", 16]] for i in (0, 1, 2, 3, 4, 6, 7)}
    k = triton.compile(ASTSource(fn=kernel(), signature=sig, constexprs=const, attrs=attrs),
                       target=GPUTarget("cuda", 90, 32),
                       options={"num_warps": warps, "num_stages": stages})
    with open(sys.argv[7], "w") as f:
        f.write(k.asm["ptx"])
    print(f"{sys.argv[7]}: shared {k.metadata.shared} bytes")

if __name__ == "__main__":
    main()
