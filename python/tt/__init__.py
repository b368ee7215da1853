"""tt's Python front door: `tt.export` turns a PyTorch program into a prim program (MLIR
text that `tt-opt` reads) through torch.export and PyTorch's core-ATen decompositions;
`python/tt/aten.py` holds the one ATen -> prim table. The compiler itself stays C."""

from .importer import Argument, Exported, ImportError_ as TtImportError, export

__all__ = ["export", "Exported", "Argument", "TtImportError"]
