// The kernels over neighboring agents (Avoid's danger, the measured overlap): the AVX2,
// 4-lane and scalar paths give the same bits, and equal a brute-force sweep over every
// pair; danger by pairs gives every agent the bits of its own query, on any threads.
// The file is long because each kernel is checked at every width against its reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "contextsteer/behaviors/support/agent_danger.hpp"
#include "contextsteer/behaviors/support/arc_coverage.hpp"
#include "contextsteer/kernels/simd.hpp"
#include "contextsteer/runtime/thread_pool.hpp"
#include "contextsteer/scene/row_chunks.hpp"
#include "contextsteer/scene/worker_scratch.hpp"
#include "contextsteer/world/overlap.hpp"

using namespace contextsteer;

namespace {

struct Crowd {
  std::vector<Real> positions, radius;
  std::vector<LayerMask> layer, senses;
  SpatialGrid grid;
  SceneView scene;
};

// The grid and the scene over a crowd whose agents are filled in.
void finish(Crowd& c, Real row_height) {
  const int n = static_cast<int>(c.radius.size());
  c.grid.build(c.positions.data(), n, row_height, c.radius.data(), c.layer.data(), c.senses.data());
  c.scene.agents = n;
  c.scene.positions = c.positions.data();
  c.scene.radius = c.radius.data();
  c.scene.layer = c.layer.data();
  c.scene.sense_mask = c.senses.data();
  c.scene.max_radius = *std::max_element(c.radius.begin(), c.radius.end());
  c.scene.grid = &c.grid;
}

// n agents over a side x side square (side x height), some on top of each other, on
// random layers, some sensing only one layer.
Crowd make_crowd(int n, Real side, Real row_height, unsigned seed, Real height = 0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> where(0, side), up(0, height > 0 ? height : side), size(Real(0.1), Real(0.9));
  Crowd c;
  for (int a = 0; a < n; ++a) {
    const bool stacked = a > 0 && a % 17 == 0;  // exactly on the previous agent
    c.positions.push_back(stacked ? c.positions[2 * (a - 1)] : where(rng));
    c.positions.push_back(stacked ? c.positions[2 * (a - 1) + 1] : up(rng));
    c.radius.push_back(size(rng));
    c.layer.push_back(LayerMask(1) << (rng() % 3));
    c.senses.push_back(a % 5 == 0 ? LayerMask(2) : kAllLayers);
  }
  finish(c, row_height);
  return c;
}

// side x side agents of radius 0.3 m on a jittered lattice of 2 m: none touch.
Crowd make_lattice(int side, Real row_height, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> jitter(Real(-0.5), Real(0.5));
  Crowd c;
  for (int row = 0; row < side; ++row) {
    for (int column = 0; column < side; ++column) {
      c.positions.push_back(2 * column + jitter(rng));
      c.positions.push_back(2 * row + jitter(rng));
      c.radius.push_back(Real(0.3));
      c.layer.push_back(1);
      c.senses.push_back(kAllLayers);
    }
  }
  finish(c, row_height);
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
                                    const SlotDirections& dirs, Vec2 turn = {1, 0}, WorkerScratch* worker = nullptr) {
  const int previous = simd_width_limit.exchange(width);
  const std::vector<int> agents = all_agents(c);
  std::vector<Real> danger(static_cast<std::size_t>(c.scene.agents) * dirs.slots(), 0);
  SceneView scene = c.scene;  // in `worker`'s buffers, when given
  scene.workers = worker;
  scene.worker_count = worker ? 1 : 0;
  // In blocks, as the pipeline calls it.
  for (int first = 0; first < c.scene.agents; first += 128) {
    const int count = std::min(128, c.scene.agents - first);
    add_agent_danger(scene, agents.data() + first, count, {max_distance, falloff, turn}, dirs,
                     danger.data() + static_cast<std::size_t>(first) * dirs.slots());
  }
  simd_width_limit.store(previous);
  return danger;
}

// Danger by pairs, rows put back in agent order.
std::vector<Real> pair_danger_with(const Crowd& c, int width, int threads, Real max_distance, Falloff falloff,
                                   const SlotDirections& dirs, Vec2 turn = {1, 0},
                                   std::vector<WorkerScratch>* workers = nullptr) {
  const int previous = simd_width_limit.exchange(width);
  const std::size_t slots = static_cast<std::size_t>(dirs.slots());
  // Rows start as garbage: the pass must zero every row it writes.
  std::vector<Real> rows(c.scene.agents * slots, Real(-7)), danger(rows.size());
  ThreadPool pool(threads);
  SceneView scene = c.scene;  // in `workers`' buffers, one per thread, when given
  if (workers) {
    workers->resize(static_cast<std::size_t>(threads));
    scene.workers = workers->data();
    scene.worker_count = threads;
  }
  agent_pair_danger(scene, {max_distance, falloff, turn}, dirs, rows.data(), pool);
  for (int a = 0; a < c.scene.agents; ++a) {
    std::copy_n(rows.data() + c.grid.rank_of(a) * slots, slots, danger.data() + a * slots);
  }
  simd_width_limit.store(previous);
  return danger;
}

// Checks that the pass by pairs gives `want` (linear falloff), to the bit, at every width
// on 1 to 3 threads (16: AVX-512 sweeps where the CPU has it, else the 8 lanes again).
void expect_pairs_give(const Crowd& c, const std::vector<Real>& want, Real max_distance, const SlotDirections& dirs) {
  for (int width : {16, 8, 4}) {
    for (int threads : {1, 2, 3}) {
      const std::vector<Real> pairs = pair_danger_with(c, width, threads, max_distance, Falloff::Linear, dirs);
      ASSERT_EQ(0, std::memcmp(want.data(), pairs.data(), want.size() * sizeof(Real)))
          << "reach " << max_distance << ", width " << width << ", " << threads << " threads";
    }
  }
}

#if defined(CONTEXTSTEER_SIMD) && (defined(__x86_64__) || defined(__i386__))
// Whether this CPU has every one of `wanted` (flags as Linux lists them in /proc/cpuinfo):
// a check apart from the library's own (CPUID in simd.hpp). Elsewhere, `otherwise`.
bool cpu_lists(std::vector<std::string> wanted, bool otherwise) {
#ifdef __linux__
  (void)otherwise;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream flags(line);
    for (std::string flag; flags >> flag;) wanted.erase(std::remove(wanted.begin(), wanted.end(), flag), wanted.end());
    return wanted.empty();
  }
  return false;
#else
  (void)wanted;
  return otherwise;
#endif
}
bool cpu_lists_avx2() { return cpu_lists({"avx2", "popcnt"}, cpu_has_avx2()); }
bool cpu_lists_avx512() { return cpu_lists({"avx512f", "avx512vl", "avx512bw", "avx512dq"}, cpu_has_avx512()); }
#endif

}  // namespace

