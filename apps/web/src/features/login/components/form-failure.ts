import { createContext, useCallback, useContext, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@skyway/shared/api-error';

/** Runs a call of the form; a failure is shown beside the form, then passed on. */
export type RunCall = <T>(call: () => Promise<T>) => Promise<T>;

export interface FormFailure {
  text: string;
  /** New for every failed call: the alert is then a new element, which a screen reader reads out. */
  key: number;
}

/**
 * The failure of a form's last call, to show next to it as well as in the api client's toast,
 * which is gone after 5 s: the server's msg (wrong password, account locked, code expired…).
 */
export function useFormFailure(): { failure: FormFailure | null; run: RunCall; clear: () => void } {
  const { t } = useTranslation('common');
  const [failure, setFailure] = useState<FormFailure | null>(null);
  const failures = useRef(0);
  const run = useCallback<RunCall>(
    async (call) => {
      setFailure(null);
      try {
        return await call();
      } catch (error) {
        failures.current += 1;
        const text = error instanceof ApiError ? error.message : t('errors.unknown');
        setFailure({ text, key: failures.current });
        throw error;
      }
    },
    [t],
  );
  const clear = useCallback(() => setFailure(null), []);
  return { failure, run, clear };
}

/** How a field inside a mode form (the get-code button) runs its call; outside one, plainly. */
export const FormCallContext = createContext<RunCall>((call) => call());

export const useFormCall = () => useContext(FormCallContext);
