/**
 * The temperature rule: `temperature` sent to a model that rejects it is a 400 saying it
 * is deprecated for this model, "whatever the value". The body schemas
 * check temperature's type and range, so this rule runs on the raw body
 * before them: otherwise `temperature: 5` or `"hot"` would get a range or
 * type error on one interface and the deprecation error on the other, and
 * `dropUnsupportedParams` could not drop it.
 *
 * @internal
 */
import { isModelAllowed } from '../auth/is-model-allowed.js';
import type { GatewayContext } from '../gateway-context.js';
import { isOpenAIModelCall } from '../match-endpoint.js';
import type { Catalog } from '../models/catalog.js';
import { enforceModelRules } from '../models/enforce-model-rules.js';

/** Chat callers may send `temperature: null` for "the default": that is not sending it. */
function sentTemperature(body: Record<string, unknown>, chat: boolean): boolean {
  if (!('temperature' in body) || body.temperature === undefined) return false;
  return !(chat && body.temperature === null);
}

/**
 * Throws the temperature rule's error for a model that rejects
 * temperature, or (with `dropUnsupportedParams`) returns a copy of `raw`
 * without the field and records it on `ctx`. Otherwise returns `raw`
 * unchanged and leaves everything to the schema.
 */
export function applyTemperatureRuleFirst(
  ctx: GatewayContext,
  raw: unknown,
  catalog: Catalog,
  dropUnsupportedParams: boolean,
): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const body = raw as Record<string, unknown>;
  if (typeof body.model !== 'string') return raw;
  // A caller not allowed this model gets its 403 (in enforceRules), not a rule of the model.
  if (!isModelAllowed(ctx.principal, body.model)) return raw;
  const entry = catalog.get(body.model);
  if (!entry || entry.temperature === 'accepted') return raw;
  if (!sentTemperature(body, isOpenAIModelCall(ctx.endpoint?.name))) return raw;
  // Only the temperature rule: the others need the validated body.
  let dropped: string[];
  try {
    dropped = enforceModelRules({ model: body.model, temperature: body.temperature }, entry, { dropUnsupportedParams });
  } catch (error) {
    // As when the other model rules refuse (enforceRequestRules): the entry is known, so telemetry can name the model.
    ctx.model = entry;
    throw error;
  }
  if (dropped.length === 0) return raw;
  // A copy: a body parsed by the app's own JSON middleware stays as the app left it.
  const { temperature: _removed, ...rest } = body;
  ctx.dropped.push(...dropped);
  ctx.bodyChanged = true;
  return rest;
}
