// QR codes of framed parts (shared/offline/qr-framing.ts) as PNG and SVG files, one per part, and
// as text for a terminal. Error-correction level M, as the framing's part size assumes.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { QR_ERROR_CORRECTION } from '../../shared/offline/qr-framing';
import { ok, type Result } from '../../shared/result';
import { writeNewPublicFile } from './file-permissions';

/** Write `<stem>-part-<i>-of-<n>.png` and `.svg` per part, and `<stem>-parts.txt` (one payload a line). */
export async function writeQrFiles(parts: readonly string[], directory: string, stem: string): Promise<Result<string[]>> {
  mkdirSync(directory, { recursive: true });
  const written: string[] = [];
  const width = String(parts.length).length;
  for (const [index, part] of parts.entries()) {
    const name = `${stem}-part-${String(index + 1).padStart(width, '0')}-of-${parts.length}`;
    const png = await QRCode.toBuffer(part, { type: 'png', errorCorrectionLevel: QR_ERROR_CORRECTION, margin: 4, scale: 6 });
    const svg = await QRCode.toString(part, { type: 'svg', errorCorrectionLevel: QR_ERROR_CORRECTION, margin: 4 });
    for (const [file, contents] of [[`${name}.png`, png], [`${name}.svg`, svg]] as const) {
      const path = join(directory, file);
      const result = writeNewPublicFile(path, contents);
      if (!result.ok) return result;
      written.push(path);
    }
  }
  const list = join(directory, `${stem}-parts.txt`);
  const listed = writeNewPublicFile(list, `${parts.join('\n')}\n`);
  if (!listed.ok) return listed;
  written.push(list);
  return ok(written);
}

/** A part as block characters for a terminal (dark modules drawn with half blocks). */
export function terminalQr(part: string): Promise<string> {
  return QRCode.toString(part, { type: 'utf8', errorCorrectionLevel: QR_ERROR_CORRECTION, margin: 2 });
}
