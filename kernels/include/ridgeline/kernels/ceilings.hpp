#pragma once
// Microbenchmarks that measure the machine's ceilings: the core clock, peak arithmetic
// throughput per instruction class, bandwidth per memory level. Each returns what it
// timed; the probe (runner/) assembles them into a MachineModel.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ridgeline/kernels/cpu_features.hpp"

namespace ridgeline {

struct CpuIdentity {
  std::string vendor;  // "AuthenticAMD", "GenuineIntel"; AArch64: "ARM" for MIDR implementer
                       // 0x41, else the implementer's name or its number ("0x61")
  int family = 0;      // display family (AArch64: 0)
  int model = 0;       // display model (AArch64: MIDR's part number, 0xd4f for Neoverse V2)
  // AArch64's MIDR_EL1 fields besides (/proc/cpuinfo's "CPU implementer", "CPU variant",
  // "CPU revision"); -1 on x86.
  int implementer = -1;
  int variant = -1;
  int revision = -1;
  // Features that name a core design where the family and model are a hypervisor's (the
  // AMX VM reports model 0xA7, a desktop part's number, for a server core).
  bool amx_bf16 = false;
  bool avx512_fp16 = false;
};
CpuIdentity cpu_identity();
// The same from /proc/cpuinfo's or lscpu's text (the vendor, family, model and flags of the
// first CPU; on Arm its MIDR fields, or lscpu's vendor and part names): for the recordings of
// other machines.
CpuIdentity cpu_identity_from_text(const std::string& text);

// Core clock of one thread: a chain of dependent integer register adds (one cycle each on
// every x86 core of the last decade and every Neoverse core) timed with the steady clock; the
// fastest of `trials`.
double measure_clock_hz(int trials = 9);

// An instruction class whose peak throughput the probe measures.
struct PeakSpec {
  std::string name;   // "f64.avx512.fma"
  std::string dtype;  // "f64", "f32", "bf16", "i8"
  std::string isa;    // "scalar", "avx2", "avx512", "avx512_bf16", "avx512_vnni", "avx512_fp16",
                      // "amx_bf16", "amx_int8"
  std::string unit;   // "FLOP/s" or "OP/s"
  double ops_per_instruction;
  // "" where this CPU and process can run it, else why not (the CPUID bit, the kernel's
  // refusal): an absent ceiling is recorded with this reason, never silently left out.
  std::string (*absent)(const CpuFeatures&);
  // Runs `iterations` iterations of independent instruction chains, returns a checksum.
  double (*run)(std::int64_t iterations);
  int instructions_per_iteration;
  // How it was measured, where the name does not say (the tile loops' pattern); may be null.
  std::string (*method)() = nullptr;
};
const std::vector<PeakSpec>& peak_specs();

// The core clock on `threads` threads at once (each runs the add chain for about 1.5 ms):
// the fastest thread's, in Hz.
double measure_clock_on_threads(int threads);

struct PeakMeasurement {
  double per_second = 0;  // operations per second, the best trial
  double clock_hz = 0;    // the clock measured right around that trial (the faster side)
};
// Operations per second with `threads` threads each running the chains, best of `trials`
// runs of about `seconds` each, with the clock around the best run.
PeakMeasurement measure_peak(const PeakSpec& spec, int threads, double seconds, int trials = 3);

// Operations per cycle per core this core's design can issue for `spec`, from the table of
// known designs (kernels/src/ceilings/core_designs.cpp, each row citing its vendor guide);
// nullopt with `why` set when the design or class is not in the table.
std::optional<double> design_ops_per_cycle(const CpuIdentity& cpu, const PeakSpec& spec,
                                           std::string& why);
// The design's name ("AMD Zen 5"; for one known by its features, the name says so), "" when
// it is not in the table.
std::string core_design_name(const CpuIdentity& cpu);

// Bandwidth kernels, counting bytes as STREAM and likwid-bench do: every array element
// loaded or stored once per sweep, no write-allocate traffic.
enum class StreamKernel { read, write, copy, triad };
std::string to_string(StreamKernel kernel);
int streams_of(StreamKernel kernel);  // arrays touched: 1, 1, 2, 4
const std::vector<StreamKernel>& stream_kernels();

// Instruction widths the bandwidth loops come in. The widest is not always the fastest:
// on a Zen 4 core scalar loops stream more bytes per second from DRAM at one thread than
// 512-bit ones, so a bandwidth ceiling is the best over the widths and names the one that
// gave it.
enum class StreamIsa { scalar, avx2, avx512, neon, sve };
std::string to_string(StreamIsa isa);
std::vector<StreamIsa> stream_isas(const CpuFeatures& cpu);  // the widths this CPU runs

struct BandwidthMeasurement {
  std::vector<std::pair<StreamIsa, double>> per_isa;  // bytes per second, best of the trials
  StreamIsa best_isa = StreamIsa::scalar;
  double best = 0;  // bytes per second
};

// The arrays the bandwidth loops stream. Each thread has one mapping, first touched by
// itself, in which its streams lie back to back, each starting `s` x 17 cache lines past a
// page boundary, as likwid-bench allocates them: streams in mappings of their own sit a
// reservation apart (hundreds of MiB, a power of two), and on Zen 3 and Zen 4 a copy between
// two such arrays fell to L2 speed from 8-12 KiB, where likwid-bench's stays at the L1 rate to
// 28 KiB (the two lines of each element collide in the L1's way predictor, which hashes only
// the lower address bits). Kept across measurements, a sweep over growing working sets faults
// in each page once (in a VM a 4 KiB fault costs about 3 us: 256 MiB take 0.8 s).
// `reserve_bytes` per thread are mapped up front (all its streams together), so growing
// within them never re-maps; beyond them a thread's mapping is re-made at the next power of
// two. Untouched pages are not resident.
class StreamArrays {
 public:
  explicit StreamArrays(int threads, std::int64_t reserve_bytes = 0);
  ~StreamArrays();
  StreamArrays(const StreamArrays&) = delete;
  StreamArrays& operator=(const StreamArrays&) = delete;
  int threads() const { return threads_; }
  // The first `streams` (1-4) arrays of thread t, each of `elements` doubles (a multiple of
  // 64), touched; call from thread t.
  std::array<double*, 4> streams(int t, int streams, std::int64_t elements);

 private:
  struct Mapping {
    void* data = nullptr;  // page-aligned
    std::size_t bytes = 0;
    std::int64_t touched = 0;  // doubles from the start, first touched by the owner
  };
  int threads_;
  std::int64_t reserve_bytes_;
  std::vector<Mapping> mappings_;  // one per thread
};

// Bytes per second of `kernel` at each width in `isas`, over arrays that total
// `working_set_bytes` for all threads together (`arrays`' threads; every width streams the
// same pages). In each of `trials` rounds of about `seconds` the widths take turns, so a
// quiet or a noisy moment of the machine falls on all of them; each width keeps its best
// round. The form without `arrays` allocates its own.
BandwidthMeasurement measure_bandwidth(StreamKernel kernel, std::int64_t working_set_bytes,
                                       StreamArrays& arrays, const std::vector<StreamIsa>& isas,
                                       double seconds, int trials = 3);
BandwidthMeasurement measure_bandwidth(StreamKernel kernel, std::int64_t working_set_bytes,
                                       int threads, const std::vector<StreamIsa>& isas,
                                       double seconds, int trials = 3);

}  // namespace ridgeline
