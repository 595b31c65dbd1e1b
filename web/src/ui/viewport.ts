// Pan and zoom of an SVG by changing its viewBox: drag with a mouse or one finger, zoom with the
// wheel or a two-finger pinch, and from the keyboard the arrow keys pan, + and − zoom, F fits the
// whole board. Until the person moves the view, it follows the board as it grows (fit()); once
// they have, their view is kept across redraws until F fits the board again. On a touch screen
// the fitted view never shrinks a legal cell below a finger's 44 CSS px: it zooms in on the legal
// cell nearest the middle instead, and the rest is a drag away; and it zooms on the spots of a
// follower to place, the same way.
import { artDetail, SIZE } from "../tiles/geometry";
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
// The smallest a cell to tap may be drawn on a touch screen: 44 px, and a little to spare.
const MIN_TOUCH_PX = 48;

function isTouchScreen(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches;
}

export class Viewport {
  readonly svg: SVGSVGElement;
  private view: View = { x: -200, y: -200, w: 500, h: 500 };
  private userMoved = false;
  private lastFit: View = { ...this.view };
  // Set during a drag that moved: the click that ends it must not pick a cell.
  private dragged = false;

  constructor() {
    this.svg = s("svg", { class: "board-svg", tabindex: 0, role: "img", "aria-label": "The board" });
    this.svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    this.apply();
    this.listenDrag();
    this.svg.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    // A click ending a drag is swallowed before it reaches the cells.
    this.svg.addEventListener("click", (e) => {
      if (this.dragged) e.stopPropagation();
      this.dragged = false;
    }, true);
  }

  setContent(content: SVGElement): void {
    this.svg.replaceChildren(content);
    if (!this.userMoved && isTouchScreen()) {
      this.keepCellsTappable(content);
      this.zoomOnSpots(content);
    }
    this.showDetail(); // the page's size may have changed since the view did
  }

  // A follower's spots lie on the tile just placed: the view zooms on them until each is big
  // enough to tap.
  private zoomOnSpots(content: SVGElement): void {
    const spots = [...content.querySelectorAll<SVGCircleElement>("circle.follower-spot[role=button]")];
    const r = this.svg.getBoundingClientRect();
    const radius = Number(spots[0]?.getAttribute("r") ?? 0);
    if (spots.length === 0 || radius <= 0 || r.width === 0 || r.height === 0) return;
    const most = (2 * radius) / MIN_TOUCH_PX;
    const centres = spots.map((c) => [Number(c.getAttribute("cx")), Number(c.getAttribute("cy"))] as const);
    const cx = centres.reduce((a, c) => a + c[0], 0) / centres.length;
    const cy = centres.reduce((a, c) => a + c[1], 0) / centres.length;
    const w = r.width * Math.min(most, this.unitsPerPixel());
    const h = r.height * Math.min(most, this.unitsPerPixel());
    this.view = { x: cx - w / 2, y: cy - h / 2, w, h };
    this.apply();
  }

  // Zooms in, about the legal cell nearest the middle of the view, until legal cells are big
  // enough to tap.
  private keepCellsTappable(content: SVGElement): void {
    const cells = [...content.querySelectorAll<SVGRectElement>("rect.legal-cell[role=button]")];
    const size = Number(cells[0]?.getAttribute("width") ?? 0);
    const r = this.svg.getBoundingClientRect();
    if (cells.length === 0 || size <= 0 || r.width === 0 || r.height === 0) return;
    const most = size / MIN_TOUCH_PX; // board units per pixel
    if (this.unitsPerPixel() <= most) return;
    const v = this.view;
    const [mx, my] = [v.x + v.w / 2, v.y + v.h / 2];
    const centres = cells.map((c): [number, number] => [Number(c.getAttribute("x")) + size / 2, Number(c.getAttribute("y")) + size / 2]);
    const distance = (p: [number, number]): number => Math.hypot(p[0] - mx, p[1] - my);
    const [cx, cy] = centres.reduce((best, p) => (distance(p) < distance(best) ? p : best));
    const w = r.width * most;
    const h = r.height * most;
    this.view = { x: cx - w / 2, y: cy - h / 2, w, h };
    this.apply();
  }

  // Shows the given box, unless the person has moved the view (forced: even then). The box is
  // kept either way for the F key.
  fit(box: View, force = false): void {
    this.lastFit = { ...box };
    if (this.userMoved && !force) return;
    if (force) this.userMoved = false;
    const v = this.view;
    if (v.x === box.x && v.y === box.y && v.w === box.w && v.h === box.h) return;
    this.view = { ...box };
    this.apply();
  }

