#include "ridgeline/cluster/collective_watch.hpp"

#include <utility>

namespace ridgeline::cluster {

namespace {
// A stopped job's rank that is still inside the call this long after the signal is held
// there (a call that was about to return has returned by then).
constexpr std::chrono::milliseconds kHeldAfterStop{100};
constexpr std::chrono::milliseconds kPoll{50};
}  // namespace

CollectiveWatch::CollectiveWatch(double limit_s, const std::atomic<bool>& stopped, EndRank end_rank)
    : limit_(limit_s),
      stopped_(stopped),
      end_rank_(std::move(end_rank)),
      thread_([this] { watch(); }) {}

CollectiveWatch::~CollectiveWatch() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void CollectiveWatch::entered(const CaseSpec& spec) {
  std::lock_guard lock(mutex_);
  current_ = spec;
  since_ = std::chrono::steady_clock::now();
  stopped_since_.reset();
}

void CollectiveWatch::left() {
  std::lock_guard lock(mutex_);
  current_.reset();
}

void CollectiveWatch::watch() {
  std::unique_lock lock(mutex_);
  while (!closing_) {
    wake_.wait_for(lock, kPoll);
    if (closing_ || !current_) continue;
    const auto now = std::chrono::steady_clock::now();
    const bool timed_out = now - since_ > limit_;
    if (!timed_out && stopped_.load() && !stopped_since_) stopped_since_ = now;
    if (timed_out || (stopped_since_ && now - *stopped_since_ > kHeldAfterStop)) {
      const CaseSpec held_in = *std::exchange(current_, std::nullopt);
      end_rank_(held_in, timed_out);
    }
  }
}

}  // namespace ridgeline::cluster
