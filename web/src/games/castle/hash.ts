// The engine's public-state hash of The Castle (engine/castle/state_hash.h,
// castle::PublicState::Hash), computed from the client's own state so that it can be compared
// with a Delta's or Snapshot's state_hash, in BigInt masked to 64 bits.
import { factKey } from "../../state/fact-key";
import { invariant, WALL_TILE_KINDS, type PublicState } from "./model";

// Domains distinct from The City's (1 to 6) and Carcassonne's (21 to 26).
const TILE_FACT = 31;
const FOLLOWER_FACT = 32;
const COUNTERS = 36;

// The XOR of one key per fact on the board: placed tiles (start spaces too) and followers.
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
  let k = factKey(COUNTERS, d.actor, d.kind - 1, d.wall, d.turnPlayer);
  k = factKey(k, s.drawnTile, s.tilesDrawn, s.tilesDiscarded, s.over ? 1 : 0);
  k = factKey(k, s.players, s.wallCorners);
  for (let p = 0; p < s.players; ++p) {
    const player = s.player[p];
    invariant(player !== undefined, "stateFromWire keeps one player entry per seat");
    const sc = player.scores;
    k = factKey(k, sc.paths, sc.towers, sc.houses, sc.courts);
    k = factKey(k, sc.keep, sc.wallTiles, player.followers);
    const keep = player.keep;
    k = factKey(k, keep.size, keep.x, keep.y, keep.feature);
    for (let wall = 1; wall < WALL_TILE_KINDS; ++wall) k = factKey(k, wall, player.wallTiles[wall] ?? 0, player.fresh[wall] ?? 0, player.used[wall] ?? 0);
  }
  return k;
}

export function stateHash(s: PublicState): bigint {
  return factsHash(s) ^ countersHash(s);
}
