// Two shards behind nginx, as deploy/nginx/render-shards.sh configures it: servers "a" and "b"
// (each `carc-server --shard NAME` with the built client), the browser at the proxy only. The
// lobby lists the games of both shards. A game created in the browser lives on the shard the proxy
// picked (its id says which); its page talks to that shard alone, at /shard/NAME/, and after a
// move and a reload it is there again with the player's seat. A game or replay whose id names a
// shard the proxy does not have ("zz-g1") says "No such game" and opens no WebSocket; so does a
// replay of an id no instance knows, as the instance answers. Once shard b stops, the lobby still
// lists a's games and says in one line that b is not answering.
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";

import { ClientMessageSchema, ServerMessageSchema } from "../src/gen/carcassonne/server/v2/server_pb";
import { Browsers } from "./support/browser";
import { createGame, joinByInvite } from "./support/lobby";
import { decideFirst } from "./support/play";
import { gameState, waitForSequence } from "./support/pages";
import { startProxy, type RunningProxy } from "./support/proxy";
import { startServer, type RunningServer } from "./support/server";

const TIMEOUT_MS = 30_000;

let a: RunningServer;
let b: RunningServer;
let proxy: RunningProxy;
let browsers: Browsers;

beforeAll(async () => {
  [a, b] = await Promise.all([startServer({ shard: "a" }), startServer({ shard: "b" })]);
  proxy = await startProxy({ a: a.port, b: b.port });
  browsers = await Browsers.launch(proxy.baseUrl);
}, 60_000);

afterAll(async () => {
  await browsers?.close();
  await proxy?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
});

beforeEach((ctx) => {
  ctx.onTestFailed(async () => {
    await browsers.screenshotAll(`failed-${ctx.task.name.replace(/\W+/g, "-")}`);
    console.error(`shard a:\n${a.log()}\n\nshard b:\n${b.log()}\n\nnginx:\n${proxy.log()}`);
  });
});

afterEach(() => {
  const errors = browsers.takeErrors();
  if (errors.length > 0) throw new Error(`errors in the browser:\n${errors.join("\n")}`);
});

