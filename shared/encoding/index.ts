export * from './hex';
export * from './b256';
export * from './identity';
export * from './decimal';
export * from './units';
export * from './byte-writer';
