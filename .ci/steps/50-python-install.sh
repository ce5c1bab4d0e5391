# ci-step: Python: the documented offline install into a fresh venv, then an import and one call
#
# docs/python.md's install command, verbatim: a virtual environment over Debian's packages
# (--system-site-packages: numpy, pybind11, setuptools), then pip without build isolation and
# without an index, so nothing is downloaded. The module itself is built and tested by the dev
# workflow (ctest's python.* tests); this checks the other way in.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/dmlref-python.XXXXXX")
trap 'rm -rf "$work" "$root/python/build" "$root"/python/*.egg-info' EXIT

install='/usr/bin/python3 -m venv --system-site-packages "$VENV" && "$VENV/bin/pip" install --no-build-isolation --no-index ./python'
if ! grep -qF "$install" docs/python.md; then
  echo "docs/python.md no longer contains the install command: $install" >&2
  echo "Update .ci/steps/50-python-install.sh and docs/python.md together." >&2
  exit 1
fi
export VENV="$work/venv"
printf '$ %s\n' "$install"
bash -c "$install" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
tail -n 1 "$work/install.log"

# From another directory, so that the checkout's python/dmlref (without the extension) is not
# what gets imported.
cd "$work"
"$VENV/bin/python" - <<'PY'
import os
import numpy as np
import dmlref

package = os.path.dirname(dmlref.__file__)
assert package.startswith(os.environ["VENV"]), package
for name in ("__init__.pyi", "onnx.pyi", "testing.pyi", "_provenance.pyi", "py.typed"):
    assert os.path.exists(os.path.join(package, name)), name
table = np.arange(12, dtype=np.float16).reshape(3, 4)
out = dmlref.gather(table, np.array([[2, -1, 0]], dtype=np.int64), 0)
assert out.tolist() == [[8, 9, 10, 11], [8, 9, 10, 11], [0, 1, 2, 3]], out
assert dmlref.onnx.gather(table, 1, axis=1).tolist() == [1, 5, 9]
try:
    dmlref.gather(table, np.array([3]))
except dmlref.IndexOutOfRangeError as e:
    assert e.code == "index_out_of_range" and e.position == (0, 0), e
else:
    raise AssertionError("an out-of-range index was accepted")
# explain_* builds its result from dmlref/_provenance.py, which the install must have brought.
p = dmlref.explain_gather(table, np.array([2]), at=(0, 1))
assert str(p) == "output[0,1] = 9 (0x4880) = input[2,1], from indices[0,0] = 2 → 2 (Axis 0)", str(p)
from dmlref.testing import assert_golden
assert_golden(out, "gather", table, np.array([[2, -1, 0]], dtype=np.int64), 0)
print("dmlref %s installed in %s: gather, onnx.gather, IndexOutOfRangeError, explain_gather and assert_golden "
      "as expected" % (dmlref.__version__, package))
PY
