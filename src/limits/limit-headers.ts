/**
 * The rate-limit headers of the caller's interface, from the gateway's own
 * counters:
 * - chat: `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, the reset
 *   as a duration until the limit is back to its initial state (`1s`, `6m0s`, `20ms`);
 * - messages: `anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}`,
 *   the reset as an RFC 3339 time; input-only and output-only token limits
 *   also as `anthropic-ratelimit-{input,output}-tokens-*`.
 * When several rules apply, the one with the least remaining is shown (the
 * vendors show the most restrictive limit in effect).
 *
 * @internal
 */
import type { WireFormat } from '../types.js';
import type { CheckState } from './limit-store.js';
import type { Meter } from './plan-limits.js';

interface Shown {
  limit: number;
  remaining: number;
  resetMs: number;
}

/** A duration as Go prints it (the chat vendor's format): `20ms`, `1s`, `1.5s`, `6m0s`, `1h0m0s`. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms));
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  const secondsText = `${Number(seconds.toFixed(3))}s`;
  if (hours > 0) return `${hours}h${minutes}m${secondsText}`;
  if (minutes > 0) return `${minutes}m${secondsText}`;
  return secondsText;
}

/** An RFC 3339 UTC time, whole seconds rounded up (`2026-01-15T14:24:00Z`). */
export function formatResetTime(nowMs: number, resetMs: number): string {
  const at = Math.ceil((nowMs + Math.max(0, resetMs)) / 1000) * 1000;
  return new Date(at).toISOString().replace('.000Z', 'Z');
}

function tightest(meters: readonly Meter[], states: readonly CheckState[], accept: (meter: Meter) => boolean): Shown | undefined {
  let shown: Shown | undefined;
  meters.forEach((meter, index) => {
    const state = states[index];
    if (!state || !accept(meter)) return;
    const candidate = { limit: meter.limit, remaining: state.remaining, resetMs: state.resetMs };
    if (!shown || candidate.remaining < shown.remaining || (candidate.remaining === shown.remaining && candidate.resetMs > shown.resetMs)) shown = candidate;
  });
  return shown;
}

function put(headers: Record<string, string>, format: WireFormat, name: string, shown: Shown | undefined, nowMs: number): void {
  if (!shown) return;
  if (format === 'chat') {
    headers[`x-ratelimit-limit-${name}`] = String(shown.limit);
    headers[`x-ratelimit-remaining-${name}`] = String(shown.remaining);
    headers[`x-ratelimit-reset-${name}`] = formatDuration(shown.resetMs);
  } else {
    headers[`anthropic-ratelimit-${name}-limit`] = String(shown.limit);
    headers[`anthropic-ratelimit-${name}-remaining`] = String(shown.remaining);
    headers[`anthropic-ratelimit-${name}-reset`] = formatResetTime(nowMs, shown.resetMs);
  }
}

/** The headers for `format` after a reserve at store time `nowMs`. */
export function limitHeaders(format: WireFormat, meters: readonly Meter[], states: readonly CheckState[], nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {};
  put(headers, format, 'requests', tightest(meters, states, (meter) => meter.kind === 'requests'), nowMs);
  put(headers, format, 'tokens', tightest(meters, states, (meter) => meter.kind === 'tokens'), nowMs);
  if (format === 'messages') {
    put(headers, format, 'input-tokens', tightest(meters, states, (meter) => meter.kind === 'tokens' && meter.count === 'input'), nowMs);
    put(headers, format, 'output-tokens', tightest(meters, states, (meter) => meter.kind === 'tokens' && meter.count === 'output'), nowMs);
  }
  return headers;
}

/**
 * Sets the gateway's limit headers on a response, after removing the
 * upstream's rate-limit headers of both conventions: they describe the
 * gateway's upstream key, shared by every caller, not this caller's limits.
 */
export function applyLimitHeaders(headers: Record<string, string>, own: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(headers)) {
    if (name.startsWith('x-ratelimit-') || name.startsWith('anthropic-ratelimit-')) delete headers[name];
  }
  Object.assign(headers, own);
}
