#include "contextsteer/pipeline/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "contextsteer/base/format_real.hpp"
#include "contextsteer/base/real_math.hpp"
#include "contextsteer/kernels/slot_sweep.hpp"
#include "contextsteer/kernels/stream_rows.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/agent_state.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"
#include "contextsteer/scene/worker_scratch.hpp"

namespace contextsteer {

namespace {

// The scene, with an evaluation cache and a worker's scratch of its own when the caller
// gave none (a world gives its own; evaluate() and explain() called without a world make
// them here, on the calling thread), so that behaviours can always keep results from
// prepare().
struct WithCache {
  explicit WithCache(const SceneView& given) : scene(given), pool(1) {
    if (!scene.cache) {
      cache.begin(pool);
      scene.cache = &cache;
    }
    if (!scene.workers) {
      scene.workers = &worker;
      scene.worker_count = 1;
      scene.worker = 0;
    }
  }
  SceneView scene;
  ThreadPool pool;
  EvaluationCache cache;
  WorkerScratch worker;
};

void check_turn_back(const PipelineConfig& config) {
  if (!(config.turn_back >= 0 && config.turn_back <= 1)) {
    throw std::invalid_argument("turn_back: expected a strength in [0, 1], got " + format_real(config.turn_back));
  }
  if (!(config.turn_back_wait >= 0)) {
    throw std::invalid_argument("turn_back_wait: expected seconds >= 0 (inf: never), got " +
                                format_real(config.turn_back_wait));
  }
}

}  // namespace

Pipeline::Pipeline(const PipelineConfig& config, std::vector<std::shared_ptr<const Behavior>> behaviors)
    : config_(config),
      directions_(config.slots, config.offset),
      blur_interest_(config.blur_interest, config.slots),
      blur_danger_(config.blur_danger, config.slots),
      behaviors_(std::move(behaviors)) {
  check_resolve_params(config.resolve);
  check_smooth_factor(config.smooth, "smooth");
  check_turn_back(config);
  for (const auto& b : behaviors_) {
    if (!b) throw std::invalid_argument("behaviors: expected behaviours, got None");
    interest_count_ += b->fills_interest();
    danger_count_ += b->fills_danger();
    memory_offset_.push_back(memory_width_);
    memory_width_ += b->memory_width();
  }
  check_weights(config_);
}

void Pipeline::check_weights(const PipelineConfig& config) const {
  // The mean divides by the weights' sum: refuse a zero sum, at build, at a change of the
  // rules and at each evaluation (weights may have changed since).
  Real sums[2] = {0, 0};
  bool filled[2] = {false, false};
  for (const auto& b : behaviors_) {
    if (b->fills_interest()) sums[0] += b->weight(), filled[0] = true;
    if (b->fills_danger()) sums[1] += b->weight(), filled[1] = true;
  }
  const CombineRule rules[2] = {config.interest_rule, config.danger_rule};
  for (int kind = 0; kind < 2; ++kind) {
    if (rules[kind] == CombineRule::Mean && filled[kind] && sums[kind] == 0) {
      throw std::invalid_argument(std::string("weight: the 'mean' rule needs ") + (kind ? "danger" : "interest") +
                                  " weights whose sum is not zero");
    }
  }
}

void Pipeline::set_config(const PipelineConfig& config, const char* what) {
  if (config.slots != config_.slots) {
    throw std::invalid_argument(
        "slots: a pipeline's slot count is fixed when it is built (the worlds using it "
        "hold maps of that size); build another Pipeline");
  }
  check_resolve_params(config.resolve);
  check_smooth_factor(config.smooth, "smooth");
  check_turn_back(config);
  // Built before the change, so that a bad value changes nothing.
  SlotDirections directions(config.slots, config.offset);
  CircularBlur blur_interest(config.blur_interest, config.slots), blur_danger(config.blur_danger, config.slots);
  check_weights(config);
  guard_.write(what, [&] {
    config_ = config;
    directions_ = std::move(directions);
    blur_interest_ = std::move(blur_interest);
    blur_danger_ = std::move(blur_danger);
  });
}

void Pipeline::begin_reading() const {
  guard_.begin_reading();
  for (const auto& b : behaviors_) b->guard().begin_reading();
}

void Pipeline::end_reading() const {
  for (const auto& b : behaviors_) b->guard().end_reading();
  guard_.end_reading();
}

Real Pipeline::neighbor_radius() const {
  Real radius = 0;
  for (const auto& b : behaviors_) radius = std::max(radius, b->neighbor_radius());
  return radius;
}

Pipeline::Scratch Pipeline::make_scratch() const {
  const std::size_t block = static_cast<std::size_t>(kBlockAgents) * config_.slots;
  Scratch s;
  s.behavior_maps.assign(block * (interest_count_ + danger_count_), 0);
  for (int kind = 0; kind < 2; ++kind) {
    s.combined[kind].assign(block, 0);
    s.blurred[kind].assign(block, 0);
    s.smoothed[kind].assign(block, 0);
  }
  s.final_map.assign(block, 0);
  s.giving_way.assign(block, 0);
  s.current.assign(kBlockAgents, Vec2{});
  s.decisions.assign(kBlockAgents, Decision{});
  s.resolve_work.assign(static_cast<std::size_t>(config_.slots), 0);
  s.interest_maps.reserve(behaviors_.size());
  s.danger_maps.reserve(behaviors_.size());
  s.interest_weights.reserve(behaviors_.size());
  s.danger_weights.reserve(behaviors_.size());
  return s;
}

const Real* Pipeline::merge_kind(int kind, const std::vector<const Real*>& maps, const std::vector<Real>& weights,
                                 CombineRule rule, const CircularBlur& blur, const int* agents, int count,
                                 bool has_previous, MapBatch target, Scratch& scratch) const {
  const int slots = config_.slots;
  const std::size_t used = static_cast<std::size_t>(count) * slots;
  const Real* merged = scratch.combined[kind].data();
  if (maps.empty()) {
    std::fill(scratch.combined[kind].begin(), scratch.combined[kind].begin() + used, Real(0));
  } else if (maps.size() == 1 && weights[0] == 1) {
    merged = maps[0];  // one map of weight 1 is its own combination under every rule
  } else {
    combine(maps.data(), static_cast<int>(maps.size()), used, rule, weights.data(), scratch.combined[kind].data());
  }
  if (!blur.is_identity()) {
    Real* blurred = scratch.blurred[kind].data();
    for (std::size_t row = 0; row < used; row += slots) blur.apply(merged + row, blurred + row);
    merged = blurred;
  }
  if (has_previous && config_.smooth > 0 && target.data) {
    Real* smoothed = scratch.smoothed[kind].data();
    for (int k = 0; k < count; ++k) {
      const std::size_t row = static_cast<std::size_t>(k) * slots;
      smooth(merged + row, target.row(agents[k]), slots, config_.smooth, smoothed + row);
    }
    merged = smoothed;
  }
  // Nothing reads the world's rows again this step: write them past the cache.
  if (target.data) stream_rows(merged, agents, count, slots, target.data);
  return merged;
}

bool Pipeline::leads_on(const Real* row, Vec2 v) const {
  const int slots = config_.slots;
  const int peak = static_cast<int>(std::max_element(row, row + slots) - row);
  if (row[peak] <= 0 || dot(v, directions_[peak]) > 0) return true;
  const int nearest = static_cast<int>(std::lround(directions_.slot_of_angle(math::atan2(v.y, v.x)))) % slots;
  return row[nearest] >= row[peak];
}

void Pipeline::evaluate_block(const SceneView& scene, const int* agents, int count, MapBatch interest, MapBatch danger,
                              DecisionBatch out, bool has_previous, Scratch& scratch) const {
  const int slots = config_.slots;
  const std::size_t block = static_cast<std::size_t>(kBlockAgents) * slots;
  const std::size_t used = static_cast<std::size_t>(count) * slots;

  std::vector<const Real*>& interest_maps = scratch.interest_maps;
  std::vector<const Real*>& danger_maps = scratch.danger_maps;
  interest_maps.clear();
  danger_maps.clear();
  scratch.interest_weights.clear();
  scratch.danger_weights.clear();
  for (const auto& b : behaviors_) {
    if (b->fills_interest()) scratch.interest_weights.push_back(b->weight());
    if (b->fills_danger()) scratch.danger_weights.push_back(b->weight());
  }

  Real* next = scratch.behavior_maps.data();
  for (std::size_t index = 0; index < behaviors_.size(); ++index) {
    const auto& b = behaviors_[index];
    const SceneView view = view_for(scene, index);
    if (const Real* ready = b->ready_rows(view, agents, count, directions_)) {
      (b->fills_interest() ? interest_maps : danger_maps).push_back(ready);
      continue;
    }
    Real* i_rows = nullptr;
    Real* d_rows = nullptr;
    if (b->fills_interest()) {
      i_rows = next;
      next += block;
      std::fill(i_rows, i_rows + used, Real(0));
      interest_maps.push_back(i_rows);
    }
    if (b->fills_danger()) {
      d_rows = next;
      next += block;
      std::fill(d_rows, d_rows + used, Real(0));
      danger_maps.push_back(d_rows);
    }
    b->fill(view, agents, count, directions_, i_rows, d_rows);
  }

  const Real* interest_rows = merge_kind(0, interest_maps, scratch.interest_weights, config_.interest_rule,
                                         blur_interest_, agents, count, has_previous, interest, scratch);
  interest_rows = interest_of_giving_way(scene, agents, count, interest_rows, scratch);
  const Real* danger_rows = merge_kind(1, danger_maps, scratch.danger_weights, config_.danger_rule, blur_danger_,
                                       agents, count, has_previous, danger, scratch);
  // Hysteresis leans toward the way each agent already moves, when that way leads on:
  // within 90 degrees of its interest's peak, or at a peak itself (of equal ones). An
  // agent backing off or drifting away from where it is led is not held to that way; one
  // without interest is.
  const bool hysteresis = config_.resolve.hysteresis > 0 && scene.velocities;
  if (hysteresis) {
    for (int k = 0; k < count; ++k) {
      const Vec2 v = scene.velocity(agents[k]);
      scratch.current[k] =
          !interest_rows || leads_on(interest_rows + static_cast<std::size_t>(k) * slots, v) ? v : Vec2{};
    }
  }
  Real* final_rows = scratch.final_map.data();
  resolve_rows(interest_rows, danger_rows, count, directions_, config_.resolve, final_rows,
               hysteresis ? scratch.current.data() : nullptr, scratch.decisions.data(), scratch.resolve_work.data());
  if (config_.turn_back > 0) hold_back(scene, agents, count, scratch.decisions.data());
  for (int k = 0; k < count; ++k) store_decision(scratch.decisions[k], agents[k], out);
  if (out.final_map) stream_rows(final_rows, agents, count, slots, out.final_map);
  stream_rows_done();
}

void Pipeline::hold_back(const SceneView& scene, const int* agents, int count, Decision* decisions) const {
  const auto giving_way = static_cast<std::int32_t>(AgentState::giving_way);
  const auto arrived = static_cast<std::int32_t>(AgentState::arrived);
  for (int k = 0; k < count; ++k) {
    Decision& d = decisions[k];
    const int agent = agents[k];
    const std::int32_t state = scene.states ? scene.states[agent] : -1;
    if (d.blocked || (d.strength >= config_.turn_back && state != arrived)) continue;
    if (state == giving_way) continue;
    if (scene.waiting_time && scene.waiting_time[agent] >= config_.turn_back_wait) continue;
    Vec2 facing;
    if (scene.headings) {
      math::sincos(scene.headings[agent], facing.y, facing.x);
    } else if (scene.velocities) {
      facing = scene.velocity(agent);
    }
    if (dot(d.direction, facing) < 0) d.strength = 0;
  }
}

const Real* Pipeline::interest_of_giving_way(const SceneView& scene, const int* agents, int count,
                                             const Real* interest_rows, Scratch& scratch) const {
  if (!scene.states || !scene.give_way) return interest_rows;
  auto giving_way = [&](int k) { return scene.states[agents[k]] == static_cast<std::int32_t>(AgentState::giving_way); };
  int first = 0;
  while (first < count && !giving_way(first)) ++first;
  if (first == count) return interest_rows;
  const int slots = config_.slots;
  Real* rows = scratch.giving_way.data();
  std::copy_n(interest_rows, static_cast<std::size_t>(count) * slots, rows);
  for (int k = first; k < count; ++k) {
    if (!giving_way(k)) continue;
    const Vec2 way = load(scene.give_way, agents[k]);
    Real* row = rows + static_cast<std::size_t>(k) * slots;
    for (int i = 0; i < slots; ++i) row[i] = std::max(Real(0), dot(directions_[i], way));
  }
  return rows;
}

void Pipeline::publish(const SceneView& scene, const int* agents, int count) const {
  for (const auto& behavior : behaviors_) behavior->publish(scene, agents, count);
}

void Pipeline::prepare(const SceneView& scene, const int* agents, int count) const {
  check_weights(config_);
  publish(scene, agents, count);
  for (std::size_t index = 0; index < behaviors_.size(); ++index) {
    behaviors_[index]->prepare(view_for(scene, index), agents, count, directions_);
  }
}

SceneView Pipeline::view_for(const SceneView& scene, std::size_t index) const {
  if (!scene.memory || behaviors_[index]->memory_width() == 0) return scene;
  // The behaviour sees its own part of each agent's kept values.
  SceneView own = scene;
  own.memory += memory_offset_[index];
  if (own.memory_out) own.memory_out += memory_offset_[index];
  return own;
}

Pipeline::Explanation Pipeline::explain(const SceneView& scene, int agent, const Real* previous_interest,
                                        const Real* previous_danger, const std::function<void()>& after_prepare) const {
  const int slots = config_.slots;
  const std::size_t row = static_cast<std::size_t>(agent) * slots;
  // Whole-scene buffers keep evaluate_block's row addressing; explaining is a cold path.
  const std::size_t total = static_cast<std::size_t>(scene.agents) * slots;
  std::vector<Real> interest(total, 0), danger(total, 0), final_map(total, 0), direction(2 * scene.agents, 0);
  std::vector<Real> strength(scene.agents, 0), slot(scene.agents, -1);
  std::vector<std::uint8_t> blocked(scene.agents, 0);
  const bool has_previous = previous_interest && previous_danger;
  if (has_previous) {
    std::copy(previous_interest, previous_interest + slots, interest.begin() + row);
    std::copy(previous_danger, previous_danger + slots, danger.begin() + row);
  }
  Scratch scratch = make_scratch();
  const int agents[] = {agent};
  WithCache with(scene);
  prepare(with.scene, agents, 1);
  if (after_prepare) after_prepare();
  evaluate_block(with.scene, agents, 1, MapBatch{interest.data(), scene.agents, slots},
                 MapBatch{danger.data(), scene.agents, slots},
                 DecisionBatch{direction.data(), strength.data(), slot.data(), blocked.data(), final_map.data()},
                 has_previous, scratch);
  Explanation e;
  // Each behaviour's rows, where evaluate_block read them (its own block of scratch, or
  // rows the behaviour lent): interest and danger in behaviour order. This agent's map
  // is the first row of each.
  std::size_t next_interest = 0, next_danger = 0;
  for (std::size_t b = 0; b < behaviors_.size(); ++b) {
    for (bool kind_is_danger : {false, true}) {
      if (kind_is_danger ? !behaviors_[b]->fills_danger() : !behaviors_[b]->fills_interest()) continue;
      const Real* rows = kind_is_danger ? scratch.danger_maps[next_danger++] : scratch.interest_maps[next_interest++];
      e.behavior_maps.emplace_back(rows, rows + slots);
      e.behavior_index.push_back(static_cast<int>(b));
      e.is_danger.push_back(kind_is_danger);
    }
  }
  e.interest.assign(interest.begin() + row, interest.begin() + row + slots);
  e.danger.assign(danger.begin() + row, danger.begin() + row + slots);
  e.final_map.assign(final_map.begin() + row, final_map.begin() + row + slots);
  e.decision.direction = load(direction.data(), agent);
  e.decision.strength = strength[agent];
  e.decision.slot = slot[agent];
  e.decision.blocked = blocked[agent] != 0;
  return e;
}

void Pipeline::evaluate(const SceneView& scene, const int* agents, int count, MapBatch interest, MapBatch danger,
                        DecisionBatch out, bool has_previous, Scratch& scratch) const {
  WithCache with(scene);
  prepare(with.scene, agents, count);
  for (int begin = 0; begin < count; begin += kBlockAgents) {
    evaluate_block(with.scene, agents + begin, std::min(kBlockAgents, count - begin), interest, danger, out,
                   has_previous, scratch);
  }
}

}  // namespace contextsteer
