// The board as SVG: the castle's squares inside its wall, the wall as a ring of stone cells with
// the scoring track's numbers (two spaces per cell, 0 to 99), its corner towers (a face-down wall
// tile on each that still holds one), the start spaces lying on the wall, each placed tile drawn
// from the tile set (tile-art.ts), followers as their seat's marker with a letter for their role
// (H herald, K knight, S squire, M merchant), each player's keep on its house, both players'
// scoring markers on the track (at the score modulo 100), and the overlay of the seat's decision.
// Engine y grows north; SVG y grows down, so a cell (x, y) is drawn with its top-left corner at
// (x·C, −y·C).
import { FeatureKind, WallKind } from "../../gen/carcassonne/castle/v1/castle_pb";
import type { TileCatalog } from "../../tiles/catalog";
import type { Point } from "../../tiles/geometry";
import { s } from "../../ui/dom";
import { look, marker, playerName } from "../../ui/players";
import * as shared from "../shared/board";
import { CELL, cellCentre, type BoardTiles, type CellOverlay, type Placement } from "../shared/board";
import { TRACK_LENGTH, totalScore, type Board, type PublicState } from "./model";
import { tileArt } from "./tile-art";
import { kindOfFeature, tileRoleWord } from "./words";

export { CELL, cellCentre };
export type { Placement };

// A feature to pick on the board: a follower's, or the one a scoring or wall tile applies to.
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

function tilesOf(inp: BoardInput): BoardTiles {
  return { tiles: inp.state.tiles, catalog: inp.catalog, art: tileArt };
}

function squaresLayer(board: Board): SVGGElement {
  const g = s("g", { class: "castle-squares" });
  for (const q of board.squares) {
    g.append(s("rect", { x: q.x * CELL, y: -q.y * CELL, width: CELL, height: CELL, class: "castle-square-cell" }));
  }
  return g;
}

// A corner tower: a round keep of stone with battlements, in its wall cell.
function cornerTower(cx: number, cy: number): SVGGElement {
  const teeth = Array.from({ length: 8 }, (_, i) => {
    const a = (Math.PI / 4) * i;
    return s("rect", { x: cx + 40 * Math.cos(a) - 5, y: cy + 40 * Math.sin(a) - 5, width: 10, height: 10, class: "tower-tooth" });
  });
  return s("g", { class: "corner-tower" }, s("title", {}, "A corner tower"), s("circle", { cx, cy, r: 40, class: "tower-body" }), ...teeth);
}

function wallLayer(board: Board): SVGGElement {
  const g = s("g", { class: "castle-wall" });
  for (const w of board.wall) {
    g.append(s("rect", { x: w.x * CELL, y: -w.y * CELL, width: CELL, height: CELL, class: `wall-cell${w.kind === WallKind.START ? " start" : ""}`, "data-track": w.track }));
  }
  for (const w of board.wall) {
    if (w.kind !== WallKind.TOWER) continue;
    const [cx, cy] = cellCentre(w.x, w.y);
    g.append(cornerTower(cx, cy));
  }
  return g;
}

// Where track space `space` (0-99) lies: the half of its wall cell it names, along the direction
// the track runs.
export function trackPoint(board: Board, space: number): Point | null {
  const n = board.wall.length;
  const i = Math.floor(space / 2);
  const w = board.wall[i];
  if (w === undefined || n === 0) return null;
  const next = board.wall[(i + 1) % n] ?? w;
  const prev = board.wall[(i - 1 + n) % n] ?? w;
  // The direction the track runs through this cell, in SVG units (y down).
  const dx = Math.sign(next.x - prev.x);
  const dy = -Math.sign(next.y - prev.y);
  const [cx, cy] = cellCentre(w.x, w.y);
  const k = space % 2 === 0 ? -0.24 : 0.24;
  return [cx + dx * k * CELL, cy + dy * k * CELL];
}

// The scoring track's numbers on the wall: every space, the fives larger.
function trackLayer(board: Board): SVGGElement {
  const g = s("g", { class: "track" });
  for (let space = 0; space < Math.min(TRACK_LENGTH, board.wall.length * 2); space++) {
    const p = trackPoint(board, space);
    if (p === null) continue;
    g.append(s("text", { x: p[0], y: p[1] + 5, "text-anchor": "middle", class: space % 5 === 0 ? "track-number five" : "track-number" }, String(space)));
  }
  return g;
}

// A face-down wall tile on each corner tower that still holds one (corner c: the c-th tower
// along the track from the one at 0).
function wallTilesLayer(st: PublicState): SVGGElement {
  const g = s("g", { class: "wall-tiles" });
  st.board.cornerTracks.forEach((track, corner) => {
    if (((st.wallCorners >> corner) & 1) === 0) return;
    const w = st.board.wall.find((c) => c.track === track);
    if (w === undefined) return;
    const [cx, cy] = cellCentre(w.x, w.y);
    g.append(
      s(
        "g",
        { class: "wall-tile face-down", "data-corner": corner },
        s("title", {}, "A wall tile lies face down on this corner tower: the first marker to stop here takes it"),
        s("rect", { x: cx - 17, y: cy - 17, width: 34, height: 34, rx: 3, class: "wall-tile-back" }),
        s("text", { x: cx, y: cy + 7, "text-anchor": "middle", class: "wall-tile-mark" }, "?"),
      ),
    );
  });
  return g;
}

