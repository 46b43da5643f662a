/**
 * modelgate/testing: the embedded simulator of the upstream vendors, the
 * gateway's default upstream and a test double for your own integration.
 *
 * @example
 * import { createSimulator } from 'modelgate/testing';
 * const sim = createSimulator({ pace: { tokensPerSecond: 50, firstTokenMs: 200 } });
 * const { url, close } = await sim.listen();
 */
export { createSimulator } from './create-simulator.js';
export type {
  Fault,
  FaultRequestInfo,
  FaultRule,
  Pace,
  SeedFile,
  Simulator,
  SimulatorOptions,
  SimulatorServer,
} from './simulator-options.js';
export { FAULT_HEADER, parseFaultHeader } from './faults.js';
export { DEFAULT_SEED_FILES, createPdf } from './seed-files.js';
export { createMemoryFileStore } from './memory-file-store.js';
export type { MemoryFileStore } from './memory-file-store.js';
export {
  countTextTokens,
  countMessagesRequestTokens,
  countChatRequestTokens,
} from '../tokens/count-tokens.js';
