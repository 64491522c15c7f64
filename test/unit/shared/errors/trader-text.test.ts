// Every revert reason the exchange can answer has a trader sentence: the reasons the spec and the
// wire notes name, every reason the sandbox (the reference exchange) can revert with (read from its
// source, so a new reason there fails this test until it has a sentence) and the list in
// docs/sandbox.md. Unknown reasons and codes still read as sentences, with the raw text kept.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFailure, REVERT_SENTENCES, revertSentence, type RefusalContext } from '../../../../shared/errors/trader-text';

const ROOT = join(import.meta.dirname, '../../../..');

/** Named in exchange-api.md 7 / 5 (TraderNotWhiteListed), margin-api.md 7 (MarketNotFound), wire notes (the rest). */
const SPEC_REASONS = ['TraderNotWhiteListed', 'MarketNotFound', 'PricePrecision', 'FractionalPrice', 'QuantityMustBeParentOrder'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function sandboxReasons(): Set<string> {
  const reasons = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'sandbox'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/revert\(\s*'([A-Za-z]+)'/g)) reasons.add(match[1]!);
    for (const match of text.matchAll(/kind: 'revert', reason: '([A-Za-z]+)'/g)) reasons.add(match[1]!);
    // The tables that turn a shared validation code into a reason (REASONS, LEG_REASONS).
    for (const table of text.matchAll(/REASONS: Readonly<Record<string, string>> = \{([^}]*)\}/g)) {
      for (const match of table[1]!.matchAll(/: '([A-Za-z]+)'/g)) reasons.add(match[1]!);
    }
  }
  return reasons;
}

function documentedReasons(): Set<string> {
  const doc = readFileSync(join(ROOT, 'docs/sandbox.md'), 'utf8');
  const section = /\*\*Revert reasons\*\*:([\s\S]*?)\n- \*\*/.exec(doc)?.[1] ?? '';
  return new Set([...section.matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1]!));
}

const ETH_USDC: RefusalContext = {
  pair: 'ETH/USDC',
  base: { symbol: 'ETH', decimals: 9 },
  quote: { symbol: 'USDC', decimals: 6, shown: 2 },
  side: 'Buy',
  price: 2_900_000_000n,
  quantity: 1_000_000_000n,
  minOrder: 1_000_000n,
  dust: 1_000n,
  priceWindow: 20,
};

describe('revert reasons as trader sentences', () => {
  const scanned = sandboxReasons();
  const documented = documentedReasons();

  it('finds the reasons to check (the scans are not empty)', () => {
    expect(scanned.size).toBeGreaterThan(40);
    expect(scanned).toContain('PostOnlyWouldTake');
    expect(scanned).toContain('OrderBelowMinimum');
    expect(documented.size).toBeGreaterThan(15);
  });

  it.each([...new Set([...SPEC_REASONS, ...scanned, ...documented])].sort())('%s has a sentence of its own', (reason) => {
    expect(Object.hasOwn(REVERT_SENTENCES, reason), `no sentence for ${reason}`).toBe(true);
    for (const context of [{}, ETH_USDC]) {
      const sentence = revertSentence(reason, context);
      expect(sentence).toMatch(/^[A-Z"].*[.!]$/);
      expect(sentence).not.toMatch(/undefined|null|NaN|0x[0-9a-f]/i);
      // Written for a trader: not the reason's own identifier.
      expect(sentence).not.toContain(reason);
    }
  });

  it('says what is missing, with the amounts in the asset decimals and thousands separators', () => {
    const needs = { amount: 2_900_000_000n, symbol: 'USDC', decimals: 6, available: 98_350_000n };
    expect(revertSentence('InsufficientBalance', { ...ETH_USDC, needs })).toBe('Not enough USDC: the order needs 2,900 USDC, you have 98.35 USDC.');
    expect(revertSentence('PriceOutsideWindow', ETH_USDC)).toContain('The price 2,900.00 USDC is more than 20% away from ETH/USDC');
    expect(revertSentence('OrderBelowMinimum', ETH_USDC)).toContain('minimum of 1 USDC');
  });

  it('falls back to a sentence naming the unknown reason in words, and says nothing changed', () => {
    expect(revertSentence('SomethingNewHappened')).toBe('The exchange refused the transaction (something new happened): nothing was changed. See the details.');
    expect(revertSentence('')).toContain('no reason given');
    // Not confused by names of Object.prototype.
    expect(revertSentence('constructor')).toContain('(constructor)');
  });
});

describe('failures as trader sentences with the raw text behind', () => {
  it('turns an ONCHAIN_REVERT into its reason sentence and keeps the exchange text and reason as details', () => {
    const text = describeFailure(
      { code: 'ONCHAIN_REVERT', message: 'POST /v1/session/actions: the transaction reverted on chain (PostOnlyWouldTake): Transaction 0xab reverted', details: { reason: 'PostOnlyWouldTake', nonceConsumed: true, receipts: null } },
      ETH_USDC,
    );
    expect(text.sentence).toBe('Post-only order not placed: at 2,900.00 USDC it would have traded at once against the best offer. Nothing traded.');
    expect(text.details).toContain('ONCHAIN_REVERT: POST /v1/session/actions: the transaction reverted on chain (PostOnlyWouldTake)');
    expect(text.details).toContain('reason: PostOnlyWouldTake');
    expect(text.details).not.toContain('receipts');
  });

  it('maps a pre-flight refusal by the exchange error name, a transport code by the code, and keeps main sentences as they are', () => {
    expect(describeFailure({ code: 'PREFLIGHT_REFUSED', message: 'refused (code 2004 MarketPaused)', details: { exchangeName: 'MarketPaused', exchangeCode: 2004 } }, ETH_USDC).sentence).toBe(
      'ETH/USDC is paused: the exchange takes no new orders there until it resumes.',
    );
    expect(describeFailure({ code: 'RATE_LIMITED', message: 'HTTP 429' }).sentence).toMatch(/^The exchange's rate limit refused it/);
    expect(describeFailure({ code: 'MIN_ORDER', message: 'The order value 0.5 USDC is below the minimum 1 USDC.' })).toEqual({
      sentence: 'The order value 0.5 USDC is below the minimum 1 USDC.',
      details: 'MIN_ORDER: The order value 0.5 USDC is below the minimum 1 USDC.',
    });
  });
});
