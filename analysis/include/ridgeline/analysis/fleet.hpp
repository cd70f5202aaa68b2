#pragma once
// Which node of a fleet is out of family (`ridgeline fleet`): each node's repetitions of each
// case against every other node's, pooled (RankPool: Mann–Whitney U, and the Hodges–Lehmann
// shift of the logarithms as a ratio with its interval), Holm's correction over nodes × cases,
// an equivalence margin as `compare` has; and each node's probed ceilings against the fleet's
// median. docs/cluster.md, "ridgeline fleet", is the contract.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ridgeline/analysis/run_comparison.hpp"
#include "ridgeline/core/machine_model.hpp"

namespace ridgeline {

struct FleetSettings {
  double margin = 0.02;          // a case within ±margin of the rest is the same
  double alpha = 0.05;           // family-wise, over every node × case tested (Holm)
  double ceiling_margin = 0.10;  // a probed ceiling this far from the fleet's median is out
  bool by_rank = false;          // members are ranks, not hosts (one host's GPUs or sockets)
};

// One member's part of the input: its cases as `compare` places them, and its machine.
struct FleetCaseSamples {
  CaseKey key;
  std::string name;
  std::vector<double> seconds;  // per call, one per timed repetition
  std::string bound;            // "compute", a memory level, ...; "" without a machine model
  bool passed = true;           // validated (or a foreign result, never validated)
};
struct FleetMember {
  std::string name;                  // the host (or "rank 3" with by_rank)
  std::vector<std::string> sources;  // the files it came from
  int ranks = 1;                     // processes whose repetitions it pools
  std::optional<MachineModel> machine;
  std::vector<FleetCaseSamples> cases;
};

enum class FleetVerdict {
  slower,        // significant after Holm, and the whole interval above 1 + margin
  faster,        // significant, the whole interval below 1 - margin
  same,          // the interval within ±margin
  inconclusive,  // anything else
  untested,      // the node lacks the case, failed it, or has no rest to be tested against
};
std::string_view to_string(FleetVerdict verdict);

struct FleetCell {  // one node's one case, against the other nodes pooled
  FleetVerdict verdict = FleetVerdict::untested;
  double ratio = 0, low = 0, high = 0;  // node over the rest, time per call; 0 where untested
  double confidence = 0;
  double p = 1, p_holm = 1;
  int repetitions = 0;  // this member's
  int rest = 0;         // the other members' pooled
  std::string reason;   // for untested: why
  // Untested because this member did not pass it (incorrect, crashed, timed out) where
  // another member did: a wrong answer on one node is out of family before any timing.
  bool failed = false;
};

struct FleetCase {
  CaseKey key;
  std::string name;
  std::string bound;          // the most common among the nodes' placements; "" unknown
  double median_seconds = 0;  // over every node's repetitions
  int nodes = 0;              // nodes that ran and passed it
};

struct FleetCeiling {
  std::string name;  // "DRAM copy, 2 threads", "f64.avx2.fma, 2 threads"
  std::string unit;  // "B/s", "FLOP/s"
  double median = 0;
  int nodes = 0;
};

struct FleetNode {
  std::string name;
  std::vector<std::string> sources;
  int ranks = 1;
  std::vector<FleetCell> cells;  // one per Fleet::cases, in that order
  std::vector<double> ceilings;  // value over the fleet's median, per Fleet::ceilings; 0: none
  int slower = 0, faster = 0, same = 0, inconclusive = 0, untested = 0;
  int failed = 0;  // of the untested: cells failed here where another member passed them
  std::vector<std::size_t> ceilings_out;  // beyond the ceiling margin
  // How far out: the largest |log ratio| of its slower and faster cases and its ceilings out.
  double departure = 0;
  bool out_of_family = false;
  std::string summary;  // one line, "3 of 60 cases slower: DRAM-bound 3 of 20 (+8 … +12%); ..."
};

struct Fleet {
  FleetSettings settings;
  std::string member_kind = "node";  // "node" or "rank"
  std::vector<FleetCase> cases;
  std::vector<FleetCeiling> ceilings;
  std::vector<FleetNode> nodes;  // out of family first, the farthest first; then by name
  std::vector<std::string> notes;
  int tested = 0;  // Holm's family: node × case tests
  int out_of_family = 0;
  // Too few repetitions for any test to pass Holm's level (`notes` says how few): no member
  // could have been found out of family by its timings, so none passed that test either.
  bool underpowered = false;
};

Fleet analyse_fleet(const std::vector<FleetMember>& members, const FleetSettings& settings);

// Each file (a Run, a merged Run from `mpirun ridgeline run`, a journal, Google Benchmark
// JSON) read row by row and split by the host (or rank) each row names; a row naming none
// belongs to its file's host. A host met in several files pools them (said in `notes`).
std::vector<FleetMember> read_fleet_members(const std::vector<std::filesystem::path>& files,
                                            bool by_rank, std::vector<std::string>& notes);

}  // namespace ridgeline
