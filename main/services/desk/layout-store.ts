// Saved layouts, in the data directory (layouts.json, written atomically by JsonStore): which panels
// have windows of their own, where (bounds and display), with what market, Turbo flag and link group,
// and the main window's. `current` is the arrangement as the trader left it, kept so the next start
// opens the desk as it was; `active` is the named layout last saved or switched to.
import { join } from 'node:path';
import { z } from 'zod';
import { displayIdSchema, layoutNameSchema, linkGroupSchema, MAX_LAYOUTS, MAX_PANEL_WINDOWS, panelKindSchema, rectSchema } from '../../../shared/ipc/areas/desk';
import type { LayoutSummary } from '../../../shared/ipc/views/desk';
import { fail, ok, type Result } from '../../../shared/result';
import { JsonStore } from '../storage/json-store';

const marketId = z.string().regex(/^0x[0-9a-f]{64}$/).nullable();

const placedWindow = {
  marketId,
  turbo: z.boolean(),
  linkGroup: linkGroupSchema,
  bounds: rectSchema.nullable(),
  displayId: displayIdSchema.nullable(),
};

export const layoutSchema = z.object({
  name: layoutNameSchema,
  savedAt: z.number().int().min(0),
  main: z.object(placedWindow),
  windows: z.array(z.object({ panel: panelKindSchema, ...placedWindow })).max(MAX_PANEL_WINDOWS),
});

export type Layout = z.output<typeof layoutSchema>;
export type LayoutWindow = Layout['windows'][number];

const fileSchema = z.object({
  version: z.literal(1),
  active: layoutNameSchema.nullable(),
  current: layoutSchema.nullable(),
  layouts: z.array(layoutSchema).max(MAX_LAYOUTS),
});

export const UNKNOWN_LAYOUT = 'UNKNOWN_LAYOUT';
export const TOO_MANY_LAYOUTS = 'TOO_MANY_LAYOUTS';

/** Names are matched without regard to case, so "Morning" and "morning" are one layout. */
const sameName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

export class LayoutStore {
  private readonly file: JsonStore<typeof fileSchema>;

  constructor(dataDir: string, log: (line: string) => void, now: () => number) {
    this.file = new JsonStore(join(dataDir, 'layouts.json'), fileSchema, () => ({ version: 1 as const, active: null, current: null, layouts: [] }), log, now);
  }

  summaries(): LayoutSummary[] {
    return this.file.get().layouts.map((layout) => ({ name: layout.name, savedAt: layout.savedAt, panels: layout.windows.map((window) => window.panel) }));
  }

  active(): string | null {
    return this.file.get().active;
  }

  current(): Layout | null {
    return this.file.get().current;
  }

  find(name: string): Layout | null {
    return this.file.get().layouts.find((layout) => sameName(layout.name, name)) ?? null;
  }

  /** Save (or overwrite, keeping its place in the list) a named layout and make it the active one. */
  save(layout: Layout): Result<LayoutSummary[]> {
    const existing = this.find(layout.name);
    if (!existing && this.file.get().layouts.length >= MAX_LAYOUTS) return fail(TOO_MANY_LAYOUTS, `at most ${MAX_LAYOUTS} layouts are kept; delete one first`);
    const saved = this.file.update((file) => ({
      ...file,
      active: layout.name,
      current: layout,
      layouts: existing ? file.layouts.map((old) => (sameName(old.name, layout.name) ? layout : old)) : [...file.layouts, layout],
    }));
    return saved.ok ? ok(this.summaries()) : saved;
  }

  delete(name: string): Result<LayoutSummary[]> {
    if (!this.find(name)) return fail(UNKNOWN_LAYOUT, `name: no layout named ${JSON.stringify(name)}`, { field: 'name' });
    const saved = this.file.update((file) => ({
      ...file,
      active: file.active !== null && sameName(file.active, name) ? null : file.active,
      layouts: file.layouts.filter((layout) => !sameName(layout.name, name)),
    }));
    return saved.ok ? ok(this.summaries()) : saved;
  }

  setActive(name: string | null): Result<void> {
    const saved = this.file.update((file) => ({ ...file, active: name }));
    return saved.ok ? ok(undefined) : saved;
  }

  /** Remember the arrangement as it is now (debounced by the caller). */
  setCurrent(layout: Layout): Result<void> {
    const saved = this.file.update((file) => ({ ...file, current: layout }));
    return saved.ok ? ok(undefined) : saved;
  }
}
