import { useId } from 'react';

/** The brand mark (the same drawing as public/favicon.svg) followed by the site's name. */
export function Logo({ name }: { name: string }) {
  const gradient = useId();
  return (
    <span className="logo">
      <svg className="logo__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#3b82f6" />
            <stop offset="1" stopColor="#1d4ed8" />
          </linearGradient>
        </defs>
        <rect width="64" height="64" rx="16" fill={`url(#${gradient})`} />
        <path d="M14 36 50 18 40 48 31 39 24 46 25 35Z" fill="#fff" />
        <path d="M25 35 50 18 31 39Z" fill="#bfdbfe" />
      </svg>
      <span className="logo__name">{name}</span>
    </span>
  );
}
