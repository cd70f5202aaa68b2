// LIKWID: the collector's exact reason where perfmon cannot run (this Zen 4 VM: LIKWID 5.2
// says "Unsupported AMD Zen Processor"), likwid-perfctr absent or failing, marker helpers.
#include "ridgeline/collectors/likwid.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

// Built without LIKWID (AArch64: Debian has no arm64 package), the collector says so alone.
bool built_without_likwid(const Availability& a) {
  return a.reason.rfind("built without LIKWID", 0) == 0;
}

TEST(Likwid, NotRequestedTouchesNothing) {
  auto c = make_likwid_collector({});
  const Availability a = c->probe();
  EXPECT_FALSE(a.available);
  if (built_without_likwid(a)) GTEST_SKIP() << a.reason;
  EXPECT_NE(a.reason.find("not requested"), std::string::npos) << a.reason;
}

TEST(Likwid, AGroupCountsOrLikwidsOwnErrorIsTheReason) {
  auto c = make_likwid_collector({"FLOPS_DP"});
  const Availability a = c->probe();
  if (a.available) {
    c->start();
    c->stop();
    EXPECT_FALSE(c->read().empty());
    return;
  }
  EXPECT_NE(a.reason.find("LIKWID"), std::string::npos) << a.reason;
  if (built_without_likwid(a)) GTEST_SKIP() << a.reason;
  EXPECT_NE(a.reason.find("FLOPS_DP"), std::string::npos) << a.reason;
  c->start();  // an unavailable collector is inert
  c->stop();
  EXPECT_TRUE(c->read().empty());
}

class PerfctrOnPath : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* p = std::getenv("PATH");
    saved_ = p ? p : "";
    dir_ = fs::temp_directory_path() / ("ridgeline-likwid-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    ::setenv("PATH", saved_.c_str(), 1);
    fs::remove_all(dir_);
  }
  std::string saved_;
  fs::path dir_;
};

TEST_F(PerfctrOnPath, AbsentSaysHowToInstallIt) {
  ::setenv("PATH", dir_.c_str(), 1);  // an empty directory
  const Availability a = likwid_perfctr_status();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("likwid-perfctr is not on PATH"), std::string::npos) << a.reason;
}

TEST_F(PerfctrOnPath, FailingGivesItsErrorLinesAndExitCode) {
  // A stand-in likwid-perfctr (a test fixture) failing the way LIKWID does on an
  // unsupported CPU.
  const fs::path fake = dir_ / "likwid-perfctr";
  std::ofstream(fake) << "#!/bin/sh\necho 'CPU name: fixture'\n"
                         "echo 'ERROR - [fixture] Unsupported processor' >&2\nexit 1\n";
  fs::permissions(fake, fs::perms::owner_all);
  ::setenv("PATH", (dir_.string() + ":/usr/bin:/bin").c_str(), 1);
  const Availability a = likwid_perfctr_status();
  EXPECT_FALSE(a.available);
  EXPECT_NE(a.reason.find("exited with 1"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("ERROR - [fixture] Unsupported processor"), std::string::npos)
      << a.reason;
  EXPECT_EQ(a.reason.find("CPU name"), std::string::npos) << a.reason;  // only ERROR lines
}

TEST(LikwidMarker, ActiveOnlyUnderLikwidPerfctrM) {
  for (const char* v : {"LIKWID_FILEPATH", "LIKWID_EVENTS", "LIKWID_THREADS", "LIKWID_MODE"})
    ::unsetenv(v);
  EXPECT_FALSE(likwid_marker_active());
  ::setenv("LIKWID_FILEPATH", "/tmp/x", 1);
  ::setenv("LIKWID_EVENTS", "FLOPS_DP", 1);
  ::setenv("LIKWID_THREADS", "0", 1);
  EXPECT_FALSE(likwid_marker_active());  // likwid-perfctr sets all four
  ::setenv("LIKWID_MODE", "1", 1);
  EXPECT_TRUE(likwid_marker_active());
  for (const char* v : {"LIKWID_FILEPATH", "LIKWID_EVENTS", "LIKWID_THREADS", "LIKWID_MODE"})
    ::unsetenv(v);
}

TEST(LikwidMarker, RegionNamesKeepOnlySafeCharacters) {
  EXPECT_EQ(likwid_region_name("gemm/cpu.naive/f64/m=64,n=64,k=64/layout=NN/threads=1"),
            "gemm_cpu.naive_f64_m=64_n=64_k=64_layout=NN_threads=1");
  EXPECT_EQ(likwid_region_name("a b\tc<d>"), "a_b_c_d_");
}

}  // namespace
}  // namespace ridgeline
