// The check stage: the state the user may have written through the views since the last
// step is one a step may take (validation.cpp), and no agent outruns a window.
#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::check_stage(Real dt) {
  check_state();
  check_travel(dt);
}

}  // namespace contextsteer
