// The evaluate stage: every context-steered agent fills, merges and resolves its maps
// into a decision (into the agent store); every classically steered agent computes its
// steering (into evaluated_). On the way, Avoid's pass by pairs notes the agents that may
// overlap after the step (evaluated_.close_agents, for the measure stage). Between the
// behaviours' prepare() (where Python behaviours run) and the blocks, the state is
// checked again when a steering runs foreign code.
#include "contextsteer/world/world.hpp"

namespace contextsteer {

void World::evaluate_stage(Real dt) {
  SceneView view = scene();
  view.dt = dt;
  cache_.begin(*pool_);
  view.cache = &cache_;
  view.workers = worker_scratch_.data();  // one per worker of pool_ (fit_worker_scratch)
  view.worker_count = static_cast<int>(worker_scratch_.size());
  // An agent moves at most max_speed * dt in a step, unless it starts faster than its
  // max_speed (it then brakes within its acceleration limit); such an agent, or rounding
  // far from the origin, is caught after the move (measure_stage).
  evaluated_.close_flags.assign(static_cast<std::size_t>(store_.size), 0);
  evaluated_.close_agents =
      CloseAgents{2 * Real(1.05) * index_.fastest * dt + Real(1e-3), evaluated_.close_flags.data(), false};
  view.close_agents = &evaluated_.close_agents;
  if (view.memory) view.memory_out = store_.memory.data();  // each agent's, by its own block only
  const MapBatch interest{store_.interest.data(), store_.size, slots_};
  const MapBatch danger{store_.danger.data(), store_.size, slots_};
  const DecisionBatch out{store_.direction.data(), store_.strength.data(), store_.slot.data(), store_.blocked.data(),
                          keep_maps_ ? store_.final.data() : nullptr};
  // Without kept maps, only a smoothing pipeline writes (and next step reads) its
  // agents' interest and danger rows.
  auto rows_for = [&](const Pipeline& p, MapBatch maps) {
    return keep_maps_ || p.config().smooth > 0 ? maps : MapBatch{nullptr, store_.size, slots_};
  };
  const bool has_previous = steps_ > 0;
  for (const Controller& c : controllers_) {
    if (c.steering.pipeline) {
      c.steering.pipeline->prepare(view, c.members.data(), static_cast<int>(c.members.size()));
    }
  }
  // A Python behaviour's prepare() may write the views.
  check_state_written_during(
      " (written during the step, by a Python behaviour or another thread; nothing has moved, steps_taken and "
      "time are unchanged)");
  auto body = [&](int t, int worker) {
    const Task& task = tasks_[t];
    const Controller& c = controllers_[task.controller];
    const int* agents = c.members.data() + task.first;
    if (c.steering.pipeline) {
      const Pipeline& p = *c.steering.pipeline;
      SceneView mine = view;  // the behaviours work in this worker's scratch
      mine.worker = worker;
      p.evaluate_block(mine, agents, task.count, rows_for(p, interest), rows_for(p, danger), out, has_previous,
                       pipeline_scratch_[task.controller][worker]);
      return;
    }
    for (int k = 0; k < task.count; ++k) {
      const int a = agents[k];
      const SteeringOutput s = c.steering.classic->compute(view, a);
      store(evaluated_.classic_linear.data(), a, s.linear);
      evaluated_.classic_angular[a] = s.angular;
    }
  };
  pool_->run(static_cast<int>(tasks_.size()), body);
}

}  // namespace contextsteer
