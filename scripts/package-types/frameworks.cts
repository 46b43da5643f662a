/** frameworks.mts's subpaths from a CommonJS file: the `.d.cts` declarations. */
import { expressGateway } from 'modelgate/express';
import { fastifyGateway } from 'modelgate/fastify';
import { koaGateway } from 'modelgate/koa';

export const mounts = [expressGateway({ auth: { keys: ['sk-app'] } }), koaGateway({ auth: { keys: ['sk-app'] } }), fastifyGateway] as const;
