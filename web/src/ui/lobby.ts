// The lobby, /: a form to create a game, the open and running games (refreshed every 5 s; the
// server's first page, and more pages on request) with per game a way in (join a free seat,
// return to a seat this browser holds, or watch), and the most recently finished games to replay.
// Creating a game also takes seat 0, as the protocol expects of a game's creator. The rule sets on
// offer are those the server hosts (Welcome.rule_sets) that this client can draw (a game module,
// src/games/); the others are listed, disabled. Join asks for the player's name first (the
// remembered one filled in), as the invite page does; "/#new" puts the focus on the create form.
// The form also fills seats with bots of a level, says what a resignation does, and whether
// spectators may chat (src/match/create-game.ts makes the CreateGame), and chooses the clock, the
// grace period of a disconnected player and what happens to an absent one (src/match/clocks.ts).
// Behind a proxy of several shards (src/net/shards.ts) the lists are every shard's, asked of each
// on its own connection and merged; a shard that does not answer drops out, and the lobby says so
// in one line. The rule sets and creating a game go to the site's connection (the proxy picks
// the instance, so the shard); when that shard is full, the game is created on another with room
// (src/net/create-on-shards.ts). Joining a game goes to its shard.
import { GameStatus, type GameInfo, type RuleSetInfo, type ServerMessage } from "../gen/carcassonne/server/v2/server_pb";
import { moduleFor, offeredRuleSets, type OfferedRuleSet } from "../games/registry";
import type { Connection, RequestBody } from "../net/connection";
import type { Connections } from "../net/connections";
import { createWhereThereIsRoom } from "../net/create-on-shards";
import { interleave } from "../net/shards";
import { loadSeat, saveSeat } from "../net/seats";
import { button, h, navigate } from "./dom";
import { failureText, replyError, requestShowingErrors } from "./errors";
import { fitUtf8, GAME_NAME_BYTES, nameInput, PLAYER_NAME_BYTES, setPlayerNameSetting } from "./identity";
import { createGameMessage, isOverStatus, SEAT_CHOICES, seatChoiceWord, seatNames, seatNotes, type CreateGameInit, type ResignChoice, type SeatChoice } from "../match/create-game";
import { playerName } from "./players";
import { clockShortWords, DEFAULT_TIME_FORM, timeControlFromForm, type AbsentChoice, type ClockChoice, type TimeForm } from "../match/clocks";

const REFRESH_MS = 5000;
const FINISHED_SHOWN = 20;

const STATUS_WORDS: Record<number, string> = {
  [GameStatus.OPEN]: "waiting for players",
  [GameStatus.RUNNING]: "running",
  [GameStatus.FINISHED]: "finished",
  [GameStatus.DAMAGED]: "damaged (not playable)",
  [GameStatus.ABANDONED]: "abandoned (nothing happened in it for too long)",
  [GameStatus.RESIGNED]: "ended by a resignation",
};

// "/?seed=N" creates games with that seed, to play a known game again (tests, bug reports). Only
// a server started with --allow-chosen-seeds takes it; others refuse, and pick every seed.
function seedFromAddress(): bigint | null {
  const text = new URLSearchParams(location.search).get("seed");
  if (text === null || !/^\d{1,20}$/.test(text)) return null;
  const seed = BigInt(text);
  return seed < 1n << 64n ? seed : null;
}

// Where the lists come from: the site's server alone (shard null), or each shard.
interface Source {
  readonly shard: string | null;
  readonly conn: Connection;
}

// One source's lists, as its server last answered them.
interface Listing {
  readonly live: readonly GameInfo[]; // open and running, the pages shown
  readonly more: boolean; // the server has more after them
  readonly finished: readonly GameInfo[];
}

function ruleSetName(info: RuleSetInfo): string {
  return info.name !== "" ? info.name : info.id;
}

