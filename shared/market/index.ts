export * from './market';
export * from './order-type';
export * from './tick';
export * from './amounts';
export * from './validate-order';
