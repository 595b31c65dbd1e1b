// The engine's public-state hash (docs/protocol-city.md section 5, engine/city/state_hash.h), computed
// from the client's own state so that it can be compared with a Delta's or Snapshot's
// state_hash, in BigInt masked to 64 bits.
import { factKey } from "../../state/fact-key";
import { invariant, type PublicState } from "./model";

// word, mix64 and factKey are shared by every game's hash (src/state/fact-key.ts).
export { factKey, mix64, word } from "../../state/fact-key";

// The XOR of one key per fact on the board: tiles, followers, wall pieces, guards, towers.
function factsHash(s: PublicState): bigint {
  let h = 0n;
  for (const t of s.tiles) h ^= factKey(1, t.tile, t.x, t.y, t.rotation);
  for (const f of s.followers) h ^= factKey(2, f.player, f.x, f.y, f.feature);
  if (s.gate !== null) h ^= factKey(3, 0, s.gate.x, s.gate.y, s.gate.side);
  // Pieces are numbered from the gate: +i on the front, -i on the back.
  const ends = [
    { pieces: s.front, sign: 1 },
    { pieces: s.back, sign: -1 },
  ];
  for (const { pieces, sign } of ends) {
    pieces.forEach((w, i) => {
      h ^= factKey(3, sign * (i + 1), w.x, w.y, w.side);
      if (w.guard !== null) h ^= factKey(4, w.guard, w.x, w.y, w.side);
    });
  }
  for (const t of s.towers) h ^= factKey(5, t.player, t.end, t.position, 0);
  return h;
}

// One chain over everything that is not a fact; each step's key is the next step's domain.
function countersHash(s: PublicState): bigint {
  const d = s.decision;
  // The engine numbers decision kinds from 0, one less than the wire.
  let k = factKey(6, d.actor, d.kind - 1, d.turnPlayer, s.drawnTile);
  k = factKey(
    k,
    s.tilesDrawn,
    s.tilesDiscarded,
    s.wallsLeft,
    (s.chainClosed ? 1 : 0) | (s.end << 1),
  );
  for (let p = 0; p < s.players; ++p) {
    const player = s.player[p];
    invariant(player !== undefined, "fromSnapshot keeps one player entry per seat");
    const sc = player.scores;
    k = factKey(k, sc.streets, sc.markets, sc.towers, sc.stewards);
    k = factKey(k, sc.guards, player.followers, player.towers, 0);
  }
  return k;
}

export function stateHash(s: PublicState): bigint {
  return factsHash(s) ^ countersHash(s);
}
