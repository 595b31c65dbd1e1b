// The game page, /game/<id>: the open game's seats (join, start, invite link) and, once it runs,
// the board, the side panel and the seat's decision. Holding a seat means having its token in
// localStorage; the page resumes it on load and the Connection on every reconnect. A seat link
// (/game/<id>#seat=<token>, or its code pasted into the page) stores a token and takes the seat
// on this device; the connection that held it before is told (SeatMoved) and only watches, with
// a way to take the seat back. Without a token the page spectates, read-only. The game's rule
// set picks its module (src/games/), which reads the payloads and draws the table; every state
// change goes through the module's reducer and is checked against the server's hash; a gap or
// mismatch asks for a fresh snapshot. A seated player may resign a running game (after a
// confirmation) and ask for a rematch once it is over; a rematch another player asked for is
// offered (RematchOffered). The chat panel (chat-panel.ts) holds the game's chat. In a game with a
// clock, every seat's clock counts down (clock-view.ts, from Snapshot.clocks and Clocks); a seat a
// stand-in bot plays is marked, and its player may take it back (Resume with the seat's token).
import {
  ErrorCode,
  GameStatus,
  type Delta,
  type GameInfo,
  type RuleSetInfo,
  type ServerMessage,
  type Snapshot,
} from "../gen/carcassonne/server/v2/server_pb";
import type { GameModule, GameTable, TableInput } from "../games/module";
import { moduleFor } from "../games/registry";
import type { Connection, RequestBody } from "../net/connection";
import { forgetSeat, loadSeat, readPastedSeat, saveSeat, seatLink, tokenFromFragment, type StoredSeat } from "../net/seats";
import { loadCatalog } from "../net/tileset";
import { applyDelta, deltaEvents, fromSnapshot, needsResync, type GameView } from "../state";
import type { TileCatalog } from "../tiles/catalog";
import { TileArrivals, type BoardChange } from "./arrivals";
import { button, h, navigate, s } from "./dom";
import { closingText, failureText, replyError, requestShowingErrors } from "./errors";
import { nameInput, playerNameSetting } from "./identity";
import { ChatLog, loadMuted, saveMuted } from "../match/chat";
import { seatNames } from "../match/create-game";
import { ChatPanel, type Chatter } from "./chat-panel";
import { newerClocks, type HeldClocks } from "../match/clocks";
import { ClockView } from "./clock-view";
import { playerName } from "./players";
import { drawOpenGame } from "./open-game";
import { drawLog } from "./log";
import { noSuchGameParts } from "./missing";
import { RecentMoves, recentLayer } from "../games/shared/recent";
import { AutoAnswer } from "./auto-answer";
import { SeatLinkPanel, TakeSeatForm } from "./seat-link";
import { TurnNotice } from "./turn-notice";
import { Viewport } from "./viewport";

const MAX_LOG = 200;

export class GamePage {
  private game: GameModule | null = null;
  private table: GameTable<unknown, unknown> | null = null;
  private view: GameView | null = null;
  private info: GameInfo | null = null;
  private seat: StoredSeat | null; // seat -1: held by a seat link, its number not known yet
  private movedSeat: StoredSeat | null = null; // taken on another device; this page watches
  private missing = false; // the server has no such game
  private closing = false; // the error shown is the server's ServerClosing
  private ruleSets: readonly RuleSetInfo[] = [];
  private justJoined = false;
  private linkShown = false;
  private legal: unknown[] = []; // the module's decoded actions
  private online: (boolean | null)[] = [];
  private log: string[] = [];
  private winners: number | null = null;
  private errorText: string | null = null;
  private catalog: TileCatalog | null = null;
  private sending = false;
  private connected = true;
  private readonly viewport = new Viewport();
  private readonly arrivals = new TileArrivals();
  private readonly side = h("aside", { class: "side" });
  private readonly root = h("div", { class: "game-page" });
  private readonly nameBox = nameInput();
  private readonly turnNotice = new TurnNotice();
  private readonly seatLinkPanel = new SeatLinkPanel();
  private readonly takeSeatForm = new TakeSeatForm((pasted) => this.takePastedSeat(pasted));
  private readonly cleanups: (() => void)[] = [];
  private readonly recent = new RecentMoves<unknown>(); // each player's last move, to highlight
  private readonly autoAnswer = new AutoAnswer();
  private confirmingResign = false;
  private rematchOffer: { readonly gameId: string; readonly seat: number } | null = null;
  private readonly chat: ChatLog;
  private readonly chatPanel: ChatPanel;
  private clocks: HeldClocks | null = null; // the last Clocks, and when it came
  private readonly clockView = new ClockView(() => void this.takeSeatBack());
  // The side panel: what each render draws, then the chat (kept, with what is being typed), then
  // the events.
  private readonly sideMain = h("div", { class: "side-main" });
  private readonly logBox = h("div", { class: "side-log" });

