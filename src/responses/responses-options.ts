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
}
