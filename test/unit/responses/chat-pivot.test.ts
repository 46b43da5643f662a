/**
 * The chat pivot restores earlier thinking only from envelopes sealed for
 * the caller and the model it names, whether the reasoning comes back in
 * the input or from a stored response; every other envelope is left out
 * with one warning that does not say why.
 */
import { memoryResponseStore, type ResponseStore } from 'modelgate';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_REQUEST_BOUNDS } from '../../../src/bounds/request-bounds-options.js';
import { chatPivotOf } from '../../../src/responses/chat-pivot.js';
import { createReasoningSeal } from '../../../src/responses/reasoning-envelope.js';
import type { ResponseItem } from '../../../src/responses/response-store.js';
import type { ResponsesRuntime } from '../../../src/responses/responses-runtime.js';
import { createSignatureSeal } from '../../../src/responses/thought-signature-seal.js';
import type { ResponsesRequest } from '../../../src/schemas/responses-request.js';
import type { ChatThinkingBlock } from '../../../src/translate/messages-to-chat-response.js';
import { message, storedResponse } from '../../helpers/response-store-contract.js';

const MODEL = 'vendora-sonnet-4-6';
const BLOCKS: ChatThinkingBlock[] = [{ type: 'thinking', thinking: 'Call get_weather.', signature: 'EqQBCkYIBxgCKkDsig' }];
const seal = createReasoningSeal('zT5qN8vR1xK4mW7bC2jL9sY6dF3hG0pA');
const CALL = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' };
const OUTPUT = { type: 'function_call_output', call_id: 'call_1', output: 'Snow' };
const LEFT_OUT = (count: number) => new RegExp(`^reasoning: left out ${count} reasoning items? whose encrypted_content did not open here`);

let store: ResponseStore;
let runtime: ResponsesRuntime;

const reasoningItem = (id: string, sealed: string | null): ResponseItem => ({ id, type: 'reasoning', summary: [], encrypted_content: sealed });

beforeEach(() => {
  store = memoryResponseStore();
  runtime = { store, onStoreError: 'open', seal, signatures: createSignatureSeal(), builtInTools: 'drop' };
});

async function pivotFor(owner: string, body: Record<string, unknown>) {
  return chatPivotOf({ model: MODEL, ...body } as ResponsesRequest, { owner, responses: runtime, bounds: DEFAULT_REQUEST_BOUNDS });
}

/** The thinking blocks restored in front of the assistant turn, if any. */
function restored(pivot: Awaited<ReturnType<typeof pivotFor>>): unknown {
  const assistant = pivot.request.messages.find((entry) => entry.role === 'assistant') as { thinking_blocks?: unknown } | undefined;
  return assistant?.thinking_blocks;
}

/** The input of a stateless next turn carrying `reasoning` back. */
const statelessInput = (...reasoning: ResponseItem[]) => [{ role: 'user', content: 'Weather in Oslo?' }, ...reasoning, CALL, OUTPUT];

describe('chatPivotOf: sealed reasoning', () => {
  it("restores the caller's own envelope for the model it was sealed for, without a warning", async () => {
    const pivot = await pivotFor('alice', { input: statelessInput(reasoningItem('rs_1', seal.seal(BLOCKS, { principal: 'alice', model: MODEL }))) });
    expect(restored(pivot)).toEqual(BLOCKS);
    expect(pivot.warnings.some((warning) => warning.startsWith('reasoning: left out'))).toBe(false);
  });

  it("leaves out another caller's envelope, one for another model and a forged one, with one warning counting them", async () => {
    const forBob = seal.seal(BLOCKS, { principal: 'bob', model: MODEL });
    const forOtherModel = seal.seal(BLOCKS, { principal: 'alice', model: 'vendora-opus-4-6' });
    const forged = `${seal.seal(BLOCKS, { principal: 'alice', model: MODEL }).slice(0, -2)}AA`;
    const pivot = await pivotFor('alice', { input: statelessInput(reasoningItem('rs_1', forBob), reasoningItem('rs_2', forOtherModel), reasoningItem('rs_3', forged)) });
    expect(restored(pivot)).toBeUndefined();
    expect(pivot.warnings.filter((warning) => LEFT_OUT(3).test(warning))).toHaveLength(1);
  });

  it('says nothing of envelopes for reasoning that never had one (unsigned)', async () => {
    const pivot = await pivotFor('alice', { input: statelessInput(reasoningItem('rs_1', null)) });
    expect(pivot.warnings.some((warning) => warning.startsWith('reasoning: left out'))).toBe(false);
  });

  it('binds stored reasoning too: a previous_response_id continued with another model leaves it out', async () => {
    const sealed = seal.seal(BLOCKS, { principal: 'alice', model: MODEL });
    await store.put(storedResponse({ id: 'resp_1', owner: 'alice', input: [message('msg_1', 'Weather in Oslo?')], output: [reasoningItem('rs_1', sealed), CALL as ResponseItem] }));
    const same = await pivotFor('alice', { previous_response_id: 'resp_1', input: [OUTPUT] });
    expect(restored(same)).toEqual(BLOCKS);
    const other = await pivotFor('alice', { model: 'vendora-opus-4-6', previous_response_id: 'resp_1', input: [OUTPUT] });
    expect(restored(other)).toBeUndefined();
    expect(other.warnings.filter((warning) => LEFT_OUT(1).test(warning))).toHaveLength(1);
  });
});
