// What a lie left behind in what the terminal serves its windows: a hostile character in a text
// (controls, bidi and zero-width characters: shared/text/deceptive-characters), an absurd amount.
// Each returns the path and the value of the first finding, or null.
import { DECEPTIVE_CHARACTER } from '../../../shared/text/deceptive-characters';

/** Larger than any u64: no amount of a ledger of u64 balances reaches it. */
const ABSURD = 10n ** 39n;

function walk(value: unknown, path: string, found: (value: unknown, path: string) => boolean): string | null {
  if (found(value, path)) return `${path}: ${JSON.stringify(value, (_key, member: unknown) => (typeof member === 'bigint' ? member.toString() : member))}`;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const hit = walk(item, `${path}[${index}]`, found);
      if (hit !== null) return hit;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      const hit = walk(member, `${path}.${key}`, found);
      if (hit !== null) return hit;
    }
  }
  return null;
}

export function hostileCharacterIn(value: unknown): string | null {
  return walk(value, '$', (item) => typeof item === 'string' && DECEPTIVE_CHARACTER.test(item));
}

export function absurdNumberIn(value: unknown): string | null {
  return walk(value, '$', (item) => {
    if (typeof item === 'bigint') return item < 0n || item >= ABSURD;
    if (typeof item === 'string') return /^-\d+$/.test(item) || /^\d{40,}$/.test(item);
    return false;
  });
}