  constructor(
    private readonly mount: HTMLElement,
    private readonly conn: Connection,
    private readonly gameId: string,
  ) {
    this.takeSeatFromAddress();
    this.seat = loadSeat(gameId);
    this.chat = new ChatLog(gameId);
    for (const seat of loadMuted(gameId)) this.chat.setMuted(seat, true);
    this.chatPanel = new ChatPanel({ send: (text) => this.sendChat(text), mute: (seat, muted) => this.muteSeat(seat, muted) });
    this.side.replaceChildren(this.sideMain, this.chatPanel.element, this.logBox);
  }

  // A seat link's token is stored, and the fragment taken out of the address bar (and history).
  private takeSeatFromAddress(): void {
    const token = tokenFromFragment(location.hash);
    if (token === null) return;
    saveSeat(this.gameId, { seat: -1, token });
    history.replaceState(history.state, "", location.pathname + location.search);
  }

  start(): void {
    this.root.replaceChildren(h("div", { class: "board-box" }, this.viewport.svg), this.side);
    this.mount.replaceChildren(this.root);
    this.cleanups.push(this.conn.onMessage((m) => this.onMessage(m)));
    this.cleanups.push(this.conn.onReconnect(() => this.afterReconnect()));
    this.cleanups.push(this.conn.onStatus((s) => this.onConnectionStatus(s === "open")));
    this.cleanups.push(
      this.conn.onWelcome((w) => {
        this.ruleSets = w.ruleSets;
        this.render();
      }),
    );
    const onKey = (e: KeyboardEvent): void => this.onKey(e);
    window.addEventListener("keydown", onKey);
    this.cleanups.push(() => window.removeEventListener("keydown", onKey));
    void this.loadInfo();
    this.enter();
    this.render();
  }

  destroy(): void {
    for (const c of this.cleanups.splice(0)) c();
    this.autoAnswer.cancel();
    this.conn.releaseSeat(this.gameId);
    this.turnNotice.destroy();
    this.chatPanel.destroy();
    this.clockView.destroy();
  }

  // A seat is resumed from scratch (last seen 0 gives a snapshot); anybody else watches.
  private enter(): void {
    if (this.seat === null) {
      void this.watch();
      return;
    }
    const token = this.seat.token;
    this.conn.holdSeat(this.gameId, { token, lastSeen: () => this.view?.sequence ?? 0n });
    void this.ask({ case: "resume", value: { gameId: this.gameId, seatToken: token, lastSeenSequence: 0n } }).then((m) => {
      if (m?.body.case !== "error") return;
      if (m.body.value.code === ErrorCode.BAD_TOKEN) this.dropSeat();
      else if (m.body.value.code === ErrorCode.NO_SUCH_GAME) this.setMissing();
    });
  }

  private async watch(): Promise<void> {
    const m = await this.ask({ case: "spectate", value: { gameId: this.gameId } });
    if (m?.body.case === "error" && m.body.value.code === ErrorCode.NO_SUCH_GAME) this.setMissing();
  }

  private setMissing(): void {
    this.missing = true;
    this.errorText = null;
    this.render();
  }

  // The stored token is not (or no longer) a seat of this game: watch instead. A seat link's
  // token (its seat not yet known) was just given by the player, who is told.
  private dropSeat(): void {
    const fromLink = this.seat?.seat === -1;
    forgetSeat(this.gameId);
    this.conn.releaseSeat(this.gameId);
    this.seat = null;
    this.enter();
    if (fromLink) this.showError("That seat link or code is not a seat of this game: this page only watches.");
  }

