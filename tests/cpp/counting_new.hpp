// Counts heap allocations, by replacing the global operator new (counting_new.cpp): a
// program linked with it can check that a steady-state World::step allocates nothing.
// Used by the C++ tests (test_allocations.cpp) and the disc benchmark.
#pragma once

namespace contextsteer {

// Allocations made through operator new (any form) since the program started.
long long heap_allocations();

}  // namespace contextsteer
