// SpatialGrid::check_pile: the refusal of more agents in one cell than a step or an
// evaluation takes, naming the count, the place and the cell.
#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/scene/spatial_grid.hpp"

namespace contextsteer {

void SpatialGrid::check_pile(const Real* positions, const char* call, const char* advice) const {
  if (most_in_cell_ <= kMaxAgentsInOneCell) return;
  const Vec2 p = load(positions, static_cast<std::size_t>(order()[first_of_fullest_cell()]));
  throw std::invalid_argument(
      "positions: " + std::to_string(most_in_cell_) + " agents lie in one cell of the neighbour grid (rows of " +
      format_real(row_height()) + " m, near (" + format_real(p.x) + ", " + format_real(p.y) + ")); " + call +
      " takes at most " + std::to_string(kMaxAgentsInOneCell) + " there, as each of them meets every other: " + advice);
}

}  // namespace contextsteer
