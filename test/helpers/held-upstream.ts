/**
 * A chat-format upstream whose streams stay open until the test ends them:
 * each call's stream sends its first words at once, then waits for
 * `complete(i)`. Records each call's abort signal and whether the gateway
 * stopped its body.
 */
import { ScriptedBody, type ScriptedUpstream, scriptedUpstream } from './scripted-upstream.js';

const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

export const FIRST_WORDS = 'Hello';

export interface HeldUpstream extends ScriptedUpstream {
  /** Sends the rest of call `index`'s stream: the last words, the usage and `[DONE]`. */
  complete(index: number): void;
  /** Resolves once `count` calls reached the upstream. */
  calledTimes(count: number): Promise<void>;
}

export function heldUpstream(): HeldUpstream {
  const upstream = scriptedUpstream(() => {
    const body = new ScriptedBody();
    body.feed(chunk({ role: 'assistant', content: FIRST_WORDS }, null));
    return body;
  });
  return Object.assign(upstream, {
    complete(index: number) {
      const body = upstream.bodies[index];
      if (!body) throw new Error(`no call ${index}`);
      body.feed(chunk({ content: ' world.' }, 'stop'));
      body.feed(`data: ${JSON.stringify({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })}\n\n`);
      body.feed('data: [DONE]\n\n');
    },
    async calledTimes(count: number) {
      for (let waited = 0; upstream.calls.length < count; waited += 10) {
        if (waited > 10_000) throw new Error(`the upstream saw ${upstream.calls.length} calls, not ${count}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  });
}
