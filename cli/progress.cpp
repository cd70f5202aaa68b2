#include "progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

#include "ridgeline/core/visible_text.hpp"
#include "ridgeline/reports/columns.hpp"

namespace ridgeline::cli {

std::string shorten_middle(const std::string& text, std::size_t width) {
  if (visible_width(text) <= width) return text;
  if (width < 2) return std::string(width, '.');
  // Case names are ASCII; cut by bytes, keeping the head and the tail ("…" is 3 bytes).
  const std::size_t keep = width - 1, head = (keep + 1) / 2, tail = keep - head;
  return text.substr(0, head) + "\u2026" + text.substr(text.size() - tail);
}

std::size_t terminal_columns() {
  winsize w{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
  if (const char* c = std::getenv("COLUMNS"); c && std::atoi(c) > 0)
    return static_cast<std::size_t>(std::atoi(c));
  return 80;
}

std::string duration_text(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
}

Progress::Progress(std::size_t total, bool terminal) : total_(total), terminal_(terminal) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string Progress::status_line(std::size_t index, const std::string& name) const {
  const double elapsed = elapsed_seconds();
  // The mean time of the cases done so far, times the cases left (this one included).
  const std::string eta = done_ > 0 ? ", about " +
                                          duration_text(elapsed / static_cast<double>(done_) *
                                                        static_cast<double>(total_ - done_)) +
                                          " left"
                                    : "";
  const std::string head =
      fmt::format("[{}/{}] {}{}  ", index + 1, total_, duration_text(elapsed), eta);
  const std::size_t columns = terminal_columns();
  const std::size_t room = columns > head.size() + 1 ? columns - head.size() - 1 : 0;
  return shorten_middle(head + shorten_middle(escape_visible(name), room), columns - 1);
}

void Progress::started(std::size_t index, const std::string& name) {
  if (terminal_) fmt::print(stderr, "\r\033[K{}", status_line(index, name));
}

void Progress::finished(std::size_t index, const std::string& name, const std::string& outcome) {
  ++done_;
  const std::string head = fmt::format("[{}/{}] ", index + 1, total_);
  std::string shown = escape_visible(name);  // a user library's name is in it
  if (terminal_) {
    const std::size_t columns = terminal_columns();
    const std::size_t used = head.size() + visible_width(outcome) + 1;
    shown = shorten_middle(shown, columns > used ? columns - used : 8);
  }
  fmt::print(stderr, "{}{}{}{}\n", terminal_ ? "\r\033[K" : "", head, shown, outcome);
}

void Progress::close(const std::string& summary) {
  fmt::print(stderr, "{}{} in {}\n", terminal_ ? "\r\033[K" : "", summary,
             duration_text(elapsed_seconds()));
}

}  // namespace ridgeline::cli
