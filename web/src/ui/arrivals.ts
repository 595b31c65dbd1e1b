// The tiles a move put on the board drop into place (a 200 ms fade and drop, style.css): after a
// delta, the board's tiles that the board before it did not show are marked `tile-arrived`. The
// first board of a snapshot marks nothing. The board is redrawn whole on every change, so later
// redraws mark the same tiles again with the animation already that far along (a negative delay),
// which lets it finish rather than start over. Nothing is marked when the person asked for
// reduced motion.
const DROP_MS = 200;
const PLACED = "g.tile:not(.ghost)";

// A placed tile's cell, read from its position on the board.
function cellKey(tile: Element): string {
  return tile.getAttribute("transform") ?? "";
}

function cellsOf(board: Element | null): Set<string> {
  return new Set(board === null ? [] : [...board.querySelectorAll(PLACED)].map(cellKey));
}

function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export type BoardChange = "delta" | "snapshot" | "redraw";

export class TileArrivals {
  private arrived = new Set<string>();
  private since = 0;

  // Marks the tiles of `next` that arrived; `previous` is the board it replaces.
  mark(next: Element, previous: Element | null, change: BoardChange): void {
    if (change === "snapshot") this.arrived.clear();
    if (change === "delta") {
      const before = cellsOf(previous);
      this.arrived = new Set([...cellsOf(next)].filter((c) => !before.has(c)));
      this.since = performance.now();
    }
    if (this.arrived.size === 0 || reducedMotion()) return;
    const elapsed = Math.round(performance.now() - this.since);
    for (const tile of next.querySelectorAll(PLACED)) {
      if (!this.arrived.has(cellKey(tile))) continue;
      tile.classList.add("tile-arrived");
      for (const art of tile.children) if (art instanceof SVGElement) art.style.animationDelay = `${-Math.min(elapsed, DROP_MS)}ms`;
    }
  }
}
