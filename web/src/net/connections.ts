// The connections of a visit: one per server address, opened the first time a page needs it and
// kept for the rest of the visit, so that every page talking to the same server shares one
// Connection (its held seats, its reconnection). The site's own address serves the lobby's
// rule sets and creating games (behind a proxy, any instance answers); a game is reached at its
// shard's address (src/net/shards.ts), and so is it again after a reconnection, because each
// Connection retries its own address. A game whose id names a shard the site does not have gets
// no connection at all.
import type { Connection } from "./connection";
import { gameSocketUrl, namesUnknownShard, shardOfGame, shardSocketUrl } from "./shards";

export class Connections<C = Connection> {
  private readonly opened = new Map<string, C>();
  private shardList: Promise<readonly string[] | null> | null = null;

  constructor(
    private readonly siteUrl: string,
    private readonly connect: (url: string) => C,
    private readonly askShards: () => Promise<readonly string[] | null>,
  ) {}

  site(): C {
    return this.at(this.siteUrl);
  }

  forGame(gameId: string): C {
    return this.at(gameSocketUrl(this.siteUrl, gameId));
  }

  // The connection of the page of `gameId`, or null when the site's shards do not include the
  // shard its id names: no game can be there, and no connection is opened, since the proxy would
  // refuse it on every retry. A shard of the list that is down is connected to (and retried:
  // it will be back). The shard list is waited for only for an id that names a shard.
  async forGameIfItsShardExists(gameId: string): Promise<C | null> {
    if (shardOfGame(gameId) !== null && namesUnknownShard(gameId, await this.shards())) return null;
    return this.forGame(gameId);
  }

  forShard(name: string): C {
    return this.at(shardSocketUrl(this.siteUrl, name));
  }

  // The site's shards, or null for a server alone. A list is asked for once a visit; no list is
  // asked for again next time, in case the proxy was briefly unreachable.
  shards(): Promise<readonly string[] | null> {
    if (this.shardList === null) {
      const asked = this.askShards();
      this.shardList = asked;
      void asked.then((list) => {
        if (list === null && this.shardList === asked) this.shardList = null;
      });
    }
    return this.shardList;
  }

  private at(url: string): C {
    let c = this.opened.get(url);
    if (c === undefined) {
      c = this.connect(url);
      this.opened.set(url, c);
    }
    return c;
  }
}
