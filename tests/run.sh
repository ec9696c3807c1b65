#!/usr/bin/env bash
# Runs every test of contextsteer against a fresh build of the current sources: the C++
# unit tests (GoogleTest, through CTest), again under sanitizers, on the scalar paths alone
# and built with Clang, the core alone in a program, both again built for ARM64 and run under qemu, and pytest.
# Exits non-zero on any failure.
#
# It installs what a new machine lacks: from Debian, GoogleTest (libgtest-dev), Clang and,
# for the ARM64 build of the core, the aarch64 cross compiler and qemu's user emulation;
# and the package with its test dependencies from this checkout (pip install ".[test]").
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
{ [ -f /usr/include/gtest/gtest.h ] || [ -f /usr/local/include/gtest/gtest.h ]; } && [ -d /usr/src/googletest ] ||
  missing+=(libgtest-dev)
command -v clang++ > /dev/null || missing+=(clang)
command -v aarch64-linux-gnu-g++ > /dev/null || missing+=(g++-aarch64-linux-gnu)
command -v qemu-aarch64 > /dev/null || missing+=(qemu-user)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

echo "== installing contextsteer with its test dependencies"
python3 -m pip install --quiet ".[test]"

echo "== C++ unit tests"
cmake -S . -B build/cpp-tests -DCONTEXTSTEER_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/cpp-tests --parallel 2
ctest --test-dir build/cpp-tests --output-on-failure

echo "== C++ unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer"
# Any report fails the test it comes from (no recovery): out-of-bounds access, use after
# free, leaks, signed overflow, misaligned loads, float-to-int conversions out of range.
cmake -S . -B build/cpp-sanitize -DCONTEXTSTEER_BUILD_TESTS=ON -DCONTEXTSTEER_BUILD_PYTHON=OFF \
  -DCMAKE_BUILD_TYPE= \
  -DCMAKE_CXX_FLAGS="-O1 -fsanitize=address,undefined -fsanitize=float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  > /dev/null
cmake --build build/cpp-sanitize --parallel 2
ctest --test-dir build/cpp-sanitize --output-on-failure

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

echo "== C++ unit tests and the core alone in a program, built with Clang (as most game engines build)"
CC=clang CXX=clang++ cmake -S . -B build/cpp-clang -DCONTEXTSTEER_BUILD_TESTS=ON -DCONTEXTSTEER_BUILD_PYTHON=OFF \
  -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/cpp-clang --parallel 2
ctest --test-dir build/cpp-clang --output-on-failure
# and a program that links the core with Clang's own default standard (C++14 in Clang 14)
CC=clang CXX=clang++ cmake -S tests/cpp/standalone -B build/standalone-clang -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/standalone-clang --parallel 2
build/standalone-clang/crowd_crossing

echo "== the C++ core alone, installed by CMake and found by find_package (tests/cpp/standalone)"
# The two builds of the program above add the repository as a subdirectory, the other way
# an engine takes the core.
cmake -S . -B build/core-install -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/core-install --parallel 2
rm -rf build/core-prefix
cmake --install build/core-install --prefix build/core-prefix > /dev/null
cmake -S tests/cpp/standalone -B build/standalone-installed -DCONTEXTSTEER_USE_INSTALLED=ON \
  -DCMAKE_PREFIX_PATH="$PWD/build/core-prefix" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/standalone-installed --parallel 2
build/standalone-installed/crowd_crossing

echo "== the C++ core on ARM64: cross-compiled, its tests and the program run under qemu"
bash tests/cpp/cross/run_arm64.sh

echo "== Python tests"
python3 -m pytest
