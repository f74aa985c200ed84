import { Button } from 'antd';
import { useEmailCodeSender } from '../lib/use-email-code-sender.ts';

/** The console's get-code button (spec section 4); its states are `useEmailCodeSender`'s. */
export function EmailCodeButton({ onSend }: { onSend: () => Promise<unknown> }) {
  const { label, disabled, send } = useEmailCodeSender(onSend);
  return (
    <Button onClick={() => void send()} disabled={disabled}>
      {label}
    </Button>
  );
}
