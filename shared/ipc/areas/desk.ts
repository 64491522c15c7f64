// The desk area of the contract: panels in windows of their own, saved layouts, displays and link
// groups. Declared here; merged in ../contract.ts. The schemas are exported because main's layout
// file is parsed with the same ones (a layout is what these requests describe, at rest).
import { z } from 'zod';
import { b256Input, noInput } from '../inputs';
import { request, stream } from '../spec';
import { LINK_GROUPS, PANEL_KIND_PATTERN, type DeskDiagnostics, type DeskState, type DeskView, type LayoutSummary, type LinkedMarket, type OpenedWindow } from '../views/desk';

/** Far beyond any real desktop (eight 8K screens side by side), near enough to keep sums exact. */
const COORDINATE = 100_000;
export const MAX_PANEL_WINDOWS = 16;
export const MAX_DISPLAYS = 16;
export const MAX_LAYOUTS = 32;

const coordinate = z.number().int().min(-COORDINATE).max(COORDINATE);
const extent = z.number().int().min(1).max(COORDINATE);

export const rectSchema = z.strictObject({ x: coordinate, y: coordinate, width: extent, height: extent });
export const panelKindSchema = z.string().regex(PANEL_KIND_PATTERN, 'expected a panel kind: lowercase letters, digits and dashes, at most 32');
export const linkGroupSchema = z.enum(LINK_GROUPS).nullable();
export const windowKeySchema = z.string().regex(/^(main|[0-9a-f]{32})$/, 'expected a window key');
export const layoutNameSchema = z
  .string()
  .trim()
  .min(1, 'a layout needs a name')
  .max(40)
  // Control characters would make a name that cannot be shown or typed back.
  .regex(/^[^\p{Cc}]+$/u, 'a layout name has no control characters');
export const displayIdSchema = z.string().min(1).max(40);

export const displaySchema = z.strictObject({
  id: displayIdSchema,
  label: z.string().max(80),
  bounds: rectSchema,
  workArea: rectSchema,
  primary: z.boolean(),
});

const deskInputs = {
  openPanelWindow: z.strictObject({
    panel: panelKindSchema,
    /** By default the market, Turbo flag and link group of the window that asks. */
    marketId: b256Input.nullable().optional(),
    turbo: z.boolean().optional(),
    linkGroup: linkGroupSchema.optional(),
    /** The panel's preferred window size; main places the window. */
    size: z.strictObject({ width: extent, height: extent }).optional(),
  }),
  dockPanelWindow: z.strictObject({ windowKey: windowKeySchema }),
  /** The market of the window that asks; main passes it on to the rest of its link group. */
  setWindowMarket: z.strictObject({ marketId: b256Input, turbo: z.boolean().optional() }),
  setWindowLinkGroup: z.strictObject({ windowKey: windowKeySchema.optional(), linkGroup: linkGroupSchema }),
  setWindowBounds: z.strictObject({ windowKey: windowKeySchema, bounds: rectSchema }),
  moveWindowToDisplay: z.strictObject({ windowKey: windowKeySchema, displayId: displayIdSchema }),
  saveLayout: z.strictObject({ name: layoutNameSchema }),
  applyLayout: z.strictObject({ name: layoutNameSchema }),
  deleteLayout: z.strictObject({ name: layoutNameSchema }),
  /** Browser host only: replace its simulated displays (a test's display change). */
  setSimulatedDisplays: z.strictObject({ displays: z.array(displaySchema).min(1).max(MAX_DISPLAYS) }),
} as const;

export const deskRequests = {
  getDesk: request<DeskView>()(noInput),
  openPanelWindow: request<OpenedWindow>()(deskInputs.openPanelWindow),
  dockPanelWindow: request<null>()(deskInputs.dockPanelWindow),
  setWindowMarket: request<{ readonly followers: number }>()(deskInputs.setWindowMarket),
  setWindowLinkGroup: request<null>()(deskInputs.setWindowLinkGroup),
  setWindowBounds: request<null>()(deskInputs.setWindowBounds),
  moveWindowToDisplay: request<null>()(deskInputs.moveWindowToDisplay),
  saveLayout: request<readonly LayoutSummary[]>()(deskInputs.saveLayout),
  applyLayout: request<null>()(deskInputs.applyLayout),
  deleteLayout: request<readonly LayoutSummary[]>()(deskInputs.deleteLayout),
  setSimulatedDisplays: request<null>()(deskInputs.setSimulatedDisplays),
  getDeskDiagnostics: request<DeskDiagnostics>()(noInput),
} as const;

export const deskStreams = {
  /** Every window's copy of the desk: windows, displays, layouts. */
  desk: stream<DeskState>(),
  /** To one window: a market chosen in another window of its link group. */
  linkedMarket: stream<LinkedMarket>(),
} as const;
