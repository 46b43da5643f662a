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

function outputOf(record: StoredResponse): ResponseItem[] {
  const output = record.response.output;
  return Array.isArray(output) ? (output as ResponseItem[]) : [];
}

/** What a store keeps of a record that continues another: its own input items (the ones after the previous response's), the rest as is. */
export function linkedPart(record: StoredResponse): StoredResponse {
  const skip = record.previous?.items ?? 0;
  return skip === 0 ? record : { ...record, input: record.input.slice(skip) };
}

/**
 * The record as it was put, rebuilt from its chain as stored (`linkedPart`
 * of each), earliest first, the record itself last: every earlier
 * response's input and output, then its own input. The result shares the
 * items of `chain`.
 */
export function joinChain(chain: readonly StoredResponse[]): StoredResponse {
  const last = chain.at(-1);
  if (last === undefined) throw new TypeError('joinChain needs at least one record');
  if (chain.length === 1) return last;
  const input: ResponseItem[] = [];
  for (const record of chain.slice(0, -1)) input.push(...record.input, ...outputOf(record));
  const items = input.length;
  input.push(...last.input);
  return { ...last, input, previous: { id: chain.at(-2)!.id, items } };
}
