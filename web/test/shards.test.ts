// Where a game's server is behind a proxy of shards: the WebSocket address of a game id, the
// proxy's shard list read (and refused when it is not one), lists merged across shards, and one
// connection per address for the whole visit, none for a game on a shard the site does not have.
import { describe, expect, it } from "vitest";

import { Connections } from "../src/net/connections";
import {
  fetchShardList,
  gameSocketUrl,
  interleave,
  namesUnknownShard,
  shardListFromText,
  shardOfGame,
  shardSocketUrl,
  siteSocketUrl,
} from "../src/net/shards";

const SITE = "wss://play.example.org/";

describe("a game id's WebSocket", () => {
  it("is its shard's behind the proxy", () => {
    expect(gameSocketUrl(SITE, "b-g12")).toBe("wss://play.example.org/shard/b/");
    expect(gameSocketUrl("ws://127.0.0.1:8080/", "eu2-g1")).toBe("ws://127.0.0.1:8080/shard/eu2/");
  });

  it("is the site's for an id without a shard", () => {
    expect(gameSocketUrl(SITE, "g12")).toBe(SITE);
    expect(gameSocketUrl(SITE, "nosuchgame")).toBe(SITE);
  });

  it("is the site's when the part before the dash is not a shard name", () => {
    for (const id of ["B-g12", "1b-g12", "-g12", "abcdefghijklmnopq-g1", "b_c-g1"]) {
      expect(shardOfGame(id), id).toBeNull();
      expect(gameSocketUrl(SITE, id), id).toBe(SITE);
    }
  });

  it("takes the shard as the server does: up to the first dash", () => {
    expect(shardOfGame("b-g12")).toBe("b");
    expect(shardOfGame("abcdefghijklmnop-g3")).toBe("abcdefghijklmnop");
    expect(shardOfGame("b-c-g1")).toBe("b");
  });

  it("follows the page's scheme and host", () => {
    expect(siteSocketUrl({ protocol: "https:", host: "play.example.org" })).toBe(SITE);
    expect(siteSocketUrl({ protocol: "http:", host: "127.0.0.1:8080" })).toBe("ws://127.0.0.1:8080/");
    expect(shardSocketUrl("ws://127.0.0.1:8080/", "a")).toBe("ws://127.0.0.1:8080/shard/a/");
  });
});

describe("a game id the site's shards rule out", () => {
  it("names a shard the proxy does not have", () => {
    expect(namesUnknownShard("zz-g1", ["a", "b"])).toBe(true);
    expect(namesUnknownShard("ab-g1", ["a", "b"])).toBe(true);
  });

  it("is not one of a shard in the list, even if that shard is down", () => {
    expect(namesUnknownShard("b-g12", ["a", "b"])).toBe(false);
    expect(namesUnknownShard("a-g1", ["a"])).toBe(false);
  });

  it("is never one without a shard name, which a server answers itself", () => {
    for (const id of ["g12", "nosuchgame", "B-g12", "-g1"]) expect(namesUnknownShard(id, ["a", "b"]), id).toBe(false);
  });

  it("is never one for a server alone, which has no list", () => {
    expect(namesUnknownShard("zz-g1", null)).toBe(false);
  });
});

describe("the proxy's shard list", () => {
  it("is read in order", () => {
    expect(shardListFromText('{"shards":["a","b","c9"]}')).toEqual(["a", "b", "c9"]);
  });

  it("is not used when it is not a list of distinct shard names", () => {
    const bad = [
      "<!doctype html><html></html>", // a server alone answers its page
      "",
      "null",
      '["a","b"]',
      '{"shards":[]}',
      '{"shards":"a"}',
      '{"shards":["a","B"]}',
      '{"shards":["a",1]}',
      '{"shards":["a","a"]}',
      '{"error":"no such shard"}',
    ];
    for (const text of bad) expect(shardListFromText(text), text).toBeNull();
  });

  it("is asked at /shards; a 404 or a failed request means the site alone", async () => {
    const asked: string[] = [];
    const answer = (status: number, body: string) => (path: string) => {
      asked.push(path);
      return Promise.resolve(new Response(body, { status }));
    };
    expect(await fetchShardList(answer(200, '{"shards":["a","b"]}'))).toEqual(["a", "b"]);
    expect(asked).toEqual(["/shards"]);
    expect(await fetchShardList(answer(404, '{"shards":["a","b"]}'))).toBeNull();
    expect(await fetchShardList(answer(200, "<!doctype html>"))).toBeNull();
    expect(await fetchShardList(() => Promise.reject(new TypeError("Failed to fetch")))).toBeNull();
  });
});

