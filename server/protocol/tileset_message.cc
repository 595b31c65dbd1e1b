#include "protocol/tileset_message.h"

namespace carc::protocol {
namespace {

v1::FeatureKind KindOf(core::FeatureKind kind) {
  switch (kind) {
    case core::FeatureKind::kStreet:
      return v1::FEATURE_KIND_STREET;
    case core::FeatureKind::kResidential:
      return v1::FEATURE_KIND_RESIDENTIAL;
    case core::FeatureKind::kMarket:
      return v1::FEATURE_KIND_MARKET;
  }
  return v1::FEATURE_KIND_UNSPECIFIED;
}

v1::MarketKind MarketOf(core::MarketKind market) {
  switch (market) {
    case core::MarketKind::kNone:
      return v1::MARKET_KIND_NONE;
    case core::MarketKind::kFish:
      return v1::MARKET_KIND_FISH;
    case core::MarketKind::kGrain:
      return v1::MARKET_KIND_GRAIN;
    case core::MarketKind::kLivestock:
      return v1::MARKET_KIND_LIVESTOCK;
  }
  return v1::MARKET_KIND_NONE;
}

v1::StreetEnd EndOf(core::StreetEnd end) {
  switch (end) {
    case core::StreetEnd::kThrough:
      return v1::STREET_END_THROUGH;
    case core::StreetEnd::kCrossing:
      return v1::STREET_END_CROSSING;
    case core::StreetEnd::kBuilding:
      return v1::STREET_END_BUILDING;
    case core::StreetEnd::kMarket:
      return v1::STREET_END_MARKET;
  }
  return v1::STREET_END_THROUGH;
}

v1::Building BuildingOf(core::Building building) {
  switch (building) {
    case core::Building::kNone:
      return v1::BUILDING_NONE;
    case core::Building::kPublic:
      return v1::BUILDING_PUBLIC;
    case core::Building::kHistoric:
      return v1::BUILDING_HISTORIC;
  }
  return v1::BUILDING_NONE;
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
    f->set_kind(KindOf(feature.kind));
    f->set_market(MarketOf(feature.market));
    f->set_end(EndOf(feature.end));
  }
  out.set_building(BuildingOf(type.building));
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
