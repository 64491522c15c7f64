// Switching between owners and forgetting one from the Account view. Switching applies at once;
// forgetting is asked in the trusted surface, which names the owner in full and says what it does,
// and only a watch-only owner can be forgotten: a keychain owner is refused before anything is
// asked, and no key is ever shown or deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../../../main/services/confirm/trusted-confirmer';
import { confirmationText } from '../../../../../main/services/confirm/confirmation-text';
import { fail, ok } from '../../../../../shared/result';
import { caller, startHarness, value, type Harness } from '../../../../support/terminal-harness';

const WATCHED = `0x${'ab'.repeat(32)}`;

describe.sequential('switching and forgetting owners', () => {
  const asked: ConfirmationRequest[] = [];
  let answer: 'accept' | 'decline' = 'decline';
  const confirmer: TrustedConfirmer = {
    surface: 'dialog',
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve(answer === 'accept' ? ok(undefined) : fail('CONFIRMATION_DECLINED', 'declined in the dialog'));
    },
  };
  let harness: Harness;
  let keychainOwner: string;

  beforeAll(async () => {
    harness = await startHarness({ confirmer });
    keychainOwner = value(await harness.terminal.handlers.createOwnerKey({ style: 'ledger' }, caller)).address;
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;

  it('switches to another owner at once, and back', async () => {
    value(await h().registerWatchOnlyOwner({ address: WATCHED, style: 'ledger' }, caller));
    expect(value(await h().getAccountState({}, caller)).activeOwner?.address).toBe(WATCHED);
    const back = value(await h().selectOwner({ address: keychainOwner }, caller));
    expect(back.activeOwner?.address).toBe(keychainOwner);
    expect(back.owners.map((owner) => owner.address).sort()).toEqual([keychainOwner, WATCHED].sort());
    expect(asked).toHaveLength(0);
  });

  it('refuses to forget a keychain owner before asking anything', async () => {
    expect(await h().forgetOwner({ address: keychainOwner }, caller)).toMatchObject({ ok: false, code: 'OWNER_KEY_HELD' });
    expect(asked).toHaveLength(0);
    expect(value(await h().getAccountState({}, caller)).owners).toHaveLength(2);
  });

  it('asks in the trusted surface, naming the owner; declined, nothing changes', async () => {
    answer = 'decline';
    expect(await h().forgetOwner({ address: WATCHED }, caller)).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
    expect(asked).toHaveLength(1);
    const text = confirmationText(asked[0]!);
    expect(asked[0]!.action).toBe('forgetOwner');
    expect(asked[0]!.destination?.value).toBe(WATCHED);
    expect(text.title).toMatch(/Forget the watch-only owner/);
    expect(text.lines.join('\n')).toMatch(/No key is deleted/);
    expect(value(await h().getAccountState({}, caller)).owners).toHaveLength(2);
  });

  it('confirmed, the owner is gone and the owner in use stays', async () => {
    answer = 'accept';
    const state = value(await h().forgetOwner({ address: WATCHED }, caller));
    expect(state.owners.map((owner) => owner.address)).toEqual([keychainOwner]);
    expect(state.activeOwner?.address).toBe(keychainOwner);
    expect(await h().selectOwner({ address: WATCHED }, caller)).toMatchObject({ ok: false, code: 'NO_OWNER' });
  });
});
