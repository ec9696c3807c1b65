// Every constructor of the core refuses a bad scalar parameter alike: std::invalid_argument
// naming the argument, what it expects and the value that came (parameter_checks.hpp).
// Python checks these before it calls the core; a game engine calls the core directly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/behaviors/arrive_leave.hpp"
#include "contextsteer/behaviors/avoid.hpp"
#include "contextsteer/behaviors/chase.hpp"
#include "contextsteer/behaviors/flee.hpp"
#include "contextsteer/behaviors/flocking.hpp"
#include "contextsteer/behaviors/follow_field.hpp"
#include "contextsteer/behaviors/follow_path.hpp"
#include "contextsteer/behaviors/forward.hpp"
#include "contextsteer/behaviors/pursue_evade.hpp"
#include "contextsteer/behaviors/racing_lanes.hpp"
#include "contextsteer/behaviors/rays.hpp"
#include "contextsteer/behaviors/time_to_collision.hpp"
#include "contextsteer/behaviors/wander.hpp"
#include "contextsteer/maps/resolve.hpp"
#include "contextsteer/maps/shaping.hpp"
#include "contextsteer/maps/slots.hpp"
#include "contextsteer/navigation/navigation_field.hpp"
#include "contextsteer/navigation/track.hpp"
#include "contextsteer/scene/spatial_grid.hpp"
#include "contextsteer/steering/steering.hpp"
#include "params_with.hpp"

using namespace contextsteer;

