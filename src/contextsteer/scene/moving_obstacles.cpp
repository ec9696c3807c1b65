#include "contextsteer/scene/moving_obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <tuple>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/real_math.hpp"

namespace contextsteer {
namespace {

Vec2 turned(Vec2 q, Real c, Real s) { return {c * q.x - s * q.y, s * q.x + c * q.y}; }

void check_velocity(const char* name, Vec2 v, std::size_t k) {
  if (!within_bound(v)) {
    throw std::invalid_argument(std::string(name) + ": expected velocities within -1e9 to 1e9 m/s, got " +
                                format_reals({v.x, v.y}) + " for body " + std::to_string(k));
  }
}

}  // namespace

MovingObstacles& MovingObstacles::operator=(const MovingObstacles& o) {
  if (this == &o) return *this;
  kind_ = o.kind_, layer_ = o.layer_, local_start_ = o.local_start_, local_ = o.local_, extent_ = o.extent_;
  now_ = std::make_shared<Columns>(*o.now_);
  paths_ = o.paths_;
  spawn_position_ = o.spawn_position_, spawn_velocity_ = o.spawn_velocity_, spawn_angle_ = o.spawn_angle_;
  spawn_angular_velocity_ = o.spawn_angular_velocity_, spawn_paths_ = o.spawn_paths_;
  indexed_position_ = o.indexed_position_, indexed_angle_ = o.indexed_angle_;
  shapes_ = o.shapes_;
  circle_body_ = o.circle_body_, wall_body_ = o.wall_body_, first_wall_ = o.first_wall_;
  circle_bodies_ = o.circle_bodies_, segment_bodies_ = o.segment_bodies_, polygon_bodies_ = o.polygon_bodies_;
  return *this;
}

void MovingObstacles::new_columns(std::size_t more) {
  auto columns = std::make_shared<Columns>();
  const std::size_t bodies = kind_.size() + more;
  for (auto [to, from, width] :
       {std::tuple{&columns->position, &now_->position, 2}, std::tuple{&columns->velocity, &now_->velocity, 2},
        std::tuple{&columns->angle, &now_->angle, 1},
        std::tuple{&columns->angular_velocity, &now_->angular_velocity, 1}}) {
    to->reserve(bodies * static_cast<std::size_t>(width));
    *to = *from;
  }
  now_ = std::move(columns);
}

void MovingObstacles::add_body(BodyKind kind, Vec2 position, const std::vector<Vec2>& local, Vec2 velocity,
                               Real angular_velocity, LayerMask layer) {
  kind_.push_back(static_cast<std::int32_t>(kind));
  layer_.push_back(layer);
  local_.insert(local_.end(), local.begin(), local.end());
  local_start_.push_back(static_cast<int>(local_.size()));
  Real extent = 0;
  for (const Vec2& q : local) extent = std::max(extent, length(q));
  extent_.push_back(extent);
  for (std::vector<Real>* column : {&now_->position, &spawn_position_})
    column->insert(column->end(), {position.x, position.y});
  for (std::vector<Real>* column : {&now_->velocity, &spawn_velocity_})
    column->insert(column->end(), {velocity.x, velocity.y});
  now_->angle.push_back(0), spawn_angle_.push_back(0);
  now_->angular_velocity.push_back(angular_velocity), spawn_angular_velocity_.push_back(angular_velocity);
  paths_.emplace_back(), spawn_paths_.emplace_back();
}

int MovingObstacles::add_circles(const std::vector<Circle>& circles, const std::vector<Vec2>& velocities,
                                 LayerMask layer) {
  for (std::size_t k = 0; k < circles.size(); ++k) {
    const Circle& c = circles[k];
    if (!within_bound(c.centre) || !within_bound(c.radius) || c.radius < 0) {
      throw std::invalid_argument(
          "circles: expected centres within -1e9 to 1e9 and radii from 0 to 1e9 in metres, got (x, y, radius) " +
          format_reals({c.centre.x, c.centre.y, c.radius}) + " for circle " + std::to_string(k));
    }
    if (!velocities.empty()) check_velocity("velocities", velocities[k], k);
  }
  if (!velocities.empty() && velocities.size() != circles.size()) {
    throw std::invalid_argument("velocities: expected one per circle (" + std::to_string(circles.size()) + "), got " +
                                std::to_string(velocities.size()));
  }
  const int first = count();
  new_columns(circles.size());
  for (std::size_t k = 0; k < circles.size(); ++k) {
    add_body(BodyKind::kCircle, circles[k].centre, {Vec2{circles[k].radius, 0}},
             velocities.empty() ? Vec2{} : velocities[k], 0, layer);
  }
  rebuild_shapes();
  return first;
}

int MovingObstacles::add_segments(const std::vector<Segment>& segments, const std::vector<Vec2>& velocities,
                                  LayerMask layer) {
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const Segment& s = segments[k];
    if (!within_bound(s.a) || !within_bound(s.b)) {
      throw std::invalid_argument("segments: expected end points within -1e9 to 1e9 in metres, got " +
                                  format_reals({s.a.x, s.a.y, s.b.x, s.b.y}) + " for segment " + std::to_string(k));
    }
    if (!velocities.empty()) check_velocity("velocities", velocities[k], k);
  }
  if (!velocities.empty() && velocities.size() != segments.size()) {
    throw std::invalid_argument("velocities: expected one per segment (" + std::to_string(segments.size()) + "), got " +
                                std::to_string(velocities.size()));
  }
  const int first = count();
  new_columns(segments.size());
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const Vec2 mid = (segments[k].a + segments[k].b) * Real(0.5);
    add_body(BodyKind::kSegment, mid, {segments[k].a - mid, segments[k].b - mid},
             velocities.empty() ? Vec2{} : velocities[k], 0, layer);
  }
  rebuild_shapes();
  return first;
}

