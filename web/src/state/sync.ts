// Keeping a client in step with the server (docs/protocol.md section 5), for any game: a GameView
// is a game's public state at a sequence number. It starts from a Snapshot and follows the game's
// Deltas in order; the payloads are decoded and applied by the game's module, and every step is
// checked against the server's state hash. The outcome of a Delta tells the caller what to do:
// use the new view, ignore a delta already applied, or resynchronise (a seat sends Resume, a
// spectator Spectate) after a gap, a hash that differs or an event that does not fit. Nothing
// here changes a view it is given.
import type { Delta, Snapshot } from "../gen/carcassonne/server/v2/server_pb";
import type { GameModule } from "../games/module";
import { fail, ok, type Result } from "./result";

export interface GameView<S = unknown> {
  readonly gameId: string;
  readonly sequence: bigint; // actions applied so far, the server's draws included
  readonly state: S;
  readonly hash: bigint; // the module's stateHash(state), equal to the server's
}

// The way the protocol documents show hashes: 16 lower-case hex digits.
export function hashHex(h: bigint): string {
  return BigInt.asUintN(64, h).toString(16).padStart(16, "0");
}

export function fromSnapshot<S, E>(game: GameModule<S, E, unknown>, snapshot: Snapshot): Result<GameView<S>> {
  if (snapshot.ruleSet !== "" && snapshot.ruleSet !== game.ruleSet) {
    return fail(`a snapshot of rule set ${snapshot.ruleSet} read as ${game.ruleSet}`);
  }
  const state = game.decodeState(snapshot.state);
  if (!state.ok) return fail(`snapshot ${snapshot.sequence}: ${state.error}`);
  const hash = game.stateHash(state.value);
  if (hash !== snapshot.stateHash) {
    return fail(`snapshot ${snapshot.sequence}: hash ${hashHex(hash)}, server ${hashHex(snapshot.stateHash)}`);
  }
  return ok({ gameId: snapshot.gameId, sequence: snapshot.sequence, state: state.value, hash });
}

export type DeltaOutcome<S = unknown> =
  | { readonly kind: "applied"; readonly view: GameView<S> }
  | { readonly kind: "stale" } // its sequence was applied already: ignore it
  | { readonly kind: "gap"; readonly expected: bigint; readonly got: bigint }
  | {
      readonly kind: "mismatch";
      readonly sequence: bigint;
      readonly ours: bigint;
      readonly server: bigint;
    }
  | { readonly kind: "invalid"; readonly error: string };

// True when the outcome means the client lost its way and must ask for a new snapshot.
export function needsResync(outcome: DeltaOutcome<unknown>): boolean {
  return outcome.kind === "gap" || outcome.kind === "mismatch" || outcome.kind === "invalid";
}

// The delta's events, decoded by the game's module.
export function deltaEvents<E>(game: GameModule<unknown, E, unknown>, delta: Delta): Result<E[]> {
  const events: E[] = [];
  for (const [i, bytes] of delta.events.entries()) {
    const e = game.decodeEvent(bytes);
    if (!e.ok) return fail(`event ${i}: ${e.error}`);
    events.push(e.value);
  }
  return ok(events);
}

export function applyDelta<S, E>(game: GameModule<S, E, unknown>, view: GameView<S>, delta: Delta): DeltaOutcome<S> {
  if (delta.gameId !== view.gameId) {
    return { kind: "invalid", error: `a delta of ${delta.gameId} for game ${view.gameId}` };
  }
  const expected = view.sequence + 1n;
  if (delta.sequence < expected) return { kind: "stale" };
  if (delta.sequence > expected) return { kind: "gap", expected, got: delta.sequence };
  const events = deltaEvents(game, delta);
  const next = events.ok ? game.applyEvents(view.state, events.value) : events;
  if (!next.ok) return { kind: "invalid", error: `delta ${delta.sequence}: ${next.error}` };
  const hash = game.stateHash(next.value);
  if (hash !== delta.stateHash) {
    return { kind: "mismatch", sequence: delta.sequence, ours: hash, server: delta.stateHash };
  }
  return { kind: "applied", view: { gameId: view.gameId, sequence: delta.sequence, state: next.value, hash } };
}
