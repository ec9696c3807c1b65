#include "spatial_grid.hpp"

#include <algorithm>
#include <stdexcept>

#include "format_real.hpp"

namespace contextsteer {

void SpatialGrid::build(const Real* positions, int n, Real row_height, const Real* radius, const LayerMask* layer,
                        const LayerMask* senses) {
  if (!(row_height > 0) || !std::isfinite(row_height))
    throw std::invalid_argument("row_height: expected a finite size > 0 in metres, got " + format_real(row_height));
  n_ = n;
  everyone_senses_everyone_ = true;
  common_radius_ = 0;
  requested_row_height_ = row_height;
  const std::size_t padded = static_cast<std::size_t>(n) + kPadding;
  agents_.resize(padded);
  rank_.resize(n);
  cell_of_.resize(n);
  xs_.resize(padded);
  ys_.resize(padded);
  radii_.resize(padded);
  layers_.resize(padded);
  senses_.resize(padded);
  std::fill(agents_.begin() + n, agents_.end(), -1);
  std::fill(xs_.begin() + n, xs_.end(), Real(0));
  std::fill(ys_.begin() + n, ys_.end(), Real(0));
  std::fill(radii_.begin() + n, radii_.end(), Real(0));
  std::fill(layers_.begin() + n, layers_.end(), LayerMask(0));
  std::fill(senses_.begin() + n, senses_.end(), LayerMask(0));
  if (n == 0) {
    nx_ = ny_ = 1;
    std::fill_n(last_cell_, 4, Real(0));
    cell_start_.assign(2, 0);
    return;
  }
  Vec2 lo = load(positions, 0), hi = lo;
  for (int i = 1; i < n; ++i) {
    const Vec2 p = load(positions, i);
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  // More cells than about 4 per agent only cost memory and empty-cell visits. And no
  // more than 2^24 columns or rows, so that cell_span's floats hold every cell index.
  const double max_cells = 4.0 * n + 64, max_side = 1 << 24;
  double height = row_height;  // the cells are half as wide
  auto columns = [&] { return std::floor((hi.x - lo.x) / (height / 2)) + 1; };
  auto rows = [&] { return std::floor((hi.y - lo.y) / height) + 1; };
  while (columns() * rows() > max_cells || columns() > max_side || rows() > max_side) height *= 2;
  row_height_ = static_cast<Real>(height);
  inv_row_ = static_cast<Real>(1 / height);
  cell_width_ = static_cast<Real>(height / 2);
  inv_width_ = static_cast<Real>(2 / height);
  origin_ = lo;
  nx_ = static_cast<int>(std::floor((hi.x - lo.x) * inv_width_)) + 1;
  ny_ = static_cast<int>(std::floor((hi.y - lo.y) * inv_row_)) + 1;
  origin_lanes_[0] = origin_lanes_[1] = lo.x;
  origin_lanes_[2] = origin_lanes_[3] = lo.y;
  inverse_lanes_[0] = inverse_lanes_[1] = inv_width_;
  inverse_lanes_[2] = inverse_lanes_[3] = inv_row_;
  last_cell_[0] = last_cell_[1] = static_cast<Real>(nx_ - 1);  // exact: at most 2^24 (above)
  last_cell_[2] = last_cell_[3] = static_cast<Real>(ny_ - 1);

  const std::size_t cells = static_cast<std::size_t>(nx_) * ny_;
  // Reserve the largest cell count this n can ever need, so that agents spreading out
  // over later steps never make the grid reallocate.
  cell_start_.reserve(static_cast<std::size_t>(max_cells) + 2);
  cell_start_.assign(cells + 1, 0);
  for (int i = 0; i < n; ++i) {
    const Vec2 p = load(positions, i);
    const int cx = clamp_cell(((p.x - origin_.x) * inv_width_), nx_);
    const int cy = clamp_cell(((p.y - origin_.y) * inv_row_), ny_);
    cell_of_[i] = cy * nx_ + cx;
    ++cell_start_[cell_of_[i] + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) cell_start_[c + 1] += cell_start_[c];
  // Stable placement: agents of one cell keep their index order.
  for (int i = 0; i < n; ++i) {
    const int slot = cell_start_[cell_of_[i]]++;
    agents_[slot] = i;
  }
  // The increments moved every start one cell forward; shift them back.
  for (std::size_t c = cells; c > 0; --c) cell_start_[c] = cell_start_[c - 1];
  cell_start_[0] = 0;
  for (int k = 0; k < n; ++k) {
    const int a = agents_[k];
    rank_[a] = k;
    xs_[k] = positions[2 * a];
    ys_[k] = positions[2 * a + 1];
    radii_[k] = radius ? radius[a] : Real(0);
    layers_[k] = layer ? layer[a] : LayerMask(1);
    senses_[k] = senses ? senses[a] : kAllLayers;
  }
  // Any bit that differs from agent 0's, in one OR (which vectorises), and any radius.
  LayerMask differ = 0;
  int other_radius = 0;
  for (int k = 1; k < n; ++k) {
    differ |= (layers_[k] ^ layers_[0]) | (senses_[k] ^ senses_[0]);
    other_radius |= int(radii_[k] != radii_[0]);
  }
  everyone_senses_everyone_ = differ == 0 && (layers_[0] & senses_[0]) != 0;
  common_radius_ = other_radius ? Real(-1) : radii_[0];
}

bool SpatialGrid::matches(const Real* positions, int n, Real row_height, const Real* radius, const LayerMask* layer,
                          const LayerMask* senses) const {
  if (n != n_ || row_height != requested_row_height_) return false;
  // One branch-free pass: the usual answer (nothing changed) has to look at every agent.
  int differ = 0;
  for (int k = 0; k < n; ++k) {
    const int a = agents_[k];
    differ |= int(!(xs_[k] == positions[2 * a])) | int(!(ys_[k] == positions[2 * a + 1])) |
              int(radii_[k] != (radius ? radius[a] : Real(0))) | int(layers_[k] != (layer ? layer[a] : LayerMask(1))) |
              int(senses_[k] != (senses ? senses[a] : kAllLayers));
  }
  return differ == 0;
}

void SpatialGrid::query(Vec2 p, Real radius, std::vector<int>& out) const {
  for_each_within(p, radius, [&out](const Neighbor& n) { out.push_back(n.agent); });
}

}  // namespace contextsteer
