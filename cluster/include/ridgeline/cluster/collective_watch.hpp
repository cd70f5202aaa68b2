#pragma once
// A collective case's ranks wait inside each call for every other rank: one that hangs, dies
// or left a call part-way holds them there, where neither the case time limit (collective
// cases run in the rank's own process, not a child it could kill) nor a launcher's SIGTERM
// (a flag the plan reads between cases) reaches them. A thread of the rank's own watches the
// collective case in progress and ends the rank from outside the call: past the case time
// limit, or once the job is being stopped while the call does not return.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

#include "ridgeline/runner/case_spec.hpp"

namespace ridgeline::cluster {

class CollectiveWatch {
 public:
  // Called on the watching thread, once per case, where the rank is held: `timed_out` past
  // the limit, else stopped (`stopped` set: SIGINT or SIGTERM) while still inside the case. It
  // may end the process; where it returns, the case is not watched further.
  using EndRank = std::function<void(const CaseSpec& held_in, bool timed_out)>;
  CollectiveWatch(double limit_s, const std::atomic<bool>& stopped, EndRank end_rank);
  ~CollectiveWatch();
  CollectiveWatch(const CollectiveWatch&) = delete;
  CollectiveWatch& operator=(const CollectiveWatch&) = delete;

  void entered(const CaseSpec& spec);  // a collective case began at this rank
  void left();                         // it ended here

 private:
  void watch();

  std::mutex mutex_;
  std::condition_variable wake_;
  bool closing_ = false;
  std::optional<CaseSpec> current_;  // the collective case in progress, while watched
  std::chrono::steady_clock::time_point since_;
  std::optional<std::chrono::steady_clock::time_point> stopped_since_;
  std::chrono::duration<double> limit_;
  const std::atomic<bool>& stopped_;
  EndRank end_rank_;
  std::thread thread_;  // last: started once everything it reads is
};

}  // namespace ridgeline::cluster
