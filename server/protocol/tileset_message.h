// The tile set as the wire protocol sends it (the TileSet message): what each tile id shows, so
// that a client can draw tiles and name features without a copy of the tile-set file.
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "carcassonne/tiles/v1/tiles.pb.h"
#include "core/tileset.h"

namespace carc::protocol {

namespace tilespb = ::carcassonne::tiles::v1;

// Every type of `tiles` in file order, with its ports, features and building as the engine has
// them; a port without a feature is -1.
tilespb::TileSet ToProto(const core::TileSet& tiles);

// The engine's tile set that a TileSet message describes (what a client plays and draws with).
// It is rebuilt by writing the message back as a tile-set file (docs/tiles.md) and parsing that
// with the engine's loader, so a set from the wire passes every check a file does and gets every
// table the engine derives. Refused, with the reason, when a type cannot be written as a file
// line (a text with a character the format does not allow, a value out of range), the loader
// refuses the file, or the loaded set does not number its tiles, ports and features as the
// message does.
std::variant<std::shared_ptr<const core::TileSet>, std::string> FromProto(
    const tilespb::TileSet& message);

}  // namespace carc::protocol
