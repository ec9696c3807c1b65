// The AVX-512 set: the AVX2 kernels' 8 lanes, but each 16 slots of a map row swept in one
// register, in functions marked for AVX-512 F, VL, BW and DQ, run where the CPU has them.
// Included first by every file of this folder; see dispatch.hpp.
#pragma once

#include "contextsteer/kernels/simd.hpp"

#define CONTEXTSTEER_KERNEL_SET_CHOSEN 1  // checked by the wide kernels

#ifdef CONTEXTSTEER_AVX2_DISPATCH
#define CONTEXTSTEER_KERNEL_SET avx512
#define CONTEXTSTEER_KERNEL_LANES 8  // kLanes, for the preprocessor
#define CONTEXTSTEER_KERNEL_TARGET CONTEXTSTEER_TARGET_AVX512

namespace contextsteer::avx512 {
constexpr int kLanes = 8;        // the lanes of every kernel
constexpr int kSweepLanes = 16;  // the slots the pass by pairs sweeps at a time
}  // namespace contextsteer::avx512
#endif
