#include "protocol/tileset_message.h"

#include <google/protobuf/util/message_differencer.h>

#include <optional>

namespace carc::protocol {
namespace {

// The tile set's wire enums number their values as the engine does, FeatureKind one higher (its
// 0 is UNSPECIFIED); these checks keep it so, and the conversions below are plain casts.
static_assert(tilespb::FEATURE_KIND_STREET == static_cast<int>(core::FeatureKind::kStreet) + 1);
static_assert(tilespb::FEATURE_KIND_RESIDENTIAL ==
              static_cast<int>(core::FeatureKind::kResidential) + 1);
static_assert(tilespb::FEATURE_KIND_MARKET == static_cast<int>(core::FeatureKind::kMarket) + 1);
static_assert(tilespb::FEATURE_KIND_CITY == static_cast<int>(core::FeatureKind::kCity) + 1);
static_assert(tilespb::FEATURE_KIND_FIELD == static_cast<int>(core::FeatureKind::kField) + 1);
static_assert(tilespb::FEATURE_KIND_MONASTERY ==
              static_cast<int>(core::FeatureKind::kMonastery) + 1);
static_assert(tilespb::FEATURE_KIND_RIVER == static_cast<int>(core::FeatureKind::kRiver) + 1);
static_assert(tilespb::FEATURE_KIND_TOWER == static_cast<int>(core::FeatureKind::kTower) + 1);
static_assert(tilespb::FEATURE_KIND_HOUSE == static_cast<int>(core::FeatureKind::kHouse) + 1);
static_assert(tilespb::FEATURE_KIND_COURT == static_cast<int>(core::FeatureKind::kCourt) + 1);
static_assert(tilespb::MARKET_KIND_NONE == static_cast<int>(core::MarketKind::kNone));
static_assert(tilespb::MARKET_KIND_FISH == static_cast<int>(core::MarketKind::kFish));
static_assert(tilespb::MARKET_KIND_GRAIN == static_cast<int>(core::MarketKind::kGrain));
static_assert(tilespb::MARKET_KIND_LIVESTOCK == static_cast<int>(core::MarketKind::kLivestock));
static_assert(tilespb::STREET_END_THROUGH == static_cast<int>(core::StreetEnd::kThrough));
static_assert(tilespb::STREET_END_CROSSING == static_cast<int>(core::StreetEnd::kCrossing));
static_assert(tilespb::STREET_END_BUILDING == static_cast<int>(core::StreetEnd::kBuilding));
static_assert(tilespb::STREET_END_MARKET == static_cast<int>(core::StreetEnd::kMarket));
static_assert(tilespb::STREET_END_MONASTERY == static_cast<int>(core::StreetEnd::kMonastery));
static_assert(tilespb::STREET_END_CITY == static_cast<int>(core::StreetEnd::kCity));
static_assert(tilespb::STREET_END_SQUARE == static_cast<int>(core::StreetEnd::kSquare));
static_assert(tilespb::STREET_END_WALL == static_cast<int>(core::StreetEnd::kWall));
static_assert(tilespb::BUILDING_NONE == static_cast<int>(core::Building::kNone));
static_assert(tilespb::BUILDING_PUBLIC == static_cast<int>(core::Building::kPublic));
static_assert(tilespb::BUILDING_HISTORIC == static_cast<int>(core::Building::kHistoric));
static_assert(tilespb::TILE_ROLE_NONE == static_cast<int>(core::TileRole::kNone));
static_assert(tilespb::TILE_ROLE_START == static_cast<int>(core::TileRole::kStart));
static_assert(tilespb::TILE_ROLE_SPRING == static_cast<int>(core::TileRole::kSpring));
static_assert(tilespb::TILE_ROLE_LAKE == static_cast<int>(core::TileRole::kLake));
static_assert(tilespb::TILE_ROLE_START_SPACE == static_cast<int>(core::TileRole::kStartSpace));

template <typename Wire, typename Engine>
Wire WireValue(Engine value, int offset = 0) {
  return static_cast<Wire>(static_cast<int>(value) + offset);
}

tilespb::TileType TypeOf(const core::TileType& type) {
  tilespb::TileType out;
  out.set_name(type.name);
  out.set_first_id(static_cast<uint32_t>(type.first_id));
  out.set_count(static_cast<uint32_t>(type.count));
  // The engine's kNoFeature is -1 too; the wire value is spelled out so the two stay apart.
  for (const int8_t feature : type.port_feature) {
    out.add_port_feature(feature == core::kNoFeature ? -1 : feature);
  }
  for (const core::FeatureDef& feature : type.features) {
    tilespb::TileFeature* f = out.add_features();
    f->set_kind(WireValue<tilespb::FeatureKind>(feature.kind, 1));
    f->set_market(WireValue<tilespb::MarketKind>(feature.market));
    f->set_end(WireValue<tilespb::StreetEnd>(feature.end));
    f->set_label(std::string(1, feature.label));
    f->set_pennant(feature.pennant);
    f->set_symbol(feature.symbol);
  }
  out.set_building(WireValue<tilespb::Building>(type.building));
  out.set_historic_name(type.historic_name);
  out.set_role(WireValue<tilespb::TileRole>(type.role));
  return out;
}

// ---------------------------------------------------------------------------------------------
// From the wire: the message written back as a tile-set file

// Letters, digits, '-' and '_' (and spaces where allowed): nothing that could end a word or a
// line of the file, or start a comment.
bool IsPlain(const std::string& text, bool spaces) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || (spaces && c == ' ');
    if (!plain) return false;
  }
  return true;
}

