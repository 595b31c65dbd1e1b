// The board as SVG: each placed tile drawn from the tile set (tile-art.ts), followers as their
// seat's marker on the feature they stand on (farmers lying on their field: a flat marker on a
// ground line, so they are told from standing followers without colour), and the overlay of the
// seat's decision: legal cells, the tile being placed, clickable spots for a follower. Without
// the tile set (not yet loaded) tiles are plain squares. Engine y grows north; SVG y grows down,
// so a cell (x, y) is drawn with its top-left corner at (x·C, −y·C).
import { FeatureKind } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import type { FeatureDef, TileCatalog } from "../../tiles/catalog";
import type { Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { marker, playerName } from "../../ui/players";
import * as shared from "../shared/board";
import { CELL, cellCentre, type BoardTiles, type CellOverlay, type Placement } from "../shared/board";
import type { PublicState } from "./model";
import { tileArt } from "./tile-art";
import { tileRoleWord } from "./words";

export { CELL, cellCentre };
export type { Placement };

// A follower's feature to pick on the board.
export interface BoardPick {
  readonly x: number;
  readonly y: number;
  readonly feature: number;
  readonly label: string;
  readonly pick: () => void;
}

export interface BoardOverlay extends CellOverlay {
  readonly picks: readonly BoardPick[];
}

export const NO_OVERLAY: BoardOverlay = { cells: [], ghost: null, onCell: null, picks: [] };

export interface BoardInput {
  readonly state: PublicState;
  readonly catalog: TileCatalog | null;
  readonly names: readonly string[];
}

// The feature of the tile at (x, y), and where a follower on it stands in board units; null
// when the tile or its type is unknown.
export function featureAt(inp: BoardInput, x: number, y: number, feature: number): { def: FeatureDef | undefined; at: Point } | null {
  return shared.featureAt(tilesOf(inp), x, y, feature);
}

function tilesOf(inp: BoardInput): BoardTiles {
  return { tiles: inp.state.tiles, catalog: inp.catalog, art: tileArt };
}

// A farmer lies on its field: the seat's marker flattened, on a ground line.
function farmer(seat: number, x: number, y: number): SVGGElement {
  const body = marker(seat, 0, 0, 9);
  return s(
    "g",
    { class: "marker follower farmer", transform: `translate(${x} ${y})`, "data-role": "farmer" },
    s("g", { transform: "scale(1.5 0.6)" }, body),
    s("line", { x1: -15, y1: 8, x2: 15, y2: 8, class: "farmer-ground" }),
  );
}

// Followers stand on their feature; where the tile set is unknown they are spread in a row.
function followerLayer(inp: BoardInput): SVGGElement {
  return shared.followerLayer(tilesOf(inp), inp.state.followers, (f, def, at) => {
    const role = tileRoleWord(def);
    let m: SVGElement;
    if (def?.kind === FeatureKind.FIELD) {
      m = farmer(f.player, at[0], at[1]);
    } else {
      m = marker(f.player, at[0], at[1], 9);
      m.setAttribute("class", "marker follower");
      m.setAttribute("data-role", role);
    }
    m.append(s("title", {}, `${playerName(inp.names, f.player)}'s ${role}`));
    return m;
  });
}

function overlayLayer(inp: BoardInput, o: BoardOverlay): SVGGElement {
  const g = shared.overlayLayer(tilesOf(inp), o);
  for (const p of o.picks) g.append(shared.followerSpot(tilesOf(inp), p.x, p.y, p.feature, p.label, p.pick));
  return g;
}

export function drawBoard(inp: BoardInput, overlay: BoardOverlay): SVGGElement {
  return shared.boardGroup(tilesOf(inp), [followerLayer(inp), overlayLayer(inp, overlay)]);
}

// The board's extent in SVG units (with a margin of one cell), for fitting the view.
export function boardBounds(st: PublicState): { x: number; y: number; w: number; h: number } {
  return shared.boardBounds(st.tiles);
}
