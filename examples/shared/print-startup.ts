/**
 * The startup banner of the example apps: where the gateway listens, the
 * key to use, the official clients' variables (for the client's shell, not
 * the server's: the server's upstreams have `UPSTREAM_` names), and `curl`
 * lines that work when pasted into a POSIX shell.
 * Only a key generated for this run is printed: keys an operator configured
 * (`MODELGATE_API_KEYS`) stay out of logs, and the lines then read the key
 * from `$MODELGATE_KEY` instead.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UPSTREAM_VARIABLES } from './upstream-variables.js';

const { OPENAI, ANTHROPIC } = UPSTREAM_VARIABLES;

/** The shell variable the curl lines use when the key is not printed. */
export const KEY_VARIABLE = 'MODELGATE_KEY';

/** A URL fit for a log line: no userinfo, query values hidden (some upstreams take keys there). */
export function redactURL(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '(invalid URL)';
  }
  url.username = '';
  url.password = '';
  for (const name of [...new Set(url.searchParams.keys())]) url.searchParams.set(name, '***');
  return url.toString();
}

/** Quotes `text` for a POSIX shell (single quotes; embedded ones escaped). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A header argument for curl: single-quoted with the key, or double-quoted reading `$MODELGATE_KEY` when the key is not printed. */
function keyHeader(name: string, prefix: string, key: string | undefined): string {
  return key === undefined ? `"${name}: ${prefix}$${KEY_VARIABLE}"` : shellQuote(`${name}: ${prefix}${key}`);
}

/** Ready-to-paste curl commands for the interfaces (chat, messages, Responses) against `url` with `key` (undefined: `$MODELGATE_KEY`). */
export function curlLines(url: string, key: string | undefined): string[] {
  const chat = JSON.stringify({ model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'Hello from curl' }] });
  const messages = JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 256, messages: [{ role: 'user', content: 'Hello from curl' }] });
  const streamed = JSON.stringify({ model: 'vendora-opus-4-8', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Stream a short answer' }] });
  const responses = JSON.stringify({ model: 'vendora-sonnet-4-6', input: 'Hello from curl' });
  return [
    `curl -sS ${url}/v1/models -H ${keyHeader('Authorization', 'Bearer ', key)}`,
    `curl -sS ${url}/v1/chat/completions -H ${keyHeader('Authorization', 'Bearer ', key)} -H 'Content-Type: application/json' -d ${shellQuote(chat)}`,
    `curl -sS ${url}/v1/messages -H ${keyHeader('x-api-key', '', key)} -H 'anthropic-version: 2023-06-01' -H 'Content-Type: application/json' -d ${shellQuote(messages)}`,
    `curl -sSN ${url}/v1/messages -H ${keyHeader('x-api-key', '', key)} -H 'anthropic-version: 2023-06-01' -H 'Content-Type: application/json' -d ${shellQuote(streamed)}`,
    `curl -sS ${url}/v1/responses -H ${keyHeader('Authorization', 'Bearer ', key)} -H 'Content-Type: application/json' -d ${shellQuote(responses)}`,
  ];
}

/** The URL a listening server answers on, from the configured host and the port it got (`PORT=0`: any free one). */
export function listeningURL(host: string, server: Server): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The banner text (the examples print it once listening). `key` is printed
 * only when `generatedKey` is true.
 */
export function formatStartup(options: { app: string; url: string; key: string; generatedKey: boolean; notes: readonly string[] }): string {
  const { url } = options;
  const shown = options.generatedKey ? options.key : undefined;
  const keyValue = shown === undefined ? `"$${KEY_VARIABLE}"` : shellQuote(shown);
  return [
    `${options.app} with modelgate listening on ${url}`,
    shown === undefined
      ? `  API key: one of MODELGATE_API_KEYS (not printed; the lines below read it from $${KEY_VARIABLE})`
      : `  API key: ${shown}   (generated for this run; set MODELGATE_API_KEYS to choose your own)`,
    ...options.notes.map((note) => `  ${note}`),
    '',
    'Official clients: set these where your CLIENT runs (its shell or .env), not in this server\'s environment:',
    `  ${OPENAI.clientBaseURL}=${url}/v1 ${OPENAI.clientApiKey}=${keyValue}`,
    `  ${ANTHROPIC.clientBaseURL}=${url} ${ANTHROPIC.clientApiKey}=${keyValue}`,
    `  (this server reads its own upstreams from ${OPENAI.baseURL} / ${OPENAI.apiKey} and ${ANTHROPIC.baseURL} / ${ANTHROPIC.apiKey}, or MODELGATE_MESSAGES_UPSTREAM / AZURE_OPENAI_ENDPOINT)`,
    '',
    'Try it:',
    ...curlLines(url, shown).map((line) => `  ${line}`),
    '',
  ].join('\n');
}
