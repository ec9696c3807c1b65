// The spatial index over static obstacles that Obstacles::for_each_near reads: square
// cells, each listing the circles, walls and polygons that reach into it.
//
// The cells' side follows where the obstacles are, not only the box round all of them.
// It starts at one obstacle per cell of that box (which suits obstacles spread over it),
// doubled while obstacles far larger than that would be listed in too many cells (a pile
// of them), and, unless told to keep that (CellSizing::kSpread), shrinks while they still
// crowd into a few cells: a room of pillars with one more pillar kilometres away, towns
// far apart, many short walls along a line. A query near any of them then meets a few.
// The occupied cells are found by position when the grid over the obstacles' box holds
// at most kMaxDenseCells cells, else through a hash table of the occupied ones alone.
// Obstacles that would cross more than kLongCells cells (the sides of wide bounds, a
// wall across an open map) are listed apart, at most kMostApart of them, and every query
// meets them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "contextsteer/geometry/geometry.hpp"

namespace contextsteer {

// The cell (column or row) of coordinate x on a grid of `count` cells of side `side`
// from `origin`: the floor of (x - origin) / side, clamped to [lowest, count - 1]. The
// clamp comes before the conversion, so that far points stay within int, and the floor
// is taken by truncating and stepping down, without a call to the maths library.
// The index is built and queried with this one function, so that a box and a query that
// overlap in coordinates overlap in cells.
inline int cell_step(Real x, Real origin, Real side, int count, int lowest) {
  const Real v = std::clamp((x - origin) / side, static_cast<Real>(lowest), static_cast<Real>(count - 1));
  const int truncated = static_cast<int>(v);
  return truncated - (v < static_cast<Real>(truncated));
}

enum class CellSizing {
  kUncrowded,  // shrunk while the obstacles crowd into a few cells (for queries of a reach)
  kSpread,     // one obstacle per cell of their box (for a nearest-obstacle search whose
               // reach starts at one cell and doubles, as Polyline::closest's does)
};

class ObstacleIndex {
 public:
  // A cell holding more obstacles than this on average, seen from an obstacle in it, is
  // crowded: the cells shrink (see above).
  static constexpr Real kCrowded = 8;
  // Obstacles crossing more cells than this are listed apart, for every query; at most
  // kMostApart of them, or the cells are too small for the obstacles.
  static constexpr int kLongCells = 256;
  static constexpr std::size_t kMostApart = 64;
  // The largest grid kept whole; beyond it the occupied cells go into a hash table.
  static constexpr std::int64_t kMaxDenseCells = std::int64_t(1) << 20;

  // Indexes circles[i], walls[j] and the polygons of bounding boxes polygon_boxes[k]; the
  // queries below call back with those positions. Allocates (see keep_scratch).
  void build(const std::vector<Circle>& circles, const std::vector<Segment>& walls,
             const std::vector<Bounds>& polygon_boxes, CellSizing sizing = CellSizing::kUncrowded);

  // Calls circle(i) for every circle and wall(j) for every wall that may come within
  // `reach` metres of p. Some may be called more than once, so the callers keep maxima,
  // which repeats do not change.
  template <class OnCircle, class OnWall>
  void for_each_near(Vec2 p, Real reach, OnCircle&& circle, OnWall&& wall) const;
  // Calls polygon(k) for every polygon whose bounding box may hold p.
  template <class OnPolygon>
  void for_each_polygon_at(Vec2 p, OnPolygon&& polygon) const;
  // Calls polygon(k) for every polygon whose bounding box may come within `reach` of p.
  template <class OnPolygon>
  void for_each_polygon_near(Vec2 p, Real reach, OnPolygon&& polygon) const;

