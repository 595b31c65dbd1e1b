// The Castle's default tile set (data/castle-tiles.txt) and board (data/castle-board.txt),
// compiled into the binary so that tools and servers run from any directory. Both are still
// parsed from their text like any other file.
#pragma once

#include <memory>
#include <string_view>

#include "castle/layout.h"
#include "core/tileset.h"

namespace carc::castle {

std::string_view DefaultTileSetText();
std::string_view DefaultLayoutText();
// Parsed once; the embedded files are checked by the tests, so a parse failure is a build bug.
std::shared_ptr<const core::TileSet> DefaultTileSet();
std::shared_ptr<const Layout> DefaultLayout();

}  // namespace carc::castle
