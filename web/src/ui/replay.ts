// The replay page, /replay/<id>: the game's whole log (GetReplay), stepped through with buttons,
// a slider, play/pause, or the keys (left and right arrows step, space plays, shift+arrows pan).
// Every delta is applied with the game module's reducer (chosen by the replay's rule set) and
// checked against the hash the server recorded, so a replay shows exactly what the players saw.
// A step is one player's move: the server's draws are folded into the move before them (the
// start's into step 0), and what the step changed is highlighted on the board. The game's chat
// shows each line once the replay reaches the step it was said after. For a game that is over,
// "Fair draws" checks the server's proof against its commitment and the draws of the log
// (src/match/fairness.ts), in the browser. A replay of no game says "No such game", as the game
// page does.
import { ErrorCode, type Replay } from "../gen/carcassonne/server/v2/server_pb";
import type { GameModule, GameTable } from "../games/module";
import { moduleFor } from "../games/registry";
import type { Connection } from "../net/connection";
import { loadCatalog } from "../net/tileset";
import { applyDelta, deltaEvents, fromSnapshot, type GameView } from "../state";
import type { TileCatalog } from "../tiles/catalog";
import { ChatLog } from "../match/chat";
import { checkFairDraws, drawsOfLog, verdictWords, type FairnessVerdict } from "../match/fairness";
import { chatLine } from "./chat-panel";
import { button, h } from "./dom";
import { failureText, replyError } from "./errors";
import { seatNames } from "../match/create-game";
import { drawLog } from "./log";
import { noSuchGameParts } from "./missing";
import { recentLayer } from "../games/shared/recent";
import { Viewport } from "./viewport";

const PLAY_STEP_MS = 400;
// docs/fairness.md, which the build puts next to the client (vite.config.ts).
const FAIRNESS_PROCEDURE = "/fairness.txt";

// The last delta of each step (index into the views): step 0 is the start and the draws before the
// first move; each later step is a player's move and the server's draws after it.
export function moveSteps(serverAction: readonly boolean[]): number[] {
  const ends = [0];
  serverAction.forEach((server, i) => {
    if (server) ends[ends.length - 1] = i + 1;
    else ends.push(i + 1);
  });
  return ends;
}

