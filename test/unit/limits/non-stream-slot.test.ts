/**
 * A non-streamed call under a concurrency limit with no token or budget
 * rule holds its slot while its upstream call runs and frees it once the
 * call ends, whatever the end: an answer, an upstream error status, an
 * upstream that throws, a retry, the client leaving. The slot is read from
 * the outside by the next request (admitted or refused with 429), in memory
 * (here) and in a real Redis (non-stream-slot.redis.test.ts).
 */
import { describeNonStreamSlot } from './support/non-stream-slot-cases.js';

describeNonStreamSlot('memory', () => undefined);
