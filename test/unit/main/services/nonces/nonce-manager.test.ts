import { describe, expect, it } from 'vitest';
import { NonceManager, type CursorStore, type NoncePort } from '../../../../../main/services/nonces/nonce-manager';
import { unpackParallelNonce, positionIndex } from '../../../../../shared/nonce/parallel-packing';
import type { WindowSnapshot } from '../../../../../shared/nonce/lane-window';
import { ok } from '../../../../../shared/result';

class FakeExchange implements NoncePort {
  nonce = 3n;
  reads = 0;
  windows = new Map<number, WindowSnapshot>();
  accountNonce() {
    this.reads++;
    return Promise.resolve(ok(this.nonce));
  }
  window(lane: number) {
    return Promise.resolve(ok(this.windows.get(lane) ?? { lane, base: 0n, slots: [] }));
  }
}

class MemoryCursors implements CursorStore {
  saved = new Map<number, bigint>();
  load(lane: number) {
    return this.saved.get(lane) ?? null;
  }
  save(lane: number, next: bigint) {
    this.saved.set(lane, next);
    return ok(undefined);
  }
}

const now = () => 1_700_000_000n;

describe('nonce manager', () => {
  it('sequential: reads the account nonce, serialises requests and advances on acceptance', async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 0, now);
    const first = await manager.acquire();
    if (!first.ok) throw new Error(first.message);
    expect(first.value.nonce).toEqual({ kind: 'sequential', value: 3n });
    let secondTaken = false;
    const second = manager.acquire().then((lease) => {
      secondTaken = true;
      return lease;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(secondTaken).toBe(false);
    first.value.settle({ kind: 'accepted' });
    const next = await second;
    expect(next.ok && next.value.nonce).toEqual({ kind: 'sequential', value: 4n });
    expect(exchange.reads).toBe(1);
  });

  it("sequential: the trader's requests go before the algorithms' waiting children, never before the lease held, one at a time", async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 0, now);
    const held = await manager.acquire();
    if (!held.ok) throw new Error(held.message);
    const order: string[] = [];
    const take = (name: string, ahead: boolean) =>
      manager.acquire({ ahead }).then((lease) => {
        if (!lease.ok) throw new Error(lease.message);
        order.push(`${name}@${lease.value.nonce.value}`);
        return lease.value;
      });
    const childA = take('child A', false);
    const childB = take('child B', false);
    const click = take('click', true);
    const click2 = take('click 2', true);
    const childC = take('child C', false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The held lease is not overtaken.
    expect(order).toEqual([]);
    held.value.settle({ kind: 'accepted' });
    // Each in turn, each once the one before is settled: the clicks first, in their order, then the children in theirs.
    for (const next of [click, click2, childA, childB, childC]) {
      const lease = await next;
      await new Promise((resolve) => setTimeout(resolve, 2));
      expect(order).toHaveLength([click, click2, childA, childB, childC].indexOf(next) + 1);
      lease.settle({ kind: 'accepted' });
      // Settling twice hands the lease on once.
      lease.settle({ kind: 'accepted' });
    }
    expect(order).toEqual(['click@4', 'click 2@5', 'child A@6', 'child B@7', 'child C@8']);
    // Free again: the next request takes it at once.
    const after = await manager.acquire();
    expect(after.ok && after.value.nonce.value).toBe(9n);
  });

  it('sequential: a lease refused before it is handed out (a failed nonce read) passes the turn on', async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 0, now);
    // The first read fails, the next ones answer.
    exchange.accountNonce = () => {
      exchange.reads++;
      return Promise.resolve(exchange.reads === 1 ? ({ ok: false, code: 'NETWORK_ERROR', message: 'down' } as never) : ok(exchange.nonce));
    };
    const first = manager.acquire();
    const second = manager.acquire({ ahead: true });
    expect((await first).ok).toBe(false);
    const lease = await second;
    expect(lease.ok && lease.value.nonce.value).toBe(3n);
  });

  it('sequential: a pre-flight refusal keeps the nonce; a stale refusal or lost answer forces a re-read', async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 0, now);
    const a = await manager.acquire();
    if (!a.ok) throw new Error(a.message);
    a.value.settle({ kind: 'refused' });
    const b = await manager.acquire();
    expect(b.ok && b.value.nonce.value).toBe(3n);
    if (!b.ok) return;
    exchange.nonce = 9n;
    b.value.settle({ kind: 'stale' });
    const c = await manager.acquire();
    expect(c.ok && c.value.nonce.value).toBe(9n);
    expect(exchange.reads).toBe(2);
  });

  it('parallel: persists each lane cursor before the lease is handed out and never reuses a position after a restart', async () => {
    const exchange = new FakeExchange();
    exchange.windows.set(0, { lane: 0, base: 0n, slots: [{ word_position: 0n, bitmap: 0b111n }] });
    const cursors = new MemoryCursors();
    const manager = new NonceManager(exchange, cursors, 2, now);
    const issued: bigint[] = [];
    for (let index = 0; index < 4; index++) {
      const lease = await manager.acquire();
      if (!lease.ok) throw new Error(lease.message);
      const fields = unpackParallelNonce(lease.value.nonce.value);
      if (!fields.ok) throw new Error(fields.message);
      expect(fields.value.lane).toBe(index % 2);
      expect(fields.value.expiry).toBe(now() + 120n);
      issued.push(positionIndex(fields.value.word_position, fields.value.bit_position) + BigInt(fields.value.lane) * 1_000_000n);
      expect(cursors.saved.get(fields.value.lane)).toBe(positionIndex(fields.value.word_position, fields.value.bit_position) + 1n);
    }
    // Lane 0 starts after its highest consumed position (2), lane 1 at 0.
    expect(issued).toEqual([3n, 1_000_000n, 4n, 1_000_001n]);
    const restarted = new NonceManager(exchange, cursors, 2, now);
    const again = await restarted.acquire();
    const fields = again.ok ? unpackParallelNonce(again.value.nonce.value) : null;
    expect(fields?.ok && positionIndex(fields.value.word_position, fields.value.bit_position)).toBe(5n);
  });

  it('parallel: concurrent requests on a fresh lane share one allocator and never get the same position', async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 1, now);
    const leases = await Promise.all(Array.from({ length: 8 }, () => manager.acquire()));
    const positions = leases.map((lease) => {
      if (!lease.ok) throw new Error(lease.message);
      const fields = unpackParallelNonce(lease.value.nonce.value);
      return fields.ok ? positionIndex(fields.value.word_position, fields.value.bit_position) : -1n;
    });
    expect(new Set(positions).size).toBe(8);
  });

  it('tells whether a request with a lost answer landed', async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 1, now);
    exchange.nonce = 8n;
    expect(await manager.wasConsumed({ mode: 'sequential', value: 7n })).toEqual({ ok: true, value: 'landed' });
    expect(await manager.wasConsumed({ mode: 'sequential', value: 8n })).toEqual({ ok: true, value: 'not-landed' });
    const lease = await manager.acquire();
    if (!lease.ok) throw new Error(lease.message);
    const value = lease.value.nonce.value;
    expect(await manager.wasConsumed({ mode: 'parallel', lane: 0, value })).toEqual({ ok: true, value: 'pending' });
    exchange.windows.set(0, { lane: 0, base: 0n, slots: [{ word_position: 0n, bitmap: 1n }] });
    expect(await manager.wasConsumed({ mode: 'parallel', lane: 0, value })).toEqual({ ok: true, value: 'landed' });
    const expired = new NonceManager(exchange, new MemoryCursors(), 1, () => now() + 1000n);
    exchange.windows.set(0, { lane: 0, base: 0n, slots: [] });
    expect(await expired.wasConsumed({ mode: 'parallel', lane: 0, value })).toEqual({ ok: true, value: 'not-landed' });
  });

  it('a nonce read below what the exchange already accepted is not believed: no verdict, nothing signed on it', async () => {
    const exchange = new FakeExchange();
    const manager = new NonceManager(exchange, new MemoryCursors(), 0, now);
    const first = await manager.acquire();
    if (!first.ok) throw new Error(first.message);
    first.value.settle({ kind: 'accepted' });
    const second = await manager.acquire();
    if (!second.ok) throw new Error(second.message);
    expect(second.value.nonce.value).toBe(4n);
    // Its answer is lost; the exchange then claims the account is back at 3 (it accepted 3 already).
    second.value.settle({ kind: 'unknown' });
    exchange.nonce = 3n;
    expect(await manager.wasConsumed({ mode: 'sequential', value: 4n })).toMatchObject({ ok: false, code: 'NONCE_WENT_BACKWARDS' });
    expect(await manager.acquire()).toMatchObject({ ok: false, code: 'NONCE_WENT_BACKWARDS' });
    // Below the nonce of the request being reconciled, even with no earlier acceptance known.
    const fresh = new NonceManager(exchange, new MemoryCursors(), 0, now);
    expect(await fresh.wasConsumed({ mode: 'sequential', value: 5n })).toMatchObject({ ok: false, code: 'NONCE_WENT_BACKWARDS' });
    // The honest answer is believed again.
    exchange.nonce = 5n;
    expect(await manager.wasConsumed({ mode: 'sequential', value: 4n })).toEqual({ ok: true, value: 'landed' });
    const third = await manager.acquire();
    expect(third.ok && third.value.nonce.value).toBe(5n);
  });
});
