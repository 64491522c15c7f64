// The slow-consumer policy of a stream connection: past the high-water mark it closes with
// 1008 instead of buffering without bound; the smoothed view sees congestion at 4 KiB. The idle
// clock and the periodic depth views, on fake timers.
import { describe, expect, it, vi } from 'vitest';
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

  // On fake timers: real 20 ms windows failed on a loaded machine (a timer late by 10 ms).
  it('reports inactivity after the idle time without client messages', () => {
    vi.useFakeTimers();
    try {
      const fake = fakeSocket();
      let idle = 0;
      const connection = new Connection(fake.socket, 30, () => idle++);
      vi.advanceTimersByTime(20);
      connection.touch();
      vi.advanceTimersByTime(20);
      expect(idle).toBe(0);
      vi.advanceTimersByTime(10);
      expect(idle).toBe(1);
      connection.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends a periodic depth view at once and every period, one per key, until stopped or closed', () => {
    vi.useFakeTimers();
    try {
      const connection = new Connection(fakeSocket().socket, 60_000, () => undefined);
      const sent: string[] = [];
      connection.startDepthView('a', 100, () => sent.push('a1'));
      expect(sent).toEqual(['a1']);
      vi.advanceTimersByTime(250);
      expect(sent).toEqual(['a1', 'a1', 'a1']);
      // The same key again replaces the view (the first one's timer stops); another key runs beside it.
      connection.startDepthView('a', 100, () => sent.push('a2'));
      connection.startDepthView('b', 200, () => sent.push('b'));
      expect(sent).toEqual(['a1', 'a1', 'a1', 'a2', 'b']);
      sent.length = 0;
      vi.advanceTimersByTime(200);
      expect(sent.sort()).toEqual(['a2', 'a2', 'b']);
      connection.stopDepthView('a');
      sent.length = 0;
      vi.advanceTimersByTime(200);
      expect(sent).toEqual(['b']);
      connection.dispose();
      sent.length = 0;
      vi.advanceTimersByTime(1000);
      expect(sent).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
