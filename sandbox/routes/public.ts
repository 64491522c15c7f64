// Health and the market list (the Turbo rows carry live pause and connection state).
import type { SandboxApp } from '../app-types';
import { json } from '../http/reply';
import { marketsView } from '../views/markets';

export function registerPublicRoutes(app: SandboxApp): void {
  app.router.on('GET', '/health', () => json({ status: 'ok' }));
  // turbo=true: only markets with a Turbo book, rewritten per margin 2.5 (pause and connection are live state).
  app.router.on('GET', '/v1/markets', (request) => json(marketsView(app.network, request.query.get('turbo') === 'true' ? app.ledger.turbo.values() : undefined)));
}
