// The targets a behaviour steers an agent by: points shared by every agent, and/or the
// agent's own target (its target agent, else its target point).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/maps/cosine_lobes.hpp"
#include "contextsteer/maps/slots.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

struct Targets {
  std::vector<Vec2> points;  // metres, shared by every agent
  bool agent_target = false;

  // Calls fn(t) for each target point of agent a.
  template <class F>
  void for_each(const SceneView& scene, int a, F&& fn) const {
    for (const Vec2& t : points) fn(t);
    if (agent_target) fn(scene.target_of(a));
  }

  void check(const char* argument) const {
    for (std::size_t k = 0; k < points.size(); ++k) {
      if (!within_bound(points[k])) {
        throw std::invalid_argument(std::string(argument) + ": expected points within -1e9 to 1e9 in metres, got " +
                                    format_reals({points[k].x, points[k].y}) + " for point " + std::to_string(k));
      }
    }
  }
};

// For every agent of agents[0..count) and each of its targets at distance d (from the
// agent to the target, or the reverse when `away`), adds the lobe of peak strength(d)
// toward u with `sideways` (add_lobe; with sideways 0, strength(d) * max(0,
// dot(u, d_i))) to its interest row: max over targets, or their sum when `sum`.
// strength(d) <= 0 adds nothing, nor does a target closer than 1e-6 m.
template <class Strength>
void fill_target_lobes(const Targets& targets, bool away, bool sum, Real sideways, Strength strength,
                       const SceneView& scene, const int* agents, int count, const SlotDirections& dirs,
                       Real* interest) {
  add_block_lobes(interest, dirs, count, sum, [&](int k, auto&& add) {
    const Vec2 p = scene.position(agents[k]);
    targets.for_each(scene, agents[k], [&](Vec2 t) {
      const Vec2 u = away ? p - t : t - p;
      const Real d = length(u);
      if (d < Real(1e-6)) return;
      const Real g = strength(d);
      if (!(g > 0)) return;
      add_lobe(add, u, d, g, sideways);
    });
  });
}

}  // namespace contextsteer
