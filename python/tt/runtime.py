"""tt.load: a compiled tt program (PTX with its launch metadata) run on PyTorch CUDA
tensors, through libttrt's executables (runtime/exec.h) over ctypes.

No compiler at run time and no copies: a call binds the tensors' device memory and
sizes (the `?` dims from the inputs' shapes), allocates the outputs with torch at the
shapes the metadata gives, and enqueues the program's launches on PyTorch's current
stream. Shapes and dtypes are checked against the metadata by libttrt, with its message.

libttrt.so is found at $TT_LIBTTRT, else next to this package in the repository's builds
(build/runtime/, build-gpu/), else by the loader's search path.
"""

from __future__ import annotations

import ctypes
import os
import pathlib
from typing import Optional, Sequence

import torch

MAX_RANK = 16
# TtrtDtype (runtime/meta.h), in order
_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16,
           torch.float8_e4m3fn, torch.float8_e5m2, torch.bool, torch.int8, torch.int32,
           torch.int64]
_CODE = {d: i for i, d in enumerate(_DTYPES)}


class TensorArg(ctypes.Structure):
    _fields_ = [("address", ctypes.c_uint64), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int), ("shape", ctypes.c_int64 * MAX_RANK)]


class Error(ctypes.Structure):
    _fields_ = [("line", ctypes.c_int), ("message", ctypes.c_char * 4096)]


class TtRuntimeError(RuntimeError):
    """A libttrt failure: its message (and the metadata line it is about, if any)."""


def _library_path() -> str:
    env = os.environ.get("TT_LIBTTRT")
    if env:
        return env
    root = pathlib.Path(__file__).resolve().parents[2]
    for p in (root / "build" / "runtime" / "libttrt.so", root / "build-gpu" / "libttrt.so"):
        if p.exists():
            return str(p)
    return "libttrt.so"


_lib = None
_ctx = None


def _runtime():
    """libttrt and its one context (device 0's primary context: PyTorch's too)."""
    global _lib, _ctx
    if _lib is None:
        lib = ctypes.CDLL(_library_path())
        vp, ip = ctypes.c_void_p, ctypes.c_int
        ep = ctypes.POINTER(Error)
        lib.ttrtContextCreate.argtypes = [ctypes.POINTER(vp), ep]
        lib.ttrtExecutableCreate.argtypes = [vp, ctypes.c_char_p, ctypes.POINTER(vp), ep]
        lib.ttrtExecutableDestroy.argtypes = [vp, ep]
        lib.ttrtExecutableNumInputs.argtypes = [vp]
        lib.ttrtExecutableNumOutputs.argtypes = [vp]
        lib.ttrtExecutableBind.argtypes = [vp, ctypes.POINTER(TensorArg), ip, ep]
        lib.ttrtExecutableGetOutput.argtypes = [vp, ip, ctypes.POINTER(TensorArg)]
        lib.ttrtExecutableRun.argtypes = [vp, ctypes.POINTER(TensorArg), ip,
                                          ctypes.POINTER(TensorArg), ip, vp, ep]
        lib.ttrtExecutableRefresh.argtypes = [vp]
        _lib = lib
    if _ctx is None:
        if not torch.cuda.is_available():
            raise TtRuntimeError("tt programs run on a CUDA GPU; torch.cuda.is_available() "
                                 "is False here")
        torch.cuda.init()  # PyTorch's primary context first: libttrt retains the same
        ctx, err = ctypes.c_void_p(), Error()
        if _lib.ttrtContextCreate(ctypes.byref(ctx), ctypes.byref(err)) != 0:
            raise TtRuntimeError(err.message.decode())
        _ctx = ctx
    return _lib, _ctx


def _check(status: int, err: Error, what: str):
    if status != 0:
        line = f" (metadata line {err.line})" if err.line else ""
        raise TtRuntimeError(f"{what}{line}: {err.message.decode()}")


def _arg(t: torch.Tensor) -> TensorArg:
    if t.dtype not in _CODE:
        raise TtRuntimeError(f"dtype {t.dtype} is not one tt takes")
    a = TensorArg(t.data_ptr(), _CODE[t.dtype], t.dim())
    for i, d in enumerate(t.shape):
        a.shape[i] = d
    return a


class Program:
    """A loaded tt program; call it on CUDA tensors (its inputs in order, after any
    `leading` tensors given at load: a module's weights)."""

    def __init__(self, ptx: str, leading: Sequence[torch.Tensor] = ()):
        lib, ctx = _runtime()
        self._lib = lib
        self._exe = ctypes.c_void_p()
        err = Error()
        _check(lib.ttrtExecutableCreate(ctx, ptx.encode(), ctypes.byref(self._exe),
                                        ctypes.byref(err)), err, "loading the program")
        self.num_inputs = lib.ttrtExecutableNumInputs(self._exe)
        self.num_outputs = lib.ttrtExecutableNumOutputs(self._exe)
        self.leading = [t.contiguous() for t in leading]
        self._ptx = ptx

    def clone(self) -> "Program":
        """The same program loaded again: its own temps (what it computes from its weights
        once is kept per copy, so copies may run with different weights)."""
        return Program(self._ptx, self.leading)

    def __call__(self, *args: torch.Tensor):
        tensors = self.leading + [a.contiguous() for a in args]
        for t in tensors:
            if not t.is_cuda:
                raise TtRuntimeError("tt programs take CUDA tensors")
        ins = (TensorArg * max(1, len(tensors)))(*[_arg(t) for t in tensors])
        err = Error()
        _check(self._lib.ttrtExecutableBind(self._exe, ins, len(tensors), ctypes.byref(err)),
               err, "binding the inputs")
        outs, out_args = [], (TensorArg * self.num_outputs)()
        for i in range(self.num_outputs):
            d = TensorArg()
            self._lib.ttrtExecutableGetOutput(self._exe, i, ctypes.byref(d))
            t = torch.empty(tuple(d.shape[:d.rank]), dtype=_DTYPES[d.dtype],
                            device=tensors[0].device if tensors else "cuda")
            outs.append(t)
            out_args[i] = _arg(t)
        stream = torch.cuda.current_stream().cuda_stream
        _check(self._lib.ttrtExecutableRun(self._exe, ins, len(tensors), out_args,
                                           self.num_outputs, ctypes.c_void_p(stream),
                                           ctypes.byref(err)), err, "running the program")
        return outs[0] if len(outs) == 1 else tuple(outs)

    def refresh(self):
        """Runs the program's `once` kernels (what it computes from its weights alone) again
        at the next call: after a weight changed in place (docs/metadata.md)."""
        self._lib.ttrtExecutableRefresh(self._exe)

    def __del__(self):
        if getattr(self, "_exe", None) and self._exe.value:
            self._lib.ttrtExecutableDestroy(self._exe, None)


def load(path: str, leading: Sequence[torch.Tensor] = ()) -> Program:
    """Loads a tt PTX file (from tt-translate --ptx) for calls on CUDA tensors."""
    return Program(pathlib.Path(path).read_text(), leading)
