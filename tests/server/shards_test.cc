// Several carc-server instances behind nginx, as operators run them (docs/operations.md,
// "Shards"): three shards (--shard a, b, c), each with its own game log, and Debian's nginx
// configured by deploy/nginx/render-shards.sh --standalone, all on loopback. The players reach
// them only through the proxy, with the carc-client binary. One shard is then killed with
// SIGKILL and started again on its file. Every wait is a poll with a deadline.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../tools/background.h"
#include "../tools/run_command.h"
#include "server_process.h"

namespace carc::server {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;
using Clock = std::chrono::steady_clock;
using test_server::FreeLoopbackPort;
using test_server::ServerProcess;
using test_server::TempDir;
using testing::Background;
using testing::ReadFile;

constexpr const char* kNginx = "/usr/sbin/nginx";
// How long a whole game of two bots may take through the proxy (about a second).
constexpr seconds kGameTimeout{20};

class ShardsBehindNginx : public ::testing::Test {
 protected:
  void SetUp() override {
    // Nothing is skipped: a machine without nginx fails here, saying how to get it.
    ASSERT_TRUE(fs::exists(kNginx)) << kNginx << " is missing: scripts/deps.sh installs it "
                                    << "(Debian's package nginx-light)";
    std::string pairs;
    for (const std::string name : {"a", "b", "c"}) {
      fs::create_directories(dir_.path() / name);
      auto shard =
          std::make_unique<ServerProcess>(dir_.path() / name, FreeLoopbackPort(), ShardFlags(name));
      ASSERT_TRUE(shard->Start()) << "shard " << name;
      pairs += " " + name + "=127.0.0.1:" + std::to_string(shard->port());
      shards_[name] = std::move(shard);
    }
    proxy_port_ = FreeLoopbackPort();
    const fs::path conf = dir_.path() / "nginx.conf";
    const auto rendered = testing::RunCommand(
        std::string(CARC_SOURCE_DIR) + "/deploy/nginx/render-shards.sh --standalone " +
        dir_.path().string() + " 127.0.0.1:" + std::to_string(proxy_port_) + pairs + " > " +
        conf.string());
    ASSERT_EQ(rendered.status, 0) << rendered.out;
    // -e: nginx's own log before it reads the configuration, which names the same file.
    nginx_ = std::make_unique<Background>(
        std::vector<std::string>{kNginx, "-p", dir_.path().string(), "-e",
                                 (dir_.path() / "error.log").string(), "-c", conf.string(), "-g",
                                 "daemon off;"},
        dir_.path() / "nginx.out", /*group_leader=*/true);
    ASSERT_TRUE(nginx_->running());
    const auto deadline = Clock::now() + seconds(10);
    while (!test_server::Accepts(proxy_port_)) {
      ASSERT_FALSE(nginx_->Wait(milliseconds(0)).has_value())
          << "nginx exited:\n"
          << nginx_->Output() << ReadFile(dir_.path() / "error.log");
      ASSERT_LT(Clock::now(), deadline) << "nginx does not listen on " << proxy_port_;
      std::this_thread::sleep_for(milliseconds(5));
    }
  }

  void TearDown() override {
    // SIGTERM: nginx's master stops its worker and exits.
    if (nginx_) nginx_->Stop(SIGTERM, seconds(5));
  }

  // The flags shard `name` is started with.
  virtual std::vector<std::string> ShardFlags(const std::string& name) const {
    return {"--shard", name};
  }

  std::string Base() const { return "ws://127.0.0.1:" + std::to_string(proxy_port_); }

  // carc-client through the proxy, in the foreground (its one-shot commands wait at most 10 s).
  testing::CommandResult Client(const std::string& args) const { return ClientAt(Base(), args); }

  // carc-client with `base` as its --server.
  static testing::CommandResult ClientAt(const std::string& base, const std::string& args) {
    return testing::RunCommand(std::string(CARC_CLIENT_BINARY) + " --server " + base + " " + args);
  }

  // carc-client through the proxy, in the background; its output in LOG-NAME.log.
  std::unique_ptr<Background> ClientInBackground(const std::vector<std::string>& args,
                                                 const std::string& log_name) const {
    std::vector<std::string> argv = {CARC_CLIENT_BINARY, "--server", Base()};
    argv.insert(argv.end(), args.begin(), args.end());
    return std::make_unique<Background>(argv, dir_.path() / (log_name + ".log"));
  }

  // A new game of two seats; its id.
  std::string Create() const {
    const auto created = Client("create --seats 2");
    EXPECT_EQ(created.status, 0) << created.out;
    return created.out.substr(0, created.out.find('\n'));
  }

  // Joins the lowest free seat of `game`: its token.
  std::string Join(const std::string& game) const {
    const auto joined = Client("join " + game);
    EXPECT_EQ(joined.status, 0) << joined.out;
    std::istringstream line(joined.out);
    int seat = -1;
    std::string token;
    line >> seat >> token;
    return token;
  }

