// The controls for the seat's own decision, built from the server's legal actions only (a thin
// client needs no rules), so an illegal move cannot even be tried. A tile is placed on the board:
// a legal cell, clicked again (or R) to turn it through the rotations legal there, then "Place
// tile". Every other decision is one button per legal action, in the server's order, in words:
// a follower (a herald, knight, squire or merchant) on a feature of the tile just placed; which
// completed feature scores next, doubled or not with wall tile 2 or 3; wall tile 1's extra turn;
// each wall tile 4-7 at the end, on a feature or kept unused. Followers and the features a wall
// tile or a scoring applies to can be picked on the board too. Actions are sent back exactly as
// the server listed them.
import { ActionKind, DecisionKind, type Action } from "../../gen/carcassonne/castle/v1/castle_pb";
import { FeatureKind as TileKind } from "../../gen/carcassonne/tiles/v1/tiles_pb";
import { typeOf, type TileCatalog } from "../../tiles/catalog";
import { featureAnchor, turn } from "../../tiles/geometry";
import { h } from "../../ui/dom";
import * as decisions from "../shared/decisions";
import * as shared from "../shared/placement";
import type { PlacementContext, PlacementHandlers } from "../shared/table";
import type { BoardOverlay, BoardPick } from "./board";
import type { PublicState } from "./model";
import { tileArt } from "./tile-art";
import { actionWord, compassWord, featureWord, placeWord, tileRoleWord, tileWord, wallTileEffect, type WordsBoard } from "./words";

export const isPlacement = (a: Action): boolean => a.kind === ActionKind.PLACE_TILE;

// The name of a decision on the page (`section.decision[data-decision]`).
const DECISION_NAMES: Record<number, string> = {
  [DecisionKind.PLACE_TILE]: "place-tile",
  [DecisionKind.PLACE_FOLLOWER]: "place-follower",
  [DecisionKind.SCORE_NEXT]: "score-next",
  [DecisionKind.EXTRA_TURN]: "extra-turn",
  [DecisionKind.WALL_TILE]: "wall-tile",
};

export type DecisionContext = PlacementContext<PublicState, Action>;
export type DecisionHandlers = PlacementHandlers<Action>;

function heading(state: PublicState): string {
  switch (state.decision.kind) {
    case DecisionKind.PLACE_TILE:
      return "Your move: place the tile";
    case DecisionKind.PLACE_FOLLOWER:
      return "Your move: a follower on the tile, or none";
    case DecisionKind.SCORE_NEXT:
      return "Your move: which completed feature scores next";
    case DecisionKind.EXTRA_TURN:
      return "Your move: another turn with wall tile 1?";
    case DecisionKind.WALL_TILE:
      return `The final scoring: wall tile ${state.decision.wall} — ${wallTileEffect(state.decision.wall)}`;
    default:
      return "Your move";
  }
}

function wordsBoard(state: PublicState): WordsBoard {
  return { board: state.board, tiles: state.tiles, startSpaces: state.startSpaces };
}

// A feature of the tile at (x, y) in words, with where it lies on its tile when the tile has two
// of its kind, and its place on the board unless `here` (the tile just placed): "the tower
// (north-east) by the wall at 24".
export function featureLabel(state: PublicState, catalog: TileCatalog | null, x: number, y: number, feature: number, here = false): { name: string; kind: TileKind | null } {
  const placed = state.tiles.find((t) => t.x === x && t.y === y);
  const type = placed === undefined || catalog === null ? undefined : typeOf(catalog, placed.tile);
  const f = type?.features[feature];
  const where = here ? "" : ` ${placeWord(x, y, wordsBoard(state))}`;
  if (type === undefined || f === undefined || placed === undefined) return { name: `a feature${where}`, kind: null };
  const twins = type.features.filter((g) => g.kind === f.kind).length;
  const [ax, ay] = turn(featureAnchor(type, feature), placed.rotation);
  const on = twins > 1 ? ` (${compassWord(ax, ay)})` : "";
  return { name: `${featureWord(f)}${on}${where}`, kind: f.kind };
}

// What a final wall tile 4-7 does to the feature it is used on, as its button says it.
function wallTileChoice(wall: number, name: string): string {
  const unfinished = name.replace(/^the /, "the unfinished ");
  switch (wall) {
    case 4:
      return `Wall tile 4: score ${unfinished}, 1 point per tile (2 with a fountain)`;
    case 5:
      return `Wall tile 5: score ${unfinished}, 2 points per tile`;
    case 6:
      return `Wall tile 6: score ${unfinished}, 1 point per tile`;
    case 7:
      return `Wall tile 7: ${name} scores 4 points per market instead of 3`;
    default:
      return `Wall tile ${wall}: ${name}`;
  }
}

