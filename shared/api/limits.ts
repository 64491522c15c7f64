// Limits of the WebSocket and batch protocol that schemas check (spec 6 and 8).
export const MAX_IDENTITIES_PER_REQUEST = 10;
/** Stream errors the service sends as text (spec 7), reproduced by the sandbox. */
export const TOO_MANY_TOPICS_MESSAGE = "Cannot subscribe to more than 10 topics at once";
