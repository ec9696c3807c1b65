// A world of agents: their state as flat arrays, static obstacles, a neighbor grid, and
// a step made of named stages (check, index, evaluate, integrate, contact, measure, progress), each in its
// own file (stage_*.cpp), handing its results to the next through the world's stage
// products (stage_products.hpp). Copy and restore (copy_and_restore.cpp), recording
// (recording.cpp) and the checks (validation.cpp) have files of their own too.
//
// Agents are steered by one of the world's steerings: a context Pipeline or a classic
// steering, so both approaches run side by side on one scene. All context pipelines of
// a world share one slot count, the world's resolution; replacing the pipelines with
// ones of another resolution resamples the maps (interest linearly, danger by max).
//
// Agents have ids that are never reused; an id of a removed agent is refused instead of
// reaching whichever agent now sits at its index.
//
// A world serves one thread at a time. While step() or run() works, a call from another
// thread that changes the world or rebuilds its grid throws std::runtime_error (the
// Python bindings let other threads run during a step); reading the state is allowed,
// and sees it part-way through the step.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "contextsteer/pipeline/pipeline.hpp"
#include "contextsteer/runtime/busy_flag.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/evaluation_cache.hpp"
#include "contextsteer/scene/moving_obstacles.hpp"
#include "contextsteer/scene/obstacles.hpp"
#include "contextsteer/scene/spatial_grid.hpp"
#include "contextsteer/scene/worker_scratch.hpp"
#include "contextsteer/steering/steering.hpp"
#include "contextsteer/world/agent_store.hpp"
#include "contextsteer/world/goals.hpp"
#include "contextsteer/world/stage_products.hpp"

namespace contextsteer {

// One steering of a world: exactly one of the two is set.
struct Steering {
  std::shared_ptr<const Pipeline> pipeline;
  std::shared_ptr<const ClassicSteering> classic;
  // Whether its behaviours run code from outside the library while the world steps (a
  // behaviour written in Python), which may write the state through the views: the
  // evaluate stage then checks the state again once their prepare() returned.
  bool runs_foreign_code = false;
};

// Wall time of the stages of the last step, seconds.
struct StageTimes {
  double check = 0;      // validating the state the user may have written
  double index = 0;      // target ids, neighbor grid, evaluation order
  double evaluate = 0;   // context maps and decisions, classic steering
  double integrate = 0;  // motion
  double contact = 0;    // position correction (0 while contact is off)
  double measure = 0;    // penetration and overlap
  double progress = 0;   // states, arrivals, face-offs, departures
};

class World {
 public:
  explicit World(Steering steering);

  // Steerings, by index; the world starts with one (index 0).
  int add_steering(Steering steering);
  void set_steering(int index, Steering steering);
  int steering_count() const { return static_cast<int>(controllers_.size()); }
  const Steering& steering(int index) const;
  // The slot count of the world's maps (0 while no context pipeline is in use).
  int slots() const { return slots_; }

  // Appends `count` agents steered by steering `steering`; returns the id of the first,
  // the others following in order. Throws std::invalid_argument for values the state
  // must not hold (NaN, beyond +-kMaxMagnitude, negative radius or limits, a mass
  // outside kMinMass to kMaxMagnitude; limits may be +inf), std::out_of_range for an
  // unknown steering or target id.
  std::int64_t add_agents(int count, const AgentSpawn& spawn, int steering = 0);
  // Removes agents by id; throws std::out_of_range, removing nothing, if an id is unknown.
  void remove_agents(const std::int64_t* ids, int count);
  // The current index of an agent; throws std::out_of_range for an unknown or removed id.
  int index_of(std::int64_t id) const;
  // Puts every agent back to the state it was added with; time, steps and maps restart.
  void reset();
  // A new world in this one's state, to branch a run from: its own copy of every agent's
  // state, parameters, spawn state, maps, decisions and kept values, of the obstacles,
  // ids, time and step count, and the same thread count; the steerings are shared, as
  // they never change. Stepped alike, both give the same results to the bit.
  std::unique_ptr<World> copy();

