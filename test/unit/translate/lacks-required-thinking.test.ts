import { describe, expect, it } from 'vitest';
import type { ChatCompletionRequest } from '../../../src/schemas/index.js';
import { customToolInputOf } from '../../../src/translate/convert-responses-tools.js';
import { lacksRequiredThinking } from '../../../src/translate/lacks-required-thinking.js';

type Messages = ChatCompletionRequest['messages'];

const user = { role: 'user', content: 'Go.' } as const;
const calls = [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }] as const;
const thinking = [{ type: 'thinking', thinking: 'Plan.', signature: 'sig' }];
const tool = { role: 'tool', tool_call_id: 'c1', content: 'done' } as const;

const lacks = (messages: Messages) => lacksRequiredThinking({ messages });

describe('lacksRequiredThinking', () => {
  it('is true while a tool loop goes on from calls made without thinking', () => {
    expect(lacks([user, { role: 'assistant', content: null, tool_calls: [...calls] }, tool])).toBe(true);
    expect(lacks([user, { role: 'assistant', content: null, tool_calls: [...calls], thinking_blocks: [] }, tool])).toBe(true);
    // Files of the tool output travel in a user message after the results: the same user turn upstream.
    expect(lacks([user, { role: 'assistant', content: null, tool_calls: [...calls] }, tool, { role: 'user', content: 'See image.' }])).toBe(true);
  });

  it('is false when the calls carry their thinking', () => {
    expect(lacks([user, { role: 'assistant', content: null, tool_calls: [...calls], thinking_blocks: thinking }, tool])).toBe(false);
  });

  it('is false outside a tool loop', () => {
    expect(lacks([user])).toBe(false);
    expect(lacks([user, { role: 'assistant', content: 'Hi' }, user])).toBe(false);
    // An earlier loop without thinking does not matter once the last assistant turn is plain text.
    expect(lacks([user, { role: 'assistant', content: null, tool_calls: [...calls] }, tool, { role: 'assistant', content: 'Done.' }, user])).toBe(false);
    // Calls not yet answered are no loop in progress.
    expect(lacks([user, { role: 'assistant', content: null, tool_calls: [...calls] }])).toBe(false);
  });
});

describe('customToolInputOf', () => {
  it('unwraps the input the model wrote for a custom tool, and leaves anything else as it is', () => {
    const patch = '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n';
    expect(customToolInputOf(JSON.stringify({ input: patch }))).toBe(patch);
    expect(customToolInputOf(patch)).toBe(patch);
    expect(customToolInputOf('{"patch":"x"}')).toBe('{"patch":"x"}');
    expect(customToolInputOf('{"input":5}')).toBe('{"input":5}');
  });
});
