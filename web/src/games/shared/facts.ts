// The board facts every tile-laying game's public state holds, and the reducer's helpers for them:
// the placed tiles, the followers in the engine's order (player, x, y, feature), and applying a
// list of events to one private copy of a state, so the state given is never changed.
import { fail, ok, type Result } from "../../state/result";

export interface PlacedTile {
  readonly tile: number;
  readonly x: number;
  readonly y: number;
  readonly rotation: number;
}

// A follower: the tile it stands on and the feature of that tile.
export interface Follower {
  readonly player: number;
  readonly x: number;
  readonly y: number;
  readonly feature: number;
}

// The same shape as a state with every level writable: only a reducer's private copies are.
export type Mutable<T> = T extends readonly (infer U)[]
  ? Mutable<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;

// The order the engine keeps followers in: (player, x, y, feature), as its followers compare.
export function compareFollowers(a: Follower, b: Follower): number {
  return a.player - b.player || a.x - b.x || a.y - b.y || a.feature - b.feature;
}

// Puts a follower in its place in the sorted list: the upper bound, as the engine inserts (after
// any equal follower).
export function insertFollower(followers: Follower[], f: Follower): void {
  const at = followers.findIndex((g) => compareFollowers(g, f) > 0);
  followers.splice(at === -1 ? followers.length : at, 0, f);
}

// Takes a follower equal to `f` out of the list; false when there is none.
export function removeFollower(followers: Follower[], f: Follower): boolean {
  const at = followers.findIndex((g) => compareFollowers(g, f) === 0);
  if (at === -1) return false;
  followers.splice(at, 1);
  return true;
}

// Applies the events in order to one copy of the state: `reduce` answers null when an event fits,
// else why it does not, and the first that does not fails the whole list.
export function applyAll<S, D extends S, E extends { readonly kind: { readonly case?: string | undefined } }>(
  state: S,
  events: readonly E[],
  copy: (s: S) => D,
  reduce: (draft: D, event: E) => string | null,
): Result<S> {
  const draft = copy(state);
  for (const [i, event] of events.entries()) {
    const why = reduce(draft, event);
    if (why !== null) return fail(`event ${i} (${event.kind.case ?? "empty"}): ${why}`);
  }
  return ok(draft);
}

// What the follower and score helpers read and write of a reducer's draft.
export interface SeatsDraft<P> {
  readonly players: number;
  readonly player: P[];
}

export interface FollowersDraft extends SeatsDraft<{ followers: number }> {
  readonly followers: Follower[];
}

// The player at a seat, undefined when the seat is out of range.
export function seatOf<P>(s: SeatsDraft<P>, player: number): P | undefined {
  return player >= 0 && player < s.players ? s.player[player] : undefined;
}

// Adds each seat's points to one source of its score; null, or why the points do not fit.
export function addPoints<K extends string>(s: SeatsDraft<{ scores: Record<K, number> }>, points: readonly number[], source: K): string | null {
  if (points.length !== s.players) return `${points.length} point entries for ${s.players} players`;
  s.player.forEach((p, i) => {
    p.scores[source] += points[i] ?? 0;
  });
  return null;
}

// A follower leaves its owner's supply for the board; `check` is the game's own test of the event,
// after the owner's. Null, or why the event does not fit.
export function placeFollower(s: FollowersDraft, e: Follower, check: () => string | null = () => null): string | null {
  const owner = seatOf(s, e.player);
  if (owner === undefined) return `no player ${e.player}`;
  const why = check();
  if (why !== null) return why;
  insertFollower(s.followers, { player: e.player, x: e.x, y: e.y, feature: e.feature });
  owner.followers -= 1;
  return null;
}

// A follower goes back from the board to its owner's supply. Null, or why the event does not fit.
export function returnFollower(s: FollowersDraft, e: Follower): string | null {
  const owner = seatOf(s, e.player);
  const f = { player: e.player, x: e.x, y: e.y, feature: e.feature };
  if (owner === undefined || !removeFollower(s.followers, f)) return `no follower of ${e.player} at (${e.x}, ${e.y}) feature ${e.feature}`;
  owner.followers += 1;
  return null;
}
