import fc from 'fast-check';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { decodeBase64url, encodeBase64url } from '../../../../shared/offline/base64url';
import { asciiToBytes, canonicalJson } from '../../../../shared/offline/canonical-json';
import { OFFLINE_CODES } from '../../../../shared/offline/codes';
import {
  decodeQrParts,
  encodeDocumentQr,
  encodeQrParts,
  parsePayloadJson,
  QR_ERROR_CORRECTION,
  QR_MAX_PARTS,
  QR_MAX_VERSION,
  QrAssembler,
} from '../../../../shared/offline/qr-framing';
import { requestToJson } from '../../../../shared/offline/request-format';
import { sessionRequest, unwrap, withdrawRequest } from '../../../support/shared/offline/fixtures';
import { b256 } from '../../../../shared/encoding/b256';
import { checkProperty } from '../../../support/property';

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed || 1;
  for (let index = out.length - 1; index > 0; index--) {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    const other = state % (index + 1);
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}

const bigSession = () => sessionRequest(Array.from({ length: 12 }, (_, index) => b256(`0x${index.toString(16).padStart(2, '0').repeat(32)}`)));

describe('base64url', () => {
  it('matches Node for every length, and decodes back', () => {
    checkProperty(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase64url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(unwrap(decodeBase64url(text, 'chunk'))).toEqual(bytes);
      }),
    );
  });

  it('refuses letters outside the alphabet, padding, an impossible length and non-zero unused bits', () => {
    expect(decodeBase64url('ab+c', 'chunk')).toMatchObject({ ok: false, message: 'chunk: "+" at position 2 is not a base64url letter' });
    expect(decodeBase64url('ab==', 'chunk').ok).toBe(false);
    expect(decodeBase64url('abcde', 'chunk').ok).toBe(false);
    expect(decodeBase64url('AB', 'chunk').ok).toBe(false); // "AA" is the canonical form of 0x00
    expect(unwrap(decodeBase64url('AA', 'chunk'))).toEqual(Uint8Array.of(0));
  });
});

