/**
 * Types of the hostile-input catalogue (`hostile-cases.mjs`): adversarial
 * requests and the answer each must get, shared by the vitest suite and
 * the bench (which runs under plain node against a built package).
 */
import type { GatewayOptions } from 'modelgate';
import type { createSimulator } from 'modelgate/testing';
import type { memoryResponseStore } from 'modelgate';

/** The parts of the package a gateway setup needs: from the sources under vitest, from `dist/` in the bench. */
export interface PackageParts {
  memoryResponseStore: typeof memoryResponseStore;
  createSimulator: typeof createSimulator;
}

/** How a request authenticates: a bearer key, an `x-api-key`, or nothing. */
export type HostileAuth = 'bearer' | 'x-api-key' | 'none';

/** One HTTP request of a case (its own, a setup one or a background one). */
export interface HostileRequest {
  method: 'GET' | 'POST';
  path: string;
  /** Default `bearer` with the catalogue's key. */
  auth?: HostileAuth;
  /** Extra headers (lower-case names); `content-type: application/json` is sent unless one is given here. */
  headers?: Readonly<Record<string, string>>;
  /** Builds the body bytes (called once, before timing starts). None: no body. */
  body?: () => string | Uint8Array;
}

/** A gateway configuration the cases run on; its setup requests run once, after warming. */
export interface HostileProfile {
  /** Gateway options besides `auth` (the runner adds the catalogue's key). */
  options: (parts: PackageParts) => Omit<GatewayOptions, 'auth'>;
  /** Requests that prepare state (a stored response), each expected to answer 200. */
  setup?: readonly HostileRequest[];
}

/** The error body format of the interface called. */
export type ErrorFormat = 'openai' | 'messages';

/** What a case's answer must be. */
export interface HostileExpectation {
  /** The status, or the statuses a valid-but-odd request may get (e.g. 200 or 400). */
  status: number | readonly number[];
  /** The format an error answer (status ≥ 400) must be in. */
  format: ErrorFormat;
  /** A refused bound: the error's message or `param` names this field. */
  names?: string;
  /** A refused bound: the message states this bound (digits compared with separators removed). */
  bound?: number;
  /** Longest wall time of the request, in ms, when tighter than the runner's general bound (an answer "at once"). */
  maxWallMs?: number;
  /** Longest event-loop block while it is served, in ms, when the body-size rule (`blockBoundMs`) does not fit the work a valid request asks for. */
  maxBlockMs?: number;
  /** A response header that must be present and hold no CR or LF. */
  cleanHeader?: string;
}

/** One adversarial request and the answer it must get. */
export interface HostileCase extends HostileRequest {
  /** Unique, says what the request does. */
  name: string;
  /** Key of `HOSTILE_PROFILES`. */
  profile: HostileProfileName;
  /** Started before the case's request and aborted once it is answered (a call that holds an admission place). */
  background?: HostileRequest;
  expect: HostileExpectation;
  /** Among the worst: the runner checks the server stays responsive while it is served. */
  worst?: boolean;
}

export type HostileProfileName = 'default' | 'tokenLimit' | 'globRoute' | 'responseStore' | 'admission' | 'dropUnsupported';

/** A response as the runner received it. */
export interface HostileAnswer {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
}
