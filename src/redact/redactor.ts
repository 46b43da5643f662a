/**
 * Hides secrets (upstream keys, credential header values, a passthrough
 * key) in foreign text on its way out of the gateway: what an upstream wrote
 * (its error message, type, code, param, headers, error events) and the
 * messages of errors thrown by other code (causes). Never in the gateway's
 * own messages, codes or upstream names: a key that happens to spell a word
 * there would rewrite it. Only error paths call it, and the matcher is built
 * on first use, so a gateway that never fails never pays for it.
 *
 * Matching is on the secret and, for a random-looking secret (see
 * {@link allowsFragmentMatching}), on its pieces: every run of
 * {@link FRAGMENT_LENGTH} characters counts, so a key quoted whole, inside a
 * longer token (`Bearer sk-…`, `key=sk-…&`), cut short
 * (`sk-ant-api03-AbCd…`) or split at a line end is still found. The forms a
 * secret takes when an upstream escapes it are matched too: JSON-escaped
 * (also with `\/`), URL-encoded (upper- or lower-case hex).
 *
 * Upstream addresses (base URLs, `host:port`, host names) are hidden too,
 * but only whole (see `upstream-addresses.ts`): a piece of a host name is
 * no secret, and `https://` is in every URL.
 */
import { addressPattern } from './upstream-addresses.js';

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Characters of a secret that identify it: shorter runs are not redacted (they are too common). */
export const FRAGMENT_LENGTH = 8;

/** Secrets shorter than this are ignored (redacting a three-letter "key" would mangle every message). */
export const MIN_SECRET_LENGTH = 4;

/** Shortest secret whose pieces are matched (shorter ones are matched whole only). */
export const MIN_FRAGMENT_SECRET_LENGTH = 20;

/** How many of the classes lower-case letter, upper-case letter, digit `text` uses. */
function characterClasses(text: string): number {
  return Number(/[a-z]/.test(text)) + Number(/[A-Z]/.test(text)) + Number(/[0-9]/.test(text));
}

/**
 * Whether pieces of `secret` may be matched, not only the whole of it: it is
 * at least {@link MIN_FRAGMENT_SECRET_LENGTH} characters long and mixes at
 * least two of lower-case letters, upper-case letters and digits.
 *
 * Why: a piece of 8 characters is only proof of a leak when it cannot occur
 * by chance. Generated keys (base62, base64, hex) are long and mix classes,
 * so a piece of one is never an ordinary word; a made-up key such as
 * `sk-no-key-required` or `sk-upstream-east` is built of words (`required`,
 * `upstream`) that any text may contain, and is matched whole only.
 */
export function allowsFragmentMatching(secret: string): boolean {
  return secret.length >= MIN_FRAGMENT_SECRET_LENGTH && characterClasses(secret) >= 2;
}

/**
 * Whether one piece of a random-looking secret is used: not when it has a
 * single class of letters or digits (`sk-proj-`, `deadbeef`), which ordinary
 * text can hold. The pieces around it still cover the secret.
 */
function isDistinctivePiece(piece: string): boolean {
  return characterClasses(piece) >= 2;
}

/** Redacts a fixed set of secrets. */
export interface Redactor {
  /**
   * Foreign `text` (an upstream's, another library's) with every secret, every
   * distinctive piece of a random-looking one, and every upstream address
   * replaced by `[redacted]`.
   */
  redact(text: string): string;
  /**
   * The gateway's own `text`, for a client: the quoted names of upstreams
   * that are addresses (an upstream without `name` is called by its
   * `host:port`) read `"(unnamed upstream)"`. Nothing else changes; `onError`
   * gets the real names.
   */
  forClient(text: string): string;
  /** A redactor for these secrets plus `extra` (a passthrough key); this one when `extra` adds nothing. */
  with(extra: string | undefined): Redactor;
  /** True when there is nothing to redact (no secret long enough). */
  readonly empty: boolean;
}

