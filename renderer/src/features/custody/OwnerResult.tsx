// What became of an owner-signed request that went out: accepted (with its transaction) or landed
// (its answer was lost and the ledger shows it), the words, and the session now in force.
import { Show, type Component } from 'solid-js';
import type { OwnerSubmissionView } from '../../../../shared/ipc/views';
import { formatDateTime } from '../../format/time';

export const OwnerResult: Component<{ result: OwnerSubmissionView }> = (props) => (
  <div class="custody-result" data-testid="owner-result" data-status={props.result.status} data-kind={props.result.kind}>
    <p class="custody-words">{props.result.description}</p>
    <p>
      {props.result.status === 'accepted' ? 'Accepted' : 'Landed'}
      <Show when={props.result.txId}>
        {(txId) => (
          <>
            {' in transaction '}
            <span class="mono" data-testid="owner-result-tx">
              {txId()}
            </span>
          </>
        )}
      </Show>
      {` at ${formatDateTime(props.result.at)}.`}
    </p>
    <Show when={props.result.status === 'landed'}>
      <p class="muted">{props.result.detail}</p>
    </Show>
    <Show when={props.result.session}>
      {(session) => (
        <p data-testid="owner-result-session">
          Session key <span class="mono">{session().sessionAddress}</span> trades until {formatDateTime(Number(session().expiry) * 1000)} on {session().contractIds.length} contracts.
        </p>
      )}
    </Show>
    <p class="muted">
      Journal entry <span class="mono">{props.result.journalId}</span>
    </p>
  </div>
);
