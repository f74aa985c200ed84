import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Space, Spin, Table, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { formatBytes } from '@skyway/shared/bytes';
import { USER_SECTIONS, type UserSection } from '@skyway/shared/schemas/admin/users';
import { duration, money, when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { useCoded } from '../../../lib/use-coded.ts';
import { PagedTable } from '../../../components/paged-table.tsx';
import { useCan } from '../../../lib/session.ts';
import { adjustTime } from '../api/adjust-time.ts';
import { endUserSessions } from '../api/end-user-sessions.ts';
import { isUsersQuery, type UserDetail, useUser } from '../api/get-user.ts';
import { type SectionEntry as Entry, useUserSection } from '../api/list-user-section.ts';
import { setUserDisabled } from '../api/set-user-disabled.ts';
import { ReasonModal } from '../../../components/reason-modal.tsx';
import { UserStatus } from './users-page.tsx';

type Dialog = 'time' | 'access' | null;

const TAB_LABELS: Record<UserSection, string> = {
  ledger: 'tabLedger',
  orders: 'tabOrders',
  payments: 'tabPayments',
  sessions: 'tabSessions',
  invitations: 'tabInvitations',
  mail: 'tabMail',
  devices: 'tabDevices',
  fetches: 'tabFetches',
};

function useSectionColumns(): { [Kind in UserSection]: ColumnsType<Entry<Kind>> } {
  const { t } = useTranslation(['users', 'common']);
  const coded = useCoded();
  return {
    ledger: [
      { title: t('common:time'), dataIndex: 'created_at', render: when },
      { title: t('reason'), dataIndex: 'reason', render: (reason: string) => coded('ledger', reason) },
      { title: t('seconds'), dataIndex: 'seconds', render: duration },
      {
        title: t('common:connections'),
        dataIndex: 'connections',
        render: (value: number | null) => value ?? t('common:none'),
      },
      { title: t('expireAt'), dataIndex: 'to_expire_at', render: when },
    ],
    orders: [
      { title: t('common:order'), dataIndex: 'id' },
      { title: t('common:createdAt'), dataIndex: 'created_at', render: when },
      { title: t('common:period'), dataIndex: 'period', render: (period: string) => coded('period', period) },
      { title: t('common:connections'), dataIndex: 'connections' },
      { title: t('common:amount'), render: (_, order) => money(order.amount, order.currency) },
      { title: t('common:provider'), dataIndex: 'provider' },
      { title: t('common:status'), dataIndex: 'status', render: (status: string) => coded('order', status) },
      { title: t('common:paidAt'), dataIndex: 'paid_at', render: when },
    ],
    payments: [
      { title: t('common:time'), dataIndex: 'created_at', render: when },
      { title: t('common:order'), dataIndex: 'order_id' },
      { title: t('common:provider'), dataIndex: 'provider' },
      { title: t('common:providerReference'), dataIndex: 'provider_payment_id' },
      { title: t('common:amount'), render: (_, payment) => money(payment.amount, payment.currency) },
      {
        title: t('common:outcome'),
        dataIndex: 'outcome',
        render: (outcome: string) => coded('outcome', outcome),
      },
    ],
    sessions: [
      { title: t('common:createdAt'), dataIndex: 'created_at', render: when },
      { title: t('lastSeen'), dataIndex: 'last_seen_at', render: when },
      { title: t('expires'), dataIndex: 'expires_at', render: when },
      { title: t('revoked'), dataIndex: 'revoked_at', render: when },
    ],
    invitations: [
      { title: t('common:email'), dataIndex: 'email' },
      { title: t('common:createdAt'), dataIndex: 'created_at', render: when },
    ],
    mail: [
      { title: t('common:createdAt'), dataIndex: 'created_at', render: when },
      { title: t('common:template'), dataIndex: 'template' },
      { title: t('common:subject'), dataIndex: 'subject' },
      { title: t('common:status'), dataIndex: 'status', render: (status: string) => coded('mail', status) },
      { title: t('common:attempts'), dataIndex: 'attempts' },
      { title: t('common:sentAt'), dataIndex: 'sent_at', render: when },
    ],
    devices: [
      { title: t('slot'), dataIndex: 'position' },
      {
        title: t('deviceName'),
        dataIndex: 'name',
        render: (name: string | null) => name ?? t('common:none'),
      },
      {
        title: t('platform'),
        dataIndex: 'platform',
        render: (platform: string | null) => (platform ? coded('platform', platform) : t('common:none')),
      },
      { title: t('hwid'), dataIndex: 'hwid', render: (hwid: string | null) => hwid ?? t('common:none') },
      {
        title: t('common:status'),
        dataIndex: 'active',
        render: (active: boolean) =>
          active ? <Tag color="green">{t('slotActive')}</Tag> : <Tag>{t('slotInactive')}</Tag>,
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', render: when },
      { title: t('lastFetch'), dataIndex: 'last_fetch_at', render: when },
      {
        title: t('refusedAddresses'),
        dataIndex: 'refused',
        render: (refused: string[]) => (refused.length > 0 ? refused.join(', ') : t('common:none')),
      },
      { title: t('upload'), dataIndex: 'upload', render: formatBytes },
      { title: t('download'), dataIndex: 'download', render: formatBytes },
    ],
    fetches: [
      { title: t('common:time'), dataIndex: 'at', render: when },
      {
        title: t('slot'),
        render: (_, fetch) =>
          fetch.slot_name ? `${fetch.slot_position} · ${fetch.slot_name}` : fetch.slot_position,
      },
      { title: t('common:address'), dataIndex: 'ip', render: (ip: string | null) => ip ?? t('common:none') },
      {
        title: t('userAgent'),
        dataIndex: 'user_agent',
        ellipsis: true,
        render: (agent: string | null) => agent ?? t('common:none'),
      },
      { title: t('format'), dataIndex: 'format', render: (format: string) => coded('format', format) },
    ],
  };
}

/** One of the account's lists, a page at a time. */
function SectionTable<Kind extends UserSection>({ id, section }: { id: string; section: Kind }) {
  const columns = useSectionColumns()[section];
  const list = useUserSection(id, section);
  return <PagedTable list={list} columns={columns} width={800} testId={`section-${section}`} />;
}

/** What staff may do to the account, each with a reason. */
function UserActions({ user }: { user: UserDetail }) {
  const { t } = useTranslation(['users', 'common']);
  const { modal, message } = App.useApp();
  const can = useCan();
  const client = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const refresh = () => client.invalidateQueries({ predicate: (q) => isUsersQuery(q.queryKey) });
  const close = () => setDialog(null);
  return (
    <Space wrap>
      {can('users.adjust_time') && <Button onClick={() => setDialog('time')}>{t('adjustTime')}</Button>}
      {can('users.end_sessions') && (
        <Button
          onClick={() =>
            modal.confirm({
              title: t('endSessions'),
              content: t('endSessionsConfirm'),
              okText: t('common:confirm'),
              cancelText: t('common:cancel'),
              onOk: async () => {
                try {
                  await endUserSessions(user.id);
                  message.success(t('common:done'));
                  await refresh();
                } catch (error) {
                  message.error(error instanceof Error ? error.message : String(error));
                }
              },
            })
          }
        >
          {t('endSessions')}
        </Button>
      )}
      {can('users.disable') && (
        <Button danger={!user.disabled} onClick={() => setDialog('access')}>
          {user.disabled ? t('enableAccount') : t('disableAccount')}
        </Button>
      )}
      <ReasonModal
        open={dialog === 'time'}
        title={t('adjustTime')}
        hint={t('adjustTimeHint')}
        time
        onClose={close}
        onSubmit={async ({ days = 0, hours = 0, reason }) => {
          await adjustTime(user.id, { days, hours, reason });
          await refresh();
        }}
      />
      <ReasonModal
        open={dialog === 'access'}
        title={user.disabled ? t('enableAccount') : t('disableAccount')}
        hint={user.disabled ? undefined : t('disableHint')}
        onClose={close}
        onSubmit={async ({ reason }) => {
          await setUserDisabled(user.id, { disabled: !user.disabled, reason });
          await refresh();
        }}
      />
    </Space>
  );
}

/** An account's whole picture: its access, what staff may change, and its history. */
export function UserPage() {
  const { t } = useTranslation(['users', 'common']);
  const can = useCan();
  const { id = '' } = useParams();
  const result = useUser(id, can('users.view'));
  if (!can('users.view')) return <Forbidden />;
  if (result.error) return <Alert type="error" title={result.error.message} />;
  if (!result.data) return <Spin />;
  const user = result.data;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={user.email} extra={<UserActions user={user} />}>
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
          <Descriptions.Item label={t('common:status')}>
            <UserStatus user={user} />
          </Descriptions.Item>
          <Descriptions.Item label={t('expireAt')}>
            <span data-testid="expire-at">{when(user.expire_at)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('common:connections')}>
            {user.connections}
            {user.pending_connections !== null && (
              <Tag style={{ marginLeft: 8 }}>
                {user.pending_connections} · {t('pendingConnections', { time: when(user.pending_from) })}
              </Tag>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('autoRenew')}>
            {user.auto_renew ? t('common:yes') : t('common:no')}
          </Descriptions.Item>
          <Descriptions.Item label={t('common:createdAt')}>{when(user.created_at)}</Descriptions.Item>
          <Descriptions.Item label={t('common:lastLogin')}>{when(user.last_login_at)}</Descriptions.Item>
          <Descriptions.Item label={t('liveSessions')}>{user.live_sessions}</Descriptions.Item>
          <Descriptions.Item label={t('inviteCode')}>{user.invite_code}</Descriptions.Item>
          <Descriptions.Item label={t('invitedBy')}>
            {user.invited_by?.email ?? t('common:none')}
          </Descriptions.Item>
          <Descriptions.Item label={t('trial')}>
            {user.trial ? `${user.trial.minutes} min · ${when(user.trial.claimed_at)}` : t('common:none')}
          </Descriptions.Item>
          <Descriptions.Item label={t('common:language')}>{user.language}</Descriptions.Item>
          <Descriptions.Item label={t('accountId')}>{user.id}</Descriptions.Item>
        </Descriptions>
        {user.app_store.length > 0 && (
          <Table
            style={{ marginTop: 16 }}
            rowKey="original_transaction_id"
            size="small"
            pagination={false}
            title={() => t('appStore')}
            dataSource={user.app_store}
            columns={[
              { title: t('common:providerReference'), dataIndex: 'original_transaction_id' },
              { title: t('product'), dataIndex: 'product_id' },
              { title: t('common:connections'), dataIndex: 'connections' },
              { title: t('expires'), dataIndex: 'expires_at', render: when },
              {
                title: t('autoRenew'),
                dataIndex: 'auto_renew',
                render: (on: boolean) => (on ? t('common:yes') : t('common:no')),
              },
              { title: t('environment'), dataIndex: 'environment' },
            ]}
          />
        )}
      </Card>
      <Card>
        <Tabs
          destroyOnHidden
          items={USER_SECTIONS.map((section) => ({
            key: section,
            label: t(TAB_LABELS[section] as 'tabLedger'),
            children: <SectionTable id={user.id} section={section} />,
          }))}
        />
      </Card>
    </Space>
  );
}
