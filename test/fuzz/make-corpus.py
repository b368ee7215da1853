#!/usr/bin/env python3
"""make-corpus.py - writes the seed corpora of tt's fuzz targets (docs/fuzzing.md).

usage: make-corpus.py BUILD OUT   (BUILD: a normal build with tt-opt and tt-translate)

OUT/opt:        every example, alone and under the main pipelines; every `// -----` chunk
                of every lit .mlir file (Inputs included), headed by a `//! PASSES`
                directive for each distinct tt-opt pass list of the file's RUN lines
                (fuzz-opt.c's syntax), and once without (parse + verify only); the
                tuning caches of test/lit/tt-opt/tune-cache*.test after their dot
                programs, behind `//--- tune-cache`.
OUT/translate:  the examples and the lit chunks (no directive: tt-translate takes any
                level), the lit tt-translate RUN lines' --arch as `//! ARCH`, and the
                examples after tt-opt --fuse and --fuse --tile (fused and tile level).
OUT/meta:       the `//@` lines of the PTX tt-translate makes of every example and every
                tt-translate lit input, and of the lit tests' .ptx files and .ptx sections
                (split-file).
Files are named by the SHA-1 of their content, as libFuzzer names corpus files.
"""
import glob
import hashlib
import os
import re
import subprocess
import sys

build, out = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
opt, translate = os.path.join(build, "tt-opt"), os.path.join(build, "tt-translate")


def write(target, text):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    data = text.encode()
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def run(args, stdin=None):
    p = subprocess.run(args, input=stdin, capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


tt_passes = set(re.findall(r"^  --(\S+)", run([opt, "--list-passes"]), re.M))
flag = re.compile(r"--([a-z0-9-]+)(?:=('[^']*'|\"[^\"]*\"|\S+))?")


def pipelines(text):
    """The tt pass lists of a file's tt-opt RUN lines, in fuzz-opt's directive syntax."""
    found = []
    for line in re.findall(r"RUN:.*", text):
        for cmd in re.findall(r"tt-opt\b([^|]*)", line):
            passes = []
            for name, value in flag.findall(cmd):
                if name in tt_passes:
                    value = value.strip("'\"")
                    passes.append(name + ("{%s}" % value if value else ""))
            p = ",".join(passes)
            if p and p not in found:
                found.append(p)
    return found


def chunks(text):
    return re.split(r"^\s*// -----.*$", text, flags=re.M)


examples = sorted(glob.glob(os.path.join(root, "examples", "*.mlir")))
lit = sorted(glob.glob(os.path.join(root, "test", "lit", "**", "*.mlir"), recursive=True))
main_pipelines = ["decompose,fuse,splitk", "fuse,tile", "decompose,fuse,tile,pipeline",
                  "decompose,fuse,splitk,pipeline{stage-in=auto},pdl,convert-tile-to-gpu"]

for path in examples:
    text = open(path).read()
    write("opt", text)
    write("translate", text)
    for p in main_pipelines:
        write("opt", "//! %s\n%s" % (p, text))
    for args in (["--fuse"], ["--fuse", "--tile"]):
        lowered = run([opt, "--mlir-print-debuginfo=false"] + args + [path])
        if lowered:
            write("translate", lowered)

for path in lit:
    text = open(path).read()
    pls = pipelines(text)
    for chunk in chunks(text):
        if not chunk.strip():
            continue
        write("opt", chunk)
        write("translate", chunk)
        for p in pls:
            write("opt", "//! %s\n%s" % (p, chunk))

# Tuning caches (fuzz-opt's `//--- tune-cache` part): each `#--- NAME.txt` file of the
# tune-cache lit tests after the dot programs of the same tests.
def split_files(text):
    return dict(re.findall(r"^#--- (\S+)\n(.*?)(?=^#--- |\Z)", text, re.M | re.S))


tune_tests = sorted(glob.glob(os.path.join(root, "test", "lit", "tt-opt", "tune-cache*.test")))
parts = {}
for test in tune_tests:
    parts.update(split_files(open(test).read()))
programs = [t for n, t in parts.items() if n.endswith(".mlir") and "matmul" in t]
for name, cache in parts.items():
    if name.endswith(".txt"):
        for prog in programs:
            write("opt", "//! decompose,fuse,splitk,pipeline{stage-in=auto}\n%s\n//--- tune-cache\n%s"
                  % (prog, cache))

for test in glob.glob(os.path.join(root, "test", "lit", "tt-translate", "*.test")):
    for arch in set(re.findall(r"tt-translate[^|]*--arch=(\S+)", open(test).read())):
        for path in examples[:4]:
            write("translate", "//! %s\n%s" % (arch, open(path).read()))


def meta_lines(text):
    return "".join(l + "\n" for l in text.splitlines() if l.startswith("//@"))


for path in examples + sorted(glob.glob(os.path.join(root, "test", "lit", "tt-translate",
                                                      "Inputs", "*.mlir"))):
    fused = run([opt, "--decompose", "--fuse", "--splitk", path])
    ptx = fused and run([translate, "--ptx"], stdin=fused)
    if ptx:
        write("meta", meta_lines(ptx))
for path in glob.glob(os.path.join(root, "test", "lit", "**", "*.ptx"), recursive=True):
    m = meta_lines(open(path, errors="replace").read())
    if m:
        write("meta", m)
# the .ptx sections of split-file tests (`//--- NAME.ptx` up to the next `//--- `)
for path in glob.glob(os.path.join(root, "test", "lit", "**", "*.test"), recursive=True):
    for part in re.split(r"^//--- ", open(path, errors="replace").read(), flags=re.M)[1:]:
        name, _, body = part.partition("\n")
        if name.strip().endswith(".ptx") and meta_lines(body):
            write("meta", meta_lines(body))

for t in ("opt", "translate", "meta"):
    print("%s: %d seeds" % (t, len(os.listdir(os.path.join(out, t)))))