  // The game's public state (show --json); null when the client failed.
  json State(const std::string& game) const {
    const auto shown = Client("show " + game + " --json");
    if (shown.status != 0) return nullptr;
    return json::parse(shown.out, nullptr, /*allow_exceptions=*/false);
  }

  // Polls until seat `seat` of `game` is to decide: the state then, or null at the deadline.
  json WhenSeatDecides(const std::string& game, int seat) const {
    const auto deadline = Clock::now() + kGameTimeout;
    while (Clock::now() < deadline) {
      json state = State(game);
      if (state.is_object() && state["actor"] == seat) return state;
      std::this_thread::sleep_for(milliseconds(20));
    }
    return nullptr;
  }

  TempDir dir_;
  std::map<std::string, std::unique_ptr<ServerProcess>> shards_;
  uint16_t proxy_port_ = 0;
  std::unique_ptr<Background> nginx_;
};

std::string ShardOf(const std::string& game) { return game.substr(0, game.find('-')); }

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The whole answer to GET `path` on loopback (status line, headers and body); reads wait at
// most 5 s.
std::string HttpGet(uint16_t port, const std::string& path) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return "";
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval limit{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  std::string answer;
  const std::string request =
      "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0 &&
      ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
          static_cast<ssize_t>(request.size())) {
    char buffer[4096];
    for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) {
      answer.append(buffer, static_cast<size_t>(n));
    }
  }
  ::close(fd);
  return answer;
}

// Waits (bounded) for a client in the background to end; expects it ended well, with `game`.
void ExpectPlayedToTheEnd(Background& client, const std::string& game) {
  const auto exit = client.Wait(kGameTimeout);
  EXPECT_EQ(exit, std::optional<int>(0)) << client.Output();
  EXPECT_TRUE(Contains(client.Output(), "game " + game + " is over")) << client.Output();
}

TEST_F(ShardsBehindNginx, PlayersReachEveryShardThroughTheProxyAndAKilledShardComesBack) {
  // The proxy lists its shards; a shard alone does not (a client then takes it as one server).
  EXPECT_TRUE(Contains(HttpGet(proxy_port_, "/shards"), R"({"shards":["a","b","c"]})"));
  EXPECT_TRUE(HttpGet(shards_.at("a")->port(), "/shards").starts_with("HTTP/1.1 404"));

  // Whole games of bots, each created through the proxy, which picks the shard in turn.
  std::set<std::string> played_on;
  for (int seed = 1; seed <= 3; ++seed) {
    const auto bots = Client("bots --seats 2 --seed " + std::to_string(seed));
    ASSERT_EQ(bots.status, 0) << bots.out;
    const json result = json::parse(bots.out);
    EXPECT_TRUE(result["seats_agree"].get<bool>());
    EXPECT_NE(result["end"], "none");
    played_on.insert(ShardOf(result["game_id"]));
  }
  EXPECT_GE(played_on.size(), 2u) << "round robin: the games land on more than one shard";

  // One open game on each shard.
  std::map<std::string, std::string> game_on;  // shard -> game
  for (int i = 0; i < 6 && game_on.size() < 3; ++i) {
    const std::string game = Create();
    ASSERT_TRUE(shards_.contains(ShardOf(game))) << "'" << game << "' names no shard";
    game_on.emplace(ShardOf(game), game);
  }
  ASSERT_EQ(game_on.size(), 3u) << "creating in turn reaches every shard";

  // The lobby through the proxy: every shard's games, each shard asked by the client.
  const auto lobby = Client("list");
  ASSERT_EQ(lobby.status, 0) << lobby.out;
  for (const auto& [shard, game] : game_on) EXPECT_TRUE(Contains(lobby.out, game)) << lobby.out;

  // The shard to kill holds game X; game Y lives on another. In each, seat 0 is played by a
  // client that keeps its seat and seat 1 waits: both games wait for seat 1 after seat 0's
  // first turn.
  const std::string killed = game_on.begin()->first;
  const std::string x = game_on.begin()->second;
  const std::string y = std::next(game_on.begin())->second;
  const std::string z = std::next(game_on.begin(), 2)->second;
  const std::string x0 = Join(x), x1 = Join(x), y0 = Join(y), y1 = Join(y);
  ASSERT_FALSE(x0.empty() || x1.empty() || y0.empty() || y1.empty());
  auto x_seat0 =
      ClientInBackground({"play", x, "--token", x0, "--bot", "random", "--seed", "1"}, "x-seat0");
  auto y_seat0 =
      ClientInBackground({"play", y, "--token", y0, "--bot", "random", "--seed", "2"}, "y-seat0");
  const json x_before = WhenSeatDecides(x, 1);
  ASSERT_TRUE(x_before.is_object()) << x_seat0->Output();
  ASSERT_TRUE(WhenSeatDecides(y, 1).is_object()) << y_seat0->Output();
  const uint64_t x_sequence = x_before["sequence"];
  ASSERT_GT(x_sequence, 0u);

  shards_.at(killed)->Kill();  // SIGKILL
  {
    SCOPED_TRACE("shard " + killed + " is down");
    // Its games are unavailable, and the client says why.
    const auto shown = Client("show " + x);
    EXPECT_NE(shown.status, 0);
    EXPECT_TRUE(
        Contains(shown.out, "game " + x + " is on shard '" + killed + "', which does not answer"))
        << shown.out;
    EXPECT_TRUE(Contains(shown.out, "HTTP 502")) << shown.out;
    // The lobby still lists the other shards' games and names the one that is down.
    const auto lobby_now = Client("list");
    EXPECT_EQ(lobby_now.status, 0) << lobby_now.out;
    EXPECT_TRUE(Contains(lobby_now.out, "shard '" + killed + "' does not answer")) << lobby_now.out;
    EXPECT_FALSE(Contains(lobby_now.out, x)) << lobby_now.out;
    EXPECT_TRUE(Contains(lobby_now.out, y)) << lobby_now.out;
    EXPECT_TRUE(Contains(lobby_now.out, z)) << lobby_now.out;
    // A game created now lands on a shard that answers.
    for (int i = 0; i < 3; ++i) EXPECT_NE(ShardOf(Create()), killed);
    // Game Y is played to its end meanwhile.
    auto y_seat1 =
        ClientInBackground({"play", y, "--token", y1, "--bot", "random", "--seed", "3"}, "y-seat1");
    ExpectPlayedToTheEnd(*y_seat1, y);
    ExpectPlayedToTheEnd(*y_seat0, y);
  }

  // Started again on its file: game X is where it was acknowledged, and the client that held
  // seat 0 (reconnecting once a second all along) is back in it, through the proxy, at X's shard.
  ASSERT_TRUE(shards_.at(killed)->Start());
  const json x_after = State(x);
  ASSERT_TRUE(x_after.is_object());
  EXPECT_EQ(x_after["sequence"], x_sequence);
  EXPECT_EQ(x_after["state_hash"], x_before["state_hash"]);
  EXPECT_EQ(x_after["actor"], 1);
  auto x_seat1 =
      ClientInBackground({"play", x, "--token", x1, "--bot", "random", "--seed", "4"}, "x-seat1");
  ExpectPlayedToTheEnd(*x_seat1, x);
  ExpectPlayedToTheEnd(*x_seat0, x);
  EXPECT_TRUE(Contains(x_seat0->Output(), "reconnecting")) << x_seat0->Output();
  EXPECT_FALSE(Contains(x_seat0->Output(), "ERROR_CODE_WRONG_SHARD")) << x_seat0->Output();

  // Its log, through the proxy: the whole game, every hash checked by the client.
  const auto replay = Client("replay " + x + " --json");
  ASSERT_EQ(replay.status, 0) << replay.out;
  EXPECT_TRUE(json::parse(replay.out)["over"].get<bool>());
}

