import { Badge, Card, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { CustomerNode } from '@skyway/shared/schemas/node-status';
import { useTranslation } from 'react-i18next';
import { BuyFirst } from '../../../components/buy-first.tsx';
import { useCountryName } from '../../../lib/country-name.ts';
import { usePageMeta } from '../../../lib/page-meta.ts';
import { useNodeStatus } from '../api/node-status.ts';

/** How busy a machine reads from its 1-minute load average: below one, at about one, above two. */
export function loadLevel(load: number): 'light' | 'busy' | 'heavy' {
  if (load < 1) return 'light';
  return load < 2 ? 'busy' : 'heavy';
}

const LEVEL_STATUS = { light: 'success', busy: 'warning', heavy: 'error' } as const;

/**
 * Node status (PRODUCT.md section 11): the servers the customer's subscription may use, with their
 * region, whether they are online and how busy they are; never an address.
 */
export function NodeStatusPage() {
  const { t } = useTranslation(['nodes', 'common']);
  usePageMeta(t('title'));
  const status = useNodeStatus();
  const countryName = useCountryName();

  const list = status.data?.nodes;
  if (list === undefined) return <Card loading className="node-status-loading" />;

  if (list.length === 0) return <BuyFirst description={t('empty')} buy={t('buy')} />;

  const columns: ColumnsType<CustomerNode> = [
    { title: t('name'), dataIndex: 'name' },
    { title: t('region'), dataIndex: 'region', render: (region: string) => countryName(region) ?? region },
    {
      title: t('state'),
      dataIndex: 'online',
      render: (online: boolean) => (
        <Badge status={online ? 'success' : 'default'} text={online ? t('online') : t('offline')} />
      ),
    },
    {
      title: t('load'),
      dataIndex: 'load',
      render: (load: number | null) =>
        load === null ? (
          t('loadUnknown')
        ) : (
          <Badge
            status={LEVEL_STATUS[loadLevel(load)]}
            text={`${t(`level.${loadLevel(load)}`)} (${load.toFixed(2)})`}
          />
        ),
    },
  ];

  return (
    <Card title={t('title')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Table
        rowKey="name"
        columns={columns}
        dataSource={list}
        pagination={false}
        size="middle"
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
