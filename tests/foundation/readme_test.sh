#!/usr/bin/env bash
# Each example examples/readme/NAME.cpp must appear word for word, as one
# ```cpp block, in README.md or in a page of docs/manual/:
# usage readme_test.sh SOURCE_DIR NAME...
set -euo pipefail
python3 - "$@" <<'PY'
import sys, pathlib
src = pathlib.Path(sys.argv[1])
pages = [src / "README.md"] + sorted((src / "docs/manual").glob("*.md"))
blocks = [b.split("```")[0].strip()
          for page in pages for b in page.read_text().split("```cpp\n")[1:]]
missing = [n for n in sys.argv[2:]
           if (src / "examples/readme" / f"{n}.cpp").read_text().strip() not in blocks]
for n in missing:
    print(f"neither README.md nor docs/manual/*.md quotes examples/readme/{n}.cpp word for word")
sys.exit(1 if missing else 0)
PY
