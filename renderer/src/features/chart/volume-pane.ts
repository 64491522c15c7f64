// The volume pane under the price pane: one bar per candle (its colour), on the same time range and
// the same plotting width as the price pane (its value axis as wide as the price axis), the cursor
// shared between the two. A second uPlot: the price pane's scale and pixel geometry stay its own.
import uPlot from 'uplot';

export interface VolumePaneOptions {
  /** The time range both panes show (seconds). */
  readonly timeRange: () => [number, number];
  /** The price pane's value axis width (CSS px), so both plotting areas start at the same x. */
  readonly axisWidth: () => number;
  /** The uPlot cursor sync key shared with the price pane. */
  readonly syncKey: string;
  readonly onHover: (index: number | null) => void;
}

/** x (seconds), volume (base units, drawing numbers), 1 where the candle closed at or above its open. */
export type VolumeColumns = [number[], number[], number[]];

const UP = 'rgba(47, 191, 113, 0.55)';
const DOWN = 'rgba(229, 72, 77, 0.55)';

/** Volume axis labels: at most four significant digits, with k / M for thousands and millions. */
export function volumeLabel(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1_000_000) return `${Number((value / 1_000_000).toPrecision(4))}M`;
  if (magnitude >= 1_000) return `${Number((value / 1_000).toPrecision(4))}k`;
  return magnitude === 0 ? '0' : String(Number(value.toPrecision(4)));
}

function volumeBars(): uPlot.Plugin {
  return {
    hooks: {
      draw: (plot: uPlot) => {
        const data = plot.data as unknown as number[][] | null;
        const [xs, volumes, ups] = data ?? [];
        if (!xs || !volumes || !ups || xs.length === 0) return;
        const first = plot.series[0]?.idxs?.[0] ?? 0;
        const last = plot.series[0]?.idxs?.[1] ?? xs.length - 1;
        const visible = Math.max(1, last - first + 1);
        const width = Math.max(1, Math.min(14, (plot.bbox.width / visible) * 0.7));
        const base = plot.valToPos(0, 'y', true);
        const context = plot.ctx;
        context.save();
        for (let index = first; index <= last; index++) {
          const x = Math.round(plot.valToPos(xs[index]!, 'x', true));
          const top = plot.valToPos(volumes[index]!, 'y', true);
          context.fillStyle = ups[index] === 1 ? UP : DOWN;
          context.fillRect(Math.round(x - width / 2), top, Math.round(width), Math.max(1, base - top));
        }
        context.restore();
      },
    },
  };
}

export function createVolumePane(element: HTMLElement, data: VolumeColumns, options: VolumePaneOptions): uPlot {
  return new uPlot(
    {
      width: element.clientWidth || 600,
      height: Math.max(40, element.clientHeight || 80),
      legend: { show: false },
      cursor: { points: { show: false }, drag: { x: false, y: false }, sync: { key: options.syncKey, setSeries: false } },
      scales: {
        x: { time: true, range: () => options.timeRange() },
        y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        { show: false },
        { stroke: '#7d8896', grid: { stroke: '#1a2029' }, ticks: { stroke: '#222a35' }, space: 22, size: () => options.axisWidth(), values: (_plot, splits) => splits.map(volumeLabel) },
      ],
      series: [{}, { label: 'volume', stroke: 'transparent', points: { show: false } }, { label: 'up', show: false }],
      hooks: { setCursor: [(plot) => options.onHover(plot.cursor.idx ?? null)] },
      plugins: [volumeBars()],
    },
    data as unknown as uPlot.AlignedData,
    element,
  );
}
