// The browser host's token is replaced out of the URL and its history entry after load, kept for
// a reload of the same tab, and every other parameter (the panel window's key) stays.
import { describe, expect, it } from 'vitest';
import { takeBridgeToken, TOKEN_KEY } from '../../renderer/src/bridge/browser-transport';

function tab(url: string) {
  const current = new URL(url);
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  return {
    replaced,
    stored,
    place: {
      location: {
        get search() {
          return current.search;
        },
        get pathname() {
          return current.pathname;
        },
        get hash() {
          return current.hash;
        },
      },
      history: {
        state: null,
        replaceState: (_state: unknown, _unused: string, next?: string | URL | null) => {
          const target = new URL(String(next), current);
          current.search = target.search;
          current.pathname = target.pathname;
          current.hash = target.hash;
          replaced.push(current.href);
        },
      },
      storage: { getItem: (key: string) => stored.get(key) ?? null, setItem: (key: string, value: string) => void stored.set(key, value) },
    },
    href: () => current.href,
  };
}

describe('the bridge token', () => {
  it('is taken from the URL and replaced out of it, the window parameter kept', () => {
    const token = 'a'.repeat(64);
    const page = tab(`http://127.0.0.1:4000/?token=${token}&window=${'b'.repeat(32)}#x`);
    expect(takeBridgeToken(page.place)).toBe(token);
    expect(page.href()).toBe(`http://127.0.0.1:4000/?window=${'b'.repeat(32)}#x`);
    expect(page.replaced).toHaveLength(1);
    expect(page.href()).not.toContain(token);
    expect(page.stored.get(TOKEN_KEY)).toBe(token);
  });

  it('a reload of the same tab (no token in the URL) finds it again, and changes nothing', () => {
    const token = 'c'.repeat(64);
    const page = tab(`http://127.0.0.1:4000/?token=${token}`);
    takeBridgeToken(page.place);
    expect(page.href()).toBe('http://127.0.0.1:4000/');
    expect(takeBridgeToken(page.place)).toBe(token);
    expect(page.replaced).toHaveLength(1);
  });

  it('without a token anywhere it is empty (the host refuses the connection)', () => {
    expect(takeBridgeToken(tab('http://127.0.0.1:4000/').place)).toBe('');
  });
});
