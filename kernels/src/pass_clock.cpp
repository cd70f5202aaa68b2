#include "ridgeline/kernels/pass_clock.hpp"

namespace ridgeline {

namespace {
thread_local PassClock* active = nullptr;
}  // namespace

void PassClock::reset() {
  seconds_.clear();
  calls_ = 0;
}

PassClock::Lap::Lap(PassClock& clock) : previous_(active) {
  active = &clock;
  clock.pass_ = 0;
  ++clock.calls_;
  clock.last_ = Clock::now();
}

PassClock::Lap::~Lap() {
  active = previous_;
}

void pass_done() {
  PassClock* c = active;
  if (!c) return;
  const auto now = PassClock::Clock::now();
  if (c->seconds_.size() <= c->pass_) c->seconds_.resize(c->pass_ + 1, 0.0);
  c->seconds_[c->pass_++] += std::chrono::duration<double>(now - c->last_).count();
  c->last_ = now;
}

}  // namespace ridgeline
