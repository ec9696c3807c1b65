#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "contextsteer/scene/spatial_grid.hpp"

using namespace contextsteer;

namespace {

// The agents of xy (n, 2) within r of p, by brute force.
std::vector<int> brute_force_within(const std::vector<Real>& xy, Vec2 p, Real r) {
  std::vector<int> within;
  for (int i = 0; 2 * i < static_cast<int>(xy.size()); ++i) {
    const Real dx = xy[2 * i] - p.x, dy = xy[2 * i + 1] - p.y;
    if (dx * dx + dy * dy <= r * r) within.push_back(i);
  }
  return within;
}

// Checks that the runs after each place of the grid, built over xy, meet every pair of
// agents (a < b) within reach once, as brute force finds them, in runs that increase.
void expect_each_pair_met_once(const SpatialGrid& grid, const std::vector<Real>& xy, Real reach, int scene) {
  const int n = static_cast<int>(xy.size() / 2);
  std::vector<std::pair<int, int>> want, got;
  for (int a = 0; a < n; ++a) {
    for (const int b : brute_force_within(xy, {xy[2 * a], xy[2 * a + 1]}, reach)) {
      if (b > a) want.emplace_back(a, b);
    }
  }
  for (int k = 0; k < n; ++k) {
    const Vec2 p{grid.xs()[k], grid.ys()[k]};
    int last = k + 1;
    const int reached = grid.for_each_run_after(k, p, reach, [&](int begin, int end) {
      ASSERT_GT(begin, k);
      ASSERT_GE(begin, last);  // increasing, never overlapping
      last = end;
      for (int i = begin; i < end; ++i) {
        const Real dx = grid.xs()[i] - p.x, dy = grid.ys()[i] - p.y;
        if (dx * dx + dy * dy > reach * reach) continue;
        const int a = grid.order()[k], b = grid.order()[i];
        got.emplace_back(std::min(a, b), std::max(a, b));
      }
    });
    EXPECT_GE(reached, last);
    EXPECT_EQ(grid.order()[grid.rank_of(grid.order()[k])], grid.order()[k]);
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want) << "scene " << scene;  // each pair once: no duplicates in got
}

// The candidates a query of radius r at p reads: the agents in the runs it is handed.
int candidates_read(const SpatialGrid& grid, Vec2 p, Real r) {
  int read = 0;
  grid.for_each_run(p, r, [&](int begin, int end) { read += end - begin; });
  return read;
}

// Checks that each query (a point and a radius) of the grid, built over xy, finds the
// agents brute force finds.
void expect_queries_equal_brute_force(const SpatialGrid& grid, const std::vector<Real>& xy,
                                      const std::vector<std::pair<Vec2, Real>>& queries, std::size_t scene) {
  for (const auto& [p, r] : queries) {
    std::vector<int> got;
    grid.query(p, r, got);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, brute_force_within(xy, p, r)) << "scene " << scene << " (" << grid.region_count()
                                                 << " regions) query at (" << p.x << ", " << p.y << ") radius " << r;
  }
}

// A crowd in [-50, 50]^2 and, from agent `crowd` on, agents far from it: alone or in
// small groups, on every side, up to 1e8 m away.
std::vector<Real> crowd_and_strays(std::mt19937& rng, int crowd, int strays) {
  std::uniform_real_distribution<float> u(-50, 50);
  std::vector<Real> xy(2 * (crowd + strays));
  for (int i = 0; i < crowd; ++i) xy[2 * i] = u(rng), xy[2 * i + 1] = u(rng);
  const float distances[] = {1e3f, 1e5f, 1e8f};
  for (int i = crowd; i < crowd + strays; ++i) {
    if (i > crowd && rng() % 2) {  // next to the previous stray
      xy[2 * i] = xy[2 * i - 2] + u(rng) / 20, xy[2 * i + 1] = xy[2 * i - 1] + u(rng) / 20;
      continue;
    }
    const float far = distances[rng() % 3] * (rng() % 2 ? 1 : -1);
    const bool along_x = rng() % 2;  // past the crowd in x, with a y inside its range, or the other way
    xy[2 * i] = along_x ? far : u(rng);
    xy[2 * i + 1] = along_x ? u(rng) : far;
  }
  return xy;
}

}  // namespace

