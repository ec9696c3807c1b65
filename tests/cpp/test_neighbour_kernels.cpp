// The kernels over neighbouring agents (Avoid's danger, the measured overlap): the AVX2,
// 4-lane and scalar paths give the same bits, and equal a brute-force sweep over every pair.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/behaviors/agent_danger.hpp"
#include "contextsteer/behaviors/arc_coverage.hpp"
#include "contextsteer/overlap.hpp"
#include "contextsteer/simd.hpp"

using namespace contextsteer;

namespace {

struct Crowd {
  std::vector<Real> positions, radius;
  std::vector<LayerMask> layer, senses;
  SpatialGrid grid;
  SceneView scene;
};

// n agents over a side x side square, some on top of each other, on random layers.
Crowd make_crowd(int n, Real side, Real cell, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> where(0, side), size(Real(0.1), Real(0.9));
  Crowd c;
  for (int a = 0; a < n; ++a) {
    const bool stacked = a > 0 && a % 17 == 0;  // exactly on the previous agent
    c.positions.push_back(stacked ? c.positions[2 * (a - 1)] : where(rng));
    c.positions.push_back(stacked ? c.positions[2 * (a - 1) + 1] : where(rng));
    c.radius.push_back(size(rng));
    c.layer.push_back(LayerMask(1) << (rng() % 3));
    c.senses.push_back(a % 5 == 0 ? LayerMask(2) : kAllLayers);
  }
  c.grid.build(c.positions.data(), n, cell, c.radius.data(), c.layer.data());
  c.scene.agents = n;
  c.scene.positions = c.positions.data();
  c.scene.radius = c.radius.data();
  c.scene.layer = c.layer.data();
  c.scene.sense_mask = c.senses.data();
  c.scene.max_radius = *std::max_element(c.radius.begin(), c.radius.end());
  c.scene.grid = &c.grid;
  return c;
}

std::vector<int> all_agents(const Crowd& c) {
  std::vector<int> agents(c.scene.agents);
  for (int a = 0; a < c.scene.agents; ++a) agents[a] = a;
  return agents;
}

std::vector<Real> overlap_with_width(const Crowd& c, int width) {
  const int previous = simd_width_limit.exchange(width);
  const std::vector<int> agents = all_agents(c);
  std::vector<Real> overlap(c.scene.agents, -1);
  measure_overlap(c.scene, agents.data(), c.scene.agents, overlap.data());
  simd_width_limit.store(previous);
  return overlap;
}

std::vector<Real> danger_with_width(const Crowd& c, int width, Real max_distance, Falloff falloff,
                                    const SlotDirections& dirs) {
  const int previous = simd_width_limit.exchange(width);
  const std::vector<int> agents = all_agents(c);
  std::vector<Real> danger(static_cast<std::size_t>(c.scene.agents) * dirs.slots(), 0);
  // In blocks, as the pipeline calls it.
  for (int first = 0; first < c.scene.agents; first += 128) {
    const int count = std::min(128, c.scene.agents - first);
    add_agent_danger(c.scene, agents.data() + first, count, max_distance, falloff, dirs,
                     danger.data() + static_cast<std::size_t>(first) * dirs.slots());
  }
  simd_width_limit.store(previous);
  return danger;
}

}  // namespace

TEST(AgentDanger, EveryPathGivesTheSameBits) {
  for (int slots : {16, 32}) {
    const SlotDirections dirs(slots, Real(0.1));
    for (Falloff falloff :
         {Falloff::Step, Falloff::Linear, Falloff::Smoothstep, Falloff::InverseSquare, Falloff::Exponential}) {
      const Crowd c = make_crowd(400, 40, 3, 7u + static_cast<unsigned>(slots));
      const std::vector<Real> widest = danger_with_width(c, 8, 4, falloff, dirs);
      const std::vector<Real> four = danger_with_width(c, 4, 4, falloff, dirs);
      const std::vector<Real> scalar = danger_with_width(c, 1, 4, falloff, dirs);
      ASSERT_EQ(0, std::memcmp(widest.data(), scalar.data(), widest.size() * sizeof(Real))) << slots;
      ASSERT_EQ(0, std::memcmp(four.data(), scalar.data(), four.size() * sizeof(Real))) << slots;
      // Not trivially equal: a crowd this dense puts danger on most agents.
      const auto touched = std::count_if(scalar.begin(), scalar.end(), [](Real v) { return v > 0; });
      EXPECT_GT(touched, static_cast<long>(scalar.size() / 4));
    }
  }
}

TEST(AgentDanger, EqualsABruteForceSweepOverEveryPair) {
  const SlotDirections dirs(16);
  const Real max_distance = 3;
  const Crowd c = make_crowd(300, 30, 2, 3u);
  const std::vector<Real> fast = danger_with_width(c, 8, max_distance, Falloff::Linear, dirs);
  for (int a = 0; a < c.scene.agents; ++a) {
    std::vector<Real> row(16, 0);
    for (int b = 0; b < c.scene.agents; ++b) {
      if (b == a || !(c.layer[b] & c.senses[a])) continue;
      const Vec2 to = c.scene.position(b) - c.scene.position(a);
      const Real disc = c.radius[b] + c.radius[a];
      const Real clearance = std::max(Real(0), length(to) - disc);
      if (clearance > max_distance) continue;
      add_disc_danger(dirs, to, disc, falloff_value(Falloff::Linear, clearance, max_distance), row.data());
    }
    for (int i = 0; i < 16; ++i) ASSERT_EQ(row[i], fast[static_cast<std::size_t>(a) * 16 + i]) << a << " " << i;
  }
}

TEST(Overlap, EveryPathGivesTheSameBitsAndEqualsBruteForce) {
  const Crowd c = make_crowd(500, 25, 2, 11u);  // dense: many agents touch
  const std::vector<Real> widest = overlap_with_width(c, 8);
  const std::vector<Real> four = overlap_with_width(c, 4);
  const std::vector<Real> scalar = overlap_with_width(c, 1);
  ASSERT_EQ(0, std::memcmp(widest.data(), scalar.data(), widest.size() * sizeof(Real)));
  ASSERT_EQ(0, std::memcmp(four.data(), scalar.data(), four.size() * sizeof(Real)));
  int touching = 0;
  for (int a = 0; a < c.scene.agents; ++a) {
    Real deepest = 0;
    for (int b = 0; b < c.scene.agents; ++b) {
      if (b == a || !(c.layer[b] & c.senses[a])) continue;
      const Real d2 = length_squared(c.scene.position(b) - c.scene.position(a));
      const Real reach = c.radius[a] + c.scene.max_radius;
      if (d2 <= reach * reach) deepest = std::max(deepest, c.radius[a] + c.radius[b] - std::sqrt(d2));
    }
    ASSERT_EQ(deepest, widest[a]) << a;
    touching += deepest > 0;
  }
  EXPECT_GT(touching, 50);
}
