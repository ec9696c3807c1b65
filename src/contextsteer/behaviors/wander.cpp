#include "wander.hpp"

#include <cmath>

#include "../cosine_lobes.hpp"

namespace contextsteer {

namespace {

// SplitMix64: a well-mixed 64-bit hash, so that neighbouring ids and knots are unrelated.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A value in [-1, 1] for knot `knot` of agent `id`'s noise.
double knot_value(std::uint64_t seed, std::int64_t id, std::int64_t knot) {
  const std::uint64_t h = mix(seed ^ mix(static_cast<std::uint64_t>(id) ^ mix(static_cast<std::uint64_t>(knot))));
  return static_cast<double>(h >> 11) * (2.0 / 9007199254740992.0) - 1.0;  // 53 bits -> [-1, 1)
}

}  // namespace

Wander::Wander(std::uint64_t seed, Real rate, Real spread, Real strength, Real weight)
    : Behavior(weight), seed_(seed), rate_(rate), spread_(spread), strength_(strength) {
  if (!(rate > 0) || std::isinf(rate)) throw std::invalid_argument("rate: expected a finite rate > 0 per second");
  if (!(spread >= 0) || std::isinf(spread)) throw std::invalid_argument("spread: expected a finite angle >= 0");
  if (!(strength >= 0) || std::isinf(strength)) throw std::invalid_argument("strength: expected a finite number >= 0");
}

Real Wander::offset(std::int64_t id, double time) const {
  const double x = time * rate_;
  const double floor_x = std::floor(x);
  const double f = x - floor_x;
  const double smooth = f * f * (3 - 2 * f);  // smoothstep between knots
  const auto knot = static_cast<std::int64_t>(floor_x);
  const double v = knot_value(seed_, id, knot) * (1 - smooth) + knot_value(seed_, id, knot + 1) * smooth;
  return static_cast<Real>(spread_ * v);
}

void Wander::fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                  Real*) const {
  add_angle_lobes(interest, dirs, count, strength_, [&](int k) {
    const int a = agents[k];
    return scene.heading(a) + offset(scene.id_of(a), scene.time);
  });
}

}  // namespace contextsteer
