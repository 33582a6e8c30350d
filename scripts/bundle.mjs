// Bundles the command line and the scan worker into dist/bundle/ (npm run build, after tsc):
// one file per entry plus shared chunks, next to each other so the worker is found beside the
// pool. A bundled command starts faster than ~150 ES modules (issue 7); packages stay external.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

rmSync('dist/bundle', { recursive: true, force: true }); // no chunk of an earlier build left behind

await build({
  entryPoints: ['src/cli/main.ts', 'src/pipeline/scan-worker.ts'],
  outdir: 'dist/bundle',
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // commander and fast-glob (some 30 CommonJS files) are bundled: every command needs them at
  // start-up. So are Arquero, Vega and Vega-Lite, into the chunks only the commands that use them
  // load: as packages, Arquero's ~500 ES modules took 130–155 ms to load (25–30 ms bundled;
  // `benchlens table` writes CSV by default) and Vega's and Vega-Lite's ~700 about 0.13 s of a
  // `benchlens plot`. The rest stays external: native (resvg), loaded only by `run` (yaml), loaded
  // from its single-file build (chevrotain, src/parse/chevrotain-runtime.ts), or an optional
  // renderer Vega asks for and this project does not install (canvas).
  external: ['@resvg/resvg-js', 'yaml', 'chevrotain', 'canvas'],
  // bundled CommonJS calls require() for Node's own modules
  banner: { js: "import { createRequire as __benchlensRequire } from 'node:module'; const require = __benchlensRequire(import.meta.url);" },
  logLevel: 'warning',
});
