// The baseline set: 4 lanes, compiled for the build's own target (SSE2 on x86-64, NEON on
// ARM64). Included first by every file of this folder; see dispatch.hpp.
#pragma once

#include "contextsteer/kernels/simd.hpp"

#define CONTEXTSTEER_KERNEL_SET_CHOSEN 1  // checked by the wide kernels

#ifdef CONTEXTSTEER_SIMD
#define CONTEXTSTEER_KERNEL_SET baseline
#define CONTEXTSTEER_KERNEL_LANES 4  // kLanes, for the preprocessor
#define CONTEXTSTEER_KERNEL_TARGET

namespace contextsteer::baseline {
constexpr int kLanes = 4;       // the lanes of every kernel
constexpr int kSweepLanes = 4;  // the slots the pass by pairs sweeps at a time
}  // namespace contextsteer::baseline
#endif
