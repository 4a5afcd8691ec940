#!/usr/bin/env bash
# The README's code example is examples/hello.cpp, word for word: check it.
set -euo pipefail
src=$1
python3 - "$src" <<'PY'
import sys, pathlib
src = pathlib.Path(sys.argv[1])
readme = (src / "README.md").read_text()
example = (src / "examples/hello.cpp").read_text().strip()
blocks = readme.split("```cpp\n")[1:]
bodies = [b.split("```")[0].strip() for b in blocks]
sys.exit(0 if example in bodies else "README.md does not contain examples/hello.cpp verbatim")
PY
