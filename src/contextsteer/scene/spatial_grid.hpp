// A uniform grid over agent positions for neighbor queries, rebuilt every step.
//
// Its rows are as tall as the queries' usual reach, and cut into cells half as wide: a
// query walks its own row and the ones its disc reaches above and below (the pass by
// pairs, which looks only upward, walks two rows: its own and the next), over an x-window
// of whole cells only a little wider than the disc. (Square cells half the reach wide need
// three rows for the pairs, square cells the reach wide a window of three reaches: both
// hand out more runs or more candidates.)
//
// The cells cover the agents' bounding box, unless a few agents far from the rest would
// stretch it over far more cells than agents: those (up to 1 in 256 on each side) are
// then left outside and counted in the border cells. A position's cell is clamped into
// the grid along each axis, which keeps the order of positions, so every query still
// meets every agent within its reach.
//
// Where the agents form groups far apart (towns across a map, levels placed side by
// side), no few agents can be left out, and one box over all of them would hold many
// times more cells than agents. The plane is then cut, along empty gaps more than four
// rows wide, into up to kMaxRegions regions (a k-d tree of cuts), each with its own cells
// over its own agents' box. A query visits each region its disc's bounding square meets;
// a disc of at most two rows around an agent meets only the agent's own region.
//
// A region may still be sparse with no gap to cut along: a crowd along a diagonal road,
// whose box is mostly empty. Its rows are then fitted to their agents: each row holds
// only the columns from its first agent's to its last's, so the cells keep the size
// asked for (a row's agents clamp into its cells, as a region's do into its box). Where
// even fitted rows would far outnumber the agents (a ring), the cells grow instead.
//
// Agents are counting-sorted by cell (stable, so the visit order is the same on every
// run); their positions are copied in that order so that a query reads memory
// contiguously. Storage grows to the largest scene seen and is then reused: a rebuild
// allocates nothing in steady state.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/base/vec2.hpp"
#include "contextsteer/kernels/cell_span.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

// What a neighbor query reports about each agent it finds.
struct Neighbor {
  int agent;              // index in the world's arrays
  Vec2 position;          // metres
  Real radius;            // metres
  LayerMask layer;        // layers the agent is on
  Real distance_squared;  // to the query point, m^2
};

class SpatialGrid {
 public:
  // Sorts the n agents at positions (n, 2) into rows of `row_height` metres (> 0; the
  // queries' usual reach), cut into cells half as wide; both grow in a region if its cells
  // would far outnumber its agents even with the farthest few left in the border cells
  // and its rows fitted to their agents. `radius`,
  // `layer` and `senses` (n,) are copied in the same order, so that a query reads a
  // neighbor's data from one place; null means radius 0, layer 1, sensing every layer.
  void build(const Real* positions, int n, Real row_height, const Real* radius = nullptr,
             const LayerMask* layer = nullptr, const LayerMask* senses = nullptr);

  // True when build() with these arguments would give this very grid: the same row
  // height asked for and every agent's position, radius, layer and sense mask as copied.
  // Lets the grid built after one step serve the next when nothing changed in between.
  bool matches(const Real* positions, int n, Real row_height, const Real* radius, const LayerMask* layer,
               const LayerMask* senses) const;

  int agent_count() const { return n_; }
  // The height of the tallest rows in metres: the one asked for, unless the cells of some
  // region had to grow.
  Real row_height() const { return tallest_row_; }
  // The parts of the plane with cells of their own (1 unless the agents form groups far apart).
  int region_count() const { return region_count_; }
  static constexpr int kMaxRegions = 256;
  // A disc of at most this radius (metres) around any agent meets only agents of the
  // agent's own region (infinite with one region): work split by rows relies on it
  // (row_chunks.hpp). Twice the row height asked for.
  Real separation() const { return separation_; }
  // The agents in cell order: neighbors in space are close in this order.
  const int* order() const { return agents_.data(); }
  // Where agent a sits in that order: order()[rank_of(a)] == a.
  int rank_of(int a) const { return rank_[a]; }

