"""tt-run's NumPy archives from numpy's side (no GPU: --ref-only evaluates the float64
reference): fresh random inputs written by numpy.savez / savez_compressed are read by
tt-run --inputs, its --save-outputs archive is read by numpy.load, and the values agree
with numpy's own computation of the program (x * v broadcast, Inputs/dims.ptx, whose
rows are a `?` dim bound from the archive)."""

import os
import pathlib
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("TT_BIN", ROOT / "build"))
PTX = ROOT / "test/lit/tt-run/Inputs/dims.ptx"


@pytest.mark.parametrize("rows", [1, 3, 1000])
@pytest.mark.parametrize("save", [np.savez, np.savez_compressed])
def test_npz_round_trip(tmp_path, rows, save):
    rng = np.random.default_rng()
    x = rng.standard_normal((rows, 8)).astype(np.float32)
    v = rng.standard_normal(8)  # float64: rounded to the input's f32
    save(tmp_path / "in.npz", arg0=x, arg1=v)
    r = subprocess.run([str(BIN / "tt-run"), "--ref-only", "--inputs", str(tmp_path / "in.npz"),
                        "--save-outputs", str(tmp_path / "out.npz"), str(PTX)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = np.load(tmp_path / "out.npz")
    assert out.files == ["out0"] and out["out0"].dtype == np.float32
    want = x.astype(np.float64) * v.astype(np.float32).astype(np.float64)
    np.testing.assert_allclose(out["out0"], want, rtol=1e-6, atol=1e-7)
    # the saved outputs are accepted as expected ones, and a perturbed copy is not
    np.savez(tmp_path / "bad.npz", out0=want + 1)
    for expected, rc in (("out.npz", 0), ("bad.npz", 1)):
        r = subprocess.run([str(BIN / "tt-run"), "--ref-only", "--inputs",
                            str(tmp_path / "in.npz"), "--expected", str(tmp_path / expected),
                            str(PTX)], capture_output=True, text=True)
        assert r.returncode == rc, r.stdout + r.stderr
