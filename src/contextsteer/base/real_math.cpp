#include "contextsteer/base/real_math.hpp"

#include <cstring>
#include <limits>

namespace contextsteer {
namespace math {

namespace {

// 2 / pi to 256 bits: its binary fraction, 32 bits a word, most significant first.
constexpr std::uint32_t kTwoOverPiBits[] = {0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0,
                                            0xDB629599, 0x3C439041, 0xFE5163AB, 0xDEBBC561};

// Bits p + 1 ... p + 32 of 2 / pi's fraction (bit 1 weighs 1/2; bits at p <= 0 are 0),
// for -32 <= p <= 192.
std::uint32_t two_over_pi_word(int p) {
  auto word = [](int i) -> std::uint64_t { return i >= 0 && i < 8 ? kTwoOverPiBits[i] : 0; };
  const int first = (p + 32) / 32 - 1;  // the word that holds bit p + 1, -1 before the fraction
  const int shift = (p + 32) % 32;
  const std::uint64_t both = (word(first) << 32) | word(first + 1);
  return static_cast<std::uint32_t>(both >> (32 - shift));
}

// sin and cos of r + q pi / 2, r (|r| <= pi / 4 and a little) in double rounded once to float.
void sincos_of_reduced(double r, std::uint32_t q, Real& sine, Real& cosine) {
  const Real x = static_cast<Real>(r);
  const Real z = x * x;
  detail::unfold_quadrant(q, detail::sin_polynomial(x, z), detail::cos_polynomial(z), sine, cosine);
}

Real power_of_two(int n) {  // 2^n for -126 <= n <= 127, exactly
  const std::uint32_t bits = static_cast<std::uint32_t>(n + 127) << 23;
  Real v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

}  // namespace

void detail::sincos_large(Real x, Real& sine, Real& cosine) {
  // |x| = m 2^e with m a 24-bit integer. x 2 / pi / 4 modulo 1 gives the quadrant (its top two
  // bits) and the angle within it: only the bits of 2 / pi after bit e - 2 count, 96 of them
  // (as g0 g1 g2) times m, modulo 2^96.
  const Real ax = x < 0 ? -x : x;
  if (!(ax <= std::numeric_limits<Real>::max())) {  // NaN or +-inf: NaN, as IEEE's sin and cos
    sine = cosine = x - x;
    return;
  }
  int exponent;
  const std::uint32_t m = static_cast<std::uint32_t>(std::ldexp(std::frexp(ax, &exponent), 24));
  const int e = exponent - 24;
  const std::uint64_t g0 = two_over_pi_word(e - 2), g1 = two_over_pi_word(e + 30), g2 = two_over_pi_word(e + 62);
  const std::uint64_t low = m * g2;
  const std::uint64_t middle = m * g1 + (low >> 32);
  const std::uint64_t high = m * g0 + (middle >> 32);
  const std::uint64_t fraction = (high << 32) | (middle & 0xFFFFFFFFu);  // quarter turns / 4, 64 bits
  // The nearest quadrant q and what is left, in units of 2^-62 quarter turns.
  const std::uint32_t q = static_cast<std::uint32_t>((fraction + (std::uint64_t(1) << 61)) >> 62);
  const std::int64_t left = static_cast<std::int64_t>(fraction - (static_cast<std::uint64_t>(q) << 62));
  const double r = static_cast<double>(left) * 0x1.921fb54442d18p-62;  // pi / 2 / 2^62
  sincos_of_reduced(r, q & 3, sine, cosine);
  if (x < 0) sine = -sine;
}

void sincos_of_double(double angle, Real& sine, Real& cosine) {
  // k = round(angle 2 / pi) by adding and taking away 1.5 * 2^52; pi / 2 in three parts,
  // the first two of 23 bits, so k times them is exact for |k| < 2^30 (|angle| < 1.6e9).
  constexpr double kRoundDouble = 6755399441055744.0;
  const double k = (angle * 0x1.45f306dc9c883p-1 + kRoundDouble) - kRoundDouble;
  const double r = ((angle - k * 0x1.921fb4p+0) - k * 0x1.4442dp-24) - k * 0x1.8469898cc5170p-48;
  sincos_of_reduced(r, static_cast<std::uint32_t>(static_cast<std::int64_t>(k)) & 3, sine, cosine);
}

Real exp(Real x) {
  // e^x = 2^k e^r with k = round(x / ln 2) and r = x - k ln 2 (ln 2 in two parts, k times
  // the first exact), e^r by Cephes' expf polynomial on |r| <= ln 2 / 2, 2^k by exponent bits.
  if (x != x) return x;
  if (x > Real(88.7228391)) return kInfinity;
  if (x < Real(-103.972077)) return 0;
  constexpr Real kLog2e = Real(1.44269504088896341), kRound = Real(12582912);
  const Real k = (x * kLog2e + kRound) - kRound;
  const Real r = (x - k * Real(0.693359375)) - k * Real(-2.12194440e-4);
  Real p = Real(1.9875691500e-4);
  p = p * r + Real(1.3981999507e-3);
  p = p * r + Real(8.3334519073e-3);
  p = p * r + Real(4.1665795894e-2);
  p = p * r + Real(1.6666665459e-1);
  p = p * r + Real(5.0000001201e-1);
  p = p * (r * r) + r + Real(1);
  const int n = static_cast<int>(k);
  if (n > 127) return p * power_of_two(n - 1) * Real(2);
  if (n < -126) return p * power_of_two(n + 64) * power_of_two(-64);  // subnormal: rounded twice, alike everywhere
  return p * power_of_two(n);
}

}  // namespace math
}  // namespace contextsteer
