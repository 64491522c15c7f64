// Custody components, self-contained: each reads the bridge with useBridge (stores/bridge-context)
// and talks to main through the custody area of the contract only. None is wired into the app shell here;
// the shell places them (a Custody or Funds panel online, OfflineSigner when getAppInfo().offline).
//
// | component           | props                                                          | shows / does                                                                 |
// |---------------------|----------------------------------------------------------------|------------------------------------------------------------------------------|
// | WithdrawForm        | onPrepared?(OwnerRequestView)                                   | asset, exact amount, destination, nonce; hot owner: review, sign and send; watch-only: prepare the offline request |
// | SessionRequestForm  | onPrepared?(OwnerRequestView)                                   | a watch-only owner's session request: markets, hours                          |
// | PendingRequests     | now?() ms                                                       | requests awaiting signature: words, fields, nonce, countdown, file download, animated QR, cancel; the last result |
// | ImportSignature     | onResult?(OwnerSubmissionView); showResult? (default true)      | paste the response text or QR payloads, or choose the file; verify and submit |
// | OwnerResult         | result: OwnerSubmissionView                                     | what became of a submitted owner request                                     |
// | DepositInstructions | (none)                                                          | the trading account's contract id and asset ids with copy buttons; the transfer must name asset id and amount |
// | ReferralCode        | (none)                                                          | look a referral code up and register it                                      |
// | OfflineSigner       | now?() ms                                                       | offline mode: load a request, show what will be signed, keystores, sign, response file and QR |
// | CustodyPanel        | now?() ms                                                       | the online components above arranged in one panel (session form for watch-only owners only) |
//
// data-testid of the controls: withdraw-* (asset, amount, max, destination-kind, destination, nonce,
// lifetime, review, submit, confirmation, error), session-* (market, hours, prepare, error),
// pending-request(-state, -words, -lines, -nonce, -countdown, -download, -cancel, -qr), import-signature-*
// (text, file, submit, error), owner-result, deposit-* (sentence, account, copy-account, asset, copy-asset),
// referral-* (code, lookup, register, found, registered, error), offline-* (request-text, request-file,
// request-load, preview, preview-lines, keystore, new-name, new-style, new-mode, new-key, new-passphrase,
// new-passphrase-again, new-create, sign-passphrase, sign, signature, signature-text, signature-download,
// signature-qr, error). Failures carry data-code with the stable code.
export { WithdrawForm } from './WithdrawForm';
export { SessionRequestForm } from './SessionRequestForm';
export { PendingRequests } from './PendingRequests';
export { ImportSignature } from './ImportSignature';
export { OwnerResult } from './OwnerResult';
export { DepositInstructions } from './DepositInstructions';
export { ReferralCode } from './ReferralCode';
export { OfflineSigner } from './OfflineSigner';
export { CustodyPanel } from './CustodyPanel';
