// The records panel: the trading account's daily summary and exports, every market.
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';
import { Records } from './Records';

registerPanel({
  kind: 'records',
  title: 'Records',
  needsMarket: false,
  size: { width: 900, height: 420 },
  controlsSelector: '.panel-head',
  render: () => framed('Records', 'records-panel', <Records />),
  body: () => <Records />,
});
