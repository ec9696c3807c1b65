"""Checks a built wheel before it is installed (tests/run.sh --full):

    python tests/check_wheel.py build/wheelhouse/contextsteer-*.whl

a manylinux platform tag, a size of a few hundred KB, the compiled module, the type
information, the LICENSE in its dist-info, and the version of CMakeLists.txt.
"""

import re
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_BYTES = 2_000_000  # the module, the Python sources and the stubs; no library vendored


def main(path: str) -> None:
    wheel = Path(path)
    version = re.search(r"project\(contextsteer VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())[1]
    problems = []
    if not re.fullmatch(rf"contextsteer-{re.escape(version)}-cp\d+-cp\d+t?-manylinux\S+\.whl", wheel.name):
        problems.append(f"expected contextsteer-{version}-<python>-manylinux_*.whl, got {wheel.name}")
    size = wheel.stat().st_size
    if size > MAX_BYTES:
        problems.append(f"expected at most {MAX_BYTES} bytes, got {size}")
    names = zipfile.ZipFile(wheel).namelist()
    dist_info = f"contextsteer-{version}.dist-info"
    expected = {
        "the compiled module": r"contextsteer/_core\..*(so|pyd)",
        "the package": r"contextsteer/__init__\.py",
        "the stubs": r"contextsteer/_core\.pyi",
        "py.typed": r"contextsteer/py\.typed",
        "the old module paths": r"contextsteer/_module_paths\.py",
        "the built-in scenes": r"contextsteer/scenes/builtin/corridor\.toml",
        "the LICENSE": rf"{dist_info}/(licenses/)?LICENSE",
        "the metadata": rf"{dist_info}/METADATA",
        **{f"the layer {layer}": rf"contextsteer/{layer}/__init__\.py"
           for layer in ("_internal", "model", "recipes", "analysis", "scenes", "tools")},
    }
    for what, pattern in expected.items():
        if not any(re.fullmatch(pattern, name) for name in names):
            problems.append(f"{what} is missing ({pattern})")
    vendored = [name for name in names if ".libs/" in name]
    if vendored:
        problems.append(f"expected no vendored libraries, got {vendored}")
    if problems:
        sys.exit(f"{wheel.name}:\n  " + "\n  ".join(problems))
    print(f"{wheel.name}: {size // 1024} KB, {len(names)} files, LICENSE in {dist_info}")


if __name__ == "__main__":
    main(sys.argv[1])
