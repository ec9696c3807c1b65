// The progress stage (goals.hpp): each agent's progress, state and arrival, then the
// face-offs of the agents whose patience ran out, then the departures of arrival = leave.
// The first pass runs in parallel blocks, each agent writing its own row; the face-offs
// run on one thread in row order, as one agent's decision changes another's: the same
// results at any thread count.
#include <algorithm>
#include <cmath>

#include "contextsteer/world/world.hpp"

namespace contextsteer {

namespace {

constexpr std::int32_t as_int(AgentState s) { return static_cast<std::int32_t>(s); }

Vec2 unit(Vec2 v) {
  const Real l = length(v);
  return l > 0 ? v * (1 / l) : Vec2{};
}
Vec2 right_of(Vec2 v) { return {v.y, -v.x}; }
Vec2 left_of(Vec2 v) { return {-v.y, v.x}; }
Real cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

// cos(60 degrees): a blocker's centre lies within 60 degrees of the way to the target.
constexpr Real kAheadCosine = Real(0.5);
// cos(135 degrees): oncoming agents' ways point more than 135 degrees apart; two led into
// one gap from either side (ways up to 135 degrees apart) merge instead.
constexpr Real kHeadOnCosine = Real(-0.70710678118654752);
// A way aside whose danger is below this is free enough to give way by.
constexpr Real kFreeDanger = Real(0.5);

}  // namespace

void World::progress_stage(Real dt) {
  ProgressProduct& out = progressed_;
  const GoalParams& p = goals_;
  const SceneView view = scene();
  const int n = store_.size;
  out.arrived_now.assign(n, 0);
  const Real progress2 = p.progress_distance * p.progress_distance;
  const Real arrival2 = p.arrival_radius * p.arrival_radius;
  auto body = [&](int block, int) {
    const int end = std::min(n, (block + 1) * Pipeline::kBlockAgents);
    for (int a = block * Pipeline::kBlockAgents; a < end; ++a) {
      const Vec2 position = view.position(a);
      Vec2 anchor = load(store_.progress_anchor.data(), a);
      if (std::isnan(anchor.x) || length_squared(position - anchor) >= progress2) {
        store(store_.progress_anchor.data(), a, position);
        store_.waiting_time[a] = 0;
      } else {
        store_.waiting_time[a] += dt;
      }
      std::int32_t& state = store_.state[a];
      if (state == as_int(AgentState::giving_way)) {
        store_.give_way_left[a] -= dt;
        if (store_.give_way_left[a] > 0) continue;
        // Given way: on its way again, its wait counted from here.
        store_.give_way_left[a] = 0;
        store(store_.give_way.data(), a, Vec2{});
        store(store_.progress_anchor.data(), a, position);
        store_.waiting_time[a] = 0;
      }
      if (length_squared(view.target_of(a) - position) <= arrival2) {
        state = as_int(AgentState::arrived);
        store_.waiting_time[a] = 0;
        if (store_.arrival_time[a] < 0) {
          store_.arrival_time[a] = static_cast<Real>(time_);
          out.arrived_now[a] = 1;
        }
      } else {
        state = as_int(store_.waiting_time[a] >= p.stall_time ? AgentState::waiting : AgentState::moving);
      }
    }
  };
  pool_->run((n + Pipeline::kBlockAgents - 1) / Pipeline::kBlockAgents, body);
  for (int a = 0; a < n; ++a) {
    if (out.arrived_now[a]) events_.push_back({steps_, time_, store_.ids[a], EventKind::arrived});
  }
  if (std::isfinite(p.patience)) settle_face_offs(view);
  if (p.arrival == ArrivalMode::leave) {
    bool any = false;
    for (int a = 0; a < n; ++a) {
      if (store_.state[a] != as_int(AgentState::arrived)) continue;
      any = true;
      events_.push_back({steps_, time_, store_.ids[a], EventKind::left});
    }
    // A step that removes agents gives the columns new buffers (remove_rows); the others
    // allocate nothing.
    if (any) {
      std::vector<bool> keep(n);
      for (int a = 0; a < n; ++a) keep[a] = store_.state[a] != as_int(AgentState::arrived);
      remove_rows(keep);
    }
  }
}

void World::settle_face_offs(const SceneView& view) {
  const GoalParams& p = goals_;
  const bool stepping_aside = p.arrival == ArrivalMode::give_way;
  const int n = store_.size;
  auto state_of = [&](int a) { return static_cast<AgentState>(store_.state[a]); };
  auto way_of = [&](int a) { return way_to_goal(view, a); };
  auto give_way = [&](int a, Vec2 direction) {
    store_.state[a] = as_int(AgentState::giving_way);
    store_.give_way_left[a] = p.give_way_time;
    store(store_.give_way.data(), a, direction);
    store_.waiting_time[a] = 0;
    events_.push_back({steps_, time_, store_.ids[a], EventKind::gave_way});
  };
  for (int a = 0; a < n; ++a) {
    if (state_of(a) != AgentState::waiting || store_.waiting_time[a] < p.patience) continue;
    const Vec2 here = view.position(a);
    const Vec2 way = way_of(a);
    if (length_squared(way) == 0) continue;
    // Ahead is near the way it was led; an arrived agent also near the straight line to
    // the target: an agent led by a coarse map's slot past one parked off that slot, on
    // its line, is blocked by it too.
    const Vec2 straight = unit(view.target_of(a) - here);
    const Real reach = view.radius_of(a) + index_.max_radius + p.reach;
    // The blockers, nearest first: the settlement goes to the agent most in the way.
    int nearest = -1;
    Real nearest2 = kInfinity;
    grid_.for_each_within(here, reach, [&](const Neighbor& b) {
      if (b.agent == a || !(view.senses(a) & b.layer)) return;
      const Vec2 offset = b.position - here;
      const Real gap = view.radius_of(a) + b.radius + p.reach;
      if (b.distance_squared > gap * gap || b.distance_squared == 0) return;
      const AgentState s = state_of(b.agent);
      if (s == AgentState::giving_way) return;
      const Real ahead = kAheadCosine * std::sqrt(b.distance_squared);
      if (dot(offset, way) < ahead && !(s == AgentState::arrived && dot(offset, straight) >= ahead)) return;
      // Oncoming: led head-on against each other, and each nearer the other's target
      // than the other is (each stands in the other's way): two of a crowd pressing
      // through one exit, one behind or beside the other, are led every way in the
      // crush, and settle nothing.
      const Vec2 target_a = view.target_of(a), target_b = view.target_of(b.agent);
      const Vec2 way_b = way_of(b.agent);
      const bool oncoming = s != AgentState::arrived && dot(way_b, way) < kHeadOnCosine &&
                            length_squared(b.position - target_a) < length_squared(here - target_a) &&
                            length_squared(here - target_b) < length_squared(b.position - target_b);
      // Merging: both waiting past patience, each ahead of the other (led into one gap
      // from either side, each holds the other).
      const bool merging =
          s == AgentState::waiting && store_.waiting_time[b.agent] >= p.patience && dot(offset, way_b) <= -ahead;
      if (!(s == AgentState::arrived && stepping_aside) && !oncoming && !merging) return;
      if (b.distance_squared < nearest2) nearest = b.agent, nearest2 = b.distance_squared;
    });
    if (nearest < 0) continue;
    const int b = nearest;
    if (state_of(b) == AgentState::arrived) {
      // Off a's line, on the side b already stands on.
      const Vec2 offset = view.position(b) - here;
      const Vec2 side = cross(way, offset) >= 0 ? left_of(way) : right_of(way);
      give_way(b, side);
      continue;
    }
    // The longer wait passes; equal waits, the smaller id. The other gives way, if it
    // has a free way aside; if only the one that passes has, that one does.
    const bool a_passes = store_.waiting_time[a] > store_.waiting_time[b] ||
                          (store_.waiting_time[a] == store_.waiting_time[b] && store_.ids[a] < store_.ids[b]);
    const int yielder = a_passes ? b : a;
    const int passer = a_passes ? a : b;
    const WayAside first = freest_side(yielder, way_of(yielder));
    if (first.danger < kFreeDanger) {
      give_way(yielder, first.way);
      continue;
    }
    const WayAside second = freest_side(passer, way_of(passer));
    give_way(second.danger < kFreeDanger ? passer : yielder, second.danger < kFreeDanger ? second.way : first.way);
  }
}

Vec2 World::way_to_goal(const SceneView& view, int a) const {
  const Pipeline* pipeline = controllers_[store_.steering_index[a]].steering.pipeline.get();
  if (pipeline && keep_maps_ && slots_ > 0) {
    // Where the agent wanted to go at its last step: its interest's peak (a field's way
    // round the corner, not the straight line through the wall).
    const Real* interest = store_.interest.data() + static_cast<std::size_t>(a) * slots_;
    const int peak = static_cast<int>(std::max_element(interest, interest + slots_) - interest);
    if (interest[peak] > 0) return pipeline->directions()[peak];
  }
  return unit(view.target_of(a) - view.position(a));
}

World::WayAside World::freest_side(int a, Vec2 way) const {
  const Vec2 ways[3] = {right_of(way), left_of(way), way * Real(-1)};
  const Pipeline* pipeline = controllers_[store_.steering_index[a]].steering.pipeline.get();
  if (!pipeline || !keep_maps_ || slots_ == 0) return {ways[0], 0};
  const SlotDirections& dirs = pipeline->directions();
  const Real* danger = store_.danger.data() + static_cast<std::size_t>(a) * slots_;
  // The danger of the slot nearest each way: the first way below kFreeDanger, else the
  // first of the least.
  WayAside best{ways[0], kInfinity};
  for (const Vec2& w : ways) {
    int slot = 0;
    Real closest = -kInfinity;
    for (int i = 0; i < slots_; ++i) {
      const Real c = dot(dirs[i], w);
      if (c > closest) closest = c, slot = i;
    }
    if (danger[slot] < kFreeDanger) return {w, danger[slot]};
    if (danger[slot] < best.danger) best = {w, danger[slot]};
  }
  return best;
}

}  // namespace contextsteer
