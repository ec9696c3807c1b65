// Which obstacles one query of the obstacles' index met already ("mailboxing"). The index
// lists an obstacle in every cell it reaches into, so a query over several cells meets it
// once per cell; a caller whose work per obstacle is dear (casting rays at it) does that
// work once. A mark per circle and wall (polygon edges and bounds' sides among them),
// 4 bytes each, kept per worker (scene/worker_scratch.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

class ObstacleMarks {
 public:
  // Starts a query among o's obstacles. Allocates only when their count changed.
  void start(const Obstacles& o) {
    walls_from_ = o.circles().size();
    const std::size_t count = walls_from_ + o.walls().size();
    if (marks_.size() != count) marks_.assign(count, 0), query_ = 0;
    if (++query_ == 0) std::fill(marks_.begin(), marks_.end(), 0), query_ = 1;  // wrapped round
  }
  // Room for marks of `count` obstacles, so that start() allocates nothing up to there.
  void reserve(std::size_t count) {
    if (marks_.capacity() < count) marks_.reserve(count);
  }
  // True the first time the query meets circle i, or wall i.
  bool first_circle(int i) { return first_meeting(static_cast<std::size_t>(i)); }
  bool first_wall(int i) { return first_meeting(walls_from_ + static_cast<std::size_t>(i)); }

 private:
  bool first_meeting(std::size_t k) {
    if (marks_[k] == query_) return false;
    marks_[k] = query_;
    return true;
  }

  std::vector<std::uint32_t> marks_;  // the last query that met each circle, then each wall
  std::size_t walls_from_ = 0;        // where the walls' marks start
  std::uint32_t query_ = 0;
};

}  // namespace contextsteer