TEST(SpatialGrid, QueriesEqualBruteForceOnRandomScenes) {
  std::mt19937 rng(11);
  for (int scene = 0; scene < 20; ++scene) {
    const int n = 1 + static_cast<int>(rng() % 500);
    std::uniform_real_distribution<float> u(-50, 50);
    std::vector<Real> xy(2 * n);
    for (Real& v : xy) v = u(rng);
    if (scene % 5 == 0) std::fill(xy.begin(), xy.end(), 3.0f);  // every agent at one point
    SpatialGrid grid;
    const Real row_height = 0.5f + static_cast<Real>(rng() % 20);
    grid.build(xy.data(), n, row_height);
    for (int q = 0; q < 30; ++q) {
      Vec2 p{u(rng), u(rng)};
      Real r = static_cast<Real>(rng() % 30);
      // Discs far past the grid's edges, and ones holding the whole grid: their cells clamp.
      if (q % 10 == 8) p = p * 1000.0f;
      if (q % 10 == 9) r = q < 20 ? 1e5f : kInfinity;
      std::vector<int> got;
      grid.query(p, r, got);
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, brute_force_within(xy, p, r)) << "scene " << scene << " query " << q;
    }
  }
}

TEST(SpatialGrid, RunsAfterAPlaceMeetEachPairWithinReachOnce) {
  std::mt19937 rng(12);
  for (int scene = 0; scene < 12; ++scene) {
    const int n = 2 + static_cast<int>(rng() % 400);
    std::uniform_real_distribution<float> u(-40, 40);
    std::vector<Real> xy(2 * n);
    for (Real& v : xy) v = u(rng);
    if (scene % 4 == 0) std::fill(xy.begin(), xy.begin() + n, 2.0f);  // many agents on one line
    SpatialGrid grid;
    const Real row_height = 1 + static_cast<Real>(rng() % 10);
    grid.build(xy.data(), n, row_height);
    expect_each_pair_met_once(grid, xy, static_cast<Real>(1 + rng() % 12), scene);
  }
}

TEST(SpatialGrid, AgentsFarFromTheRestAreMetByEveryQueryAndPair) {
  std::mt19937 rng(13);
  for (int scene = 0; scene < 24; ++scene) {
    const int crowd = 256 + static_cast<int>(rng() % 1500), strays = 1 + static_cast<int>(rng() % 12);
    const int n = crowd + strays;
    const std::vector<Real> xy = crowd_and_strays(rng, crowd, strays);
    SpatialGrid grid;
    const Real row_height = 1 + static_cast<Real>(rng() % 8);
    grid.build(xy.data(), n, row_height);
    // Queries from the crowd, from every stray (some wide enough to take the chords of
    // their rows), and far and whole-plane ones.
    std::uniform_real_distribution<float> u(-50, 50);
    std::vector<std::pair<Vec2, Real>> queries;
    for (int q = 0; q < 20; ++q) queries.push_back({{u(rng), u(rng)}, static_cast<Real>(rng() % 30)});
    for (int i = crowd; i < n; ++i) {
      queries.push_back({{xy[2 * i], xy[2 * i + 1]}, 1 + static_cast<Real>(rng() % 4)});
      queries.push_back({{xy[2 * i], xy[2 * i + 1]}, 3 * row_height});
    }
    queries.push_back({{0, 0}, 2e8f});
    queries.push_back({{3e8f, -3e8f}, kInfinity});
    expect_queries_equal_brute_force(grid, xy, queries, scene);
    expect_each_pair_met_once(grid, xy, row_height, scene);  // the reach of a row
  }
}

TEST(SpatialGrid, AFewAgentsFarAwayLeaveTheCellsTheirSize) {
  std::mt19937 rng(14);
  const int crowd = 10000;
  std::vector<Real> xy = crowd_and_strays(rng, crowd, 0);
  SpatialGrid grid;
  grid.build(xy.data(), crowd, 4);
  EXPECT_EQ(grid.row_height(), 4.0f);
  auto read_at_centre = [&] { return candidates_read(grid, {0, 0}, 4); };
  const int read_alone = read_at_centre();
  // One agent 1e8 m away: the bounding box would need cells 2^17 times taller.
  xy.insert(xy.end(), {1e8f, 0});
  grid.build(xy.data(), crowd + 1, 4);
  EXPECT_EQ(grid.row_height(), 4.0f);
  // 1 in 256 agents on each side, in a line of strays: all left out.
  for (int i = 0; i < crowd / 256; ++i) xy.insert(xy.end(), {0, -1e6f - 1000.0f * i});
  const int n = static_cast<int>(xy.size() / 2);
  grid.build(xy.data(), n, 4);
  EXPECT_EQ(grid.row_height(), 4.0f);
  // The cells may sit a little differently (the grid's corner moved), but a query reads
  // about as many as before; with cells grown to the strays' box it would read them all.
  EXPECT_LT(read_at_centre(), 2 * read_alone);
  EXPECT_EQ(grid.region_count(), 1);
}

