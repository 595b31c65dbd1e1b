// The boundary between the generic client (connection, lobby, sync, game and replay pages) and
// one game. Protocol 2's envelope knows no game: a Snapshot's state, a Delta's events and every
// action are the encoded messages of the game's own package, chosen by its rule set. A GameModule
// is what the client knows of one rule set: how to read those bytes, how to follow the state
// (reducer and hash), and how to draw it and offer the seat's decisions (its table).
//
// S, E and A are the module's own state, event and action types. The generic code holds modules
// as GameModule (all three unknown) and only hands a module back what the same module gave it:
// the methods below are declared as methods, which TypeScript compares bivariantly, so a
// GameModule<CityState, …> is a GameModule.
import type { TileCatalog } from "../tiles/catalog";
import type { Result } from "../state/result";

// A rectangle of the board in SVG units.
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

// What a move changed on the board, for the highlight of recent moves: a tile placed (its cell), a
// piece put (a follower, a wall piece: its point in SVG units), or points scored (a "+N" label at
// the scored feature, in SVG units). Each in its player's colour.
export type MoveMark =
  | { readonly kind: "tile"; readonly player: number; readonly x: number; readonly y: number }
  | { readonly kind: "piece"; readonly player: number; readonly at: readonly [number, number] }
  | { readonly kind: "points"; readonly player: number; readonly at: readonly [number, number]; readonly points: number };

// What a table draws from: the state, the seat's legal actions, and the page's context.
export interface TableInput<S, A> {
  readonly state: S;
  readonly legal: readonly A[]; // empty unless this client's seat must decide now
  readonly tiles: TileCatalog | null; // null until the tile set has come
  readonly names: readonly string[]; // seat → player name
  readonly online: readonly (boolean | null)[]; // null: unknown (replays, a lost connection)
  readonly yourSeat: number | null;
  readonly winners: number | null; // bit per seat, from the game's end event; null when unseen
}

// What a table may ask of the page it is on.
export interface TableHost<A> {
  send(action: A): void; // one move; the page adds the sequence and the seat token
  render(): void; // something the table holds changed (a chosen cell, a rotation)
  centreOn(x: number, y: number): void; // bring a board point (SVG units) into view
}

// One game page's (or replay page's) view of a game: the board, the side panel and the keys.
// It may hold choices in the making (a cell and rotation chosen but not yet sent).
export interface GameTable<S, A> {
  // New legal actions came; `keep` when they answer the same decision again (after a
  // reconnect), so a choice still legal survives.
  newLegal(legal: readonly A[], keep: boolean): void;
  board(input: TableInput<S, A>): SVGGElement;
  // The seat's decision (if any) and the game's panel: players, scores, what is left.
  side(input: TableInput<S, A>): HTMLElement;
  // A key press on the page; true when the table used it.
  key(e: KeyboardEvent, input: TableInput<S, A>): boolean;
}

export interface GameModule<S = unknown, E = unknown, A = unknown> {
  readonly ruleSet: string; // the rule-set id it draws, as in Welcome.rule_sets ("the-city")

  // The wire payloads. Everything from the server is checked here once.
  decodeState(bytes: Uint8Array): Result<S>;
  decodeEvent(bytes: Uint8Array): Result<E>;
  decodeAction(bytes: Uint8Array): Result<A>;
  encodeAction(action: A): Uint8Array;

  // The reducer (never changes the state it is given) and the engine's public-state hash, which
  // sync.ts compares with the server's after every delta.
  applyEvents(state: S, events: readonly E[]): Result<S>;
  stateHash(state: S): bigint;

  isOver(state: S): boolean;
  bounds(state: S): Box; // the board's extent, for fitting the view
  // An event in words for the log, or null for events people need not read; `state` is the state
  // the event led to (or a later one), to name places by what lies next to them.
  eventWord(event: E, names: readonly string[], tiles: TileCatalog | null, state: S): string | null;
  // What a move's events changed on the board; `state` is a state at or after them.
  moveMarks(state: S, events: readonly E[], tiles: TileCatalog | null): readonly MoveMark[];
  // An action's words when it may be sent for the seat as its decision's only choice ("No
  // follower"); null for one that never is (a tile placement, the server's draw).
  onlyChoiceWord(action: A, state: S): string | null;
  // The server's own action (drawing a tile), which a replay folds into the move before it.
  isServerAction(action: A): boolean;
  // The tile a draw action takes (its tile id, as the committed drawing order lists it), or null
  // for any other action: the fairness check follows the game's draws with it (docs/fairness.md).
  drawnTile(action: A): number | null;
  // How many tiles of the committed drawing order the game lays at set-up, before its first draw
  // (Carcassonne's start tile or the River's spring): the draws follow from there.
  readonly tilesLaidAtSetUp: number;
  // The winners (bit per seat) when the event ends the game, else null.
  winners(event: E): number | null;
  table(host: TableHost<A>): GameTable<S, A>;
}
