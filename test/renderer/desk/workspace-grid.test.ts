// The main window's workspace reflows around detached panels: no empty place is left, and with
// nothing detached it is the layout the stylesheet describes.
import { describe, expect, it } from 'vitest';
import { workspaceGrid } from '../../../renderer/src/features/desk/desk-model';

const none = { ladder: false, chart: false, ticket: false, blotter: false, tape: false };

describe('workspace grid', () => {
  it('is the full layout with nothing detached', () => {
    expect(workspaceGrid(none, false)).toEqual({
      columns: 'minmax(380px, 430px) minmax(420px, 1fr) minmax(300px, 340px)',
      rows: 'minmax(0, 1.15fr) minmax(0, 1fr)',
      areas: "'ladder chart ticket' 'ladder blotter tape'",
    });
  });
  it('drops the ladder column when the ladder is detached, with a strip on top', () => {
    expect(workspaceGrid({ ...none, ladder: true }, true)).toEqual({
      columns: 'minmax(420px, 1fr) minmax(300px, 340px)',
      rows: 'auto minmax(0, 1.15fr) minmax(0, 1fr)',
      areas: "'dock dock' 'chart ticket' 'blotter tape'",
    });
  });
  it('lets the place under or over a detached one take its height', () => {
    expect(workspaceGrid({ ...none, chart: true }, true).areas).toBe("'dock dock dock' 'ladder blotter ticket' 'ladder blotter tape'");
    expect(workspaceGrid({ ...none, tape: true }, true).areas).toBe("'dock dock dock' 'ladder chart ticket' 'ladder blotter ticket'");
  });
  it('gives the free width to the last column when the chart column goes', () => {
    const grid = workspaceGrid({ ...none, chart: true, blotter: true }, true);
    expect(grid.columns).toBe('minmax(380px, 430px) minmax(300px, 1fr)');
    expect(grid.areas).toBe("'dock dock' 'ladder ticket' 'ladder tape'");
  });
  it('leaves no column without a panel, and says so when every place is gone', () => {
    for (const mask of Array.from({ length: 32 }, (_, index) => index)) {
      const gone = { ladder: (mask & 1) > 0, chart: (mask & 2) > 0, ticket: (mask & 4) > 0, blotter: (mask & 8) > 0, tape: (mask & 16) > 0 };
      const grid = workspaceGrid(gone, mask > 0);
      const cells = grid.areas.replace(/'/g, '').split(/\s+/).filter(Boolean);
      for (const [place, out] of Object.entries(gone)) expect(cells.includes(place), `${JSON.stringify(gone)}: ${place}`).toBe(!out);
      if (mask === 31) expect(cells).toEqual(['dock', 'empty']);
      else expect(grid.columns.split(/ (?=minmax)/).length).toBe(grid.areas.split("' '")[0]!.replace(/'/g, '').split(' ').length);
    }
  });
});
