// The Working algorithms panel: every algorithm main runs, for the whole account, no market.
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';
import { AlgosPanel } from './AlgosPanel';

registerPanel({
  kind: 'algos',
  title: 'Working algorithms',
  needsMarket: false,
  size: { width: 860, height: 460 },
  controlsSelector: '.panel-head',
  render: () => framed('Working algorithms', 'algos-panel', <AlgosPanel />),
  body: () => <AlgosPanel />,
});
