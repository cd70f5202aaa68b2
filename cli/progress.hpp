#pragma once
// The progress of `ridgeline run` on stderr. On a terminal: a result line per finished case
// and, below them, one status line (count, elapsed, estimated time left, the case running)
// that always fits the terminal's width, so it never wraps and redraws cleanly. Elsewhere:
// the result lines alone. Either way a closing line gives totals and wall time.
#include <chrono>
#include <cstddef>
#include <string>

namespace ridgeline::cli {

// "gemm/cpu.pa…/threads=1": `text` cut from the middle to at most `width` characters.
std::string shorten_middle(const std::string& text, std::size_t width);

// Columns of the terminal on stderr (TIOCGWINSZ, else $COLUMNS, else 80).
std::size_t terminal_columns();

// "42 s", "3 min 05 s", "1 h 02 min".
std::string duration_text(double seconds);

class Progress {
 public:
  Progress(std::size_t total, bool terminal);
  void started(std::size_t index, const std::string& name);
  // `outcome`: what to print after the name ("  12.3 GFLOP/s  passed"), colours allowed.
  void finished(std::size_t index, const std::string& name, const std::string& outcome);
  // The last line: `summary` and the wall time since construction.
  void close(const std::string& summary);
  double elapsed_seconds() const;

 private:
  std::string status_line(std::size_t index, const std::string& name) const;
  std::size_t total_;
  bool terminal_;
  std::size_t done_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace ridgeline::cli
