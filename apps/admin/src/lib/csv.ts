import type { Page } from '@skyway/shared/paging';
import { api, query } from './api-client.ts';
import { saveFile } from './download.ts';

/** At most this many rows go into one file: a narrower filter gets the rest. */
export const EXPORT_MAX_ROWS = 5_000;
const PAGE = 100;

export interface CsvColumn<Item> {
  title: string;
  value: (item: Item) => string | number | null | undefined;
}

/** A cell as spreadsheets read it: quoted when needed, and never taken for a formula. */
function cell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Saves a list as the member filtered it, as CSV (UTF-8 with a byte-order mark, so that a
 * spreadsheet shows Chinese as it is), fetched a page at a time through the same calls as the screen.
 */
export async function exportCsv<Item>(
  name: string,
  path: string,
  filters: Record<string, string | number | undefined>,
  columns: CsvColumn<Item>[],
): Promise<number> {
  const items: Item[] = [];
  for (let page = 1; items.length < EXPORT_MAX_ROWS; page++) {
    const found = await api<Page<Item>>('GET', `${path}${query({ ...filters, page, size: PAGE })}`);
    items.push(...found.items);
    if (found.items.length < PAGE) break;
  }
  saveCsv(name, items.slice(0, EXPORT_MAX_ROWS), columns);
  return Math.min(items.length, EXPORT_MAX_ROWS);
}

/** Saves rows already on the screen as CSV (UTF-8 with a byte-order mark), a line per item. */
export function saveCsv<Item>(name: string, items: Item[], columns: CsvColumn<Item>[]): void {
  const lines = [
    columns.map((column) => cell(column.title)).join(','),
    ...items.map((item) => columns.map((column) => cell(column.value(item))).join(',')),
  ];
  saveFile(name, 'csv', new Blob([`\uFEFF${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
}
