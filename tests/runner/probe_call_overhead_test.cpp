// The probe's call overhead is a real call's: an empty kernel's run() through its virtual
// dispatch, which the compiler had removed (a unity batch let it see the kernel's type), so
// that the model held 2e-16 s and the probe printed "call overhead: 0.00 ns".
#include <gtest/gtest.h>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

TEST(ProbeCallOverhead, IsTheTimeOfARealCall) {
  ProbeOptions options;
  options.only = "^call$";
  options.trials = 1;
  options.seconds_per_measurement = 0.02;
  const MachineModel m = probe_machine(options, [](const std::string&) {});
  ASSERT_EQ(m.overhead.size(), 1u);
  // An indirect call and return take a cycle or more at any clock below 10 GHz; nothing of a
  // microsecond is a call.
  EXPECT_GT(m.overhead[0].seconds, 1e-10) << m.overhead[0].seconds;
  EXPECT_LT(m.overhead[0].seconds, 1e-6) << m.overhead[0].seconds;
}

}  // namespace ridgeline
