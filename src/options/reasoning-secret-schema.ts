/**
 * `responses.reasoningSecret`: one secret, or a list of them newest first
 * (key rotation). The seal's key is derived from it, and anyone holding an
 * envelope can test guesses offline, so a secret must be long and must not
 * be an obvious pattern.
 *
 * @internal
 */
import { z } from 'zod';
import { either, got, text } from './option-schemas.js';

/** Shorter secrets are guessable. */
export const MIN_REASONING_SECRET_LENGTH = 32;
/** Random text of 32 characters or more has far more; fewer means a pattern or a word. */
const MIN_DISTINCT_CHARACTERS = 8;
const MAKE_ONE = 'give random characters (e.g. `openssl rand -base64 32`), the same on every instance';

/** Why `secret` is easy to guess (too few different characters, a repeated pattern); `undefined` when it is not obviously so. */
export function guessableSecretReason(secret: string): string | undefined {
  const distinct = new Set(secret).size;
  if (distinct < MIN_DISTINCT_CHARACTERS) return `it has only ${distinct} different character${distinct === 1 ? '' : 's'}`;
  // The whole secret is one shorter unit written two or more times (`abcdabcd…`).
  if (/^([\s\S]+?)\1+$/.test(secret)) return 'it repeats a shorter pattern';
  return undefined;
}

function secretSchema(omit: string) {
  return text({ expected: 'a secret of 32 random characters or more', omit }).superRefine((secret, context) => {
    if (secret === '') return; // `text` said so already
    if (secret.length < MIN_REASONING_SECRET_LENGTH) {
      context.addIssue({ code: 'custom', message: `is shorter than ${MIN_REASONING_SECRET_LENGTH} characters: ${MAKE_ONE}` });
      return;
    }
    const reason = guessableSecretReason(secret);
    if (reason !== undefined) context.addIssue({ code: 'custom', message: `is easy to guess (${reason}): ${MAKE_ONE}` });
  });
}

const secretListSchema = z
  .array(secretSchema('leave the entry out'))
  .min(1, { error: 'is an empty list: give at least one secret (newest first), or leave `reasoningSecret` out for a random one per process' })
  .readonly()
  .superRefine((secrets, context) => {
    const first = new Map<string, number>();
    secrets.forEach((secret, index) => {
      const earlier = first.get(secret);
      if (earlier === undefined) first.set(secret, index);
      else context.addIssue({ code: 'custom', path: [index], message: `is the same secret as entry ${earlier}: list each secret once, newest first` });
    });
  });

/** One secret, or a list of them newest first: the first seals, every one opens. */
export const reasoningSecretSchema = either<string | readonly string[]>((value) => {
  if (Array.isArray(value)) return secretListSchema;
  if (value === undefined || typeof value === 'string') return secretSchema('leave `reasoningSecret` out for a random one per process');
  return `must be a secret of ${MIN_REASONING_SECRET_LENGTH} random characters or more, or a list of them newest first (got ${got(value)})`;
});
