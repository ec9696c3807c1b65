// An allocator whose blocks start on a 64-byte cache line, for the world's per-agent
// columns: a map row of 16 floats then fills exactly one line, so that it can be written
// with non-temporal stores (stream_rows.hpp).
//
// On Linux, blocks of 4 MiB or more (the world's maps and the pass by pairs' rows from
// ~65,000 agents on) start on a 2 MiB boundary instead and are advised to the kernel as
// huge pages before they are first touched (madvise MADV_HUGEPAGE; the kernel follows it
// where transparent huge pages are set to "madvise" or "always"): a step that writes three
// 6.4 MB maps then needs a dozen TLB entries for them, not ~5,000.
#pragma once

#include <cstddef>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace contextsteer {

template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::size_t kAlignment = 64;
  static constexpr std::size_t kHugePage = std::size_t(2) << 20;

  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}  // NOLINT: rebinding converts implicitly

  // The alignment of a block of n values: kHugePage for the large ones on Linux.
  static std::size_t alignment_for(std::size_t n) {
#ifdef __linux__
    if (n * sizeof(T) >= 2 * kHugePage) return kHugePage;
#endif
    (void)n;
    return kAlignment;
  }

  T* allocate(std::size_t n) {
    const std::size_t alignment = alignment_for(n);
    void* p = ::operator new(n * sizeof(T), std::align_val_t{alignment});
#ifdef __linux__
    // Advice only: where the kernel declines, the block keeps small pages.
    if (alignment == kHugePage) (void)madvise(p, n * sizeof(T) / kHugePage * kHugePage, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) noexcept { ::operator delete(p, std::align_val_t{alignment_for(n)}); }

  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const CacheLineAllocator<U>&) const noexcept {
    return false;
  }
};

}  // namespace contextsteer
