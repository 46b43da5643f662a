/**
 * Optional peer dependencies (Prometheus, the AWS credential chain, Google's
 * auth library): whether one is installed, and loading one synchronously
 * (`createGateway` is synchronous), only when an option asks for it, so apps
 * that do not use it never need it installed.
 *
 * @internal
 */
import { createRequire } from 'node:module';

// Resolves from the package itself (tsup shims `import.meta.url` in the CJS build).
const localRequire = (): NodeJS.Require => createRequire(import.meta.url);

/** `require(name)`, or a TypeError saying what to install and which option needs it. */
export function loadOptional<T>(name: string, option: string): T {
  try {
    return localRequire()(name) as T;
  } catch (cause) {
    throw new TypeError(`createGateway: the \`${option}\` option needs the "${name}" package; install it (npm install ${name}).`, { cause });
  }
}

/** True when the optional peer `name` can be resolved from the package. */
export function isInstalled(name: string): boolean {
  try {
    localRequire().resolve(name);
    return true;
  } catch {
    return false;
  }
}
