#include "pipeline.hpp"

#include <algorithm>
#include <stdexcept>

namespace contextsteer {

namespace {
// The mean divides by the weights' sum; catch a zero sum when the pipeline is built.
void check_mean_weights(CombineRule rule, const std::vector<Real>& weights, const char* kind) {
  if (rule != CombineRule::Mean || weights.empty()) return;
  Real total = 0;
  for (Real w : weights) total += w;
  if (total == 0) {
    throw std::invalid_argument(std::string("behaviors: the 'mean' rule needs ") + kind +
                                " weights whose sum is not zero");
  }
}
}  // namespace

Pipeline::Pipeline(const PipelineConfig& config, std::vector<std::shared_ptr<const Behavior>> behaviors)
    : config_(config),
      directions_(config.slots, config.offset),
      blur_interest_(config.blur_interest),
      blur_danger_(config.blur_danger),
      behaviors_(std::move(behaviors)) {
  check_resolve_params(config.resolve);
  check_smooth_factor(config.smooth, "smooth");
  for (const auto& b : behaviors_) {
    if (!b) throw std::invalid_argument("behaviors: expected behaviours, got None");
    if (b->fills_interest()) interest_weights_.push_back(b->weight());
    if (b->fills_danger()) danger_weights_.push_back(b->weight());
  }
  map_count_ = static_cast<int>(interest_weights_.size() + danger_weights_.size());
  check_mean_weights(config.interest_rule, interest_weights_, "interest");
  check_mean_weights(config.danger_rule, danger_weights_, "danger");
}

Pipeline::Scratch Pipeline::make_scratch() const {
  const std::size_t block = static_cast<std::size_t>(kBlockAgents) * config_.slots;
  Scratch s;
  s.behavior_maps.assign(block * map_count_, 0);
  s.combined.assign(block, 0);
  s.blurred.assign(block, 0);
  return s;
}

void Pipeline::merge_kind(const std::vector<const Real*>& maps, const std::vector<Real>& weights, CombineRule rule,
                          const CircularBlur& blur, int agents, bool has_previous, Real* target,
                          Scratch& scratch) const {
  const int slots = config_.slots;
  const std::size_t count = static_cast<std::size_t>(agents) * slots;
  Real* merged = scratch.combined.data();
  if (maps.empty()) {
    std::fill(merged, merged + count, Real(0));
  } else {
    combine(maps.data(), static_cast<int>(maps.size()), count, rule, weights.data(), merged);
  }
  if (!blur.is_identity()) {
    for (int a = 0; a < agents; ++a) {
      blur.apply(merged + static_cast<std::size_t>(a) * slots, scratch.blurred.data() + static_cast<std::size_t>(a) * slots, slots);
    }
    merged = scratch.blurred.data();
  }
  if (has_previous && config_.smooth > 0) {
    smooth(merged, target, count, config_.smooth, target);
  } else {
    std::copy(merged, merged + count, target);
  }
}

void Pipeline::evaluate_block(const SceneView& scene, int begin, int end, MapBatch interest, MapBatch danger,
                              DecisionBatch out, bool has_previous, Scratch& scratch) const {
  const int agents = end - begin;
  const int slots = config_.slots;
  const std::size_t block = static_cast<std::size_t>(kBlockAgents) * slots;
  const std::size_t used = static_cast<std::size_t>(agents) * slots;

  // Small fixed-size pointer tables on the stack would need a cap on behaviours; these
  // vectors reuse their capacity after the first block, so steady state allocates nothing.
  thread_local std::vector<const Real*> interest_maps;
  thread_local std::vector<const Real*> danger_maps;
  interest_maps.clear();
  danger_maps.clear();

  Real* next = scratch.behavior_maps.data();
  for (const auto& b : behaviors_) {
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
    b->fill(scene, begin, end, directions_, i_rows, d_rows);
  }

  Real* interest_rows = interest.row(begin);
  Real* danger_rows = danger.row(begin);
  merge_kind(interest_maps, interest_weights_, config_.interest_rule, blur_interest_, agents, has_previous,
             interest_rows, scratch);
  merge_kind(danger_maps, danger_weights_, config_.danger_rule, blur_danger_, agents, has_previous, danger_rows,
             scratch);
  resolve(ConstMapBatch(interest_rows, agents, slots), danger_rows, directions_, config_.resolve,
          out.offset(begin, slots));
}

void Pipeline::evaluate(const SceneView& scene, MapBatch interest, MapBatch danger, DecisionBatch out,
                        bool has_previous, Scratch& scratch) const {
  for (int begin = 0; begin < scene.agents; begin += kBlockAgents) {
    const int end = std::min(scene.agents, begin + kBlockAgents);
    evaluate_block(scene, begin, end, interest, danger, out, has_previous, scratch);
  }
}

}  // namespace contextsteer
