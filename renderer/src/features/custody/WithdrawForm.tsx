// Withdraw from the trading account to a ledger destination. A hot owner reviews and then signs
// and sends (main signs with the keychain key); a watch-only owner prepares the request for the
// offline signer (it then appears in PendingRequests). The amount is parsed exactly into raw units;
// the review shows the full ids, never shortened (look-alike addresses rely on shortening).
// A hot owner's withdrawal goes only to a destination on the allow-list, past its delay; adding
// one and each withdrawal are confirmed outside this page (a native dialog, or the code the
// browser host prints on its terminal), so the page itself cannot finish either.
import { createResource, createSignal, For, Show, useContext, type Component } from 'solid-js';
import { formatUnits as exactUnits } from '../../../../shared/encoding/units';
import type { OwnerRequestView, OwnerSubmissionView } from '../../../../shared/ipc/views';
import type { Failure } from '../../../../shared/result';
import { FailureLine } from './parts';
import { OwnerResult } from './OwnerResult';
import { parseWithdrawDraft, type DestinationKind, type WithdrawFields } from './withdraw-model';
import { useBridge } from '../../stores/bridge-context';
import { TerminalContext } from '../../stores/terminal-context';
import { balanceText } from '../../format/columns';

export const WithdrawForm: Component<{ onPrepared?: (request: OwnerRequestView) => void }> = (props) => {
  const bridge = useBridge();
  const terminal = useContext(TerminalContext);
  const [account] = createResource(async () => {
    const state = await bridge.getAccountState({});
    return state.ok ? state.value : null;
  });
  const [deposit] = createResource(async () => {
    const instructions = await bridge.getDepositInstructions({});
    return instructions.ok ? instructions.value : null;
  });
  const [balances, { refetch: refetchBalances }] = createResource(async () => {
    const listed = await bridge.getBalances({});
    return listed.ok ? listed.value : [];
  });
  const [allowed, { refetch: refetchAllowed }] = createResource(async () => {
    const listed = await bridge.getWithdrawAddresses({});
    return listed.ok ? listed.value : null;
  });
  const [assetId, setAssetId] = createSignal('');
  const [amountText, setAmountText] = createSignal('');
  const [destinationKind, setDestinationKind] = createSignal<DestinationKind>('Address');
  const [destinationText, setDestinationText] = createSignal('');
  const [nonce, setNonce] = createSignal<'parallel' | 'sequential'>('parallel');
  const [lifetimeHours, setLifetimeHours] = createSignal(24);
  const [review, setReview] = createSignal<(WithdrawFields & { sentence: string }) | null>(null);
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [result, setResult] = createSignal<OwnerSubmissionView | null>(null);
  const [prepared, setPrepared] = createSignal<OwnerRequestView | null>(null);

  const watchOnly = () => account()?.activeOwner?.custody === 'watch-only';
  const assets = () => deposit()?.assets ?? [];
  const chosen = () => assets().find((asset) => asset.assetId === assetId()) ?? null;
  const onAccount = () => balances()?.find((balance) => balance.assetId === assetId())?.onAccount ?? null;

  const check = () => {
    setFailure(null);
    setResult(null);
    const parsed = parseWithdrawDraft({ assetId: assetId(), amountText: amountText(), destinationKind: destinationKind(), destinationText: destinationText() }, assets());
    if (!parsed.ok) {
      setFailure(parsed);
      return;
    }
    const { asset, ...fields } = parsed.value;
    const target = 'Address' in fields.to ? `Address ${fields.to.Address}` : `ContractId ${fields.to.ContractId}`;
    setReview({ ...fields, sentence: `Withdraw ${exactUnits(fields.amount, asset.decimals)} ${asset.symbol} (asset ${asset.assetId}) to ${target}` });
  };

  const allowedEntry = (fields: WithdrawFields) => {
    const [kind, value] = 'Address' in fields.to ? ['Address', fields.to.Address] : ['ContractId', fields.to.ContractId];
    return allowed()?.addresses.find((address) => address.kind === kind && address.value === value) ?? null;
  };

  const allowDestination = async () => {
    const fields = review();
    if (!fields || busy()) return;
    setBusy(true);
    setFailure(null);
    const added = await bridge.allowWithdrawAddress({ to: fields.to });
    if (!added.ok) setFailure(added);
    void refetchAllowed();
    setBusy(false);
  };

  // Removing tightens the list: main applies it at once, with no confirmation outside the page.
  const [removing, setRemoving] = createSignal<string | null>(null);
  const removeAddress = async (kind: 'Address' | 'ContractId', value: string) => {
    if (busy()) return;
    setBusy(true);
    setFailure(null);
    const removed = await bridge.removeWithdrawAddress({ to: kind === 'Address' ? { Address: value } : { ContractId: value } });
    if (!removed.ok) setFailure(removed);
    setRemoving(null);
    void refetchAllowed();
    setBusy(false);
  };

  const submit = async () => {
    const fields = review();
    if (!fields || busy()) return;
    setBusy(true);
    setFailure(null);
    const base = { assetId: fields.assetId, amount: fields.amount, to: fields.to, nonce: nonce() };
    if (watchOnly()) {
      const made = await bridge.prepareOwnerRequest({ kind: 'withdraw', ...base, lifetimeHours: lifetimeHours() });
      if (made.ok) {
        setPrepared(made.value);
        props.onPrepared?.(made.value);
        setReview(null);
      } else setFailure(made);
    } else {
      const sent = await bridge.withdraw(base);
      if (sent.ok) {
        setResult(sent.value);
        setReview(null);
        setAmountText('');
        void refetchBalances();
      } else setFailure(sent);
    }
    setBusy(false);
  };

  return (
    <section class="custody" data-testid="withdraw-form" data-custody={watchOnly() ? 'watch-only' : 'keychain'}>
      <form
        class="custody-form"
        onSubmit={(event) => {
          event.preventDefault();
          check();
        }}
      >
        <label for="withdraw-asset">Asset</label>
        <select
          id="withdraw-asset"
          data-testid="withdraw-asset"
          value={assetId()}
          onChange={(event) => {
            setAssetId(event.currentTarget.value);
            setReview(null);
          }}
        >
          <option value="">Choose an asset</option>
          <For each={assets()}>{(asset) => <option value={asset.assetId}>{`${asset.symbol} ${asset.assetId}`}</option>}</For>
        </select>
        <label for="withdraw-amount">Amount</label>
        <span>
          <input
            id="withdraw-amount"
            data-testid="withdraw-amount"
            inputMode="decimal"
            autocomplete="off"
            value={amountText()}
            onInput={(event) => {
              setAmountText(event.currentTarget.value);
              setReview(null);
            }}
          />
          <Show when={chosen() !== null && onAccount() !== null}>
            <span class="muted" data-testid="withdraw-available">
              {' '}
              {/* The Balances panel's "On account" figure, in the asset's one display precision. */}
              On account {balanceText(chosen()!.assetId, chosen()!.decimals, onAccount()!, terminal?.store.state.markets?.markets ?? [])} {chosen()!.symbol}
            </span>
            <button type="button" data-testid="withdraw-max" onClick={() => setAmountText(exactUnits(onAccount()!, chosen()!.decimals))}>
              Max
            </button>
          </Show>
        </span>
        <label for="withdraw-kind">To</label>
        <span>
          <select id="withdraw-kind" data-testid="withdraw-destination-kind" value={destinationKind()} onChange={(event) => setDestinationKind(event.currentTarget.value as DestinationKind)}>
            <option value="Address">Address (a wallet)</option>
            <option value="ContractId">ContractId (a contract)</option>
          </select>
          <input
            data-testid="withdraw-destination"
            class="mono"
            size="70"
            placeholder="0x followed by 64 hex digits"
            autocomplete="off"
            spellcheck={false}
            value={destinationText()}
            onInput={(event) => {
              setDestinationText(event.currentTarget.value);
              setReview(null);
            }}
          />
        </span>
        <label for="withdraw-nonce">Nonce</label>
        <select id="withdraw-nonce" data-testid="withdraw-nonce" value={nonce()} onChange={(event) => setNonce(event.currentTarget.value as 'parallel' | 'sequential')}>
          <option value="parallel">Parallel (owner lane; does not wait for orders)</option>
          <option value="sequential">Sequential (the account nonce)</option>
        </select>
        <Show when={watchOnly()}>
          <label for="withdraw-lifetime">Request valid for</label>
          <span>
            <input
              id="withdraw-lifetime"
              data-testid="withdraw-lifetime"
              type="number"
              min="1"
              max="168"
              value={lifetimeHours()}
              onInput={(event) => setLifetimeHours(Math.max(1, Math.min(168, Math.floor(Number(event.currentTarget.value) || 24))))}
            />{' '}
            hours
          </span>
        </Show>
        <div class="custody-actions">
          <button type="submit" data-testid="withdraw-review">
            Review
          </button>
        </div>
      </form>
      <Show when={review()}>
        {(fields) => (
          <div class="callout" data-testid="withdraw-confirmation">
            <p class="custody-words">{fields().sentence}</p>
            <p class="muted">Read the destination and the amount in full before you go on.</p>
            <Show when={!watchOnly()}>
              <Show
                when={allowedEntry(fields())}
                fallback={
                  <p data-testid="withdraw-not-allowed">
                    This destination is not on the withdrawal allow-list.{' '}
                    <button type="button" data-testid="withdraw-allow-address" disabled={busy()} onClick={() => void allowDestination()}>
                      Add it to the allow-list
                    </button>
                  </p>
                }
              >
                {(entry) => (
                  <p class="muted" data-testid="withdraw-allowed-state" data-usable={String(entry().usableFrom <= Date.now())}>
                    On the allow-list{entry().usableFrom > Date.now() ? `; usable from ${new Date(entry().usableFrom).toLocaleString()}` : ''}.
                  </p>
                )}
              </Show>
            </Show>
            <button type="button" data-testid="withdraw-submit" disabled={busy()} onClick={() => void submit()}>
              {watchOnly() ? 'Prepare the request for the offline signer' : 'Sign and send'}
            </button>
            <button type="button" data-testid="withdraw-cancel-review" onClick={() => setReview(null)}>
              Change
            </button>
          </div>
        )}
      </Show>
      <FailureLine failure={failure()} testId="withdraw-error" />
      <Show when={!watchOnly() && allowed()}>
        {(list) => (
          <div data-testid="withdraw-allowed">
            <p class="muted">
              Withdrawal allow-list ({list().addresses.length}); a new address is usable {Math.round(list().delayMs / 1000) >= 3600 ? `${Math.round(list().delayMs / 3_600_000)} h` : `${Math.round(list().delayMs / 1000)} s`} after it is confirmed
              {list().confirmation === 'host-code' ? ' with the code printed on the terminal host' : ' in the dialog'}.
            </p>
            <ul>
              <For each={list().addresses}>
                {(address) => (
                  <li data-testid="withdraw-allowed-row" data-usable-from={String(address.usableFrom)}>
                    <span class="mono">
                      {address.kind} {address.value}
                      {address.label ? ` (${address.label})` : ''}
                    </span>{' '}
                    <Show
                      when={removing() === address.value}
                      fallback={
                        <button type="button" data-testid="withdraw-allowed-remove" title="Take this address off the allow-list: the hot owner key then signs no withdrawal to it." disabled={busy()} onClick={() => setRemoving(address.value)}>
                          Remove
                        </button>
                      }
                    >
                      <span data-testid="withdraw-allowed-remove-ask">
                        Remove it? Withdrawals to it stop at once; adding it back is confirmed again and waits the delay again.{' '}
                        <button type="button" data-testid="withdraw-allowed-remove-confirm" disabled={busy()} onClick={() => void removeAddress(address.kind, address.value)}>
                          Remove
                        </button>{' '}
                        <button type="button" data-testid="withdraw-allowed-remove-keep" onClick={() => setRemoving(null)}>
                          Keep
                        </button>
                      </span>
                    </Show>
                  </li>
                )}
              </For>
            </ul>
          </div>
        )}
      </Show>
      <Show when={result()}>{(done) => <OwnerResult result={done()} />}</Show>
      <Show when={prepared()}>
        {(request) => (
          <p class="callout" data-testid="withdraw-prepared">
            Request {request().requestId} is waiting for its signature: carry it to the offline signer (file or QR codes below, in the pending requests).
          </p>
        )}
      </Show>
    </section>
  );
};
