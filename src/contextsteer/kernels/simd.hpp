// Float vectors of 4, 8 or 16 lanes for the hot kernels, and the helpers they are written with.
//
// A kernel is written once, as an always-inline template on the lane count W, with GCC
// and Clang vector extensions. It is instantiated with W = 4 in a function compiled for
// baseline x86-64 (SSE2) or ARM (NEON), and with W = 8 in one marked target("avx2"),
// chosen at run time (dispatch.hpp; a few parts of kernels also with W = 16 in one
// marked for AVX-512). Only element-wise IEEE operations are used
// (+ - * / sqrt, comparisons, selections) and no multiply-add is contracted
// (-ffp-contract=off), so both widths give bit-identical results. MSVC builds keep the
// scalar paths, as do builds with CONTEXTSTEER_NO_VECTOR_KERNELS defined (CMake:
// -DCONTEXTSTEER_VECTOR_KERNELS=OFF).
//
// How the helpers are written: splat adds the scalar to a zero vector, since a vector
// built with braces in a helper can compile to lane-by-lane inserts; and every helper is
// always-inline, so that it is compiled for the calling kernel's target.
#pragma once

#include <cmath>

#include "contextsteer/base/real.hpp"
#include "contextsteer/kernels/dispatch.hpp"

// For helpers that kernels call: inlined, so that they are compiled for the kernel's target.
#if defined(__GNUC__) || defined(__clang__)
#define CONTEXTSTEER_ALWAYS_INLINE inline __attribute__((always_inline))
#define CONTEXTSTEER_LAMBDA_ALWAYS_INLINE __attribute__((always_inline))
#else
#define CONTEXTSTEER_ALWAYS_INLINE inline
#define CONTEXTSTEER_LAMBDA_ALWAYS_INLINE
#endif

namespace contextsteer {

// The element-wise helpers a kernel is written with. They take vectors (below) or plain
// Reals, so that one template computes W agents or one with the same operations.
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V splat(Real x) {
  return x + V{};
}
// Lane-wise: where the mask lane is set, a, else b (for a Real, the mask is a bool).
template <class M, class V>
CONTEXTSTEER_ALWAYS_INLINE V select(M mask, V a, V b) {
  return mask ? a : b;
}
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V lane_max(V a, V b) {
  return a > b ? a : b;
}
CONTEXTSTEER_ALWAYS_INLINE Real lane_sqrt(Real v) { return std::sqrt(v); }
// f(v) where the mask is set, else v: for rare lanes that need a scalar function (a
// library call); with vectors, f runs lane by lane, and only when some lane is set.
template <class F>
CONTEXTSTEER_ALWAYS_INLINE Real apply_where(bool mask, Real v, F&& f) {
  return mask ? f(v) : v;
}

}  // namespace contextsteer

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CONTEXTSTEER_NO_VECTOR_KERNELS)
#define CONTEXTSTEER_SIMD 1

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

// The AVX2 functions hold no vector code of their own: each calls its kernel with
// pointers and scalars. Clang refuses a call from an AVX2 function that passes a 32-byte
// vector to a baseline one, even an always-inlined one, but accepts such calls between
// baseline functions (the kernel and these helpers), which are then inlined into it.
#if defined(__x86_64__) || defined(__i386__)
#define CONTEXTSTEER_AVX2_DISPATCH 1
// Every CPU with AVX2 also counts bits in one instruction (popcnt); kernels use both.
#define CONTEXTSTEER_TARGET_AVX2 __attribute__((target("avx2,popcnt")))
// AVX-512 with 16-lane vectors of floats and masks on 8- to 32-bit lanes (F, VL, BW, DQ):
// a 16-slot map row fits one register. For the sweep of the pass by pairs only.
#define CONTEXTSTEER_TARGET_AVX512 __attribute__((target("avx2,popcnt,avx512f,avx512vl,avx512bw,avx512dq")))
#endif

