// carc-client: a command-line client of carc-server.
//
//   carc-client rule-sets            the games the server hosts, with their options
//   carc-client create --seats N     a new game (--rule-set, --option name=value, --clock, --grace,
//                                    --on-absent); prints its id
//   carc-client list                 the server's games
//   carc-client join GAME            takes a seat; prints the seat and its token
//   carc-client start GAME --token   starts a game before every seat is taken (seat 0 only)
//   carc-client show GAME            the game's public state, as a spectator
//   carc-client play GAME --token    plays a seat: at the terminal, or --bot random|eager
//   carc-client resign GAME --token  gives up a running game (its policy says what follows)
//   carc-client rematch GAME --token a new game like one that is over, at the same seat
//   carc-client replay GAME          a started game again from the server's log, step by step
//   carc-client say GAME TEXT        a line in the game's chat (--token: as that seat)
//   carc-client mute GAME SEAT       stops SEAT's chat lines reaching your seat (--unmute)
//   carc-client verify-draws GAME    checks a finished game's draws against its commitment
//   carc-client bots --seats N       one whole game of bots; the final scores as JSON
//   carc-client load --games G       many games of bots at once on loopback; a JSON report
//
// A game's seed (create --seed, bots --seed, and every load game) is taken only by a server
// started with --allow-chosen-seeds; any other refuses it with ERROR_CODE_SEED_NOT_ALLOWED.
//
// The wire protocol: docs/protocol.md (version 2). Every command speaks WebSocket to --server, the
// base URL: a server alone, or a proxy in front of shards (docs/operations.md, "Shards"). A
// command that names a game connects where the game is played (GameUrl: BASE/shard/NAME/ for
// the game "NAME-g12"); create, bots and load create through the base URL (the proxy picks the
// shard; when that one is full, ERROR_CODE_SERVER_FULL, the other shards are tried in turn at
// BASE/shard/NAME/); list asks the proxy for its shards (GET /shards) and merges what each one
// lists, every page of it. play, bots and load ride out a restart of the server (ServerClosing,
// then the close): they reconnect with a growing wait and resume their seats.
// Games are followed with protocol::Follower, whatever their rule set; the tile set of a game's
// rule set comes from the server (GetTileSet), never from this build.
#include <CLI/CLI.hpp>
#include <boost/asio/io_context.hpp>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <tuple>

#include "clock_options.h"
#include "connection.h"
#include "fairness.h"
#include "load.h"
#include "player.h"
#include "protocol/tileset_message.h"
#include "replay.h"
#include "shards.h"
#include "url.h"
#include "view.h"

namespace {

using namespace carc;
using namespace carc::client;
using nlohmann::json;

int Fail(const std::string& message) {
  std::cerr << "carc-client: " << message << "\n";
  return 1;
}

// Opens a connection and says Hello; nullopt (after printing why) if that failed.
bool OpenClient(BlockingClient& client, const ServerUrl& url) {
  if (auto error = client.Open(url)) {
    Fail(*error);
    return false;
  }
  return true;
}

// Opens a connection where game `game_id` is played (its shard's, behind a proxy: GameUrl) and
// says Hello; false (after printing why) if that failed.
bool OpenGame(BlockingClient& client, const ServerUrl& base, const std::string& game_id) {
  const std::string shard = ShardOfGame(game_id);
  if (auto error = client.Open(GameUrl(base, game_id))) {
    Fail(shard.empty() ? *error
                       : "game " + game_id + " is on shard '" + shard +
                             "', which does not answer: " + *error);
    return false;
  }
  return true;
}

// Sends one request; the reply, or nullopt after printing the error or the failure.
std::optional<wire::ServerMessage> Call(BlockingClient& client, wire::ClientMessage message) {
  auto reply = client.Call(std::move(message));
  if (auto* error = std::get_if<std::string>(&reply)) {
    Fail(*error);
    return std::nullopt;
  }
  auto& m = std::get<wire::ServerMessage>(reply);
  if (m.has_error()) {
    Fail("the server refused: " + Describe(m.error()));
    return std::nullopt;
  }
  return std::move(m);
}

// "the-city (Carcassonne: The City), version 1, 2 to 4 players; options: river 0..1 (default
// 0): ...": every rule set the server's Welcome lists, one per line.
std::string RuleSetsText(const wire::Welcome& welcome) {
  std::string text;
  for (const wire::RuleSetInfo& info : welcome.rule_sets()) {
    const std::string players =
        info.min_players() == info.max_players()
            ? std::to_string(info.min_players())
            : std::to_string(info.min_players()) + " to " + std::to_string(info.max_players());
    text += info.id() + " (" + info.name() + "), version " + std::to_string(info.version()) + ", " +
            players + " players";
    if (info.options().empty()) text += "; no options";
    for (const wire::OptionInfo& option : info.options()) {
      text += "\n  --option " + option.name() + "=N  " + std::to_string(option.min()) + " to " +
              std::to_string(option.max()) + ", default " + std::to_string(option.default_value()) +
              (option.description().empty() ? "" : ": " + option.description());
    }
    text += "\n";
  }
  return text;
}

nlohmann::json RuleSetsJson(const wire::Welcome& welcome) {
  json list = json::array();
  for (const wire::RuleSetInfo& info : welcome.rule_sets()) {
    json options = json::array();
    for (const wire::OptionInfo& option : info.options()) {
      options.push_back({{"name", option.name()},
                         {"description", option.description()},
                         {"default", option.default_value()},
                         {"min", option.min()},
                         {"max", option.max()}});
    }
    list.push_back({{"id", info.id()},
                    {"name", info.name()},
                    {"version", info.version()},
                    {"min_players", info.min_players()},
                    {"max_players", info.max_players()},
                    {"options", options}});
  }
  return list;
}

// The server's tile set for a rule set's games (GetTileSet), as the engine's: what the follower
// decodes with and the client draws tiles and names their features with. nullptr after printing
// why it could not be had.
std::shared_ptr<const core::TileSet> GetTiles(BlockingClient& client, const std::string& rule_set) {
  wire::ClientMessage message;
  message.mutable_get_tile_set()->set_rule_set(rule_set);
  auto answer = client.Call(std::move(message));
  if (auto* error = std::get_if<std::string>(&answer)) {
    Fail(*error);
    return nullptr;
  }
  const auto* reply = &std::get<wire::ServerMessage>(answer);
  if (reply->has_error()) {
    std::string text = "the server refused: " + Describe(reply->error());
    if (reply->error().code() == wire::ERROR_CODE_NO_SUCH_RULE_SET) {
      text += "\nthe server hosts:\n" + RuleSetsText(client.welcome());
      while (text.ends_with('\n')) text.pop_back();
    }
    Fail(text);
    return nullptr;
  }
  if (!reply->has_tile_set()) {
    Fail("unexpected reply to GetTileSet");
    return nullptr;
  }
  auto tiles = protocol::FromProto(reply->tile_set());
  if (auto* error = std::get_if<std::string>(&tiles)) {
    Fail("the server's tile set of " + rule_set + ": " + *error);
    return nullptr;
  }
  return std::get<std::shared_ptr<const core::TileSet>>(std::move(tiles));
}

// The same on a connection of its own, for the commands whose players open theirs.
std::shared_ptr<const core::TileSet> GetTiles(const ServerUrl& url, const std::string& rule_set) {
  BlockingClient client;
  if (!OpenClient(client, url)) return nullptr;
  auto tiles = GetTiles(client, rule_set);
  client.Close();
  return tiles;
}

// The rule set a game is played by (ListGames for that one game); nullopt after printing why.
std::optional<std::string> RuleSetOfGame(const ServerUrl& url, const std::string& game_id) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return std::nullopt;
  wire::ClientMessage message;
  message.mutable_list_games()->set_game_id(game_id);
  const auto reply = Call(client, std::move(message));
  client.Close();
  if (!reply) return std::nullopt;
  if (!reply->has_game_list()) {
    Fail("unexpected reply to ListGames");
    return std::nullopt;
  }
  if (reply->game_list().games().empty()) {
    Fail("the server has no game '" + game_id + "'");
    return std::nullopt;
  }
  return reply->game_list().games(0).rule_set();
}

