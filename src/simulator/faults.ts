/**
 * Fault injection: rules from the options and the `x-simulator-fault`
 * request header.
 *
 * Header syntax: `key=value` pairs separated by `;` or `,`, values
 * URL-decoded. Keys: `status` (HTTP status, 400–599), `latency`
 * (milliseconds), `cut-after` (SSE events), `type` and `message` (error
 * body). Example: `x-simulator-fault: status=529; latency=200` or
 * `x-simulator-fault: cut-after=5`. Unknown keys are ignored. The header's
 * fields override those of a matching rule.
 */
import type { Fault, FaultRequestInfo, FaultRule } from './simulator-options.js';

/** The request header that selects a fault per request. */
export const FAULT_HEADER = 'x-simulator-fault';

/**
 * The caller headers the in-process simulator reads (its fault controls): the
 * gateway hands them to it, and to no network upstream.
 */
export const CALLER_HEADER_PREFIXES: readonly string[] = Object.freeze(['x-simulator-']);

function toCount(value: string): number | undefined {
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 ? Math.floor(number) : undefined;
}

/** Parses an `x-simulator-fault` header value (syntax in the module comment). */
export function parseFaultHeader(value: string): Fault {
  const fault: Fault = {};
  let type: string | undefined;
  let message: string | undefined;
  for (const pair of value.split(/[;,]/)) {
    const at = pair.indexOf('=');
    if (at === -1) continue;
    const key = pair.slice(0, at).trim().toLowerCase();
    let raw = pair.slice(at + 1).trim();
    try {
      raw = decodeURIComponent(raw);
    } catch {
      // Keep the raw text when it is not valid percent-encoding.
    }
    if (key === 'status') {
      const status = toCount(raw);
      if (status !== undefined && status >= 400 && status <= 599) fault.status = status;
    } else if (key === 'latency') fault.latencyMs = toCount(raw);
    else if (key === 'cut-after') fault.cutAfterEvents = toCount(raw);
    else if (key === 'type') type = raw;
    else if (key === 'message') message = raw;
  }
  if (type !== undefined || message !== undefined) fault.error = { type: type ?? '', message: message ?? '' };
  return fault;
}

/** Picks the fault for each request; remembers how often each rule applied. */
export interface FaultPicker {
  pick(info: FaultRequestInfo): Fault | undefined;
  reset(): void;
}

function withoutUndefined(fault: Fault): Fault {
  return Object.fromEntries(Object.entries(fault).filter(([, value]) => value !== undefined)) as Fault;
}

/** A picker over `rules` (first match wins) and the header. */
export function createFaultPicker(rules: readonly FaultRule[]): FaultPicker {
  let used = rules.map(() => 0);
  return {
    reset: () => {
      used = rules.map(() => 0);
    },
    pick(info) {
      let fromRule: Fault | undefined;
      for (const [index, rule] of rules.entries()) {
        const count = used[index] ?? 0;
        if (rule.times !== undefined && count >= rule.times) continue;
        if (rule.match && !rule.match(info)) continue;
        used[index] = count + 1;
        const { match: _match, times: _times, ...fault } = rule;
        fromRule = fault;
        break;
      }
      const header = info.headers[FAULT_HEADER];
      const fromHeader = header ? withoutUndefined(parseFaultHeader(header)) : undefined;
      if (!fromRule && !fromHeader) return undefined;
      return { ...fromRule, ...fromHeader };
    },
  };
}
