// anticipate_rows for the baseline set (4 lanes): see dispatch.hpp.
#include "contextsteer/kernels/baseline/target.hpp"
// The kernel, compiled for the set above.
#include "contextsteer/kernels/wide/anticipate_rows.inl"
