#include "render.h"

#include <vector>

#include "canvas.h"
#include "city/action.h"

namespace carc::tool {
namespace {

using namespace carc::city;

char AreaChar(const core::FeatureDef& def) {
  if (def.kind != core::FeatureKind::kMarket) return '.';
  switch (def.market) {
    case core::MarketKind::kFish:
      return 'F';
    case core::MarketKind::kGrain:
      return 'G';
    case core::MarketKind::kLivestock:
      return 'L';
    case core::MarketKind::kNone:
      break;
  }
  return '?';
}

void DrawTile(const Game& game, int index, const Frame& f, Canvas* canvas) {
  const core::PlacedTile& placed = game.board().Placed(index);
  const core::TileType& type = game.tiles().TypeOf(placed.tile);
  const int cx = f.Col(placed.x);
  const int cy = f.Row(placed.y);
  const auto area = [&](int port) {
    return AreaChar(type.features[static_cast<size_t>(type.FeatureAt(port, placed.rotation))]);
  };
  const auto street = [&](int side) { return (placed.street_sides & (1u << side)) != 0; };
  // Corners show the north and south halves; a corner is a market letter if either half is.
  canvas->Put(cx, cy, area(core::PortOf(core::kNorth, 0)));
  canvas->Put(cx + 4, cy, area(core::PortOf(core::kNorth, 2)));
  canvas->Put(cx + 4, cy + 2, area(core::PortOf(core::kSouth, 0)));
  canvas->Put(cx, cy + 2, area(core::PortOf(core::kSouth, 2)));
  canvas->Put(cx + 1, cy, area(core::PortOf(core::kNorth, 0)));
  canvas->Put(cx + 3, cy, area(core::PortOf(core::kNorth, 2)));
  canvas->Put(cx + 3, cy + 2, area(core::PortOf(core::kSouth, 0)));
  canvas->Put(cx + 1, cy + 2, area(core::PortOf(core::kSouth, 2)));
  canvas->Put(cx, cy + 1, area(core::PortOf(core::kWest, 0)));
  canvas->Put(cx + 4, cy + 1, area(core::PortOf(core::kEast, 2)));
  canvas->Put(cx + 2, cy, street(core::kNorth) ? '|' : area(core::PortOf(core::kNorth, 0)));
  canvas->Put(cx + 2, cy + 2, street(core::kSouth) ? '|' : area(core::PortOf(core::kSouth, 0)));
  canvas->Put(cx + 1, cy + 1, street(core::kWest) ? '-' : ' ');
  canvas->Put(cx + 3, cy + 1, street(core::kEast) ? '-' : ' ');
  char centre = ' ';
  if (type.building == core::Building::kPublic) centre = 'p';
  if (type.building == core::Building::kHistoric) centre = 'H';
  if (centre == ' ' && placed.street_sides != 0) centre = '+';
  for (int i = 0; i < game.FollowerSpotCount(); ++i) {
    if (game.Spot(i).index == index) centre = static_cast<char>('0' + game.Spot(i).player);
  }
  canvas->Put(cx + 2, cy + 1, centre);
}

void DrawPiece(const WallPiece& w, char c, const Frame& f, Canvas* canvas) {
  const int cx = f.Col(w.x);
  const int cy = f.Row(w.y);
  const char mark = w.guard != kNoGuard ? static_cast<char>('0' + w.guard) : c;
  switch (w.side) {
    case core::kNorth:
      for (int i = -1; i <= kCellW; ++i) canvas->Put(cx + i, cy - 1, i == 2 ? mark : c);
      break;
    case core::kSouth:
      for (int i = -1; i <= kCellW; ++i) canvas->Put(cx + i, cy + kCellH, i == 2 ? mark : c);
      break;
    case core::kWest:
      for (int i = -1; i <= kCellH; ++i) canvas->Put(cx - 1, cy + i, i == 1 ? mark : c);
      break;
    default:
      for (int i = -1; i <= kCellH; ++i) canvas->Put(cx + kCellW, cy + i, i == 1 ? mark : c);
      break;
  }
}

std::string Summary(const Game& game) {
  std::string out;
  for (int p = 0; p < game.players(); ++p) {
    out += "player " + std::to_string(p) + ": " + std::to_string(game.TotalScore(p)) + " points (";
    for (int s = 0; s < kSourceCount; ++s) {
      out += std::string(s ? ", " : "") + ToString(static_cast<Source>(s)) + " " +
             std::to_string(game.Score(p, static_cast<Source>(s)));
    }
    out += "), followers " + std::to_string(game.FollowersInSupply(p)) + ", towers " +
           std::to_string(game.TowersLeft(p)) + "\n";
  }
  out += "stacks left: " + std::to_string(game.StackLeft(0)) + " " +
         std::to_string(game.StackLeft(1)) + " " + std::to_string(game.StackLeft(2)) +
         "; discarded " + std::to_string(game.TilesDiscarded()) + "; walls left " +
         std::to_string(game.WallsLeft());
  if (game.chain().HasGate()) {
    out += "; wall pieces " + std::to_string(game.chain().PieceCount()) + ", unwalled distance " +
           std::to_string(game.UnwalledDistance()) + (game.chain().Closed() ? " (closed)" : "");
  }
  out += "\n";
  for (int i = 0; i < game.chain().TowerCount(); ++i) {
    const Tower& t = game.chain().TowerAt(i);
    out += "tower of player " + std::to_string(t.player) + " at the " +
           (t.end == kFrontEnd ? "front" : "back") + " end, after piece " +
           std::to_string(t.position) + "\n";
  }
  if (game.IsOver()) {
    out += std::string("game over: ") + ToString(game.EndedBy()) + "\n";
  } else {
    const Decision d = game.CurrentDecision();
    out += std::string("next: ") + ToString(d.kind) + " by " +
           (d.actor == kChance ? "chance" : "player " + std::to_string(d.actor));
    if (game.counters().drawn_tile >= 0) {
      out += " (tile " + std::to_string(game.counters().drawn_tile) + ", " +
             game.tiles().TypeOf(game.counters().drawn_tile).name + ")";
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::string RenderGame(const Game& game) {
  const core::Board& board = game.board();
  if (board.TileCount() == 0) return "(no tile placed yet)\n" + Summary(game);
  const Frame f = BoardFrame(board);
  Canvas canvas = BoardCanvas(board, f);
  for (int i = 0; i < board.TileCount(); ++i) DrawTile(game, i, f, &canvas);
  const WallChain& chain = game.chain();
  for (int end = 0; end < 2; ++end) {
    for (int i = 0; i < chain.Count(end); ++i) DrawPiece(chain.Piece(end, i), '#', f, &canvas);
  }
  if (chain.HasGate()) DrawPiece(chain.Gate(), '=', f, &canvas);
  return canvas.Text() +
         "legend: . residential, F/G/L fish/grain/livestock market, | - streets, + crossing,\n"
         "        p public / H historic building, digit: a player's follower; # wall (digit: "
         "guard), = gate\n" +
         Summary(game);
}

}  // namespace carc::tool
