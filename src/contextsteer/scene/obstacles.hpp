// The static obstacles of a scene: circles, segments (walls), polygons (convex or
// concave) and rectangular world bounds, each on a set of layers.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "contextsteer/geometry/geometry.hpp"
#include "contextsteer/scene/obstacle_index.hpp"

namespace contextsteer {

// Which layers a thing is on, and which layers an agent senses, as bit masks: agent a
// senses x when (sense_mask[a] & layer(x)) != 0.
using LayerMask = std::uint32_t;
constexpr LayerMask kAllLayers = 0xFFFFFFFFu;

class Obstacles {
 public:
  // Each adder throws std::invalid_argument, adding nothing, on coordinates beyond
  // +-kMaxMagnitude (NaN and inf among them), negative radii, polygons with fewer than 3
  // vertices or empty bounds. Many circles or segments go in at once with the plural
  // forms: each add rebuilds the obstacles' arrays.
  void add_circle(const Circle& c, LayerMask layer = 1);
  void add_circles(const std::vector<Circle>& circles, LayerMask layer = 1);
  void add_segment(const Segment& s, LayerMask layer = 1);
  void add_segments(const std::vector<Segment>& segments, LayerMask layer = 1);
  // Adds the polygon's edges as walls; the inside counts as penetrated.
  void add_polygon(const std::vector<Vec2>& vertices, LayerMask layer = 1);
  // Adds polygons[k] on layers[k] for every k, the walls rebuilt once.
  void add_polygons(const std::vector<std::vector<Vec2>>& polygons, const std::vector<LayerMask>& layers);
  // Agents belong inside the rectangle; its sides act as walls on every layer, and its
  // penetration is measured for every agent, whatever its sense mask.
  void set_bounds(const Bounds& b);
  void clear_bounds();
  void clear();
  // Moves the circles, free segments and polygon vertices to new places: the same counts
  // (std::invalid_argument otherwise), layers kept. `drift` (metres) bounds how far any
  // point of them has gone since the index was built: the index is kept, and queries
  // widen their reach by `drift`, while it stays within half a cell; beyond, or when
  // negative, the index is dropped (prepare_index builds it again at the new places).
  void move(const std::vector<Circle>& circles, const std::vector<Segment>& segments,
            const std::vector<Vec2>& polygon_vertices, Real drift);
  // How far queries through the index widen their reach, metres (0 for static obstacles).
  Real drift() const { return drift_; }

  const std::vector<Circle>& circles() const { return circles_; }
  const std::vector<LayerMask>& circle_layers() const { return circle_layers_; }
  const std::vector<LayerMask>& segment_layers() const { return segment_layers_; }  // of free_segments()
  // Walls: free segments, polygon edges and bounds sides.
  const std::vector<Segment>& walls() const { return walls_; }
  const std::vector<LayerMask>& wall_layers() const { return wall_layers_; }
  int polygon_count() const { return static_cast<int>(polygon_starts_.size()) - 1; }
  // Vertices of polygon k: [polygon_start(k), polygon_start(k+1)) of polygon_vertices().
  int polygon_start(int k) const { return polygon_starts_[k]; }
  const std::vector<Vec2>& polygon_vertices() const { return polygon_vertices_; }
  const std::vector<LayerMask>& polygon_layers() const { return polygon_layers_; }
  bool has_bounds() const { return has_bounds_; }
  const Bounds& bounds() const { return bounds_; }
  // The free segments alone (not polygon edges or bounds), for reading back.
  std::vector<Segment> free_segments() const;
  // Whether there is nothing at all to collide with.
  bool empty() const { return circles_.empty() && walls_.empty() && polygon_count() == 0 && !has_bounds_; }

  // How deep a disc (centre p, radius r) on an agent sensing `mask` reaches into the
  // obstacles it senses, in metres; 0 when clear.
  Real penetration(Vec2 p, Real r, LayerMask mask) const;

  // Builds the spatial index that for_each_near reads, when there are enough obstacles
  // to be worth one and they changed since. Not thread-safe: call it before queries run
  // on several threads (World::step does). Allocates only when obstacles changed.
  void prepare_index(CellSizing sizing = CellSizing::kUncrowded);
  // Calls circle(i) for every circle and wall(j) for every wall (indices into circles()
  // and walls()) that may come within `reach` metres of p: through the index when it is
  // prepared and current, else all of them. Some may be called more than once, so the
  // callers keep maxima, which repeats do not change.
  template <class OnCircle, class OnWall>
  void for_each_near(Vec2 p, Real reach, OnCircle&& circle, OnWall&& wall) const;

  // Fewer circles and walls than this are simply all checked: the index would not pay.
  static constexpr std::size_t kIndexFrom = 64;
  // Whether for_each_near goes through the index, and the index itself.
  bool indexed() const { return indexed_; }
  const ObstacleIndex& index() const { return index_; }
  // For obstacles that move and are indexed again and again: each index build keeps its
  // scratch for the next (ObstacleIndex::keep_scratch).
  void keep_index_scratch() { index_.keep_scratch(true); }

 private:
  void rebuild_walls();
  void drop_index() { indexed_ = false, drift_ = 0; }
  void refresh_circle_arrays();
  void refresh_polygon_boxes();

  // Largest reach - distance of p into the circles sensed through `mask` (or below 0).
  Real circle_penetration(Vec2 p, Real r, LayerMask mask) const;
  // How deep a disc (p, r) sensing `mask` is inside polygon k: the distance from p to the
  // nearest edge plus r; 0 when p is outside it (or its box) or it is not sensed.
  Real polygon_depth(int k, Vec2 p, Real r, LayerMask mask) const;
  // How deep a disc (p, r) sensing `mask` reaches into circle i; 0 when clear or unsensed.
  Real circle_depth(std::size_t i, Vec2 p, Real r, LayerMask mask) const;

  std::vector<Circle> circles_;
  std::vector<LayerMask> circle_layers_;
  // The circles again as separate arrays, padded to a multiple of 4 with circles that
  // reach nowhere, for the 4-wide penetration sweep.
  std::vector<Real> circle_x_, circle_y_, circle_r_;
  std::vector<Segment> segments_;
  std::vector<LayerMask> segment_layers_;
  std::vector<Vec2> polygon_vertices_;
  std::vector<int> polygon_starts_{0};
  std::vector<LayerMask> polygon_layers_;
  std::vector<Bounds> polygon_boxes_;  // each polygon's bounding box: most points fail it at once
  bool has_bounds_ = false;
  Bounds bounds_;
  std::vector<Segment> walls_;
  std::vector<LayerMask> wall_layers_;

  bool indexed_ = false;
  Real drift_ = 0;  // see move()
  ObstacleIndex index_;
};

template <class OnCircle, class OnWall>
void Obstacles::for_each_near(Vec2 p, Real reach, OnCircle&& circle, OnWall&& wall) const {
  if (indexed_) return index_.for_each_near(p, reach + drift_, circle, wall);
  for (std::size_t i = 0; i < circles_.size(); ++i) circle(static_cast<int>(i));
  for (std::size_t j = 0; j < walls_.size(); ++j) wall(static_cast<int>(j));
}

}  // namespace contextsteer