// --option values: "name=value" each, value an integer; the error says which is wrong.
std::variant<std::map<std::string, int32_t>, std::string> ParseOptions(
    const std::vector<std::string>& pairs) {
  std::map<std::string, int32_t> options;
  for (const std::string& pair : pairs) {
    const size_t equals = pair.find('=');
    if (equals == std::string::npos || equals == 0) {
      return "--option " + pair + ": expected name=value, e.g. river=1";
    }
    const std::string name = pair.substr(0, equals);
    const std::string value = pair.substr(equals + 1);
    int32_t number = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
      return "--option " + pair + ": the value must be an integer";
    }
    if (!options.emplace(name, number).second) return "--option " + name + " given twice";
  }
  return options;
}

// A refused CreateGame: the server's error, and for a rule set, seat count or option it does not
// take, what it does take (its Welcome).
int CreateRefused(const wire::Error& error, const wire::Welcome& welcome) {
  std::string text = "the server refused to create the game: " + Describe(error);
  if (error.code() == wire::ERROR_CODE_NO_SUCH_RULE_SET ||
      error.code() == wire::ERROR_CODE_BAD_OPTIONS ||
      error.code() == wire::ERROR_CODE_BAD_SEAT_COUNT) {
    text += "\nthe server hosts:\n" + RuleSetsText(welcome);
    while (text.ends_with('\n')) text.pop_back();
  }
  return Fail(text);
}

// --bot values: "seat=level" each (e.g. 1=greedy); the error says which is wrong.
std::variant<std::vector<wire::BotSeat>, std::string> ParseBots(
    const std::vector<std::string>& pairs) {
  std::vector<wire::BotSeat> bots;
  for (const std::string& pair : pairs) {
    const size_t equals = pair.find('=');
    uint32_t seat = 0;
    const auto [end, ec] = std::from_chars(pair.data(), pair.data() + equals, seat);
    if (equals == std::string::npos || equals == 0 || ec != std::errc() ||
        end != pair.data() + equals) {
      return "--bot " + pair + ": expected seat=level, e.g. 1=greedy";
    }
    wire::BotSeat bot;
    bot.set_seat(seat);
    bot.set_level(pair.substr(equals + 1));
    bots.push_back(std::move(bot));
  }
  return bots;
}

// What a seat holds, for people: "'ann' (online)", "'Greedy bot' (bot: greedy)", "'bob'
// (stand-in: greedy)", "free".
std::string SeatText(const wire::SeatInfo& s) {
  if (!s.taken()) return "free";
  std::string text = "'" + s.player_name() + "'";
  if (s.resigned()) text += " (resigned)";
  if (s.stand_in()) {
    text += " (stand-in: " + (s.bot().empty() ? std::string("a bot") : s.bot()) + ")";
  } else if (!s.bot().empty()) {
    text += " (bot: " + s.bot() + ")";
  }
  if (s.online()) text += " (online)";
  return text;
}

int TakenSeats(const wire::GameInfo& game) {
  int taken = 0;
  for (const wire::SeatInfo& s : game.seat()) taken += s.taken() ? 1 : 0;
  return taken;
}

json GameInfoJson(const wire::GameInfo& game) {
  json seats = json::array();
  for (const wire::SeatInfo& s : game.seat()) {
    seats.push_back({{"seat", s.seat()},
                     {"taken", s.taken()},
                     {"player_name", s.player_name()},
                     {"online", s.online()},
                     {"bot", s.bot()},
                     {"resigned", s.resigned()},
                     {"stand_in", s.stand_in()}});
  }
  json options = json::object();
  for (const auto& [name, value] : game.options()) options[name] = value;
  return {{"game_id", game.game_id()},
          {"name", game.name()},
          {"rule_set", game.rule_set()},
          {"rule_set_version", game.rule_set_version()},
          {"options", options},
          {"seats", game.seats()},
          {"seats_taken", TakenSeats(game)},
          {"status", StatusName(game.status())},
          {"spectators", game.spectators()},
          {"on_resign",
           game.on_resign() == wire::RESIGN_POLICY_END_GAME ? "end-game" : "bot-takes-seat"},
          {"rematch_of", game.rematch_of()},
          {"rematch", game.rematch()},
          {"time_control", TimeControlJson(game.time_control())},
          {"seat", seats}};
}

