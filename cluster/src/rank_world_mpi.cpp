// RankWorld on MPI's C bindings (Open MPI 4.1 here; any MPI 3 library would do).
#include <fmt/format.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <stdexcept>

#include "ridgeline/cluster/rank_world.hpp"

namespace ridgeline::cluster {

namespace {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  std::array<char, MPI_MAX_ERROR_STRING> text{};
  int length = 0;
  MPI_Error_string(code, text.data(), &length);
  throw std::runtime_error(fmt::format("{} failed: {}", call, std::string(text.data(), length)));
}

std::string this_host() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

// Each rank's offset in the gathered bytes; their total.
std::size_t offsets_of(const std::vector<int>& lengths, std::vector<int>& offsets) {
  long long total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    offsets[i] = static_cast<int>(total);
    total += lengths[i];
  }
  if (total > 2147483647LL)
    throw std::runtime_error("the ranks' results exceed 2 GiB: too large for one gather");
  return static_cast<std::size_t>(total);
}

std::vector<std::string> split(const std::vector<char>& all, const std::vector<int>& lengths,
                               const std::vector<int>& offsets) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < lengths.size(); ++i)
    out.emplace_back(all.data() + offsets[i], static_cast<std::size_t>(lengths[i]));
  return out;
}

// Polls the request every millisecond; false (the request left behind) once `stop` holds.
bool wait_unless(MPI_Request& request, const std::function<bool()>& stop) {
  for (;;) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return true;
    if (stop()) return false;
    ::usleep(1000);
  }
}

}  // namespace

struct RankWorld::Mpi {
  MPI_Comm host = MPI_COMM_NULL;  // the ranks that share this host's memory
  // The ranks' words to rank 0 (tell_progress, gather_at_root), apart from every other
  // message of the job (the collective kernels', the network probe's).
  MPI_Comm words = MPI_COMM_NULL;
  std::vector<bool> heard;  // at rank 0: each rank has said something since the run began

  // At rank 0: the next word waiting, taken in: a progress word, or with `texts` also a
  // rank's text (kept there). Its rank; -1 where none waited.
  int take_word(std::vector<std::optional<std::string>>* texts) {
    int waiting = 0;
    MPI_Status status;
    check(MPI_Iprobe(MPI_ANY_SOURCE, texts ? MPI_ANY_TAG : kProgress, words, &waiting, &status),
          "MPI_Iprobe");
    if (!waiting) return -1;
    const int from = status.MPI_SOURCE;
    int length = 0;
    check(MPI_Get_count(&status, MPI_CHAR, &length), "MPI_Get_count");
    std::string received(static_cast<std::size_t>(length), '\0');
    check(
        MPI_Recv(received.data(), length, MPI_CHAR, from, status.MPI_TAG, words, MPI_STATUS_IGNORE),
        "MPI_Recv");
    if (status.MPI_TAG == kText) (*texts)[static_cast<std::size_t>(from)] = std::move(received);
    heard[static_cast<std::size_t>(from)] = true;
    return from;
  }
  static constexpr int kProgress = 1, kText = 2;
};

std::string mpi_off_reason() {
  return "";
}

