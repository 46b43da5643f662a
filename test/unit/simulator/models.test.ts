import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../../src/simulator/index.js';
import { chatModelSchema, messagesErrorBodySchema, messagesModelListSchema, messagesModelSchema } from '../../../src/schemas/index.js';
import { send } from './support/simulator-calls.js';

describe('simulator model listing', () => {
  it('lists the twelve catalog models newest first in the vendor shape, 20 per page', async () => {
    const page = messagesModelListSchema.parse((await send(createSimulator().upstreams.messages, 'models.list')).json());
    expect(page.data).toHaveLength(12);
    expect(page.has_more).toBe(false);
    const dates = page.data.map((model) => model.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(page.first_id).toBe(page.data[0]?.id);
    expect(page.last_id).toBe(page.data[11]?.id);
  });

  it('pages with limit and after_id until has_more is false', async () => {
    const sim = createSimulator();
    const ids: string[] = [];
    let after: string | undefined;
    for (let guard = 0; guard < 10; guard += 1) {
      const query: Record<string, string> = { limit: '5', ...(after ? { after_id: after } : {}) };
      const page = messagesModelListSchema.parse((await send(sim.upstreams.messages, 'models.list', undefined, { query })).json());
      ids.push(...page.data.map((model) => model.id));
      if (!page.has_more) break;
      after = page.last_id ?? undefined;
    }
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
  });

  it('retrieves one model, 404 for an unknown id, in each face’s shape', async () => {
    const sim = createSimulator();
    const model = messagesModelSchema.parse((await send(sim.upstreams.messages, 'models.retrieve', undefined, { id: 'vendora-opus-5' })).json());
    expect(model.display_name).toBe('Vendora Opus 5');
    const missing = await send(sim.upstreams.messages, 'models.retrieve', undefined, { id: 'nope' });
    expect(missing.status).toBe(404);
    expect(messagesErrorBodySchema.parse(missing.json()).error.type).toBe('not_found_error');
    expect(chatModelSchema.parse((await send(sim.upstreams.chat, 'models.retrieve', undefined, { id: 'vendora-opus-5' })).json()).id).toBe('vendora-opus-5');
    const chatMissing = await send(sim.upstreams.chat, 'models.retrieve', undefined, { id: 'nope' });
    expect(chatMissing.status).toBe(404);
    expect((chatMissing.json() as { error: { code: string } }).error.code).toBe('model_not_found');
  });
});
