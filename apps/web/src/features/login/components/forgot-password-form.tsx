import { useState } from 'react';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { resetPassword } from '../api/reset-password.ts';
import { CodeAndPasswordFields } from './code-and-password-fields.tsx';

interface ForgotValues {
  email: string;
  email_code: string;
  password: string;
  confirm: string;
}

interface Props {
  initialEmail: string;
  onEmailChange: (email: string) => void;
  /** After the reset: back to sign-in with this address filled in. */
  onDone: (email: string) => void;
}

/** Forgotten password: e-mail, code, new password twice. */
export function ForgotPasswordForm({ initialEmail, onEmailChange, onDone }: Props) {
  const { t } = useTranslation('login');
  const [form] = Form.useForm<ForgotValues>();
  const [pending, setPending] = useState(false);

  async function submit({ email, email_code, password }: ForgotValues) {
    setPending(true);
    try {
      const address = email.trim();
      showSuccess(
        await resetPassword({ email: address, email_code: email_code.trim(), password }),
        MESSAGE_SECONDS,
      );
      onDone(address);
    } catch {
      setPending(false);
    }
  }

  return (
    <Form
      form={form}
      name="forgot-password"
      layout="vertical"
      requiredMark={false}
      validateTrigger="onBlur"
      initialValues={{ email: initialEmail }}
      onValuesChange={(changed: Partial<ForgotValues>) => {
        if (changed.email !== undefined) onEmailChange(changed.email);
      }}
      onFinish={(values) => void submit(values)}
    >
      <CodeAndPasswordFields
        form={form}
        scene="forget"
        passwordLabel={t('fields.newPassword')}
        confirmLabel={t('fields.confirmNew')}
      />
      <Button type="primary" htmlType="submit" block loading={pending}>
        {t('forgot.submit')}
      </Button>
    </Form>
  );
}
