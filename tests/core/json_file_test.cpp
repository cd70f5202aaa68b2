// The one JSON reader: what Google Benchmark writes beyond strict JSON, and errors that name
// the file and the field.
#include "ridgeline/core/json_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run_json.hpp"
#include "scratch_dir.hpp"

namespace ridgeline {

namespace fs = std::filesystem;

namespace {

std::string error_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "one line: " << msg;
    return msg;
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

std::string parse_error(const std::string& text) {
  return error_of([&] { parse_json_text(text, "in.json"); });
}

class JsonFiles : public ScratchDirTest {
 protected:
  JsonFiles() : ScratchDirTest("ridgeline_json_file_") {}
};

}  // namespace

TEST(JsonText, GoogleBenchmarksNonFiniteLiteralsAreNonFiniteNumbers) {
  const auto j = parse_json_text(
      R"({"a": NaN, "b": -NaN, "c": Infinity, "d": -Infinity, "e": [1.5, NaN],
          "s": "NaN and Infinity stay text", "f": 0e-0})",
      "in.json");
  EXPECT_TRUE(std::isnan(j["a"].get<double>()));
  EXPECT_TRUE(std::isnan(j["b"].get<double>()));
  EXPECT_EQ(j["c"].get<double>(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(j["d"].get<double>(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(j["e"][0].get<double>(), 1.5);
  EXPECT_TRUE(std::isnan(j["e"][1].get<double>()));
  EXPECT_EQ(j["s"], "NaN and Infinity stay text");
  EXPECT_EQ(j["f"].get<double>(), 0.0) << "a number spelled like the marker stays itself";
}

TEST(JsonText, RawControlCharactersInStringsAreKept) {
  const auto j = parse_json_text(
      "{\"name\": \"BM_a\x01"
      "b\x1f/c\\td\"}",
      "in.json");
  EXPECT_EQ(j["name"],
            "BM_a\x01"
            "b\x1f/c\td");
}

TEST(JsonText, ANumberTooLargeForADoubleNamesTheField) {
  EXPECT_EQ(parse_error(R"({"benchmarks": [{"name": "a"}, {"name": "b", "real_time": 1e999}]})"),
            "in.json: benchmarks[1].real_time: number 1e999 is too large for a double");
  EXPECT_EQ(parse_error("[1, -2e400]"), "in.json: [1]: number -2e400 is too large for a double");
  EXPECT_EQ(parse_error("1e999"), "in.json: (top level): number 1e999 is too large for a double");
}

TEST(JsonText, ErrorBytesAreThoseOfTheOriginalText) {
  // 'x' is byte 31 of the original; the rewritten NaN and control character before it
  // change the length of the text nlohmann reads.
  const std::string text = "{\"a\": NaN, \"b\": \"\x01\", \"c\": [1, x]}";
  EXPECT_EQ(parse_error(text), "in.json: not valid JSON at byte 31");
  EXPECT_EQ(parse_error(R"({"a": Infinity, "b": [1, 2)"),
            "in.json: unexpected end of file (truncated?) at byte 27");
}

TEST(JsonText, AStreamedArraysElementsGoToTheSinkInOrderAndErrorsNameThem) {
  std::vector<std::pair<std::size_t, nlohmann::json>> taken;
  const JsonArraySink sink{
      "rows", [&](nlohmann::json&& e, std::size_t i) { taken.emplace_back(i, std::move(e)); }};
  const auto j = parse_json_text(
      R"({"rows": [{"a": [1, {"b": 2}]}, 3, NaN, [4]], "other": [5, 6], "after": {"rows": [7]}})",
      "in.json", &sink);
  ASSERT_EQ(taken.size(), 4u);
  for (std::size_t i = 0; i < taken.size(); ++i) EXPECT_EQ(taken[i].first, i);
  EXPECT_EQ(taken[0].second, nlohmann::json::parse(R"({"a": [1, {"b": 2}]})"));
  EXPECT_EQ(taken[1].second, 3);
  EXPECT_TRUE(std::isnan(taken[2].second.get<double>()));
  EXPECT_EQ(taken[3].second, nlohmann::json::parse("[4]"));
  // The array stays, empty; nothing else is streamed (only the top level's key).
  EXPECT_EQ(j["rows"], nlohmann::json::array());
  EXPECT_EQ(j["other"], nlohmann::json::parse("[5, 6]"));
  EXPECT_EQ(j["after"]["rows"], nlohmann::json::parse("[7]"));
  // An error inside a streamed element names its index, as without the sink.
  EXPECT_EQ(error_of([&] {
              parse_json_text(R"({"rows": [{"x": 1}, {"x": 2}, {"x": 1e999}]})", "in.json", &sink);
            }),
            "in.json: rows[2].x: number 1e999 is too large for a double");
}

TEST(JsonText, AKeyGivenAgainKeepsItsFirstValueAndIsNotedOrRefused) {
  // Noted where the reader collects them: the first value kept at every depth, even where
  // the second is a container holding keys given twice of its own.
  DuplicateKeys d;
  const auto j = parse_json_text(
      R"({"rows": [{"x": 1, "x": {"y": 1, "y": 2}, "x": 3}], "a": {"b": [1], "b": [2], "c": 0},
          "d": 1, "d": 2, "e": 1, "e": 2})",
      "in.json", nullptr, &d);
  EXPECT_EQ(j, nlohmann::json::parse(R"({"rows": [{"x": 1}], "a": {"b": [1], "c": 0},
                                         "d": 1, "e": 1})"));
  EXPECT_EQ(d.count, 6u);
  EXPECT_EQ(d.first, (std::vector<std::string>{"rows[0].x", "rows[0].x.y", "rows[0].x"}));
  EXPECT_EQ(d.note("in.json"),
            "in.json: 6 keys are given again in the same object (rows[0].x, rows[0].x.y, "
            "rows[0].x and 3 more): the first value is read, as Google Benchmark writes its own "
            "fields before user counters and custom context of the same name");
  EXPECT_EQ(DuplicateKeys{}.note("in.json"), "");
  // Refused, naming the key, by a reader that takes no notes (a machine model, thresholds).
  EXPECT_EQ(parse_error(R"({"a": {"b": 1, "b": 2}})"),
            "in.json: a.b: key given twice in one object (which value is meant?)");
  // A streamed array's key twice would hand on both arrays: refused even where noted.
  const JsonArraySink sink{"rows", [](nlohmann::json&&, std::size_t) {}};
  EXPECT_EQ(error_of([&] {
              DuplicateKeys noted;
              parse_json_text(R"({"rows": [1], "rows": [2]})", "in.json", &sink, &noted);
            }),
            "in.json: rows: key given twice in one object (which value is meant?)");
}

TEST(JsonText, NestingDeeperThanTheBoundIsRefusedNamingWhereAndTheDepth) {
  // At the bound: read. One deeper, or ten million deeper (gigabytes before the bound):
  // one line naming the field and the depth.
  const auto nested = [](std::size_t depth) {
    return "{\"junk\": " + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
  };
  EXPECT_NO_THROW(parse_json_text(nested(kMaxJsonDepth), "in.json"));
  const std::string expected =
      "in.json: junk[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: arrays and "
      "objects nested more than 128 deep (Ridgeline's and Google Benchmark's documents nest "
      "fewer than 10)";
  EXPECT_EQ(parse_error(nested(kMaxJsonDepth + 1)), expected);
  EXPECT_EQ(parse_error("{\"junk\": " + std::string(10'000'000, '[')), expected);
  // Through the reader that rewrites Google Benchmark's NaN too.
  EXPECT_EQ(parse_error("{\"nan\": NaN, \"x\": [{\"y\": " + std::string(1000, '[')),
            "in.json: x[0].y[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]...: arrays and "
            "objects nested more than 128 deep (Ridgeline's and Google Benchmark's documents "
            "nest fewer than 10)");
}

TEST(JsonText, StrictTextIsParsedAsItIsWithTheSameErrors) {
  // Nothing to rewrite: byte positions are the text's own; a tab inside a string is a raw
  // control character and still read.
  EXPECT_EQ(parse_error(R"({"c": [1, x]})"), "in.json: not valid JSON at byte 11");
  EXPECT_EQ(parse_error("{\"a\": [1,\n 2"),
            "in.json: unexpected end of file (truncated?) at byte 13");
  EXPECT_EQ(parse_json_text("{\"a\":\n\"x\ty\"}", "in.json")["a"], "x\ty");
}

TEST_F(JsonFiles, ADirectorySaysSo) {
  EXPECT_EQ(error_of([&] { read_json_file(dir_); }),
            dir_.string() + ": is a directory, not a file");
  EXPECT_EQ(error_of([&] { read_run_file(dir_); }), dir_.string() + ": is a directory, not a file");
}

TEST_F(JsonFiles, OverflowInEveryKindOfInputNamesFileAndField) {
  const fs::path machine = write("machine.json", R"({"schema": 1, "fingerprint": "x",
      "cpu": {"model": "m", "cores": 2}, "compute": [{"name": "f64", "dtype": "f64",
      "per_second": 1e999, "threads": 1}]})");
  EXPECT_EQ(error_of([&] { read_machine_file(machine); }),
            machine.string() + ": compute[0].per_second: number 1e999 is too large for a double");
  const fs::path run = write("run.json", R"({"context": {}, "benchmarks": [
      {"name": "BM_x", "iterations": 1, "real_time": 1, "cpu_time": 1e999}]})");
  EXPECT_EQ(error_of([&] { read_run_file(run); }),
            run.string() + ": benchmarks[0].cpu_time: number 1e999 is too large for a double");
  const fs::path journal = write("run.jsonl",
                                 "{\"name\": \"a\", \"real_time\": 1, \"cpu_time\": 1}\n"
                                 "{\"name\": \"b\", \"real_time\": 1e999, \"cpu_time\": 1}\n");
  EXPECT_EQ(error_of([&] { read_run_file(journal); }),
            journal.string() + ": line 2: real_time: number 1e999 is too large for a double");
}

