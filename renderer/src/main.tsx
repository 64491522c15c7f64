import { render } from 'solid-js/web';
import { App } from './app/App';
import { OfflineApp } from './app/OfflineApp';
import { connectApi } from './bridge/api';
import { formatClock } from './format/time';
import './styles.css';

/**
 * The bridge to the terminal host closed (the browser host stopped or crashed): nothing in the
 * window is current any more and nothing can be sent from it, so it says so over the whole window
 * and takes no clicks or hotkeys. It cannot reconnect by itself: a host started again prints a new
 * address (a new token).
 */
function showBridgeClosed(reason: string): void {
  document.body.dataset.bridge = 'closed';
  // Refused before it opened: the page says it cannot reach the terminal (below) and shows nothing else.
  if (!connected || document.querySelector('[data-testid=bridge-closed]') !== null) return;
  const cover = document.createElement('div');
  cover.className = 'bridge-closed';
  cover.dataset.testid = 'bridge-closed';
  cover.setAttribute('role', 'alertdialog');
  cover.setAttribute('aria-modal', 'true');
  const box = document.createElement('div');
  const title = document.createElement('h2');
  title.textContent = 'Disconnected from the terminal';
  const what = document.createElement('p');
  what.textContent = `The connection to the terminal host closed at ${formatClock(Date.now())}: ${reason}. What this window shows is as it was then, not live, and nothing can be sent from it.`;
  const next = document.createElement('p');
  next.textContent = 'Start the terminal again and open the address it prints; this window cannot reconnect by itself.';
  box.append(title, what, next);
  cover.append(box);
  document.body.append(cover);
  // The app's hotkeys listen on the window: none reaches them now.
  window.addEventListener('keydown', (event) => event.stopImmediatePropagation(), true);
}

let connected = false;
const root = document.getElementById('root');
if (root) {
  connectApi(showBridgeClosed)
    .then(async (api) => {
      connected = true;
      // The same app started offline is the air-gapped signer: it shows nothing but the signer.
      const info = await api.getAppInfo({});
      if (info.ok && info.value.offline) render(() => <OfflineApp api={api} version={info.value.version} />, root);
      else render(() => <App api={api} />, root);
    })
    .catch((error: unknown) => {
      root.textContent = `Cannot reach the terminal: ${error instanceof Error ? error.message : String(error)}`;
    });
}
