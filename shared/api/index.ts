export * from './primitives';
export * from './limits';
export * from './action-schemas';
export * from './request-schemas';
export * from './market-schemas';
export * from './account-schemas';
export * from './margin-schemas';
export * from './websocket-schemas';
