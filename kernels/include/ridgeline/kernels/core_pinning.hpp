#pragma once
// The probe's measuring threads placed the way likwid-bench places its own: thread t of a
// parallel region on the first hardware thread of the t-th core this thread may run on.
// Unpinned, a one-thread L3 read on the Zen 5 VM ran at 119-125 GB/s on CPU 0 and 106-108
// on CPU 1, whichever the scheduler chose (docs/roofline.md).
#include <string>

namespace ridgeline {

// The CPUs the calling thread may run on (its affinity mask, as `nproc` counts them; at
// least 1): under `taskset -c 0` one, where std::thread::hardware_concurrency says every
// online CPU and a "2-thread" ceiling would be two threads on one CPU.
int usable_cpus();

// Binds the calling thread while it lives and gives the thread its earlier CPU set back when
// it ends, so later parallel regions and forked cases inherit nothing. Where it cannot bind
// (fewer cores than the index, hwloc unable to bind), the thread stays where it was and
// reason() says why.
class CorePinning {
 public:
  explicit CorePinning(int thread_index);
  ~CorePinning();
  CorePinning(const CorePinning&) = delete;
  CorePinning& operator=(const CorePinning&) = delete;

  int cpu() const { return cpu_; }  // the OS index of the CPU bound to; -1 where not bound
  const std::string& reason() const { return reason_; }

 private:
  void* saved_ = nullptr;  // the thread's CPU set before (an hwloc bitmap)
  int cpu_ = -1;
  std::string reason_;
};

}  // namespace ridgeline
