// The margin area of the contract. Declared here; merged in ../contract.ts.
export const marginRequests = {} as const;

export const marginStreams = {} as const;
