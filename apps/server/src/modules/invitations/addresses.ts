/**
 * One mailbox's canonical address: lower case, no `+tag`, and for Gmail no dots, so that
 * a.b+x@gmail.com and ab@googlemail.com count as the same person.
 */
export function canonicalEmail(email: string): string {
  const [local = '', domain = ''] = email.trim().toLowerCase().split('@');
  const untagged = local.split('+')[0] ?? '';
  if (domain === 'gmail.com' || domain === 'googlemail.com')
    return `${untagged.replace(/\./g, '')}@gmail.com`;
  return `${untagged}@${domain}`;
}

/** An address as the invitations list shows it: `ab***@qq.com`. */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const shown = local.length > 2 ? local.slice(0, 2) : local.slice(0, 1);
  return `${shown}***@${domain}`;
}
