// The server's tile set, asked for once per visit (GetTileSet) and shared by every page. A failed
// request is forgotten, so the next page (or the next call after a reconnect) asks again.
import { catalogFromMessage, type TileCatalog } from "../tiles/catalog";
import type { Connection } from "./connection";

let cached: Promise<TileCatalog> | null = null;

async function fetchCatalog(conn: Connection): Promise<TileCatalog> {
  const m = await conn.request({ case: "getTileSet", value: {} });
  if (m.body.case !== "tileSet") throw new Error("the server sent no tile set");
  const c = catalogFromMessage(m.body.value);
  if (!c.ok) throw new Error(`the server's tile set is not usable: ${c.error}`);
  return c.value;
}

export function loadCatalog(conn: Connection): Promise<TileCatalog> {
  if (cached === null) {
    cached = fetchCatalog(conn);
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
