// The games this client can draw, by rule-set id. Adding a game is one module under
// src/games/<game>/ and one line here; nothing else of the client changes.
import type { RuleSetInfo } from "../gen/carcassonne/server/v2/server_pb";
import { castleModule } from "./castle";
import { cityModule } from "./city";
import type { GameModule } from "./module";
import { riverModule } from "./river";

const MODULES: ReadonlyMap<string, GameModule> = new Map<string, GameModule>([
  [cityModule.ruleSet, cityModule],
  [riverModule.ruleSet, riverModule],
  [castleModule.ruleSet, castleModule],
]);

export function moduleFor(ruleSet: string): GameModule | null {
  return MODULES.get(ruleSet) ?? null;
}

// A rule set the server hosts, and whether this client can draw its games.
export interface OfferedRuleSet {
  readonly info: RuleSetInfo;
  readonly available: boolean;
}

// The server's rule sets in its order, each marked available when a module draws it: the lobby
// offers only those, and lists the others as not playable here yet.
export function offeredRuleSets(
  hosted: readonly RuleSetInfo[],
  modules: (ruleSet: string) => GameModule | null = moduleFor,
): OfferedRuleSet[] {
  return hosted.map((info) => ({ info, available: modules(info.id) !== null }));
}
