// The fair-draws check (src/match/fairness.ts) over whole recorded games: an honest proof of each
// game's draws passes; a proof, an order or a commitment changed afterwards fails, with the reason.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { fromBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";

import { cityModule } from "../src/games/city";
import type { GameModule } from "../src/games/module";
import { riverModule } from "../src/games/river";
import { ServerMessageSchema, type Replay } from "../src/gen/carcassonne/server/v2/server_pb";
import { checkFairDraws, drawsOfLog, formatDrawProof, parseDrawProof, sha256Hex, verdictWords, type FairnessInput } from "../src/match/fairness";

function loadReplay(name: string): Replay {
  const msg = fromBinary(ServerMessageSchema, readFileSync(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url))));
  if (msg.body.case !== "replay") throw new Error(`${name} holds ${msg.body.case}, not a replay`);
  return msg.body.value;
}

// Computed apart from the code under test.
function nodeSha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

const SALT = "00112233445566778899aabbccddeeff";

// An honest commitment to the game's draws: the order is the set-up tiles, then every tile drawn.
function honest(game: GameModule, replay: Replay, setUp: readonly number[]): FairnessInput {
  const draws = drawsOfLog(game, replay.steps);
  if (!draws.ok) throw new Error(draws.error);
  const proof = formatDrawProof({ ruleSet: game.ruleSet, ruleSetVersion: 1, seed: 8n, order: [...setUp, ...draws.value], salt: SALT });
  return { commitment: nodeSha256(proof), proof, ruleSet: game.ruleSet, ruleSetVersion: 1, draws: draws.value, laidAtSetUp: game.tilesLaidAtSetUp };
}

function serverSteps(game: GameModule, replay: Replay): number {
  return replay.steps.filter((d) => {
    const a = game.decodeAction(d.action);
    return a.ok && game.isServerAction(a.value);
  }).length;
}

describe("sha256Hex", () => {
  it("is SHA-256 in lowercase hex", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await sha256Hex("carc-draws é")).toBe(nodeSha256("carc-draws é"));
  });
});

