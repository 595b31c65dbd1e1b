// The buildings as seen from the street, upright however the tile lies, each on its own small
// square so it stands out from the roofs around it: a public building is a hall with columns under
// a wide pediment; a historic building is a church with two spires and a rose window. The two
// silhouettes differ, so neither rests on colour.
import { s } from "../../../ui/dom";

function plaza(): SVGCircleElement {
  return s("circle", { r: 17, class: "building-plaza" });
}

export function publicBuilding(): SVGElement[] {
  const columns = [-9, -3, 3, 9].map((x) => s("rect", { x: x - 1.3, y: -3, width: 2.6, height: 10, class: "building-column" }));
  return [
    plaza(),
    s("rect", { x: -14, y: 7, width: 28, height: 4, class: "building-base" }),
    s("rect", { x: -12, y: -4, width: 24, height: 11, class: "building-wall" }),
    ...columns,
    s("polygon", { points: "-14.5,-3 0,-13 14.5,-3", class: "building-roof" }),
  ];
}

export function historicBuilding(): SVGElement[] {
  return [
    plaza(),
    s("rect", { x: -8, y: -5, width: 16, height: 16, class: "building-wall" }),
    s("polygon", { points: "-8,-5 0,-12 8,-5", class: "building-roof" }),
    s("rect", { x: -14, y: -8, width: 6, height: 19, class: "building-wall" }),
    s("rect", { x: 8, y: -8, width: 6, height: 19, class: "building-wall" }),
    s("polygon", { points: "-14.5,-8 -11,-17 -7.5,-8", class: "building-roof" }),
    s("polygon", { points: "7.5,-8 11,-17 14.5,-8", class: "building-roof" }),
    s("circle", { cx: 0, cy: -1, r: 3.2, class: "building-window" }),
    s("path", { d: "M -3 11 L -3 5 Q 0 2 3 5 L 3 11 Z", class: "building-door" }),
  ];
}