RankWorld::RankWorld() : mpi_(std::make_unique<Mpi>()) {
  int provided = 0;
  // Funneled: the cases' threads (OpenMP, the packed GEMM's) never call MPI.
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (and become exceptions) instead of aborting the job.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  check(MPI_Comm_rank(MPI_COMM_WORLD, &place_.rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &place_.ranks), "MPI_Comm_size");
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, place_.rank, MPI_INFO_NULL,
                            &mpi_->host),
        "MPI_Comm_split_type");
  check(MPI_Comm_rank(mpi_->host, &place_.local_rank), "MPI_Comm_rank");
  check(MPI_Comm_size(mpi_->host, &place_.local_ranks), "MPI_Comm_size");
  place_.host = this_host();
  // Hosts numbered by their lowest rank: each host's first rank says so, and a rank's host
  // is the number of first ranks at or below the first rank of its own host.
  int first_of_host = place_.rank;
  check(MPI_Bcast(&first_of_host, 1, MPI_INT, 0, mpi_->host), "MPI_Bcast");
  std::vector<int> firsts(static_cast<std::size_t>(place_.ranks));
  check(MPI_Allgather(&first_of_host, 1, MPI_INT, firsts.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather");
  std::sort(firsts.begin(), firsts.end());
  firsts.erase(std::unique(firsts.begin(), firsts.end()), firsts.end());
  place_.nodes = static_cast<int>(firsts.size());
  place_.node = static_cast<int>(std::lower_bound(firsts.begin(), firsts.end(), first_of_host) -
                                 firsts.begin());
  check(MPI_Comm_dup(MPI_COMM_WORLD, &mpi_->words), "MPI_Comm_dup");
  mpi_->heard.assign(static_cast<std::size_t>(place_.ranks), false);
}

RankWorld::~RankWorld() {
  if (mpi_->words != MPI_COMM_NULL) MPI_Comm_free(&mpi_->words);
  if (mpi_->host != MPI_COMM_NULL) MPI_Comm_free(&mpi_->host);
  MPI_Finalize();
}

void RankWorld::tell_progress() const {
  if (place_.rank == 0) {
    while (mpi_->take_word(nullptr) >= 0) {
    }
    return;
  }
  // Empty, so nothing has to outlive the call: the request is let go at once.
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Isend(nullptr, 0, MPI_CHAR, 0, Mpi::kProgress, mpi_->words, &request), "MPI_Isend");
  check(MPI_Request_free(&request), "MPI_Request_free");
}

std::vector<std::string> RankWorld::all_gather(const std::string& mine) const {
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(place_.ranks));
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD),
        "MPI_Allgather");
  std::vector<int> offsets(lengths.size(), 0);
  const std::size_t total = offsets_of(lengths, offsets);
  std::vector<char> all(total);
  check(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                       MPI_CHAR, MPI_COMM_WORLD),
        "MPI_Allgatherv");
  return split(all, lengths, offsets);
}

std::optional<std::vector<std::optional<std::string>>> RankWorld::gather_at_root(
    const std::string& mine, const std::function<bool()>& stop, Silence silence) const {
  if (mine.size() > 2147483647u)
    throw std::runtime_error("this rank's results exceed 2 GiB: too large for one message");
  if (place_.rank != 0) {
    MPI_Request request = MPI_REQUEST_NULL;
    check(MPI_Isend(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, Mpi::kText,
                    mpi_->words, &request),
          "MPI_Isend");
    if (!wait_unless(request, stop)) return std::nullopt;
    return std::vector<std::optional<std::string>>{};
  }
  using Clock = std::chrono::steady_clock;
  const std::size_t ranks = static_cast<std::size_t>(place_.ranks);
  std::vector<std::optional<std::string>> texts(ranks);
  texts[0] = mine;
  std::vector<Clock::time_point> last_word(ranks, Clock::now());
  const auto silent = [&](std::size_t r) {
    const double allowed = mpi_->heard[r] ? silence.after_word_s : silence.before_first_word_s;
    return std::chrono::duration<double>(Clock::now() - last_word[r]).count() > allowed;
  };
  for (;;) {
    if (const int from = mpi_->take_word(&texts); from >= 0) {
      last_word[static_cast<std::size_t>(from)] = Clock::now();
      continue;
    }
    bool waiting = false;
    for (std::size_t r = 1; r < ranks && !waiting; ++r) waiting = !texts[r] && !silent(r);
    if (!waiting) return texts;
    if (stop()) return std::nullopt;
    ::usleep(1000);
  }
}

void RankWorld::host_barrier() const {
  // Polled with a sleep, not MPI_Barrier: a rank waiting there spins on a CPU, and the ranks
  // that wait here wait for their host's probe, which would time their spinning.
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(mpi_->host, &request), "MPI_Ibarrier");
  wait_unless(request, [] { return false; });
}

int RankWorld::max_over_ranks(int value) const {
  int out = value;
  check(MPI_Allreduce(&value, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return out;
}

}  // namespace ridgeline::cluster
