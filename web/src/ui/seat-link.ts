// A seat on any device: the seat link a player keeps (shown with a copy button and a warning
// that it is secret), and the field where a link or code is pasted to take the seat here. Both
// are built once and kept by the game page, so a redraw loses neither what was typed nor the
// open state.
import { button, h } from "./dom";

export class SeatLinkPanel {
  private readonly field = h("input", { type: "text", readonly: true, class: "seat-link-url", "aria-label": "Your seat link" });
  private readonly status = h("span", { class: "copy-status", role: "status" });
  readonly element = h(
    "details",
    { class: "seat-link" },
    h("summary", {}, "Your seat link: play this seat on another device"),
    h("p", { class: "warning" }, "Keep it secret: whoever has this link plays your seat. Open it on another device or browser to take your seat there."),
    this.field,
    button("Copy", () => void this.copy()),
    this.status,
  );

  setLink(link: string, open: boolean): void {
    if (this.field.value !== link) this.status.textContent = "";
    this.field.value = link;
    if (open) this.element.open = true;
  }

  private async copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(this.field.value);
      this.status.textContent = " Copied.";
    } catch {
      this.field.select();
      this.status.textContent = " Selected: copy it with Ctrl+C.";
    }
  }
}

export class TakeSeatForm {
  private readonly field = h("input", { type: "text", class: "take-seat-code", placeholder: "seat link or code", "aria-label": "Seat link or code" });
  readonly element: HTMLFormElement;

  constructor(take: (pasted: string) => void) {
    this.element = h(
      "form",
      { class: "take-seat" },
      h("label", {}, "Have a seat link? Take your seat: ", this.field),
      h("button", { type: "submit" }, "Take seat"),
    );
    this.element.addEventListener("submit", (e) => {
      e.preventDefault();
      if (this.field.value.trim() !== "") take(this.field.value);
    });
  }

  clear(): void {
    this.field.value = "";
  }
}
