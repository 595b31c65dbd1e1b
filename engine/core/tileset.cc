#include "core/tileset.h"

#include <algorithm>
#include <set>

#include "core/text.h"

namespace carc::core {
namespace {

constexpr int kMaxTileCount = 200;  // a file with more copies than this is surely a mistake

bool IsName(std::string_view word, bool allow_upper_and_underscore) {
  if (word.empty()) return false;
  return std::all_of(word.begin(), word.end(), [&](char c) {
    const bool lower_or_digit = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    const bool extra = (c >= 'A' && c <= 'Z') || c == '_';
    return lower_or_digit || (allow_upper_and_underscore && extra);
  });
}

bool IsAreaLetter(char c) { return c >= 'a' && c <= 'h'; }
// A half with nothing printed on it: only the sides of a start space that face the wall.
constexpr char kBlankHalf = '.';
bool IsStreetDigit(char c) { return c >= '1' && c <= '4'; }

const std::array<const char*, 4> kSideNames = {"north", "east", "south", "west"};

}  // namespace

class TileSetParser {
 public:
  std::variant<std::shared_ptr<const TileSet>, ParseError> Parse(std::string_view text) {
    const bool parsed = ForEachLine(text, [this](int number, std::string_view, const auto& words) {
      line_ = number;
      return ParseLine(words);
    });
    if (!parsed) return error_;
    if (!seen_header_) return ParseError{0, "the file has no 'tileset <id> <version>' line"};
    if (set_->types_.empty()) return ParseError{0, "the file has no 'tile' lines"};
    return std::shared_ptr<const TileSet>(std::move(set_));
  }

 private:
  bool Fail(std::string message) {
    error_ = ParseError{line_, std::move(message)};
    return false;
  }

  bool ParseLine(const std::vector<std::string_view>& words) {
    if (words[0] == "tileset") return ParseHeader(words);
    if (words[0] == "tile") {
      if (!seen_header_) return Fail("'tileset <id> <version>' must come before the first tile");
      return ParseTile(words);
    }
    return Fail("unknown line '" + std::string(words[0]) + "' (expected 'tileset' or 'tile')");
  }

  bool ParseHeader(const std::vector<std::string_view>& words) {
    if (seen_header_) return Fail("a second 'tileset' line");
    if (words.size() != 3) return Fail("expected 'tileset <id> <version>'");
    if (!IsName(words[1], false)) return Fail("the tile-set id must match [a-z0-9-]+");
    int version = 0;
    if (!ParseNumber(words[2], &version) || version < 0) {
      return Fail("the tile-set version must be a whole number");
    }
    set_->id_ = std::string(words[1]);
    set_->version_ = version;
    seen_header_ = true;
    return true;
  }

  bool ParseTile(const std::vector<std::string_view>& words) {
    if (words.size() < 7) {
      return Fail("expected 'tile <name> <count> <north> <east> <south> <west> [key=value ...]'");
    }
    TileType type;
    if (!IsName(words[1], true)) return Fail("the tile name must match [A-Za-z0-9_-]+");
    type.name = std::string(words[1]);
    if (!names_.insert(type.name).second) return Fail("tile name '" + type.name + "' used twice");
    if (!ParseNumber(words[2], &type.count) || type.count < 1 || type.count > 75) {
      return Fail("the count must be a whole number from 1 to 75");
    }
    std::array<char, kPorts> ports{};
    for (int side = 0; side < kSides; ++side) {
      const std::string_view word = words[3 + static_cast<size_t>(side)];
      if (word.size() != 3) {
        return Fail(std::string("side '") + std::string(word) + "' (" + kSideNames[side] +
                    ") must be three characters");
      }
      for (int k = 0; k < 3; ++k) ports[static_cast<size_t>(PortOf(side, k))] = word[k];
    }
    std::vector<std::string_view> options(words.begin() + 7, words.end());
    return BuildTile(ports, options, &type) && AddTile(std::move(type));
  }

