// Taking an address off the withdrawal allow-list. It tightens what the hot owner key may sign, so
// main applies it at once with no confirmation outside the page (the threat model confirms what
// moves funds out or loosens a safety setting); a withdrawal to it is then refused before anything
// is asked or signed, and adding it back is confirmed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationRequest, TrustedConfirmer } from '../../../../../main/services/confirm/trusted-confirmer';
import { ok } from '../../../../../shared/result';
import { caller, startOnboarded, value, type Harness } from '../../../../support/terminal-harness';

const DESTINATION = `0x${'cd'.repeat(32)}`;

describe.sequential('removing an address from the withdrawal allow-list', () => {
  const asked: ConfirmationRequest[] = [];
  const confirmer: TrustedConfirmer = {
    surface: 'dialog',
    confirm: (request) => {
      asked.push(request);
      return Promise.resolve(ok(undefined));
    },
  };
  let harness: Harness;

  beforeAll(async () => {
    ({ harness } = await startOnboarded({ confirmer }));
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  const h = () => harness.terminal.handlers;

  it('applies at once without asking, says so, and the hot key then signs no withdrawal to it', async () => {
    value(await h().allowWithdrawAddress({ to: { Address: DESTINATION } }, caller));
    expect(asked.map((request) => request.action)).toEqual(['allowWithdrawAddress']);
    const removed = value(await h().removeWithdrawAddress({ to: { Address: DESTINATION } }, caller));
    expect(removed.addresses).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(harness.pushes.some((push) => push.stream === 'notice' && (push.payload as { text: string }).text.includes(`Address ${DESTINATION} are no longer allowed`))).toBe(true);

    const asset = value(await h().getDepositInstructions({}, caller)).assets[0]!;
    const refused = await h().withdraw({ assetId: asset.assetId, amount: 1n, to: { Address: DESTINATION } }, caller);
    expect(refused).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    expect(asked).toHaveLength(1);
  });

  it('refuses to remove an address that is not on the list', async () => {
    expect(await h().removeWithdrawAddress({ to: { Address: DESTINATION } }, caller)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
  });

  it('adding it back is confirmed again', async () => {
    value(await h().allowWithdrawAddress({ to: { Address: DESTINATION } }, caller));
    expect(asked.map((request) => request.action)).toEqual(['allowWithdrawAddress', 'allowWithdrawAddress']);
  });
});