  // A seat link or code pasted into the page: its token is stored and the seat resumed here.
  private takePastedSeat(pasted: string): void {
    const read = readPastedSeat(pasted, this.gameId);
    if (!read.ok) {
      this.showError(read.error);
      return;
    }
    this.takeSeatForm.clear();
    this.holdSeatHere({ seat: -1, token: read.token });
  }

  private holdSeatHere(seat: StoredSeat): void {
    this.seat = seat;
    this.movedSeat = null;
    saveSeat(this.gameId, seat);
    this.showError(null);
    this.enter();
  }

  // Another device took this seat with its token: this page stops acting for it and watches.
  private onSeatMoved(): void {
    if (this.seat === null) return;
    this.movedSeat = this.seat;
    this.seat = null;
    this.conn.releaseSeat(this.gameId);
    this.legal = [];
    this.table?.newLegal(this.legal, false);
    void this.watch();
    this.render();
  }

  // Who is online is unknown while this page is cut off: it says so rather than show old news.
  // A shutdown's notice goes once the connection is back.
  private onConnectionStatus(connected: boolean): void {
    if (connected === this.connected) return;
    this.connected = connected;
    if (connected && this.closing) {
      this.closing = false;
      this.errorText = null;
    }
    this.render();
  }

  // The Connection resumes held seats itself; a spectator must ask to watch again, and the
  // names and online flags are read afresh.
  private afterReconnect(): void {
    void this.loadInfo();
    if (this.seat === null) void this.watch();
  }

  // The game's module, from its rule set (the game list's or a snapshot's): chosen once, with
  // its table and its tile set. False when this client cannot draw that rule set.
  private useRuleSet(ruleSet: string): boolean {
    if (this.game !== null) return this.game.ruleSet === ruleSet;
    const game = moduleFor(ruleSet);
    if (game === null) {
      this.showError(`This game's rule set (${ruleSet}) cannot be shown by this client yet.`);
      return false;
    }
    this.game = game;
    this.table = game.table({
      send: (a) => this.send(a),
      render: () => this.render(),
      centreOn: (x, y) => this.viewport.centreOn(x, y),
    });
    void this.loadTiles(ruleSet);
    return true;
  }

  private async loadTiles(ruleSet: string): Promise<void> {
    try {
      this.catalog = await loadCatalog(this.conn, ruleSet);
      this.render();
    } catch (e) {
      this.showError(`Tiles are drawn plain: ${failureText(e)}`);
    }
  }

