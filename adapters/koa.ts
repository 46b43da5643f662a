/** Koa adapter (issue 5). */
export {};