// Every x86 build, GCC or Clang, runs the 8-lane kernels on a CPU with AVX2 (Clang builds
// once kept 4 lanes everywhere); other vector builds run 4 lanes, and the limit lowers both.
// A build without vector kernels runs the scalar paths.
TEST(KernelWidth, IsEightOnACpuWithAvx2AndFourOnOthers) {
#ifndef CONTEXTSTEER_SIMD
  const int widest = 1;
#elif defined(__x86_64__) || defined(__i386__)
  const int widest = cpu_lists_avx2() ? 8 : 4;
#else
  const int widest = 4;
#endif
  EXPECT_EQ(kernel_width(), widest);
  const int previous = simd_width_limit.exchange(4);
  EXPECT_EQ(kernel_width(), std::min(widest, 4));
  simd_width_limit = 1;
  EXPECT_EQ(kernel_width(), 1);
  simd_width_limit = previous;
}

// The pass by pairs sweeps 16 slots per register where the CPU has AVX-512 (F, VL, BW,
// DQ), unless the limit is below 16.
TEST(KernelWidth, WideKernelsAreAllowedOnACpuWithAvx512UnlessLimited) {
#if defined(CONTEXTSTEER_SIMD) && (defined(__x86_64__) || defined(__i386__))
  EXPECT_EQ(wide_kernels_allowed(), cpu_lists_avx512());
#else
  EXPECT_FALSE(wide_kernels_allowed());
#endif
  const int previous = simd_width_limit.exchange(8);
  EXPECT_FALSE(wide_kernels_allowed());
  simd_width_limit = previous;
}

