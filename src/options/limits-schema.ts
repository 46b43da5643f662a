/**
 * The `limits` option (see limits/limit-options.ts for what each field does).
 *
 * @internal
 */
import { z } from 'zod';
import type { BudgetLimit, LimitRule, LimitsOptions, ModelPrice, RateLimit, StoreErrorPolicies, StoreErrorPolicy, TokenRateLimit } from '../limits/limit-options.js';
import type { LimitStore } from '../limits/limit-store.js';
import { amount, type Assert, either, fn, flag, got, int, isObject, MAX_TIMER_MS, oneOf, optionsObject, type SameOptions, shaped, text } from './option-schemas.js';

const windowSeconds = amount(0, { exclusive: true, infinite: true, meaning: 'the window in seconds' });

const rateShape = {
  limit: amount(0, { infinite: true, meaning: 'most units per window' }),
  windowSeconds: windowSeconds.optional(),
};

const rateSchema = optionsObject(rateShape, 'a `requests`', '`{ limit, windowSeconds? }`');

const tokenRateSchema = optionsObject(
  { ...rateShape, count: oneOf(['input+output', 'input', 'output'], 'which tokens count').optional() },
  'a `tokens`',
  '`{ limit, windowSeconds?, count? }`',
);

const budgetSchema = optionsObject(
  {
    limit: amount(0, { infinite: true, meaning: 'most spend per period, in the currency of `prices`' }),
    periodSeconds: amount(0, { exclusive: true, infinite: true, meaning: 'the period in seconds' }).optional(),
  },
  'a `budget`',
  '`{ limit, periodSeconds? }`',
);

const price = amount(0, { meaning: 'per million tokens' }).optional();
const priceSchema = optionsObject({ input: price, output: price, cacheRead: price, cacheWrite: price }, 'a price', '`{ input?, output?, cacheRead?, cacheWrite? }` per million tokens');

const concurrentSchema = shaped<number>(
  (value) => typeof value === 'number' && value >= 0 && (Number.isInteger(value) || value === Infinity),
  (value) => `must be a whole number of calls, 0 or more (got ${got(value)})`,
);

const modelsSchema = either<string | readonly string[]>((value) => {
  if (typeof value === 'string') return value === '' ? 'is an empty string: give model ids or globs (`vendora-*`), or leave `models` out for every model' : undefined;
  if (Array.isArray(value)) return z.array(text({ expected: 'a model id or glob' })).min(1, { error: 'is empty: the rule would apply to no model; leave `models` out for every model' });
  return `must be a model id or glob, or an array of them (got ${got(value)})`;
});

const ruleSchema = optionsObject(
  {
    id: text({ expected: 'a name for the rule’s counters' }).optional(),
    models: modelsSchema.optional(),
    eachModel: flag().optional(),
    requests: rateSchema.optional(),
    tokens: tokenRateSchema.optional(),
    concurrent: concurrentSchema.optional(),
    budget: budgetSchema.optional(),
  },
  'a limit rule',
  '`{ requests?, tokens?, concurrent?, budget?, models?, ... }`',
).refine((rule) => rule.requests !== undefined || rule.tokens !== undefined || rule.concurrent !== undefined || rule.budget !== undefined, {
  error: 'has no limit: give `requests`, `tokens`, `concurrent` or `budget`',
});

const storeSchema = shaped<LimitStore>(
  (value) => isObject(value) && typeof value.reserve === 'function' && typeof value.settle === 'function' && (value.renew === undefined || typeof value.renew === 'function'),
  (value) => `must be a LimitStore (\`memoryLimitStore()\`, \`redisLimitStore({ client })\` or an object with reserve(checks) and settle(adjustments)) (got ${got(value)})`,
);

const policy = oneOf(['open', 'closed'], 'what happens to this kind of limit when the store fails').optional();
const storeErrorPoliciesSchema = optionsObject(
  { requests: policy, tokens: policy, concurrent: policy, budget: policy },
  'an `onStoreError`',
  "`{ requests?, tokens?, concurrent?, budget? }`, each 'open' or 'closed'",
);

/** One policy for every kind of limit, or one per kind. */
const onStoreErrorSchema = either<StoreErrorPolicy | StoreErrorPolicies>((value) => {
  if (isObject(value) && !Array.isArray(value)) return storeErrorPoliciesSchema;
  if (typeof value === 'string') return oneOf(['open', 'closed'], 'what happens when the store fails; or one per kind: `{ requests?, tokens?, concurrent?, budget? }`');
  return `must be "open" or "closed", or one per kind of limit: \`{ requests?, tokens?, concurrent?, budget? }\` (got ${got(value)})`;
});

export const limitsSchema = optionsObject(
  {
    rules: z
      .array(ruleSchema, { error: (issue) => `must be an array of rules (got ${got(issue.input)})` })
      .readonly()
      .optional(),
    store: storeSchema.optional(),
    onStoreError: onStoreErrorSchema.optional(),
    storeTimeoutMs: int(1, MAX_TIMER_MS, 'ms to wait for one store command').optional(),
    storeRetryMs: int(0, MAX_TIMER_MS, 'ms to leave a failed store alone').optional(),
    onStoreFailure: fn<NonNullable<LimitsOptions['onStoreFailure']>>('`(error) => void`').optional(),
    prices: z
      .record(z.string().min(1, { error: 'is an empty model id' }), priceSchema, {
        error: (issue) => (issue.code === 'invalid_type' ? `must be an object of model ids or globs to prices (got ${got(issue.input)})` : undefined),
      })
      .readonly()
      .optional(),
    expectedOutputTokens: int(1, Number.MAX_SAFE_INTEGER, 'output tokens reserved when a request sets no max').optional(),
    concurrencyLeaseSeconds: amount(0, { exclusive: true, meaning: `seconds; at most ${Math.floor((MAX_TIMER_MS * 3) / 1000)}` })
      .refine((seconds) => seconds <= Math.floor((MAX_TIMER_MS * 3) / 1000), {
        error: `must be at most ${Math.floor((MAX_TIMER_MS * 3) / 1000)} seconds (leases are renewed every third of it, and Node's timers take at most ${MAX_TIMER_MS} ms)`,
      })
      .optional(),
  },
  'a `limits`',
  '`{ rules, store?, prices?, ... }`',
).refine((limits) => limits.prices !== undefined || !(limits.rules ?? []).some((rule) => rule.budget !== undefined), {
  error: 'has a rule with a `budget` but no `prices`: without prices every call costs 0 and the budget never fills; add `prices: { "model-or-glob": { input, output } }`',
});

type _Rate = Assert<SameOptions<z.input<typeof rateSchema>, RateLimit>>;
type _TokenRate = Assert<SameOptions<z.input<typeof tokenRateSchema>, TokenRateLimit>>;
type _Budget = Assert<SameOptions<z.input<typeof budgetSchema>, BudgetLimit>>;
type _Price = Assert<SameOptions<z.input<typeof priceSchema>, ModelPrice>>;
type _Rule = Assert<SameOptions<z.input<typeof ruleSchema>, LimitRule>>;
type _StoreErrorPolicies = Assert<SameOptions<z.input<typeof storeErrorPoliciesSchema>, StoreErrorPolicies>>;
type _Limits = Assert<SameOptions<z.input<typeof limitsSchema>, LimitsOptions>>;
