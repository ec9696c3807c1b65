#!/usr/bin/env bash
# The Python module under AddressSanitizer and UndefinedBehaviorSanitizer: builds
# contextsteer._core with both (into build/sanitize), puts it beside this checkout's
# Python sources in build/sanitize/site/contextsteer, and runs pytest against it
# with the sanitizer runtime preloaded (CPython itself is not instrumented, so the
# runtime must be loaded before anything else; libstdc++ too, so that the runtime's
# interceptors see C++ exceptions thrown across the module). Any report aborts the test
# process: a non-zero exit.
#
#   tests/sanitize_python.sh             the tests that drive the world and the maps the
#                                        hardest (state written during steps, bad
#                                        values, views, the fuzzer)
#   tests/sanitize_python.sh -k sweep    pytest arguments instead, over tests/python
#   FUZZ_EXAMPLES=20000 tests/sanitize_python.sh
#                                        a longer fuzz (examples per fuzz test)
#   tests/sanitize_python.sh --with-cpp-tests [pytest arguments]
#                                        the C++ unit tests too, in the same build (the
#                                        core compiled once for both), built and run by
#                                        ctest beside pytest; a report fails the test it
#                                        comes from
#
# Needs g++ (libasan, libubsan) and the test dependencies of the package; PYTHON picks
# the interpreter (python3 by default). tests/run.sh runs it in its full mode.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
cpp_tests=OFF
if [ "${1:-}" = --with-cpp-tests ]; then
  cpp_tests=ON
  shift
fi
build=build/sanitize

# No recovery: out-of-bounds access, use after free, leaks (in the C++ tests), signed
# overflow, misaligned loads, float-to-int conversions out of range. The Debug build type
# adds -g alone, so -O1 holds (an empty one becomes Release, whose -O3 comes last), and
# pybind11 neither links the module with LTO nor strips its symbols.
pybind11_dir=$("$PYTHON" -c "import pybind11; print(pybind11.get_cmake_dir())")
cmake -S . -B "$build" -DCONTEXTSTEER_BUILD_PYTHON=ON -DCONTEXTSTEER_BUILD_TESTS=$cpp_tests \
  -DCMAKE_BUILD_TYPE=Debug -Dpybind11_DIR="$pybind11_dir" -DPython_EXECUTABLE="$(command -v "$PYTHON")" \
  -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=address,undefined -fsanitize=float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" > /dev/null
cmake --build "$build" --parallel 2 --target _core
if [ $cpp_tests = ON ]; then
  # The C++ tests built and run beside pytest (below): its output follows pytest's.
  { cmake --build "$build" --parallel 2 && ctest --test-dir "$build" --output-on-failure --parallel 2; } \
    > "$build/ctest.log" 2>&1 &
  ctest_pid=$!
fi

echo "== the Python module under AddressSanitizer and UndefinedBehaviorSanitizer"
site=$build/site
rm -rf "$site" && mkdir -p "$site"
cp -r python/contextsteer "$site/"  # the package with its layer subpackages and built-in scenes
rm -rf "$site"/contextsteer/_core*.so && find "$site" -name __pycache__ -prune -exec rm -rf {} +
cp "$build"/_core*.so "$site/contextsteer/"

if [ $# -eq 0 ]; then
  set -- tests/python/model/test_python_behaviors.py tests/python/model/test_recording.py \
    tests/python/package/test_fuzz.py tests/python/package/test_bad_values.py \
    tests/python/model/test_views.py tests/python/model/test_world.py tests/python/model/test_world_agents.py \
    tests/python/model/test_context_map.py tests/python/model/test_pickling.py tests/python/tools/test_live_parameters.py
fi

runtime="$(g++ -print-file-name=libasan.so):$(g++ -print-file-name=libstdc++.so)"
# Leaks: CPython keeps its objects to the end, and reports them all; the C++ tests
# (--with-cpp-tests, tests/run.sh) check the core for leaks instead.
status=0
LD_PRELOAD="$runtime" \
  ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=0" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  PYTHONPATH="$PWD/$site${PYTHONPATH:+:$PYTHONPATH}" \
  CONTEXTSTEER_SANITIZED=1 \
  "$PYTHON" -m pytest -q -p no:cacheprovider --capture=sys "$@" || status=$?  # sys: a report reaches the terminal

if [ $cpp_tests = ON ]; then
  echo "== C++ unit tests under AddressSanitizer and UndefinedBehaviorSanitizer"
  wait $ctest_pid || status=1
  cat "$build/ctest.log"
fi
exit $status
