// The window's desk store, for the desk's controls wherever the shell places them.
import { createContext, useContext } from 'solid-js';
import type { DeskStore } from './desk-store';

export const DeskContext = createContext<DeskStore>();

export function useDesk(): DeskStore {
  const desk = useContext(DeskContext);
  if (!desk) throw new Error('useDesk: no DeskContext provider above this control');
  return desk;
}
