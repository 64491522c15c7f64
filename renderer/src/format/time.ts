// Time formatting for tables and countdowns. Times are milliseconds or seconds as the views
// declare them; the current time is always passed in (no hidden clock).

function two(value: number): string {
  return value.toString().padStart(2, '0');
}

/** 14:03:27 in local time. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** 2026-11-21 14:03:27 in local time. */
export function formatDateTime(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${formatClock(ms)}`;
}

/** A remaining duration as a trader reads it: "29d 23h", "5h 12m", "4m 09s", "expired". */
export function formatRemaining(remainingMs: number): string {
  if (remainingMs <= 0) return 'expired';
  const seconds = Math.floor(remainingMs / 1000);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${two(minutes)}m`;
  return `${minutes}m ${two(seconds % 60)}s`;
}
