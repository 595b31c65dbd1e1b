// Where a game's server is, when the site runs several shards behind one proxy
// (docs/operations.md, "Shards"). The proxy answers GET /shards with {"shards":["a","b"]} and
// passes /shard/NAME/ to shard NAME's instance; every other path goes to any instance. A game id
// names its shard ("b-g12" is game 12 of shard "b"); an id without one ("g12") is a server
// alone's, reached at the site's root. A server alone answers no shard list: then the site's root
// is the only server. Pure functions, apart from fetchShardList's one request.

// The server's rule for a shard name: a lowercase letter, then at most 15 letters or digits.
const SHARD_NAME = /^[a-z][a-z0-9]{0,15}$/;

export function isShardName(text: string): boolean {
  return SHARD_NAME.test(text);
}

// The shard a game id names ("b" for "b-g12"), or null for an id without one. As the server
// reads ids: the part before the first dash, when it is a shard name.
export function shardOfGame(gameId: string): string | null {
  const dash = gameId.indexOf("-");
  if (dash < 0) return null;
  const name = gameId.slice(0, dash);
  return isShardName(name) ? name : null;
}

// Whether the site's shards rule `gameId` out: behind the proxy, an id naming a shard the proxy
// does not have is no game, and the proxy refuses its WebSocket (404) instead of a server saying
// so. False for a server alone (no list) and for an id without a shard, which a server answers.
export function namesUnknownShard(gameId: string, shards: readonly string[] | null): boolean {
  const shard = shardOfGame(gameId);
  return shards !== null && shard !== null && !shards.includes(shard);
}

// The site's own WebSocket address, "ws://host/" or "wss://host/" after the page's scheme.
export function siteSocketUrl(where: { readonly protocol: string; readonly host: string }): string {
  const scheme = where.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${where.host}/`;
}

// Shard `name`'s WebSocket behind the proxy at `site` (a site address ending in "/").
export function shardSocketUrl(site: string, name: string): string {
  return `${site}shard/${name}/`;
}

// The WebSocket that serves `gameId`: its shard's, or the site's for an id without a shard.
export function gameSocketUrl(site: string, gameId: string): string {
  const shard = shardOfGame(gameId);
  return shard === null ? site : shardSocketUrl(site, shard);
}

// The proxy's answer to GET /shards, read: its shard names in order, or null when it is not a
// shard list (a server alone answers its page, or nothing): the site's root is then the only
// server. A list with a name that is not a shard name, a name twice, or no name is not used.
export function shardListFromText(text: string): readonly string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || !("shards" in parsed)) return null;
  const shards: unknown = parsed.shards;
  if (!Array.isArray(shards) || shards.length === 0) return null;
  const names: string[] = [];
  for (const name of shards) {
    if (typeof name !== "string" || !isShardName(name) || names.includes(name)) return null;
    names.push(name);
  }
  return names;
}

// Asks the site for its shards; null when it has none to tell (404, not a list, no answer).
export async function fetchShardList(fetcher: (path: string) => Promise<Response>, path = "/shards"): Promise<readonly string[] | null> {
  try {
    const res = await fetcher(path);
    if (!res.ok) return null;
    return shardListFromText(await res.text());
  } catch {
    return null;
  }
}

// Lists from several shards as one: the first of each, then the second of each, and so on, so
// that each shard's own order (the most recent first, for finished games) is kept and no shard's
// games all come after another's.
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const merged: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) {
    for (const list of lists) {
      const item = list[i];
      if (item !== undefined) merged.push(item);
    }
  }
  return merged;
}
