#include "ridgeline/core/run_json.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/op.hpp"
#include "ridgeline/core/ops/gemm.hpp"
#include "scratch_dir.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

namespace {

Run sample_run() {
  Run run;
  run.context.date = "2026-11-21T10:00:00+00:00";
  run.context.host_name = "host";
  run.context.executable = "/usr/bin/ridgeline";
  run.context.num_cpus = 2;
  run.context.mhz_per_cpu = 3630;
  run.context.caches = {{"Data", 1, 32768, 1}, {"Unified", 2, 1048576, 1}};
  run.context.load_avg = {0.5, 0.25, 0.125};
  run.context.has_ridgeline = true;
  run.context.version = "0.1.0";
  run.context.cpu_model = "AMD EPYC";
  run.context.isa = {"avx2", "avx512f"};
  run.context.collectors = {{"timer", true, "", "trusted", "wall_time on a 100 ms spin", false},
                            {"papi", false, "no PMU", "", "", true}};
  run.context.machine_load = MachineLoad{12.5, 3.25, 0.5, 2, 4.1e9, 4.0e9};
  CaseResult r;
  r.name = "gemm/cpu.naive/f32/m=4,n=5,k=6/layout=NT/pattern=uniform/threads=1";
  r.run_name = r.name;
  r.repetitions = 3;
  r.repetition_index = 1;
  r.iterations = 12;
  r.real_time = 1.5;
  r.cpu_time = 1.25;
  r.counters = {{"flops", 1e9}, {"bytes_per_second", 2e8}};
  CaseDetails d;
  d.backend = "cpu.naive";
  d.problem = gemm_problem({4, 5, 6, 1}, Layout::NT, DType::f32, "uniform");
  d.threads = 1;
  d.work = op_work(d.problem);
  d.metrics = {{"flops", 240, "FLOP", MetricSource::analytic},
               {"time_per_iteration", 1e-3, "s", MetricSource::timed}};
  d.validation = {Disposition::passed, 1e-7, 1e-6, "direct", ""};
  d.kernel_notes = {{"isa", "scalar"}};
  r.ridgeline = d;
  CaseResult agg = r;
  agg.name += "_median";
  agg.run_type = "aggregate";
  agg.aggregate_name = "median";
  agg.aggregate_unit = "time";
  agg.repetition_index = 0;
  CaseResult crashed = r;
  crashed.error_occurred = true;
  crashed.error_message = "crashed: killed by SIGSEGV";
  crashed.real_time = crashed.cpu_time = 0;
  crashed.iterations = 0;
  crashed.counters.clear();
  crashed.ridgeline->validation = {Disposition::crashed, 0, 0, "", "killed by SIGSEGV"};
  run.benchmarks = {r, agg, crashed};
  return run;
}

class RunFiles : public ScratchDirTest {
 protected:
  RunFiles() : ScratchDirTest("ridgeline_json_") {}
  // The error message of reading `text` as a Run file.
  std::string error_of(const std::string& text, const std::string& name = "bad.json") {
    fs::path p = write(name, text);
    try {
      read_run_file(p);
    } catch (const InputError& e) {
      std::string msg = e.what();
      EXPECT_EQ(msg.rfind(p.string() + ": ", 0), 0u) << "message must start with the file: " << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
      return msg;
    }
    ADD_FAILURE() << "no error for: " << text;
    return "";
  }
};

nlohmann::json sample_json() {
  return to_json(sample_run());
}

}  // namespace

TEST_F(RunFiles, RoundTripPreservesEverything) {
  ridgeline::Run run = sample_run();
  fs::path p = dir_ / "run.json";
  write_run_file(p, run);
  EXPECT_EQ(read_run_file(p), run);
}

TEST_F(RunFiles, TheFpEnvironmentIsWrittenWhenNotIeeeAndReadBack) {
  ridgeline::Run run = sample_run();
  run.benchmarks[0].ridgeline->fp_env = FpEnv::ftz_daz;
  fs::path p = dir_ / "run.json";
  write_run_file(p, run);
  EXPECT_EQ(read_run_file(p), run);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(p));
  EXPECT_EQ(j["benchmarks"][0]["ridgeline"]["fp_env"], "ftz_daz");
  EXPECT_FALSE(j["benchmarks"][1]["ridgeline"].contains("fp_env"));  // ieee: the default

  nlohmann::json bad = sample_json();
  bad["benchmarks"][0]["ridgeline"]["fp_env"] = "flush";
  EXPECT_NE(error_of(bad.dump()).find("benchmarks[0].ridgeline.fp_env: unknown value 'flush'"),
            std::string::npos)
      << error_of(bad.dump());
}

