/**
 * The startup banner of the example apps: where the gateway listens, the
 * key to use, and `curl` lines that work when pasted into a POSIX shell.
 */

/** Quotes `text` for a POSIX shell (single quotes; embedded ones escaped). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Ready-to-paste curl commands for both interfaces against `url` with `key`. */
export function curlLines(url: string, key: string): string[] {
  const chat = JSON.stringify({ model: 'vendora-sonnet-4-6', messages: [{ role: 'user', content: 'Hello from curl' }] });
  const messages = JSON.stringify({ model: 'vendora-sonnet-4-6', max_tokens: 256, messages: [{ role: 'user', content: 'Hello from curl' }] });
  const streamed = JSON.stringify({ model: 'vendora-opus-4-8', max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Stream a short answer' }] });
  return [
    `curl -sS ${url}/v1/models -H ${shellQuote(`Authorization: Bearer ${key}`)}`,
    `curl -sS ${url}/v1/chat/completions -H ${shellQuote(`Authorization: Bearer ${key}`)} -H 'Content-Type: application/json' -d ${shellQuote(chat)}`,
    `curl -sS ${url}/v1/messages -H ${shellQuote(`x-api-key: ${key}`)} -H 'anthropic-version: 2023-06-01' -H 'Content-Type: application/json' -d ${shellQuote(messages)}`,
    `curl -sSN ${url}/v1/messages -H ${shellQuote(`x-api-key: ${key}`)} -H 'anthropic-version: 2023-06-01' -H 'Content-Type: application/json' -d ${shellQuote(streamed)}`,
  ];
}

/** The banner text (the examples print it once listening). */
export function formatStartup(options: { app: string; url: string; key: string; generatedKey: boolean; notes: readonly string[] }): string {
  const { url, key } = options;
  return [
    `${options.app} with modelgate listening on ${url}`,
    `  API key: ${key}${options.generatedKey ? '   (generated for this run; set MODELGATE_API_KEYS to choose your own)' : ''}`,
    ...options.notes.map((note) => `  ${note}`),
    '',
    'Official clients:',
    `  OPENAI_BASE_URL=${url}/v1 OPENAI_API_KEY=${shellQuote(key)}`,
    `  ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=${shellQuote(key)}`,
    '',
    'Try it:',
    ...curlLines(url, key).map((line) => `  ${line}`),
    '',
  ].join('\n');
}
