// The chart's panel: detached, docked and saved under the kind 'chart'.
import { CandleChart } from './CandleChart';
import { withMarket } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'chart',
  title: 'Chart',
  needsMarket: true,
  size: { width: 860, height: 540 },
  controlsSelector: '.panel-head',
  render: (props) => withMarket(props, (market) => <CandleChart market={market()} turbo={props.turbo} />),
});
