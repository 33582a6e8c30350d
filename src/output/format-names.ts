/** The table formats every command writes (`--format`). */
export const TABLE_FORMATS = ['csv', 'tsv', 'json', 'jsonl', 'md'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];
export type JsonFormat = 'json' | 'jsonl';

export function isTableFormat(value: string): value is TableFormat {
  return (TABLE_FORMATS as readonly string[]).includes(value);
}

export function isJsonFormat(format: TableFormat): format is JsonFormat {
  return format === 'json' || format === 'jsonl';
}
