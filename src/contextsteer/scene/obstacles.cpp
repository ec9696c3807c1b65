#include "contextsteer/scene/obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/kernels/disc_gaps.hpp"

namespace contextsteer {

void Obstacles::add_circle(const Circle& c, LayerMask layer) { add_circles({c}, layer); }

void Obstacles::add_circles(const std::vector<Circle>& circles, LayerMask layer) {
  for (std::size_t k = 0; k < circles.size(); ++k) {
    const Circle& c = circles[k];
    if (!within_bound(c.centre) || !within_bound(c.radius) || c.radius < 0) {
      throw std::invalid_argument(
          "circles: expected centres within -1e9 to 1e9 and radii from 0 to 1e9 in metres, got (x, y, radius) " +
          format_reals({c.centre.x, c.centre.y, c.radius}) + " for circle " + std::to_string(k));
    }
  }
  circles_.insert(circles_.end(), circles.begin(), circles.end());
  circle_layers_.insert(circle_layers_.end(), circles.size(), layer);
  drop_index();
  refresh_circle_arrays();
}

void Obstacles::refresh_circle_arrays() {
  circle_x_.clear(), circle_y_.clear(), circle_r_.clear();
  for (std::size_t i = 0; i < circles_.size() || circle_x_.size() % 4 != 0; ++i) {
    const bool real = i < circles_.size();
    // Padding: a point 1e18 m away, whose squared distance (1e36) is still finite.
    circle_x_.push_back(real ? circles_[i].centre.x : Real(1e18));
    circle_y_.push_back(real ? circles_[i].centre.y : 0);
    circle_r_.push_back(real ? circles_[i].radius : 0);
  }
}

void Obstacles::refresh_polygon_boxes() {
  polygon_boxes_.clear();
  for (int k = 0; k < polygon_count(); ++k) {
    const Vec2* v = polygon_vertices_.data() + polygon_starts_[k];
    Bounds box{v[0], v[0]};
    for (int i = 1; i < polygon_starts_[k + 1] - polygon_starts_[k]; ++i) {
      box.min = {std::min(box.min.x, v[i].x), std::min(box.min.y, v[i].y)};
      box.max = {std::max(box.max.x, v[i].x), std::max(box.max.y, v[i].y)};
    }
    polygon_boxes_.push_back(box);
  }
}

void Obstacles::move(const std::vector<Circle>& circles, const std::vector<Segment>& segments,
                     const std::vector<Vec2>& polygon_vertices, Real drift) {
  if (circles.size() != circles_.size() || segments.size() != segments_.size() ||
      polygon_vertices.size() != polygon_vertices_.size()) {
    throw std::invalid_argument("move: expected as many circles, segments and polygon vertices as there are");
  }
  const bool keep = indexed_ && drift >= 0 && drift <= index_.cell() / 2;
  circles_ = circles;
  segments_ = segments;
  polygon_vertices_ = polygon_vertices;
  refresh_circle_arrays();
  refresh_polygon_boxes();
  rebuild_walls();  // drops the index
  if (keep) indexed_ = true, drift_ = drift;
}

void Obstacles::add_segment(const Segment& s, LayerMask layer) { add_segments({s}, layer); }

void Obstacles::add_segments(const std::vector<Segment>& segments, LayerMask layer) {
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const Segment& s = segments[k];
    if (!within_bound(s.a) || !within_bound(s.b)) {
      throw std::invalid_argument("segments: expected end points within -1e9 to 1e9 in metres, got " +
                                  format_reals({s.a.x, s.a.y, s.b.x, s.b.y}) + " for segment " + std::to_string(k));
    }
  }
  segments_.insert(segments_.end(), segments.begin(), segments.end());
  segment_layers_.insert(segment_layers_.end(), segments.size(), layer);
  rebuild_walls();
}

void Obstacles::add_polygon(const std::vector<Vec2>& vertices, LayerMask layer) { add_polygons({vertices}, {layer}); }

void Obstacles::add_polygons(const std::vector<std::vector<Vec2>>& polygons, const std::vector<LayerMask>& layers) {
  if (layers.size() != polygons.size()) {
    throw std::invalid_argument("layers: expected one per polygon (" + std::to_string(polygons.size()) + "), got " +
                                std::to_string(layers.size()));
  }
  for (const std::vector<Vec2>& vertices : polygons) {
    if (vertices.size() < 3) {
      throw std::invalid_argument("polygon: expected at least 3 vertices, got " + std::to_string(vertices.size()));
    }
    for (std::size_t k = 0; k < vertices.size(); ++k) {
      if (!within_bound(vertices[k])) {
        throw std::invalid_argument("polygon: expected vertices within -1e9 to 1e9 in metres, got " +
                                    format_reals({vertices[k].x, vertices[k].y}) + " for vertex " + std::to_string(k));
      }
    }
  }
  for (std::size_t p = 0; p < polygons.size(); ++p) {
    const std::vector<Vec2>& vertices = polygons[p];
    polygon_vertices_.insert(polygon_vertices_.end(), vertices.begin(), vertices.end());
    polygon_starts_.push_back(static_cast<int>(polygon_vertices_.size()));
    polygon_layers_.push_back(layers[p]);
    Bounds box{vertices[0], vertices[0]};
    for (const Vec2& v : vertices) {
      box.min = {std::min(box.min.x, v.x), std::min(box.min.y, v.y)};
      box.max = {std::max(box.max.x, v.x), std::max(box.max.y, v.y)};
    }
    polygon_boxes_.push_back(box);
  }
  rebuild_walls();
}

