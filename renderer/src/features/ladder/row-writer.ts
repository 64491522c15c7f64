// One ladder row's cells written by hand, each only when its own value changed since the row was
// last written. With cumulative depth on, nearly every row changes every frame: a reactive
// expression per cell (twenty-odd per row, five hundred rows) cost more script per frame than
// the whole budget, and a bar's width change laid its cell out again. Here a row is one
// computation that compares the new row with the last one written, text changes go to the cell's
// one Text node (never a new node), and depth and flow bars move by transform (paint only, no
// layout). The attributes and classes are the ones the ladder always had (tests read them).
import { sameIds, type LadderRow } from './ladder-model';

export interface RowElements {
  readonly row: HTMLElement;
  readonly ownBuy: HTMLElement;
  readonly bidBar: HTMLElement;
  readonly bid: Text;
  readonly price: HTMLElement;
  readonly askBar: HTMLElement;
  readonly ask: Text;
  readonly ownSell: HTMLElement;
  readonly lastSize: HTMLElement;
  readonly volume: HTMLElement;
  readonly soldBar: HTMLElement;
  readonly boughtBar: HTMLElement;
  readonly flow: Text;
}

/** How the row's figures read (the ladder's formatting, cached per value). */
export interface RowText {
  size(quantity: bigint): string;
  own(count: number, quantity: bigint): string;
  ownFillTitle(row: LadderRow): string | undefined;
  flowTitle(row: LadderRow): string | undefined;
}

function attribute(element: HTMLElement, name: string, value: string | undefined): void {
  if (value === undefined) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

function text(element: HTMLElement, value: string): void {
  const node = element.firstChild;
  if (node instanceof Text && node.nextSibling === null) {
    if (node.data !== value) node.data = value;
  } else element.textContent = value;
}

const scale = (percent: number) => `scaleX(${percent / 100})`;

/** Write `row` into the row's elements; `previous` is what they show now (undefined: write everything). */
export function writeRow(elements: RowElements, format: RowText, row: LadderRow, previous: LadderRow | undefined): void {
  const all = previous === undefined;
  const { row: element } = elements;
  if (all || previous.bestBid !== row.bestBid) element.classList.toggle('best-bid', row.bestBid);
  if (all || previous.bestAsk !== row.bestAsk) element.classList.toggle('best-ask', row.bestAsk);
  if (all || previous.inSpread !== row.inSpread) element.classList.toggle('spread', row.inSpread);
  if (all || previous.lastTrade !== row.lastTrade) {
    element.classList.toggle('last-buy', row.lastTrade === 'Buy');
    element.classList.toggle('last-sell', row.lastTrade === 'Sell');
  }
  if (all || previous.hiddenAbove !== row.hiddenAbove) {
    const hidden = row.hiddenAbove > 0n;
    element.classList.toggle('gap-above', hidden);
    attribute(element, 'data-hidden-above', hidden ? row.hiddenAbove.toString() : undefined);
    attribute(element, 'title', hidden ? `${row.hiddenAbove.toString()} empty rows of the spread left out above` : undefined);
  }
  if (all || previous.ownBought !== row.ownBought || previous.ownSold !== row.ownSold) {
    element.classList.toggle('own-bought', row.ownBought > 0n);
    element.classList.toggle('own-sold', row.ownSold > 0n);
    attribute(element, 'data-own-fill', row.ownBought > 0n || row.ownSold > 0n ? 'true' : undefined);
    attribute(elements.price, 'title', format.ownFillTitle(row));
  }
  if (all || previous.entry !== row.entry) {
    element.classList.toggle('entry', row.entry);
    attribute(element, 'data-entry', row.entry ? 'true' : undefined);
  }
  if (all || previous.ownBuyCount !== row.ownBuyCount || previous.ownBuyQuantity !== row.ownBuyQuantity || !sameIds(previous.ownBuyIds, row.ownBuyIds)) {
    attribute(elements.ownBuy, 'data-testid', row.ownBuyCount > 0 ? 'own-order' : undefined);
    elements.ownBuy.setAttribute('data-order-ids', row.ownBuyIds.join(','));
    text(elements.ownBuy, format.own(row.ownBuyCount, row.ownBuyQuantity));
  }
  if (all || previous.ownSellCount !== row.ownSellCount || previous.ownSellQuantity !== row.ownSellQuantity || !sameIds(previous.ownSellIds, row.ownSellIds)) {
    attribute(elements.ownSell, 'data-testid', row.ownSellCount > 0 ? 'own-order' : undefined);
    elements.ownSell.setAttribute('data-order-ids', row.ownSellIds.join(','));
    text(elements.ownSell, format.own(row.ownSellCount, row.ownSellQuantity));
  }
  if (all || previous.bidBar !== row.bidBar) elements.bidBar.style.transform = scale(row.bidBar);
  if (all || previous.bid !== row.bid) {
    const value = format.size(row.bid);
    if (elements.bid.data !== value) elements.bid.data = value;
  }
  if (all || previous.askBar !== row.askBar) elements.askBar.style.transform = scale(row.askBar);
  if (all || previous.ask !== row.ask) {
    const value = format.size(row.ask);
    if (elements.ask.data !== value) elements.ask.data = value;
  }
  if (all || previous.lastSize !== row.lastSize || previous.largeLot !== row.largeLot) {
    elements.lastSize.classList.toggle('large-lot', row.largeLot);
    attribute(elements.lastSize, 'data-testid', row.lastSize > 0n ? 'ladder-last-size' : undefined);
    attribute(elements.lastSize, 'data-large', row.largeLot ? 'true' : undefined);
    text(elements.lastSize, row.lastSize > 0n ? format.size(row.lastSize) : '');
  }
  if (all || previous.volume !== row.volume || previous.bought !== row.bought || previous.sold !== row.sold) {
    const traded = row.volume > 0n;
    attribute(elements.volume, 'data-testid', traded ? 'ladder-flow' : undefined);
    attribute(elements.volume, 'data-bought', traded ? row.bought.toString() : undefined);
    attribute(elements.volume, 'data-sold', traded ? row.sold.toString() : undefined);
    attribute(elements.volume, 'title', format.flowTitle(row));
    const value = format.size(row.volume);
    if (elements.flow.data !== value) elements.flow.data = value;
  }
  if (all || previous.soldBar !== row.soldBar || previous.boughtBar !== row.boughtBar) {
    elements.soldBar.style.transform = scale(row.soldBar);
    elements.boughtBar.style.transform = `translateX(${row.soldBar}%) ${scale(row.boughtBar)}`;
  }
}
