// The interface every context behaviour implements.
//
// A behaviour fills the interest and/or danger rows of a list of agents in one call,
// from a read-only view of the scene; it knows nothing of the other behaviours. The
// pipeline calls it once per block of agents, so the virtual call is per block, never
// per agent.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include "contextsteer/base/parameter_checks.hpp"
#include "contextsteer/base/real.hpp"
#include "contextsteer/behaviors/support/parameters.hpp"
#include "contextsteer/maps/slots.hpp"
#include "contextsteer/scene/scene.hpp"

namespace contextsteer {

class Behavior {
 public:
  explicit Behavior(Real weight) : weight_(weight) { require_bounded(weight, "weight"); }
  virtual ~Behavior() = default;

  // The factor the pipeline's combine rule applies to this behaviour's maps.
  Real weight() const { return weight_; }
  // Held for reading by every world stepping with this behaviour (Pipeline::begin_reading);
  // a change of its parameters meanwhile throws the busy error.
  const ParameterGuard& guard() const { return guard_; }
  virtual bool fills_interest() const = 0;
  virtual bool fills_danger() const = 0;
  // How far (metres) this behaviour looks for other agents; 0 when it does not. The
  // world sizes its neighbor grid from it.
  virtual Real neighbor_radius() const { return 0; }
  // How many values per agent this behaviour keeps from one step of a world to the next
  // (FollowPath: how far along its path the agent is); 0 when it keeps none. fill()
  // finds them in scene.memory, NaN until first written.
  virtual int memory_width() const { return 0; }
  // The farthest (metres) an agent may travel in one step for this behaviour to keep its
  // place from step to step (FollowPath and RacingLanes seek it within a window ahead);
  // infinite for the rest. The world checks it against max_speed * dt at every step.
  virtual Real window() const { return kInfinity; }

  // Called before prepare(), on one thread, with the pipeline's agents; a world calls it
  // for every pipeline's agents also when it explains one agent. The place for what a
  // behaviour tells other behaviours about each agent, in scene.cache (FollowField's way
  // left, scene/way_left.hpp). Default: nothing.
  virtual void publish(const SceneView& scene, const int* agents, int count) const {
    (void)scene, (void)agents, (void)count;
  }

  // Called once per evaluation, on one thread, before any fill(), with every agent the
  // pipeline evaluates: the place for work that cannot run in parallel blocks (a
  // behaviour written in Python computes all its rows here) or that serves all agents
  // at once (Avoid's pairs). What fill() needs from it goes in scene.cache, never in the
  // behaviour: worlds may share a behaviour and step at the same time. Default: nothing.
  virtual void prepare(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs) const {
    (void)scene, (void)agents, (void)count, (void)dirs;
  }

  // Fills one row per agent of `agents[0..count)`. `interest` and `danger` each hold
  // `count` rows of dirs.slots() zeros on entry, or are null when this behaviour does
  // not fill that kind. Must not allocate: it runs inside every step.
  virtual void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
                    Real* danger) const = 0;

  // For a behaviour that fills one kind of map: its rows for `agents[0..count)`, when
  // they already stand in memory one after another, (count, dirs.slots()), exactly as
  // fill() would write them (Avoid's pairs, in the grid's order). The pipeline then reads
  // them there instead of calling fill(), which would only copy them. They must stay
  // unchanged until the evaluation ends. Default: null, fill() is called.
  virtual const Real* ready_rows(const SceneView& scene, const int* agents, int count,
                                 const SlotDirections& dirs) const {
    (void)scene, (void)agents, (void)count, (void)dirs;
    return nullptr;
  }

 protected:
  // Called under guard_ only, by a change of parameters.
  void set_weight(Real weight) { weight_ = weight; }
  ParameterGuard guard_;

 private:
  Real weight_;
};

// A behaviour that fills interest alone (Chase, Arrive, FollowPath, ...): the pipeline
// hands it a null danger row.
class InterestBehavior : public Behavior {
 public:
  using Behavior::Behavior;
  bool fills_interest() const final { return true; }
  bool fills_danger() const final { return false; }
};

// A behaviour that fills danger alone (Avoid, Rays, TimeToCollision): the pipeline hands it
// a null interest row.
class DangerBehavior : public Behavior {
 public:
  using Behavior::Behavior;
  bool fills_interest() const final { return false; }
  bool fills_danger() const final { return true; }
};

// A behaviour of kind Kind (InterestBehavior or DangerBehavior) whose parameters are the
// struct P: defaults and units in P, its fields listed in P::fields() (parameters.hpp),
// a `weight` among them.
template <class P, class Kind>
class BehaviorWith : public Kind {
 public:
  using Params = P;
  explicit BehaviorWith(const P& params) : Kind(checked(params).weight), params_(params) {}

  const P& params() const { return params_; }
  // Checks `params` as the constructor does (std::invalid_argument naming the field);
  // they take effect at the next step of every world using this behaviour. Throws the
  // busy std::runtime_error, naming `what`, while one steps.
  void set_params(const P& params, const char* what = "parameters") {
    set_params(params, what, [] {});
  }

 protected:
  // As above, running `also` (which must not throw) under the guard too: for a behaviour
  // whose state is made from its parameters (FollowPath's path, made with its loop).
  template <class Also>
  void set_params(const P& params, const char* what, Also&& also) {
    checked(params);
    this->guard_.write(what, [&] {
      params_ = params;
      this->set_weight(params.weight);
      also();
    });
  }

  P params_;

 private:
  static const P& checked(const P& params) {
    check_fields(params);
    return params;
  }
};

}  // namespace contextsteer