// An area's letter (a-h), a segment's digit (1-4), or a monastery's 'm'.
bool IsLabel(const std::string& label) {
  return label.size() == 1 && ((label[0] >= 'a' && label[0] <= 'h') ||
                               (label[0] >= '1' && label[0] <= '4') || label[0] == 'm');
}

// The word for a street's end ("crossing"); empty for a street through the tile, which has
// none; nullopt for an end the format does not know.
std::optional<std::string> StreetEndWord(tilespb::StreetEnd end) {
  switch (end) {
    case tilespb::STREET_END_THROUGH:
      return "";
    case tilespb::STREET_END_CROSSING:
      return "crossing";
    case tilespb::STREET_END_BUILDING:
      return "building";
    case tilespb::STREET_END_MARKET:
      return "market";
    case tilespb::STREET_END_MONASTERY:
      return "monastery";
    case tilespb::STREET_END_CITY:
      return "city";
    case tilespb::STREET_END_SQUARE:
      return "square";
    case tilespb::STREET_END_WALL:
      return "wall";
    default:
      return std::nullopt;
  }
}

// A street's declaration: its end, `junction` when it reaches three or four sides, `fountain`
// when one stands on it, joined by '+' ("1=crossing", "1=junction+fountain", "1=wall+fountain");
// empty for a plain street through the tile, which has none; nullopt for an end the format does
// not know.
std::optional<std::string> StreetDeclaration(const tilespb::TileFeature& f, bool junction) {
  std::optional<std::string> attributes = StreetEndWord(f.end());
  if (!attributes) return std::nullopt;
  const auto add = [&attributes](const char* word) {
    if (!attributes->empty()) *attributes += '+';
    *attributes += word;
  };
  if (junction) add("junction");
  if (f.symbol()) add("fountain");
  if (attributes->empty()) return "";
  return f.label() + "=" + *attributes;
}

// The feature's declaration in the file ("b=fish", "a=city+pennant", "1=crossing",
// "c=court+market"); empty for a plain street through the tile, which has none; nullopt for a
// kind, market or end the format does not know. `junction`: a street that reaches three or four
// sides.
std::optional<std::string> Declaration(const tilespb::TileFeature& f, bool junction) {
  const std::string& label = f.label();
  // Only a court (its market) and a street (its fountain) carry a symbol.
  if (f.symbol() && f.kind() != tilespb::FEATURE_KIND_COURT &&
      f.kind() != tilespb::FEATURE_KIND_STREET) {
    return std::nullopt;
  }
  switch (f.kind()) {
    case tilespb::FEATURE_KIND_TOWER:
      return label + "=tower";
    case tilespb::FEATURE_KIND_HOUSE:
      return label + "=house";
    case tilespb::FEATURE_KIND_COURT:
      return label + (f.symbol() ? "=court+market" : "=court");
    case tilespb::FEATURE_KIND_CITY:
      return label + (f.pennant() ? "=city+pennant" : "=city");
    case tilespb::FEATURE_KIND_FIELD:
      return label + "=field";
    case tilespb::FEATURE_KIND_MONASTERY:
      return label + "=monastery";
    case tilespb::FEATURE_KIND_RIVER:
      return label + "=river";
    case tilespb::FEATURE_KIND_RESIDENTIAL:
      return label + "=residential";
    case tilespb::FEATURE_KIND_MARKET:
      switch (f.market()) {
        case tilespb::MARKET_KIND_FISH:
          return label + "=fish";
        case tilespb::MARKET_KIND_GRAIN:
          return label + "=grain";
        case tilespb::MARKET_KIND_LIVESTOCK:
          return label + "=livestock";
        default:
          return std::nullopt;
      }
    case tilespb::FEATURE_KIND_STREET:
      return StreetDeclaration(f, junction);
    default:
      return std::nullopt;
  }
}