uint64_t RandomSeed() {
  std::random_device device;
  return static_cast<uint64_t>(device()) << 32 | device();
}

// One game's GameInfo (ListGames for it) on an open connection; nullopt if it has none.
std::optional<wire::GameInfo> GameOf(BlockingClient& client, const std::string& game_id) {
  wire::ClientMessage message;
  message.mutable_list_games()->set_game_id(game_id);
  auto answer = client.Call(std::move(message));
  const auto* reply = std::get_if<wire::ServerMessage>(&answer);
  if (reply == nullptr || !reply->has_game_list() || reply->game_list().games().empty()) {
    return std::nullopt;
  }
  return reply->game_list().games(0);
}

// Under a running game's state: its time control, each seat (stand-ins marked) and, in a game
// with a clock, each seat's clock as the snapshot gave it.
std::string SeatsAndClocksText(const wire::GameInfo& game, const wire::Snapshot& snapshot) {
  std::string text = "time control: " + TimeControlText(game.time_control()) + "\n";
  for (const wire::SeatInfo& s : game.seat()) {
    text += "  seat " + std::to_string(s.seat()) + ": " + SeatText(s);
    if (snapshot.has_clocks() &&
        s.seat() < static_cast<uint32_t>(snapshot.clocks().remaining_ms_size())) {
      text += "  clock " + ClockText(snapshot.clocks().remaining_ms(static_cast<int>(s.seat())));
      if (snapshot.clocks().has_running() && snapshot.clocks().running() == s.seat()) {
        text += " (running)";
      }
    }
    text += "\n";
  }
  return text;
}

// ---------------------------------------------------------------------------------------------
// One-shot commands

int RuleSets(const ServerUrl& url, bool as_json) {
  BlockingClient client;
  if (!OpenClient(client, url)) return 1;
  if (as_json) {
    std::cout << RuleSetsJson(client.welcome()).dump() << "\n";
  } else {
    std::cout << RuleSetsText(client.welcome());
  }
  return 0;
}

bool IsServerFull(const std::variant<wire::ServerMessage, std::string>& answer) {
  const auto* reply = std::get_if<wire::ServerMessage>(&answer);
  return reply != nullptr && reply->has_error() &&
         reply->error().code() == wire::ERROR_CODE_SERVER_FULL;
}

struct CreateAnswer {
  std::variant<wire::ServerMessage, std::string> answer;  // the last reply, or what went wrong
  bool other_shards_tried = false;
};

// Sends a CreateGame on `client` (open at `base`). Behind a proxy the shard it chose may be full
// while others have room: a refusal with ERROR_CODE_SERVER_FULL sends the same CreateGame to each
// other shard in turn (BASE/shard/NAME/, ShardsToTryAfter), until one creates the game. A shard
// that does not answer is passed over.
CreateAnswer CreateWhereThereIsRoom(BlockingClient& client, const ServerUrl& base,
                                    const wire::ClientMessage& message) {
  CreateAnswer created{client.Call(message)};
  if (!IsServerFull(created.answer)) return created;
  for (const std::string& shard : ShardsToTryAfter(FetchShards(base), client.welcome().shard())) {
    created.other_shards_tried = true;
    BlockingClient other;
    if (other.Open(ShardUrl(base, shard))) continue;
    auto answer = other.Call(message);
    if (std::holds_alternative<std::string>(answer)) continue;
    created.answer = std::move(answer);
    if (!IsServerFull(created.answer)) return created;
  }
  return created;
}

int Create(const ServerUrl& url, const std::string& rule_set,
           const std::map<std::string, int32_t>& options, int seats, const std::string& name,
           const std::optional<uint64_t>& seed, const std::vector<wire::BotSeat>& bots,
           wire::ResignPolicy on_resign, bool spectators_chat,
           const std::optional<wire::TimeControl>& time_control, bool as_json) {
  BlockingClient client;
  if (!OpenClient(client, url)) return 1;
  wire::ClientMessage message;
  wire::CreateGame* create = message.mutable_create_game();
  create->set_rule_set(rule_set);
  create->mutable_options()->insert(options.begin(), options.end());
  create->set_seats(static_cast<uint32_t>(seats));
  create->set_name(name);
  if (seed) create->set_seed(*seed);
  for (const wire::BotSeat& bot : bots) *create->add_bots() = bot;
  create->set_on_resign(on_resign);
  create->set_spectators_chat(spectators_chat);
  if (time_control) *create->mutable_time_control() = *time_control;
  const CreateAnswer created = CreateWhereThereIsRoom(client, url, message);
  if (auto* error = std::get_if<std::string>(&created.answer)) return Fail(*error);
  const auto* reply = &std::get<wire::ServerMessage>(created.answer);
  if (reply->has_error() && IsServerFull(created.answer) && created.other_shards_tried) {
    return Fail("the server refused to create the game: " + Describe(reply->error()) +
                " (every shard that answered is full)");
  }
  if (reply->has_error()) return CreateRefused(reply->error(), client.welcome());
  if (!reply->has_game_created()) return Fail("unexpected reply to CreateGame");
  const wire::GameInfo& game = reply->game_created().game();
  if (as_json) {
    std::cout << GameInfoJson(game).dump() << "\n";
  } else {
    std::cout << game.game_id() << "\n";
  }
  return 0;
}

// Resign: the game's policy decides what follows; prints the game's status and the seats.
int Resign(const ServerUrl& url, const std::string& game_id, const std::string& token,
           bool as_json) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  message.mutable_resign()->set_game_id(game_id);
  message.mutable_resign()->set_seat_token(token);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_lobby_update()) return Fail("unexpected reply to Resign");
  const wire::GameInfo& game = reply->lobby_update().game();
  if (as_json) {
    std::cout << GameInfoJson(game).dump() << "\n";
    return 0;
  }
  std::cout << "you resigned; game " << game.game_id() << " is " << StatusName(game.status())
            << "\n";
  for (const wire::SeatInfo& s : game.seat()) {
    std::cout << "  seat " << s.seat() << ": " << SeatText(s) << "\n";
  }
  return 0;
}