  Real cell() const { return cell_; }  // side of the cells, metres
  // Whether the occupied cells are found through the hash table.
  bool hashed() const { return hashed_; }
  // Cells listing at least one obstacle.
  std::size_t occupied_cells() const { return occupied_; }
  // Listings of obstacles in cells, over all the cells.
  std::size_t listings() const { return circles_.items.size() + walls_.items.size() + polygons_.items.size(); }
  // Obstacles listed apart, met by every query.
  std::size_t listed_apart() const { return long_circles_.size() + long_walls_.size() + long_polygons_.size(); }
  // Whether a build keeps its scratch for the next one instead of releasing it: for
  // obstacles indexed again and again as they move, whose builds then allocate only
  // where a layout needs more room than any before.
  void keep_scratch(bool keep) { keep_scratch_ = keep; }

 private:
  struct Items;  // the obstacles being indexed (obstacle_index.cpp)
  // Lays the index out on cells of side `side`, counts what each cell lists and returns
  // how crowded the cells are (see obstacle_index.cpp); infinity, leaving the layout
  // unfinished, when the obstacles would be listed in more than `budget` cells in all,
  // or more than kMostApart of them apart.
  double lay_out(const Items& items, const Bounds& all, Real side, std::size_t budget);
  // Fills the lists of the last finished layout.
  void place();
  // Frees the scratch of a build, unless it is kept (keep_scratch).
  void release_scratch();

  // What a cell lists of one kind of obstacle, compressed: the items of slot s are
  // items[start[s]] to items[start[s + 1] - 1].
  struct Lists {
    std::vector<int> start, items;
  };
  Lists& lists(int kind) { return kind == 0 ? circles_ : kind == 1 ? walls_ : polygons_; }
  // A row's run of cells that one item of the layout is listed in: columns first to last.
  struct Span {
    int item, row, first, last;
  };
  // Calls visit(key, i) for every cell that short item i of `kind` is listed in.
  template <class Visit>
  void each_listing(int kind, Visit&& visit) const {
    for (std::size_t k = kind == 0 ? 0 : span_kind_end_[kind - 1]; k < span_kind_end_[kind]; ++k) {
      const Span& span = spans_[k];
      const std::int64_t row_start = static_cast<std::int64_t>(span.row) * columns_;
      for (int c = span.first; c <= span.last; ++c) visit(row_start + c, span.item);
    }
  }
  std::size_t slot_of(std::int64_t key) const { return static_cast<std::size_t>(hashed_ ? find(key) : key); }

