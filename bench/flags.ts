// Numeric flags of the long-running bench scripts (`--minutes 60`): a positive number, or the
// script stops with exit code 2 naming the flag and what it got.

export function positiveFlag(script: string, name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    process.stderr.write(`${script}: --${name} expects a positive number, got ${String(process.argv[index + 1])}\n`);
    process.exit(2);
  }
  return value;
}