// Rematch: the new game (created, or the one another player created), at the same seat; prints
// '<game> <seat> <token>'.
int Rematch(const ServerUrl& url, const std::string& game_id, const std::string& token,
            bool as_json) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  message.mutable_rematch()->set_game_id(game_id);
  message.mutable_rematch()->set_seat_token(token);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_seat_joined()) return Fail("unexpected reply to Rematch");
  const wire::SeatJoined& joined = reply->seat_joined();
  const std::string rematch = joined.game().game_id();
  const std::string new_token = Hex(joined.seat_token());
  if (as_json) {
    json out = GameInfoJson(joined.game());
    out["your_seat"] = joined.seat();
    out["token"] = new_token;
    std::cout << out.dump() << "\n";
  } else {
    std::cout << rematch << " " << joined.seat() << " " << new_token << "\n";
  }
  std::cerr << "carc-client: seat " << joined.seat() << " of " << rematch << ", the rematch of "
            << game_id << ", is yours; keep the token secret.\n"
            << "  play it with: carc-client play " << rematch << " --token <token>\n";
  return 0;
}

// The largest page of ListGames a server gives: the fewest requests for a long list.
constexpr uint32_t kListPage = 200;

// Every game one server lists (ListGames), page after page until its next_page is empty;
// nullopt after printing why there are none to show.
std::optional<std::vector<wire::GameInfo>> GamesOf(BlockingClient& client) {
  std::vector<wire::GameInfo> games;
  std::string after;
  for (;;) {
    wire::ClientMessage message;
    message.mutable_list_games()->set_limit(kListPage);
    message.mutable_list_games()->set_after(after);
    const auto reply = Call(client, std::move(message));
    if (!reply) return std::nullopt;
    if (!reply->has_game_list()) {
      Fail("unexpected reply to ListGames");
      return std::nullopt;
    }
    const wire::GameList& page = reply->game_list();
    games.insert(games.end(), page.games().begin(), page.games().end());
    if (page.next_page().empty()) return games;
    if (page.next_page() == after) {
      // A server that gives the same page again would keep this loop going for ever.
      Fail("the server's list of games does not move on after '" + after + "'");
      return std::nullopt;
    }
    after = page.next_page();
  }
}

// The games of every shard behind the proxy at `base`, each shard asked on its own connection
// (BASE/shard/NAME/): the servers know nothing of each other. A shard that does not answer is
// named on standard error and its games left out; nullopt when no shard answered.
std::optional<std::vector<wire::GameInfo>> GamesOfShards(const ServerUrl& base,
                                                         const std::vector<std::string>& shards) {
  std::vector<wire::GameInfo> games;
  size_t answered = 0;
  for (const std::string& shard : shards) {
    BlockingClient client;
    if (auto error = client.Open(ShardUrl(base, shard))) {
      Fail("shard '" + shard + "' does not answer; its games are not listed: " + *error);
      continue;
    }
    auto listed = GamesOf(client);
    if (!listed) continue;
    ++answered;
    games.insert(games.end(), listed->begin(), listed->end());
  }
  if (answered == 0) {
    Fail("no shard answered");
    return std::nullopt;
  }
  return games;
}

// The lobby: the games of the server at `base`, or behind a proxy (it answers GET /shards) the
// games of every shard, merged.
int List(const ServerUrl& base, bool as_json) {
  const std::vector<std::string> shards = FetchShards(base);
  std::optional<std::vector<wire::GameInfo>> listed;
  if (shards.empty()) {
    BlockingClient client;
    if (!OpenClient(client, base)) return 1;
    listed = GamesOf(client);
  } else {
    listed = GamesOfShards(base, shards);
  }
  if (!listed) return 1;
  std::vector<wire::GameInfo> games = *std::move(listed);
  // Ids are the shard's name (none for a server alone), "g" and a number: list them by shard,
  // each shard's in the order they were made.
  const auto key = [](const wire::GameInfo& game) {
    return std::make_tuple(ShardOfGame(game.game_id()), game.game_id().size(), game.game_id());
  };
  std::sort(games.begin(), games.end(),
            [&](const wire::GameInfo& a, const wire::GameInfo& b) { return key(a) < key(b); });
  if (as_json) {
    json list = json::array();
    for (const auto& g : games) list.push_back(GameInfoJson(g));
    std::cout << list.dump() << "\n";
    return 0;
  }
  if (games.empty()) {
    std::cout << "no games\n";
    return 0;
  }
  std::printf("%-10s %-24s %-12s %-7s %-9s %s\n", "id", "name", "rule set", "seats", "status",
              "spectators");
  for (const auto& g : games) {
    const std::string seats = std::to_string(TakenSeats(g)) + "/" + std::to_string(g.seats());
    std::printf("%-10s %-24s %-12s %-7s %-9s %u\n", g.game_id().c_str(), g.name().c_str(),
                g.rule_set().c_str(), seats.c_str(), StatusName(g.status()).c_str(),
                g.spectators());
  }
  return 0;
}

int Join(const ServerUrl& url, const std::string& game_id, const std::optional<uint32_t>& seat,
         const std::string& name, bool as_json) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  wire::JoinSeat* join = message.mutable_join_seat();
  join->set_game_id(game_id);
  if (seat) join->set_seat(*seat);
  join->set_player_name(name);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_seat_joined()) return Fail("unexpected reply to JoinSeat");
  const wire::SeatJoined& joined = reply->seat_joined();
  const std::string token = Hex(joined.seat_token());
  if (as_json) {
    std::cout << json{{"game_id", game_id}, {"seat", joined.seat()}, {"token", token}}.dump()
              << "\n";
  } else {
    std::cout << joined.seat() << " " << token << "\n";
  }
  std::cerr << "carc-client: seat " << joined.seat() << " of " << game_id
            << " is yours; keep the token secret: whoever holds it holds the seat.\n"
            << "  play it with: carc-client play " << game_id << " --token <token>\n";
  return 0;
}