TEST(SpatialGrid, GroupsFarApartGetRegionsOfTheirOwn) {
  std::mt19937 rng(15);
  const int crowd = 10000;
  std::vector<Real> xy = crowd_and_strays(rng, crowd, 0);
  SpatialGrid grid;
  grid.build(xy.data(), crowd, 4);
  auto read_at_centre = [&] { return candidates_read(grid, {0, 0}, 4); };
  const int read_alone = read_at_centre();
  EXPECT_EQ(grid.region_count(), 1);
  EXPECT_EQ(grid.separation(), kInfinity);
  // A second crowd as large 1e6 m away: neither can be left out, one box over both would
  // need cells 2^7 times taller, and each gets a region instead.
  for (int i = 0; i < crowd; ++i) xy.insert(xy.end(), {xy[2 * i] + 1e6f, xy[2 * i + 1]});
  grid.build(xy.data(), 2 * crowd, 4);
  EXPECT_EQ(grid.region_count(), 2);
  EXPECT_EQ(grid.row_height(), 4.0f);
  EXPECT_EQ(grid.separation(), 8.0f);
  EXPECT_LT(read_at_centre(), 2 * read_alone);
  // Sixteen towns on a 4 x 4 lattice 1e5 m apart: sixteen regions. With a stray by
  // some (1e3 m away or more), those are cut off or trimmed, and the cells keep their size.
  for (const int strays : {0, 1}) {
    std::vector<Real> towns;
    for (int t = 0; t < 16; ++t) {
      const std::vector<Real> town = crowd_and_strays(rng, 1000, t % 3 == 0 ? strays : 0);
      for (std::size_t i = 0; i < town.size(); i += 2) {
        towns.insert(towns.end(), {town[i] + 1e5f * (t % 4), town[i + 1] + 1e5f * (t / 4)});
      }
    }
    grid.build(towns.data(), static_cast<int>(towns.size() / 2), 4);
    if (strays == 0) EXPECT_EQ(grid.region_count(), 16);
    EXPECT_GE(grid.region_count(), 16);
    EXPECT_EQ(grid.row_height(), 4.0f);
  }
  // More groups than regions: the regions are all used, and the cells of some grow.
  std::vector<Real> scattered(2 * 50 * (SpatialGrid::kMaxRegions + 36));
  std::uniform_real_distribution<float> u(0, 1e6f), near(-20, 20);
  for (std::size_t i = 0; i < scattered.size(); i += 100) {
    const float cx = u(rng), cy = u(rng);
    for (std::size_t j = i; j < i + 100; j += 2) scattered[j] = cx + near(rng), scattered[j + 1] = cy + near(rng);
  }
  grid.build(scattered.data(), static_cast<int>(scattered.size() / 2), 4);
  EXPECT_EQ(grid.region_count(), SpatialGrid::kMaxRegions);
}

TEST(SpatialGrid, GroupsFarApartAreMetByEveryQueryAndPair) {
  std::mt19937 rng(16);
  int cut_scenes = 0;
  for (int scene = 0; scene < 24; ++scene) {
    // Groups of up to 150 agents in 60 m squares, their centres anywhere in a square of
    // 1e3 to 1e7 m, one group in three with a few strays.
    const int groups = 2 + static_cast<int>(rng() % 90);
    const float span = std::pow(10.0f, 3 + static_cast<float>(rng() % 5));
    std::uniform_real_distribution<float> centre(0, span);
    std::vector<Real> xy;
    for (int g = 0; g < groups; ++g) {
      const float cx = centre(rng), cy = centre(rng);
      const std::vector<Real> group = crowd_and_strays(rng, 1 + static_cast<int>(rng() % 150), g % 3 ? 0 : 2);
      for (std::size_t i = 0; i < group.size(); i += 2) {
        xy.insert(xy.end(), {cx + group[i] * 0.6f, cy + group[i + 1] * 0.6f});
      }
    }
    const int n = static_cast<int>(xy.size() / 2);
    SpatialGrid grid;
    const Real row_height = 1 + static_cast<Real>(rng() % 8);
    grid.build(xy.data(), n, row_height);
    cut_scenes += grid.region_count() > 1;
    // Queries from agents, of a few rows, of just the separation and past it, and ones
    // reaching other groups or holding the whole plane.
    std::vector<std::pair<Vec2, Real>> queries;
    for (int q = 0; q < 40; ++q) {
      const int a = static_cast<int>(rng() % n);
      const Real radii[] = {row_height, 3 * row_height, grid.separation(), 3 * grid.separation(), span / 4, kInfinity};
      const Real r = radii[q % 6];
      queries.push_back({{xy[2 * a], xy[2 * a + 1]}, std::isfinite(r) || q % 2 ? r : 1e9f});
    }
    expect_queries_equal_brute_force(grid, xy, queries, scene);
    expect_each_pair_met_once(grid, xy, row_height, scene);
    if (n < 2000) expect_each_pair_met_once(grid, xy, span / 3, scene);  // pairs across regions
  }
  EXPECT_GE(cut_scenes, 16);  // the scenes test regions, most of them
}

