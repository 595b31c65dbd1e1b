// "No such game", in words and with a way to the lobby: what the game page shows when the server
// answers that it has no such game (a mistyped or expired link), and the whole page for an id
// whose shard the site does not have (behind the proxy: src/net/connections.ts), which no server
// is asked about.
import { h, navigate } from "./dom";

export function noSuchGameParts(gameId: string): HTMLElement[] {
  const lobby = h("a", { href: "/" }, "Go to the lobby");
  lobby.addEventListener("click", (e) => {
    e.preventDefault();
    navigate("/");
  });
  return [
    h("h2", {}, "No such game"),
    h("p", { class: "missing" }, `This server has no game "${gameId}": the link may be mistyped, or the game is gone.`),
    h("p", {}, lobby, " to create a game or find one."),
  ];
}

// A game or replay page with no connection: it says there is no such game, and that is all.
export class MissingGamePage {
  constructor(
    private readonly mount: HTMLElement,
    private readonly gameId: string,
  ) {}

  start(): void {
    const side = h("aside", { class: "side" }, ...noSuchGameParts(this.gameId));
    this.mount.replaceChildren(h("div", { class: "game-page", "data-status": "missing" }, side));
  }

  destroy(): void {
    // nothing to stop: the page neither listens nor connects
  }
}