// The words for a legal action.
export function choiceWord(state: PublicState, catalog: TileCatalog | null, a: Action): string {
  switch (a.kind) {
    case ActionKind.PLACE_FOLLOWER: {
      const last = state.tiles[state.tiles.length - 1];
      if (last === undefined) break;
      const label = featureLabel(state, catalog, last.x, last.y, a.feature, true);
      const type = catalog === null ? undefined : typeOf(catalog, last.tile);
      const role = tileRoleWord(type?.features[a.feature]);
      return `${role.charAt(0).toUpperCase()}${role.slice(1)} on ${label.name}`;
    }
    case ActionKind.SCORE:
      return `Score ${featureLabel(state, catalog, a.x, a.y, a.feature).name} next`;
    case ActionKind.SCORE_DOUBLED: {
      const label = featureLabel(state, catalog, a.x, a.y, a.feature);
      const wall = label.kind === TileKind.HOUSE ? 3 : 2;
      const perTile = wall === 3 ? "2 points per tile" : "4 points per tile";
      return `Score ${label.name} next, doubled with wall tile ${wall} (${perTile})`;
    }
    case ActionKind.EXTRA_TURN:
      return "Use wall tile 1: take another turn";
    case ActionKind.END_TURN:
      return "End the turn";
    case ActionKind.USE_WALL_TILE:
      return wallTileChoice(a.wall, featureLabel(state, catalog, a.x, a.y, a.feature).name);
    case ActionKind.SKIP_WALL_TILE:
      return "Keep it unused";
    default:
      break;
  }
  const w = actionWord(a);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

// The features that can be picked on the board: a follower's on the tile just placed, the
// feature a scoring (not doubled: the buttons tell the two apart) or a wall tile applies to.
function picksFor(ctx: DecisionContext, on: DecisionHandlers): BoardPick[] {
  const last = ctx.state.tiles[ctx.state.tiles.length - 1];
  const picks: BoardPick[] = [];
  for (const a of ctx.legal) {
    const label = choiceWord(ctx.state, ctx.catalog, a);
    if (a.kind === ActionKind.PLACE_FOLLOWER && last !== undefined) picks.push({ x: last.x, y: last.y, feature: a.feature, label, pick: () => on.send(a) });
    else if (a.kind === ActionKind.SCORE || a.kind === ActionKind.USE_WALL_TILE) picks.push({ x: a.x, y: a.y, feature: a.feature, label, pick: () => on.send(a) });
  }
  return picks;
}

// The board's overlay for the decision (nothing to show when it is not this seat's).
export function decisionOverlay(ctx: DecisionContext, on: DecisionHandlers): BoardOverlay {
  return { ...decisions.cellOverlay(ctx, on, isPlacement), picks: picksFor(ctx, on) };
}

// The tile in hand, drawn as it would lie (turned as chosen, or as drawn).
export function handTile(ctx: DecisionContext): SVGSVGElement | null {
  return decisions.handTile(ctx, isPlacement, tileArt, tileWord);
}

function placeControls(ctx: DecisionContext, on: DecisionHandlers): HTMLElement {
  return shared.placeControls(ctx.legal, isPlacement, ctx.choice, on, (cells) => `Choose ${cells === 1 ? "the highlighted square" : `one of the ${cells} highlighted squares`} inside the castle.`);
}

const HINTS: Record<number, string> = {
  [DecisionKind.PLACE_FOLLOWER]: "Or pick it on the board: a herald on a path, a knight in a tower, a squire in a house, a merchant in a court.",
  [DecisionKind.SCORE_NEXT]: "Completed features score one after another: the order decides where your marker stops on the wall.",
  [DecisionKind.EXTRA_TURN]: "Wall tile 1: take another turn. Kept, it can be used on a later turn.",
};

// The controls for the decision (null when this seat has nothing to decide).
export function drawDecision(ctx: DecisionContext, on: DecisionHandlers): HTMLElement | null {
  if (ctx.legal.length === 0) return null;
  const kind = ctx.state.decision.kind;
  const placing = kind === DecisionKind.PLACE_TILE;
  const hintText = HINTS[kind];
  const hint = hintText === undefined ? null : h("p", { class: "hint" }, hintText);
  return decisions.decisionSection(
    DECISION_NAMES[kind] ?? "other",
    heading(ctx.state),
    placing ? handTile(ctx) : null,
    placing ? placeControls(ctx, on) : decisions.legalButtons(ctx.legal, (a) => choiceWord(ctx.state, ctx.catalog, a), on.send),
    hint,
  );
}
