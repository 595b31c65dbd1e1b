// The lobby, /: a form to create a game, the open and running games (refreshed every 5 s; the
// server's first page, and more pages on request) with per game a way in (join a free seat,
// return to a seat this browser holds, or watch), and the most recently finished games to replay. Creating a game also takes seat 0, as the protocol
// expects of a game's creator.
import { GameStatus, type GameInfo, type ServerMessage } from "../gen/carcassonne/city/v1/city_pb";
import type { Connection, RequestBody } from "../net/connection";
import { loadSeat, saveSeat } from "../net/seats";
import { button, h, navigate } from "./dom";
import { requestShowingErrors } from "./errors";
import { fitUtf8, GAME_NAME_BYTES, nameInput, PLAYER_NAME_BYTES, playerNameSetting } from "./identity";

const REFRESH_MS = 5000;
const FINISHED_SHOWN = 20;

const STATUS_WORDS: Record<number, string> = {
  [GameStatus.OPEN]: "waiting for players",
  [GameStatus.RUNNING]: "running",
  [GameStatus.FINISHED]: "finished",
  [GameStatus.DAMAGED]: "damaged (not playable)",
  [GameStatus.ABANDONED]: "abandoned (nothing happened in it for too long)",
};

// "/?seed=N" creates games with that seed, to play a known game again (tests, bug reports). Only
// a server started with --allow-chosen-seeds takes it; others refuse, and pick every seed.
function seedFromAddress(): bigint | null {
  const text = new URLSearchParams(location.search).get("seed");
  if (text === null || !/^\d{1,20}$/.test(text)) return null;
  const seed = BigInt(text);
  return seed < 1n << 64n ? seed : null;
}

export class LobbyPage {
  private games: GameInfo[] = [];
  private pagesShown = 1; // pages of open and running games, as the server pages them
  private moreGames = false; // the server has games after those shown
  private finished: GameInfo[] = [];
  private errorText: string | null = null;
  private timer = 0;
  private readonly list = h("section", { class: "game-list" });
  private readonly finishedList = h("section", { class: "finished-list" });
  private readonly errorBox = h("p", { class: "error", role: "alert" });

  constructor(
    private readonly mount: HTMLElement,
    private readonly conn: Connection,
  ) {}

  start(): void {
    const lobby = h("div", { class: "lobby" }, h("h2", {}, "Play Carcassonne: The City"), this.errorBox, this.createForm(), this.list, this.finishedList);
    this.mount.replaceChildren(lobby);
    void this.refresh();
    this.timer = window.setInterval(() => void this.refresh(), REFRESH_MS);
    this.render();
  }

  destroy(): void {
    window.clearInterval(this.timer);
  }

  // A reply that is not a refusal clears the last error.
  private ask(body: RequestBody): Promise<ServerMessage | null> {
    return requestShowingErrors(this.conn, body, (text) => this.setError(text));
  }

  private setError(text: string | null): void {
    this.errorText = text;
    this.errorBox.textContent = text ?? "";
    this.errorBox.hidden = text === null;
  }

  private async refresh(): Promise<void> {
    const [live, done] = await Promise.all([
      this.openAndRunningGames(),
      this.ask({ case: "listGames", value: { finished: true, limit: FINISHED_SHOWN } }),
    ]);
    if (live !== null) [this.games, this.moreGames] = live;
    if (done?.body.case === "gameList") this.finished = [...done.body.value.games];
    this.render();
  }

  // The first `pagesShown` pages (the server's default size), following each page's next_page;
  // and whether more follow. null when a page was refused.
  private async openAndRunningGames(): Promise<[GameInfo[], boolean] | null> {
    const games: GameInfo[] = [];
    let after = "";
    for (let page = 0; page < this.pagesShown; page++) {
      const m = await this.ask({ case: "listGames", value: { after } });
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
    const seats = h("select", { "aria-label": "Seats" }, ...[2, 3, 4].map((n) => h("option", { value: n }, `${n} players`)));
    const name = h("input", { type: "text", maxlength: 60, placeholder: "game name (optional)", "aria-label": "Game name" });
    const player = nameInput();
    const create = button(
      "Create game",
      () => void this.create(Number(seats.value), fitUtf8(name.value.trim(), GAME_NAME_BYTES), fitUtf8(player.value.trim(), PLAYER_NAME_BYTES)),
      { class: "primary" },
    );
    return h("section", { class: "create" }, h("h3", {}, "New game"), player, name, seats, create);
  }

  private async create(seats: number, name: string, playerName: string): Promise<void> {
    const seed = seedFromAddress();
    const m = await this.ask({ case: "createGame", value: { ruleSet: "the-city", seats, name, ...(seed === null ? {} : { seed }) } });
    if (m?.body.case !== "gameCreated" || m.body.value.game === undefined) return;
    await this.join(m.body.value.game.gameId, playerName, 0);
  }

  private async join(gameId: string, playerName: string, seat?: number): Promise<void> {
    const m = await this.ask({ case: "joinSeat", value: { gameId, playerName, ...(seat === undefined ? {} : { seat }) } });
    if (m?.body.case !== "seatJoined") return;
    saveSeat(gameId, { seat: m.body.value.seat, token: m.body.value.seatToken });
    navigate(`/game/${encodeURIComponent(gameId)}`);
  }

  private row(g: GameInfo): HTMLElement {
    const taken = g.seat.filter((s) => s.taken);
    const names = taken.map((s) => (s.playerName !== "" ? s.playerName : "a player")).join(", ");
    const open = (): void => navigate(`/game/${encodeURIComponent(g.gameId)}`);
    const actions: HTMLElement[] = [];
    if (loadSeat(g.gameId) !== null) actions.push(button("Return to your seat", open, { class: "primary" }));
    else if (g.status === GameStatus.OPEN && taken.length < g.seats) {
      actions.push(button("Join", () => void this.join(g.gameId, playerNameSetting()), { class: "primary" }));
    }
    if (g.status !== GameStatus.FINISHED) actions.push(button("Watch", open));
    if (g.status !== GameStatus.OPEN) actions.push(button("Replay", () => navigate(`/replay/${encodeURIComponent(g.gameId)}`)));
    return h(
      "tr",
      { "data-game": g.gameId },
      h("td", {}, g.name !== "" ? `${g.name} (${g.gameId})` : g.gameId),
      h("td", {}, `${taken.length} / ${g.seats}`, names !== "" ? `: ${names}` : ""),
      h("td", {}, STATUS_WORDS[g.status] ?? "unknown"),
      h("td", {}, String(g.spectators)),
      h("td", { class: "actions" }, ...actions),
    );
  }

  private table(games: readonly GameInfo[]): HTMLElement {
    const head = h("tr", {}, ...["Game", "Players", "Status", "Watching", ""].map((t) => h("th", {}, t)));
    return h("div", { class: "table-scroll" }, h("table", {}, h("thead", {}, head), h("tbody", {}, ...games.map((g) => this.row(g)))));
  }

  private render(): void {
    this.setError(this.errorText);
    const live = this.games.length === 0 ? h("p", {}, "No games waiting or running: create one.") : this.table(this.games);
    const more = this.moreGames ? [button("More games", () => this.showMoreGames())] : [];
    this.list.replaceChildren(h("h3", {}, "Open and running games"), live, ...more);
    const done = this.finished.length === 0 ? h("p", {}, "No finished games yet.") : this.table(this.finished);
    this.finishedList.replaceChildren(h("h3", {}, "Finished games"), done);
  }
}
