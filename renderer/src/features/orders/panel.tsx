// The orders feature's three panels: open orders, order history and fills of the market.
import { Fills, OrderHistory } from './OrderHistory';
import { OpenOrders } from './OpenOrders';
import { framed, withMarket } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

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
