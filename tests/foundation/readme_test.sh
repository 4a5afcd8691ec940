#!/usr/bin/env bash
# Each README example examples/readme/NAME.cpp must appear in README.md word
# for word, as one ```cpp block: usage readme_test.sh SOURCE_DIR NAME...
set -euo pipefail
python3 - "$@" <<'PY'
import sys, pathlib
src = pathlib.Path(sys.argv[1])
readme = (src / "README.md").read_text()
blocks = [b.split("```")[0].strip() for b in readme.split("```cpp\n")[1:]]
missing = [n for n in sys.argv[2:]
           if (src / "examples/readme" / f"{n}.cpp").read_text().strip() not in blocks]
for n in missing:
    print(f"README.md does not quote examples/readme/{n}.cpp word for word")
sys.exit(1 if missing else 0)
PY
