import { Form, Input } from 'antd';
import type { ChangePasswordRequest } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { useChangePassword } from '../api/change-password.ts';
import { FormDialog } from '../../../components/form-dialog.tsx';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['account', 'common']);
  const [form] = Form.useForm<ChangePasswordRequest>();
  const change = useChangePassword();

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      name="change-password"
      title={t('password.title')}
      okText={t('password.submit')}
      form={form}
      pending={change.isPending}
      submit={(values) => change.mutateAsync(values)}
    >
      <Form.Item
        name="old_pwd"
        label={t('password.old')}
        rules={[{ required: true, message: t('common:validation.oldPasswordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="new_pwd"
        label={t('password.new')}
        rules={[
          { required: true, message: t('common:validation.newPasswordRequired') },
          { min: 8, max: 128, message: t('common:validation.passwordLength') },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </FormDialog>
  );
}
