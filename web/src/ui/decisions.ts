// The controls for the seat's own decision. Tile placement is chosen on the board (a legal cell,
// clicked again to cycle through the rotations legal there) and confirmed with a button; every
// other decision is one button per legal action, in the engine's order. The actions are sent back
// exactly as the server listed them (docs/protocol.md 5: a thin client needs no rules).
import { ActionKind, type Action } from "../gen/carcassonne/city/v1/city_pb";
import type { BoardOverlay } from "./board";
import { button, h } from "./dom";
import { actionWord } from "./words";

export interface TileChoice {
  readonly x: number;
  readonly y: number;
  readonly index: number; // into the rotations legal at (x, y)
}

// The legal PLACE_TILE actions at (x, y), in the server's order.
function rotationsAt(legal: readonly Action[], x: number, y: number): Action[] {
  return legal.filter((a) => a.kind === ActionKind.PLACE_TILE && a.x === x && a.y === y);
}

export function placementOf(legal: readonly Action[], choice: TileChoice | null): Action | null {
  if (choice === null) return null;
  const options = rotationsAt(legal, choice.x, choice.y);
  return options.length === 0 ? null : (options[choice.index % options.length] ?? null);
}

// A click on a cell: a new cell starts at its first legal rotation, the same cell turns to the next.
export function nextChoice(choice: TileChoice | null, x: number, y: number): TileChoice {
  if (choice !== null && choice.x === x && choice.y === y) return { x, y, index: choice.index + 1 };
  return { x, y, index: 0 };
}

export function tileOverlay(
  legal: readonly Action[],
  choice: TileChoice | null,
  drawnTile: number,
  onCell: (x: number, y: number) => void,
): BoardOverlay {
  const seen = new Set<string>();
  const cells: { x: number; y: number }[] = [];
  for (const a of legal) {
    if (a.kind !== ActionKind.PLACE_TILE || seen.has(`${a.x},${a.y}`)) continue;
    seen.add(`${a.x},${a.y}`);
    cells.push({ x: a.x, y: a.y });
  }
  const chosen = placementOf(legal, choice);
  const ghost = chosen === null ? null : { tile: drawnTile, x: chosen.x, y: chosen.y, rotation: chosen.rotation };
  return { cells, ghost, onCell: cells.length > 0 ? onCell : null };
}

export interface DecisionHandlers {
  readonly send: (a: Action) => void;
  readonly turn: () => void; // next legal rotation at the chosen cell
}

function placeControls(legal: readonly Action[], choice: TileChoice | null, on: DecisionHandlers): HTMLElement {
  const chosen = placementOf(legal, choice);
  const cells = new Set(legal.filter((a) => a.kind === ActionKind.PLACE_TILE).map((a) => `${a.x},${a.y}`)).size;
  if (chosen === null) {
    return h("p", {}, `Choose one of the ${cells} highlighted cells on the board.`);
  }
  const place = button("Place", () => on.send(chosen), { class: "primary" });
  const options = choice === null ? 1 : rotationsAt(legal, choice.x, choice.y).length;
  return h(
    "div",
    { class: "choice" },
    h("p", {}, actionWord(chosen), options > 1 ? ` (${options} rotations here)` : ""),
    options > 1 ? button("Turn", on.turn) : null,
    place,
  );
}

// The controls for `legal` (empty: not this seat's decision, nothing to show).
export function drawDecision(legal: readonly Action[], choice: TileChoice | null, on: DecisionHandlers): HTMLElement | null {
  if (legal.length === 0) return null;
  const first = legal[0];
  if (first !== undefined && first.kind === ActionKind.PLACE_TILE) {
    return h("section", { class: "decision" }, h("h3", {}, "Your move: place the tile"), placeControls(legal, choice, on));
  }
  const buttons = legal.map((a) => button(actionWord(a), () => on.send(a)));
  return h("section", { class: "decision" }, h("h3", {}, "Your move"), h("div", { class: "buttons" }, ...buttons));
}
