// A small PNG writer and reader (8-bit RGBA, no interlace) over node:zlib, for the app icons.
// The reader checks what an icon needs to be valid: the signature, every chunk's CRC, the
// header, and that the image data inflates to exactly the rows the header promises.
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(data.length, 0);
  header.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([header.subarray(4), data])), 0);
  return Buffer.concat([header, data, crc]);
}

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** width * height * 4 bytes, rows top to bottom, not premultiplied. */
  readonly rgba: Uint8Array;
}

export function encodePng(image: RgbaImage): Buffer {
  const { width, height, rgba } = image;
  if (rgba.length !== width * height * 4) throw new Error(`encodePng: expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  // compression 0, filter method 0, interlace 0
  const rows = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) {
    rows[y * (1 + width * 4)] = 0; // filter: none
    rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (1 + width * 4) + 1);
  }
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', new Uint8Array(0))]);
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

/** Read an 8-bit RGBA PNG; throws with the reason when it is not a valid one. */
export function decodePng(bytes: Uint8Array): RgbaImage {
  const buffer = Buffer.from(bytes);
  if (!buffer.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG: wrong signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  let ended = false;
  while (offset < buffer.length) {
    if (offset + 12 > buffer.length) throw new Error(`truncated chunk at byte ${offset}`);
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('ascii', offset + 4, offset + 8);
    const end = offset + 8 + length;
    if (end + 4 > buffer.length) throw new Error(`chunk ${type} runs past the end`);
    const expected = buffer.readUInt32BE(end);
    if (crc32(buffer.subarray(offset + 4, end)) !== expected) throw new Error(`chunk ${type}: CRC mismatch`);
    const body = buffer.subarray(offset + 8, end);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (body[8] !== 8 || body[9] !== 6 || body[10] !== 0 || body[11] !== 0 || body[12] !== 0) throw new Error('IHDR: expected 8-bit RGBA, deflate, no interlace');
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    offset = end + 4;
  }
  if (!ended) throw new Error('no IEND chunk');
  if (width === 0 || height === 0) throw new Error('no IHDR chunk');
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * 4;
  if (raw.length !== height * (stride + 1)) throw new Error(`image data inflates to ${raw.length} bytes, expected ${height * (stride + 1)}`);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= 4 ? rgba[y * stride + x - 4]! : 0;
      const up = y > 0 ? rgba[(y - 1) * stride + x]! : 0;
      const upLeft = x >= 4 && y > 0 ? rgba[(y - 1) * stride + x - 4]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (predictor === undefined) throw new Error(`row ${y}: unknown filter ${filter}`);
      rgba[y * stride + x] = (row[x]! + predictor) & 0xff;
    }
  }
  return { width, height, rgba };
}
