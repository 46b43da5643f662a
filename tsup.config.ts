import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    express: 'adapters/express.ts',
    koa: 'adapters/koa.ts',
    fastify: 'adapters/fastify.ts',
    fetch: 'adapters/fetch.ts',
    node: 'adapters/node-http.ts',
    testing: 'src/simulator/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  // CJS needs splitting too, or every CJS entry embeds its own copy of the core (egoist/tsup#408).
  splitting: true,
  clean: true,
  target: 'node20',
  // `import.meta.url` in the CJS build (optional peers are loaded with createRequire(import.meta.url)).
  shims: true,
  external: ['express', 'koa', 'fastify', 'fastify-plugin'],
});
