// Records the test fixtures from a running carc-server: the binary ServerMessage (protocol 2)
// that answers GetReplay for a whole 2-player game, and the one that answers GetTileSet for its
// rule set. By default the game is The City with seed 8 (test/fixtures/game-seed8-2p.replay.bin
// and test/fixtures/tileset.bin):
//
//   node scripts/record-replay.mjs [options] [ws://127.0.0.1:18600/] [out-file]
//
//   --rule-set ID      the game's rule set (the-city)
//   --option NAME=N    one of its options, e.g. river=1 (repeatable)
//   --seed N           the game's seed (8)
//   --choose random|first
//                      how the seats choose (random): as `carc selfplay` does, or always the
//                      first legal action (docs/protocol-carcassonne.md's test vectors)
//   --tileset FILE     where the tile set goes (tileset.bin beside the replay)
//
// The game is created with its seed, so the server must allow chosen seeds: start it with
// `carc-server --port 18600 --allow-chosen-seeds` (any other refuses the game with
// ERROR_CODE_SEED_NOT_ALLOWED).
//
// Two connections take the two seats; the game starts by itself once both are taken. With
// `--choose random` the seats choose exactly as `carc selfplay --seed 8 --players 2` does (the
// engine's uniform random player, engine/city/random_play.h): one SplitMix64 generator for the
// whole game, seeded with Mix64(seed ^ 0x5EEDC17E), drawn once for each of the server's draws and
// Below(n) for each decision among the n legal actions the server sends, which come in the
// engine's order. So the recorded game of The City is the one docs/protocol-city.md section 6 follows,
// and its hashes are that section's test vectors.
//
// This is a development tool (plain JavaScript, run by node): it loads the protocol from
// ../proto through protoc's descriptor output rather than from the generated TypeScript.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

