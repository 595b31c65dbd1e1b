// Bots in seats, resigning and rematches: what a room needs that is not the game itself.
//
// A seat may be played by a bot of the server's (engine/bots/bot.h): from the creation of the
// game (CreateGame.bots), or from the moment its player resigned in a game whose policy is to let
// a bot take the seat. The room holds a token of its own for each seat a bot plays, never sent
// anywhere, and a bot's action enters the room exactly as a person's Move does: the same checks
// (token, decision, sequence number, engine) and the same log. The token of a person whose seat a
// bot took is refused from then on; the machinery does not care whose seat the bot plays, so a
// stand-in for an absent person can be attached the same way.
//
// A room never thinks itself: it asks a BotRunner, which the server backs with a bounded pool of
// worker threads (net/bot_pool.h), each job with its own copy of the committed game, and which
// hands the answer back on the room's strand. An answer to a state the game has left (the game
// moved on, or ended) is dropped.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bots/bot.h"
#include "core/rule_set.h"
#include "persistence/store.h"
#include "protocol/envelope.h"
#include "protocol/game_codec.h"

namespace carc::server {

namespace wire = protocol::wire;

// A seat a bot plays from the creation of the game.
struct BotSeatOption {
  int seat = 0;
  bots::Level level = bots::Level::kRandom;
  friend bool operator==(const BotSeatOption&, const BotSeatOption&) = default;
};

// The bot seats of a CreateGame for a game of `seats` seats, or why they are refused (the
// reason of ERROR_CODE_BAD_BOTS): a seat out of range or named twice, an unknown level, or no
// seat left for a person.
std::variant<std::vector<BotSeatOption>, std::string> ParseBotSeats(const wire::CreateGame& create,
                                                                    int seats);

// "Greedy bot": the name a bot's seat shows.
std::string BotPlayerName(bots::Level level);

// A game's resign policy as GameInfo shows it (never RESIGN_POLICY_UNSPECIFIED).
wire::ResignPolicy ToProto(persistence::ResignPolicy policy);

// One decision for a bot to take.
struct BotRequest {
  std::unique_ptr<core::State> state;  // the room's committed game, copied
  bots::Level level = bots::Level::kRandom;
  uint64_t seed = 0;  // from the server's own randomness: nobody can predict the bot's choice
  const protocol::GameCodec* codec = nullptr;  // of the game's rule set
};

// The bot's action for `request`, encoded as a client would send it (the game package's
// Action). Pure, and as slow as the budget allows: runners call it off the room's thread.
std::string ChooseEncoded(const BotRequest& request, const bots::Budget& budget);

// Where bots think. `answer` gets the encoded action, on the thread that runs the room (the
// server's runner posts it to the room's strand); it may never be called (the server stops).
class BotRunner {
 public:
  using Answer = std::function<void(std::string action)>;
  virtual ~BotRunner() = default;
  virtual void Think(BotRequest request, Answer answer) = 0;
};

}  // namespace carc::server
