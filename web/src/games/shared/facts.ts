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