  bool BuildTile(const std::array<char, kPorts>& ports,
                 const std::vector<std::string_view>& options, TileType* type) {
    std::array<int, 256> index_of_label;
    index_of_label.fill(kNoFeature);
    type->port_feature.fill(kNoFeature);
    blank_halves_ = 0;
    junctions_.assign(kMaxFeaturesPerTile, false);
    for (int port = 0; port < kPorts; ++port) {
      const char c = ports[static_cast<size_t>(port)];
      const bool mid = port % kPortsPerSide == kMidPort;
      if (mid && c == '-') continue;
      if (!mid && c == kBlankHalf) {
        blank_halves_ |= static_cast<uint16_t>(1u << port);
        continue;
      }
      if (mid && !IsStreetDigit(c)) {
        return Fail(std::string("a midpoint must be '-' or a street digit 1-4, not '") + c + "'");
      }
      if (!mid && !IsAreaLetter(c)) {
        return Fail(
            std::string("a half must be an area letter a-h (or '.' on a start space), not '") + c +
            "'");
      }
      int& index = index_of_label[static_cast<unsigned char>(c)];
      if (index == kNoFeature) {
        if (type->FeatureCount() == kMaxFeaturesPerTile) {
          return Fail("a tile has at most " + std::to_string(kMaxFeaturesPerTile) + " features");
        }
        index = type->FeatureCount();
        FeatureDef def;
        def.label = c;
        def.kind = mid ? FeatureKind::kStreet : FeatureKind::kResidential;
        type->features.push_back(def);
      }
      type->features[static_cast<size_t>(index)].ports |= static_cast<uint16_t>(1u << port);
      type->port_feature[static_cast<size_t>(port)] = static_cast<int8_t>(index);
      if (mid) type->street_sides |= static_cast<uint8_t>(1u << SideOfPort(port));
    }
    std::vector<bool> declared(type->features.size(), false);
    for (std::string_view option : options) {
      if (!ApplyOption(option, index_of_label, &declared, type)) return false;
    }
    return CheckTile(declared, *type) && FinishTile(type);
  }

  bool ApplyOption(std::string_view option, const std::array<int, 256>& index_of_label,
                   std::vector<bool>* declared, TileType* type) {
    const size_t eq = option.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == option.size()) {
      return Fail("expected key=value, got '" + std::string(option) + "'");
    }
    const std::string_view key = option.substr(0, eq);
    const std::string_view value = option.substr(eq + 1);
    if (key == "building") return ApplyBuilding(value, type);
    if (key == "role") return ApplyRole(value, type);
    if (key.size() != 1) return Fail("unknown key '" + std::string(key) + "'");
    const int index = index_of_label[static_cast<unsigned char>(key[0])];
    if (index == kNoFeature) {
      if (value == "monastery") return AddMonastery(key[0], declared, type);
      return Fail("'" + std::string(key) + "' is declared but not used on the tile's sides");
    }
    if ((*declared)[static_cast<size_t>(index)]) {
      return Fail("'" + std::string(key) + "' is declared twice");
    }
    (*declared)[static_cast<size_t>(index)] = true;
    FeatureDef& def = type->features[static_cast<size_t>(index)];
    if (def.kind == FeatureKind::kStreet) return ApplyStreetAttributes(value, index, &def);
    return ApplyAreaKind(value, &def);
  }

  bool ApplyBuilding(std::string_view value, TileType* type) {
    if (type->building != Building::kNone) return Fail("a tile carries at most one building");
    if (value == "public") {
      type->building = Building::kPublic;
      return true;
    }
    constexpr std::string_view kHistoric = "historic:";
    if (value.substr(0, kHistoric.size()) != kHistoric || value.size() == kHistoric.size() ||
        !IsName(value.substr(kHistoric.size()), true)) {
      return Fail("building must be 'public' or 'historic:<Name>'");
    }
    type->building = Building::kHistoric;
    type->historic_name = std::string(value.substr(kHistoric.size()));
    std::replace(type->historic_name.begin(), type->historic_name.end(), '_', ' ');
    return true;
  }

