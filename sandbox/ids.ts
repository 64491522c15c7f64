// Deterministic ids: every asset, contract and market id is SHA-256 of the seed and a name,
// so two sandboxes started with the same --seed serve the same ids (tests and saved
// layouts can rely on them) and different seeds never collide.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function deriveId(seed: number, name: string): string {
  return `0x${bytesToHex(sha256(utf8ToBytes(`ledger-sandbox/${seed}/${name}`)))}`;
}
