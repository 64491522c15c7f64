// The text of a trusted confirmation, built once for both surfaces: the host's terminal prints it
// and the native dialog shows it (title as the message, lines as the detail). The destination
// comes first after the title, in full, grouped in fours, on a line of its own, so no label, symbol
// or name can stand where the trader reads where funds go; its label follows, quoted.
import { quotedText, visibleText } from '../../../shared/text/visible-text';
import type { ConfirmationRequest } from './trusted-confirmer';
import { LABEL_MAX } from './trusted-text';

export interface ConfirmationText {
  /** One line saying what will happen. */
  readonly title: string;
  /** The decoded request, one fact a line; none holds a control, bidi or invisible character. */
  readonly lines: readonly string[];
}

/** A 32-byte id as "0x 1234 abcd …": every digit shown, four at a time, so a changed one stands out. */
export function groupedId(value: string): string {
  if (!/^0x(?:[0-9a-fA-F]{4})+$/.test(value)) return visibleText(value, 80);
  return `0x ${value.slice(2).match(/.{4}/g)!.join(' ')}`;
}

export function confirmationText(request: ConfirmationRequest): ConfirmationText {
  const destination = request.destination;
  const lines: string[] = [];
  if (destination) {
    lines.push(`${destination.heading.text}:`, `    ${groupedId(destination.value)}`);
    if (destination.label !== '') lines.push(`Label: ${quotedText(destination.label, LABEL_MAX)} (only a name: the address above is what counts)`);
  }
  for (const line of request.lines) lines.push(line.text);
  return { title: request.title.text, lines };
}
