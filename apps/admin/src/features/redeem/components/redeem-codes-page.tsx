import { PlusOutlined, StopOutlined } from '@ant-design/icons';
import { App, Button, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Forbidden } from '../../../components/forbidden.tsx';
import { PagedTable } from '../../../components/paged-table.tsx';
import { when } from '../../../lib/format.ts';
import { useCan } from '../../../lib/session.ts';
import { useChange } from '../../../lib/use-change.ts';
import {
  BATCHES_PATH,
  type RedeemBatch,
  type RedeemBatchFilters,
  revokeBatch,
  revokeCode,
  useRedeemBatches,
  useRedemptions,
} from '../api/redeem-batches.ts';
import { CreateBatchModal } from './create-batch-modal.tsx';
import { grantText } from './grant-text.ts';

/** A batch's redemptions: which account redeemed a code, when, and the order record it made. */
function RedemptionsModal(props: { batch: RedeemBatch; onClose: () => void }) {
  const { t } = useTranslation(['redeem', 'common']);
  const list = useRedemptions(props.batch.id);
  return (
    <Modal
      open
      width={760}
      title={t('redemptionsOf', { name: props.batch.name })}
      footer={null}
      onCancel={props.onClose}
    >
      <PagedTable
        list={list}
        width={700}
        exportName={`redemptions-${props.batch.id}`}
        testId="redemptions"
        columns={[
          { title: t('common:email'), dataIndex: 'email' },
          { title: t('account'), dataIndex: 'user_id' },
          { title: t('common:order'), dataIndex: 'id' },
          { title: t('redeemedAt'), dataIndex: 'redeemed_at', render: when },
        ]}
      />
    </Modal>
  );
}

/** One code to revoke, typed (or pasted) by the member: the server finds it by its hash. */
function RevokeCodeModal(props: { open: boolean; onClose: () => void; onRevoked: () => void }) {
  const { t } = useTranslation(['redeem', 'common']);
  const { message } = App.useApp();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const close = () => {
    setCode('');
    props.onClose();
  };
  const submit = async () => {
    setBusy(true);
    try {
      await revokeCode(code);
      message.success(t('codeRevoked'));
      props.onRevoked();
      close();
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={props.open}
      title={t('revokeCode')}
      onCancel={close}
      okText={t('revoke')}
      okButtonProps={{ danger: true, disabled: !code.trim(), loading: busy }}
      onOk={() => void submit()}
    >
      <Typography.Paragraph type="secondary">{t('revokeCodeHint')}</Typography.Paragraph>
      <Input
        aria-label={t('code')}
        placeholder="XXXX-XXXX-XXXX-XXXX-XXXX"
        value={code}
        autoComplete="off"
        onChange={(event) => setCode(event.target.value)}
      />
    </Modal>
  );
}

/**
 * Redeem codes (PRODUCT.md section 9): the batches with their uses, filtered by state and name and
 * sorted by any count; a new batch (its CSV saved at once, the one time it exists), a batch's
 * redemptions, and revoking a batch or a single code. For owners, admins and finance.
 */
export function RedeemCodesPage() {
  const can = useCan();
  return can('redeem.edit') ? <RedeemCodesScreen /> : <Forbidden />;
}

function RedeemCodesScreen() {
  const { t } = useTranslation(['redeem', 'common']);
  const { modal } = App.useApp();
  const [filters, setFilters] = useState<RedeemBatchFilters>({});
  const [dialog, setDialog] = useState<'create' | 'revokeCode' | null>(null);
  const [showing, setShowing] = useState<RedeemBatch | null>(null);
  const list = useRedeemBatches(filters);
  const change = useChange([BATCHES_PATH]);
  const refresh = () => void list.refetch();

  const confirmRevoke = (batch: RedeemBatch) =>
    modal.confirm({
      title: t('revokeBatchTitle', { name: batch.name }),
      content: t('revokeBatchHint', { count: batch.count - batch.redeemed - batch.revoked }),
      okText: t('revoke'),
      okButtonProps: { danger: true },
      onOk: () => change(() => revokeBatch(batch.id)),
    });

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('create')}>
          {t('newBatch')}
        </Button>
        <Button icon={<StopOutlined />} onClick={() => setDialog('revokeCode')}>
          {t('revokeCode')}
        </Button>
        <Select
          aria-label={t('common:status')}
          style={{ width: 160 }}
          value={filters.state ?? 'all'}
          onChange={(state: 'all' | 'active' | 'revoked') =>
            setFilters((current) => ({ ...current, state: state === 'all' ? undefined : state }))
          }
          options={[
            { value: 'all', label: t('stateAll') },
            { value: 'active', label: t('stateActive') },
            { value: 'revoked', label: t('stateRevoked') },
          ]}
        />
        <Input.Search
          allowClear
          placeholder={t('searchName')}
          style={{ width: 220 }}
          onSearch={(value) => setFilters((current) => ({ ...current, q: value.trim() || undefined }))}
        />
      </Space>
      <PagedTable
        list={list}
        width={1200}
        exportName="redeem-batches"
        testId="redeem-batches"
        columns={[
          { title: t('name'), key: 'name', dataIndex: 'name', sortsBy: 'name' },
          {
            title: t('grant'),
            key: 'grant',
            render: (_, batch) => grantText(t, batch.grant),
            csv: (batch) => grantText(t, batch.grant),
          },
          { title: t('count'), key: 'count', dataIndex: 'count', sortsBy: 'count' },
          { title: t('redeemed'), key: 'redeemed', dataIndex: 'redeemed', sortsBy: 'redeemed' },
          { title: t('revoked'), key: 'revoked', dataIndex: 'revoked' },
          {
            title: t('common:status'),
            key: 'state',
            render: (_, batch) =>
              batch.revoked_at ? (
                <Tag color="red">{t('stateRevoked')}</Tag>
              ) : (
                <Tag color="green">{t('stateActive')}</Tag>
              ),
            csv: (batch) => (batch.revoked_at ? t('stateRevoked') : t('stateActive')),
          },
          { title: t('createdBy'), key: 'created_by', dataIndex: 'created_by' },
          {
            title: t('common:createdAt'),
            key: 'created_at',
            dataIndex: 'created_at',
            render: when,
            sortsBy: 'created_at',
          },
          { title: t('note'), key: 'note', dataIndex: 'note' },
          {
            key: 'actions',
            render: (_, batch) => (
              <Space>
                <Button size="small" onClick={() => setShowing(batch)}>
                  {t('redemptions')}
                </Button>
                {!batch.revoked_at && (
                  <Button size="small" danger onClick={() => confirmRevoke(batch)}>
                    {t('revoke')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <CreateBatchModal open={dialog === 'create'} onClose={() => setDialog(null)} onCreated={refresh} />
      <RevokeCodeModal open={dialog === 'revokeCode'} onClose={() => setDialog(null)} onRevoked={refresh} />
      {showing && <RedemptionsModal batch={showing} onClose={() => setShowing(null)} />}
    </>
  );
}
