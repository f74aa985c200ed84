import {
  DownloadOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { Alert, App, Button, Card, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COUPON_STATUSES, type CouponStatus } from '@skyway/shared/coupons';
import type { COUPON_SORTS } from '@skyway/shared/schemas/admin/coupons';
import { EditButton } from '../../../components/edit-button.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { saveCsv } from '../../../lib/csv.ts';
import { money, when } from '../../../lib/format.ts';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import { type Coupon, type CouponFilters, COUPONS_KEY, setCouponStatus, useCoupons } from '../api/coupons.ts';
import { CouponModal } from './coupon-form.tsx';

type Sort = (typeof COUPON_SORTS)[number];

const STATUS_COLOR: Record<CouponStatus, string> = { active: 'green', paused: 'orange', ended: 'default' };

/** Undefined: closed; null: a new coupon. */
type Editing = Coupon | null | undefined;

/**
 * The coupons (优惠码) buyers enter on the buy page, for owners, admins and finance: filtered by
 * status and code, sorted by the server, with their uses and the revenue they took off; made,
 * changed, paused, resumed and ended here; saved as CSV as shown.
 */
export function CouponsPage() {
  const { t } = useTranslation(['coupons', 'common']);
  const can = useCan();
  const { modal } = App.useApp();
  const change = useChange(COUPONS_KEY);
  const [filters, setFilters] = useState<CouponFilters>({ sort: 'created_at', order: 'desc' });
  const [editing, setEditing] = useState<Editing>(undefined);
  const allowed = can('coupons.edit');
  const result = useCoupons(filters, allowed);
  if (!allowed) return <Forbidden />;

  const terms = (coupon: Coupon) =>
    coupon.kind === 'percent'
      ? t('percentTerms', { value: coupon.value })
      : t('fixedTerms', { amount: money(coupon.value, 'CNY') });
  const scope = (coupon: Coupon) =>
    [
      coupon.periods.length
        ? coupon.periods.map((period) => t(`period_${period}`)).join(' / ')
        : t('allPlans'),
      coupon.connections.length ? t('connectionsList', { list: coupon.connections.join(', ') }) : null,
      coupon.min_amount > 0 ? t('minimum', { amount: money(coupon.min_amount, 'CNY') }) : null,
      coupon.first_order_only ? t('firstOrderOnly') : null,
    ]
      .filter((part) => part !== null)
      .join(' · ');
  const caps = (coupon: Coupon) => `${coupon.max_uses ?? '∞'} / ${coupon.max_uses_per_user ?? '∞'}`;
  const sortOrder = (key: Sort) =>
    filters.sort === key ? (filters.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;

  const columns: ColumnsType<Coupon> = [
    { title: t('code'), dataIndex: 'code', key: 'code', sorter: true, sortOrder: sortOrder('code') },
    { title: t('terms'), key: 'terms', render: (_, coupon) => terms(coupon) },
    { title: t('scope'), key: 'scope', render: (_, coupon) => scope(coupon) },
    {
      title: t('validity'),
      key: 'validity',
      render: (_, coupon) => `${when(coupon.valid_from)} → ${when(coupon.valid_to)}`,
    },
    { title: t('caps'), key: 'caps', render: (_, coupon) => caps(coupon) },
    {
      title: t('uses'),
      key: 'uses',
      sorter: true,
      sortOrder: sortOrder('uses'),
      render: (_, coupon) => t('usesShown', { paid: coupon.uses_paid, held: coupon.uses_held }),
    },
    {
      title: t('discountTotal'),
      dataIndex: 'discount_total',
      key: 'discount_total',
      sorter: true,
      sortOrder: sortOrder('discount_total'),
      render: (fen: number) => money(fen, 'CNY'),
    },
    {
      title: t('status'),
      dataIndex: 'status',
      render: (status: CouponStatus) => <Tag color={STATUS_COLOR[status]}>{t(`status_${status}`)}</Tag>,
    },
    {
      title: t('createdAt'),
      dataIndex: 'created_at',
      key: 'created_at',
      sorter: true,
      sortOrder: sortOrder('created_at'),
      render: when,
    },
    {
      key: 'actions',
      fixed: 'right',
      render: (_, coupon) =>
        coupon.status === 'ended' ? null : (
          <Space size="small">
            <EditButton onClick={() => setEditing(coupon)} />
            {coupon.status === 'active' ? (
              <Button
                size="small"
                icon={<PauseCircleOutlined />}
                onClick={() => void change(() => setCouponStatus(coupon.id, 'pause'))}
              >
                {t('pause')}
              </Button>
            ) : (
              <Button
                size="small"
                icon={<PlayCircleOutlined />}
                onClick={() => void change(() => setCouponStatus(coupon.id, 'resume'))}
              >
                {t('resume')}
              </Button>
            )}
            <Button
              size="small"
              danger
              icon={<StopOutlined />}
              onClick={() =>
                modal.confirm({
                  title: t('endTitle', { code: coupon.code }),
                  content: t('endText'),
                  okText: t('end'),
                  okButtonProps: { danger: true },
                  cancelText: t('common:cancel'),
                  onOk: () => change(() => setCouponStatus(coupon.id, 'end')),
                })
              }
            >
              {t('end')}
            </Button>
          </Space>
        ),
    },
  ];

  const items = result.data?.items ?? [];
  const exportShown = () =>
    saveCsv('coupons', items, [
      { title: t('code'), value: (coupon) => coupon.code },
      { title: t('terms'), value: terms },
      { title: t('scope'), value: scope },
      { title: t('validFrom'), value: (coupon) => coupon.valid_from },
      { title: t('validTo'), value: (coupon) => coupon.valid_to },
      { title: t('maxUses'), value: (coupon) => coupon.max_uses },
      { title: t('maxUsesPerUser'), value: (coupon) => coupon.max_uses_per_user },
      { title: t('usesPaid'), value: (coupon) => coupon.uses_paid },
      { title: t('usesHeld'), value: (coupon) => coupon.uses_held },
      { title: t('discountTotal'), value: (coupon) => (coupon.discount_total / 100).toFixed(2) },
      { title: t('status'), value: (coupon) => t(`status_${coupon.status}`) },
      { title: t('createdAt'), value: (coupon) => coupon.created_at },
    ]);

  return (
    <Card
      title={t('coupons')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
          {t('addCoupon')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('couponsHint')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('searchCode')}
            aria-label={t('searchCode')}
            onSearch={(code) => setFilters((current) => ({ ...current, code: code.trim() || undefined }))}
            style={{ width: 220 }}
          />
          <Select<CouponStatus | 'all'>
            aria-label={t('status')}
            value={filters.status ?? 'all'}
            style={{ width: 160 }}
            options={[
              { value: 'all', label: t('allStatuses') },
              ...COUPON_STATUSES.map((status) => ({ value: status, label: t(`status_${status}`) })),
            ]}
            onChange={(status) =>
              setFilters((current) => ({ ...current, status: status === 'all' ? undefined : status }))
            }
          />
        </Space>
        <Button icon={<DownloadOutlined />} disabled={items.length === 0} onClick={exportShown}>
          {t('common:exportCsv')}
        </Button>
      </Space>
      {result.error && <Alert type="error" title={result.error.message} style={{ marginBottom: 16 }} />}
      {result.data?.more && <Alert type="info" title={t('more')} style={{ marginBottom: 16 }} />}
      <Table<Coupon>
        rowKey="id"
        size="small"
        loading={result.isFetching}
        pagination={false}
        dataSource={items}
        columns={columns}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('noCoupons') }}
        data-testid="coupons"
        sortDirections={['descend', 'ascend', 'descend']}
        onChange={(_pagination, _filters, sorter) => {
          const sorted = Array.isArray(sorter) ? sorter[0] : sorter;
          const key = sorted?.columnKey as Sort | undefined;
          if (key && sorted?.order)
            setFilters((current) => ({
              ...current,
              sort: key,
              order: sorted.order === 'ascend' ? 'asc' : 'desc',
            }));
        }}
      />
      {editing !== undefined && <CouponModal coupon={editing} onClose={() => setEditing(undefined)} />}
    </Card>
  );
}
