/**
 * The `auth` option: static keys or the app's own `verify`.
 *
 * @internal
 */
import { z } from 'zod';
import type { AuthOptions, KeysAuthOptions, StaticKey, VerifyKey } from '../auth/verify-key.js';
import { type Assert, either, fn, got, isObject, optionsObject, type SameOptions, text } from './option-schemas.js';

const AUTH_SHAPES = '`{ keys: [process.env.MODELGATE_KEY] }` (the keys callers send) or `{ verify: async (key, request) => principal | null }`';

/** Shorter secrets are guessable: principal ids would then reveal which key was used. */
const MIN_PRINCIPAL_SECRET_LENGTH = 32;

const principalSecretSchema = text({
  expected: 'a secret of 32 characters or more',
  env: 'MODELGATE_PRINCIPAL_SECRET',
  omit: 'leave `principalSecret` out for a random one per process',
}).refine((secret) => secret === '' || secret.length >= MIN_PRINCIPAL_SECRET_LENGTH, {
  error: `is shorter than ${MIN_PRINCIPAL_SECRET_LENGTH} characters: give a long random string (e.g. \`openssl rand -hex 32\`), the same on every instance`,
});

/** A key as the gateway compares it: callers' keys are read trimmed, so a padded one could never match. */
const keySchema = text({ expected: 'a key callers send', env: 'MODELGATE_KEY', omit: 'leave the entry out' }).refine((key) => key.trim() === key, {
  error: 'has spaces or a line break at its start or end (read from a file?): callers’ keys are read trimmed, so it could never match; trim it',
});

const staticKeySchema = optionsObject(
  {
    key: keySchema,
    id: text({ expected: 'the principal id for logs and limits' }).optional(),
    allowedModels: z
      .array(text({ expected: 'a model id or a glob (`local-*`)' }), { error: 'must be an array of model ids or globs, e.g. `[\'gpt-4o\', \'local-*\']` (the models this key may call)' })
      .readonly()
      .optional(),
  },
  'a key',
  'a key string or `{ key, id?, allowedModels? }`',
);

const keyEntrySchema = either<string | StaticKey>((value) => (isObject(value) ? staticKeySchema : keySchema));

export const keysAuthSchema = optionsObject(
  {
    keys: z
      .array(keyEntrySchema, {
        error: (issue) =>
          issue.input === undefined
            ? 'is missing: give the keys callers send, e.g. `keys: [process.env.MODELGATE_KEY]`'
            : `must be an array of keys, e.g. \`[process.env.MODELGATE_KEY]\` (got ${got(issue.input)})`,
      })
      .min(1, { error: 'is empty: no caller could authenticate; give at least one key (or use `verify`)' })
      .readonly(),
    principalSecret: principalSecretSchema.optional(),
  },
  'an `auth`',
  AUTH_SHAPES,
);

export const verifyAuthSchema = optionsObject({ verify: fn<VerifyKey>('`async (key, request) => principal | null`') }, 'an `auth`', AUTH_SHAPES);

/** `{ keys }` or `{ verify }`, told apart by which one is given. */
export const authSchema = either<AuthOptions>((value) => {
  if (value === undefined) return `is required: give ${AUTH_SHAPES}; nothing unauthenticated reaches an upstream`;
  if (!isObject(value) || Array.isArray(value)) {
    return Array.isArray(value) ? 'is an array: put the keys in `{ keys: [...] }`' : `must be ${AUTH_SHAPES}`;
  }
  if ('keys' in value && 'verify' in value) return 'has both `keys` and `verify`: give one of them (a `verify` can look the static keys up itself)';
  return 'verify' in value ? verifyAuthSchema : keysAuthSchema;
});

type _KeysAuth = Assert<SameOptions<z.input<typeof keysAuthSchema>, KeysAuthOptions>>;
type _VerifyAuth = Assert<SameOptions<z.input<typeof verifyAuthSchema>, Extract<AuthOptions, { verify: unknown }>>>;
type _StaticKey = Assert<SameOptions<z.input<typeof staticKeySchema>, StaticKey>>;
