// The ticket's one selector: the venue's order kinds, and beside them the algorithms main runs
// (their own table, shared/algos/algo-kinds.ts), each group under its name. Choosing an algorithm
// swaps the order form for the algorithm's (AlgoTicketForm) and leaves the order kind the ladder
// and the hotkeys trade with as it was.
import { For, type Component } from 'solid-js';
import { ALGO_KIND_TABLE, ALGO_KINDS } from '../../../../shared/algos/algo-kinds';
import type { AlgoKind } from '../../../../shared/ipc/views/algos';
import type { OrderTypeKind } from '../../../../shared/market/order-type';
import { useTerminal } from '../../stores/terminal-context';
import { ORDER_KIND_HELP, ORDER_KIND_LABELS, ORDER_KINDS } from './ticket-model';

const ALGO_PREFIX = 'algo:';

export const KindSelect: Component<{ marketId: string }> = (props) => {
  const terminal = useTerminal();
  const algo = () => terminal.tickets.algo(props.marketId).kind;
  const kind = () => terminal.tickets.draft(props.marketId).kind;
  const choose = (value: string) => {
    if (value.startsWith(ALGO_PREFIX)) {
      terminal.tickets.chooseAlgo(props.marketId, value.slice(ALGO_PREFIX.length) as AlgoKind);
      return;
    }
    terminal.tickets.chooseAlgo(props.marketId, null);
    terminal.tickets.update(props.marketId, { kind: value as OrderTypeKind });
  };
  return (
    <label class="field">
      <span>Order type</span>
      <select data-testid="ticket-type" data-algo={algo() ?? ''} value={algo() === null ? kind() : `${ALGO_PREFIX}${algo()}`} onChange={(event) => choose(event.currentTarget.value)}>
        <optgroup label="Orders">
          <For each={ORDER_KINDS}>{(entry) => <option value={entry}>{ORDER_KIND_LABELS[entry]}</option>}</For>
        </optgroup>
        <optgroup label="Algorithms (run by the terminal)">
          <For each={ALGO_KINDS}>{(entry) => <option value={`${ALGO_PREFIX}${entry}`}>{ALGO_KIND_TABLE[entry].label}</option>}</For>
        </optgroup>
      </select>
      <span class="help" data-testid="ticket-type-help">{algo() === null ? ORDER_KIND_HELP[kind()] : ALGO_KIND_TABLE[algo()!].help}</span>
    </label>
  );
};