// Views at every delta (index = sequence), or why the log could not be followed.
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
  private lines: string[][] = []; // the log lines of each delta
  private events: unknown[][] = []; // each delta's events, decoded
  private winnersAt: (number | null)[] = []; // the winners once each delta is done
  private views: GameView[] = [];
  private stepEnds: number[] = [0]; // the view each step shows (moveSteps)
  private game: GameModule | null = null;
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
  private chat: ChatLog;
  private fairness: FairnessVerdict | null = null; // null while it is being checked
  private proofBox: HTMLElement | null = null;
  private readonly chatList = h("ol", { class: "chat-lines", "aria-label": "Chat messages so far" });

  constructor(
    private readonly mount: HTMLElement,
    private readonly conn: Connection,
    private readonly gameId: string,
  ) {
    this.chat = new ChatLog(gameId);
  }

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

  // The server has no such game: said as the game page says it.
  private showMissing(): void {
    this.root.dataset["status"] = "missing";
    this.side.replaceChildren(...noSuchGameParts(this.gameId));
  }

  private play(): void {
    if (this.playing !== 0) return;
    if (this.at >= this.lastStep()) this.at = 0;
    this.playing = window.setInterval(() => {
      if (this.at >= this.lastStep()) this.pause();
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
      if (m.body.case === "error" && m.body.value.code === ErrorCode.NO_SUCH_GAME) {
        this.showMissing();
        return;
      }
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
    this.game = game;
    const built = buildViews(game, this.replay);
    this.views = built.views;
    this.buildError = built.error;
    this.stepEnds = this.stepsOf(game, this.views.length - 1);
    this.at = this.lastStep();
    this.lines = this.logLines(game);
    this.chat.addAll(this.replay.chat);
    void this.checkFairness(game, this.replay);
    const last = this.views[this.views.length - 1];
    if (last !== undefined) this.viewport.fit(game.bounds(last.state), true);
    this.render();
  }

  // The steps of the deltas that could be applied: a move each, draws folded in.
  private stepsOf(game: GameModule, applied: number): number[] {
    const server = (this.replay?.steps ?? []).slice(0, applied).map((d) => {
      const a = game.decodeAction(d.action);
      return a.ok && game.isServerAction(a.value);
    });
    return moveSteps(server);
  }

  private lastStep(): number {
    return this.stepEnds.length - 1;
  }

  private go(step: number): void {
    this.at = Math.max(0, Math.min(this.lastStep(), step));
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
      button("Last", () => this.go(this.lastStep()), { "aria-label": "Last step" }),
      this.slider,
      this.position,
    );
  }

  private updateControls(): void {
    const last = this.lastStep();
    this.slider.max = String(last);
    this.slider.value = String(this.at);
    this.position.textContent = `Step ${this.at} of ${last}`;
    const label = this.playing === 0 ? "Play" : "Pause";
    this.playButton.textContent = label;
    this.playButton.setAttribute("aria-label", label);
  }

  // Each delta's log lines, and who had won once it was done (the game's end event says).
  private logLines(game: GameModule): string[][] {
    const names = this.names();
    let winners: number | null = null;
    this.winnersAt = [null];
    this.events = [];
    return (this.replay?.steps ?? []).map((d, i) => {
      const decoded = deltaEvents(game, d);
      const events = decoded.ok ? decoded.value : [];
      this.events.push(events);
      const after = this.views[i + 1] ?? this.views[this.views.length - 1];
      const lines = events.flatMap((e) => {
        winners = game.winners(e) ?? winners;
        const line = after === undefined ? null : game.eventWord(e, names, this.catalog, after.state);
        return line === null ? [] : [line];
      });
      this.winnersAt.push(winners);
      return lines;
    });
  }

  // The deltas of the step shown: (end of the step before, end of this one].
  private stepDeltas(): { from: number; to: number } {
    const to = this.stepEnds[this.at] ?? 0;
    const from = this.at === 0 ? 0 : (this.stepEnds[this.at - 1] ?? 0);
    return { from, to };
  }

  // What the step changed, on the board.
  private stepMarks(state: unknown): SVGGElement {
    const { from, to } = this.stepDeltas();
    const events = this.at === 0 ? [] : this.events.slice(from, to).flat();
    const marks = this.game?.moveMarks(state, events, this.catalog) ?? [];
    return recentLayer(marks.map((mark) => ({ mark, at: null })), this.names(), 0);
  }

  private names(): string[] {
    return this.replay?.game === undefined ? [] : seatNames(this.replay.game);
  }

  private async checkFairness(game: GameModule, replay: Replay): Promise<void> {
    const info = replay.game;
    if (info === undefined || info.drawProof === "") return;
    const draws = drawsOfLog(game, replay.steps);
    this.fairness = !draws.ok
      ? { fair: false, reason: draws.error }
      : await checkFairDraws({
          commitment: info.drawCommitment,
          proof: info.drawProof,
          ruleSet: info.ruleSet !== "" ? info.ruleSet : game.ruleSet,
          ruleSetVersion: info.ruleSetVersion,
          draws: draws.value,
          laidAtSetUp: game.tilesLaidAtSetUp,
        }).catch((e: unknown) => ({ fair: false, reason: `the browser could not compute SHA-256: ${failureText(e)}` }) as const);
    this.render();
  }

  // The commitment, the proof once revealed, and the check's verdict.
  private fairnessPart(): HTMLElement {
    const info = this.replay?.game;
    const commitment = info?.drawCommitment ?? "";
    const proof = info?.drawProof ?? "";
    const parts: HTMLElement[] = [h("h3", {}, "Fair draws")];
    if (commitment === "") {
      parts.push(h("p", {}, "This game has no draw commitment."));
      return h("section", { class: "fairness" }, ...parts);
    }
    if (proof === "") {
      parts.push(h("p", { "data-fair": "pending" }, "The server committed to the drawing order at the start; it reveals the proof once the game is over."));
    } else if (this.fairness === null) {
      parts.push(h("p", { "data-fair": "checking", role: "status" }, "Checking the draws…"));
    } else {
      const verdict = this.fairness;
      parts.push(h("p", { class: verdict.fair ? "fair-yes" : "fair-no error", "data-fair": verdict.fair ? "yes" : "no", role: "status" }, verdictWords(verdict)));
    }
    parts.push(h("p", { class: "commitment" }, "Commitment (SHA-256 of the proof): ", h("code", {}, commitment)));
    if (proof !== "") {
      this.proofBox ??= proofDetails(proof, this.gameId); // once: its file, and whether it is open
      parts.push(this.proofBox);
    }
    return h("section", { class: "fairness" }, ...parts);
  }

  // The chat lines said by the step shown.
  private chatPart(sequence: bigint): HTMLElement | null {
    if (this.replay === null || this.replay.chat.length === 0) return null;
    const lines = this.chat.lines(sequence);
    this.chatList.replaceChildren(...(lines.length > 0 ? lines.map(chatLine) : [h("li", { class: "chat-empty" }, "Nothing said yet.")]));
    return h("section", { class: "chat" }, h("h3", {}, "Chat"), this.chatList);
  }

  private render(): void {
    const view = this.views[this.stepDeltas().to];
    if (view === undefined || this.replay === null || this.table === null) return;
    const names = this.names();
    this.root.dataset["sequence"] = String(view.sequence);
    this.updateControls();
    const shown = this.stepDeltas().to;
    const inp = { state: view.state, legal: [], tiles: this.catalog, names, online: [], yourSeat: null, winners: this.winnersAt[shown] ?? null };
    const board = this.table.board(inp);
    board.append(this.stepMarks(view.state));
    this.viewport.setContent(board);
    const title = this.replay.game?.name ? `${this.replay.game.name} (${this.gameId})` : `Game ${this.gameId}`;
    const parts: (HTMLElement | null)[] = [
      h("h2", {}, `Replay: ${title}`),
      this.controls,
      this.buildError === null ? null : h("p", { class: "error", role: "alert" }, `The replay stops early: ${this.buildError}`),
      this.table.side(inp),
      this.chatPart(view.sequence),
      this.fairnessPart(),
      drawLog(this.lines.slice(0, shown).flat().slice(-200)),
    ];
    this.side.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }
}

// The proof as text, a file of its exact bytes, and how to check it by hand (docs/fairness.md).
function proofDetails(proof: string, gameId: string): HTMLElement {
  const file = URL.createObjectURL(new Blob([proof], { type: "text/plain" }));
  return h(
    "details",
    { class: "proof" },
    h("summary", {}, "The proof, and how to check it by hand"),
    h("pre", {}, proof),
    h("p", {}, h("a", { href: file, download: `${gameId}-draws.txt` }, "Download the proof"), " (its exact bytes)."),
    h(
      "ol",
      {},
      h("li", {}, "Its SHA-256 (", h("code", {}, `sha256sum ${gameId}-draws.txt`), ") is the commitment above, published when the game started."),
      h("li", {}, "The order line lists the tiles in drawing order (after the tiles laid at set-up); every tile drawn in this replay is the next one."),
      h("li", {}, "That the order is the one the rule set deals from the seed: ", h("code", {}, "carc-db"), " checks it."),
    ),
    h("p", {}, h("a", { href: FAIRNESS_PROCEDURE, target: "_blank", rel: "noopener" }, "The whole procedure, step by step"), " (docs/fairness.md)."),
  );
}
