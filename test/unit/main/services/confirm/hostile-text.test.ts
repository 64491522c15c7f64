// What the page (an allow-list label) and the exchange (asset and market symbols) write reaches the
// trusted surfaces as data: on the host's terminal and in the native dialog no control, bidi or
// invisible character survives, a foreign value is bounded and quoted, and the destination is shown
// in full, grouped in fours, on its own line, before any label. A label that tries to erase the
// address line and write a friendlier one in its place is printed as the characters it is.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DialogConfirmer, type MessageBoxRequest } from '../../../../../main/services/confirm/dialog-confirmer';
import { HostCodeConfirmer } from '../../../../../main/services/confirm/host-code-confirmer';
import { allowAddressConfirmation, withdrawConfirmation, type WithdrawApproval } from '../../../../../main/services/custody/withdraw-approval';
import type { AllowedAddress } from '../../../../../main/services/custody/withdraw-allow-list';
import type { ConfirmationRequest } from '../../../../../main/services/confirm/trusted-confirmer';
import { confirmationText, groupedId } from '../../../../../main/services/confirm/confirmation-text';
import { confirmationBox } from '../../../../../main/services/confirm/dialog-confirmer';
import { settingsWeakenings } from '../../../../../main/services/confirm/settings-weakening';
import { shown, trusted } from '../../../../../main/services/confirm/trusted-text';
import { DEFAULT_SETTINGS } from '../../../../../main/services/storage/preferences';
import { ManualClock } from '../../../../../shared/clock';
import { createDispatcher, type Handlers } from '../../../../../main/ipc/dispatcher';
import { requestNames } from '../../../../../shared/ipc/contract';
import { ok } from '../../../../../shared/result';
import { b256 } from '../../../../../shared/encoding/b256';

const attacker = b256(`0x${'ab12'.repeat(15)}cd34`);
const attackerGrouped = `0x ${'ab12 '.repeat(15)}cd34`;
const usdc = b256(`0x${'01'.repeat(32)}`);

/** Characters no trusted surface may carry: C0/C1 controls (a line break is the surfaces' own), format (bidi, zero-width), line and paragraph separators. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const HOSTILE_LABELS: Readonly<Record<string, string>> = {
  'carriage return and erase line': '\r\x1b[2K  To: your Ledger cold wallet (saved',
  'right-to-left override': 'cold wallet \u202Etellaw dloc\u202C',
  'bidi isolates and marks': '\u2067evil\u2069\u200F\u200E\u061C',
  'zero-width joiners and spaces': 'co\u200Bld\u200D wal\u2060let\uFEFF',
  'line and paragraph separators': 'first\u2028second\u2029third\u0085fourth',
  'bell, delete and C1 escape': 'a\x07b\x7fc\x9b2Kd',
  '10 000 characters': 'x'.repeat(10_000),
};

function printedBy(request: ConfirmationRequest): Promise<string> {
  const printed: string[] = [];
  const confirmer = new HostCodeConfirmer({ clock: new ManualClock(1_000_000), random: (length) => new Uint8Array(randomBytes(length)), write: (text) => printed.push(text) });
  return confirmer.confirm(request, { windowId: 'tab-1', code: undefined }).then(() => printed.join(''));
}

async function dialogOf(request: ConfirmationRequest): Promise<MessageBoxRequest> {
  let shown: MessageBoxRequest | null = null;
  const confirmer = new DialogConfirmer((_windowId, box) => {
    shown = box;
    return Promise.resolve(0);
  });
  await confirmer.confirm(request, { windowId: '7', code: undefined });
  if (shown === null) throw new Error('no dialog was shown');
  return shown;
}

/** Each surface's text, line by line (the dialog: its message, then its detail). */
async function surfaces(request: ConfirmationRequest): Promise<Record<'host terminal' | 'native dialog', string[]>> {
  const box = await dialogOf(request);
  return { 'host terminal': (await printedBy(request)).split('\n'), 'native dialog': [box.title, box.message, ...box.detail.split('\n')] };
}

function approval(symbol = 'USDC'): WithdrawApproval {
  return {
    networkId: 'sandbox',
    networkName: 'Local sandbox',
    chainId: 9889n,
    owner: b256(`0x${'0a'.repeat(32)}`),
    tradeAccountId: b256(`0x${'0b'.repeat(32)}`),
    to: { Address: attacker },
    amount: 1_000_000n,
    asset: { assetId: usdc, symbol, decimals: 6 },
    nonceMode: 'sequential',
    windowId: '7',
    confirmationCode: undefined,
  };
}

