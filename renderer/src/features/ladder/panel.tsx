// The ladder's panel: detached, docked and saved under the kind 'ladder'.
import { Ladder } from './Ladder';
import { withMarket } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'ladder',
  title: 'Ladder',
  needsMarket: true,
  size: { width: 440, height: 780 },
  controlsSelector: '.ladder-toolbar',
  render: (props) =>
    withMarket(props, (market) => (
      <section class="panel" data-testid="ladder-panel">
        <Ladder market={market()} turbo={props.turbo} />
      </section>
    )),
});
