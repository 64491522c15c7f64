// Trading accounts: deploy (POST /v1/accounts), look up (GET /v1/accounts in its three forms),
// balances (GET /v1/balance). Which lookup returns 4002 is in docs/sandbox.md: the owner form
// (`owner` or `owner_contract`) answers 404 {code 4002, "Account not found"}; the
// `trade_account_id` form answers 200 with null fields, as spec 4.1 says.
import { contractIdentity, type Identity } from '../../shared/encoding/identity';
import type { SandboxApp } from '../app-types';
import { nowSeconds } from '../clock';
import { ErrorCode, invalid, refusal, Refusal, show } from '../http/errors';
import { parseBody } from '../http/parse';
import { createAccountRequestSchema } from '../../shared/api/request-schemas';
import { integer, optionalB256, optionalOwnerB256, requiredB256 } from '../http/query';
import { json, refuse } from '../http/reply';
import { deriveId } from '../ids';
import { ownerKey } from '../ledger/ledger';
import { windowView } from '../ledger/nonces';
import { accountBalanceView, accountView, walletBalanceView } from '../views/accounts';

export function registerAccountRoutes(app: SandboxApp): void {
  const { router } = app;

  router.on('POST', '/v1/accounts', (request) => {
    const body = parseBody(createAccountRequestSchema, request.body);
    if (body instanceof Refusal) return refuse(body);
    const identity: Identity = body.identity;
    if (!('Address' in identity)) return refuse(invalid(`identity: a trading account is deployed for a wallet ({Address}), got ${show(identity)}`));
    const existing = app.ledger.accountOfOwner(identity);
    // One owner wallet has one trading account: deploying again returns it.
    const account = existing ?? app.ledger.createAccount(deriveId(app.options.seed, `trade-account/${ownerKey(identity)}`), identity, Number(nowSeconds(app.clock)));
    return json({ trade_account_id: account.id, nonce: `0x${account.nonce.toString(16)}` });
  });

  router.on('GET', '/v1/accounts', (request) => {
    const { query } = request;
    const owner = optionalOwnerB256(query, 'owner');
    if (owner instanceof Refusal) return refuse(owner);
    const ownerContract = optionalB256(query, 'owner_contract');
    if (ownerContract instanceof Refusal) return refuse(ownerContract);
    const tradeAccountId = optionalB256(query, 'trade_account_id');
    if (tradeAccountId instanceof Refusal) return refuse(tradeAccountId);
    const given = [owner && 'owner', ownerContract && 'owner_contract', tradeAccountId && 'trade_account_id'].filter((name): name is string => Boolean(name));
    if (given.length !== 1) {
      return refuse(invalid(`query: exactly one of owner, owner_contract, trade_account_id is required, got ${given.length === 0 ? 'none' : given.join(' and ')}`));
    }
    if (tradeAccountId !== undefined) return json(accountView(app.ledger.accounts.get(tradeAccountId)));
    const identity: Identity = owner !== undefined ? { Address: owner } : contractIdentity(ownerContract as NonNullable<typeof ownerContract>);
    const account = app.ledger.accountOfOwner(identity);
    if (account === undefined) return refuse(refusal(ErrorCode.ACCOUNT_NOT_FOUND, 'Account not found', 404));
    // The owner's parent and its registered margin children (margin 4.1; shape in docs/sandbox.md).
    const children = app.margin.children.get(account.id) ?? [];
    return json({
      ...accountView(account),
      margin_accounts: children.map((child) => ({
        ...accountView(child),
        index: child.margin?.index.toString(),
        parent: child.margin?.parent,
        margin_session: app.margin.sessions.has(child.id) ? 'Active' : 'None',
      })),
    });
  });

  router.on('GET', '/v1/accounts/window', (request) => {
    const id = requiredB256(request.query, 'trade_account_id');
    if (id instanceof Refusal) return refuse(id);
    const lane = integer(request.query, 'nonce_session_id', { min: 0, max: 4, fallback: 0 });
    if (lane instanceof Refusal) return refuse(lane);
    const account = app.ledger.accounts.get(id);
    if (account === undefined) return refuse(refusal(ErrorCode.ACCOUNT_NOT_FOUND, 'Account not found', 404));
    return json(windowView(account, lane));
  });

  router.on('GET', '/v1/balance', (request) => {
    const { query } = request;
    const address = optionalB256(query, 'address');
    if (address instanceof Refusal) return refuse(address);
    const contract = optionalB256(query, 'contract');
    if (contract instanceof Refusal) return refuse(contract);
    if ((address === undefined) === (contract === undefined)) {
      return refuse(invalid(`query: exactly one of address and contract is required, got ${address && contract ? 'both' : 'none'}`));
    }
    const asset = requiredB256(query, 'asset_id');
    if (asset instanceof Refusal) return refuse(asset);
    if (!app.network.assets.some((known) => known.id === asset)) {
      return refuse(refusal(ErrorCode.ASSET_NOT_FOUND, `asset_id: no such asset on this network, got ${show(asset)}`, 404));
    }
    if (address !== undefined) return json(walletBalanceView(app.ledger.wallets.get(address)?.get(asset) ?? 0n));
    const account = app.ledger.accounts.get(contract as NonNullable<typeof contract>);
    if (account === undefined) return json(walletBalanceView(app.ledger.outside.get(contract as string)?.get(asset) ?? 0n));
    return json(accountBalanceView(app.ledger, account, asset));
  });
}
