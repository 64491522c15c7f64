// The margin panel: the Turbo accounts of the whole account, no market.
import { MarginPanel } from './MarginPanel';
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'margin',
  title: 'Margin',
  needsMarket: false,
  size: { width: 980, height: 720 },
  controlsSelector: '.panel-head',
  render: () => framed('Margin', 'margin-panel-frame', <MarginPanel />),
  body: () => <MarginPanel />,
});
