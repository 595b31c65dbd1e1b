// The tile set as the wire protocol sends it (the TileSet message): what each tile id shows, so
// that a client can draw tiles and name features without a copy of the tile-set file.
#pragma once

#include "carcassonne/city/v1/city.pb.h"
#include "core/tileset.h"

namespace carc::protocol {

namespace v1 = ::carcassonne::city::v1;

// Every type of `tiles` in file order, with its ports, features and building as the engine has
// them; a port without a feature is -1.
v1::TileSet ToProto(const core::TileSet& tiles);

}  // namespace carc::protocol