  // Cells are numbered region by region, and in a region row by row (rows of constant y,
  // from the lowest), so the agents of one row of cells are a contiguous part of the
  // order, and rows follow each other. Rows are counted over all regions.
  int rows() const { return row_count_; }
  // The first place in the order of row `row` (0 <= row <= rows(); rows() gives n).
  // A walk over the regions: it serves the split of work by rows, a few calls a step.
  int row_start(int row) const {
    int g = 0;
    while (g < region_count_ && row >= regions_[g].first_row + regions_[g].ny) ++g;
    if (g == region_count_) return n_;
    const Region& region = regions_[g];
    if (region.fitted) return cell_start_[row_cell_[region.rows_from + row - region.first_row]];
    return cell_start_[region.first_cell + (row - region.first_row) * region.nx];
  }
  // True when every agent senses every other (all on the same layers, all sensing a
  // layer of those): neighbor kernels may then leave out their layer tests.
  bool everyone_senses_everyone() const { return everyone_senses_everyone_; }
  // The radius every agent has (metres), or -1 when they differ: neighbor kernels may
  // then leave out reading and keeping each neighbor's radius.
  Real common_radius() const { return common_radius_; }

  // At most this many agents are set apart as large (see usual_radius()).
  static constexpr int kMaxLargeAgents = 16;
  // The largest radius (metres) of the agents other than a few far larger than the rest
  // (a vehicle among a crowd): up to kMaxLargeAgents of them (and at most 1 in 8), each
  // more than twice as large as the rest, are set apart. Neighbor kernels size their queries by it and
  // meet the large agents apart (large_places()); sized by the largest radius, every
  // query would read many times more agents. Without such agents, the largest radius.
  Real usual_radius() const { return usual_radius_; }
  // The most agents sorted into one cell: every query into that cell reads them all.
  int most_in_one_cell() const { return most_in_cell_; }
  // The most agents a step or an evaluation takes in one cell (rows as tall as the
  // longest neighbour reach, cells half as wide): more can only be agents piled far
  // deeper into each other than any crowd (or agents of radius 0 at nearly one point).
  // A full cell still costs kMaxAgentsInOneCell^2 neighbour tests per behaviour that
  // queries neighbours.
  static constexpr int kMaxAgentsInOneCell = 16384;
  // Throws std::invalid_argument naming `positions` (the grid's, (x, y) pairs) when more
  // than kMaxAgentsInOneCell agents lie in one cell, saying where, that `call` ("a
  // step") takes at most that many there, and `advice` (what to do instead).
  void check_pile(const Real* positions, const char* call, const char* advice) const;
  // The place in order() of the first agent of the first cell holding that many.
  int first_of_fullest_cell() const {
    for (std::size_t c = 0; c + 1 < cell_start_.size(); ++c)
      if (cell_start_[c + 1] - cell_start_[c] == most_in_cell_) return cell_start_[c];
    return 0;
  }
  // The places in the order of the agents whose radius exceeds usual_radius(), increasing.
  const int* large_places() const { return large_places_; }
  int large_count() const { return large_count_; }
  // usual_radius() of agents of these n radii (metres), the smallest and largest of which
  // are given: the grid's own, which a caller may need first, to size the rows.
  static Real usual_radius_of(const Real* radius, int n, Real smallest, Real largest);
  // How many rows above its own a query of `radius` metres may reach, at most, in any region.
  int rows_within(Real radius) const { return static_cast<int>(std::ceil(radius * inv_shortest_row_)) + 1; }

  // Calls fn(begin, end) for each run [begin, end) of sorted positions that may lie
  // within `radius` of p: per region the disc's bounding square meets, per row of cells,
  // the cells the disc's chord spans (for a disc up to 2.5 cells wide in radius, the
  // cells its bounding square spans). The runs hold every agent within the radius, and
  // others; read them through xs(), ys(), radii(), layers() and agents(). Must follow
  // build() with the positions unchanged.
  // Always inlined: vector kernels call it and must compile its body for their target.
  template <class F>
  CONTEXTSTEER_ALWAYS_INLINE void for_each_run(Vec2 p, Real radius, F&& fn) const {
    if (n_ == 0) return;
    if (region_count_ == 1) {  // the usual case, without the list
      runs_in_region(regions_[0], p, radius, fn);
      return;
    }
    const Reached reached = regions_reached(p, radius);
    for (int i = 0; i < reached.count; ++i) runs_in_region(regions_[reached.ids[i]], p, radius, fn);
  }

