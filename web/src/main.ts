// The browser client's entry point: the visit's connections (the site's, and one per shard a
// page needs: src/net/connections.ts), a banner that shows when the current page's connection is
// lost, and a router on location.pathname: "/" the lobby, "/game/<id>" a game, "/replay/<id>" a
// replay, each game's page on its shard's connection. Behind the proxy, a game or replay whose id
// names a shard the site does not have is said at once to be no game, and nothing is connected to.
// The server answers every such path with this page.
import "./style.css";

import { Connection, type ConnectionStatus } from "./net/connection";
import { Connections } from "./net/connections";
import { fetchShardList, siteSocketUrl } from "./net/shards";
import { h, navigate } from "./ui/dom";
import { GamePage } from "./ui/game";
import { LobbyPage } from "./ui/lobby";
import { MissingGamePage } from "./ui/missing";
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

// What a path shows: its page, made once the route is still the current one, and the connection
// whose state the banner shows for it (none for a game whose shard the site does not have:
// src/net/connections.ts).
interface Route {
  readonly page: () => Page;
  readonly conn: Connection | null;
}

async function routeFor(path: string, mount: HTMLElement, conns: Connections): Promise<Route> {
  const game = /^\/(game|replay)\/([^/]+)\/?$/.exec(path);
  if (game?.[1] === undefined || game[2] === undefined) return { page: () => new LobbyPage(mount, conns), conn: conns.site() };
  const id = decodeURIComponent(game[2]);
  const conn = await conns.forGameIfItsShardExists(id);
  if (conn === null) return { page: () => new MissingGamePage(mount, id), conn: null };
  const kind = game[1];
  return { page: () => (kind === "game" ? new GamePage(mount, conn, id) : new ReplayPage(mount, conn, id)), conn };
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
  const hideStatus = (): (() => void) => {
    banner.hidden = true;
    return () => undefined;
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
  let routes = 0;
  const route = async (): Promise<void> => {
    const thisRoute = ++routes;
    const next = await routeFor(location.pathname, mount, conns);
    // A later navigation, made while this one waited for the shard list, wins.
    if (thisRoute !== routes) return;
    page?.destroy();
    stopStatus();
    page = next.page();
    stopStatus = next.conn === null ? hideStatus() : next.conn.onStatus(showStatus);
    page.start();
  };
  window.addEventListener("popstate", () => void route());
  void route();
}

main();
