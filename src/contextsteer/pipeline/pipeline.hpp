// A steering pipeline: behaviours fill maps, a combine rule merges them, shaping
// (blur, temporal smoothing) refines them, and resolve turns them into decisions.
//
// Agents are evaluated in blocks of kBlockAgents so that every behaviour's rows for a
// block stay in cache between filling, combining and resolving; the virtual call to a
// behaviour is made once per block. All scratch space lives in a Scratch sized once.
// A pipeline is immutable once built, so several threads may evaluate it at once.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/maps/combine.hpp"
#include "contextsteer/maps/map_batch.hpp"
#include "contextsteer/maps/resolve.hpp"
#include "contextsteer/maps/shaping.hpp"
#include "contextsteer/maps/slots.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

// The names of the rules, as Python gives them.
template <>
struct Names<CombineRule> {
  static constexpr NamedValue<CombineRule> values[] = {
      {"max", CombineRule::Max}, {"sum", CombineRule::Sum}, {"mean", CombineRule::Mean}, {"min", CombineRule::Min}};
};
template <>
struct Names<DangerMode> {
  static constexpr NamedValue<DangerMode> values[] = {{"subtract", DangerMode::Subtract},
                                                      {"threshold", DangerMode::Threshold},
                                                      {"min_mask", DangerMode::MinMask},
                                                      {"multiply", DangerMode::Multiply}};
};
template <>
struct Names<SelectMethod> {
  static constexpr NamedValue<SelectMethod> values[] = {{"argmax", SelectMethod::Argmax},
                                                        {"blend", SelectMethod::Blend},
                                                        {"average", SelectMethod::Average},
                                                        {"parabolic", SelectMethod::Parabolic},
                                                        {"gradient", SelectMethod::Gradient}};
};

struct PipelineConfig {
  int slots = 16;
  Real offset = 0;  // radians, angle of slot 0
  CombineRule interest_rule = CombineRule::Max;
  CombineRule danger_rule = CombineRule::Max;
  // Includes hysteresis toward each agent's velocity, when within 90 degrees of its
  // interest's peak.
  ResolveParams resolve;
  Real blur_interest = 0;  // Gaussian width in slots, 0 = off
  Real blur_danger = 0;
  Real smooth = 0;  // share of the previous step's maps kept, in [0, 1]
  // The least strength, in [0, 1], of a decision that turns an agent back: more than 90
  // degrees from the way it faces (its heading, else its velocity). A weaker one brakes
  // it instead (strength 0, the direction kept), so that a jammed agent waits rather than
  // flipping from side to side. An agent that has arrived (a world's goals,
  // world/goals.hpp) turns back for no strength: it stands or steps aside. An agent giving
  // way, or one that has made no progress for turn_back_wait seconds (a world's
  // waiting_time), turns freely. 0: off.
  Real turn_back = 0;
  Real turn_back_wait = 10;  // seconds, >= 0 (inf: never)
};

class Pipeline {
 public:
  static constexpr int kBlockAgents = 128;

  // Throws std::invalid_argument for an invalid configuration.
  Pipeline(const PipelineConfig& config, std::vector<std::shared_ptr<const Behavior>> behaviors);

  const PipelineConfig& config() const { return config_; }
  // Checks `config` as the constructor does; its slot count must be this pipeline's.
  // Takes effect at the next evaluation; throws the busy std::runtime_error while a
  // world steps with this pipeline, naming `what`.
  void set_config(const PipelineConfig& config, const char* what = "Pipeline");

  // Holds this pipeline's settings and its behaviours' parameters for reading; pair each
  // with end_reading().
  void begin_reading() const;
  void end_reading() const;
  const SlotDirections& directions() const { return directions_; }
  const std::vector<std::shared_ptr<const Behavior>>& behaviors() const { return behaviors_; }

  // Per-worker working memory for evaluate(); its size depends only on the pipeline. The
  // behaviours' own is the worker's (SceneView::scratch(), scene/worker_scratch.hpp).
  struct Scratch {
    std::vector<Real> behavior_maps;  // one (kBlockAgents, slots) block per map a behaviour fills
    // Per kind of map (interest, danger): one (kBlockAgents, slots) block each.
    std::vector<Real> combined[2], blurred[2], smoothed[2];
    std::vector<Real> final_map;      // (kBlockAgents, slots)
    std::vector<Real> giving_way;     // (kBlockAgents, slots) interest, when agents of the block give way
    std::vector<Vec2> current;        // (kBlockAgents,) velocities, for hysteresis
    std::vector<Decision> decisions;  // (kBlockAgents,)
    std::vector<Real> resolve_work;   // (slots,) what hysteresis works in past 256 slots (resolve_row)
    // The maps of the block's behaviours, per kind (reserved for all of them).
    std::vector<const Real*> interest_maps, danger_maps;
    // Their behaviours' weights, as they are at this evaluation.
    std::vector<Real> interest_weights, danger_weights;
  };
  Scratch make_scratch() const;

  // Largest neighbor radius of the behaviours, metres (0 when none looks at agents), as
  // their parameters are now.
  Real neighbor_radius() const;
  // Values per agent its behaviours keep between a world's steps, all together: the
  // world's scene.memory_width must be at least this for them to keep anything.
  int memory_width() const { return memory_width_; }

