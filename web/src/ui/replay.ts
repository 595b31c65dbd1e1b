// The replay page, /replay/<id>: the game's whole log (GetReplay), stepped through with buttons,
// a slider, play/pause, or the keys (left and right arrows step, space plays, shift+arrows pan). Every step is applied with the shared reducer and checked against
// the hash the server recorded, so a replay shows exactly what the players saw.
import type { Delta, Replay } from "../gen/carcassonne/city/v1/city_pb";
import type { Connection } from "../net/connection";
import { loadCatalog } from "../net/tileset";
import { tileDescriber, type TileCatalog } from "../tiles/catalog";
import { applyDelta, fromSnapshot, type GameView } from "../state";
import { boardBounds, drawBoard, NO_OVERLAY } from "./board";
import { button, h } from "./dom";
import { failureText, replyError } from "./errors";
import { drawLog, drawPanel } from "./panel";
import { Viewport } from "./viewport";
import { eventWord } from "./words";

const PLAY_STEP_MS = 400;

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
  private catalog: TileCatalog | null = null;
  private buildError: string | null = null; // the log could not be followed past some step
  private playing = 0; // the interval's id while playing
  private readonly viewport = new Viewport();
  private readonly side = h("aside", { class: "side" });
  private readonly root = h("div", { class: "game-page replay-page" });
  private readonly controls = h("div", { class: "replay-controls" });
  private readonly slider = h("input", { type: "range", min: 0, value: 0, "aria-label": "Step" });
  private readonly position = h("span", { class: "replay-position", "aria-live": "polite" });
  private readonly playButton = button("Play", () => (this.playing === 0 ? this.play() : this.pause()), { class: "primary" });
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly mount: HTMLElement,
    private readonly conn: Connection,
    private readonly gameId: string,
  ) {}

  start(): void {
    this.root.replaceChildren(h("div", { class: "board-box" }, this.viewport.svg), this.side);
    this.mount.replaceChildren(this.root);
    this.side.replaceChildren(h("p", {}, "Loading the replay…"));
    const onKey = (e: KeyboardEvent): void => this.onKey(e);
    window.addEventListener("keydown", onKey);
    this.cleanups.push(() => window.removeEventListener("keydown", onKey));
    this.cleanups.push(() => this.pause());
    void this.load();
    void loadCatalog(this.conn)
      .then((c) => {
        this.catalog = c;
        this.render();
      })
      .catch(() => undefined); // tiles stay plain squares
  }

  destroy(): void {
    for (const c of this.cleanups.splice(0)) c();
  }

  private play(): void {
    if (this.playing !== 0) return;
    if (this.at >= this.views.length - 1) this.at = 0;
    this.playing = window.setInterval(() => {
      if (this.at >= this.views.length - 1) this.pause();
      else this.go(this.at + 1);
    }, PLAY_STEP_MS);
    this.render();
  }

  private pause(): void {
    if (this.playing === 0) return;
    window.clearInterval(this.playing);
    this.playing = 0;
    this.render();
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
    this.buildControls();
    const built = buildViews(this.replay);
    this.views = built.views;
    this.buildError = built.error;
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
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLButtonElement) return;
    if (e.key === "ArrowLeft" && !e.shiftKey) this.go(this.at - 1);
    else if (e.key === "ArrowRight" && !e.shiftKey) this.go(this.at + 1);
    else if (e.key === " ") {
      if (this.playing === 0) this.play();
      else this.pause();
    } else {
      this.viewport.handleKey(e);
      return;
    }
    e.preventDefault();
  }

  // The controls are built once and updated in place, so a slider being dragged is not replaced.
  private buildControls(): void {
    this.slider.addEventListener("input", () => this.go(Number(this.slider.value)));
    this.controls.replaceChildren(
      button("First", () => this.go(0), { "aria-label": "First step" }),
      button("◀ Back", () => this.go(this.at - 1), { "aria-label": "Previous step" }),
      this.playButton,
      button("Forward ▶", () => this.go(this.at + 1), { "aria-label": "Next step" }),
      button("Last", () => this.go(this.views.length - 1), { "aria-label": "Last step" }),
      this.slider,
      this.position,
    );
  }

  private updateControls(): void {
    const last = this.views.length - 1;
    this.slider.max = String(last);
    this.slider.value = String(this.at);
    this.position.textContent = `Step ${this.at} of ${last}`;
    const label = this.playing === 0 ? "Play" : "Pause";
    this.playButton.textContent = label;
    this.playButton.setAttribute("aria-label", label);
  }

  // The log of a replay: the events of the steps up to the one shown.
  private logLines(names: readonly string[]): string[] {
    const steps: readonly Delta[] = this.replay?.steps.slice(0, this.at) ?? [];
    const describe = tileDescriber(this.catalog);
    return steps.flatMap((d) => d.events.map((e) => eventWord(e, names, describe)).filter((l): l is string => l !== null));
  }

  private render(): void {
    const view = this.views[this.at];
    if (view === undefined || this.replay === null) return;
    const names = this.replay.game?.seat.map((s) => s.playerName) ?? [];
    this.root.dataset["sequence"] = String(view.sequence);
    this.updateControls();
    this.viewport.setContent(drawBoard({ state: view.state, catalog: this.catalog, names }, NO_OVERLAY));
    const gameOver = this.replay.steps[this.at - 1]?.events.find((e) => e.kind.case === "gameOver");
    const winners = gameOver?.kind.case === "gameOver" ? gameOver.kind.value.winners : null;
    const title = this.replay.game?.name ? `${this.replay.game.name} (${this.gameId})` : `Game ${this.gameId}`;
    const parts: (HTMLElement | null)[] = [
      h("h2", {}, `Replay: ${title}`),
      this.controls,
      this.buildError === null ? null : h("p", { class: "error", role: "alert" }, `The replay stops early: ${this.buildError}`),
      drawPanel({ state: view.state, names, online: [], yourSeat: null, winners }),
      drawLog(this.logLines(names).slice(-200)),
    ];
    this.side.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }
}
