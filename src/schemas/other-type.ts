/**
 * A loose catch-all branch for unions discriminated on `type`.
 *
 * The vendor keeps adding block kinds (server-tool blocks such as
 * `server_tool_use` or `web_search_tool_result`, versioned server tools).
 * The gateway relays those untouched, so they must validate; but a
 * malformed *known* block must still fail on its own schema. The branch
 * therefore accepts any `type` string that is not in `known`.
 */
import { z } from 'zod';

/**
 * Marker put in the `params` of the issue this branch raises for a known
 * `type`, so `formatIssues` can ignore the branch when explaining a union
 * failure.
 * @internal
 */
export const OTHER_TYPE_MARKER = 'modelgate.otherType';

/**
 * A loose object whose `type` is any string except the `known` ones.
 * @internal
 */
export function otherTypeSchema(known: readonly string[]) {
  const knownSet = new Set(known);
  return z.looseObject({
    type: z.string().refine((type) => !knownSet.has(type), {
      // Aborting keeps zod from preferring this branch's (non-fatal) refinement
      // failure over the modelled branch's real issues in a union.
      abort: true,
      message: 'expected a block type this field does not model',
      params: { [OTHER_TYPE_MARKER]: true },
    }),
  });
}