import { create, createFileRegistry, fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import WebSocket from "ws";

const SEATS = 2;
const here = dirname(fileURLToPath(import.meta.url));

// Each rule set's own package: the envelope carries its events as bytes of it.
const PACKAGES = {
  "the-city": { proto: "carcassonne/city/v1/city.proto", event: "carcassonne.city.v1.Event" },
  carcassonne: { proto: "carcassonne/river/v1/river.proto", event: "carcassonne.river.v1.Event" },
  "the-castle": { proto: "carcassonne/castle/v1/castle.proto", event: "carcassonne.castle.v1.Event" },
};

function parseArgs(argv) {
  const args = { ruleSet: "the-city", options: {}, seed: 8n, choose: "random", tileset: null, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fatal(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--rule-set") args.ruleSet = value();
    else if (a === "--seed") args.seed = BigInt(value());
    else if (a === "--choose") args.choose = value();
    else if (a === "--tileset") args.tileset = value();
    else if (a === "--option") {
      const [name, n] = value().split("=");
      if (name === undefined || n === undefined || !/^-?\d+$/.test(n)) fatal(`--option wants NAME=N, not ${argv[i]}`);
      args.options[name] = Number(n);
    } else if (a.startsWith("--")) fatal(`unknown option ${a}`);
    else args.positional.push(a);
  }
  if (PACKAGES[args.ruleSet] === undefined) fatal(`no package known for rule set ${args.ruleSet}`);
  if (args.choose !== "random" && args.choose !== "first") fatal(`--choose random or first, not ${args.choose}`);
  return args;
}

const args = parseArgs(process.argv.slice(2));
const SEED = args.seed;
const url = args.positional[0] ?? "ws://127.0.0.1:18600/";
const outFile = args.positional[1] ?? join(here, "../test/fixtures/game-seed8-2p.replay.bin");
const tilesFile = args.tileset ?? join(dirname(outFile), "tileset.bin");

function loadProtocol() {
  const dir = mkdtempSync(join(tmpdir(), "carc-proto-"));
  const out = join(dir, "protocol.pb");
  try {
    execFileSync("protoc", [
      `--descriptor_set_out=${out}`,
      "--include_imports",
      "-I",
      join(here, "../../proto"),
      "carcassonne/server/v2/server.proto",
      PACKAGES[args.ruleSet].proto,
    ]);
    const set = fromBinary(FileDescriptorSetSchema, readFileSync(out));
    const registry = createFileRegistry(set);
    const message = (name) => registry.getMessage(`carcassonne.server.v2.${name}`);
    return {
      client: message("ClientMessage"),
      server: message("ServerMessage"),
      // The envelope carries the game's events as bytes of its own package.
      event: registry.getMessage(PACKAGES[args.ruleSet].event),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const proto = loadProtocol();
const MASK = (1n << 64n) - 1n;
// The server allows 20 messages a second per connection (docs/server.md); stay well below it.
const SEND_GAP_MS = 60;

function mix64(input) {
  let z = (input + 0x9e3779b97f4a7c15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
  return z ^ (z >> 31n);
}

// core::Random (engine/core/hash.h): SplitMix64 with rejection sampling for Below.
class Random {
  constructor(seed) {
    this.state = seed & MASK;
  }
  next() {
    // Mix64 adds the increment itself, so mixing the old state gives Next()'s output.
    const old = this.state;
    this.state = (old + 0x9e3779b97f4a7c15n) & MASK;
    return mix64(old);
  }
  below(bound) {
    const b = BigInt(bound);
    const threshold = ((1n << 64n) - b) % b;
    for (;;) {
      const r = this.next();
      if (r >= threshold) return Number(r % b);
    }
  }
}

// A WebSocket with request/reply matching and a queue of the messages the server sent by itself.
class Connection {
  constructor(name) {
    this.name = name;
    this.nextId = 1n;
    this.waiters = new Map();
    this.onPush = () => {};
    this.lastSend = 0;
  }
  open() {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(url);
      this.ws.binaryType = "nodebuffer";
      this.ws.on("open", resolve);
      this.ws.on("error", reject);
      this.ws.on("message", (data) => this.receive(data));
    });
  }
  receive(data) {
    const msg = fromBinary(proto.server, data);
    if (msg.body.case === "error")
      fatal(`${this.name}: error ${msg.body.value.code}: ${msg.body.value.reason} ${msg.body.value.ruleError}`);
    const waiter = this.waiters.get(msg.requestId);
    if (waiter !== undefined) {
      this.waiters.delete(msg.requestId);
      waiter({ msg, bytes: data });
    }
    // Replies that are also state updates (the mover's Delta) go to the game loop as well.
    if (msg.body.case === "delta" || msg.body.case === "snapshot") this.onPush(msg.body.value);
  }
  request(body) {
    const requestId = this.nextId++;
    const msg = create(proto.client, { requestId, body });
    const wait = Math.max(0, this.lastSend + SEND_GAP_MS - Date.now());
    this.lastSend = Date.now() + wait;
    return new Promise((resolve) => {
      this.waiters.set(requestId, resolve);
      setTimeout(() => this.ws.send(toBinary(proto.client, msg)), wait);
    });
  }
  close() {
    this.ws.close();
  }
}

function fatal(why) {
  console.error(`record-replay: ${why}`);
  process.exit(1);
}

// Chooses for every seat in sequence order, as RandomStep does with the engine's own generator.
class Player {
  constructor(seats) {
    this.seats = seats; // [{conn, token}]
    this.random = new Random(mix64(SEED ^ 0x5eedc17en));
    this.accounted = 0n; // steps whose generator draws are done
    this.done = null;
    this.finished = new Promise((resolve) => (this.done = resolve));
  }
  onUpdate(seat, update) {
    const over = update.events?.some((e) => fromBinary(proto.event, e).kind.case === "gameOver");
    if (over) this.done(update.sequence);
    if (update.legalActions.length === 0) return;
    // Legal actions are the game's Actions as bytes: one is sent back unchanged.
    let action = update.legalActions[0];
    if (args.choose === "random") {
      // Every step since the last choice was a server draw: RandomStep drew Below(1) for each.
      for (; this.accounted < update.sequence; ++this.accounted) this.random.next();
      action = update.legalActions[this.random.below(update.legalActions.length)];
      this.accounted = update.sequence + 1n;
    }
    const { conn, token } = this.seats[seat];
    conn.request({
      case: "move",
      value: { gameId: this.gameId, seatToken: token, sequence: update.sequence, action },
    });
  }
}

async function main() {
  const conns = [new Connection("seat 0"), new Connection("seat 1")];
  for (const c of conns) {
    await c.open();
    await c.request({ case: "hello", value: { protocolVersion: 2, client: "record-replay" } });
  }
  const created = await conns[0].request({
    case: "createGame",
    value: { ruleSet: args.ruleSet, seats: SEATS, seed: SEED, name: `fixture seed ${SEED}`, options: args.options },
  });
  const gameId = created.msg.body.value.game.gameId;
  const player = new Player([]);
  player.gameId = gameId;
  conns.forEach((c, seat) => (c.onPush = (update) => player.onUpdate(seat, update)));
  for (const [seat, c] of conns.entries()) {
    const joined = await c.request({
      case: "joinSeat",
      value: { gameId, seat, playerName: `seat ${seat}` },
    });
    player.seats[seat] = { conn: c, token: joined.msg.body.value.seatToken };
  }
  const last = await player.finished;
  const replay = await conns[0].request({ case: "getReplay", value: { gameId } });
  const steps = replay.msg.body.value.steps.length;
  if (BigInt(steps) !== last) fatal(`the replay has ${steps} steps, the game ended at ${last}`);
  writeFileSync(outFile, replay.bytes);
  console.log(`recorded ${gameId}: ${steps} steps, ${replay.bytes.length} bytes -> ${outFile}`);
  // The tile set the game was played with, for the tests of the tile drawing.
  const tiles = await conns[0].request({ case: "getTileSet", value: { ruleSet: args.ruleSet } });
  writeFileSync(tilesFile, tiles.bytes);
  console.log(`recorded the tile set: ${tiles.bytes.length} bytes -> ${tilesFile}`);
  conns.forEach((c) => c.close());
}

main().catch((e) => fatal(e?.stack ?? String(e)));