// A work model's bytes are keyed by typed levels and written in their JSON spelling; a level
// a file names that the vocabulary does not spell ("DRAM" is no work model's word) is kept as
// named and written back.
TEST_F(RunFiles, WorkBytesAreTypedAndAnUnknownLevelIsKeptAsNamed) {
  const nlohmann::json j = sample_json();
  EXPECT_EQ(j["benchmarks"][0]["ridgeline"]["work"]["bytes"],
            nlohmann::json::parse(R"({"dram": 296.0})"));
  nlohmann::json foreign = j;
  foreign["benchmarks"][0]["ridgeline"]["work"]["bytes"] =
      nlohmann::json::parse(R"({"DRAM": 1.0, "network": 2.0, "L7": 3.0, "dram": 4.0})");
  const fs::path p = write("foreign.json", foreign.dump());
  const ridgeline::Run run = read_run_file(p);
  const WorkModel& w = run.benchmarks[0].ridgeline->work;
  EXPECT_EQ(w.bytes,
            (std::map<MemoryLevel, double>{{MemoryLevel::main, 4.0}, {MemoryLevel::network, 2.0}}));
  EXPECT_EQ(w.unknown_bytes, (std::map<std::string, double>{{"DRAM", 1.0}, {"L7", 3.0}}));
  EXPECT_EQ(to_json(run)["benchmarks"][0]["ridgeline"]["work"]["bytes"],
            foreign["benchmarks"][0]["ridgeline"]["work"]["bytes"]);
}

TEST_F(RunFiles, AColdCacheIsWrittenAndReadBackAndWarmIsTheDefault) {
  ridgeline::Run run = sample_run();
  run.benchmarks[0].ridgeline->cache = CacheState::cold;
  fs::path p = dir_ / "run.json";
  write_run_file(p, run);
  EXPECT_EQ(read_run_file(p), run);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(p));
  EXPECT_EQ(j["benchmarks"][0]["ridgeline"]["cache"], "cold");
  EXPECT_FALSE(j["benchmarks"][1]["ridgeline"].contains("cache"));  // warm: runs before it
  nlohmann::json bad = sample_json();
  bad["benchmarks"][0]["ridgeline"]["cache"] = "hot";
  EXPECT_NE(error_of(bad.dump()).find("benchmarks[0].ridgeline.cache: unknown value 'hot'"),
            std::string::npos)
      << error_of(bad.dump());
}

// An einsum case carries its kernel's lowering (kind and steps); one written before the field
// is read with them inferred from its backend's name and notes, as those builds spelled them.
TEST_F(RunFiles, AnEinsumCasesLoweringIsWrittenAndReadBackAndInferredInOlderRuns) {
  ridgeline::Run run = sample_run();
  CaseDetails& d = *run.benchmarks[0].ridgeline;
  d.backend = "cpu.ttgt";
  d.problem.op = "einsum";
  d.problem.params = parse_params(op_definition("einsum"),
                                  R"(equation="bthr,bThr->bhtT"/extents="b=2,t=4,h=3,r=5,T=4")");
  d.work = op_work(d.problem);
  d.kernel_notes = {{"A", "permuted bthr -> bhtr"},
                    {"B", "permuted bThr -> bhrT"},
                    {"C", "used as stored"},
                    {"gemm", "6 products of 4x4x5: ..."}};
  d.lowering = Lowering{LoweringKind::ttgt,
                        {{StepKind::permute, "A", "permute_A"},
                         {StepKind::permute, "B", "permute_B"},
                         {StepKind::gemm, "gemm", "gemm"}}};
  fs::path p = dir_ / "run.json";
  write_run_file(p, run);
  EXPECT_EQ(read_run_file(p), run);
  nlohmann::json j = nlohmann::json::parse(std::ifstream(p));
  const nlohmann::json& lowering = j["benchmarks"][0]["ridgeline"]["lowering"];
  EXPECT_EQ(lowering["kind"], "ttgt");
  EXPECT_EQ(lowering["steps"][1],
            (nlohmann::json{{"kind", "permute"}, {"note", "B"}, {"pass", "permute_B"}}));
  EXPECT_FALSE(j["benchmarks"][1]["ridgeline"].contains("lowering"));  // gemm: no lowering

  j["benchmarks"][0]["ridgeline"].erase("lowering");  // as runs before the field
  const fs::path older = write("older.json", j.dump());
  EXPECT_EQ(read_run_file(older).benchmarks[0].ridgeline->lowering, d.lowering);

  nlohmann::json bad = sample_json();
  bad["benchmarks"][0]["ridgeline"]["lowering"] = {{"kind", "cpu.ttgt"},
                                                   {"steps", nlohmann::json::array()}};
  EXPECT_NE(error_of(bad.dump()).find("benchmarks[0].ridgeline.lowering.kind: unknown value"),
            std::string::npos)
      << error_of(bad.dump());
}

