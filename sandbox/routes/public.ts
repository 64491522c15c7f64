// Routes that read only the network configuration: health and the market list.
import type { SandboxApp } from '../app';
import { json } from '../http/reply';
import { marketsView } from '../views/markets';

export function registerPublicRoutes(app: SandboxApp): void {
  app.router.on('GET', '/health', () => json({ status: 'ok' }));
  // turbo=true: only markets with a Turbo book, and there is none yet (margin document 2.5).
  app.router.on('GET', '/v1/markets', (request) => {
    const view = marketsView(app.network);
    return json(request.query.get('turbo') === 'true' ? { ...view, markets: [] } : view);
  });
}
