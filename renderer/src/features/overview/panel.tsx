// The markets overview's panel: every market of the network, for the whole window (no market of its
// own; the window's market is marked in it and a click changes it).
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';
import { MarketOverview } from './MarketOverview';

registerPanel({
  kind: 'overview',
  title: 'Markets',
  needsMarket: false,
  size: { width: 900, height: 420 },
  controlsSelector: '.panel-head',
  render: (props) => framed('Markets', 'overview-panel', <MarketOverview current={props.market} currentTurbo={props.turbo} />),
  body: (props) => <MarketOverview current={props.market} currentTurbo={props.turbo} />,
});
