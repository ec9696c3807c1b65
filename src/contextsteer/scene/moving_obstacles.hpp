// Moving obstacles: kinematic circles, segments and polygons (bodies) whose velocity,
// and angular velocity, are set from outside between steps, or that follow a scripted
// path of waypoints at a speed. Each body has a pose (reference point and angle) and its
// shape about that point: a circle's centre, a segment's midpoint, a polygon's vertex
// mean. Where they stand now is held as an Obstacles (shapes()) that behaviours query as
// they query the static ones; its index is kept while the bodies drift less than half a
// cell from where it was built (queries widen their reach by the drift), and rebuilt
// from the bodies alone when they drift farther.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

enum class BodyKind : std::int32_t { kCircle = 0, kSegment = 1, kPolygon = 2 };

// A scripted path: from where the body stands, to waypoints[0], [1], ... at `speed`
// (m/s); then round again from waypoints[0] (loop), or back along them (back and forth).
// A path of one waypoint ends there, the body at rest.
struct ObstaclePath {
  std::vector<Vec2> waypoints;
  Real speed = 0;
  bool back_and_forth = false;
  int next = 0;       // the waypoint headed for
  int direction = 1;  // +1 or -1 along the waypoints (back and forth)
};

class MovingObstacles {
 public:
  struct Columns {
    std::vector<Real> position, velocity, angle, angular_velocity;
  };
  MovingObstacles() = default;
  // Copies have columns of their own.
  MovingObstacles(const MovingObstacles& o) { *this = o; }
  MovingObstacles& operator=(const MovingObstacles& o);
  MovingObstacles(MovingObstacles&&) = default;
  MovingObstacles& operator=(MovingObstacles&&) = default;
  // The columns' buffer, for views that keep it alive.
  const std::shared_ptr<Columns>& columns() const { return now_; }

  // Each adder throws std::invalid_argument, adding nothing, for coordinates or
  // velocities beyond +-kMaxMagnitude (NaN and inf among them), negative radii, or a
  // polygon of fewer than 3 vertices; `velocities` is empty (at rest) or one per body.
  // Each returns the index of its first body, the others following.
  int add_circles(const std::vector<Circle>& circles, const std::vector<Vec2>& velocities, LayerMask layer);
  int add_segments(const std::vector<Segment>& segments, const std::vector<Vec2>& velocities, LayerMask layer);
  int add_polygon(const std::vector<Vec2>& vertices, Vec2 velocity, Real angular_velocity, LayerMask layer);
  // Gives `body` a path (std::invalid_argument for an unknown body, no waypoints, a
  // waypoint beyond the bound or a speed not above 0 and within it); clear_path ends it.
  void set_path(int body, ObstaclePath path);
  void clear_path(int body);
  void clear() { *this = MovingObstacles(); }

  int count() const { return static_cast<int>(kind_.size()); }
  bool empty() const { return kind_.empty(); }
  // Columns by body, writable between steps: positions and velocities (count, 2) as
  // x, y pairs; angles (radians) and angular velocities (rad/s) (count,).
  std::vector<Real>& positions() { return now_->position; }
  std::vector<Real>& velocities() { return now_->velocity; }
  std::vector<Real>& angles() { return now_->angle; }
  std::vector<Real>& angular_velocities() { return now_->angular_velocity; }
  const std::vector<Real>& positions() const { return now_->position; }
  const std::vector<Real>& velocities() const { return now_->velocity; }
  const std::vector<Real>& angles() const { return now_->angle; }
  const std::vector<Real>& angular_velocities() const { return now_->angular_velocity; }
  BodyKind kind(int body) const { return static_cast<BodyKind>(kind_[body]); }
  LayerMask layer(int body) const { return layer_[body]; }
  // The body's shape about its reference point at angle 0: a circle's one point (its
  // radius, 0), a segment's two ends, a polygon's vertices.
  std::vector<Vec2> local_shape(int body) const;
  // The farthest any point of the body lies from its reference point, metres.
  Real extent(int body) const { return extent_[body]; }
  const ObstaclePath* path(int body) const;

  // Throws std::invalid_argument naming the column for positions, velocities, angles or
  // angular velocities written beyond +-kMaxMagnitude; changes nothing.
  void check() const;
  // Advances every body by dt seconds: one on a path along it (its velocity set to the
  // way it now heads at the path's speed), the others at their velocities. Then places
  // the shapes and the index where the bodies are.
  void advance(Real dt);
  // Places the shapes where the bodies stand (after their poses were written).
  void place();
  // Puts every body back to its pose, velocities and path progress when added.
  void reset();

