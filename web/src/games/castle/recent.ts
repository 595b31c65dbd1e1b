// What a move of The Castle changed on the board, for the highlight of recent moves: the tile
// placed, the follower put, the keep set on its house, and the points scored where they were.
import type { Event } from "../../gen/carcassonne/castle/v1/castle_pb";
import type { TileCatalog } from "../../tiles/catalog";
import type { MoveMark } from "../module";
import { featurePoint, pointsMarks } from "../shared/recent";
import type { PublicState } from "./model";

function eventMarks(state: PublicState, event: Event, catalog: TileCatalog | null): MoveMark[] {
  const k = event.kind;
  const at = (x: number, y: number, feature: number): readonly [number, number] | null => featurePoint(state.tiles, catalog, x, y, feature);
  switch (k.case) {
    case "tilePlaced":
      return [{ kind: "tile", player: k.value.player, x: k.value.x, y: k.value.y }];
    case "followerPlaced":
    case "keepPlaced": {
      const p = at(k.value.x, k.value.y, k.value.feature);
      return p === null ? [] : [{ kind: "piece", player: k.value.player, at: p }];
    }
    case "featureScored":
      return pointsMarks(k.value.points, at(k.value.x, k.value.y, k.value.feature));
    default:
      return [];
  }
}

export function moveMarks(state: PublicState, events: readonly Event[], catalog: TileCatalog | null): MoveMark[] {
  return events.flatMap((e) => eventMarks(state, e, catalog));
}
