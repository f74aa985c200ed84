import { type InputHTMLAttributes, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldBinding } from './use-form-fields.ts';

type InputAttributes = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'autoComplete' | 'inputMode' | 'maxLength'
>;

interface Props extends FieldBinding, InputAttributes {
  label: string;
  /** Beside the input, inside the field's box (a show-password button) or after it (a button). */
  addon?: ReactNode;
  className?: string;
}

/** A labelled input with its message below it, as the sign-in page's forms show them. */
export function TextField({
  id,
  name,
  value,
  error,
  onChange,
  onBlur,
  label,
  addon,
  className,
  ...input
}: Props) {
  const errorId = `${id}-error`;
  return (
    <div className={['login-field', error && 'login-field--invalid', className].filter(Boolean).join(' ')}>
      <label className="login-field__label" htmlFor={id}>
        {label}
      </label>
      <div className="login-field__control">
        <input
          {...input}
          id={id}
          name={name}
          className="login-field__input"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => onChange(event.target.value)}
          onBlur={onBlur}
        />
        {addon}
      </div>
      {error && (
        <div id={errorId} className="login-field__error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function EyeIcon({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
        d={
          open
            ? 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z'
            : 'M3 3l18 18M10.6 5.1A9.8 9.8 0 0 1 12 5c6.4 0 10 7 10 7a17 17 0 0 1-2.7 3.6M6.6 6.6C3.9 8.3 2 12 2 12s3.6 7 10 7a9.7 9.7 0 0 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2'
        }
      />
    </svg>
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordField(props: FieldBinding & { label: string; autoComplete: string }) {
  const { t } = useTranslation('login');
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      className="login-field--password"
      addon={
        <button
          type="button"
          className="login-field__reveal"
          aria-label={t('fields.showPassword')}
          aria-pressed={shown}
          onClick={() => setShown((now) => !now)}
        >
          <EyeIcon open={shown} />
        </button>
      }
    />
  );
}
