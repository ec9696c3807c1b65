// Avoid: danger toward circles, points, walls, polygons, world bounds and other agents.
//
// Circles and agents: arc coverage (arc_coverage.hpp) of the disc inflated by the agent's
// radius, with danger falloff(clearance / max_distance), clearance = max(0, d - r - a).
// Walls (segments, polygon edges, bounds sides). A wall inflated by the agent's radius
// is a capsule; slot i gets falloff(t_i / max_distance) where t_i is the least distance
// from the agent to the capsule within slot i's arc (exact: the closest point when its
// bearing lies in the arc, else the nearer hit of the arc's two edge rays). So a wall
// alongside the agent puts no danger on the slots running parallel to it. wall_arc < 1
// measures walls over that share of each arc, round the slot's direction: with coarse
// maps in a narrow corridor, where the whole arc of every slot reaches its walls, the
// slots nearest the corridor's way stay open (a contact stage keeps bodies out of the
// walls the arcs no longer see).
// Anything with clearance beyond max_distance is ignored; danger combines by max.
// Scene obstacles and agents are sensed only on the layers of the agent's sense mask.
// Each thread that avoids the scene's obstacles keeps 4 bytes per circle, wall and polygon
// edge, to take each once per agent (obstacle_marks.hpp).
// keep_right turns other agents' bearings (agent_danger.hpp), so that agents meeting
// head-on pass each other instead of mirroring each other's sidestep.
//
// Agents, in a world where most agents use this Avoid: prepare() computes every agent's
// danger from agents at once, by pairs (agent_danger.hpp: agent_pair_danger), into the
// world's EvaluationCache, and fill() takes each agent's row from there; where nothing
// else adds danger and a block's agents are consecutive in the grid's order, ready_rows()
// lends the pipeline the block's rows where they stand instead. Elsewhere (a few agents,
// or no cache) fill() queries each agent's neighbors itself. All give the same numbers
// to the bit.
#pragma once

#include <vector>

#include "contextsteer/behaviors/behavior.hpp"
#include "contextsteer/behaviors/support/agent_danger.hpp"
#include "contextsteer/behaviors/support/falloff.hpp"
#include "contextsteer/scene/obstacles.hpp"

namespace contextsteer {

// pi/4: the turn stays a bias toward one side; further, a neighbor's danger would lie
// nearer beside it than on it.
constexpr Real kMaxKeepRight = Real(0.7853981633974483);

struct AvoidParams {
  Real max_distance = 5;  // metres of clearance beyond which an obstacle is ignored
  Falloff falloff = Falloff::Linear;
  bool world_obstacles = true;  // avoid the scene's obstacles too
  bool agents = false;          // avoid the other agents it senses
  Real weight = 1;
  // Radians, within +-kMaxKeepRight: other agents' bearings are turned by this angle
  // (counter-clockwise) before their coverage is found, so that agents meeting head-on
  // both step to their right (to their left when negative). Obstacles are not turned.
  Real keep_right = 0;
  Real wall_arc = 1;  // share of each slot's arc over which walls are measured, in (0, 1]

  static constexpr auto fields() {
    return std::make_tuple(
        field("max_distance", &AvoidParams::max_distance, "m", "clearance beyond which an obstacle is ignored",
              above(0)),
        field("falloff", &AvoidParams::falloff, "", "how danger fades with clearance / max_distance"),
        field("world_obstacles", &AvoidParams::world_obstacles, "", "also avoid the scene's obstacles"),
        field("agents", &AvoidParams::agents, "", "also avoid the other agents it senses"),
        field("keep_right", &AvoidParams::keep_right, "rad",
              "other agents' bearings turned counter-clockwise by it, within +-pi/4",
              from_to(-kMaxKeepRight, kMaxKeepRight)),
        field("wall_arc", &AvoidParams::wall_arc, "", "share of each slot's arc over which walls are measured",
              Accepts{0, true, 1, false}),
        weight_field<AvoidParams>());
  }
};

class Avoid : public BehaviorWith<AvoidParams, DangerBehavior> {
 public:
  // Throws std::invalid_argument for a max_distance that is not > 0, a keep_right beyond
  // +-kMaxKeepRight, or a circle beyond the core's bound or of negative radius (as
  // Obstacles::add_circles does).
  Avoid(const std::vector<Circle>& circles, const AvoidParams& params);

  Real neighbor_radius() const override { return params_.agents ? params_.max_distance : 0; }
  void prepare(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs) const override;
  void fill(const SceneView& scene, const int* agents, int count, const SlotDirections& dirs, Real* interest,
            Real* danger) const override;
  const Real* ready_rows(const SceneView& scene, const int* agents, int count,
                         const SlotDirections& dirs) const override;

  const std::vector<Circle>& circles() const { return own_.circles(); }

 private:
  void add_circle(Vec2 p, Real agent_radius, Vec2 centre, Real radius, const SlotDirections& dirs, Real* row) const;
  // edge_hits: room for one value per slot (two with wall_arc < 1), overwritten; rays:
  // with wall_arc < 1, the (2 * slots) x and then y of each slot's two arc edges, first
  // the clockwise ones.
  void add_wall(Vec2 p, Real agent_radius, const Segment& wall, const SlotDirections& dirs, const Real* rays, Real* row,
                Real* edge_hits) const;
  NeighborDanger neighbor_danger() const;
  // The scene's obstacles this Avoid adds danger for: null when it adds none.
  const Obstacles* sensed_obstacles(const SceneView& scene) const;
  // Marks in the cache the agents that may meet a moving obstacle, whose rows ready_rows
  // does not lend (fill adds the bodies' danger to them).
  void mark_near_moving(const SceneView& scene) const;

  // Its own circles, indexed once here (they never change): among many of them, each
  // agent looks only at those near it, as for the world's obstacles.
  Obstacles own_;
};

}  // namespace contextsteer