// n agents at random on a road `width` metres wide from `from`, `length` metres long at
// `angle` radians from the x-axis, or on a ring of that width round `from` of radius
// `length` (angle < 0).
std::vector<Real> road_or_ring(std::mt19937& rng, int n, Vec2 from, Real length, Real width, Real angle) {
  std::uniform_real_distribution<float> u(0, 1);
  std::vector<Real> xy;
  for (int i = 0; i < n; ++i) {
    const Real across = (u(rng) - 0.5f) * width;
    if (angle < 0) {
      const Real a = u(rng) * 6.2831853f, r = length + across;
      xy.insert(xy.end(), {from.x + r * std::cos(a), from.y + r * std::sin(a)});
    } else {
      const Real along = u(rng) * length;
      const Real c = std::cos(angle), s = std::sin(angle);
      xy.insert(xy.end(), {from.x + along * c - across * s, from.y + along * s + across * c});
    }
  }
  return xy;
}

TEST(SpatialGrid, CrowdsAlongADiagonalGetRowsFittedToThem) {
  // Roads at 45 and 30 degrees (in their boxes the cells as asked would far outnumber the
  // agents, with no gap to cut along): the cells keep their size, each row holding only
  // the columns its agents span. Alone, with strays, two far apart (regions, one fitted
  // each), and a ring, whose fitted rows would be too many cells: its cells grow.
  std::mt19937 rng(17);
  struct Scene {
    std::vector<Real> xy;
    bool fits;
  };
  std::vector<Scene> scenes;
  scenes.push_back({road_or_ring(rng, 3000, {0, 0}, 5000, 10, 0.7853982f), true});
  scenes.push_back({road_or_ring(rng, 2000, {-300, 50}, 3000, 30, 0.5235988f), true});
  std::vector<Real> strays = road_or_ring(rng, 3000, {0, 0}, 5000, 10, 0.7853982f);
  strays.insert(strays.end(), {1e7f, -1e7f, -3e6f, 2e6f, 40, 1e8f});
  scenes.push_back({strays, true});
  std::vector<Real> two = road_or_ring(rng, 1500, {0, 0}, 3000, 10, 0.7853982f);
  const std::vector<Real> other = road_or_ring(rng, 1500, {1e5f, 0}, 3000, 10, 2.3561945f);
  two.insert(two.end(), other.begin(), other.end());
  scenes.push_back({two, true});
  scenes.push_back({road_or_ring(rng, 3000, {0, 0}, 2000, 10, -1), false});
  for (std::size_t scene = 0; scene < scenes.size(); ++scene) {
    const std::vector<Real>& xy = scenes[scene].xy;
    const int n = static_cast<int>(xy.size() / 2);
    SpatialGrid grid;
    const Real row_height = 4;
    grid.build(xy.data(), n, row_height);
    EXPECT_EQ(grid.row_height() == row_height, scenes[scene].fits) << "scene " << scene;
    if (scene == 3) EXPECT_EQ(grid.region_count(), 2);
    std::vector<std::pair<Vec2, Real>> queries;
    for (int q = 0; q < 60; ++q) {
      const int a = static_cast<int>(rng() % n);
      const Real radii[] = {1, row_height, 3 * row_height, 40, 700, 1e9f};
      Vec2 p{xy[2 * a], xy[2 * a + 1]};
      if (q % 5 == 4) p = p + Vec2{25, -25};  // beside the road, where rows hold no agent
      queries.push_back({p, radii[q % 6]});
    }
    queries.push_back({{-1e9f, 1e9f}, 10});
    queries.push_back({{0, 0}, kInfinity});
    expect_queries_equal_brute_force(grid, xy, queries, scene);
    expect_each_pair_met_once(grid, xy, row_height, scene);
    expect_each_pair_met_once(grid, xy, 2 * row_height, scene);
    if (scene == 3) expect_each_pair_met_once(grid, xy, 2e5f, scene);  // across the regions
  }
}

