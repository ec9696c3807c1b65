#include "contextsteer/scene/spatial_grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "contextsteer/base/format_real.hpp"

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

// The most cells a grid, or a region, of `agents` agents takes: more than about 4 per
// agent only cost memory and empty-cell visits.
double max_cells_for(int agents) { return 4.0 * agents + 64; }

// The corners of the bounding box of the count > 0 points point_at(0 .. count - 1), metres.
template <class PointAt>
void bounding_corners(PointAt point_at, int count, Vec2& lo, Vec2& hi) {
  lo = hi = point_at(0);
  for (int i = 1; i < count; ++i) {
    const Vec2 p = point_at(i);
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
}

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

// Shrinks `box`, the bounding box of the `count` agents at point_at(0 .. count - 1)
// (metres), where it
// needs more than max_cells cells of `height`: a few agents far from the rest (one that
// wandered off, a spawn point across the map) would otherwise make the cells grow for
// everyone, and a crowd's queries would each read thousands of agents. Up to count / 256
// agents on each side of each axis are left outside the box; their cells clamp to its
// border ones, which keeps the order of positions along each axis, so every query still
// finds them (see for_each_run). Each pass narrows the box up to kSlices times, so a few
// passes find the crowd from any distance; crowds far apart are left to find_cut.
template <class PointAt>
void trim_outliers(PointAt point_at, int count, double height, double max_cells, Box& box) {
  const int allowance = count / 256;
  int left = 0, right = 0, bottom = 0, top = 0;  // agents left out on each side so far
  for (int pass = 0; pass < 4 && cell_count(box, height) > max_cells; ++pass) {
    std::array<int, kSlices> xs{}, ys{};
    // Agents outside the box on one axis were left out already; where the box has no
    // width on an axis, every agent falls in its first slice.
    const double x_scale = box.x_hi > box.x_lo ? kSlices / (box.x_hi - box.x_lo) : 0;
    const double y_scale = box.y_hi > box.y_lo ? kSlices / (box.y_hi - box.y_lo) : 0;
    for (int m = 0; m < count; ++m) {
      const Vec2 p = point_at(m);
      const double x = p.x, y = p.y;
      if (x >= box.x_lo && x <= box.x_hi) ++xs[std::min(kSlices - 1, static_cast<int>((x - box.x_lo) * x_scale))];
      if (y >= box.y_lo && y <= box.y_hi) ++ys[std::min(kSlices - 1, static_cast<int>((y - box.y_lo) * y_scale))];
    }
    const Box before = box;
    if (x_scale > 0) trim_axis(xs, allowance, left, right, box.x_lo, box.x_hi);
    if (y_scale > 0) trim_axis(ys, allowance, bottom, top, box.y_lo, box.y_hi);
    if (box.x_lo == before.x_lo && box.x_hi == before.x_hi && box.y_lo == before.y_lo && box.y_hi == before.y_hi) break;
  }
}

// A line across which to cut the `count` agents at `points` (metres), whose box is
// `box` (bounding them, but for strays trim_outliers left out): the middle of the widest
// stretch along x or y, among kSlices slices of the box, where none of them lies (strays
// included). Only a stretch over four rows of `height` wide serves, and only if every
// agent lies more than `separation` (two rows, as floats) from the line, in the float
// sums a query makes: a disc of that radius around any agent then stays on its side.
bool find_cut(const Vec2* points, int count, const Box& box, double height, Real separation, int& axis, Real& at) {
  const double lo[2] = {box.x_lo, box.y_lo}, hi[2] = {box.x_hi, box.y_hi};
  double scale[2];
  for (int a = 0; a < 2; ++a) scale[a] = hi[a] > lo[a] ? kSlices / (hi[a] - lo[a]) : 0;
  std::array<int, kSlices> counts[2]{};
  for (int m = 0; m < count; ++m) {
    const double c[2] = {points[m].x, points[m].y};
    for (int a = 0; a < 2; ++a) {
      if (c[a] >= lo[a] && c[a] <= hi[a])
        ++counts[a][std::min(kSlices - 1, static_cast<int>((c[a] - lo[a]) * scale[a]))];
    }
  }
  double widest = 4 * height;
  for (int a = 0; a < 2; ++a) {
    const double slice = (hi[a] - lo[a]) / kSlices;
    // Empty runs between occupied slices only: the box's ends hold agents.
    int run_start = 0;
    for (int s = 0; s < kSlices; ++s) {
      if (counts[a][s] == 0) continue;
      const int empty = s - run_start;
      if (run_start > 0 && empty * slice > widest) {
        widest = empty * slice;
        axis = a;
        at = static_cast<Real>(lo[a] + (run_start + empty / 2.0) * slice);
      }
      run_start = s + 1;
    }
  }
  if (widest == 4 * height) return false;
  Real below = -std::numeric_limits<Real>::infinity(), above = std::numeric_limits<Real>::infinity();
  for (int m = 0; m < count; ++m) {
    const Real c = axis == 0 ? points[m].x : points[m].y;
    if (c < at) {
      below = std::max(below, c);
    } else {
      above = std::min(above, c);
    }
  }
  return below + separation < at && above - separation >= at;
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
  region_count_ = 1, most_in_cell_ = 0;
  separation_ = std::numeric_limits<Real>::infinity();
  row_column_.clear(), row_cell_.clear();
  if (n == 0) {
    size_region(regions_[0], 0, 0, 0, 0, row_height, 1, 0);
    regions_[0].first_row = 0;
    tallest_row_ = row_height, inv_shortest_row_ = 1 / row_height;
    cell_start_.assign(2, 0);
    row_count_ = 1;
    return;
  }
  const auto position_at = [positions](int i) { return load(positions, i); };
  Vec2 lo, hi;
  bounding_corners(position_at, n, lo, hi);
  if (!(std::isfinite(hi.x - lo.x) && std::isfinite(hi.y - lo.y)))  // NaN, inf, or spans beyond float
    throw std::invalid_argument("positions: expected finite values whose spans are finite, got NaN or beyond");
  const double max_cells = max_cells_for(n);
  // Reserve the largest cell count this n can ever need (each region may take 64 over 4
  // per agent), so that agents spreading out over later steps never make the grid reallocate.
  cell_start_.reserve(static_cast<std::size_t>(max_cells) + 64 * kMaxRegions + 2);
  // And the region of each place, for a crowd that splits into groups only later (a byte
  // per agent).
  region_of_place_.reserve(static_cast<std::size_t>(n));
  const bool sparse = cell_count(Box{lo.x, hi.x, lo.y, hi.y}, row_height) > max_cells;
  if (sparse) {
    plan_regions(positions, row_height, lo, hi);
  } else {
    size_region(regions_[0], lo.x, hi.x, lo.y, hi.y, row_height, max_cells, 0);
  }
  tallest_row_ = 0, inv_shortest_row_ = 0;
  row_count_ = 0;
  for (int r = 0; r < region_count_; ++r) {
    Region& g = regions_[r];
    tallest_row_ = std::max(tallest_row_, g.row_height);
    inv_shortest_row_ = std::max(inv_shortest_row_, g.inv_row);
    g.first_row = row_count_;
    row_count_ += g.ny;
  }
  const int cells = regions_[region_count_ - 1].end_cell;

  cell_start_.assign(static_cast<std::size_t>(cells) + 1, 0);
  auto count_in = [&](const Region& g, int i) {
    const Vec2 p = load(positions, i);
    const int cx = column_of(g, p), cy = row_of(g, p);
    // In a fitted row, cx lies within the row's columns: they were found from it.
    cell_of_[i] =
        g.fitted ? row_cell_[g.rows_from + cy] + cx - row_column_[g.rows_from + cy] : g.first_cell + cy * g.nx + cx;
    ++cell_start_[cell_of_[i] + 1];
  };
  if (region_count_ > 1) {  // members_ lists the agents region by region
    for (int r = 0; r < region_count_; ++r) {
      for (int m = region_range_[r]; m < region_range_[r + 1]; ++m) count_in(regions_[r], members_[m]);
    }
  } else {
    for (int i = 0; i < n; ++i) count_in(regions_[0], i);
  }
  for (int c = 0; c < cells; ++c) {
    most_in_cell_ = std::max(most_in_cell_, cell_start_[c + 1]);  // still cell c's count
    cell_start_[c + 1] += cell_start_[c];
  }
  // Stable placement: agents of one cell keep their index order.
  for (int i = 0; i < n; ++i) {
    const int slot = cell_start_[cell_of_[i]]++;
    agents_[slot] = i;
  }
  // The increments moved every start one cell forward; shift them back.
  for (int c = cells; c > 0; --c) cell_start_[c] = cell_start_[c - 1];
  cell_start_[0] = 0;
  if (region_count_ > 1) {
    region_of_place_.resize(n);
    for (int r = 0; r < region_count_; ++r) {
      std::fill(region_of_place_.begin() + cell_start_[regions_[r].first_cell],
                region_of_place_.begin() + cell_start_[regions_[r].end_cell], static_cast<std::uint8_t>(r));
    }
  }
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

void SpatialGrid::size_region(Region& g, double x_lo, double x_hi, double y_lo, double y_hi, double row_height,
                              double max_cells, int first_cell) {
  // The corners the grid keeps, as floats; the cells are counted over those.
  const Vec2 lo{static_cast<Real>(x_lo), static_cast<Real>(y_lo)};
  const Box box{lo.x, static_cast<Real>(x_hi), lo.y, static_cast<Real>(y_hi)};
  // No more than 2^24 columns or rows, so that cell_span's floats hold every cell index.
  const double max_side = 1 << 24;
  double height = row_height;  // the cells are half as wide
  while (cell_count(box, height) > max_cells || columns_over(box, height) > max_side ||
         rows_over(box, height) > max_side) {
    height *= 2;
  }
  g.row_height = static_cast<Real>(height);
  g.inv_row = static_cast<Real>(1 / height);
  g.cell_width = static_cast<Real>(height / 2);
  g.inv_width = static_cast<Real>(2 / height);
  g.origin = lo;
  g.nx = static_cast<int>(columns_over(box, height));
  g.ny = static_cast<int>(rows_over(box, height));
  g.first_cell = first_cell;
  // At most max_cells (above), unless fit_rows asked for more, to fit the rows after.
  g.end_cell = static_cast<int>(std::min<double>(first_cell + double(g.nx) * g.ny, std::numeric_limits<int>::max()));
  g.origin_lanes[0] = g.origin_lanes[1] = lo.x;
  g.origin_lanes[2] = g.origin_lanes[3] = lo.y;
  g.inverse_lanes[0] = g.inverse_lanes[1] = g.inv_width;
  g.inverse_lanes[2] = g.inverse_lanes[3] = g.inv_row;
  g.last_cell[0] = g.last_cell[1] = static_cast<Real>(g.nx - 1);  // exact: at most 2^24 (above)
  g.last_cell[2] = g.last_cell[3] = static_cast<Real>(g.ny - 1);
  g.fitted = false;
  g.rows_from = 0;
}

void SpatialGrid::fit_rows(Region& g, double x_lo, double x_hi, double y_lo, double y_hi, double row_height,
                           double max_cells, const Vec2* points, int count) {
  if (g.row_height == static_cast<Real>(row_height)) return;  // the cells kept their size
  // The rows and columns as asked, if floats count them exactly (size_region's bound) and
  // there are few enough rows.
  Region fitted;
  size_region(fitted, x_lo, x_hi, y_lo, y_hi, row_height, std::numeric_limits<double>::infinity(), g.first_cell);
  if (fitted.row_height != static_cast<Real>(row_height) || fitted.ny > max_cells) return;
  // Each row's first and last column, in the tables' room for this region (reserved for
  // every region's worst case once, so that later builds allocate nothing).
  const std::size_t from = row_cell_.size(), ny = static_cast<std::size_t>(fitted.ny);
  const std::size_t room = static_cast<std::size_t>(max_cells_for(n_)) + 65 * kMaxRegions + 2;
  if (row_cell_.capacity() < room) row_column_.reserve(room), row_cell_.reserve(room);
  // An empty row spans columns nx to -1: no columns (below, its width counts as 0).
  row_column_.resize(from + ny + 1, fitted.nx);
  row_cell_.resize(from + ny + 1, -1);
  int* first = row_column_.data() + from;
  int* last = row_cell_.data() + from;
  // The cells the rows need so far, kept as the rows widen, so that a shape they would
  // not serve (a ring: most rows as wide as the box) is given up early.
  long long cells = 0;
  for (int m = 0; m < count; ++m) {
    const int cy = row_of(fitted, points[m]), cx = column_of(fitted, points[m]);
    const int before = std::max(0, last[cy] - first[cy] + 1);
    first[cy] = std::min(first[cy], cx), last[cy] = std::max(last[cy], cx);
    cells += last[cy] - first[cy] + 1 - before;
    if (m % 1024 == 0 && cells > max_cells) break;
  }
  // Each row's first cell (an empty row keeps one, in column 0), and the count of all.
  if (cells <= max_cells) {
    cells = 0;
    for (std::size_t r = 0; r < ny; ++r) {
      if (last[r] < 0) first[r] = last[r] = 0;
      const int columns = last[r] - first[r] + 1;
      last[r] = static_cast<int>(cells);
      cells += columns;
    }
  }
  if (cells > max_cells) {  // a ring, say: fitted rows would not serve
    row_column_.resize(from), row_cell_.resize(from);
    return;
  }
  for (std::size_t r = 0; r < ny; ++r) last[r] += g.first_cell;
  last[ny] = g.first_cell + static_cast<int>(cells);
  fitted.fitted = true;
  fitted.rows_from = static_cast<int>(from);
  fitted.end_cell = last[ny];
  g = fitted;
}

void SpatialGrid::plan_regions(const Real* positions, double row_height, Vec2 lo, Vec2 hi) {
  const int n = n_;
  // A few strays, the usual cause of a sparse box, are trimmed off the whole first.
  Box whole{lo.x, hi.x, lo.y, hi.y};
  trim_outliers([positions](int i) { return load(positions, i); }, n, row_height, max_cells_for(n), whole);
  if (cell_count(whole, row_height) <= max_cells_for(n)) {
    size_region(regions_[0], whole.x_lo, whole.x_hi, whole.y_lo, whole.y_hi, row_height, max_cells_for(n), 0);
    return;
  }
  // The agents and their positions side by side, so that every pass below reads them in
  // order; each cut partitions both.
  members_.resize(n);
  member_at_.resize(n);
  std::iota(members_.begin(), members_.end(), 0);
  for (int i = 0; i < n; ++i) member_at_[i] = load(positions, i);
  // The parts of the agents still to look at, breadth first, each a range of members_:
  // cut in two if too sparse, or else trimmed of its strays and made a region. `link`
  // says where the tree points to it: -1 the root, else 2 * cut + side.
  struct Part {
    int begin, end;
    Box bound;  // its parent's box: the strays the parent left out stay out
    int link;
    Box box;
  };
  std::array<Part, 2 * kMaxRegions> parts;
  parts[0] = {0, n, whole, -1, {}};  // its bounding box clamps to the trimmed one
  int part_count = 1, cut_count = 0, leaves = 1;
  const Real separation = static_cast<Real>(2 * row_height);
  // Where the tree points to part i as a leaf, ~i for now, renumbered below.
  auto link_to = [&](int link, int code) {
    if (link >= 0) cuts_[link / 2].child[link % 2] = code;
  };
  for (int i = 0; i < part_count; ++i) {
    Part& part = parts[i];
    const Vec2* points = member_at_.data() + part.begin;
    const auto point_at = [points](int m) { return points[m]; };
    const int count = part.end - part.begin;
    // Its agents' bounding box, clamped into its parent's (a lone stray's may lie outside);
    // the whole's is known.
    Vec2 low = lo, high = hi;
    if (i > 0) bounding_corners(point_at, count, low, high);
    const Box& bound = part.bound;
    part.box = {std::clamp<double>(low.x, bound.x_lo, bound.x_hi), std::clamp<double>(high.x, bound.x_lo, bound.x_hi),
                std::clamp<double>(low.y, bound.y_lo, bound.y_hi), std::clamp<double>(high.y, bound.y_lo, bound.y_hi)};
    const double max_cells = max_cells_for(count);
    Cut cut;
    if (cell_count(part.box, row_height) > max_cells && leaves < kMaxRegions &&
        find_cut(points, count, part.box, row_height, separation, cut.axis, cut.at)) {
      // Side 0 first, in both arrays.
      const auto side_0 = [&](Vec2 p) { return (cut.axis == 0 ? p.x : p.y) < cut.at; };
      int front = part.begin, back = part.end - 1;
      while (true) {
        while (front <= back && side_0(member_at_[front])) ++front;
        while (front <= back && !side_0(member_at_[back])) --back;
        if (front >= back) break;
        std::swap(member_at_[front], member_at_[back]);
        std::swap(members_[front], members_[back]);
      }
      cuts_[cut_count] = cut;
      link_to(part.link, cut_count);
      parts[part_count++] = {part.begin, front, part.box, 2 * cut_count, {}};
      parts[part_count++] = {front, part.end, part.box, 2 * cut_count + 1, {}};
      ++cut_count, ++leaves;
    } else {
      // Parts are trimmed only where they cannot be cut; the whole (part 0) was already.
      if (i > 0 && cell_count(part.box, row_height) > max_cells) {
        trim_outliers(point_at, count, row_height, max_cells, part.box);
      }
      link_to(part.link, ~i);
    }
  }
  // Number the regions depth first, side 0 first: the order regions_reached visits them
  // in, and the order of their members, which the partitions left in runs.
  region_count_ = 0;
  int first_cell = 0;
  auto make_region = [&](int i) {
    const Part& part = parts[i];
    Region& g = regions_[region_count_];
    const int count = part.end - part.begin;
    size_region(g, part.box.x_lo, part.box.x_hi, part.box.y_lo, part.box.y_hi, row_height, max_cells_for(count),
                first_cell);
    fit_rows(g, part.box.x_lo, part.box.x_hi, part.box.y_lo, part.box.y_hi, row_height, max_cells_for(count),
             member_at_.data() + part.begin, count);
    first_cell = g.end_cell;
    region_range_[region_count_] = part.begin;
    region_range_[region_count_ + 1] = part.end;
    return ~region_count_++;
  };
  if (cut_count == 0) {
    make_region(0);
    return;
  }
  separation_ = separation;
  // The stack holds links (2 * cut + side), side 0 on top.
  int stack[2 * kMaxRegions], top = 0;
  stack[top++] = 1, stack[top++] = 0;
  while (top > 0) {
    const int link = stack[--top];
    int& child = cuts_[link / 2].child[link % 2];
    if (child < 0) {
      child = make_region(~child);
    } else {
      stack[top++] = 2 * child + 1, stack[top++] = 2 * child;
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
