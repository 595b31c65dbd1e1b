// The order the engine keeps followers in: (player, x, y, feature), as PublicFollower compares.
import type { Follower } from "./model";

export function compareFollowers(a: Follower, b: Follower): number {
  return a.player - b.player || a.x - b.x || a.y - b.y || a.feature - b.feature;
}
