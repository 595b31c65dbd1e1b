#include "journal.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace carc::persistence {

void LatencyHistogram::Add(double microseconds) {
  const double clamped = std::max(1.0, microseconds);
  const int bucket = std::min(kBuckets - 1, static_cast<int>(std::ceil(8 * std::log2(clamped))));
  ++buckets_[static_cast<size_t>(bucket)];
  ++count_;
  max_ = std::max(max_, microseconds);
  sum_ += microseconds;
}

uint64_t LatencyHistogram::CountAtMostPowerOfTwo(int k) const {
  // Bucket i holds the latencies in (2^((i-1)/8), 2^(i/8)] microseconds.
  const int last = std::min(kBuckets - 1, 8 * k);
  uint64_t n = 0;
  for (int i = 0; i <= last; ++i) n += buckets_[static_cast<size_t>(i)];
  return n;
}

double LatencyHistogram::Quantile(double q) const {
  if (count_ == 0) return 0;
  const auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += buckets_[static_cast<size_t>(i)];
    if (seen >= rank) return std::min(max_, std::exp2(i / 8.0));
  }
  return max_;
}

Journal::Journal(Store store, size_t max_batch)
    : store_(std::move(store)), max_batch_(max_batch), thread_([this] { Run(); }) {}

Journal::~Journal() { Stop(); }

void Journal::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void Journal::Submit(Write write, Done done) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_) {
      queue_.push_back(Pending{std::move(write), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  done(StoreError{SQLITE_ABORT, "the server is shutting down"});
}

void Journal::RunOnWriter(std::function<void(Store&)> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

JournalStats Journal::Stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void Journal::Run() {
  std::vector<Pending> batch;
  for (;;) {
    std::deque<std::function<void(Store&)>> jobs;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !queue_.empty() || !jobs_.empty(); });
      jobs.swap(jobs_);
    }
    for (auto& job : jobs) job(store_);
    {
      std::unique_lock lock(mutex_);
      if (queue_.empty()) {
        if (stopping_) return;  // everything is committed
        continue;
      }
      // Everything that arrived while the last batch was committing goes in this one.
      const size_t n = std::min(queue_.size(), max_batch_);
      for (size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    CommitBatch(batch);
    batch.clear();
  }
}

void Journal::CommitBatch(std::vector<Pending>& batch) {
  std::vector<Write> writes;
  writes.reserve(batch.size());
  std::vector<uint64_t> actions_of(batch.size(), 0);  // actions each write appends
  for (size_t i = 0; i < batch.size(); ++i) {
    for (const WriteOp& op : batch[i].write.ops) {
      if (const auto* a = std::get_if<AppendActionsOp>(&op)) actions_of[i] += a->actions.size();
    }
    writes.push_back(std::move(batch[i].write));
  }
  const auto start = std::chrono::steady_clock::now();
  const std::vector<Status> results = store_.ApplyBatch(writes);
  const double us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  uint64_t failed = 0;
  uint64_t actions = 0;  // of the writes committed: a refused write does not undo the others
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i]) {
      ++failed;
    } else {
      actions += actions_of[i];
    }
  }
  {
    std::lock_guard lock(mutex_);
    ++stats_.batches;
    stats_.writes += batch.size() - failed;
    stats_.failed_writes += failed;
    stats_.actions += actions;
    stats_.largest_batch = std::max(stats_.largest_batch, batch.size());
    stats_.commit_us.Add(us);
  }
  for (size_t i = 0; i < batch.size(); ++i) batch[i].done(results[i]);
}

}  // namespace carc::persistence
