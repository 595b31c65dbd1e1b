// A seat on any device (the seat link and its code), the turn notice's title and settings, and
// the small words of the generic pages: the server's shutdown said once, the early start.
import { describe, expect, it } from "vitest";

import { readPastedSeat, seatLink, tokenFromFragment, toHex } from "../src/net/seats";
import { closingText } from "../src/ui/errors";
import { mayStartEarly, playersWord } from "../src/ui/open-game";
import { playerName } from "../src/ui/players";
import { loadTurnSettings, saveTurnSettings, turnTitle } from "../src/ui/turn-notice";

const TOKEN = new Uint8Array([0x00, 0x1f, 0xa0, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);

describe("seat links", () => {
  it("carry the token in the fragment, never in the path or query", () => {
    const link = seatLink("http://example.org", "g12", TOKEN);
    expect(link).toBe(`http://example.org/game/g12#seat=${toHex(TOKEN)}`);
    const url = new URL(link);
    expect(url.pathname + url.search).toBe("/game/g12");
    expect(tokenFromFragment(url.hash)).toEqual(TOKEN);
  });

  it("read only a seat fragment", () => {
    expect(tokenFromFragment("")).toBeNull();
    expect(tokenFromFragment("#seat=")).toBeNull();
    expect(tokenFromFragment("#seat=abc")).toBeNull(); // odd length
    expect(tokenFromFragment("#other=00ff")).toBeNull();
    expect(tokenFromFragment("#seat=00FF")).toEqual(new Uint8Array([0, 255]));
  });

  it("are taken pasted whole, or as their code alone", () => {
    const link = seatLink("https://carc.example", "g3", TOKEN);
    expect(readPastedSeat(`  ${link}\n`, "g3")).toEqual({ ok: true, token: TOKEN });
    expect(readPastedSeat(toHex(TOKEN), "g3")).toEqual({ ok: true, token: TOKEN });
  });

  it("refuse another game's link, a link without a seat, and anything else", () => {
    const other = readPastedSeat(seatLink("https://carc.example", "g4", TOKEN), "g3");
    expect(other).toEqual({ ok: false, error: "That seat link is for another game." });
    expect(readPastedSeat("https://carc.example/game/g3", "g3").ok).toBe(false);
    expect(readPastedSeat("my seat please", "g3").ok).toBe(false);
  });
});

describe("the server's shutdown", () => {
  it("is said once when the reason says it already", () => {
    expect(closingText("the server is shutting down")).toBe("The server is shutting down.");
    expect(closingText("")).toBe("The server is shutting down.");
  });
  it("gives any other reason after it", () => {
    expect(closingText("maintenance until 14:00")).toBe("The server is shutting down: maintenance until 14:00.");
  });
});

describe("the turn notice", () => {
  it("names the game in the title, marked on the seat's turn and unmarked after", () => {
    expect(turnTitle("Carcassonne", "Friday (12)", true)).toBe("● Your turn — Friday (12) — Carcassonne");
    expect(turnTitle("Carcassonne", "Friday (12)", false)).toBe("Friday (12) — Carcassonne");
  });
  it("keeps sound and notification off until switched on, and remembers them", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(loadTurnSettings(storage)).toEqual({ sound: false, notify: false });
    saveTurnSettings(storage, { sound: true, notify: false });
    expect(loadTurnSettings(storage)).toEqual({ sound: true, notify: false });
  });
});

describe("the open game's words", () => {
  it("count players in good English", () => {
    expect(playersWord(1)).toBe("1 player");
    expect(playersWord(3)).toBe("3 players");
  });
  it("offer an early start only from the rule set's fewest players", () => {
    expect(mayStartEarly(1, 2)).toBe(false);
    expect(mayStartEarly(2, 2)).toBe(true);
    expect(mayStartEarly(2, 3)).toBe(false);
    expect(mayStartEarly(1, 1)).toBe(false); // the server needs two
  });
  it("name a seat without a name the same way everywhere", () => {
    expect(playerName(["", "Bob"], 0)).toBe("Blue");
    expect(playerName(["", "Bob"], 1)).toBe("Bob");
  });
});
