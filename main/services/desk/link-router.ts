// Link groups: a market chosen in one window is the market of every window of its group. Pure, so
// the routing rules are tested without windows: the chooser is not told its own choice, windows
// in no group (or in another) keep their market, and a window already on the market is left alone.
import type { LinkGroup } from '../../../shared/ipc/views/desk';

export interface LinkMember {
  readonly windowKey: string;
  readonly linkGroup: LinkGroup | null;
  readonly marketId: string | null;
  readonly turbo: boolean;
}

export interface MarketChoice {
  readonly marketId: string;
  readonly turbo: boolean;
}

/** The windows that follow a choice made in `fromKey`. */
export function followersOf(members: readonly LinkMember[], fromKey: string, choice: MarketChoice): LinkMember[] {
  const from = members.find((member) => member.windowKey === fromKey);
  if (!from || from.linkGroup === null) return [];
  return members.filter(
    (member) =>
      member.windowKey !== fromKey &&
      member.linkGroup === from.linkGroup &&
      (member.marketId !== choice.marketId || member.turbo !== choice.turbo),
  );
}

/**
 * The market a window takes when it joins a group: the group's market if the group has one (the
 * window catches up with the others), else its own.
 */
export function marketOnJoin(members: readonly LinkMember[], joining: string, group: LinkGroup): MarketChoice | null {
  const other = members.find((member) => member.windowKey !== joining && member.linkGroup === group && member.marketId !== null);
  return other?.marketId ? { marketId: other.marketId, turbo: other.turbo } : null;
}
