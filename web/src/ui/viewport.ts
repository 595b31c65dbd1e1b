// Pan (drag) and zoom (wheel, + and − keys) of an SVG by changing its viewBox. The view is kept
// across redraws, so a new move does not throw the player's view back; fit() recentres it.
import { s } from "./dom";

interface View {
  x: number;
  y: number;
  w: number;
  h: number;
}

const MIN_W = 150;
const MAX_W = 8000;
const DRAG_THRESHOLD_PX = 4;

export class Viewport {
  readonly svg: SVGSVGElement;
  private view: View = { x: -200, y: -200, w: 500, h: 500 };
  private fitted = false;
  // Set during a drag that moved: the click that ends it must not pick a cell.
  private dragged = false;

  constructor() {
    this.svg = s("svg", { class: "board-svg", tabindex: 0, role: "img", "aria-label": "The board" });
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.apply();
    this.listenDrag();
    this.svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    this.svg.addEventListener("keydown", (e) => this.handleKey(e));
    // A click ending a drag is swallowed before it reaches the cells.
    this.svg.addEventListener("click", (e) => {
      if (this.dragged) e.stopPropagation();
      this.dragged = false;
    }, true);
  }

  setContent(content: SVGElement): void {
    this.svg.replaceChildren(content);
  }

  // Fits the given box once (the first time there is a board), or always when forced.
  fit(box: View, force = false): void {
    if (this.fitted && !force) return;
    this.fitted = true;
    this.view = { ...box };
    this.apply();
  }

  zoom(factor: number, cx = this.view.x + this.view.w / 2, cy = this.view.y + this.view.h / 2): void {
    const w = Math.min(MAX_W, Math.max(MIN_W, this.view.w * factor));
    const f = w / this.view.w;
    this.view = { x: cx - (cx - this.view.x) * f, y: cy - (cy - this.view.y) * f, w, h: this.view.h * f };
    this.apply();
  }

  private apply(): void {
    const v = this.view;
    this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
  }

  // SVG units per screen pixel, with the aspect ratio kept by "meet".
  private unitsPerPixel(): number {
    const r = this.svg.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 1;
    return Math.max(this.view.w / r.width, this.view.h / r.height);
  }

  private listenDrag(): void {
    let start: { px: number; py: number; x: number; y: number } | null = null;
    this.svg.addEventListener("pointerdown", (e) => {
      this.dragged = false;
      start = { px: e.clientX, py: e.clientY, x: this.view.x, y: this.view.y };
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (start === null) return;
      const dx = e.clientX - start.px;
      const dy = e.clientY - start.py;
      if (!this.dragged && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      this.dragged = true;
      const k = this.unitsPerPixel();
      this.view.x = start.x - dx * k;
      this.view.y = start.y - dy * k;
      this.apply();
    });
    const end = (): void => {
      start = null;
    };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointerleave", end);
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const r = this.svg.getBoundingClientRect();
    const k = this.unitsPerPixel();
    // Zoom about the point under the pointer, so it stays where it is.
    const cx = this.view.x + this.view.w / 2 + (e.clientX - r.left - r.width / 2) * k;
    const cy = this.view.y + this.view.h / 2 + (e.clientY - r.top - r.height / 2) * k;
    this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  }

  // Public because the page listens on the window: the keys should work without focusing the board.
  handleKey(e: KeyboardEvent): void {
    if (e.key === "+" || e.key === "=") this.zoom(1 / 1.25);
    else if (e.key === "-" || e.key === "_") this.zoom(1.25);
    else return;
    e.preventDefault();
  }
}