  // for_each_run for the agent at place k of the order (p its position), reduced to the
  // places after k: each pair of agents within reach is then met once, from the one
  // earlier in the order. Rows below p's hold only earlier places; the walk starts at
  // p's own row, after k, and takes the cells of the disc's bounding square (as
  // for_each_run does for discs up to 2.5 cells wide in radius; it trims wider ones).
  // Regions before k's hold only earlier places, and a disc within separation() reaches
  // no region after it. Returns the end of the last row's run: no place at or past it
  // was handed out.
  template <class F>
  CONTEXTSTEER_ALWAYS_INLINE int for_each_run_after(int k, Vec2 p, Real radius, F&& fn) const {
    if (region_count_ == 1) return runs_after_in_region(regions_[0], k, p, radius, fn);
    if (radius <= separation_) return runs_after_in_region(regions_[region_of_place_[k]], k, p, radius, fn);
    const Reached reached = regions_reached(p, radius);
    int end = k + 1;
    for (int i = 0; i < reached.count; ++i) {
      const Region& region = regions_[reached.ids[i]];
      if (cell_start_[region.first_cell] > k) {
        end = std::max(end, runs_in_region(region, p, radius, fn));  // a region after k's
      } else if (k < cell_start_[region.end_cell]) {
        end = std::max(end, runs_after_in_region(region, k, p, radius, fn));  // k's own
      }
    }
    return end;
  }

  // Calls fn(const Neighbor&) for every agent within `radius` of p, in a fixed order.
  template <class F>
  void for_each_within(Vec2 p, Real radius, F&& fn) const {
    const Real r2 = radius * radius;
    for_each_run(p, radius, [&](int begin, int end) {
      for (int k = begin; k < end; ++k) {
        const Real dx = xs_[k] - p.x;
        const Real dy = ys_[k] - p.y;
        const Real d2 = dx * dx + dy * dy;
        if (d2 <= r2) fn(Neighbor{agents_[k], Vec2{xs_[k], ys_[k]}, radii_[k], layers_[k], d2});
      }
    });
  }

  // The sorted arrays the runs index, each followed by kPadding readable entries, so that
  // a vector kernel may load whole vectors past a run's end (and mask the extra lanes).
  static constexpr int kPadding = 8;
  const Real* xs() const { return xs_.data(); }
  const Real* ys() const { return ys_.data(); }
  const Real* radii() const { return radii_.data(); }
  const LayerMask* layers() const { return layers_.data(); }
  const LayerMask* senses() const { return senses_.data(); }
  const int* agents() const { return agents_.data(); }

  // Appends to `out` the agents within `radius` of p, in the grid's fixed order.
  void query(Vec2 p, Real radius, std::vector<int>& out) const;

 private:
  // A part of the plane with cells of its own: rows of row_height metres from origin.y,
  // cut into cells of cell_width from origin.x, nx by ny, numbered from first_cell.
  // Positions beyond its box clamp into its border cells.
  struct Region {
    // For cell_span, as (x, x, y, y): the origin (m), the inverse cell sizes (1/m) and
    // the last column and row (nx - 1, nx - 1, ny - 1, ny - 1).
    alignas(16) Real origin_lanes[4] = {0, 0, 0, 0};
    alignas(16) Real inverse_lanes[4] = {1, 1, 1, 1};
    alignas(16) Real last_cell[4] = {0, 0, 0, 0};
    Vec2 origin;
    Real row_height = 1, inv_row = 1;    // metres, 1/m
    Real cell_width = 1, inv_width = 1;  // metres, 1/m
    int nx = 1, ny = 1;
    int first_cell = 0, end_cell = 1;  // its cells in cell_start_
    int first_row = 0;                 // its first row, counting over all regions
    // Rows fitted to their agents (fit_rows): row r holds cells row_cell_[rows_from + r]
    // to row_cell_[rows_from + r + 1] (numbered over all regions), the first of them in
    // column row_column_[rows_from + r]. Otherwise every row holds nx cells.
    bool fitted = false;
    int rows_from = 0;
  };

  // A cut of the k-d tree over the regions: positions with coordinate `axis` (0 for x,
  // 1 for y) below `at` lie on side 0. A child >= 0 is another cut, ~child a region.
  struct Cut {
    int axis = 0;
    Real at = 0;
    int child[2] = {~0, ~0};
  };

