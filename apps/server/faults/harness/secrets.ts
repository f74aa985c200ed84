import { formsOf } from '../../src/testing/secret-forms.ts';

/**
 * Every secret this scenario file handed to or got from the instances (session tokens, cookies,
 * CSRF tokens, TOTP secrets, passwords, link and node tokens, keys), by label, so that the stack's
 * cleanup can fail the file when one of them is in any line an instance wrote. Six-digit mailed
 * codes are not searched for: every timestamp in the log holds digits like them.
 */
const secrets = new Map<string, string>();

/** Records a secret the suite created or was given; returns it. */
export function noteSecret(label: string, value: string): string {
  if (value) secrets.set(value, label);
  return value;
}

/** Each noted secret found in these lines, with the line it is in (cut short). */
export function secretsIn(lines: string[]): { label: string; line: string }[] {
  const found: { label: string; line: string }[] = [];
  for (const [value, label] of secrets) {
    const forms = formsOf(value);
    const line = lines.find((text) => forms.some((form) => text.includes(form)));
    // The failure names the line with the secret itself replaced by its label.
    const shown = forms.reduce((text, form) => text.replaceAll(form, `<${label}>`), line ?? '');
    if (line !== undefined) found.push({ label, line: shown.slice(0, 400) });
  }
  return found;
}
