#include "report_writer.hpp"

#include <fmt/format.h>

#include "ridgeline/core/atomic_file.hpp"
#include "ridgeline/core/error.hpp"

namespace ridgeline::cli {

ReportFormat report_format_of(const std::filesystem::path& path,
                              std::optional<ReportFormat> forced) {
  if (forced) return *forced;
  if (auto format = report_format_for(path)) return *format;
  throw InputError(fmt::format(
      "-o {}: unknown report format '{}' (name it .html, .md or .csv, or give --format)",
      path.string(), path.extension().string()));
}

void write_report(const ReportInput& input, const std::filesystem::path& path,
                  std::optional<ReportFormat> forced) {
  const ReportFormat format = report_format_of(path, forced);
  switch (format) {
    case ReportFormat::html:
      write_file_atomically(path, html_report(input));
      break;
    case ReportFormat::markdown:
      write_file_atomically(path, markdown_report(input));
      break;
    case ReportFormat::csv:
      write_file_atomically(path, csv_report(input));
      break;
  }
}

}  // namespace ridgeline::cli
