import { useTranslation } from 'react-i18next';
import { copyText } from './copy-text.ts';
import { ERROR_SECONDS, MESSAGE_SECONDS, showError, showSuccess } from './toast.ts';

/** Spec section 9's copy: "copy successful" for 1.5 s, or "copy failed" as an error. */
export function useCopy(): (text: string) => Promise<void> {
  const { t } = useTranslation();
  return async (text) => {
    if (await copyText(text)) showSuccess(t('copy.done'), MESSAGE_SECONDS);
    else showError(t('copy.failed'), ERROR_SECONDS);
  };
}
