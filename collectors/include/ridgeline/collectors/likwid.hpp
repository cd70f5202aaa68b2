#pragma once
// LIKWID, two ways. The `likwid` collector counts a LIKWID group or event string through
// the in-process perfmon API on the CPUs this process may run on. Marker regions let
// `likwid-perfctr -m` attribute its counts to each case: Ridgeline opens one region per
// case around the timed loop. Built with RIDGELINE_WITH_LIKWID; without it the collector
// says which flag enables it and the marker calls do nothing.
#include <string>
#include <vector>

#include "ridgeline/collectors/collector.hpp"

namespace ridgeline {

// `events`: a LIKWID group ("FLOPS_DP") or event string ("RETIRED_INSTRUCTIONS:PMC0");
// empty: not requested, the collector stays off without touching LIKWID.
std::unique_ptr<Collector> make_likwid_collector(const std::vector<std::string>& events);

// Whether `likwid-perfctr` is on PATH and measures on this CPU: available, or its error
// (absent; or the ERROR lines of `likwid-perfctr -C <cpu> -g CLOCK true`).
Availability likwid_perfctr_status();

// True when this process was started by `likwid-perfctr -m` (it sets LIKWID_FILEPATH,
// LIKWID_EVENTS, LIKWID_THREADS and LIKWID_MODE for the marker API).
bool likwid_marker_active();
// The region name of a case: LIKWID writes tags into a whitespace-separated file, so every
// character outside [A-Za-z0-9_.=-] becomes '_'.
std::string likwid_region_name(const std::string& case_name);
void likwid_marker_init();  // once, before the first region
// Starts/stops `region` on each of `threads` OpenMP threads (LIKWID counts per thread).
void likwid_marker_start(const std::string& region, int threads);
void likwid_marker_stop(const std::string& region, int threads);
void likwid_marker_close();  // writes LIKWID_FILEPATH for likwid-perfctr to read

}  // namespace ridgeline