// The one dispatch place hands out a table whose every entry is set, of the lanes
// kernel_width() reports, and none (the scalar paths) below 4 lanes; the AVX-512 table
// differs from the AVX2 one in the pass by pairs alone.
TEST(KernelWidth, TheDispatchedTableMatchesTheWidthAndHasEveryKernel) {
  const int previous = simd_width_limit.load();
  for (const int limit : {16, 8, 4, 1}) {
    simd_width_limit = limit;
    const KernelTable* kernels = vector_kernels();
    if (kernel_width() == 1) {
      EXPECT_EQ(kernels, nullptr) << "limit " << limit;
      continue;
    }
    ASSERT_NE(kernels, nullptr) << "limit " << limit;
    EXPECT_EQ(kernels->lanes, kernel_width()) << "limit " << limit;
#define CONTEXTSTEER_EXPECT_KERNEL(result, name, parameters) EXPECT_NE(kernels->name, nullptr) << #name;
    CONTEXTSTEER_WIDE_KERNELS(CONTEXTSTEER_EXPECT_KERNEL)
#undef CONTEXTSTEER_EXPECT_KERNEL
  }
  simd_width_limit = 16;
  const KernelTable* widest = vector_kernels();
  simd_width_limit = 8;
  const KernelTable* up_to_8 = vector_kernels();
  if (widest && up_to_8) {
    EXPECT_EQ(widest->move_agents, up_to_8->move_agents);
    EXPECT_EQ(widest->pair_danger_chunk == up_to_8->pair_danger_chunk, !cpu_has_avx512());
  }
  simd_width_limit = previous;
}

// Bearings left as they are, and turned both ways (Avoid's keep_right).
const Vec2 kTurns[] = {
    {1, 0}, {std::cos(Real(0.3)), std::sin(Real(0.3))}, {std::cos(Real(-0.7)), std::sin(Real(-0.7))}};

TEST(AgentDanger, EveryPathGivesTheSameBits) {
  for (int slots : {2, 3, 8, 12, 16, 20, 24, 32}) {
    const SlotDirections dirs(slots, Real(0.1));
    for (Falloff falloff :
         {Falloff::Step, Falloff::Linear, Falloff::Smoothstep, Falloff::InverseSquare, Falloff::Exponential}) {
      const Crowd c = make_crowd(400, 40, 3, 7u + static_cast<unsigned>(slots));
      const Vec2 turn = kTurns[(slots + static_cast<int>(falloff)) % 3];
      const std::vector<Real> widest = danger_with_width(c, 8, 4, falloff, dirs, turn);
      const std::vector<Real> four = danger_with_width(c, 4, 4, falloff, dirs, turn);
      const std::vector<Real> scalar = danger_with_width(c, 1, 4, falloff, dirs, turn);
      ASSERT_EQ(0, std::memcmp(widest.data(), scalar.data(), widest.size() * sizeof(Real))) << slots;
      ASSERT_EQ(0, std::memcmp(four.data(), scalar.data(), four.size() * sizeof(Real))) << slots;
      // Not trivially equal: a crowd this dense puts danger on most agents.
      const auto touched = std::count_if(scalar.begin(), scalar.end(), [](Real v) { return v > 0; });
      EXPECT_GT(touched, static_cast<long>(scalar.size() / 4));
    }
  }
}

// Every pair, one at a time, through the scalar formula of arc_coverage.hpp.
std::vector<Real> brute_force_danger(const Crowd& c, Real max_distance, Falloff falloff, const SlotDirections& dirs,
                                     Vec2 turn = {1, 0}) {
  const int slots = dirs.slots();
  std::vector<Real> danger(static_cast<std::size_t>(c.scene.agents) * slots, 0);
  for (int a = 0; a < c.scene.agents; ++a) {
    for (int b = 0; b < c.scene.agents; ++b) {
      if (b == a || !(c.layer[b] & c.senses[a])) continue;
      const Vec2 to = c.scene.position(b) - c.scene.position(a);
      const Real disc = c.radius[b] + c.radius[a];
      const Real clearance = std::max(Real(0), length(to) - disc);
      if (clearance > max_distance) continue;
      add_disc_danger(dirs, to, disc, falloff_value(falloff, clearance, max_distance),
                      danger.data() + static_cast<std::size_t>(a) * slots, turn);
    }
  }
  return danger;
}

