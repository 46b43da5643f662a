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
import { isRateLimitHeader } from '../upstreams/response-headers.js';
import type { CheckState } from './limit-store.js';
import type { Meter } from './plan-limits.js';

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

// Resets fall on few distinct seconds: the last one's text is kept (a Date and its ISO text cost ~0.5 µs).
let lastResetAt = Number.NaN;
let lastResetText = '';

/** An RFC 3339 UTC time, whole seconds rounded up (`2026-01-15T14:24:00Z`). */
export function formatResetTime(nowMs: number, resetMs: number): string {
  const at = Math.ceil((nowMs + Math.max(0, resetMs)) / 1000) * 1000;
  if (at !== lastResetAt) {
    lastResetAt = at;
    lastResetText = new Date(at).toISOString().replace('.000Z', 'Z');
  }
  return lastResetText;
}

/** The index of the more restrictive of two shown checks: less remaining, then the later reset (-1: none yet). */
function tighter(states: readonly CheckState[], shown: number, candidate: number): number {
  if (shown < 0) return candidate;
  const a = states[shown]!;
  const b = states[candidate]!;
  return a.remaining < b.remaining || (a.remaining === b.remaining && a.resetMs >= b.resetMs) ? shown : candidate;
}

// Header names built once: [limit, remaining, reset] per measure and format.
const NAMES = {
  chat: {
    requests: ['x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests', 'x-ratelimit-reset-requests'],
    tokens: ['x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens', 'x-ratelimit-reset-tokens'],
  },
  messages: {
    requests: ['anthropic-ratelimit-requests-limit', 'anthropic-ratelimit-requests-remaining', 'anthropic-ratelimit-requests-reset'],
    tokens: ['anthropic-ratelimit-tokens-limit', 'anthropic-ratelimit-tokens-remaining', 'anthropic-ratelimit-tokens-reset'],
    input: ['anthropic-ratelimit-input-tokens-limit', 'anthropic-ratelimit-input-tokens-remaining', 'anthropic-ratelimit-input-tokens-reset'],
    output: ['anthropic-ratelimit-output-tokens-limit', 'anthropic-ratelimit-output-tokens-remaining', 'anthropic-ratelimit-output-tokens-reset'],
  },
} as const;

// The limit shown is nearly always the same few numbers: the last one's text is kept.
let lastLimit = Number.NaN;
let lastLimitText = '';

function limitText(limit: number): string {
  if (limit !== lastLimit) {
    lastLimit = limit;
    lastLimitText = String(limit);
  }
  return lastLimitText;
}

function put(
  headers: Record<string, string>,
  format: WireFormat,
  names: readonly [string, string, string],
  meters: readonly Meter[],
  states: readonly CheckState[],
  shown: number,
  nowMs: number,
): void {
  if (shown < 0) return;
  const state = states[shown]!;
  headers[names[0]] = limitText(meters[shown]!.limit);
  headers[names[1]] = String(state.remaining);
  headers[names[2]] = format === 'chat' ? formatDuration(state.resetMs) : formatResetTime(nowMs, state.resetMs);
}

/** The headers for `format` after a reserve at store time `nowMs`. */
export function limitHeaders(format: WireFormat, meters: readonly Meter[], states: readonly CheckState[], nowMs: number): Record<string, string> {
  let requests = -1;
  let tokens = -1;
  let input = -1;
  let output = -1;
  for (let i = 0; i < meters.length; i++) {
    const meter = meters[i]!;
    if (!states[i]) continue;
    if (meter.kind === 'requests') requests = tighter(states, requests, i);
    else if (meter.kind === 'tokens') {
      tokens = tighter(states, tokens, i);
      if (meter.count === 'input') input = tighter(states, input, i);
      else if (meter.count === 'output') output = tighter(states, output, i);
    }
  }
  const headers: Record<string, string> = {};
  const names = NAMES[format];
  put(headers, format, names.requests, meters, states, requests, nowMs);
  put(headers, format, names.tokens, meters, states, tokens, nowMs);
  if (format === 'messages') {
    put(headers, format, NAMES.messages.input, meters, states, input, nowMs);
    put(headers, format, NAMES.messages.output, meters, states, output, nowMs);
  }
  return headers;
}

/**
 * Sets the gateway's limit headers on a response, after removing any
 * upstream rate-limit headers of both conventions: the names are the same,
 * and the gateway's limits are the ones this caller is held to. (Upstream
 * ones are relayed at all only on `keyPassthrough` routes.)
 */
export function applyLimitHeaders(headers: Record<string, string>, own: Readonly<Record<string, string>>): void {
  for (const name in headers) {
    if (isRateLimitHeader(name)) delete headers[name];
  }
  for (const name in own) headers[name] = own[name]!;
}
