export * from './connection';
export * from './account';
export * from './market-data';
export * from './trading';
export * from './settings';
export * from './journal';
export * from './custody';
export * from './margin';
