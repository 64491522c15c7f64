// The panels a window can show, by kind. Open to new kinds: a feature registers its panel
// (`registerPanel({ kind: 'margin', ... })`) and it can then be detached, docked and saved in
// layouts like the built-in ones; main only checks the shape of a kind's name. Every panel takes
// a market and a Turbo flag, so it can live alone in a window of its own.
import type { JSX } from 'solid-js';
import type { Market } from '../../../../shared/market/market';
import { PANEL_KIND_PATTERN } from '../../../../shared/ipc/views/desk';

export interface PanelProps {
  /** The window's market; null only for panels that need none (`needsMarket: false`). */
  readonly market: Market | null;
  readonly turbo: boolean;
}

export interface PanelDefinition {
  readonly kind: string;
  /** Shown in the detached window's bar, the layout menu and placeholders. */
  readonly title: string;
  /** Whether the panel shows one market (ladder) or the whole account (balances, journal). */
  readonly needsMarket: boolean;
  /** The window size it opens at when detached. */
  readonly size: { readonly width: number; readonly height: number };
  /**
   * Where in the panel's own chrome the desk's controls (detach) go, e.g. '.panel-head'. Without
   * one, or when the panel has no such element, they float at its top right corner.
   */
  readonly controlsSelector?: string;
  /** The panel with its frame (a `.panel` section), filling the box it is given. */
  readonly render: (props: PanelProps) => JSX.Element;
  /**
   * The panel's content without its frame, for a tab of a tab group in the main window (the group
   * draws the frame and the tabs). Panels without one are shown framed in the tab.
   */
  readonly body?: (props: PanelProps) => JSX.Element;
}

const panels = new Map<string, PanelDefinition>();

export function registerPanel(definition: PanelDefinition): void {
  // A kind main would refuse could never be detached: fail at registration, where the bug is.
  if (!PANEL_KIND_PATTERN.test(definition.kind)) throw new Error(`registerPanel: ${JSON.stringify(definition.kind)} is not a panel kind (lowercase letters, digits, dashes)`);
  panels.set(definition.kind, definition);
}

export function panelDefinition(kind: string | null | undefined): PanelDefinition | null {
  return kind ? (panels.get(kind) ?? null) : null;
}

export function panelKinds(): string[] {
  return [...panels.keys()];
}

export function panelTitle(kind: string): string {
  return panels.get(kind)?.title ?? kind;
}
