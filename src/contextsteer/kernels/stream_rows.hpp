// Copies a block's map rows into the world's maps, which nothing reads again in the step
// (users read them between steps): where the rows fill whole 64-byte cache lines,
// non-temporal stores write them to memory without first reading each line into the
// cache, 32 bytes at a time on AVX2.
#pragma once

#include "contextsteer/base/real.hpp"

namespace contextsteer {

// to[agents[k] * slots + i] = from[k * slots + i] for k in [0, count), i in [0, slots).
// Streamed when slots is a multiple of 16 and `to` starts on a 64-byte line (the world's
// maps do: cache_line_allocator.hpp), else copied. Call stream_rows_done() after a batch.
void stream_rows(const Real* from, const int* agents, int count, int slots, Real* to);

// Orders the streamed stores before the thread's later stores (such as the one that
// tells other threads that the rows are done).
void stream_rows_done();

}  // namespace contextsteer
