// The examples in docs/offline-signing.md are real: the request verifies, its hash is the one the
// page states, the response is a valid signature for it, and the QR parts decode to the response.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFLINE_CODES } from '../../../../shared/offline/codes';
import { decodeQrParts, parsePayloadJson } from '../../../../shared/offline/qr-framing';
import { parseOfflineRequest } from '../../../../shared/offline/request-format';
import { verifyOfflineRequest } from '../../../../shared/offline/verify-request';
import { verifyOfflineResponse } from '../../../../shared/offline/verify-response';
import { NOW, unwrap } from '../../../support/shared/offline/fixtures';

const page = readFileSync(resolve(import.meta.dirname, '../../../../docs/offline-signing.md'), 'utf8');
const blocks = [...page.matchAll(/```(json|)\n([\s\S]*?)```/g)].map((match) => ({ language: match[1], text: match[2]! }));

describe('docs/offline-signing.md examples', () => {
  const [requestBlock, responseBlock] = blocks.filter((block) => block.language === 'json');
  const request = JSON.parse(requestBlock!.text) as unknown;
  const response = JSON.parse(responseBlock!.text) as unknown;

  it('the request verifies and has the stated hash', () => {
    const verified = unwrap(verifyOfflineRequest(request, { nowSeconds: NOW + 60n }));
    expect(page).toContain(`Its request hash is \`${verified.hash}\``);
    expect(verifyOfflineRequest(request, { nowSeconds: NOW + 86_400n })).toMatchObject({ ok: false, code: OFFLINE_CODES.EXPIRED });
  });

  it('the response is accepted for it, and the QR parts carry the response', () => {
    const pending = unwrap(parseOfflineRequest(request));
    expect(verifyOfflineResponse(pending, response, { nowSeconds: NOW + 60n }).ok).toBe(true);
    const parts = blocks.find((block) => block.text.startsWith('LTQR1/1/'))!.text.trim().split('\n');
    expect(unwrap(parsePayloadJson(unwrap(decodeQrParts(parts)).payload))).toEqual(response);
  });
});
