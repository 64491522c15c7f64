// The slow-consumer policy of a stream connection: past the high-water mark it closes with
// 1008 instead of buffering without bound; the smoothed view sees congestion at 4 KiB.
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Connection, MAX_BUFFERED_BYTES, WRITE_BUFFER_BYTES } from '../../../sandbox/ws/connection';

function fakeSocket(): { socket: WebSocket; sent: string[]; closed: { code: number; reason: string }[]; buffered: { value: number } } {
  const sent: string[] = [];
  const closed: { code: number; reason: string }[] = [];
  const buffered = { value: 0 };
  const socket = {
    OPEN: 1,
    readyState: 1,
    get bufferedAmount() {
      return buffered.value;
    },
    send: (text: string) => sent.push(text),
    close: (code: number, reason: string) => closed.push({ code, reason }),
  } as unknown as WebSocket;
  return { socket, sent, closed, buffered };
}

describe('stream connection', () => {
  it('sends while the buffer is small and closes a slow consumer with 1008', () => {
    const fake = fakeSocket();
    const connection = new Connection(fake.socket, 60_000, () => undefined);
    connection.send({ action: 'x' });
    expect(fake.sent).toEqual(['{"action":"x"}']);
    fake.buffered.value = WRITE_BUFFER_BYTES + 1;
    expect(connection.congested).toBe(true);
    connection.send('still sent');
    expect(fake.sent).toHaveLength(2);
    fake.buffered.value = MAX_BUFFERED_BYTES + 1;
    connection.send('dropped');
    expect(fake.sent).toHaveLength(2);
    expect(fake.closed).toEqual([{ code: 1008, reason: 'slow consumer' }]);
    connection.send('after close');
    expect(fake.sent).toHaveLength(2);
  });

  it('reports inactivity after the idle time without client messages', async () => {
    const fake = fakeSocket();
    let idle = 0;
    const connection = new Connection(fake.socket, 30, () => idle++);
    await new Promise((resolve) => setTimeout(resolve, 20));
    connection.touch();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(idle).toBe(1);
    connection.dispose();
  });
});
