// The group committer: the one writer of the server's game log.
//
// Rooms submit Writes from any thread; a single writer thread takes everything that has arrived,
// commits it in one transaction (Store::ApplyBatch), and then calls each Write's Done with the
// outcome. So a busy server pays one fsync per batch, not one per move, and a move is never held
// back by anything but the commit itself: Done only hands the outcome back (the server posts it
// to the room's strand), so no game waits for another game's clients.
//
// GameLog is the interface a Room writes through; tests give rooms an in-memory one.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "store.h"

namespace carc::persistence {

class GameLog {
 public:
  // Called once, with nullopt when the write is committed, or why it is not.
  using Done = std::function<void(Status)>;
  virtual ~GameLog() = default;
  virtual void Submit(Write write, Done done) = 0;
};

// Writes each Write at once, in its own transaction, and answers before Submit returns: for
// tools and tests that need a GameLog without a writer thread.
class DirectLog : public GameLog {
 public:
  explicit DirectLog(Store& store) : store_(store) {}
  void Submit(Write write, Done done) override { done(store_.Apply(write)); }

 private:
  Store& store_;
};

// Commit latencies in buckets that grow by 2^(1/8) from 1 microsecond (about 9% apart).
class LatencyHistogram {
 public:
  void Add(double microseconds);
  uint64_t count() const { return count_; }
  // The upper bound of the bucket holding the q-quantile (0 < q <= 1), in microseconds.
  double Quantile(double q) const;
  double max() const { return max_; }
  double sum() const { return sum_; }
  // How many of the latencies were at most 2^k microseconds (exact: 2^k is a bucket's bound).
  uint64_t CountAtMostPowerOfTwo(int k) const;

 private:
  static constexpr int kBuckets = 8 * 28;  // up to 2^28 us, about 4.5 minutes
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  double max_ = 0;
  double sum_ = 0;
};

struct JournalStats {
  uint64_t batches = 0;        // transactions committed (or attempted)
  uint64_t writes = 0;         // writes committed
  uint64_t failed_writes = 0;  // writes refused
  uint64_t actions = 0;        // actions appended
  size_t largest_batch = 0;
  LatencyHistogram commit_us;  // from BEGIN to the end of COMMIT, per batch
};

class Journal : public GameLog {
 public:
  explicit Journal(Store store, size_t max_batch = 4096);
  ~Journal() override;  // commits what is queued, then stops the thread

  void Submit(Write write, Done done) override;
  // Runs `job` on the writer thread between two batches, with the writer's Store: for work that
  // writes outside the game log's rhythm (housekeeping), so it never contends for the lock.
  void RunOnWriter(std::function<void(Store&)> job);
  JournalStats Stats() const;
  // Commits what is queued and stops; later writes are refused.
  void Stop();

 private:
  struct Pending {
    Write write;
    Done done;
  };
  void Run();
  void CommitBatch(std::vector<Pending>& batch);

  Store store_;
  const size_t max_batch_;
  mutable std::mutex mutex_;  // guards queue_, stopping_ and stats_
  std::condition_variable wake_;
  std::deque<Pending> queue_;
  std::deque<std::function<void(Store&)>> jobs_;
  bool stopping_ = false;
  JournalStats stats_;
  std::thread thread_;
};

}  // namespace carc::persistence
