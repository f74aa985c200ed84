import type { LoginRequest } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { openPage } from '../../../lib/page.ts';
import { saveSessionForNextPage } from '../../../lib/session.ts';
import { login } from '../api/login.ts';
import { ModeForm } from './mode-form.tsx';
import { PasswordField, TextField } from './text-field.tsx';
import { useFieldRules } from './use-field-rules.ts';
import { useFormFields } from './use-form-fields.ts';

interface Props {
  initialEmail: string;
  onEmailChange: (email: string) => void;
  onForgotPassword: () => void;
}

/** Sign-in: e-mail and password; success opens the console (spec section 4). */
export function LoginForm({ initialEmail, onEmailChange, onForgotPassword }: Props) {
  const { t } = useTranslation('login');
  const rules = useFieldRules();
  const form = useFormFields<LoginRequest>({
    name: 'login',
    initialValues: { email: initialEmail, password: '' },
    checks: { email: rules.email, password: rules.currentPassword },
  });

  async function submit({ email, password }: LoginRequest) {
    saveSessionForNextPage(await login({ email: email.trim(), password }));
    openPage('/buy');
  }

  return (
    <ModeForm
      form={form}
      name="login"
      onEmailChange={onEmailChange}
      submitLabel={t('login.submit')}
      submit={submit}
    >
      <TextField
        {...form.bind('email')}
        label={t('fields.email')}
        type="email"
        autoComplete="username"
        inputMode="email"
      />
      <PasswordField
        {...form.bind('password')}
        label={t('fields.password')}
        autoComplete="current-password"
      />
      <div className="login__forgot">
        <button type="button" className="login__forgot-button" onClick={onForgotPassword}>
          {t('login.forgot')}
        </button>
      </div>
    </ModeForm>
  );
}
