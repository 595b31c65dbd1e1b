// The engine's public-state hash of Carcassonne (engine/river/state_hash.h,
// river::PublicState::Hash), computed from the client's own state so that it can be compared
// with a Delta's or Snapshot's state_hash, in BigInt masked to 64 bits.
import { factKey } from "../../state/fact-key";
import { invariant, type PublicState } from "./model";

// Domains distinct from The City's (1 to 6), so the two games' hashes never share keys.
const TILE_FACT = 21;
const FOLLOWER_FACT = 22;
const COUNTERS = 26;

// The XOR of one key per fact on the board: placed tiles and followers.
function factsHash(s: PublicState): bigint {
  let h = 0n;
  for (const t of s.tiles) h ^= factKey(TILE_FACT, t.tile, t.x, t.y, t.rotation);
  for (const f of s.followers) h ^= factKey(FOLLOWER_FACT, f.player, f.x, f.y, f.feature);
  return h;
}

// CountersHash: one chain over everything that is not a fact; each step's key is the next
// step's domain.
function countersHash(s: PublicState): bigint {
  const d = s.decision;
  // The engine numbers decision kinds from 0, one less than the wire.
  let k = factKey(COUNTERS, d.actor, d.kind - 1, d.turnPlayer, s.drawnTile);
  k = factKey(k, s.tilesDrawn, s.tilesDiscarded, s.over ? 1 : 0, s.players);
  for (let p = 0; p < s.players; ++p) {
    const player = s.player[p];
    invariant(player !== undefined, "stateFromWire keeps one player entry per seat");
    const sc = player.scores;
    k = factKey(k, sc.roads, sc.cities, sc.monasteries, sc.fields);
    k = factKey(k, player.followers);
  }
  return k;
}

export function stateHash(s: PublicState): bigint {
  return factsHash(s) ^ countersHash(s);
}
