// The controls for the seat's own decision, built from the server's legal actions only (a thin
// client needs no rules), so an illegal move cannot even be tried. A tile is placed on the board:
// a legal cell, clicked again (or R) to turn it through the rotations legal there, then "Place
// tile". A follower (a thief, knight, monk or farmer) is picked on the board or with one button
// per legal action, in the server's order, "No follower" among them. Actions are sent back
// exactly as the server listed them.
import { ActionKind, DecisionKind, type Action } from "../../gen/carcassonne/river/v1/river_pb";
import { typeOf } from "../../tiles/catalog";
import { featureAnchor, turn } from "../../tiles/geometry";
import { h } from "../../ui/dom";
import type { BoardOverlay, BoardPick } from "./board";
import type { PublicState } from "./model";
import * as decisions from "../shared/decisions";
import * as shared from "../shared/placement";
import type { PlacementContext, PlacementHandlers } from "../shared/table";
import { tileArt } from "./tile-art";
import { actionWord, compassWord, featureWord, tileRoleWord, tileWord } from "./words";

export const isPlacement = (a: Action): boolean => a.kind === ActionKind.PLACE_TILE;

// The name of a decision on the page (`section.decision[data-decision]`).
const DECISION_NAMES: Record<number, string> = {
  [DecisionKind.PLACE_TILE]: "place-tile",
  [DecisionKind.PLACE_FOLLOWER]: "place-follower",
};

const HEADINGS: Record<number, string> = {
  [DecisionKind.PLACE_TILE]: "Your move: place the tile",
  [DecisionKind.PLACE_FOLLOWER]: "Your move: a follower on the tile, or none",
};

export type DecisionContext = PlacementContext<PublicState, Action>;
export type DecisionHandlers = PlacementHandlers<Action>;

// The words for a legal action. A follower is named by its role and feature, and where the
// feature lies on the tile as placed when two of the tile's features could be confused:
// "Farmer on the field (north-west)", "Knight on the city".
export function choiceWord(ctx: DecisionContext, a: Action): string {
  if (a.kind === ActionKind.PLACE_FOLLOWER) {
    const last = ctx.state.tiles[ctx.state.tiles.length - 1];
    const type = last === undefined || ctx.catalog === null ? undefined : typeOf(ctx.catalog, last.tile);
    const f = type?.features[a.feature];
    if (type !== undefined && last !== undefined && f !== undefined) {
      const role = tileRoleWord(f);
      const twins = type.features.filter((g) => g.kind === f.kind).length;
      const [x, y] = turn(featureAnchor(type, a.feature), last.rotation);
      const where = twins > 1 ? ` (${compassWord(x, y)})` : "";
      return `${role.charAt(0).toUpperCase()}${role.slice(1)} on ${featureWord(f)}${where}`;
    }
  }
  const w = actionWord(a);
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function picksFor(ctx: DecisionContext, on: DecisionHandlers): BoardPick[] {
  const last = ctx.state.tiles[ctx.state.tiles.length - 1];
  if (last === undefined) return [];
  return ctx.legal
    .filter((a) => a.kind === ActionKind.PLACE_FOLLOWER)
    .map((a) => ({ x: last.x, y: last.y, feature: a.feature, label: choiceWord(ctx, a), pick: () => on.send(a) }));
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
  return shared.placeControls(ctx.legal, isPlacement, ctx.choice, on, (cells) => `Choose ${cells === 1 ? "the highlighted cell" : `one of the ${cells} highlighted cells`} on the board.`);
}

function legalButtons(ctx: DecisionContext, on: DecisionHandlers): HTMLElement {
  return decisions.legalButtons(ctx.legal, (a) => choiceWord(ctx, a), on.send);
}

// The controls for the decision (null when this seat has nothing to decide).
export function drawDecision(ctx: DecisionContext, on: DecisionHandlers): HTMLElement | null {
  if (ctx.legal.length === 0) return null;
  const kind = ctx.state.decision.kind;
  const placing = kind === DecisionKind.PLACE_TILE;
  const hint = kind === DecisionKind.PLACE_FOLLOWER ? h("p", { class: "hint" }, "Or pick it on the board; a farmer lies in a field.") : null;
  return decisions.decisionSection(
    DECISION_NAMES[kind] ?? "other",
    HEADINGS[kind] ?? "Your move",
    placing ? handTile(ctx) : null,
    placing ? placeControls(ctx, on) : legalButtons(ctx, on),
    hint,
  );
}
