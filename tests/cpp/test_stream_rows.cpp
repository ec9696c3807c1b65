// stream_rows puts each row of a block at its agent's row of the maps, whether it streams
// (16 or 32 slots on a 64-byte line) or copies (other slot counts, or maps off a line),
// at every kernel width, and leaves the other rows alone.
#include <gtest/gtest.h>

#include <vector>

#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/kernels/stream_rows.hpp"
#include "contextsteer/runtime/cache_line_allocator.hpp"

using namespace contextsteer;

TEST(StreamRows, PutsEachRowAtItsAgentsRowAndNowhereElse) {
  const std::vector<int> agents = {5, 0, 3, 6};  // out of order, with gaps
  const int map_rows = 7;
  for (int slots : {16, 32, 12, 5}) {
    for (int offset : {0, 1}) {  // maps on a cache line, and one float past it
      std::vector<Real> from(agents.size() * slots);
      for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<Real>(i) + Real(0.5);
      for (int width : {8, 4, 1}) {
        std::vector<Real, CacheLineAllocator<Real>> maps(static_cast<std::size_t>(map_rows) * slots + offset, -1);
        const int previous = simd_width_limit.exchange(width);
        stream_rows(from.data(), agents.data(), static_cast<int>(agents.size()), slots, maps.data() + offset);
        stream_rows_done();
        simd_width_limit = previous;
        std::vector<Real> want(static_cast<std::size_t>(map_rows) * slots, -1);
        for (std::size_t k = 0; k < agents.size(); ++k) {
          for (int i = 0; i < slots; ++i) want[agents[k] * slots + i] = from[k * slots + i];
        }
        EXPECT_EQ(std::vector<Real>(maps.begin() + offset, maps.end()), want)
            << "slots " << slots << " offset " << offset << " width " << width;
      }
    }
  }
}