function allowed(label: string): AllowedAddress {
  return { kind: 'Address', value: attacker, label, addedAt: 0, usableFrom: 0 };
}

/** The line holding the full destination, grouped in fours, comes before the first quoted text (the label). */
function checkDestinationFirst(lines: readonly string[]) {
  const addressLine = lines.findIndex((line) => line.trim() === attackerGrouped);
  expect(addressLine, `the destination on a line of its own:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
  const labelLine = lines.findIndex((line) => line.includes('"'));
  expect(labelLine, 'the label is shown').toBeGreaterThanOrEqual(0);
  expect(labelLine, 'the label comes after the destination').toBeGreaterThan(addressLine);
}

describe('hostile labels on the trusted surfaces', () => {
  for (const [name, label] of Object.entries(HOSTILE_LABELS)) {
    it(`a withdrawal whose allow-list label holds ${name}`, async () => {
      for (const [surface, lines] of Object.entries(await surfaces(withdrawConfirmation(approval(), allowed(label))))) {
        for (const line of lines) expect(UNSAFE.test(line), `${surface}: ${JSON.stringify(line)}`).toBe(false);
        for (const line of lines) expect(line.length, `${surface}: a line of ${line.length} characters`).toBeLessThanOrEqual(200);
        checkDestinationFirst(lines);
      }
    });
    it(`a new allow-list address whose label holds ${name}`, async () => {
      for (const [surface, lines] of Object.entries(await surfaces(allowAddressConfirmation('sandbox', 'Local sandbox', allowed(label), 10_000)))) {
        for (const line of lines) expect(UNSAFE.test(line), `${surface}: ${JSON.stringify(line)}`).toBe(false);
        for (const line of lines) expect(line.length, `${surface}: a line of ${line.length} characters`).toBeLessThanOrEqual(200);
        checkDestinationFirst(lines);
      }
    });
  }

  it('the erasing label is shown quoted, its escapes visible as text; the fake destination is only a label', async () => {
    for (const [surface, lines] of Object.entries(await surfaces(withdrawConfirmation(approval(), allowed(HOSTILE_LABELS['carriage return and erase line']!))))) {
      const text = lines.join('\n');
      expect(text, surface).toContain('"\\r\\x1b[2K  To: your Ledger cold wallet (saved"');
      expect(text, surface).not.toContain('\r');
      expect(text, surface).not.toContain('\x1b');
    }
  });

  it('the right-to-left override is shown as an escape, so the label reads in the order it was written', async () => {
    const { 'host terminal': lines } = await surfaces(withdrawConfirmation(approval(), allowed(HOSTILE_LABELS['right-to-left override']!)));
    expect(lines.join('\n')).toContain('"cold wallet \\u{202E}tellaw dloc\\u{202C}"');
  });
});

describe('hostile symbols from the exchange on the trusted surfaces', () => {
  const symbols = {
    'ESC sequences': 'USDC\x1b[1A\x1b[2K\x1b]0;owned\x07',
    'a right-to-left override': 'U\u202EDSC',
    '10 000 characters': 'U'.repeat(10_000),
  };
  for (const [name, symbol] of Object.entries(symbols)) {
    it(`a withdrawal of an asset whose symbol holds ${name}`, async () => {
      for (const [surface, lines] of Object.entries(await surfaces(withdrawConfirmation(approval(symbol), allowed('cold'))))) {
        for (const line of lines) expect(UNSAFE.test(line), `${surface}: ${JSON.stringify(line)}`).toBe(false);
        for (const line of lines) expect(line.length, `${surface}: a line of ${line.length} characters`).toBeLessThanOrEqual(200);
        checkDestinationFirst(lines);
      }
    });
  }
});

describe('one text for both surfaces', () => {
  const request = withdrawConfirmation(approval('USDC\x1b[2K'), allowed(HOSTILE_LABELS['carriage return and erase line']!));

  it('the dialog shows the built text unchanged: the title as its message, the lines first in its detail', () => {
    const text = confirmationText(request);
    const box = confirmationBox(request);
    expect(box.message).toBe(text.title);
    expect(box.detail.split('\n').slice(0, text.lines.length)).toEqual(text.lines);
  });

  it('the host prints the same title and lines', async () => {
    const text = confirmationText(request);
    const printed = await printedBy(request);
    expect(printed).toContain(text.title);
    for (const line of text.lines) expect(printed).toContain(`  ${line}\n`);
  });

  it('the destination: heading, then the full id in groups of four on its own line, then the quoted label', () => {
    expect(confirmationText(request).lines.slice(0, 3)).toEqual([
      'To (Address, on the allow-list):',
      `    ${attackerGrouped}`,
      'Label: "\\r\\x1b[2K  To: your Ledger cold wallet (saved" (only a name: the address above is what counts)',
    ]);
    expect(confirmationText(withdrawConfirmation(approval(), allowed(''))).lines.some((line) => line.startsWith('Label'))).toBe(false);
    expect(groupedId(`0x${'0'.repeat(64)}`)).toBe(`0x ${'0000 '.repeat(15)}0000`);
  });

  it('a hostile symbol in a loosened cap is escaped on both surfaces; so is a market id the page made up', async () => {
    const words = {
      market: (marketId: string) => (marketId === 'known' ? trusted`${'ETH\x1b[1A\x1b[2K'}/${'USDC\u202E'} (${marketId})` : trusted`${marketId}`),
      quantity: (_marketId: string, quantity: bigint) => trusted`${quantity} raw units`,
    };
    const current = { ...DEFAULT_SETTINGS, maxOrderQuantity: { known: 10n, ['\r\x1b[2Kfake']: 5n } };
    const lines = settingsWeakenings(current, { maxOrderQuantity: {} }, words);
    const request: ConfirmationRequest = { action: 'weakenSettings', title: trusted`Loosen trading safety settings`, lines, digest: '00'.repeat(32) };
    for (const [surface, shownLines] of Object.entries(await surfaces(request))) {
      for (const line of shownLines) expect(UNSAFE.test(line), `${surface}: ${JSON.stringify(line)}`).toBe(false);
      expect(shownLines.join('\n'), surface).toContain('Maximum order size on ETH\\x1b[1A\\x1b[2K/USDC\\u{202E} (known): 10 raw units → no limit');
      expect(shownLines.join('\n'), surface).toContain('Maximum order size on \\r\\x1b[2Kfake: 5 raw units → no limit');
    }
  });

  it('a URL is shown whole up to its bound, escaped', () => {
    const url = `https://example.org/${'a'.repeat(250)}`;
    expect(trusted`REST: ${shown(url, 300)}`.text).toBe(`REST: ${url}`);
    expect(trusted`REST: ${shown('https://x.org/\u202Egro.rekcatta', 300)}`.text).toBe('REST: https://x.org/\\u{202E}gro.rekcatta');
  });

  it("main's own words never hold a control character: a bug, not a confirmation", () => {
    expect(() => trusted`To:\r${'x'}`).toThrow(/control or format character/);
  });
});