export class LobbyPage {
  private games: GameInfo[] = [];
  private pagesShown = 1; // pages of open and running games, as the server pages them
  private moreGames = false; // the server has games after those shown
  private finished: GameInfo[] = [];
  private sources: readonly Source[] | null = null; // null until the site says whether it has shards
  private listings: (Listing | null)[] = []; // by source
  private shardsDown: string[] = [];
  private readonly shardsNote = h("p", { class: "hint shards-down" });
  private errorText: string | null = null;
  private timer = 0;
  private readonly list = h("section", { class: "game-list" });
  private readonly finishedList = h("section", { class: "finished-list" });
  private readonly errorBox = h("p", { class: "error", role: "alert" });
  // The create form's fields live as long as the page, so a new Welcome (after a reconnect)
  // refills the choices without losing what was typed.
  private ruleSets: OfferedRuleSet[] = [];
  private readonly ruleSetBox = h("select", { "aria-label": "Rule set" });
  private readonly seatsBox = h("select", { "aria-label": "Seats" });
  private readonly optionsBox = h("div", { class: "rule-options" });
  // Per seat after the creator's: a person or a bot, kept by seat number across seat counts.
  private readonly seatChoicesBox = h("fieldset", { class: "seat-choices" });
  private seatChoices: SeatChoice[] = [];
  private readonly resignBox = h(
    "select",
    { "aria-label": "If a player resigns" },
    h("option", { value: "end" }, "the game ends"),
    h("option", { value: "bot" }, "a bot takes the seat"),
  );
  private readonly spectatorsChatBox = h("input", { type: "checkbox" });
  // The clock: none, live (a bank in minutes, fractions allowed, and an increment in seconds) or
  // correspondence (hours per decision); the grace period; the policy for an absent player.
  private readonly clockBox = h(
    "select",
    { "aria-label": "Clock" },
    h("option", { value: "none" }, "no clock"),
    h("option", { value: "live" }, "live: a time bank per player"),
    h("option", { value: "correspondence" }, "correspondence: a time per decision"),
  );
  private readonly bankBox = timeField("Time bank (minutes)", DEFAULT_TIME_FORM.bankMinutes);
  private readonly incrementBox = timeField("Increment (seconds)", DEFAULT_TIME_FORM.incrementSeconds);
  private readonly decisionBox = timeField("Time per decision (hours)", DEFAULT_TIME_FORM.decisionHours);
  private readonly graceBox = timeField("Grace period (seconds)", DEFAULT_TIME_FORM.graceSeconds);
  private readonly absentBox = h(
    "select",
    { "aria-label": "If a player is away or out of time" },
    h("option", { value: "stand-in" }, "a stand-in bot plays for them until they return"),
    h("option", { value: "forfeit" }, "they forfeit (as if they resigned)"),
  );
  private readonly liveFields = h("span", { class: "live-clock" }, labelled("Bank (minutes) ", this.bankBox), labelled("Increment (seconds) ", this.incrementBox));
  private readonly decisionFields = labelled("Hours per decision ", this.decisionBox);
  private readonly absentFields = labelled("A player away or out of time: ", this.absentBox);
  private readonly createButton = button("Create game", () => this.submit(), { class: "primary" });
  private readonly gameNameBox = h("input", { type: "text", maxlength: 60, placeholder: "game name (optional)", "aria-label": "Game name" });
  private readonly playerBox = nameInput();
  // The game whose Join asks for a name, with its own name field (kept across refreshes).
  private joining: string | null = null;
  private readonly joinNameBox = nameInput("Your name for joining");

  private readonly site: Connection;
  private siteShard: string | null = null; // the shard the site's connection reached (its Welcome)

  constructor(
    private readonly mount: HTMLElement,
    private readonly conns: Connections,
  ) {
    this.site = conns.site();
  }

  start(): void {
    const lobby = h("div", { class: "lobby" }, h("h2", {}, "Play Carcassonne"), this.errorBox, this.createForm(), this.list, this.finishedList);
    this.mount.replaceChildren(lobby);
    void this.findSources();
    this.timer = window.setInterval(() => void this.refresh(), REFRESH_MS);
    this.stopWelcome = this.site.onWelcome((w) => {
      this.siteShard = w.shard === "" ? null : w.shard;
      this.setRuleSets(w.ruleSets);
    });
    this.render();
    if (location.hash === "#new") this.playerBox.focus();
  }

