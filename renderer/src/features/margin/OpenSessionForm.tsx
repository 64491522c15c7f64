// Open a session on a margin account: choose a tier and one of the periods it allows, see the
// exact opening amount main computed (shared/margin openingAmount with the owner's discount), and
// confirm it. Prepaid tiers open only with Week and only with the exact amount; a legacy open may
// forward more, posted as collateral. Main recomputes the amount right before signing and refuses
// if it no longer matches what was confirmed here. The extra collateral is checked as it is typed
// (margin-input.ts), against what the trading account holds beside the opening amount; the button
// stays off until it passes, and the outcome reaches the notification centre.
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import type { MarginActionReceipt, MarginAssetRef, MarginPeriod, MarginTierView } from '../../../../shared/ipc/views/margin';
import type { Failure } from '../../../../shared/result';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { confirmMarginAction } from './margin-confirm';
import { basisPoints, money, periodOfferText, periodText } from './margin-format';
import { checkAmount } from './margin-input';
import { notifyMarginOutcome } from './margin-notices';
import { FailureLine, InputProblem, ReceiptLine } from './parts';

export const OpenSessionForm: Component<{
  marginAccountId: string;
  tiers: readonly MarginTierView[];
  collateral: MarginAssetRef;
  discountBps: bigint;
  onDone?: () => void;
}> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [tierId, setTierId] = createSignal('');
  const [period, setPeriod] = createSignal<MarginPeriod>('Week');
  const [extra, setExtra] = createSignal('');
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [receipt, setReceipt] = createSignal<MarginActionReceipt | null>(null);
  const [busy, setBusy] = createSignal(false);

  const tier = () => props.tiers.find((candidate) => candidate.tierId === tierId()) ?? null;
  const offer = () => tier()?.periods.find((candidate) => candidate.period === period()) ?? null;
  const allowed = () => tier()?.periods.filter((candidate) => candidate.allowed) ?? [];

  /** What the trading account has free of the collateral, settled or not (null while the balances are not read). */
  const onTradingAccount = (): bigint | null => terminal.store.state.balances.find((balance) => balance.assetId === props.collateral.assetId)?.unlocked ?? null;
  const funds = () => {
    const held = onTradingAccount();
    return held === null ? null : { held, enough: (offer()?.amount ?? 0n) <= held };
  };
  const extraCheck = createMemo(() => {
    if (tier()?.cohort !== 'Legacy') return null;
    const held = onTradingAccount();
    const opening = offer()?.amount ?? 0n;
    const room = held === null ? null : held > opening ? held - opening : 0n;
    return checkAmount(extra(), 'Extra collateral', props.collateral, { optional: true, limit: room === null ? null : { amount: room, where: `on the trading account beside the opening amount of ${money(opening, props.collateral)}` } });
  });
  const problem = (): string | null => {
    const check = extraCheck();
    if (check !== null && !check.ok) return check.message;
    const available = funds();
    if (available !== null && !available.enough && offer()?.amount != null) {
      return `Opening amount: ${money(offer()?.amount ?? 0n, props.collateral)} is above the ${money(available.held, props.collateral)} available on the trading account.`;
    }
    return null;
  };

  const chooseTier = (id: string) => {
    setTierId(id);
    const first = props.tiers.find((candidate) => candidate.tierId === id)?.periods.find((candidate) => candidate.allowed);
    if (first) setPeriod(first.period);
    setExtra('');
  };

  const open = async () => {
    const chosen = offer();
    const current = tier();
    if (!chosen?.amount || !current || busy()) return;
    if (problem() !== null) return;
    const checked = extraCheck();
    const amount = chosen.amount + (checked?.ok ? checked.value : 0n);
    const what = `${current.cohort === 'Turbo' ? 'Pay the entry' : 'Post collateral'} of ${money(amount, props.collateral)} from the trading account and open a ${periodText(chosen.period)} session on ${current.name} (tier ${current.tierId}); credit line ${money(current.line, props.collateral)}.`;
    if (!(await confirmMarginAction(terminal, current.cohort === 'Turbo' ? 'Open a prepaid session' : 'Open a session', [what], props.marginAccountId))) return;
    setBusy(true);
    setFailure(null);
    setReceipt(null);
    const opened = await bridge.openMarginSession({ marginAccountId: props.marginAccountId, tierId: current.tierId, period: chosen.period, amount });
    setBusy(false);
    notifyMarginOutcome(terminal.store, current.cohort === 'Turbo' ? 'Open a prepaid session' : 'Open a session', opened);
    if (!opened.ok) {
      setFailure(opened);
      return;
    }
    setReceipt(opened.value);
    props.onDone?.();
  };

  return (
    <div class="margin-form" data-testid="margin-open">
      <label for="margin-open-tier">Tier</label>
      <select id="margin-open-tier" data-testid="margin-open-tier" value={tierId()} onChange={(event) => chooseTier(event.currentTarget.value)}>
        <option value="">Choose a tier…</option>
        <For each={props.tiers}>
          {(candidate) => (
            <option value={candidate.tierId}>
              {candidate.name} (tier {candidate.tierId} v{candidate.version.toString()}, {candidate.cohort === 'Turbo' ? 'prepaid' : 'legacy'}, line {money(candidate.line, props.collateral)}){candidate.onSale ? '' : ' — not on sale'}
            </option>
          )}
        </For>
      </select>
      <Show when={tier()}>
        {(current) => (
          <>
            <label for="margin-open-period">Period</label>
            <select id="margin-open-period" data-testid="margin-open-period" value={period()} onChange={(event) => setPeriod(event.currentTarget.value as MarginPeriod)}>
              <For each={allowed()}>{(candidate) => <option value={candidate.period}>{periodOfferText(candidate.period, candidate.termSeconds)}</option>}</For>
            </select>
            <span>Terms</span>
            <span class="muted" data-testid="margin-open-terms">
              k {money(current().capital, props.collateral)}, cap {money(current().lineCap, props.collateral)},{' '}
              {current().cohort === 'Turbo'
                ? `max loss ${current()
                    .maxLossBps.map((bps) => basisPoints(bps))
                    .join(' / ')}${current().maxRollovers > 0 ? `, ${current().maxRollovers} free terms at ${money(current().profitRequired, props.collateral)} profit each` : ''}${current().forfeitCollateral ? ', entry forfeited at settlement' : ''}`
                : `threshold ${money(current().threshold, props.collateral)}, profit share ${basisPoints(current().profitShareBps)}`}
              {current().noExpiry ? ', no expiry' : ''}
            </span>
            <Show when={offer()}>
              {(chosen) => (
                <>
                  <span>Opening amount</span>
                  <span class="mono" data-testid="margin-open-amount" data-amount={chosen().amount?.toString() ?? ''}>
                    {chosen().amount === null ? '—' : money(chosen().amount ?? 0n, props.collateral)}
                    <span class="muted">
                      {' '}
                      = {money(chosen().collateralLeg ?? 0n, props.collateral)} {current().cohort === 'Turbo' ? 'entry' : 'collateral'} + {money(chosen().feeLeg ?? 0n, props.collateral)} fees
                      {props.discountBps > 0n ? ` (discount ${basisPoints(props.discountBps)})` : ''}
                    </span>
                  </span>
                </>
              )}
            </Show>
            <Show when={current().cohort === 'Legacy'}>
              <label for="margin-open-extra">Extra collateral</label>
              <input id="margin-open-extra" data-testid="margin-open-extra" inputmode="decimal" placeholder="0" value={extra()} onInput={(event) => setExtra(event.currentTarget.value)} />
            </Show>
            <div class="margin-actions">
              <InputProblem problem={problem()} testId="margin-open-problem" />
              <button type="button" data-testid="margin-open-submit" disabled={busy() || !offer()?.allowed || problem() !== null} onClick={() => void open()}>
                {current().cohort === 'Turbo' ? 'Pay the entry and open' : 'Post collateral and open'}
              </button>
            </div>
          </>
        )}
      </Show>
      <div class="margin-actions">
        <FailureLine failure={failure()} testId="margin-open-error" />
        <ReceiptLine receipt={receipt()} testId="margin-open-result" />
      </div>
    </div>
  );
};
