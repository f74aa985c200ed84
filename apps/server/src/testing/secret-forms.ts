/** Every form in which a secret could reach a log line: as is, URL-encoded, and every byte encoded. */
export const formsOf = (value: string) => [
  value,
  encodeURIComponent(value),
  [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
];
