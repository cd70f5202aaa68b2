// The probe cache when two probes race: the first to finish is cached, the second is told
// so and leaves it alone, and the cache is always one whole model (real files, no probe:
// a probe takes minutes, the commit is what races).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/runner/probe.hpp"

namespace ridgeline {

namespace {
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ridgeline-cache-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};
}  // namespace

TEST(ProbeCache, TheFirstProbeToFinishIsCachedAndTheSecondSaysSo) {
  const TempDir dir;
  const auto cache = dir.path / "ridgeline" / "machine-test.json";
  MachineModel first = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  MachineModel second = first;
  first.date = "first";
  second.date = "second";
  // Both start before either has finished: both saw no cache.
  const auto seen_by_first = cache_stamp(cache), seen_by_second = cache_stamp(cache);
  ASSERT_FALSE(seen_by_first);
  std::vector<std::string> said;
  const auto progress = [&](const std::string& line) { said.push_back(line); };
  EXPECT_EQ(commit_to_cache(cache, first, seen_by_first, progress), CacheOutcome::cached);
  EXPECT_TRUE(said.empty());
  EXPECT_EQ(commit_to_cache(cache, second, seen_by_second, progress), CacheOutcome::not_cached);
  ASSERT_EQ(said.size(), 1u);
  EXPECT_NE(said[0].find("another probe finished first"), std::string::npos) << said[0];
  EXPECT_EQ(read_machine_file(cache).date, "first");  // whole, and the winner's
}

TEST(ProbeCache, AForcedProbeReplacesACacheThatDidNotChangeWhileItMeasured) {
  const TempDir dir;
  const auto cache = dir.path / "machine-test.json";
  MachineModel old = read_machine_file(RIDGELINE_FIXTURES "/machine-zen4-vm.json");
  old.date = "old";
  std::vector<std::string> said;
  const auto progress = [&](const std::string& line) { said.push_back(line); };
  ASSERT_EQ(commit_to_cache(cache, old, std::nullopt, progress), CacheOutcome::cached);
  MachineModel fresh = old;
  fresh.date = "fresh";
  EXPECT_EQ(commit_to_cache(cache, fresh, cache_stamp(cache), progress), CacheOutcome::cached);
  EXPECT_EQ(read_machine_file(cache).date, "fresh");
  EXPECT_TRUE(said.empty());
}

}  // namespace ridgeline
