// carc-server: the authoritative game server for the Carcassonne games of engine/registry.h.
//
// Settings come from defaults, then a config file (--config, TOML or INI, keys named like the
// flags), then flags. Games are kept in a SQLite file (--db; docs/persistence.md): on start the
// server resumes every unfinished game in it. Logs go to standard error through spdlog. SIGINT or
// SIGTERM stops accepting, tells every client and closes their connections, and lets work in flight
// finish.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/tileset.h"
#include "net/server.h"
#include "net/storage.h"
#include "registry.h"

namespace {

using carc::server::ServerConfig;

// The rule sets this server hosts: every one of the build, with the tile sets of `--tiles`
// (each "rule-set=file") in place of their own; nullopt after saying why one cannot be used.
std::optional<carc::RuleSetRegistry> HostedRuleSets(const std::vector<std::string>& tiles) {
  carc::RuleSetRegistry registry = carc::DefaultRuleSets();
  for (const std::string& pair : tiles) {
    const size_t equals = pair.find('=');
    if (equals == std::string::npos) {
      spdlog::critical("--tiles {}: expected rule-set=file, e.g. the-city=my-tiles.txt", pair);
      return std::nullopt;
    }
    const std::string id = pair.substr(0, equals);
    const std::string path = pair.substr(equals + 1);
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) {
      spdlog::critical("--tiles {}: cannot read {}", pair, path);
      return std::nullopt;
    }
    auto parsed = carc::core::ParseTileSet(text.str());
    if (auto* error = std::get_if<carc::core::ParseError>(&parsed)) {
      spdlog::critical("{}: {}", path, error->ToString());
      return std::nullopt;
    }
    auto rules = carc::RuleSetWithTiles(
        id, std::get<std::shared_ptr<const carc::core::TileSet>>(std::move(parsed)));
    if (auto* error = std::get_if<std::string>(&rules)) {
      spdlog::critical("--tiles {}: {}", pair, *error);
      return std::nullopt;
    }
    registry.Add(std::get<std::shared_ptr<const carc::core::RuleSet>>(std::move(rules)));
  }
  return registry;
}