namespace contextsteer {

static_assert(sizeof(Real) == 4, "the vectors hold 4-byte floats");

using Real4 = Real __attribute__((vector_size(16)));
using Int4 = std::int32_t __attribute__((vector_size(16)));
using Real8 = Real __attribute__((vector_size(32)));
using Int8 = std::int32_t __attribute__((vector_size(32)));
using Real16 = Real __attribute__((vector_size(64)));
using Int16 = std::int32_t __attribute__((vector_size(64)));

// Lanes<W>::Reals and ::Ints: the W-lane vector types.
template <int W>
struct Lanes;
template <>
struct Lanes<4> {
  using Reals = Real4;
  using Ints = Int4;
};
template <>
struct Lanes<8> {
  using Reals = Real8;
  using Ints = Int8;
};
template <>
struct Lanes<16> {
  using Reals = Real16;
  using Ints = Int16;
};

// The vector types with the alignment of their elements, for loads and stores at any
// element. Accessed through these (not memcpy, which may alias anything), a vector store
// only aliases its element type, so kernels keep their pointers in registers across it.
template <class V>
struct Unaligned {
  using Element = std::remove_reference_t<decltype(std::declval<V&>()[0])>;
  typedef Element type __attribute__((vector_size(sizeof(V)), aligned(alignof(Element))));
};

// W lanes from p[0 .. W): T is the lanes' element type or its unsigned twin.
template <class V, class T>
CONTEXTSTEER_ALWAYS_INLINE V load_lanes(const T* p) {
  static_assert(sizeof(T) == 4, "lanes hold 4-byte elements");
  return *reinterpret_cast<const typename Unaligned<V>::type*>(p);
}
template <class T, class V>
CONTEXTSTEER_ALWAYS_INLINE void store_lanes(T* p, V v) {
  static_assert(sizeof(T) == 4, "lanes hold 4-byte elements");
  *reinterpret_cast<typename Unaligned<V>::type*>(p) = v;
}
// Lanes of a and b (lane W + l of the pair is b[l]) picked by constant indices L...:
// GCC's __builtin_shuffle takes them as a vector, Clang's __builtin_shufflevector as
// constants.
template <int... L, class V>
CONTEXTSTEER_ALWAYS_INLINE V shuffle(V a, V b) {
  static_assert(sizeof...(L) * sizeof(Real) == sizeof(V), "one index per lane");
#ifdef __clang__
  return __builtin_shufflevector(a, b, L...);
#else
  return __builtin_shuffle(a, b, typename Lanes<sizeof(V) / sizeof(Real)>::Ints{L...});
#endif
}

// Lane-wise square root: one sqrtps per register (needs -fno-math-errno).
template <class V>
CONTEXTSTEER_ALWAYS_INLINE V lane_sqrt(V v) {
  V r;
  for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) r[l] = __builtin_sqrtf(v[l]);
  return r;
}

// The largest lane, reduced in registers (reading lanes one by one goes through memory).
CONTEXTSTEER_ALWAYS_INLINE Real largest_lane(Real4 v) {
  v = lane_max(v, shuffle<2, 3, 0, 1>(v, v));
  v = lane_max(v, shuffle<1, 0, 3, 2>(v, v));
  return v[0];
}
CONTEXTSTEER_ALWAYS_INLINE Real largest_lane(Real8 v) {
  Real4 low, high;
  std::memcpy(&low, &v, sizeof low);
  std::memcpy(&high, reinterpret_cast<const char*>(&v) + sizeof low, sizeof high);
  return largest_lane(lane_max(low, high));
}

