// The threads the server's bots think on, apart from the I/O threads.
//
// A fixed number of worker threads take jobs from a bounded queue, first in, first out. A room
// never waits for them: it hands a bot's decision over (a copy of its committed game; see
// room/bot_seats.h) and gets the answer later on its strand (StrandBots in net/lobby.h). Every
// job is bounded by the bots' budget per move (--bot-playouts, --bot-move-ms), so a busy pool
// delays bots, never the games' other messages, and never another game's players.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace carc::server {

class BotPool {
 public:
  BotPool(int threads, size_t max_queued);
  // Jobs running finish; those still queued are dropped.
  ~BotPool();
  BotPool(const BotPool&) = delete;
  BotPool& operator=(const BotPool&) = delete;

  // False when `max_queued` jobs wait already (the job is not taken).
  bool Submit(std::function<void()> job);

 private:
  void Run();

  const size_t max_queued_;
  std::mutex mutex_;  // guards queue_ and stopping_
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace carc::server
