// Request handlers of the alerts area of the contract: each delegates to the AlertService (it
// outlives networks, like the market data hub); inputs were parsed by the dispatcher.
import type { z } from 'zod';
import type { alertConditionInput, alertRequests } from '../../../shared/ipc/areas/alerts';
import type { AlertCondition } from '../../../shared/ipc/views/alerts';
import { ok } from '../../../shared/result';
import type { AreaHandlers } from '../../ipc/dispatcher';
import type { AlertService } from './alert-service';

function condition(input: z.output<typeof alertConditionInput>): AlertCondition {
  switch (input.kind) {
    case 'price':
      return { kind: 'price', marketId: input.marketId, turbo: input.turbo ?? false, source: input.source === 'mid' ? 'mark' : input.source, direction: input.direction, price: input.price, hysteresis: input.hysteresis ?? 0n };
    case 'spread':
      return { kind: 'spread', marketId: input.marketId, turbo: input.turbo ?? false, ticks: input.ticks };
    case 'fill':
      return { kind: 'fill', marketId: input.marketId ?? null };
    case 'rejected':
      return { kind: 'rejected' };
    case 'stale':
      return { kind: 'stale', seconds: input.seconds };
    case 'margin':
      return { kind: 'margin', marginAccountId: input.marginAccountId, line: input.line, belowBps: input.belowBps };
  }
}

export function alertHandlers(alerts: AlertService): AreaHandlers<typeof alertRequests> {
  return {
    createAlert: (input) =>
      alerts.create(condition(input.condition), { repeat: input.repeat ?? false, cooldownSeconds: input.cooldownSeconds ?? 60, sound: input.sound ?? true, note: input.note ?? '' }),
    updateAlert: (input) =>
      alerts.update(input.alertId, {
        ...(input.condition === undefined ? {} : { condition: condition(input.condition) }),
        ...(input.repeat === undefined ? {} : { repeat: input.repeat }),
        ...(input.cooldownSeconds === undefined ? {} : { cooldownSeconds: input.cooldownSeconds }),
        ...(input.sound === undefined ? {} : { sound: input.sound }),
        ...(input.note === undefined ? {} : { note: input.note }),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
      }),
    deleteAlert: (input) => alerts.delete(input.alertId),
    listAlerts: () => {
      // A window asking is one that can show what no one could take before.
      alerts.deliverPending();
      return ok(alerts.snapshot());
    },
  };
}