TEST(SpatialGrid, KnowsWhenEveryAgentSensesEveryOther) {
  const std::vector<Real> xy{0, 0, 1, 1, 2, 2};
  std::vector<LayerMask> layer{2, 2, 2}, senses{3, 3, 3};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 1, nullptr, layer.data(), senses.data());
  EXPECT_TRUE(grid.everyone_senses_everyone());
  senses[1] = 1;  // one agent senses only layer 1, which nobody is on
  grid.build(xy.data(), 3, 1, nullptr, layer.data(), senses.data());
  EXPECT_FALSE(grid.everyone_senses_everyone());
  senses = {1, 1, 1};  // alike, but blind to each other
  grid.build(xy.data(), 3, 1, nullptr, layer.data(), senses.data());
  EXPECT_FALSE(grid.everyone_senses_everyone());
  grid.build(xy.data(), 3, 1);  // defaults: layer 1, sensing all
  EXPECT_TRUE(grid.everyone_senses_everyone());
}

TEST(SpatialGrid, KnowsWhenEveryAgentHasOneRadius) {
  const std::vector<Real> xy{0, 0, 1, 1, 2, 2};
  std::vector<Real> radius{0.5f, 0.5f, 0.5f};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 1, radius.data());
  EXPECT_EQ(grid.common_radius(), 0.5f);
  radius[2] = 0.6f;
  grid.build(xy.data(), 3, 1, radius.data());
  EXPECT_EQ(grid.common_radius(), -1.0f);
  grid.build(xy.data(), 3, 1);  // no radii: every one 0
  EXPECT_EQ(grid.common_radius(), 0.0f);
}

TEST(SpatialGrid, SetsApartAFewAgentsFarLargerThanTheRest) {
  auto usual = [](const std::vector<Real>& radius) {
    return SpatialGrid::usual_radius_of(radius.data(), static_cast<int>(radius.size()),
                                        *std::min_element(radius.begin(), radius.end()),
                                        *std::max_element(radius.begin(), radius.end()));
  };
  std::vector<Real> crowd(400, 0.5f);
  for (int i = 0; i < 400; i += 3) crowd[i] = 0.3f;
  EXPECT_EQ(usual(crowd), 0.5f);  // sizes within a factor of 2: none apart
  std::vector<Real> radius = crowd;
  radius[7] = 50, radius[100] = 3, radius[200] = 1.2f;  // three sizes of vehicle
  EXPECT_EQ(usual(radius), 0.5f);
  // In a grid, the three are listed by place, and nothing else.
  std::vector<Real> xy(2 * radius.size());
  for (std::size_t i = 0; i < xy.size(); ++i) xy[i] = static_cast<Real>(i % 37);
  SpatialGrid grid;
  grid.build(xy.data(), static_cast<int>(radius.size()), 2, radius.data());
  EXPECT_EQ(grid.usual_radius(), 0.5f);
  ASSERT_EQ(grid.large_count(), 3);
  std::vector<int> large(grid.large_places(), grid.large_places() + 3);
  EXPECT_TRUE(std::is_sorted(large.begin(), large.end()));
  for (int& k : large) k = grid.order()[k];
  std::sort(large.begin(), large.end());
  EXPECT_EQ(large, (std::vector<int>{7, 100, 200}));
  // Too many to set apart (more than kMaxLargeAgents, or more than 1 in 8): none are.
  radius = crowd;
  for (int i = 0; i <= SpatialGrid::kMaxLargeAgents; ++i) radius[i * 20] = 5;
  EXPECT_EQ(usual(radius), 5.0f);
  EXPECT_EQ(usual({0.5f, 0.5f, 0.5f, 9}), 9.0f);
  // All of one size, or none at all.
  EXPECT_EQ(usual(std::vector<Real>(50, 2.0f)), 2.0f);
  EXPECT_EQ(usual(std::vector<Real>(50, 0.0f)), 0.0f);
}