TEST_F(JsonFiles, RidgelineFieldsRefuseNonFiniteNumbers) {
  const fs::path machine = write("machine.json", R"({"schema": 1, "fingerprint": "x",
      "cpu": {"model": "m", "cores": 2}, "compute": [{"name": "f64", "dtype": "f64",
      "per_second": NaN, "threads": 1}]})");
  EXPECT_EQ(error_of([&] { read_machine_file(machine); }),
            machine.string() + ": compute[0].per_second: expected a finite number, got nan");
}

TEST_F(JsonFiles, GoogleBenchmarkConsoleAndCsvOutputSayWhatToDo) {
  for (const char* name : {"gbench-1.7.1-console.txt", "gbench-1.7.1.csv"}) {
    const fs::path p = fs::path(RIDGELINE_FIXTURES) / name;
    const std::string msg = error_of([&] { read_run_file(p); });
    EXPECT_EQ(msg.rfind(p.string() + ": not valid JSON at byte ", 0), 0u) << msg;
    EXPECT_NE(msg.find("--benchmark_out_format=json"), std::string::npos) << msg;
    EXPECT_NE(msg.find("--benchmark_format=json"), std::string::npos) << msg;
  }
  EXPECT_EQ(parse_error("not json").find("--benchmark"), std::string::npos)
      << "the hint only where the text is Google Benchmark's";
}