// Shard a has room for one game (--max-games 1), b and c for many.
class ShardsBehindNginxOneFull : public ShardsBehindNginx {
 protected:
  std::vector<std::string> ShardFlags(const std::string& name) const override {
    std::vector<std::string> flags = ShardsBehindNginx::ShardFlags(name);
    if (name == "a") flags.insert(flags.end(), {"--max-games", "1"});
    return flags;
  }
};

TEST_F(ShardsBehindNginxOneFull, CreatesThroughTheProxyLandOnTheShardsWithRoom) {
  // Shard a's one game, created at its own address: a is full from now on.
  const std::string shard_a = Base() + "/shard/a/";
  const auto first = ClientAt(shard_a, "create --seats 2");
  ASSERT_EQ(first.status, 0) << first.out;
  ASSERT_EQ(ShardOf(first.out), "a") << first.out;
  const auto refused = ClientAt(shard_a, "create --seats 2");
  EXPECT_NE(refused.status, 0);
  EXPECT_TRUE(Contains(refused.out, "ERROR_CODE_SERVER_FULL")) << refused.out;

  // The proxy hands connections to the shards in turn, so a third of these reach shard a first;
  // each is created on another shard all the same.
  std::set<std::string> created_on;
  for (int i = 0; i < 6; ++i) {
    const auto created = Client("create --seats 2");
    ASSERT_EQ(created.status, 0) << created.out;
    created_on.insert(ShardOf(created.out.substr(0, created.out.find('\n'))));
  }
  EXPECT_EQ(created_on, (std::set<std::string>{"b", "c"}));

  // Games of bots, one at a time and several at once, each seat joining at the game's shard.
  for (int seed = 1; seed <= 3; ++seed) {
    const auto bots = Client("bots --seats 2 --seed " + std::to_string(seed));
    ASSERT_EQ(bots.status, 0) << bots.out;
    const json result = json::parse(bots.out);
    EXPECT_TRUE(result["seats_agree"].get<bool>());
    EXPECT_NE(ShardOf(result["game_id"]), "a");
  }
  const auto load = Client("load --games 3 --seats 2 --seconds 60");
  ASSERT_EQ(load.status, 0) << load.out;
  const json report = json::parse(load.out);
  EXPECT_EQ(report["games_finished_seats_agree"], 3) << load.out;
  EXPECT_EQ(report["connections_failed"], 0) << load.out;
}

}  // namespace
}  // namespace carc::server