int Main(int argc, char** argv) {
  CLI::App app{
      "carc-server: the game server for Carcassonne (The City, and Carcassonne with the River)"};
  app.set_config("--config", "", "a TOML or INI file with any of the settings below");
  ServerConfig config;
  std::string log_level = "info";
  std::vector<std::string> tiles_files;
  int handshake = static_cast<int>(config.handshake_timeout.count() / 1000);
  int idle = static_cast<int>(config.idle_timeout.count() / 1000);
  int grace = static_cast<int>(config.shutdown_grace.count() / 1000);
  app.add_option("--address", config.address, "address to listen on")->capture_default_str();
  app.add_option("--port", config.port, "port (WebSocket and /healthz); 0 picks one")
      ->capture_default_str();
  app.add_option("--operator-port", config.operator_port,
                 "the operator's port: /healthz with the server's figures and /metrics, apart from "
                 "the players' (0 picks one); none: both on the players' port")
      ->check(CLI::Range(0, 65535));
  app.add_option("--operator-address", config.operator_address,
                 "address the operator's port listens on")
      ->capture_default_str();
  app.add_option("--threads", config.threads, "io threads; 0 = hardware threads")
      ->capture_default_str()
      ->check(CLI::Range(0, 256));
  app.add_option("--max-message-bytes", config.max_message_bytes, "largest message accepted")
      ->capture_default_str()
      ->check(CLI::Range(256, 16 << 20));
  app.add_option("--messages-per-second", config.messages_per_second, "per connection, sustained")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--message-burst", config.message_burst, "per connection, at once")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--max-outbound-queue", config.max_outbound_queue,
                 "messages queued for a client before it is dropped")
      ->capture_default_str()
      ->check(CLI::Range(1, 1 << 20));
  app.add_option("--max-outbound-bytes", config.max_outbound_bytes,
                 "bytes queued for a client before it is dropped")
      ->capture_default_str()
      ->check(CLI::Range(64 << 10, 1 << 30));
  app.add_option("--handshake-timeout", handshake,
                 "seconds for the HTTP upgrade, and then again for Hello")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  app.add_option("--idle-timeout", idle,
                 "seconds without traffic before a client is dropped (pings at half)")
      ->capture_default_str()
      ->check(CLI::Range(2, 86400));
  app.add_option("--shutdown-grace", grace,
                 "seconds clients have to close after ServerClosing on SIGTERM or SIGINT")
      ->capture_default_str()
      ->check(CLI::Range(0, 600));
  app.add_option("--allowed-origin", config.allowed_origins,
                 "allowed Origin header (repeat); none: any");
  app.add_option("--max-games", config.max_games, "games hosted at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  int retention = static_cast<int>(config.finished_game_retention.count());
  app.add_option("--finished-game-retention", retention,
                 "seconds a finished game stays in memory (its players may ask for a rematch)")
      ->capture_default_str()
      ->check(CLI::Range(0, 86400));
  app.add_option("--max-finished-games", config.max_finished_games,
                 "finished games held in memory at once; past it the oldest leave early")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  int open_timeout = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(config.open_game_timeout).count());
  app.add_option("--open-game-timeout", open_timeout,
                 "seconds a game waiting for players may go without a join or leave before it is "
                 "abandoned (0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0, 30 * 86400));
  int running_timeout = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(config.running_game_timeout).count());
  app.add_option("--running-game-timeout", running_timeout,
                 "seconds a running game may go without a move before it is abandoned (0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0, 365 * 86400));
  app.add_option("--max-open-games-per-connection", config.max_open_games_per_connection,
                 "games not yet started that one connection may have created (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  app.add_option("--max-open-games-per-address", config.max_open_games_per_address,
                 "games not yet started that one remote address may have created (0: no limit; "
                 "behind a reverse proxy every client has the proxy's address)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000));
  app.add_option("--max-connections", config.max_connections, "connections at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_flag("--allow-chosen-seeds", config.allow_chosen_seeds,
               "let CreateGame choose the game's seed (tests, replays, benchmarks); off, a chosen "
               "seed is refused, since it would reveal the drawing order")
      ->capture_default_str();
  app.add_option("--shard", config.shard,
                 "this instance's shard name (a lowercase letter, then up to 15 lowercase letters "
                 "or digits): its games' ids carry it, and it refuses other shards' games "
                 "(docs/operations.md); none: the server is alone")
      ->check(CLI::Validator(
          [](const std::string& name) {
            return carc::server::ValidShardName(name)
                       ? std::string()
                       : "a lowercase letter, then up to 15 lowercase letters or digits";
          },
          "NAME"));
  app.add_option(
      "--db", config.db_path,
      "the game log, a SQLite file (default: " + carc::server::DefaultDatabasePath() + ")");
  app.add_option("--sync", config.synchronous,
                 "full: a move is acknowledged once it survives a power loss; normal: once it "
                 "survives a crash of the server")
      ->capture_default_str()
      ->check(CLI::IsMember({"full", "normal"}));
  app.add_option("--busy-timeout-ms", config.busy_timeout_ms,
                 "how long a commit waits for another process's lock on the file")
      ->capture_default_str()
      ->check(CLI::Range(0, 60000));
  app.add_option("--expire-after-days", config.expire_after_days,
                 "finished games older than this leave the log (0: never)")
      ->capture_default_str()
      ->check(CLI::Range(0, 36500));
  app.add_option("--archive", config.archive_path,
                 "expired games are moved to this SQLite file (default: deleted)");
  app.add_option("--bot-threads", config.bot_threads,
                 "threads the bots in seats think on, apart from the io threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app.add_option("--bot-queue", config.bot_queue,
                 "bot decisions that may wait for a bot thread (more wait a little and retry)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  app.add_option("--bot-playouts", config.bot_playouts, "the strong bot's playouts per decision")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000000));
  app.add_option("--bot-playout-steps", config.bot_playout_steps,
                 "the strong bot's playout horizon: actions per playout (0: to the game's end; "
                 "default: each rule set's own)")
      ->check(CLI::Range(0, 1000000));
  app.add_option("--bot-move-ms", config.bot_move_ms,
                 "the longest a bot thinks about one decision, in milliseconds (0: no limit)")
      ->capture_default_str()
      ->check(CLI::Range(0, 600000));
  app.add_option("--web-root", config.web_root,
                 "serve the web client's built files from this folder (web/dist)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));
  app.add_option("--tiles", tiles_files,
                 "rule-set=file: a tile-set file for a rule set's games (default: the built-in "
                 "ones); may be repeated");
  CLI11_PARSE(app, argc, argv);
  config.handshake_timeout = std::chrono::seconds(handshake);
  config.idle_timeout = std::chrono::seconds(idle);
  config.shutdown_grace = std::chrono::seconds(grace);
  config.finished_game_retention = std::chrono::seconds(retention);
  config.open_game_timeout = std::chrono::seconds(open_timeout);
  config.running_game_timeout = std::chrono::seconds(running_timeout);
  spdlog::set_default_logger(spdlog::stderr_color_mt("carc-server"));
  spdlog::set_level(spdlog::level::from_str(log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");

  auto rule_sets = HostedRuleSets(tiles_files);
  if (!rule_sets) return 2;
  const int threads =
      config.threads > 0 ? config.threads : std::max(1u, std::thread::hardware_concurrency());
  boost::asio::io_context io(threads);
  carc::server::Server server(io, config, *std::move(rule_sets));
  if (auto error = server.Start()) {
    spdlog::critical("{}", *error);
    return 2;
  }
  spdlog::info("listening on ws://{}:{}/, {} threads", config.address, server.port(), threads);
  if (config.operator_port) {
    spdlog::info("operator's port: http://{}:{}/healthz and /metrics", config.operator_address,
                 server.operator_port());
  } else {
    spdlog::info("health: http://{}:{}/healthz, metrics: /metrics", config.address, server.port());
  }

  // The first signal stops the server gracefully; the io_context then runs out of work and
  // every thread returns from run(). The server is destroyed after them: its game log commits
  // what is queued and closes.
  boost::asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    spdlog::info("signal {}: stopping", signal);
    server.Stop("the server is shutting down");
  });

  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& t : pool) t.join();
  spdlog::info("stopped");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
  }
  return 3;
}