namespace {

// The message `call` throws as std::invalid_argument; a test failure if it throws nothing.
std::string refusal(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing was thrown";
  return "";
}

struct Case {
  const char* name;
  std::function<void()> call;
  const char* message;  // the whole message
};

std::shared_ptr<const NavigationField> open_field() {
  return std::make_shared<NavigationField>(Obstacles{}, kAllLayers, Bounds{{0, 0}, {4, 4}}, Real(1), Real(0),
                                           std::vector<Vec2>{{2, 2}});
}

std::shared_ptr<const Track> straight_track() {
  return std::make_shared<Track>(std::vector<Vec2>{{0, 0}, {10, 0}}, Real(2), std::vector<Real>{}, false);
}

ClassicSteering classic_with(void (*set)(ClassicBehavior&), Real epsilon = Real(1e-3)) {
  ClassicBehavior b;
  set(b);
  return ClassicSteering({b}, CombinerKind::Blend, epsilon);
}

const Real kNaN = std::nanf("");
const Real kInf = INFINITY;

const std::vector<Case>& cases() {
  static const std::vector<Case> all = {
      {"Avoid",
       [] {
         AvoidParams p;
         p.max_distance = 0;
         Avoid({}, p);
       },
       "max_distance: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"Chase",
       [] {
         ChaseParams p;
         p.max_distance = -kInf;
         Chase({}, p);
       },
       "max_distance: expected a distance > 0 and at most 1e9 in metres, got -inf"},
      {"Chase",
       [] {
         ChaseParams p;
         p.max_distance = 2e9f;
         Chase({}, p);
       },
       "max_distance: expected a distance > 0 and at most 1e9 in metres, got 2e+09"},
      {"Arrive", [] { Arrive({}, with<ArriveParams>([](auto& p) { p.target_radius = -1; })); },
       "target_radius: expected a distance from 0 to 1e9 in metres, got -1"},
      {"Arrive", [] { Arrive({}, with<ArriveParams>([](auto& p) { p.slowing_radius = kNaN; })); },
       "slowing_radius: expected a distance > 0 and at most 1e9 in metres, got nan"},
      {"Leave", [] { Leave({}, with<LeaveParams>([](auto& p) { p.escape_radius = kInf; })); },
       "escape_radius: expected a distance from 0 to 1e9 in metres, got inf"},
      {"Leave", [] { Leave({}, with<LeaveParams>([](auto& p) { p.danger_radius = 0; })); },
       "danger_radius: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"Flee", [] { Flee({}, with<FleeParams>([](auto& p) { p.radius = 5e9f; })); },
       "radius: expected a distance > 0 and at most 1e9 in metres, got 5e+09"},
      {"Cohesion", [] { Cohesion(with<CohesionParams>([](auto& p) { p.radius = 0; })); },
       "radius: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"Rays", [] { Rays(with<RaysParams>([](auto& p) { p.length = -2; })); },
       "length: expected a distance > 0 and at most 1e9 in metres, got -2"},
      {"Forward", [] { Forward(with<ForwardParams>([](auto& p) { p.strength = -0.5f; })); },
       "strength: expected a number from 0 to 1e9, got -0.5"},
      {"Forward weight", [] { Forward(with<ForwardParams>([](auto& p) { p.weight = kNaN; })); },
       "weight: expected a number within -1e9 to 1e9, got nan"},
      {"Pursue", [] { Pursue(with<PursueParams>([](auto& p) { p.max_prediction = 0; })); },
       "max_prediction: expected a time > 0 and at most 1e9 in seconds, got 0"},
      {"Evade", [] { Evade(with<EvadeParams>([](auto& p) { p.radius = -1; })); },
       "radius: expected a distance > 0 and at most 1e9 in metres, got -1"},
      {"TimeToCollision", [] { TimeToCollision(with<TimeToCollisionParams>([](auto& p) { p.horizon = 0; })); },
       "horizon: expected a time > 0 and at most 1e9 in seconds, got 0"},
      {"TimeToCollision", [] { TimeToCollision(with<TimeToCollisionParams>([](auto& p) { p.radius = kInf; })); },
       "radius: expected a distance > 0 and at most 1e9 in metres, got inf"},
      {"Wander", [] { Wander(with<WanderParams>([](auto& p) { p.rate = 0; })); },
       "rate: expected a rate > 0 and at most 1e9 per second, got 0"},
      {"Wander", [] { Wander(with<WanderParams>([](auto& p) { p.spread = -1; })); },
       "spread: expected an angle from 0 to 1e9 in radians, got -1"},
      {"Wander", [] { Wander(with<WanderParams>([](auto& p) { p.strength = -3; })); },
       "strength: expected a number from 0 to 1e9, got -3"},
      {"FollowPath", [] { FollowPath({{0, 0}, {1, 0}}, with<FollowPathParams>([](auto& p) { p.lookahead = -1; })); },
       "lookahead: expected a distance from 0 to 1e9 in metres, got -1"},
      {"FollowPath",
       [] { FollowPath({{0, 0}, {1, 0}}, with<FollowPathParams>([](auto& p) { p.arrive_radius = -0.5f; })); },
       "arrive_radius: expected a distance from 0 to 1e9 in metres, got -0.5"},
      {"FollowPath", [] { FollowPath({{0, 0}, {1, 0}}, with<FollowPathParams>([](auto& p) { p.window = 0; })); },
       "window: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"FollowField", [] { FollowField(open_field(), with<FollowFieldParams>([](auto& p) { p.arrive_radius = -1; })); },
       "arrive_radius: expected a distance from 0 to 1e9 in metres, got -1"},
      {"FollowField", [] { FollowField(open_field(), with<FollowFieldParams>([](auto& p) { p.slowing_radius = 0; })); },
       "slowing_radius: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"RacingLanes", [] { RacingLanes(straight_track(), with<RacingLanesParams>([](auto& p) { p.lookahead = 0; })); },
       "lookahead: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"RacingLanes",
       [] { RacingLanes(straight_track(), with<RacingLanesParams>([](auto& p) { p.line_width = -1; })); },
       "line_width: expected a distance > 0 and at most 1e9 in metres, got -1"},
      {"RacingLanes", [] { RacingLanes(straight_track(), with<RacingLanesParams>([](auto& p) { p.window = kNaN; })); },
       "window: expected a distance > 0 and at most 1e9 in metres, got nan"},
      {"RacingLanes lanes",
       [] { RacingLanes(straight_track(), with<RacingLanesParams>([](auto& p) { p.lanes = 0; })); },
       "lanes: expected from 1 to 256 lanes, got 0"},
      {"Track", [] { Track({{0, 0}, {10, 0}}, 0, {}, false); },
       "half_width: expected a width > 0 and at most 1e9 in metres, got 0"},
      {"NavigationField", [] { NavigationField(Obstacles{}, kAllLayers, {{0, 0}, {4, 4}}, 0, 0, {{2, 2}}); },
       "cell: expected a size > 0 and at most 1e9 in metres, got 0"},
      {"NavigationField", [] { NavigationField(Obstacles{}, kAllLayers, {{0, 0}, {4, 4}}, 1, -1, {{2, 2}}); },
       "clearance: expected a distance from 0 to 1e9 in metres, got -1"},
      {"NavigationField::path_from", [] { open_field()->path_from({1, 1}, 0, 10); },
       "step: expected a distance > 0 and at most 1e9 in metres, got 0"},
      {"SlotDirections", [] { SlotDirections(8, kInf); },
       "offset: expected an angle within -1e9 to 1e9 in radians, got inf"},
      {"CircularBlur", [] { CircularBlur(-1, 8); }, "blur width: expected a number of slots from 0 to 1e9, got -1"},
      {"ResolveParams",
       [] {
         ResolveParams p;
         p.threshold = kNaN;
         check_resolve_params(p);
       },
       "threshold: expected a danger level within -1e9 to 1e9, got nan"},
      {"ResolveParams",
       [] {
         ResolveParams p;
         p.margin = -1;
         check_resolve_params(p);
       },
       "margin: expected a danger margin from 0 to 1e9, got -1"},
      {"ResolveParams",
       [] {
         ResolveParams p;
         p.hysteresis = -0.25f;
         check_resolve_params(p);
       },
       "hysteresis: expected a number from 0 to 1e9, got -0.25"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior&) {}, -1); },
       "epsilon: expected a number from 0 to 1e9, got -1"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior& b) { b.weight = 3e9f; }); },
       "weight: expected a number within -1e9 to 1e9, got 3e+09"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior& b) { b.fixed_target = true, b.target = {0, kInf}; }); },
       "target: expected a coordinate within -1e9 to 1e9 in metres, got inf"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior& b) { b.time_to_target = 0; }); },
       "time_to_target: expected a time > 0 and at most 1e9 in seconds, got 0"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior& b) { b.target_radius = -1; }); },
       "target_radius: expected a distance from 0 to 1e9 in metres, got -1"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior& b) { b.escape_radius = kNaN; }); },
       "escape_radius: expected a distance from 0 to 1e9 in metres, got nan"},
      {"ClassicSteering", [] { classic_with([](ClassicBehavior& b) { b.align_tolerance = -0.1f; }); },
       "align_tolerance: expected an angle from 0 to 1e9 in radians, got -0.1"},
      // Points, circles and boxes: the one that is refused, and its place.
      {"Obstacles circles", [] { Obstacles().add_circles({{{0, 0}, 1}, {{2, 3}, -0.5f}}); },
       "circles: expected centres within -1e9 to 1e9 and radii from 0 to 1e9 in metres, got (x, y, radius) "
       "(2, 3, -0.5) for circle 1"},
      {"Obstacles segments", [] { Obstacles().add_segments({{{0, 0}, {1, kNaN}}}); },
       "segments: expected end points within -1e9 to 1e9 in metres, got (0, 0, 1, nan) for segment 0"},
      {"Obstacles polygon", [] { Obstacles().add_polygon({{0, 0}, {1, 0}, {2e9f, 1}}); },
       "polygon: expected vertices within -1e9 to 1e9 in metres, got (2e+09, 1) for vertex 2"},
      {"Obstacles bounds", [] { Obstacles().set_bounds({{0, 0}, {0, 4}}); },
       "bounds: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin < xmax and ymin < ymax, got "
       "(0, 0, 0, 4)"},
      {"NavigationField area", [] { NavigationField(Obstacles{}, kAllLayers, {{0, 0}, {4, kInf}}, 1, 0, {{2, 2}}); },
       "area: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin < xmax and ymin < ymax, got "
       "(0, 0, 4, inf)"},
      {"NavigationField goal_areas",
       [] {
         NavigationField(Obstacles{}, kAllLayers, {{0, 0}, {4, 4}}, 1, 0, {}, {{{0, 0}, {1, 1}}, {{3, 0}, {2, 1}}});
       },
       "goal_areas: expected (xmin, ymin, xmax, ymax) within -1e9 to 1e9 with xmin <= xmax and ymin <= ymax, got "
       "(3, 0, 2, 1) for area 1"},
      {"Arrive targets", [] { Arrive({{1, 2}, {kInf, 0}}, ArriveParams{}); },
       "targets: expected points within -1e9 to 1e9 in metres, got (inf, 0) for point 1"},
      {"Track centreline", [] { Track({{0, 0}, {10, 0}, {kNaN, 5}}, 2, {}, false); },
       "centreline: expected points within -1e9 to 1e9 in metres, got (nan, 5) for point 2"},
      {"Track centreline count", [] { Track({{0, 0}}, 2, {}, false); },
       "centreline: expected at least 2 points, got 1"},
      {"FollowPath waypoints", [] { FollowPath({}, FollowPathParams{}); },
       "waypoints: expected at least one waypoint, got none"},
      {"SpatialGrid row_height", [] { SpatialGrid().build(nullptr, 0, -1); },
       "row_height: expected a finite size > 0 in metres, got -1"},
      {"Track racing_line", [] { Track({{0, 0}, {10, 0}}, 2, {0, 2.5f}, false); },
       "racing_line: expected offsets within the half-width 2 m, got 2.5 for point 1"},
  };
  return all;
}

}  // namespace