  private stopWelcome: () => void = () => undefined;

  destroy(): void {
    window.clearInterval(this.timer);
    this.stopWelcome();
  }

  // A reply that is not a refusal clears the last error.
  private ask(body: RequestBody, conn = this.site): Promise<ServerMessage | null> {
    return requestShowingErrors(conn, body, (text) => this.setError(text));
  }

  // A shard's list request: a refusal or a lost connection is not shown as an error, the shard
  // just drops out of the lists (and the note names it).
  private async askShard(conn: Connection, body: RequestBody): Promise<ServerMessage | null> {
    try {
      const m = await conn.request(body);
      return m.body.case === "error" ? null : m;
    } catch {
      return null;
    }
  }

  private async findSources(): Promise<void> {
    const shards = await this.conns.shards();
    this.sources = shards === null ? [{ shard: null, conn: this.site }] : shards.map((shard) => ({ shard, conn: this.conns.forShard(shard) }));
    await this.refresh();
  }

  private setError(text: string | null): void {
    this.errorText = text;
    this.errorBox.textContent = text ?? "";
    this.errorBox.hidden = text === null;
  }

  // Every source's lists, merged. A shard that did not answer drops out; the site's server alone
  // keeps its last lists while the banner says its connection is lost.
  private async refresh(): Promise<void> {
    const sources = this.sources;
    if (sources === null) return;
    const fresh = await Promise.all(sources.map((source) => this.listingOf(source)));
    this.listings = fresh.map((listing, i) => listing ?? (sources[i]?.shard === null ? (this.listings[i] ?? null) : null));
    this.shardsDown = sources.flatMap((source, i) => (fresh[i] === null && source.shard !== null ? [source.shard] : []));
    const listed = this.listings.filter((l): l is Listing => l !== null);
    this.games = interleave(listed.map((l) => l.live));
    this.moreGames = listed.some((l) => l.more);
    this.finished = interleave(listed.map((l) => l.finished)).slice(0, FINISHED_SHOWN);
    this.render();
  }

  // A source's lists, or null when it did not answer. A shard whose connection is being retried
  // is not asked: the request would wait for its return.
  private async listingOf(source: Source): Promise<Listing | null> {
    if (source.shard !== null && source.conn.status === "reconnecting") return null;
    const ask = (body: RequestBody): Promise<ServerMessage | null> => (source.shard === null ? this.ask(body) : this.askShard(source.conn, body));
    const [live, done] = await Promise.all([this.openAndRunningGames(ask), ask({ case: "listGames", value: { finished: true, limit: FINISHED_SHOWN } })]);
    if (live === null || done?.body.case !== "gameList") return null;
    return { live: live[0], more: live[1], finished: done.body.value.games };
  }

  // The first `pagesShown` pages (the server's default size), following each page's next_page;
  // and whether more follow. null when a page was refused.
  private async openAndRunningGames(ask: (body: RequestBody) => Promise<ServerMessage | null>): Promise<[GameInfo[], boolean] | null> {
    const games: GameInfo[] = [];
    let after = "";
    for (let page = 0; page < this.pagesShown; page++) {
      const m = await ask({ case: "listGames", value: { after } });
      if (m?.body.case !== "gameList") return null;
      games.push(...m.body.value.games);
      after = m.body.value.nextPage;
      if (after === "") break;
    }
    return [games, after !== ""];
  }

  private showMoreGames(): void {
    this.pagesShown++;
    void this.refresh();
  }

  private createForm(): HTMLElement {
    this.ruleSetBox.addEventListener("change", () => this.fillRuleSet());
    this.seatsBox.addEventListener("change", () => this.fillSeatChoices());
    this.setRuleSets([]);
    const resign = h("label", { class: "resign-policy" }, "If a player resigns: ", this.resignBox);
    const chat = h("label", { class: "spectators-chat" }, this.spectatorsChatBox, " Spectators may chat");
    const match = h("div", { class: "match-options" }, resign, chat);
    const fields = [this.playerBox, this.gameNameBox, this.ruleSetBox, this.seatsBox, this.optionsBox, this.seatChoicesBox, match, this.timeControlForm(), this.createButton];
    return h("section", { class: "create" }, h("h3", {}, "New game"), ...fields);
  }