// Both players' scoring markers, at their score modulo 100; side by side when on one space.
function markersLayer(inp: BoardInput): SVGGElement {
  const g = s("g", { class: "score-markers" });
  const st = inp.state;
  st.player.forEach((p, seat) => {
    const total = totalScore(p.scores);
    const at = trackPoint(st.board, total % TRACK_LENGTH);
    if (at === null) return;
    const before = st.player.filter((q, other) => other < seat && totalScore(q.scores) % TRACK_LENGTH === total % TRACK_LENGTH).length;
    const m = marker(seat, at[0] + before * 14, at[1] - 14 + before * 10, 8);
    m.setAttribute("class", "marker score-marker");
    m.setAttribute("data-player", String(seat));
    m.append(s("title", {}, `${playerName(inp.names, seat)}'s scoring marker: ${total} points`));
    g.append(m);
  });
  return g;
}

const ROLE_LETTERS: Record<number, string> = { [FeatureKind.PATH]: "H", [FeatureKind.TOWER]: "K", [FeatureKind.HOUSE]: "S", [FeatureKind.COURT]: "M" };

// The seat's marker with a letter inside for its role, so the role shows without hovering.
function roleMarker(seat: number, x: number, y: number, letter: string, title: string, role: string): SVGGElement {
  const r = 11;
  const m = marker(seat, x, y, r);
  m.setAttribute("class", "marker follower");
  const dy = look(seat).shape === "triangle" ? r * 0.45 : 0;
  const text = s("text", { x, y: y + dy + 4.5, "text-anchor": "middle", class: "role-letter", "aria-hidden": true }, letter);
  return s("g", { class: "follower-group", "data-role": role }, s("title", {}, title), m, text);
}

function followerLayer(inp: BoardInput): SVGGElement {
  return shared.followerLayer(tilesOf(inp), inp.state.followers, (f, def, at) => {
    const role = tileRoleWord(def);
    return roleMarker(f.player, at[0], at[1], ROLE_LETTERS[kindOfFeature(def)] ?? "", `${playerName(inp.names, f.player)}'s ${role}`, role);
  });
}

// Each player's keep, a small keep in the seat's colour on its house.
function keepLayer(inp: BoardInput): SVGGElement {
  const g = s("g", { class: "keeps" });
  inp.state.player.forEach((p, seat) => {
    if (p.keep.size === 0) return;
    const found = shared.featureAt(tilesOf(inp), p.keep.x, p.keep.y, p.keep.feature);
    const [x, y] = found?.at ?? cellCentre(p.keep.x, p.keep.y);
    // Beside where a squire would stand, so both show.
    const [kx, ky] = [x + 16, y - 10];
    g.append(
      s(
        "g",
        { class: "keep", "data-player": seat },
        s("title", {}, `${playerName(inp.names, seat)}'s keep, on a house of ${p.keep.size} ${p.keep.size === 1 ? "tile" : "tiles"}`),
        s("path", { d: `M ${kx - 8} ${ky + 9} L ${kx - 8} ${ky - 6} L ${kx - 5} ${ky - 6} L ${kx - 5} ${ky - 9} L ${kx - 1.5} ${ky - 9} L ${kx - 1.5} ${ky - 6} L ${kx + 1.5} ${ky - 6} L ${kx + 1.5} ${ky - 9} L ${kx + 5} ${ky - 9} L ${kx + 5} ${ky - 6} L ${kx + 8} ${ky - 6} L ${kx + 8} ${ky + 9} Z`, fill: look(seat).colour, class: "keep-body" }),
      ),
    );
  });
  return g;
}

function overlayLayer(inp: BoardInput, o: BoardOverlay): SVGGElement {
  const g = shared.overlayLayer(tilesOf(inp), o);
  for (const p of o.picks) g.append(shared.followerSpot(tilesOf(inp), p.x, p.y, p.feature, p.label, p.pick));
  return g;
}

export function drawBoard(inp: BoardInput, overlay: BoardOverlay): SVGGElement {
  const st = inp.state;
  const b = tilesOf(inp);
  const root = s("g", { class: "board castle-board" }, squaresLayer(st.board), wallLayer(st.board));
  for (const t of st.tiles) root.append(shared.tileGroup(b, t.tile, t, "tile"));
  root.append(wallTilesLayer(st), trackLayer(st.board), keepLayer(inp), followerLayer(inp), markersLayer(inp), overlayLayer(inp, overlay));
  return root;
}

// The board's extent in SVG units: the whole castle with its wall, and a margin.
export function boardBounds(st: PublicState): { x: number; y: number; w: number; h: number } {
  const cells = [...st.board.wall, ...st.board.squares];
  if (cells.length === 0) return shared.boardBounds(st.tiles);
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => -c.y);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs) + 1;
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys) + 1;
  const m = CELL / 4;
  return { x: minX * CELL - m, y: minY * CELL - m, w: (maxX - minX) * CELL + 2 * m, h: (maxY - minY) * CELL + 2 * m };
}
