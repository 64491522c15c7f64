// Display fitting: known cases (Signal's "keep 100 px of the title visible", Ledger's "else the
// primary display") and properties over random desks: the result is always grippable and fits its
// display's work area, a window that was visible and fits never moves, and fitting twice is fitting once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DisplayView, Rect } from '../../../../../shared/ipc/views/desk';
import { cascadeFrom, displayOf, fitsIn, fitToDisplays, isGrippable, MIN_VISIBLE_WIDTH, placeOnDisplay } from '../../../../../main/services/desk/display-fit';
import { checkProperty } from '../../../../support/property';

const display = (id: string, bounds: Rect, primary = false, workArea: Rect = bounds): DisplayView => ({ id, label: id, bounds, workArea, primary });
const left = display('1', { x: 0, y: 0, width: 1920, height: 1080 }, true, { x: 0, y: 0, width: 1920, height: 1040 });
const right = display('2', { x: 1920, y: 0, width: 2560, height: 1440 });

/** Visible on some display and within that display's work area in size. */
function landsOn(window: Rect, displays: readonly DisplayView[]): DisplayView | undefined {
  return displays.find((candidate) => isGrippable(window, candidate.workArea) && fitsIn(window, candidate.workArea));
}

describe('fitToDisplays: cases', () => {
  it('leaves a window that is visible and fits where it is, even hanging off an edge', () => {
    const hanging = { x: 1800, y: 100, width: 600, height: 400 };
    expect(fitToDisplays(hanging, [left])).toEqual(hanging);
  });

  it('keeps a window whose title shows 100 px on the display; moves one that shows less', () => {
    const justVisible = { x: 1920 - MIN_VISIBLE_WIDTH, y: 10, width: 500, height: 300 };
    expect(fitToDisplays(justVisible, [left])).toEqual(justVisible);
    const tooLittle = { x: 1920 - MIN_VISIBLE_WIDTH + 1, y: 10, width: 500, height: 300 };
    expect(fitToDisplays(tooLittle, [left])).toEqual({ x: 1420, y: 10, width: 500, height: 300 });
  });

  it('moves a window whose title bar is above the work area down onto it', () => {
    expect(fitToDisplays({ x: 100, y: -20, width: 500, height: 300 }, [left])).toEqual({ x: 100, y: 0, width: 500, height: 300 });
  });

  it('moves a window whose title bar is under the taskbar up onto the work area', () => {
    expect(fitToDisplays({ x: 100, y: 1030, width: 500, height: 300 }, [left])).toEqual({ x: 100, y: 740, width: 500, height: 300 });
  });

  it('centres a window of a removed display on the primary one, its size clamped to the work area', () => {
    const onRight = { x: 2000, y: 100, width: 2400, height: 1300 };
    expect(fitToDisplays(onRight, [left, right])).toEqual(onRight);
    expect(fitToDisplays(onRight, [left])).toEqual({ x: 0, y: 0, width: 1920, height: 1040 });
    expect(fitToDisplays({ x: 3000, y: 100, width: 800, height: 600 }, [left])).toEqual({ x: 560, y: 220, width: 800, height: 600 });
  });

  it('prefers the display a window was saved on when it overlaps none', () => {
    const third = display('3', { x: -1280, y: 0, width: 1280, height: 1024 });
    expect(fitToDisplays({ x: 9000, y: 9000, width: 400, height: 300 }, [left, third], { preferredDisplayId: '3' })).toEqual({ x: -840, y: 362, width: 400, height: 300 });
    expect(fitToDisplays({ x: 9000, y: 9000, width: 400, height: 300 }, [left, third], { preferredDisplayId: 'gone' })).toEqual({ x: 760, y: 370, width: 400, height: 300 });
  });

  it('moves a window that overlaps two displays onto the one it overlapped most', () => {
    // Its title is on neither work area (above both), most of it on the right display.
    const straddling = { x: 1800, y: -40, width: 1000, height: 500 };
    const fitted = fitToDisplays(straddling, [left, right]);
    expect(fitted).toEqual({ x: 1920, y: 0, width: 1000, height: 500 });
    expect(displayOf(fitted, [left, right])?.id).toBe('2');
  });

  it('shrinks a window that is larger than the display it is on after a resolution change', () => {
    const smaller = display('1', { x: 0, y: 0, width: 1280, height: 720 }, true);
    expect(fitToDisplays({ x: 0, y: 0, width: 1600, height: 900 }, [smaller])).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
  });

  it('changes nothing when there are no displays to fit to', () => {
    const window = { x: 5, y: 5, width: 10, height: 10 };
    expect(fitToDisplays(window, [])).toBe(window);
  });

  it('places a window on a chosen display and cascades new windows from their opener', () => {
    expect(placeOnDisplay({ x: 0, y: 0, width: 3000, height: 500 }, right)).toEqual({ x: 1920, y: 470, width: 2560, height: 500 });
    const first = cascadeFrom({ x: 0, y: 0, width: 1400, height: 900 }, { width: 400, height: 300 }, 0, [left]);
    const second = cascadeFrom({ x: 0, y: 0, width: 1400, height: 900 }, { width: 400, height: 300 }, 1, [left]);
    expect(first).toEqual({ x: 48, y: 48, width: 400, height: 300 });
    expect(second.x - first.x).toBe(32);
  });
});

