// The one way a feature reaches main: the window's bridge, provided once at the top of the window
// (the app's window and the offline signer's alike) and read with useBridge. Factories that talk
// to main (book feeds, trigger snapshots, the trading actions) take it as a parameter from the
// component that read it, so a test hands them a fake.
import { createContext, useContext } from 'solid-js';
import type { TerminalApi } from '../../../shared/ipc/contract';

export const BridgeContext = createContext<TerminalApi>();

export function useBridge(): TerminalApi {
  const bridge = useContext(BridgeContext);
  if (!bridge) throw new Error('useBridge: no BridgeContext provider above this component');
  return bridge;
}
