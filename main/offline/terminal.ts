// Talking to the person at the keyboard. A passphrase or a pasted key is read in raw mode with
// no echo, byte by byte into a Buffer (never a string, which could not be wiped), and the working
// buffer is wiped. When stdin is a pipe (import-keystore reads the key from it), prompts go to
// the controlling terminal, /dev/tty, the way ssh and gpg do.
import { closeSync, openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';

export interface Terminal {
  /** Read a line without echo; null when the person cancels (Ctrl-C, or Ctrl-D on an empty line). */
  readHidden(prompt: string): Promise<Buffer | null>;
  /** Read a line with echo (confirmations); null on end of input. */
  readLine(prompt: string): Promise<string | null>;
  close(): void;
}

const MAXIMUM_SECRET_BYTES = 1024;

class TtyTerminal implements Terminal {
  constructor(
    private readonly input: ReadStream,
    private readonly output: NodeJS.WritableStream,
    private readonly onClose: () => void,
  ) {}

  readHidden(prompt: string): Promise<Buffer | null> {
    this.output.write(prompt);
    const working = Buffer.alloc(MAXIMUM_SECRET_BYTES);
    let length = 0;
    return new Promise((resolve) => {
      const finish = (result: Buffer | null) => {
        this.input.off('data', onData);
        this.input.setRawMode(false);
        this.input.pause();
        working.fill(0);
        this.output.write('\n');
        resolve(result);
      };
      const onData = (chunk: Buffer) => {
        try {
          for (const byte of chunk) {
            if (byte === 0x0d || byte === 0x0a) return finish(Buffer.from(working.subarray(0, length)));
            if (byte === 0x03 || (byte === 0x04 && length === 0)) return finish(null);
            if (byte === 0x7f || byte === 0x08) {
              // Remove one whole UTF-8 character: its continuation bytes, then its lead byte.
              while (length > 0 && (working[length - 1]! & 0xc0) === 0x80) length--;
              if (length > 0) length--;
            } else if (byte === 0x15) {
              length = 0;
            } else if (byte >= 0x20 && length < MAXIMUM_SECRET_BYTES) {
              working[length++] = byte;
            }
          }
        } finally {
          // The chunk holds typed secret bytes too.
          chunk.fill(0);
        }
      };
      this.input.setRawMode(true);
      this.input.resume();
      this.input.on('data', onData);
    });
  }

  readLine(prompt: string): Promise<string | null> {
    this.output.write(prompt);
    return new Promise((resolve) => {
      let text = '';
      const done = (result: string | null) => {
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.pause();
        resolve(result);
      };
      const onData = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const newline = text.indexOf('\n');
        if (newline >= 0) done(text.slice(0, newline).replace(/\r$/, ''));
      };
      const onEnd = () => done(null);
      this.input.setRawMode(false);
      this.input.resume();
      this.input.on('data', onData);
      this.input.on('end', onEnd);
    });
  }

  close(): void {
    this.onClose();
  }
}

/** The terminal: stdin when it is one, else the controlling terminal; null when there is none. */
export function openTerminal(): Terminal | null {
  if (process.stdin.isTTY) return new TtyTerminal(process.stdin, process.stderr, () => process.stdin.pause());
  if (process.platform === 'win32') return null;
  let fd: number;
  try {
    fd = openSync('/dev/tty', 'r+');
  } catch {
    return null;
  }
  const input = new ReadStream(fd);
  const output = new WriteStream(fd);
  return new TtyTerminal(input, output, () => {
    input.destroy();
    try {
      closeSync(fd);
    } catch {
      // The stream closed it already.
    }
  });
}
