// Random trader-session step of an owner request with the keychain owner (docs/actions.md "Owner
// request"): the trader opens Account setup, picks "Settle a book" in the owner methods table for
// the market in view, signs with `Review and sign`, and completes the trusted confirmation with the
// code the host prints on its own terminal. On the exchange: exactly one owner-signed request to
// POST /v1/accounts/actions was journaled for it, its outcome is accepted (or landed), and the
// ledger consumed its sequential nonce; or nothing was signed and the form said why.
import type fc from 'fast-check';
import { holdsWithin } from '../action-reads';
import { runStep, type Model, type Real } from '../commands';
import type { Problems } from '../postconditions';

interface Before {
  readonly lastSeq: number;
}

export class SettleBookAsOwner implements fc.AsyncCommand<Model, Real, false> {
  shown = '';
  refusal = '';
  check(model: Readonly<Model>): boolean {
    return model.network === 'sandbox';
  }
  toString() {
    return 'settle the book in view with the owner key (owner methods table, host code)';
  }
  private async journal(real: Real) {
    const journal = await real.world.bridge.api.getJournal({ limit: 200 });
    if (!journal.ok) throw new Error(`the journal could not be read: ${journal.message}`);
    return journal.value;
  }
  async postcondition(real: Real, before: Before): Promise<Problems> {
    const entries = (await this.journal(real)).filter((entry) => entry.seq > before.lastSeq);
    const signed = entries.filter((entry) => entry.kind === 'signed' && entry.endpoint === 'POST /v1/accounts/actions');
    if (signed.length === 0) {
      return this.refusal.trim() === '' ? [`nothing was signed and the form said nothing (it showed ${JSON.stringify(this.shown)})`] : [];
    }
    if (signed.length > 1) return [`${signed.length} owner requests were signed for one settle: ${signed.map((entry) => entry.id).join(', ')}`];
    const [entry] = signed;
    const outcome = entries.find((other) => other.id === entry!.id && (other.kind === 'outcome' || other.kind === 'reconciled') && (other.status === 'accepted' || other.status === 'landed'));
    const problems: Problems = [];
    if (!/^Owner action SettleBalance on /.test(entry!.description ?? '')) problems.push(`the signed request says ${JSON.stringify(entry!.description)}, not a SettleBalance`);
    if (outcome === undefined) problems.push(`the owner request ${entry!.id} has no accepted outcome in the journal`);
    if (!/accepted|landed/.test(this.shown)) problems.push(`the form showed ${JSON.stringify(this.shown)}, not the accepted request`);
    const nonce = /^sequential (\d+)/.exec(entry!.nonce ?? '')?.[1];
    if (nonce === undefined) problems.push(`the owner request carries ${JSON.stringify(entry!.nonce)}, not the sequential nonce`);
    else {
      const ledger = await real.world.control.get('/control/ledger');
      const accounts = (ledger.body.accounts ?? []) as { trade_account_id: string; nonce: string }[];
      const account = accounts.find((candidate) => candidate.trade_account_id === real.world.tradeAccountId);
      if (account === undefined || BigInt(account.nonce) <= BigInt(nonce)) problems.push(`the ledger's nonce ${account?.nonce ?? 'none'} has not consumed the owner request's nonce ${nonce}`);
    }
    return problems;
  }
  async run(model: Model, real: Real): Promise<void> {
    await runStep(this.toString(), model, real, async () => {
      const before = this.check(model) ? { lastSeq: Math.max(0, ...(await this.journal(real)).map((entry) => entry.seq)) } : null;
      await this.act(model, real);
      if (before !== null) await holdsWithin(this.toString(), real.boundMs, () => this.postcondition(real, before));
    });
  }
  async act(model: Model, real: Real) {
    this.shown = '';
    this.refusal = '';
    const { page, host } = real.world;
    const market = real.world.markets[model.marketIndex]!;
    if (!(await page.getByTestId('close-setup').count())) await page.getByTestId('open-setup').click({ timeout: 3000 });
    try {
      const form = page.getByTestId('owner-methods');
      await form.waitFor({ timeout: 5000 });
      await page.getByTestId('owner-method').selectOption('settleBalance');
      await page.getByTestId('owner-method-marketId').selectOption(market.market_id);
      const since = host.output.length;
      await page.getByTestId('owner-method-submit').click({ timeout: 3000 });
      const asked = await page
        .getByTestId('host-code-dialog')
        .waitFor({ timeout: 10_000 })
        .then(() => true)
        .catch(() => false);
      if (asked) {
        const { code, printed } = await host.confirmationCode(since);
        if (!printed.includes('Method: settleBalance') || !printed.includes(`marketId: ${market.market_id}`)) {
          throw new Error(`the host's confirmation does not name the method and the market:\n${printed}`);
        }
        await page.getByTestId('host-code-input').fill(code);
        await page.getByTestId('host-code-submit').click();
      }
      const result = page.getByTestId('owner-method-result');
      const error = page.getByTestId('owner-method-error');
      const deadline = Date.now() + real.boundMs;
      while (Date.now() < deadline && !(await result.count()) && !(await error.count())) await new Promise((resolve) => setTimeout(resolve, 200));
      this.shown = (await result.textContent({ timeout: 500 }).catch(() => null)) ?? '';
      this.refusal = (await error.textContent({ timeout: 500 }).catch(() => null)) ?? '';
    } finally {
      if (await page.getByTestId('close-setup').count()) await page.getByTestId('close-setup').click({ timeout: 3000 });
    }
  }
}
