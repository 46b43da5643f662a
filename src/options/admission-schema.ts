/**
 * Schema of the `admission` option.
 *
 * @internal
 */
import type { z } from 'zod';
import type { ShutdownOptions } from '../lifecycle/shutdown.js';
import type { AdmissionOptions } from '../routing/admission-options.js';
import { type Assert, int, optionsObject, type SameOptions, timerMs } from './option-schemas.js';

export const admissionSchema = optionsObject(
  {
    maxInFlight: int(1, 1_000_000, 'model calls (requests and open streams) this instance serves at once'),
    maxPerPrincipal: int(1, 1_000_000, 'model calls one principal holds at once').optional(),
    queueMs: timerMs('the longest wait for a free place').optional(),
    maxQueued: int(0, 1_000_000, 'calls waiting for a place at once').optional(),
  },
  'an `admission`',
  '`{ maxInFlight: number, maxPerPrincipal?: number, queueMs?: number, maxQueued?: number }`',
);

type _AdmissionOptions = Assert<SameOptions<z.input<typeof admissionSchema>, AdmissionOptions>>;

export const shutdownOptionsSchema = optionsObject(
  { graceMs: timerMs('how long calls in progress may still run').optional() },
  'a `shutdown`',
  '`{ graceMs?: number }`',
);

type _ShutdownOptions = Assert<SameOptions<z.input<typeof shutdownOptionsSchema>, ShutdownOptions>>;
