// Decisions with only one possible answer ("No follower", "No guard") answered for the seat: a
// setting on the game page, on unless turned off, remembered in localStorage. When the seat's
// decision has exactly one legal action and the game says it may be answered so (a tile is always
// placed by hand), the action is sent after a short moment, so the decision is seen first. The
// engine still asks every decision: this client answers it.
import { h } from "./dom";

export const AUTO_ANSWER_KEY = "carc.autoAnswer";
export const AUTO_ANSWER_DELAY_MS = 700;

export function autoAnswerOn(): boolean {
  try {
    return localStorage.getItem(AUTO_ANSWER_KEY) !== "off";
  } catch {
    return true;
  }
}

function remember(on: boolean): void {
  try {
    localStorage.setItem(AUTO_ANSWER_KEY, on ? "on" : "off");
  } catch {
    // Storage refused (private mode): the setting holds for this page only.
  }
}

// The only legal action when there is exactly one and the game lets it be answered for the seat
// (`word` gives its words, null for an action never sent by itself), else null.
export function onlyChoice<A>(legal: readonly A[], word: (a: A) => string | null): { action: A; word: string } | null {
  const [only] = legal;
  if (only === undefined || legal.length !== 1) return null;
  const w = word(only);
  return w === null ? null : { action: only, word: w };
}

export class AutoAnswer {
  private on = autoAnswerOn();
  private timer = 0;
  readonly control: HTMLElement;

  constructor() {
    const box = h("input", { type: "checkbox", class: "auto-answer-box" });
    box.checked = this.on;
    box.addEventListener("change", () => {
      this.on = box.checked;
      remember(this.on);
      if (!this.on) this.cancel();
    });
    this.control = h("label", { class: "auto-answer" }, box, " Answer decisions with only one choice for me");
  }

  // A new decision came: answers it after a moment when it has one possible answer. `stillAsked`
  // says, when the moment is over, whether the same decision is still waiting (not answered by
  // hand, not replaced).
  offer<A>(legal: readonly A[], word: (a: A) => string | null, stillAsked: () => boolean, answer: (a: A, word: string) => void): void {
    this.cancel();
    const only = onlyChoice(legal, word);
    if (only === null || !this.on) return;
    this.timer = window.setTimeout(() => {
      this.timer = 0;
      if (this.on && stillAsked()) answer(only.action, only.word);
    }, AUTO_ANSWER_DELAY_MS);
  }

  cancel(): void {
    if (this.timer !== 0) window.clearTimeout(this.timer);
    this.timer = 0;
  }
}
