/**
 * The secrets in an upstream client's options: its key, the values of
 * credential headers, and credential query parameters of its base URL.
 *
 * @internal
 */

/** Header and query parameter names whose values are credentials (`authorization`, `api-key`, `x-goog-api-key`, `sig`, `code`, ...). */
const CREDENTIAL_NAME = /auth|key|token|secret|passw|sig|cookie|session|credential|^code$/i;

/** An `authorization` value's credential without its scheme (`Bearer x` → `x`). */
function withoutScheme(value: string): string | undefined {
  const match = /^\s*[A-Za-z][\w-]*\s+(\S.*)$/.exec(value);
  return match?.[1]?.trim();
}

/** The part after the colon of decoded Basic credentials (`user:password`), and the pair itself. */
function basicParts(token: string): string[] {
  try {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    // Only a clean decode is Basic credentials; anything else was not base64 of `user:pass`.
    if (colon === -1 || Buffer.from(decoded, 'utf8').toString('base64').replace(/=+$/, '') !== token.replace(/=+$/, '')) return [];
    return [decoded, decoded.slice(colon + 1)];
  } catch {
    return [];
  }
}

/**
 * Collects the secrets of an upstream client's options, for redaction:
 * `apiKey`; every value of a header whose name looks like a credential
 * (and, for `authorization`-style values, the credential after the
 * scheme, and a Basic pair's password); the values of credential-looking
 * query parameters of `baseURL` (`?key=`, `?api_key=`, `?code=`, `?sig=`)
 * and its userinfo, if any.
 */
export function upstreamSecrets(options: { apiKey?: string | undefined; headers?: Record<string, string> | undefined; baseURL: string }): string[] {
  const secrets: string[] = [];
  if (options.apiKey) secrets.push(options.apiKey);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!CREDENTIAL_NAME.test(name) || typeof value !== 'string') continue;
    secrets.push(value);
    const token = withoutScheme(value);
    if (token !== undefined) secrets.push(token, ...basicParts(token));
  }
  try {
    const url = new URL(options.baseURL);
    if (url.username) secrets.push(decodeURIComponent(url.username));
    if (url.password) secrets.push(decodeURIComponent(url.password));
    for (const [name, value] of url.searchParams) if (CREDENTIAL_NAME.test(name) && value) secrets.push(value);
  } catch {
    // An invalid URL is refused by the client itself.
  }
  return secrets;
}