TEST_F(JsonFiles, AFileIsParsedAsItIsReadWithTheTextsErrors) {
  // From a regular file the text is streamed to the parser: the same documents and errors
  // as parsing it in memory, the byte counted from the file's start.
  for (const std::string text :
       {R"({"c": [1, x]})", "{\"a\": [1,\n 2", "", "[1, -2e400]",
        R"({"rows": [{"x": 1}, {"x": 1e999}]})", "name,iterations,real_time,cpu_time\n"}) {
    SCOPED_TRACE(text);
    const fs::path p = write("in.json", text);
    std::string from_text = parse_error(text);
    const std::string from_file = error_of([&] { read_json_file(p); });
    EXPECT_EQ(from_file, p.string() + from_text.substr(std::string("in.json").size()));
  }
  const fs::path ok = write("ok.json", R"({"a": [1, 2.5, "x\ty"], "b": {"c": null}})");
  EXPECT_EQ(read_json_file(ok),
            nlohmann::json::parse(R"({"a": [1, 2.5, "x\ty"], "b": {"c": null}})"));
}

TEST_F(JsonFiles, ALiteralAcrossTheReadersChunksIsStillRewritten) {
  // The scan for Google Benchmark's literals reads 1 MiB at a time; a NaN that starts in
  // one chunk and ends in the next sends the file to the rewriting reader all the same.
  for (const std::size_t cut : {std::size_t{1}, std::size_t{2}}) {
    std::string text = R"({"pad": ")";
    text += std::string((std::size_t{1} << 20) - cut - text.size() - 8, 'p');
    text += R"(", "x": NaN})";
    ASSERT_EQ(text.find("NaN"), (std::size_t{1} << 20) - cut);
    const auto j = read_json_file(write("split.json", text));
    EXPECT_TRUE(std::isnan(j["x"].get<double>())) << cut;
  }
}

TEST_F(JsonFiles, APipeIsReadWhole) {
  const fs::path fifo = dir_ / "pipe.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << R"({"benchmarks": [], "context": {}})"; });
  const ridgeline::Run run = read_run_file(fifo);
  writer.join();
  EXPECT_TRUE(run.benchmarks.empty());
}

}  // namespace ridgeline
