// The client's game state: the model, the reducer of the engine's events, the state hash and
// the snapshot-and-delta loop. Pages and views import from here only, never from the files
// behind it, so those may be reorganised freely.
export * from "./model";
export { factKey, hashHex, mix64, stateHash, word } from "./hash";
export { stateFromWire } from "./convert";
export { applyEvent, applyEvents } from "./reducer";
export { applyDelta, fromSnapshot, needsResync, type DeltaOutcome, type GameView } from "./sync";
