#!/usr/bin/env python3
"""gen-scaling.py - prim programs of about N ops for the compile-time scaling benchmark.

Usage: scripts/gen-scaling.py SHAPE N > prog.mlir
  SHAPE chain   one elementwise chain of N ops on a 64x256 f32 tensor: y = op(y, x) or
                op(y), the ops cycling through add, mul, tanh, sub, neg, exp (one fused
                kernel of N ops)
  SHAPE fanout  one input feeding N/4 independent branches of 4 elementwise ops each,
                every branch end returned (fusion merges the branches that read x into
                kernels of at most 16 outputs: about N/64 kernels)
  SHAPE blocks  N/10 blocks of 10 ops, each a linear layer (matmul by a shared 256x256
                f16 weight, bias add) followed by a softmax over rows written in prim ops
                (amax, sub, exp, sum, div): two kernels per block, a dot kernel with its
                epilogue and a row kernel, N/5 kernels in all
The op count is the number of prim ops in the function body (the return excluded),
rounded down to whole branches or blocks. Python 3 standard library only.
"""
import sys

T = "tensor<64x256xf32>"
H = "tensor<64x256xf16>"


def chain(n):
    out = [f"func.func @chain(%x: {T}) -> {T} {{"]
    prev = "%x"
    ops = ["add", "mul", "tanh", "sub", "neg", "exp"]
    for i in range(n):
        op = ops[i % len(ops)]
        if op in ("tanh", "neg", "exp"):
            out.append(f'  %v{i} = "prim.{op}"({prev}) : ({T}) -> {T}')
        else:
            out.append(f'  %v{i} = "prim.{op}"({prev}, %x) : ({T}, {T}) -> {T}')
        prev = f"%v{i}"
    out.append(f"  return {prev} : {T}")
    out.append("}")
    return out


def fanout(n):
    b = max(1, n // 4)
    res = ", ".join([T] * b)
    out = [f"func.func @fanout(%x: {T}) -> ({res}) {{"]
    ends = []
    for j in range(b):
        p = f"%b{j}"
        out.append(f'  {p}_0 = "prim.mul"(%x, %x) : ({T}, {T}) -> {T}')
        out.append(f'  {p}_1 = "prim.tanh"({p}_0) : ({T}) -> {T}')
        out.append(f'  {p}_2 = "prim.add"({p}_1, %x) : ({T}, {T}) -> {T}')
        un = ["neg", "exp", "tanh"][j % 3]
        out.append(f'  {p}_3 = "prim.{un}"({p}_2) : ({T}) -> {T}')
        ends.append(f"{p}_3")
    out.append(f"  return {', '.join(ends)} : {res}")
    out.append("}")
    return out


def blocks(n):
    b = max(1, n // 10)
    W = "tensor<256x256xf16>"
    B = "tensor<256xf16>"
    R = "tensor<64xf16>"
    out = [f"func.func @blocks(%x: {H}, %w: {W}, %bias: {B}) -> {H} {{"]
    prev = "%x"
    for j in range(b):
        p = f"%k{j}"
        out += [
            f'  {p}_mm = "prim.matmul"({prev}, %w) : ({H}, {W}) -> {H}',
            f'  {p}_bb = "prim.broadcast_in_dim"(%bias) {{broadcast_dimensions = array<i64: 1>}} : ({B}) -> {H}',
            f'  {p}_y = "prim.add"({p}_mm, {p}_bb) : ({H}, {H}) -> {H}',
            f'  {p}_m = "prim.amax"({p}_y) {{dims = array<i64: 1>, keepdim = false}} : ({H}) -> {R}',
            f'  {p}_mb = "prim.broadcast_in_dim"({p}_m) {{broadcast_dimensions = array<i64: 0>}} : ({R}) -> {H}',
            f'  {p}_d = "prim.sub"({p}_y, {p}_mb) : ({H}, {H}) -> {H}',
            f'  {p}_e = "prim.exp"({p}_d) : ({H}) -> {H}',
            f'  {p}_s = "prim.sum"({p}_e) {{dims = array<i64: 1>, keepdim = false}} : ({H}) -> {R}',
            f'  {p}_sb = "prim.broadcast_in_dim"({p}_s) {{broadcast_dimensions = array<i64: 0>}} : ({R}) -> {H}',
            f'  {p}_o = "prim.div"({p}_e, {p}_sb) : ({H}, {H}) -> {H}',
        ]
        prev = f"{p}_o"
    out.append(f"  return {prev} : {H}")
    out.append("}")
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("chain", "fanout", "blocks"):
        sys.exit(__doc__)
    shape, n = sys.argv[1], int(sys.argv[2])
    lines = {"chain": chain, "fanout": fanout, "blocks": blocks}[shape](n)
    sys.stdout.write(f"// gen-scaling.py {shape} {n}\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