int MovingObstacles::add_polygon(const std::vector<Vec2>& vertices, Vec2 velocity, Real angular_velocity,
                                 LayerMask layer) {
  if (vertices.size() < 3) {
    throw std::invalid_argument("vertices: expected at least 3 vertices, got " + std::to_string(vertices.size()));
  }
  Vec2 mean{};
  for (std::size_t k = 0; k < vertices.size(); ++k) {
    if (!within_bound(vertices[k])) {
      throw std::invalid_argument("vertices: expected vertices within -1e9 to 1e9 in metres, got " +
                                  format_reals({vertices[k].x, vertices[k].y}) + " for vertex " + std::to_string(k));
    }
    mean = mean + vertices[k];
  }
  check_velocity("velocity", velocity, 0);
  if (!within_bound(angular_velocity)) {
    throw std::invalid_argument("angular_velocity: expected radians per second within -1e9 to 1e9, got " +
                                format_reals({angular_velocity}));
  }
  mean = mean * (Real(1) / static_cast<Real>(vertices.size()));
  std::vector<Vec2> local;
  for (const Vec2& v : vertices) local.push_back(v - mean);
  const int first = count();
  new_columns(1);
  add_body(BodyKind::kPolygon, mean, local, velocity, angular_velocity, layer);
  rebuild_shapes();
  return first;
}

void MovingObstacles::set_path(int body, ObstaclePath path) {
  if (body < 0 || body >= count()) {
    throw std::invalid_argument("ids: expected moving obstacles from 0 to " + std::to_string(count() - 1) + ", got " +
                                std::to_string(body));
  }
  if (path.waypoints.empty()) throw std::invalid_argument("waypoints: expected at least one waypoint, got none");
  for (std::size_t k = 0; k < path.waypoints.size(); ++k) {
    if (!within_bound(path.waypoints[k])) {
      throw std::invalid_argument("waypoints: expected points within -1e9 to 1e9 in metres, got " +
                                  format_reals({path.waypoints[k].x, path.waypoints[k].y}) + " for waypoint " +
                                  std::to_string(k));
    }
  }
  if (!(path.speed > 0) || !within_bound(path.speed)) {
    throw std::invalid_argument("speed: expected metres per second above 0 and within 1e9, got " +
                                format_reals({path.speed}));
  }
  path.next = 0, path.direction = 1;
  paths_[body] = path;
  spawn_paths_[body] = path;
}

