// The journal panel: the whole account's journal, no market.
import { Journal } from './Journal';
import { framed } from '../desk/panel-frame';
import { registerPanel } from '../desk/panel-registry';

registerPanel({
  kind: 'journal',
  title: 'Journal',
  needsMarket: false,
  size: { width: 820, height: 420 },
  controlsSelector: '.panel-head',
  render: () => framed('Journal', 'journal-panel', <Journal />),
  body: () => <Journal />,
});
