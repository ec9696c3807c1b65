// The one scalar type of the library and the constants that go with it.
#pragma once

#include <cstddef>
#include <limits>

namespace contextsteer {

// float keeps maps compact (agents x slots) and suits SIMD; user arrays of other
// floating types are converted at the Python boundary.
using Real = float;

constexpr Real kPi = static_cast<Real>(3.14159265358979323846);
constexpr Real kTwoPi = static_cast<Real>(6.28318530717958647692);
constexpr Real kInfinity = std::numeric_limits<Real>::infinity();

// Largest slot count accepted anywhere; far beyond any useful resolution, small
// enough that a (slots,) row always fits comfortably in memory.
constexpr int kMaxSlots = 1 << 16;

}  // namespace contextsteer