  private timeControlForm(): HTMLElement {
    for (const input of [this.clockBox, this.graceBox]) {
      for (const event of ["input", "change"]) input.addEventListener(event, () => this.showTimeFields());
    }
    this.showTimeFields();
    const grace = h("span", { class: "grace" }, labelled("Grace period (seconds) ", this.graceBox), h("span", { class: "hint" }, " 0: wait for a disconnected player"));
    return h(
      "fieldset",
      { class: "time-control" },
      h("legend", {}, "Clock"),
      this.clockBox,
      this.liveFields,
      this.decisionFields,
      grace,
      this.absentFields,
    );
  }

  // The fields the chosen clock uses; the policy once it can apply (a clock, or a grace period).
  private showTimeFields(): void {
    const clock = this.clockBox.value as ClockChoice;
    this.liveFields.hidden = clock !== "live";
    this.decisionFields.hidden = clock !== "correspondence";
    this.absentFields.hidden = clock === "none" && Number(this.graceBox.value) === 0;
  }

  private timeForm(): TimeForm {
    return {
      clock: this.clockBox.value as ClockChoice,
      bankMinutes: this.bankBox.value,
      incrementSeconds: this.incrementBox.value,
      decisionHours: this.decisionBox.value,
      graceSeconds: this.graceBox.value,
      onAbsent: this.absentBox.value as AbsentChoice,
    };
  }

  // The server's rule sets: the first one this client can draw is chosen, unless one was.
  private setRuleSets(hosted: readonly RuleSetInfo[]): void {
    this.ruleSets = offeredRuleSets(hosted);
    const was = this.ruleSetBox.value;
    const options = this.ruleSets.map(({ info, available }) =>
      h("option", { value: info.id, disabled: !available }, available ? ruleSetName(info) : `${ruleSetName(info)} (not playable here yet)`),
    );
    this.ruleSetBox.replaceChildren(...options);
    const keep = this.ruleSets.find((r) => r.available && r.info.id === was) ?? this.ruleSets.find((r) => r.available);
    this.ruleSetBox.value = keep?.info.id ?? "";
    this.fillRuleSet();
  }

  private chosenRuleSet(): RuleSetInfo | null {
    return this.ruleSets.find((r) => r.available && r.info.id === this.ruleSetBox.value)?.info ?? null;
  }

  // The seat counts and options of the chosen rule set.
  private fillRuleSet(): void {
    const rs = this.chosenRuleSet();
    const was = Number(this.seatsBox.value);
    const counts: number[] = [];
    for (let n = rs?.minPlayers ?? 1; rs !== null && n <= rs.maxPlayers; n++) counts.push(n);
    this.seatsBox.replaceChildren(...counts.map((n) => h("option", { value: n }, `${n} players`)));
    if (counts.includes(was)) this.seatsBox.value = String(was);
    this.fillSeatChoices();
    this.optionsBox.replaceChildren(
      ...(rs?.options ?? []).map((o) =>
        h(
          "label",
          { title: o.description },
          `${o.name} `,
          h("input", { type: "number", min: o.min, max: o.max, value: o.defaultValue, "data-option": o.name, "aria-label": o.name }),
        ),
      ),
    );
    this.createButton.disabled = rs === null;
  }

  // One menu per seat after the creator's: a person, or a bot of a level.
  private fillSeatChoices(): void {
    const seats = Number(this.seatsBox.value) || 0;
    const menus: HTMLElement[] = [];
    for (let seat = 1; seat < seats; seat++) {
      const menu = h("select", { "data-seat": seat }, ...SEAT_CHOICES.map((c) => h("option", { value: c }, seatChoiceWord(c))));
      menu.value = this.seatChoices[seat] ?? "person";
      menu.addEventListener("change", () => {
        this.seatChoices[seat] = menu.value as SeatChoice;
      });
      menus.push(h("label", { class: "seat-choice" }, `Seat ${seat + 1}: `, menu));
    }
    this.seatChoicesBox.replaceChildren(h("legend", {}, "Seat 1 is yours; the others:"), ...menus);
    this.seatChoicesBox.hidden = menus.length === 0;
  }