  // Evaluates the agents `agents[0..count)` of the scene. `interest` and `danger` are
  // the world's (scene.agents, slots) maps: on entry the previous step's (read only when
  // `has_previous` and smoothing is on), on return this step's for those agents. `out`
  // receives their final maps and decisions, at their own rows. Maps whose data (or
  // out.final_map) is null are not written; smoothing then starts afresh.
  void evaluate(const SceneView& scene, const int* agents, int count, MapBatch interest, MapBatch danger,
                DecisionBatch out, bool has_previous, Scratch& scratch) const;

  // Calls every behaviour's publish() and then its prepare(); evaluate() does it itself,
  // a caller of evaluate_block() must do it first, on one thread.
  void prepare(const SceneView& scene, const int* agents, int count) const;
  // Calls every behaviour's publish(), on one thread.
  void publish(const SceneView& scene, const int* agents, int count) const;

  // Why agent `agent` decides as it does: each behaviour's maps, the merged maps and the
  // decision, evaluated from the scene as it is now. `previous_interest` and
  // `previous_danger` are the agent's maps of the last step (for smoothing) or null.
  // `after_prepare`, when given, runs between the behaviours' prepare() and the
  // evaluation (a world checks there the state foreign code may have written).
  struct Explanation {
    std::vector<std::vector<Real>> behavior_maps;   // one (slots,) map per map a behaviour fills
    std::vector<int> behavior_index;                // which behaviour filled each map
    std::vector<bool> is_danger;                    // whether each map is danger
    std::vector<Real> interest, danger, final_map;  // (slots,) merged maps and the final map
    Decision decision;
  };
  Explanation explain(const SceneView& scene, int agent, const Real* previous_interest, const Real* previous_danger,
                      const std::function<void()>& after_prepare = {}) const;

  // The same for at most kBlockAgents agents; evaluate() is a loop over such blocks, and
  // a caller may hand blocks to several threads, each with its own scratch.
  void evaluate_block(const SceneView& scene, const int* agents, int count, MapBatch interest, MapBatch danger,
                      DecisionBatch out, bool has_previous, Scratch& scratch) const;

 private:
  // Combines, blurs and smooths one kind of map (0 interest, 1 danger) for a block;
  // writes it to the agents' rows of `target` and returns it as (count, slots) rows.
  const Real* merge_kind(int kind, const std::vector<const Real*>& maps, const std::vector<Real>& weights,
                         CombineRule rule, const CircularBlur& blur, const int* agents, int count, bool has_previous,
                         MapBatch target, Scratch& scratch) const;
  // The interest rows the block decides on: `interest_rows`, or, when agents of the block
  // give way (SceneView::states), a copy in which each of their rows is the cosine lobe
  // max(0, dot(d_i, give_way)) alone: the agent steps that way as far as its danger lets it.
  const Real* interest_of_giving_way(const SceneView& scene, const int* agents, int count, const Real* interest_rows,
                                     Scratch& scratch) const;
  // Whether hysteresis holds an agent moving at velocity v, with the interest row `row`,
  // to that way: v is within 90 degrees of the row's peak, or at a peak itself (the slot
  // nearest v holds the row's top value), or the row has no interest.
  bool leads_on(const Real* row, Vec2 v) const;
  // Applies turn_back to the block's decisions (PipelineConfig::turn_back).
  void hold_back(const SceneView& scene, const int* agents, int count, Decision* decisions) const;
  // Throws std::invalid_argument when `config` takes the mean of weights summing to 0.
  void check_weights(const PipelineConfig& config) const;
  // The scene as behaviour `index` sees it: its own part of the kept values.
  SceneView view_for(const SceneView& scene, std::size_t index) const;

  PipelineConfig config_;
  SlotDirections directions_;
  CircularBlur blur_interest_;
  CircularBlur blur_danger_;
  std::vector<std::shared_ptr<const Behavior>> behaviors_;
  int interest_count_ = 0;  // behaviours that fill interest
  int danger_count_ = 0;
  ParameterGuard guard_;
  std::vector<int> memory_offset_;  // per behaviour, its first kept value in an agent's row
  int memory_width_ = 0;
};

// Holds the pipelines of a range of items (a world's steerings) for reading for its
// lifetime: `pipeline_of(item)` gives an item's pipeline, or null.
template <class Range, class PipelineOf>
class PipelinesRead {
 public:
  PipelinesRead(const Range& items, PipelineOf pipeline_of) : items_(items), pipeline_of_(pipeline_of) {
    for (const auto& item : items_) {
      if (const Pipeline* p = pipeline_of_(item)) p->begin_reading();
    }
  }
  ~PipelinesRead() {
    for (const auto& item : items_) {
      if (const Pipeline* p = pipeline_of_(item)) p->end_reading();
    }
  }
  PipelinesRead(const PipelinesRead&) = delete;
  PipelinesRead& operator=(const PipelinesRead&) = delete;

 private:
  const Range& items_;
  PipelineOf pipeline_of_;
};

}  // namespace contextsteer
