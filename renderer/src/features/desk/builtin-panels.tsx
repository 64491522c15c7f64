// The panels the terminal ships with, registered under their kinds. Each renders the same
// component the main window shows, inside its panel frame, for the market and Turbo flag given;
// panels that are tabs in the main window also give their content without the frame (`body`).
import { Show, type JSX } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { Balances } from '../balances/Balances';
import { CandleChart } from '../chart/CandleChart';
import { FundsPanel } from '../funds/FundsPanel';
import { Journal } from '../journal/Journal';
import { Ladder } from '../ladder/Ladder';
import { MarginPanel } from '../margin/MarginPanel';
import { OpenOrders } from '../orders/OpenOrders';
import { PositionsPanel } from '../positions/PositionsPanel';
import { Fills, OrderHistory } from '../orders/OrderHistory';
import { Tape } from '../tape/Tape';
import { OrderTicket, OrderTicketForm } from '../ticket/OrderTicket';
import { StopOrderForm, TriggersList } from '../triggers';
import { registerPanel, type PanelProps } from './panel-registry';
import { MarketName } from '../markets/MarketName';

/**
 * A market panel renders only once its market is known. `render` gets an accessor, so the panel
 * follows a change of market in place (keeping its own state, as in the main window).
 */
const withMarket = (props: PanelProps, render: (market: () => Market) => JSX.Element) => <Show when={props.market}>{(market) => render(market)}</Show>;

/** A panel whose component has no frame of its own: a titled section with a scrolling body. */
function framed(title: string, testId: string, body: JSX.Element, detail?: JSX.Element): JSX.Element {
  return (
    <section class="panel" data-testid={testId}>
      <header class="panel-head">
        <h2>{title}</h2>
        {detail}
        <div class="spacer" />
      </header>
      <div class="panel-body">{body}</div>
    </section>
  );
}

/** Stops on their own and OCO pairs for the market, with the market's legs under the form. */
function StopsBody(props: { market: Market; turbo: boolean }): JSX.Element {
  const terminal = useTerminal();
  return (
    <div class="stops" data-testid="stops">
      <StopOrderForm api={terminal.api} market={props.market} turbo={props.turbo} />
      <h3 class="subhead">
        Legs in <MarketName market={props.market} />
      </h3>
      <TriggersList api={terminal.api} markets={terminal.store.state.markets?.markets ?? []} marketId={props.market.market_id} showRecent={false} />
    </div>
  );
}

function MarginBody(): JSX.Element {
  const terminal = useTerminal();
  return <MarginPanel api={terminal.api} />;
}

let registered = false;

export function registerBuiltinPanels(): void {
  if (registered) return;
  registered = true;
  registerPanel({
    kind: 'ladder',
    title: 'Ladder',
    needsMarket: true,
    size: { width: 440, height: 780 },
    controlsSelector: '.ladder-toolbar',
    render: (props) =>
      withMarket(props, (market) => (
        <section class="panel" data-testid="ladder-panel">
          <Ladder market={market()} turbo={props.turbo} />
        </section>
      )),
  });
  registerPanel({
    kind: 'chart',
    title: 'Chart',
    needsMarket: true,
    size: { width: 860, height: 540 },
    controlsSelector: '.panel-head',
    render: (props) => withMarket(props, (market) => <CandleChart market={market()} turbo={props.turbo} />),
  });
  registerPanel({
    kind: 'ticket',
    title: 'Order ticket',
    needsMarket: true,
    size: { width: 360, height: 600 },
    controlsSelector: '.panel-head',
    render: (props) => withMarket(props, (market) => <OrderTicket market={market()} turbo={props.turbo} />),
    body: (props) => withMarket(props, (market) => <OrderTicketForm market={market()} turbo={props.turbo} />),
  });
  registerPanel({
    kind: 'stops',
    title: 'Stops',
    needsMarket: true,
    size: { width: 420, height: 640 },
    controlsSelector: '.panel-head',
    render: (props) => withMarket(props, (market) => framed('Stops', 'stops-panel', <StopsBody market={market()} turbo={props.turbo} />, <span class="muted"><MarketName market={market()} /></span>)),
    body: (props) => withMarket(props, (market) => <StopsBody market={market()} turbo={props.turbo} />),
  });
  registerPanel({
    kind: 'tape',
    title: 'Trades',
    needsMarket: true,
    size: { width: 380, height: 600 },
    controlsSelector: '.panel-head',
    render: (props) =>
      withMarket(props, (market) =>
        framed(
          'Trades',
          'tape-panel',
          <Tape market={market()} turbo={props.turbo} />,
          <span class="muted">
            <MarketName market={market()} />
          </span>,
        ),
      ),
  });
  registerPanel({
    kind: 'positions',
    title: 'Positions',
    needsMarket: false,
    size: { width: 1280, height: 360 },
    controlsSelector: '.panel-head',
    render: () => framed('Positions', 'positions-panel', <PositionsPanel />),
    body: () => <PositionsPanel />,
  });
  registerPanel({
    kind: 'orders',
    title: 'Open orders',
    needsMarket: true,
    size: { width: 820, height: 420 },
    controlsSelector: '.panel-head',
    render: (props) => withMarket(props, (market) => framed('Open orders', 'orders-panel', <OpenOrders market={market()} turbo={props.turbo} allMarkets={true} />)),
    body: (props) => withMarket(props, (market) => <OpenOrders market={market()} turbo={props.turbo} allMarkets={true} />),
  });
  registerPanel({
    kind: 'history',
    title: 'Order history',
    needsMarket: true,
    size: { width: 820, height: 420 },
    controlsSelector: '.panel-head',
    render: (props) => withMarket(props, (market) => framed('Order history', 'history-panel', <OrderHistory market={market()} turbo={props.turbo} />)),
    body: (props) => withMarket(props, (market) => <OrderHistory market={market()} turbo={props.turbo} />),
  });
  registerPanel({
    kind: 'fills',
    title: 'Fills',
    needsMarket: true,
    size: { width: 820, height: 420 },
    controlsSelector: '.panel-head',
    render: (props) => withMarket(props, (market) => framed('Fills', 'fills-panel', <Fills market={market()} turbo={props.turbo} />)),
    body: (props) => withMarket(props, (market) => <Fills market={market()} turbo={props.turbo} />),
  });
  registerPanel({
    kind: 'balances',
    title: 'Balances',
    needsMarket: false,
    size: { width: 820, height: 380 },
    controlsSelector: '.panel-head',
    render: () => framed('Balances', 'balances-panel', <Balances />),
    body: () => <Balances />,
  });
  registerPanel({
    kind: 'margin',
    title: 'Margin',
    needsMarket: false,
    size: { width: 980, height: 720 },
    controlsSelector: '.panel-head',
    render: () => framed('Margin', 'margin-panel-frame', <MarginBody />),
    body: () => <MarginBody />,
  });
  registerPanel({
    kind: 'funds',
    title: 'Funds',
    needsMarket: false,
    size: { width: 760, height: 820 },
    controlsSelector: '.panel-head',
    render: () => framed('Funds', 'funds-panel-frame', <FundsPanel />),
    body: () => <FundsPanel />,
  });
  registerPanel({
    kind: 'journal',
    title: 'Journal',
    needsMarket: false,
    size: { width: 820, height: 420 },
    controlsSelector: '.panel-head',
    render: () => framed('Journal', 'journal-panel', <Journal />),
    body: () => <Journal />,
  });
}
