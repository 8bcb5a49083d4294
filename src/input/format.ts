// Small formatters shared by warnings and explanations, so every message writes hours and
// time windows the same way.

/** Hours with at most 2 decimals and no trailing zeros: 4, 2.5, 1.33. */
export function formatHours(hours: number): string {
  return String(Math.round(hours * 100) / 100);
}

function isoMinute(ms: number): { day: string; time: string } {
  const iso = new Date(ms).toISOString();
  return { day: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** "2026-06-06 18:00-22:00 UTC", or "2026-06-06 22:00 - 2026-06-07 06:00 UTC" across days. */
export function formatWindow(start: number, end: number): string {
  const a = isoMinute(start);
  const b = isoMinute(end);
  return a.day === b.day ? `${a.day} ${a.time}-${b.time} UTC` : `${a.day} ${a.time} - ${b.day} ${b.time} UTC`;
}

/** An instant as the contract writes UTC date-times: 2026-06-06T08:00:00Z (milliseconds only when not zero). */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
