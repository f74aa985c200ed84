import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCountdown } from './use-countdown.ts';

/** Spec section 9: a new code may be asked for 60 s after the last one was sent. */
export const EMAIL_CODE_COOLDOWN_SECONDS = 60;

/**
 * The get-code button's states (spec section 4): idle → disabled with a sending text → on success a
 * 60 s countdown, then idle; on failure idle at once. `onSend` rejects on failure (validation or
 * call); its errors are shown by the form or the api client already. Shared by the sign-in page's
 * own button and the console's antd one.
 */
export function useEmailCodeSender(onSend: () => Promise<unknown>) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const { remaining, start } = useCountdown();

  async function send() {
    setSending(true);
    try {
      await onSend();
      start(EMAIL_CODE_COOLDOWN_SECONDS);
    } catch {
      // Back to idle: the reason is on screen already.
    } finally {
      setSending(false);
    }
  }

  let label: string = t('emailCode.get');
  if (sending) label = t('emailCode.sending');
  else if (remaining > 0) label = t('emailCode.countdown', { seconds: remaining });

  return { label, disabled: sending || remaining > 0, send };
}
