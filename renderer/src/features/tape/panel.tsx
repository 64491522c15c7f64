// The trades tape's panel, framed with the market's name.
import { MarketName } from '../markets/MarketName';
import { Tape } from './Tape';
import { framed, withMarket } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'tape',
  title: 'Trades',
  needsMarket: true,
  size: { width: 380, height: 600 },
  controlsSelector: '.panel-head',
  render: (props) =>
    withMarket(props, (market) =>
      framed(
        'Trades',
        'tape-panel',
        <Tape market={market()} turbo={props.turbo} />,
        <span class="muted">
          <MarketName market={market()} />
        </span>,
      ),
    ),
});
