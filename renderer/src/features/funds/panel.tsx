// The funds panel: deposits, the faucet and custody, for the whole account.
import { FundsPanel } from './FundsPanel';
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'funds',
  title: 'Funds',
  needsMarket: false,
  size: { width: 760, height: 820 },
  controlsSelector: '.panel-head',
  render: () => framed('Funds', 'funds-panel-frame', <FundsPanel />),
  body: () => <FundsPanel />,
});
