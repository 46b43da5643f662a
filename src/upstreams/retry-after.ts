/**
 * Reads an upstream's retry hint, the way the official clients do
 * (PROTOCOLS C.4): `retry-after-ms` (milliseconds) first, then
 * `retry-after` (seconds or an HTTP date).
 */

/** The wait an upstream asked for, in ms, or `undefined` when it gave none (or nonsense). */
export function retryAfterMs(headers: Readonly<Record<string, string>>, now = Date.now()): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers['retry-after']?.trim();
  if (after === undefined || after === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Number.parseFloat(after) * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
