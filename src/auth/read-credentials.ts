/**
 * Reads the caller's API key(s) from the request headers.
 *
 * Chat completions use `Authorization: Bearer <key>`; the messages
 * interface accepts `x-api-key` or Bearer. The vendor client sends both when
 * a user set an API key and an auth token, so both are returned (x-api-key
 * first) and either may verify: one header never shadows the other.
 */
import type { IncomingHeaders } from '../types.js';

/** Which headers may carry a key for an endpoint. */
export type CredentialSource = 'bearer' | 'bearer-or-api-key';

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), trimmed. */
export function readBearerToken(headers: IncomingHeaders): string | undefined {
  const value = firstHeader(headers.authorization)?.trim();
  if (!value) return undefined;
  const space = value.indexOf(' ');
  if (space === -1 || value.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = value.slice(space + 1).trim();
  return token === '' ? undefined : token;
}

/** Candidate keys in the order they are tried; empty when none was sent. */
export function readCredentials(headers: IncomingHeaders, source: CredentialSource): string[] {
  const keys: string[] = [];
  if (source === 'bearer-or-api-key') {
    const apiKey = firstHeader(headers['x-api-key'])?.trim();
    if (apiKey) keys.push(apiKey);
  }
  const bearer = readBearerToken(headers);
  if (bearer !== undefined && !keys.includes(bearer)) keys.push(bearer);
  return keys;
}
