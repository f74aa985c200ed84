import { Input, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import type { userSummarySchema } from '@skyway/shared/schemas/admin/users';
import { when } from '../format.ts';
import { Forbidden } from '../layout.tsx';
import { PagedTable } from '../paged-table.tsx';
import { useCan } from '../session.ts';
import { usePageList } from '../use-page-list.ts';

export type UserSummary = z.infer<typeof userSummarySchema>;

/** The account's state as a tag: disabled, or the kind of subscription it has. */
export function UserStatus({ user }: { user: Pick<UserSummary, 'disabled' | 'subscribe_type'> }) {
  const { t } = useTranslation();
  if (user.disabled) return <Tag color="red">{t('disabled')}</Tag>;
  return <Tag color="green">{t(`subscribeType${user.subscribe_type}` as 'subscribeType1')}</Tag>;
}

/** Accounts, newest first, or those matching a search. */
export function UsersPage() {
  const { t } = useTranslation();
  const can = useCan();
  const [q, setQ] = useState('');
  const list = usePageList<UserSummary>('/users', { q }, { sortable: true });
  if (!can('users.view')) return <Forbidden />;
  return (
    <>
      <Input.Search
        allowClear
        enterButton={t('search')}
        placeholder={t('userSearchPlaceholder')}
        style={{ maxWidth: 520, marginBottom: 16 }}
        onSearch={(value) => setQ(value.trim())}
      />
      <PagedTable
        list={list}
        width={900}
        exportName="users"
        columns={[
          {
            title: t('email'),
            dataIndex: 'email',
            render: (email: string, user) => <Link to={`/users/${user.id}`}>{email}</Link>,
          },
          { title: t('inviteCode'), dataIndex: 'invite_code' },
          { title: t('createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
          { title: t('lastLogin'), dataIndex: 'last_login_at', render: when },
          { title: t('expireAt'), dataIndex: 'expire_at', render: when },
          { title: t('connections'), dataIndex: 'connections' },
          {
            title: t('status'),
            render: (_, user) => <UserStatus user={user} />,
            csv: (user) => (user.disabled ? 'disabled' : `subscribe_type ${user.subscribe_type}`),
          },
        ]}
      />
    </>
  );
}
