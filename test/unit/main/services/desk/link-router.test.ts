// Link routing: a market chosen in one window reaches the other windows of its colour, and only them.
import { describe, expect, it } from 'vitest';
import { followersOf, marketOnJoin, type LinkMember } from '../../../../../main/services/desk/link-router';

const member = (windowKey: string, linkGroup: LinkMember['linkGroup'], marketId: string | null = 'm1', turbo = false): LinkMember => ({ windowKey, linkGroup, marketId, turbo });

describe('followersOf', () => {
  const desk = [member('main', 'green'), member('ladder', 'green'), member('chart', 'blue'), member('tape', null), member('ticket', 'green', 'm2')];

  it('sends a choice to the rest of the group, never back to the chooser', () => {
    expect(followersOf(desk, 'main', { marketId: 'm3', turbo: false }).map((window) => window.windowKey)).toEqual(['ladder', 'ticket']);
  });

  it('leaves windows of another colour and unlinked windows on their own market', () => {
    const keys = followersOf(desk, 'ladder', { marketId: 'm3', turbo: false }).map((window) => window.windowKey);
    expect(keys).not.toContain('chart');
    expect(keys).not.toContain('tape');
  });

  it('routes nothing from an unlinked window or an unknown one', () => {
    expect(followersOf(desk, 'tape', { marketId: 'm3', turbo: false })).toEqual([]);
    expect(followersOf(desk, 'nobody', { marketId: 'm3', turbo: false })).toEqual([]);
  });

  it('skips windows already on the market, and tells the Turbo book apart from the canonical one', () => {
    expect(followersOf(desk, 'main', { marketId: 'm1', turbo: false }).map((window) => window.windowKey)).toEqual(['ticket']);
    expect(followersOf(desk, 'main', { marketId: 'm1', turbo: true }).map((window) => window.windowKey)).toEqual(['ladder', 'ticket']);
  });
});

describe('marketOnJoin', () => {
  it('gives a joining window the market its new group shows', () => {
    const desk = [member('main', 'green', 'm1'), member('chart', 'blue', 'm7', true), member('tape', null, 'm2')];
    expect(marketOnJoin(desk, 'tape', 'blue')).toEqual({ marketId: 'm7', turbo: true });
  });

  it('keeps its own market when it is the first in the group', () => {
    expect(marketOnJoin([member('main', 'green'), member('tape', null, 'm2')], 'tape', 'red')).toBeNull();
  });
});
