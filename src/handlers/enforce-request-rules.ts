/**
 * Step 3 of a model call: the route, the messages-interface model list and
 * the model matrix's rules, all before any upstream call.
 *
 * @internal
 */
import { GatewayError, isGatewayError } from '../errors.js';
import type { GatewayContext } from '../gateway-context.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import { adaptThinking } from '../models/adapt-thinking.js';
import { enforceModelRules, type RuleInput } from '../models/enforce-model-rules.js';
import { messagesModelNotFound } from '../models/messages-model-not-found.js';
import { modelsOnMessages } from './models-on-messages.js';
import { DEFAULT_REASONING_BUDGETS } from '../models/thinking-budgets.js';
import { isOpenAIModelCall } from '../match-endpoint.js';
import { isThenable, type MaybePromise } from '../maybe-promise.js';
import { noRouteError, type Router } from '../routing/routes.js';
import { checkVendorFeatures } from '../vendor-features/check-vendor-features.js';
import { requestShapeOf } from '../vendor-features/find-account-resource-use.js';

/** The rule view of a chat request: its `stop` read as stop sequences. */
function chatRuleInput(body: Record<string, unknown>): RuleInput {
  const input: RuleInput = { model: body.model as string };
  if (body.temperature !== undefined && body.temperature !== null) input.temperature = body.temperature;
  if (typeof body.stop === 'string') input.stop_sequences = [body.stop];
  else if (Array.isArray(body.stop)) input.stop_sequences = body.stop;
  return input;
}

/**
 * The rules speak in messages-interface fields; a chat caller sent `stop`,
 * not `stop_sequences`, so its error names the field it sent.
 */
function toChatFieldError(error: unknown, body: Record<string, unknown>): unknown {
  if (!isGatewayError(error) || !error.param?.startsWith('stop_sequences')) return error;
  const param = typeof body.stop === 'string' ? 'stop' : error.param.replace(/^stop_sequences/, 'stop');
  return new GatewayError(error.code, error.message.replace(/^stop_sequences:/, 'stop:'), { status: error.status, param, cause: error });
}

/**
 * Resolves the route and applies the model rules: synchronously once the
 * router is loaded (a refusal throws then), else after it loads.
 *
 * @internal
 */
export function enforceRequestRules(ctx: GatewayContext, runtime: GatewayRuntime): MaybePromise<void> {
  if (!ctx.body || !ctx.endpoint) return;
  const router = runtime.router();
  if (isThenable(router)) return router.then((loaded) => applyRequestRules(ctx, runtime, loaded));
  applyRequestRules(ctx, runtime, router);
}

function applyRequestRules(ctx: GatewayContext, runtime: GatewayRuntime, router: Router): void {
  const body = ctx.body!;
  const endpoint = ctx.endpoint!;
  const model = body.model as string;
  const entry = runtime.catalog.get(model);
  const route = router.resolve(model);
  // The messages interface serves the catalog's routed models, plus models of routes that opt in.
  const isChat = isOpenAIModelCall(endpoint.name);
  if (!isChat && (!route || (!entry && route.route.serveMessages !== true))) {
    throw messagesModelNotFound({ model, available: modelsOnMessages(runtime, ctx.principal), chatOnly: route !== undefined });
  }
  if (!route) throw noRouteError(model);
  ctx.route = route;
  checkVendorFeatures({ headers: ctx.request.headers, body, shape: requestShapeOf(endpoint.name) }, route.betas);
  if (!entry) return;
  ctx.model = entry;
  if (!isChat && runtime.options.adaptThinking === true) {
    const note = adaptThinking(body, entry, { ...DEFAULT_REASONING_BUDGETS, ...runtime.options.reasoningBudgets });
    if (note !== undefined) {
      ctx.adaptations.push(note);
      ctx.bodyChanged = true;
    }
  }
  const input = isChat ? chatRuleInput(body) : (body as unknown as RuleInput);
  let dropped: string[];
  try {
    dropped = enforceModelRules(input, entry, { dropUnsupportedParams: runtime.options.dropUnsupportedParams === true });
  } catch (error) {
    throw isChat ? toChatFieldError(error, body) : error;
  }
  if (dropped.length === 0) return;
  for (const name of dropped) delete body[name];
  ctx.dropped.push(...dropped);
  ctx.bodyChanged = true;
}
