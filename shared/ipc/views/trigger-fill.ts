// What a fill says about the trigger leg it came from: shared by the trading views (a fill notice
// carries it) and the trigger views (a leg has a role), so neither imports the other.

/**
 * What a leg does for a position, from its side and where its trigger stands: a sell above the
 * market (or a buy below it) takes profit, a sell below (a buy above) stops a loss. A standalone
 * entry stop reads as the same words; the renderer may label legs without a parent simply "stop".
 */
export type TriggerRole = 'take-profit' | 'stop-loss';

/** The marker a fill carries when the order it filled was a fired leg. */
export interface TriggerFillMarker {
  readonly triggerId: string;
  readonly role: TriggerRole;
  readonly triggerPrice: bigint;
}
