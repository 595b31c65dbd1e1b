// The client's game-independent state code: results, and the snapshot-and-delta loop that follows
// any game through its module (src/games/). Pages import from here only.
export * from "./result";
export {
  applyDelta,
  deltaEvents,
  fromSnapshot,
  hashHex,
  needsResync,
  type DeltaOutcome,
  type GameView,
} from "./sync";
