// The margin panel: the Turbo accounts of the whole account, no market.
import type { JSX } from 'solid-js';
import { useTerminal } from '../../stores/terminal-context';
import { MarginPanel } from './MarginPanel';
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

function MarginBody(): JSX.Element {
  const terminal = useTerminal();
  return <MarginPanel api={terminal.api} />;
}

registerPanel({
  kind: 'margin',
  title: 'Margin',
  needsMarket: false,
  size: { width: 980, height: 720 },
  controlsSelector: '.panel-head',
  render: () => framed('Margin', 'margin-panel-frame', <MarginBody />),
  body: () => <MarginBody />,
});
