// The triggers area of the contract. Declared here; merged in ../contract.ts.
export const triggerRequests = {} as const;

export const triggerStreams = {} as const;