  // The regions a query reaches, in increasing order.
  struct Reached {
    int count;
    int ids[kMaxRegions];
  };
  // Only with several regions (the callers take the one region straight).
  CONTEXTSTEER_ALWAYS_INLINE Reached regions_reached(Vec2 p, Real radius) const {
    Reached reached;
    reached.count = 0;
    const Real lo[2] = {p.x - radius, p.y - radius}, hi[2] = {p.x + radius, p.y + radius};
    // Depth first, side 0 first: the regions were numbered in that order.
    int stack[kMaxRegions], top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const int node = stack[--top];
      if (node < 0) {
        reached.ids[reached.count++] = ~node;
        continue;
      }
      const Cut& cut = cuts_[node];
      if (hi[cut.axis] >= cut.at) stack[top++] = cut.child[1];
      if (lo[cut.axis] < cut.at) stack[top++] = cut.child[0];
    }
    return reached;
  }

  // for_each_run within one region; returns the end of the last row's cells.
  template <class F>
  CONTEXTSTEER_ALWAYS_INLINE int runs_in_region(const Region& g, Vec2 p, Real radius, F&& fn) const {
    const int* starts = cell_start_.data() + g.first_cell;
    const CellSpan span = cell_span(g, p.x - radius, p.x + radius, p.y - radius, p.y + radius);
    const int y0 = span.y0, y1 = span.y1, nx = g.nx;
    if (g.fitted) return fitted_runs(g, span.x0, span.x1, y0, y1, -1, fn);
    if (radius <= Real(2.5) * g.cell_width) {
      // A disc a few cells wide: the chord of a row would trim a cell now and then, at
      // the price of a square root per row. Every row takes the disc's whole x-range.
      int end = 0;
      for (int row = y0 * nx; row <= y1 * nx; row += nx) {
        const int begin = starts[row + span.x0];
        end = starts[row + span.x1 + 1];
        if (begin < end) fn(begin, end);
      }
      return end;
    }
    int end = 0;
    for (int cy = y0; cy <= y1; ++cy) {
      // The disc's widest chord within this row of cells. The first row also holds the
      // agents below the region's edge, and the last those above it (their cells clamp):
      // those rows have no lower, and no upper, bound.
      const Real row_lo = g.origin.y + cy * g.row_height;
      const Real below = cy > 0 ? row_lo - p.y : Real(0);
      const Real above = cy < g.ny - 1 ? p.y - (row_lo + g.row_height) : Real(0);
      const Real dy = std::max({Real(0), below, above});
      const Real half = std::sqrt(std::max(Real(0), radius * radius - dy * dy));
      const CellSpan chord = cell_span(g, p.x - half, p.x + half, p.y, p.y);
      // Cells x0..x1 of one row are contiguous in the sorted order.
      const int begin = starts[cy * nx + chord.x0];
      end = starts[cy * nx + chord.x1 + 1];
      if (begin < end) fn(begin, end);
    }
    return end;
  }

  // for_each_run_after within k's own region.
  template <class F>
  CONTEXTSTEER_ALWAYS_INLINE int runs_after_in_region(const Region& g, int k, Vec2 p, Real radius, F&& fn) const {
    const int* starts = cell_start_.data() + g.first_cell;
    // y0 is p's own row here, not the disc's lowest.
    const CellSpan span = cell_span(g, p.x - radius, p.x + radius, p.y, p.y + radius);
    if (g.fitted) return fitted_runs(g, span.x0, span.x1, span.y0, span.y1, k, fn);
    const int own = span.y0, nx = g.nx;
    int end = starts[own * nx + span.x1 + 1];
    if (k + 1 < end) fn(k + 1, end);
    for (int row = (own + 1) * nx; row <= span.y1 * nx; row += nx) {
      const int begin = starts[row + span.x0];
      end = starts[row + span.x1 + 1];
      if (begin < end) fn(begin, end);
    }
    return end;
  }

  // The runs of rows y0..y1 of fitted region g over columns x0..x1 (each row's clamped to
  // the columns it holds), as runs_in_region's; from place k + 1 on in the first row
  // when k >= 0 (runs_after_in_region's, y0 k's own row). Every row takes the whole
  // x-range: fitted rows are as tall as asked, so queries are mostly a few cells wide.
  template <class F>
  CONTEXTSTEER_ALWAYS_INLINE int fitted_runs(const Region& g, int x0, int x1, int y0, int y1, int k, F&& fn) const {
    const int* starts = cell_start_.data();
    int end = 0;
    for (int cy = y0; cy <= y1; ++cy) {
      const int first_cell = row_cell_[g.rows_from + cy], column = row_column_[g.rows_from + cy];
      const int last_column = row_cell_[g.rows_from + cy + 1] - first_cell - 1;
      const int begin = cy == y0 && k >= 0 ? k + 1 : starts[first_cell + std::clamp(x0 - column, 0, last_column)];
      end = starts[first_cell + std::clamp(x1 - column, 0, last_column) + 1];
      if (begin < end) fn(begin, end);
    }
    return end;
  }

  // The columns of x_lo and x_hi and the rows of y_lo and y_hi (metres) in region g,
  // each as clamp_cell gives it (kernels/cell_span.hpp: every neighbor query starts here).
  CONTEXTSTEER_ALWAYS_INLINE static CellSpan cell_span(const Region& g, Real x_lo, Real x_hi, Real y_lo, Real y_hi) {
    return cell_span_of(g.origin_lanes, g.inverse_lanes, g.last_cell, x_lo, x_hi, y_lo, y_hi);
  }

  // The cell index of coordinate c (in cells, measured from the grid's origin), clamped
  // to [0, n). Truncation equals the floor for c >= 0, and anything below 0 clamps to 0:
  // no call to floor, which is a library call on baseline x86-64.
  static int clamp_cell(Real c, int n) {
    if (!(c >= 0)) return 0;  // also catches NaN
    return c >= n ? n - 1 : static_cast<int>(c);
  }

  // Cuts the plane into regions where the agents form groups far apart (in members_,
  // agents grouped by region, and region_range_); see the .cpp.
  // lo and hi are the agents' bounding box's corners.
  void plan_regions(const Real* positions, double row_height, Vec2 lo, Vec2 hi);
  // Sets region g's cells over the box [x_lo, x_hi] x [y_lo, y_hi] (metres): rows of
  // `row_height`, doubled until at most max_cells cover it, numbered from first_cell.
  static void size_region(Region& g, double x_lo, double x_hi, double y_lo, double y_hi, double row_height,
                          double max_cells, int first_cell);
  // Where size_region grew region g's cells, fits its rows of `row_height` metres to its
  // `count` agents at points instead, if at most max_cells cells then cover them.
  void fit_rows(Region& g, double x_lo, double x_hi, double y_lo, double y_hi, double row_height, double max_cells,
                const Vec2* points, int count);
  // The column and the row of region g that hold point p (clamped into the region): the
  // one formula that both fit_rows and build use.
  CONTEXTSTEER_ALWAYS_INLINE static int column_of(const Region& g, Vec2 p) {
    return clamp_cell((p.x - g.origin.x) * g.inv_width, g.nx);
  }
  CONTEXTSTEER_ALWAYS_INLINE static int row_of(const Region& g, Vec2 p) {
    return clamp_cell((p.y - g.origin.y) * g.inv_row, g.ny);
  }

  int n_ = 0;
  bool everyone_senses_everyone_ = true;
  Real common_radius_ = 0;
  Real usual_radius_ = 0;
  int large_places_[kMaxLargeAgents] = {};
  int large_count_ = 0;
  Real requested_row_height_ = 0;
  Real tallest_row_ = 1, inv_shortest_row_ = 1;  // metres, 1/m
  Real separation_ = 0;                          // metres
  Region regions_[kMaxRegions];
  int region_count_ = 1;
  Cut cuts_[kMaxRegions - 1];  // cuts_[0] is the root, where there are regions to cut
  int row_count_ = 1;
  // While building in regions: the agents, grouped by region, each group's in
  // members_[region_range_[g], region_range_[g + 1]), and their positions (metres).
  std::vector<int> members_;
  std::vector<Vec2> member_at_;
  std::vector<std::uint8_t> region_of_place_;  // (n,) with several regions: each place's
  static_assert(kMaxRegions <= 256, "region_of_place_ holds a region in a byte");
  int region_range_[kMaxRegions + 1] = {};
  std::vector<int> cell_start_;  // (cells + 1) prefix sums
  int most_in_cell_ = 0;         // the largest count in one cell
  // The fitted regions' rows (Region::rows_from), region after region: each row's first
  // column, and its first cell (with one more entry, the region's end_cell).
  std::vector<int> row_column_, row_cell_;
  std::vector<int> cell_of_;  // (n,) cell of each agent
  std::vector<int> agents_;   // (n + kPadding,) agent indices sorted by cell, then -1
  std::vector<int> rank_;     // (n,) each agent's place in agents_
  // In sorted order, one array per field so that a run reads contiguous memory.
  std::vector<Real> xs_, ys_;      // (n + kPadding,) metres
  std::vector<Real> radii_;        // (n + kPadding,) metres
  std::vector<LayerMask> layers_;  // (n + kPadding,)
  std::vector<LayerMask> senses_;  // (n + kPadding,)
};

}  // namespace contextsteer
