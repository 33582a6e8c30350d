import { describe, expect, it } from 'vitest';
import { loadTables } from '../../src/report/tables.js';

describe('run ids', () => {
  it('are unique over every shipped fixture, read as one folder', { timeout: 60_000 }, async () => {
    const tables = await loadTables(['fixtures'], {}, undefined);
    const ids = tables.runs.map((r) => String(r.run_id));
    expect(ids.length).toBeGreaterThan(200);
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated).toEqual([]);
  });
});
