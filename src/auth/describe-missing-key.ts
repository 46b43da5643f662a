/**
 * The 401 message for a request from which no key could be read: what the
 * caller sent instead (header names and the Authorization scheme, never a
 * value) and how the endpoint takes a key (chat completions only
 * `Authorization: Bearer <key>`; the messages interface also `x-api-key`).
 *
 * @internal
 */
import type { IncomingHeaders } from '../types.js';
import type { CredentialSource } from './read-credentials.js';

/**
 * Authorization schemes named back by their usual spelling. Any other first
 * word is not repeated: it may be (part of) a key sent without a scheme.
 */
const KNOWN_SCHEMES: ReadonlyMap<string, string> = new Map(
  ['Basic', 'Token', 'Digest', 'ApiKey', 'Api-Key', 'Key', 'JWT', 'Negotiate', 'NTLM', 'HMAC', 'DPoP', 'AWS4-HMAC-SHA256', 'Hawk', 'OAuth'].map(
    (scheme) => [scheme.toLowerCase(), scheme],
  ),
);

/** Header names other APIs and clients carry keys in (`api-key`, `x-goog-api-key`, `openai-api-key`, ...). */
const API_KEY_HEADER = /^(?:[a-z0-9]+[-_])*api[-_]?key$/;

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** What the Authorization header holds when it yields no Bearer token; undefined when absent (or a usable Bearer). */
function describeAuthorization(value: string | undefined): { text: string; empty: boolean } | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return { text: 'the Authorization header is empty', empty: true };
  const space = trimmed.search(/\s/);
  const first = (space === -1 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  if (first === 'bearer') {
    return space === -1 ? { text: 'the Authorization header says Bearer but carries no key after it', empty: true } : undefined;
  }
  if (space === -1) return { text: 'the Authorization header has no scheme: it holds a bare value where "Bearer <key>" belongs', empty: false };
  const scheme = KNOWN_SCHEMES.get(first);
  return { text: scheme ? `the Authorization header uses the ${scheme} scheme, not Bearer` : 'the Authorization header uses a scheme other than Bearer', empty: false };
}

/** Explains, for `source`, what the headers sent instead of a key this endpoint reads. */
export function describeMissingKey(headers: IncomingHeaders, source: CredentialSource): string {
  const found: string[] = [];
  let onlyEmpty = true;
  const authorization = describeAuthorization(firstValue(headers.authorization));
  if (authorization) {
    found.push(authorization.text);
    onlyEmpty &&= authorization.empty;
  }
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    if (lower.length > 64 || !API_KEY_HEADER.test(lower) || headers[name] === undefined) continue;
    if (lower === 'x-api-key' && source === 'bearer-or-api-key') {
      // Read by this endpoint: only an empty value gets here.
      found.push('the x-api-key header is empty');
      continue;
    }
    found.push(
      lower === 'x-api-key'
        ? 'the key came in the x-api-key header, which chat completions do not read (it is the messages interface\'s header)'
        : `the key came in the ${lower} header, which this gateway does not read`,
    );
    onlyEmpty = false;
  }
  const expected = source === 'bearer'
    ? 'send it as "Authorization: Bearer <key>" (the only header chat completions read)'
    : 'send it as "x-api-key: <key>" or "Authorization: Bearer <key>"';
  if (found.length === 0) return `Missing API key: ${expected}.`;
  const what = found.join('; ');
  return onlyEmpty ? `Missing API key: ${what}; ${expected}.` : `No API key read: ${what}. ${capitalize(expected)}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
