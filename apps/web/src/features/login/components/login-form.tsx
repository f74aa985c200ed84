import { Button, Form, Input } from 'antd';
import type { LoginRequest } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';
import { saveSessionForNextPage } from '../../../lib/session.ts';
import { login } from '../api/login.ts';
import { ModeForm } from './mode-form.tsx';
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

  async function submit({ email, password }: LoginRequest) {
    saveSessionForNextPage(await login({ email: email.trim(), password }));
    openPage('/buy');
  }

  return (
    <ModeForm
      form={form}
      name="login"
      initialEmail={initialEmail}
      onEmailChange={onEmailChange}
      submitLabel={t('login.submit')}
      submit={submit}
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
    </ModeForm>
  );
}
