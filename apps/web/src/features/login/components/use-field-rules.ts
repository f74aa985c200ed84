import { EMAIL_CODE_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@skyway/shared/accounts';
import { useTranslation } from 'react-i18next';
import type { Check } from './use-form-fields.ts';

// The address pattern of antd's forms, which the console's dialogs check with.
const EMAIL_PATTERN =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}])|(([a-zA-Z\-0-9\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]+\.)+[a-zA-Z\u00A0-\uD7FF\uF900-\uFDCF\uFDF0-\uFFEF]{2,}))$/;
const EMAIL_MAX_LENGTH = 320;
const CODE_PATTERN = new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`);

/** The field checks of spec section 5, with the bounds the server enforces (packages/shared). */
export function useFieldRules() {
  const { t } = useTranslation('common');

  const email: Check<unknown> = (value) => {
    if (!value.trim()) return t('validation.emailRequired');
    if (value.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(value)) return t('validation.emailInvalid');
  };
  const code: Check<unknown> = (value) => {
    if (!value.trim()) return t('validation.codeRequired');
    if (!CODE_PATTERN.test(value)) return t('validation.codeInvalid');
  };
  // Sign-in asks only for a password: its length rules may have changed since it was chosen.
  const currentPassword: Check<unknown> = (value) => (value ? undefined : t('validation.passwordRequired'));
  const newPassword: Check<unknown> = (value) => {
    if (!value) return t('validation.passwordRequired');
    // Counted in characters, as a person counts them: an emoji is one.
    const length = [...value].length;
    if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return t('validation.passwordLength');
  };
  /** The second entry of a new password, which must equal the field `passwordField`. */
  const confirmPassword =
    <V>(passwordField: keyof V): Check<V> =>
    (value, values) => {
      if (!value) return t('validation.confirmRequired');
      if (value !== values[passwordField]) return t('validation.passwordMismatch');
    };

  return { email, code, currentPassword, newPassword, confirmPassword };
}
