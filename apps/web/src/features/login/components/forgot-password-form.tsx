import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { resetPassword } from '../api/reset-password.ts';
import { EmailCodeField } from './email-code-field.tsx';
import { useFieldRules } from './use-field-rules.ts';

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
  const rules = useFieldRules();
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
      <Form.Item name="email" label={t('fields.email')} rules={rules.email}>
        <Input type="email" autoComplete="username" inputMode="email" />
      </Form.Item>
      <EmailCodeField form={form} scene="forget" label={t('fields.code')} />
      <Form.Item name="password" label={t('fields.newPassword')} rules={rules.newPassword}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('fields.confirmNew')}
        dependencies={['password']}
        rules={rules.confirmPassword('password')}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={pending}>
        {t('forgot.submit')}
      </Button>
    </Form>
  );
}
