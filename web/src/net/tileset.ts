// The tile set of each rule set, asked for once per visit (GetTileSet) and shared by every page.
// A failed request is forgotten, so the next page (or the next call after a reconnect) asks again.
import { catalogFromMessage, type TileCatalog } from "../tiles/catalog";
import type { Connection } from "./connection";

const cached = new Map<string, Promise<TileCatalog>>();

async function fetchCatalog(conn: Connection, ruleSet: string): Promise<TileCatalog> {
  const m = await conn.request({ case: "getTileSet", value: { ruleSet } });
  if (m.body.case !== "tileSet") throw new Error("the server sent no tile set");
  const c = catalogFromMessage(m.body.value);
  if (!c.ok) throw new Error(`the server's tile set is not usable: ${c.error}`);
  return c.value;
}

export function loadCatalog(conn: Connection, ruleSet: string): Promise<TileCatalog> {
  let p = cached.get(ruleSet);
  if (p === undefined) {
    p = fetchCatalog(conn, ruleSet);
    cached.set(ruleSet, p);
    p.catch(() => cached.delete(ruleSet));
  }
  return p;
}
