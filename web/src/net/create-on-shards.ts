// Creating a game behind a proxy of shards (docs/operations.md, "Shards"). The site's connection
// reaches whichever shard the proxy handed it to, and that shard may be full (its --max-games:
// ERROR_CODE_SERVER_FULL) while the others have room. A CreateGame it refuses so is sent to each
// other shard in turn, at /shard/NAME/, until one creates the game; only when every shard that
// answers is full is the refusal the player's to see. A server alone (no shard list) answers once.
import { ErrorCode, type ServerMessage } from "../gen/carcassonne/server/v2/server_pb";

// Sends the CreateGame to shard `shard` (null: through the site, where the proxy chooses) and
// gives the reply, or null when none came: a shard that does not answer is passed over.
export type SendCreate = (shard: string | null) => Promise<ServerMessage | null>;

export function isServerFull(m: ServerMessage | null): boolean {
  return m?.body.case === "error" && m.body.value.code === ErrorCode.SERVER_FULL;
}

// The shards to try after shard `refused` said it is full: every other one, from the one after it
// in the list round to the one before, so that the creates one full shard refuses spread over the
// others. Every shard when `refused` is not in the list (null: the server did not say its name).
export function shardsToTryAfter(shards: readonly string[], refused: string | null): string[] {
  const at = refused === null ? -1 : shards.indexOf(refused);
  if (at < 0) return [...shards];
  return [...shards.slice(at + 1), ...shards.slice(0, at)];
}

// The CreateGame sent through the site, then, while the answer is SERVER_FULL, to the other
// shards of `shards` (null: a server alone). `refusedBy` names the shard the site's connection
// reached (its Welcome.shard), asked once the site has refused. The reply that ends it: a game
// created, another refusal (one every shard would give: bad options, a bad clock), the last
// SERVER_FULL when every shard that answered is full, or null when nothing answered at all.
export async function createWhereThereIsRoom(
  send: SendCreate,
  shards: readonly string[] | null,
  refusedBy: () => string | null,
): Promise<ServerMessage | null> {
  let reply = await send(null);
  if (!isServerFull(reply) || shards === null) return reply;
  for (const shard of shardsToTryAfter(shards, refusedBy())) {
    const answer = await send(shard);
    if (answer === null) continue;
    reply = answer;
    if (!isServerFull(reply)) return reply;
  }
  return reply;
}
