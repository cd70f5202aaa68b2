#pragma once
// Independent pieces of work (files to read, cases to test) on as many threads at once as
// there are CPUs.
#include <cstddef>
#include <exception>
#include <functional>
#include <vector>

namespace ridgeline {

// Calls work(i) once for each i in [0, count), side by side; what work(i) throws is kept at
// [i] of the result (nullptr where it returned), so the caller rethrows in its own order.
std::vector<std::exception_ptr> side_by_side(std::size_t count,
                                             const std::function<void(std::size_t)>& work);

}  // namespace ridgeline
