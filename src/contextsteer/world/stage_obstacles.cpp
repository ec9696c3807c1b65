// The obstacles stage: the moving obstacles advance by the step's dt, to where they will
// be when the agents have moved, and their shapes and index follow. The agents then
// steer among them where they will be, and the measure stage finds both at the step's
// end. Serial, so that the results do not depend on the thread count.
#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::obstacles_stage(Real dt) {
  if (!moving_.empty()) moving_.advance(dt);
}

}  // namespace contextsteer
