// The browser client's entry point: one Connection for the whole visit, a banner that shows
// when it is lost, and a router on location.pathname: "/" the lobby, "/game/<id>" a game,
// "/replay/<id>" a replay. The server answers every such path with this page.
import "./style.css";

import { Connection, defaultUrl, type ConnectionStatus } from "./net/connection";
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

function pageFor(path: string, mount: HTMLElement, conn: Connection): Page {
  const game = /^\/game\/([^/]+)\/?$/.exec(path);
  if (game?.[1] !== undefined) return new GamePage(mount, conn, decodeURIComponent(game[1]));
  const replay = /^\/replay\/([^/]+)\/?$/.exec(path);
  if (replay?.[1] !== undefined) return new ReplayPage(mount, conn, decodeURIComponent(replay[1]));
  return new LobbyPage(mount, conn);
}

function main(): void {
  const app = document.getElementById("app");
  if (app === null) return;
  const conn = new Connection(defaultUrl());
  const banner = h("div", { class: "conn-status", role: "status" });
  conn.onStatus((s) => {
    banner.textContent = STATUS_TEXT[s];
    banner.hidden = s === "open";
  });
  const home = h("a", { href: "/", class: "home" }, "Carcassonne");
  home.addEventListener("click", (e) => {
    e.preventDefault();
    navigate("/");
  });
  const mount = h("div", { class: "page" });
  app.replaceChildren(h("header", {}, home, banner), mount);
  let page: Page | null = null;
  const route = (): void => {
    page?.destroy();
    page = pageFor(location.pathname, mount, conn);
    page.start();
  };
  window.addEventListener("popstate", route);
  route();
}

main();
