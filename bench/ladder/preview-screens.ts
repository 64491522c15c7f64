// Not a benchmark: screenshots of the window over the simulated terminal (renderer/dev), every
// panel filled, for looking at the renderer without main: the workspace, the armed ladder, the
// resyncing ladder, settings, balances and a fresh account setup.
// Run: `npx tsx bench/ladder/preview-screens.ts`; pictures go to test-results/screenshots/preview.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { build } from 'vite';
import { launchChromium } from '../../test/support/chromium';

const root = join(import.meta.dirname, '../..');
const outDir = join(root, 'out/bench');
const screens = join(root, 'test-results/screenshots/preview');
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

await build({ configFile: join(root, 'bench/ladder/vite.config.ts') });
const server = createServer((request, response) => {
  const path = normalize(join(outDir, new URL(request.url ?? '/', 'http://localhost').pathname));
  if (!path.startsWith(outDir + sep)) return void response.writeHead(403).end();
  readFile(path).then(
    (body) => response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body),
    () => response.writeHead(404).end(),
  );
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
mkdirSync(screens, { recursive: true });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  page.on('pageerror', (error) => console.log(`page error: ${String(error)}`));
  const screen = async (name: string, query: string, act?: () => Promise<void>) => {
    await page.goto(`${origin}/dev/preview.html${query}`);
    await page.waitForTimeout(2500);
    await act?.();
    await page.screenshot({ path: join(screens, `${name}.png`) });
    console.log(join(screens, `${name}.png`));
  };
  await screen('workspace', '');
  await screen('armed', '', async () => {
    await page.getByTestId('ladder-arm').click();
    await page.getByTestId('ticket-quantity').fill('0.5');
  });
  await screen('resyncing', '?resync');
  await screen('settings', '', () => page.getByTestId('open-settings').click());
  await screen('balances', '', () => page.getByTestId('tab-balances').click());
  await screen('account-setup', '?fresh');
} finally {
  await browser.close();
  server.close();
}
