// The game page, /game/<id>: the open game's seats (join, start, invite link) and, once it runs,
// the board, the side panel and the seat's decision. Holding a seat means having its token in
// localStorage; the page resumes it on load and the Connection on every reconnect. Without a
// token the page spectates, read-only. Every state change goes through the shared reducer and is
// checked against the server's hash; a gap or mismatch asks the server for a fresh snapshot.
import {
  ActionKind,
  ErrorCode,
  GameStatus,
  type Action,
  type Delta,
  type GameInfo,
  type ServerMessage,
  type Snapshot,
} from "../gen/carcassonne/city/v1/city_pb";
import type { Connection, RequestBody } from "../net/connection";
import { forgetSeat, loadSeat, saveSeat, type StoredSeat } from "../net/seats";
import { applyDelta, fromSnapshot, needsResync, type GameView } from "../state";
import { loadCatalog } from "../net/tileset";
import { tileDescriber, type TileCatalog } from "../tiles/catalog";
import { boardBounds, CELL, drawBoard } from "./board";
import {
  decisionOverlay,
  drawDecision,
  handTile,
  nextCell,
  nextChoice,
  placementOf,
  type DecisionContext,
  type DecisionHandlers,
  type TileChoice,
} from "./decisions";
import { h, s } from "./dom";
import { failureText, replyError, requestShowingErrors } from "./errors";
import { nameInput } from "./identity";
import { drawOpenGame } from "./open-game";
import { drawLog, drawPanel } from "./panel";
import { Viewport } from "./viewport";
import { eventWord } from "./words";

const MAX_LOG = 200;