/** The forms an upstream may echo a secret in. */
function variantsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const url = encodeURIComponent(secret);
  const variants = new Set([secret, json, json.replace(/\//g, '\\/'), url, url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())]);
  return [...variants];
}

interface Matcher {
  /** Every `FRAGMENT_LENGTH`-long piece of the long secrets' variants. */
  fragments: Set<string>;
  /** Variants of the secrets that are too short or too plain for pieces, matched whole. */
  whole: string[];
  /** Characters that can start a fragment (a cheap pre-filter of positions). */
  starts: Set<string>;
}

function compile(secrets: readonly string[]): Matcher {
  const fragments = new Set<string>();
  const whole: string[] = [];
  const starts = new Set<string>();
  for (const secret of secrets) {
    const byPieces = allowsFragmentMatching(secret);
    for (const variant of variantsOf(secret)) {
      // Whole too: a random secret's pieces may all be skipped where it is plain (`sk-proj-`).
      whole.push(variant);
      if (!byPieces) continue;
      for (let i = 0; i + FRAGMENT_LENGTH <= variant.length; i++) {
        const piece = variant.slice(i, i + FRAGMENT_LENGTH);
        if (!isDistinctivePiece(piece)) continue;
        fragments.add(piece);
        starts.add(piece[0]!);
      }
    }
  }
  // Longest first, so a secret's longer form wins over a shorter one it contains.
  whole.sort((a, b) => b.length - a.length);
  return { fragments, whole, starts };
}

/** Marks `[start, end)` ranges of `text` covered by secrets, merged and sorted. */
function coveredRanges(text: string, matcher: Matcher): Array<[number, number]> {
  const covered = new Uint8Array(text.length);
  let any = false;
  const mark = (from: number, to: number): void => {
    covered.fill(1, from, to);
    any = true;
  };
  if (matcher.fragments.size > 0) {
    for (let i = 0; i + FRAGMENT_LENGTH <= text.length; i++) {
      if (matcher.starts.has(text[i]!) && matcher.fragments.has(text.slice(i, i + FRAGMENT_LENGTH))) mark(i, i + FRAGMENT_LENGTH);
    }
  }
  for (const variant of matcher.whole) {
    for (let at = text.indexOf(variant); at !== -1; at = text.indexOf(variant, at + 1)) mark(at, at + variant.length);
  }
  if (!any) return [];
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) continue;
    const start = i;
    while (i < text.length && covered[i]) i++;
    ranges.push([start, i]);
  }
  return ranges;
}

/** The addresses to hide, compiled on first use and shared by every redactor `with()` derives. */
class Addresses {
  private pattern: RegExp | null | undefined;

  constructor(readonly list: readonly string[]) {}

  redact(text: string): string {
    if (this.pattern === undefined) this.pattern = addressPattern(this.list) ?? null;
    return this.pattern === null ? text : text.replace(this.pattern, REDACTED);
  }
}

const NO_ADDRESSES = new Addresses([]);

/** What a client reads for the name of an upstream that is its address. */
export const UNNAMED_UPSTREAM = '(unnamed upstream)';

/** Upstream names that are addresses, replaced where the gateway quotes them (`Upstream "10.0.0.5:8000"`). */
class AddressNames {
  constructor(readonly list: readonly string[]) {}

  hide(text: string): string {
    let out = text;
    for (const name of this.list) out = out.split(`"${name}"`).join(`"${UNNAMED_UPSTREAM}"`);
    return out;
  }
}

const NO_NAMES = new AddressNames([]);

class SecretRedactor implements Redactor {
  private matcher: Matcher | undefined;
  readonly empty: boolean;

  /** `extra` is kept apart so that `with()` (once per passthrough request) copies nothing. */
  constructor(
    private readonly secrets: readonly string[],
    private readonly addresses: Addresses,
    private readonly names: AddressNames,
    private readonly extra?: string,
  ) {
    this.empty = secrets.length === 0 && extra === undefined && addresses.list.length === 0;
  }

  redact(text: string): string {
    if (this.empty || text.length === 0) return text;
    return this.addresses.redact(this.redactSecrets(text));
  }

  forClient(text: string): string {
    return this.names.list.length === 0 ? text : this.names.hide(text);
  }

  private redactSecrets(text: string): string {
    if (this.secrets.length === 0 && this.extra === undefined) return text;
    this.matcher ??= compile(this.extra === undefined ? this.secrets : [...this.secrets, this.extra]);
    const ranges = coveredRanges(text, this.matcher);
    if (ranges.length === 0) return text;
    let out = '';
    let last = 0;
    for (const [start, end] of ranges) {
      out += text.slice(last, start) + REDACTED;
      last = end;
    }
    return out + text.slice(last);
  }

  with(extra: string | undefined): Redactor {
    if (extra === undefined || extra.length < MIN_SECRET_LENGTH || extra === this.extra) return this;
    if (this.extra === undefined) return new SecretRedactor(this.secrets, this.addresses, this.names, extra);
    return new SecretRedactor([...this.secrets, this.extra], this.addresses, this.names, extra);
  }
}

/**
 * A redactor for `secrets` (`undefined`, empty and too-short entries are
 * skipped) and upstream `addresses` (matched whole, case-insensitively);
 * `addressNames` are the upstream names that are addresses, hidden by
 * `forClient`. Building it is cheap: the matchers are compiled on the first
 * `redact` call.
 *
 * @example
 * const redactor = createRedactor([process.env.OPENAI_API_KEY], ['llm.internal:8443', 'llm.internal']);
 * redactor.redact('Invalid key sk-abc… at llm.internal:8443'); // 'Invalid key [redacted] at [redacted]'
 */
export function createRedactor(secrets: Iterable<string | undefined>, addresses: Iterable<string> = [], addressNames: Iterable<string> = []): Redactor {
  const kept = new Set<string>();
  for (const secret of secrets) if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) kept.add(secret);
  const places = [...new Set(addresses)];
  const names = [...new Set(addressNames)];
  return new SecretRedactor([...kept], places.length === 0 ? NO_ADDRESSES : new Addresses(places), names.length === 0 ? NO_NAMES : new AddressNames(names));
}

/** The redactor with nothing to hide. */
export const NO_SECRETS: Redactor = createRedactor([]);