  // Only when the point is out of sight: a view that shows it already is left alone.
  centreOn(x: number, y: number): void {
    const v = this.view;
    if (x > v.x && x < v.x + v.w && y > v.y && y < v.y + v.h) return;
    this.userMoved = true;
    this.view = { ...this.view, x: x - this.view.w / 2, y: y - this.view.h / 2 };
    this.apply();
  }

  pan(fx: number, fy: number): void {
    this.view = { ...this.view, x: this.view.x + fx * this.view.w, y: this.view.y + fy * this.view.h };
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
    this.showDetail();
  }

  // Tile art shows fine details or bold signs by the screen size of a tile (tiles/geometry.ts).
  private showDetail(): void {
    this.svg.dataset["detail"] = artDetail(SIZE / this.unitsPerPixel());
  }

  // SVG units per screen pixel, with the aspect ratio kept by "meet".
  private unitsPerPixel(): number {
    const r = this.svg.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 1;
    return Math.max(this.view.w / r.width, this.view.h / r.height);
  }

  // One pointer drags; a second one turns the gesture into a pinch until both are lifted.
  private listenDrag(): void {
    let start: { px: number; py: number; x: number; y: number } | null = null;
    const touches = new Map<number, { x: number; y: number }>();
    let pinch = 0;
    this.svg.addEventListener("pointerdown", (e) => {
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.size === 2) {
        pinch = this.spread(touches);
        start = null;
        this.dragged = true;
        return;
      }
      this.dragged = false;
      start = { px: e.clientX, py: e.clientY, x: this.view.x, y: this.view.y };
    });
    this.svg.addEventListener("pointermove", (e) => {
      if (touches.has(e.pointerId)) touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.size === 2) {
        const now = this.spread(touches);
        // About the point between the fingers, which stays between them.
        const [mx, my] = this.boardPoint(...this.midpoint(touches));
        if (pinch > 0 && now > 0) this.zoom(pinch / now, mx, my);
        this.userMoved = true;
        pinch = now;
        return;
      }
      if (start === null) return;
      const dx = e.clientX - start.px;
      const dy = e.clientY - start.py;
      if (!this.dragged && Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      this.dragged = true;
      this.userMoved = true;
      const k = this.unitsPerPixel();
      this.view.x = start.x - dx * k;
      this.view.y = start.y - dy * k;
      this.apply();
    });
    const end = (e: PointerEvent): void => {
      touches.delete(e.pointerId);
      start = null;
    };
    this.svg.addEventListener("pointerup", end);
    this.svg.addEventListener("pointercancel", end);
    this.svg.addEventListener("pointerleave", end);
  }

  private spread(touches: Map<number, { x: number; y: number }>): number {
    const [a, b] = [...touches.values()];
    return a === undefined || b === undefined ? 0 : Math.hypot(a.x - b.x, a.y - b.y);
  }

  private midpoint(touches: Map<number, { x: number; y: number }>): [number, number] {
    const [a, b] = [...touches.values()];
    return a === undefined || b === undefined ? [0, 0] : [(a.x + b.x) / 2, (a.y + b.y) / 2];
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    this.userMoved = true;
    // Zoom about the point under the pointer, so it stays where it is.
    const [cx, cy] = this.boardPoint(e.clientX, e.clientY);
    this.zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, cx, cy);
  }

  // The board point shown at a point of the page.
  private boardPoint(clientX: number, clientY: number): [number, number] {
    const r = this.svg.getBoundingClientRect();
    const k = this.unitsPerPixel();
    return [this.view.x + this.view.w / 2 + (clientX - r.left - r.width / 2) * k, this.view.y + this.view.h / 2 + (clientY - r.top - r.height / 2) * k];
  }

  // Public because the page listens on the window: the keys should work without focusing the board.
  handleKey(e: KeyboardEvent): void {
    const pans: Record<string, [number, number]> = { ArrowLeft: [-0.2, 0], ArrowRight: [0.2, 0], ArrowUp: [0, -0.2], ArrowDown: [0, 0.2] };
    const p = pans[e.key];
    if (p !== undefined) this.pan(p[0], p[1]);
    else if (e.key === "+" || e.key === "=") this.zoom(1 / 1.25);
    else if (e.key === "-" || e.key === "_") this.zoom(1.25);
    else if (e.key === "f" || e.key === "F") {
      this.fit(this.lastFit, true);
      e.preventDefault();
      return;
    } else return;
    this.userMoved = true;
    e.preventDefault();
  }
}
