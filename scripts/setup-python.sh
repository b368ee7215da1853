#!/usr/bin/env bash
# The Python front door's environment: a virtual environment .venv/ at the repository's
# root with PyTorch (from PyPI), numpy and pytest, and tt's Python package (python/,
# installed editable). Run by scripts/test.sh; run it alone to use `import tt`:
#   bash scripts/setup-python.sh && .venv/bin/python -c "import tt"
# PyTorch is pinned (the importer reads torch.export's graphs, whose forms change).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if ! /usr/bin/python3 -c "import ensurepip" 2> /dev/null; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv
fi
[ -x .venv/bin/python ] || /usr/bin/python3 -m venv .venv
.venv/bin/python -c "import torch, numpy, pytest" 2> /dev/null ||
  .venv/bin/pip install -q "torch==2.11.0" numpy pytest
.venv/bin/pip install -q --no-deps -e python
