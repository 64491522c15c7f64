// Channel names of the Electron IPC and the browser host's frames. Kept apart from the contract
// so the preload bundle carries the names without the schemas.
export const requestChannel = (name: string): string => `terminal:${name}`;
export const streamChannel = (name: string): string => `terminal-stream:${name}`;