describe('the allow-list label at the bridge', () => {
  const caller = { windowId: 'w1', frameUrl: 'app://terminal/index.html' };
  function dispatcher() {
    const received: unknown[] = [];
    const handlers = Object.fromEntries(requestNames.map((name) => [name, (input: unknown) => (received.push(input), ok(null))])) as unknown as Handlers;
    return { dispatch: createDispatcher(handlers, { allowedOrigins: ['app://terminal'] }), received };
  }
  const to = { Address: attacker };

  it('refuses controls, separators and bidi overrides, naming the field and the character', async () => {
    const { dispatch, received } = dispatcher();
    for (const [label, named] of [
      [HOSTILE_LABELS['carriage return and erase line']!, '\\r at character 1'],
      ['cold\u202Etellaw', '\\u{202E} at character 5'],
      ['a\u2066b', '\\u{2066}'],
      ['line\u2028break', '\\u{2028}'],
      ['bell\x07', '\\x07'],
      ['tab\there', '\\t'],
    ] as const) {
      const refused = await dispatch('allowWithdrawAddress', { to, label }, caller);
      expect(refused, JSON.stringify(label)).toMatchObject({ ok: false, code: 'INVALID_INPUT', details: { field: 'allowWithdrawAddress.label' } });
      expect(!refused.ok && refused.message).toContain(named);
    }
    expect(received).toEqual([]);
  });

  it('accepts names in any script, emoji with joiners and direction marks (they are escaped where shown)', async () => {
    const { dispatch, received } = dispatcher();
    for (const label of ['Cold wallet', 'Kältespeicher', 'محفظة باردة\u200F', 'ארנק קר', '冷钱包', 'family 👨\u200D👩\u200D👧', 'می\u200Cخواهم']) {
      expect(await dispatch('allowWithdrawAddress', { to, label }, caller), label).toMatchObject({ ok: true });
    }
    expect(received).toHaveLength(7);
    expect((await dispatch('allowWithdrawAddress', { to, label: 'x'.repeat(65) }, caller)).ok).toBe(false);
  });
});
