import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@skyway/shared/languages';
import { assignableRoles, type StaffRole } from '@skyway/shared/staff';
import { ApiError } from '@skyway/shared/api-error';
import { when } from '../../../lib/format.ts';
import { Forbidden } from '../../../components/forbidden.tsx';
import { LANGUAGE_NAMES } from '../../../lib/i18n.ts';
import { PagedTable } from '../../../components/paged-table.tsx';
import { useCan, useSession } from '../../../lib/session.ts';
import { changeStaff } from '../api/change-staff.ts';
import { inviteStaff } from '../api/invite-staff.ts';
import { STAFF_KEY, type Staff, useStaff } from '../api/list-staff.ts';
import { resendInvitation } from '../api/resend-invitation.ts';

const STATUS_COLORS = { invited: 'blue', active: 'green', disabled: 'red' } as const;

/** Invites a member by mail: their address, role and the language of the mail and of their console. */
function InviteDialog({
  open,
  roles,
  onClose,
}: {
  open: boolean;
  roles: readonly StaffRole[];
  onClose: () => void;
}) {
  const { t } = useTranslation(['staff', 'common']);
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<{ email: string; role: StaffRole; language: Language }>();
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      title={t('inviteStaff')}
      okText={t('inviteStaff')}
      cancelText={t('common:cancel')}
      confirmLoading={busy}
      destroyOnHidden
      onCancel={onClose}
      onOk={async () => {
        const values = await form.validateFields();
        setBusy(true);
        try {
          await inviteStaff(values);
          message.success(t('inviteSent', { email: values.email }));
          await client.invalidateQueries({ queryKey: STAFF_KEY });
          onClose();
        } catch (error) {
          if (error instanceof ApiError && error.field)
            form.setFields([{ name: error.field as 'email', errors: [error.message] }]);
          else message.error(error instanceof Error ? error.message : String(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ role: roles.at(-1), language: 'zh' }}
      >
        <Form.Item
          name="email"
          label={t('common:email')}
          rules={[{ required: true, type: 'email', message: t('common:required') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="role" label={t('role')}>
          <Select options={roles.map((role) => ({ value: role, label: t(`common:role_${role}`) }))} />
        </Form.Item>
        <Form.Item name="language" label={t('staffLanguage')}>
          <Select
            options={LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The staff: who they are, their role and state; owners and admins invite and manage those below them. */
export function StaffPage() {
  const { t } = useTranslation(['staff', 'common']);
  const { message } = App.useApp();
  const can = useCan();
  const session = useSession();
  const client = useQueryClient();
  const [inviting, setInviting] = useState(false);
  const list = useStaff();
  if (!can('staff.view') || !session.data) return <Forbidden />;
  const me = session.data.staff;
  const roles = assignableRoles(me.role);
  const change = async (work: () => Promise<unknown>) => {
    try {
      await work();
      message.success(t('common:done'));
      await client.invalidateQueries({ queryKey: STAFF_KEY });
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };
  // The server decides; this hides what it would refuse: oneself, and anyone the member's role cannot assign.
  const manageable = (member: Staff) =>
    can('staff.manage') && member.id !== me.id && roles.includes(member.role);
  return (
    <>
      {can('staff.invite') && (
        <Button type="primary" style={{ marginBottom: 16 }} onClick={() => setInviting(true)}>
          {t('inviteStaff')}
        </Button>
      )}
      <PagedTable
        list={list}
        width={900}
        exportName="staff"
        columns={[
          { title: t('common:email'), dataIndex: 'email' },
          {
            title: t('role'),
            dataIndex: 'role',
            render: (role: StaffRole, member) =>
              manageable(member) ? (
                <Select
                  aria-label={`${t('role')} ${member.email}`}
                  size="small"
                  value={role}
                  style={{ width: 120 }}
                  options={roles.map((option) => ({ value: option, label: t(`common:role_${option}`) }))}
                  onChange={(next: StaffRole) => void change(() => changeStaff(member.id, { role: next }))}
                />
              ) : (
                t(`common:role_${role}`)
              ),
          },
          {
            title: t('common:status'),
            dataIndex: 'status',
            render: (status: Staff['status']) => (
              <Tag color={STATUS_COLORS[status]}>{t(`common:${status}`)}</Tag>
            ),
          },
          {
            title: t('staffLanguage'),
            dataIndex: 'language',
            render: (language: keyof typeof LANGUAGE_NAMES) => LANGUAGE_NAMES[language],
          },
          { title: t('common:createdAt'), dataIndex: 'created_at', render: when, sortsList: true },
          { title: t('common:lastLogin'), dataIndex: 'last_sign_in_at', render: when },
          {
            key: 'actions',
            render: (_, member) =>
              manageable(member) && (
                <Space>
                  {member.status === 'invited' && can('staff.invite') && (
                    <Button size="small" onClick={() => void change(() => resendInvitation(member.id))}>
                      {t('resendInvite')}
                    </Button>
                  )}
                  <Button
                    size="small"
                    danger={member.status !== 'disabled'}
                    onClick={() =>
                      void change(() => changeStaff(member.id, { disabled: member.status !== 'disabled' }))
                    }
                  >
                    {member.status === 'disabled' ? t('enable') : t('disable')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      <InviteDialog open={inviting} roles={roles} onClose={() => setInviting(false)} />
    </>
  );
}
