// The list of games the protocol carries: one line per game.
#include <array>

#include "protocol/castle/game_codec.h"
#include "protocol/city/game_codec.h"
#include "protocol/game_codec.h"
#include "protocol/river/game_codec.h"

namespace carc::protocol {

std::span<const GameCodec* const> GameCodecs() {
  static const std::array<const GameCodec*, 3> codecs{&CityCodec(), &RiverCodec(), &CastleCodec()};
  return codecs;
}

const GameCodec* FindGameCodec(std::string_view rule_set_id) {
  for (const GameCodec* codec : GameCodecs()) {
    if (codec->RuleSetId() == rule_set_id) return codec;
  }
  return nullptr;
}

}  // namespace carc::protocol
