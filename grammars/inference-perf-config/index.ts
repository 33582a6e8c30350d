import type { Grammar } from '../../src/core/grammar.js';
import { NOT_MINE } from '../../src/core/grammar.js';
import { type BenchRecord, FieldMapBuilder } from '../../src/core/records.js';
import { addConfigFields } from './fields.js';
import { isMapValue, readConfig } from './yaml.js';

/** A top-level `load:` mapping (block style: its keys on the lines below)… */
const LOAD = /^load:[ \t]*(?:#.*)?\r?$/m;
/** …with its stages or the sweep that makes them, indented under it (or under a stage list item)… */
const STAGES = /^[ \t]+(?:-[ \t]+)?(?:stages|sweep):/m;
/** …beside another of the config's own sections: what a model server is asked, of which data, over which API. */
const SECTIONS = /^(?:server|api|data):/m;

/**
 * kubernetes-sigs/inference-perf's run configuration (README.md): the `config.yaml` a run is given
 * with `-c` and the resolved copy inference-perf writes beside its stage reports. One
 * ConfigRecord (origin `bench-config`, client `inference-perf`) with the model server, model, API
 * and data of every inference-perf stage report of its folder and the folders below.
 */
export const grammar: Grammar = {
  id: 'inference-perf-config',
  title: 'inference-perf run configuration (config.yaml)',
  readsLineText: true,
  detect({ head }) {
    if (!LOAD.test(head) || !STAGES.test(head) || !SECTIONS.test(head)) return NOT_MINE;
    return { score: 0.6, reason: 'inference-perf config: top-level load with stages or sweep, beside server/api/data' };
  },
  parse(source, sink) {
    const doc = readConfig(source, sink);
    if (doc === null || !isMapValue(doc.value.load)) return [];
    const builder = new FieldMapBuilder();
    addConfigFields(builder, doc.value, doc.line);
    if (builder.size === 0) return [];
    // the tool whose runs it describes: linking gives it to those only (link-runs.ts, linkBenchConfig)
    builder.set('client', 'inference-perf', doc.line);
    const record: BenchRecord = { kind: 'config', at: { file: source.path, line: doc.line, column: 1 }, origin: 'bench-config', fields: builder.fields, lines: builder.lines };
    return [record];
  },
};
