// What an agent of a world is doing on its way to its goal, as the world's progress
// stage writes it each step (world/goals.hpp) and behaviours and pipelines read it
// (SceneView::states).
#pragma once

#include <cstdint>

namespace contextsteer {

enum class AgentState : std::int32_t {
  moving = 0,      // on its way, progressing
  waiting = 1,     // no progress for a while
  giving_way = 2,  // stepping toward SceneView::give_way for a while
  arrived = 3,     // at its target
};

}  // namespace contextsteer
