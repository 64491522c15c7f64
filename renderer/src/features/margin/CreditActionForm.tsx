// The credit actions of a live session, one form: draw, return quote, borrow (optionally returning
// quote first in the same batch), repay, add collateral, withdraw to the trading account, and the
// legacy remedies (repay from collateral, buy debt out from collateral, prolong, automatic
// prolongation), which a prepaid session does not offer. Amounts are checked in the form as they
// are typed (margin-input.ts: not a number, negative, too many decimals, above what the account's
// live risk allows: margin-limits.ts), the confirm button stays off until they pass; main checks them again against
// the live risk and refuses with the reason, which reaches the notification centre as a sentence.
import { createMemo, createSignal, For, Show, type Component } from 'solid-js';
import type { MarginActionReceipt, MarginAssetRef, MarginCohort, MarginPeriod } from '../../../../shared/ipc/views/margin';
import type { Failure, Result } from '../../../../shared/result';
import { useTerminal } from '../../stores/terminal-context';
import { useBridge } from '../../stores/bridge-context';
import { confirmMarginAction } from './margin-confirm';
import { money, periodText } from './margin-format';
import { checkAmount, checkCount, type AmountLimit } from './margin-input';
import { creditLimit } from './margin-limits';
import { createMarginRisk } from './margin-risk-source';
import { notifyMarginOutcome } from './margin-notices';
import { FailureLine, InputProblem, ReceiptLine } from './parts';

type ActionKind = 'draw' | 'returnQuote' | 'borrow' | 'repay' | 'addCollateral' | 'withdraw' | 'repayFromCollateral' | 'repayBaseFromCollateral' | 'prolong' | 'autoProlong';

interface ActionSpec {
  readonly kind: ActionKind;
  readonly label: string;
  /** Which asset the amount is in: the collateral, or a chosen non-collateral asset. */
  readonly asset: 'collateral' | 'base' | 'any' | 'none';
  readonly legacyOnly: boolean;
}

const ACTIONS: readonly ActionSpec[] = [
  { kind: 'draw', label: 'Draw quote', asset: 'collateral', legacyOnly: false },
  { kind: 'returnQuote', label: 'Return quote', asset: 'collateral', legacyOnly: false },
  { kind: 'borrow', label: 'Borrow in kind', asset: 'base', legacyOnly: false },
  { kind: 'repay', label: 'Repay in kind', asset: 'base', legacyOnly: false },
  { kind: 'addCollateral', label: 'Add collateral', asset: 'collateral', legacyOnly: false },
  { kind: 'withdraw', label: 'Withdraw to the trading account', asset: 'any', legacyOnly: false },
  { kind: 'repayFromCollateral', label: 'Repay drawn quote from collateral', asset: 'collateral', legacyOnly: true },
  { kind: 'repayBaseFromCollateral', label: 'Buy debt out from collateral', asset: 'base', legacyOnly: true },
  { kind: 'prolong', label: 'Prolong the session', asset: 'none', legacyOnly: true },
  { kind: 'autoProlong', label: 'Automatic prolongation', asset: 'none', legacyOnly: true },
];

const PERIODS: readonly MarginPeriod[] = ['SixHours', 'Day', 'Week', 'Month'];

