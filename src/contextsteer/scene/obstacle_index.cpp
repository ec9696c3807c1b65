#include "contextsteer/scene/obstacle_index.hpp"

#include <limits>

namespace contextsteer {
namespace {

// Columns and rows of a grid at most: keys (row * columns + column) fit in 48 bits, and
// a float holds every cell index exactly.
constexpr int kMaxSide = 1 << 24;

// A grid of columns x rows square cells of side `side`, from `origin`.
struct Grid {
  Vec2 origin;
  Real side = 1;
  int columns = 0, rows = 0;
  int column(Real x) const { return cell_step(x, origin.x, side, columns, 0); }
  int row(Real y) const { return cell_step(y, origin.y, side, rows, 0); }
  std::int64_t key(int column, int row) const { return static_cast<std::int64_t>(row) * columns + column; }
};

// The grid from box.min with room for box.max: its cell by the very float operations
// cell_step makes, so that no point of the box rounds past the last column or row.
Grid grid_over(Bounds box, Real side) {
  auto cells = [&](Real low, Real high) {
    return static_cast<int>(std::min(static_cast<Real>(kMaxSide - 1), std::floor((high - low) / side))) + 1;
  };
  return {box.min, side, cells(box.min.x, box.max.x), cells(box.min.y, box.max.y)};
}

// The obstacles to index, with the box of each.
struct ItemBoxes {
  const std::vector<Circle>& circles;
  const std::vector<Segment>& walls;
  const std::vector<Bounds>& polygon_boxes;

  static constexpr int kCircle = 0, kWall = 1;  // and 2, polygons
  std::size_t count(int kind) const {
    return kind == kCircle ? circles.size() : kind == kWall ? walls.size() : polygon_boxes.size();
  }
  Bounds box(int kind, std::size_t i) const {
    if (kind == kCircle) {
      const Circle& c = circles[i];
      return {{c.centre.x - c.radius, c.centre.y - c.radius}, {c.centre.x + c.radius, c.centre.y + c.radius}};
    }
    if (kind == kWall) {
      const Segment& w = walls[i];
      return {{std::min(w.a.x, w.b.x), std::min(w.a.y, w.b.y)}, {std::max(w.a.x, w.b.x), std::max(w.a.y, w.b.y)}};
    }
    return polygon_boxes[i];
  }

  // Whether item i may cross more than kLongCells cells of g: for a wall, the rows and
  // columns it may span (a segment crosses at most their sum), else its box's cells.
  // Counted from its size alone, one cell more each way for where it falls.
  bool is_long(const Grid& g, int kind, std::size_t i) const {
    const Bounds b = box(kind, i);
    const Real columns = (b.max.x - b.min.x) / g.side + 2, rows = (b.max.y - b.min.y) / g.side + 2;
    return (kind == kWall ? columns + rows : columns * rows) > ObstacleIndex::kLongCells;
  }

