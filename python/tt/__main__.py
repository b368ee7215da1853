"""`python -m tt fill FILES...`: compiles the programs a machine without the compiler
recorded through $TT_MISSES (JSON: text, flags, target) into the cache ($TT_CACHE)."""

import sys

from .compile import _cache_dir, fill

if len(sys.argv) < 2 or sys.argv[1] != "fill":
    sys.exit("usage: python -m tt fill MISS.json...")
print(f"tt: {fill(sys.argv[2:])} program(s) in {_cache_dir()}")
