import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../../main/services/keys/key-vault';
import { recoverAddress } from '../../../../../shared/crypto/signature';
import { sha256 } from '../../../../../shared/crypto/hashes';
import { isEvmStyleAddress } from '../../../../../shared/crypto/address';
import { MemorySecretStore } from '../../../../support/memory-secret-store';

const random = (length: number) => new Uint8Array(randomBytes(length));
const digest = sha256(new TextEncoder().encode('order batch'));

describe('key vault', () => {
  it('creates owner keys of both styles whose signatures recover to their address', async () => {
    const vault = new KeyVault(new MemorySecretStore(), random);
    for (const style of ['ledger', 'evm'] as const) {
      const created = await vault.createOwnerKey(style);
      expect(created.ok).toBe(true);
      if (!created.ok) continue;
      expect(isEvmStyleAddress(created.value)).toBe(style === 'evm');
      const signature = await vault.signAsOwner(created.value, digest);
      expect(signature.ok && recoverAddress(signature.value, digest, style)).toEqual({ ok: true, value: created.value });
    }
  });

  it('never hands a key back: its API returns addresses and signatures only', async () => {
    const store = new MemorySecretStore();
    const vault = new KeyVault(store, random);
    const owner = await vault.createOwnerKey('ledger');
    const session = await vault.createSessionKey();
    const stored = [...store.entries.values()].map((text) => (JSON.parse(text) as { key: string }).key);
    const results = JSON.stringify([owner, session, await vault.ownerAddresses()]);
    for (const key of stored) expect(results).not.toContain(key);
  });

  it('session keys are ledger-style, signed from memory, and reloaded from the keychain after a restart', async () => {
    const store = new MemorySecretStore();
    const vault = new KeyVault(store, random);
    const session = await vault.createSessionKey();
    if (!session.ok) throw new Error(session.message);
    expect(isEvmStyleAddress(session.value)).toBe(false);
    const first = vault.signAsLoadedSession(session.value, digest);
    expect(first.ok && recoverAddress(first.value, digest, 'ledger')).toEqual({ ok: true, value: session.value });

    const restarted = new KeyVault(store, random);
    expect(restarted.signAsLoadedSession(session.value, digest)).toMatchObject({ ok: false, code: 'KEY_NOT_FOUND' });
    const signed = await restarted.signAsSession(session.value, digest);
    expect(signed.ok && recoverAddress(signed.value, digest, 'ledger')).toEqual({ ok: true, value: session.value });
  });

  it('refuses to sign for an owner it does not hold, and for a tampered entry, without echoing it', async () => {
    const store = new MemorySecretStore();
    const vault = new KeyVault(store, random);
    const missing = await vault.signAsOwner(`0x${'11'.repeat(32)}` as never, digest);
    expect(missing).toMatchObject({ ok: false, code: 'KEY_NOT_FOUND' });
    const owner = await vault.createOwnerKey('ledger');
    if (!owner.ok) throw new Error(owner.message);
    store.entries.set(`owner:${owner.value}`, 'not json but a secret');
    const tampered = await vault.signAsOwner(owner.value, digest);
    expect(tampered).toMatchObject({ ok: false, code: 'KEY_CORRUPT' });
    expect(JSON.stringify(tampered)).not.toContain('a secret');
  });
});