// overlap[a] of every agent, by brute force over every pair.
std::vector<Real> brute_force_overlap(const Crowd& c) {
  std::vector<Real> overlap(c.scene.agents, 0);
  for (int a = 0; a < c.scene.agents; ++a) {
    for (int b = 0; b < c.scene.agents; ++b) {
      if (b == a || !(c.layer[b] & c.senses[a])) continue;
      const Real d2 = length_squared(c.scene.position(b) - c.scene.position(a));
      const Real touch = c.radius[a] + c.radius[b];
      if (d2 <= touch * touch) overlap[a] = std::max(overlap[a], touch - std::sqrt(d2));
    }
  }
  return overlap;
}

TEST(AgentDanger, EqualsABruteForceSweepOverEveryPair) {
  const Real max_distance = 3;
  const Crowd c = make_crowd(300, 30, 2, 3u);
  for (int slots : {1, 8, 12, 16}) {
    const SlotDirections dirs(slots);
    for (Vec2 turn : kTurns) {
      const std::vector<Real> fast = danger_with_width(c, 8, max_distance, Falloff::Linear, dirs, turn);
      const std::vector<Real> want = brute_force_danger(c, max_distance, Falloff::Linear, dirs, turn);
      for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(want[i], fast[i]) << slots << " slots, turn " << turn.y << ": agent " << i / slots << " slot "
                                    << i % slots;
      }
    }
  }
}

// A neighbor dead ahead (+x) covers slots symmetrically; with its bearing turned
// counter-clockwise the slot to the agent's right (clockwise) is freed first, the one to
// its left stays covered, and turning back the other way mirrors it.
TEST(AgentDanger, ATurnedBearingFreesTheSlotsOnOneSideFirst) {
  Crowd c;
  c.positions = {0, 0, 2, 0};
  c.radius = {Real(0.4), Real(0.4)};
  c.layer = {1, 1};
  c.senses = {kAllLayers, kAllLayers};
  finish(c, 2);
  const SlotDirections dirs(16);
  const auto row_of_agent_0 = [&](Real angle) {
    const std::vector<Real> danger =
        danger_with_width(c, 8, 4, Falloff::Linear, dirs, {std::cos(angle), std::sin(angle)});
    return std::vector<Real>(danger.begin(), danger.begin() + 16);
  };
  const std::vector<Real> straight = row_of_agent_0(0), right = row_of_agent_0(Real(0.35)),
                          left = row_of_agent_0(Real(-0.35));
  // Straight: slots 1 and 15 (22.5 degrees either side) both covered, 2 and 14 not.
  EXPECT_GT(straight[1], 0);
  EXPECT_EQ(straight[1], straight[15]);
  EXPECT_EQ(straight[2], 0);
  EXPECT_EQ(straight[14], 0);
  // Kept right: the left (slots 1, 2) covered, the right (slot 15) free; kept left: mirrored.
  EXPECT_EQ(right[15], 0);
  EXPECT_GT(right[1], 0);
  EXPECT_GT(right[2], 0);
  EXPECT_EQ(left[1], 0);
  EXPECT_GT(left[15], 0);
  EXPECT_GT(left[14], 0);
  // The weight is the clearance's, whatever the turn.
  EXPECT_EQ(right[0], straight[0]);
  EXPECT_EQ(left[0], straight[0]);
}

TEST(AgentDanger, ACrowdDenserThanTheBuffersHeldGrowsThemMidGathering) {
  // Agents that see ~340 others within 25 m, over many grid runs: a block of them needs
  // more than a worker's buffers hold from the first size on, so they grow between two
  // runs and must keep what the earlier runs (and agents) gathered. In buffers of the
  // size a world gives them; the test checks that they did grow.
  const SlotDirections dirs(16);
  const Crowd c = make_lattice(30, 2, 5u);
  const std::vector<Real> want = brute_force_danger(c, 25, Falloff::Linear, dirs);
  // No agent touches another, so every slot's danger is below 1: a neighbor lost in the
  // growth (read back as one at the agent's centre) would show as a 1.
  EXPECT_EQ(*std::max_element(want.begin(), want.end()) < 1, true);
  EXPECT_GT(std::count_if(want.begin(), want.end(), [](Real v) { return v > 0; }), static_cast<long>(want.size() / 2));
  for (int width : {8, 4}) {
    WorkerScratch worker;
    WorkerScratchNeeds needs;
    needs.agents = c.scene.agents;
    worker.reserve(needs);
    const std::size_t held = worker.neighbors.capacity;
    const std::vector<Real> fast = danger_with_width(c, width, 25, Falloff::Linear, dirs, {1, 0}, &worker);
    const std::size_t grown = worker.neighbors.capacity;
#ifdef CONTEXTSTEER_SIMD  // the scalar path, all a build without vector kernels has, needs no buffers
    EXPECT_GT(grown, held) << "width " << width << ": the crowd no longer grows the buffers";
#endif
    ASSERT_EQ(0, std::memcmp(want.data(), fast.data(), want.size() * sizeof(Real))) << "width " << width;
  }
}

