// Every margin action that moves collateral or draws credit (open a session, draw, borrow, add or
// withdraw collateral, repay, return quote, prolong, transfers to the trading account) is confirmed
// as orders are: in the window's dialog, while "Ask for confirmation before every order" is on
// (turning that off is itself confirmed on the host). The confirmation names the Turbo Account
// acted on (its books are Turbo books) and the account that signs: the trading account's session.
import type { TerminalContextValue } from '../../stores/terminal-context';
import { accountText } from '../positions/positions-model';
import { signerText } from '../trading/trading-actions';

/** "Turbo Account 0x7a7a…7a7a (trades the Turbo books) · signed by Trading account 0x1111…1111 (its session)". */
export function marginSignerLine(marginAccountId: string, tradeAccountId: string | null | undefined): string {
  return `${accountText({ account: marginAccountId, accountKind: 'turbo-account' })} (trades the Turbo books) · signed by ${signerText(false, tradeAccountId, null)} (its session)`;
}

/** True when the action may go: confirmed, or confirmations are off. */
export async function confirmMarginAction(terminal: TerminalContextValue, title: string, lines: readonly string[], marginAccountId: string): Promise<boolean> {
  if (terminal.store.state.settings?.confirmOrders === false) return true;
  return terminal.trading.ask(title, [...lines, marginSignerLine(marginAccountId, terminal.store.state.account?.tradeAccount?.tradeAccountId)]);
}
