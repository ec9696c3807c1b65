// Anticipate's law per disc and slot (behaviors/anticipate.hpp): the wide kernel equals the
// scalar reference to the bit at every lane width, and the reachability cull never drops
// a disc that any way would find dangerous.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "contextsteer/behaviors/anticipate.hpp"
#include "contextsteer/kernels/dispatch.hpp"
#include "contextsteer/maps/slots.hpp"

using namespace contextsteer;

namespace {

// Discs of every kind: touching, standing clear or not, far, near the edge of reach,
// still, slow, fast, and some at positions along a slot direction (a leg or the cap
// met exactly).
std::vector<AnticipatedDisc> some_discs(std::mt19937& rng, const SlotDirections& dirs, int count) {
  std::uniform_real_distribution<Real> unit(0, 1);
  std::vector<AnticipatedDisc> discs;
  while (static_cast<int>(discs.size()) < count) {
    const Real reach = Real(0.2) + unit(rng);
    const Real horizon = Real(0.2) + 2 * unit(rng);
    const Real top = unit(rng) < Real(0.05) ? Real(0) : Real(0.1) + 2 * unit(rng);
    const Real angle = 6.2831853f * unit(rng);
    Real dist = reach * (Real(0.2) + 3 * unit(rng)) + 3 * unit(rng) * unit(rng);
    if (discs.size() % 7 == 3) dist = reach;  // just touching
    Vec2 p{dist * std::cos(angle), dist * std::sin(angle)};
    if (discs.size() % 11 == 5) {
      const Vec2 d = dirs[static_cast<int>(rng() % static_cast<unsigned>(dirs.slots()))];
      p = d * dist;
    }
    const Real speed = unit(rng) < Real(0.2) ? Real(0) : 2 * unit(rng);
    const Real heading = 6.2831853f * unit(rng);
    const Vec2 v{speed * std::cos(heading), speed * std::sin(heading)};
    const AnticipatedDisc disc = anticipated_disc(p, v, reach, horizon, top);
    if (!disc.quiet) discs.push_back(disc);
  }
  return discs;
}

}  // namespace

TEST(Anticipate, TheWideKernelEqualsTheReferenceAtEveryWidth) {
  std::mt19937 rng(50);
  int tables_tried = 0;
  for (int slots : {8, 16, 32}) {
    const SlotDirections dirs(slots, Real(0.1));
    const std::vector<AnticipatedDisc> discs = some_discs(rng, dirs, 4000);
    // The reference: row by row, the largest danger of any disc, from rows that start at 0.
    std::vector<Real> want(static_cast<std::size_t>(slots), 0);
    std::vector<Real> each(discs.size() * slots);
    for (std::size_t k = 0; k < discs.size(); ++k) {
      for (int i = 0; i < slots; ++i) {
        each[k * slots + i] = anticipated_danger(discs[k], dirs[i]);
        want[i] = std::max(want[i], each[k * slots + i]);
      }
    }
    const KernelTables& tables = kernel_tables();
    for (const KernelTable* table : {tables.widest, tables.up_to_8, tables.up_to_4}) {
      if (!table || slots % table->lanes != 0) continue;
      ++tables_tried;
      // Disc by disc: each row equals the reference's to the bit.
      for (std::size_t k = 0; k < discs.size(); ++k) {
        std::vector<Real> row(static_cast<std::size_t>(slots), 0);
        table->anticipate_rows(&discs[k], 1, dirs.x(), dirs.y(), dirs.slots(), row.data());
        ASSERT_EQ(0, std::memcmp(row.data(), each.data() + k * slots, slots * sizeof(Real)))
            << "slots " << slots << " lanes " << table->lanes << " disc " << k << " slot 0: " << row[0] << " vs "
            << each[k * slots];
      }
      std::vector<Real> row(static_cast<std::size_t>(slots), 0);
      table->anticipate_rows(discs.data(), static_cast<int>(discs.size()), dirs.x(), dirs.y(), dirs.slots(),
                             row.data());
      ASSERT_EQ(0, std::memcmp(row.data(), want.data(), slots * sizeof(Real))) << "lanes " << table->lanes;
    }
  }
  if (kernel_tables().up_to_4) EXPECT_GT(tables_tried, 0);
}

TEST(Anticipate, TheWideKernelSweepsTheArcEdgesAsTheReferenceDoes) {
  std::mt19937 rng(52);
  const SlotDirections dirs(16, Real(0.3));
  const std::vector<AnticipatedDisc> discs = some_discs(rng, dirs, 1000);
  std::vector<Real> want(16, 0);
  for (const AnticipatedDisc& disc : discs) {
    for (int i = 0; i < 16; ++i) want[i] = std::max(want[i], anticipated_danger(disc, dirs.edge(i)));
  }
  const KernelTables& tables = kernel_tables();
  for (const KernelTable* table : {tables.widest, tables.up_to_8, tables.up_to_4}) {
    if (!table || 16 % table->lanes != 0) continue;
    std::vector<Real> row(16, 0);
    table->anticipate_rows(discs.data(), static_cast<int>(discs.size()), dirs.edge_x(), dirs.edge_y(), 16, row.data());
    ASSERT_EQ(0, std::memcmp(row.data(), want.data(), 16 * sizeof(Real))) << "lanes " << table->lanes;
  }
}

TEST(Anticipate, TheCullDropsOnlyDiscsOfNoDanger) {
  std::mt19937 rng(51);
  std::uniform_real_distribution<Real> unit(0, 1);
  const SlotDirections dirs(256, Real(0.0123));
  int culled = 0, kept = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Real reach = Real(0.05) + unit(rng);
    const Real horizon = Real(0.1) + 2 * unit(rng);
    const Real top = Real(0.05) + 2 * unit(rng);
    const Real speed = unit(rng) < Real(0.3) ? Real(0) : 3 * unit(rng);
    const Real heading = 6.2831853f * unit(rng), angle = 6.2831853f * unit(rng);
    const Vec2 v{speed * std::cos(heading), speed * std::sin(heading)};
    // Near the edge of reach: reach + top * horizon, plus the disc's own move.
    const Real edge = reach + (top + speed) * horizon;
    const Real dist = edge * (Real(0.7) + Real(0.6) * unit(rng));
    const Vec2 p{dist * std::cos(angle), dist * std::sin(angle)};
    if (!out_of_reach(p, v, reach, horizon, top)) {
      ++kept;
      continue;
    }
    ++culled;
    ASSERT_FALSE(standing_is_touched(p, v, reach, horizon)) << "trial " << trial;
    for (int i = 0; i < dirs.slots(); ++i) {
      ASSERT_EQ(Real(0), anticipated_danger(p, v, reach, horizon, dirs[i], top)) << "trial " << trial << " slot " << i;
    }
  }
  // Both kinds met, so the test means something.
  EXPECT_GT(culled, 1000);
  EXPECT_GT(kept, 1000);
}

// A disc that comes straight at a standing agent is kept by the cull however far it
// starts, as long as it arrives within the horizon; one that walks away is culled.
TEST(Anticipate, TheCullKeepsAnOncomingDisc) {
  const Real reach = 0.6f, horizon = 1.5f, top = 1.3f;
  const Vec2 p{5, 0};
  EXPECT_FALSE(out_of_reach(p, Vec2{-4, 0}, reach, horizon, top));
  EXPECT_TRUE(out_of_reach(p, Vec2{4, 0}, reach, horizon, top));
  EXPECT_GT(anticipated_danger(p, Vec2{-4, 0}, reach, horizon, Vec2{1, 0}, top), Real(0));
}