void Obstacles::set_bounds(const Bounds& b) {
  if (!within_bound(b.min) || !within_bound(b.max) || !(b.min.x < b.max.x) || !(b.min.y < b.max.y)) {
    throw std::invalid_argument(
        "bounds: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin < xmax and ymin < ymax, got " +
        format_reals({b.min.x, b.min.y, b.max.x, b.max.y}));
  }
  bounds_ = b;
  has_bounds_ = true;
  rebuild_walls();
}

void Obstacles::clear_bounds() {
  has_bounds_ = false;
  rebuild_walls();
}

void Obstacles::clear() { *this = Obstacles(); }

std::vector<Segment> Obstacles::free_segments() const { return segments_; }

void Obstacles::rebuild_walls() {
  drop_index();
  walls_ = segments_;
  wall_layers_ = segment_layers_;
  for (int k = 0; k < polygon_count(); ++k) {
    const int begin = polygon_starts_[k];
    const int end = polygon_starts_[k + 1];
    for (int i = begin; i < end; ++i) {
      walls_.push_back({polygon_vertices_[i], polygon_vertices_[i + 1 < end ? i + 1 : begin]});
      wall_layers_.push_back(polygon_layers_[k]);
    }
  }
  if (has_bounds_) {
    const Vec2 a = bounds_.min, c = bounds_.max;
    const Vec2 b{c.x, a.y}, d{a.x, c.y};
    for (const Segment& s : {Segment{a, b}, Segment{b, c}, Segment{c, d}, Segment{d, a}}) {
      walls_.push_back(s);
      wall_layers_.push_back(kAllLayers);
    }
  }
}

Real Obstacles::circle_penetration(Vec2 p, Real r, LayerMask mask) const {
  // Contact with a circle means d^2 - reach^2 < 0 (no square root), tested four circles
  // at a time; only the circles in contact then cost a square root each for their depth,
  // reach - d. (The least d^2 - reach^2 is not always the deepest: (reach - d)(reach + d)
  // also grows with the reach.)
  const Real least = least_gap(circle_x_.data(), circle_y_.data(), circle_r_.data(), circle_x_.size(), p, r);
  if (!(least < 0)) return 0;  // no contact with any circle, on any layer
  // Contacts exist: the deepest among the sensed layers.
  Real depth = 0;
  for (std::size_t i = 0; i < circles_.size(); ++i) depth = std::max(depth, circle_depth(i, p, r, mask));
  return depth;
}

Real Obstacles::circle_depth(std::size_t i, Vec2 p, Real r, LayerMask mask) const {
  const Real reach = circles_[i].radius + r, d2 = length_squared(circles_[i].centre - p);
  return d2 < reach * reach && (mask & circle_layers_[i]) ? reach - std::sqrt(d2) : Real(0);
}

Real Obstacles::polygon_depth(int k, Vec2 p, Real r, LayerMask mask) const {
  const Bounds& box = polygon_boxes_[k];
  if (p.x < box.min.x || p.x > box.max.x || p.y < box.min.y || p.y > box.max.y || !(mask & polygon_layers_[k])) {
    return 0;
  }
  const int begin = polygon_starts_[k];
  const int count = polygon_starts_[k + 1] - begin;
  if (!point_in_polygon(polygon_vertices_.data() + begin, count, p)) return 0;
  // Inside a polygon the whole disc counts: depth is the distance to the nearest edge plus r.
  Real nearest = kInfinity;
  for (int i = 0; i < count; ++i) {
    const Segment e{polygon_vertices_[begin + i], polygon_vertices_[begin + (i + 1) % count]};
    nearest = std::min(nearest, length(p - closest_point_on_segment(e, p)));
  }
  return nearest + r;
}

Real Obstacles::penetration(Vec2 p, Real r, LayerMask mask) const {
  Real depth = 0;
  auto into_wall = [&](int i) {
    const Real d2 = length_squared(p - closest_point_on_segment(walls_[i], p));
    if (d2 < r * r && (mask & wall_layers_[i])) depth = std::max(depth, r - std::sqrt(d2));
  };
  if (indexed_) {
    for_each_near(
        p, r, [&](int i) { depth = std::max(depth, circle_depth(static_cast<std::size_t>(i), p, r, mask)); },
        into_wall);
  } else {
    depth = std::max(depth, circle_penetration(p, r, mask));
    for (std::size_t i = 0; i < walls_.size(); ++i) into_wall(static_cast<int>(i));
  }
  if (indexed_ && drift_ > 0) {
    index_.for_each_polygon_near(p, drift_, [&](int k) { depth = std::max(depth, polygon_depth(k, p, r, mask)); });
  } else if (indexed_) {
    index_.for_each_polygon_at(p, [&](int k) { depth = std::max(depth, polygon_depth(k, p, r, mask)); });
  } else {
    for (int k = 0; k < polygon_count(); ++k) depth = std::max(depth, polygon_depth(k, p, r, mask));
  }
  if (has_bounds_) {
    // Bounds hold every agent, whatever it senses: measured here rather than through the
    // wall loop, which follows the sense mask. `outside` is negative inside the bounds.
    const Real outside = std::max({bounds_.min.x - p.x, p.x - bounds_.max.x, bounds_.min.y - p.y, p.y - bounds_.max.y});
    depth = std::max(depth, outside + r);
  }
  return std::max(Real(0), depth);
}

void Obstacles::prepare_index(CellSizing sizing) {
  if (indexed_ || circles_.size() + walls_.size() < kIndexFrom) return;
  index_.build(circles_, walls_, polygon_boxes_, sizing);
  indexed_ = true;
}

}  // namespace contextsteer
