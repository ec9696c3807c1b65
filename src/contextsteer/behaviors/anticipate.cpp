#include "contextsteer/behaviors/anticipate.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "contextsteer/base/real_math.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"

namespace contextsteer {
namespace {

Real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

constexpr Real kSqrt2 = Real(1.4142135623730951);

// Whether relative velocity w comes within `reach` of p at some t in (0, horizon].
bool touches(Vec2 w, Vec2 p, Real reach, Real horizon) {
  const Real w2 = length_squared(w);
  if (w2 <= 0) return false;
  const Real t = std::min(dot(w, p) / w2, horizon);
  if (t <= 0) return false;
  return length_squared(w * t - p) < reach * reach;
}

}  // namespace

bool standing_is_touched(Vec2 p, Vec2 v, Real reach, Real horizon) {
  if (length_squared(p) <= reach * reach) return dot(v, p) <= 0;  // touching: unless it moves off
  return touches(v * Real(-1), p, reach, horizon);
}

Real anticipated_danger(Vec2 p, Vec2 v, Real reach, Real horizon, Vec2 d, Real top) {
  if (!(top > 0)) return 0;
  const Real dist2 = length_squared(p);
  if (dist2 <= reach * reach) {
    // Touching: a way that closes in faster than the disc moves off deepens the touch (the
    // safe speed along d keeps the distance); one more than 45 degrees off the line to
    // the disc slides past it, its danger fading to 0 at 90 degrees.
    const Real closing = dot(d, p);
    if (closing <= 0) return 0;
    const Real head_on = std::min(Real(1), kSqrt2 * closing / std::sqrt(dist2));  // closing > 0: p is not 0
    return head_on * (Real(1) - std::min(Real(1), std::max(Real(0), dot(v, p) / closing) / top));
  }
  // In relative velocity w = s d - v, the ray starts at w0 = -v and runs along d; the
  // truncated cone it may cross is convex, so the ray enters it at most once and leaves
  // it at most once. Where it can cross the boundary: the cap (the disc of the positions
  // reached at t = horizon, centre p / horizon, radius reach / horizon) and the legs (the
  // rays from the origin tangent to the disc of radius reach round p).
  const Vec2 w0 = v * Real(-1);
  Real crossings[4];
  int count = 0;
  const Vec2 m = w0 - p * (Real(1) / horizon);
  const Real rho = reach / horizon;
  const Real b = dot(m, d);
  const Real disc = b * b - (length_squared(m) - rho * rho);
  if (disc >= 0) {
    const Real root = std::sqrt(disc);
    crossings[count++] = -b - root;
    crossings[count++] = -b + root;
  }
  const Real dist = std::sqrt(dist2);
  const Real tangent = std::sqrt(dist2 - reach * reach);
  const Vec2 u = p * (Real(1) / dist);
  const Real cos_a = tangent / dist, sin_a = reach / dist;
  for (const Real side : {Real(1), Real(-1)}) {
    const Vec2 leg{u.x * cos_a - side * u.y * sin_a, side * u.x * sin_a + u.y * cos_a};
    const Real denom = cross(d, leg);
    if (std::fabs(denom) > Real(1e-12)) crossings[count++] = -cross(w0, leg) / denom;
  }
  // At most four: sorted by insertion.
  for (int i = 1; i < count; ++i) {
    for (int j = i; j > 0 && crossings[j] < crossings[j - 1]; --j) std::swap(crossings[j], crossings[j - 1]);
  }
  const auto inside_after = [&](Real s) {
    const Real past = s + Real(1e-4) * (Real(1) + s);
    return touches(w0 + d * past, p, reach, horizon);
  };
  if (!touches(w0, p, reach, horizon)) {
    // Standing is clear: the danger is the share of top speed past the first entry.
    for (int i = 0; i < count; ++i) {
      if (crossings[i] >= 0 && inside_after(crossings[i])) return Real(1) - std::min(Real(1), crossings[i] / top);
    }
    return 0;
  }
  // Standing is not: a way out within top speed is ranked by the share of it needed
  // (scaled by kEscapeRank: the pace left gets clear up to max_speed / 1.1); none is 1.
  for (int i = 0; i < count; ++i) {
    if (crossings[i] > 0 && !inside_after(crossings[i])) {
      return crossings[i] <= top ? kEscapeRank * crossings[i] / top : Real(1);
    }
  }
  return 1;
}

Anticipate::Anticipate(const AnticipateParams& params) : BehaviorWith(params) {}

void Anticipate::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                      Real* danger) const {
  if (!scene.grid) return;
  const int slots = dirs.slots();
  const Real c = math::cos(params_.keep_right), s = math::sin(params_.keep_right);
  const auto turn = [c, s](Vec2 q) { return Vec2{c * q.x - s * q.y, s * q.x + c * q.y}; };
  // Responsibility a: the neighbor's velocity gains (1 - a) / a of the agent's own, and the
  // top speed is divided by a (anticipate.hpp); a = 1 leaves both as they are.
  const Real share = params_.responsibility;
  const bool reciprocal = share < 1;
  const Real others_part = (Real(1) - share) / share;
  for (int k = 0; k < count; ++k) {
    const int a = agents[k];
    const Vec2 p = scene.position(a);
    const Real r = scene.radius_of(a);
    const Real top = scene.max_speed_of(a);
    const Real agents_top = reciprocal ? top / share : top;
    const Vec2 own_part = reciprocal ? scene.velocity(a) * others_part : Vec2{0, 0};
    const LayerMask senses = scene.senses(a);
    Real* row = danger + static_cast<std::size_t>(k) * slots;
    bool threatened = false;
    scene.grid->for_each_within(p, params_.radius, [&](const Neighbor& n) {
      if (n.agent == a || !(senses & n.layer)) return;
      const Vec2 dp = turn(n.position - p);
      const Vec2 v = reciprocal ? turn(scene.velocity(n.agent) + own_part) : turn(scene.velocity(n.agent));
      threatened = threatened || standing_is_touched(dp, v, r + n.radius, params_.horizon);
      for (int i = 0; i < slots; ++i) {
        row[i] = std::max(row[i], anticipated_danger(dp, v, r + n.radius, params_.horizon, dirs[i], agents_top));
      }
    });
    if (scene.moving) {
      // Moving obstacles as the discs round them (a circle exactly), at their velocities.
      const MovingObstacles& moving = *scene.moving;
      moving.for_each_body_near(p, params_.radius, senses, [&](int b) {
        const Vec2 dp = turn(moving.position(b) - p);
        const Vec2 v = turn(moving.velocity(b));
        const Real reach = r + moving.extent(b);
        threatened = threatened || standing_is_touched(dp, v, reach, params_.horizon);
        for (int i = 0; i < slots; ++i) {
          row[i] = std::max(row[i], anticipated_danger(dp, v, reach, params_.horizon, dirs[i], top));
        }
      });
    }
    if (interest && threatened) std::fill_n(interest + static_cast<std::size_t>(k) * slots, slots, params_.make_way);
  }
}

}  // namespace contextsteer
