// agent_danger for the AVX-512 set: see dispatch.hpp.
#include "contextsteer/kernels/avx512/target.hpp"
// The kernel, compiled for the set above.
#include "contextsteer/kernels/wide/agent_danger.inl"
