// Routes that read only the network configuration: health and the market list.
import type { SandboxApp } from '../app';
import { json } from '../http/reply';
import { marketsView } from '../views/markets';

export function registerPublicRoutes(app: SandboxApp): void {
  app.router.on('GET', '/health', () => json({ status: 'ok' }));
  app.router.on('GET', '/v1/markets', () => json(marketsView(app.network)));
}
