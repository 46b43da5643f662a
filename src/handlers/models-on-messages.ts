/**
 * The models a caller may use on `/v1/messages`, as its 404 names them.
 *
 * @internal
 */
import { isModelAllowed } from '../auth/allowed-models.js';
import type { GatewayRuntime } from '../gateway-runtime.js';
import type { Principal } from '../types.js';

/** The listed ids the messages interface serves that `principal` may call, newest first. */
export function modelsOnMessages(runtime: Pick<GatewayRuntime, 'servedModels'>, principal: Principal | undefined): string[] {
  return runtime.servedModels.listed.filter((model) => model.messages && isModelAllowed(principal, model.id)).map((model) => model.id);
}
