// The whole window over the simulated terminal: lets the renderer be looked at (screenshots) with
// every panel filled while main's services are still being built. ?fresh starts at account setup;
// ?resync shows the ladder's resyncing state.
import { render } from 'solid-js/web';
import { App } from '../src/app/App';
import { createSimulatedTerminal } from './simulated-terminal';
import '../src/styles.css';

const params = new URLSearchParams(location.search);
const simulation = createSimulatedTerminal({ seed: 3, depth: 200, onboarded: !params.has('fresh') });
const root = document.getElementById('root');
if (root) render(() => <App api={simulation.api} />, root);
simulation.run(Number(params.get('rate') ?? '20'));
if (params.has('resync')) setTimeout(() => simulation.resync(60_000), 1500);
