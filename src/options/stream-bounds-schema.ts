/**
 * Schema of the `streamBounds` option.
 *
 * @internal
 */
import type { z } from 'zod';
import type { StreamBoundsOptions } from '../bounds/stream-bounds-options.js';
import { type Assert, int, optionsObject, type SameOptions, timerMs } from './option-schemas.js';

export const streamBoundsSchema = optionsObject(
  {
    maxBytes: int(0, Number.MAX_SAFE_INTEGER, 'bytes of one upstream event stream; 0 turns the bound off').optional(),
    maxDurationMs: timerMs('the longest time one stream may run').optional(),
  },
  'a `streamBounds`',
  '`{ maxBytes?: number, maxDurationMs?: number }`',
);

type _StreamBoundsOptions = Assert<SameOptions<z.input<typeof streamBoundsSchema>, StreamBoundsOptions>>;
