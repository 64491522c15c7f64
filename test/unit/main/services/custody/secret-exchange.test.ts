// The renderer's encryptor (renderer/src/features/custody/secret-crypto.ts) against main's
// SecretExchange, both on Node's WebCrypto: the secret arrives whole, only for the purpose it was
// sealed for, once, and not after the exchange expired.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretExchange } from '../../../../../main/services/custody/secret-exchange';
import { encryptSecret, keyThenPassphrase, passphraseBytes, type SecretPurpose } from '../../../../../renderer/src/features/custody/secret-crypto';
import { ManualClock } from '../../../../../shared/clock';

const random = (length: number) => new Uint8Array(randomBytes(length));
const subtle = globalThis.crypto.subtle;

async function sealed(exchange: SecretExchange, purpose: SecretPurpose, plaintext: Uint8Array<ArrayBuffer>) {
  const challenge = await exchange.begin();
  const secret = await encryptSecret(subtle, (length) => new Uint8Array(randomBytes(length)), challenge, purpose, plaintext);
  if (!secret.ok) throw new Error(secret.message);
  return secret.value;
}

describe('secret exchange', () => {
  it('opens a passphrase and a key-then-passphrase for their purposes', async () => {
    const exchange = new SecretExchange(() => 0, random);
    const passphrase = passphraseBytes('correct horse battery staple é');
    const opened = await exchange.open(await sealed(exchange, 'sign', passphrase), 'sign', 'secret');
    expect(opened.ok && new TextDecoder().decode(opened.value)).toBe('correct horse battery staple é');

    const key = new Uint8Array(32).fill(7);
    const joined = keyThenPassphrase(key, passphraseBytes('twelve bytes!'));
    const imported = await exchange.open(await sealed(exchange, 'import', joined), 'import', 'secret');
    expect(imported.ok && [...imported.value.slice(0, 32)]).toEqual([...key]);
    expect(imported.ok && new TextDecoder().decode(imported.value.slice(32))).toBe('twelve bytes!');
  });

  it('a ciphertext sealed for one purpose does not open as another, and an exchange opens once', async () => {
    const exchange = new SecretExchange(() => 0, random);
    const secret = await sealed(exchange, 'create', passphraseBytes('a passphrase of some length'));
    const wrong = await exchange.open(secret, 'sign', 'secret');
    expect(wrong).toMatchObject({ ok: false, code: 'SECRET_EXCHANGE_FAILED' });
    // The failed attempt consumed it.
    const again = await exchange.open(secret, 'create', 'secret');
    expect(again).toMatchObject({ ok: false, code: 'SECRET_EXCHANGE_FAILED' });
    expect(!again.ok && again.message).toMatch(/expired or was already used/);
  });

  it('refuses an altered ciphertext and an expired exchange', async () => {
    const clock = new ManualClock(1_000);
    const exchange = new SecretExchange(() => clock.now(), random);
    const secret = await sealed(exchange, 'sign', passphraseBytes('a passphrase of some length'));
    const flipped = `${secret.ciphertext.slice(0, -2)}${secret.ciphertext.endsWith('00') ? '01' : '00'}`;
    expect(await exchange.open({ ...secret, ciphertext: flipped }, 'sign', 'secret')).toMatchObject({ ok: false, code: 'SECRET_EXCHANGE_FAILED' });

    const later = await sealed(exchange, 'sign', passphraseBytes('a passphrase of some length'));
    clock.advance(5 * 60_000);
    expect(await exchange.open(later, 'sign', 'secret')).toMatchObject({ ok: false, code: 'SECRET_EXCHANGE_FAILED' });
  });

  it('keeps at most eight exchanges open; a discarded one cannot be opened', async () => {
    const exchange = new SecretExchange(() => 0, random);
    const first = await sealed(exchange, 'sign', passphraseBytes('first passphrase'));
    for (let index = 0; index < 8; index++) await exchange.begin();
    expect(await exchange.open(first, 'sign', 'secret')).toMatchObject({ ok: false });
    const discarded = await sealed(exchange, 'sign', passphraseBytes('second passphrase'));
    exchange.discard(discarded.exchangeId);
    expect(await exchange.open(discarded, 'sign', 'secret')).toMatchObject({ ok: false });
  });
});
