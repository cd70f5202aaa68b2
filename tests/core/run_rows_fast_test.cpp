// read_run_file's fast path (simdjson, a chunk at a time) reads exactly what nlohmann's reader
// reads, and where it gives up the other reader names the error without a row handed on twice.
#include "run_rows_fast.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "ridgeline/core/error.hpp"
#include "ridgeline/core/json_file.hpp"
#include "ridgeline/core/run_json.hpp"
#include "scratch_dir.hpp"

namespace ridgeline {
namespace {

namespace fs = std::filesystem;

class RunRowsFast : public ScratchDirTest {
 protected:
  RunRowsFast() : ScratchDirTest("ridgeline_run_rows_") {}
  // Rows handed on, and the error's message ("" when none).
  std::pair<std::vector<CaseResult>, std::string> read(const fs::path& file) {
    std::vector<CaseResult> rows;
    try {
      read_run_file(file, [&](CaseResult&& r) { rows.push_back(std::move(r)); });
    } catch (const InputError& e) {
      return {rows, e.what()};
    }
    return {rows, ""};
  }
};

// nlohmann's reader alone: the whole document, then every row (keys given twice kept as
// read_run_file keeps them).
ridgeline::Run whole(const fs::path& file) {
  DuplicateKeys noted;
  return run_from_json(parse_json_file(file, nullptr, &noted), file.string());
}

// Rows as written (NaN, which Google Benchmark writes, is never equal to itself).
std::vector<std::string> written(const std::vector<CaseResult>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(to_json(r).dump());
  return out;
}

TEST_F(RunRowsFast, EveryFixtureReadsAsNlohmannsReaderReadsIt) {
  // Ours (rows before the context) and Google Benchmark's (context first), every version.
  for (const auto& entry : fs::directory_iterator(RIDGELINE_FIXTURES)) {
    const fs::path& file = entry.path();
    if (file.extension() != ".json" || file.filename().string().rfind("machine", 0) == 0) continue;
    SCOPED_TRACE(file.string());
    const ridgeline::Run expected = whole(file);
    const auto [rows, error] = read(file);
    EXPECT_EQ(error, "");
    EXPECT_EQ(written(rows), written(expected.benchmarks));
    EXPECT_EQ(read_run_file(file).context.host_name, expected.context.host_name);
  }
}

std::string row(const std::string& name, const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "run_name": ")" + name +
         R"(", "run_type": "iteration", "iterations": 10, "real_time": 1.5, "cpu_time": 1.5,
            "time_unit": "ms", "flops": 3)" +
         extra + "}";
}

TEST_F(RunRowsFast, WhatItGivesUpOnIsReadByTheOtherReaderWithNoRowTwice) {
  const std::string context = R"("context": {"date": "today", "host_name": "h"})";
  // Read by the other reader, all rows once: Google Benchmark's NaN, an escaped key, a
  // duplicate key (the first kept, and noted).
  for (const std::string& middle :
       {row("b", R"(, "x": NaN)"), row("b", R"(, "k\u0065y": 2)"), row("b", R"(, "flops": 4)")}) {
    const fs::path f = write("ok.json", "{\"benchmarks\": [" + row("a") + ", " + middle + ", " +
                                            row("c") + "], " + context + "}");
    SCOPED_TRACE(middle);
    const auto [rows, error] = read(f);
    EXPECT_EQ(error, "");
    EXPECT_EQ(written(rows), written(whole(f).benchmarks));
    ASSERT_EQ(rows.size(), 3u);
    const bool twice = middle.find(R"("flops": 4)") != std::string::npos;
    if (twice) {
      EXPECT_EQ(rows[1].counters.at("flops"), 3);
    }
    const auto notes = read_run_file(f).notes;
    ASSERT_EQ(notes.size(), twice ? 1u : 0u);
    if (twice) {
      EXPECT_EQ(notes[0].rfind(f.string() + ": a key is given again in the same object "
                                            "(benchmarks[1].flops): the first value is read",
                               0),
                0u)
          << notes[0];
    }
  }
  // An error in the third row: the first two handed on once, the message nlohmann's reader's.
  for (const std::string& bad :
       {row("c", R"(, "threads": "two")"), row("c", R"(, "real_time": 1e999)"), row("c", "x")}) {
    const fs::path f = write("bad.json", "{\"benchmarks\": [" + row("a") + ", " + row("b") + ", " +
                                             bad + "], " + context + "}");
    SCOPED_TRACE(bad);
    const auto [rows, error] = read(f);
    EXPECT_EQ(rows.size(), 2u);
    std::string expected;
    try {
      whole(f);
    } catch (const InputError& e) {
      expected = e.what();
    }
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(error, expected);
  }
}

TEST_F(RunRowsFast, NestingBeyondTheBoundIsRefusedWhereverItIs) {
  // In a row (simdjson's own bound is lower: the other reader decides), in the context, at
  // the top level: one line naming the file, where, and the depth; no row handed on twice.
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  const std::string context = R"("context": {"date": "today"})";
  for (const std::string& text :
       {"{\"benchmarks\": [" + row("a") + ", " + row("b", ", \"deep\": " + deep) + "], " + context +
            "}",
        "{\"benchmarks\": [" + row("a") + "], \"context\": {\"deep\": " + deep + "}}",
        "{\"benchmarks\": [" + row("a") + "], " + context + ", \"deep\": " + deep + "}"}) {
    const fs::path f = write("deep.json", text);
    const auto [rows, error] = read(f);
    EXPECT_LE(rows.size(), 1u);
    EXPECT_EQ(error.rfind(f.string() + ": ", 0), 0u) << error;
    EXPECT_NE(error.find("deep[0][0]"), std::string::npos) << error;
    EXPECT_NE(error.find("nested more than 128 deep"), std::string::npos) << error;
  }
  // Below the bound, and deeper than simdjson's: read, as the other reader reads it.
  const std::string fine = std::string(100, '[') + std::string(100, ']');
  const fs::path f = write(
      "fine.json", "{\"benchmarks\": [" + row("a", ", \"deep\": " + fine) + "], " + context + "}");
  const auto [rows, error] = read(f);
  EXPECT_EQ(error, "");
  EXPECT_EQ(rows.size(), 1u);
}

TEST_F(RunRowsFast, QuotesBackslashesAndBracketsInsideStringsAreText) {
  const fs::path f =
      write("escapes.json", "{\"context\": {\"host_name\": \"h \\\"}\\\\\"}, \"benchmarks\": [" +
                                row("a", R"(, "label": "x \"] } [ {\\", "error_message": "\\")") +
                                ", " + row("b]", R"(, "label": "\\\"")") + "]}");
  const auto [rows, error] = read(f);
  EXPECT_EQ(error, "");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(written(rows), written(whole(f).benchmarks));
  EXPECT_EQ(rows[1].name, "b]");
  EXPECT_EQ(read_run_file(f).context.host_name, "h \"}\\");
}