TEST(Overlap, EveryPathGivesTheSameBitsAndEqualsBruteForce) {
  // On layers, and then all on one layer, which the kernels take without layer tests.
  for (const bool layered : {true, false}) {
    Crowd c = make_crowd(500, 25, 2, 11u);  // dense: many agents touch
    if (!layered) {
      std::fill(c.layer.begin(), c.layer.end(), LayerMask(1));
      std::fill(c.senses.begin(), c.senses.end(), kAllLayers);
      finish(c, 2);
    }
    ASSERT_EQ(!layered, c.grid.everyone_senses_everyone());
    const std::vector<Real> widest = overlap_with_width(c, 8);
    const std::vector<Real> four = overlap_with_width(c, 4);
    const std::vector<Real> scalar = overlap_with_width(c, 1);
    ASSERT_EQ(0, std::memcmp(widest.data(), scalar.data(), widest.size() * sizeof(Real))) << layered;
    ASSERT_EQ(0, std::memcmp(four.data(), scalar.data(), four.size() * sizeof(Real))) << layered;
    const std::vector<Real> want = brute_force_overlap(c);
    int touching = 0;
    for (int a = 0; a < c.scene.agents; ++a) {
      ASSERT_EQ(want[a], widest[a]) << a << (layered ? " on layers" : " on one layer");
      touching += want[a] > 0;
    }
    EXPECT_GT(touching, layered ? 50 : 150);
  }
}

#ifdef CONTEXTSTEER_SIMD  // the pass by pairs is built with the vector kernels only
TEST(AgentPairDanger, GivesEveryAgentTheBitsOfItsOwnQueryOnAnyThreads) {
  // Rows shorter than the reach (4 m and two radii up to 0.9 m), and rows as tall as
  // it, as a world has them: each agent then walks the rest of its own row and the next.
  for (const Real row_height : {Real(2), Real(5.8)}) {
    for (int slots : {2, 3, 8, 12, 16, 20, 32}) {
      const SlotDirections dirs(slots, Real(0.1));
      for (Falloff falloff :
           {Falloff::Step, Falloff::Linear, Falloff::Smoothstep, Falloff::InverseSquare, Falloff::Exponential}) {
        // Tall, so that several threads split it into many chunks of rows.
        Crowd c = make_crowd(600, 30, row_height, 5u + static_cast<unsigned>(slots), 150);
        // On layers; then all on one layer (the kernel leaves the layer tests out); then
        // also all of one radius (it leaves the neighbors' radii out too).
        for (int variant = 0; variant < 3; ++variant) {
          const bool layered = variant == 0, one_radius = variant == 2;
          if (variant == 1) {
            std::fill(c.layer.begin(), c.layer.end(), LayerMask(1));
            std::fill(c.senses.begin(), c.senses.end(), kAllLayers);
            finish(c, row_height);
          }
          if (one_radius) {
            std::fill(c.radius.begin(), c.radius.end(), Real(0.45));
            finish(c, row_height);
          }
          ASSERT_EQ(c.grid.everyone_senses_everyone(), !layered);
          ASSERT_EQ(c.grid.common_radius() >= 0, one_radius);
          const Vec2 turn = kTurns[(slots + static_cast<int>(falloff) + layered) % 3];
          const std::vector<Real> want = danger_with_width(c, 1, 4, falloff, dirs, turn);
          for (int width : {16, 8, 4}) {
            for (int threads : {1, 2, 3}) {
              const std::vector<Real> pairs = pair_danger_with(c, width, threads, 4, falloff, dirs, turn);
              ASSERT_EQ(0, std::memcmp(want.data(), pairs.data(), want.size() * sizeof(Real)))
                  << slots << " slots, rows " << row_height << " m, width " << width << ", " << threads
                  << " threads, variant " << variant;
            }
          }
          const auto touched = std::count_if(want.begin(), want.end(), [](Real v) { return v > 0; });
          EXPECT_GT(touched, static_cast<long>(want.size() / 8));
        }
      }
    }
  }
}

