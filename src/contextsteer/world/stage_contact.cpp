// The contact stage (contact.hpp), when the world's contact is on: after the agents moved,
// each agent's move is kept out of the obstacles (static and moving), then overlapping agents are pushed
// apart in Jacobi passes, each agent's correction kept out of the obstacles again; then each
// agent's velocity loses its part against its correction. Every
// parallel loop writes only its own agents' rows, and what is summed over agents is summed
// in row order afterwards: the same results at any thread count.
#include <algorithm>
#include <cmath>

#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::set_contact(const ContactParams* params) {
  const BusyFlag::Hold hold(busy_, "contact");
  if (params) check_fields(*params);
  contact_on_ = params != nullptr;
  if (params) contact_ = *params;
}

void World::contact_start() {
  if (!contact_on_) return;
  const Real* pos = store_.positions.data();
  contacted_.start.assign(pos, pos + 2 * static_cast<std::size_t>(store_.size));
}

void World::contact_stage() {
  ContactProduct& out = contacted_;
  out.report = {};
  if (!contact_on_) return;
  const ContactParams& params = contact_;
  const int n = store_.size;
  Real* pos = store_.positions.data();
  out.moved.assign(pos, pos + 2 * static_cast<std::size_t>(n));
  const SceneView view = scene();
  const Real slop = params.slop;
  const int blocks = (n + Pipeline::kBlockAgents - 1) / Pipeline::kBlockAgents;
  // Events: each block writes its own room, then its own overflow; after each pass that
  // reports, they are appended to the step's events in block order.
  constexpr int room = Pipeline::kBlockAgents * ContactProduct::kEventsPerAgent;
  if (params.events) {
    const std::size_t rooms = static_cast<std::size_t>(blocks) * room;
    if (out.event_room.size() < rooms) out.event_room.resize(rooms);
    out.event_count.resize(static_cast<std::size_t>(blocks));
    out.event_more.resize(static_cast<std::size_t>(blocks));
    std::fill(out.event_count.begin(), out.event_count.end(), 0);
  }
  auto report_event = [&](int block, int agent, EventKind kind, int other, Real depth) {
    int& k = out.event_count[block];
    const ContactProduct::Event e{agent, other, depth, kind};
    if (k < room) {
      out.event_room[static_cast<std::size_t>(block) * room + k] = e;
    } else {
      out.event_more[block].push_back(e);
    }
    ++k;
  };
  auto gather_events = [&] {
    for (int block = 0; block < blocks; ++block) {
      const int count = out.event_count[block];
      for (int k = 0; k < count; ++k) {
        const ContactProduct::Event& e =
            k < room ? out.event_room[static_cast<std::size_t>(block) * room + k] : out.event_more[block][k - room];
        events_.push_back({steps_, time_, store_.ids[e.agent], e.kind, e.other < 0 ? -1 : store_.ids[e.other],
                           static_cast<double>(e.depth)});
      }
      out.event_count[block] = 0;
      out.event_more[block].clear();
    }
  };
  auto block_end = [n](int block) { return std::min(n, (block + 1) * Pipeline::kBlockAgents); };
  // Agent a's share of its overlap with b (both sensing each other), `away` the unit
  // direction from b to a: by mass, and motion_share of it by the step's moves toward
  // each other (contact.hpp).
  const Real motion = params.motion_share;
  auto mutual_share = [&](int a, int b, Vec2 away) {
    const Real by_mass = store_.mass[b] / (store_.mass[a] + store_.mass[b]);
    if (!(motion > 0)) return by_mass;
    const Real into_b = std::max(Real(0), -dot(load(out.moved.data(), a) - load(out.start.data(), a), away));
    const Real into_a = std::max(Real(0), dot(load(out.moved.data(), b) - load(out.start.data(), b), away));
    const Real both = into_b + into_a;
    if (!(both > kStill)) return by_mass;
    return (1 - motion) * by_mass + motion * (into_b / both);
  };
  // Where a disc's move ends kept out of the static obstacles and of the moving ones where
  // they stand after this step's move; out of the static ones again if a body pushed it.
  const Obstacles& bodies = moving_.shapes();
  auto kept_out = [&](Vec2 from, Vec2 to, Real r, LayerMask mask) {
    const Vec2 p = keep_out(obstacles_, from, to, r, mask);
    if (bodies.empty()) return p;
    const Vec2 q = keep_out(bodies, from, p, r, mask);
    return q.x == p.x && q.y == p.y ? p : keep_out(obstacles_, p, q, r, mask);
  };

  // Obstacles: each agent's move of the step, from where it stood.
  if (!obstacles_.empty() || !bodies.empty()) {
    auto obstacle_pass = [&](int block, int) {
      for (int a = block * Pipeline::kBlockAgents; a < block_end(block); ++a) {
        const Vec2 to = load(pos, a);
        const Vec2 kept = kept_out(load(out.start.data(), a), to, view.radius_of(a), view.senses(a));
        store(pos, a, kept);
        const Real moved = length(kept - to);
        if (params.events && moved > slop) report_event(block, a, EventKind::obstacle_contact, -1, moved);
      }
    };
    pool_->run(blocks, obstacle_pass);
    if (params.events) gather_events();
  }

  // Agents: Jacobi passes, each from the positions at its start. The agents near each one
  // are listed from the grid with every reach grown by 2 `margin`, and the list serves the
  // passes while no agent has moved `margin` from where it was listed: a pair left out is
  // then still apart. Each agent's pushes are summed in the order of its list.
  out.correction.resize(2 * static_cast<std::size_t>(n));
  out.deepest.resize(static_cast<std::size_t>(blocks));
  out.drift.resize(static_cast<std::size_t>(blocks));
  const std::size_t block_room = static_cast<std::size_t>(Pipeline::kBlockAgents) * ContactProduct::kNearPerAgent;
  out.near.resize(static_cast<std::size_t>(blocks) * block_room);
  out.near_full.resize(static_cast<std::size_t>(blocks));
  out.near_span.resize(2 * static_cast<std::size_t>(n));
  out.near_from.resize(2 * static_cast<std::size_t>(n));
  const Real max_radius = index_.max_radius;
  const Real margin = Real(0.25) * max_radius;
  auto reach_of = [&](int a) { return view.radius_of(a) + max_radius + 2 * margin; };
  // Calls visit(b) for each agent b that agent a pushes against in the passes, in the
  // grid's order from where a was listed: the same agents whether a's block is listed or not.
  auto for_each_near = [&](int a, auto&& visit) {
    if (!out.near_full[a / Pipeline::kBlockAgents]) {
      for (int k = out.near_span[2 * a]; k < out.near_span[2 * a + 1]; ++k) visit(out.near[k]);
      return;
    }
    const LayerMask senses = view.senses(a);
    grid_.for_each_within(load(out.near_from.data(), a), reach_of(a), [&](const Neighbor& nb) {
      if (nb.agent != a && (senses & nb.layer)) visit(nb.agent);
    });
  };
  auto list = [&](int block, int) {
    const int first = static_cast<int>(block * block_room);
    const int last = first + static_cast<int>(block_room);
    int count = first;
    bool full = false;
    for (int a = block * Pipeline::kBlockAgents; a < block_end(block); ++a) {
      const Vec2 p = load(pos, a);
      store(out.near_from.data(), a, p);
      if (full) continue;
      const LayerMask senses = view.senses(a);
      out.near_span[2 * a] = count;
      grid_.for_each_within(p, reach_of(a), [&](const Neighbor& nb) {
        if (nb.agent == a || !(senses & nb.layer)) return;
        if (count == last) {
          full = true;
        } else {
          out.near[count++] = nb.agent;
        }
      });
      out.near_span[2 * a + 1] = count;
    }
    out.near_full[block] = full;
  };
  bool listed = false;
  for (int pass = 0; pass < params.iterations && n > 1; ++pass) {
    if (!listed) {
      refresh_grid();
      pool_->run(blocks, list);
      listed = true;
    }
    const bool report = pass == 0 && params.events;
    auto find = [&](int block, int) {
      Real deepest = 0;
      for (int a = block * Pipeline::kBlockAgents; a < block_end(block); ++a) {
        const Vec2 p = load(pos, a);
        const Real ra = view.radius_of(a);
        const LayerMask layer = view.layer_of(a);
        const std::int64_t id = store_.ids[a];
        Vec2 correction{};
        for_each_near(a, [&](int b) {
          const Vec2 q = load(pos, b);
          const Real dx = q.x - p.x;
          const Real dy = q.y - p.y;
          const Real distance = std::sqrt(dx * dx + dy * dy);
          const Real depth = ra + view.radius_of(b) - distance;
          if (!(depth > slop)) return;
          deepest = std::max(deepest, depth);
          const std::int64_t other = store_.ids[b];
          // Coincident centres part along x, the smaller id to the left.
          const Vec2 away = distance > 0 ? (p - q) * (1 / distance) : Vec2{id < other ? Real(-1) : Real(1), 0};
          const bool mutual = (view.senses(b) & layer) != 0;
          const Real share = mutual ? mutual_share(a, b, away) : Real(1);
          correction = correction + away * (share * (depth - slop));
          if (report && (!mutual || id < other)) report_event(block, a, EventKind::agent_contact, b, depth);
        });
        store(out.correction.data(), a, correction);
      }
      out.deepest[block] = deepest;
    };
    pool_->run(blocks, find);
    if (report) gather_events();
    if (!(*std::max_element(out.deepest.begin(), out.deepest.end()) > slop)) break;
    ++out.report.passes;
    auto apply = [&](int block, int) {
      bool moved = false;
      Real drift = 0;
      for (int a = block * Pipeline::kBlockAgents; a < block_end(block); ++a) {
        const Vec2 c = load(out.correction.data(), a);
        const Vec2 p = load(pos, a);
        Vec2 now = p;
        if (c.x != 0 || c.y != 0) {
          now = kept_out(p, p + c, view.radius_of(a), view.senses(a));
          store(pos, a, now);
          moved |= now.x != p.x || now.y != p.y;
        }
        drift = std::max(drift, length_squared(now - load(out.near_from.data(), a)));
      }
      out.deepest[block] = moved ? Real(1) : Real(0);
      out.drift[block] = drift;
    };
    pool_->run(blocks, apply);
    // Corrections too small to change a float coordinate far from the origin: done.
    if (std::none_of(out.deepest.begin(), out.deepest.end(), [](Real moved) { return moved > 0; })) break;
    // 0.99 of the margin: room for the rounding of the distances.
    const Real allowed = Real(0.99) * margin;
    listed = !(*std::max_element(out.drift.begin(), out.drift.end()) > allowed * allowed);
  }

  // The velocities lose their part against each agent's correction; the report is summed
  // in row order.
  Real* vel = store_.velocities.data();
  for (int a = 0; a < n; ++a) {
    const Vec2 c = load(pos, a) - load(out.moved.data(), a);
    const Real length_c = length(c);
    if (length_c > 0) {
      const Vec2 normal = c * (1 / length_c);
      const Vec2 v = load(vel, a);
      const Real against = dot(v, normal);
      if (against < 0) store(vel, a, v - normal * against);
    }
    const double moved = length_c;
    if (moved > 0) {
      out.report.total += moved;
      out.report.max = std::max(out.report.max, moved);
      ++out.report.agents;
    }
  }
}

}  // namespace contextsteer
