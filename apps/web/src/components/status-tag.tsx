import type { ReactNode } from 'react';
import { Tag } from 'antd';
import './status-tag.css';

/** What a status means to the customer: done (paid, claimed), waiting for them, or over. */
export type StatusTone = 'done' | 'waiting' | 'over';

/** A status as a tag, in colours that keep 4.5:1 on their tint (antd's green and gold presets do not). */
export function StatusTag({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return <Tag className={`status-tag status-tag--${tone}`}>{children}</Tag>;
}
