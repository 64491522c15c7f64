import { render } from 'solid-js/web';
import { App } from './app/App';
import { OfflineApp } from './app/OfflineApp';
import { connectApi } from './bridge/api';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  connectApi((reason) => {
    document.body.dataset.bridge = 'closed';
    document.body.title = reason;
  })
    .then(async (api) => {
      // The same app started offline is the air-gapped signer: it shows nothing but the signer.
      const info = await api.getAppInfo({});
      if (info.ok && info.value.offline) render(() => <OfflineApp api={api} version={info.value.version} />, root);
      else render(() => <App api={api} />, root);
    })
    .catch((error: unknown) => {
      root.textContent = `Cannot reach the terminal: ${error instanceof Error ? error.message : String(error)}`;
    });
}