TEST(SpatialGrid, EmptyAndRebuiltGridsAnswer) {
  SpatialGrid grid;
  grid.build(nullptr, 0, 1.0f);
  std::vector<int> out;
  grid.query({0, 0}, 10, out);
  EXPECT_TRUE(out.empty());
  const std::vector<Real> xy{0, 0, 1000, 1000};  // far apart: the cells grow instead of their count
  grid.build(xy.data(), 2, 0.01f);
  grid.query({999, 999}, 2, out);
  EXPECT_EQ(out, std::vector<int>{1});
  EXPECT_THROW(grid.build(xy.data(), 2, 0), std::invalid_argument);
}

TEST(SpatialGrid, MatchesOnlyTheStateItWasBuiltFrom) {
  std::vector<Real> xy{0, 0, 3, 1, -2, 5}, radius{0.5f, 0.5f, 1};
  std::vector<LayerMask> layer{1, 2, 1}, senses{kAllLayers, 1, 3};
  SpatialGrid grid;
  grid.build(xy.data(), 3, 2, radius.data(), layer.data(), senses.data());
  auto matches = [&](int n, Real row_height) {
    return grid.matches(xy.data(), n, row_height, radius.data(), layer.data(), senses.data());
  };
  EXPECT_TRUE(matches(3, 2));
  EXPECT_FALSE(matches(3, 4));  // another row height
  EXPECT_FALSE(matches(2, 2));  // another count
  xy[3] += 0.001f;
  EXPECT_FALSE(matches(3, 2));
  xy[3] -= 0.001f;
  radius[2] = 0.9f;
  EXPECT_FALSE(matches(3, 2));
  radius[2] = 1;
  layer[0] = 4;
  EXPECT_FALSE(matches(3, 2));
  layer[0] = 1;
  senses[1] = 2;
  EXPECT_FALSE(matches(3, 2));
  senses[1] = 1;
  EXPECT_TRUE(matches(3, 2));
}

TEST(SpatialGrid, ALineOfMoreThan2To24CellsTakesTallerRows) {
  // The cells' columns are found in floats, which hold every whole number only up to
  // 2^24: 4.5 million agents 1 m apart on a line fit in the cells the agents may have
  // (4 each) at rows of 0.5 m (cells of 0.25 m, 1.8e7 columns), but that is more columns
  // than floats count exactly, so the rows double to 1 m.
  const int n = 4500000;
  std::vector<Real> xy(2 * n, 0);
  for (int i = 0; i < n; ++i) xy[2 * i] = static_cast<Real>(i), xy[2 * i + 1] = (i % 3) * 0.1f;
  SpatialGrid grid;
  grid.build(xy.data(), n, 0.5f);
  EXPECT_EQ(grid.row_height(), 1.0f);
  // Queries along the whole line, the far end included, where the columns pass 2^24.
  std::mt19937 rng(16);
  for (int q = 0; q < 40; ++q) {
    const int k = q < 20 ? n - 1 - static_cast<int>(rng() % 1000) : static_cast<int>(rng() % n);
    const Vec2 p{static_cast<Real>(k) + 0.25f * static_cast<Real>(rng() % 4), 0.05f};
    const Real r = 0.5f + static_cast<Real>(rng() % 4);
    std::vector<int> got;
    grid.query(p, r, got);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, brute_force_within(xy, p, r)) << "query at " << p.x << " radius " << r;
  }
}

TEST(SpatialGrid, RefusesAPileOfMoreAgentsInOneCellThanTheLimit) {
  const int limit = SpatialGrid::kMaxAgentsInOneCell;
  std::vector<Real> xy(2 * (limit + 1), Real(4));
  xy[1] = 4;
  SpatialGrid grid;
  grid.build(xy.data(), limit, 1);
  EXPECT_EQ(grid.most_in_one_cell(), limit);
  EXPECT_NO_THROW(grid.check_pile(xy.data(), "an evaluation", "spread them"));
  grid.build(xy.data(), limit + 1, 1);
  try {
    grid.check_pile(xy.data(), "an evaluation", "spread them");
    ADD_FAILURE() << "a pile of " << limit + 1 << " agents passed";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "positions: 16385 agents lie in one cell of the neighbour grid (rows of 1 m, near (4, 4)); an evaluation "
              "takes at most 16384 there, as each of them meets every other: spread them");
  }
}
