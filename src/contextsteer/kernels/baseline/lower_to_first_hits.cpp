// lower_to_first_hits for the baseline set (4 lanes): see dispatch.hpp.
#include "contextsteer/kernels/baseline/target.hpp"
// The kernel, compiled for the set above.
#include "contextsteer/kernels/wide/lower_to_first_hits.inl"
