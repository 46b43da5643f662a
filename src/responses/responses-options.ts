/**
 * Options of the Responses API endpoints (`/v1/responses`).
 */

export interface ResponsesOptions {
  /**
   * Built-in tools of the Responses API that no upstream here runs
   * (`web_search`, `file_search`, `code_interpreter`, `computer_use_preview`,
   * `image_generation`, `mcp`, `local_shell`, ...): `'drop'` (default) leaves
   * them out and names them in `x-modelgate-dropped-params`; `'reject'`
   * answers 400 naming the tool.
   */
  builtInTools?: 'drop' | 'reject';
  /**
   * The secret that seals reasoning items' `encrypted_content` (the model's
   * earlier thinking, which a client sends back on its next turn): random
   * characters, 32 or more (e.g. `openssl rand -base64 32`), the same on
   * every instance behind one address. An envelope opens only for the
   * principal and the model it was sealed for.
   *
   * To rotate, give a list, newest first: the first secret seals, every
   * listed one opens what it sealed; drop an old secret once the envelopes
   * it sealed are no longer needed (they are then left out, with a
   * warning). Default: a random secret per process (sealed reasoning then
   * reads only on the instance that made it, and is left out elsewhere).
   *
   * @example
   * reasoningSecret: [process.env.REASONING_SECRET!, process.env.REASONING_SECRET_PREVIOUS!]
   */
  reasoningSecret?: string | readonly string[];
  /**
   * Longest wait for one response store command (a read, a write, a quota
   * check), in ms. A command that takes longer counts as a failure. Applies
   * to every `responseStore`, built-in or custom. Default 1000.
   */
  storeTimeoutMs?: number;
  /**
   * After a response store command fails or times out, the store is left
   * alone for this many ms: reads answer 503 at once, writes are skipped, so
   * an outage costs one time-out, not one per request. Default 5000.
   */
  storeRetryMs?: number;
  /**
   * What a request that asks to store its response (`store` is not false)
   * gets while the response store is down:
   * `'open'` (default): answered all the same, not stored (`store: false`
   * in the Response, said in `x-modelgate-warnings`); `'closed'`: refused
   * with 503 and `retry-after` before the upstream is called. Reads a
   * request needs (`previous_response_id`, `item_reference`,
   * `GET /v1/responses/{id}`) answer 503 either way: nothing can stand in
   * for them. A write that fails after the answer was made leaves it
   * delivered, not stored, under both.
   */
  onStoreError?: 'open' | 'closed';
}
