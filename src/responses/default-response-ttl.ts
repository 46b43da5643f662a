/**
 * How long a stored response lives by default, in both stores: 24 hours.
 * What OpenAI keeps is not documented in its API reference (xAI keeps 30
 * days for its own API); a day covers a working session of follow-ups,
 * `item_reference`s and reasoning-item lookups while bounding what a
 * gateway holds of its callers' conversations. Set `ttlMs` for longer.
 *
 * @internal
 */
export const DEFAULT_RESPONSE_TTL_MS = 24 * 60 * 60 * 1000;
