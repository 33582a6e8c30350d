/** Bad flags or arguments given by the user: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A bad configuration file (sweep file, path template): exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
