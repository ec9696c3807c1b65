// The trial cells of a fast march (field_march.cpp), smallest tentative value first and,
// between equal values, the smaller cell index first. The cells known before the march
// begins (its seeds) wait in a list sorted once; the cells the march reaches go into a
// 4-ary min-heap that holds each cell once, at its latest value (lowered in place); pop()
// takes the first of both. No two entries are equal, so the order in which they come out
// is that of their values and cells alone, whatever the heap's shape: the order a single
// heap of every value ever pushed would give, less the values since lowered. The vectors
// are kept from one march to the next (no allocation once they have grown).
//
// An entry is one 64-bit key, the value's bits above the cell's: for values >= 0 (never
// NaN; -0 taken as +0) the keys order as (value, cell) pairs do.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "contextsteer/base/real.hpp"

namespace contextsteer {

class TrialHeap {
 public:
  struct Entry {
    Real value;        // the cell's tentative value, >= 0
    std::size_t cell;  // index of the cell, below 2^32
  };

  bool empty() const { return entries_.empty() && next_seed_ == seeds_.size(); }
  // Room for `cells` cells in the heap (each is there once at most) and `seeds` seeds.
  void reserve(std::size_t cells, std::size_t seeds) { entries_.reserve(cells), seeds_.reserve(seeds); }
  // Empties it for a march over cells 0 to cells - 1.
  void reset(std::size_t cells) {
    entries_.clear(), seeds_.clear(), next_seed_ = 0;
    at_.assign(cells, kNowhere);
  }

  // Before the first pop: a cell known from the start.
  void seed(Real value, std::size_t cell) { seeds_.push_back(key(value, cell)); }
  // Puts the seeds in order; call it once they are all in, before the first pop.
  void sort_seeds() {
    if (!std::is_sorted(seeds_.begin(), seeds_.end())) std::sort(seeds_.begin(), seeds_.end());
  }

  // A cell the march reached, or reached again with a value lower than it has in the heap
  // (never one popped from it; a seed may come again, its seed then being stale).
  void push(Real value, std::size_t cell) {
    const Key k = key(value, cell);
    std::size_t i = at_[cell];
    if (i == kNowhere) i = entries_.size(), entries_.push_back(k);
    while (i > 0) {
      const std::size_t parent = (i - 1) / kArity;
      if (!(k < entries_[parent])) break;
      place(i, entries_[parent]);
      i = parent;
    }
    place(i, k);
  }

  // Removes and returns the first entry; it must not be empty.
  Entry pop() {
    if (next_seed_ < seeds_.size() && (entries_.empty() || seeds_[next_seed_] < entries_[0])) {
      return entry(seeds_[next_seed_++]);
    }
    const Key top = entries_[0];
    at_[cell_of(top)] = kNowhere;
    const Key last = entries_.back();
    entries_.pop_back();
    const std::size_t n = entries_.size();
    std::size_t i = 0;
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      std::size_t least = first;
      if (first + kArity <= n) {  // four children: the least without branches
        const Key* c = entries_.data() + first;
        const std::size_t a = c[1] < c[0] ? 1 : 0, b = c[3] < c[2] ? 3 : 2;
        least = first + (c[b] < c[a] ? b : a);
      } else {
        for (std::size_t k = first + 1; k < n; ++k) least = entries_[k] < entries_[least] ? k : least;
      }
      if (!(entries_[least] < last)) break;
      place(i, entries_[least]);
      i = least;
    }
    if (n > 0) place(i, last);
    return entry(top);
  }

 private:
  using Key = std::uint64_t;
  static constexpr std::size_t kArity = 4;
  static constexpr std::uint32_t kNowhere = 0xffffffffu;
  static std::size_t cell_of(Key k) { return static_cast<std::size_t>(k & 0xffffffffu); }
  void place(std::size_t i, Key k) {
    entries_[i] = k;
    at_[cell_of(k)] = static_cast<std::uint32_t>(i);
  }
  static Key key(Real value, std::size_t cell) {
    const Real positive = value + Real(0);  // -0 becomes +0
    std::uint32_t bits;
    std::memcpy(&bits, &positive, sizeof bits);
    return (static_cast<Key>(bits) << 32) | static_cast<Key>(cell);
  }
  static Entry entry(Key k) {
    const std::uint32_t bits = static_cast<std::uint32_t>(k >> 32);
    Real value;
    std::memcpy(&value, &bits, sizeof value);
    return {value, cell_of(k)};
  }
  std::vector<Key> entries_;       // the heap
  std::vector<Key> seeds_;         // sorted once sort_seeds() was called
  std::size_t next_seed_ = 0;      // the first seed not yet popped
  std::vector<std::uint32_t> at_;  // per cell, its place in the heap, or kNowhere
};

}  // namespace contextsteer
