// The replay page, /replay/<id>: the game's whole log (GetReplay), stepped through with buttons,
// a slider or the arrow keys. Every step is applied with the shared reducer and checked against
// the hash the server recorded, so a replay shows exactly what the players saw.
import type { Delta, Replay } from "../gen/carcassonne/city/v1/city_pb";
import type { Connection } from "../net/connection";
import { applyDelta, fromSnapshot, type GameView } from "../state";
import { boardBounds, drawBoard, NO_OVERLAY } from "./board";
import { button, h } from "./dom";
import { failureText, replyError } from "./errors";
import { drawLog, drawPanel } from "./panel";
import { Viewport } from "./viewport";
import { eventWord } from "./words";

// Views at every step (index = sequence), or why the log could not be followed.
function buildViews(replay: Replay): { views: GameView[]; error: string | null } {
  if (replay.start === undefined) return { views: [], error: "the replay has no start" };
  const first = fromSnapshot(replay.start);
  if (!first.ok) return { views: [], error: first.error };
  const views = [first.value];
  for (const step of replay.steps) {
    const last = views[views.length - 1];
    if (last === undefined) break;
    const out = applyDelta(last, step);
    if (out.kind !== "applied") return { views, error: `step ${step.sequence} could not be applied (${out.kind})` };
    views.push(out.view);
  }
  return { views, error: null };
}

export class ReplayPage {
  private replay: Replay | null = null;
  private views: GameView[] = [];
  private at = 0;
  private readonly viewport = new Viewport();
  private readonly side = h("aside", { class: "side" });
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly mount: HTMLElement,
    private readonly conn: Connection,
    private readonly gameId: string,
  ) {}

  start(): void {
    this.mount.replaceChildren(h("div", { class: "game-page" }, h("div", { class: "board-box" }, this.viewport.svg), this.side));
    this.side.replaceChildren(h("p", {}, "Loading the replay…"));
    const onKey = (e: KeyboardEvent): void => this.onKey(e);
    window.addEventListener("keydown", onKey);
    this.cleanups.push(() => window.removeEventListener("keydown", onKey));
    void this.load();
  }

  destroy(): void {
    for (const c of this.cleanups.splice(0)) c();
  }

  private async load(): Promise<void> {
    let text: string | null;
    try {
      const m = await this.conn.request({ case: "getReplay", value: { gameId: this.gameId } });
      text = replyError(m);
      if (m.body.case === "replay") this.replay = m.body.value;
    } catch (e) {
      text = failureText(e);
    }
    if (this.replay === null) {
      this.side.replaceChildren(h("p", { class: "error", role: "alert" }, text ?? "No replay came back."));
      return;
    }
    const built = buildViews(this.replay);
    this.views = built.views;
    if (built.error !== null) this.side.append(h("p", { class: "error" }, built.error));
    this.at = this.views.length - 1;
    const last = this.views[this.at];
    if (last !== undefined) this.viewport.fit(boardBounds(last.state), true);
    this.render();
  }

  private go(step: number): void {
    this.at = Math.max(0, Math.min(this.views.length - 1, step));
    this.render();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === "ArrowLeft") this.go(this.at - 1);
    else if (e.key === "ArrowRight") this.go(this.at + 1);
    else this.viewport.handleKey(e);
  }

  private controls(): HTMLElement {
    const slider = h("input", { type: "range", min: 0, max: this.views.length - 1, value: this.at, "aria-label": "Step" });
    slider.addEventListener("input", () => this.go(Number(slider.value)));
    return h(
      "div",
      { class: "replay-controls" },
      button("⏮", () => this.go(0), { "aria-label": "First step" }),
      button("◀", () => this.go(this.at - 1), { "aria-label": "Previous step" }),
      button("▶", () => this.go(this.at + 1), { "aria-label": "Next step" }),
      button("⏭", () => this.go(this.views.length - 1), { "aria-label": "Last step" }),
      slider,
      h("span", {}, ` step ${this.at} of ${this.views.length - 1}`),
    );
  }

  // The log of a replay: the events of the steps up to the one shown.
  private logLines(names: readonly string[]): string[] {
    const steps: readonly Delta[] = this.replay?.steps.slice(0, this.at) ?? [];
    return steps.flatMap((d) => d.events.map((e) => eventWord(e, names)).filter((l): l is string => l !== null));
  }

  private render(): void {
    const view = this.views[this.at];
    if (view === undefined || this.replay === null) return;
    this.viewport.setContent(drawBoard(view.state, NO_OVERLAY));
    const names = this.replay.game?.seat.map((s) => s.playerName) ?? [];
    const gameOver = this.replay.steps[this.at - 1]?.events.find((e) => e.kind.case === "gameOver");
    const winners = gameOver?.kind.case === "gameOver" ? gameOver.kind.value.winners : null;
    const title = this.replay.game?.name ? `${this.replay.game.name} (${this.gameId})` : `Game ${this.gameId}`;
    this.side.replaceChildren(
      h("h2", {}, `Replay: ${title}`),
      this.controls(),
      drawPanel({ state: view.state, names, online: [], yourSeat: null, winners }),
      drawLog(this.logLines(names).slice(-200)),
    );
  }
}
