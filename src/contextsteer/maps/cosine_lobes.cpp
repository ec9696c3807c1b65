#include "contextsteer/maps/cosine_lobes.hpp"

#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"

namespace contextsteer {

void add_cosine_lobes(Real* rows, const SlotDirections& dirs, const Lobe* lobes, int count, bool sum) {
  const int slots = dirs.slots();
  const KernelTable* kernels = vector_kernels();
  if (kernels && slots % kernels->lanes == 0) return kernels->add_cosine_lobes(rows, dirs, lobes, count, sum);
  for (int l = 0; l < count; ++l) {
    cosine_lobe(rows + static_cast<std::size_t>(lobes[l].row) * slots, dirs.x(), dirs.y(), slots, lobes[l].x,
                lobes[l].y, lobes[l].bias, sum);
  }
}

void check_sideways(Real sideways) {
  if (!(sideways >= 0 && sideways < 1)) {
    throw std::invalid_argument("sideways: expected a share of the peak in [0, 1), got " + format_real(sideways));
  }
}

Lobe* lobe_buffer() {
  thread_local Lobe lobes[kLobeChunk];
  return lobes;
}

}  // namespace contextsteer