  // Where the bodies stand: circles, walls (segments, then polygon edges) and polygons.
  const Obstacles& shapes() const { return shapes_; }
  int body_of_circle(int i) const { return circle_body_[i]; }
  int body_of_wall(int j) const { return wall_body_[j]; }
  // A segment's or polygon's walls where it stands: shapes().walls()[first_wall(b) ..
  // first_wall(b) + wall_count(b)), a polygon's edges in order round it (none for a circle).
  int first_wall(int body) const { return first_wall_[body]; }
  int wall_count(int body) const {
    return kind(body) == BodyKind::kCircle    ? 0
           : kind(body) == BodyKind::kSegment ? 1
                                              : local_start_[body + 1] - local_start_[body];
  }
  // Calls body(b) for every body on a layer of `senses` whose shape comes within `reach`
  // metres of p (its circle, or one of its walls; the test is exact, so that what is met
  // does not hang on the index); some more than once (a polygon once per edge within
  // reach), so callers keep maxima. A point deep inside a polygon, beyond reach of its
  // edges, meets none.
  template <class OnBody>
  void for_each_body_near(Vec2 p, Real reach, LayerMask senses, OnBody&& body) const {
    const auto& circles = shapes_.circles();
    const auto& walls = shapes_.walls();
    const auto& circle_layers = shapes_.circle_layers();
    const auto& wall_layers = shapes_.wall_layers();
    shapes_.for_each_near(
        p, reach,
        [&](int i) {
          const Real within = reach + circles[i].radius;
          if ((senses & circle_layers[i]) && length_squared(circles[i].centre - p) <= within * within) {
            body(circle_body_[i]);
          }
        },
        [&](int j) {
          if ((senses & wall_layers[j]) && length_squared(closest_point_on_segment(walls[j], p) - p) <= reach * reach) {
            body(wall_body_[j]);
          }
        });
  }
  // The velocity of the body's point q (its own velocity plus its turn about the
  // reference point), m/s.
  Vec2 velocity_at(int body, Vec2 q) const;
  Vec2 position(int body) const { return {now_->position[2 * body], now_->position[2 * body + 1]}; }
  Vec2 velocity(int body) const { return {now_->velocity[2 * body], now_->velocity[2 * body + 1]}; }

  // The whole state as bytes, and back (std::invalid_argument for bytes no save gives).
  // save() throws as check() does for columns written beyond the bound.
  std::vector<unsigned char> save() const;
  void load(const std::vector<unsigned char>& bytes);

 private:
  // Columns of their own for `more` bodies beyond these (views made before keep the old
  // ones), once per add: add_body then appends to them.
  void new_columns(std::size_t more);
  void add_body(BodyKind kind, Vec2 position, const std::vector<Vec2>& local, Vec2 velocity, Real angular_velocity,
                LayerMask layer);
  void follow_path(int body, Real dt);
  void rebuild_shapes();  // after bodies were added or loaded
  // The drift bound since the index was built (see Obstacles::move).
  Real drift() const;

  std::vector<std::int32_t> kind_;
  std::vector<LayerMask> layer_;
  std::vector<int> local_start_{0};  // body b's shape: local_[local_start_[b] .. local_start_[b + 1])
  std::vector<Vec2> local_;
  std::vector<Real> extent_;
  // The columns the NumPy views show, shared with them: adding bodies makes new ones,
  // so that a view made before stays valid (showing the columns as they were).
  std::shared_ptr<Columns> now_ = std::make_shared<Columns>();
  std::vector<ObstaclePath> paths_;  // one per body; no waypoints for none
  // As added, for reset().
  std::vector<Real> spawn_position_, spawn_velocity_, spawn_angle_, spawn_angular_velocity_;
  std::vector<ObstaclePath> spawn_paths_;
  // Poses when the index was last built, for the drift.
  std::vector<Real> indexed_position_, indexed_angle_;

  Obstacles shapes_;
  std::vector<int> circle_body_, wall_body_;
  std::vector<int> first_wall_;                                       // per body, -1 for a circle
  std::vector<int> circle_bodies_, segment_bodies_, polygon_bodies_;  // bodies of each kind, in order
  // Where place() puts the shapes before handing them to shapes_: kept, so that placing
  // allocates nothing once they have grown to the bodies.
  std::vector<Circle> placed_circles_;
  std::vector<Segment> placed_segments_;
  std::vector<Vec2> placed_vertices_;
};

}  // namespace contextsteer