int Start(const ServerUrl& url, const std::string& game_id, const std::string& token) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  // The seat is first moved to this connection (Resume; before the start its answer is a
  // LobbyUpdate): the server sends the starting Snapshot only to the seats' connections, so a
  // StartGame from any other connection gets no reply at all.
  wire::ClientMessage resume;
  resume.mutable_resume()->set_game_id(game_id);
  resume.mutable_resume()->set_seat_token(token);
  const auto lobby = Call(client, std::move(resume));
  if (!lobby) return 1;
  wire::ClientMessage message;
  message.mutable_start_game()->set_game_id(game_id);
  message.mutable_start_game()->set_seat_token(token);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_snapshot()) return Fail("unexpected reply to StartGame");
  std::cout << "game " << game_id << " started";
  if (lobby->has_lobby_update()) {
    std::cout << " with " << TakenSeats(lobby->lobby_update().game()) << " players";
  }
  std::cout << "\n";
  return 0;
}

int Show(const ServerUrl& url, const std::string& game_id, bool as_json) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  message.mutable_spectate()->set_game_id(game_id);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (reply->has_lobby_update()) {
    const wire::GameInfo& game = reply->lobby_update().game();
    if (as_json) {
      std::cout << GameInfoJson(game).dump() << "\n";
      return 0;
    }
    std::cout << "game " << game.game_id() << " (" << game.name()
              << ") is open: " << TakenSeats(game) << " of " << game.seats() << " seats taken\n";
    for (const wire::SeatInfo& s : game.seat()) {
      std::cout << "  seat " << s.seat() << ": " << SeatText(s) << "\n";
    }
    return 0;
  }
  if (!reply->has_snapshot()) return Fail("unexpected reply to Spectate");
  const auto tiles = GetTiles(client, reply->snapshot().rule_set());
  if (!tiles) return 1;
  protocol::Follower follower;
  if (auto error = follower.Start(reply->snapshot(), tiles)) return Fail(*error);
  const auto game = GameOf(client, game_id);
  const wire::Snapshot& snapshot = reply->snapshot();
  if (as_json) {
    json state = StateJson(follower);
    state["game_id"] = game_id;
    if (game) {
      state["time_control"] = TimeControlJson(game->time_control());
      state["seat"] = GameInfoJson(*game)["seat"];
    }
    if (snapshot.has_clocks()) state["clocks"] = ClocksJson(snapshot.clocks());
    std::cout << state.dump() << "\n";
  } else {
    std::cout << "game " << game_id << " (" << follower.rule_set() << ")\n"
              << RenderState(follower, *tiles);
    if (game) std::cout << SeatsAndClocksText(*game, snapshot);
    for (const wire::ChatMessage& line : snapshot.recent_chat()) {
      std::cout << ChatLineText(line) << "\n";
    }
  }
  return 0;
}

// A started game's log, step by step (GetReplay): every state hash checked on the way.
int ReplayGame(const ServerUrl& url, const std::string& game_id, bool as_json, int step_ms) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  message.mutable_get_replay()->set_game_id(game_id);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_replay()) return Fail("unexpected reply to GetReplay");
  const auto tiles = GetTiles(client, reply->replay().start().rule_set());
  if (!tiles) return 1;
  client.Close();  // the whole log is here; the server need not wait for a slow replay
  const wire::Replay& replay = reply->replay();
  if (!as_json) {
    const auto error =
        WriteReplayText(replay, tiles, std::chrono::milliseconds(step_ms), std::cout);
    return error ? Fail("replay of " + game_id + ": " + *error) : 0;
  }
  auto followed = ReplayJson(replay, tiles);
  if (auto* error = std::get_if<std::string>(&followed)) {
    return Fail("replay of " + game_id + ": " + *error);
  }
  json out = std::get<json>(std::move(followed));
  out["game"] = GameInfoJson(replay.game());
  std::cout << out.dump() << "\n";
  return 0;
}

// The public state after `sequence` steps of a started game's log (Seek), its hash checked.
int SeekGame(const ServerUrl& url, const std::string& game_id, uint64_t sequence, bool as_json) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  message.mutable_seek()->set_game_id(game_id);
  message.mutable_seek()->set_sequence(sequence);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_snapshot()) return Fail("unexpected reply to Seek");
  if (reply->snapshot().sequence() != sequence) {
    return Fail("asked for step " + std::to_string(sequence) + ", the server sent step " +
                std::to_string(reply->snapshot().sequence()));
  }
  const auto tiles = GetTiles(client, reply->snapshot().rule_set());
  if (!tiles) return 1;
  protocol::Follower follower;
  if (auto error = follower.Start(reply->snapshot(), tiles)) return Fail(*error);
  if (as_json) {
    json state = StateJson(follower);
    state["game_id"] = game_id;
    std::cout << state.dump() << "\n";
  } else {
    std::cout << "game " << game_id << " (" << follower.rule_set() << "), step " << sequence
              << " of its log\n"
              << RenderState(follower, *tiles);
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Chat and fair draws

// A line in a game's chat: as the seat of `token`, or as a spectator (the connection watches the
// game first) when there is none. Prints the line as the server stored it.
int Say(const ServerUrl& url, const std::string& game_id, const std::optional<std::string>& token,
        const std::string& text) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  if (!token) {
    wire::ClientMessage spectate;
    spectate.mutable_spectate()->set_game_id(game_id);
    if (!Call(client, std::move(spectate))) return 1;
  }
  wire::ClientMessage message;
  wire::SendChat* send = message.mutable_send_chat();
  send->set_game_id(game_id);
  if (token) send->set_seat_token(*token);
  send->set_text(text);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_chat_message()) return Fail("unexpected reply to SendChat");
  std::cout << ChatLineText(reply->chat_message()) << "\n";
  return 0;
}

int Mute(const ServerUrl& url, const std::string& game_id, const std::string& token, uint32_t seat,
         bool muted) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  wire::MuteSeat* mute = message.mutable_mute_seat();
  mute->set_game_id(game_id);
  mute->set_seat_token(token);
  mute->set_seat(seat);
  mute->set_muted(muted);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_seat_muted()) return Fail("unexpected reply to MuteSeat");
  std::cout << "seat " << reply->seat_muted().seat()
            << (reply->seat_muted().muted() ? " is muted" : " is heard again")
            << " for your seat\n";
  return 0;
}

