// The preload exposes one thing, the bridge, as `terminal`: its members are the contract's
// operations and the stream listener, each a function; no ipcRenderer and no generic invoke. A
// stream listener gets the payload only, never the IPC event (which carries `sender`).
import { describe, expect, it, vi } from 'vitest';

const exposed = vi.hoisted(() => ({ calls: [] as [string, unknown][], listeners: new Map<string, (...args: unknown[]) => void>() }));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, value: unknown) => exposed.calls.push([name, value]) },
  ipcRenderer: {
    invoke: (channel: string, input: unknown) => Promise.resolve({ ok: true, value: { channel, input } }),
    on: (channel: string, listener: (...args: unknown[]) => void) => exposed.listeners.set(channel, listener),
    removeListener: (channel: string) => exposed.listeners.delete(channel),
  },
}));

await import('../../../preload/index');
const { requestNames, streamNames } = await import('../../../shared/ipc/contract');

describe('the preload', () => {
  it('exposes only the bridge, with one function per operation', async () => {
    expect(exposed.calls.map(([name]) => name)).toEqual(['terminal']);
    const bridge = exposed.calls[0]![1] as Record<string, unknown>;
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function');
    const members = Object.keys(bridge);
    const listenerName = (stream: string) => `on${stream[0]!.toUpperCase()}${stream.slice(1)}`;
    expect(members.sort()).toEqual([...requestNames, ...streamNames.map(listenerName)].sort());
    // A stream listener is handed the payload, never the IPC event.
    const heard: unknown[][] = [];
    (bridge.onSettings as (listener: (...args: unknown[]) => void) => () => void)((...args) => heard.push(args));
    exposed.listeners.get([...exposed.listeners.keys()].find((channel) => channel.endsWith('settings'))!)!({ sender: { secret: 1 } }, { sound: true });
    expect(heard).toEqual([[{ sound: true }]]);
    for (const forbidden of ['invoke', 'send', 'ipcRenderer', 'sendSync', 'postMessage']) expect(bridge[forbidden]).toBeUndefined();
  });
});
