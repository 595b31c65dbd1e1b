// The log of a game page or a replay: the newest line first.
import { h } from "./dom";

export function drawLog(lines: readonly string[]): HTMLElement {
  const items = [...lines].reverse().map((l) => h("li", {}, l));
  return h("section", { class: "log" }, h("h3", {}, "Events"), h("ol", { reversed: true }, ...items));
}
