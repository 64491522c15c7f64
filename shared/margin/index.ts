// Margin and health formulas of spec margin-api 2.6, in bigint. computeRisk is the entry point;
// the individual formulas are exported so each can be checked on its own.
export * from './arithmetic';
export * from './cohort';
export * from './credit';
export * from './errors';
export * from './expiry';
export * from './exposure';
export * from './health';
export * from './opening';
export * from './risk';
export * from './rollover';
export * from './settlement';
export type * from './snapshot';
