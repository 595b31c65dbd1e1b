// The pieces every engine's public-state hash is built from (engine/core/hash.h): SplitMix64's
// output function and the key of one fact. Each game combines them in its own way (its module's
// hash.ts). All arithmetic is on BigInt masked to 64 bits, because JavaScript numbers cannot hold
// 64-bit words exactly.
const MASK = (1n << 64n) - 1n;

// A value as the engine feeds it to the hash: a 64-bit word, negative numbers in two's complement.
export function word(v: number | bigint): bigint {
  return BigInt.asUintN(64, typeof v === "bigint" ? v : BigInt(v));
}

// SplitMix64's output function (core::Mix64).
export function mix64(input: bigint): bigint {
  let z = (input + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

// core::FactKey: a domain and up to four values, each mixed in turn.
export function factKey(
  domain: number | bigint,
  a: number | bigint,
  b: number | bigint = 0,
  c: number | bigint = 0,
  d: number | bigint = 0,
): bigint {
  let h = mix64(word(domain));
  h = mix64(h ^ word(a));
  h = mix64(h ^ word(b));
  h = mix64(h ^ word(c));
  return mix64(h ^ word(d));
}