  // The table's keys first (a seat's decision), then the board's pan and zoom.
  private onKey(e: KeyboardEvent): void {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || e.ctrlKey || e.metaKey || e.altKey) return;
    const inp = this.tableInput();
    if (this.table !== null && inp !== null && this.table.key(e, inp)) e.preventDefault();
    else this.viewport.handleKey(e);
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
    if (game.ruleSet !== "") this.useRuleSet(game.ruleSet);
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
    this.closing = false;
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
      case "seatMoved":
        if (b.value.gameId === this.gameId) this.onSeatMoved();
        return;
      case "clocks":
        if (b.value.gameId !== this.gameId) return;
        this.clocks = newerClocks(this.clocks, b.value, performance.now());
        this.updateClocks();
        return;
      case "chatMessage":
        if (this.chat.add(b.value)) this.render();
        return;
      case "rematchOffered":
        if (b.value.gameId === this.gameId && b.value.game !== undefined) {
          this.rematchOffer = { gameId: b.value.game.gameId, seat: b.value.seat };
          this.render();
        }
        return;
      case "serverClosing":
        this.showError(closingText(b.value.reason));
        this.closing = true;
        return;
      default:
        return;
    }
  }

  // The seat's legal actions through the module; actions it cannot read are not offered.
  private decodeLegal(game: GameModule, legal: readonly Uint8Array[]): unknown[] {
    const out: unknown[] = [];
    for (const bytes of legal) {
      const a = game.decodeAction(bytes);
      if (a.ok) out.push(a.value);
      else this.pushLog(`A legal action could not be read: ${a.error}`);
    }
    return out;
  }

  private onSnapshot(snap: Snapshot): void {
    if (!this.useRuleSet(snap.ruleSet !== "" ? snap.ruleSet : (this.info?.ruleSet ?? ""))) return;
    const game = this.game;
    if (game === null) return;
    const v = fromSnapshot(game, snap);
    if (!v.ok) {
      this.showError(`The game's state could not be read: ${v.error}`);
      return;
    }
    const fresh = this.view === null;
    this.view = v.value;
    this.chat.addAll(snap.recentChat);
    if (snap.clocks !== undefined) this.clocks = newerClocks(this.clocks, snap.clocks, performance.now());
    this.legal = this.decodeLegal(game, snap.legalActions);
    this.table?.newLegal(this.legal, true);
    // Players are renumbered when a game starts with free seats: keep the number the server says.
    if (this.seat !== null && snap.yourSeat !== undefined && snap.yourSeat !== this.seat.seat) {
      this.seat = { seat: snap.yourSeat, token: this.seat.token };
      saveSeat(this.gameId, this.seat);
    }
    this.recent.clear();
    this.offerOnlyChoice(game);
    if (fresh) void this.loadInfo();
    this.viewport.fit(game.bounds(v.value.state), fresh);
    this.render("snapshot");
  }

  private onDelta(delta: Delta): void {
    const game = this.game;
    if (this.view === null || game === null) return;
    const out = applyDelta(game, this.view, delta);
    if (out.kind === "applied") {
      this.view = out.view;
      this.legal = this.decodeLegal(game, delta.legalActions);
      this.table?.newLegal(this.legal, false);
      this.errorText = null;
      this.logEvents(game, delta);
      this.offerOnlyChoice(game);
      // The end: the game's status, its rematch and its fairness proof are read afresh.
      if (game.isOver(out.view.state)) void this.loadInfo();
      this.render("delta");
    } else if (needsResync(out)) {
      this.pushLog(`Out of step with the server (${out.kind}): asking for the whole state`);
      if (this.seat !== null) {
        void this.ask({ case: "resume", value: { gameId: this.gameId, seatToken: this.seat.token, lastSeenSequence: 0n } });
      } else {
        void this.ask({ case: "spectate", value: { gameId: this.gameId } });
      }
    }
  }

  private logEvents(game: GameModule, delta: Delta): void {
    const events = deltaEvents(game, delta);
    if (!events.ok || this.view === null) return; // applyDelta has read them already
    for (const e of events.value) {
      this.winners = game.winners(e) ?? this.winners;
      const line = game.eventWord(e, this.names(), this.catalog, this.view.state);
      if (line !== null) this.pushLog(line);
    }
    const action = game.decodeAction(delta.action);
    const serverAction = action.ok && game.isServerAction(action.value);
    this.recent.add(delta.seat, serverAction, events.value, this.yourSeat(), performance.now());
  }

  // A decision with one possible answer is answered after a moment, if the setting says so.
  private offerOnlyChoice(game: GameModule): void {
    const legal = this.legalNow();
    const state = this.view?.state;
    this.autoAnswer.offer(
      legal,
      (a) => game.onlyChoiceWord(a, state),
      () => this.legal === legal && !this.sending,
      (a, word) => {
        this.pushLog(`${word} — the only choice, answered for you`);
        this.send(a);
        this.render();
      },
    );
  }

  // Each player's last move over the board (src/games/shared/recent.ts).
  private recentLayer(game: GameModule, inp: TableInput<unknown, unknown>): SVGGElement {
    const marks = this.recent.chunks().flatMap((c) => game.moveMarks(inp.state, c.events, this.catalog).map((mark) => ({ mark, at: c.at })));
    return recentLayer(marks, inp.names, performance.now());
  }

  private pushLog(line: string): void {
    this.log.push(line);
    if (this.log.length > MAX_LOG) this.log.splice(0, this.log.length - MAX_LOG);
  }

  private names(): string[] {
    return this.info === null ? [] : seatNames(this.info);
  }

  // One move at a time: a second click before the answer would only be refused as stale.
  private send(action: unknown): void {
    if (this.view === null || this.seat === null || this.sending || this.game === null) return;
    const move = { gameId: this.gameId, seatToken: this.seat.token, sequence: this.view.sequence, action: this.game.encodeAction(action) };
    this.sending = true;
    void this.ask({ case: "move", value: move }).finally(() => {
      this.sending = false;
    });
  }

  private tableInput(): TableInput<unknown, unknown> | null {
    if (this.view === null) return null;
    return {
      state: this.view.state,
      legal: this.legalNow(),
      tiles: this.catalog,
      names: this.names(),
      online: this.connected ? this.online : this.online.map(() => null),
      yourSeat: this.yourSeat(),
      winners: this.winners,
    };
  }

  // The seat's number; null without a seat, or while a seat link's number is not known yet.
  private yourSeat(): number | null {
    return this.seat !== null && this.seat.seat >= 0 ? this.seat.seat : null;
  }

  private title(): string {
    return this.info?.name !== undefined && this.info.name !== "" ? `${this.info.name} (${this.gameId})` : `Game ${this.gameId}`;
  }

  private render(change: BoardChange = "redraw"): void {
    if (this.missing) {
      this.renderMissing();
      return;
    }
    const inp = this.tableInput();
    if (this.game !== null && this.table !== null && inp !== null) {
      this.viewport.fit(this.game.bounds(inp.state));
      const board = this.table.board(inp);
      board.append(this.recentLayer(this.game, inp));
      this.arrivals.mark(board, this.viewport.svg.firstElementChild, change);
      this.viewport.setContent(board);
    } else {
      this.viewport.setContent(s("g"));
    }
    this.root.dataset["status"] = this.statusName();
    if (this.view === null) delete this.root.dataset["sequence"];
    else this.root.dataset["sequence"] = String(this.view.sequence);
    const running = this.table !== null && inp !== null ? this.runningPart(this.table, inp) : this.openGamePart();
    const status = this.statusName();
    const over = this.isOver();
    const parts: (HTMLElement | null)[] = [
      h("h2", {}, this.title()),
      this.inviteLink(),
      this.seatPart(over),
      this.clockView.banner,
      this.errorText === null ? null : h("p", { class: "error", role: "alert" }, this.errorText),
      this.resignedPart(),
      this.clockView.element,
      running,
      this.seat !== null && inp !== null && !over ? this.autoAnswer.control : null,
      this.resignPart(status),
      over ? this.afterGamePart() : null,
      this.rematchOfferPart(),
      this.seat !== null && !over ? this.turnNotice.element : null,
    ];
    this.logBox.replaceChildren(drawLog(this.log));
    this.sideMain.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    this.updateChat();
    this.updateClocks();
    this.turnNotice.update(this.seat !== null && this.legalNow().length > 0 && status === "running", this.title());
  }

  // The server answered that it has no such game (a mistyped or expired link).
  private renderMissing(): void {
    this.viewport.setContent(s("g"));
    this.root.dataset["status"] = "missing";
    delete this.root.dataset["sequence"];
    this.chatPanel.element.hidden = true;
    this.logBox.replaceChildren();
    this.sideMain.replaceChildren(...noSuchGameParts(this.gameId));
    this.turnNotice.update(false, "");
  }

  // A held seat's link; a way to take a seat with one; or, once it moved, a way to take it back.
  private seatPart(over: boolean): HTMLElement | null {
    if (this.seat !== null) {
      const firstSight = !this.linkShown && this.info !== null;
      if (firstSight) this.linkShown = true;
      this.seatLinkPanel.setLink(seatLink(location.origin, this.gameId, this.seat.token), this.justJoined || (firstSight && this.info?.status === GameStatus.OPEN));
      this.justJoined = false;
      return over ? null : this.seatLinkPanel.element;
    }
    if (this.movedSeat !== null) {
      const moved = this.movedSeat;
      return h(
        "div",
        { class: "seat-moved", role: "status" },
        h("p", {}, "Your seat was taken on another device. This page now only watches."),
        button("Take the seat back here", () => this.holdSeatHere(moved), { class: "primary" }),
      );
    }
    return over ? null : this.takeSeatForm.element;
  }

  private afterGamePart(): HTMLElement {
    const rematch = this.info?.rematch ?? "";
    const mayRematch = this.seat !== null && this.info?.status !== GameStatus.ABANDONED;
    return h(
      "div",
      { class: "after-game" },
      mayRematch && rematch === "" ? button("Rematch", () => void this.askRematch(), { class: "primary" }) : null,
      rematch !== "" ? h("p", { class: "rematch-link" }, "Rematch: ", gameLink(rematch)) : null,
      button("New game", () => navigate("/#new"), { class: mayRematch ? "" : "primary" }),
      button("Back to the lobby", () => navigate("/")),
    );
  }

  // Over by the server's word (finished, resigned, abandoned) or by the state.
  private isOver(): boolean {
    const status = this.statusName();
    return status === "finished" || status === "abandoned" || status === "resigned";
  }

  // The seat's legal actions, none once the game is over, the seat resigned (a bot plays it) or
  // a stand-in plays it.
  private legalNow(): unknown[] {
    return this.isOver() || this.youResigned() || this.standInPlaysYours() ? [] : this.legal;
  }

  private standInPlaysYours(): boolean {
    const seat = this.yourSeat();
    return seat !== null && this.info?.seat[seat]?.standIn === true;
  }

  private updateClocks(): void {
    this.clockView.update({ info: this.info, clocks: this.clocks, names: this.names(), yourSeat: this.yourSeat(), over: this.isOver() });
  }

  // Resume with the seat's token sends the stand-in away; the reply (a fresh snapshot, with the
  // seat's legal actions if it must decide) and the LobbyUpdate that follows come in as any others.
  private async takeSeatBack(): Promise<void> {
    if (this.seat === null) return;
    const m = await this.ask({ case: "resume", value: { gameId: this.gameId, seatToken: this.seat.token, lastSeenSequence: 0n } });
    if (m !== null && m.body.case !== "error") this.showError(null);
    await this.loadInfo();
  }

  // Whether this page's seat resigned (its seat plays on as a bot, or the game ended).
  private youResigned(): boolean {
    const seat = this.yourSeat();
    return seat !== null && this.info?.seat[seat]?.resigned === true;
  }

  private resignedPart(): HTMLElement | null {
    const who = this.info?.seat.filter((s) => s.resigned).map((s) => playerName(this.names(), s.seat)) ?? [];
    if (who.length === 0) return null;
    const botNow = this.info?.status !== GameStatus.RESIGNED;
    return h("p", { class: "resigned-note", role: "status" }, `${who.join(", ")} resigned${botNow ? ": a bot plays the seat now." : "."}`);
  }

  // Resign, then "Resign this game?" with the answer or the way back.
  private resignPart(status: string): HTMLElement | null {
    if (this.seat === null || status !== "running" || this.youResigned()) return null;
    if (!this.confirmingResign) {
      return h("div", { class: "resign" }, button("Resign", () => this.setConfirmingResign(true)));
    }
    return h(
      "div",
      { class: "resign confirming", role: "group", "aria-label": "Resign this game?" },
      h("p", {}, "Resign this game? You cannot take it back."),
      button("Yes, resign", () => void this.resign(), { class: "danger" }),
      button("Keep playing", () => this.setConfirmingResign(false), { class: "primary" }),
    );
  }

  private setConfirmingResign(on: boolean): void {
    this.confirmingResign = on;
    this.render();
    const focus = this.sideMain.querySelector<HTMLButtonElement>(on ? ".resign.confirming .primary" : ".resign button");
    focus?.focus();
  }

  private async resign(): Promise<void> {
    this.confirmingResign = false;
    if (this.seat === null) return;
    const m = await this.ask({ case: "resign", value: { gameId: this.gameId, seatToken: this.seat.token } });
    if (m !== null && m.body.case !== "error") this.showError(null);
    await this.loadInfo();
  }

  // Answered with this seat in the new game: the page moves there.
  private async askRematch(): Promise<void> {
    if (this.seat === null) return;
    const m = await this.ask({ case: "rematch", value: { gameId: this.gameId, seatToken: this.seat.token } });
    if (m?.body.case !== "seatJoined" || m.body.value.game === undefined) return;
    saveSeat(m.body.value.game.gameId, { seat: m.body.value.seat, token: m.body.value.seatToken });
    navigate(`/game/${encodeURIComponent(m.body.value.game.gameId)}`);
  }

  private rematchOfferPart(): HTMLElement | null {
    const offer = this.rematchOffer;
    if (offer === null || loadSeat(offer.gameId) !== null) return null;
    return h(
      "div",
      { class: "rematch-offer", role: "status" },
      h("p", {}, "A rematch was asked for, with your seat kept for you."),
      button("Rematch: join the new game", () => void this.joinRematch(offer.gameId, offer.seat), { class: "primary" }),
    );
  }

  private async joinRematch(gameId: string, seat: number): Promise<void> {
    const mine = this.yourSeat();
    const name = (mine === null ? "" : (this.info?.seat[mine]?.playerName ?? "")) || playerNameSetting();
    const m = await this.ask({ case: "joinSeat", value: { gameId, seat, playerName: name } });
    if (m?.body.case !== "seatJoined") return;
    saveSeat(gameId, { seat: m.body.value.seat, token: m.body.value.seatToken });
    navigate(`/game/${encodeURIComponent(gameId)}`);
  }

  // The chat: seats write; spectators only where the game lets them.
  private updateChat(): void {
    const seated = this.seat !== null;
    const spectatorsChat = this.info?.spectatorsChat === true;
    const you = this.yourSeat();
    const names = this.names();
    const chatters: Chatter[] = (this.info?.seat ?? [])
      .filter((s) => s.taken && s.bot === "" && s.seat !== you)
      .map((s) => ({ seat: s.seat, name: playerName(names, s.seat) }));
    this.chatPanel.element.hidden = false;
    this.chatPanel.update(this.chat, {
      chatters,
      yourSeat: you,
      canWrite: this.connected && (seated || spectatorsChat),
      whyNot: !this.connected ? "Not connected." : "Spectators may read this game's chat but not write in it.",
    });
  }

  private async sendChat(text: string): Promise<string | null> {
    const seatToken = this.seat?.token ?? new Uint8Array();
    let refused: string | null = null;
    const m = await requestShowingErrors(this.conn, { case: "sendChat", value: { gameId: this.gameId, seatToken, text } }, (t) => {
      refused = t;
    });
    if (m?.body.case === "chatMessage" && this.chat.add(m.body.value)) this.render();
    return refused;
  }

  // Muted here at once; the server also stops sending the seat's lines to this seat.
  private muteSeat(seat: number, muted: boolean): void {
    this.chat.setMuted(seat, muted);
    saveMuted(this.gameId, this.chat.muted());
    if (this.seat !== null) void this.ask({ case: "muteSeat", value: { gameId: this.gameId, seatToken: this.seat.token, seat, muted } });
    this.render();
  }

  private statusName(): string {
    if (this.info?.status === GameStatus.ABANDONED) return "abandoned";
    if (this.info?.status === GameStatus.RESIGNED) return "resigned";
    if (this.view === null || this.game === null) return this.info?.status === GameStatus.DAMAGED ? "damaged" : "open";
    return this.game.isOver(this.view.state) ? "finished" : "running";
  }

  private runningPart(table: GameTable<unknown, unknown>, inp: TableInput<unknown, unknown>): HTMLElement {
    const role = this.seat === null && this.movedSeat === null ? h("p", { class: "role" }, "You are watching.") : null;
    return h("div", {}, role, table.side(inp));
  }

  private openGamePart(): HTMLElement {
    if (this.info?.status === GameStatus.ABANDONED) {
      return h("p", {}, "This game was abandoned: nothing happened in it for too long.");
    }
    if (this.info === null || this.info.status !== GameStatus.OPEN) return h("p", {}, "Loading the game…");
    // Nobody should take a seat in a game this client could not play: only the seats are shown.
    const yourSeat = this.seat === null ? null : this.seat.seat;
    const minPlayers = this.ruleSets.find((r) => r.id === this.info?.ruleSet)?.minPlayers ?? 2;
    if (this.game === null || this.movedSeat !== null) {
      return drawOpenGame(this.info, yourSeat, null, minPlayers, { join: () => undefined, start: () => undefined });
    }
    return drawOpenGame(this.info, yourSeat, this.nameBox, minPlayers, {
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
    this.justJoined = true;
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

function gameLink(gameId: string): HTMLElement {
  const a = h("a", { href: `/game/${encodeURIComponent(gameId)}` }, gameId);
  a.addEventListener("click", (e) => {
    e.preventDefault();
    navigate(`/game/${encodeURIComponent(gameId)}`);
  });
  return a;
}
