// The obstacles stage: the moving obstacles advance by the step's dt, to where they will
// be when the agents have moved, and their shapes and index follow. The agents then
// steer among them where they will be, and the measure stage finds both at the step's
// end. Serial, so that the results do not depend on the thread count.
#include <algorithm>
#include <vector>

#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::obstacles_stage(Real dt) {
  if (!moving_.empty()) moving_.advance(dt);
}

// Body by body through the agents' grid (just rebuilt by the measure stage): only the
// agents whose centre lies within a body's extent plus the largest agent radius can
// reach into it, and only their penetration is raised, in row order, on one thread.
void World::measure_moving_penetration() {
  if (moving_.empty()) return;
  const SceneView view = scene();
  const std::size_t n = static_cast<std::size_t>(store_.size);
  std::vector<int>& near = measured_.near_bodies;
  std::vector<std::uint8_t>& listed = measured_.near_body_flags;
  if (near.capacity() < n) near.reserve(n);
  if (listed.size() < n) listed.resize(n, 0);
  near.clear();
  for (int b = 0; b < moving_.count(); ++b) {
    const Real reach = (moving_.extent(b) + index_.max_radius) * Real(1.001) + Real(1e-5);
    grid_.for_each_within(moving_.position(b), reach, [&](const Neighbor& nb) {
      if (!listed[nb.agent]) listed[nb.agent] = 1, near.push_back(nb.agent);
    });
  }
  std::sort(near.begin(), near.end());
  for (const int a : near) {
    listed[a] = 0;
    const Real depth = moving_.shapes().penetration(view.position(a), view.radius_of(a), view.senses(a));
    store_.penetration[a] = std::max(store_.penetration[a], depth);
  }
}

}  // namespace contextsteer
