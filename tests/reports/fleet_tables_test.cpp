// The fleet's tables (reports/fleet.hpp) over a Fleet made by hand.
#include <gtest/gtest.h>

#include "ridgeline/reports/fleet.hpp"

namespace ridgeline {
namespace {

Fleet two_nodes(double a, double b) {
  Fleet f;
  f.ceilings.push_back({"DRAM copy, 1 thread", "B/s", 20e9, 2});
  for (const auto& [name, ratio] : {std::pair{"node-a", a}, {"node-b", b}}) {
    FleetNode n;
    n.name = name;
    n.ceilings = {ratio};
    f.nodes.push_back(n);
  }
  return f;
}

TEST(FleetTables, TheLowestAndHighestCeilingNameTheirMembersUnlessAllAreEqual) {
  const Table apart = fleet_ceiling_table(two_nodes(0.9, 1.1));
  ASSERT_EQ(apart.rows.size(), 1u);
  EXPECT_EQ(apart.rows[0][3].text, "-10.0% (node-a)");
  EXPECT_EQ(apart.rows[0][4].text, "+10.0% (node-b)");
  const Table equal = fleet_ceiling_table(two_nodes(1.0, 1.0));
  EXPECT_EQ(equal.rows[0][3].text, "+0.0% (every node)");  // not one member picked at random
  EXPECT_EQ(equal.rows[0][4].text, "+0.0% (every node)");
}

}  // namespace
}  // namespace ridgeline
