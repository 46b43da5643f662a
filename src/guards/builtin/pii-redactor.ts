/**
 * A guard that replaces e-mail addresses and phone numbers with
 * placeholders, in requests before they leave and in answers (whole or
 * streamed) before they reach the caller.
 *
 * The patterns have bounded quantifiers and no nested ones, and a match
 * may only start where a run of the characters it is made of starts: each
 * start position costs a bounded amount of work, so a hostile megabyte
 * costs milliseconds. A match is at most 127 characters long, within the
 * default holdback of 128, so a streamed answer is redacted exactly as a
 * whole one.
 */
import type { Guard, GuardErrorPolicy, Holdback, OutputChannel, SpanReplacement, TextReplacement } from '../guard-types.js';
import { viewParts } from '../view-parts.js';

/**
 * A local part (≤ 64 characters, starting where its run starts), `@`, a
 * domain of up to 48 characters and a top-level domain of 2–12 letters.
 */
export const EMAIL_PATTERN = /(?<![\w.%+-])[\w.%+-]{1,64}@[A-Za-z0-9.-]{1,48}\.[A-Za-z]{2,12}/g;

/**
 * A phone number: `+` and a country code with a 1–4 digit area code, or a
 * 3–4 digit area code (in parentheses or not), then groups of 3–4 and 4
 * digits, separated by nothing, a space, `.` or `-`. Digits may not run on
 * at either end, so longer numbers (card numbers, ids) are not cut into a
 * "phone number".
 */
export const PHONE_PATTERN =
  /(?<![\w+.])(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)|\d{1,4})|\(\d{3,4}\)|\d{3,4})[ .-]?\d{3,4}[ .-]?\d{4}(?!\d)/g;

/** Options of {@link piiRedactor}. */
export interface PiiRedactorOptions {
  /** Default `'pii-redactor'`. */
  name?: string;
  /** What an e-mail address becomes. Default `'[EMAIL]'`. */
  emailReplacement?: string;
  /** What a phone number becomes. Default `'[PHONE]'`. */
  phoneReplacement?: string;
  /** Output channels to redact. Default `['text']`. */
  outputChannels?: readonly OutputChannel[];
  /** Default `{ chars: 128 }`, the longest match plus one. */
  holdback?: Holdback;
  /** Default `'closed'`: a redactor that fails open sends what it should have removed. */
  onError?: GuardErrorPolicy;
}

/** The spans of `text` that are e-mail addresses or phone numbers, in order, never overlapping. */
export function findPii(text: string, replacements: { email: string; phone: string }): SpanReplacement[] {
  const spans: SpanReplacement[] = [];
  for (const match of text.matchAll(EMAIL_PATTERN)) {
    spans.push({ start: match.index, end: match.index + match[0].length, text: replacements.email });
  }
  let emailIndex = 0;
  for (const match of text.matchAll(PHONE_PATTERN)) {
    const start = match.index;
    const end = start + match[0].length;
    // Digits inside an e-mail address are already replaced with it.
    while (emailIndex < spans.length && spans[emailIndex]!.end <= start) emailIndex++;
    const email = spans[emailIndex];
    if (email && email.start < end && start < email.end) continue;
    spans.push({ start, end, text: replacements.phone });
  }
  return spans.sort((a, b) => a.start - b.start);
}

/**
 * The PII redactor guard.
 *
 * @example
 * createGateway({ guards: [piiRedactor()], ... });
 */
export function piiRedactor(options: PiiRedactorOptions = {}): Guard {
  const replacements = { email: options.emailReplacement ?? '[EMAIL]', phone: options.phoneReplacement ?? '[PHONE]' };
  return {
    name: options.name ?? 'pii-redactor',
    outputChannels: options.outputChannels ?? ['text'],
    holdback: options.holdback ?? { chars: 128 },
    onError: options.onError ?? 'closed',
    input(view) {
      const found: TextReplacement[] = [];
      for (const part of viewParts(view)) {
        for (const span of findPii(part.text, replacements)) found.push({ part: part.id, ...span });
      }
      return found.length === 0 ? { action: 'allow' } : { action: 'replace', replacements: found };
    },
    output(view) {
      const found = findPii(view.text, replacements);
      return found.length === 0 ? { action: 'allow' } : { action: 'replace', replacements: found };
    },
  };
}
