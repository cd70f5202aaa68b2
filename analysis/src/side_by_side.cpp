#include "ridgeline/analysis/side_by_side.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace ridgeline {

std::vector<std::exception_ptr> side_by_side(std::size_t count,
                                             const std::function<void(std::size_t)>& work) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (std::size_t i; (i = next++) < count;) try {
        work(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
  };
  const std::size_t threads =
      std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> team;
  for (std::size_t t = 1; t < threads; ++t) team.emplace_back(worker);
  worker();
  for (auto& t : team) t.join();
  return errors;
}

}  // namespace ridgeline
