/**
 * Request-loop protection with the standard `Via` header.
 *
 * Every gateway instance draws a random token at creation and marks each
 * request it sends upstream with `Via: 1.1 modelgate-<token>`. A request
 * that arrives with that token in its `Via` went out of this gateway and
 * came back: the gateway is (directly, or through a proxy or another
 * gateway) its own upstream, and answering it would send it round again.
 * It is refused with 508 before anything else runs. A chain of other
 * modelgate gateways is fine, up to {@link MAX_MODELGATE_HOPS} of them: a
 * loop through instances behind a load balancer, where a request may meet
 * a different instance each time round, ends there.
 *
 * Only the modelgate entries of the incoming `Via` travel on: other
 * proxies' entries may name hosts inside the caller's network, and an
 * upstream vendor has no use for them.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-7.6.3 (Via)
 * @see https://www.rfc-editor.org/rfc/rfc5842#section-7.2 (508 Loop Detected)
 * @internal
 */
import { randomBytes } from 'node:crypto';
import { GatewayError } from '../errors.js';
import type { IncomingHeaders } from '../types.js';

/** Most modelgate gateways a request may already have passed through; the next one answers 508. */
export const MAX_MODELGATE_HOPS = 8;

/** The pseudonym prefix of a modelgate `Via` entry (RFC 9110 lets a `received-by` be a pseudonym). */
const PSEUDONYM = 'modelgate-';

/** One modelgate entry: `<received-protocol> modelgate-<token>`, maybe followed by a comment. */
const ENTRY = /^([!#$%&'*+\-.^\w`|~/]+)[ \t]+modelgate-([0-9a-z]{1,64})(?:[ \t]|$)/i;

/** What `inspect` finds: the `Via` to send upstream, or the 508 to answer. */
export type HopCheck = { via: string; refusal?: undefined } | { via?: undefined; refusal: GatewayError };

export interface ViaHops {
  /** This gateway's own entry, `1.1 modelgate-<token>`. */
  readonly entry: string;
  /** Reads a request's `Via`: the value its upstream calls carry, or the 508 when it loops. */
  inspect(headers: IncomingHeaders): HopCheck;
}

/** Splits a `Via` value into its members, at commas outside comments (`(...)` may hold commas). */
function splitMembers(value: string): string[] {
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i += 1) {
    const char = value[i];
    if (char === '\\' && depth > 0) i += 1;
    else if (char === '(') depth += 1;
    else if (char === ')' && depth > 0) depth -= 1;
    else if (char === ',' && depth === 0) {
      members.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  members.push(value.slice(start).trim());
  return members;
}

/** The refusal of a request that came back to the gateway it passed through. */
function ownLoop(): GatewayError {
  return new GatewayError(
    'LOOP_DETECTED',
    'Request loop: this gateway is its own upstream (the request came back carrying its own Via entry). ' +
      "Check the upstream base URL of the gateway's routes (the baseURL of openAICompatible / messagesUpstream): it leads back to this gateway, " +
      "directly or through a proxy or another gateway. OPENAI_BASE_URL / ANTHROPIC_BASE_URL pointing at the gateway belong where the client runs, not in the gateway's environment.",
  );
}

/** The refusal of a request that passed through too many gateways. */
function tooManyHops(count: number): GatewayError {
  return new GatewayError(
    'LOOP_DETECTED',
    `Request loop: this request already passed through ${count} modelgate gateways (at most ${MAX_MODELGATE_HOPS} are allowed). ` +
      'Check the upstream base URLs of the gateways in the chain: one of them points back into it (for example through a load balancer).',
  );
}

/** Creates the hop marker of one gateway instance, with a fresh random token. */
export function createViaHops(): ViaHops {
  const token = randomBytes(8).toString('hex');
  const entry = `1.1 ${PSEUDONYM}${token}`;
  const passes: HopCheck = { via: entry };
  return {
    entry,
    inspect(headers) {
      const raw = headers.via;
      if (raw === undefined) return passes;
      const value = typeof raw === 'string' ? raw : raw.join(', ');
      // Most requests that carry a Via come through ordinary proxies: nothing of theirs travels on.
      if (!value.toLowerCase().includes(PSEUDONYM)) return passes;
      const kept: string[] = [];
      for (const member of splitMembers(value)) {
        const match = ENTRY.exec(member);
        if (!match) continue;
        if (match[2]!.toLowerCase() === token) return { refusal: ownLoop() };
        kept.push(`${match[1]} ${PSEUDONYM}${match[2]!.toLowerCase()}`);
      }
      if (kept.length >= MAX_MODELGATE_HOPS) return { refusal: tooManyHops(kept.length) };
      kept.push(entry);
      return { via: kept.join(', ') };
    },
  };
}
