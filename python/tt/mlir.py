"""Writing prim programs as MLIR text (generic op form), the way tt-opt reads them.

`Builder` collects the ops of one host function: each `op()` call appends
`%vN = "prim.NAME"(operands) {attrs} : (types) -> type loc(...)` and returns the new
`Value` (its SSA name, shape and dtype). Shapes hold ints, or None for a dynamic (`?`)
dim. Locations are `loc("file":line:col)` strings, kept as given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional, Sequence


@dataclass(frozen=True)
class Value:
    """An SSA value of the program: its name (`%v3`), shape (None: a `?` dim) and dtype
    (an MLIR element type: f32, bf16, i1, ...)."""

    name: str
    shape: tuple
    dtype: str

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.dtype)

    @property
    def rank(self) -> int:
        return len(self.shape)


def tensor_type(shape: Sequence[Optional[int]], dtype: str) -> str:
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{dtype}>"


def float_attr(x: float, ty: str = "f64") -> str:
    """An MLIR float attribute: finite values in repr form, inf and nan in hex."""
    x = float(x)
    if math.isnan(x):
        return f"0x7FF8000000000000 : {ty}" if ty == "f64" else f"0x7FC00000 : {ty}"
    if math.isinf(x):
        if ty == "f64":
            return ("0x7FF0000000000000" if x > 0 else "0xFFF0000000000000") + f" : {ty}"
        return ("0x7F800000" if x > 0 else "0xFF800000") + f" : {ty}"
    text = repr(x)  # MLIR's float literals need a '.' before any exponent: 1.0e-05
    mant, _, exp = text.partition("e")
    if "." not in mant:
        mant += ".0"
    return f"{mant}{'e' + exp if exp else ''} : {ty}"


def i64_array(xs: Sequence[int]) -> str:
    return "array<i64" + (": " + ", ".join(str(int(x)) for x in xs) if len(xs) else "") + ">"


class Builder:
    """The ops of one function body, in order, with fresh SSA names."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.count = 0

    def op(self, name: str, operands: Sequence[Value], shape, dtype: str,
           attrs: Optional[dict] = None, loc: Optional[str] = None) -> Value:
        result = Value(f"%v{self.count}", tuple(shape), dtype)
        self.count += 1
        attr_text = ""
        if attrs:
            attr_text = " {" + ", ".join(f"{k} = {v}" for k, v in attrs.items()) + "}"
        ins = ", ".join(v.name for v in operands)
        types = ", ".join(v.type for v in operands)
        line = f'  {result.name} = "prim.{name}"({ins}){attr_text} : ({types}) -> {result.type}'
        if loc:
            line += f" loc({loc})"
        self.lines.append(line)
        return result