TEST(AgentPairDanger, AgentsFarFromTheCrowdGetTheirDangerAndOverlapOnEveryPath) {
  // A tall crowd and, far from it on every side, pairs of agents touching each other and
  // one alone: the grid leaves them outside its cells' box, in its border cells.
  Crowd c = make_crowd(1024, 30, 2, 17u, 150);
  const Real strays[][2] = {{10, 1e6f},    {10.6f, 1e6f},        {-1e5f, 70}, {-1e5f, 70.5f},
                            {3e6f, -3e6f}, {3e6f, -3e6f + 0.5f}, {1e8f, 1e8f}};
  for (const auto& xy : strays) {
    c.positions.insert(c.positions.end(), {xy[0], xy[1]});
    c.radius.push_back(Real(0.4));
    c.layer.push_back(1);
    c.senses.push_back(kAllLayers);
  }
  finish(c, 2);
  ASSERT_EQ(c.grid.row_height(), 2.0f);  // the strays did not make the cells grow
  const SlotDirections dirs(16);
  const std::vector<Real> want = brute_force_danger(c, 4, Falloff::Linear, dirs);
  expect_pairs_give(c, want, 4, dirs);
  for (int width : {8, 4, 1}) {
    const std::vector<Real> danger = danger_with_width(c, width, 4, Falloff::Linear, dirs);
    ASSERT_EQ(0, std::memcmp(want.data(), danger.data(), want.size() * sizeof(Real))) << "width " << width;
    const std::vector<Real> overlap = overlap_with_width(c, width);
    for (int a = 1024; a < 1030; ++a) {
      // Each of the pairs touches its partner only: radii of 0.8 m in all, 0.5-0.6 m apart.
      const Vec2 to = c.scene.position(a ^ 1) - c.scene.position(a);
      EXPECT_EQ(overlap[a], Real(0.8) - length(to)) << "width " << width << ", agent " << a;
      EXPECT_GT(overlap[a], 0.0f);
    }
    EXPECT_EQ(overlap[1030], 0.0f);
  }
}

TEST(AgentPairDanger, GroupsFarApartGetTheirDangerAndOverlapOnEveryPath) {
  // Seven crowds far apart, the first two 1,940 m: the grid cuts the plane into regions,
  // one per crowd, and the pass by pairs splits each region's rows among threads. Then,
  // with a reach past the regions' separation (12 m), the first two crowds see each
  // other, and the pass runs as one chunk.
  const Real offsets[][2] = {{0, 0}, {0, 2000}, {1e4f, 0}, {1e4f, 3e5f}, {-2e6f, 40}, {25, -1e5f}, {1e5f, 1e5f}};
  Crowd c;
  for (int g = 0; g < 7; ++g) {
    const Crowd group = make_crowd(300, 30, 2, 23u + g, 60);
    for (int a = 0; a < 300; ++a) {
      c.positions.insert(c.positions.end(),
                         {group.positions[2 * a] + offsets[g][0], group.positions[2 * a + 1] + offsets[g][1]});
    }
    c.radius.insert(c.radius.end(), group.radius.begin(), group.radius.end());
    c.layer.insert(c.layer.end(), group.layer.begin(), group.layer.end());
    c.senses.insert(c.senses.end(), group.senses.begin(), group.senses.end());
  }
  const SlotDirections dirs(16);
  for (const Real max_distance : {Real(4), Real(2000)}) {
    finish(c, 6);  // 4 m and two radii of at most 0.9 m
    ASSERT_EQ(c.grid.region_count(), 7);
    ASSERT_EQ(c.grid.row_height(), 6.0f);
    const std::vector<Real> want = brute_force_danger(c, max_distance, Falloff::Linear, dirs);
    expect_pairs_give(c, want, max_distance, dirs);
    for (int width : {8, 4, 1}) {
      const std::vector<Real> danger = danger_with_width(c, width, max_distance, Falloff::Linear, dirs);
      ASSERT_EQ(0, std::memcmp(want.data(), danger.data(), want.size() * sizeof(Real))) << "width " << width;
      EXPECT_EQ(overlap_with_width(c, width), brute_force_overlap(c)) << "width " << width;
    }
  }
}