// Creates an open game of The City on one server directly (not through the proxy); its id.
async function createGameOn(server: RunningServer, name: string): Promise<string> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/`);
  const send = (requestId: bigint, body: MessageInitShape<typeof ClientMessageSchema>["body"]): void => {
    ws.send(toBinary(ClientMessageSchema, create(ClientMessageSchema, { requestId, body })));
  };
  try {
    return await new Promise<string>((done, fail) => {
      ws.on("error", fail);
      ws.on("open", () => send(0n, { case: "hello", value: { protocolVersion: 2, client: "e2e" } }));
      ws.on("message", (data: Buffer) => {
        const m = fromBinary(ServerMessageSchema, new Uint8Array(data));
        if (m.body.case === "welcome") send(1n, { case: "createGame", value: { ruleSet: "the-city", seats: 2, name } });
        else if (m.body.case === "gameCreated") done(m.body.value.game?.gameId ?? "");
        else if (m.body.case === "error") fail(new Error(`${server.baseUrl}: ${m.body.value.reason}`));
      });
    });
  } finally {
    ws.close();
  }
}

// The WebSocket addresses a page opens, in order.
function socketsOf(page: Page): string[] {
  const urls: string[] = [];
  page.on("websocket", (ws) => urls.push(ws.url()));
  return urls;
}

function proxySocket(path: string): string {
  return `${proxy.baseUrl.replace(/^http/, "ws")}${path}`;
}

describe("two shards behind nginx", () => {
  it("the lobby lists the games of both shards", async () => {
    const [onA, onB] = await Promise.all([createGameOn(a, "On shard a"), createGameOn(b, "On shard b")]);
    expect([onA, onB]).toEqual(["a-g1", "b-g1"]);
    const lobby = await browsers.page("carol");
    const sockets = socketsOf(lobby);
    await lobby.goto("/");
    await lobby.locator('tr[data-game="a-g1"]', { hasText: "On shard a" }).waitFor();
    await lobby.locator('tr[data-game="b-g1"]', { hasText: "On shard b" }).waitFor();
    await expect.poll(() => lobby.locator("p.shards-down").isHidden(), { message: "no shard is said to be down" }).toBe(true);
    expect([...sockets].sort()).toEqual([proxySocket("/"), proxySocket("/shard/a/"), proxySocket("/shard/b/")]);
    await lobby.close();
  }, TIMEOUT_MS);

  it("a game created in the browser is played on its shard and found there after a reload", async () => {
    const alice = await (await browsers.person("alice")).newPage();
    const id = await createGame(alice, { name: "Sharded", seed: 7 });
    const shard = /^([ab])-g2$/.exec(id)?.[1];
    expect(shard, `the game id ${id} names shard a or b`).toBeDefined();
    const invite = (await alice.locator("p.invite a").getAttribute("href")) ?? "";
    expect(invite).toMatch(new RegExp(`/game/${id}$`));
    const bob = await browsers.page("bob");
    await joinByInvite(bob, invite);
    await alice.locator('.game-page[data-status="running"][data-sequence]').waitFor();
    // The first seat decides first: a tile, placed on the first legal cell.
    const decision = alice.locator("section.decision[data-decision]");
    await decision.waitFor();
    await decideFirst(alice, (await decision.getAttribute("data-decision")) ?? "", 10_000);
    const moved = await gameState(alice);

    const sockets = socketsOf(alice);
    await alice.reload();
    await waitForSequence(alice, moved.sequence);
    expect(new URL(alice.url()).pathname).toBe(`/game/${id}`);
    expect(sockets, "the game page talks to its shard only").toEqual([proxySocket(`/shard/${shard}/`)]);
    await expect.poll(async () => (await gameState(alice)).watching, { message: "Alice has her seat again" }).toBe(false);
    await expect.poll(async () => (await gameState(alice)).tiles, { message: "the board as before the reload" }).toBe(moved.tiles);
  }, TIMEOUT_MS);

  it("a game or replay that is no game says so; one on a shard the proxy does not have connects nowhere", async () => {
    const page = await browsers.page("erin");
    const sockets = socketsOf(page);
    for (const path of ["/game/zz-g1", "/replay/zz-g1"]) {
      await page.goto(path);
      await page.locator('.game-page[data-status="missing"]').waitFor();
      await page.getByRole("heading", { name: "No such game" }).waitFor();
      await expect.poll(() => page.locator(".conn-status").isHidden(), { message: `${path}: no connection to be lost` }).toBe(true);
    }
    expect(sockets, "no WebSocket for a shard the proxy would refuse").toEqual([]);
    // An id without a shard goes to any instance, which answers that it has no such game.
    await page.goto("/replay/nosuchgame");
    await page.locator('.game-page[data-status="missing"]').waitFor();
    await page.getByRole("heading", { name: "No such game" }).waitFor();
    expect(sockets).toEqual([proxySocket("/")]);
    await page.getByRole("link", { name: "Go to the lobby" }).click();
    await page.locator('tr[data-game="a-g1"]').waitFor();
    await page.close();
  }, TIMEOUT_MS);

  it("a shard that stops drops out of the lobby, which says so, and the other still lists", async () => {
    await b.stop();
    // Chromium reports the refused WebSocket to the stopped shard as a console error of its own.
    browsers.allowConsoleErrors(/^WebSocket connection to '.*\/shard\/b\/' failed/);
    const lobby = await browsers.page("dave");
    await lobby.goto("/");
    await lobby.locator('tr[data-game="a-g1"]').waitFor();
    const note = lobby.locator("p.shards-down");
    await note.waitFor();
    await expect.poll(() => note.textContent()).toBe("Shard b is not answering: its games are not listed for now.");
    await expect.poll(() => lobby.locator('tr[data-game="b-g1"]').count(), { message: "shard b's game listed" }).toBe(0);
    browsers.endAllowance();
  }, TIMEOUT_MS);
});