  // What copy() copies besides the steerings, the obstacles and the thread count, as plain
  // values: to save a world and load it again into one made with the same steerings.
  struct State {
    int agents = 0;
    std::vector<std::vector<unsigned char>> columns;  // each AgentStore column's bytes, in visit() order
    std::vector<int> index_of_id;                     // id -> row, -1 once removed
    std::int64_t next_id = 0;
    long long steps = 0;
    double time = 0;
    bool keep_maps = true;
  };
  // Takes the busy flag, as copy() does: throws std::runtime_error (naming `call`, say
  // "pickle") while another thread steps the world, rather than saving a torn state.
  State state(const char* call = "state");
  // Takes `saved` (from state()) as this world's agents, ids, time and steps; this world
  // must have the steerings the saved one had (its obstacles and threads are its own).
  // Throws std::invalid_argument, changing nothing, for what no such world's state() gives:
  // columns whose sizes disagree with the agent count and this world's slot and memory
  // widths, ids that disagree with index_of_id, a steering index out of range, a time
  // that is negative or not finite, a negative step count, kept values (memory) neither NaN
  // nor within the bound. Agent values a step would refuse are taken as they are: the
  // saved world held them too (an agent that travelled past the bound), and both refuse
  // them at their next step.
  void restore(State saved);
  // A copy of what the behaviour `owner` keeps in this world from step to step
  // (EvaluationCache::kept), or null when it keeps nothing. Takes the busy flag.
  std::unique_ptr<KeptState> kept_copy(const void* owner);

  Obstacles& obstacles() {
    busy_.check_idle("obstacles");
    return obstacles_;
  }
  const Obstacles& obstacles() const { return obstacles_; }
  // The moving obstacles, advanced by the obstacles stage at the start of each step.
  MovingObstacles& moving() {
    busy_.check_idle("moving obstacles");
    return moving_;
  }
  const MovingObstacles& moving() const { return moving_; }

  // The most agents a step takes in one cell of its neighbour grid (see SpatialGrid).
  static constexpr int kMaxAgentsInOneCell = SpatialGrid::kMaxAgentsInOneCell;

  // Worker threads for a step, from 1 to kMaxThreads; results are the same for any count.
  static constexpr int kMaxThreads = 1024;
  void set_threads(int threads);
  int threads() const { return pool_ ? pool_->size() : 1; }

  // Whether a step writes each agent's interest, danger and final maps into agents()
  // (on by default). Off, a step skips that memory traffic (three rows of `slots` floats
  // per agent), keeping only the maps a smoothing pipeline reads at the next step; the
  // decisions are the same to the bit. run() then refuses to record maps.
  void set_keep_maps(bool keep) {
    const BusyFlag::Hold hold(busy_, "keep_maps");
    keep_maps_ = keep;
  }
  bool keep_maps() const { return keep_maps_; }

  // How the world follows each agent's way to its goal (goals.hpp). Throws
  // std::invalid_argument naming the field for a value it does not take; takes effect at
  // the next step.
  void set_goals(const GoalParams& params);
  const GoalParams& goals() const { return goals_; }
  // What happened in the last step, in order: the contact stage's contacts, then the
  // progress stage's arrivals, departures and giving way; then the agents remove_agents
  // removed since (kind removed, stamped with the step count and time they were removed at).
  const std::vector<StepEvent>& events() const { return events_; }

  // The contact stage (contact.hpp): on with these settings, or off for null (the default).
  // Throws std::invalid_argument naming the field for a value it does not take.
  void set_contact(const ContactParams* params);
  const ContactParams* contact() const { return contact_on_ ? &contact_ : nullptr; }
  // How far the last step's contact stage moved the agents (zeros while contact is off).
  const ContactReport& contact_report() const { return contacted_.report; }

  // Advances dt seconds (kMinTimeStep to kMaxMagnitude) in `substeps` equal integration
  // steps (>= 1, none shorter than kMinTimeStep): the decisions are made once, the motion
  // is integrated substeps times. Throws std::invalid_argument, before changing anything,
  // for such a dt or substeps, when the state holds a value add_agents would refuse
  // (the Python views of the state are writable; an agent may also have travelled past
  // the bound), or when more than kMaxAgentsInOneCell agents lie in one cell of the
  // neighbour grid (a pile: every neighbour query there reads them all, so the step
  // would take time in the square of their number).
  //
  // State written while the step runs (by a steering that runs foreign code, or by
  // another thread through the views) is checked before the stages that read it:
  // - after the behaviours' prepare() when a steering runs foreign code, as at the check
  //   stage (std::invalid_argument or std::out_of_range). Nothing has moved then: the
  //   world is as before the step, but for the values written during it; steps_taken
  //   and time are unchanged.
  // - after the motion, the moved state (positions, velocities, heading, angular
  //   velocity) must be finite and within kMaxMovedMagnitude, which every step of a
  //   checked state keeps (std::invalid_argument). The step then counts as taken (the
  //   agents moved; steps_taken and time advanced) but the measure stage has not run:
  //   penetration and overlap hold the previous step's values.
  // The messages name the column and the agent. The next step refuses the bad value
  // again until it is written over.
  void step(Real dt, int substeps = 1);
  // step() `steps` times, copying each step's results into `record` and appending each
  // step's events to `events` (when not null). The recorded rows are those of the agents
  // record.row_ids names (record.rows of them; all current agents, in row order, when null):
  // a row whose agent has left the world (ArrivalMode::leave) is NaN in a real column, -1
  // in an integer one and false in a flag.
  void run(int steps, Real dt, int substeps, const RecordTargets& record, std::vector<StepEvent>* events = nullptr);

