#pragma once
// Ridgeline under an MPI launcher (mpirun, srun): this process's place in the job and the
// few collective steps a run needs. Without a launcher nothing here is used, and MPI is
// never initialised (a singleton Open MPI process would start its own daemon).
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ridgeline::cluster {

// One process of an MPI job: its rank, and where it runs.
struct RankPlace {
  int rank = 0, ranks = 1;
  int local_rank = 0, local_ranks = 1;  // among the ranks on its host
  int node = 0, nodes = 1;              // its host's index, hosts numbered in rank order
  std::string host;
  bool operator==(const RankPlace&) const = default;
};

using EnvironmentLookup = char* (*)(const char*);  // std::getenv's type

// The launcher that started this process, from the variables it sets ("Open MPI's mpirun",
// "PMIx", "PMI (srun)"); "" when none did.
std::string mpi_launcher(EnvironmentLookup lookup = &std::getenv);

// This process's rank as its launcher numbered it, known before MPI starts (0 without a
// launcher): every rank is given the same command line, so rank 0 alone says what is wrong
// with it.
int launcher_rank(EnvironmentLookup lookup = &std::getenv);

// Why this build cannot join an MPI job; "" where it can.
std::string mpi_off_reason();

// MPI for the life of the object (the main thread alone calls it): initialised and the
// place learnt in the constructor, finalised in the destructor. Throws where the build has
// no MPI. Every rank must make the same calls in the same order.
class RankWorld {
 public:
  RankWorld();
  ~RankWorld();
  RankWorld(const RankWorld&) = delete;
  RankWorld& operator=(const RankWorld&) = delete;

  const RankPlace& place() const { return place_; }
  // Every rank's text, at every rank in rank order.
  std::vector<std::string> all_gather(const std::string& mine) const;
  // This rank finished a step of its work (a case; the machine model before its plan): rank
  // 0, waiting for the ranks' texts at the end (gather_at_root), hears it. Never waits; at
  // rank 0 it takes in what the others told it so far.
  void tell_progress() const;
  // How long rank 0 waits at the end for a rank that says nothing, counted from when it
  // began to wait: `after_word_s` after the rank's last word (a text or a tell_progress),
  // `before_first_word_s` where it has said nothing since the run began.
  struct Silence {
    double after_word_s = 1e300, before_first_word_s = 1e300;
  };
  // Every rank's text, at rank 0 in rank order (empty at the other ranks), each sent on its
  // own, so that a rank that never sends keeps none of the others' from rank 0: its entry is
  // nullopt once it has been silent past `silence`, and the wait ends when every rank has
  // sent or fallen silent. nullopt when `stop` says so first (a rank that died never sends,
  // and MPI does not say so: the launcher ends the job instead, and `stop` sees its signal).
  std::optional<std::vector<std::optional<std::string>>> gather_at_root(
      const std::string& mine, const std::function<bool()>& stop, Silence silence) const;
  // Returns once every rank on this host has called it; a rank waiting sleeps between polls
  // (MPI_Barrier would spin on a CPU the host's probe is measuring).
  void host_barrier() const;
  // The largest of the ranks' values, at every rank.
  int max_over_ranks(int value) const;

 private:
  struct Mpi;
  std::unique_ptr<Mpi> mpi_;
  RankPlace place_;
};

}  // namespace ridgeline::cluster
