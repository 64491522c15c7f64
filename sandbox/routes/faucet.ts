// Non-production helpers: the faucet (POST /api/sandbox/mint-v2), the whitelist helper and the
// referral code lookup. The faucet mints a fixed amount of every asset to a wallet or a
// trading account, once per 60 s per target; its replies use `message` / `error` like the
// real faucet.
import type { B256 } from '../../shared/encoding/b256';
import { contractIdentity, type Identity } from '../../shared/encoding/identity';
import type { SandboxApp } from '../app-types';
import { ErrorCode, refusal, Refusal } from '../http/errors';
import { parseBody } from '../http/parse';
import { faucetRequestSchema, whitelistRequestSchema } from '../../shared/api/request-schemas';
import { json, refuse } from '../http/reply';

export const FAUCET_COOLDOWN_MS = 60_000;
const MAX_COOLDOWNS = 10_000;

export function registerFaucetRoutes(app: SandboxApp): void {
  const { router } = app;
  const lastMint = new Map<string, number>();

  router.on('POST', '/api/sandbox/mint-v2', (request) => {
    const body = parseBody(faucetRequestSchema, request.body);
    if (body instanceof Refusal) return json({ error: body.message }, 400);
    const hasAddress = body.address !== undefined;
    const id = (body.address ?? body.contract) as B256;
    if (!hasAddress && !app.ledger.accounts.has(id)) return json({ error: `contract: ${id} is not a trading account on this network` }, 404);
    const target: Identity = hasAddress ? { Address: id } : contractIdentity(id);
    const now = app.clock.now();
    const key = `${hasAddress ? 'A' : 'C'}:${id}`;
    const previous = lastMint.get(key);
    if (previous !== undefined && now - previous < FAUCET_COOLDOWN_MS) {
      const wait = Math.ceil((FAUCET_COOLDOWN_MS - (now - previous)) / 1000);
      return json({ error: `Faucet cooldown: ${id} was funded less than 60 seconds ago; retry in ${wait} s` }, 429);
    }
    if (lastMint.size >= MAX_COOLDOWNS) {
      for (const [entry, at] of lastMint) if (now - at >= FAUCET_COOLDOWN_MS) lastMint.delete(entry);
      if (lastMint.size >= MAX_COOLDOWNS) lastMint.delete(lastMint.keys().next().value as string);
    }
    lastMint.delete(key);
    lastMint.set(key, now);
    app.ledger.transact(() => {
      // Into a margin child: the value arrived from outside, not earned (its PnL basis rises).
      app.margin.receive(id, () => {
        for (const asset of app.network.assets) app.ledger.mint(target, asset.id, asset.faucetAmount);
      });
    });
    const minted = app.network.assets.map((asset) => `${asset.faucetAmount} ${asset.symbol}`).join(', ');
    return json({ message: `Minted ${minted} (raw units) to ${id}` });
  });

  router.on('POST', '/analytics/v1/whitelist', (request) => {
    const body = parseBody(whitelistRequestSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const id = body.tradeAccount;
    const account = app.ledger.accounts.get(id);
    if (account === undefined) return refuse(refusal(ErrorCode.ACCOUNT_NOT_FOUND, `tradeAccount: no trading account ${id}`, 404));
    if (account.whitelisted) return json({ success: true, tradeAccount: id, alreadyWhitelisted: true });
    app.ledger.transact(() => {
      whitelist(app, id);
    });
    return json({ success: true, tradeAccount: id });
  });

  router.on('GET', '/analytics/v1/referral/code-info', (request) => {
    const code = request.query.get('code');
    if (code === null || code === '') return refuse(refusal(ErrorCode.INVALID_FIELD, 'code: required, got nothing'));
    const entry = app.referralCodes.get(code);
    if (entry === undefined) return json({ valid: false, ownerAddress: null, isActive: false });
    return json({ valid: true, ownerAddress: entry.ownerAddress, isActive: entry.isActive });
  });
}

/** Whitelist inside the open transaction (journaled). */
export function whitelist(app: SandboxApp, id: B256): void {
  const account = app.ledger.accounts.get(id);
  if (account === undefined || account.whitelisted) return;
  account.whitelisted = true;
  app.ledger.journal.record(() => {
    account.whitelisted = false;
  });
}
