// Credit line, account value and loan capacity (spec margin-api 2.6), one function per row of
// the table so each can be checked on its own. All amounts are raw collateral units unless a
// parameter says otherwise.
import { basisPointsOf, maximum, minimum } from './arithmetic';
import type { AssetBalance } from './snapshot';

/** line cap = floor(tier.line × tier.max_credit_line_bps / 10,000). */
export function lineCap(line: bigint, maxCreditLineBps: bigint): bigint {
  return basisPointsOf(line, maxCreditLineBps);
}

/** net collateral = C - F (negative when fees exceed the posted collateral). */
export function netCollateral(collateral: bigint, fees: bigint): bigint {
  return collateral - fees;
}

/** L = min(k + net collateral, line cap). A prepaid session (C = 0, F = 0) gets min(k, line cap). */
export function creditLine(capital: bigint, net: bigint, cap: bigint): bigint {
  return minimum(capital + net, cap);
}

/** collateral headroom = max(0, line cap - k - max(0, net collateral)): collateral that still raises L. */
export function collateralHeadroom(cap: bigint, capital: bigint, net: bigint): bigint {
  return maximum(0n, cap - capital - maximum(0n, net));
}

/** H[a] = on_account + received + locked + settled. */
export function holdings(balance: AssetBalance): bigint {
  return balance.onAccount + balance.received + balance.locked + balance.settled;
}

/** pos[a] = H[a] - debt[a]. */
export function position(balance: AssetBalance): bigint {
  return holdings(balance) - balance.debt;
}

/** undrawn line = L - Dq. */
export function undrawnLine(line: bigint, quoteDrawn: bigint): bigint {
  return line - quoteDrawn;
}

/** equity above cap = max(0, C + k - L): collateral the capped line does not carry, still the trader's. */
export function equityAboveCap(collateral: bigint, capital: bigint, line: bigint): bigint {
  return maximum(0n, collateral + capital - line);
}

/**
 * V = H[collateral] + (L - Dq) + max(0, C + k - L) + Σ mark(pos[a]) over a ≠ collateral - F.
 * Draws and borrows move H and Dq (or debt) by the same value, so they leave V unchanged.
 */
export function accountValue(parts: {
  readonly collateralHoldings: bigint;
  readonly undrawn: bigint;
  readonly aboveCap: bigint;
  readonly marks: bigint;
  readonly fees: bigint;
}): bigint {
  return parts.collateralHoldings + parts.undrawn + parts.aboveCap + parts.marks - parts.fees;
}

/** trader equity = V - k. */
export function traderEquity(value: bigint, capital: bigint): bigint {
  return value - capital;
}

/** trading basis = C - F. */
export function tradingBasis(collateral: bigint, fees: bigint): bigint {
  return collateral - fees;
}

/** trading PnL = trader equity - trading basis. */
export function tradingPnl(equity: bigint, basis: bigint): bigint {
  return equity - basis;
}

/** outstanding = Dq + in-kind debt value; the protocol requires outstanding <= L after every batch. */
export function outstanding(quoteDrawn: bigint, debtValue: bigint): bigint {
  return quoteDrawn + debtValue;
}

/** loan headroom = max(0, L - outstanding). */
export function loanHeadroom(line: bigint, owed: bigint): bigint {
  return maximum(0n, line - owed);
}

/** drawable quote = min(loan headroom, pool quote inventory). */
export function drawableQuote(headroom: bigint, poolQuoteInventory: bigint): bigint {
  return minimum(headroom, poolQuoteInventory);
}

/** cash held = on-account quote + settled quote (quote locked in orders is not cash). */
export function cashHeld(collateralBalance: AssetBalance): bigint {
  return collateralBalance.onAccount + collateralBalance.settled;
}

/** spendable cash = max(0, cash held - reserve): the buy-back cost of every short stays put. */
export function spendableCash(cash: bigint, reserve: bigint): bigint {
  return maximum(0n, cash - reserve);
}

/** returnable quote = min(Dq, on-account quote, spendable cash). */
export function returnableQuote(quoteDrawn: bigint, onAccountQuote: bigint, spendable: bigint): bigint {
  return minimum(quoteDrawn, minimum(onAccountQuote, spendable));
}