export const CreditActionForm: Component<{
  marginAccountId: string;
  cohort: MarginCohort | null;
  collateral: MarginAssetRef;
  /** Assets the pool lends (the collateral among them). */
  assets: readonly MarginAssetRef[];
  onDone?: () => void;
}> = (props) => {
  const terminal = useTerminal();
  const bridge = useBridge();
  const [kind, setKind] = createSignal<ActionKind>('draw');
  const [assetId, setAssetId] = createSignal('');
  const [amountText, setAmountText] = createSignal('');
  const [returnFirstText, setReturnFirstText] = createSignal('');
  const [period, setPeriod] = createSignal<MarginPeriod | 'off'>('Day');
  const [times, setTimes] = createSignal('1');
  const [failure, setFailure] = createSignal<Failure | null>(null);
  const [receipt, setReceipt] = createSignal<MarginActionReceipt | null>(null);
  const [busy, setBusy] = createSignal(false);

  const available = () => ACTIONS.filter((action) => !action.legacyOnly || props.cohort === 'Legacy');
  const spec = () => ACTIONS.find((action) => action.kind === kind()) ?? ACTIONS[0]!;
  const baseAssets = () => props.assets.filter((asset) => asset.assetId !== props.collateral.assetId);
  const choices = () => (spec().asset === 'base' ? baseAssets() : spec().asset === 'any' ? props.assets : []);
  const asset = (): MarginAssetRef | null => {
    if (spec().asset === 'collateral') return props.collateral;
    return choices().find((candidate) => candidate.assetId === assetId()) ?? choices()[0] ?? null;
  };

  // The account's live risk: the draw, borrow and repay bounds main applies, checked here first.
  const risk = createMarginRisk(bridge, props.marginAccountId);
  const limitFor = (action: ActionKind, chosen: MarginAssetRef | null, returningFirst = false): AmountLimit | null => {
    if (chosen === null || action === 'prolong' || action === 'autoProlong') return null;
    const frame = risk();
    return creditLimit({
      kind: action,
      asset: chosen,
      risk: frame?.status === 'live' ? frame.risk : null,
      quoteDrawn: frame?.session?.quoteDrawn ?? null,
      returningFirst,
    });
  };
  const limit = (): AmountLimit | null => limitFor(kind(), asset(), kind() === 'borrow' && returnFirstText().trim() !== '');
  const amountCheck = createMemo(() => {
    const chosen = asset();
    if (spec().asset === 'none' || chosen === null) return null;
    return checkAmount(amountText(), 'Amount', chosen, { limit: limit() });
  });
  const returnFirstCheck = createMemo(() => (kind() === 'borrow' ? checkAmount(returnFirstText(), 'Return quote first', props.collateral, { optional: true, limit: limitFor('returnQuote', props.collateral) }) : null));
  const timesCheck = createMemo(() => (kind() === 'prolong' ? checkCount(times(), 'Times', 1000) : null));
  /** The first problem of the form's fields, shown under them; the confirm stays off while there is one. */
  const problem = (): string | null => {
    for (const check of [amountCheck(), returnFirstCheck(), timesCheck()]) if (check !== null && !check.ok) return check.message;
    return null;
  };
  /** An empty required amount is not shouted about before anything was typed; the button still waits for it. */
  const shownProblem = () => (amountText().trim() === '' && returnFirstText().trim() === '' && kind() !== 'prolong' ? null : problem());

  /** What the action does, in words, for its confirmation. */
  const describeAction = (action: ActionKind, chosen: MarginAssetRef | null, value: bigint, returnFirst: bigint): string => {
    const amount = chosen === null ? '' : money(value, chosen);
    switch (action) {
      case 'draw':
        return `Draw ${amount} of quote from the credit line (it becomes outstanding credit).`;
      case 'returnQuote':
        return `Return ${amount} of drawn quote to the credit line.`;
      case 'borrow':
        return `Borrow ${amount} in kind from the pool${returnFirst > 0n ? `, returning ${money(returnFirst, props.collateral)} of quote first in the same batch` : ''} (it becomes debt).`;
      case 'repay':
        return `Repay ${amount} of debt in kind.`;
      case 'addCollateral':
        return `Post ${amount} the Turbo Account holds as collateral.`;
      case 'withdraw':
        return `Withdraw ${amount} from the Turbo Account to the trading account.`;
      case 'repayFromCollateral':
        return `Repay ${amount} of drawn quote out of the posted collateral.`;
      case 'repayBaseFromCollateral':
        return `Buy ${amount} of debt out with the posted collateral.`;
      case 'prolong':
        return `Prolong the session by ${times().trim()} × ${periodText(period() === 'off' ? 'Day' : (period() as MarginPeriod))} (the prolongation fee is charged to the collateral).`;
      case 'autoProlong':
        return period() === 'off' ? 'Turn automatic prolongation off.' : `Prolong automatically by ${periodText(period() as MarginPeriod)} before expiry (each one charges its fee to the collateral).`;
    }
  };

  const submit = async () => {
    if (busy()) return;
    setFailure(null);
    setReceipt(null);
    const marginAccountId = props.marginAccountId;
    let sent: Result<MarginActionReceipt>;
    const chosen = asset();
    if (problem() !== null) return;
    const checked = amountCheck();
    const value = checked?.ok ? checked.value : 0n;
    const target = chosen?.assetId ?? '';
    const firstCheck = returnFirstCheck();
    const first = firstCheck?.ok ? firstCheck.value : 0n;
    const confirmed = await confirmMarginAction(terminal, spec().label, [describeAction(kind(), chosen, value, first)], marginAccountId);
    if (!confirmed) return;
    setBusy(true);
    switch (kind()) {
      case 'draw':
        sent = await bridge.marginDraw({ marginAccountId, amount: value });
        break;
      case 'returnQuote':
        sent = await bridge.marginReturnQuote({ marginAccountId, amount: value });
        break;
      case 'borrow':
        sent = await bridge.marginBorrow({ marginAccountId, assetId: target, amount: value, ...(first > 0n ? { returnQuoteFirst: first } : {}) });
        break;
      case 'repay':
        sent = await bridge.marginRepay({ marginAccountId, assetId: target, amount: value });
        break;
      case 'addCollateral':
        sent = await bridge.marginAddCollateral({ marginAccountId, amount: value });
        break;
      case 'withdraw':
        sent = await bridge.marginWithdraw({ marginAccountId, assetId: target, amount: value });
        break;
      case 'repayFromCollateral':
        sent = await bridge.marginRepayFromCollateral({ marginAccountId, amount: value });
        break;
      case 'repayBaseFromCollateral':
        sent = await bridge.marginRepayBaseFromCollateral({ marginAccountId, assetId: target, amount: value });
        break;
      case 'prolong':
        sent = await bridge.marginProlong({ marginAccountId, period: period() === 'off' ? 'Day' : (period() as MarginPeriod), times: BigInt(times().trim()) });
        break;
      case 'autoProlong':
        sent = await bridge.marginSetAutoProlong({ marginAccountId, period: period() === 'off' ? null : (period() as MarginPeriod) });
        break;
    }
    setBusy(false);
    notifyMarginOutcome(terminal.store, spec().label, sent);
    if (!sent.ok) {
      setFailure(sent);
      return;
    }
    setReceipt(sent.value);
    setAmountText('');
    props.onDone?.();
  };

  return (
    <div class="margin-form" data-testid="margin-credit">
      <label for="margin-credit-action">Action</label>
      <select id="margin-credit-action" data-testid="margin-credit-action" value={kind()} onChange={(event) => setKind(event.currentTarget.value as ActionKind)}>
        <For each={available()}>{(action) => <option value={action.kind}>{action.label}</option>}</For>
      </select>
      <Show when={choices().length > 0}>
        <label for="margin-credit-asset">Asset</label>
        <select id="margin-credit-asset" data-testid="margin-credit-asset" value={asset()?.assetId ?? ''} onChange={(event) => setAssetId(event.currentTarget.value)}>
          <For each={choices()}>{(candidate) => <option value={candidate.assetId}>{candidate.symbol}</option>}</For>
        </select>
      </Show>
      <Show when={spec().asset !== 'none'}>
        <label for="margin-credit-amount">Amount{asset() ? ` (${asset()?.symbol})` : ''}</label>
        <input id="margin-credit-amount" data-testid="margin-credit-amount" inputmode="decimal" value={amountText()} onInput={(event) => setAmountText(event.currentTarget.value)} />
      </Show>
      <Show when={kind() === 'borrow'}>
        <label for="margin-credit-return-first">Return quote first ({props.collateral.symbol})</label>
        <input id="margin-credit-return-first" data-testid="margin-credit-return-first" inputmode="decimal" placeholder="0" value={returnFirstText()} onInput={(event) => setReturnFirstText(event.currentTarget.value)} />
      </Show>
      <Show when={kind() === 'prolong' || kind() === 'autoProlong'}>
        <label for="margin-credit-period">Period</label>
        <select id="margin-credit-period" data-testid="margin-credit-period" value={period()} onChange={(event) => setPeriod(event.currentTarget.value as MarginPeriod | 'off')}>
          <Show when={kind() === 'autoProlong'}>
            <option value="off">Off</option>
          </Show>
          <For each={PERIODS}>{(candidate) => <option value={candidate}>{periodText(candidate)}</option>}</For>
        </select>
      </Show>
      <Show when={kind() === 'prolong'}>
        <label for="margin-credit-times">Times</label>
        <input id="margin-credit-times" data-testid="margin-credit-times" inputmode="numeric" value={times()} onInput={(event) => setTimes(event.currentTarget.value)} />
      </Show>
      <div class="margin-actions">
        <InputProblem problem={shownProblem()} testId="margin-credit-problem" />
        <button type="button" data-testid="margin-credit-submit" disabled={busy() || problem() !== null} onClick={() => void submit()}>
          {spec().label}
        </button>
      </div>
      <div class="margin-actions">
        <FailureLine failure={failure()} testId="margin-credit-error" />
        <ReceiptLine receipt={receipt()} testId="margin-credit-result" />
      </div>
    </div>
  );
};
