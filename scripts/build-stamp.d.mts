// Types of scripts/build-stamp.mjs for the TypeScript callers (the e2e global setup, benches).
export function sourceHash(): string;
export function buildIsCurrent(hash?: string): boolean;
export function ensureBuilt(options?: { log?: (line: string) => void }): boolean;
