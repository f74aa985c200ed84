import type { FormRule } from 'antd';
import { EMAIL_CODE_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';

const CODE_PATTERN = new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`);

/** The field rules of spec section 5, with the bounds the server enforces (packages/shared). */
export function useFieldRules() {
  const { t } = useTranslation('common');

  const email: FormRule[] = [
    { required: true, whitespace: true, message: t('validation.emailRequired') },
    { type: 'email', message: t('validation.emailInvalid') },
  ];
  const code: FormRule[] = [
    { required: true, whitespace: true, message: t('validation.codeRequired') },
    { pattern: CODE_PATTERN, message: t('validation.codeInvalid') },
  ];
  // Sign-in asks only for a password: its length rules may have changed since it was chosen.
  const currentPassword: FormRule[] = [{ required: true, message: t('validation.passwordRequired') }];
  const newPassword: FormRule[] = [
    { required: true, message: t('validation.passwordRequired') },
    { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH, message: t('validation.passwordLength') },
  ];
  /** The second entry of a new password, which must equal the field `passwordField`. */
  const confirmPassword = (passwordField: string): FormRule[] => [
    { required: true, message: t('validation.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: (_rule, value: unknown) =>
        !value || value === getFieldValue(passwordField)
          ? Promise.resolve()
          : Promise.reject(new Error(t('validation.passwordMismatch'))),
    }),
  ];

  return { email, code, currentPassword, newPassword, confirmPassword };
}