  // A monastery lies in the tile's centre: a feature that touches no port, declared by a letter
  // that the sides do not use.
  bool AddMonastery(char label, std::vector<bool>* declared, TileType* type) {
    if (label < 'a' || label > 'z') return Fail("a monastery is named by a lower-case letter");
    if (type->HasFeature(FeatureKind::kMonastery)) return Fail("a tile has at most one monastery");
    if (type->FeatureCount() == kMaxFeaturesPerTile) {
      return Fail("a tile has at most " + std::to_string(kMaxFeaturesPerTile) + " features");
    }
    FeatureDef def;
    def.kind = FeatureKind::kMonastery;
    def.label = label;
    type->features.push_back(def);
    declared->push_back(true);
    return true;
  }

  bool ApplyRole(std::string_view value, TileType* type) {
    if (type->role != TileRole::kNone) return Fail("a tile has at most one role");
    if (value == "start") {
      type->role = TileRole::kStart;
    } else if (value == "spring") {
      type->role = TileRole::kSpring;
    } else if (value == "lake") {
      type->role = TileRole::kLake;
    } else if (value == "start-space") {
      type->role = TileRole::kStartSpace;
    } else {
      return Fail("a role must be start, spring, lake or start-space, not '" + std::string(value) +
                  "'");
    }
    return true;
  }

  // A street's attributes, joined by '+': at most one end, `river`, and The Castle's `fountain`
  // (a fountain on the path) and `junction` (one path that branches to three or four sides).
  bool ApplyStreetAttributes(std::string_view value, int index, FeatureDef* def) {
    bool has_end = false;
    for (std::string_view attribute : SplitOn(value, '+')) {
      if (attribute == "fountain") {
        def->symbol = true;
      } else if (attribute == "junction") {
        junctions_[static_cast<size_t>(index)] = true;
      } else {
        if (has_end) return Fail("a street has at most one end, not '" + std::string(value) + "'");
        has_end = true;
        if (!ApplyStreetEnd(attribute, def)) return false;
      }
    }
    return true;
  }

