#include "contextsteer/kernels/neighbor_buffers.hpp"

#include "contextsteer/kernels/simd.hpp"

namespace contextsteer {

NeighborBuffers& neighbor_buffers() {
  thread_local NeighborBuffers buffers;
  buffers.ensure(0, 0);
  return buffers;
}

void reserve_neighbor_buffers() {
#ifdef CONTEXTSTEER_SIMD  // the scalar paths need none
  neighbor_buffers();
#endif
}

std::size_t neighbor_buffer_capacity() {
#ifdef CONTEXTSTEER_SIMD
  return neighbor_buffers().capacity;
#else
  return 0;
#endif
}

}  // namespace contextsteer
