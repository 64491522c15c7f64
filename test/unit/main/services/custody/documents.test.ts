import { describe, expect, it } from 'vitest';
import { carry, readDocumentText } from '../../../../../main/services/custody/documents';
import { prettyCanonicalJson } from '../../../../../shared/offline/canonical-json';
import { requestToJson } from '../../../../../shared/offline/request-format';
import { responseToJson } from '../../../../../shared/offline/response-format';
import { unwrap, withdrawRequest } from '../../../../support/main/custody/fixtures';

const request = withdrawRequest();
const response = { version: 1 as const, request_id: request.request_id, request_hash: `0x${'ab'.repeat(32)}`, signature: `0x${'cd'.repeat(64)}`, signer: request.owner.address };

describe('documents as people carry them', () => {
  it('reads a request file (indented or canonical) and the QR payloads of one, in any order with repeats', async () => {
    const fromFile = unwrap(readDocumentText(prettyCanonicalJson(requestToJson(request)), 'request'));
    expect(fromFile.request).toEqual(request);
    const carried = unwrap(await carry({ kind: 'request', request }));
    expect(carried.fileText.endsWith('\n')).toBe(true);
    expect(carried.qrPayloads.length).toBeGreaterThan(1);
    const shuffled = [...carried.qrPayloads].reverse().concat(carried.qrPayloads[0]!);
    expect(unwrap(readDocumentText(`\n  ${shuffled.join('\r\n')}\n`, 'request')).request).toEqual(request);
    expect(carried.qrImages).toHaveLength(carried.qrPayloads.length);
    for (const image of carried.qrImages) expect(image).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  });

  it('refuses the other kind of document, text that is neither, and a QR set with a part missing', async () => {
    expect(readDocumentText(JSON.stringify(responseToJson(response)), 'request')).toMatchObject({ ok: false, code: 'WRONG_DOCUMENT' });
    expect(readDocumentText(prettyCanonicalJson(requestToJson(request)), 'response')).toMatchObject({ ok: false, code: 'WRONG_DOCUMENT' });
    expect(readDocumentText('hello', 'response')).toMatchObject({ ok: false, code: 'NOT_A_DOCUMENT' });
    expect(readDocumentText('{"format": ', 'response')).toMatchObject({ ok: false, code: 'NOT_A_DOCUMENT' });
    expect(readDocumentText('{"format":"something else"}', 'response')).toMatchObject({ ok: false, code: 'OFFLINE_UNKNOWN_FORMAT' });
    const carried = unwrap(await carry({ kind: 'request', request }));
    const missing = readDocumentText(carried.qrPayloads.slice(1).join('\n'), 'request');
    expect(missing).toMatchObject({ ok: false, code: 'OFFLINE_QR_INCOMPLETE' });
    expect(!missing.ok && missing.message).toMatch(/missing: 1 of/);
  });

  it('reads a response from its QR payloads', async () => {
    const carried = unwrap(await carry({ kind: 'response', response }));
    expect(unwrap(readDocumentText(carried.qrPayloads.join('\n'), 'response')).response).toEqual(response);
  });
});
