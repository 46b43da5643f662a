/** Declarations of `hostile-run.mjs` for the TypeScript suite. */
import type { GatewayOptions } from 'modelgate';
import type { HostileAnswer, HostileCase, HostileProfileName, HostileRequest, PackageParts } from './hostile-case-types.js';

export interface SentAnswer extends HostileAnswer {
  wallMs: number;
  /** The connection error's code, when there was no answer (status 0). */
  error?: string;
}

export interface CaseRun {
  answer: SentAnswer;
  wallMs: number;
  /** Longest block of this thread's event loop while the request was served, in CPU ms of the thread (wall ms where that cannot be read). */
  maxBlockMs: number;
  /** The same in wall ms (event-loop delay): includes time the thread waited for a core. */
  maxBlockWallMs: number;
  /** Whether `Object.prototype` gained or lost a property meanwhile. */
  prototypePolluted: boolean;
}

export declare const WARM_UP: readonly HostileRequest[];
export declare function blockBoundMs(hostileCase: HostileCase, bodyBytes: number): number;
export declare function profileOptions(name: HostileProfileName, parts: PackageParts): GatewayOptions;
export declare function requestHeaders(request: HostileRequest): Record<string, string>;
export declare function sendHostile(baseUrl: string, request: HostileRequest, options?: { body?: Uint8Array | string; signal?: AbortSignal }): Promise<SentAnswer>;
export declare function prepareServer(baseUrl: string, profileName: HostileProfileName): Promise<void>;
/** CPU time this thread has used, in ns (Linux), or undefined where that cannot be read. */
export declare function threadCpuNs(): number | undefined;
export declare function startBlockMonitor(): { stop(): { wallMs: number; cpuMs: number } };
export declare function runHostileCase(baseUrl: string, hostileCase: HostileCase, body: Uint8Array | string | undefined): Promise<CaseRun>;
export declare function answerProblems(hostileCase: HostileCase, answer: SentAnswer): string[];
