/**
 * Hides secrets (upstream keys, credential header values, a passthrough
 * key) in text that leaves the gateway: error messages, error events, the
 * payloads of hooks. Only error paths call it, and the matcher is built on
 * first use, so a gateway that never fails never pays for it.
 *
 * Matching is on the secret and on its pieces: every run of
 * {@link FRAGMENT_LENGTH} characters of a secret counts, so a key quoted
 * whole, inside a longer token (`Bearer sk-…`, `key=sk-…&`), cut short
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

/** Redacts a fixed set of secrets. */
export interface Redactor {
  /** `text` with every secret, and every piece of one at least `FRAGMENT_LENGTH` long, replaced by `[redacted]`. */
  redact(text: string): string;
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
  /** Variants of secrets shorter than `FRAGMENT_LENGTH`, matched whole. */
  whole: string[];
  /** Characters that can start a fragment (a cheap pre-filter of positions). */
  starts: Set<string>;
}

function compile(secrets: readonly string[]): Matcher {
  const fragments = new Set<string>();
  const whole: string[] = [];
  const starts = new Set<string>();
  for (const secret of secrets) {
    for (const variant of variantsOf(secret)) {
      if (variant.length < FRAGMENT_LENGTH) {
        whole.push(variant);
        continue;
      }
      for (let i = 0; i + FRAGMENT_LENGTH <= variant.length; i++) {
        fragments.add(variant.slice(i, i + FRAGMENT_LENGTH));
        starts.add(variant[i]!);
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

class SecretRedactor implements Redactor {
  private matcher: Matcher | undefined;
  readonly empty: boolean;

  /** `extra` is kept apart so that `with()` (once per passthrough request) copies nothing. */
  constructor(
    private readonly secrets: readonly string[],
    private readonly addresses: Addresses,
    private readonly extra?: string,
  ) {
    this.empty = secrets.length === 0 && extra === undefined && addresses.list.length === 0;
  }

  redact(text: string): string {
    if (this.empty || text.length === 0) return text;
    return this.addresses.redact(this.redactSecrets(text));
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
    if (this.extra === undefined) return new SecretRedactor(this.secrets, this.addresses, extra);
    return new SecretRedactor([...this.secrets, this.extra], this.addresses, extra);
  }
}

/**
 * A redactor for `secrets` (`undefined`, empty and too-short entries are
 * skipped) and upstream `addresses` (matched whole, case-insensitively).
 * Building it is cheap: the matchers are compiled on the first `redact` call.
 *
 * @example
 * const redactor = createRedactor([process.env.OPENAI_API_KEY], ['llm.internal:8443', 'llm.internal']);
 * redactor.redact('Invalid key sk-abc… at llm.internal:8443'); // 'Invalid key [redacted] at [redacted]'
 */
export function createRedactor(secrets: Iterable<string | undefined>, addresses: Iterable<string> = []): Redactor {
  const kept = new Set<string>();
  for (const secret of secrets) if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) kept.add(secret);
  const places = [...new Set(addresses)];
  return new SecretRedactor([...kept], places.length === 0 ? NO_ADDRESSES : new Addresses(places));
}

/** The redactor with nothing to hide. */
export const NO_SECRETS: Redactor = createRedactor([]);
