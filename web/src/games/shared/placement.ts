// Placing the drawn tile, for any game whose tile placements are legal actions with a cell and a
// rotation: the legal cells, the rotations legal at a cell, the choice in the making (a cell and
// an index into its rotations) and the controls to place it. Built from the server's legal
// actions only; a game says which of its actions place the tile.
import { button, h } from "../../ui/dom";

// What a tile placement says: the cell and the rotation (quarter turns).
export interface Placement {
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

export interface TileChoice {
  readonly x: number;
  readonly y: number;
  readonly index: number; // into the rotations legal at (x, y)
}

// Which of a game's actions place the tile.
export type IsPlacement<A> = (a: A) => boolean;

// The legal placements at (x, y), in the server's order.
export function rotationsAt<A extends Placement>(legal: readonly A[], isPlacement: IsPlacement<A>, x: number, y: number): A[] {
  return legal.filter((a) => isPlacement(a) && a.x === x && a.y === y);
}

// The cells with at least one legal placement, in the order the server first lists them.
export function legalCells<A extends Placement>(legal: readonly A[], isPlacement: IsPlacement<A>): { x: number; y: number }[] {
  const seen = new Set<string>();
  const cells: { x: number; y: number }[] = [];
  for (const a of legal) {
    if (!isPlacement(a) || seen.has(`${a.x},${a.y}`)) continue;
    seen.add(`${a.x},${a.y}`);
    cells.push({ x: a.x, y: a.y });
  }
  return cells;
}

// The legal placement the choice stands for (null when there is none).
export function placementOf<A extends Placement>(legal: readonly A[], isPlacement: IsPlacement<A>, choice: TileChoice | null): A | null {
  if (choice === null) return null;
  const options = rotationsAt(legal, isPlacement, choice.x, choice.y);
  return options.length === 0 ? null : (options[choice.index % options.length] ?? null);
}

// A click on a cell: a new cell starts at its first legal rotation, the same cell turns to the next.
export function nextChoice(choice: TileChoice | null, x: number, y: number): TileChoice {
  if (choice !== null && choice.x === x && choice.y === y) return { x, y, index: choice.index + 1 };
  return { x, y, index: 0 };
}

// The next legal cell after the chosen one (the first when none is chosen), for the keyboard.
export function nextCell<A extends Placement>(legal: readonly A[], isPlacement: IsPlacement<A>, choice: TileChoice | null, step: number): TileChoice | null {
  const cells = legalCells(legal, isPlacement);
  if (cells.length === 0) return null;
  const at = choice === null ? -1 : cells.findIndex((c) => c.x === choice.x && c.y === choice.y);
  const next = at < 0 ? (step > 0 ? 0 : cells.length - 1) : (at + step + cells.length) % cells.length;
  const c = cells[next];
  return c === undefined ? null : { x: c.x, y: c.y, index: 0 };
}

export interface PlaceHandlers<A> {
  readonly send: (a: A) => void;
  readonly turn: () => void; // next legal rotation at the chosen cell
}

// The controls for placing the tile: the cell and rotation chosen, Turn, "Place tile", the keys.
// `chooseText` is the prompt before a cell is chosen, given how many cells are legal.
export function placeControls<A extends Placement>(
  legal: readonly A[],
  isPlacement: IsPlacement<A>,
  choice: TileChoice | null,
  on: PlaceHandlers<A>,
  chooseText: (cells: number) => string,
): HTMLElement {
  const chosen = placementOf(legal, isPlacement, choice);
  const cells = legalCells(legal, isPlacement).length;
  const keys = h("p", { class: "hint keys" }, "Keys: N / P next or previous cell, R turn, Enter place.");
  if (chosen === null) {
    return h("div", { class: "choice" }, h("p", {}, chooseText(cells)), keys);
  }
  const options = choice === null ? 1 : rotationsAt(legal, isPlacement, choice.x, choice.y).length;
  return h(
    "div",
    { class: "choice" },
    h("p", {}, `Turned ${chosen.rotation * 90}°`, options > 1 ? ` (${options} ways fit here)` : ""),
    options > 1 ? button("Turn", on.turn) : null,
    button("Place tile", () => on.send(chosen), { class: "primary" }),
    keys,
  );
}
