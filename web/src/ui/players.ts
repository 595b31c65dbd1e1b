// How each seat looks. The colours are from the Okabe–Ito palette, which stays distinct for the
// common colour-vision deficiencies; every seat also has its own shape, so no information rests
// on colour alone.
import { s } from "./dom";

export interface PlayerLook {
  readonly colour: string;
  readonly colourName: string;
  readonly shape: "circle" | "square" | "triangle" | "diamond" | "star";
}

const LOOKS: readonly PlayerLook[] = [
  { colour: "#0072B2", colourName: "Blue", shape: "circle" },
  { colour: "#E69F00", colourName: "Orange", shape: "square" },
  { colour: "#009E73", colourName: "Green", shape: "triangle" },
  { colour: "#CC79A7", colourName: "Pink", shape: "diamond" },
  { colour: "#D55E00", colourName: "Vermillion", shape: "star" }, // Carcassonne seats five
];

const FALLBACK: PlayerLook = { colour: "#777777", colourName: "Grey", shape: "circle" };

export function look(seat: number): PlayerLook {
  return LOOKS[seat] ?? FALLBACK;
}

// A five-pointed star about (x, y), its points on radius r.
function starPoints(x: number, y: number, r: number): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 === 0 ? r * 1.15 : r * 0.5;
    points.push(`${(x + d * Math.cos(a)).toFixed(2)},${(y + d * Math.sin(a)).toFixed(2)}`);
  }
  return points.join(" ");
}

// The seat's marker centred on (x, y) with radius r, in SVG units.
export function marker(seat: number, x: number, y: number, r: number): SVGElement {
  const l = look(seat);
  const style = { fill: l.colour, stroke: "#111", "stroke-width": r / 5, class: "marker" };
  switch (l.shape) {
    case "circle":
      return s("circle", { cx: x, cy: y, r, ...style });
    case "square":
      return s("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, ...style });
    case "triangle":
      return s("polygon", { points: `${x},${y - r} ${x + r},${y + r} ${x - r},${y + r}`, ...style });
    case "diamond":
      return s("polygon", { points: `${x},${y - r} ${x + r},${y} ${x},${y + r} ${x - r},${y}`, ...style });
    case "star":
      return s("polygon", { points: starPoints(x, y, r), ...style });
  }
}

// A small inline SVG of the marker, for lists and the side panel.
export function badge(seat: number): SVGSVGElement {
  return s("svg", { width: 16, height: 16, viewBox: "-8 -8 16 16", class: "badge", "aria-hidden": true }, marker(seat, 0, 0, 6));
}

// Names come from the lobby; a seat whose name is unknown (or empty) goes by its colour.
export function playerName(names: readonly string[], seat: number): string {
  const n = names[seat];
  return n !== undefined && n !== "" ? n : look(seat).colourName;
}
