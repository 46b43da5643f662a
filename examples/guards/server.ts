/**
 * A node:http server whose gateway runs three guards on every interface
 * (chat, messages, Responses), streamed or not:
 *
 * - `piiRedactor()`: e-mail addresses and phone numbers become `[EMAIL]` /
 *   `[PHONE]` in requests before they leave and in answers before they
 *   reach the caller;
 * - `denyList(...)`: a request or answer naming a codename is refused;
 * - an async moderation guard: asks a moderation service (here a stand-in
 *   with a delay) about each request, bounded by `timeoutMs`, failing open.
 *
 * Without upstream settings the embedded simulator answers.
 *
 *   npx tsx examples/guards/server.ts
 *   curl -s localhost:8787/v1/chat/completions -H "authorization: Bearer $KEY" \
 *     -H 'content-type: application/json' \
 *     -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Mail jane@example.com"}]}'
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { denyList, type Guard, type GuardInputView, piiRedactor } from 'modelgate';
import { createNodeHandler } from 'modelgate/node';

/** A stand-in for a moderation API: flags text that asks for weapons. Honours `signal` as a real HTTP call would. */
async function moderate(text: string, signal: AbortSignal): Promise<{ flagged: boolean }> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, 20);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
  return { flagged: /\bweapons?\b/i.test(text) };
}

/** Every user text of a request, for one moderation call. */
function userText(view: GuardInputView): string {
  return view.messages.filter((message) => message.role === 'user').flatMap((message) => message.parts.map((part) => part.text)).join('\n');
}

const moderation: Guard = {
  name: 'moderation',
  timeoutMs: 500,
  // A moderation service that is down should not take the app down with it.
  onError: 'open',
  input: async (view, ctx) => {
    const { flagged } = await moderate(userText(view), ctx.signal);
    return flagged ? { action: 'block', reason: 'This request was flagged by moderation.' } : { action: 'allow' };
  },
};

const key = process.env.MODELGATE_KEY ?? `sk-dev-${randomBytes(16).toString('hex')}`;
const handler = createNodeHandler({
  auth: { keys: [key] },
  guards: [piiRedactor(), denyList({ terms: ['project nightingale'] }), moderation],
});
const port = Number(process.env.PORT ?? 8787);
createServer(handler).listen(port, '127.0.0.1', () => {
  process.stdout.write(`Guarded gateway on http://127.0.0.1:${port}/v1 (key ${key})\n`);
});
