#include "contextsteer/behaviors/wander.hpp"

#include <cmath>

#include "contextsteer/maps/cosine_lobes.hpp"

namespace contextsteer {

namespace {

// SplitMix64: a well-mixed 64-bit hash, so that neighboring ids and knots are unrelated.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A value in [-1, 1) from a knot's hash (mix(knot), the same for every agent) and an
// agent's id.
double knot_value(std::uint64_t seed, std::int64_t id, std::uint64_t knot_hash) {
  const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(id) ^ knot_hash));
  return static_cast<double>(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;  // 53 bits -> [-1, 1)
}

}  // namespace

Wander::Wander(const WanderParams& params) : BehaviorWith(params) {}

Wander::Knots Wander::knots_at(double time) const {
  const double x = time * params_.rate;
  const double floor_x = std::floor(x);
  const double f = x - floor_x;
  const auto knot = static_cast<std::int64_t>(floor_x);
  return {mix(static_cast<std::uint64_t>(knot)), mix(static_cast<std::uint64_t>(knot + 1)),
          f * f * (3 - 2 * f)};  // smoothstep between knots
}

Real Wander::offset_at(std::int64_t id, const Knots& k) const {
  const double v =
      knot_value(params_.seed, id, k.before) * (1 - k.smooth) + knot_value(params_.seed, id, k.after) * k.smooth;
  return static_cast<Real>(params_.spread * v);
}

Real Wander::offset(std::int64_t id, double time) const { return offset_at(id, knots_at(time)); }

void Wander::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  const Knots knots = knots_at(scene.time);  // the same for every agent: hashed once
  add_angle_lobes(interest, dirs, count, params_.strength, [&](int k) {
    const int a = agents[k];
    return scene.heading(a) + offset_at(scene.id_of(a), knots);
  });
}

}  // namespace contextsteer
