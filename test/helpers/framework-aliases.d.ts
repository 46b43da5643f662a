/**
 * Types for the aliased majors installed next to the current ones
 * (`express4` = express@4, `koa2` = koa@2, `fastify4` = fastify@4). Their APIs used here are the
 * same as the current majors', so the current type packages describe them.
 */
declare module 'express4' {
  import express from 'express';
  export default express;
}

declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}

declare module 'fastify4' {
  import fastify from 'fastify';
  export default fastify;
}
