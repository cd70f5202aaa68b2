#pragma once
// What the dashboard's window tests share: the recorded run they open, and reading and
// writing the run files they make from it in temporary folders.
#include <gtest/gtest.h>

#include <QFile>
#include <QString>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace ridgeline::gui::test_files {

inline const QString kRun = QString(RIDGELINE_FIXTURES) + "/run-smoke-f64-zen4-vm.json";

inline nlohmann::json recorded_run() {
  std::ifstream in(kRun.toStdString());
  return nlohmann::json::parse(in);
}

inline void write(const QString& path, const nlohmann::json& run) {
  std::ofstream(path.toStdString()) << run.dump();
}

inline std::string read(const QString& path) {
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << path.toStdString();
  return f.readAll().toStdString();
}

}  // namespace ridgeline::gui::test_files
