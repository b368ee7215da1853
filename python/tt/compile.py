"""tt.compile: export + tt-opt + tt-translate + load, with an on-disk cache.

`tt.compile(fn, *example_args)` exports fn (tt.export), compiles the prim program with
the C tools (`tt-opt FLAGS | tt-translate --ptx --arch ARCH`; TT_BIN names their folder,
default the repository's build/), and loads the PTX (tt.load) with the module's weights
as its leading inputs. The PTX is cached under TT_CACHE (default ~/.cache/tt), keyed by
the program's text without its locations (so a copy of the code elsewhere hits the same
entry), the flags (with the contents of a `--tune-cache=FILE` they name), the target and
the cache format: a second compile of the same
program costs the export alone, and a cache filled on a machine with the compiler
(`tt.precompile`, or `build_ptx` of a text exported elsewhere) serves a GPU machine
without one. PyTorch's decompositions depend on the device (on CUDA, newer PyTorch keeps
rms_norm whole): export where the model will run.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import subprocess
import tempfile
from typing import Optional, Sequence

import torch

from .importer import Exported, export

CACHE_FORMAT = "tt-cache-1"
DEFAULT_FLAGS = ("--decompose", "--fuse", "--splitk")
_LOC = re.compile(r" loc\([^)]*\)")


def default_arch() -> str:
    """The current GPU's target (sm_90a on a Hopper: wgmma, TMA), or sm_90a without one."""
    if not torch.cuda.is_available():
        return "sm_90a"
    major, minor = torch.cuda.get_device_capability()
    return f"sm_{major}{minor}" + ("a" if major == 9 else "")


def _cache_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("TT_CACHE", pathlib.Path.home() / ".cache" / "tt"))


def cache_key(text: str, flags: Sequence[str], arch: str) -> str:
    """The entry of a program: its text without locations, the flags, the target, and the
    contents of any tuning cache a flag names (`--tune-cache=FILE`, docs/tune-cache.md:
    a re-tuned cache makes new entries)."""
    h = hashlib.sha256()
    for part in (CACHE_FORMAT, _LOC.sub("", text), " ".join(flags), arch):
        h.update(part.encode())
        h.update(b"\0")
    for f in flags:
        if f.startswith("--tune-cache="):
            try:
                h.update(pathlib.Path(f[len("--tune-cache="):]).read_bytes())
            except OSError:
                pass  # tt-opt names the missing file
            h.update(b"\0")
    return h.hexdigest()[:32]


def _tools() -> pathlib.Path:
    return pathlib.Path(os.environ.get("TT_BIN",
                                       pathlib.Path(__file__).resolve().parents[2] / "build"))


def build_ptx(text: str, flags: Sequence[str] = DEFAULT_FLAGS,
              arch: Optional[str] = None) -> pathlib.Path:
    """The cached PTX of a prim program (an Exported's text), compiling it on a miss."""
    arch = arch or default_arch()
    path = _cache_dir() / f"{cache_key(text, flags, arch)}.ptx"
    if path.exists():
        return path
    tools = _tools()
    if not (tools / "tt-opt").exists():
        _record_miss(text, flags, arch)
        raise RuntimeError(f"tt.compile: {path.name} is not in the cache ({path.parent}) and "
                           f"there is no compiler at {tools} (TT_BIN) to make it")
    opt = subprocess.run([str(tools / "tt-opt"), *flags, "-"], input=text, text=True,
                         capture_output=True)
    if opt.returncode != 0:
        raise RuntimeError("tt-opt: " + opt.stderr)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".ptx")
    os.close(fd)
    tr = subprocess.run([str(tools / "tt-translate"), "--ptx", f"--arch={arch}", "-", "-o", tmp],
                        input=opt.stdout, text=True, capture_output=True)
    if tr.returncode != 0:
        os.unlink(tmp)
        raise RuntimeError("tt-translate: " + tr.stderr)
    os.replace(tmp, path)  # atomic: concurrent compiles of one program agree
    return path


def _record_miss(text: str, flags: Sequence[str], arch: str):
    """On a machine without the compiler, $TT_MISSES (a folder) collects the programs the
    cache lacked, as JSON (text, flags, arch): `python -m tt fill FILES...` on a machine
    with the compiler fills the cache from them."""
    folder = os.environ.get("TT_MISSES")
    if folder:
        os.makedirs(folder, exist_ok=True)
        entry = {"text": text, "flags": list(flags), "arch": arch}
        key = cache_key(text, flags, arch)
        pathlib.Path(folder, f"{key}.json").write_text(json.dumps(entry))


def fill(files: Sequence[str]) -> int:
    """Compiles the programs of $TT_MISSES files into the cache; returns how many."""
    for f in files:
        entry = json.loads(pathlib.Path(f).read_text())
        build_ptx(entry["text"], tuple(entry["flags"]), entry["arch"])
    return len(files)


def precompile(fn, *example_args, dynamic_shapes=None, flags=DEFAULT_FLAGS,
               arch: Optional[str] = None) -> pathlib.Path:
    """Fills the cache for fn on example_args (no GPU needed); returns the PTX's path."""
    return build_ptx(export(fn, *example_args, dynamic_shapes=dynamic_shapes).text, flags, arch)


class Compiled:
    """fn compiled by tt: call it with fn's (non-weight) inputs, as CUDA tensors."""

    def __init__(self, program, exported: Exported, ptx: pathlib.Path):
        self.program, self.exported, self.ptx = program, exported, ptx

    def __call__(self, *args):
        return self.program(*args)


def compile(fn, *example_args, dynamic_shapes=None, flags=DEFAULT_FLAGS,
            arch: Optional[str] = None) -> Compiled:
    """tt.export + tt-opt + tt-translate (cached) + tt.load, weights bound first."""
    from .runtime import Program
    e = export(fn, *example_args, dynamic_shapes=dynamic_shapes)
    ptx = build_ptx(e.text, flags, arch)
    return Compiled(Program(ptx.read_text(), e.weights), e, ptx)