TEST_F(RunFiles, ARunUnderMpiKeepsEachResultsRankAndHostAndEachRanksPlace) {
  ridgeline::Run run = sample_run();
  run.benchmarks[0].ridgeline->origin = RankOrigin{0, "node-a"};
  run.benchmarks[1].ridgeline->origin = RankOrigin{3, "node-b"};
  MachineModel node_b;
  node_b.fingerprint = "node-b";
  node_b.cores = 4;
  node_b.memory.push_back({});
  node_b.memory.back().level = "DRAM";
  node_b.memory.back().kernel = "copy";
  node_b.memory.back().bytes_per_s = 20e9;
  run.context.ranks = {{0, "node-a", 0, 0, {0, 1}, "finished", std::nullopt, {0, 1}},
                       {3, "node-b", 1, 0, {2}, "died: killed by SIGKILL", node_b}};
  fs::path p = dir_ / "run.json";
  write_run_file(p, run);
  EXPECT_EQ(read_run_file(p), run);
  const nlohmann::json j = nlohmann::json::parse(std::ifstream(p));
  EXPECT_EQ(j["benchmarks"][1]["ridgeline"]["rank"], 3);
  EXPECT_EQ(j["benchmarks"][1]["ridgeline"]["host"], "node-b");
  EXPECT_FALSE(j["benchmarks"][2]["ridgeline"].contains("rank"));  // one process: none
  EXPECT_EQ(j["context"]["ridgeline"]["ranks"][1]["outcome"], "died: killed by SIGKILL");
  EXPECT_EQ(j["context"]["ridgeline"]["ranks"][0]["gpus"], nlohmann::json::array({0, 1}));
  EXPECT_FALSE(j["context"]["ridgeline"]["ranks"][1].contains("gpus"));  // none given
  nlohmann::json bad = sample_json();
  bad["benchmarks"][0]["ridgeline"]["rank"] = -1;
  bad["benchmarks"][0]["ridgeline"]["host"] = "h";
  EXPECT_NE(error_of(bad.dump()).find("benchmarks[0].ridgeline.rank: must be a rank"),
            std::string::npos)
      << error_of(bad.dump());
}

TEST_F(RunFiles, WritesGoogleBenchmarkShape) {
  nlohmann::json j = sample_json();
  EXPECT_EQ(j["context"]["json_schema_version"], 1);
  const auto& b = j["benchmarks"][0];
  for (const char* key :
       {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads", "iterations",
        "real_time", "cpu_time", "time_unit", "family_index", "per_family_instance_index"})
    EXPECT_TRUE(b.contains(key)) << key;
  EXPECT_EQ(b["flops"], 1e9) << "counters are top-level keys, as Google Benchmark writes them";
  EXPECT_EQ(j["benchmarks"][1]["aggregate_name"], "median");
  EXPECT_EQ(j["benchmarks"][2]["error_occurred"], true);
  EXPECT_EQ(b["ridgeline"]["metrics"][1]["source"], "timed");
}

TEST_F(RunFiles, ReadsForeignGoogleBenchmarkOutput) {
  fs::path p = write("gbench.json", R"({
    "context": {"date": "x", "host_name": "h", "num_cpus": 8, "mhz_per_cpu": 3000,
                "caches": [], "library_build_type": "release"},
    "benchmarks": [{"name": "BM_x/8", "run_name": "BM_x/8", "run_type": "iteration",
                    "repetitions": 1, "repetition_index": 0, "threads": 1, "iterations": 100,
                    "real_time": 12.5, "cpu_time": 12.4, "time_unit": "ns", "items_per_second": 5.0}]})");
  ridgeline::Run run = read_run_file(p);
  EXPECT_FALSE(run.context.has_ridgeline);
  ASSERT_EQ(run.benchmarks.size(), 1u);
  EXPECT_FALSE(run.benchmarks[0].ridgeline);
  EXPECT_EQ(run.benchmarks[0].counters.at("items_per_second"), 5.0);
}

TEST_F(RunFiles, TruncatedFileSaysSo) {
  std::string text = sample_json().dump(2);
  EXPECT_NE(error_of(text.substr(0, text.size() / 2)).find("truncated"), std::string::npos);
}

TEST_F(RunFiles, NotJsonSaysSo) {
  EXPECT_NE(error_of("benchmarks: []").find("not valid JSON"), std::string::npos);
}

