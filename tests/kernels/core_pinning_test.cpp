// CorePinning (kernels/core_pinning.hpp): each thread of a region on its own CPU while the
// pinning lives, and the thread's own CPU set back afterwards; an index past the cores this
// thread may use binds nothing and says why.
#include "ridgeline/kernels/core_pinning.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <set>
#include <vector>

namespace ridgeline {

namespace {

cpu_set_t this_threads_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  return set;
}

}  // namespace

TEST(CorePinning, EachThreadOnItsOwnCpuThenBackWhereItWas) {
  const cpu_set_t before = this_threads_cpus();
  if (CPU_COUNT(&before) < 2)
    GTEST_SKIP() << "this process may run on " << CPU_COUNT(&before) << " CPU; the test needs 2";
  std::vector<int> bound(2, -2), bound_count(2, 0), after_count(2, 0);
  std::vector<std::string> reasons(2);
#pragma omp parallel num_threads(2)
  {
    const int t = omp_get_thread_num();
    {
      const CorePinning pinned(t);
      bound[t] = pinned.cpu();
      reasons[t] = pinned.reason();
      const cpu_set_t now = this_threads_cpus();
      bound_count[t] = CPU_COUNT(&now);
      if (pinned.cpu() >= 0) {
        EXPECT_TRUE(CPU_ISSET(pinned.cpu(), &now));
      }
    }
    const cpu_set_t now = this_threads_cpus();
    after_count[t] = CPU_COUNT(&now);
  }
  for (int t = 0; t < 2; ++t) {
    SCOPED_TRACE(t);
    if (bound[t] < 0 && reasons[t].find("core") != std::string::npos)
      GTEST_SKIP() << "hwloc sees fewer cores than CPUs here: " << reasons[t];
    ASSERT_GE(bound[t], 0) << reasons[t];
    EXPECT_TRUE(CPU_ISSET(bound[t], &before));
    EXPECT_EQ(bound_count[t], 1);
  }
  EXPECT_NE(bound[0], bound[1]);
  // The main thread is thread 0: its set is the one it had; so is the other thread's.
  const cpu_set_t after = this_threads_cpus();
  EXPECT_TRUE(CPU_EQUAL(&after, &before));
  EXPECT_EQ(after_count[1], CPU_COUNT(&before));
}

TEST(CorePinning, UsableCpusAreTheOnesThisThreadMayRunOn) {
  const cpu_set_t before = this_threads_cpus();
  EXPECT_EQ(usable_cpus(), CPU_COUNT(&before));
  int first = 0;
  while (!CPU_ISSET(first, &before)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  const int under_one = usable_cpus();  // as under `taskset -c <first>`
  ASSERT_EQ(sched_setaffinity(0, sizeof before, &before), 0);
  EXPECT_EQ(under_one, 1);
}

TEST(CorePinning, AnIndexPastTheCoresBindsNothingAndSaysWhy) {
  const cpu_set_t before = this_threads_cpus();
  {
    const CorePinning pinned(4096);
    EXPECT_EQ(pinned.cpu(), -1);
    EXPECT_NE(pinned.reason().find("may run on"), std::string::npos) << pinned.reason();
    const cpu_set_t now = this_threads_cpus();
    EXPECT_TRUE(CPU_EQUAL(&now, &before));
  }
  const cpu_set_t after = this_threads_cpus();
  EXPECT_TRUE(CPU_EQUAL(&after, &before));
}

}  // namespace ridgeline