describe('QR framing', () => {
  it('a large request becomes several parts, each a version <= 13 QR at level M', () => {
    for (const document of [requestToJson(bigSession().request), requestToJson(withdrawRequest().request)]) {
      const parts = unwrap(encodeDocumentQr(document));
      for (const part of parts) {
        expect(part).toMatch(/^LTQR1\/[1-9][0-9]?\/[1-9][0-9]?\/[0-9a-f]{16}\/[A-Za-z0-9_-]*$/);
        expect(part.length).toBeLessThanOrEqual(309);
        const code = QRCode.create(part, { errorCorrectionLevel: QR_ERROR_CORRECTION });
        expect(code.version).toBeLessThanOrEqual(QR_MAX_VERSION);
      }
    }
    expect(unwrap(encodeDocumentQr(requestToJson(bigSession().request))).length).toBeGreaterThan(5);
    // The worst case for the version: a full part of the densest header.
    const worst = `LTQR1/99/99/${'f'.repeat(16)}/${'_'.repeat(280)}`;
    expect(QRCode.create(worst, { errorCorrectionLevel: QR_ERROR_CORRECTION }).version).toBeLessThanOrEqual(QR_MAX_VERSION);
  });

  it('round trip in any order, with repeats (an animated loop shows parts many times)', () => {
    checkProperty(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 3_000 }), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 5 }), (payload, seed, repeats) => {
        const parts = unwrap(encodeQrParts(payload));
        const delivered = shuffle([...parts, ...parts.slice(0, repeats)], seed);
        const decoded = unwrap(decodeQrParts(delivered));
        expect(decoded.payload).toEqual(payload);
        expect(decoded.duplicates).toBe(Math.min(repeats, parts.length));
      }),
      { numRuns: 60 },
    );
  });

  it('a request survives the trip: reassembled JSON has the same canonical text', () => {
    const document = requestToJson(bigSession().request);
    const parts = unwrap(encodeDocumentQr(document));
    const payload = unwrap(decodeQrParts(shuffle(parts, 7))).payload;
    expect(canonicalJson(unwrap(parsePayloadJson(payload)) as never)).toBe(canonicalJson(document));
  });

  it('reports progress and the missing parts while scanning', () => {
    const parts = unwrap(encodeDocumentQr(requestToJson(bigSession().request)));
    const assembler = new QrAssembler();
    unwrap(assembler.add(parts[2]!));
    unwrap(assembler.add(parts[0]!));
    expect(assembler.progress()).toEqual({ received: 2, total: parts.length, duplicates: 0, complete: false });
    expect(assembler.missing()).toEqual(Array.from({ length: parts.length }, (_, index) => index + 1).filter((number) => number !== 1 && number !== 3));
    expect(assembler.finish()).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_INCOMPLETE, message: expect.stringMatching(/^QR parts missing: 2, 4, /) as unknown });
  });

  it('a missing part', () => {
    const parts = unwrap(encodeQrParts(asciiToBytes('x'.repeat(1_000))));
    expect(decodeQrParts(parts.filter((_, index) => index !== 3))).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_INCOMPLETE, message: 'QR parts missing: 4 of 5' });
    expect(decodeQrParts([])).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_INCOMPLETE });
  });

  it('a duplicate part with other contents', () => {
    const parts = unwrap(encodeQrParts(asciiToBytes('y'.repeat(500))));
    const altered = parts[1]!.replace(/.$/, (letter) => (letter === 'A' ? 'Q' : 'A'));
    expect(decodeQrParts([...parts, altered])).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_CONFLICTING_DUPLICATE, message: expect.stringContaining('QR part 2/3 arrived twice') as unknown });
  });

  it('a corrupted chunk: caught by the payload hash', () => {
    const parts = unwrap(encodeQrParts(asciiToBytes(canonicalJson(requestToJson(withdrawRequest().request)))));
    const index = 1;
    const part = parts[index]!;
    const position = part.length - 10;
    const corrupted = `${part.slice(0, position)}${part[position] === 'a' ? 'b' : 'a'}${part.slice(position + 1)}`;
    const result = decodeQrParts(parts.map((item, at) => (at === index ? corrupted : item)));
    expect(result).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_CORRUPT, message: expect.stringContaining('a part was misread or altered') as unknown });
  });

  it('parts of two different payloads', () => {
    const first = unwrap(encodeQrParts(asciiToBytes('a'.repeat(500))));
    const second = unwrap(encodeQrParts(asciiToBytes('b'.repeat(500))));
    expect(decodeQrParts([first[0]!, second[1]!, first[2]!])).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_MISMATCHED_SET, message: expect.stringContaining('belongs to another set') as unknown });
    const shorter = unwrap(encodeQrParts(asciiToBytes('a'.repeat(300))));
    expect(decodeQrParts([first[0]!, shorter[1]!]).ok).toBe(false);
  });

  it('malformed frames are refused with the part shown', () => {
    for (const bad of ['', 'LTQR2/1/1/0000000000000000/AA', 'LTQR1/0/1/0000000000000000/AA', 'LTQR1/2/1/0000000000000000/AA', 'LTQR1/01/2/0000000000000000/AA', 'LTQR1/1/1/00000000000000/AA', 'LTQR1/1/1/0000000000000000/A+A', 'LTQR1/1/1/0000000000000000/AAAAA']) {
      expect(new QrAssembler().add(bad)).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_MALFORMED_PART });
    }
  });

  it('a payload too large for 99 parts is refused', () => {
    expect(encodeQrParts(new Uint8Array(210 * QR_MAX_PARTS)).ok).toBe(true);
    expect(encodeQrParts(new Uint8Array(210 * QR_MAX_PARTS + 1))).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_TOO_LARGE });
  });

  it('a reassembled payload that is not ASCII JSON', () => {
    expect(parsePayloadJson(Uint8Array.of(0xc3, 0xa9))).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_CORRUPT });
    expect(parsePayloadJson(asciiToBytes('{"a":'))).toMatchObject({ ok: false, code: OFFLINE_CODES.QR_CORRUPT });
  });
});
