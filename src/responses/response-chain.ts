/**
 * A conversation stored as links: each response keeps the items it added
 * (after those of the response it continued, `StoredResponse.previous`)
 * and the id of that response; its whole input is rebuilt from the chain
 * when read. What a conversation stores then grows linearly with its
 * turns. Shared by the built-in stores.
 *
 * @internal
 */
import type { ResponseItem, StoredResponse } from './response-store.js';

/** A record as a store keeps it: `linked` when its `input` holds only its own items (the earlier ones are its chain's). */
export type KeptRecord = StoredResponse & { linked?: true };

function outputOf(record: StoredResponse): ResponseItem[] {
  const output = record.response.output;
  return Array.isArray(output) ? (output as ResponseItem[]) : [];
}

/** The response `record` may be kept as a link to: its `previous`, when some of its input came from there. */
export function linkOf(record: StoredResponse): string | undefined {
  const previous = record.previous;
  return previous !== undefined && previous.items > 0 && previous.id !== record.id ? previous.id : undefined;
}

/** What a store keeps of a record that continues another (`linkOf`): its own input items (the ones after the previous response's). */
export function linkedPart(record: StoredResponse): KeptRecord {
  return { ...record, input: record.input.slice(record.previous?.items ?? 0), linked: true };
}

/**
 * The record as it was put, rebuilt from its chain as kept, earliest
 * first, the record itself last: every earlier response's input and
 * output, then its own input. Undefined when the chain does not start with
 * a record kept whole (its start is gone). The result shares the items of
 * `chain`.
 */
export function joinChain(chain: readonly KeptRecord[]): StoredResponse | undefined {
  const first = chain[0];
  const last = chain.at(-1);
  if (first === undefined || last === undefined || first.linked) return undefined;
  const { linked: _linked, ...record } = last;
  if (chain.length === 1) return record;
  const input: ResponseItem[] = [];
  for (const earlier of chain.slice(0, -1)) input.push(...earlier.input, ...outputOf(earlier));
  const items = input.length;
  input.push(...last.input);
  return { ...record, input, previous: { id: chain.at(-2)!.id, items } };
}
