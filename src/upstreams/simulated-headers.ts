/**
 * The response headers that mark an answer of the modelgate simulator, so
 * that a simulated answer is never taken for a model's: the simulator's
 * upstreams set them on every answer (errors included), and the gateway
 * relays them to its client.
 */

/** `x-modelgate-simulated: true` on every answer the simulator produced. */
export const SIMULATED_HEADER = 'x-modelgate-simulated';

/**
 * On a simulated answer for a model id that is not in the catalog but
 * within two edits of catalog ids: those ids, comma-separated
 * (`x-modelgate-did-you-mean: vendora-sonnet-4-6`).
 */
export const DID_YOU_MEAN_HEADER = 'x-modelgate-did-you-mean';
