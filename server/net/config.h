// The server's settings: from defaults, a config file and command-line flags (server/main.cc).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace carc::server {

struct ServerConfig {
  std::string address = "127.0.0.1";  // loopback by default: one person on a laptop
  uint16_t port = 8080;               // 0 picks a free port (tests)
  // The operator's port (net/operator_session.h): /healthz with the server's figures and
  // /metrics, apart from the players' port; unset, both are served on the players' port.
  std::string operator_address = "127.0.0.1";
  std::optional<uint16_t> operator_port;  // 0 picks a free port
  int threads = 0;                        // io_context threads; 0 = hardware threads
  size_t max_message_bytes = 64 * 1024;
  double messages_per_second = 20;  // per connection, sustained
  double message_burst = 60;        // per connection, at once
  // What may wait to be sent to one client; past either bound it is disconnected (a slow
  // consumer must not hold the server's memory). One message is always let through alone.
  size_t max_outbound_queue = 1024;                     // messages
  size_t max_outbound_bytes = 1024 * 1024;              // bytes
  std::chrono::milliseconds handshake_timeout{10'000};  // the HTTP upgrade, then Hello
  std::chrono::milliseconds idle_timeout{60'000};       // pings are sent at half of it
  // On SIGTERM: how long clients have to close after ServerClosing before they are cut off.
  std::chrono::milliseconds shutdown_grace{5'000};
  std::vector<std::string> allowed_origins;           // empty: any origin (and none)
  size_t max_games = 10000;                           // games open or running at once
  std::chrono::seconds finished_game_retention{600};  // a finished game stays visible this long
  // Finished games held in memory at once (each about as large as a running one): past it the
  // oldest leave before their retention time ends.
  size_t max_finished_games = 1000;
  // A game in which nothing is committed (a seat taken or freed, the start, a move) for this
  // long is abandoned: it ends without a result and leaves the lobby. 0: never.
  std::chrono::milliseconds open_game_timeout{std::chrono::hours(1)};
  std::chrono::milliseconds running_game_timeout{std::chrono::hours(24)};
  // Games not yet started that one connection, and one remote address, may have created and
  // still hold open at once. 0: no limit. Behind a reverse proxy every client has its address.
  size_t max_open_games_per_connection = 3;
  size_t max_open_games_per_address = 20;
  size_t max_connections = 10000;
  // A client may choose a game's seed (tests, replaying a known game, benchmarks). Off, the
  // server picks every seed: a creator who knew it could compute the whole drawing order.
  bool allow_chosen_seeds = false;
  std::string web_root;  // the web client's built files (web/dist); empty: none served
  // This instance's shard name, in its games' ids (room/game_ids.h); empty: the server is alone.
  std::string shard;
  // The game log (docs/persistence.md).
  std::string db_path;               // SQLite file; empty: DefaultDatabasePath() (net/storage.h)
  std::string synchronous = "full";  // "full": a commit survives a power loss; "normal": a crash
  int busy_timeout_ms = 2000;        // how long a commit waits for another process's lock
  int expire_after_days = 0;         // finished games older than this are expired; 0: never
  std::string archive_path;          // expired games go to this file; empty: they are deleted
  // Bots in seats (net/bot_pool.h): the threads they think on, apart from the I/O threads; how
  // many decisions may wait for a thread; and each decision's budget.
  int bot_threads = 1;
  size_t bot_queue = 1024;
  int bot_playouts = 2000;  // the strong bot's playouts per decision
  int bot_move_ms = 2000;   // and its time per decision; 0: no limit
  // Its playout horizon in actions (bots::Budget); 0: to the end; unset: each rule set's own.
  std::optional<int> bot_playout_steps;
};

}  // namespace carc::server
