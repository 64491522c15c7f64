// The custody area of the contract. Declared here; merged in ../contract.ts.
export const custodyRequests = {} as const;

export const custodyStreams = {} as const;