TEST(ParameterChecks, EveryConstructorNamesTheArgumentWhatItExpectsAndWhatCame) {
  for (const Case& c : cases()) EXPECT_EQ(refusal(c.call), c.message) << c.name;
}

TEST(ParameterChecks, TheBoundsThemselvesPass) {
  EXPECT_NO_THROW(require_positive(Real(1e9), "x"));
  EXPECT_NO_THROW(require_positive(Real(1e-30), "x"));
  EXPECT_NO_THROW(require_nonnegative(0, "x"));
  EXPECT_NO_THROW(require_nonnegative(Real(1e9), "x"));
  EXPECT_NO_THROW(require_bounded(Real(-1e9), "x"));
  EXPECT_NO_THROW(require_bounded(Real(1e9), "x"));
  // Chase alone takes an infinite distance: it then ignores no target.
  ChaseParams p;
  p.max_distance = kInf;
  EXPECT_NO_THROW(Chase({}, p));
}

TEST(ParameterChecks, ValuesAreWrittenWithTheFewestDigitsThatReadBack) {
  const std::vector<std::pair<Real, std::string>> written = {
      {50, "50"},      {0.1f, "0.1"},     {-2.5f, "-2.5"},  {1234.5f, "1234.5"},          {0, "0"},
      {-0.0f, "-0"},   {1e-4f, "0.0001"}, {1e-5f, "1e-05"}, {9999999, "9999999"},         {1e7f, "1e+07"},
      {2e9f, "2e+09"}, {1e-30f, "1e-30"}, {3e38f, "3e+38"}, {123456789, "1.2345679e+08"}, {kInf, "inf"},
      {-kInf, "-inf"}, {kNaN, "nan"},
  };
  for (const auto& [value, text] : written) EXPECT_EQ(format_real(value), text) << value;
  EXPECT_EQ(format_reals({1, 2.5f, -50}), "(1, 2.5, -50)");
  // Whatever the magnitude, the text reads back as the same float.
  for (Real value = Real(1.17549435e-38); std::isfinite(value); value *= Real(-3.7)) {
    EXPECT_EQ(std::strtof(format_real(value).c_str(), nullptr), value) << format_real(value);
  }
}