  // Calls visit(slot) for each occupied cell of columns [c0, c1] and rows [r0, r1].
  template <class Visit>
  void for_each_slot(int c0, int c1, int r0, int r1, Visit&& visit) const;
  // The slot of the cell of key row * columns_ + column in the hash table; -1 if empty.
  int find(std::int64_t key) const {
    for (std::uint64_t h = hash(key);; h = (h + 1) & table_mask_) {
      if (table_keys_[h] == key) return table_slots_[h];
      if (table_keys_[h] < 0) return -1;
    }
  }
  std::uint64_t hash(std::int64_t key) const {
    return (static_cast<std::uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> table_shift_;
  }

  Vec2 origin_;
  Real cell_ = 1;
  int columns_ = 0, rows_ = 0;
  std::size_t occupied_ = 0;
  // Without the hash table, a cell's slot is its key, row * columns_ + column.
  bool hashed_ = false;
  std::vector<std::int64_t> slot_keys_;   // with it: each slot's key, ascending
  std::vector<std::int64_t> table_keys_;  // open addressing, -1 where empty
  std::vector<int> table_slots_;
  std::uint64_t table_mask_ = 0;
  int table_shift_ = 64;
  Lists circles_, walls_, polygons_;
  // Scratch of a build, from lay_out to place: the short items' runs of cells, those of
  // kind k at spans_[span_kind_end_[k - 1] .. span_kind_end_[k]).
  std::vector<Span> spans_;
  std::size_t span_kind_end_[3] = {};
  std::vector<int> long_circles_, long_walls_, long_polygons_;
  // More scratch of a build: which items are listed apart, per kind; the items' sizes
  // (for their median); each slot's next free place while placing.
  std::vector<char> is_long_[3];
  std::vector<Real> sizes_;
  std::vector<int> next_;
  bool keep_scratch_ = false;
};

template <class Visit>
void ObstacleIndex::for_each_slot(int c0, int c1, int r0, int r1, Visit&& visit) const {
  if (c0 > c1 || r0 > r1) return;
  if (!hashed_) {
    for (int r = r0; r <= r1; ++r) {
      for (int c = c0; c <= c1; ++c) visit(r * columns_ + c);
    }
    return;
  }
  const std::int64_t span = static_cast<std::int64_t>(c1 - c0 + 1) * (r1 - r0 + 1);
  if (span > static_cast<std::int64_t>(slot_keys_.size())) {
    // A reach over more cells than are occupied: through the occupied ones instead.
    for (std::size_t s = 0; s < slot_keys_.size(); ++s) {
      const std::int64_t r = slot_keys_[s] / columns_, c = slot_keys_[s] % columns_;
      if (r >= r0 && r <= r1 && c >= c0 && c <= c1) visit(static_cast<int>(s));
    }
    return;
  }
  for (int r = r0; r <= r1; ++r) {
    for (int c = c0; c <= c1; ++c) {
      const int s = find(static_cast<std::int64_t>(r) * columns_ + c);
      if (s >= 0) visit(s);
    }
  }
}

template <class OnCircle, class OnWall>
void ObstacleIndex::for_each_near(Vec2 p, Real reach, OnCircle&& circle, OnWall&& wall) const {
  for (int i : long_circles_) circle(i);
  for (int j : long_walls_) wall(j);
  // A disc wholly beyond the grid's last column gives c0 = columns_ (and c1 = columns_ -
  // 1): no cell, where clamping c0 to columns_ - 1 would visit one for nothing.
  const int c0 = std::max(0, cell_step(p.x - reach, origin_.x, cell_, columns_ + 1, -1));
  const int c1 = cell_step(p.x + reach, origin_.x, cell_, columns_, -1);
  const int r0 = std::max(0, cell_step(p.y - reach, origin_.y, cell_, rows_ + 1, -1));
  const int r1 = cell_step(p.y + reach, origin_.y, cell_, rows_, -1);
  for_each_slot(c0, c1, r0, r1, [&](int s) {
    for (int k = circles_.start[s]; k < circles_.start[s + 1]; ++k) circle(circles_.items[k]);
    for (int k = walls_.start[s]; k < walls_.start[s + 1]; ++k) wall(walls_.items[k]);
  });
}

template <class OnPolygon>
void ObstacleIndex::for_each_polygon_at(Vec2 p, OnPolygon&& polygon) const {
  for (int k : long_polygons_) polygon(k);
  const int c = cell_step(p.x, origin_.x, cell_, columns_ + 1, -1);
  const int r = cell_step(p.y, origin_.y, cell_, rows_ + 1, -1);
  if (c < 0 || c >= columns_ || r < 0 || r >= rows_) return;  // beyond every indexed box
  for_each_slot(c, c, r, r, [&](int s) {
    for (int k = polygons_.start[s]; k < polygons_.start[s + 1]; ++k) polygon(polygons_.items[k]);
  });
}

template <class OnPolygon>
void ObstacleIndex::for_each_polygon_near(Vec2 p, Real reach, OnPolygon&& polygon) const {
  for (int k : long_polygons_) polygon(k);
  const int c0 = std::max(0, cell_step(p.x - reach, origin_.x, cell_, columns_ + 1, -1));
  const int c1 = cell_step(p.x + reach, origin_.x, cell_, columns_, -1);
  const int r0 = std::max(0, cell_step(p.y - reach, origin_.y, cell_, rows_ + 1, -1));
  const int r1 = cell_step(p.y + reach, origin_.y, cell_, rows_, -1);
  for_each_slot(c0, c1, r0, r1, [&](int s) {
    for (int k = polygons_.start[s]; k < polygons_.start[s + 1]; ++k) polygon(polygons_.items[k]);
  });
}

}  // namespace contextsteer
