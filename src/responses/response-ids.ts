/**
 * Ids of Responses and of their output items: a type prefix (`resp_`,
 * `msg_`, `fc_`, `rs_`, `ctc_`, and for input items `fco_`, `ctco_`, `item_`) and 192 random bits in hex. Random, not
 * derived from anything upstream, so an id reveals nothing and cannot be
 * guessed (stored responses are looked up by id).
 */
import { randomBytes } from 'node:crypto';

/** Random bytes per id: 24 bytes = 192 bits, 48 hex digits. */
const RANDOM_BYTES = 24;

function newId(prefix: string): string {
  return prefix + randomBytes(RANDOM_BYTES).toString('hex');
}

/** A Response id: `resp_` + 48 hex digits. */
export function newResponseId(): string {
  return newId('resp_');
}

/** An output message item id: `msg_` + 48 hex digits. */
export function newMessageItemId(): string {
  return newId('msg_');
}

/** A function call item id: `fc_` + 48 hex digits (not the `call_id`, which pairs a call with its output). */
export function newFunctionCallItemId(): string {
  return newId('fc_');
}

/** A reasoning item id: `rs_` + 48 hex digits. */
export function newReasoningItemId(): string {
  return newId('rs_');
}

/** A custom tool call item id: `ctc_` + 48 hex digits. */
export function newCustomToolCallItemId(): string {
  return newId('ctc_');
}

/** Id prefixes of the input item types a client may send without an id (`item_` for any other type). */
const INPUT_ITEM_PREFIXES: Readonly<Record<string, string>> = {
  message: 'msg_',
  function_call: 'fc_',
  function_call_output: 'fco_',
  custom_tool_call: 'ctc_',
  custom_tool_call_output: 'ctco_',
  reasoning: 'rs_',
};

/** An id for an input item of `type` that came without one (so a stored input can be listed). */
export function newInputItemId(type: string): string {
  return newId(INPUT_ITEM_PREFIXES[type] ?? 'item_');
}

/** A tool call id for an upstream call that came without one: `call_` + 48 hex digits. */
export function newCallId(): string {
  return newId('call_');
}
