#pragma once
// Times each pass of an unfused chain inside the timed call (report: which pass of an
// eager chain loses). The kernel owns a PassClock and holds a PassClock::Lap scope around
// its run(); the passes, templates compiled once per ISA, mark their ends with pass_done()
// instead of taking a clock through every signature. One clock read per pass: passes run
// for milliseconds, a read costs tens of nanoseconds.
#include <chrono>
#include <cstdint>
#include <vector>

namespace ridgeline {

class PassClock {
 public:
  // Seconds per pass summed over the calls since the last reset().
  void reset();
  const std::vector<double>& seconds() const { return seconds_; }
  std::int64_t calls() const { return calls_; }

  // Active on the calling thread for one call: pass_done() on this thread laps it.
  class Lap {
   public:
    explicit Lap(PassClock& clock);
    ~Lap();
    Lap(const Lap&) = delete;
    Lap& operator=(const Lap&) = delete;

   private:
    PassClock* previous_;
  };

 private:
  friend void pass_done();
  using Clock = std::chrono::steady_clock;
  std::vector<double> seconds_;
  std::int64_t calls_ = 0;
  std::size_t pass_ = 0;
  Clock::time_point last_;
};

// The current pass of the calling thread's active clock has ended; nothing without one.
void pass_done();

}  // namespace ridgeline
