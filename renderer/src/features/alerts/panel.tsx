// The alerts panel: every alert main keeps, for the whole account, no market.
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';
import { AlertsPanel } from './AlertsPanel';

registerPanel({
  kind: 'alerts',
  title: 'Alerts',
  needsMarket: false,
  size: { width: 760, height: 420 },
  controlsSelector: '.panel-head',
  render: () => framed('Alerts', 'alerts-panel', <AlertsPanel />),
  body: () => <AlertsPanel />,
});
