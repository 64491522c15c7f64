import { render } from 'solid-js/web';
import { App } from './app/App';
import { connectApi } from './bridge/api';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  connectApi((reason) => {
    document.body.dataset.bridge = 'closed';
    document.body.title = reason;
  })
    .then((api) => render(() => <App api={api} />, root))
    .catch((error: unknown) => {
      root.textContent = `Cannot reach the terminal: ${error instanceof Error ? error.message : String(error)}`;
    });
}
