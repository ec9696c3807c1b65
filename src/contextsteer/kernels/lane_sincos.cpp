#include "contextsteer/kernels/lane_sincos.hpp"

#include "contextsteer/kernels/dispatch.hpp"

namespace contextsteer {

void sincos_rows(const Real* angles, int count, Real* sines, Real* cosines) {
  if (const KernelTable* kernels = vector_kernels()) return kernels->sincos_rows(angles, count, sines, cosines);
  for (int i = 0; i < count; ++i) lane_sincos(angles[i], sines[i], cosines[i]);
}

}  // namespace contextsteer
