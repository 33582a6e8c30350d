/** Bad flags or arguments given by the user: exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A bad configuration file (sweep file, path template): exit code 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** An output that could not be written (its folder cannot be made, no rights, no space): exit code 2. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}