  // Calls run(row, first column, last column) for the cells of g that item i reaches
  // into: those of its box, or for a wall, row by row, those of the part of it within
  // the row, widened by `margin` metres on every side against rounding.
  template <class Run>
  void runs(const Grid& g, int kind, std::size_t i, Real margin, Run&& run) const {
    if (kind != kWall) {
      const Bounds b = box(kind, i);
      const int c0 = g.column(b.min.x), c1 = g.column(b.max.x), r1 = g.row(b.max.y);
      for (int r = g.row(b.min.y); r <= r1; ++r) run(r, c0, c1);
      return;
    }
    const Segment& w = walls[i];
    const Real dx = w.b.x - w.a.x, dy = w.b.y - w.a.y;
    const int r0 = g.row(std::min(w.a.y, w.b.y) - margin), r1 = g.row(std::max(w.a.y, w.b.y) + margin);
    for (int r = r0; r <= r1; ++r) {
      Real t0 = 0, t1 = 1;
      if (r0 < r1 && dy != 0) {
        // The grid's first and last rows reach on without end (cell_step clamps).
        const Real y0 = r == 0 ? -kInfinity : g.origin.y + static_cast<Real>(r) * g.side - margin;
        const Real y1 = r == g.rows - 1 ? kInfinity : g.origin.y + static_cast<Real>(r + 1) * g.side + margin;
        const Real ta = (y0 - w.a.y) / dy, tb = (y1 - w.a.y) / dy;
        t0 = std::max(Real(0), std::min(ta, tb));
        t1 = std::min(Real(1), std::max(ta, tb));
        if (t0 > t1) continue;
      }
      const Real xa = w.a.x + t0 * dx, xb = w.a.x + t1 * dx;
      run(r, g.column(std::min(xa, xb) - margin), g.column(std::max(xa, xb) + margin));
    }
  }
};

// Room for rounding in the wall runs: a 256th of a cell, and a few float steps of the
// largest coordinate.
Real rounding_margin(const Grid& g) {
  const Real magnitude =
      std::max({std::fabs(g.origin.x), std::fabs(g.origin.y), std::fabs(g.origin.x + g.columns * g.side),
                std::fabs(g.origin.y + g.rows * g.side)});
  return g.side / 256 + magnitude * Real(1.0 / (1 << 20));
}

// What lay_out returns when the listings would pass its budget.
constexpr double kOverBudget = std::numeric_limits<double>::infinity();

constexpr Bounds kNoBox{{kInfinity, kInfinity}, {-kInfinity, -kInfinity}};

// The box round boxes a and b.
Bounds united(const Bounds& a, const Bounds& b) {
  return {{std::min(a.min.x, b.min.x), std::min(a.min.y, b.min.y)},
          {std::max(a.max.x, b.max.x), std::max(a.max.y, b.max.y)}};
}

// The box round all the items.
Bounds box_of(const ItemBoxes& items) {
  Bounds all = kNoBox;
  for (int kind = 0; kind < 3; ++kind) {
    for (std::size_t i = 0; i < items.count(kind); ++i) all = united(all, items.box(kind, i));
  }
  return all;
}

// The median over the items of the longer side of each one's box, metres; `sizes` is
// scratch.
Real median_size(const ItemBoxes& items, std::vector<Real>& sizes) {
  sizes.clear();
  for (int kind = 0; kind < 3; ++kind) {
    for (std::size_t i = 0; i < items.count(kind); ++i) {
      const Bounds b = items.box(kind, i);
      sizes.push_back(std::max(b.max.x - b.min.x, b.max.y - b.min.y));
    }
  }
  if (sizes.empty()) return 0;
  std::nth_element(sizes.begin(), sizes.begin() + sizes.size() / 2, sizes.end());
  return sizes[sizes.size() / 2];
}

}  // namespace

struct ObstacleIndex::Items : ItemBoxes {};

void ObstacleIndex::build(const std::vector<Circle>& circles, const std::vector<Segment>& walls,
                          const std::vector<Bounds>& polygon_boxes, CellSizing sizing) {
  const Items items{{circles, walls, polygon_boxes}};
  const Bounds all = box_of(items);
  const Real width = std::max(all.max.x - all.min.x, Real(1e-3)), height = std::max(all.max.y - all.min.y, Real(1e-3));
  const Real count = static_cast<Real>(std::max<std::size_t>(1, circles.size() + walls.size()));
  const std::size_t unlimited = std::numeric_limits<std::size_t>::max();

  // The side: one obstacle per cell of the whole box (at most 1024 cells a side), then
  // smaller while the cells are crowded, down to a quarter of the median obstacle's size
  // (cells smaller than the obstacles do not part them) and within a budget of
  // listings. A side is kept only when it is a quarter less crowded than the coarser one
  // kept: where obstacles overlap, or lie along lines, finer cells part them little and
  // cost a query more cells. (The crowding of a cluster can also rise from one side to
  // the next, as cell edges fall across it or not: the search goes on.)
  Real side = std::max({std::sqrt(width * height / count), width / 1024, height / 1024});
  // Obstacles far larger than one such cell (a pile of them, overlapping) would be listed
  // in too many cells, or apart: the side doubles until they fit the budget and at most
  // kMostApart are apart (at the latest when the cells are as large as the obstacles).
  const std::size_t budget =
      sizing == CellSizing::kSpread ? unlimited : 16 * (circles.size() + walls.size() + polygon_boxes.size()) + 4096;
  if (keep_scratch_ && budget != unlimited) {
    // A finished layout lists no more than the budget: room for it once, for every build.
    spans_.reserve(budget);
    for (int kind = 0; kind < 3; ++kind) lists(kind).items.reserve(budget);
  }
  double crowded;
  while ((crowded = lay_out(items, all, side, budget)) == kOverBudget) side *= 2;
  if (sizing == CellSizing::kSpread) {
    place();
    release_scratch();
    return;
  }
  Real finest = 0, best = side, laid = side;
  double least = crowded;
  for (int round = 1; round < 12 && crowded > kCrowded; ++round) {
    if (round == 1) finest = std::max(std::max(width, height) / (kMaxSide / 2), median_size(items, sizes_) / 4);
    // Scattered over an area, the crowding falls with the square of the side; a cluster
    // smaller than the cells keeps it until the cells are smaller still.
    const Real next = std::max(finest, side * static_cast<Real>(std::max(1.0 / 16, std::sqrt(3 / crowded))));
    if (!(next < side)) break;
    side = next;
    crowded = lay_out(items, all, side, budget);
    if (crowded == kOverBudget) {  // and finer cells would be too; this layout is unfinished
      laid = 0;
      break;
    }
    laid = side;
    if (crowded < Real(0.75) * least) best = side, least = crowded;
  }
  if (laid != best) lay_out(items, all, best, unlimited);
  place();
  release_scratch();
}

void ObstacleIndex::release_scratch() {
  if (keep_scratch_) return;
  spans_ = {};
  for (auto& flags : is_long_) flags = {};
  sizes_ = {};
  next_ = {};
}

double ObstacleIndex::lay_out(const Items& items, const Bounds& all, Real side, std::size_t budget) {
  // The grid over the short obstacles' box; the long ones listed apart.
  const Grid whole = grid_over(all, side);
  long_circles_.clear(), long_walls_.clear(), long_polygons_.clear();
  std::vector<int>* long_lists[3] = {&long_circles_, &long_walls_, &long_polygons_};
  std::vector<char>* is_long = is_long_;
  Bounds held = kNoBox;
  for (int kind = 0; kind < 3; ++kind) {
    is_long[kind].assign(items.count(kind), 0);
    for (std::size_t i = 0; i < items.count(kind); ++i) {
      if (items.is_long(whole, kind, i)) {
        is_long[kind][i] = 1;
        long_lists[kind]->push_back(static_cast<int>(i));
        continue;
      }
      held = united(held, items.box(kind, i));
    }
  }
  if (listed_apart() > kMostApart) return kOverBudget;
  const Grid g = held.min.x <= held.max.x ? grid_over(held, side) : Grid{all.min, side, 0, 0};
  origin_ = g.origin, cell_ = g.side, columns_ = g.columns, rows_ = g.rows;
  const Real margin = rounding_margin(g);
  // The cells of each short item, found once for the passes here and in place(): a run
  // of columns for each row it reaches into.
  spans_.clear();
  spans_.reserve(items.count(0) + items.count(1) + items.count(2));  // one each at least
  std::size_t listings = 0;
  for (int kind = 0; kind < 3; ++kind) {
    for (std::size_t i = 0; i < items.count(kind); ++i) {
      if (is_long[kind][i]) continue;
      items.runs(g, kind, i, margin, [&](int r, int c0, int c1) {
        listings += static_cast<std::size_t>(c1 - c0 + 1);
        spans_.push_back({static_cast<int>(i), r, c0, c1});
      });
      if (listings > budget) return kOverBudget;
    }
    span_kind_end_[kind] = spans_.size();
  }
  // Slots: the cells themselves when the whole grid is small enough, else the occupied
  // ones, numbered in key order and found through the hash table.
  hashed_ = static_cast<std::int64_t>(columns_) * rows_ > kMaxDenseCells;
  slot_keys_.clear(), table_keys_.clear(), table_slots_.clear();
  std::size_t slots = static_cast<std::size_t>(columns_) * rows_;
  if (hashed_) {
    for (int kind = 0; kind < 3; ++kind) each_listing(kind, [&](std::int64_t key, int) { slot_keys_.push_back(key); });
    std::sort(slot_keys_.begin(), slot_keys_.end());
    slot_keys_.erase(std::unique(slot_keys_.begin(), slot_keys_.end()), slot_keys_.end());
    slots = slot_keys_.size();
    int bits = 4;
    while ((std::size_t(1) << bits) < 2 * slots) ++bits;
    table_mask_ = (std::uint64_t(1) << bits) - 1;
    table_shift_ = 64 - bits;
    table_keys_.assign(table_mask_ + 1, -1);
    table_slots_.assign(table_mask_ + 1, -1);
    for (std::size_t s = 0; s < slots; ++s) {
      std::uint64_t h = hash(slot_keys_[s]);
      while (table_keys_[h] >= 0) h = (h + 1) & table_mask_;
      table_keys_[h] = slot_keys_[s];
      table_slots_[h] = static_cast<int>(s);
    }
  }

  // Compressed rows: count per slot here, then prefix sums and place (place()).
  for (int kind = 0; kind < 3; ++kind) {
    std::vector<int>& start = lists(kind).start;
    start.assign(slots + 1, 0);
    each_listing(kind, [&](std::int64_t key, int) { ++start[slot_of(key) + 1]; });
  }
  // How crowded: the mean, over every listing of an obstacle in a cell, of how many
  // obstacles the cell lists (Poisson scatter at one per cell gives 2).
  double squares = 0;
  occupied_ = 0;
  for (std::size_t s = 1; s <= slots; ++s) {
    const double n = circles_.start[s] + walls_.start[s] + polygons_.start[s];
    squares += n * n;
    occupied_ += n > 0;
  }
  return listings ? squares / static_cast<double>(listings) : 0;
}

void ObstacleIndex::place() {
  const std::size_t slots = circles_.start.size() - 1;
  for (int kind = 0; kind < 3; ++kind) {
    Lists& l = lists(kind);
    for (std::size_t s = 0; s < slots; ++s) l.start[s + 1] += l.start[s];
    l.items.assign(static_cast<std::size_t>(l.start[slots]), 0);
    next_.assign(l.start.begin(), l.start.end() - 1);
    each_listing(kind, [&](std::int64_t key, int i) { l.items[static_cast<std::size_t>(next_[slot_of(key)]++)] = i; });
  }
}

}  // namespace contextsteer
