/**
 * Puts the default voice where the app set no listener: the gateway's
 * `onError` (so every failure report, whichever part makes it, is heard),
 * `limits.onStoreFailure` (a limit store that fails open answers no
 * request with an error) and the health store's failures (it never fails
 * a request). On only when neither `logger` nor `onError` is
 * set; `logger: false` turns it off.
 *
 * @internal
 */
import type { GatewayError } from '../errors.js';
import type { GatewayOptions } from '../gateway-options.js';
import { routeUpstreams } from '../routing/routes.js';
import type { GatewayRequest } from '../types.js';
import { createDefaultVoice, type DefaultVoice, type DefaultVoiceOptions } from './default-voice.js';
import { classifyFailure, storeFailure } from './operational-failure.js';

/** What `onError` is given. */
export interface ErrorEvent {
  error: GatewayError;
  request: GatewayRequest;
  requestId: string;
}

/**
 * Reports an error response; `routeUpstream` is the request's route's only
 * upstream, when it has one. `callerDirected`: the caller steered the
 * upstream (the simulator's `x-simulator-*` fault controls), so the failure
 * is the caller's doing: the app's `onError` hears of it, the voice does not.
 */
export type ReportError = (event: ErrorEvent, routeUpstream: string | undefined, callerDirected?: boolean) => void;

/** The options the gateway's parts read, and how an error response is reported. */
export interface VoicedOptions {
  /** `given`, or a copy with the default voice as `onError` and `limits.onStoreFailure`. */
  options: GatewayOptions;
  /** The app's `onError`, the default voice, or nothing (`logger: false`, or a logger without `onError`). */
  reportError: ReportError | undefined;
  /** Stops listening to the stores (at `close`). */
  stop(): void;
}

const NOTHING_TO_STOP = (): void => {};

/** True when the gateway speaks on its own: no `logger` (nor `false`), no `onError`. */
export function usesDefaultVoice(options: GatewayOptions): boolean {
  return options.logger === undefined && options.onError === undefined;
}

function upstreamNames(options: GatewayOptions): string[] {
  return [...new Set((options.routes ?? []).flatMap(routeUpstreams).map((upstream) => upstream.name))];
}

/** Applies the default voice to `given` when it has no listener of its own (see the module comment). */
export function withDefaultVoice(given: GatewayOptions, voiceOptions: DefaultVoiceOptions = {}): VoicedOptions {
  const onError = given.onError;
  if (!usesDefaultVoice(given)) {
    return { options: given, reportError: onError === undefined ? undefined : (event) => onError(event), stop: NOTHING_TO_STOP };
  }
  const voice: DefaultVoice = createDefaultVoice(voiceOptions);
  const upstreams = upstreamNames(given);
  const reportError: ReportError = ({ error }, routeUpstream, callerDirected) => {
    if (callerDirected === true) return;
    const failure = classifyFailure(error, { upstreams, routeUpstream });
    if (failure) voice(failure);
  };
  const options: GatewayOptions = { ...given, onError: (event) => reportError(event, undefined) };
  if (given.limits && given.limits.onStoreFailure === undefined) {
    options.limits = { ...given.limits, onStoreFailure: (error) => voice(storeFailure('limit store', error)) };
  }
  const health = given.routing?.health;
  const unwatch = health ? health.onFailure?.((failure) => voice(storeFailure('health store', failure))) : undefined;
  return { options, reportError, stop: unwatch ?? NOTHING_TO_STOP };
}
