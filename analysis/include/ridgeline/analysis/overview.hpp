#pragma once
// What a reader needs in the first ten seconds (#66), in the spirit of Nsight Compute's
// "speed of light" section and Advisor's summary: the machine's roofs, the best kernel of each
// op and dtype with its share of its roof, our kernels against the best vendor's (the biggest
// gaps first), what needs attention, and fusion's wins. Computed once from the placements and
// the analyses over them; the HTML, Markdown and terminal reports and the dashboard's opening
// view only print it.
#include <cstddef>
#include <string>
#include <vector>

#include "ridgeline/analysis/fusion.hpp"
#include "ridgeline/analysis/roofline.hpp"
#include "ridgeline/core/machine_model.hpp"
#include "ridgeline/core/run.hpp"

namespace ridgeline {

// One roof of the machine: a dtype's peak on one unit, or a memory level's bandwidth, at the
// most threads it was measured with.
struct OverviewRoof {
  Device device = Device::cpu;
  std::string what;  // the dtype ("bf16") or the level ("DRAM")
  std::string unit;  // the compute unit's display name; "" for a level
  int threads = 1;
  double per_second = 0;         // FLOP/s (OP/s for integer dot products) or B/s
  std::string rate_unit;         // "FLOP/s", "OP/s" or "B/s"
  std::string instructions;      // the ISA that reached it ("avx512_bf16", "amx")
  std::string theoretical_note;  // measured over theoretical, where the design table has it
};

struct OverviewMachine {
  bool known = false;  // a machine model placed the run
  std::string cpu;     // "Intel(R) Xeon(R) Processor, family 6 model 207 (0xcf), 2 cores"
  std::string clock;   // "2.10 GHz measured"
  std::vector<std::string> gpus;
  std::vector<OverviewRoof> compute, memory;
  std::string absent;  // why there are no roofs ("no machine model: ...")
};

// The fastest case of one op and dtype (not above its roof), with its share of its roof.
struct OverviewBest {
  std::string op, dtype;
  Device device = Device::cpu;
  std::size_t placement = 0;  // the best case
  std::size_t cases = 0;      // placed cases of this op and dtype
  double achieved = 0;        // FLOP/s
  double efficiency = 0;      // of its roof; 0 where it has none
  std::string bound;          // "compute", "DRAM", "" without a roof
};

// Our fastest kernel on one problem against the fastest vendor library on the same problem.
struct OverviewGap {
  std::string problem;               // "gemm f32 m=512,n=512,k=512, 2 threads"
  std::size_t ours = 0, vendor = 0;  // placements
  double ratio = 0;                  // ours / vendor rate: below 1 the vendor is faster
};

enum class ConcernKind {
  above_roof,     // a point above its roof: bytes or FLOPs undercounted, or a ceiling too low
  failed,         // validation failed, crashed, timed out or errored
  not_placeable,  // ran but could not be placed
  noisy,          // its timing was disturbed
  throttled,      // a GPU held down its clocks
  collector_off,  // a collector the run asked for did not run
};
std::string_view to_string(ConcernKind kind);

// One kind of problem and every case (or collector) it affects.
struct OverviewConcern {
  ConcernKind kind = ConcernKind::noisy;
  std::vector<std::string> what;  // the cases' names, compact_case_names (collectors: names)
  std::vector<std::size_t> placements;
  std::string why;  // the first case's reason, in words
};

// A fusion pair in one line: how much faster the fused kernel is, and the bytes it saves.
struct OverviewFusion {
  std::size_t pair = 0;  // index into FusionAnalysis::pairs
  std::string what;      // "softmax f32 rows=4096,cols=4096, 1 thread, cpu.avx512"
  double speedup = 0;    // unfused / fused time
  double byte_ratio = 0;
  double bytes_saved = 0;  // per call, analytic
};

struct Overview {
  OverviewMachine machine;
  std::vector<OverviewBest> best;         // by op, then dtype, in run order
  std::vector<OverviewGap> gaps;          // smallest ratio first
  std::vector<OverviewConcern> concerns;  // in ConcernKind's order; none: nothing to look at
  std::vector<OverviewFusion> fusion;     // largest speedup first
};

Overview make_overview(const std::vector<RooflinePlacement>& placements,
                       const MachineModel* machine, const FusionAnalysis& fusion,
                       const RunContext& context);

// "gemm/cpu.naive/f32/m=512,n=512,k=512/layout=NN/pattern=normal/threads=1" in few words:
// the kernel, and only the parts of its name that vary among `names` (a table's rows), so
// that a table of one op at one size reads "cpu.naive 1t". The full name stays in the
// tooltip and the CSV.
std::vector<std::string> compact_case_names(const std::vector<std::string>& names);

}  // namespace ridgeline
