// The replay page, /replay/<id>: the game's whole log (GetReplay), stepped through with buttons,
// a slider, play/pause, or the keys (left and right arrows step, space plays, shift+arrows pan).
// Every step is applied with the game module's reducer (chosen by the replay's rule set) and
// checked against the hash the server recorded, so a replay shows exactly what the players saw.
import type { Replay } from "../gen/carcassonne/server/v2/server_pb";
import type { GameModule, GameTable } from "../games/module";
import { moduleFor } from "../games/registry";
import type { Connection } from "../net/connection";
import { loadCatalog } from "../net/tileset";
import { applyDelta, deltaEvents, fromSnapshot, type GameView } from "../state";
import type { TileCatalog } from "../tiles/catalog";
import { button, h } from "./dom";
import { failureText, replyError } from "./errors";
import { drawLog } from "./log";
import { Viewport } from "./viewport";

const PLAY_STEP_MS = 400;

// Views at every step (index = sequence), or why the log could not be followed.
function buildViews(game: GameModule, replay: Replay): { views: GameView[]; error: string | null } {
  if (replay.start === undefined) return { views: [], error: "the replay has no start" };
  const first = fromSnapshot(game, replay.start);
  if (!first.ok) return { views: [], error: first.error };
  const views = [first.value];
  for (const step of replay.steps) {
    const last = views[views.length - 1];
    if (last === undefined) break;
    const out = applyDelta(game, last, step);
    if (out.kind !== "applied") return { views, error: `step ${step.sequence} could not be applied (${out.kind})` };
    views.push(out.view);
  }
  return { views, error: null };
}

export class ReplayPage {
  private replay: Replay | null = null;
  private table: GameTable<unknown, unknown> | null = null;
  private lines: string[][] = []; // the log lines of each step
  private winnersAt: (number | null)[] = []; // the winners once each step is done
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
    const ruleSet = this.replay.start?.ruleSet || this.replay.game?.ruleSet || "";
    const game = moduleFor(ruleSet);
    if (game === null) {
      this.side.replaceChildren(h("p", { class: "error", role: "alert" }, `This game's rule set (${ruleSet}) cannot be shown by this client yet.`));
      return;
    }
    // A replay sends no moves; the table only draws.
    this.table = game.table({ send: () => undefined, render: () => this.render(), centreOn: (x, y) => this.viewport.centreOn(x, y) });
    void loadCatalog(this.conn, ruleSet)
      .then((c) => {
        this.catalog = c;
        this.lines = this.logLines(game);
        this.render();
      })
      .catch(() => undefined); // tiles stay plain squares
    this.buildControls();
    const built = buildViews(game, this.replay);
    this.views = built.views;
    this.buildError = built.error;
    this.at = this.views.length - 1;
    this.lines = this.logLines(game);
    const last = this.views[this.at];
    if (last !== undefined) this.viewport.fit(game.bounds(last.state), true);
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

  // Each step's log lines, and who had won once it was done (the game's end event says).
  private logLines(game: GameModule): string[][] {
    const names = this.names();
    let winners: number | null = null;
    this.winnersAt = [null];
    return (this.replay?.steps ?? []).map((d) => {
      const events = deltaEvents(game, d);
      const lines = (events.ok ? events.value : []).flatMap((e) => {
        winners = game.winners(e) ?? winners;
        const line = game.eventWord(e, names, this.catalog);
        return line === null ? [] : [line];
      });
      this.winnersAt.push(winners);
      return lines;
    });
  }

  private names(): string[] {
    return this.replay?.game?.seat.map((s) => s.playerName) ?? [];
  }

  private render(): void {
    const view = this.views[this.at];
    if (view === undefined || this.replay === null || this.table === null) return;
    const names = this.names();
    this.root.dataset["sequence"] = String(view.sequence);
    this.updateControls();
    const inp = { state: view.state, legal: [], tiles: this.catalog, names, online: [], yourSeat: null, winners: this.winnersAt[this.at] ?? null };
    this.viewport.setContent(this.table.board(inp));
    const title = this.replay.game?.name ? `${this.replay.game.name} (${this.gameId})` : `Game ${this.gameId}`;
    const parts: (HTMLElement | null)[] = [
      h("h2", {}, `Replay: ${title}`),
      this.controls,
      this.buildError === null ? null : h("p", { class: "error", role: "alert" }, `The replay stops early: ${this.buildError}`),
      this.table.side(inp),
      drawLog(this.lines.slice(0, this.at).flat().slice(-200)),
    ];
    this.side.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }
}