  // The options as typed; values out of the option's range are the server's to refuse.
  private chosenOptions(): Record<string, number> {
    const options: Record<string, number> = {};
    for (const input of this.optionsBox.querySelectorAll("input")) {
      const name = input.dataset["option"];
      if (name !== undefined && input.value !== "") options[name] = Math.trunc(Number(input.value));
    }
    return options;
  }

  private submit(): void {
    const rs = this.chosenRuleSet();
    if (rs === null) return;
    const name = fitUtf8(this.gameNameBox.value.trim(), GAME_NAME_BYTES);
    const player = fitUtf8(this.playerBox.value.trim(), PLAYER_NAME_BYTES);
    const timeControl = timeControlFromForm(this.timeForm());
    if (!timeControl.ok) {
      this.setError(timeControl.error);
      return;
    }
    const game = createGameMessage({
      ruleSet: rs.id,
      seats: Number(this.seatsBox.value),
      options: this.chosenOptions(),
      name,
      seed: seedFromAddress(),
      seatChoices: this.seatChoices,
      onResign: this.resignBox.value as ResignChoice,
      spectatorsChat: this.spectatorsChatBox.checked,
      timeControl: timeControl.value,
    });
    void this.create(game, player);
  }

  private async create(game: CreateGameInit, playerName: string): Promise<void> {
    const send = (shard: string | null): Promise<ServerMessage | null> => (shard === null ? this.createOnSite(game) : this.createOnShard(shard, game));
    const m = await createWhereThereIsRoom(send, await this.conns.shards(), () => this.siteShard);
    if (m === null) return; // the lost connection is shown already
    this.setError(replyError(m));
    if (m.body.case !== "gameCreated" || m.body.value.game === undefined) return;
    await this.join(m.body.value.game.gameId, playerName, 0);
  }

  // The CreateGame through the site's connection: its reply, or null (the lost connection shown).
  // A refusal is not shown here: another shard may yet create the game.
  private async createOnSite(game: CreateGameInit): Promise<ServerMessage | null> {
    try {
      return await this.site.request({ case: "createGame", value: game });
    } catch (e) {
      this.setError(failureText(e));
      return null;
    }
  }

  // The CreateGame at a shard's own address, when its connection is open: a request on one that
  // is not would wait there for the shard's return, and create a game long after the player was
  // told there was no room.
  private async createOnShard(shard: string, game: CreateGameInit): Promise<ServerMessage | null> {
    const conn = this.conns.forShard(shard);
    if (conn.status !== "open") return null;
    try {
      return await conn.request({ case: "createGame", value: game });
    } catch {
      return null;
    }
  }

  // On the game's own shard: the site's connection may reach another.
  private async join(gameId: string, playerName: string, seat?: number): Promise<void> {
    const m = await this.ask({ case: "joinSeat", value: { gameId, playerName, ...(seat === undefined ? {} : { seat }) } }, this.conns.forGame(gameId));
    if (m?.body.case !== "seatJoined") return;
    saveSeat(gameId, { seat: m.body.value.seat, token: m.body.value.seatToken });
    navigate(`/game/${encodeURIComponent(gameId)}`);
  }

  // Join's second step: the name to join with, then Join or Cancel.
  private askName(gameId: string): void {
    this.joining = gameId;
    this.joinNameBox.value = this.playerBox.value;
    this.render();
    this.joinNameBox.focus();
  }

  private joinAsked(gameId: string): void {
    const name = fitUtf8(this.joinNameBox.value.trim(), PLAYER_NAME_BYTES);
    setPlayerNameSetting(name);
    this.joining = null;
    void this.join(gameId, name);
  }

