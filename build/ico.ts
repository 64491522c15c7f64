// Windows .ico with PNG-compressed entries (valid since Windows Vista; electron-builder's NSIS
// target wants at least a 256x256 image). Layout: ICONDIR, one ICONDIRENTRY per image, the PNGs.
import { decodePng } from './png';

export function encodeIco(pngs: readonly Uint8Array[]): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(pngs.length, 4);
  const entries = Buffer.alloc(16 * pngs.length);
  let offset = header.length + entries.length;
  pngs.forEach((png, index) => {
    const { width, height } = decodePng(png);
    if (width > 256 || height > 256) throw new Error(`encodeIco: ${width}x${height} is larger than 256x256`);
    const entry = index * 16;
    entries[entry] = width === 256 ? 0 : width;
    entries[entry + 1] = height === 256 ? 0 : height;
    entries.writeUInt16LE(1, entry + 4); // colour planes
    entries.writeUInt16LE(32, entry + 6); // bits per pixel
    entries.writeUInt32LE(png.length, entry + 8);
    entries.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, entries, ...pngs]);
}

export interface IcoEntry {
  readonly width: number;
  readonly height: number;
  readonly png: Uint8Array;
}

/** Read the entries back (for the packaging test). */
export function decodeIco(bytes: Uint8Array): IcoEntry[] {
  const buffer = Buffer.from(bytes);
  if (buffer.readUInt16LE(0) !== 0 || buffer.readUInt16LE(2) !== 1) throw new Error('not an .ico file');
  const count = buffer.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const entry = 6 + index * 16;
    const size = buffer.readUInt32LE(entry + 8);
    const offset = buffer.readUInt32LE(entry + 12);
    return { width: buffer[entry]! || 256, height: buffer[entry + 1]! || 256, png: buffer.subarray(offset, offset + size) };
  });
}
