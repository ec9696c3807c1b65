// The one scalar type of the library and the constants that go with it.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

namespace contextsteer {

// float keeps maps compact (agents x slots) and suits SIMD; user arrays of other
// floating types are converted at the Python boundary.
using Real = float;

constexpr Real kPi = static_cast<Real>(3.14159265358979323846);
constexpr Real kTwoPi = static_cast<Real>(6.28318530717958647692);
constexpr Real kInfinity = std::numeric_limits<Real>::infinity();

// Largest magnitude of any length, coordinate, speed, time, rate, weight or map value the
// core accepts (1e9: a million kilometres). Products of up to four such values stay
// within float's range (3.4e38), so no formula of the core overflows to inf on input
// it accepted, and grid sizes computed from coordinates stay far from int overflow.
constexpr Real kMaxMagnitude = 1e9f;

// Whether the core accepts v as a length, coordinate or weight: within +-kMaxMagnitude
// (NaN and +-inf are not).
inline bool within_bound(Real v) { return std::fabs(v) <= kMaxMagnitude; }

// Shortest (sub)step a world takes, seconds. Rates derived from a step (an agent turning
// by up to half a turn in one) then stay within kMaxMagnitude.
constexpr Real kMinTimeStep = 1e-6f;

// Lightest agent the core accepts, kg. Forces are divided by masses: from here up,
// 1 / mass stays within kMaxMagnitude, so a force over a mass cannot overflow to inf
// (a subnormal mass would make 1 / mass inf, and the agent's velocity NaN).
constexpr Real kMinMass = 1e-9f;

// Largest slot count accepted anywhere; far beyond any useful resolution, small
// enough that a (slots,) row always fits comfortably in memory.
constexpr int kMaxSlots = 1 << 16;

}  // namespace contextsteer
