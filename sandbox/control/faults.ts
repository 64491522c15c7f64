// Injected faults of the control surface: delay, fail or drop the next N requests that match
// a method and a path prefix. Control requests themselves are never affected, so a test can
// always undo what it set. Each rule counts down and disappears; at most MAX_RULES live.
export interface FaultRule {
  readonly kind: 'delay' | 'fail' | 'drop';
  remaining: number;
  readonly method?: string;
  readonly pathPrefix?: string;
  readonly delayMs?: number;
  readonly status?: number;
}

export interface Fault {
  readonly delayMs: number;
  readonly failStatus?: number;
  readonly drop: boolean;
}

const NONE: Fault = { delayMs: 0, drop: false };
export const MAX_RULES = 64;

export class Faults {
  private rules: FaultRule[] = [];

  add(rule: FaultRule): boolean {
    if (this.rules.length >= MAX_RULES) return false;
    this.rules.push(rule);
    return true;
  }

  clear(): void {
    this.rules = [];
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  /** The faults for this request; consumes one use of each matching rule. */
  take(method: string, path: string): Fault {
    if (this.rules.length === 0 || path.startsWith('/control/')) return NONE;
    let delayMs = 0;
    let failStatus: number | undefined;
    let drop = false;
    for (const rule of this.rules) {
      if (rule.remaining <= 0) continue;
      if (rule.method !== undefined && rule.method !== method) continue;
      if (rule.pathPrefix !== undefined && !path.startsWith(rule.pathPrefix)) continue;
      if (rule.kind === 'delay') delayMs = Math.max(delayMs, rule.delayMs ?? 0);
      else if (rule.kind === 'fail') {
        if (failStatus !== undefined) continue;
        failStatus = rule.status ?? 500;
      } else {
        if (drop) continue;
        drop = true;
      }
      rule.remaining--;
    }
    this.rules = this.rules.filter((rule) => rule.remaining > 0);
    return { delayMs, failStatus, drop };
  }
}
