// The host's resource report over a fake process: a forced collection before the heap is read,
// handles counted by type, and `collected` false when Node runs without --expose-gc.
import { describe, expect, it } from 'vitest';
import { sampleResources, type ResourceProbe } from '../../../../main/host/resource-report';

const memory = { heapUsed: 10, heapTotal: 20, external: 3, arrayBuffers: 1, rss: 50 };

describe('the host resource report', () => {
  it('collects before it reads the heap and counts handles by type', () => {
    const events: string[] = [];
    const probe: ResourceProbe = {
      now: () => 1234,
      gc: () => events.push('gc'),
      memory: () => {
        events.push('memory');
        return memory;
      },
      activeResources: () => ['Timeout', 'TCPSocketWrap', 'Timeout'],
      processListeners: () => 4,
    };
    const sample = sampleResources(probe);
    expect(events).toEqual(['gc', 'memory']);
    expect(sample).toEqual({ at: 1234, collected: true, ...memory, resources: { Timeout: 2, TCPSocketWrap: 1 }, processListeners: 4 });
  });

  it('says when the heap was not read after a forced collection', () => {
    const sample = sampleResources({ now: () => 0, gc: undefined, memory: () => memory, activeResources: () => [], processListeners: () => 0 });
    expect(sample.collected).toBe(false);
    expect(sample.resources).toEqual({});
  });
});
