// The custody area of the contract: owner-signed requests (withdrawals with a hot owner key;
// withdrawals and sessions prepared for the offline signer of a watch-only owner and completed
// with its signature), the deposit instructions, referral codes, and the offline signer of the
// app's offline mode. Merged in ../contract.ts.
//
// The online requests refuse with ONLINE_ONLY when the app runs with --offline; the `offline…`
// requests refuse with OFFLINE_ONLY when it is online (docs/offline-signing.md).
import { z } from 'zod';
import { b256Input, confirmationCode, noInput } from '../inputs';
import { request, stream } from '../spec';
import { labelProblem } from '../../text/label-text';
import type {
  AllowedAddressesView,
  DepositInstructionsView,
  KeystoreView,
  OfflineRequestPreview,
  OfflineSignatureView,
  OwnerMethodResultView,
  OwnerMethodView,
  OwnerRequestsView,
  OwnerRequestView,
  OwnerSubmissionView,
  ReferralCodeView,
  ReferralRegistrationView,
  SecretChallengeView,
} from '../views/custody';

/** Raw units of the asset, a u64 on the ledger. */
const amount = z.bigint().min(1n, 'must be at least 1 raw unit').max(0xffff_ffff_ffff_ffffn, 'must fit in u64');

/** A destination's name on the allow-list: one line of text in any script (shared/text/label-text.ts). */
const addressLabel = z
  .string()
  .max(64)
  .superRefine((text, context) => {
    const problem = labelProblem(text);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });
/** A ledger destination: a wallet ({Address}) or a contract ({ContractId}). */
const destination = z.union([z.strictObject({ Address: b256Input }), z.strictObject({ ContractId: b256Input })]);

/**
 * `parallel` (the default): a parallel nonce from the lane kept for owner-signed requests, so the
 * request does not wait for, or hold up, sequential orders. `sequential`: the account's nonce.
 */
const nonceMode = z.enum(['sequential', 'parallel']);

/** How long the person has to carry a request to the offline signer and back (default 24 h, at most 7 days). */
const lifetimeHours = z.number().int().min(1).max(7 * 24);

const requestKind = z.enum(['withdraw', 'session', 'owner-call']);
const ownerMethodName = z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a method name (letters only)');
const ownerMethodParameters = z.record(z.string().regex(/^[A-Za-z]{1,40}$/, 'expected a parameter name (letters only)'), z.string().max(200));

/** A request or response document as text: the JSON file's contents, or QR payloads one per line. */
const documentText = z.string().min(1, 'paste the file contents or the QR payloads').max(256 * 1024, 'at most 256 KiB');

/** Referral codes as the service issues them: letters, digits, "-" and "_". */
const referralCode = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1 to 64 letters, digits, "-" or "_"');

const hex = (what: string, minBytes: number, maxBytes: number) =>
  z.string().regex(new RegExp(`^(?:[0-9a-f]{2}){${minBytes},${maxBytes}}$`), `expected ${what} as ${minBytes === maxBytes ? minBytes : `${minBytes} to ${maxBytes}`} bytes of lowercase hex`);

/**
 * A secret (a passphrase, or a private key followed by a passphrase) encrypted to main's one-time
 * key from `offlineBeginSecret`, by the recipe of main/services/key-import.ts with its own HKDF
 * label per purpose: the plaintext never crosses the bridge.
 */
const encryptedSecret = z.strictObject({
  exchangeId: z.string().regex(/^[0-9a-f]{32}$/, 'expected the 16-byte exchange id as 32 lowercase hex digits'),
  /** The renderer's one-time ECDH P-256 public key, raw uncompressed. */
  publicKey: hex('a public key', 65, 65),
  iv: hex('an IV', 12, 12),
  /** AES-256-GCM ciphertext with its 16-byte tag: at most a 32-byte key, a 1024-byte passphrase and the tag. */
  ciphertext: hex('the encrypted secret', 17, 32 + 1024 + 16),
});

/** A keystore's name in the data directory (`<name>.keystore.json`): no path, no hidden file. */
const keystoreName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'expected 1 to 64 letters, digits, ".", "_" or "-", not starting with "." or "-"');

