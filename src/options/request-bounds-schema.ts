/**
 * Schema of the `requestBounds` option.
 *
 * @internal
 */
import type { z } from 'zod';
import type { RequestBoundsOptions } from '../bounds/request-bounds-options.js';
import { type Assert, int, optionsObject, type SameOptions } from './option-schemas.js';

const count = (meaning: string) => int(1, Number.MAX_SAFE_INTEGER, meaning).optional();

export const requestBoundsSchema = optionsObject(
  {
    maxModelLength: count('characters of a `model` id'),
    maxMessages: count('messages or input items in one request'),
    maxContentParts: count('content parts in one request'),
    maxTools: count('tool definitions in one request'),
    maxNameLength: count('characters of a tool or function name, or a stored item id'),
    maxTextLength: count('characters of one text string'),
    maxDepth: count('levels of nesting in a request body'),
    maxObjectKeys: count('keys of one object in a request body'),
    maxItemReferences: count('stored items referenced by one Responses request'),
    maxResolvedInputBytes: count('bytes of a Responses input once stored items are resolved'),
  },
  'a `requestBounds`',
  '`{ maxModelLength?, maxMessages?, maxContentParts?, maxTools?, maxNameLength?, maxTextLength?, maxDepth?, maxObjectKeys?, maxItemReferences?, maxResolvedInputBytes? }` (numbers)',
);

type _RequestBoundsOptions = Assert<SameOptions<z.input<typeof requestBoundsSchema>, RequestBoundsOptions>>;