TEST(AgentPairDanger, ACrowdAlongADiagonalIsMetOnEveryPath) {
  // A road 8 m wide and 1,500 m long at 45 degrees: the grid fits its rows to the road
  // (SpatialGrid.CrowdsAlongADiagonalGetRowsFittedToThem), and the pass by pairs splits
  // them among threads.
  Crowd c = make_crowd(2000, 1500, 6, 29u, 8);
  for (std::size_t i = 0; i < c.positions.size(); i += 2) {
    const Real x = c.positions[i], y = c.positions[i + 1];
    c.positions[i] = (x - y) * Real(0.70710678), c.positions[i + 1] = (x + y) * Real(0.70710678);
  }
  const SlotDirections dirs(16);
  finish(c, 6);
  ASSERT_EQ(c.grid.row_height(), 6.0f);  // fitted, not grown
  const std::vector<Real> want = brute_force_danger(c, 4, Falloff::Linear, dirs);
  expect_pairs_give(c, want, 4, dirs);
  for (int width : {8, 4, 1}) {
    const std::vector<Real> danger = danger_with_width(c, width, 4, Falloff::Linear, dirs);
    ASSERT_EQ(0, std::memcmp(want.data(), danger.data(), want.size() * sizeof(Real))) << "width " << width;
    EXPECT_EQ(overlap_with_width(c, width), brute_force_overlap(c)) << "width " << width;
  }
}

TEST(AgentPairDanger, AFewLargeAgentsAmongACrowdAreMetOnEveryPath) {
  // Vehicles among a crowd of radii 0.1-0.9 m: the grid sets them apart, the kernels
  // size their queries by the crowd and meet the vehicles apart.
  Crowd c = make_crowd(1024, 30, 2, 19u, 150);
  const Real large[][3] = {{15, 40, 6}, {16, 52, 3}, {3, 100, 20}, {29, 149, 2.5f}, {36, 75, 8}};  // x, y, radius
  for (const auto& [x, y, radius] : large) {
    c.positions.insert(c.positions.end(), {x, y});
    c.radius.push_back(radius);
    c.layer.push_back(c.layer.size() % 2 ? 1 : 2);
    c.senses.push_back(c.senses.size() % 3 ? kAllLayers : LayerMask(1));
  }
  finish(c, 2);
  ASSERT_EQ(c.grid.large_count(), 5);
  ASSERT_LE(c.grid.usual_radius(), 0.9f);
  const SlotDirections dirs(16);
  const std::vector<Real> want = brute_force_danger(c, 4, Falloff::Smoothstep, dirs, kTurns[1]);
  for (int width : {16, 8, 4}) {
    for (int threads : {1, 2, 3}) {
      const std::vector<Real> pairs = pair_danger_with(c, width, threads, 4, Falloff::Smoothstep, dirs, kTurns[1]);
      ASSERT_EQ(0, std::memcmp(want.data(), pairs.data(), want.size() * sizeof(Real)))
          << "width " << width << ", " << threads << " threads";
    }
  }
  const std::vector<Real> deepest = brute_force_overlap(c);
  for (int width : {8, 4, 1}) {
    const std::vector<Real> danger = danger_with_width(c, width, 4, Falloff::Smoothstep, dirs, kTurns[1]);
    ASSERT_EQ(0, std::memcmp(want.data(), danger.data(), want.size() * sizeof(Real))) << "width " << width;
    const std::vector<Real> overlap = overlap_with_width(c, width);
    ASSERT_EQ(0, std::memcmp(deepest.data(), overlap.data(), overlap.size() * sizeof(Real))) << "width " << width;
  }
  // The vehicles press into the crowd and see it, and it sees them, beyond the usual reach.
  for (int a = 1024; a < c.scene.agents; ++a) {
    EXPECT_GT(deepest[a], 0.5f) << a;
    EXPECT_GT(*std::max_element(want.begin() + a * 16, want.begin() + a * 16 + 16), 0.5f) << a;
  }
}

