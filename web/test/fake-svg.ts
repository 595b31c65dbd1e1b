// Just enough of the DOM for the tile art (and a game's board, panel and decision) to be built
// in Node: elements with attributes, children and their text, listeners that are never called,
// text nodes, document.getElementById and document.body. The tests read the art as a tree
// (`find`, `classes`), as a person would look for its pieces.
export class FakeElement {
  readonly attributes = new Map<string, string>();
  readonly children: FakeElement[] = [];
  text = "";

  constructor(readonly tagName: string) {}

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  // Buttons and picks listen for clicks; the tests read what they show, not what they do.
  addEventListener(): void {}

  // The text of the element and everything under it, in document order.
  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join("");
  }

  append(...nodes: (FakeElement | { text: string })[]): void {
    for (const n of nodes) {
      if (n instanceof FakeElement) this.children.push(n);
      else this.text += n.text;
    }
  }
}

export function classes(el: FakeElement): string[] {
  return (el.getAttribute("class") ?? "").split(" ").filter((c) => c !== "");
}

// Every element under `root` (itself included) that `match` accepts, in document order.
export function find(root: FakeElement, match: (el: FakeElement) => boolean): FakeElement[] {
  const out: FakeElement[] = match(root) ? [root] : [];
  for (const c of root.children) out.push(...find(c, match));
  return out;
}

export const withClass = (cls: string) => (el: FakeElement): boolean => classes(el).includes(cls);
export const tagged = (tag: string) => (el: FakeElement): boolean => el.tagName === tag;

// Installs the fake document; returns its body, where the art's shared definitions go.
export function installFakeDocument(): FakeElement {
  const body = new FakeElement("body");
  const fake = {
    body,
    createElementNS: (_ns: string, tag: string) => new FakeElement(tag),
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => ({ text }),
    getElementById: (id: string) => find(body, (el) => el.getAttribute("id") === id)[0] ?? null,
  };
  (globalThis as { document?: unknown }).document = fake;
  return body;
}

// The art as the tests read it: tileArt's SVG element is a FakeElement under the fake document.
export function asFake(el: unknown): FakeElement {
  if (!(el instanceof FakeElement)) throw new Error("not built with the fake document");
  return el;
}
