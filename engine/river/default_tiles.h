// Carcassonne's default tile set (data/base-and-river-tiles.txt: the base game and the River),
// compiled into the binary so that tools and servers run from any directory. It is still parsed
// from its text like any other set.
#pragma once

#include <memory>
#include <string_view>

#include "core/tileset.h"

namespace carc::river {

std::string_view DefaultTileSetText();
// Parsed once; the embedded file is checked by the tests, so a parse failure is a build bug.
std::shared_ptr<const core::TileSet> DefaultTileSet();

}  // namespace carc::river