void MovingObstacles::clear_path(int body) {
  if (body < 0 || body >= count()) {
    throw std::invalid_argument("ids: expected moving obstacles from 0 to " + std::to_string(count() - 1) + ", got " +
                                std::to_string(body));
  }
  paths_[body] = {}, spawn_paths_[body] = {};
}

std::vector<Vec2> MovingObstacles::local_shape(int body) const {
  return {local_.begin() + local_start_[body], local_.begin() + local_start_[body + 1]};
}

const ObstaclePath* MovingObstacles::path(int body) const {
  return paths_[body].waypoints.empty() ? nullptr : &paths_[body];
}

void MovingObstacles::check() const {
  const std::pair<const char*, const std::vector<Real>*> columns[] = {
      {"moving_positions", &now_->position},
      {"moving_velocities", &now_->velocity},
      {"moving_angles", &now_->angle},
      {"moving_angular_velocities", &now_->angular_velocity}};
  for (const auto& [name, column] : columns) {
    for (std::size_t i = 0; i < column->size(); ++i) {
      if (!within_bound((*column)[i])) {
        throw std::invalid_argument(std::string(name) + ": expected values within -1e9 to 1e9, got " +
                                    format_reals({(*column)[i]}) + " at flat index " + std::to_string(i));
      }
    }
  }
}

void MovingObstacles::follow_path(int body, Real dt) {
  ObstaclePath& path = paths_[body];
  const int n = static_cast<int>(path.waypoints.size());
  Vec2 p = position(body);
  Real left = path.speed * dt;
  // Each pass reaches a waypoint or ends the step; a round of waypoints all at one
  // point would otherwise turn for ever.
  for (int pass = 0; pass <= 2 * n + 1 && left > 0; ++pass) {
    const Vec2 to = path.waypoints[path.next] - p;
    const Real gap = length(to);
    if (gap > left) {
      p = p + to * (left / gap);
      left = 0;
      break;
    }
    p = path.waypoints[path.next];
    left -= gap;
    if (n == 1) break;
    if (path.back_and_forth && (path.next + path.direction < 0 || path.next + path.direction >= n)) {
      path.direction = -path.direction;
    }
    path.next = path.back_and_forth ? path.next + path.direction : (path.next + 1) % n;
  }
  now_->position[2 * body] = p.x, now_->position[2 * body + 1] = p.y;
  const Vec2 to = path.waypoints[path.next] - p;
  const Real gap = length(to);
  const Vec2 v = gap > 0 ? to * (path.speed / gap) : Vec2{};
  now_->velocity[2 * body] = v.x, now_->velocity[2 * body + 1] = v.y;
}

void MovingObstacles::advance(Real dt) {
  check();
  for (int b = 0; b < count(); ++b) {
    if (!paths_[b].waypoints.empty()) {
      follow_path(b, dt);
    } else {
      now_->position[2 * b] += now_->velocity[2 * b] * dt;
      now_->position[2 * b + 1] += now_->velocity[2 * b + 1] * dt;
    }
    now_->angle[b] = std::remainder(now_->angle[b] + now_->angular_velocity[b] * dt, Real(2 * kPi));
  }
  place();
}

Real MovingObstacles::drift() const {
  if (indexed_position_.size() != now_->position.size()) return -1;
  Real drift = 0;
  for (int b = 0; b < count(); ++b) {
    const Real dx = now_->position[2 * b] - indexed_position_[2 * b],
               dy = now_->position[2 * b + 1] - indexed_position_[2 * b + 1];
    // A point at distance e from the reference point turning by da moves at most e |da|.
    const Real turn = std::fabs(std::remainder(now_->angle[b] - indexed_angle_[b], Real(2 * kPi)));
    drift = std::max(drift, std::sqrt(dx * dx + dy * dy) + extent_[b] * turn);
  }
  // Room for the rounding of the shapes' coordinates.
  return drift * Real(1.001) + Real(1e-6);
}

