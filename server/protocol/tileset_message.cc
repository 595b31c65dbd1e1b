#include "protocol/tileset_message.h"

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
  }
  out.set_building(WireValue<v1::Building>(type.building));
  out.set_historic_name(type.historic_name);
  return out;
}

}  // namespace

v1::TileSet ToProto(const core::TileSet& tiles) {
  v1::TileSet out;
  out.set_id(tiles.id());
  out.set_version(static_cast<uint32_t>(tiles.version()));
  for (const core::TileType& type : tiles.types()) *out.add_types() = TypeOf(type);
  return out;
}

}  // namespace carc::protocol
