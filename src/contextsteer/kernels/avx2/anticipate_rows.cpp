// anticipate_rows for the AVX2 set (8 lanes): see dispatch.hpp.
#include "contextsteer/kernels/avx2/target.hpp"
// The kernel, compiled for the set above.
#include "contextsteer/kernels/wide/anticipate_rows.inl"