export class GamePage {
  private view: GameView | null = null;
  private info: GameInfo | null = null;
  private seat: StoredSeat | null;
  private legal: Action[] = [];
  private online: (boolean | null)[] = [];
  private log: string[] = [];
  private winners: number | null = null;
  private errorText: string | null = null;
  private choice: TileChoice | null = null;
  private catalog: TileCatalog | null = null;
  private sending = false;
  private connected = true;
  private readonly viewport = new Viewport();
  private readonly side = h("aside", { class: "side" });
  private readonly root = h("div", { class: "game-page" });
  private readonly nameBox = nameInput();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    private readonly mount: HTMLElement,
    private readonly conn: Connection,
    private readonly gameId: string,
  ) {
    this.seat = loadSeat(gameId);
  }

  start(): void {
    this.root.replaceChildren(h("div", { class: "board-box" }, this.viewport.svg), this.side);
    this.mount.replaceChildren(this.root);
    this.cleanups.push(this.conn.onMessage((m) => this.onMessage(m)));
    this.cleanups.push(this.conn.onReconnect(() => this.afterReconnect()));
    this.cleanups.push(this.conn.onStatus((s) => this.onConnectionStatus(s === "open")));
    const onKey = (e: KeyboardEvent): void => this.onKey(e);
    window.addEventListener("keydown", onKey);
    this.cleanups.push(() => window.removeEventListener("keydown", onKey));
    void this.loadInfo();
    void this.loadTiles();
    this.enter();
    this.render();
  }

  destroy(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.conn.releaseSeat(this.gameId);
  }

  // A seat is resumed from scratch (last seen 0 gives a snapshot); anybody else watches.
  private enter(): void {
    if (this.seat === null) {
      void this.ask({ case: "spectate", value: { gameId: this.gameId } });
      return;
    }
    const token = this.seat.token;
    this.conn.holdSeat(this.gameId, { token, lastSeen: () => this.view?.sequence ?? 0n });
    void this.ask({ case: "resume", value: { gameId: this.gameId, seatToken: token, lastSeenSequence: 0n } }).then((m) => {
      if (m?.body.case === "error" && m.body.value.code === ErrorCode.BAD_TOKEN) this.dropSeat();
    });
  }

  // The stored token is not (or no longer) a seat of this game: watch instead.
  private dropSeat(): void {
    forgetSeat(this.gameId);
    this.conn.releaseSeat(this.gameId);
    this.seat = null;
    this.enter();
  }

  // Who is online is unknown while this page is cut off: it says so rather than show old news.
  private onConnectionStatus(connected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    this.render();
  }

  // The Connection resumes held seats itself; a spectator must ask to watch again, and the
  // names and online flags are read afresh.
  private afterReconnect(): void {
    void this.loadInfo();
    if (this.seat === null) void this.ask({ case: "spectate", value: { gameId: this.gameId } });
  }

  private async loadTiles(): Promise<void> {
    try {
      this.catalog = await loadCatalog(this.conn);
      this.render();
    } catch (e) {
      this.showError(`Tiles are drawn plain: ${failureText(e)}`);
    }
  }

  // Keys for playing without a mouse (the board's picks and the buttons also take Tab and Enter).
  private onKey(e: KeyboardEvent): void {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const placing = this.legal.some((a) => a.kind === ActionKind.PLACE_TILE);
    const key = e.key.toLowerCase();
    if (placing && (key === "n" || key === "p")) {
      this.choice = nextCell(this.legal, this.choice, key === "n" ? 1 : -1);
      if (this.choice !== null) this.viewport.centreOn(this.choice.x * CELL + CELL / 2, -this.choice.y * CELL + CELL / 2);
      this.render();
    } else if (placing && key === "r") {
      this.turnChoice();
    } else if (placing && key === "enter" && !(t instanceof HTMLButtonElement) && !(t instanceof SVGElement && t.getAttribute("role") === "button")) {
      const chosen = placementOf(this.legal, this.choice);
      if (chosen !== null) this.send(chosen);
    } else {
      this.viewport.handleKey(e);
      return;
    }
    e.preventDefault();
  }

  // Names and online flags come from the game list (Snapshots carry neither).
  private async loadInfo(): Promise<void> {
    const m = await this.ask({ case: "listGames", value: { gameId: this.gameId } });
    if (m?.body.case !== "gameList") return;
    const game = m.body.value.games.find((g) => g.gameId === this.gameId);
    if (game !== undefined) this.setInfo(game);
  }

  private setInfo(game: GameInfo): void {
    this.info = game;
    this.online = game.seat.map((s) => (s.taken ? s.online : null));
    this.render();
  }

  // Sends a request; a refusal or a lost connection is shown, and the reply handed back.
  private ask(body: RequestBody): Promise<ServerMessage | null> {
    return requestShowingErrors(this.conn, body, (text) => {
      if (text !== null) this.showError(text);
    });
  }

  private showError(text: string | null): void {
    this.errorText = text;
    this.render();
  }

  private onMessage(m: ServerMessage): void {
    const b = m.body;
    switch (b.case) {
      case "snapshot":
        if (b.value.gameId === this.gameId) this.onSnapshot(b.value);
        return;
      case "delta":
        if (b.value.gameId === this.gameId) this.onDelta(b.value);
        return;
      case "lobbyUpdate":
      case "seatJoined":
        if (b.value.game?.gameId === this.gameId) this.setInfo(b.value.game);
        return;
      case "seatStatus":
        if (b.value.gameId !== this.gameId) return;
        this.online[b.value.seat] = b.value.online;
        this.render();
        return;
      case "error":
        if (m.requestId === 0n) this.showError(replyError(m));
        return;
      case "serverClosing":
        this.showError(`The server is shutting down: ${b.value.reason}`);
        return;
      default:
        return;
    }
  }

  private onSnapshot(snap: Snapshot): void {
    const v = fromSnapshot(snap);
    if (!v.ok) {
      this.showError(`The game's state could not be read: ${v.error}`);
      return;
    }
    const fresh = this.view === null;
    this.view = v.value;
    this.legal = [...snap.legalActions];
    // After a reconnect the same decision comes back: the cell and rotation chosen are kept.
    if (placementOf(this.legal, this.choice) === null) this.choice = null;
    // Players are renumbered when a game starts with free seats: keep the number the server says.
    if (this.seat !== null && snap.yourSeat !== undefined && snap.yourSeat !== this.seat.seat) {
      this.seat = { seat: snap.yourSeat, token: this.seat.token };
      saveSeat(this.gameId, this.seat);
    }
    this.pushLog(`State received at step ${snap.sequence}`);
    if (fresh) void this.loadInfo();
    this.viewport.fit(boardBounds(v.value.state), fresh);
    this.render();
  }

  private onDelta(delta: Delta): void {
    if (this.view === null) return;
    const out = applyDelta(this.view, delta);
    if (out.kind === "applied") {
      this.view = out.view;
      this.legal = [...delta.legalActions];
      this.choice = null;
      this.errorText = null;
      this.logEvents(delta);
      this.render();
    } else if (needsResync(out)) {
      this.pushLog(`Out of step with the server (${out.kind}): asking for the whole state`);
      if (this.seat !== null) {
        void this.ask({ case: "resume", value: { gameId: this.gameId, seatToken: this.seat.token, lastSeenSequence: 0n } });
      } else {
        void this.ask({ case: "spectate", value: { gameId: this.gameId } });
      }
    }
  }

  private logEvents(delta: Delta): void {
    for (const e of delta.events) {
      if (e.kind.case === "gameOver") this.winners = e.kind.value.winners;
      const line = eventWord(e, this.names(), tileDescriber(this.catalog));
      if (line !== null) this.pushLog(line);
    }
  }

  private pushLog(line: string): void {
    this.log.push(line);
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
  }

  private names(): string[] {
    return this.info?.seat.map((s) => s.playerName) ?? [];
  }

  // One move at a time: a second click before the answer would only be refused as stale.
  private send(action: Action): void {
    if (this.view === null || this.seat === null || this.sending) return;
    const move = { gameId: this.gameId, seatToken: this.seat.token, sequence: this.view.sequence, action };
    this.sending = true;
    void this.ask({ case: "move", value: move }).finally(() => {
      this.sending = false;
    });
  }

  private onCell(x: number, y: number): void {
    this.choice = nextChoice(this.choice, x, y);
    this.render();
  }

  private render(): void {
    this.renderBoard();
    this.root.dataset["status"] = this.statusName();
    if (this.view === null) delete this.root.dataset["sequence"];
    else this.root.dataset["sequence"] = String(this.view.sequence);
    const parts: (HTMLElement | null)[] = [
      h("h2", {}, this.info?.name !== undefined && this.info.name !== "" ? `${this.info.name} (${this.gameId})` : `Game ${this.gameId}`),
      this.inviteLink(),
      this.errorText === null ? null : h("p", { class: "error", role: "alert" }, this.errorText),
      this.view === null ? this.openGamePart() : this.runningPart(this.view),
      drawLog(this.log),
    ];
    this.side.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  private statusName(): string {
    if (this.info?.status === GameStatus.ABANDONED) return "abandoned";
    if (this.view === null) return this.info?.status === GameStatus.DAMAGED ? "damaged" : "open";
    return this.view.state.decision.actor === -2 ? "finished" : "running";
  }

  private decisionContext(view: GameView): DecisionContext {
    return { state: view.state, catalog: this.catalog, legal: this.legal, choice: this.choice };
  }

  private handlers(): DecisionHandlers {
    return { send: (a) => this.send(a), turn: () => this.turnChoice(), onCell: (x, y) => this.onCell(x, y) };
  }

  private renderBoard(): void {
    if (this.view === null) {
      this.viewport.setContent(s("g"));
      return;
    }
    const ctx = this.decisionContext(this.view);
    const overlay = decisionOverlay(ctx, this.handlers());
    this.viewport.fit(boardBounds(this.view.state));
    this.viewport.setContent(drawBoard({ state: this.view.state, catalog: this.catalog, names: this.names() }, overlay));
  }

  private runningPart(view: GameView): HTMLElement {
    const panel = drawPanel({
      state: view.state,
      names: this.names(),
      online: this.connected ? this.online : this.online.map(() => null),
      yourSeat: this.seat?.seat ?? null,
      winners: this.winners,
    });
    const decision = drawDecision(this.decisionContext(view), this.handlers());
    const role = this.seat === null ? h("p", { class: "role" }, "You are watching.") : null;
    // Everybody sees the tile in hand; the seat placing it sees it in its decision.
    const hand = decision === null ? handTile(this.decisionContext(view)) : null;
    const handBox = hand === null ? null : h("div", { class: "hand" }, hand, h("p", {}, hand.getAttribute("aria-label") ?? ""));
    return h("div", {}, role, decision, handBox, panel);
  }

  private turnChoice(): void {
    const c = this.choice;
    if (c !== null && placementOf(this.legal, c) !== null) this.choice = nextChoice(c, c.x, c.y);
    this.render();
  }

  private openGamePart(): HTMLElement {
    if (this.info?.status === GameStatus.ABANDONED) {
      return h("p", {}, "This game was abandoned: nothing happened in it for too long.");
    }
    if (this.info === null || this.info.status !== GameStatus.OPEN) return h("p", {}, "Loading the game…");
    return drawOpenGame(this.info, this.seat?.seat ?? null, this.nameBox, {
      join: (name) => void this.join(name),
      start: () => void this.startGame(),
    });
  }

  private async join(playerName: string): Promise<void> {
    const m = await this.ask({ case: "joinSeat", value: { gameId: this.gameId, playerName } });
    if (m?.body.case !== "seatJoined") return;
    this.seat = { seat: m.body.value.seat, token: m.body.value.seatToken };
    saveSeat(this.gameId, this.seat);
    this.conn.holdSeat(this.gameId, { token: this.seat.token, lastSeen: () => this.view?.sequence ?? 0n });
    this.showError(null);
  }

  private async startGame(): Promise<void> {
    if (this.seat === null) return;
    await this.ask({ case: "startGame", value: { gameId: this.gameId, seatToken: this.seat.token } });
  }

  private inviteLink(): HTMLElement {
    const url = `${location.origin}/game/${encodeURIComponent(this.gameId)}`;
    return h("p", { class: "invite" }, "Invite link: ", h("a", { href: url }, url));
  }
}
