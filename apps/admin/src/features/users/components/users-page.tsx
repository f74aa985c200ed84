import { Input, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { PagedTable } from '../../../components/paged-table.tsx';
import { useCan } from '../../../lib/session.ts';
import { type UserSummary, useUsers } from '../api/list-users.ts';

/** The account's state as a tag: disabled, or the kind of subscription it has. */
export function UserStatus({ user }: { user: Pick<UserSummary, 'disabled' | 'subscribe_type'> }) {
  const { t } = useTranslation(['users', 'common']);
  if (user.disabled) return <Tag color="red">{t('common:disabled')}</Tag>;
  return (
    <Tag color="green">{t(`common:subscribeType${user.subscribe_type}` as 'common:subscribeType1')}</Tag>
  );
}

/** Accounts, newest first, or those matching a search. */
export function UsersPage() {
  const { t } = useTranslation(['users', 'common']);
  const can = useCan();
  const [q, setQ] = useState('');
  const list = useUsers(q);
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
            title: t('common:email'),
            dataIndex: 'email',
            render: (email: string, user) => <Link to={`/users/${user.id}`}>{email}</Link>,
          },
          { title: t('inviteCode'), dataIndex: 'invite_code' },
          { title: t('common:createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
          { title: t('common:lastLogin'), dataIndex: 'last_login_at', render: when },
          { title: t('expireAt'), dataIndex: 'expire_at', render: when },
          { title: t('common:connections'), dataIndex: 'connections' },
          {
            title: t('common:status'),
            render: (_, user) => <UserStatus user={user} />,
            csv: (user) => (user.disabled ? 'disabled' : `subscribe_type ${user.subscribe_type}`),
          },
        ]}
      />
    </>
  );
}
