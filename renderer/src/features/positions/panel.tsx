// The positions panel: the whole account, no market.
import { PositionsPanel } from './PositionsPanel';
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'positions',
  title: 'Positions',
  needsMarket: false,
  size: { width: 1280, height: 360 },
  controlsSelector: '.panel-head',
  render: () => framed('Positions', 'positions-panel', <PositionsPanel />),
  body: () => <PositionsPanel />,
});