// docs/fairness.md: the replay's GameInfo holds the commitment and, once the game is over, the
// proof; every draw of the replay is checked against it with the engine.
int VerifyDraws(const ServerUrl& url, const std::string& game_id, const std::string& noted,
                const std::string& proof_path) {
  BlockingClient client;
  if (!OpenGame(client, url, game_id)) return 1;
  wire::ClientMessage message;
  message.mutable_get_replay()->set_game_id(game_id);
  const auto reply = Call(client, std::move(message));
  if (!reply) return 1;
  if (!reply->has_replay()) return Fail("unexpected reply to GetReplay");
  const wire::GameInfo& game = reply->replay().game();
  if (!game.draw_commitment().empty()) {
    std::cout << "draw commitment: " << game.draw_commitment() << "\n";
  }
  const auto tiles = GetTiles(client, game.rule_set());
  if (!tiles) return 1;
  client.Close();
  if (!proof_path.empty() && !game.draw_proof().empty()) {
    std::ofstream out(proof_path, std::ios::binary | std::ios::trunc);
    out << game.draw_proof();
    out.close();
    if (!out) return Fail("cannot write " + proof_path);
  }
  const auto checked = CheckReplayDraws(reply->replay(), tiles, noted);
  if (const auto* why = std::get_if<std::string>(&checked)) {
    return Fail(game_id + " is not fair: " + *why);
  }
  const CheckedDraws& fair = std::get<CheckedDraws>(checked);
  std::cout << "fair: " << fair.draws << " draws match commitment " << fair.commitment << "\n";
  return 0;
}

// ---------------------------------------------------------------------------------------------
// Playing

int Play(const ServerUrl& url, const std::string& game_id, const std::string& token,
         const std::string& bot, std::optional<uint64_t> seed, bool as_json) {
  auto endpoints = Resolve(url);
  if (auto* error = std::get_if<std::string>(&endpoints)) return Fail(*error);
  const auto rule_set = RuleSetOfGame(url, game_id);
  if (!rule_set) return 1;
  auto tiles = GetTiles(GameUrl(url, game_id), *rule_set);
  if (!tiles) return 1;
  boost::asio::io_context io;
  PlayerConfig config;
  config.url = url;
  config.endpoints = std::get<Endpoints>(endpoints);
  config.policy = bot.empty() ? Policy::kHuman : bot == "eager" ? Policy::kEager : Policy::kRandom;
  config.seed = seed ? *seed : RandomSeed();
  config.print_moves = !bot.empty();
  config.print_all = bot.empty();
  config.rule_set = *rule_set;
  config.tiles = std::move(tiles);
  auto player = Player::Create(io, config);
  player->Resume(game_id, token);
  player->Start({});
  if (bot.empty()) {
    // Lines from the terminal reach the player on its strand; the reader ends with the process.
    std::thread([player] {
      std::string line;
      while (std::getline(std::cin, line)) player->Input(line);
      player->Stop();
    }).detach();
  }
  io.run();
  if (as_json && player->finished()) {
    json summary = FinishedGameJson(*player);
    summary["seat"] = player->seat();
    std::cout << summary.dump() << "\n";
  }
  if (!player->error().empty()) return Fail(player->error());
  return player->finished() || player->stopped() ? 0 : 1;
}

int Bots(const GamesOptions& options) {
  const GamesReport report = PlayGames(options);
  if (report.games.empty()) return Fail("no game was played");
  const GameResult& game = report.games.front();
  for (const std::string& e : game.errors) Fail(e);
  const auto& refused = game.seat0_errors;
  if (refused.contains("ERROR_CODE_BAD_OPTIONS") || refused.contains("ERROR_CODE_BAD_SEAT_COUNT")) {
    // CreateGame was refused: say what the server takes.
    BlockingClient client;
    if (auto error = client.Open(options.url); !error) {
      std::cerr << "the server hosts:\n" << RuleSetsText(client.welcome());
    }
  }
  if (!game.errors.empty()) return 1;
  if (!game.finished) return Fail("the game did not finish within the time limit");
  json out = json::parse(game.seat0_summary);
  out["seats_agree"] = game.seats_agree;
  out["moves"] = report.totals.moves_accepted;
  out["seconds"] = std::round(report.wall_seconds * 1000) / 1000;
  std::cout << out.dump() << "\n";
  return game.seats_agree ? 0 : 1;
}

