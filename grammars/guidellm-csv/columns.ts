import { lookupTable } from '../../src/core/cells.js';

/** The request statuses GuideLLM breaks its distributions and counts down by. */
export const STATUSES = ['successful', 'incomplete', 'errored'] as const;
export type Status = (typeof STATUSES)[number] | 'total';

/** The four cells of one distribution: `Mean`, `Median`, `Std Dev`, and the percentile list. */
export const DISTRIBUTION_STATS = ['mean', 'median', 'std', 'percentiles'] as const;
export type DistributionStat = (typeof DISTRIBUTION_STATS)[number];

/** A cell of one statistic of one metric's distribution over the requests of one status. */
export interface StatColumn {
  readonly kind: 'stat';
  readonly label: string;
  /** GuideLLM's metric key (`time_to_first_token_ms`, as its JSON names it), else the header's own words. */
  readonly metric: string;
  readonly status: Status;
  readonly stat: DistributionStat;
}

/** Any other cell: a request count, the strategy, a duration, a JSON dump of the configuration. */
export interface FieldColumn {
  readonly kind: 'field';
  readonly label: string;
  /** A FIELD name below (`successful`, `duration`, `args`, …), else the header's own words. */
  readonly name: string;
}

export type Column = StatColumn | FieldColumn;

export function isStat(column: Column | undefined): column is StatColumn {
  return column?.kind === 'stat';
}

/** A percentile list as Python prints one: `[0.41, 0.42, …]`. */
export function isList(cell: string): boolean {
  return cell.startsWith('[') && cell.endsWith(']');
}

const STATUS_WORDS: Readonly<Record<string, Status>> = lookupTable({ Successful: 'successful', Incomplete: 'incomplete', Errored: 'errored', Total: 'total' });

// ---- 0.2 / 0.3: one header row, `<Status> <metric field in words> <stat>`

/** `Successful Time to first token ms [min, 0.1, 1, 5, 10, 25, 75, 90, 95, 99, max]` */
const SINGLE_ROW_STAT = /^(Successful|Incomplete|Errored|Total) (.+) (mean|median|std dev|\[min(?:, [\d.]+)*, max\])$/;
const SINGLE_ROW_COUNT = /^(Successful|Incomplete|Errored|Total) Requests$/;
const SINGLE_ROW_STATS: Readonly<Record<string, DistributionStat>> = lookupTable({ mean: 'mean', median: 'median', 'std dev': 'std' });

/** The description and configuration columns of 0.2 / 0.3 and of the 0.4 development output class. */
const SINGLE_ROW_FIELDS: Readonly<Record<string, string>> = lookupTable({
  Name: 'name',
  Duration: 'duration',
  Args: 'args',
  Worker: 'worker',
  'Request Loader': 'request_loader',
  Profile: 'profile',
  Backend: 'backend',
  'Generator Data': 'generator_data',
});

/** 0.2 / 0.3 columns: a metric's words are its field name (`Time to first token ms` → `time_to_first_token_ms`). */
export function singleRowColumns(header: readonly string[]): Column[] {
  return header.map((text): Column => {
    const label = text.trim();
    const stat = SINGLE_ROW_STAT.exec(label);
    if (stat?.[1] && stat[2] && stat[3]) {
      const metric = stat[2].toLowerCase().replaceAll(' ', '_');
      return { kind: 'stat', label, metric, status: STATUS_WORDS[stat[1]] as Status, stat: SINGLE_ROW_STATS[stat[3]] ?? 'percentiles' };
    }
    const count = SINGLE_ROW_COUNT.exec(label);
    if (count?.[1]) return { kind: 'field', label, name: STATUS_WORDS[count[1]] as Status };
    return { kind: 'field', label, name: SINGLE_ROW_FIELDS[label] ?? label };
  });
}

// ---- 0.4+: three header rows, group / `[<Status> ]<units>` / statistic

const MULTI_ROW_STATS: Readonly<Record<string, DistributionStat>> = lookupTable({ Mean: 'mean', Median: 'median', 'Std Dev': 'std', Percentiles: 'percentiles' });

/** Group and units of the distributions benchlens reads → GuideLLM's metric key. */
const MULTI_ROW_METRICS: Readonly<Record<string, string>> = lookupTable({
  'Request Latency|Sec': 'request_latency',
  'Time to First Token|ms': 'time_to_first_token_ms',
  // the first content (non-reasoning) token, written after the first token since 2026
  'Time to First Output Token|ms': 'time_to_first_output_token_ms',
  'Time per Output Token|ms': 'time_per_output_token_ms',
  'Inter Token Latency|ms': 'inter_token_latency_ms',
  'Server Throughput|Requests/Sec': 'requests_per_second',
  'Server Throughput|Concurrency': 'request_concurrency',
  'Token Metrics|Input Tokens': 'prompt_token_count',
  'Token Metrics|Output Tokens': 'output_token_count',
  'Token Throughput|Input Tokens/Sec': 'prompt_tokens_per_second',
  'Token Throughput|Output Tokens/Sec': 'output_tokens_per_second',
  'Token Throughput|Total Tokens/Sec': 'tokens_per_second',
});

const MULTI_ROW_FIELDS: Readonly<Record<string, string>> = lookupTable({
  'Run Info|Run Index': 'run_index',
  'Run Info|Profile': 'profile',
  'Run Info|Backend': 'backend',
  'Benchmark|Strategy': 'strategy',
  'Timings|Duration': 'duration',
  'Request Counts|Successful': 'successful',
  'Request Counts|Incomplete': 'incomplete',
  'Request Counts|Errored': 'errored',
  'Request Counts|Total': 'total',
  'Runtime Info|Arguments': 'arguments',
});

/** 0.4+ columns from the three header rows (a row cut short reads as empty words). */
export function multiRowColumns(groups: readonly string[], names: readonly string[], units: readonly string[]): Column[] {
  return groups.map((g, i): Column => {
    const group = g.trim();
    const name = (names[i] ?? '').trim();
    const stat = MULTI_ROW_STATS[(units[i] ?? '').trim()];
    const label = [group, name, (units[i] ?? '').trim()].filter((w) => w !== '').join(' / ');
    if (!stat) return { kind: 'field', label, name: MULTI_ROW_FIELDS[`${group}|${name}`] ?? `${group}|${name}` };
    const [first = '', ...rest] = name.split(' ');
    const status = STATUS_WORDS[first];
    const metricUnits = status ? rest.join(' ') : name;
    const key = `${group}|${metricUnits}`;
    return { kind: 'stat', label, metric: MULTI_ROW_METRICS[key] ?? key, status: status ?? 'total', stat };
  });
}
