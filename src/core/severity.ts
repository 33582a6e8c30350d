export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Lower rank sorts first and is more severe. */
export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}
