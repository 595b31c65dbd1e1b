// The route from a client message to a room: which bodies are room requests, the game each names,
// and Room::Handle passing each to its handler.
#include "room/request.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "city/default_tiles.h"
#include "city/rule_set.h"
#include "persistence/journal.h"
#include "room/room.h"

namespace carc::server {
namespace {

// The eight requests a room answers, each naming game `game_id`.
std::vector<wire::ClientMessage> RoomRequests(const std::string& game_id) {
  std::vector<wire::ClientMessage> out(8);
  out[0].mutable_join_seat()->set_game_id(game_id);
  out[1].mutable_leave_seat()->set_game_id(game_id);
  out[2].mutable_start_game()->set_game_id(game_id);
  out[3].mutable_spectate()->set_game_id(game_id);
  out[4].mutable_resume()->set_game_id(game_id);
  out[5].mutable_move()->set_game_id(game_id);
  out[6].mutable_resign()->set_game_id(game_id);
  out[7].mutable_rematch()->set_game_id(game_id);
  return out;
}

TEST(RoomRequest, TheEightGameRequestsNameTheirGame) {
  for (const wire::ClientMessage& message : RoomRequests("g17")) {
    const auto request = RoomRequestOf(message);
    ASSERT_TRUE(request.has_value()) << message.ShortDebugString();
    EXPECT_EQ(GameIdOf(*request), "g17") << message.ShortDebugString();
    EXPECT_EQ(CatchesUp(*request), message.has_spectate() || message.has_resume());
  }
}

TEST(RoomRequest, TheSessionsAndTheLobbysMessagesAreNotRoomRequests) {
  std::vector<wire::ClientMessage> others(8);
  others[0].mutable_hello();
  others[1].mutable_ping();
  others[2].mutable_create_game();
  others[3].mutable_list_games()->set_game_id("g1");
  others[4].mutable_get_replay()->set_game_id("g1");
  others[5].mutable_seek()->set_game_id("g1");
  others[6].mutable_get_tile_set();
  // others[7]: no body
  for (const wire::ClientMessage& message : others) {
    EXPECT_FALSE(RoomRequestOf(message).has_value()) << message.ShortDebugString();
  }
}

class Inbox : public Peer {
 public:
  void Send(Bytes message) override {
    wire::ServerMessage decoded;
    ASSERT_TRUE(decoded.ParseFromString(*message));
    received.push_back(std::move(decoded));
  }
  std::vector<wire::ServerMessage> received;
};

// Every request reaches its handler through Handle, which answers with the request's id; other
// messages get no answer from a room.
TEST(RoomRequest, HandlePassesEachRequestToItsHandler) {
  persistence::StoreOptions options;
  options.path = ":memory:";
  auto store = persistence::Store::Open(options);
  ASSERT_TRUE(store.ok());
  persistence::DirectLog log(*store);
  Room room(RoomOptions{1, "route", 2, 7, 512},
            DefaultRoomGame(city::MakeRuleSet(city::DefaultTileSet())), OsRandomToken, log);
  room.Create(std::make_shared<Inbox>(), 0);

  auto peer = std::make_shared<Inbox>();
  wire::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(2);
  room.Handle(peer, hello);
  EXPECT_TRUE(peer->received.empty()) << "not a room request";

  std::vector<wire::ClientMessage> requests = RoomRequests("g1");
  for (size_t i = 0; i < requests.size(); ++i) {
    requests[i].set_request_id(10 + i);
    room.Handle(peer, requests[i]);
    ASSERT_FALSE(peer->received.empty()) << requests[i].ShortDebugString();
    EXPECT_EQ(peer->received.back().request_id(), 10 + i) << requests[i].ShortDebugString();
  }
  // The replies are those of each handler: a seat, then refusals for want of a token, the
  // open game to the spectator, a move before the start, and a resign and a rematch without a
  // token.
  ASSERT_EQ(peer->received.size(), 8u);
  EXPECT_TRUE(peer->received[0].has_seat_joined());
  EXPECT_EQ(peer->received[1].error().code(), wire::ERROR_CODE_BAD_TOKEN);
  EXPECT_EQ(peer->received[2].error().code(), wire::ERROR_CODE_BAD_TOKEN);
  EXPECT_TRUE(peer->received[3].has_lobby_update());
  EXPECT_EQ(peer->received[4].error().code(), wire::ERROR_CODE_BAD_TOKEN);
  EXPECT_EQ(peer->received[5].error().code(), wire::ERROR_CODE_SPECTATOR);
  EXPECT_EQ(peer->received[6].error().code(), wire::ERROR_CODE_BAD_TOKEN);
  EXPECT_EQ(peer->received[7].error().code(), wire::ERROR_CODE_BAD_TOKEN);
}

}  // namespace
}  // namespace carc::server