  static std::vector<std::string_view> SplitOn(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t at = text.find(separator); at != std::string_view::npos;
         at = text.find(separator, start)) {
      parts.push_back(text.substr(start, at - start));
      start = at + 1;
    }
    parts.push_back(text.substr(start));
    return parts;
  }

  bool ApplyStreetEnd(std::string_view value, FeatureDef* def) {
    if (value == "square") {
      def->end = StreetEnd::kSquare;
    } else if (value == "wall") {
      def->end = StreetEnd::kWall;
    } else if (value == "crossing") {
      def->end = StreetEnd::kCrossing;
    } else if (value == "building") {
      def->end = StreetEnd::kBuilding;
    } else if (value == "market") {
      def->end = StreetEnd::kMarket;
    } else if (value == "monastery") {
      def->end = StreetEnd::kMonastery;
    } else if (value == "city") {
      def->end = StreetEnd::kCity;
    } else if (value == "river") {
      def->kind = FeatureKind::kRiver;
    } else {
      return Fail(
          "a street end must be crossing, building, market, monastery, city, square or wall (or "
          "the segment a river, a fountain or a junction), not '" +
          std::string(value) + "'");
    }
    return true;
  }

  bool ApplyAreaKind(std::string_view value, FeatureDef* def) {
    if (value == "residential") {
      def->kind = FeatureKind::kResidential;
      return true;
    }
    if (value == "city" || value == "city+pennant") {
      def->kind = FeatureKind::kCity;
      def->pennant = value == "city+pennant";
      return true;
    }
    if (value == "field") {
      def->kind = FeatureKind::kField;
      return true;
    }
    if (value == "tower" || value == "house" || value == "court" || value == "court+market") {
      def->kind = value == "tower"   ? FeatureKind::kTower
                  : value == "house" ? FeatureKind::kHouse
                                     : FeatureKind::kCourt;
      def->symbol = value == "court+market";
      return true;
    }
    if (value == "monastery") {
      return Fail("a monastery lies in the tile's centre: its letter must not be on the sides");
    }
    def->kind = FeatureKind::kMarket;
    if (value == "fish") {
      def->market = MarketKind::kFish;
    } else if (value == "grain") {
      def->market = MarketKind::kGrain;
    } else if (value == "livestock") {
      def->market = MarketKind::kLivestock;
    } else {
      return Fail(
          "an area must be residential, fish, grain, livestock, city, city+pennant, field, tower, "
          "house, court or court+market, not '" +
          std::string(value) + "'");
    }
    return true;
  }

  static int SidesTouched(const FeatureDef& def) {
    int sides = 0;
    for (int side = 0; side < kSides; ++side) {
      if (def.ports & (1u << PortOf(side, kMidPort))) ++sides;
    }
    return sides;
  }

  bool CheckTile(const std::vector<bool>& declared, const TileType& type) {
    int crossing_ends = 0;
    int square_ends = 0;
    for (const FeatureDef& def : type.features) {
      if (def.kind == FeatureKind::kStreet && def.end == StreetEnd::kCrossing) ++crossing_ends;
      if (def.kind == FeatureKind::kStreet && def.end == StreetEnd::kSquare) ++square_ends;
    }
    if (!CheckStartSpace(type)) return false;
    for (size_t i = 0; i < type.features.size(); ++i) {
      const FeatureDef& def = type.features[i];
      const std::string label(1, def.label);
      if (def.kind == FeatureKind::kRiver) {
        if (!CheckRiver(def, type)) return false;
        continue;
      }
      if (def.kind != FeatureKind::kStreet) {
        if (!declared[i])
          return Fail("area '" + label + "' has no kind (e.g. " + label + "=residential)");
        continue;
      }
      const int sides = SidesTouched(def);
      const bool junction = junctions_[i];
      if (sides > 2 && !junction) {
        return Fail("street '" + label + "' touches more than two sides (a branching path is '" +
                    label + "=junction')");
      }
      if (junction && sides < 3) {
        return Fail("junction '" + label + "' must touch three or four sides");
      }
      if (sides == 1 && def.end == StreetEnd::kThrough) {
        return Fail("street '" + label + "' touches one side: say where it ends (" + label +
                    "=crossing|building|market)");
      }
      if (sides >= 2 && def.end != StreetEnd::kThrough) {
        return Fail("street '" + label + "' runs through the tile and has no end");
      }
      if (def.end == StreetEnd::kCrossing && crossing_ends < 3) {
        return Fail("a crossing needs at least three street segments ending at it");
      }
      if (def.end == StreetEnd::kSquare && square_ends < 3) {
        return Fail("a square needs at least three paths ending at it");
      }
      if (def.end == StreetEnd::kWall && type.role != TileRole::kStartSpace) {
        return Fail("only a start space's path ends at the wall (role=start-space)");
      }
      if (!CheckStreetEndsAtSomething(def, type)) return false;
    }
    return CheckRole(type);
  }

  // A street that ends at a market, a monastery or a city needs one on its tile.
  bool CheckStreetEndsAtSomething(const FeatureDef& def, const TileType& type) {
    const std::string label(1, def.label);
    if (def.end == StreetEnd::kMarket && !type.HasFeature(FeatureKind::kMarket)) {
      return Fail("street '" + label + "' ends at a market, but the tile has none");
    }
    if (def.end == StreetEnd::kMonastery && !type.HasFeature(FeatureKind::kMonastery)) {
      return Fail("road '" + label + "' ends at a monastery, but the tile has none");
    }
    if (def.end == StreetEnd::kCity && !type.HasFeature(FeatureKind::kCity)) {
      return Fail("road '" + label + "' ends at a city, but the tile has none");
    }
    return true;
  }

  // A river runs through a tile (two sides) or starts or ends on it: only the spring and the lake.
  bool CheckRiver(const FeatureDef& def, const TileType& type) {
    const int sides = SidesTouched(def);
    if (sides > 2)
      return Fail("river '" + std::string(1, def.label) + "' touches more than two sides");
    const bool spring_or_lake = type.role == TileRole::kSpring || type.role == TileRole::kLake;
    if (sides == 1 && !spring_or_lake) {
      return Fail("a 'river' that touches one side needs role=spring or role=lake");
    }
    if (sides == 2 && spring_or_lake) {
      return Fail("the river of a spring or a lake touches one side");
    }
    return true;
  }

  // A start space is a strip printed on the castle wall: what it shows lies on its north side
  // (turned to face the castle when the board places it), its other halves are blank ('.').
  bool CheckStartSpace(const TileType& type) {
    constexpr uint16_t kNorthPorts = 0b111;
    if (type.role != TileRole::kStartSpace) {
      if (blank_halves_ != 0) return Fail("only a start space has blank halves ('.')");
      return true;
    }
    if (type.count != 1) return Fail("a start space is unique: its count must be 1");
    for (const FeatureDef& def : type.features) {
      if ((def.ports & ~kNorthPorts) != 0) {
        return Fail("a start space shows its features on its north side only");
      }
    }
    if (type.features.empty()) return Fail("a start space shows at least one feature");
    return true;
  }

  bool CheckRole(const TileType& type) {
    if (type.role != TileRole::kSpring && type.role != TileRole::kLake) return true;
    int rivers = 0;
    for (const FeatureDef& def : type.features) rivers += def.kind == FeatureKind::kRiver;
    if (rivers != 1) return Fail("a spring or a lake shows exactly one river");
    return true;
  }

  static bool FinishTile(TileType* type) {
    for (int r = 0; r < 4; ++r) {
      type->street_sides_rotated[static_cast<size_t>(r)] = RotateSideMask(type->street_sides, r);
      for (int port = 0; port < kPorts; ++port) {
        type->port_feature_rotated[static_cast<size_t>(r)][static_cast<size_t>(port)] =
            type->port_feature[static_cast<size_t>(UnrotatePort(port, r))];
      }
    }
    for (unsigned context = 0; context < 256; ++context) {
      const unsigned sides = context >> 4;
      const unsigned streets = context & 0xFu;
      for (int r = 0; r < 4; ++r) {
        if ((type->street_sides_rotated[static_cast<size_t>(r)] & sides) == streets) {
          type->fitting_rotations[context] |= static_cast<uint8_t>(1u << r);
        }
      }
    }
    // Areas touch where two consecutive halves of the border meet without a street between.
    std::set<std::array<uint8_t, 2>> touching;
    for (int port = 0; port < kPorts; ++port) {
      if (port % kPortsPerSide == kMidPort) continue;
      const bool first_half = port % kPortsPerSide == 0;
      const int next = first_half ? port + 2 : (port + 1) % kPorts;
      if (first_half && type->port_feature[static_cast<size_t>(port) + 1] != kNoFeature) continue;
      const int a = type->port_feature[static_cast<size_t>(port)];
      const int b = type->port_feature[static_cast<size_t>(next)];
      if (a == b || a == kNoFeature || b == kNoFeature) continue;
      touching.insert({static_cast<uint8_t>(std::min(a, b)), static_cast<uint8_t>(std::max(a, b))});
    }
    type->touching_areas.assign(touching.begin(), touching.end());
    ComputeSideKinds(type);
    return true;
  }

  static void ComputeSideKinds(TileType* type) {
    for (int side = 0; side < kSides; ++side) {
      std::array<uint16_t, kPortsPerSide> code{};
      for (int k = 0; k < kPortsPerSide; ++k) {
        const int f = type->port_feature[static_cast<size_t>(PortOf(side, k))];
        if (f != kNoFeature) {
          code[static_cast<size_t>(k)] = static_cast<uint16_t>(
              static_cast<int>(type->features[static_cast<size_t>(f)].kind) + 1);
        }
      }
      type->side_kinds[static_cast<size_t>(side)] =
          static_cast<uint16_t>(code[0] << 8 | code[1] << 4 | code[2]);
      type->side_kinds_facing[static_cast<size_t>(side)] =
          static_cast<uint16_t>(code[2] << 8 | code[1] << 4 | code[0]);
    }
  }

  bool AddTile(TileType type) {
    if (type.building == Building::kHistoric) {
      if (type.count != 1) return Fail("a historic building is unique: its tile's count must be 1");
      if (!historic_names_.insert(type.historic_name).second) {
        return Fail("historic building '" + type.historic_name + "' appears twice");
      }
    }
    if (type.role != TileRole::kNone && type.role != TileRole::kStartSpace) {
      if (type.count != 1)
        return Fail("a start tile, spring or lake is unique: its count must be 1");
      if (!roles_.insert(type.role).second) {
        return Fail(std::string("a second tile with role=") + ToString(type.role));
      }
    }
    type.first_id = set_->TileCount();
    if (set_->TileCount() + type.count > kMaxTileCount) {
      return Fail("more than " + std::to_string(kMaxTileCount) + " tiles in the set");
    }
    const auto type_index = static_cast<uint8_t>(set_->types_.size());
    set_->type_of_tile_.insert(set_->type_of_tile_.end(), static_cast<size_t>(type.count),
                               type_index);
    set_->types_.push_back(std::move(type));
    return true;
  }

  std::unique_ptr<TileSet> set_ = std::make_unique<TileSet>();
  std::set<std::string> names_;
  std::set<std::string> historic_names_;
  std::set<TileRole> roles_;
  uint16_t blank_halves_ = 0;    // of the tile being parsed
  std::vector<bool> junctions_;  // of the tile being parsed, by feature index
  bool seen_header_ = false;
  int line_ = 0;
  ParseError error_;
};

