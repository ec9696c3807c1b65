#include "contextsteer/kernels/dispatch.hpp"

#include "contextsteer/kernels/simd.hpp"

#ifdef CONTEXTSTEER_AVX2_DISPATCH
#include <cpuid.h>
#endif

namespace contextsteer {

// Read from CPUID and XGETBV directly: __builtin_cpu_supports needs __cpu_model from the
// compiler's runtime library, which Apple's x86-64 toolchain lacks.
bool cpu_has_avx2() {
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  static const bool has = [] {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
    if (!(c & bit_OSXSAVE) || !(c & bit_AVX) || !(c & bit_POPCNT)) return false;
    unsigned xcr0, xcr0_high;  // XCR0 bits 1 and 2: the OS saves the SSE and AVX state
    __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0_high) : "c"(0));
    if ((xcr0 & 6) != 6) return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_AVX2);
  }();
  return has;
#else
  return false;
#endif
}

bool cpu_has_avx512() {
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  static const bool has = [] {
    if (!cpu_has_avx2()) return false;
    unsigned xcr0, xcr0_high;  // XCR0 bits 5 to 7: the opmask and both halves of the ZMM state
    __asm__("xgetbv" : "=a"(xcr0), "=d"(xcr0_high) : "c"(0));
    if ((xcr0 & 0xE0) != 0xE0) return false;
    unsigned a, b, c, d;
    const unsigned wanted = bit_AVX512F | bit_AVX512DQ | bit_AVX512BW | bit_AVX512VL;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & wanted) == wanted;
  }();
  return has;
#else
  return false;
#endif
}

namespace {

#define CONTEXTSTEER_BASELINE_ENTRY(result, name, parameters) &baseline::name,
#define CONTEXTSTEER_AVX2_ENTRY(result, name, parameters) &avx2::name,

#ifdef CONTEXTSTEER_SIMD
constexpr KernelTable kBaseline = {4, CONTEXTSTEER_WIDE_KERNELS(CONTEXTSTEER_BASELINE_ENTRY)};
#endif
#ifdef CONTEXTSTEER_AVX2_DISPATCH
constexpr KernelTable kAvx2 = {8, CONTEXTSTEER_WIDE_KERNELS(CONTEXTSTEER_AVX2_ENTRY)};
// AVX2's kernels, with the pass by pairs sweeping 16 slots in one register.
constexpr KernelTable with_wide_pairs(KernelTable table) {
  table.pair_danger_chunk = &avx512::pair_danger_chunk;
  return table;
}
constexpr KernelTable kAvx512 = with_wide_pairs(kAvx2);
#endif

KernelTables detect() {
  KernelTables tables{nullptr, nullptr, nullptr};
#ifdef CONTEXTSTEER_SIMD
  tables.up_to_4 = &kBaseline;
#endif
  tables.up_to_8 = tables.up_to_4;
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (cpu_has_avx2()) tables.up_to_8 = &kAvx2;
#endif
  tables.widest = tables.up_to_8;
#ifdef CONTEXTSTEER_AVX2_DISPATCH
  if (cpu_has_avx512()) tables.widest = &kAvx512;
#endif
  return tables;
}

}  // namespace

const KernelTables& detect_kernel_tables() {
  static const KernelTables tables = detect();
  return tables;
}

}  // namespace contextsteer
