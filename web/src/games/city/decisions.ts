// The controls for the seat's own decision, built from the server's legal actions only (a thin
// client needs no rules, docs/protocol.md 5), so an illegal move cannot even be tried. A tile is
// placed on the board: a legal cell, clicked again (or R) to turn it through the rotations legal
// there, then "Place tile". Followers, the gate, wall pieces and towers can be picked on the board
// as well as with the buttons; every other decision is one button per legal action, in the server's order. Actions
// are sent back exactly as the server listed them.
import { ActionKind, DecisionKind, type Action } from "../../gen/carcassonne/city/v1/city_pb";
import type { PublicState } from "./model";
import { endVertices, nextWallEdges } from "./outline";
import { featureWord, tileWord, typeOf } from "../../tiles/catalog";
import type { BoardOverlay, BoardPick } from "./board";
import { h } from "../../ui/dom";
import * as decisions from "../shared/decisions";
import * as shared from "../shared/placement";
import type { TileChoice } from "../shared/placement";
import type { PlacementContext, PlacementHandlers } from "../shared/table";
import { tileArt } from "./tile-art";
import { actionWord } from "./words";

export type { TileChoice };

export const isPlacement = (a: Action): boolean => a.kind === ActionKind.PLACE_TILE;

// The name of a decision on the page (`section.decision[data-decision]`).
const DECISION_NAMES: Record<number, string> = {
  [DecisionKind.PLACE_TILE]: "place-tile",
  [DecisionKind.PLACE_FOLLOWER]: "place-follower",
  [DecisionKind.PLACE_GATE]: "place-gate",
  [DecisionKind.BUILD_WALL]: "build-wall",
  [DecisionKind.PLACE_GUARD]: "place-guard",
  [DecisionKind.PLACE_TOWER]: "place-tower",
};

const HEADINGS: Record<number, string> = {
  [DecisionKind.PLACE_TILE]: "Your move: place the tile",
  [DecisionKind.PLACE_FOLLOWER]: "Your move: a follower on the tile, or none",
  [DecisionKind.PLACE_GATE]: "Your move: place the gate on the city's outline",
  [DecisionKind.BUILD_WALL]: "Your move: build a wall piece at one end",
  [DecisionKind.PLACE_GUARD]: "Your move: a guard on the piece just built, or none",
  [DecisionKind.PLACE_TOWER]: "Your move: a tower at a wall end, or none",
};

// The decisions whose choices are drawn on the board as well, and what the board shows of them.
const ON_THE_BOARD = new Set<number>([DecisionKind.PLACE_FOLLOWER, DecisionKind.PLACE_GATE, DecisionKind.BUILD_WALL, DecisionKind.PLACE_TOWER]);
const HINTS: Record<number, string> = {
  [DecisionKind.BUILD_WALL]: "Or pick it on the board: the dashed pieces labelled front and back show where each would go.",
  [DecisionKind.PLACE_TOWER]: "Or pick it on the board: the dashed towers labelled front and back stand at the wall's ends.",
};

export function placementOf(legal: readonly Action[], choice: TileChoice | null): Action | null {
  return shared.placementOf(legal, isPlacement, choice);
}

export const nextChoice = shared.nextChoice;

// The next legal cell after the chosen one (the first when none is chosen), for the keyboard.
export function nextCell(legal: readonly Action[], choice: TileChoice | null, step: number): TileChoice | null {
  return shared.nextCell(legal, isPlacement, choice, step);
}

export type DecisionContext = PlacementContext<PublicState, Action>;
export type DecisionHandlers = PlacementHandlers<Action>;

// The words for a legal action; a follower's feature is named from the tile set.
export function choiceWord(ctx: DecisionContext, a: Action): string {
  if (a.kind === ActionKind.PLACE_FOLLOWER) {
    const last = ctx.state.tiles[ctx.state.tiles.length - 1];
    const type = last === undefined || ctx.catalog === null ? undefined : typeOf(ctx.catalog, last.tile);
    const f = type?.features[a.feature];
    if (f !== undefined) return `Follower on ${featureWord(f)}`;
  }
  const w = actionWord(a, ctx.state);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

// A wall piece at an end is drawn as its ghost on the edge it would occupy; a tower at an end on
// the corner where that end stops (docs/rules.md 2.7, outline.ts).
function wallPick(st: PublicState, a: Action, label: string, pick: () => void): BoardPick | null {
  if (a.kind === ActionKind.BUILD_WALL) {
    const e = nextWallEdges(st)[a.end];
    return e === null || e === undefined ? null : { shape: "wall", x: e.x, y: e.y, at: e.side, end: a.end, label, pick };
  }
  const v = endVertices(st)?.[a.end];
  return v === undefined ? null : { shape: "tower", x: v.x, y: v.y, at: a.end, end: a.end, label, pick };
}

function picksFor(ctx: DecisionContext, on: DecisionHandlers): BoardPick[] {
  const picks: BoardPick[] = [];
  const last = ctx.state.tiles[ctx.state.tiles.length - 1];
  for (const a of ctx.legal) {
    const pick = (): void => on.send(a);
    if (a.kind === ActionKind.PLACE_FOLLOWER && last !== undefined) {
      picks.push({ shape: "spot", x: last.x, y: last.y, at: a.feature, label: choiceWord(ctx, a), pick });
    } else if (a.kind === ActionKind.PLACE_GATE) {
      picks.push({ shape: "edge", x: a.x, y: a.y, at: a.side, label: choiceWord(ctx, a), pick });
    } else if (a.kind === ActionKind.BUILD_WALL || a.kind === ActionKind.PLACE_TOWER) {
      const p = wallPick(ctx.state, a, choiceWord(ctx, a), pick);
      if (p !== null) picks.push(p);
    }
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

// The tile in hand with what it shows in words (its building's name among them), readable
// without hovering.
function handWithWords(ctx: DecisionContext): HTMLElement | null {
  const tile = handTile(ctx);
  return tile === null ? null : h("div", { class: "hand" }, tile, h("p", {}, tile.getAttribute("aria-label") ?? ""));
}

function placeControls(ctx: DecisionContext, on: DecisionHandlers): HTMLElement {
  return shared.placeControls(ctx.legal, isPlacement, ctx.choice, on, (cells) => `Choose one of the ${cells} highlighted cells on the board.`);
}

function legalButtons(ctx: DecisionContext, on: DecisionHandlers): HTMLElement {
  return decisions.legalButtons(ctx.legal, (a) => choiceWord(ctx, a), on.send);
}

// The controls for the decision (null when this seat has nothing to decide).
export function drawDecision(ctx: DecisionContext, on: DecisionHandlers): HTMLElement | null {
  if (ctx.legal.length === 0) return null;
  const kind = ctx.state.decision.kind;
  const body = kind === DecisionKind.PLACE_TILE ? placeControls(ctx, on) : legalButtons(ctx, on);
  const hint = ON_THE_BOARD.has(kind) ? h("p", { class: "hint" }, HINTS[kind] ?? "Or pick it on the board.") : null;
  return decisions.decisionSection(
    DECISION_NAMES[kind] ?? "other",
    HEADINGS[kind] ?? "Your move",
    kind === DecisionKind.PLACE_TILE ? handWithWords(ctx) : null,
    body,
    hint,
  );
}
