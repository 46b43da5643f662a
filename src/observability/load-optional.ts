/**
 * Loads an optional peer dependency synchronously (`createGateway` is
 * synchronous), only when an option asks for it, so apps that do not use
 * it never need it installed.
 *
 * @internal
 */
import { createRequire } from 'node:module';

declare const require: NodeJS.Require | undefined;

function localRequire(): NodeJS.Require {
  // The CJS build has `require`; the ESM build (and the tests) resolve from this file.
  return typeof require === 'function' ? require : createRequire(import.meta.url);
}

/** `require(name)`, or a TypeError saying what to install and which option needs it. */
export function loadOptional<T>(name: string, option: string): T {
  try {
    return localRequire()(name) as T;
  } catch (cause) {
    throw new TypeError(`createGateway: the \`${option}\` option needs the "${name}" package; install it (npm install ${name}).`, { cause });
  }
}
