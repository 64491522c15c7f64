// The balances panel: the whole account, no market.
import { Balances } from './Balances';
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'balances',
  title: 'Balances',
  needsMarket: false,
  size: { width: 820, height: 380 },
  controlsSelector: '.panel-head',
  render: () => framed('Balances', 'balances-panel', <Balances />),
  body: () => <Balances />,
});