// Random desks: displays side by side or stacked (sometimes overlapping), work areas inside them.
const rectArbitrary = (span: number) =>
  fc.record({
    x: fc.integer({ min: -span, max: span }),
    y: fc.integer({ min: -span, max: span }),
    width: fc.integer({ min: 1, max: span }),
    height: fc.integer({ min: 1, max: span }),
  });

const displayArbitrary = fc
  .record({
    bounds: fc.record({ x: fc.integer({ min: -6000, max: 6000 }), y: fc.integer({ min: -3000, max: 3000 }), width: fc.integer({ min: 320, max: 7680 }), height: fc.integer({ min: 240, max: 4320 }) }),
    top: fc.integer({ min: 0, max: 60 }),
    bottom: fc.integer({ min: 0, max: 80 }),
  })
  .map(({ bounds, top, bottom }) => ({ bounds, workArea: { x: bounds.x, y: bounds.y + top, width: bounds.width, height: bounds.height - top - bottom } }));

const displaysArbitrary = fc
  .array(displayArbitrary, { minLength: 1, maxLength: 4 })
  .chain((list) => fc.integer({ min: 0, max: list.length - 1 }).map((primary) => list.map((item, index) => display(String(index + 1), item.bounds, index === primary, item.workArea))));

describe('fitToDisplays: properties', () => {
  it('always leaves the window grippable on a display and no larger than its work area', () => {
    checkProperty(
      fc.property(rectArbitrary(12_000), displaysArbitrary, fc.option(fc.constantFrom('1', '2', '3', '9')), (window, displays, preferred) => {
        const fitted = fitToDisplays(window, displays, { preferredDisplayId: preferred });
        expect(landsOn(fitted, displays)).toBeDefined();
        expect(Number.isInteger(fitted.x) && Number.isInteger(fitted.y)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('never moves or resizes a window that was visible and fits, even one hanging off its display', () => {
    // Built visible: a size that fits a display's work area, its title grip on that work area.
    const visibleWindow = displaysArbitrary.chain((displays) =>
      fc
        .record({ pick: fc.nat(), fw: fc.double({ min: 0, max: 1, noNaN: true }), fh: fc.double({ min: 0, max: 1, noNaN: true }), fx: fc.double({ min: 0, max: 1, noNaN: true }), fy: fc.double({ min: 0, max: 1, noNaN: true }) })
        .map(({ pick, fw, fh, fx, fy }) => {
          const area = displays[pick % displays.length]!.workArea;
          const width = Math.max(1, Math.round(area.width * fw));
          const height = Math.max(1, Math.round(area.height * fh));
          const grip = Math.min(MIN_VISIBLE_WIDTH, width);
          const lowX = area.x - width + grip;
          const highX = area.x + area.width - grip;
          const highY = area.y + area.height - Math.min(50, height);
          return { displays, window: { x: lowX + Math.floor((highX - lowX) * fx), y: area.y + Math.floor((highY - area.y) * fy), width, height } };
        }),
    );
    checkProperty(
      fc.property(visibleWindow, ({ displays, window }) => {
        expect(landsOn(window, displays)).toBeDefined();
        expect(fitToDisplays(window, displays)).toEqual(window);
      }),
      { numRuns: 3000 },
    );
  });

  it('never moves a random window that happens to be visible and fit', () => {
    checkProperty(
      fc.property(rectArbitrary(4000), displaysArbitrary, (window, displays) => {
        if (landsOn(window, displays)) expect(fitToDisplays(window, displays)).toEqual(window);
      }),
      { numRuns: 3000 },
    );
  });

  it('never moves or resizes a window placed anywhere inside a work area', () => {
    checkProperty(
      fc.property(displaysArbitrary, fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (displays, pick, fx, fy, fw, fh) => {
        const area = displays[pick % displays.length]!.workArea;
        const width = Math.max(1, Math.floor(area.width * fw));
        const height = Math.max(1, Math.floor(area.height * fh));
        const window = { x: area.x + Math.floor((area.width - width) * fx), y: area.y + Math.floor((area.height - height) * fy), width, height };
        expect(fitToDisplays(window, displays)).toEqual(window);
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent, and a moved window lies wholly inside the work area it went to', () => {
    checkProperty(
      fc.property(rectArbitrary(12_000), displaysArbitrary, (window, displays) => {
        const fitted = fitToDisplays(window, displays);
        expect(fitToDisplays(fitted, displays)).toEqual(fitted);
        if (fitted !== window && (fitted.x !== window.x || fitted.y !== window.y || fitted.width !== window.width || fitted.height !== window.height)) {
          const inside = displays.some(
            ({ workArea: area }) => fitted.x >= area.x && fitted.y >= area.y && fitted.x + fitted.width <= area.x + area.width && fitted.y + fitted.height <= area.y + area.height,
          );
          expect(inside).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('never makes a window larger', () => {
    checkProperty(
      fc.property(rectArbitrary(12_000), displaysArbitrary, (window, displays) => {
        const fitted = fitToDisplays(window, displays);
        expect(fitted.width).toBeLessThanOrEqual(window.width);
        expect(fitted.height).toBeLessThanOrEqual(window.height);
      }),
      { numRuns: 2000 },
    );
  });
});