// Bit l set when lane l of the mask is set: movmskps on x86 (SSE, so that it inlines into
// kernels of any target; 8 lanes as two halves), shuffles elsewhere.
#ifdef __SSE__
// (A cast between vector types of one size keeps the bits.)
CONTEXTSTEER_ALWAYS_INLINE int mask_bits(Int4 mask) { return __builtin_ia32_movmskps((Real4)mask); }
CONTEXTSTEER_ALWAYS_INLINE int mask_bits(Int8 mask) {
  Real4 low, high;
  std::memcpy(&low, &mask, sizeof low);
  std::memcpy(&high, reinterpret_cast<const char*>(&mask) + sizeof low, sizeof high);
  return __builtin_ia32_movmskps(low) | (__builtin_ia32_movmskps(high) << 4);
}
#else
CONTEXTSTEER_ALWAYS_INLINE int mask_bits(Int4 mask) {
  Int4 t = mask & Int4{1, 2, 4, 8};
  t |= shuffle<2, 3, 0, 1>(t, t);
  t |= shuffle<1, 0, 3, 2>(t, t);
  return t[0];
}
CONTEXTSTEER_ALWAYS_INLINE int mask_bits(Int8 mask) {
  Int8 t = mask & Int8{1, 2, 4, 8, 16, 32, 64, 128};
  t |= shuffle<4, 5, 6, 7, 0, 1, 2, 3>(t, t);
  t |= shuffle<2, 3, 0, 1, 6, 7, 4, 5>(t, t);
  t |= shuffle<1, 0, 3, 2, 5, 4, 7, 6>(t, t);
  return t[0];
}
#endif

// apply_where (above) for W lanes.
template <class M, class V, class F>
CONTEXTSTEER_ALWAYS_INLINE V apply_where(M mask, V v, F&& f) {
  if (!mask_bits(mask)) return v;
  for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) {
    if (mask[l]) v[l] = f(v[l]);
  }
  return v;
}

// For each W-bit lane mask: the permutation that brings the set lanes to the front, in
// order, and how many there are. store_packed() keeps the lanes that passed a test.
template <int W>
struct PackTable {
  typename Lanes<W>::Ints order[1 << W];
  std::uint8_t count[1 << W];
};
template <int W>
const PackTable<W>& pack_table() {
  static const PackTable<W> table = [] {
    PackTable<W> t{};
    for (int bits = 0; bits < (1 << W); ++bits) {
      int n = 0;
      for (int lane = 0; lane < W; ++lane) {
        if (bits & (1 << lane)) t.order[bits][n++] = lane;
      }
      for (int rest = n; rest < W; ++rest) t.order[bits][rest] = 0;
      t.count[bits] = static_cast<std::uint8_t>(n);
    }
    return t;
  }();
  return table;
}
#if defined(__clang__) && defined(CONTEXTSTEER_AVX2_DISPATCH)
// vpermps for Clang, which has no variable permutation of generic vectors and refuses
// 32-byte vector arguments and results between functions of different targets: the lanes
// come by reference. Called only by 8-lane kernels, which run on AVX2 alone; the inliner
// folds it into the AVX2 function the kernel is inlined into.
template <class T, class V>
CONTEXTSTEER_TARGET_AVX2 inline void store_permuted8(T* p, const V& v, const Int8& order) {
  *reinterpret_cast<typename Unaligned<V>::type*>(p) = (V)__builtin_ia32_permvarsf256((Real8)v, order);
}
#endif
// Stores at p the lanes of v in the order of a PackTable row: those that passed a test
// first. (One call for both, so that Clang can take v by reference, see above.)
template <class T, class V, class M>
CONTEXTSTEER_ALWAYS_INLINE void store_packed(T* p, V v, M order) {
#ifndef __clang__
  store_lanes(p, __builtin_shuffle(v, order));  // a variable permutation: vpermps on AVX2, tbl on ARM64
#else
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if constexpr (sizeof(V) == 32) return store_permuted8(p, v, order);
#endif
  V r;  // lane by lane
  for (unsigned l = 0; l < sizeof(V) / sizeof(Real); ++l) r[l] = v[order[l]];
  store_lanes(p, r);
#endif
}

}  // namespace contextsteer

#endif
