/**
 * Agent clients put wrapper blocks (a
 * `<system-reminder>` block, say) next to the user's words in the last
 * turn. The simulator quotes the user's words and fills tool arguments from
 * them, never from the wrapper.
 */
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { isWrapperText, userWordsOf } from '../../../src/simulator/user-words.js';
import { asCompletion, asMessage, send, textOf } from './support/simulator-calls.js';

const REMINDER = '<system-reminder>\nThe user has Tokyo open in another tab. This context may or may not be relevant.\n</system-reminder>';
const weather = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('userWordsOf', () => {
  it('tells wrapper blocks from words', () => {
    expect(isWrapperText(REMINDER)).toBe(true);
    expect(isWrapperText('  <context kind="file">a</context>\n')).toBe(true);
    expect(isWrapperText('Please use <b>bold</b> here')).toBe(false);
    expect(isWrapperText('<a>one</a> and <b>two</b>')).toBe(false);
    expect(isWrapperText('<open>never closed')).toBe(false);
  });

  it('picks the last block that is not a wrapper, before or after the wrappers', () => {
    expect(userWordsOf([REMINDER, 'Fix the bug'])).toBe('Fix the bug');
    expect(userWordsOf(['Fix the bug', REMINDER])).toBe('Fix the bug');
    expect(userWordsOf(['First ask', REMINDER, 'Second ask', '<system-reminder>x</system-reminder>'])).toBe('Second ask');
  });

  it('falls back to all the text when every block is a wrapper', () => {
    expect(userWordsOf([REMINDER])).toBe(REMINDER);
    expect(userWordsOf([])).toBe('');
  });
});

describe('simulator faces with a wrapper block before the user words', () => {
  const sim = createSimulator();
  const turn = (words: string, after = false) => (after ? [{ type: 'text', text: words }, { type: 'text', text: REMINDER }] : [{ type: 'text', text: REMINDER }, { type: 'text', text: words }]);

  it.each([false, true])('messages: quotes the user, not the reminder (reminder after the words: %s)', async (after) => {
    const message = asMessage(
      await send(sim.upstreams.messages, 'messages', {
        model: 'vendora-sonnet-4-6',
        max_tokens: 400,
        messages: [{ role: 'user', content: turn('Explain the retry loop in fetchWithBackoff', after) }],
      }),
    );
    const text = textOf(message);
    expect(text).toContain('"Explain the retry loop in fetchWithBackoff"');
    expect(text).not.toContain('system-reminder');
    expect(text).not.toContain('Tokyo');
  });

  it('messages: tool arguments come from the user words (Oslo), not the reminder (Tokyo)', async () => {
    const message = asMessage(
      await send(sim.upstreams.messages, 'messages', {
        model: 'vendora-opus-4-8',
        max_tokens: 400,
        tools: [weather],
        messages: [{ role: 'user', content: turn('Please use get_weather for Oslo') }],
      }),
    );
    const call = message.content.find((block) => block.type === 'tool_use');
    expect(call?.type === 'tool_use' ? call.input : undefined).toEqual({ city: 'Oslo' });
  });

  it('chat: the same, through the chat face', async () => {
    const completion = asCompletion(
      await send(sim.upstreams.chat, 'chat.completions', {
        model: 'gpt-4o',
        tools: [{ type: 'function', function: { name: weather.name, parameters: weather.input_schema } }],
        messages: [{ role: 'user', content: turn('Please use get_weather for Oslo') }],
      }),
    );
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : undefined).toEqual({ city: 'Oslo' });
  });
});
