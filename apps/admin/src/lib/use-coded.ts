import { useTranslation } from 'react-i18next';

/** A value the server names by a code, in the member's language (the code itself when new). */
export function useCoded() {
  const { t } = useTranslation('common');
  return (prefix: string, code: string) => t(`${prefix}_${code}` as 'ledger_trial', { defaultValue: code });
}
