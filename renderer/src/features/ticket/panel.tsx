// The order ticket's panel: framed when detached, its form alone as a tab in the main window.
import { OrderTicket, OrderTicketForm } from './OrderTicket';
import { withMarket } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'ticket',
  title: 'Order ticket',
  needsMarket: true,
  size: { width: 360, height: 600 },
  controlsSelector: '.panel-head',
  render: (props) => withMarket(props, (market) => <OrderTicket market={market()} turbo={props.turbo} />),
  body: (props) => withMarket(props, (market) => <OrderTicketForm market={market()} turbo={props.turbo} />),
});
