"""tt's Python front door. `tt.export` turns a PyTorch program into a prim program (MLIR
text that `tt-opt` reads) through torch.export and PyTorch's core-ATen decompositions
(`python/tt/aten.py` holds the one ATen -> prim table); `tt.load` runs a compiled PTX
file on CUDA tensors through libttrt (no compiler at run time, no copies); `tt.compile`
does both, with an on-disk cache. The compiler itself stays C."""

from .compile import Compiled, compile, precompile
from .importer import Argument, Exported, ImportError_ as TtImportError, export
from .runtime import Program, TtRuntimeError, load

__all__ = ["export", "Exported", "Argument", "TtImportError", "load", "Program",
           "TtRuntimeError", "compile", "precompile", "Compiled"]
