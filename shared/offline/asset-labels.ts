// The asset symbol and decimals in a withdraw request are labels from the online machine; only
// the raw amount and the asset id are signed. A compromised online machine could relabel an
// asset (6 decimals shown as 9 turns 1000 USDC into "1 USDC" on screen). A signer given a list
// of assets the person trusts checks the labels against it and refuses anything else.
import { z } from 'zod';
import type { B256 } from '../encoding/b256';
import { fail, ok, type Result } from '../result';
import { parseWith } from '../schema';
import { OFFLINE_CODES } from './codes';
import { checkFormatAndVersion, LIMITS, type OfflineRequest } from './request-format';

export const ASSET_LABELS_FORMAT = 'ledger-terminal/asset-labels';
export const ASSET_LABELS_VERSION = 1;

export interface AssetLabel {
  readonly network: string;
  readonly asset_id: B256;
  readonly symbol: string;
  readonly decimals: number;
}

const labelsSchema = z.strictObject({
  format: z.literal(ASSET_LABELS_FORMAT),
  version: z.literal(ASSET_LABELS_VERSION),
  assets: z
    .array(
      z.strictObject({
        network: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'expected a network id'),
        asset_id: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits'),
        symbol: z.string().regex(/^[A-Za-z0-9._-]{1,16}$/, 'expected 1 to 16 letters, digits, ".", "_" or "-"'),
        decimals: z.number().int().min(0).max(LIMITS.maxDecimals),
      }),
    )
    .max(10_000),
});

export function parseAssetLabels(value: unknown, root = 'assets file'): Result<readonly AssetLabel[]> {
  const header = checkFormatAndVersion(value, ASSET_LABELS_FORMAT, ASSET_LABELS_VERSION, root);
  if (!header.ok) return header;
  const parsed = parseWith(labelsSchema, value, root, OFFLINE_CODES.MALFORMED);
  if (!parsed.ok) return parsed;
  return ok(parsed.value.assets.map((asset) => ({ ...asset, asset_id: asset.asset_id as B256 })));
}

/** Refuse a withdraw whose asset is unknown to the list or labelled differently. */
export function checkAssetLabels(request: OfflineRequest, labels: readonly AssetLabel[]): Result<void> {
  if (request.kind !== 'withdraw') return ok(undefined);
  const { asset_id, asset_symbol, asset_decimals } = request.withdraw;
  const known = labels.find((label) => label.network === request.network && label.asset_id === asset_id);
  if (!known) {
    return fail(
      OFFLINE_CODES.ASSET_UNKNOWN,
      `request.withdraw.asset_id: ${asset_id} on ${request.network} is not in the trusted asset list; check it and add it before signing`,
      { field: 'request.withdraw.asset_id' },
    );
  }
  if (known.symbol !== asset_symbol || known.decimals !== asset_decimals) {
    return fail(
      OFFLINE_CODES.ASSET_LABEL_MISMATCH,
      `request.withdraw.asset_symbol: the request calls ${asset_id} "${asset_symbol}" with ${asset_decimals} decimals, ` +
        `the trusted list says "${known.symbol}" with ${known.decimals} decimals: the amount shown would be wrong`,
      { field: 'request.withdraw.asset_symbol' },
    );
  }
  return ok(undefined);
}
