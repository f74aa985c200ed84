import { DownloadOutlined } from '@ant-design/icons';
import { Alert, App, Button, Flex, Table, type TableProps } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { exportCsv } from '../lib/csv.ts';
import type { PageList } from '../lib/use-page-list.ts';

/**
 * A column of a paged list. Its CSV cell is `csv(item)`, else the raw value at `dataIndex`; a
 * column without a text title (actions) is left out of the file. `sortsList` marks the time column
 * that the server sorts the list by; `sortsBy`, a column of a list the server sorts by several (the
 * list's `sort` value for it; the list then sorts by its column, see `usePageList`'s `sorts`).
 */
export type ListColumn<Item> = ColumnType<Item> & {
  csv?: (item: Item) => string | number | null | undefined;
  sortsList?: true;
  sortsBy?: string;
};

function csvColumns<Item>(columns: ListColumn<Item>[]) {
  return columns
    .filter((column) => typeof column.title === 'string' && (column.csv || column.dataIndex))
    .map((column) => ({
      title: column.title as string,
      value: (item: Item) =>
        column.csv
          ? column.csv(item)
          : ((item as Record<string, unknown>)[String(column.dataIndex)] as string),
    }));
}

/** A list the server pages, as every screen shows one: its refusal above it, if any, then the table. */
export function PagedTable<Item extends { id: string | number }>(props: {
  list: PageList<Item>;
  columns: ListColumn<Item>[];
  /** Narrower screens scroll the table sideways below this width. */
  width: number;
  /** With a name, an export button saves the whole filtered list as `<name>-<date>.csv`. */
  exportName?: string;
  /** Rows that open onto more of the item. */
  expandable?: TableProps<Item>['expandable'];
  testId?: string;
}) {
  const { t } = useTranslation('common');
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const { list } = props;
  const sortedHere = (column: Pick<ListColumn<Item>, 'sortsBy' | 'sortsList'>) =>
    column.sortsBy ? column.sortsBy === list.sort : column.sortsList;
  const columns = props.columns.map(({ sortsBy, sortsList, ...column }) =>
    (sortsList || sortsBy) && list.order
      ? {
          ...column,
          sorter: true,
          sortOrder: sortedHere({ sortsBy, sortsList })
            ? list.order === 'asc'
              ? ('ascend' as const)
              : ('descend' as const)
            : null,
        }
      : column,
  );
  const save = async (name: string) => {
    setExporting(true);
    try {
      const rows = await exportCsv(name, list.path, list.filters, csvColumns(props.columns));
      message.success(t('exported', { count: rows }));
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      {list.error && <Alert type="error" title={list.error.message} style={{ marginBottom: 16 }} />}
      {props.exportName && (
        <Flex justify="flex-end" style={{ marginBottom: 8 }}>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void save(props.exportName ?? '')}
          >
            {t('exportCsv')}
          </Button>
        </Flex>
      )}
      <Table<Item>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.items}
        pagination={list.pagination}
        columns={columns}
        scroll={{ x: props.width }}
        data-testid={props.testId}
        expandable={props.expandable}
        onChange={(_pagination, _filters, sorter) => {
          const sorted = Array.isArray(sorter) ? sorter[0] : sorter;
          if (!sorted?.column) return;
          const sortsBy = props.columns.find((column) => column.key === sorted.columnKey)?.sortsBy;
          if (sortsBy) list.setSort(sortsBy);
          list.setOrder(sorted.order === 'ascend' ? 'asc' : 'desc');
        }}
        sortDirections={['descend', 'ascend', 'descend']}
      />
    </>
  );
}
