import { describe, expect, it } from 'vitest';
import { checkOwnerLaneFree, OWNER_NONCE_LANE, OwnerNonceLane, type OwnerLanePort } from '../../../../../main/services/custody/owner-lane';
import type { WindowSnapshot } from '../../../../../shared/nonce/lane-window';
import { positionIndex, unpackParallelNonce } from '../../../../../shared/nonce/parallel-packing';
import { fail, ok } from '../../../../../shared/result';

const NOW = 1_700_000_000n;

class FakePort implements OwnerLanePort {
  window_: WindowSnapshot = { lane: OWNER_NONCE_LANE, base: 0n, slots: [] };
  saved: bigint | null = null;
  saves: bigint[] = [];
  failSave = false;
  windowReads = 0;
  async window(lane: number) {
    this.windowReads++;
    // A slow read, so concurrent issues would overlap without the lane's lock.
    await new Promise((resolve) => setTimeout(resolve, 2));
    return ok({ ...this.window_, lane });
  }
  loadCursor() {
    return this.saved;
  }
  saveCursor(_lane: number, next: bigint) {
    if (this.failSave) return fail('STORAGE_FAILURE', 'disk full');
    this.saved = next;
    this.saves.push(next);
    return ok(undefined);
  }
}

describe('owner nonce lane', () => {
  it('issues lane-4 positions with the given lifetime, each once, even when asked concurrently', async () => {
    const port = new FakePort();
    const lane = new OwnerNonceLane(port, () => NOW);
    const issued = await Promise.all([lane.issue(120n), lane.issue(90_000n), lane.issue(120n)]);
    const fields = issued.map((result) => {
      if (!result.ok) throw new Error(result.message);
      return result.value.fields;
    });
    expect(fields.map((field) => field.lane)).toEqual([4, 4, 4]);
    expect(fields.map((field) => field.expiry)).toEqual([NOW + 120n, NOW + 90_000n, NOW + 120n]);
    const positions = fields.map((field) => positionIndex(field.word_position, field.bit_position));
    expect(new Set(positions).size).toBe(3);
    // Persisted before each nonce was returned.
    expect(port.saves).toEqual([1n, 2n, 3n]);
    const packed = issued[1]!.ok ? issued[1]!.value.packed : 0n;
    expect(unpackParallelNonce(packed)).toEqual(ok(fields[1]));
  });

  it('starts after the saved cursor and after anything the window shows consumed', async () => {
    const port = new FakePort();
    port.saved = 10n;
    port.window_ = { lane: OWNER_NONCE_LANE, base: 0n, slots: [{ word_position: 0n, bitmap: 1n << 40n }] };
    const lane = new OwnerNonceLane(port, () => NOW);
    const first = await lane.issue(120n);
    expect(first.ok && positionIndex(first.value.fields.word_position, first.value.fields.bit_position)).toBe(41n);
    port.window_ = { lane: OWNER_NONCE_LANE, base: 0n, slots: [] };
    const second = await lane.issue(120n);
    // A restart reads the saved cursor: never back into positions already issued.
    expect(second.ok && positionIndex(second.value.fields.word_position, second.value.fields.bit_position)).toBe(42n);
  });

  it('returns no nonce when the cursor cannot be saved', async () => {
    const port = new FakePort();
    port.failSave = true;
    const issued = await new OwnerNonceLane(port, () => NOW).issue(120n);
    expect(issued).toMatchObject({ ok: false, code: 'NONCE_CURSOR_NOT_SAVED' });
  });

  it('refuses when the order lanes reach into the owner lane', () => {
    expect(checkOwnerLaneFree(4).ok).toBe(true);
    const refused = checkOwnerLaneFree(5);
    expect(refused).toMatchObject({ ok: false, code: 'OWNER_LANE_IN_USE', details: { field: 'nonce', parallelLanes: 5 } });
    expect(!refused.ok && refused.message).toMatch(/parallel-lanes setting is 5/);
  });
});
