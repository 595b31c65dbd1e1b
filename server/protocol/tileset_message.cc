#include "protocol/tileset_message.h"

#include <google/protobuf/util/message_differencer.h>

#include <optional>

namespace carc::protocol {
namespace {

// The tile set's wire enums number their values as the engine does, FeatureKind one higher (its
// 0 is UNSPECIFIED); these checks keep it so, and the conversions below are plain casts.
static_assert(v1::FEATURE_KIND_STREET == static_cast<int>(core::FeatureKind::kStreet) + 1);
static_assert(v1::FEATURE_KIND_RESIDENTIAL ==
              static_cast<int>(core::FeatureKind::kResidential) + 1);
static_assert(v1::FEATURE_KIND_MARKET == static_cast<int>(core::FeatureKind::kMarket) + 1);
static_assert(v1::MARKET_KIND_NONE == static_cast<int>(core::MarketKind::kNone));
static_assert(v1::MARKET_KIND_FISH == static_cast<int>(core::MarketKind::kFish));
static_assert(v1::MARKET_KIND_GRAIN == static_cast<int>(core::MarketKind::kGrain));
static_assert(v1::MARKET_KIND_LIVESTOCK == static_cast<int>(core::MarketKind::kLivestock));
static_assert(v1::STREET_END_THROUGH == static_cast<int>(core::StreetEnd::kThrough));
static_assert(v1::STREET_END_CROSSING == static_cast<int>(core::StreetEnd::kCrossing));
static_assert(v1::STREET_END_BUILDING == static_cast<int>(core::StreetEnd::kBuilding));
static_assert(v1::STREET_END_MARKET == static_cast<int>(core::StreetEnd::kMarket));
static_assert(v1::BUILDING_NONE == static_cast<int>(core::Building::kNone));
static_assert(v1::BUILDING_PUBLIC == static_cast<int>(core::Building::kPublic));
static_assert(v1::BUILDING_HISTORIC == static_cast<int>(core::Building::kHistoric));

template <typename Wire, typename Engine>
Wire WireValue(Engine value, int offset = 0) {
  return static_cast<Wire>(static_cast<int>(value) + offset);
}

v1::TileType TypeOf(const core::TileType& type) {
  v1::TileType out;
  out.set_name(type.name);
  out.set_first_id(static_cast<uint32_t>(type.first_id));
  out.set_count(static_cast<uint32_t>(type.count));
  // The engine's kNoFeature is -1 too; the wire value is spelled out so the two stay apart.
  for (const int8_t feature : type.port_feature) {
    out.add_port_feature(feature == core::kNoFeature ? -1 : feature);
  }
  for (const core::FeatureDef& feature : type.features) {
    v1::TileFeature* f = out.add_features();
    f->set_kind(WireValue<v1::FeatureKind>(feature.kind, 1));
    f->set_market(WireValue<v1::MarketKind>(feature.market));
    f->set_end(WireValue<v1::StreetEnd>(feature.end));
    f->set_label(std::string(1, feature.label));
  }
  out.set_building(WireValue<v1::Building>(type.building));
  out.set_historic_name(type.historic_name);
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

bool IsLabel(const std::string& label) {
  return label.size() == 1 &&
         ((label[0] >= 'a' && label[0] <= 'h') || (label[0] >= '1' && label[0] <= '4'));
}

// The feature's declaration in the file ("b=fish", "1=crossing"); empty for a street through
// the tile, which has none; nullopt for a kind, market or end the format does not know.
std::optional<std::string> Declaration(const v1::TileFeature& f) {
  const std::string& label = f.label();
  switch (f.kind()) {
    case v1::FEATURE_KIND_RESIDENTIAL:
      return label + "=residential";
    case v1::FEATURE_KIND_MARKET:
      switch (f.market()) {
        case v1::MARKET_KIND_FISH:
          return label + "=fish";
        case v1::MARKET_KIND_GRAIN:
          return label + "=grain";
        case v1::MARKET_KIND_LIVESTOCK:
          return label + "=livestock";
        default:
          return std::nullopt;
      }
    case v1::FEATURE_KIND_STREET:
      switch (f.end()) {
        case v1::STREET_END_THROUGH:
          return "";
        case v1::STREET_END_CROSSING:
          return label + "=crossing";
        case v1::STREET_END_BUILDING:
          return label + "=building";
        case v1::STREET_END_MARKET:
          return label + "=market";
        default:
          return std::nullopt;
      }
    default:
      return std::nullopt;
  }
}

// The type's four sides, "a1b b-b b1a a-a", into `line`; the error, if a port names no feature.
std::optional<std::string> AppendSides(const v1::TileType& type, std::string& line) {
  if (type.port_feature_size() != core::kPorts) {
    return std::to_string(type.port_feature_size()) + " ports, not 12";
  }
  for (int p = 0; p < core::kPorts; ++p) {
    if (p % 3 == 0) line += ' ';
    const int feature = type.port_feature(p);
    if (feature == -1) {
      line += '-';
    } else if (feature >= 0 && feature < type.features_size()) {
      line += type.features(feature).label();
    } else {
      return "port " + std::to_string(p) + " names feature " + std::to_string(feature);
    }
  }
  return std::nullopt;
}

// The type's "tile ..." line, or why it cannot be one.
std::optional<std::string> AppendType(const v1::TileType& type, std::string& file) {
  std::string line = "tile " + type.name() + " " + std::to_string(type.count());
  if (auto error = AppendSides(type, line)) return error;
  for (int i = 0; i < type.features_size(); ++i) {
    const v1::TileFeature& f = type.features(i);
    const auto declaration = IsLabel(f.label()) ? Declaration(f) : std::nullopt;
    if (!declaration) return "feature " + std::to_string(i) + " is not one a tile-set file has";
    if (!declaration->empty()) line += " " + *declaration;
  }
  switch (type.building()) {
    case v1::BUILDING_NONE:
      break;
    case v1::BUILDING_PUBLIC:
      line += " building=public";
      break;
    case v1::BUILDING_HISTORIC: {
      if (!IsPlain(type.historic_name(), true)) return "its historic building has no name";
      std::string name = type.historic_name();
      for (char& c : name) c = c == ' ' ? '_' : c;
      line += " building=historic:" + name;
      break;
    }
    default:
      return "its building is of no known kind";
  }
  file += line + "\n";
  return std::nullopt;
}

}  // namespace

std::variant<std::shared_ptr<const core::TileSet>, std::string> FromProto(
    const v1::TileSet& message) {
  if (!IsPlain(message.id(), false)) return "the tile set's id is not one a tile-set file has";
  std::string file = "tileset " + message.id() + " " + std::to_string(message.version()) + "\n";
  for (const v1::TileType& type : message.types()) {
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
  const v1::TileSet loaded = ToProto(*tiles);
  for (int i = 0; i < message.types_size(); ++i) {
    if (!google::protobuf::util::MessageDifferencer::Equals(loaded.types(i), message.types(i))) {
      return "tile type '" + message.types(i).name() +
             "': its tile ids or features are not numbered as the tile-set file numbers them";
    }
  }
  return tiles;
}

v1::TileSet ToProto(const core::TileSet& tiles) {
  v1::TileSet out;
  out.set_id(tiles.id());
  out.set_version(static_cast<uint32_t>(tiles.version()));
  for (const core::TileType& type : tiles.types()) *out.add_types() = TypeOf(type);
  return out;
}

}  // namespace carc::protocol