export const custodyInputs = {
  withdraw: z.strictObject({ assetId: b256Input, amount, to: destination, nonce: nonceMode.optional(), confirmationCode }),
  /** Adds a destination to the withdrawal allow-list (confirmed outside the page; usable after a delay). */
  allowWithdrawAddress: z.strictObject({ to: destination, label: addressLabel.optional(), confirmationCode }),
  removeWithdrawAddress: z.strictObject({ to: destination }),
  prepareOwnerRequest: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('withdraw'), assetId: b256Input, amount, to: destination, nonce: nonceMode.optional(), lifetimeHours: lifetimeHours.optional() }),
    z.strictObject({
      kind: z.literal('session'),
      marketIds: z.array(b256Input).min(1).max(50),
      /** How long the session lasts once submitted, in hours (at least one, as spec 2.6 requires). */
      hours: z.number().int().min(1).max(24 * 365),
      lifetimeHours: lifetimeHours.optional(),
    }),
    /** An owner method (getOwnerMethods) for a watch-only owner's offline signer; main parses it as for callOwnerMethod. */
    z.strictObject({ kind: z.literal('owner-call'), method: ownerMethodName, parameters: ownerMethodParameters, nonce: nonceMode.optional(), lifetimeHours: lifetimeHours.optional() }),
  ]),
  cancelOwnerRequest: z.strictObject({ kind: requestKind }),
  /**
   * An owner endpoint (upgrade, call(s), actions) by the name of a method main lists
   * (getOwnerMethods); main parses each parameter with the method's own schema.
   */
  callOwnerMethod: z.strictObject({ method: ownerMethodName, parameters: ownerMethodParameters, confirmationCode }),
  importOwnerSignature: z.strictObject({ text: documentText }),
  lookupReferralCode: z.strictObject({ code: referralCode }),
  registerReferral: z.strictObject({ code: referralCode }),

  offlineLoadRequest: z.strictObject({ text: documentText }),
  offlineCreateKeystore: z.strictObject({
    name: keystoreName,
    style: z.enum(['ledger', 'evm']),
    /** `generate` a new key (secret = passphrase), or `import` one (secret = 32 key bytes then the passphrase). */
    mode: z.enum(['generate', 'import']),
    secret: encryptedSecret,
  }),
  offlineSign: z.strictObject({
    /** The hash shown by offlineLoadRequest: the signature is made only for that exact request. */
    requestHash: z.string().regex(/^0x[0-9a-f]{64}$/, 'expected 0x followed by 64 lowercase hex digits'),
    keystore: keystoreName,
    /** The keystore's passphrase. */
    secret: encryptedSecret,
  }),
} as const;

export const custodyRequests = {
  // Online: the owner's requests.
  withdraw: request<OwnerSubmissionView>()(custodyInputs.withdraw),
  getWithdrawAddresses: request<AllowedAddressesView>()(noInput),
  allowWithdrawAddress: request<AllowedAddressesView>()(custodyInputs.allowWithdrawAddress),
  removeWithdrawAddress: request<AllowedAddressesView>()(custodyInputs.removeWithdrawAddress),
  prepareOwnerRequest: request<OwnerRequestView>()(custodyInputs.prepareOwnerRequest),
  getOwnerRequests: request<OwnerRequestsView>()(noInput),
  cancelOwnerRequest: request<OwnerRequestsView>()(custodyInputs.cancelOwnerRequest),
  getOwnerMethods: request<readonly OwnerMethodView[]>()(noInput),
  callOwnerMethod: request<OwnerMethodResultView>()(custodyInputs.callOwnerMethod),
  importOwnerSignature: request<OwnerSubmissionView>()(custodyInputs.importOwnerSignature),
  getDepositInstructions: request<DepositInstructionsView>()(noInput),
  lookupReferralCode: request<ReferralCodeView>()(custodyInputs.lookupReferralCode),
  registerReferral: request<ReferralRegistrationView>()(custodyInputs.registerReferral),

  // Offline mode: the signer.
  offlineBeginSecret: request<SecretChallengeView>()(noInput),
  offlineLoadRequest: request<OfflineRequestPreview>()(custodyInputs.offlineLoadRequest),
  offlineListKeystores: request<readonly KeystoreView[]>()(noInput),
  offlineCreateKeystore: request<KeystoreView>()(custodyInputs.offlineCreateKeystore),
  offlineSign: request<OfflineSignatureView>()(custodyInputs.offlineSign),
} as const;

export const custodyStreams = {
  /** The pending owner requests and the latest result, after every change. */
  ownerRequests: stream<OwnerRequestsView>(),
} as const;

/** Requests that need the network (refused with ONLINE_ONLY in offline mode). */
export const CUSTODY_ONLINE_REQUESTS = [
  'withdraw',
  'getWithdrawAddresses',
  'allowWithdrawAddress',
  'removeWithdrawAddress',
  'prepareOwnerRequest',
  'getOwnerRequests',
  'cancelOwnerRequest',
  'getOwnerMethods',
  'callOwnerMethod',
  'importOwnerSignature',
  'getDepositInstructions',
  'lookupReferralCode',
  'registerReferral',
] as const satisfies readonly (keyof typeof custodyRequests)[];

/** Requests of the offline signer (refused with OFFLINE_ONLY while online). */
export const CUSTODY_OFFLINE_REQUESTS = ['offlineBeginSecret', 'offlineLoadRequest', 'offlineListKeystores', 'offlineCreateKeystore', 'offlineSign'] as const satisfies readonly (keyof typeof custodyRequests)[];

export const ONLINE_ONLY = 'ONLINE_ONLY';
export const OFFLINE_ONLY = 'OFFLINE_ONLY';
