#!/usr/bin/env bash
# The C++ core on ARM64 (phones, consoles, Apple silicon and ARM servers run it there):
# cross-compiles the core, its unit tests and the standalone program with Debian's
# aarch64 toolchain and runs them under qemu user emulation. The core's vector kernels
# take their portable path there, and GCC fuses multiply-adds by default, so this is
# where a kernel that differs from its scalar reference, or a test that rounds unlike
# the core, would show. tests/run.sh calls it; it needs g++-aarch64-linux-gnu, qemu-user
# and libgtest-dev (GoogleTest's sources, built here for ARM64).
set -euo pipefail
cd "$(dirname "$0")/../../.."

toolchain="$PWD/tests/cpp/cross/aarch64-linux-gnu.cmake"
build="$PWD/build/arm64"
gtest="$build/googletest-install"

if [ ! -f "$gtest/lib/cmake/GTest/GTestConfig.cmake" ]; then
  cmake -S /usr/src/googletest -B "$build/googletest" -DCMAKE_TOOLCHAIN_FILE="$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF -DCMAKE_INSTALL_PREFIX="$gtest" > /dev/null
  cmake --build "$build/googletest" --parallel 2 > /dev/null
  cmake --install "$build/googletest" > /dev/null
fi

# The standalone program's project with the repository as its subdirectory and the tests
# on: the core compiles once for the tests and the program.
cmake -S tests/cpp/standalone -B "$build/tests" -DCMAKE_TOOLCHAIN_FILE="$toolchain" -DCMAKE_BUILD_TYPE=Release \
  -DCONTEXTSTEER_BUILD_TESTS=ON -DCMAKE_FIND_ROOT_PATH="$gtest" -DGTest_DIR="$gtest/lib/cmake/GTest" > /dev/null
cmake --build "$build/tests" --parallel 2
ctest --test-dir "$build/tests/contextsteer" --output-on-failure --parallel 2  # each case under qemu-aarch64
qemu-aarch64 -L /usr/aarch64-linux-gnu "$build/tests/crowd_crossing"
