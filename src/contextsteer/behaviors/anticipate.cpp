#include "contextsteer/behaviors/anticipate.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "contextsteer/base/real_math.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/scene/agent_state.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"
#include "contextsteer/scene/way_left.hpp"
#include "contextsteer/scene/worker_scratch.hpp"

namespace contextsteer {
namespace {

Real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

constexpr int kPending = 32;  // discs handed to the wide kernel at a time

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

bool out_of_reach(Vec2 p, Vec2 v, Real reach, Real horizon, Real top) {
  // Some velocity of speed at most q touches the disc at time t exactly when
  // |p + v t| < r + q t. g(t) = |p + v t|^2 - (r + q t)^2 = a t^2 + 2 b t + c must stay
  // above a bound of its rounding on [0, horizon]: at both ends and at its vertex.
  if (!(top >= 0)) return false;
  const Real q = top * Real(1.01) + Real(0.01);
  const Real r = reach * Real(1.01) + Real(0.01);
  const Real a = length_squared(v) - q * q;
  const Real b = dot(p, v) - r * q;
  const Real c = length_squared(p) - r * r;
  const Real tolerance = Real(1e-5) * (length_squared(p) + (length_squared(v) + q * q) * horizon * horizon + r * r);
  const auto g = [&](Real t) { return (a * t + 2 * b) * t + c; };
  if (!(c > tolerance) || !(g(horizon) > tolerance)) return false;
  if (a > 0) {
    const Real t = -b / a;
    if (t > 0 && t < horizon && !(g(t) > tolerance)) return false;
  }
  return true;
}

AnticipatedDisc anticipated_disc(Vec2 p, Vec2 v, Real reach, Real horizon, Real top, bool cull) {
  AnticipatedDisc disc{};
  disc.p = p;
  disc.v = v;
  disc.reach = reach;
  disc.horizon = horizon;
  disc.top = top;
  if (cull && out_of_reach(p, v, reach, horizon, top)) {
    disc.quiet = true;
    return disc;
  }
  const Real dist2 = length_squared(p);
  disc.touching = dist2 <= reach * reach;
  disc.dist = std::sqrt(dist2);
  disc.v_dot_p = dot(v, p);
  disc.w0 = v * Real(-1);
  disc.standing_touched = disc.touching ? disc.v_dot_p <= 0 : touches(disc.w0, p, reach, horizon);
  disc.quiet = !(top > 0);
  if (disc.quiet || disc.touching) return disc;
  // In relative velocity w = s d - v, the ray starts at w0 = -v and runs along d; the
  // truncated cone it may cross is convex, so the ray enters it at most once and leaves
  // it at most once. Where it can cross the boundary: the cap (the disc of the positions
  // reached at t = horizon, centre p / horizon, radius reach / horizon) and the legs (the
  // rays from the origin tangent to the disc of radius reach round p).
  disc.m = disc.w0 - p * (Real(1) / horizon);
  const Real rho = reach / horizon;
  disc.cap = length_squared(disc.m) - rho * rho;
  const Real tangent = std::sqrt(dist2 - reach * reach);
  const Vec2 u = p * (Real(1) / disc.dist);
  const Real cos_a = tangent / disc.dist, sin_a = reach / disc.dist;
  int k = 0;
  for (const Real side : {Real(1), Real(-1)}) {
    disc.legs[k] = {u.x * cos_a - side * u.y * sin_a, side * u.x * sin_a + u.y * cos_a};
    disc.leg_w0[k] = -cross(disc.w0, disc.legs[k]);
    ++k;
  }
  return disc;
}

Real anticipated_danger(const AnticipatedDisc& disc, Vec2 d) {
  if (disc.quiet) return 0;
  const Real top = disc.top;
  if (disc.touching) {
    // Touching: a way that closes in faster than the disc moves off deepens the touch (the
    // safe speed along d keeps the distance); one more than 45 degrees off the line to
    // the disc slides past it, its danger fading to 0 at 90 degrees.
    const Real closing = dot(d, disc.p);
    if (closing <= 0) return 0;
    const Real head_on = std::min(Real(1), kHeadOn * closing / disc.dist);  // closing > 0: p is not 0
    return head_on * (Real(1) - std::min(Real(1), std::max(Real(0), disc.v_dot_p / closing) / top));
  }
  Real crossings[4];
  int count = 0;
  const Real b = dot(disc.m, d);
  const Real discriminant = b * b - disc.cap;
  if (discriminant >= 0) {
    const Real root = std::sqrt(discriminant);
    crossings[count++] = -b - root;
    crossings[count++] = -b + root;
  }
  for (int k = 0; k < 2; ++k) {
    const Real denom = cross(d, disc.legs[k]);
    if (std::fabs(denom) > Real(1e-12)) crossings[count++] = disc.leg_w0[k] / denom;
  }
  // At most four: sorted by insertion.
  for (int i = 1; i < count; ++i) {
    for (int j = i; j > 0 && crossings[j] < crossings[j - 1]; --j) std::swap(crossings[j], crossings[j - 1]);
  }
  const auto inside_after = [&](Real s) {
    const Real past = s + Real(1e-4) * (Real(1) + s);
    return touches(disc.w0 + d * past, disc.p, disc.reach, disc.horizon);
  };
  if (!disc.standing_touched) {
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

Real anticipated_danger(Vec2 p, Vec2 v, Real reach, Real horizon, Vec2 d, Real top) {
  return anticipated_danger(anticipated_disc(p, v, reach, horizon, top, false), d);
}

AnticipatedShape anticipated_shape(const SeenShape& shape, Vec2 v, Real reach, Real horizon, Real top) {
  AnticipatedShape s{};
  s.shape = shape;
  s.w0 = v * Real(-1);
  s.reach = reach;
  s.horizon = horizon;
  s.top = top;
  s.quiet = !(top > 0);
  const NearestOnShape near = nearest_on_shape(shape);
  s.touching = near.inside || near.distance <= reach;
  if (s.touching) {
    // Touched at its nearest point (from inside a polygon, the way into it is away from
    // the nearest edge).
    AnticipatedDisc& disc = s.touch;
    disc.touching = true;
    disc.p = near.inside ? near.point * Real(-1) : near.point;
    disc.v = v;
    disc.reach = reach;
    disc.horizon = horizon;
    disc.top = top;
    disc.dist = near.distance;
    disc.v_dot_p = dot(v, disc.p);
    disc.standing_touched = disc.v_dot_p <= 0;
    disc.quiet = s.quiet;
    s.standing_touched = disc.standing_touched;
    return s;
  }
  for (int j = 0; j < shape.count && !s.standing_touched; ++j) {
    s.standing_touched = meets_edge(shape.edge(j), reach, horizon, s.w0);
  }
  return s;
}

Real anticipated_danger(const AnticipatedShape& s, Vec2 d) {
  if (s.quiet) return 0;
  if (s.touching) return s.touch.dist > 0 ? anticipated_danger(s.touch, d) : Real(0);
  const auto speeds = [&](int j) { return speeds_meeting_edge(s.shape.edge(j), s.reach, s.horizon, s.w0, d); };
  if (!s.standing_touched) {
    // Standing is clear: the first speed that meets an edge.
    Real enter = kInfinity;
    for (int j = 0; j < s.shape.count; ++j) enter = std::min(enter, speeds(j).enter);
    return enter < kInfinity ? Real(1) - std::min(Real(1), enter / s.top) : Real(0);
  }
  // Standing is not: the speed past every run of edges met from standing on (the edges'
  // intervals may chain round a polygon that is not convex).
  Real out = 0;
  for (bool grown = true; grown && out < kInfinity;) {
    grown = false;
    for (int j = 0; j < s.shape.count; ++j) {
      const SpeedInterval met = speeds(j);
      if (met.enter <= out && met.leave > out) out = met.leave, grown = true;
    }
  }
  return out <= s.top ? kEscapeRank * out / s.top : Real(1);
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
  const KernelTable* kernels = vector_kernels();
  const bool wide = kernels && slots % kernels->lanes == 0;
  // With arc_edges, each agent's danger along its slots' arc edges (edge i at slot
  // i - 1/2), in the calling worker's scratch (or this call's own, outside a world).
  WorkerScratch own;
  Real* edge_row = nullptr;
  if (params_.arc_edges) {
    std::vector<Real>& edges = scene.scratch() ? scene.scratch()->edge_danger : own.edge_danger;
    edges.resize(static_cast<std::size_t>(slots));
    edge_row = edges.data();
  }
  // Each agent's way left, for right_of_way (null: every neighbor is tested as usual).
  const Real* way_left_of = params_.right_of_way ? way_left(scene.cache) : nullptr;
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
    // An agent that has arrived goes first no more: it makes way for its group too.
    const bool goes_first =
        way_left_of && !(scene.states && scene.states[a] == static_cast<std::int32_t>(AgentState::arrived));
    // The discs not quiet, swept over the slots by the wide kernel kPending at a time, or
    // one by one by the reference.
    AnticipatedDisc pending[kPending];
    int held = 0;
    if (edge_row) std::fill_n(edge_row, slots, Real(0));
    const auto flush = [&] {
      if (held == 0) return;
      kernels->anticipate_rows(pending, held, dirs.x(), dirs.y(), slots, row);
      if (edge_row) kernels->anticipate_rows(pending, held, dirs.edge_x(), dirs.edge_y(), slots, edge_row);
      held = 0;
    };
    const auto sweep = [&](const AnticipatedDisc& disc) {
      if (wide) {
        pending[held++] = disc;
        if (held == kPending) flush();
        return;
      }
      for (int i = 0; i < slots; ++i) row[i] = std::max(row[i], anticipated_danger(disc, dirs[i]));
      if (!edge_row) return;
      for (int i = 0; i < slots; ++i) edge_row[i] = std::max(edge_row[i], anticipated_danger(disc, dirs.edge(i)));
    };
    scene.grid->for_each_within(p, params_.radius, [&](const Neighbor& n) {
      if (n.agent == a || !(senses & n.layer)) return;
      const Vec2 dp = turn(n.position - p);
      // NaN (no way left) compares false: tested as usual.
      if (goes_first && scene.group_of(n.agent) == scene.group_of(a) &&
          way_left_of[n.agent] > way_left_of[a] + kRightOfWayMargin) {
        const AnticipatedDisc disc = anticipated_disc(dp, Vec2{0, 0}, r + n.radius, params_.horizon, top);
        if (!disc.quiet) sweep(disc);
        return;
      }
      const Vec2 v = reciprocal ? turn(scene.velocity(n.agent) + own_part) : turn(scene.velocity(n.agent));
      const AnticipatedDisc disc = anticipated_disc(dp, v, r + n.radius, params_.horizon, agents_top);
      threatened = threatened || disc.standing_touched;
      if (!disc.quiet) sweep(disc);
    });
    if (scene.moving) {
      // Moving circles at their velocities, as neighbors; walls and polygons as their
      // shapes, slot by slot, when the disc round one is within reach.
      const MovingObstacles& moving = *scene.moving;
      RecentBodies seen;
      moving.for_each_body_near(p, params_.radius, senses, [&](int b) {
        const Vec2 dp = turn(moving.position(b) - p);
        const Vec2 v = turn(moving.velocity(b));
        if (moving.kind(b) != BodyKind::kCircle) {
          if (!seen.first_time(b) || out_of_reach(dp, v, r + moving.extent(b), params_.horizon, top)) return;
          const SeenShape seen_shape{moving.shapes().walls().data() + moving.first_wall(b), moving.wall_count(b),
                                     moving.kind(b) == BodyKind::kPolygon, p, Vec2{c, s}};
          const AnticipatedShape shape = anticipated_shape(seen_shape, v, r, params_.horizon, top);
          threatened = threatened || shape.standing_touched;
          if (shape.quiet) return;
          for (int i = 0; i < slots; ++i) row[i] = std::max(row[i], anticipated_danger(shape, dirs[i]));
          if (!edge_row) return;
          for (int i = 0; i < slots; ++i) edge_row[i] = std::max(edge_row[i], anticipated_danger(shape, dirs.edge(i)));
          return;
        }
        const Real reach = r + moving.extent(b);
        const AnticipatedDisc disc = anticipated_disc(dp, v, reach, params_.horizon, top);
        threatened = threatened || disc.standing_touched;
        if (!disc.quiet) sweep(disc);
      });
    }
    flush();
    if (edge_row) {
      // Slot i's arc runs from edge i to edge i + 1 (mod slots).
      for (int i = 0; i < slots; ++i) {
        row[i] = std::min(row[i], std::min(edge_row[i], edge_row[i + 1 < slots ? i + 1 : 0]));
      }
    }
    if (interest && threatened) std::fill_n(interest + static_cast<std::size_t>(k) * slots, slots, params_.make_way);
  }
}

}  // namespace contextsteer
