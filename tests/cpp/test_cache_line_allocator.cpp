// Blocks of CacheLineAllocator start on a cache line, and on Linux the large ones on a
// 2 MiB page (so that the kernel can back them with huge pages); a vector keeps its
// values as it grows from one kind of block to the other.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "contextsteer/base/real.hpp"
#include "contextsteer/runtime/cache_line_allocator.hpp"

using namespace contextsteer;

namespace {

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

TEST(CacheLineAllocator, SmallBlocksStartOnALineAndLargeOnesOnAHugePageOnLinux) {
  using Allocator = CacheLineAllocator<Real>;
  std::vector<Real, Allocator> small(1000, 1);
  EXPECT_EQ(address(small.data()) % 64, 0u);
  EXPECT_EQ(Allocator::alignment_for(small.capacity()), 64u);

  std::vector<Real, Allocator> values;
  for (int i = 0; i < 2'000'000; ++i) values.push_back(static_cast<Real>(i));  // 8 MB, grown block by block
#ifdef __linux__
  EXPECT_EQ(Allocator::alignment_for(values.capacity()), std::size_t(2) << 20);
  EXPECT_EQ(address(values.data()) % (std::size_t(2) << 20), 0u);
#else
  EXPECT_EQ(address(values.data()) % 64, 0u);
#endif
  for (int i = 0; i < 2'000'000; i += 997) ASSERT_EQ(values[i], static_cast<Real>(i));
  EXPECT_EQ(values.back(), Real(1'999'999));
}