  private joinActions(g: GameInfo): HTMLElement[] {
    if (this.joining !== g.gameId) return [button("Join", () => this.askName(g.gameId), { class: "primary" })];
    const cancel = (): void => {
      this.joining = null;
      this.render();
    };
    const form = h("form", { class: "join-name" }, this.joinNameBox, h("button", { type: "submit", class: "primary" }, "Join"), button("Cancel", cancel));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.joinAsked(g.gameId);
    });
    return [form];
  }

  private row(g: GameInfo): HTMLElement {
    const taken = g.seat.filter((s) => s.taken);
    const names = taken
      .map((s) => {
        const notes = seatNotes(s);
        return playerName(seatNames(g), s.seat) + (notes.length > 0 ? ` (${notes.join(", ")})` : "");
      })
      .join(", ");
    const open = (): void => navigate(`/game/${encodeURIComponent(g.gameId)}`);
    const actions: HTMLElement[] = [];
    if (loadSeat(g.gameId) !== null) actions.push(button("Return to your seat", open, { class: "primary" }));
    else if (g.status === GameStatus.OPEN && taken.length < g.seats && moduleFor(g.ruleSet) !== null) {
      actions.push(...this.joinActions(g));
    }
    if (!isOverStatus(g.status) || g.status === GameStatus.ABANDONED) actions.push(button("Watch", open));
    if (g.status !== GameStatus.OPEN) actions.push(button("Replay", () => navigate(`/replay/${encodeURIComponent(g.gameId)}`)));
    return h(
      "tr",
      { "data-game": g.gameId },
      h("td", {}, g.name !== "" ? `${g.name} (${g.gameId})` : g.gameId),
      h("td", { class: "rule-set" }, this.ruleSetWord(g.ruleSet), clockShortWords(g.timeControl) !== "" ? h("span", { class: "clock-words" }, ` (${clockShortWords(g.timeControl)})`) : null),
      h("td", {}, `${taken.length} / ${g.seats}`, names !== "" ? `: ${names}` : ""),
      h("td", { class: "status", "data-status": GameStatus[g.status]?.toLowerCase() ?? "unknown" }, STATUS_WORDS[g.status] ?? "unknown"),
      h("td", {}, String(g.spectators)),
      h("td", { class: "actions" }, ...actions),
    );
  }

  // A game's rule set by the server's name for it; its id when the server did not list it.
  private ruleSetWord(id: string): string {
    const info = this.ruleSets.find((r) => r.info.id === id)?.info;
    return info === undefined ? id : ruleSetName(info);
  }

  private table(games: readonly GameInfo[]): HTMLElement {
    const head = h("tr", {}, ...["Game", "Rules", "Players", "Status", "Watching", ""].map((t) => h("th", {}, t)));
    return h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, ...games.map((g) => this.row(g)))));
  }

  private render(): void {
    const typingName = document.activeElement === this.joinNameBox;
    this.setError(this.errorText);
    const live = this.games.length === 0 ? h("p", {}, "No games waiting or running: create one.") : this.table(this.games);
    const more = this.moreGames ? [button("More games", () => this.showMoreGames())] : [];
    this.shardsNote.textContent = shardsDownText(this.shardsDown);
    this.shardsNote.hidden = this.shardsDown.length === 0;
    this.list.replaceChildren(h("h3", {}, "Open and running games"), this.shardsNote, live, ...more);
    const done = this.finished.length === 0 ? h("p", {}, "No finished games yet.") : this.table(this.finished);
    this.finishedList.replaceChildren(h("h3", {}, "Finished games"), done);
    if (typingName && this.joinNameBox.isConnected) this.joinNameBox.focus();
  }
}

// "Shard b is not answering: its games are not listed for now."
function shardsDownText(shards: readonly string[]): string {
  if (shards.length === 0) return "";
  const names = shards.length === 1 ? (shards[0] ?? "") : `${shards.slice(0, -1).join(", ")} and ${shards[shards.length - 1] ?? ""}`;
  return shards.length === 1 ? `Shard ${names} is not answering: its games are not listed for now.` : `Shards ${names} are not answering: their games are not listed for now.`;
}

// A number field of the clock's, in its unit: fractions allowed, so that short clocks can be had.
function timeField(label: string, value: string): HTMLInputElement {
  return h("input", { type: "number", min: 0, step: "any", value, "aria-label": label, class: "time-field" });
}

function labelled(text: string, field: HTMLElement): HTMLElement {
  return h("label", {}, text, field);
}
