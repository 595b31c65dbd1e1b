// A game's chat as the client holds it (docs/protocol.md section 13): the lines by their number
// (the server numbers a game's lines 1, 2, …), each kept once however often it comes (a Snapshot's
// recent chat, the live ChatMessage, the reply to one's own SendChat); the seats this player has
// muted left out; and the limits of a line, which the server enforces (it refuses with a reason,
// which the page shows).
import type { ChatMessage } from "../gen/carcassonne/server/v2/server_pb";

// The server's limits for a chat line: bytes of UTF-8, and lines per time.
export const CHAT_MAX_BYTES = 200;
export const CHAT_RATE_WORDS = "at most 5 lines in 10 seconds";

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

// Why a line cannot be sent as typed, or null when it can.
export function chatTextProblem(text: string): string | null {
  if (text.trim() === "") return "Type a message first.";
  const bytes = utf8Bytes(text.trim());
  if (bytes > CHAT_MAX_BYTES) return `The message is too long: ${bytes} bytes, at most ${CHAT_MAX_BYTES}.`;
  return null;
}

export class ChatLog {
  private readonly byNumber = new Map<bigint, ChatMessage>();
  private readonly mutedSeats = new Set<number>();

  constructor(private readonly gameId: string) {}

  // A line of this game; false when it was already held (or is another game's).
  add(line: ChatMessage): boolean {
    if (line.gameId !== this.gameId || this.byNumber.has(line.number)) return false;
    this.byNumber.set(line.number, line);
    return true;
  }

  addAll(lines: readonly ChatMessage[]): number {
    return lines.filter((l) => this.add(l)).length;
  }

  setMuted(seat: number, muted: boolean): void {
    if (muted) this.mutedSeats.add(seat);
    else this.mutedSeats.delete(seat);
  }

  isMuted(seat: number): boolean {
    return this.mutedSeats.has(seat);
  }

  muted(): number[] {
    return [...this.mutedSeats].sort((a, b) => a - b);
  }

  // Whether a line is shown: spectators' lines always, a seat's unless muted.
  shows(line: ChatMessage): boolean {
    return line.seat === undefined || !this.mutedSeats.has(line.seat);
  }

  // The lines shown, oldest first; with `upTo`, only those said by that sequence number (a
  // replay shows each line at the step it was said after).
  lines(upTo?: bigint): ChatMessage[] {
    const all = [...this.byNumber.values()].filter((l) => this.shows(l) && (upTo === undefined || l.afterSequence <= upTo));
    return all.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  }
}

// "14:05" in the reader's own time zone.
export function chatTime(timeMs: bigint): string {
  const d = new Date(Number(timeMs));
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

// The muted seats of a game, remembered on this browser (the server keeps them for the seat too).
const MUTED_PREFIX = "carc.muted.";

export function loadMuted(gameId: string): number[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(MUTED_PREFIX + gameId) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isInteger(n) && n >= 0) : [];
  } catch {
    return [];
  }
}

export function saveMuted(gameId: string, seats: readonly number[]): void {
  localStorage.setItem(MUTED_PREFIX + gameId, JSON.stringify(seats));
}