// The type's four sides, "a1b b-b b1a a-a", into `line` ('-' at a midpoint without a street,
// '.' at a blank half of a start space); the error, if a port names no feature.
std::optional<std::string> AppendSides(const tilespb::TileType& type, std::string& line) {
  if (type.port_feature_size() != core::kPorts) {
    return std::to_string(type.port_feature_size()) + " ports, not 12";
  }
  for (int p = 0; p < core::kPorts; ++p) {
    if (p % 3 == 0) line += ' ';
    const int feature = type.port_feature(p);
    if (feature == -1) {
      line += p % 3 == 1 ? '-' : '.';
    } else if (feature >= 0 && feature < type.features_size()) {
      line += type.features(feature).label();
    } else {
      return "port " + std::to_string(p) + " names feature " + std::to_string(feature);
    }
  }
  return std::nullopt;
}

// How many sides of the type feature `feature` reaches at their midpoints (a street's sides).
int SidesOf(const tilespb::TileType& type, int feature) {
  int sides = 0;
  for (int side = 0; side < core::kSides; ++side) {
    const int mid = side * 3 + 1;
    if (mid < type.port_feature_size() && type.port_feature(mid) == feature) ++sides;
  }
  return sides;
}

// The type's "tile ..." line, or why it cannot be one.
std::optional<std::string> AppendType(const tilespb::TileType& type, std::string& file) {
  std::string line = "tile " + type.name() + " " + std::to_string(type.count());
  if (auto error = AppendSides(type, line)) return error;
  for (int i = 0; i < type.features_size(); ++i) {
    const tilespb::TileFeature& f = type.features(i);
    const auto declaration =
        IsLabel(f.label()) ? Declaration(f, SidesOf(type, i) > 2) : std::nullopt;
    if (!declaration) return "feature " + std::to_string(i) + " is not one a tile-set file has";
    if (!declaration->empty()) line += " " + *declaration;
  }
  switch (type.building()) {
    case tilespb::BUILDING_NONE:
      break;
    case tilespb::BUILDING_PUBLIC:
      line += " building=public";
      break;
    case tilespb::BUILDING_HISTORIC: {
      if (!IsPlain(type.historic_name(), true)) return "its historic building has no name";
      std::string name = type.historic_name();
      for (char& c : name) c = c == ' ' ? '_' : c;
      line += " building=historic:" + name;
      break;
    }
    default:
      return "its building is of no known kind";
  }
  switch (type.role()) {
    case tilespb::TILE_ROLE_NONE:
      break;
    case tilespb::TILE_ROLE_START:
      line += " role=start";
      break;
    case tilespb::TILE_ROLE_SPRING:
      line += " role=spring";
      break;
    case tilespb::TILE_ROLE_LAKE:
      line += " role=lake";
      break;
    case tilespb::TILE_ROLE_START_SPACE:
      line += " role=start-space";
      break;
    default:
      return "its role is of no known kind";
  }
  file += line + "\n";
  return std::nullopt;
}

}  // namespace

std::variant<std::shared_ptr<const core::TileSet>, std::string> FromProto(
    const tilespb::TileSet& message) {
  if (!IsPlain(message.id(), false)) return "the tile set's id is not one a tile-set file has";
  std::string file = "tileset " + message.id() + " " + std::to_string(message.version()) + "\n";
  for (const tilespb::TileType& type : message.types()) {
    if (!IsPlain(type.name(), false)) return "a tile type's name is not one a tile-set file has";
    if (auto error = AppendType(type, file)) return "tile type '" + type.name() + "': " + *error;
  }
  auto parsed = core::ParseTileSet(file);
  if (auto* error = std::get_if<core::ParseError>(&parsed)) {
    // Line 1 is the tileset line, line k + 1 the k-th type.
    const int type = error->line - 2;
    if (type >= 0 && type < message.types_size()) {
      return "tile type '" + message.types(type).name() + "': " + error->message;
    }
    return "the tile set does not load: " + error->ToString();
  }
  auto tiles = std::get<std::shared_ptr<const core::TileSet>>(std::move(parsed));
  // The loader numbers tiles in file order and features in the order their ports show them:
  // a message that numbers them otherwise describes another set.
  const tilespb::TileSet loaded = ToProto(*tiles);
  for (int i = 0; i < message.types_size(); ++i) {
    if (!google::protobuf::util::MessageDifferencer::Equals(loaded.types(i), message.types(i))) {
      return "tile type '" + message.types(i).name() +
             "': its tile ids or features are not numbered as the tile-set file numbers them";
    }
  }
  return tiles;
}

tilespb::TileSet ToProto(const core::TileSet& tiles) {
  tilespb::TileSet out;
  out.set_id(tiles.id());
  out.set_version(static_cast<uint32_t>(tiles.version()));
  for (const core::TileType& type : tiles.types()) *out.add_types() = TypeOf(type);
  return out;
}

}  // namespace carc::protocol
