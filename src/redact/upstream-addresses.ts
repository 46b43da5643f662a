/**
 * Where an upstream lives, as the text an error body may quote it in: its
 * base URL, `host:port` and host. Internal host names and ports say how the
 * operator's network is laid out, so they are redacted like keys before an
 * upstream error reaches a caller.
 *
 * @internal
 */

/** Shorter host names are left alone: a two-letter name would be a common word. */
const MIN_ADDRESS_LENGTH = 3;

/**
 * The addresses of a base URL (`https://llm.internal:8443/v1`): the URL
 * without credentials, query or trailing slash, its origin, `host:port`
 * (with the scheme's default port too) and the host alone (an IPv6 host
 * with and without brackets). Empty for an invalid URL.
 */
export function upstreamAddresses(baseURL: string): string[] {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return [];
  }
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = new Set([`${url.origin}${url.pathname}`.replace(/\/+$/, ''), url.origin, url.host, url.hostname, bare]);
  if (port !== '') addresses.add(`${url.hostname}:${port}`);
  return [...addresses].filter((address) => address.length >= MIN_ADDRESS_LENGTH);
}

/** The addresses of a `server` (`{ address, port }`), for an upstream that declares no `addresses()`. */
export function serverAddresses(server: { readonly address: string; readonly port: number }): string[] {
  const host = server.address.includes(':') ? `[${server.address}]` : server.address;
  return [`${host}:${server.port}`, host, server.address].filter((address) => address.length >= MIN_ADDRESS_LENGTH);
}

/** The forms an upstream may quote an address in: as is, JSON-escaped (`\/`), URL-encoded. */
function variantsOf(address: string): string[] {
  return [...new Set([address, address.replace(/\//g, '\\/'), encodeURIComponent(address)])];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * One pattern for every address, longest first, matched case-insensitively
 * (host names are) and only whole: not inside a longer host name
 * (`api.internal` is not found in `myapi.internal` or `api.internal.example`).
 */
export function addressPattern(addresses: Iterable<string>): RegExp | undefined {
  const variants = new Set<string>();
  for (const address of addresses) for (const variant of variantsOf(address)) variants.add(variant);
  if (variants.size === 0) return undefined;
  const alternatives = [...variants].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\w.-])(?:${alternatives.join('|')})(?![\\w-]|\\.[\\w])`, 'gi');
}