describe("parseDrawProof", () => {
  it("reads the canonical text back", () => {
    const proof = { ruleSet: "the-city", ruleSetVersion: 2, seed: 18446744073709551615n, order: [4, 0, 17], salt: SALT };
    const text = formatDrawProof(proof);
    expect(text).toBe(`carc-draws 1\nrule-set the-city 2\nseed 18446744073709551615\norder 4 0 17\nsalt ${SALT}\n`);
    expect(parseDrawProof(text)).toEqual({ ok: true, value: proof });
  });

  it("refuses anything else", () => {
    const good = formatDrawProof({ ruleSet: "the-city", ruleSetVersion: 1, seed: 3n, order: [1, 2], salt: SALT });
    for (const bad of [
      good.replace("carc-draws 1", "carc-draws 2"),
      good.replace("order 1 2", "order 1  2"),
      good.replace("order 1 2", "order 1 -2"),
      good.replace("order 1 2", "order 01 2"),
      good.replace(SALT, SALT.toUpperCase()),
      good.replace("seed 3", "seed 18446744073709551616"),
      good.slice(0, -1),
      `${good}\n`,
    ]) {
      expect(parseDrawProof(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe("checkFairDraws over The City's recorded game", () => {
  const replay = loadReplay("game-seed8-2p.replay.bin");

  it("finds every draw of the log", () => {
    const draws = drawsOfLog(cityModule, replay.steps);
    expect(draws.ok && draws.value.length).toBe(serverSteps(cityModule, replay));
    expect(serverSteps(cityModule, replay)).toBeGreaterThan(10);
  });

  it("passes an honest proof", async () => {
    const input = honest(cityModule, replay, []);
    const verdict = await checkFairDraws(input);
    expect(verdict).toEqual({ fair: true, draws: input.draws.length });
    expect(verdictWords(verdict)).toBe(`Fair: ${input.draws.length} draws match the commitment`);
  });

  it("fails an order changed before the commitment was made", async () => {
    const input = honest(cityModule, replay, []);
    const order = [...input.draws];
    const third = order.findIndex((t, i) => i >= 2 && t !== order[1]);
    [order[1], order[third]] = [order[third] ?? 0, order[1] ?? 0];
    const proof = formatDrawProof({ ruleSet: "the-city", ruleSetVersion: 1, seed: 8n, order, salt: SALT });
    const verdict = await checkFairDraws({ ...input, proof, commitment: nodeSha256(proof) });
    expect(verdict.fair).toBe(false);
    expect(verdictWords(verdict)).toMatch(/^Not shown fair: draw 2 took tile \d+, where the committed order has tile \d+$/);
  });

  it("fails a proof changed after the commitment", async () => {
    const input = honest(cityModule, replay, []);
    const verdict = await checkFairDraws({ ...input, proof: input.proof.replace(SALT, "f".repeat(32)) });
    expect(verdict.fair).toBe(false);
    expect(verdict.fair ? "" : verdict.reason).toMatch(/does not hash to the commitment/);
  });

  it("fails a changed commitment", async () => {
    const input = honest(cityModule, replay, []);
    const flipped = (input.commitment[0] === "0" ? "1" : "0") + input.commitment.slice(1);
    expect((await checkFairDraws({ ...input, commitment: flipped })).fair).toBe(false);
    // The commitment's case does not matter: it is hex.
    expect((await checkFairDraws({ ...input, commitment: input.commitment.toUpperCase() })).fair).toBe(true);
  });

  it("fails a log with a draw the order does not have", async () => {
    const input = honest(cityModule, replay, []);
    const draws = [...input.draws];
    draws[draws.length - 1] = (draws[draws.length - 1] ?? 0) + 1000;
    const verdict = await checkFairDraws({ ...input, draws });
    expect(verdict.fair ? "" : verdict.reason).toBe(`draw ${draws.length} took tile ${draws[draws.length - 1]}, where the committed order has tile ${input.draws[draws.length - 1]}`);
    expect((await checkFairDraws({ ...input, draws: [...input.draws, 1] })).fair).toBe(false);
  });

  it("fails a proof of another rule set or version, a missing proof or commitment, a non-canonical proof", async () => {
    const input = honest(cityModule, replay, []);
    expect((await checkFairDraws({ ...input, ruleSet: "carcassonne" })).fair).toBe(false);
    expect((await checkFairDraws({ ...input, ruleSetVersion: 2 })).fair).toBe(false);
    expect((await checkFairDraws({ ...input, ruleSetVersion: 0 })).fair).toBe(true);
    expect(await checkFairDraws({ ...input, proof: "" })).toEqual({ fair: false, reason: "the server has not revealed the proof (it does so once the game is over)" });
    expect(await checkFairDraws({ ...input, commitment: "" })).toEqual({ fair: false, reason: "the game has no draw commitment" });
    const loose = input.proof.replace("seed 8", "seed 08");
    const verdict = await checkFairDraws({ ...input, proof: loose, commitment: nodeSha256(loose) });
    expect(verdict.fair ? "" : verdict.reason).toMatch(/^the proof cannot be read/);
  });
});

describe("checkFairDraws over the River's recorded game", () => {
  const replay = loadReplay("river-seed8-2p.replay.bin");

  it("starts the draws after the set-up tile", async () => {
    expect(riverModule.tilesLaidAtSetUp).toBe(1);
    const input = honest(riverModule, replay, [99]);
    expect(await checkFairDraws(input)).toEqual({ fair: true, draws: serverSteps(riverModule, replay) });
    // The same order without the set-up tile is off by one from the first draw on.
    const shifted = formatDrawProof({ ruleSet: "carcassonne", ruleSetVersion: 1, seed: 8n, order: [...input.draws, 99], salt: SALT });
    expect((await checkFairDraws({ ...input, proof: shifted, commitment: nodeSha256(shifted) })).fair).toBe(false);
  });
});