TEST_F(RunFiles, OtherSchemaVersionNamesTheField) {
  nlohmann::json j = sample_json();
  j["context"]["ridgeline"]["schema"] = 99;
  std::string msg = error_of(j.dump());
  EXPECT_NE(msg.find("context.ridgeline.schema"), std::string::npos) << msg;
  EXPECT_NE(msg.find("99"), std::string::npos) << msg;
}

// Runs written before the op model (schema 1: gemm only, "shape" and "layout") still read,
// into the gemm op's params, and their errors still name the field.
TEST_F(RunFiles, SchemaOneRunsReadIntoTheGemmParams) {
  nlohmann::json j = sample_json();
  j["context"]["ridgeline"]["schema"] = 1;
  for (auto& b : j["benchmarks"]) {
    b["ridgeline"].erase("params");
    b["ridgeline"]["shape"] = {{"m", 4}, {"n", 5}, {"k", 6}, {"batch", 1}};
    b["ridgeline"]["layout"] = "NT";
  }
  const ridgeline::Run run = run_from_json(j, "old.json");
  EXPECT_EQ(run.context.schema, 1);
  const Problem& p = run.benchmarks.at(0).ridgeline->problem;
  EXPECT_EQ(p.op, "gemm");
  EXPECT_EQ(gemm_shape(p), (Shape{4, 5, 6, 1}));
  EXPECT_EQ(gemm_layout(p), Layout::NT);
  EXPECT_EQ(to_json(run)["context"]["ridgeline"]["schema"], kRunSchemaVersion);

  j["benchmarks"][0]["ridgeline"]["shape"]["m"] = -3;
  EXPECT_NE(error_of(j.dump()).find("benchmarks[0].ridgeline.shape.m: must be positive"),
            std::string::npos);
  j["context"]["ridgeline"]["schema"] = 4;
  EXPECT_NE(error_of(j.dump()).find("schema version 4 is not supported (this build reads 1 to 3)"),
            std::string::npos);
}

TEST_F(RunFiles, WrongShapeNamesTheField) {
  nlohmann::json j = sample_json();
  j["benchmarks"][1]["ridgeline"]["dtype"] = "f8";
  EXPECT_NE(error_of(j.dump()).find("benchmarks[1].ridgeline.dtype: unknown value 'f8'"),
            std::string::npos);

  j = sample_json();
  j["benchmarks"][0]["real_time"] = "fast";
  EXPECT_NE(error_of(j.dump()).find("benchmarks[0].real_time: expected a number, got string"),
            std::string::npos);

  j = sample_json();
  j["benchmarks"][0]["ridgeline"]["params"]["dims"].erase("k");
  EXPECT_NE(
      error_of(j.dump()).find("benchmarks[0].ridgeline.params: gemm: dimension 'k' is missing"),
      std::string::npos)
      << error_of(j.dump());

  j = sample_json();
  j["benchmarks"][0]["ridgeline"]["params"]["dims"]["m"] = -3;
  EXPECT_NE(error_of(j.dump()).find(
                "benchmarks[0].ridgeline.params: gemm: m=-3 is below its minimum of 1"),
            std::string::npos);

  j = sample_json();
  j["benchmarks"][0]["ridgeline"]["params"]["attrs"]["layout"] = "XY";
  EXPECT_NE(error_of(j.dump()).find(
                "benchmarks[0].ridgeline.params: gemm: layout=XY is not one of NN, NT, TN, TT"),
            std::string::npos);

  j = sample_json();
  j["benchmarks"][0]["ridgeline"]["op"] = "conv";
  EXPECT_NE(error_of(j.dump()).find("benchmarks[0].ridgeline.op: unknown op 'conv'"),
            std::string::npos);

  j = sample_json();
  j["benchmarks"][0]["ridgeline"]["metrics"][0]["source"] = "guessed";
  EXPECT_NE(
      error_of(j.dump()).find("benchmarks[0].ridgeline.metrics[0].source: unknown value 'guessed'"),
      std::string::npos);

  EXPECT_NE(error_of("[1, 2]").find("(top level): expected an object"), std::string::npos);
  EXPECT_NE(error_of(R"({"context": {}})").find("benchmarks: missing"), std::string::npos);
}