int Main(int argc, char** argv) {
  CLI::App app{"carc-client: a command-line client of carc-server (any game it hosts)"};
  app.require_subcommand(1);
  std::string server = "ws://127.0.0.1:8080";
  app.add_option("--server", server, "the server's WebSocket URL")->capture_default_str();

  bool as_json = false;
  std::string game_id, name, token_hex, bot, on_resign = "bot-takes-seat";
  std::vector<std::string> bot_pairs;
  int seats = 4;
  std::optional<uint64_t> seed;
  std::optional<uint32_t> seat;
  std::string rule_set = "the-city";
  std::vector<std::string> option_pairs;
  const auto add_game_options = [&](CLI::App* command) {
    command->add_option("--rule-set", rule_set, "the game: a rule set the server hosts (rule-sets)")
        ->capture_default_str();
    command->add_option("--option", option_pairs,
                        "name=value: an option of the rule set (repeatable); the others take "
                        "their defaults");
  };

  CLI::App* rule_sets = app.add_subcommand(
      "rule-sets", "the games the server hosts: players and options (what create may ask for)");
  rule_sets->add_flag("--json", as_json, "print JSON");

  CLI::App* create = app.add_subcommand("create", "create a game; prints its id");
  create->add_option("--seats", seats, "within the rule set's player counts")
      ->required()
      ->check(CLI::Range(1, 64));
  add_game_options(create);
  create->add_option("--name", name, "shown in game lists");
  create->add_option("--seed", seed,
                     "the game's seed (the server picks one when absent); only a server started "
                     "with --allow-chosen-seeds takes one");
  create->add_option("--bot", bot_pairs,
                     "seat=level: a bot of the server's (random, greedy or strong) takes that "
                     "seat (repeatable)");
  create
      ->add_option("--on-resign", on_resign,
                   "what a resignation does: end-game, or bot-takes-seat (a greedy bot plays "
                   "the seat to the end)")
      ->capture_default_str()
      ->check(CLI::IsMember({"end-game", "bot-takes-seat"}));
  std::string clock = "none", grace = "0s", on_absent;
  create
      ->add_option("--clock", clock,
                   "none, live:<bank>+<increment> (e.g. live:5m+3s) or "
                   "correspondence:<time per decision> (e.g. correspondence:2d); times as 90s, "
                   "5m, 2h, 3d")
      ->capture_default_str();
  create
      ->add_option("--grace", grace,
                   "how long a disconnected player is waited for before --on-absent applies "
                   "(e.g. 30s, 2m); 0s: always")
      ->capture_default_str();
  create->add_option("--on-absent", on_absent,
                     "a player away (after --grace) or out of time: stand-in (a greedy bot plays "
                     "until they resume; the default) or forfeit (the --on-resign policy applies)");
  bool spectators_chat = false;
  create->add_flag("--spectators-chat", spectators_chat,
                   "let spectators write in the game's chat (they always read it)");
  create->add_flag("--json", as_json, "print the game as JSON");

  CLI::App* list = app.add_subcommand("list", "list the games: id, name, seats taken, status");
  list->add_flag("--json", as_json, "print JSON");

  CLI::App* join = app.add_subcommand(
      "join", "take a seat; prints '<seat> <token>' (keep the token secret: it is the seat)");
  join->add_option("game", game_id, "game id")->required();
  join->add_option("--seat", seat, "a seat number (the lowest free one when absent)");
  join->add_option("--name", name, "your name as others see it");
  join->add_flag("--json", as_json, "print {game_id, seat, token}");

  CLI::App* start = app.add_subcommand("start", "start a game early (seat 0's token)");
  start->add_option("game", game_id, "game id")->required();
  start->add_option("--token", token_hex, "seat 0's token (hex)")->required();

  CLI::App* show = app.add_subcommand("show", "print a game's public state, as a spectator");
  show->add_option("game", game_id, "game id")->required();
  show->add_flag("--json", as_json, "print the state as JSON");

  CLI::App* play = app.add_subcommand(
      "play", "play a seat: numbered choices on the terminal, or a bot with --bot");
  play->add_option("game", game_id, "game id")->required();
  play->add_option("--token", token_hex, "the seat's token (hex), from join")->required();
  play->add_option("--bot", bot, "play automatically: random or eager")
      ->check(CLI::IsMember({"random", "eager"}));
  play->add_option("--seed", seed, "the bot's seed (random when absent)");
  play->add_flag("--json", as_json, "at the end, print the result as JSON");

  CLI::App* resign =
      app.add_subcommand("resign", "give up a running game (the game's policy says what follows)");
  resign->add_option("game", game_id, "game id")->required();
  resign->add_option("--token", token_hex, "your seat's token (hex)")->required();
  resign->add_flag("--json", as_json, "print the game as JSON");

  CLI::App* rematch = app.add_subcommand(
      "rematch",
      "a new game like one that is over, you at the same seat; prints '<game> <seat> <token>'");
  rematch->add_option("game", game_id, "the id of the game that is over")->required();
  rematch->add_option("--token", token_hex, "your seat's token in it (hex)")->required();
  rematch->add_flag("--json", as_json, "print the new game, your seat and token as JSON");

  std::optional<uint64_t> seek;
  int step_ms = 0;
  CLI::App* replay = app.add_subcommand(
      "replay", "a started game again from the server's log: every step, or the state at one");
  replay->add_option("game", game_id, "game id")->required();
  replay->add_option("--seek", seek, "print the state after this many steps (0: the start)");
  replay->add_option("--step-ms", step_ms, "wait this long after each step (a slow replay)")
      ->check(CLI::Range(0, 60000));
  replay->add_flag("--json", as_json, "print JSON: the game, the steps, the final state");

  std::string chat_text;
  CLI::App* say = app.add_subcommand(
      "say", "a line in a game's chat: as your seat with --token, else as a spectator");
  say->add_option("game", game_id, "game id")->required();
  say->add_option("text", chat_text, "what to say (at most 200 bytes)")->required();
  say->add_option("--token", token_hex, "your seat's token (hex)");

  uint32_t mute_seat = 0;
  bool unmute = false;
  CLI::App* mute = app.add_subcommand(
      "mute", "stop a seat's chat lines reaching your seat (on every connection, until a restart)");
  mute->add_option("game", game_id, "game id")->required();
  mute->add_option("seat", mute_seat, "the seat to mute")->required();
  mute->add_option("--token", token_hex, "your seat's token (hex)")->required();
  mute->add_flag("--unmute", unmute, "hear the seat again");

  std::string noted_commitment, proof_path;
  CLI::App* verify_draws = app.add_subcommand(
      "verify-draws", "check that a finished game's tiles were drawn as committed at its start");
  verify_draws->add_option("game", game_id, "game id")->required();
  verify_draws->add_option("--commitment", noted_commitment,
                           "the commitment you noted during the game (default: the server's)");
  verify_draws->add_option("--proof", proof_path, "also write the proof to this file");

  GamesOptions games;
  int seconds = 0;
  bool verbose = false;
  std::string policy = "random";
  CLI::App* bots = app.add_subcommand(
      "bots", "one game of bots, each seat on its own connection; prints the final scores");
  bots->add_option("--seats", seats, "within the rule set's player counts")
      ->required()
      ->check(CLI::Range(1, 64));
  add_game_options(bots);
  bots->add_option("--seed", seed,
                   "the game's seed (the server picks one when absent); only a server started "
                   "with --allow-chosen-seeds takes one");
  bots->add_option("--bot", policy, "random or eager")
      ->capture_default_str()
      ->check(CLI::IsMember({"random", "eager"}));
  bots->add_option("--seconds", seconds, "give up after this long (default 300)")
      ->check(CLI::Range(1, 3600));
  bots->add_flag("--verbose", verbose, "print every bot's moves");
  int think_ms = 0;
  bots->add_option("--think-ms", think_ms,
                   "each bot waits this long before each move: a game to watch (default 0)")
      ->check(CLI::Range(0, 600000));

  CLI::App* load = app.add_subcommand(
      "load", "load test on loopback: many games of bots at once; prints a JSON report");
  load->add_option("--games", games.games, "games at once")
      ->required()
      ->check(CLI::Range(1, 10000));
  load->add_option("--seats", seats, "within the rule set's player counts")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  add_game_options(load);
  load->add_option("--seconds", seconds, "time limit: every bot stops then")
      ->required()
      ->check(CLI::Range(1, 600));
  load->add_option("--threads", games.threads, "client io threads")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  load->add_option("--seed", seed,
                   "game k gets seed + k (default 1); the server must be started with "
                   "--allow-chosen-seeds");
  load->add_option("--bot", policy, "random or eager")
      ->capture_default_str()
      ->check(CLI::IsMember({"random", "eager"}));
  load->add_flag("--repeat", games.repeat,
                 "start a new game whenever one ends, until the time limit (at most 5000 games)");
  load->add_option("--think-ms", think_ms,
                   "each bot waits this long before each move: the players' pace (default 0)")
      ->check(CLI::Range(0, 600000));
  load->add_option("--leave-at-sequence", games.leave_at_sequence,
                   "every seat leaves its game (unfinished) once the game's sequence reaches "
                   "this: games left for a restart (default 0: played to the end)");
  int server_pid = 0;
  load->add_option("--server-pid", server_pid,
                   "the server's process id: its CPU time and memory go in the report")
      ->check(CLI::PositiveNumber);

  CLI11_PARSE(app, argc, argv);

  const auto parsed = ParseServerUrl(server);
  if (auto* error = std::get_if<std::string>(&parsed)) return Fail("--server: " + *error);
  const ServerUrl url = std::get<ServerUrl>(parsed);

  std::optional<std::string> token;
  if (!token_hex.empty()) {
    token = FromHex(token_hex);
    if (!token) return Fail("--token: expected the hex digits printed by join");
  }

  const auto options = ParseOptions(option_pairs);
  if (auto* error = std::get_if<std::string>(&options)) return Fail(*error);

  if (rule_sets->parsed()) return RuleSets(url, as_json);
  if (create->parsed()) {
    const auto bot_seats = ParseBots(bot_pairs);
    if (auto* error = std::get_if<std::string>(&bot_seats)) return Fail(*error);
    const auto time_control = TimeControlFromOptions(clock, grace, on_absent);
    if (auto* error = std::get_if<std::string>(&time_control)) return Fail(*error);
    return Create(
        url, rule_set, std::get<0>(options), seats, name, seed, std::get<0>(bot_seats),
        on_resign == "end-game" ? wire::RESIGN_POLICY_END_GAME : wire::RESIGN_POLICY_BOT_TAKES_SEAT,
        spectators_chat, std::get<0>(time_control), as_json);
  }
  if (resign->parsed()) return Resign(url, game_id, *token, as_json);
  if (rematch->parsed()) return Rematch(url, game_id, *token, as_json);
  if (list->parsed()) return List(url, as_json);
  if (join->parsed()) return Join(url, game_id, seat, name, as_json);
  if (start->parsed()) return Start(url, game_id, *token);
  if (show->parsed()) return Show(url, game_id, as_json);
  if (play->parsed()) return Play(url, game_id, *token, bot, seed, as_json);
  if (replay->parsed()) {
    return seek ? SeekGame(url, game_id, *seek, as_json)
                : ReplayGame(url, game_id, as_json, step_ms);
  }
  if (say->parsed()) return Say(url, game_id, token, chat_text);
  if (mute->parsed()) return Mute(url, game_id, *token, mute_seat, !unmute);
  if (verify_draws->parsed()) return VerifyDraws(url, game_id, noted_commitment, proof_path);

  if (load->parsed() && !IsLoopbackHost(url.host)) {
    return Fail("load: the server must be on this machine (127.0.0.1, ::1 or localhost), not '" +
                url.host + "': the load test only sends its traffic to a loopback address");
  }
  auto endpoints = Resolve(url);
  if (auto* error = std::get_if<std::string>(&endpoints)) return Fail(*error);
  games.url = url;
  games.endpoints = std::get<Endpoints>(endpoints);
  games.seats = seats;
  games.rule_set = rule_set;
  games.options = std::get<0>(options);
  games.policy = policy == "eager" ? Policy::kEager : Policy::kRandom;
  games.think = std::chrono::milliseconds(think_ms);
  // Behind a proxy, a game the shard it chose has no room for is created on another.
  games.shards = FetchShards(url);
  if (bots->parsed()) {
    games.tiles = GetTiles(url, rule_set);
    if (!games.tiles) return 1;
    games.games = 1;
    games.seed = seed;
    games.bot_seed = seed ? *seed : RandomSeed();
    games.threads = 1;
    games.limit = std::chrono::seconds(seconds > 0 ? seconds : 300);
    games.print_moves = verbose;
    return Bots(games);
  }
  // load
  for (const auto& e : games.endpoints) {
    if (!e.endpoint().address().is_loopback()) {
      return Fail("load: '" + url.host + "' resolves to " + e.endpoint().address().to_string() +
                  ", which is not a loopback address");
    }
  }
  games.tiles = GetTiles(url, rule_set);
  if (!games.tiles) return 1;
  games.seed = seed ? *seed : 1;
  games.bot_seed = games.seed.value_or(1);
  games.limit = std::chrono::seconds(seconds);
  if (auto error = RaiseDescriptorLimit(static_cast<uint64_t>(games.games) * games.seats)) {
    return Fail("load: " + *error);
  }
  if (server_pid > 0) {
    if (!ReadProcessUsage(server_pid)) {
      return Fail("--server-pid: cannot read /proc/" + std::to_string(server_pid));
    }
    games.server_pid = server_pid;
  }
  const GamesReport report = PlayGames(games);
  std::cout << LoadReport(games, report).dump(2) << "\n";
  return report.players_failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  GOOGLE_PROTOBUF_VERIFY_VERSION;
  try {
    return Main(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "carc-client: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "carc-client: unexpected error\n";
  }
  return 3;
}
