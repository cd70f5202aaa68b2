#pragma once
#include <filesystem>
#include <optional>

#include "ridgeline/reports/report.hpp"

namespace ridgeline::cli {

// The format of report file `path`: `forced` when given (--format), else its extension's;
// an unknown one is an InputError.
ReportFormat report_format_of(const std::filesystem::path& path,
                              std::optional<ReportFormat> forced = std::nullopt);

// Writes the report in that format. Atomic, like every file Ridgeline writes (a device or
// pipe is written through).
void write_report(const ReportInput& input, const std::filesystem::path& path,
                  std::optional<ReportFormat> forced = std::nullopt);

}  // namespace ridgeline::cli
