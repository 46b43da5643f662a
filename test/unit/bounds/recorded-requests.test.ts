/**
 * Real client requests pass the default bounds: the Codex CLI's recorded
 * Responses bodies, a Claude Code-style agent's turns and the end-to-end
 * suites' chat bodies. Each is also measured independently of the bounds
 * walk and compared with the defaults.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type BoundedInterface, checkRequestBounds, DEFAULT_REQUEST_BOUNDS } from 'modelgate';
import { agentTurn, REMINDER } from '../../helpers/agent-turn.js';
import { CHAT_TOOLS, PDF_BASE64, PNG_BASE64 } from '../../helpers/e2e-fixtures.js';
import { measureRequest } from './measure-request.js';

const codex = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/recorded/codex-0.171-${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

const firstTurn = agentTurn('vendora-opus-4-8', 'Please use Read on /repo/README.md');
/** The agent's next turn: its tool call answered, as `agent-clients.test.ts` sends it. */
const secondTurn = {
  ...firstTurn,
  messages: [
    ...firstTurn.messages,
    { role: 'assistant', content: [{ type: 'thinking', thinking: 'I will read it.', signature: 'sig' }, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/repo/README.md' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '# modelgate\nA gateway.' }, { type: 'text', text: REMINDER }] },
  ],
};
const { max_tokens: _maxTokens, stream: _stream, ...countTokensTurn } = secondTurn;

const chatWithEverything = {
  model: 'gpt-5',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: [{ type: 'text', text: 'What is in these?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }, { type: 'file', file: { filename: 'a.pdf', file_data: `data:application/pdf;base64,${PDF_BASE64}` } }] },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    { role: 'tool', tool_call_id: 'call_1', content: '18 C, sunny' },
  ],
  tools: CHAT_TOOLS,
};

const RECORDED: [string, BoundedInterface, Record<string, unknown>][] = [
  ['codex turn 1', 'responses.create', codex('turn1')],
  ['codex turn 1 (fallback metadata)', 'responses.create', codex('turn1-fallback-metadata')],
  ['codex turn 2', 'responses.create', codex('turn2-after-function-call')],
  ['codex turn 3', 'responses.create', codex('turn3-after-custom-tool-call')],
  ['codex turn 3 counted', 'responses.input_tokens', codex('turn3-after-custom-tool-call')],
  ['agent first turn', 'messages', firstTurn as unknown as Record<string, unknown>],
  ['agent second turn', 'messages', secondTurn as unknown as Record<string, unknown>],
  ['agent second turn counted', 'messages.count_tokens', countTokensTurn as unknown as Record<string, unknown>],
  ['chat with image, file and tools', 'chat.completions', chatWithEverything],
];

describe('recorded requests within the default bounds', () => {
  it.each(RECORDED)('%s passes', (_name, api, body) => {
    expect(checkRequestBounds(api, body)).toBeUndefined();
  });

  it.each(RECORDED)('%s measures below every default', (_name, _api, body) => {
    const measured = measureRequest(body);
    const bounds = DEFAULT_REQUEST_BOUNDS;
    expect(measured.items).toBeLessThanOrEqual(bounds.maxMessages);
    expect(measured.parts).toBeLessThanOrEqual(bounds.maxContentParts);
    expect(measured.tools).toBeLessThanOrEqual(bounds.maxTools);
    expect(measured.longestName).toBeLessThanOrEqual(bounds.maxNameLength);
    expect(measured.longestText).toBeLessThanOrEqual(bounds.maxTextLength);
    expect(measured.depth).toBeLessThanOrEqual(bounds.maxDepth);
    expect(String(body.model).length).toBeLessThanOrEqual(bounds.maxModelLength);
  });

  it('fails the tightest bounds the measures allow, by one', () => {
    // The measures above are what the walk sees: one less than measured on a bound fails the request.
    const body = codex('turn3-after-custom-tool-call');
    const measured = measureRequest(body);
    expect(checkRequestBounds('responses', body, { maxDepth: measured.depth })).toBeUndefined();
    expect(checkRequestBounds('responses', body, { maxDepth: measured.depth - 1 })).toMatchObject({ bound: 'maxDepth' });
    expect(checkRequestBounds('responses', body, { maxMessages: measured.items - 1 })).toMatchObject({ bound: 'maxMessages' });
    expect(checkRequestBounds('responses', body, { maxTools: measured.tools - 1 })).toMatchObject({ bound: 'maxTools' });
    expect(checkRequestBounds('responses', body, { maxTextLength: measured.longestText - 1 })).toMatchObject({ bound: 'maxTextLength' });
  });
});
