/** A configuration the example apps refuse to start with; the message names the variable to change. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
