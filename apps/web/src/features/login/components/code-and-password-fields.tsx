import type { EmailCodeScene } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import { EmailCodeField } from './email-code-field.tsx';
import { PasswordField, TextField } from './text-field.tsx';
import { useFieldRules } from './use-field-rules.ts';
import { type FormFields, useFormFields } from './use-form-fields.ts';

/** The values of registration and of the password reset. */
export interface CodeAndPasswordValues {
  email: string;
  email_code: string;
  password: string;
  confirm: string;
}

/** The form state of registration and of the password reset; the confirmation follows the password. */
export function useCodeAndPasswordForm(name: string, initialEmail: string) {
  const rules = useFieldRules();
  return useFormFields<CodeAndPasswordValues>({
    name,
    initialValues: { email: initialEmail, email_code: '', password: '', confirm: '' },
    checks: {
      email: rules.email,
      email_code: rules.code,
      password: rules.newPassword,
      confirm: rules.confirmPassword('password'),
    },
    follows: { confirm: 'password' },
  });
}

interface Props {
  form: FormFields<CodeAndPasswordValues>;
  scene: Exclude<EmailCodeScene, 'email'>;
  passwordLabel: string;
  confirmLabel: string;
}

/**
 * The fields that registration and the password reset share: the address, its mailed code, and a
 * new password typed twice (spec section 5).
 */
export function CodeAndPasswordFields({ form, scene, passwordLabel, confirmLabel }: Props) {
  const { t } = useTranslation('login');
  return (
    <>
      <TextField
        {...form.bind('email')}
        label={t('fields.email')}
        type="email"
        autoComplete="username"
        inputMode="email"
      />
      <EmailCodeField {...form.bind('email_code')} form={form} scene={scene} label={t('fields.code')} />
      <PasswordField {...form.bind('password')} label={passwordLabel} autoComplete="new-password" />
      <PasswordField {...form.bind('confirm')} label={confirmLabel} autoComplete="new-password" />
    </>
  );
}
