// The stops panel: a stop or OCO pair for the market, with the market's legs under the form.
import type { JSX } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { useTerminal } from '../../stores/terminal-context';
import { MarketName } from '../markets/MarketName';
import { StopOrderForm } from './StopOrderForm';
import { TriggersList } from './TriggersList';
import { framed, withMarket } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

/** Stops on their own and OCO pairs for the market, with the market's legs under the form. */
function StopsBody(props: { market: Market; turbo: boolean }): JSX.Element {
  const terminal = useTerminal();
  return (
    <div class="stops" data-testid="stops">
      <StopOrderForm market={props.market} turbo={props.turbo} />
      <h3 class="subhead">
        Legs in <MarketName market={props.market} />
      </h3>
      <TriggersList markets={terminal.store.state.markets?.markets ?? []} marketId={props.market.market_id} showRecent={false} />
    </div>
  );
}

registerPanel({
  kind: 'stops',
  title: 'Stops',
  needsMarket: true,
  size: { width: 420, height: 640 },
  controlsSelector: '.panel-head',
  render: (props) => withMarket(props, (market) => framed('Stops', 'stops-panel', <StopsBody market={market()} turbo={props.turbo} />, <span class="muted"><MarketName market={market()} /></span>)),
  body: (props) => withMarket(props, (market) => <StopsBody market={market()} turbo={props.turbo} />),
});
