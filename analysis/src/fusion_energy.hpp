#pragma once
// Energy per call of the cases of a fusion pair (fusion_pairs.cpp uses it).
#include <map>
#include <string>

#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// Case (run name) -> energy domain ("gpu", "package-0") -> joules per call, over every timed
// repetition of the case that read one.
using CaseEnergy = std::map<std::string, std::map<std::string, double>>;
CaseEnergy case_energy(const Run& run);

// Sets both sides' joules per call, the domain and the ratio where both sides read the
// same domain; leaves them 0 otherwise.
void set_energy(FusionPair& pair, const CaseEnergy& energy);

}  // namespace ridgeline
