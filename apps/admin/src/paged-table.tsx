import { Alert, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { PageList } from './use-page-list.ts';

/** A list the server pages, as every screen shows one: its refusal above it, if any, then the table. */
export function PagedTable<Item extends { id: string | number }>(props: {
  list: PageList<Item>;
  columns: ColumnsType<Item>;
  /** Narrower screens scroll the table sideways below this width. */
  width: number;
  testId?: string;
}) {
  const { list } = props;
  return (
    <>
      {list.error && <Alert type="error" title={list.error.message} style={{ marginBottom: 16 }} />}
      <Table<Item>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.items}
        pagination={list.pagination}
        columns={props.columns}
        scroll={{ x: props.width }}
        data-testid={props.testId}
      />
    </>
  );
}