std::variant<std::shared_ptr<const TileSet>, ParseError> ParseTileSet(std::string_view text) {
  return TileSetParser().Parse(text);
}

std::string ParseError::ToString() const {
  if (line == 0) return message;
  return "line " + std::to_string(line) + ": " + message;
}

const char* ToString(FeatureKind kind) {
  switch (kind) {
    case FeatureKind::kStreet:
      return "street";
    case FeatureKind::kResidential:
      return "residential";
    case FeatureKind::kMarket:
      return "market";
    case FeatureKind::kCity:
      return "city";
    case FeatureKind::kField:
      return "field";
    case FeatureKind::kMonastery:
      return "monastery";
    case FeatureKind::kRiver:
      return "river";
    case FeatureKind::kTower:
      return "tower";
    case FeatureKind::kHouse:
      return "house";
    case FeatureKind::kCourt:
      return "court";
  }
  return "?";
}

const char* ToString(MarketKind kind) {
  switch (kind) {
    case MarketKind::kNone:
      return "none";
    case MarketKind::kFish:
      return "fish";
    case MarketKind::kGrain:
      return "grain";
    case MarketKind::kLivestock:
      return "livestock";
  }
  return "?";
}

const char* ToString(StreetEnd end) {
  switch (end) {
    case StreetEnd::kThrough:
      return "through";
    case StreetEnd::kCrossing:
      return "crossing";
    case StreetEnd::kBuilding:
      return "building";
    case StreetEnd::kMarket:
      return "market";
    case StreetEnd::kMonastery:
      return "monastery";
    case StreetEnd::kCity:
      return "city";
    case StreetEnd::kSquare:
      return "square";
    case StreetEnd::kWall:
      return "wall";
  }
  return "?";
}

const char* ToString(Building building) {
  switch (building) {
    case Building::kNone:
      return "none";
    case Building::kPublic:
      return "public";
    case Building::kHistoric:
      return "historic";
  }
  return "?";
}

const char* ToString(TileRole role) {
  switch (role) {
    case TileRole::kNone:
      return "none";
    case TileRole::kStart:
      return "start";
    case TileRole::kSpring:
      return "spring";
    case TileRole::kLake:
      return "lake";
    case TileRole::kStartSpace:
      return "start-space";
  }
  return "?";
}

}  // namespace carc::core
