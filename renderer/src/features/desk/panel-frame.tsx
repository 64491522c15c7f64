// The frame helpers every panel registration shares: a market panel waits for its market, and a
// component without a frame of its own is shown in a titled section.
import { Show, type JSX } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import type { PanelProps } from './panel-registry';

/**
 * A market panel renders only once its market is known. `render` gets an accessor, so the panel
 * follows a change of market in place (keeping its own state, as in the main window).
 */
export const withMarket = (props: PanelProps, render: (market: () => Market) => JSX.Element) => <Show when={props.market}>{(market) => render(market)}</Show>;

/** A panel whose component has no frame of its own: a titled section with a scrolling body. */
export function framed(title: string, testId: string, body: JSX.Element, detail?: JSX.Element): JSX.Element {
  return (
    <section class="panel" data-testid={testId}>
      <header class="panel-head">
        <h2>{title}</h2>
        {detail}
        <div class="spacer" />
      </header>
      <div class="panel-body">{body}</div>
    </section>
  );
}
