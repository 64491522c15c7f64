// The Alerts panel: every alert main keeps (set here, or from a ladder row's or the chart's context
// menu), each editable (on/off, level, repeat, cool-down, sound, note) and deletable, and the latest
// firings. Main evaluates and announces them with every window closed; this panel only edits.
import { createSignal, For, onCleanup, onMount, Show, type Component } from 'solid-js';
import type { AlertKind, AlertPriceSource, AlertsSnapshot, AlertView, MarginAlertLine } from '../../../../shared/ipc/views/alerts';
import { formatDateTime } from '../../format/time';
import { useBridge } from '../../stores/bridge-context';
import { useTerminal } from '../../stores/terminal-context';
import { marketName } from '../markets/market-label';
import { alertFormInput, levelText, withLevel } from './alert-form';
import './alerts.css';

const KINDS: readonly { kind: AlertKind; label: string }[] = [
  { kind: 'price', label: 'Price crosses' },
  { kind: 'spread', label: 'Spread wider than' },
  { kind: 'fill', label: 'A fill' },
  { kind: 'rejected', label: 'A request refused' },
  { kind: 'stale', label: 'Stream silent for' },
  { kind: 'margin', label: 'Turbo Account near a line' },
];

export const AlertsPanel: Component = () => {
  const bridge = useBridge();
  const terminal = useTerminal();
  const [snapshot, setSnapshot] = createSignal<AlertsSnapshot>({ alerts: [], firings: [] });
  const [problem, setProblem] = createSignal<string | null>(null);
  const [kind, setKind] = createSignal<AlertKind>('price');
  const [marketId, setMarketId] = createSignal('');
  const [source, setSource] = createSignal<AlertPriceSource>('last');
  const [direction, setDirection] = createSignal<'above' | 'below'>('above');
  const [priceText, setPriceText] = createSignal('');
  const [ticksText, setTicksText] = createSignal('5');
  const [secondsText, setSecondsText] = createSignal('10');
  const [onlyThisMarket, setOnlyThisMarket] = createSignal(false);
  const [repeat, setRepeat] = createSignal(false);
  const [cooldownText, setCooldownText] = createSignal('60');
  const [sound, setSound] = createSignal(true);
  const [note, setNote] = createSignal('');
  const [marginAccounts, setMarginAccounts] = createSignal<readonly string[]>([]);
  const [marginAccountId, setMarginAccountId] = createSignal('');
  const [line, setLine] = createSignal<MarginAlertLine>('liquidation');
  const [percentText, setPercentText] = createSignal('10');
  const account = () => marginAccountId() || marginAccounts()[0] || '';
  // The Turbo Accounts of the trading account, read when the trader picks the margin kind.
  const loadMarginAccounts = async () => {
    const overview = await bridge.getMarginOverview({});
    if (overview.ok) setMarginAccounts(overview.value.accounts.map((entry) => entry.marginAccountId));
    else setProblem(overview.message);
  };

  const markets = () => terminal.store.state.markets?.markets ?? [];
  const market = () => markets().find((candidate) => candidate.market_id === marketId()) ?? markets()[0] ?? null;

  onMount(() => {
    void bridge.listAlerts({}).then((listed) => {
      if (listed.ok) setSnapshot(listed.value);
      else setProblem(listed.message);
    });
  });
  onCleanup(bridge.onAlerts((next) => setSnapshot(next)));

  const create = async () => {
    const input = alertFormInput({
      kind: kind(),
      market: market(),
      turbo: false,
      source: source(),
      direction: direction(),
      priceText: priceText(),
      ticksText: ticksText(),
      secondsText: secondsText(),
      onlyThisMarket: onlyThisMarket(),
      repeat: repeat(),
      cooldownText: cooldownText(),
      sound: sound(),
      note: note(),
      marginAccountId: account(),
      line: line(),
      percentText: percentText(),
    });
    if (!input.ok) {
      setProblem(input.message);
      return;
    }
    const created = await bridge.createAlert(input.value);
    setProblem(created.ok ? null : created.message);
  };

  const change = async (alert: AlertView, patch: Omit<Parameters<typeof bridge.updateAlert>[0], 'alertId'>) => {
    const updated = await bridge.updateAlert({ alertId: alert.id, ...patch });
    setProblem(updated.ok ? null : updated.message);
  };

  const remove = async (alert: AlertView) => {
    const deleted = await bridge.deleteAlert({ alertId: alert.id });
    setProblem(deleted.ok ? null : deleted.message);
  };

  const alertMarket = (alert: AlertView) => {
    const condition = alert.condition;
    if (condition.kind !== 'price' && condition.kind !== 'spread') return null;
    const listed = condition.turbo ? (terminal.store.state.markets?.turboMarkets ?? []) : markets();
    return listed.find((candidate) => candidate.market_id === condition.marketId) ?? null;
  };

  const needsMarket = () => kind() === 'price' || kind() === 'spread' || kind() === 'fill';

  return (
    <div class="alerts" data-testid="alerts">
      <form
        class="alert-form"
        data-testid="alert-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create();
        }}
      >
        <select
          data-testid="alert-kind"
          value={kind()}
          onChange={(event) => {
            setKind(event.currentTarget.value as AlertKind);
            if (kind() === 'margin') void loadMarginAccounts();
          }}
        >
          <For each={KINDS}>{(entry) => <option value={entry.kind}>{entry.label}</option>}</For>
        </select>
        <Show when={needsMarket()}>
          <select data-testid="alert-market" value={market()?.market_id ?? ''} onChange={(event) => setMarketId(event.currentTarget.value)}>
            <For each={markets()}>{(candidate) => <option value={candidate.market_id}>{marketName(candidate, markets())}</option>}</For>
          </select>
        </Show>
        <Show when={kind() === 'price'}>
          <select data-testid="alert-source" value={source()} onChange={(event) => setSource(event.currentTarget.value as AlertPriceSource)}>
            <option value="last">last</option>
            <option value="bid">bid</option>
            <option value="ask">ask</option>
            <option value="mark" title="The midpoint of the best bid and ask">mark</option>
          </select>
          <select data-testid="alert-direction" value={direction()} onChange={(event) => setDirection(event.currentTarget.value as 'above' | 'below')}>
            <option value="above">above</option>
            <option value="below">below</option>
          </select>
          <input data-testid="alert-price" placeholder={`price${market() ? ` (${market()!.quote.symbol})` : ''}`} value={priceText()} onInput={(event) => setPriceText(event.currentTarget.value)} />
        </Show>
        <Show when={kind() === 'spread'}>
          <input data-testid="alert-ticks" class="short" value={ticksText()} onInput={(event) => setTicksText(event.currentTarget.value)} /> ticks
        </Show>
        <Show when={kind() === 'stale'}>
          <input data-testid="alert-seconds" class="short" value={secondsText()} onInput={(event) => setSecondsText(event.currentTarget.value)} /> s
        </Show>
        <Show when={kind() === 'margin'}>
          <select data-testid="alert-margin-account" value={account()} onChange={(event) => setMarginAccountId(event.currentTarget.value)}>
            <For each={marginAccounts()} fallback={<option value="">no Turbo Account</option>}>
              {(id) => <option value={id}>{`Turbo Account ${id.slice(0, 10)}…${id.slice(-4)}`}</option>}
            </For>
          </select>
          <select data-testid="alert-margin-line" value={line()} onChange={(event) => setLine(event.currentTarget.value as MarginAlertLine)}>
            <option value="liquidation" title="V − threshold, in % of V">to liquidation</option>
            <option value="freeze" title="stressed value − freeze line, in % of the stressed value">to the freeze line</option>
          </select>
          below <input data-testid="alert-margin-percent" class="short" value={percentText()} onInput={(event) => setPercentText(event.currentTarget.value)} /> %
        </Show>
        <Show when={kind() === 'fill'}>
          <label>
            <input type="checkbox" checked={onlyThisMarket()} onChange={(event) => setOnlyThisMarket(event.currentTarget.checked)} /> this market only
          </label>
        </Show>
        <label>
          <input type="checkbox" data-testid="alert-repeat" checked={repeat()} onChange={(event) => setRepeat(event.currentTarget.checked)} /> repeat
        </label>
        <label>
          cool-down <input data-testid="alert-cooldown" class="short" value={cooldownText()} onInput={(event) => setCooldownText(event.currentTarget.value)} /> s
        </label>
        <label>
          <input type="checkbox" checked={sound()} onChange={(event) => setSound(event.currentTarget.checked)} /> sound
        </label>
        <input data-testid="alert-note" placeholder="note (optional)" maxLength={200} value={note()} onInput={(event) => setNote(event.currentTarget.value)} />
        <button type="submit" data-testid="alert-create">Set alert</button>
      </form>
      <Show when={problem()}>
        <div class="form-error" data-testid="alert-problem">{problem()}</div>
      </Show>
      <table data-testid="alert-list">
        <thead>
          <tr>
            <th>On</th>
            <th>Alert</th>
            <th class="num">Level</th>
            <th>Repeat</th>
            <th class="num">Cool-down (s)</th>
            <th>Sound</th>
            <th>Note</th>
            <th>Last fired</th>
            <th />
          </tr>
        </thead>
        <tbody>
          <For each={snapshot().alerts}>
            {(alert) => (
              <tr data-testid="alert-row" data-alert-id={alert.id} data-enabled={alert.enabled ? 'true' : 'false'}>
                <td>
                  <input type="checkbox" data-testid="alert-enabled" checked={alert.enabled} onChange={(event) => void change(alert, { enabled: event.currentTarget.checked })} />
                </td>
                <td data-testid="alert-description">{alert.description}</td>
                <td class="num">
                  <Show when={levelText(alert.condition, alertMarket(alert)) !== ''}>
                    <input
                      class="level"
                      data-testid="alert-row-level"
                      title="The level: a price, ticks of spread, seconds of silence or a distance in %; changing it arms the alert afresh"
                      value={levelText(alert.condition, alertMarket(alert))}
                      onChange={(event) => {
                        const condition = withLevel(alert.condition, event.currentTarget.value, alertMarket(alert));
                        if (condition.ok) void change(alert, { condition: condition.value });
                        else setProblem(condition.message);
                      }}
                    />
                  </Show>
                </td>
                <td>
                  <input type="checkbox" data-testid="alert-row-repeat" checked={alert.repeat} onChange={(event) => void change(alert, { repeat: event.currentTarget.checked })} />
                </td>
                <td class="num">
                  <input
                    class="short"
                    data-testid="alert-row-cooldown"
                    value={String(alert.cooldownSeconds)}
                    onChange={(event) => {
                      const seconds = Number(event.currentTarget.value);
                      if (Number.isInteger(seconds)) void change(alert, { cooldownSeconds: seconds });
                      else setProblem('Cool-down: a whole number of seconds is needed');
                    }}
                  />
                </td>
                <td>
                  <input type="checkbox" data-testid="alert-row-sound" checked={alert.sound} onChange={(event) => void change(alert, { sound: event.currentTarget.checked })} />
                </td>
                <td>
                  <input data-testid="alert-row-note" maxLength={200} value={alert.note} onChange={(event) => void change(alert, { note: event.currentTarget.value })} />
                </td>
                <td class="mono">{alert.lastFiredAt === null ? '—' : formatDateTime(alert.lastFiredAt)}</td>
                <td>
                  <button type="button" class="link" data-testid="alert-delete" title="Delete this alert" onClick={() => void remove(alert)}>
                    ✕
                  </button>
                </td>
              </tr>
            )}
          </For>
          <Show when={snapshot().alerts.length === 0}>
            <tr>
              <td colSpan={9} class="empty">No alerts. Set one here, or right-click a ladder row or the chart at a price.</td>
            </tr>
          </Show>
        </tbody>
      </table>
      <h3 class="subhead">Fired</h3>
      <ul class="alert-firings" data-testid="alert-firings">
        <For each={snapshot().firings}>
          {(firing) => (
            <li data-testid="alert-firing">
              <span class="mono">{formatDateTime(firing.at)}</span> {firing.text}
            </li>
          )}
        </For>
      </ul>
    </div>
  );
};