void MovingObstacles::place() {
  std::vector<Circle>& circles = placed_circles_;
  std::vector<Segment>& segments = placed_segments_;
  std::vector<Vec2>& vertices = placed_vertices_;
  circles.clear(), segments.clear(), vertices.clear();
  for (int b = 0; b < count(); ++b) {
    const Vec2 p = position(b);
    const Real c = math::cos(now_->angle[b]), s = math::sin(now_->angle[b]);
    const int begin = local_start_[b], end = local_start_[b + 1];
    switch (kind(b)) {
      case BodyKind::kCircle:
        circles.push_back({p, local_[begin].x});
        break;
      case BodyKind::kSegment:
        segments.push_back({p + turned(local_[begin], c, s), p + turned(local_[begin + 1], c, s)});
        break;
      case BodyKind::kPolygon:
        for (int i = begin; i < end; ++i) vertices.push_back(p + turned(local_[i], c, s));
        break;
    }
  }
  shapes_.move(circles, segments, vertices, drift());
  if (!shapes_.indexed()) {
    shapes_.prepare_index();
    indexed_position_ = now_->position, indexed_angle_ = now_->angle;
  }
}

void MovingObstacles::reset() {
  now_->position = spawn_position_, now_->velocity = spawn_velocity_;
  now_->angle = spawn_angle_, now_->angular_velocity = spawn_angular_velocity_;
  paths_ = spawn_paths_;
  place();
}

void MovingObstacles::rebuild_shapes() {
  shapes_ = Obstacles();
  circle_body_.clear(), wall_body_.clear();
  circle_bodies_.clear(), segment_bodies_.clear(), polygon_bodies_.clear();
  std::vector<Circle> circles;
  std::vector<Segment> segments;
  for (int b = 0; b < count(); ++b) {
    if (kind(b) == BodyKind::kCircle)
      circle_bodies_.push_back(b), circles.push_back({position(b), local_[local_start_[b]].x});
    if (kind(b) == BodyKind::kSegment) segment_bodies_.push_back(b);
    if (kind(b) == BodyKind::kPolygon) polygon_bodies_.push_back(b);
  }
  // Each run of one layer goes in with one call.
  for (std::size_t i = 0; i < circle_bodies_.size();) {
    std::size_t j = i;
    while (j < circle_bodies_.size() && layer_[circle_bodies_[j]] == layer_[circle_bodies_[i]]) ++j;
    shapes_.add_circles({circles.begin() + static_cast<long>(i), circles.begin() + static_cast<long>(j)},
                        layer_[circle_bodies_[i]]);
    i = j;
  }
  circle_body_ = circle_bodies_;
  for (std::size_t i = 0; i < segment_bodies_.size();) {
    std::size_t j = i;
    segments.clear();
    while (j < segment_bodies_.size() && layer_[segment_bodies_[j]] == layer_[segment_bodies_[i]]) {
      const int b = segment_bodies_[j++];
      segments.push_back({position(b) + local_[local_start_[b]], position(b) + local_[local_start_[b] + 1]});
    }
    shapes_.add_segments(segments, layer_[segment_bodies_[i]]);
    i = j;
  }
  wall_body_ = segment_bodies_;
  std::vector<std::vector<Vec2>> polygons;
  std::vector<LayerMask> polygon_layers;
  for (const int b : polygon_bodies_) {
    polygons.emplace_back();
    for (int i = local_start_[b]; i < local_start_[b + 1]; ++i) polygons.back().push_back(position(b) + local_[i]);
    polygon_layers.push_back(layer_[b]);
    wall_body_.insert(wall_body_.end(), static_cast<std::size_t>(local_start_[b + 1] - local_start_[b]), b);
  }
  shapes_.add_polygons(polygons, polygon_layers);  // the walls rebuilt once
  first_wall_.assign(kind_.size(), -1);
  for (std::size_t j = wall_body_.size(); j-- > 0;) first_wall_[wall_body_[j]] = static_cast<int>(j);
  shapes_.keep_index_scratch();  // indexed again as the bodies move
  indexed_position_.clear();
  place();  // at the bodies' angles, with the index
}

Vec2 MovingObstacles::velocity_at(int body, Vec2 q) const {
  const Vec2 r = q - position(body);
  const Real w = now_->angular_velocity[body];
  return velocity(body) + Vec2{-w * r.y, w * r.x};
}

}  // namespace contextsteer
