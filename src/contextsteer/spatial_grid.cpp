#include "spatial_grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "format_real.hpp"

namespace contextsteer {

namespace {

// The part of the plane the cells cover, in metres.
struct Box {
  double x_lo, x_hi, y_lo, y_hi;
};

// The columns and rows that rows of `height` metres, cut into cells half as wide, take
// to cover box.
double columns_over(const Box& box, double height) { return std::floor((box.x_hi - box.x_lo) / (height / 2)) + 1; }
double rows_over(const Box& box, double height) { return std::floor((box.y_hi - box.y_lo) / height) + 1; }
double cell_count(const Box& box, double height) { return columns_over(box, height) * rows_over(box, height); }

// Each pass of trim_outliers counts the agents in this many slices along each axis.
constexpr int kSlices = 1024;

// Narrows [lo, hi] to its slices from the first to the last that `counts` (the agents
// in each of the kSlices slices) says must stay: end slices are dropped while the
// agents they hold, added to those already left out on that side (below, above), stay
// within `allowance`.
void trim_axis(const std::array<int, kSlices>& counts, int allowance, int& below, int& above, double& lo, double& hi) {
  const double slice = (hi - lo) / kSlices;
  int first = 0, last = kSlices - 1;
  while (first < last && below + counts[first] <= allowance) below += counts[first++];
  while (last > first && above + counts[last] <= allowance) above += counts[last--];
  hi = lo + (last + 1) * slice;  // before lo moves
  lo = lo + first * slice;
}

// Shrinks `box`, the agents' bounding box, where it needs more than max_cells cells of
// `height`: a few agents far from the rest (one that wandered off, a spawn point across
// the map) would otherwise make the cells grow for everyone, and a crowd's queries would
// each read thousands of agents. Up to n / 256 agents on each side of each axis are left
// outside the box; their cells clamp to its border ones, which keeps the order of
// positions along each axis, so every query still finds them (see for_each_run). Each
// pass narrows the box up to kSlices times, so a few passes find the crowd from any
// distance; where the crowds themselves are far apart, the cells still grow.
void trim_outliers(const Real* positions, int n, double height, double max_cells, Box& box) {
  const int allowance = n / 256;
  int left = 0, right = 0, bottom = 0, top = 0;  // agents left out on each side so far
  for (int pass = 0; pass < 4 && cell_count(box, height) > max_cells; ++pass) {
    std::array<int, kSlices> xs{}, ys{};
    // Agents outside the box on one axis were left out already; where the box has no
    // width on an axis, every agent falls in its first slice.
    const double x_scale = box.x_hi > box.x_lo ? kSlices / (box.x_hi - box.x_lo) : 0;
    const double y_scale = box.y_hi > box.y_lo ? kSlices / (box.y_hi - box.y_lo) : 0;
    for (int i = 0; i < n; ++i) {
      const double x = positions[2 * i], y = positions[2 * i + 1];
      if (x >= box.x_lo && x <= box.x_hi) ++xs[std::min(kSlices - 1, static_cast<int>((x - box.x_lo) * x_scale))];
      if (y >= box.y_lo && y <= box.y_hi) ++ys[std::min(kSlices - 1, static_cast<int>((y - box.y_lo) * y_scale))];
    }
    const Box before = box;
    if (x_scale > 0) trim_axis(xs, allowance, left, right, box.x_lo, box.x_hi);
    if (y_scale > 0) trim_axis(ys, allowance, bottom, top, box.y_lo, box.y_hi);
    if (box.x_lo == before.x_lo && box.x_hi == before.x_hi && box.y_lo == before.y_lo && box.y_hi == before.y_hi) break;
  }
}

}  // namespace

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
  Box box{lo.x, hi.x, lo.y, hi.y};
  if (cell_count(box, height) > max_cells) trim_outliers(positions, n, height, max_cells, box);
  // The corners the grid keeps, as floats; the cells are counted over those.
  lo = {static_cast<Real>(box.x_lo), static_cast<Real>(box.y_lo)};
  hi = {static_cast<Real>(box.x_hi), static_cast<Real>(box.y_hi)};
  box = {lo.x, hi.x, lo.y, hi.y};
  while (cell_count(box, height) > max_cells || columns_over(box, height) > max_side ||
         rows_over(box, height) > max_side) {
    height *= 2;
  }
  row_height_ = static_cast<Real>(height);
  inv_row_ = static_cast<Real>(1 / height);
  cell_width_ = static_cast<Real>(height / 2);
  inv_width_ = static_cast<Real>(2 / height);
  origin_ = lo;
  // Counted as above, so that there are never more than max_cells (reserved below).
  nx_ = static_cast<int>(columns_over(box, height));
  ny_ = static_cast<int>(rows_over(box, height));
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
  // Only radii that differ need the search for large agents (a float minimum and maximum
  // would keep the loop above from vectorising).
  Real largest = radii_[0];
  if (other_radius) {
    Real smallest = radii_[0];
    for (int k = 1; k < n; ++k) smallest = std::min(smallest, radii_[k]), largest = std::max(largest, radii_[k]);
    usual_radius_ = usual_radius_of(radii_.data(), n, smallest, largest);
  } else {
    usual_radius_ = largest;
  }
  large_count_ = 0;
  if (usual_radius_ < largest) {
    for (int k = 0; k < n; ++k) {
      if (radii_[k] > usual_radius_) large_places_[large_count_++] = k;
    }
  }
}

Real SpatialGrid::usual_radius_of(const Real* radius, int n, Real smallest, Real largest) {
  // No agent more than twice as large as another (the usual case): no pass needed.
  if (2 * smallest > largest || n == 0) return largest;
  // Halve the bar while the agents above it are few, and a small part of all: those are
  // set apart, and the largest radius below the bar is the next candidate.
  Real usual = largest;
  while (usual > 0) {
    const Real bar = usual / 2;
    int above = 0;
    Real below = 0;
    for (int i = 0; i < n; ++i) {
      above += radius[i] > bar;
      below = radius[i] > bar ? below : std::max(below, radius[i]);
    }
    if (above > kMaxLargeAgents || 8 * above > n) break;
    usual = below;
  }
  return usual;
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
