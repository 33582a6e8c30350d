import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The `yaml` package, loaded when a YAML file is first read. The grammars are loaded by every
 * command and every scan worker thread, and loading the package (its CommonJS build, which Node
 * also scans for its exports) cost each of them some 100 ms: most scans read no YAML at all.
 */
export function yamlRuntime(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
