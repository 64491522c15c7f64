// The desk area of the contract. Declared here; merged in ../contract.ts.
export const deskRequests = {} as const;

export const deskStreams = {} as const;
