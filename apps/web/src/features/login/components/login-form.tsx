import { useState } from 'react';
import { Button, Form, Input } from 'antd';
import type { LoginRequest } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';
import { saveSessionForNextPage } from '../../../lib/session.ts';
import { login } from '../api/login.ts';
import { useFieldRules } from './use-field-rules.ts';

interface Props {
  initialEmail: string;
  onEmailChange: (email: string) => void;
  onForgotPassword: () => void;
}

/** Sign-in: e-mail and password; success opens the console (spec section 4). */
export function LoginForm({ initialEmail, onEmailChange, onForgotPassword }: Props) {
  const { t } = useTranslation('login');
  const [form] = Form.useForm<LoginRequest>();
  const rules = useFieldRules();
  const [pending, setPending] = useState(false);

  async function submit({ email, password }: LoginRequest) {
    setPending(true);
    try {
      saveSessionForNextPage(await login({ email: email.trim(), password }));
      openPage('/buy');
    } catch {
      // The api client has shown the server's message; the visitor may try again.
      setPending(false);
    }
  }

  return (
    <Form
      form={form}
      name="login"
      layout="vertical"
      requiredMark={false}
      validateTrigger="onBlur"
      initialValues={{ email: initialEmail }}
      onValuesChange={(changed: Partial<LoginRequest>) => {
        if (changed.email !== undefined) onEmailChange(changed.email);
      }}
      onFinish={(values) => void submit(values)}
    >
      <Form.Item name="email" label={t('fields.email')} rules={rules.email}>
        <Input type="email" autoComplete="username" inputMode="email" />
      </Form.Item>
      <Form.Item name="password" label={t('fields.password')} rules={rules.currentPassword}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <div className="login__forgot">
        <Button type="link" onClick={onForgotPassword}>
          {t('login.forgot')}
        </Button>
      </div>
      <Button type="primary" htmlType="submit" block loading={pending}>
        {t('login.submit')}
      </Button>
    </Form>
  );
}