TEST_F(RunFiles, SkippedAndPercentageAggregatesRoundTrip) {
  ridgeline::Run run = sample_run();
  CaseResult cv = run.benchmarks[1];
  cv.name = cv.run_name + "_cv";
  cv.aggregate_name = "cv";
  cv.aggregate_unit = "percentage";
  cv.real_time = 0.1286;  // a plain fraction, as Google Benchmark writes it
  CaseResult skipped = run.benchmarks[0];
  skipped.skipped = true;
  skipped.skip_message = "needs AVX-512 VNNI";
  run.benchmarks = {cv, skipped};
  run.context.library_version = "v1.9.5";
  const nlohmann::json j = to_json(run);
  EXPECT_EQ(j["benchmarks"][0]["aggregate_unit"], "percentage");
  EXPECT_EQ(j["benchmarks"][0]["real_time"], 0.1286);
  EXPECT_EQ(j["benchmarks"][1]["skip_message"], "needs AVX-512 VNNI");
  fs::path p = dir_ / "run.json";
  write_run_file(p, run);
  EXPECT_EQ(read_run_file(p), run);
}

TEST_F(RunFiles, ReadsAJournalAndLeavesOutALastLineCutByAKill) {
  const ridgeline::Run run = sample_run();
  std::string text;
  for (const auto& r : run.benchmarks) text += to_json(r).dump() + "\n";
  const std::string next = to_json(run.benchmarks[0]).dump();
  fs::path whole = write("run.jsonl", text);
  ridgeline::Run read = read_run_file(whole);
  EXPECT_EQ(read.benchmarks, run.benchmarks);
  ASSERT_EQ(read.notes.size(), 1u);
  EXPECT_NE(read.notes[0].find("journal"), std::string::npos) << read.notes[0];

  fs::path cut = write("killed.jsonl", text + next.substr(0, next.size() / 2));
  read = read_run_file(cut);
  EXPECT_EQ(read.benchmarks, run.benchmarks);
  ASSERT_EQ(read.notes.size(), 2u);
  EXPECT_NE(read.notes[0].find("line 4: the last line was cut short"), std::string::npos)
      << read.notes[0];

  // Known by its content too: a journal copied to another name.
  EXPECT_EQ(read_run_file(write("copy.json", text)).benchmarks, run.benchmarks);

  // A bad line that is not the last, or a last line that was ended, is an error.
  std::string msg = error_of(text + "{\"name\": 3}\n", "bad.jsonl");
  EXPECT_NE(msg.find("bad.jsonl: line 4: name: expected a string"), std::string::npos) << msg;
  msg = error_of(next.substr(0, 20) + "\n" + text, "bad.jsonl");
  EXPECT_NE(msg.find("bad.jsonl: line 1: "), std::string::npos) << msg;
}

TEST_F(RunFiles, ACounterNamedLikeGoogleBenchmarksOwnFieldIsNotedAndTheFieldKept) {
  // Real Google Benchmark 1.7.1 output: user counters "iterations" (7) and "real_time" (42)
  // written after its own fields, in 2 repetitions and 4 aggregates.
  const fs::path file = fs::path(RIDGELINE_FIXTURES) / "gbench-1.7.1-counter-clash.json";
  const ridgeline::Run run = read_run_file(file);
  ASSERT_EQ(run.benchmarks.size(), 6u);
  int repetitions = 0;
  for (const auto& r : run.benchmarks) {
    if (r.run_type != "iteration") continue;
    ++repetitions;
    EXPECT_GT(r.iterations, 1000) << "Google Benchmark's own count, not the counter's 7";
    EXPECT_LT(r.real_time, 1000) << "its own time in ns, not the counter's 42";
    EXPECT_GT(r.real_time, 0);
    EXPECT_TRUE(r.counters.count("flops"));
  }
  EXPECT_EQ(repetitions, 2);
  ASSERT_EQ(run.notes.size(), 1u);
  EXPECT_EQ(run.notes[0].rfind(file.string() +
                                   ": 12 keys are given again in the same object "
                                   "(benchmarks[0].iterations, benchmarks[0].real_time, "
                                   "benchmarks[1].iterations and 9 more): the first value is read",
                               0),
            0u)
      << run.notes[0];

  // A journal's lines are named.
  std::string line = to_json(sample_run().benchmarks[0]).dump();
  line.insert(line.size() - 1, R"(, "name": "again")");
  const ridgeline::Run journal = read_run_file(
      write("twice.jsonl", to_json(sample_run().benchmarks[1]).dump() + "\n" + line + "\n"));
  EXPECT_EQ(journal.benchmarks[1].name, sample_run().benchmarks[0].name);
  ASSERT_EQ(journal.notes.size(), 2u);
  EXPECT_NE(journal.notes[0].find(": a key is given again in the same object (line 2: name)"),
            std::string::npos)
      << journal.notes[0];
}

TEST_F(RunFiles, MissingFileNamesIt) {
  try {
    read_run_file(dir_ / "nope.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.json: cannot open"), std::string::npos);
  }
}

}  // namespace ridgeline
