// The app icon, drawn from shapes (original artwork): a dark rounded tile with ledger rulings and
// three candlesticks, rising left to right, over a baseline. Coordinates are in a unit square,
// y down; each pixel averages 4x4 samples for smooth edges at every size.
import type { RgbaImage } from './png';

type Colour = readonly [number, number, number, number];

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
  readonly radius: number;
}

/** Signed distance to a rounded box (negative inside). */
function distance(x: number, y: number, box: Box): number {
  const centreX = (box.left + box.right) / 2;
  const centreY = (box.top + box.bottom) / 2;
  const halfWidth = (box.right - box.left) / 2 - box.radius;
  const halfHeight = (box.bottom - box.top) / 2 - box.radius;
  const dx = Math.max(Math.abs(x - centreX) - halfWidth, 0);
  const dy = Math.max(Math.abs(y - centreY) - halfHeight, 0);
  const inside = Math.min(Math.max(Math.abs(x - centreX) - halfWidth, Math.abs(y - centreY) - halfHeight), 0);
  return Math.sqrt(dx * dx + dy * dy) + inside - box.radius;
}

const GREEN: Colour = [46, 204, 113, 255];
const RED: Colour = [229, 83, 75, 255];
const RULE: Colour = [255, 255, 255, 28];
const BASELINE: Colour = [143, 179, 217, 255];

const TILE: Box = { left: 0.03, top: 0.03, right: 0.97, bottom: 0.97, radius: 0.2 };

interface Candle {
  readonly x: number;
  readonly bodyTop: number;
  readonly bodyBottom: number;
  readonly wickTop: number;
  readonly wickBottom: number;
  readonly colour: Colour;
}

const CANDLES: readonly Candle[] = [
  { x: 0.31, bodyTop: 0.47, bodyBottom: 0.7, wickTop: 0.38, wickBottom: 0.77, colour: GREEN },
  { x: 0.5, bodyTop: 0.4, bodyBottom: 0.58, wickTop: 0.31, wickBottom: 0.66, colour: RED },
  { x: 0.69, bodyTop: 0.22, bodyBottom: 0.5, wickTop: 0.15, wickBottom: 0.58, colour: GREEN },
];

const SHAPES: readonly { box: Box; colour: Colour }[] = [
  ...[0.32, 0.5, 0.68].map((y) => ({ box: { left: 0.14, top: y - 0.006, right: 0.86, bottom: y + 0.006, radius: 0.006 }, colour: RULE })),
  ...CANDLES.flatMap((candle) => [
    { box: { left: candle.x - 0.011, top: candle.wickTop, right: candle.x + 0.011, bottom: candle.wickBottom, radius: 0.011 }, colour: candle.colour },
    { box: { left: candle.x - 0.06, top: candle.bodyTop, right: candle.x + 0.06, bottom: candle.bodyBottom, radius: 0.018 }, colour: candle.colour },
  ]),
  { box: { left: 0.18, top: 0.81, right: 0.82, bottom: 0.835, radius: 0.0125 }, colour: BASELINE },
];

const TILE_TOP = [23, 50, 79] as const;
const TILE_BOTTOM = [11, 23, 39] as const;

/** One sample into `out` (straight alpha): the tile, a vertical gradient, then each shape over it. */
function sample(x: number, y: number, out: number[]): void {
  if (distance(x, y, TILE) > 0) {
    out[0] = out[1] = out[2] = out[3] = 0;
    return;
  }
  let red = TILE_TOP[0] + (TILE_BOTTOM[0] - TILE_TOP[0]) * y;
  let green = TILE_TOP[1] + (TILE_BOTTOM[1] - TILE_TOP[1]) * y;
  let blue = TILE_TOP[2] + (TILE_BOTTOM[2] - TILE_TOP[2]) * y;
  for (const shape of SHAPES) {
    const box = shape.box;
    // The rounded box lies inside its bounds: most samples are decided without the distance.
    if (x < box.left || x > box.right || y < box.top || y > box.bottom || distance(x, y, box) > 0) continue;
    const alpha = shape.colour[3] / 255;
    red = red * (1 - alpha) + shape.colour[0] * alpha;
    green = green * (1 - alpha) + shape.colour[1] * alpha;
    blue = blue * (1 - alpha) + shape.colour[2] * alpha;
  }
  out[0] = red;
  out[1] = green;
  out[2] = blue;
  out[3] = 255;
}

const SAMPLES = 4;

export function drawIcon(size: number): RgbaImage {
  const rgba = new Uint8Array(size * size * 4);
  const colour = [0, 0, 0, 0];
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      // Average premultiplied colour over the samples, then un-premultiply.
      let red = 0;
      let green = 0;
      let blue = 0;
      let alpha = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          sample((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size, colour);
          const a = colour[3]!;
          red += (colour[0]! * a) / 255;
          green += (colour[1]! * a) / 255;
          blue += (colour[2]! * a) / 255;
          alpha += a;
        }
      }
      const offset = (py * size + px) * 4;
      const count = SAMPLES * SAMPLES;
      if (alpha > 0) {
        rgba[offset] = Math.round((red * 255) / alpha);
        rgba[offset + 1] = Math.round((green * 255) / alpha);
        rgba[offset + 2] = Math.round((blue * 255) / alpha);
      }
      rgba[offset + 3] = Math.round(alpha / count);
    }
  }
  return { width: size, height: size, rgba };
}
