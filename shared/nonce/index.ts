export * from './sequential';
export * from './parallel-packing';
export * from './lane-window';
export * from './allocator';
export * from './refusals';