TEST(AgentPairDanger, ACrowdDenserThanTheBuffersHeldGivesTheSameBits) {
  // As for AgentDanger above, with a longer reach: pairs go one way only, so a block holds
  // about half as many (~320 an agent here). In buffers of the size a world gives them;
  // on one thread the buffers must have grown.
  const SlotDirections dirs(16);
  const Crowd c = make_lattice(30, 2, 5u);
  const std::vector<Real> want = brute_force_danger(c, 40, Falloff::Linear, dirs);
  for (int width : {16, 8, 4}) {
    for (int threads : {1, 2}) {
      std::vector<WorkerScratch> workers(static_cast<std::size_t>(threads));
      WorkerScratchNeeds needs;
      needs.agents = c.scene.agents;
      for (WorkerScratch& w : workers) w.reserve(needs);
      const std::size_t held = workers[0].neighbors.capacity;
      const std::vector<Real> pairs = pair_danger_with(c, width, threads, 40, Falloff::Linear, dirs, {1, 0}, &workers);
      const std::size_t grown = workers[0].neighbors.capacity;
      if (threads == 1) EXPECT_GT(grown, held) << "width " << width << ": the crowd no longer grows the buffers";
      ASSERT_EQ(0, std::memcmp(want.data(), pairs.data(), want.size() * sizeof(Real)))
          << "width " << width << ", " << threads << " threads";
    }
  }
}
#endif

TEST(RowChunks, HoldEachPairWithinReachInOneChunkOrTheNext) {
  // Three crowds the grid gives regions in the order A, C, B: A and B 1,940 m apart
  // (cut first, along y), C far to the side and 6,000 m tall, so that its rows lie
  // between theirs. A reach within the regions' separation splits the rows among
  // threads; one that takes A to B must not, as their rows are chunks apart.
  std::mt19937 rng(29);
  std::vector<Real> xy;
  auto add = [&](int n, Real x, Real y, Real width, Real height) {
    std::uniform_real_distribution<Real> u(0, 1);
    for (int i = 0; i < n; ++i) xy.insert(xy.end(), {x + width * u(rng), y + height * u(rng)});
  };
  add(300, 0, 0, 30, 60);           // A
  add(5000, 600, -5940, 30, 6000);  // C
  add(300, 0, 2000, 30, 60);        // B
  const int n = static_cast<int>(xy.size() / 2);
  SpatialGrid grid;
  grid.build(xy.data(), n, 6);
  ASSERT_EQ(grid.region_count(), 3);
  ASSERT_EQ(grid.row_height(), 6.0f);
  ThreadPool pool(3);
  for (const Real reach : {Real(10), Real(2000)}) {
    std::vector<int> starts;
    std::mutex lock;
    run_row_chunks(grid, reach, pool, [&](const RowChunks& chunks, int, int) {
      const std::lock_guard<std::mutex> hold(lock);
      if (!starts.empty()) return;
      for (int c = 0; c <= chunks.count; ++c) starts.push_back(chunks.start(c));
    });
    const int count = static_cast<int>(starts.size()) - 1;
    if (reach < grid.separation()) EXPECT_GT(count, 2);
    auto chunk_of = [&](int place) {
      return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), place) - starts.begin()) - 1;
    };
    int pairs_across = 0;
    for (int k = 0; k < n; ++k) {
      for (int j = k + 1; j < n; ++j) {
        const Real dx = grid.xs()[j] - grid.xs()[k], dy = grid.ys()[j] - grid.ys()[k];
        if (dx * dx + dy * dy > reach * reach) continue;
        const int apart = chunk_of(j) - chunk_of(k);
        ASSERT_TRUE(apart == 0 || apart == 1) << "reach " << reach << ": places " << k << " and " << j;
        pairs_across += grid.ys()[k] < 1000 && grid.ys()[j] > 1000 && grid.xs()[k] < 100 && grid.xs()[j] < 100;
      }
    }
    EXPECT_EQ(pairs_across > 0, reach > 1000);  // the long reach meets A and B
  }
}

TEST(AgentPairDanger, RefusesWhatItCannotCompute) {
  const Crowd c = make_crowd(10, 5, 2, 1u);
  std::vector<Real> rows(10);
  ThreadPool pool(1);
  EXPECT_FALSE(agent_pair_danger_available(1));
  EXPECT_THROW(agent_pair_danger(c.scene, {4, Falloff::Linear}, SlotDirections(1), rows.data(), pool),
               std::logic_error);
#ifndef CONTEXTSTEER_SIMD  // nor, without vector kernels, any number of slots: Avoid queries agent by agent
  EXPECT_FALSE(agent_pair_danger_available(16));
  EXPECT_THROW(agent_pair_danger(c.scene, {4, Falloff::Linear}, SlotDirections(16), rows.data(), pool),
               std::logic_error);
#endif
}
