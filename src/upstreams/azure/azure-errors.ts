/**
 * Azure OpenAI's error answers, made plain before the gateway reads them:
 * a prompt its content filter blocked (400, `code: "content_filter"`,
 * `innererror.code: "ResponsibleAIPolicyViolation"`) becomes an OpenAI-shaped
 * 400 whose message says what happened and what to do, and an Entra ID
 * token an error body quotes is hidden (the gateway's own redactor knows
 * only the static key, not tokens that rotate every hour).
 *
 * Other errors keep Azure's body, string codes (`"429"`, `"DeploymentNotFound"`)
 * included: the gateway's error reader takes codes as strings.
 *
 * @see https://learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter
 * @internal
 */
import { z } from 'zod';
import type { Redactor } from '../../redact/redactor.js';
import { readBody } from '../read-body.js';
import type { UpstreamResponse } from '../upstream.js';

const filterResultSchema = z.looseObject({ filtered: z.boolean().optional(), severity: z.string().optional(), detected: z.boolean().optional() });

const azureErrorSchema = z.object({
  error: z.looseObject({
    code: z.union([z.string(), z.number()]).nullish(),
    message: z.string().nullish(),
    innererror: z
      .looseObject({
        code: z.string().nullish(),
        content_filter_result: z.record(z.string(), z.unknown()).nullish(),
      })
      .nullish(),
  }),
});

type AzureError = z.infer<typeof azureErrorSchema>['error'];

/** True for Azure's "the prompt was filtered" answer. */
export function isPromptFiltered(status: number, error: AzureError): boolean {
  return status === 400 && (error.code === 'content_filter' || error.innererror?.code === 'ResponsibleAIPolicyViolation');
}

/** The filter categories that blocked the prompt, as `hate (high)`, `jailbreak`. */
export function filteredCategories(results: Record<string, unknown> | null | undefined): string[] {
  const out: string[] = [];
  for (const [category, value] of Object.entries(results ?? {})) {
    const result = filterResultSchema.safeParse(value);
    if (!result.success || result.data.filtered !== true) continue;
    const severity = result.data.severity;
    out.push(severity && severity !== 'safe' ? `${category} (${severity})` : category);
  }
  return out;
}

/** The OpenAI-shaped body of a filtered prompt. */
export function promptFilteredBody(upstreamName: string, error: AzureError): { error: Record<string, string> } {
  const categories = filteredCategories(error.innererror?.content_filter_result);
  const which = categories.length > 0 ? ` (${categories.join(', ')})` : '';
  return {
    error: {
      message: `The prompt was blocked by the content filter of the Azure OpenAI upstream "${upstreamName}"${which}. Change the prompt; what is blocked is set by the deployment's content filtering policy.`,
      type: 'invalid_request_error',
      param: 'prompt',
      code: 'content_filter',
    },
  };
}

function parse(bytes: Uint8Array): AzureError | undefined {
  try {
    const result = azureErrorSchema.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return result.success ? result.data.error : undefined;
  } catch {
    return undefined;
  }
}

function withBody(response: UpstreamResponse, bytes: Uint8Array): UpstreamResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (name !== 'content-length') headers[name] = value;
  return { status: response.status, headers, body: bodyOf(bytes) };
}

async function* bodyOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/**
 * Reads a failed answer (at most 64 KiB) and returns it with its body made
 * plain: a filtered prompt rewritten (see above), anything else with
 * `redactor`'s secrets hidden. Successes are returned as they are, unread.
 */
export async function normalizeAzureError(response: UpstreamResponse, upstreamName: string, redactor: Redactor): Promise<UpstreamResponse> {
  if (response.status < 400) return response;
  let bytes: Uint8Array;
  try {
    ({ bytes } = await readBody(response.body));
  } catch {
    // The status alone is still worth reporting.
    bytes = new Uint8Array(0);
  }
  const error = parse(bytes);
  if (error && isPromptFiltered(response.status, error)) {
    return withBody(response, new TextEncoder().encode(JSON.stringify(promptFilteredBody(upstreamName, error))));
  }
  if (redactor.empty) return withBody(response, bytes);
  return withBody(response, new TextEncoder().encode(redactor.redact(new TextDecoder().decode(bytes))));
}
