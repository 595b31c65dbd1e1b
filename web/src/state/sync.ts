// Keeping a client in step with the server (docs/protocol.md section 5): a GameView is a game's
// public state at a sequence number. It starts from a Snapshot and follows the game's Deltas in
// order; every step is checked against the server's state hash. The outcome of a Delta tells the
// caller what to do: use the new view, ignore a delta already applied, or resynchronise (a seat
// sends Resume, a spectator Spectate) after a gap, a hash that differs or an event that does
// not fit. Nothing here changes a view it is given.
import type { Delta, Snapshot } from "../gen/carcassonne/city/v1/city_pb";
import { stateFromWire } from "./convert";
import { hashHex, stateHash } from "./hash";
import { fail, ok, type PublicState, type Result } from "./model";
import { applyEvents } from "./reducer";

export interface GameView {
  readonly gameId: string;
  readonly sequence: bigint; // actions applied so far, the server's draws included
  readonly state: PublicState;
  readonly hash: bigint; // stateHash(state), equal to the server's
}

export function fromSnapshot(snapshot: Snapshot): Result<GameView> {
  if (snapshot.state === undefined) return fail("snapshot without a state");
  const state = stateFromWire(snapshot.state);
  if (!state.ok) return state;
  const hash = stateHash(state.value);
  if (hash !== snapshot.stateHash) {
    return fail(
      `snapshot ${snapshot.sequence}: hash ${hashHex(hash)}, server ${hashHex(snapshot.stateHash)}`,
    );
  }
  return ok({ gameId: snapshot.gameId, sequence: snapshot.sequence, state: state.value, hash });
}

export type DeltaOutcome =
  | { readonly kind: "applied"; readonly view: GameView }
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
export function needsResync(outcome: DeltaOutcome): boolean {
  return outcome.kind === "gap" || outcome.kind === "mismatch" || outcome.kind === "invalid";
}

export function applyDelta(view: GameView, delta: Delta): DeltaOutcome {
  if (delta.gameId !== view.gameId) {
    return { kind: "invalid", error: `a delta of ${delta.gameId} for game ${view.gameId}` };
  }
  const expected = view.sequence + 1n;
  if (delta.sequence < expected) return { kind: "stale" };
  if (delta.sequence > expected) return { kind: "gap", expected, got: delta.sequence };
  const next = applyEvents(view.state, delta.events);
  if (!next.ok) return { kind: "invalid", error: `delta ${delta.sequence}: ${next.error}` };
  const hash = stateHash(next.value);
  if (hash !== delta.stateHash) {
    return { kind: "mismatch", sequence: delta.sequence, ours: hash, server: delta.stateHash };
  }
  return {
    kind: "applied",
    view: { gameId: view.gameId, sequence: delta.sequence, state: next.value, hash },
  };
}
