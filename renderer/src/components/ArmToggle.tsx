// The ARM / ARMED button of a click-to-trade surface (ladder, chart): pressed while armed.
import type { Component } from 'solid-js';

export const ArmToggle: Component<{ armed: boolean; testId: string; title: string; onToggle: () => void }> = (props) => (
  <button type="button" class="arm-toggle" classList={{ on: props.armed }} data-testid={props.testId} aria-pressed={props.armed} title={props.title} onClick={() => props.onToggle()}>
    {props.armed ? 'ARMED' : 'ARM'}
  </button>
);
