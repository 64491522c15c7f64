// One margin account in the manager: its session (cohort, tier, expiry), whether Turbo orders are
// signed as it, and what can be done now: open a session, the credit actions and the close while
// one is live, the withdrawal of what a closed account still holds.
import { createSignal, Show, type Component } from 'solid-js';
import type { MarginAccountView, MarginActionReceipt, MarginOverview } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { CloseSessionForm } from './CloseSessionForm';
import { CreditActionForm } from './CreditActionForm';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { confirmMarginAction } from './margin-confirm';
import { expiryText, holding } from './margin-format';
import { OpenSessionForm } from './OpenSessionForm';
import { notifyMarginOutcome } from './margin-notices';
import { notifyFailure } from '../notices/failure-notice';
import { FailureLine, ReceiptLine } from './parts';

export const AccountCard: Component<{ account: MarginAccountView; overview: MarginOverview; now: () => number; onChanged: () => void; onSelectAccount?: (marginAccountId: string | null) => void }> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [receipt, setReceipt] = createSignal<MarginActionReceipt | null>(null);
  const [busy, setBusy] = createSignal(false);
  const collateral = () => props.overview.collateral ?? { assetId: '', symbol: '', decimals: 0 };
  const assets = () => props.overview.pool?.inventory.map((entry) => ({ assetId: entry.assetId, symbol: entry.symbol, decimals: entry.decimals })) ?? [collateral()];

  const select = async (selected: boolean) => {
    setFailure(null);
    const chosen = await bridge.selectMarginAccount({ marginAccountId: selected ? props.account.marginAccountId : null });
    if (!chosen.ok) {
      notifyFailure(terminal.store, 'Turbo Account choice refused', chosen);
      setFailure(chosen);
      return;
    }
    terminal.store.notify('info', selected ? `Turbo books are now traded as Turbo Account ${props.account.index.toString()} (${props.account.marginAccountId.slice(0, 6)}…${props.account.marginAccountId.slice(-4)}).` : 'Turbo books are now traded as the trading account.', { title: 'Turbo Account' });
    props.onSelectAccount?.(selected ? props.account.marginAccountId : null);
    props.onChanged();
  };

  const withdrawAll = async () => {
    if (busy()) return;
    const holds = props.account.holdings.map((entry) => holding(entry.amount, entry)).join(', ');
    if (!(await confirmMarginAction(terminal, 'Withdraw to the trading account', [`Move everything the Turbo Account holds${holds ? ` (${holds})` : ''} to the trading account.`], props.account.marginAccountId))) return;
    setBusy(true);
    setFailure(null);
    setReceipt(null);
    const sent = await bridge.withdrawFromMarginAccount({ marginAccountId: props.account.marginAccountId });
    setBusy(false);
    notifyMarginOutcome(terminal.store, 'Withdraw to the trading account', sent);
    if (!sent.ok) {
      setFailure(sent);
      return;
    }
    setReceipt(sent.value);
    props.onChanged();
  };

  return (
    <article class="margin-card" data-testid="margin-account" data-account={props.account.marginAccountId} data-selected={props.account.selected ? 'true' : 'false'} data-session={props.account.hasSession ? 'active' : 'none'}>
      <div class="margin-row">
        <strong>Turbo Account {props.account.index.toString()}</strong>
        <span class="margin-id" data-testid="margin-account-id">
          {props.account.marginAccountId}
        </span>
      </div>
      <div class="margin-row">
        <span class="margin-badge" data-testid="margin-account-session">
          {props.account.hasSession ? `${props.account.cohort === 'Turbo' ? 'Prepaid' : 'Legacy'} session, tier ${props.account.tierId ?? '?'} v${props.account.tierVersion?.toString() ?? '?'}` : 'No session'}
        </span>
        <Show when={props.account.hasSession}>
          <span class="margin-badge" data-testid="margin-account-expiry">
            {props.account.noExpiry ? 'No expiry' : `Expires in ${expiryText(props.account.expiresAt, props.account.noExpiry, props.now())}`}
          </span>
        </Show>
        <Show when={!props.account.inSessionScope}>
          <span class="margin-badge" data-tone="warning" data-testid="margin-account-out-of-scope">
            Not in the trading session: create a new session to use it
          </span>
        </Show>
        <label class="field-inline">
          <input type="checkbox" data-testid="margin-account-select" checked={props.account.selected} onChange={(event) => void select(event.currentTarget.checked)} />
          Trade Turbo books as this account
        </label>
      </div>
      <Show when={props.account.holdings.length > 0}>
        <p class="muted" data-testid="margin-account-holdings">
          Holds {props.account.holdings.map((entry) => holding(entry.amount, entry)).join(', ')}
        </p>
      </Show>
      <Show when={!props.account.hasSession}>
        <OpenSessionForm marginAccountId={props.account.marginAccountId} tiers={props.overview.tiers} collateral={collateral()} discountBps={props.overview.discountBps} onDone={props.onChanged} />
        <Show when={props.account.holdings.length > 0}>
          <div class="margin-row">
            <button type="button" data-testid="margin-account-withdraw" disabled={busy()} onClick={() => void withdrawAll()}>
              Withdraw everything to the trading account
            </button>
          </div>
        </Show>
      </Show>
      <Show when={props.account.hasSession}>
        <CreditActionForm marginAccountId={props.account.marginAccountId} cohort={props.account.cohort} collateral={collateral()} assets={assets()} onDone={props.onChanged} />
        <CloseSessionForm marginAccountId={props.account.marginAccountId} onDone={props.onChanged} />
      </Show>
      <FailureLine failure={failure()} testId="margin-account-error" />
      <ReceiptLine receipt={receipt()} testId="margin-account-result" />
    </article>
  );
};