  // Why the agent at row `index` decides as it does, evaluated from the current state
  // (see Pipeline::explain). Throws std::invalid_argument for a classically steered agent,
  // and as step() does for a state it would refuse: before the behaviours' prepare() and,
  // when a steering runs foreign code, after it (a Python behaviour may write the views).
  Pipeline::Explanation explain(int index);
  // The same for a classically steered agent, whose steering is computed as a step of dt
  // (seconds, as step() takes it) would compute it: every goal time is at least dt.
  // Throws std::invalid_argument for a context-steered agent.
  ClassicSteering::Explanation explain_classic(int index, Real dt);

  // Appends the indices of the agents within `radius` of p that are on a layer of
  // `mask`, except `exclude`, in a fixed order. Rebuilds the grid from the current
  // positions; throws as step() does for a state it would refuse.
  void neighbors(Vec2 p, Real radius, LayerMask mask, int exclude, std::vector<int>& out);

  const AgentStore& agents() const { return store_; }
  AgentStore& agents() { return store_; }
  int agent_count() const { return store_.size; }
  long long steps_taken() const { return steps_; }
  // A bound on the moved state no step of a checked state reaches (positions within
  // kMaxMagnitude moving at up to about 1.42 * kMaxMagnitude m/s for up to kMaxMagnitude
  // seconds), far within float's range: the measure stage's grid spans stay finite.
  static constexpr Real kMaxMovedMagnitude = 1e20f;
  const StageTimes& stage_times() const { return stage_times_; }
  // How many agents the last step's measure stage queried for their overlap: every one,
  // or only those Avoid's pass by pairs found close to another (close_agents.hpp).
  int overlap_queries() const;
  double time() const { return time_; }

 private:
  struct Controller {
    Steering steering;
    std::vector<int> members;  // agent indices, in grid order during a step
  };
  // A unit of parallel work: up to Pipeline::kBlockAgents members of one controller.
  struct Task {
    int controller;
    int first;  // offset into that controller's members
    int count;
  };

  void check_steering(const Steering& s, int replacing) const;
  // Why `id` names no agent in the world ("" when it does). ids_end: one past the last id
  // that may be named (next_id_, or past the batch being added).
  std::string unknown_id(std::int64_t id, std::int64_t ids_end) const;
  std::string unknown_id(std::int64_t id) const { return unknown_id(id, next_id_); }
  // Throws std::out_of_range, naming target_ids and `agent`, unless `target` is -1 or the
  // id of a current agent or of one in the batch being added, whose ids end at ids_end.
  void check_target_id(std::int64_t target, std::size_t agent, std::int64_t ids_end) const;
  void rebuild_membership();
  // Sizes the memory column for the widest pipeline; true when it changed (and so
  // holds NaN everywhere).
  bool fit_memory();
  void resize_scratch();
  // Sizes every worker's scratch (worker_scratch_) for the world as it is now: a worker
  // that first takes a kind of block late in a run finds its scratch ready. Allocates only
  // when the world asks for more than before.
  void fit_worker_scratch();
  void check_state() const;
  // Throws std::invalid_argument (naming dt) when an agent could travel farther in one
  // step of dt than the window of a behaviour steering it (Behavior::window).
  void check_travel(Real dt) const;
  // Throws for the first invalid value or unknown target id of agents [first, first + count).
  void check_agents(std::size_t first, std::size_t count) const;
  // Throws for the first of the values of `agents` agents (`width` each, of agents
  // first_agent, first_agent + 1, ...) that `what` refuses, naming the column `name`;
  // agent ids may name agents up to ids_end (past the batch being added).
  void check_column(const Real* values, std::size_t agents, int width, ValueCheck what, const char* name,
                    std::size_t first_agent, std::int64_t ids_end) const;
  void check_column(const std::int64_t* values, std::size_t agents, int width, ValueCheck what, const char* name,
                    std::size_t first_agent, std::int64_t ids_end) const;
  void check_column(const std::int32_t* values, std::size_t agents, int width, ValueCheck what, const char* name,
                    std::size_t first_agent, std::int64_t ids_end) const;
  template <class T>  // layer bits, flags: any value
  void check_column(const T*, std::size_t, int, ValueCheck, const char*, std::size_t, std::int64_t) const {}
  SceneView scene() const;
  // For explain and explain_classic: the steering of the agent at row `index` (checked),
  // with the targets and grid brought up to the current state.
  const Steering& steering_to_explain(int index);
  Real grid_row_height() const;
  void build_grid();
  // build_grid() unless the grid was built from the agents as they are now.
  void refresh_grid();
  void step_unguarded(Real dt, int substeps);
  // Throws as check_state() does, with `note` (" (written during ...)") added, when a
  // steering runs foreign code (Steering::runs_foreign_code): after its prepare() in a
  // step or an explanation.
  void check_state_written_during(const char* note) const;
  // Throws std::invalid_argument, naming the column and the agent, for a value of the
  // moved state that is not finite or lies beyond kMaxMovedMagnitude.
  void check_moved_state() const;
  // Counts a step of dt: the agents have moved.
  void count_step(Real dt) {
    ++steps_;
    time_ += dt;
  }

