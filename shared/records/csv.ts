// CSV as RFC 4180 writes it (every field quoted, quotes doubled, CRLF between records), with the
// one guard a spreadsheet needs: a field that is not a plain number and begins with = + - @ (or a
// tab or carriage return) would be run as a formula, so it is prefixed with an apostrophe. The
// exchange's text (symbols, ids) goes through here, and no text it sends is run on the trader's
// machine. Numbers the terminal writes itself (raw integers, decimal display figures) pass as they are.

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted and neutralised. */
export function csvField(value: string | number | bigint | boolean | null): string {
  let text = value === null ? '' : typeof value === 'string' ? value : String(value);
  if (!PLAIN_NUMBER.test(text) && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvRecord(fields: readonly (string | number | bigint | boolean | null)[]): string {
  return fields.map(csvField).join(',');
}

/** A header and its rows, each record ended by CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly (string | number | bigint | boolean | null)[])[]): string {
  return [csvRecord(header), ...rows.map(csvRecord)].map((line) => `${line}\r\n`).join('');
}

/** Parse what csvDocument wrote (tests, and reading an export back): records of unquoted fields. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index++;
    } else field += char;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