describe("lists merged across shards", () => {
  it("take one of each shard in turn, each shard's order kept", () => {
    expect(interleave([["a1", "a2", "a3"], ["b1"], [], ["c1", "c2"]])).toEqual(["a1", "b1", "c1", "a2", "c2", "a3"]);
    expect(interleave([])).toEqual([]);
    expect(interleave([["only"]])).toEqual(["only"]);
  });
});

describe("the visit's connections", () => {
  function visit(shards: readonly string[] | null) {
    const opened: string[] = [];
    let asked = 0;
    const conns = new Connections<string>(
      "ws://127.0.0.1:8080/",
      (url) => {
        opened.push(url);
        return `connection to ${url}`;
      },
      () => {
        asked += 1;
        return Promise.resolve(shards);
      },
    );
    return { conns, opened, asked: () => asked };
  }

  it("opens one connection per address, when first needed, shared after", () => {
    const { conns, opened } = visit(null);
    expect(opened).toEqual([]);
    expect(conns.forGame("b-g12")).toBe("connection to ws://127.0.0.1:8080/shard/b/");
    expect(conns.forGame("b-g7")).toBe("connection to ws://127.0.0.1:8080/shard/b/");
    expect(conns.forShard("b")).toBe("connection to ws://127.0.0.1:8080/shard/b/");
    expect(conns.forGame("g3")).toBe("connection to ws://127.0.0.1:8080/");
    expect(conns.site()).toBe("connection to ws://127.0.0.1:8080/");
    expect(opened).toEqual(["ws://127.0.0.1:8080/shard/b/", "ws://127.0.0.1:8080/"]);
  });

  it("asks for the shard list once a visit", async () => {
    const v = visit(["a", "b"]);
    expect(await v.conns.shards()).toEqual(["a", "b"]);
    expect(await v.conns.shards()).toEqual(["a", "b"]);
    expect(v.asked()).toBe(1);
  });

  it("asks again after no list, in case the proxy was unreachable", async () => {
    const v = visit(null);
    expect(await v.conns.shards()).toBeNull();
    expect(await v.conns.shards()).toBeNull();
    expect(v.asked()).toBe(2);
  });

  it("opens no connection for a game on a shard the site does not have", async () => {
    const v = visit(["a", "b"]);
    expect(await v.conns.forGameIfItsShardExists("zz-g1")).toBeNull();
    expect(v.opened).toEqual([]);
  });

  it("connects to a game's shard of the list, down or not, and to the site for an id without one", async () => {
    const v = visit(["a", "b"]);
    expect(await v.conns.forGameIfItsShardExists("b-g12")).toBe("connection to ws://127.0.0.1:8080/shard/b/");
    expect(await v.conns.forGameIfItsShardExists("nosuchgame")).toBe("connection to ws://127.0.0.1:8080/");
    expect(v.opened).toEqual(["ws://127.0.0.1:8080/shard/b/", "ws://127.0.0.1:8080/"]);
  });

  it("connects as before for a server alone, asking its shards only for an id that names one", async () => {
    const v = visit(null);
    expect(await v.conns.forGameIfItsShardExists("g3")).toBe("connection to ws://127.0.0.1:8080/");
    expect(v.asked()).toBe(0);
    expect(await v.conns.forGameIfItsShardExists("zz-g1")).toBe("connection to ws://127.0.0.1:8080/shard/zz/");
    expect(v.asked()).toBe(1);
  });
});
