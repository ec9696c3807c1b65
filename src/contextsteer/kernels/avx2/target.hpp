// The AVX2 set: 8 lanes, in functions marked target("avx2,popcnt"), run where the CPU has
// them. Included first by every file of this folder; see dispatch.hpp.
#pragma once

#include "contextsteer/kernels/simd.hpp"

#define CONTEXTSTEER_KERNEL_SET_CHOSEN 1  // checked by the wide kernels

#ifdef CONTEXTSTEER_AVX2_DISPATCH
#define CONTEXTSTEER_KERNEL_SET avx2
#define CONTEXTSTEER_KERNEL_LANES 8  // kLanes, for the preprocessor
#define CONTEXTSTEER_KERNEL_TARGET CONTEXTSTEER_TARGET_AVX2

namespace contextsteer::avx2 {
constexpr int kLanes = 8;       // the lanes of every kernel
constexpr int kSweepLanes = 8;  // the slots the pass by pairs sweeps at a time
}  // namespace contextsteer::avx2
#endif
