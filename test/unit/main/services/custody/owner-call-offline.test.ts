// Every method of main's owner table as an offline request: built from the table's calls, verified
// as the signer verifies it, signed, accepted; the message is the one a hot owner key would sign.
import { describe, expect, it } from 'vitest';
import { buildOwnerMethod, ownerMethodCalls, ownerMethodViews } from '../../../../../main/services/custody/owner-methods';
import { b256 } from '../../../../../shared/encoding/b256';
import { bytesToPrefixedHex } from '../../../../../shared/encoding/hex';
import { buildOwnerCallRequest } from '../../../../../shared/offline/build-request';
import { responseToJson } from '../../../../../shared/offline/response-format';
import { signVerifiedRequest } from '../../../../../shared/offline/sign';
import { verifyOfflineResponse } from '../../../../../shared/offline/verify-response';
import { ownerCallsMessage, upgradeMessage } from '../../../../../shared/protocol/owner-messages';
import { sequentialNonce } from '../../../../../shared/protocol/nonce-choice';
import type { Market } from '../../../../../shared/market/market';
import { fail, ok } from '../../../../../shared/result';
import { ethUsdc } from '../../../../support/shared/market/fixtures';
import { counterRandom, ledgerKey, ledgerOwner, NOW, unwrap } from '../../../../support/shared/offline/fixtures';

const tradeAccountId = b256(`0x${'22'.repeat(32)}`);
const second: Market = { ...ethUsdc, market_id: b256(`0x${'a2'.repeat(32)}`), contract_id: b256(`0x${'c3'.repeat(32)}`) };
const books = [ethUsdc, second];
const facts = {
  tradeAccountId,
  market: (marketId: string) => {
    const found = books.find((market) => market.market_id === marketId);
    return found ? ok(found) : fail('NO_MARKET', 'no such market');
  },
  marketName: () => 'ETH/USDC',
};

const parametersOf: Record<string, Record<string, string>> = {
  settleBalance: { marketId: ethUsdc.market_id },
  whitelist: { marketId: ethUsdc.market_id },
  cancelOrder: { marketId: ethUsdc.market_id, orderId: `0x${'0d'.repeat(32)}` },
  settleBooks: { marketId: ethUsdc.market_id, secondMarketId: second.market_id },
  upgrade: { implementation: `0x${'ee'.repeat(32)}` },
};

describe('owner methods as offline requests', () => {
  it('the test covers every method of the table', () => {
    expect(Object.keys(parametersOf).sort()).toEqual(ownerMethodViews().map((view) => view.method).sort());
  });

  it.each(Object.keys(parametersOf))('%s: build → verify → sign → accept, signing the message a hot key would sign', (method) => {
    const built = unwrap(buildOwnerMethod(method, parametersOf[method]!, facts));
    const call = built.call;
    const nonce = sequentialNonce(9n);
    const verified = unwrap(
      buildOwnerCallRequest({
        network: 'testnet',
        chain_id: 0n,
        owner: ledgerOwner,
        trade_account_id: tradeAccountId,
        nowSeconds: NOW,
        random: counterRandom(),
        nonce,
        method: built.view.method,
        parameters: Object.entries(built.parameters).map(([name, value]) => ({ name, value })),
        endpoint: call.endpoint,
        implementation: call.endpoint === 'upgrade' ? call.implementation : null,
        calls: ownerMethodCalls(call),
      }),
    );
    const envelope = { nonce, chain_id: 0n };
    const expected = call.endpoint === 'upgrade' ? upgradeMessage(envelope) : ownerCallsMessage(envelope, ownerMethodCalls(call));
    expect(verified.request.message).toBe(bytesToPrefixedHex(expected));
    expect(verified.request).toMatchObject({ kind: 'owner-call', owner_call: { method, endpoint: call.endpoint } });
    const response = unwrap(signVerifiedRequest(verified, ledgerKey));
    expect(verifyOfflineResponse(verified.request, responseToJson(response), { nowSeconds: NOW + 60n }).ok).toBe(true);
  });
});
