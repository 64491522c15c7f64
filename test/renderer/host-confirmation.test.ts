// The page's side of the host-code confirmation: a request main answers CONFIRMATION_REQUIRED is
// asked again with the code the trader types, again after a wrong code while attempts are left,
// and given up when the trader cancels. Requests main does not confirm pass through untouched.
import { describe, expect, it } from 'vitest';
import { withHostConfirmation, type CodeQuestion } from '../../renderer/src/bridge/host-confirmation';
import type { TerminalApi } from '../../shared/ipc/contract';
import { fail, ok, type Result } from '../../shared/result';

function fakeApi(answers: Result<unknown>[]) {
  const inputs: unknown[] = [];
  const api = {
    withdraw: (input: unknown) => {
      inputs.push(input);
      return Promise.resolve(answers.shift() ?? fail('NO_MORE', 'no more answers'));
    },
    getSettings: (input: unknown) => {
      inputs.push(input);
      return Promise.resolve(ok({ sound: true }));
    },
  } as unknown as TerminalApi;
  return { api, inputs };
}

const REQUIRED = fail('CONFIRMATION_REQUIRED', 'Withdraw 1 USDC: confirm it with the code the terminal host printed');

describe('host-code confirmation in the page', () => {
  it('asks for the code and calls again with it', async () => {
    const { api, inputs } = fakeApi([REQUIRED, ok({ status: 'accepted' })]);
    const asked: CodeQuestion[] = [];
    const wrapped = withHostConfirmation(api, (question) => (asked.push(question), Promise.resolve(' 1234 5678 ')));
    expect(await wrapped.withdraw({ assetId: 'a', amount: 1n, to: { Address: 'b' } } as never)).toEqual(ok({ status: 'accepted' }));
    expect(asked).toEqual([{ message: REQUIRED.message, problem: null }]);
    expect(inputs).toEqual([{ assetId: 'a', amount: 1n, to: { Address: 'b' } }, { assetId: 'a', amount: 1n, to: { Address: 'b' }, confirmationCode: '1234 5678' }]);
  });

  it('asks again after a wrong code while attempts are left, then stops', async () => {
    const wrong = (left: number) => fail('CONFIRMATION_CODE_WRONG', `wrong; ${left} left`, { attemptsLeft: left });
    const { api, inputs } = fakeApi([REQUIRED, wrong(2), wrong(1), wrong(0)]);
    const asked: CodeQuestion[] = [];
    const wrapped = withHostConfirmation(api, (question) => (asked.push(question), Promise.resolve('00000000')));
    expect(await wrapped.withdraw({} as never)).toMatchObject({ ok: false, code: 'CONFIRMATION_CODE_WRONG', details: { attemptsLeft: 0 } });
    expect(asked.map((question) => question.problem)).toEqual([null, 'wrong; 2 left', 'wrong; 1 left']);
    expect(inputs).toHaveLength(4);
  });

  it('a cancel does nothing more', async () => {
    const { api, inputs } = fakeApi([REQUIRED]);
    const wrapped = withHostConfirmation(api, () => Promise.resolve(null));
    expect(await wrapped.withdraw({} as never)).toMatchObject({ ok: false, code: 'CONFIRMATION_DECLINED' });
    expect(inputs).toHaveLength(1);
  });

  it('leaves other requests and other failures alone', async () => {
    const { api } = fakeApi([fail('ADDRESS_NOT_ALLOWED', 'not on the list')]);
    let asked = 0;
    const wrapped = withHostConfirmation(api, () => (asked++, Promise.resolve('1')));
    expect(await wrapped.withdraw({} as never)).toMatchObject({ ok: false, code: 'ADDRESS_NOT_ALLOWED' });
    expect(await wrapped.getSettings({})).toEqual(ok({ sound: true }));
    expect(asked).toBe(0);
  });
});
