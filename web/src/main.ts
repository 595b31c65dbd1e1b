// The browser client's entry point: the visit's connections (the site's, and one per shard a
// page needs: src/net/connections.ts), a banner that shows when the current page's connection is
// lost, and a router on location.pathname: "/" the lobby, "/game/<id>" a game, "/replay/<id>" a
// replay, each game's page on its shard's connection. The server answers every such path with
// this page.
import "./style.css";

import { Connection, type ConnectionStatus } from "./net/connection";
import { Connections } from "./net/connections";
import { fetchShardList, siteSocketUrl } from "./net/shards";
import { h, navigate } from "./ui/dom";
import { GamePage } from "./ui/game";
import { LobbyPage } from "./ui/lobby";
import { ReplayPage } from "./ui/replay";

interface Page {
  start(): void;
  destroy(): void;
}

const STATUS_TEXT: Record<ConnectionStatus, string> = {
  connecting: "connecting…",
  open: "",
  reconnecting: "connection lost: reconnecting…",
  closed: "disconnected",
};

// The page for a path, and the connection whose state the banner shows for it.
function pageFor(path: string, mount: HTMLElement, conns: Connections): [Page, Connection] {
  const game = /^\/game\/([^/]+)\/?$/.exec(path);
  if (game?.[1] !== undefined) {
    const id = decodeURIComponent(game[1]);
    const conn = conns.forGame(id);
    return [new GamePage(mount, conn, id), conn];
  }
  const replay = /^\/replay\/([^/]+)\/?$/.exec(path);
  if (replay?.[1] !== undefined) {
    const id = decodeURIComponent(replay[1]);
    const conn = conns.forGame(id);
    return [new ReplayPage(mount, conn, id), conn];
  }
  return [new LobbyPage(mount, conns), conns.site()];
}

function main(): void {
  const app = document.getElementById("app");
  if (app === null) return;
  const conns = new Connections(
    siteSocketUrl(location),
    (url) => new Connection(url),
    () => fetchShardList((path) => fetch(path)),
  );
  const banner = h("div", { class: "conn-status", role: "status" });
  const showStatus = (s: ConnectionStatus): void => {
    banner.textContent = STATUS_TEXT[s];
    banner.hidden = s === "open";
  };
  const home = h("a", { href: "/", class: "home" }, "Carcassonne");
  home.addEventListener("click", (e) => {
    e.preventDefault();
    navigate("/");
  });
  const mount = h("div", { class: "page" });
  app.replaceChildren(h("header", {}, home, banner), mount);
  let page: Page | null = null;
  let stopStatus: () => void = () => undefined;
  const route = (): void => {
    page?.destroy();
    stopStatus();
    const [next, conn] = pageFor(location.pathname, mount, conns);
    page = next;
    stopStatus = conn.onStatus(showStatus);
    page.start();
  };
  window.addEventListener("popstate", route);
  route();
}

main();
