// Seat tokens kept in localStorage under "carc.seat.<gameId>" as {seat, token (hex)}, so that
// reopening /game/<id> (or reloading it) resumes the seat. Whatever is stored there came from
// outside this code, so it is checked on the way in; a bad entry reads as no seat.
export interface StoredSeat {
  readonly seat: number;
  readonly token: Uint8Array;
}

const PREFIX = "carc.seat.";

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function fromHex(hex: string): Uint8Array | null {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; ++i) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function loadSeat(gameId: string): StoredSeat | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(localStorage.getItem(PREFIX + gameId) ?? "null");
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { seat, token } = parsed as { seat?: unknown; token?: unknown };
  if (typeof seat !== "number" || !Number.isInteger(seat) || typeof token !== "string") return null;
  const bytes = fromHex(token);
  return bytes === null ? null : { seat, token: bytes };
}

export function saveSeat(gameId: string, seat: StoredSeat): void {
  localStorage.setItem(PREFIX + gameId, JSON.stringify({ seat: seat.seat, token: toHex(seat.token) }));
}

export function forgetSeat(gameId: string): void {
  localStorage.removeItem(PREFIX + gameId);
}

// A seat link, `<origin>/game/<id>#seat=<token in hex>`: whoever opens it plays the seat, on any
// device. The token rides in the fragment, which browsers never send to a server.
const LINK_FRAGMENT = /^#?seat=([0-9a-f]+)$/i;

export function seatLink(origin: string, gameId: string, token: Uint8Array): string {
  return `${origin}/game/${encodeURIComponent(gameId)}#seat=${toHex(token)}`;
}

// The token of an address's fragment ("#seat=…"), or null when it holds none.
export function tokenFromFragment(fragment: string): Uint8Array | null {
  const hex = LINK_FRAGMENT.exec(fragment)?.[1];
  return hex === undefined ? null : fromHex(hex);
}

export type PastedSeat = { readonly ok: true; readonly token: Uint8Array } | { readonly ok: false; readonly error: string };

// What a player pasted: a seat link of this game, or its code (the token in hex) alone.
export function readPastedSeat(text: string, gameId: string): PastedSeat {
  const pasted = text.trim();
  const code = fromHex(pasted);
  if (code !== null) return { ok: true, token: code };
  let url: URL;
  try {
    url = new URL(pasted);
  } catch {
    return { ok: false, error: "That is neither a seat link nor a seat code." };
  }
  const token = tokenFromFragment(url.hash);
  if (token === null) return { ok: false, error: "That link holds no seat (it is not a seat link)." };
  const path = /^\/game\/([^/]+)\/?$/.exec(url.pathname)?.[1];
  if (path === undefined || decodeURIComponent(path) !== gameId) return { ok: false, error: "That seat link is for another game." };
  return { ok: true, token };
}
