import { Form, Input, Space } from 'antd';
import type { ChangeEmailRequest } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { EmailCodeButton } from '../../../components/email-code-button.tsx';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useChangeEmail } from '../api/change-email.ts';
import { sendChangeEmailCode } from '../api/send-email-code.ts';
import { FormDialog } from '../../../components/form-dialog.tsx';

const CODE_PATTERN = /^\d{6}$/;

export function ChangeEmailDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['account', 'common']);
  const [form] = Form.useForm<ChangeEmailRequest>();
  const change = useChangeEmail();

  // Spec section 5: an empty address gives "please enter email", a malformed one "email format
  // incorrect", both from the field's own rules.
  async function sendCode() {
    const { email } = await form.validateFields(['email']);
    showSuccess(await sendChangeEmailCode(email), MESSAGE_SECONDS);
  }

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      name="change-email"
      title={t('email.title')}
      okText={t('email.submit')}
      form={form}
      pending={change.isPending}
      submit={(values) => change.mutateAsync(values)}
    >
      <Form.Item
        name="email"
        label={t('email.email')}
        rules={[
          { required: true, message: t('common:validation.emailRequired') },
          { type: 'email', message: t('common:validation.emailInvalid') },
        ]}
      >
        <Input type="email" autoComplete="email" inputMode="email" />
      </Form.Item>
      <Form.Item label={t('email.code')}>
        <Space.Compact block>
          <Form.Item
            name="email_code"
            noStyle
            rules={[
              { required: true, message: t('common:validation.codeRequired') },
              { pattern: CODE_PATTERN, message: t('common:validation.codeInvalid') },
            ]}
          >
            <Input
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              aria-label={t('email.code')}
            />
          </Form.Item>
          <EmailCodeButton onSend={sendCode} />
        </Space.Compact>
      </Form.Item>
    </FormDialog>
  );
}
