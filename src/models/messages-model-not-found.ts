/**
 * The 404 for a model `/v1/messages` does not take: it names the models it
 * does take, and, when a route sends the model to a chat-format upstream
 * only, the two ways on (the chat endpoint, or `serveMessages` on the route).
 */
import { GatewayError } from '../errors.js';

/** Most ids the message names; the listing has the rest. */
const MAX_NAMED = 20;

function availableSentence(available: readonly string[]): string {
  if (available.length === 0) return 'No model is available on /v1/messages.';
  const named = available.slice(0, MAX_NAMED).join(', ');
  const more = available.length - MAX_NAMED;
  return more > 0 ? `Available models: ${named} and ${more} more (GET /v1/models lists them).` : `Available models: ${named}.`;
}

export interface MessagesModelNotFoundOptions {
  /** The requested id. */
  model: string;
  /** The ids served on `/v1/messages` that the caller may use. */
  available: readonly string[];
  /** True when a route serves the model on the chat endpoint only. */
  chatOnly?: boolean;
}

/** A 404 `MODEL_NOT_FOUND` for a model the messages interface does not serve. */
export function messagesModelNotFound({ model, available, chatOnly = false }: MessagesModelNotFoundOptions): GatewayError {
  const reason = chatOnly
    ? `model: ${model} is served on /v1/chat/completions only: call POST /v1/chat/completions, or serve it on /v1/messages too with \`serveMessages: true\` on the gateway route that matches it.`
    : `model: ${model} is not available on /v1/messages.`;
  return new GatewayError('MODEL_NOT_FOUND', `${reason} ${availableSentence(available)}`, { param: 'model', chatCode: 'model_not_found' });
}