TEST_F(RunRowsFast, ARowAcrossTheReadersChunksIsReadWhole) {
  // Rows of 2 KiB across the 4 MiB chunks the file is read in.
  std::string text = "{\"benchmarks\": [";
  const std::string label = R"(, "label": ")" + std::string(2000, 'p') + "\"";
  for (int i = 0; i < 3000; ++i) {
    if (i > 0) text += ", ";
    std::string name = "r";
    name += std::to_string(i);
    text += row(name, label);
  }
  text += R"(], "context": {}})";
  const fs::path f = write("big.json", text);
  const auto [rows, error] = read(f);
  EXPECT_EQ(error, "");
  ASSERT_EQ(rows.size(), 3000u);
  EXPECT_EQ(written(rows), written(whole(f).benchmarks));
}

TEST_F(RunRowsFast, OursAndGoogleBenchmarksStrictFilesAreReadByTheFastPathItself) {
  if (!detail::fast_run_reader_built()) GTEST_SKIP() << "built without simdjson";
  const auto fast = [](const fs::path& file) {
    std::size_t delivered = 0;
    const bool read = detail::read_run_rows_fast(
                          file, file.string(), [](CaseResult&&) {}, delivered)
                          .has_value();
    return std::pair{read, delivered};
  };
  for (const char* name : {"run-smoke-f64-zen4-vm.json", "run-fusion-small-zen5-vm.json",
                           "gbench-1.9.5-aggregates-only.json", "gbench-foreign.json"}) {
    const fs::path file = fs::path(RIDGELINE_FIXTURES) / name;
    const auto [read, delivered] = fast(file);
    EXPECT_TRUE(read) << name;
    EXPECT_EQ(delivered, whole(file).benchmarks.size()) << name;
  }
  const std::string context = R"("context": {})";
  EXPECT_TRUE(fast(write("esc.json", "{\"benchmarks\": [" + row("a", R"(, "label": "\"]")") +
                                         "], " + context + "}"))
                  .first);
  // Google Benchmark's NaN, a key given twice (in a row or the context) and a row the field
  // reader refuses: left to the other reader, the rows before handed on.
  EXPECT_EQ(fast(write("nan.json", "{\"benchmarks\": [" + row("a") + ", " +
                                       row("b", R"(, "x": NaN)") + "], " + context + "}")),
            std::pair(false, std::size_t{1}));
  EXPECT_EQ(fast(write("twice.json", "{\"benchmarks\": [" + row("a") + ", " +
                                         row("b", R"(, "flops": 4)") + "], " + context + "}")),
            std::pair(false, std::size_t{1}));
  EXPECT_EQ(fast(write("context.json", "{\"benchmarks\": [" + row("a") +
                                           R"(], "context": {"date": "a", "date": "b"}})")),
            std::pair(false, std::size_t{1}));
  EXPECT_EQ(fast(write("bad.json", "{\"benchmarks\": [" + row("a") + ", " +
                                       row("b", R"(, "threads": "2")") + "], " + context + "}")),
            std::pair(false, std::size_t{1}));
}

}  // namespace
}  // namespace ridgeline
