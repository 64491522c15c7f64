export * from './hashes';
export * from './keys';
export * from './address';
export * from './digest';
export * from './signature';
export * from './signature-json';