  // The stages of a step, in their order; each in its own file, stage_<name>.cpp.
  void check_stage(Real dt);                    // the state is one a step may take
  void obstacles_stage(Real dt);                // moves the moving obstacles to where they are at the step's end
  void measure_moving_penetration();            // of the measure stage: penetration into the moving obstacles
  void index_stage();                           // writes index_
  void check_pile() const;                      // of the index stage: no cell holds more than kMaxAgentsInOneCell
  void evaluate_stage(Real dt);                 // writes the decisions and maps, evaluated_
  void integrate_stage(Real dt, int substeps);  // writes the motion, integrated_
  void contact_start();                         // before integrate: contacted_.start
  void start_events();                          // after the motion: events_ emptied for the stages' events
  void contact_stage();                         // corrects positions, writes contacted_
  void measure_stage();                         // writes the measurements, measured_
  void progress_stage(Real dt);                 // writes states and arrivals, removes leavers, progressed_
  // Of the progress stage: the face-offs of the agents whose patience ran out, settled in
  // row order; and the freest of the ways aside (right, left, back of `way`) by the last
  // danger map of agent a.
  void settle_face_offs(const SceneView& view);
  struct WayAside {
    Vec2 way;     // unit direction
    Real danger;  // of the slot nearest it in the agent's last danger map (0 without maps)
  };
  WayAside freest_side(int a, Vec2 way) const;
  // The way agent a heads for its goal: the peak of its last interest map when the world
  // keeps maps and it has interest, else the straight line to its target.
  Vec2 way_to_goal(const SceneView& view, int a) const;
  // Removes the rows whose keep is false, keeping the others in order.
  void remove_rows(const std::vector<bool>& keep);

  AgentStore store_;
  std::vector<Controller> controllers_;
  std::vector<Task> tasks_;
  int slots_ = 0;
  Obstacles obstacles_;
  MovingObstacles moving_;
  SpatialGrid grid_;
  EvaluationCache cache_;  // behaviours' scene-wide results, for one evaluation
  std::unique_ptr<ThreadPool> pool_;
  // Scratch, sized when agents, steerings or threads change, reused by every step.
  std::vector<std::vector<Pipeline::Scratch>> pipeline_scratch_;  // [controller][worker]
  std::vector<WorkerScratch> worker_scratch_;                     // [worker], for the behaviours
  // What each stage hands to the later ones (stage_products.hpp).
  IndexProduct index_;
  EvaluateProduct evaluated_;
  IntegrateProduct integrated_;
  MeasureProduct measured_;
  ProgressProduct progressed_;
  ContactProduct contacted_;
  // events(): the step's events, appended by its stages in their order (contact, then
  // progress), then the removals since.
  std::vector<StepEvent> events_;
  GoalParams goals_;
  ContactParams contact_;
  bool contact_on_ = false;
  bool keep_maps_ = true;
  // id -> index, -1 once removed: 4 bytes for every id ever issued (World.remove_agents
  // in Python says so, with figures).
  std::vector<int> index_of_id_;
  std::int64_t next_id_ = 0;
  long long steps_ = 0;
  double time_ = 0;
  StageTimes stage_times_;
  BusyFlag busy_;  // held by every call that changes the world
};

}  // namespace contextsteer
