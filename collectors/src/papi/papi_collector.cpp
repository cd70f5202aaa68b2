#include <fmt/format.h>
#include <papi.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "ridgeline/collectors/papi.hpp"

namespace ridgeline {

namespace {

std::string papi_error(int code) {
  const char* text = PAPI_strerror(code);
  return fmt::format("{} ({})", code, text ? text : "unknown error");
}

// PAPI_library_init once per process; its result or the reason it failed.
const std::string& papi_init_error() {
  static std::string error;
  static std::once_flag once;
  std::call_once(once, [] {
    const int v = PAPI_library_init(PAPI_VER_CURRENT);
    if (v != PAPI_VER_CURRENT)
      error = v > 0
                  ? fmt::format(
                        "PAPI_library_init: library version {:#x} differs from the header's {:#x}",
                        v, PAPI_VER_CURRENT)
                  : "PAPI_library_init failed: " + papi_error(v);
  });
  return error;
}

class PapiCollector : public Collector {
 public:
  explicit PapiCollector(std::vector<std::string> events) : requested_(std::move(events)) {}
  ~PapiCollector() override {
    if (eventset_ != PAPI_NULL) {
      PAPI_cleanup_eventset(eventset_);
      PAPI_destroy_eventset(&eventset_);
    }
  }
  std::string name() const override { return "papi"; }

  Availability probe() override {
    open();
    if (!init_error_.empty()) return {false, init_error_};
    if (requested_.empty()) return {true, "no PAPI event requested (--collect papi:EVENT)"};
    if (added_.empty()) return {false, failures_};
    return {true, failures_};
  }

  std::vector<Uncounted> uncounted(const std::vector<std::string>& requested) override {
    probe();
    std::vector<Uncounted> out;
    for (const auto& e : requested) {
      if (e.empty() || std::find(added_.begin(), added_.end(), e) != added_.end()) continue;
      const auto why = event_failures_.find(e);
      out.push_back({e, !init_error_.empty()           ? init_error_
                        : why != event_failures_.end() ? why->second
                                                       : failures_});
    }
    return out;
  }

  // PAPI_start zeroes the counters itself: no PAPI_reset (one system call less per case).
  void start() override {
    if (added_.empty()) return;
    running_ = PAPI_start(eventset_) == PAPI_OK;
  }

  void stop() override {
    values_.assign(added_.size(), 0);
    if (running_ && PAPI_stop(eventset_, values_.data()) != PAPI_OK) values_.clear();
    running_ = false;
  }

  std::vector<Metric> read() override {
    std::vector<Metric> out;
    // Multiplexed counts are PAPI's estimates for the whole interval, marked like perf's.
    for (std::size_t i = 0; i < values_.size() && i < added_.size(); ++i)
      out.push_back({"papi." + added_[i] + (multiplexed_ ? ".scaled" : ""),
                     static_cast<double>(values_[i]), "events", MetricSource::counted});
    return out;
  }

 private:
  static std::string inherit_hint(int rc) {
    // PAPI's perf_event component checks inherit (and multiplex) by opening a hardware
    // instructions counter, so without a PMU the option fails even for software events.
    return rc == PAPI_ENOEVNT ? " (PAPI checks the option by opening a hardware instructions "
                                "counter, which fails without a PMU, e.g. in a VM)"
                              : "";
  }

  bool enable_multiplex() {
    static const int init = PAPI_multiplex_init();
    int rc = init;
    if (rc == PAPI_OK) rc = PAPI_set_multiplex(eventset_);
    if (rc != PAPI_OK) {
      failures_ +=
          (failures_.empty() ? "" : "; ") +
          ("PAPI_set_multiplex failed, events beyond the counters are left out: " + papi_error(rc) +
           inherit_hint(rc));
      return false;
    }
    multiplexed_ = true;
    failures_ += (failures_.empty() ? "" : "; ") +
                 std::string(
                     "multiplexed: more events than counters, counts are PAPI's scaled "
                     "estimates (papi.<event>.scaled)");
    return true;
  }

  void open() {
    if (opened_) return;
    opened_ = true;
    init_error_ = papi_init_error();
    if (!init_error_.empty() || requested_.empty()) return;
    if (int rc = PAPI_create_eventset(&eventset_); rc != PAPI_OK) {
      init_error_ = "PAPI_create_eventset failed: " + papi_error(rc);
      return;
    }
    // Threads started after this (OpenMP, BLAS pools) count too: the perf_event
    // component's inherit option, set on an event set bound to that component.
    PAPI_assign_eventset_component(eventset_, 0);
    PAPI_option_t opt{};
    opt.inherit.eventset = eventset_;
    opt.inherit.inherit = PAPI_INHERIT_ALL;
    if (int rc = PAPI_set_opt(PAPI_INHERIT, &opt); rc != PAPI_OK)
      failures_ = "PAPI_set_opt(PAPI_INHERIT) failed, threads started later are not counted: " +
                  papi_error(rc) + inherit_hint(rc);
    for (const auto& e : requested_) {
      int rc = PAPI_add_named_event(eventset_, e.c_str());
      // More events than counters: turn the set into a multiplexed one and try again; PAPI
      // then time-slices the counters and scales each count to the whole interval.
      if (rc == PAPI_ECNFLCT && !multiplexed_ && enable_multiplex())
        rc = PAPI_add_named_event(eventset_, e.c_str());
      if (rc == PAPI_OK) {
        added_.push_back(e);
        continue;
      }
      std::string why = fmt::format("PAPI_add_named_event({}) failed: {}", e, papi_error(rc));
      if (rc == PAPI_ENOEVNT)
        why +=
            ": the event does not exist here (presets need hardware counters, absent e.g. inside a "
            "VM)";
      else if (rc == PAPI_ECNFLCT)
        why += ": it conflicts with events already in the set (too few counters)";
      else if (rc == PAPI_EPERM)
        why += ": not permitted (kernel.perf_event_paranoid)";
      event_failures_[e] = why;
      failures_ += (failures_.empty() ? "" : "; ") + why;
    }
  }

  std::vector<std::string> requested_;
  std::vector<std::string> added_;
  std::map<std::string, std::string> event_failures_;  // event -> why it was not added
  std::vector<long long> values_;
  int eventset_ = PAPI_NULL;
  bool opened_ = false, running_ = false, multiplexed_ = false;
  std::string init_error_, failures_;
};

}  // namespace

std::vector<PapiComponent> papi_components(std::string& error) {
  std::vector<PapiComponent> out;
  error = papi_init_error();
  if (!error.empty()) return out;
  for (int i = 0; i < PAPI_num_components(); ++i) {
    const PAPI_component_info_t* info = PAPI_get_component_info(i);
    if (!info) continue;
    out.push_back({info->name, info->disabled != 0, info->disabled ? info->disabled_reason : ""});
  }
  return out;
}

std::unique_ptr<Collector> make_papi_collector(const std::vector<std::string>& events) {
  return std::make_unique<PapiCollector>(events);
}

}  // namespace ridgeline
