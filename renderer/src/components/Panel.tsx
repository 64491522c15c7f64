// A workspace panel: a title bar with the panel's controls and a scrolling body.
import type { Component, JSX } from 'solid-js';

export const Panel: Component<{ title: string; testId: string; class?: string; controls?: JSX.Element; children: JSX.Element }> = (props) => (
  <section class={`panel ${props.class ?? ''}`} data-testid={props.testId}>
    <header class="panel-head">
      <h2>{props.title}</h2>
      <div class="spacer" />
      {props.controls}
    </header>
    <div class="panel-body">{props.children}</div>
  </section>
);
