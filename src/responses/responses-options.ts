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
   * earlier thinking, which a client sends back on its next turn). Give every
   * instance behind one address the same secret, 32 characters or more;
   * default: a random one per process (sealed reasoning then reads only on
   * the instance that made it, and earlier thinking is dropped elsewhere).
   */
  reasoningSecret?: string;
}
