// The sources behind "reading at a glance", read as text where the renderer project
// (no DOM, no node types) cannot: table figures sit in right-aligned tabular-digit cells, and no
// header, table or notice names a market or an asset by a shortened hex id. The formatting itself
// is tested in test/renderer/reading-at-a-glance.test.ts; the real layout in test/e2e/notices.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

describe('renderer sources', () => {
  it('no header, table or notice source builds a market or asset label from a shortened hex id', () => {
    const files = [
      'renderer/src/features/markets/market-label.ts',
      'renderer/src/features/balances/Balances.tsx',
      'renderer/src/features/orders/OpenOrders.tsx',
      'renderer/src/features/trading/trading-actions.ts',
    ];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text, file).not.toMatch(/shortId\((?:order\.|book\.)?marketId|shortId\(balance\.assetId|shortId\(market\.(?:base|quote)\.asset/);
    }
  });

  it('the tables render figures right-aligned in tabular digits (the .num cells), one per column', () => {
    const css = readFileSync(join(ROOT, 'renderer/src/styles.css'), 'utf8');
    const rule = (selector: string) => new RegExp(`(^|\\n|,\\s*)${selector.replace('.', '\\.')}\\s*(,[^{]*)?\\{([^}]*)\\}`, 'g');
    const declarations = [...css.matchAll(rule('.num'))].map((match) => match[3]).join(';');
    expect(declarations).toMatch(/text-align:\s*right/);
    expect(declarations).toMatch(/font-variant-numeric:\s*tabular-nums/);
    for (const file of ['renderer/src/features/orders/OpenOrders.tsx', 'renderer/src/features/orders/OrderHistory.tsx', 'renderer/src/features/balances/Balances.tsx', 'renderer/src/features/tape/Tape.tsx']) {
      const source = readFileSync(join(ROOT, file), 'utf8');
      const cells = [...source.matchAll(/<td([^>]*)data-column=/g)];
      expect(cells.length, file).toBeGreaterThan(1);
      for (const cell of cells) expect(cell[1], file).toContain('class="num"');
    }
  });
});
